/* clang-format off */
/*
 * fuzz_app_events.c - libFuzzer target for what traxd reads from traced
 * applications, which it must not trust: the input is the payload of an
 * APP_EVENTS message; it goes through the message framing and checking
 * (src/common/proto.c, over a socket pair, as the daemon receives it) and
 * then the event description parser (src/daemon/app-events.c), event
 * after event, as the daemon reads it, and each accepted one through the
 * metadata writer (src/writer/metadata.c), as trace.c writes it.
 *
 * FUZZ-SOURCES: src/common/proto.c src/common/strbuf.c src/common/uuid.c src/daemon/app-events.c src/writer/metadata.c
 * (one line: tools/fuzz.sh reads it; clang-format is off for this comment.)
 *
 * Built and run by tools/fuzz.sh (make fuzz); seeds in
 * tests/fuzz/corpus/app_events/.
 */
/* clang-format on */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/proto.h"
#include "daemon/traxd.h"
#include "writer/metadata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trax_msg_header h = {TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_APP_EVENTS,
				    (uint32_t)size, 1};
	struct trax_msg m;
	const char *kv;
	uint32_t index = 0;
	int sv[2];

	if (size > 100000 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 0;
	{
		int buf = 1 << 20;

		setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	}
	if (write(sv[0], &h, sizeof(h)) != sizeof(h) ||
	    (size && write(sv[0], data, size) != (ssize_t)size)) {
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	close(sv[0]);
	if (trax_msg_recv(sv[1], &m, 1000) == 0) {
		kv = trax_msg_first(&m);
		while (kv) {
			struct app_event e;

			if (!app_event_parse(&m, &kv, index, &e))
				break;
			/* what the daemon reads of a description it accepted */
			if (!e.name || !e.signature || strlen(app_event_field_text(&e)) > size * 16)
				__builtin_trap();
			for (unsigned int i = 0; i < e.cls.nr_fields; i++) {
				const struct ctfw_type *t = &e.cls.fields[i].type;

				if (!e.cls.fields[i].name ||
				    (t->kind == CTFW_TYPE_ENUM &&
				     (!t->enumeration.mappings || !t->enumeration.nr_mappings)) ||
				    (t->kind == CTFW_TYPE_ARRAY && !t->array.elem) ||
				    (t->kind == CTFW_TYPE_SEQUENCE && !t->sequence.elem))
					__builtin_trap();
			}
			{
				struct strbuf sb;

				strbuf_init(&sb);
				ctf_metadata_event(&sb, &e.cls, index, 0);
				if (!sb.failed &&
				    (sb.len < 4 || memcmp(sb.buf + sb.len - 4, "};\n\n", 4)))
					__builtin_trap();
				strbuf_free(&sb);
			}
			app_event_free(&e);
			index++;
		}
		trax_msg_free(&m);
	}
	close(sv[1]);
	return 0;
}
