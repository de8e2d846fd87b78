/*
 * tree.c - generic bytecode back into its expression (see tree.h): the
 * code is walked once with a stack of nodes in place of values; an AND
 * or OR takes its left operand and waits for its jump target, where its
 * right operand is on the top of the stack (filter_compile() emits
 * "left AND/OR target, right, BOOL" and patches the target after BOOL).
 */
#include "filter/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/bytecode.h"
#include "filter/verify.h"

struct pending {
	uint8_t kind; /* FILTER_NODE_AND or _OR */
	const struct filter_node *left;
	uint32_t target;
	unsigned int depth; /* the stack's depth once left was taken */
};

struct builder {
	struct filter_node *nodes;
	unsigned int nr;
	const struct filter_node *stack[FILTER_STACK_MAX + 1];
	unsigned int sp;
	struct pending *pend;
	unsigned int np;
	const char *str;
	uint32_t str_len;
	struct filter_error *err;
};

static int fail(struct builder *b, uint32_t pc, const char *msg)
{
	b->err->pos = -1;
	snprintf(b->err->msg, sizeof(b->err->msg), "instruction at %u: %s", pc, msg);
	return -1;
}

static struct filter_node *node(struct builder *b, uint8_t kind)
{
	struct filter_node *n = &b->nodes[b->nr++];

	n->kind = kind;
	return n;
}

static int push(struct builder *b, const struct filter_node *n)
{
	if (b->sp > FILTER_STACK_MAX)
		return -1;
	b->stack[b->sp++] = n;
	return 0;
}

/* The string at table offset off (the table is NUL-terminated: filter_check proved it). */
static const char *string_at(const struct builder *b, const uint8_t *operand, size_t *len)
{
	uint32_t off = filter_get_u32(operand);
	const char *s = b->str + off;

	*len = strlen(s);
	return s;
}

/* An AND or OR whose target is pc: its node, from its left and the top of the stack. */
static int close_pending(struct builder *b, uint32_t pc)
{
	while (b->np && b->pend[b->np - 1].target == pc) {
		struct pending *p = &b->pend[--b->np];
		struct filter_node *n;

		if (b->sp != p->depth + 1)
			return fail(b, pc, "a jump target where the stack is not its operand's");
		n = node(b, p->kind);
		n->a = p->left;
		n->b = b->stack[--b->sp];
		if (push(b, n))
			return fail(b, pc, "stack overflow");
	}
	if (b->np && b->pend[b->np - 1].target < pc)
		return fail(b, pc, "jumps that cross");
	return 0;
}

static int walk(struct builder *b, const uint8_t *code, uint32_t code_len,
		const struct filter_node **root)
{
	uint32_t pc = 0;

	while (pc < code_len) {
		uint8_t op = code[pc];
		int nops = filter_op_operands(op);
		const uint8_t *operand = code + pc + 1;
		struct filter_node *n;

		if (close_pending(b, pc))
			return -1;
		if (nops < 0 || pc + 1 + (uint32_t)nops > code_len)
			return fail(b, pc, "unknown instruction");
		switch (op) {
		case FOP_RET:
			if (pc + 1 != code_len || b->sp != 1 || b->np)
				return fail(b, pc, "a return that is not the end");
			*root = b->stack[0];
			return 0;
		case FOP_LOAD_INT:
			n = node(b, FILTER_NODE_INT);
			memcpy(&n->i, operand, 8);
			break;
		case FOP_LOAD_DBL:
			n = node(b, FILTER_NODE_DBL);
			memcpy(&n->d, operand, 8);
			break;
		case FOP_LOAD_STR:
		case FOP_LOAD_GLOB:
		case FOP_LOAD_FIELD:
		case FOP_LOAD_CTX:
		case FOP_LOAD_APP:
			n = node(b, op == FOP_LOAD_STR	   ? FILTER_NODE_STR
				    : op == FOP_LOAD_GLOB  ? FILTER_NODE_GLOB
				    : op == FOP_LOAD_FIELD ? FILTER_NODE_FIELD
				    : op == FOP_LOAD_CTX   ? FILTER_NODE_CTX
							   : FILTER_NODE_APP);
			n->s = string_at(b, operand, &n->len);
			break;
		case FOP_LOAD_ELEM:
			n = node(b, FILTER_NODE_ELEM);
			n->s = string_at(b, operand, &n->len);
			n->index = filter_get_u32(operand + 4);
			break;
		case FOP_EQ:
		case FOP_NE:
		case FOP_LT:
		case FOP_GT:
		case FOP_LE:
		case FOP_GE:
		case FOP_BIT_AND:
		case FOP_BIT_OR:
		case FOP_BIT_XOR:
		case FOP_LSHIFT:
		case FOP_RSHIFT:
			if (b->sp < 2)
				return fail(b, pc, "stack underflow");
			if (op >= FOP_EQ && op <= FOP_GE) {
				n = node(b, FILTER_NODE_CMP);
				n->cmp = (uint8_t)(op - FOP_EQ);
			} else {
				n = node(b, op == FOP_BIT_AND	? FILTER_NODE_BIT_AND
					    : op == FOP_BIT_OR	? FILTER_NODE_BIT_OR
					    : op == FOP_BIT_XOR ? FILTER_NODE_BIT_XOR
					    : op == FOP_LSHIFT	? FILTER_NODE_LSHIFT
								: FILTER_NODE_RSHIFT);
			}
			n->b = b->stack[--b->sp];
			n->a = b->stack[--b->sp];
			break;
		case FOP_NOT:
		case FOP_BIT_NOT:
		case FOP_NEG:
			if (b->sp < 1)
				return fail(b, pc, "stack underflow");
			n = node(b, op == FOP_NOT	? FILTER_NODE_NOT
				    : op == FOP_BIT_NOT ? FILTER_NODE_BIT_NOT
							: FILTER_NODE_NEG);
			n->a = b->stack[--b->sp];
			break;
		case FOP_AND:
		case FOP_OR: {
			uint32_t target = filter_get_u32(operand);
			struct pending *p;

			if (b->sp < 1)
				return fail(b, pc, "stack underflow");
			if (target <= pc + 5 || target > code_len ||
			    (b->np && target > b->pend[b->np - 1].target))
				return fail(b, pc, "a jump this does not read");
			p = &b->pend[b->np++];
			p->kind = op == FOP_AND ? FILTER_NODE_AND : FILTER_NODE_OR;
			p->left = b->stack[--b->sp];
			p->target = target;
			p->depth = b->sp;
			pc += 5;
			continue;
		}
		case FOP_BOOL:
			/* the truth of an AND's or OR's right operand, which its node gives */
			if (!b->np || b->pend[b->np - 1].target != pc + 1)
				return fail(b, pc, "a truth conversion outside && or ||");
			pc += 1;
			continue;
		default:
			return fail(b, pc, "an instruction generic bytecode does not have");
		}
		if (push(b, n))
			return fail(b, pc, "stack overflow");
		pc += 1 + (uint32_t)nops;
	}
	return fail(b, pc, "no return");
}

