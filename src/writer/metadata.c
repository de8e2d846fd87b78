/*
 * writer-metadata.c - produces the TSDL text describing trax's traces.
 * Every integer is byte-aligned (align = 8): the recorder writes fields
 * packed, which keeps records small and costs nothing on x86.
 */
#include "writer/metadata.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "common/uuid.h"
#include "writer/packet.h"

static const char *const context_names[CTF_CTX_COUNT] = {
    [CTF_CTX_VPID] = "vpid",
    [CTF_CTX_VTID] = "vtid",
    [CTF_CTX_PROCNAME] = "procname",
    [CTF_CTX_PTHREAD_ID] = "pthread_id",
    [CTF_CTX_IP] = "ip",
};

int ctf_context_from_name(const char *name)
{
	int i;

	for (i = 0; i < CTF_CTX_COUNT; i++)
		if (!strcmp(name, context_names[i]))
			return i;
	return -1;
}

const char *ctf_context_name(int ctx)
{
	return ctx >= 0 && ctx < CTF_CTX_COUNT ? context_names[ctx] : "?";
}

unsigned int ctf_context_size(int ctx)
{
	switch (ctx) {
	case CTF_CTX_VPID:
	case CTF_CTX_VTID:
		return 4;
	case CTF_CTX_PROCNAME:
		return CTF_PROCNAME_LEN;
	default:
		return 8;
	}
}

/* A TSDL string literal: quotes and backslashes escaped, control bytes dropped. */
static void put_quoted(struct strbuf *out, const char *s)
{
	strbuf_add(out, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			strbuf_add(out, "\\", 1);
			strbuf_add(out, s, 1);
		} else if (c == '\n') {
			strbuf_add(out, "\\n", 2);
		} else if (c >= 0x20) {
			strbuf_add(out, s, 1);
		}
	}
	strbuf_add(out, "\"", 1);
}

