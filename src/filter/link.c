/*
 * link.c - from generic bytecode to a program for one event: fields and
 * contexts resolved to slots, string literals to a table, then every
 * operator specialized to its operand types (a validator walk with a
 * visitor), and the result validated again as a linked program.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/bytecode.h"
#include "filter/filter.h"
#include "filter/program.h"
#include "filter/verify.h"

struct linker {
	struct filter_program *p;
	const struct filter_layout *layout;
	uint8_t *arg_types, *arg_elems, *ctx_types, *lit_glob;
	struct filter_error *err;
};

static int link_fail(struct filter_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int link_fail(struct filter_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static int find_field(const struct filter_layout *l, const char *name)
{
	for (unsigned int i = 0; i < l->nr_fields; i++)
		if (!strcmp(l->fields[i].name, name))
			return (int)i;
	return -1;
}

static int find_ctx(const struct filter_layout *l, const char *name, int app)
{
	for (unsigned int i = 0; i < l->nr_ctx; i++)
		if (!!l->ctx[i].is_app == app && !strcmp(l->ctx[i].name, name))
			return (int)i;
	return -1;
}

/* Loads by name become loads by slot, literals loads from the table. */
static int resolve(struct linker *k, const char *str)
{
	struct filter_program *p = k->p;
	const struct filter_layout *l = k->layout;

	for (uint32_t off = 0; off < p->code_len;
	     off += 1 + (unsigned)filter_op_operands(p->code[off])) {
		uint8_t *in = p->code + off;
		const char *name = NULL;
		int i;

		if (in[0] == FOP_LOAD_FIELD || in[0] == FOP_LOAD_ELEM || in[0] == FOP_LOAD_CTX ||
		    in[0] == FOP_LOAD_APP || in[0] == FOP_LOAD_STR || in[0] == FOP_LOAD_GLOB)
			name = str + filter_get_u32(in + 1);
		switch (in[0]) {
		case FOP_LOAD_FIELD:
			if ((i = find_field(l, name)) < 0)
				return link_fail(k->err, "no field '%s' in this event", name);
			switch (l->fields[i].type) {
			case FILTER_FIELD_INT:
				in[0] = FOP_LOAD_FIELD_INT;
				break;
			case FILTER_FIELD_FLOAT:
				in[0] = FOP_LOAD_FIELD_DBL;
				break;
			case FILTER_FIELD_STRING:
				in[0] = FOP_LOAD_FIELD_STR;
				break;
			case FILTER_FIELD_TEXT:
				in[0] = FOP_LOAD_FIELD_TEXT;
				break;
			default:
				return link_fail(
				    k->err, "field '%s' is an array: compare its elements, %s[N]",
				    name, name);
			}
			filter_put_u32(in + 1, (uint32_t)i);
			break;
		case FOP_LOAD_ELEM:
			if ((i = find_field(l, name)) < 0)
				return link_fail(k->err, "no field '%s' in this event", name);
			/* LTTng indexes integer arrays and sequences only, not text */
			if (l->fields[i].type != FILTER_FIELD_ARRAY)
				return link_fail(k->err, "field '%s' is not an array of integers",
						 name);
			if (i > UINT16_MAX)
				return link_fail(k->err, "field '%s': too many fields", name);
			in[0] = FOP_LOAD_ELEM_INT;
			in[1] = (uint8_t)i;
			in[2] = (uint8_t)(i >> 8);
			in[3] = l->fields[i].elem;
			in[4] = 0;
			break;
		case FOP_LOAD_CTX:
		case FOP_LOAD_APP:
			if ((i = find_ctx(l, name, in[0] == FOP_LOAD_APP)) < 0)
				return link_fail(k->err, "no context '%s%s' for this event",
						 in[0] == FOP_LOAD_APP ? "$app." : "$ctx.", name);
			in[0] = l->ctx[i].type == FILTER_FIELD_INT     ? FOP_LOAD_CTX_INT
				: l->ctx[i].type == FILTER_FIELD_FLOAT ? FOP_LOAD_CTX_DBL
								       : FOP_LOAD_CTX_STR;
			filter_put_u32(in + 1, (uint32_t)i);
			break;
		case FOP_LOAD_STR:
		case FOP_LOAD_GLOB: {
			struct filter_literal *lit = &p->lits[p->nr_lits];

			lit->s = p->strings + (name - str);
			lit->len = strlen(name);
			lit->glob = in[0] == FOP_LOAD_GLOB;
			k->lit_glob[p->nr_lits] = lit->glob;
			in[0] = FOP_LOAD_LIT;
			filter_put_u32(in + 1, p->nr_lits++);
			break;
		}
		}
	}
	return 0;
}

