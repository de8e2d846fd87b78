/*
 * test_filter.c - the filter module alone: expressions compiled, linked
 * against an event of every field type and run; what must be refused
 * (syntax, operators, types) with the place in the expression; bytecode
 * damaged on purpose refused by the validator.
 */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filter/bytecode.h"
#include "filter/filter.h"

static const int32_t arr_vals[] = {1, -2, 3};
static const uint8_t be_vals[] = {0x01, 0x02, 0xff, 0xfe};
static const char text_vals[] = {'a', 'b', 'c'}; /* no NUL */

static const struct filter_field fields[] = {
    {"i", FILTER_FIELD_INT, 0},
    {"u", FILTER_FIELD_INT, 0},
    {"big", FILTER_FIELD_INT, 0},
    {"f", FILTER_FIELD_FLOAT, 0},
    {"s", FILTER_FIELD_STRING, 0},
    {"t", FILTER_FIELD_TEXT, 1},
    {"arr", FILTER_FIELD_ARRAY, 4 | FILTER_ELEM_SIGNED},
    {"be", FILTER_FIELD_ARRAY, 2 | FILTER_ELEM_BE},
    {"star", FILTER_FIELD_STRING, 0},
    {"empty", FILTER_FIELD_STRING, 0},
    {"zero", FILTER_FIELD_FLOAT, 0},
};

static void get_vpid(struct filter_arg *out, void *priv)
{
	(void)priv;
	out->u = 1234;
}

static void get_procname(struct filter_arg *out, void *priv)
{
	(void)priv;
	out->str = "myproc";
}

static void get_app(struct filter_arg *out, void *priv)
{
	out->d = *(double *)priv;
}

static const struct filter_ctx_field ctx_fields[] = {
    {"vpid", FILTER_FIELD_INT, 0, get_vpid},
    {"procname", FILTER_FIELD_STRING, 0, get_procname},
    {"myprov:ratio", FILTER_FIELD_FLOAT, 1, get_app},
};

static const struct filter_layout layout = {fields, sizeof(fields) / sizeof(fields[0]), ctx_fields,
					    sizeof(ctx_fields) / sizeof(ctx_fields[0])};

static struct filter_arg args[sizeof(fields) / sizeof(fields[0])];

static void init_args(void)
{
	args[0].u = (uint64_t)(int64_t)-5;
	args[1].u = 200;
	args[2].u = UINT64_MAX;
	args[3].d = 1.5;
	args[4].str = "hello world";
	args[5].seq.ptr = text_vals;
	args[5].seq.count = sizeof(text_vals);
	args[6].seq.ptr = arr_vals;
	args[6].seq.count = 3;
	args[7].seq.ptr = be_vals;
	args[7].seq.count = 2;
	args[8].str = "a*b\\c";
	args[9].str = "";
	args[10].d = 0.0;
}

/* Runs expr on the event: 1 or 0, -1 when compiling fails, -2 when linking fails. */
static int eval(const char *expr)
{
	uint8_t *bc;
	size_t len;
	struct filter_error err;
	struct filter_program *p;
	double ratio = 0.25;
	int r;

	if (filter_compile(expr, &bc, &len, &err))
		return -1;
	p = filter_link(bc, len, &layout, &err);
	free(bc);
	if (!p)
		return -2;
	r = filter_run(p, args, &ratio);
	filter_free(p);
	return r;
}

