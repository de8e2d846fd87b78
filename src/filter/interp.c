/*
 * interp.c - running a linked filter program on one event's arguments.
 *
 * The validator proved what this loop relies on: the stack stays within
 * FILTER_STACK_MAX and never underflows, every operand has the type its
 * opcode was specialized for, jumps land forward on instructions, and the
 * program ends with a return. So there is no check here but those of the
 * event's values (an index past the end of a sequence, a shift count out
 * of range), which make the filter false, as in LTTng-UST.
 */
#include <stdint.h>
#include <string.h>

#include "common/assert.h"
#include "filter/bytecode.h"
#include "filter/filter.h"
#include "filter/program.h"

union slot {
	int64_t i;
	double d;
	struct {
		const char *p;
		size_t n; /* SIZE_MAX: up to the NUL */
	} s;
};

int filter_str_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	for (size_t i = 0;; i++) {
		int ca = i < alen ? (signed char)a[i] : 0;
		int cb = i < blen ? (signed char)b[i] : 0;

		if (ca != cb || !ca)
			return ca - cb;
	}
}

int filter_glob_match(const char *p, size_t plen, const char *s, size_t slen)
{
	size_t pi = 0, si = 0, star_p = SIZE_MAX, star_s = 0;

	for (;;) {
		char sc = si < slen ? s[si] : 0;

		if (pi < plen && p[pi] == '*') {
			star_p = ++pi; /* try the star as empty first, widen it on a mismatch */
			star_s = si;
			continue;
		}
		if (pi < plen && sc) {
			size_t pj = pi + (p[pi] == '\\' && pi + 1 < plen);

			if (p[pj] == sc) {
				pi = pj + 1;
				si++;
				continue;
			}
		} else if (pi >= plen && !sc) {
			return 1;
		}
		if (star_p == SIZE_MAX || star_s >= slen || !s[star_s])
			return 0;
		si = ++star_s;
		pi = star_p;
	}
}

static int64_t load_elem(const struct filter_arg *a, uint8_t fmt, uint32_t index, int *ok)
{
	const uint8_t *e;
	unsigned int size = fmt & 0xf;
	uint64_t v = 0;

	if (index >= a->seq.count) {
		*ok = 0;
		return 0;
	}
	e = (const uint8_t *)a->seq.ptr + (size_t)index * size;
	switch (size) {
	case 1:
		v = e[0];
		break;
	case 2: {
		uint16_t x;

		memcpy(&x, e, 2);
		v = fmt & FILTER_ELEM_BE ? __builtin_bswap16(x) : x;
		break;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, e, 4);
		v = fmt & FILTER_ELEM_BE ? __builtin_bswap32(x) : x;
		break;
	}
	default: {
		uint64_t x;

		memcpy(&x, e, 8);
		v = fmt & FILTER_ELEM_BE ? __builtin_bswap64(x) : x;
		break;
	}
	}
	if ((fmt & FILTER_ELEM_SIGNED) && size < 8) {
		unsigned int shift = 64 - size * 8;

		return (int64_t)(v << shift) >> shift;
	}
	return (int64_t)v;
}

/*
 * A float as an operand of && and ||: true when its integer part is not 0
 * (LTTng-UST converts it to an integer there: 0.5 && 1 is false), while !
 * tests it against 0 (!0.5 is false, as in C).
 */
static inline int dbl_truth(double d)
{
	return d >= 1.0 || d <= -1.0;
}

/* A pattern compared as a string: 0 when it matches (only == and != use it). */
static inline int glob_diff(const char *p, size_t plen, const char *s, size_t slen)
{
	return filter_glob_match(p, plen, s, slen) ? 0 : 1;
}

/* The comparisons of one operator over the seven operand type pairs. */
#define CMP_CASES(C, OPR)                                                                          \
	case FOP_CMP + (C)*FILTER_NR_CMP_TYPES + FILTER_CMP_II:                                    \
		sp[-2].i = sp[-2].i OPR sp[-1].i;                                                  \
		sp--;                                                                              \
		break;                                                                             \
	case FOP_CMP + (C)*FILTER_NR_CMP_TYPES + FILTER_CMP_ID:                                    \
		sp[-2].i = (double)sp[-2].i OPR sp[-1].d;                                          \
		sp--;                                                                              \
		break;                                                                             \
	case FOP_CMP + (C)*FILTER_NR_CMP_TYPES + FILTER_CMP_DI:                                    \
		sp[-2].i = sp[-2].d OPR(double) sp[-1].i;                                          \
		sp--;                                                                              \
		break;                                                                             \
	case FOP_CMP + (C)*FILTER_NR_CMP_TYPES + FILTER_CMP_DD:                                    \
		sp[-2].i = sp[-2].d OPR sp[-1].d;                                                  \
		sp--;                                                                              \
		break;                                                                             \
	case FOP_CMP + (C)*FILTER_NR_CMP_TYPES + FILTER_CMP_SS:                                    \
		sp[-2].i = filter_str_cmp(sp[-2].s.p, sp[-2].s.n, sp[-1].s.p, sp[-1].s.n) OPR 0;   \
		sp--;                                                                              \
		break;                                                                             \
	case FOP_CMP + (C)*FILTER_NR_CMP_TYPES + FILTER_CMP_SG:                                    \
		sp[-2].i = glob_diff(sp[-1].s.p, sp[-1].s.n, sp[-2].s.p, sp[-2].s.n) OPR 0;        \
		sp--;                                                                              \
		break;                                                                             \
	case FOP_CMP + (C)*FILTER_NR_CMP_TYPES + FILTER_CMP_GS:                                    \
		sp[-2].i = glob_diff(sp[-2].s.p, sp[-2].s.n, sp[-1].s.p, sp[-1].s.n) OPR 0;        \
		sp--;                                                                              \
		break;

