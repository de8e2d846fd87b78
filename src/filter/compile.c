/*
 * compile.c - filter expressions to generic bytecode: a recursive-descent
 * parser over C's precedence levels that emits code as it goes (no tree),
 * then the validator in generic mode, whose complaints (a string compared
 * with an integer, a pattern with '<', ...) are reported at the operator
 * that caused them.
 */
#include "filter/filter.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/bytecode.h"
#include "filter/lexer.h"
#include "filter/verify.h"

#define MAX_NESTING 64

struct compiler {
	const char *expr;
	int lexpos;
	struct filter_token tok;
	uint8_t *code;
	int *code_pos; /* per code byte: where in expr its instruction comes from */
	size_t len, cap;
	char *str;
	size_t str_len, str_cap;
	int nesting;
	int failed;
	struct filter_error *err;
};

static void error_at(struct compiler *c, int pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(struct compiler *c, int pos, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return;
	c->failed = 1;
	c->err->pos = pos;
	va_start(ap, fmt);
	vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
	va_end(ap);
}

static void next(struct compiler *c)
{
	filter_lex(c->expr, &c->lexpos, &c->tok);
	if (c->tok.kind == FT_ERROR)
		error_at(c, c->tok.pos, "%s", c->tok.error);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* Appends an instruction: opcode and operand bytes; its offset, or -1. */
static long emit(struct compiler *c, uint8_t op, const void *operands, size_t n, int pos)
{
	size_t cap = c->cap;

	if (c->failed)
		return -1;
	if (c->len + 1 + n > FILTER_BC_MAX) {
		error_at(c, pos, "expression too long");
		return -1;
	}
	if (grow((void **)&c->code, &c->cap, c->len + 1 + n, 1) ||
	    grow((void **)&c->code_pos, &cap, c->len + 1 + n, sizeof(int))) {
		error_at(c, pos, "out of memory");
		return -1;
	}
	long off = (long)c->len;

	c->code[c->len] = op;
	if (n)
		memcpy(c->code + c->len + 1, operands, n);
	for (size_t i = 0; i < 1 + n; i++)
		c->code_pos[c->len + i] = pos;
	c->len += 1 + n;
	return off;
}

/* Adds a string (len bytes, NUL added) to the table: its offset. */
static uint32_t add_str(struct compiler *c, const char *s, size_t len, int pos)
{
	uint32_t off = (uint32_t)c->str_len;

	if (c->str_len + len + 1 > FILTER_BC_MAX) {
		error_at(c, pos, "expression too long");
		return 0;
	}
	if (grow((void **)&c->str, &c->str_cap, c->str_len + len + 1, 1)) {
		error_at(c, pos, "out of memory");
		return 0;
	}
	memcpy(c->str + c->str_len, s, len);
	c->str[c->str_len + len] = 0;
	c->str_len += len + 1;
	return off;
}

static void emit_str_op(struct compiler *c, uint8_t op, const char *s, size_t len, int pos)
{
	uint32_t off = add_str(c, s, len, pos);

	emit(c, op, &off, 4, pos);
}

/*
 * A string literal: a star-glob pattern when it has a '*' that no
 * backslash escapes (kept as written, the matcher reads the escapes);
 * else a plain string, its escapes resolved here. As in LTTng, the only
 * escapes are \\ and \* (a backslash and a star).
 */
static void string_literal(struct compiler *c, const char *s, size_t len, int pos)
{
	char *plain;
	size_t n = 0;
	int glob = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\') {
			if (i + 1 >= len || (s[i + 1] != '\\' && s[i + 1] != '*'))
				return error_at(
				    c, pos + 1 + (int)i,
				    "unsupported escape sequence: only \\\\ and \\* are");
			i++;
		} else if (s[i] == '*') {
			glob = 1;
		}
	}
	if (glob)
		return emit_str_op(c, FOP_LOAD_GLOB, s, len, pos);
	plain = malloc(len + 1);
	if (!plain)
		return error_at(c, pos, "out of memory");
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\')
			i++;
		plain[n++] = s[i];
	}
	emit_str_op(c, FOP_LOAD_STR, plain, n, pos);
	free(plain);
}

static void expression(struct compiler *c);

