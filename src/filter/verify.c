/*
 * verify.c - the filter validator (see verify.h).
 */
#include "filter/verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/bytecode.h"

int filter_op_operands(uint8_t op)
{
	static const signed char sizes[] = {[FOP_NONE] = -1,
#define FILTER_OP_SIZE(n, sz) [FOP_##n] = sz,
					    FILTER_GENERIC_OPS(FILTER_OP_SIZE)
						FILTER_SPECIAL_OPS(FILTER_OP_SIZE)
#undef FILTER_OP_SIZE
	};
	if (op >= FOP_CMP && op < FOP_CMP_END)
		return 0;
	return op != FOP_NONE && op < sizeof(sizes) ? sizes[op] : -1;
}

const char *filter_op_name(uint8_t op)
{
	static const char *const names[] = {
#define FILTER_OP_NAME(n, sz) [FOP_##n] = #n,
	    FILTER_GENERIC_OPS(FILTER_OP_NAME) FILTER_SPECIAL_OPS(FILTER_OP_NAME)
#undef FILTER_OP_NAME
	};
	if (op >= FOP_CMP && op < FOP_CMP_END)
		return "CMP";
	return op < sizeof(names) / sizeof(names[0]) && names[op] ? names[op] : "?";
}

static int is_generic(uint8_t op)
{
	return op > FOP_NONE && op < FOP_GENERIC_END;
}

/* Generic opcodes a linked program may keep: they mean one thing for integers. */
static int linked_keeps(uint8_t op)
{
	switch (op) {
	case FOP_RET:
	case FOP_LOAD_INT:
	case FOP_LOAD_DBL:
	case FOP_BIT_AND:
	case FOP_BIT_OR:
	case FOP_BIT_XOR:
	case FOP_LSHIFT:
	case FOP_RSHIFT:
	case FOP_NOT:
	case FOP_BIT_NOT:
	case FOP_NEG:
	case FOP_AND:
	case FOP_OR:
	case FOP_BOOL:
		return 1;
	default:
		return !is_generic(op);
	}
}

struct walk {
	char *msg;
	size_t msg_size;
};

static int fail(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, w->msg_size, fmt, ap);
	va_end(ap);
	return -1;
}

/* A type as a message says it: "an integer", "a string", ... */
static const char *vtype_name(uint8_t t)
{
	switch (t) {
	case FILTER_VT_INT:
		return "an integer";
	case FILTER_VT_DBL:
		return "a float";
	case FILTER_VT_STR:
		return "a string";
	case FILTER_VT_GLOB:
		return "a string pattern";
	default:
		return "a field";
	}
}

static int is_num(uint8_t t)
{
	return t == FILTER_VT_INT || t == FILTER_VT_DBL || t == FILTER_VT_ANY;
}

static int is_int(uint8_t t)
{
	return t == FILTER_VT_INT || t == FILTER_VT_ANY;
}

static int is_strish(uint8_t t)
{
	return t == FILTER_VT_STR || t == FILTER_VT_GLOB || t == FILTER_VT_ANY;
}

/* The operand types of a typed comparison. */
static void cmp_types(enum filter_cmp_types t, uint8_t *a, uint8_t *b)
{
	static const uint8_t ta[] = {FILTER_VT_INT, FILTER_VT_INT, FILTER_VT_DBL, FILTER_VT_DBL,
				     FILTER_VT_STR, FILTER_VT_STR, FILTER_VT_GLOB};
	static const uint8_t tb[] = {FILTER_VT_INT, FILTER_VT_DBL,  FILTER_VT_INT, FILTER_VT_DBL,
				     FILTER_VT_STR, FILTER_VT_GLOB, FILTER_VT_STR};
	*a = ta[t];
	*b = tb[t];
}

