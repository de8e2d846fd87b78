/*
 * tree.h - a filter's expression as a tree, rebuilt from its generic
 * bytecode (filter_compile's), for code that must read what a filter says
 * rather than run it: the kernel domain translates filters into the
 * kernel's own event filter syntax (src/kernel/kfpush.c).
 *
 * The tree is made from the bytecode, not from the text, so it says
 * exactly what filter_link() and filter_run() will do: the same
 * precedence, the same constants (a negative literal is one constant, a
 * string's escapes are resolved, a pattern is kept as written).
 */
#ifndef TRAX_FILTER_TREE_H
#define TRAX_FILTER_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter/filter.h"

enum filter_node_kind {
	FILTER_NODE_INT = 1, /* i: an integer constant */
	FILTER_NODE_DBL,     /* d */
	FILTER_NODE_STR,     /* s, len: a plain string, escapes resolved */
	FILTER_NODE_GLOB,    /* s, len: a star-glob pattern as written ('\' escapes) */
	FILTER_NODE_FIELD,   /* s: the field's name */
	FILTER_NODE_ELEM,    /* s: an array field's name, index: the element */
	FILTER_NODE_CTX,     /* s: NAME of $ctx.NAME */
	FILTER_NODE_APP,     /* s: PROVIDER:NAME of $app.PROVIDER:NAME */
	FILTER_NODE_CMP,     /* a CMP b, cmp: 0 ==, 1 !=, 2 <, 3 >, 4 <=, 5 >= */
	FILTER_NODE_AND,     /* a && b (short-circuit; 0 or 1) */
	FILTER_NODE_OR,	     /* a || b */
	FILTER_NODE_NOT,     /* !a */
	FILTER_NODE_BIT_AND, /* a & b */
	FILTER_NODE_BIT_OR,
	FILTER_NODE_BIT_XOR,
	FILTER_NODE_LSHIFT,
	FILTER_NODE_RSHIFT,
	FILTER_NODE_BIT_NOT, /* ~a */
	FILTER_NODE_NEG,     /* -a */
};

/* The comparisons of FILTER_NODE_CMP (bytecode.h's enum filter_cmp). */
enum {
	FILTER_TREE_EQ,
	FILTER_TREE_NE,
	FILTER_TREE_LT,
	FILTER_TREE_GT,
	FILTER_TREE_LE,
	FILTER_TREE_GE
};

struct filter_node {
	uint8_t kind; /* enum filter_node_kind */
	uint8_t cmp;  /* FILTER_NODE_CMP */
	const struct filter_node *a, *b;
	int64_t i;
	double d;
	const char *s; /* into the tree's copy of the string table */
	size_t len;
	uint32_t index;
};

struct filter_tree {
	const struct filter_node *root;
	struct filter_node *nodes; /* what the tree owns */
	char *strings;
};

/*
 * Rebuilds the expression of bytecode (checked first as filter_check()
 * does). 0, or -1 with err filled: bad bytecode, or code whose jumps do
 * not have the shape filter_compile() gives && and || (hand-made
 * bytecode: valid, but not a tree this reads).
 */
int filter_tree_build(const uint8_t *bc, size_t len, struct filter_tree *t,
		      struct filter_error *err);
void filter_tree_free(struct filter_tree *t);

/*
 * The value of n when it is a constant integer expression (literals, -,
 * ~, &, |, ^, shifts of constants), computed as filter_run() would: true
 * and *v set, or false (not constant, or a shift filter_run() refuses).
 */
bool filter_tree_const_int(const struct filter_node *n, int64_t *v);
/* Whether `a cmp b` holds (FILTER_TREE_EQ...), as signed 64-bit integers. */
bool filter_tree_cmp_holds(int64_t a, unsigned int cmp, int64_t b);
/* The comparison with its operands swapped: `a < b` is `b > a`. */
unsigned int filter_tree_cmp_mirror(unsigned int cmp);
/* The comparison's negation: !(a < b) is a >= b. */
unsigned int filter_tree_cmp_negate(unsigned int cmp);

#endif /* TRAX_FILTER_TREE_H */