_Static_assert(FILTER_EQ == 0 && FILTER_NE == 1 && FILTER_LT == 2 && FILTER_GT == 3 &&
		   FILTER_LE == 4 && FILTER_GE == 5,
	       "filter_compare_int() numbers the comparisons as enum filter_cmp");

int filter_interpret(const struct filter_program *p, const struct filter_arg *args, void *priv)
{
	union slot stack[FILTER_STACK_MAX];
	union slot *sp = stack; /* past the top value */
	const uint8_t *pc = p->code;
	struct filter_arg tmp;
	int ok = 1;

	for (;;) {
		uint8_t op = *pc++;

		TRAX_ASSERT(pc <= p->code + p->code_len);
		switch (op) {
		case FOP_RET:
			return sp[-1].i != 0;
		case FOP_LOAD_INT:
			memcpy(&(sp++)->i, pc, 8);
			pc += 8;
			break;
		case FOP_LOAD_DBL:
			memcpy(&(sp++)->d, pc, 8);
			pc += 8;
			break;
		case FOP_LOAD_FIELD_INT:
			(sp++)->i = (int64_t)args[filter_get_u32(pc)].u;
			pc += 4;
			break;
		case FOP_LOAD_FIELD_DBL:
			(sp++)->d = args[filter_get_u32(pc)].d;
			pc += 4;
			break;
		case FOP_LOAD_FIELD_STR:
			++sp;
			sp[-1].s.p = args[filter_get_u32(pc)].str;
			sp[-1].s.n = SIZE_MAX;
			pc += 4;
			break;
		case FOP_LOAD_FIELD_TEXT: {
			const struct filter_arg *a = &args[filter_get_u32(pc)];

			++sp;
			sp[-1].s.p = a->seq.ptr;
			sp[-1].s.n = a->seq.count;
			pc += 4;
			break;
		}
		case FOP_LOAD_ELEM_INT:
			(sp++)->i = load_elem(&args[filter_get_u16(pc)], pc[2],
					      filter_get_u32(pc + 4), &ok);
			if (!ok)
				return 0;
			pc += 8;
			break;
		case FOP_LOAD_CTX_INT:
		case FOP_LOAD_CTX_DBL:
		case FOP_LOAD_CTX_STR:
			p->ctx[filter_get_u32(pc)].get(&tmp, priv);
			++sp;
			if (op == FOP_LOAD_CTX_INT)
				sp[-1].i = (int64_t)tmp.u;
			else if (op == FOP_LOAD_CTX_DBL)
				sp[-1].d = tmp.d;
			else {
				sp[-1].s.p = tmp.str;
				sp[-1].s.n = SIZE_MAX;
			}
			pc += 4;
			break;
		case FOP_CMP_FIELD_INT: {
			int64_t imm;

			memcpy(&imm, pc + 4, 8);
			(sp++)->i =
			    filter_compare_int(pc[12], (int64_t)args[filter_get_u32(pc)].u, imm);
			pc += 14;
			break;
		}
		case FOP_LOAD_LIT: {
			const struct filter_literal *l = &p->lits[filter_get_u32(pc)];

			++sp;
			sp[-1].s.p = l->s;
			sp[-1].s.n = l->len;
			pc += 4;
			break;
		}
			CMP_CASES(FILTER_EQ, ==)
			CMP_CASES(FILTER_NE, !=)
			CMP_CASES(FILTER_LT, <)
			CMP_CASES(FILTER_GT, >)
			CMP_CASES(FILTER_LE, <=)
			CMP_CASES(FILTER_GE, >=)
		case FOP_BIT_AND:
			sp[-2].i &= sp[-1].i;
			sp--;
			break;
		case FOP_BIT_OR:
			sp[-2].i |= sp[-1].i;
			sp--;
			break;
		case FOP_BIT_XOR:
			sp[-2].i ^= sp[-1].i;
			sp--;
			break;
		case FOP_LSHIFT:
		case FOP_RSHIFT:
			if (sp[-1].i < 0 || sp[-1].i > 63)
				return 0;
			sp[-2].i = (int64_t)(op == FOP_LSHIFT ? (uint64_t)sp[-2].i << sp[-1].i
							      : (uint64_t)sp[-2].i >> sp[-1].i);
			sp--;
			break;
		case FOP_NOT:
			sp[-1].i = !sp[-1].i;
			break;
		case FOP_NOT_D:
			sp[-1].i = !sp[-1].d;
			break;
		case FOP_BIT_NOT:
			sp[-1].i = ~sp[-1].i;
			break;
		case FOP_NEG:
			sp[-1].i = (int64_t)(0 - (uint64_t)sp[-1].i);
			break;
		case FOP_NEG_D:
			sp[-1].d = -sp[-1].d;
			break;
		case FOP_BOOL:
			sp[-1].i = sp[-1].i != 0;
			break;
		case FOP_BOOL_D:
			sp[-1].i = dbl_truth(sp[-1].d);
			break;
		case FOP_AND:
		case FOP_OR:
		case FOP_AND_D:
		case FOP_OR_D: {
			int truth =
			    op == FOP_AND || op == FOP_OR ? sp[-1].i != 0 : dbl_truth(sp[-1].d);
			int is_or = op == FOP_OR || op == FOP_OR_D;

			if (truth == is_or) { /* decided: false for &&, true for || */
				sp[-1].i = truth;
				pc = p->code + filter_get_u32(pc);
			} else {
				sp--;
				pc += 4;
			}
			break;
		}
		default:
			/* not reached: the validator refuses every other opcode */
			TRAX_ASSERT(0);
			return 0;
		}
		TRAX_ASSERT(sp >= stack && sp <= stack + FILTER_STACK_MAX);
	}
}