/* A generic comparison of a and b (either may be ANY before linking). */
static int check_cmp(struct walk *w, uint8_t op, uint8_t a, uint8_t b)
{
	if ((a == FILTER_VT_GLOB || b == FILTER_VT_GLOB) && op != FOP_EQ && op != FOP_NE)
		return fail(w, "a string pattern (with '*') only takes == and !=");
	if (a == FILTER_VT_ANY || b == FILTER_VT_ANY)
		return 0;
	if (is_num(a) && is_num(b))
		return 0;
	if (!is_strish(a) || !is_strish(b))
		return fail(w, "cannot compare %s with %s", vtype_name(a), vtype_name(b));
	if (a == FILTER_VT_GLOB && b == FILTER_VT_GLOB)
		return fail(w, "cannot compare two string patterns");
	return 0;
}

/* The string at offset off of the table: NUL-terminated inside it. */
static int check_str(struct walk *w, const uint8_t *operand, const char *str, uint32_t str_len)
{
	uint32_t off = filter_get_u32(operand);

	if (off >= str_len || !memchr(str + off, 0, str_len - off))
		return fail(w, "string offset %u outside the string table", off);
	return 0;
}

static int check_elem_fmt(struct walk *w, uint8_t fmt)
{
	unsigned int size = fmt & 0xf;

	if ((size != 1 && size != 2 && size != 4 && size != 8) ||
	    (fmt & ~(0xfu | FILTER_ELEM_SIGNED | FILTER_ELEM_BE)))
		return fail(w, "bad element format 0x%x", fmt);
	return 0;
}

struct vstate {
	unsigned int depth;
	uint8_t t[FILTER_STACK_MAX];
};

static int push(struct walk *w, struct vstate *s, uint8_t type)
{
	if (s->depth >= FILTER_STACK_MAX)
		return fail(w, "expression too deep: more than %u values on the stack",
			    FILTER_STACK_MAX);
	s->t[s->depth++] = type;
	return 0;
}

static int need(struct walk *w, const struct vstate *s, unsigned int n)
{
	if (s->depth < n)
		return fail(w, "stack underflow");
	return 0;
}

/* A linked load: index i of a table of n entries of the expected type. */
static int check_load(struct walk *w, const char *what, uint32_t i, unsigned int n,
		      const uint8_t *types, uint8_t want)
{
	if (i >= n)
		return fail(w, "%s %u out of range", what, i);
	if (types[i] != want)
		return fail(w, "%s %u has another type", what, i);
	return 0;
}