/* The specializer: each generic operator becomes the one for its operand types. */
static int specialize(void *ctx, uint8_t *code, uint32_t off, const uint8_t *st, unsigned int depth,
		      char *msg, size_t msg_size)
{
	uint8_t op = code[off];
	uint8_t top = depth ? st[depth - 1] : 0;
	int dbl = top == FILTER_VT_DBL;

	(void)ctx;
	switch (op) {
	case FOP_EQ:
	case FOP_NE:
	case FOP_LT:
	case FOP_GT:
	case FOP_LE:
	case FOP_GE: {
		static const enum filter_cmp_types num[2][2] = {{FILTER_CMP_II, FILTER_CMP_ID},
								{FILTER_CMP_DI, FILTER_CMP_DD}};
		uint8_t a, b;
		enum filter_cmp_types t;

		if (depth < 2)
			return 0; /* the walk reports the underflow */
		a = st[depth - 2];
		b = st[depth - 1];
		if ((a == FILTER_VT_INT || a == FILTER_VT_DBL) &&
		    (b == FILTER_VT_INT || b == FILTER_VT_DBL))
			t = num[a == FILTER_VT_DBL][b == FILTER_VT_DBL];
		else if (a == FILTER_VT_STR && b == FILTER_VT_STR)
			t = FILTER_CMP_SS;
		else if (a == FILTER_VT_STR && b == FILTER_VT_GLOB &&
			 (op == FOP_EQ || op == FOP_NE))
			t = FILTER_CMP_SG;
		else if (a == FILTER_VT_GLOB && b == FILTER_VT_STR &&
			 (op == FOP_EQ || op == FOP_NE))
			t = FILTER_CMP_GS;
		else {
			snprintf(msg, msg_size, "cannot compare these operand types (%u, %u)", a,
				 b);
			return -1;
		}
		code[off] = filter_cmp_op((enum filter_cmp)(op - FOP_EQ), t);
		return 0;
	}
	default: {
		/* the operators with a float variant */
		static const uint8_t float_op[][2] = {{FOP_NOT, FOP_NOT_D},
						      {FOP_NEG, FOP_NEG_D},
						      {FOP_BOOL, FOP_BOOL_D},
						      {FOP_AND, FOP_AND_D},
						      {FOP_OR, FOP_OR_D}};

		for (size_t i = 0; dbl && i < sizeof(float_op) / sizeof(float_op[0]); i++)
			if (op == float_op[i][0])
				code[off] = float_op[i][1];
		return 0;
	}
	}
}

/*
 * Peephole: an integer field compared with a constant (in either order,
 * the loads and the typed comparison in a row, no jump landing between
 * them) becomes one instruction of the same 15 bytes. A program that is
 * only that and its return is marked to run without the interpreter.
 */