static void primary(struct compiler *c)
{
	struct filter_token t = c->tok;

	if (c->failed)
		return;
	switch (t.kind) {
	case FT_INT:
		next(c);
		emit(c, FOP_LOAD_INT, &t.i, 8, t.pos);
		return;
	case FT_FLOAT:
		next(c);
		emit(c, FOP_LOAD_DBL, &t.d, 8, t.pos);
		return;
	case FT_STRING:
		next(c);
		string_literal(c, t.text, t.len, t.pos);
		return;
	case FT_CTX:
	case FT_APP:
		next(c);
		emit_str_op(c, t.kind == FT_CTX ? FOP_LOAD_CTX : FOP_LOAD_APP, t.text, t.len,
			    t.pos);
		return;
	case FT_IDENT:
		next(c);
		if (c->tok.kind != FT_LBRACKET)
			return emit_str_op(c, FOP_LOAD_FIELD, t.text, t.len, t.pos);
		next(c);
		if (c->tok.kind != FT_INT || c->tok.i > UINT32_MAX)
			return error_at(c, c->tok.pos,
					"expected an index (an integer up to 4294967295), found %s",
					filter_tok_name(c->tok.kind));
		uint8_t operands[8];
		uint32_t name = add_str(c, t.text, t.len, t.pos), index = (uint32_t)c->tok.i;

		memcpy(operands, &name, 4);
		memcpy(operands + 4, &index, 4);
		next(c);
		if (c->tok.kind != FT_RBRACKET)
			return error_at(c, c->tok.pos, "expected ']', found %s",
					filter_tok_name(c->tok.kind));
		next(c);
		emit(c, FOP_LOAD_ELEM, operands, 8, t.pos);
		return;
	case FT_LPAREN:
		next(c);
		expression(c);
		if (c->tok.kind != FT_RPAREN)
			return error_at(c, c->tok.pos,
					"expected ')' to close the '(' at column %d, found %s",
					t.pos + 1, filter_tok_name(c->tok.kind));
		next(c);
		return;
	default:
		error_at(c, t.pos, "expected a field, a context or a constant, found %s",
			 filter_tok_name(t.kind));
	}
}

static void unary(struct compiler *c)
{
	struct filter_token t = c->tok;

	if (c->failed)
		return;
	if (++c->nesting > MAX_NESTING) {
		error_at(c, t.pos, "expression nested too deeply");
		return;
	}
	switch (t.kind) {
	case FT_NOT:
	case FT_TILDE:
	case FT_MINUS:
		next(c);
		/* a negative constant is a constant */
		if (t.kind == FT_MINUS && (c->tok.kind == FT_INT || c->tok.kind == FT_FLOAT)) {
			struct filter_token k = c->tok;

			next(c);
			if (k.kind == FT_INT) {
				uint64_t v = 0 - k.i;

				emit(c, FOP_LOAD_INT, &v, 8, t.pos);
			} else {
				double v = -k.d;

				emit(c, FOP_LOAD_DBL, &v, 8, t.pos);
			}
			break;
		}
		unary(c);
		emit(c,
		     t.kind == FT_NOT	  ? FOP_NOT
		     : t.kind == FT_TILDE ? FOP_BIT_NOT
					  : FOP_NEG,
		     NULL, 0, t.pos);
		break;
	case FT_PLUS:
		next(c);
		unary(c);
		break;
	default:
		primary(c);
	}
	c->nesting--;
}

/* Binary operators of one precedence level, left to right. */
struct level {
	enum filter_tok tok[4];
	uint8_t op[4];
};

/*
 * LTTng's precedence, which is C's but for one thing: the bitwise
 * operators bind tighter than the comparisons (`flags & 4 == 4` is
 * `(flags & 4) == 4`), as LTTng's filter grammar has them.
 */
static const struct level levels[] = {
    /* from the loosest binding (after && and ||) to the tightest */
    {{FT_EQ, FT_NE}, {FOP_EQ, FOP_NE}},
    {{FT_LT, FT_GT, FT_LE, FT_GE}, {FOP_LT, FOP_GT, FOP_LE, FOP_GE}},
    {{FT_PIPE}, {FOP_BIT_OR}},
    {{FT_CARET}, {FOP_BIT_XOR}},
    {{FT_AMP}, {FOP_BIT_AND}},
    {{FT_LSHIFT, FT_RSHIFT}, {FOP_LSHIFT, FOP_RSHIFT}},
    {{FT_PLUS, FT_MINUS}, {0, 0}},		  /* refused: no arithmetic */
    {{FT_STAR, FT_SLASH, FT_PERCENT}, {0, 0, 0}}, /* refused */
};