void ctf_metadata_trace(struct strbuf *out, const struct ctf_trace_desc *t)
{
	char uuid[37];
	unsigned int i;

	trax_uuid_format(t->uuid, uuid);
	strbuf_puts(out, "/* CTF 1.8 */\n\n");
	strbuf_puts(out,
		    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n");
	strbuf_printf(out,
		      "trace {\n"
		      "\tmajor = 1;\n"
		      "\tminor = 8;\n"
		      "\tuuid = \"%s\";\n"
		      "\tbyte_order = %s;\n"
		      "\tpacket.header := struct {\n"
		      "\t\tuint32_t magic;\n"
		      "\t\tuint8_t  uuid[16];\n"
		      "\t\tuint32_t stream_id;\n"
		      "\t\tuint64_t stream_instance_id;\n"
		      "\t};\n"
		      "};\n\n",
		      uuid, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "le" : "be");

	strbuf_puts(out, "env {\n");
	for (i = 0; i < t->nr_env; i++) {
		strbuf_printf(out, "\t%s = ", t->env[i].key);
		if (t->env[i].str)
			put_quoted(out, t->env[i].str);
		else
			strbuf_printf(out, "%" PRId64, t->env[i].num);
		strbuf_puts(out, ";\n");
	}
	strbuf_puts(out, "};\n\n");

	strbuf_printf(out, "clock {\n\tname = \"%s\";\n\tuuid = \"%s\";\n\tdescription = ",
		      t->clock.name, t->clock.uuid);
	put_quoted(out, t->clock.description);
	strbuf_printf(out,
		      ";\n\tfreq = %" PRIu64 ";\n"
		      "\tprecision = 1;\n"
		      "\toffset_s = %" PRId64 ";\n"
		      "\toffset = %" PRId64 ";\n"
		      "\tabsolute = FALSE;\n"
		      "};\n\n",
		      t->clock.freq, t->clock.offset_s, t->clock.offset);

	strbuf_printf(out,
		      "typealias integer {\n"
		      "\tsize = 27; align = 1; signed = false;\n"
		      "\tmap = clock.%s.value;\n"
		      "} := uint27_clock_monotonic_t;\n\n"
		      "typealias integer {\n"
		      "\tsize = 64; align = 8; signed = false;\n"
		      "\tmap = clock.%s.value;\n"
		      "} := uint64_clock_monotonic_t;\n\n",
		      t->clock.name, t->clock.name);

	strbuf_puts(out, "struct packet_context {\n"
			 "\tuint64_clock_monotonic_t timestamp_begin;\n"
			 "\tuint64_clock_monotonic_t timestamp_end;\n"
			 "\tuint64_t content_size;\n"
			 "\tuint64_t packet_size;\n"
			 "\tuint64_t packet_seq_num;\n"
			 "\tuint64_t events_discarded;\n"
			 "\tuint32_t cpu_id;\n"
			 "};\n\n"
			 "struct event_header_compact {\n"
			 "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
			 "\tvariant <id> {\n"
			 "\t\tstruct {\n"
			 "\t\t\tuint27_clock_monotonic_t timestamp;\n"
			 "\t\t} compact;\n"
			 "\t\tstruct {\n"
			 "\t\t\tuint32_t id;\n"
			 "\t\t\tuint64_clock_monotonic_t timestamp;\n"
			 "\t\t} extended;\n"
			 "\t} v;\n"
			 "} align(8);\n\n");
}

static void put_integer(struct strbuf *out, const struct trax_integer_type *t)
{
	strbuf_printf(out,
		      "integer { size = %u; align = 8; signed = %u; encoding = %s; base = %u;%s }",
		      t->size, t->is_signed ? 1u : 0u, t->text ? "UTF8" : "none", t->base,
		      t->network ? " byte_order = be;" : "");
}

void ctf_metadata_stream(struct strbuf *out, const struct ctf_stream_desc *s)
{
	unsigned int i;

	strbuf_printf(out,
		      "stream {\n"
		      "\tid = %u;\n"
		      "\tevent.header := struct event_header_compact;\n"
		      "\tpacket.context := struct packet_context;\n",
		      s->id);
	if (s->nr_contexts) {
		strbuf_puts(out, "\tevent.context := struct {\n");
		for (i = 0; i < s->nr_contexts; i++) {
			switch (s->contexts[i]) {
			case CTF_CTX_VPID:
			case CTF_CTX_VTID:
				strbuf_printf(out,
					      "\t\tinteger { size = 32; align = 8; signed = 1; "
					      "encoding = none; base = 10; } _%s;\n",
					      context_names[s->contexts[i]]);
				break;
			case CTF_CTX_PROCNAME:
				strbuf_printf(out,
					      "\t\tinteger { size = 8; align = 8; signed = 1; "
					      "encoding = UTF8; base = 10; } _procname[%u];\n",
					      CTF_PROCNAME_LEN);
				break;
			case CTF_CTX_PTHREAD_ID:
				strbuf_puts(out, "\t\tinteger { size = 64; align = 8; signed = 0; "
						 "encoding = none; base = 10; } _pthread_id;\n");
				break;
			case CTF_CTX_IP:
				strbuf_puts(out, "\t\tinteger { size = 64; align = 8; signed = 0; "
						 "encoding = none; base = 10; } _ip;\n");
				break;
			}
		}
		strbuf_puts(out, "\t};\n");
	}
	strbuf_puts(out, "};\n\n");
}

static void put_enum_value(struct strbuf *out, int64_t v, bool is_signed)
{
	if (is_signed)
		strbuf_printf(out, "%" PRId64, v);
	else
		strbuf_printf(out, "%" PRIu64, (uint64_t)v);
}

static void put_enum(struct strbuf *out, const struct trax_field_desc *f)
{
	const struct trax_enum_desc *e = f->enum_desc;
	uint64_t next = 0;
	unsigned int i;

	strbuf_puts(out, "enum : ");
	put_integer(out, &f->elem);
	strbuf_puts(out, " {\n");
	for (i = 0; e && i < e->nr_entries; i++) {
		const struct trax_enum_entry *m = &e->entries[i];
		int64_t start, end;

		trax_enum_entry_values(m, &next, &start, &end);
		strbuf_puts(out, "\t\t\t");
		put_quoted(out, m->label);
		if (m->flags & TRAX_ENUM_AUTO) {
			/* As LTTng-UST writes it: TSDL numbers it the same way. */
		} else {
			bool typed = m->flags & TRAX_ENUM_TYPED;

			strbuf_puts(out, " = ");
			put_enum_value(out, start,
				       typed ? m->flags & TRAX_ENUM_START_SIGNED
					     : f->elem.is_signed);
			if (end != start) {
				strbuf_puts(out, " ... ");
				put_enum_value(out, end,
					       typed ? m->flags & TRAX_ENUM_END_SIGNED
						     : f->elem.is_signed);
			}
		}
		strbuf_puts(out, i + 1 < e->nr_entries ? ",\n" : "\n");
	}
	strbuf_puts(out, "\t\t}");
}

static void put_field(struct strbuf *out, const struct trax_field_desc *f)
{
	strbuf_puts(out, "\t\t");
	switch (f->kind) {
	case TRAX_FIELD_INTEGER:
		put_integer(out, &f->elem);
		strbuf_printf(out, " _%s;\n", f->name);
		break;
	case TRAX_FIELD_ENUM:
		put_enum(out, f);
		strbuf_printf(out, " _%s;\n", f->name);
		break;
	case TRAX_FIELD_FLOAT:
		strbuf_printf(
		    out, "floating_point { exp_dig = %u; mant_dig = %u; align = 8; } _%s;\n",
		    f->float_bits == 32 ? 8u : 11u, f->float_bits == 32 ? 24u : 53u, f->name);
		break;
	case TRAX_FIELD_STRING:
		strbuf_printf(out, "string _%s;\n", f->name);
		break;
	case TRAX_FIELD_ARRAY:
		put_integer(out, &f->elem);
		strbuf_printf(out, " _%s[%u];\n", f->name, f->count);
		break;
	case TRAX_FIELD_SEQUENCE:
		put_integer(out, &f->length);
		strbuf_printf(out, " __%s_length;\n\t\t", f->name);
		put_integer(out, &f->elem);
		strbuf_printf(out, " _%s[ __%s_length ];\n", f->name, f->name);
		break;
	}
}

void ctf_metadata_event(struct strbuf *out, const struct trax_event_desc *ev, uint32_t id,
			uint32_t stream_id, int loglevel)
{
	unsigned int i, written = 0;

	strbuf_puts(out, "event {\n\tname = ");
	put_quoted(out, ev->name);
	strbuf_printf(out, ";\n\tid = %u;\n\tstream_id = %u;\n", id, stream_id);
	if (loglevel >= 0)
		strbuf_printf(out, "\tloglevel = %d;\n", loglevel);
	if (ev->model_emf_uri) {
		strbuf_puts(out, "\tmodel.emf.uri = ");
		put_quoted(out, ev->model_emf_uri);
		strbuf_puts(out, ";\n");
	}
	for (i = 0; i < ev->nr_fields; i++)
		written += !ev->fields[i].nowrite;
	if (written) {
		strbuf_puts(out, "\tfields := struct {\n");
		for (i = 0; i < ev->nr_fields; i++)
			if (!ev->fields[i].nowrite)
				put_field(out, &ev->fields[i]);
		strbuf_puts(out, "\t};\n");
	} else {
		strbuf_puts(out, "\tfields := struct { };\n");
	}
	strbuf_puts(out, "};\n\n");
}