/* The effect of the instruction at code[off] (operands at p) on s. */
static int step(struct walk *w, struct vstate *s, uint8_t op, const uint8_t *p, const char *str,
		uint32_t str_len, const struct filter_link_info *li)
{
	uint8_t *top = s->depth ? &s->t[s->depth - 1] : NULL;
	uint8_t a, b;

	if (op >= FOP_CMP && op < FOP_CMP_END) {
		if (need(w, s, 2))
			return -1;
		cmp_types((enum filter_cmp_types)((op - FOP_CMP) % FILTER_NR_CMP_TYPES), &a, &b);
		if (s->t[s->depth - 2] != a || s->t[s->depth - 1] != b)
			return fail(w, "comparison of %s and %s typed for %s and %s",
				    vtype_name(s->t[s->depth - 2]), vtype_name(s->t[s->depth - 1]),
				    vtype_name(a), vtype_name(b));
		s->depth--;
		s->t[s->depth - 1] = FILTER_VT_INT;
		return 0;
	}
	switch (op) {
	case FOP_LOAD_INT:
		return push(w, s, FILTER_VT_INT);
	case FOP_LOAD_DBL:
		return push(w, s, FILTER_VT_DBL);
	case FOP_LOAD_STR:
	case FOP_LOAD_GLOB:
		if (check_str(w, p, str, str_len))
			return -1;
		return push(w, s, op == FOP_LOAD_STR ? FILTER_VT_STR : FILTER_VT_GLOB);
	case FOP_LOAD_FIELD:
	case FOP_LOAD_CTX:
	case FOP_LOAD_APP:
		if (check_str(w, p, str, str_len))
			return -1;
		if (!str[filter_get_u32(p)])
			return fail(w, "empty name");
		return push(w, s, FILTER_VT_ANY);
	case FOP_LOAD_ELEM:
		if (check_str(w, p, str, str_len))
			return -1;
		return push(w, s, FILTER_VT_INT);
	case FOP_LOAD_FIELD_INT:
	case FOP_LOAD_FIELD_DBL:
	case FOP_LOAD_FIELD_STR:
	case FOP_LOAD_FIELD_TEXT: {
		static const uint8_t want[] = {FILTER_FIELD_INT, FILTER_FIELD_FLOAT,
					       FILTER_FIELD_STRING, FILTER_FIELD_TEXT};
		static const uint8_t vt[] = {FILTER_VT_INT, FILTER_VT_DBL, FILTER_VT_STR,
					     FILTER_VT_STR};
		int k = op - FOP_LOAD_FIELD_INT;

		if (check_load(w, "argument", filter_get_u32(p), li->nr_args, li->arg_types,
			       want[k]))
			return -1;
		return push(w, s, vt[k]);
	}
	case FOP_LOAD_ELEM_INT: {
		uint16_t arg = filter_get_u16(p);

		if (arg >= li->nr_args || li->arg_types[arg] != FILTER_FIELD_ARRAY)
			return fail(w, "argument %u is not an array", arg);
		if (check_elem_fmt(w, p[2]))
			return -1;
		if (p[2] != li->arg_elems[arg] || p[3])
			return fail(w, "element format of argument %u mismatched", arg);
		return push(w, s, FILTER_VT_INT);
	}
	case FOP_LOAD_CTX_INT:
	case FOP_LOAD_CTX_DBL:
	case FOP_LOAD_CTX_STR: {
		static const uint8_t want[] = {FILTER_FIELD_INT, FILTER_FIELD_FLOAT,
					       FILTER_FIELD_STRING};
		static const uint8_t vt[] = {FILTER_VT_INT, FILTER_VT_DBL, FILTER_VT_STR};
		int k = op - FOP_LOAD_CTX_INT;

		if (check_load(w, "context", filter_get_u32(p), li->nr_ctx, li->ctx_types, want[k]))
			return -1;
		return push(w, s, vt[k]);
	}
	case FOP_CMP_FIELD_INT:
		if (check_load(w, "argument", filter_get_u32(p), li->nr_args, li->arg_types,
			       FILTER_FIELD_INT))
			return -1;
		if (p[12] >= FILTER_NR_CMP || p[13])
			return fail(w, "bad comparison %u", p[12]);
		return push(w, s, FILTER_VT_INT);
	case FOP_LOAD_LIT: {
		uint32_t i = filter_get_u32(p);

		if (i >= li->nr_lits)
			return fail(w, "literal %u out of range", i);
		return push(w, s, li->lit_glob[i] ? FILTER_VT_GLOB : FILTER_VT_STR);
	}
	case FOP_EQ:
	case FOP_NE:
	case FOP_LT:
	case FOP_GT:
	case FOP_LE:
	case FOP_GE:
		if (need(w, s, 2) || check_cmp(w, op, s->t[s->depth - 2], s->t[s->depth - 1]))
			return -1;
		s->depth--;
		s->t[s->depth - 1] = FILTER_VT_INT;
		return 0;
	case FOP_BIT_AND:
	case FOP_BIT_OR:
	case FOP_BIT_XOR:
	case FOP_LSHIFT:
	case FOP_RSHIFT:
		if (need(w, s, 2))
			return -1;
		a = s->t[s->depth - 2];
		b = s->t[s->depth - 1];
		if (!is_int(a) || !is_int(b))
			return fail(w, "bitwise operator on %s", vtype_name(is_int(a) ? b : a));
		if (li && (a != FILTER_VT_INT || b != FILTER_VT_INT))
			return fail(w, "untyped operand in a linked program");
		s->depth--;
		s->t[s->depth - 1] = FILTER_VT_INT;
		return 0;
	case FOP_BIT_NOT:
		if (need(w, s, 1))
			return -1;
		if (!is_int(*top) || (li && *top != FILTER_VT_INT))
			return fail(w, "'~' on %s", vtype_name(*top));
		*top = FILTER_VT_INT;
		return 0;
	case FOP_NEG:
	case FOP_NEG_D:
		if (need(w, s, 1))
			return -1;
		if (!is_num(*top) ||
		    (li && *top != (op == FOP_NEG ? FILTER_VT_INT : FILTER_VT_DBL)))
			return fail(w, "'-' on %s", vtype_name(*top));
		return 0;
	case FOP_NOT:
	case FOP_BOOL:
	case FOP_NOT_D:
	case FOP_BOOL_D: {
		int d = op == FOP_NOT_D || op == FOP_BOOL_D;

		if (need(w, s, 1))
			return -1;
		if (!is_num(*top) || (li && *top != (d ? FILTER_VT_DBL : FILTER_VT_INT)))
			return fail(w, "%s is not a truth value", vtype_name(*top));
		if (!li && op == FOP_NOT && *top == FILTER_VT_DBL) /* LTTng refuses !1.5 */
			return fail(w, "'!' on a float constant");
		*top = FILTER_VT_INT;
		return 0;
	}
	default:
		return fail(w, "unexpected opcode %u", op);
	}
}

