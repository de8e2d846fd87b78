/*
 * fuzz_filter_compile.c - libFuzzer target for the filter compiler
 * (src/filter): any text, as `trax enable-event --filter` and TRAX_FILTER
 * pass it. What compiles must pass the validator (filter_check), link
 * against an event of every field type or be refused with a message, and
 * run to 0 or 1; what does not compile must say where (a position inside
 * the text, or -1) and what.
 *
 * FUZZ-SOURCES: src/filter/[a-z]*.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "filter/filter.h"

static void get_int(struct filter_arg *out, void *priv)
{
	(void)priv;
	out->u = 42;
}

static void get_str(struct filter_arg *out, void *priv)
{
	(void)priv;
	out->str = "proc";
}

static const int16_t arr[] = {1, -1, 7};
static const struct filter_field fields[] = {
    {"a", FILTER_FIELD_INT, 0},	   {"b", FILTER_FIELD_INT, 0},
    {"f", FILTER_FIELD_FLOAT, 0},  {"s", FILTER_FIELD_STRING, 0},
    {"t", FILTER_FIELD_TEXT, 1},   {"arr", FILTER_FIELD_ARRAY, 2 | FILTER_ELEM_SIGNED},
    {"x", FILTER_FIELD_STRING, 0},
};
static const struct filter_ctx_field ctx[] = {
    {"vpid", FILTER_FIELD_INT, 0, get_int},
    {"procname", FILTER_FIELD_STRING, 0, get_str},
    {"p:n", FILTER_FIELD_INT, 1, get_int},
};
static const struct filter_layout layout = {fields, 7, ctx, 3};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *expr = malloc(size + 1);
	struct filter_arg args[7];
	struct filter_error err;
	struct filter_program *p;
	uint8_t *bc;
	size_t len;

	memcpy(expr, data, size);
	expr[size] = 0;
	args[0].u = 5;
	args[1].u = (uint64_t)-3;
	args[2].d = 2.5;
	args[3].str = "hello*world";
	args[4].seq.ptr = "abcd";
	args[4].seq.count = 4;
	args[5].seq.ptr = arr;
	args[5].seq.count = 3;
	args[6].str = "";
	if (filter_compile(expr, &bc, &len, &err)) {
		CHECK(err.msg[0], "no message for a refused expression");
		CHECK(err.pos >= -1 && err.pos <= (int)strlen(expr), "position %d", err.pos);
		CHECK(memchr(err.msg, 0, sizeof(err.msg)) && !strchr(err.msg, '\n'));
		free(expr);
		return 0;
	}
	CHECK(!filter_check(bc, len, &err), "compiled but refused: %s", err.msg);
	CHECK(!strcmp(filter_source(bc, len), expr));
	p = filter_link(bc, len, &layout, &err);
	if (p) {
		int r = filter_run(p, args, NULL);

		CHECK(r == 0 || r == 1);
		filter_free(p);
	} else {
		CHECK(err.msg[0], "no message for a refused link");
	}
	free(bc);
	free(expr);
	return 0;
}
