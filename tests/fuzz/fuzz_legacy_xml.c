/*
 * fuzz_legacy_xml.c - libFuzzer target for the facility XML reader
 * (src/legacy/lxml.c): any bytes as a facility file. A failure is one
 * line "legacy.xml:LINE:COL: what"; a success gives facilities whose every
 * event then walks a payload (the input itself, under a 64-bit aligned
 * ABI) without reading past it.
 *
 * FUZZ-SOURCES: src/legacy/lxml.c src/legacy/lxml-lex.c src/legacy/ltype.c src/legacy/larena.c
 * FUZZ-SEEDS: tests/data/legacy/facilities/[lp][a-z-]*[a-z]/[a-z]*.xml
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "legacy/ltt-type.h"

static const uint8_t *payload_end;

static int on_string(void *arg, const char *name, const struct ltt_type *t, const char *s,
		     size_t len)
{
	(void)arg;
	(void)name;
	(void)t;
	CHECK((const uint8_t *)s + len < payload_end && s[len] == 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of the exact size: reading past it is a report */
	char *text = malloc(size ? size : 1);
	static const struct ltt_abi abi = {4, 8, 8, 8, 8, false, false, false};
	const struct ltt_payload_sink sink = {.string = on_string};
	struct ltt_facility *f;
	size_t n;
	char err[256];

	memcpy(text, data, size);
	if (lxml_parse(text, size, "legacy.xml", &f, &n, err, sizeof(err))) {
		CHECK(!strncmp(err, "legacy.xml:", 11) && !strchr(err, '\n'));
		CHECK(f == NULL && n == 0);
		free(text);
		return 0;
	}
	CHECK(n > 0);
	payload_end = data + size;
	for (size_t i = 0; i < n; i++) {
		for (size_t e = 0; e < f[i].nevents; e++) {
			long r = ltt_payload_decode(f[i].events[e].payload, &abi, data, size, 0,
						    &sink, NULL, err, sizeof(err));

			CHECK(r == -1 ? (err[0] && !strchr(err, '\n'))
				      : (r >= 0 && (size_t)r <= size));
		}
	}
	lxml_free(f, n);
	free(text);
	return 0;
}
