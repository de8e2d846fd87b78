/*
 * fuzz_filter_bytecode.c - libFuzzer target for the filter validator and
 * interpreter (src/filter): bytecode is untrusted input to traxd and to
 * every traced application. Input: one byte choosing the argument values,
 * then the bytes of the code; a header and a string table of field names
 * and literals are put around it, so that the validator, not the header
 * check, meets most inputs. What filter_check accepts must link or be
 * refused with a message, and what links must run to 0 or 1 without a
 * sanitizer report on arguments that end where the layout says.
 *
 * FUZZ-SOURCES: src/filter/[a-z]*.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "filter/bytecode.h"
#include "filter/filter.h"

static void get_int(struct filter_arg *out, void *priv)
{
	out->u = (uint64_t)(uintptr_t)priv;
}

static void get_str(struct filter_arg *out, void *priv)
{
	(void)priv;
	out->str = "proc";
}

/* names at offsets 0 (a), 2 (b), 4 (s), 6 (arr), 10 (t), 12 (vpid), 17 (procname), 26 (a*) */
static const char strtab[] = "a\0b\0s\0arr\0t\0vpid\0procname\0a*\0";
static const struct filter_field fields[] = {
    {"a", FILTER_FIELD_INT, 0},
    {"b", FILTER_FIELD_FLOAT, 0},
    {"s", FILTER_FIELD_STRING, 0},
    {"arr", FILTER_FIELD_ARRAY, 8 | FILTER_ELEM_BE},
    {"t", FILTER_FIELD_TEXT, 1 | FILTER_ELEM_SIGNED},
};
static const struct filter_ctx_field ctx[] = {
    {"vpid", FILTER_FIELD_INT, 0, get_int},
    {"procname", FILTER_FIELD_STRING, 0, get_str},
};
static const struct filter_layout layout = {fields, 5, ctx, 2};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct filter_bc_header h = {FILTER_BC_MAGIC, FILTER_BC_VERSION, 0, 0, sizeof(strtab)};
	uint64_t elems[2] = {1, 2};
	struct filter_arg args[5];
	struct filter_error err;
	struct filter_program *p;
	uint8_t *bc;
	size_t len;

	if (!size)
		return 0;
	h.code_len = (uint32_t)(size - 1);
	len = FILTER_BC_HEADER + (size - 1) + sizeof(strtab);
	bc = malloc(len);
	memcpy(bc, &h, sizeof(h));
	memcpy(bc + FILTER_BC_HEADER, data + 1, size - 1);
	memcpy(bc + FILTER_BC_HEADER + size - 1, strtab, sizeof(strtab));
	args[0].u = (uint64_t)(int64_t)(int8_t)data[0];
	args[1].d = data[0] / 3.0;
	args[2].str = data[0] & 1 ? "a" : "abc";
	args[3].seq.ptr = elems;
	args[3].seq.count = data[0] & 3 ? 2 : 0;
	args[4].seq.ptr = "xyz";
	args[4].seq.count = data[0] & 4 ? 3 : 1;
	if (filter_check(bc, len, &err) == 0) {
		p = filter_link(bc, len, &layout, &err);
		if (p) {
			int r = filter_run(p, args, (void *)(uintptr_t)data[0]);

			CHECK(r == 0 || r == 1);
			filter_free(p);
		} else {
			CHECK(err.msg[0]);
		}
	} else {
		CHECK(err.msg[0]);
		CHECK(!filter_link(bc, len, &layout, &err), "linked what the validator refused");
	}
	free(bc);
	return 0;
}