static int same_state(const struct vstate *a, const struct vstate *b)
{
	return a->depth == b->depth && !memcmp(a->t, b->t, a->depth);
}

int filter_verify(uint8_t *code, uint32_t code_len, const char *str, uint32_t str_len,
		  const struct filter_link_info *li, filter_visit_fn visit, void *visit_ctx,
		  uint32_t *bad_off, char *msg, size_t msg_size)
{
	struct walk w = {msg, msg_size};
	uint8_t *start = NULL;
	int *pend = NULL;
	struct vstate *states = NULL, cur = {0};
	unsigned int nr_states = 0;
	uint32_t off = 0, last = 0;
	int live = 1, rc = -1;

	*bad_off = 0;
	if (!code_len || code_len > FILTER_BC_MAX) {
		fail(&w, "code of %u bytes (1 to %u)", code_len, FILTER_BC_MAX);
		goto out;
	}
	start = calloc(code_len, 1);
	pend = malloc(code_len * sizeof(*pend));
	states = malloc((code_len / 5 + 1) * sizeof(*states));
	if (!start || !pend || !states) {
		fail(&w, "out of memory");
		goto out;
	}
	/* Instruction boundaries, opcodes allowed in this kind of program. */
	while (off < code_len) {
		uint8_t op = code[off];
		int n = filter_op_operands(op);

		*bad_off = off;
		if (n < 0) {
			fail(&w, "unknown opcode %u", op);
			goto out;
		}
		/* with a visitor (the specializer), generic operators are still to be rewritten */
		if (li ? !visit && !linked_keeps(op) : !is_generic(op)) {
			fail(&w, "opcode %s not allowed in a %s program", filter_op_name(op),
			     li ? "linked" : "generic");
			goto out;
		}
		if ((uint64_t)off + 1 + (unsigned)n > code_len) {
			fail(&w, "truncated instruction");
			goto out;
		}
		start[off] = 1;
		pend[off] = -1;
		last = off;
		off += 1 + (unsigned)n;
	}
	if (code[last] != FOP_RET) {
		*bad_off = last;
		fail(&w, "the program does not end with a return");
		goto out;
	}
	for (off = 0; off < code_len; off += 1 + (unsigned)filter_op_operands(code[off])) {
		uint8_t op;

		*bad_off = off;
		if (pend[off] >= 0) {
			if (live && !same_state(&cur, &states[pend[off]])) {
				fail(&w, "the stack differs on the paths that meet here");
				goto out;
			}
			cur = states[pend[off]];
			live = 1;
		}
		if (!live) {
			fail(&w, "unreachable instruction");
			goto out;
		}
		if (visit) {
			int n = filter_op_operands(code[off]);

			if (visit(visit_ctx, code, off, cur.t, cur.depth, msg, msg_size))
				goto out;
			if (filter_op_operands(code[off]) != n) {
				fail(&w, "rewritten into an opcode of another size");
				goto out;
			}
		}
		op = code[off];
		if (op == FOP_RET) {
			if (cur.depth != 1) {
				fail(&w, "return with %u values on the stack", cur.depth);
				goto out;
			}
			/* as in LTTng, a float is no result (but its negation is a truth value) */
			if (li ? cur.t[0] != FILTER_VT_INT : !is_int(cur.t[0])) {
				fail(&w, "the result is %s, not a truth value",
				     vtype_name(cur.t[0]));
				goto out;
			}
			live = 0;
			continue;
		}
		if (op == FOP_AND || op == FOP_OR || op == FOP_AND_D || op == FOP_OR_D) {
			uint32_t target = filter_get_u32(code + off + 1);
			int d = op == FOP_AND_D || op == FOP_OR_D;
			uint8_t *top;

			if (need(&w, &cur, 1))
				goto out;
			top = &cur.t[cur.depth - 1];
			if (!is_num(*top) || (li && *top != (d ? FILTER_VT_DBL : FILTER_VT_INT))) {
				fail(&w, "%s is not a truth value", vtype_name(*top));
				goto out;
			}
			if (target <= off || target >= code_len || !start[target]) {
				fail(&w, "jump to %u: not forward to an instruction", target);
				goto out;
			}
			/* the jump leaves the truth value in place of the operand */
			struct vstate j = cur;

			j.t[j.depth - 1] = FILTER_VT_INT;
			if (pend[target] < 0) {
				pend[target] = (int)nr_states;
				states[nr_states++] = j;
			} else if (!same_state(&j, &states[pend[target]])) {
				fail(&w, "the stack differs on the paths that meet at %u", target);
				goto out;
			}
			cur.depth--;
			continue;
		}
		if (step(&w, &cur, op, code + off + 1, str, str_len, li))
			goto out;
	}
	if (live) {
		*bad_off = code_len;
		fail(&w, "the program runs past its end");
		goto out;
	}
	rc = 0;
out:
	free(start);
	free(pend);
	free(states);
	return rc;
}