static const struct {
	const char *expr;
	int want;
} cases[] = {
    /* integers, every comparison, both signs */
    {"i == -5", 1},
    {"i != -5", 0},
    {"i < 0", 1},
    {"i <= -5", 1},
    {"i > -6", 1},
    {"i >= -4", 0},
    {"u == 200", 1},
    {"u == 0xc8", 1},
    {"u == 0310", 1},
    {"-5 == i", 1},
    {"i == - 5", 1},
    {"-i == 5", 1},
    /* a constant first: the fused comparison mirrors the operator */
    {"0 > i", 1},
    {"-4 <= i", 0},
    {"199 < u", 1},
    {"200 >= u", 1},
    {"201 <= u", 0},
    {"-5 != i", 0},
    /* 64-bit unsigned values compare as signed 64-bit integers (as LTTng-UST) */
    {"big == -1", 1},
    {"big == 0xffffffffffffffff", 1},
    {"big < 0", 1},
    /* floats, and mixed */
    {"f == 1.5", 1},
    {"f > 1", 1},
    {"1 < f", 1},
    {"f < 1.25", 0},
    {"f == 15e-1", 1},
    {"f == .15e1", 1},
    {"-f == -1.5", 1},
    {"f", -2}, /* a float is no result, as in LTTng */
    {"!!f", 1},
    {"zero", -2},
    {"!zero", 1},
    {"zero || f", 1},
    {"arr[0] && 0.5", 0}, /* as LTTng: a float's integer part is its truth in && and || */
    {"arr[0] && 1.5", 1},
    {"arr[0] && -1.5", 1},
    {"!f || 0.5", 0},
    {"f && zero", 0},
    /* strings: plain, globs, escapes, ordering */
    {"s == \"hello world\"", 1},
    {"s != \"hello world\"", 0},
    {"\"hello world\" == s", 1},
    {"s == \"hello\"", 0},
    {"s == \"hello*\"", 1},
    {"s == \"*world\"", 1},
    {"s == \"h*o*d\"", 1},
    {"s == \"*\"", 1},
    {"s == \"h*x\"", 0},
    {"s != \"hello*\"", 0},
    {"\"hel*\" == s", 1},
    {"star == \"a\\*b\\\\c\"", 1}, /* escaped star and backslash: a plain string */
    {"star == \"a\\**\"", 1},	   /* a pattern starting with a literal star */
    {"star == \"a*\\\\c\"", 1},
    {"s < \"i\"", 1},
    {"s > \"hello\"", 1},
    {"s >= \"hello world\"", 1},
    {"empty == \"\"", 1},
    {"empty == \"*\"", 1},
    {"empty == \"?\"", 0},
    {"t == \"abc\"", 1},
    {"t == \"ab\"", 0},
    {"t == \"a*\"", 1},
    {"t > \"abb\"", 1},
    /* arrays: elements by index, sign, byte order, out of range */
    {"arr[0] == 1", 1},
    {"arr[1] == -2", 1},
    {"arr[2] == 3", 1},
    {"arr[3] == 0", 0},
    {"arr[3] != 0", 0},
    {"be[0] == 0x0102", 1},
    {"be[1] == 0xfffe", 1},
    {"t[1] == 98", -2}, /* LTTng indexes no text */
    /* contexts */
    {"$ctx.vpid == 1234", 1},
    {"$ctx.procname == \"my*\"", 1},
    {"$ctx.procname == \"other\"", 0},
    {"$app.myprov:ratio < 0.5", 1},
    /* logic, short circuit, precedence */
    {"i < 0 && u > 100", 1},
    {"i > 0 && u > 100", 0},
    {"i > 0 || u > 100", 1},
    {"i > 0 || u < 100", 0},
    {"!(i < 0)", 0},
    {"!!u", 1},
    {"i < 0 && (u == 1 || u == 200)", 1},
    {"i > 0 || u == 1 || f == 1.5", 1},
    {"u > 100 && arr[9] == 1", 0}, /* the error on the right makes it false */
    {"u < 100 && arr[9] == 1", 0},
    {"u > 100 || arr[9] == 1", 1}, /* short circuit: never evaluated */
    /* bitwise, shifts, C precedence (== binds tighter than &) */
    {"(u & 0x8) == 8", 1},
    {"u & 0x8 == 8", 1}, /* as LTTng: (u & 0x8) == 8 */
    {"u == 201 ^ 1", 1}, /* u == (201 ^ 1) */
    {"u == 199 | 1", 0},
    {"u == 200 | 1", 0},
    {"u == 200 | 8", 1},
    {"u > 300 & 0xff", 1}, /* u > (300 & 0xff): & binds tighter than > */
    {"(u | 1) == 201", 1},
    {"(u ^ 0xff) == 55", 1},
    {"(1 << 4) == 16", 1},
    {"(u >> 3) == 25", 1},
    {"(-1 >> 60) == 15", 1}, /* a logical shift */
    {"(1 << 64) == 0", 0},   /* shift count out of range: false */
    {"(1 << -1) == 0", 0},
    {"~0 == -1", 1},
    {"~u == -201", 1},
    {"1", 1},
    {"0", 0},
    {"3 > 2 > 0", 1},
    /* fields the event lacks, operands of the wrong type: the link fails */
    {"nosuch == 1", -2},
    {"$ctx.nosuch == 1", -2},
    {"s == 1", -2},
    {"i == \"x\"", -2},
    {"s & 1", -2},
    {"arr == 1", -2},
    {"i[0] == 1", -2},
    {"!s", -2},
    {"f & 1", -2},
    /* refused when compiled */
    {"", -1},
    {"i ==", -1},
    {"i = 1", -1},
    {"(i == 1", -1},
    {"i == 1)", -1},
    {"i + 1 == 2", -1},
    {"i * 2", -1},
    {"\"a\" == 1", -1},
    {"\"a*\" < s", -1},
    {"\"a*\" == \"b*\"", -1},
    {"!\"a\"", -1},
    {"1.5 & 1", -1},
    {"\"abc\"", -1},
    {"08 == 1", -1},
    {"0x == 1", -1},
    {"99999999999999999999 == 1", -1},
    {"s == \"open", -1},
    {"$foo == 1", -1},
    {"arr[i] == 1", -1},
    {"1abc == 1", -1},
    {"0X10 == 16", -1},
    {"s == \"a\\nb\"", -1},
    {"!1.5", -1},
    {"1.5", -1},
    {"s == 'hello*'", 1},
    {"i == 1 # 2", -1},
};

/* Where a refused expression is said to be wrong (byte offset). */
static const struct {
	const char *expr;
	int pos;
	const char *msg_part;
} errors[] = {
    {"i ==", 4, "expected a field"},
    {"(i == 1", 7, "')'"},
    {"i == 1)", 6, "unexpected"},
    {"i + 1 == 2", 2, "unsupported operator '+'"},
    {"x == 1 && \"a\" == 2", 14, "cannot compare a string with an integer"},
    {"s == \"open", 5, "unterminated"},
    {"a && \"p*\" > s", 10, "pattern"},
    {"", 0, "empty"},
};

