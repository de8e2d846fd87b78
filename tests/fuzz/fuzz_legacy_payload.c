/*
 * fuzz_legacy_payload.c - libFuzzer target for the payload walk
 * (src/legacy/ltype.c) and the marker formats (src/legacy/lmarker.c). The
 * input: one byte of ABI (alignment 0/4/8, byte orders, string rule, long
 * and pointer 4 or 8), a NUL-terminated marker format, then the payload.
 * The payload is walked as the marker's type and as every event of a
 * facility holding each kind of type (unions with and without selector,
 * sequences, arrays, nested structs, enums, floats, network fields). Every
 * walk ends with a size inside the payload or one error line, and a type's
 * fixed-layout plan (ltt_payload_plan), when it has one, gives that size
 * (or -1 with the walk) and items inside it.
 *
 * FUZZ-SOURCES: src/legacy/ltype.c src/legacy/lmarker.c src/legacy/lxml.c
 * src/legacy/lxml-lex.c src/legacy/larena.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "legacy/ltt-type.h"

static const char facility[] =
    "<facility name=f>\n"
    "<event name=all><struct>\n"
    " <field name=a><uint size=1/></field>\n"
    " <field name=e><enum size=2> A B C </enum></field>\n"
    " <field name=u><union typecodesize=1><field name=i><int size=8/></field>\n"
    "   <field name=s><string/></field><field name=t><typeref name=pair/></field></union></field>\n"
    " <field name=q><sequence lengthsize=2><typeref name=pair/></sequence></field>\n"
    " <field name=r><array size=3><float size=4/></array></field>\n"
    " <field name=n><uint size=2 network/></field>\n"
    " <field name=z><string/></field>\n"
    "</struct></event>\n"
    "<event name=cunion><field name=c><union><field name=x><ulong/></field>\n"
    "  <field name=y><sequence><uchar/><short/></sequence></field></union></field>\n"
    "  <field name=d><float size=8/></field></event>\n"
    "<event name=nested><field name=s><sequence><uint/><sequence><size_t/><string/></sequence>"
    "</sequence></field><field name=p><pointer/></field></event>\n"
    "<event name=fixed><field name=a><uint size=1/></field><field name=e><enum size=2> A B "
    "</enum></field><field name=r><array size=2><typeref name=pair/></array></field>"
    "<field name=f><float size=4/></field><field name=n><uint size=8 network/></field></event>\n"
    "<event name=undeclared><field name=m><typeref name=nowhere/></field></event>\n"
    "<type name=pair><struct><field name=k><int size=2/></field><field name=v><long/></field>"
    "</struct></type>\n"
    "</facility>\n";

static struct ltt_facility *fac;
static size_t nfac;
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

static void walk(const struct ltt_type *t, const struct ltt_abi *abi, const uint8_t *p, size_t len,
		 size_t base)
{
	const struct ltt_payload_sink sink = {.string = on_string};
	char err[256];
	long r = ltt_payload_decode(t, abi, p, len, base, &sink, NULL, err, sizeof(err));
	long r2 = ltt_payload_size(t, abi, p, len, base, err, sizeof(err));

	struct ltt_plan *pl = ltt_payload_plan(t, abi, base);

	CHECK(r == r2);
	CHECK(r == -1 ? (err[0] && !strchr(err, '\n')) : (r >= 0 && (size_t)r <= len));
	if (pl) {
		CHECK(ltt_plan_size(pl, len) == (len < pl->need ? -1 : r), "%ld %ld", r,
		      ltt_plan_size(pl, len));
		for (size_t i = 0; i < pl->n; i++)
			CHECK(pl->items[i].off + pl->items[i].size <= pl->need);
		free(pl);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];

	if (!fac) {
		CHECK(lxml_parse(facility, strlen(facility), "f.xml", &fac, &nfac, err,
				 sizeof(err)) == 0);
	}
	if (size < 1)
		return 0;
	uint8_t k = data[0];
	struct ltt_abi abi = {4,
			      k & 0x40 ? 8 : 4,
			      k & 0x40 ? 8 : 4,
			      k & 0x40 ? 8 : 4,
			      (const uint8_t[]){0, 4, 8, 0}[k & 3],
			      (k & 4) != 0,
			      (k & 8) != 0,
			      (k & 16) != 0};
	const uint8_t *nul = memchr(data + 1, 0, size - 1);
	const uint8_t *p = nul ? nul + 1 : data + size;
	size_t len = data + size - p;
	/* copies of the exact sizes: reading past them is a report */
	uint8_t *copy = malloc(len ? len : 1);
	size_t base = (k >> 5) & 1 ? 3 : 0;

	memcpy(copy, p, len);
	payload_end = copy + len;
	if (nul) {
		char *format = strndup((const char *)data + 1, nul - data - 1);
		struct lmarker_type *m = lmarker_parse(format, err, sizeof(err));

		if (m) {
			walk(lmarker_type_get(m), &abi, copy, len, base);
			lmarker_free(m);
		} else {
			CHECK(err[0] && !strchr(err, '\n'));
		}
		free(format);
	}
	for (size_t e = 0; e < fac[0].nevents; e++)
		walk(fac[0].events[e].payload, &abi, copy, len, base);
	free(copy);
	return 0;
}