static void binary(struct compiler *c, size_t level)
{
	if (level == sizeof(levels) / sizeof(levels[0]))
		return unary(c);
	binary(c, level + 1);
	for (;;) {
		const struct level *l = &levels[level];
		size_t i;

		if (c->failed)
			return;
		for (i = 0; i < 4 && l->tok[i] && l->tok[i] != c->tok.kind; i++)
			;
		if (i == 4 || !l->tok[i])
			return;
		struct filter_token t = c->tok;

		if (!l->op[i])
			return error_at(
			    c, t.pos,
			    "unsupported operator %s: filters compare, test and mask values",
			    filter_tok_name(t.kind));
		next(c);
		binary(c, level + 1);
		emit(c, l->op[i], NULL, 0, t.pos);
	}
}

/* && (and_level) and || (below it): short-circuit jumps, patched once the right side is out. */
static void logical(struct compiler *c, int is_or)
{
	enum filter_tok tok = is_or ? FT_OROR : FT_ANDAND;

	if (is_or)
		logical(c, 0);
	else
		binary(c, 0);
	while (!c->failed && c->tok.kind == tok) {
		struct filter_token t = c->tok;
		uint32_t zero = 0;
		long jump;

		next(c);
		jump = emit(c, is_or ? FOP_OR : FOP_AND, &zero, 4, t.pos);
		if (is_or)
			logical(c, 0);
		else
			binary(c, 0);
		emit(c, FOP_BOOL, NULL, 0, t.pos);
		if (c->failed)
			return;
		uint32_t target = (uint32_t)c->len;

		memcpy(c->code + jump + 1, &target, 4);
	}
}

static void expression(struct compiler *c)
{
	if (++c->nesting > MAX_NESTING)
		return error_at(c, c->tok.pos, "expression nested too deeply");
	logical(c, 1);
	c->nesting--;
}

int filter_compile(const char *expr, uint8_t **out, size_t *out_len, struct filter_error *err)
{
	struct compiler c = {.expr = expr, .err = err};
	struct filter_bc_header h = {FILTER_BC_MAGIC, FILTER_BC_VERSION, 0, 0, 0};
	uint32_t bad;
	uint8_t *bc;

	err->pos = -1;
	err->msg[0] = 0;
	*out = NULL;
	*out_len = 0;
	if (!expr)
		expr = c.expr = "";
	add_str(&c, expr, strlen(expr), 0); /* the source, first */
	next(&c);
	if (c.tok.kind == FT_END)
		error_at(&c, 0, "empty filter expression");
	expression(&c);
	if (!c.failed && c.tok.kind != FT_END)
		error_at(&c, c.tok.pos, "unexpected %s after the expression",
			 filter_tok_name(c.tok.kind));
	emit(&c, FOP_RET, NULL, 0, (int)strlen(expr));
	if (!c.failed && filter_verify(c.code, (uint32_t)c.len, c.str, (uint32_t)c.str_len, NULL,
				       NULL, NULL, &bad, err->msg, sizeof(err->msg))) {
		c.failed = 1;
		err->pos = bad < c.len ? c.code_pos[bad] : -1;
	}
	if (c.failed)
		goto fail;
	h.code_len = (uint32_t)c.len;
	h.str_len = (uint32_t)c.str_len;
	bc = malloc(FILTER_BC_HEADER + c.len + c.str_len);
	if (!bc) {
		error_at(&c, -1, "out of memory");
		goto fail;
	}
	memcpy(bc, &h, sizeof(h));
	memcpy(bc + FILTER_BC_HEADER, c.code, c.len);
	memcpy(bc + FILTER_BC_HEADER + c.len, c.str, c.str_len);
	*out = bc;
	*out_len = FILTER_BC_HEADER + c.len + c.str_len;
	free(c.code);
	free(c.code_pos);
	free(c.str);
	return 0;
fail:
	free(c.code);
	free(c.code_pos);
	free(c.str);
	return -1;
}

int filter_check(const uint8_t *bc, size_t len, struct filter_error *err)
{
	const uint8_t *code;
	const char *str;
	uint32_t code_len, str_len, bad;
	uint8_t *copy;
	int rc;

	if (filter_split(bc, len, &code, &code_len, &str, &str_len, err))
		return -1;
	copy = malloc(code_len ? code_len : 1);
	if (!copy) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -1;
	}
	memcpy(copy, code, code_len);
	rc = filter_verify(copy, code_len, str, str_len, NULL, NULL, NULL, &bad, err->msg,
			   sizeof(err->msg));
	free(copy);
	return rc;
}

const char *filter_source(const uint8_t *bc, size_t len)
{
	const uint8_t *code;
	const char *str;
	uint32_t code_len, str_len;
	struct filter_error err;

	if (filter_split(bc, len, &code, &code_len, &str, &str_len, &err))
		return NULL;
	return str;
}