/* A program damaged at one byte: refused by filter_check, or linked and run safely. */
static void check_damage(void)
{
	const char *expr = "i < 0 && (s == \"hello*\" || arr[1] == -2) || !(f > 2.0)";
	uint8_t *bc;
	size_t len;
	struct filter_error err;
	unsigned int refused = 0, total = 0;

	CHECK(!filter_compile(expr, &bc, &len, &err), "%s", err.msg);
	CHECK(!filter_check(bc, len, &err), "%s", err.msg);
	CHECK(filter_source(bc, len) && !strcmp(filter_source(bc, len), expr));
	for (size_t at = 0; at < len; at++) {
		for (unsigned int v = 0; v < 256; v += 7) {
			uint8_t *copy = malloc(len);
			struct filter_program *p;

			memcpy(copy, bc, len);
			copy[at] = (uint8_t)v;
			total++;
			if (filter_check(copy, len, &err)) {
				refused++;
			} else if ((p = filter_link(copy, len, &layout, &err))) {
				int r = filter_run(p, args, NULL);

				CHECK(r == 0 || r == 1);
				filter_free(p);
			}
			free(copy);
		}
	}
	CHECK(refused > total / 4, "%u of %u damaged programs refused", refused, total);
	/* truncated, or with bytes added */
	CHECK(filter_check(bc, len - 1, &err));
	CHECK(filter_check(bc, FILTER_BC_HEADER - 1, &err));
	free(bc);
}

/* Hand-made bytecode the compiler never makes: each fault the validator must refuse. */
static void check_validator(void)
{
	static const struct {
		const char *what;
		uint8_t code[24];
		size_t len;
	} bad[] = {
	    {"empty", {0}, 0},
	    {"no return", {FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0}, 9},
	    {"underflow", {FOP_EQ, FOP_RET}, 2},
	    {"return of nothing", {FOP_RET}, 1},
	    {"two values returned",
	     {FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_RET},
	     19},
	    {"backward jump",
	     {FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_AND, 0, 0, 0, 0, FOP_RET},
	     15},
	    {"jump into an operand",
	     {FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_AND, 16, 0, 0, 0,
	      FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_RET},
	     24},
	    {"jump past the end",
	     {FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_AND, 99, 0, 0, 0, FOP_RET},
	     15},
	    {"unknown opcode", {200, FOP_RET}, 2},
	    {"specialized opcode", {FOP_LOAD_FIELD_INT, 0, 0, 0, 0, FOP_RET}, 6},
	    {"string offset out of the table", {FOP_LOAD_FIELD, 200, 0, 0, 0, FOP_RET}, 6},
	    {"truncated operand", {FOP_RET, FOP_LOAD_INT, 1}, 3},
	    {"unreachable code",
	     {FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_RET,
	      FOP_LOAD_INT, 1, 0, 0, 0, 0, 0, 0, 0, FOP_RET},
	     20},
	    {"a string returned", {FOP_LOAD_STR, 0, 0, 0, 0, FOP_RET}, 6},
	    {"paths meet with different stacks",
	     {FOP_LOAD_INT, 1, 0, 0, 0, 0,	0, 0, 0, FOP_AND, 19, 0, 0, 0,
	      FOP_LOAD_INT, 1, 0, 0, 0, FOP_RET},
	     20},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t buf[64];
		struct filter_bc_header h = {FILTER_BC_MAGIC, FILTER_BC_VERSION, 0,
					     (uint32_t)bad[i].len, 2};
		struct filter_error err;

		memcpy(buf, &h, sizeof(h));
		memcpy(buf + FILTER_BC_HEADER, bad[i].code, bad[i].len);
		memcpy(buf + FILTER_BC_HEADER + bad[i].len, "x", 2);
		CHECK(filter_check(buf, FILTER_BC_HEADER + bad[i].len + 2, &err) == -1,
		      "validator accepted: %s", bad[i].what);
		CHECK(!filter_link(buf, FILTER_BC_HEADER + bad[i].len + 2, &layout, &err),
		      "linker accepted: %s", bad[i].what);
	}
}

int main(void)
{
	init_args();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = eval(cases[i].expr);

		CHECK(r == cases[i].want, "%s: %d, expected %d", cases[i].expr, r, cases[i].want);
	}
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		uint8_t *bc;
		size_t len;
		struct filter_error err;

		CHECK(filter_compile(errors[i].expr, &bc, &len, &err) == -1, "%s", errors[i].expr);
		CHECK(err.pos == errors[i].pos, "%s: error at %d, expected %d (%s)", errors[i].expr,
		      err.pos, errors[i].pos, err.msg);
		CHECK(strstr(err.msg, errors[i].msg_part), "%s: message '%s' lacks '%s'",
		      errors[i].expr, err.msg, errors[i].msg_part);
	}
	check_validator();
	check_damage();
	return CHECK_RESULT();
}