static void fuse_compares(struct filter_program *p)
{
	static const uint8_t mirror[] = {
	    [FILTER_EQ] = FILTER_EQ, [FILTER_NE] = FILTER_NE, [FILTER_LT] = FILTER_GT,
	    [FILTER_GT] = FILTER_LT, [FILTER_LE] = FILTER_GE, [FILTER_GE] = FILTER_LE};
	uint8_t *code = p->code, *target = calloc(p->code_len + 1, 1);
	uint32_t off, len = p->code_len;

	if (!target)
		return; /* unfused is as right, only slower */
	for (off = 0; off < len; off += 1 + (unsigned)filter_op_operands(code[off]))
		if (code[off] == FOP_AND || code[off] == FOP_OR || code[off] == FOP_AND_D ||
		    code[off] == FOP_OR_D)
			target[filter_get_u32(code + off + 1)] = 1;
	for (off = 0; off + 15 <= len; off += 1 + (unsigned)filter_op_operands(code[off])) {
		int field_first = code[off] == FOP_LOAD_FIELD_INT && code[off + 5] == FOP_LOAD_INT;
		int imm_first = code[off] == FOP_LOAD_INT && code[off + 9] == FOP_LOAD_FIELD_INT;
		uint8_t op = code[off + 14], c;
		uint8_t fused[15];

		if ((!field_first && !imm_first) || op < FOP_CMP || op >= FOP_CMP_END ||
		    (op - FOP_CMP) % FILTER_NR_CMP_TYPES != FILTER_CMP_II ||
		    target[off + (field_first ? 5 : 9)] || target[off + 14])
			continue;
		c = (uint8_t)((op - FOP_CMP) / FILTER_NR_CMP_TYPES);
		fused[0] = FOP_CMP_FIELD_INT;
		memcpy(fused + 1, code + off + (field_first ? 1 : 10), 4);
		memcpy(fused + 5, code + off + (field_first ? 6 : 1), 8);
		fused[13] = field_first ? c : mirror[c];
		fused[14] = 0;
		memcpy(code + off, fused, 15);
	}
	free(target);
	if (len == 16 && code[0] == FOP_CMP_FIELD_INT && code[15] == FOP_RET) {
		p->head.one_cmp = 1;
		p->head.cmp = code[13];
		p->head.cmp_arg = filter_get_u32(code + 1);
		memcpy(&p->head.cmp_imm, code + 5, 8);
	}
}

struct filter_program *filter_link(const uint8_t *bc, size_t len,
				   const struct filter_layout *layout, struct filter_error *err)
{
	const uint8_t *code;
	const char *str;
	uint32_t code_len, str_len, bad;
	struct filter_program *p = NULL;
	struct linker k = {.layout = layout, .err = err};
	unsigned int nargs = layout ? layout->nr_fields : 0, nctx = layout ? layout->nr_ctx : 0;
	struct filter_link_info li;

	err->pos = -1;
	err->msg[0] = 0;
	if (!layout) {
		link_fail(err, "no event layout");
		return NULL;
	}
	if (filter_check(bc, len, err) ||
	    filter_split(bc, len, &code, &code_len, &str, &str_len, err))
		return NULL;
	p = calloc(1, sizeof(*p));
	k.p = p;
	k.arg_types = calloc(nargs + 1, 1);
	k.arg_elems = calloc(nargs + 1, 1);
	k.ctx_types = calloc(nctx + 1, 1);
	k.lit_glob = calloc(code_len / 5 + 1, 1);
	if (p) {
		p->code = malloc(code_len);
		p->strings = malloc(str_len);
		p->lits = calloc(code_len / 5 + 1, sizeof(*p->lits));
	}
	if (!p || !k.arg_types || !k.arg_elems || !k.ctx_types || !k.lit_glob || !p->code ||
	    !p->strings || !p->lits) {
		link_fail(err, "out of memory");
		goto fail;
	}
	memcpy(p->code, code, code_len);
	memcpy(p->strings, str, str_len);
	p->code_len = code_len;
	p->ctx = layout->ctx;
	p->nr_ctx = nctx;
	for (unsigned int i = 0; i < nargs; i++) {
		k.arg_types[i] = layout->fields[i].type;
		k.arg_elems[i] = layout->fields[i].elem;
	}
	for (unsigned int i = 0; i < nctx; i++)
		k.ctx_types[i] = layout->ctx[i].type;
	if (resolve(&k, str))
		goto fail;
	li = (struct filter_link_info){k.arg_types, k.arg_elems, nargs,	    k.ctx_types,
				       nctx,	    k.lit_glob,	 p->nr_lits};
	if (filter_verify(p->code, code_len, NULL, 0, &li, specialize, NULL, &bad, err->msg,
			  sizeof(err->msg)))
		goto fail;
	fuse_compares(p);
	/* what runs is proved again, fused as it is */
	if (filter_verify(p->code, code_len, NULL, 0, &li, NULL, NULL, &bad, err->msg,
			  sizeof(err->msg)))
		goto fail;
	free(k.arg_types);
	free(k.arg_elems);
	free(k.ctx_types);
	free(k.lit_glob);
	return p;
fail:
	free(k.arg_types);
	free(k.arg_elems);
	free(k.ctx_types);
	free(k.lit_glob);
	filter_free(p);
	return NULL;
}

void filter_free(struct filter_program *p)
{
	if (!p)
		return;
	free(p->code);
	free(p->strings);
	free(p->lits);
	free(p);
}