int filter_tree_build(const uint8_t *bc, size_t len, struct filter_tree *t,
		      struct filter_error *err)
{
	struct builder b = {.err = err};
	const uint8_t *code;
	const char *str;
	uint32_t code_len, str_len;

	memset(t, 0, sizeof(*t));
	err->pos = -1;
	err->msg[0] = 0;
	if (filter_check(bc, len, err) ||
	    filter_split(bc, len, &code, &code_len, &str, &str_len, err))
		return -1;
	t->strings = malloc(str_len ? str_len : 1);
	t->nodes = calloc((size_t)code_len + 1, sizeof(*t->nodes));
	b.pend = calloc((size_t)code_len + 1, sizeof(*b.pend));
	if (!t->strings || !t->nodes || !b.pend) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		free(b.pend);
		filter_tree_free(t);
		return -1;
	}
	memcpy(t->strings, str, str_len);
	b.nodes = t->nodes;
	b.str = t->strings;
	b.str_len = str_len;
	if (walk(&b, code, code_len, &t->root)) {
		free(b.pend);
		filter_tree_free(t);
		return -1;
	}
	free(b.pend);
	return 0;
}

void filter_tree_free(struct filter_tree *t)
{
	free(t->nodes);
	free(t->strings);
	memset(t, 0, sizeof(*t));
}

bool filter_tree_const_int(const struct filter_node *n, int64_t *v)
{
	int64_t a, b;

	switch (n->kind) {
	case FILTER_NODE_INT:
		*v = n->i;
		return true;
	case FILTER_NODE_NEG:
	case FILTER_NODE_BIT_NOT:
		if (!filter_tree_const_int(n->a, &a))
			return false;
		*v = n->kind == FILTER_NODE_NEG ? (int64_t)(0 - (uint64_t)a) : ~a;
		return true;
	case FILTER_NODE_BIT_AND:
	case FILTER_NODE_BIT_OR:
	case FILTER_NODE_BIT_XOR:
	case FILTER_NODE_LSHIFT:
	case FILTER_NODE_RSHIFT:
		if (!filter_tree_const_int(n->a, &a) || !filter_tree_const_int(n->b, &b))
			return false;
		switch (n->kind) {
		case FILTER_NODE_BIT_AND:
			*v = a & b;
			return true;
		case FILTER_NODE_BIT_OR:
			*v = a | b;
			return true;
		case FILTER_NODE_BIT_XOR:
			*v = a ^ b;
			return true;
		default:
			/* a count out of 0..63 makes the whole filter false at run time */
			if (b < 0 || b > 63)
				return false;
			*v = n->kind == FILTER_NODE_LSHIFT ? (int64_t)((uint64_t)a << b)
							   : (int64_t)((uint64_t)a >> b);
			return true;
		}
	default:
		return false;
	}
}

bool filter_tree_cmp_holds(int64_t a, unsigned int cmp, int64_t b)
{
	switch (cmp) {
	case FILTER_TREE_EQ:
		return a == b;
	case FILTER_TREE_NE:
		return a != b;
	case FILTER_TREE_LT:
		return a < b;
	case FILTER_TREE_GT:
		return a > b;
	case FILTER_TREE_LE:
		return a <= b;
	default:
		return a >= b;
	}
}

unsigned int filter_tree_cmp_mirror(unsigned int cmp)
{
	static const unsigned int mirror[] = {FILTER_TREE_EQ, FILTER_TREE_NE, FILTER_TREE_GT,
					      FILTER_TREE_LT, FILTER_TREE_GE, FILTER_TREE_LE};

	return cmp < 6 ? mirror[cmp] : cmp;
}

unsigned int filter_tree_cmp_negate(unsigned int cmp)
{
	static const unsigned int negation[] = {FILTER_TREE_NE, FILTER_TREE_EQ, FILTER_TREE_GE,
						FILTER_TREE_LE, FILTER_TREE_GT, FILTER_TREE_LT};

	return cmp < 6 ? negation[cmp] : cmp;
}