int filter_split(const uint8_t *bc, size_t len, const uint8_t **code, uint32_t *code_len,
		 const char **str, uint32_t *str_len, struct filter_error *err)
{
	struct filter_bc_header h;

	err->pos = -1;
	if (!bc || len < FILTER_BC_HEADER) {
		snprintf(err->msg, sizeof(err->msg), "filter bytecode of %zu bytes: too short",
			 len);
		return -1;
	}
	memcpy(&h, bc, sizeof(h));
	if (h.magic != FILTER_BC_MAGIC || h.version != FILTER_BC_VERSION || h.flags) {
		snprintf(err->msg, sizeof(err->msg), "not filter bytecode of version %u",
			 FILTER_BC_VERSION);
		return -1;
	}
	if (h.code_len > FILTER_BC_MAX || h.str_len > FILTER_BC_MAX || !h.str_len ||
	    (uint64_t)FILTER_BC_HEADER + h.code_len + h.str_len != len || bc[len - 1] != 0) {
		snprintf(err->msg, sizeof(err->msg),
			 "filter bytecode sizes do not add up (code %u, strings %u, total %zu)",
			 h.code_len, h.str_len, len);
		return -1;
	}
	*code = bc + FILTER_BC_HEADER;
	*code_len = h.code_len;
	*str = (const char *)bc + FILTER_BC_HEADER + h.code_len;
	*str_len = h.str_len;
	return 0;
}
