/*
 * fuzz_filter_tree.c - libFuzzer target for the expression tree of filter
 * bytecode (src/filter/tree.c): any bytes as code, in a header and around
 * a string table of names, as fuzz_filter_bytecode builds them. What the
 * builder accepts passed filter_check; its tree must be whole: every node
 * of the tree's own array, every operator with its operands, strings of
 * the table, and no node reached twice (a tree, not a graph).
 *
 * FUZZ-SOURCES: src/filter/[a-z]*.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "filter/bytecode.h"
#include "filter/tree.h"

static const char strtab[] = "a\0b\0s\0arr\0t\0vpid\0procname\0a*\0";

static unsigned int walk(const struct filter_tree *t, const struct filter_node *n, size_t nodes,
			 uint8_t *seen)
{
	size_t i;
	unsigned int count = 1;

	CHECK(n >= t->nodes && n < t->nodes + nodes);
	i = (size_t)(n - t->nodes);
	CHECK(!seen[i]);
	seen[i] = 1;
	switch (n->kind) {
	case FILTER_NODE_STR:
	case FILTER_NODE_GLOB:
	case FILTER_NODE_FIELD:
	case FILTER_NODE_ELEM:
	case FILTER_NODE_CTX:
	case FILTER_NODE_APP:
		CHECK(n->s && strlen(n->s) == n->len);
		/* fall through */
	case FILTER_NODE_INT:
	case FILTER_NODE_DBL:
		CHECK(!n->a && !n->b);
		return count;
	case FILTER_NODE_NOT:
	case FILTER_NODE_BIT_NOT:
	case FILTER_NODE_NEG:
		CHECK(n->a && !n->b);
		return count + walk(t, n->a, nodes, seen);
	default:
		CHECK(n->kind >= FILTER_NODE_CMP && n->kind <= FILTER_NODE_RSHIFT);
		CHECK(n->a && n->b);
		CHECK(n->kind != FILTER_NODE_CMP || n->cmp <= FILTER_TREE_GE);
		return count + walk(t, n->a, nodes, seen) + walk(t, n->b, nodes, seen);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct filter_bc_header h = {FILTER_BC_MAGIC, FILTER_BC_VERSION, 0, (uint32_t)size,
				     sizeof(strtab)};
	struct filter_error err;
	struct filter_tree t;
	size_t len = sizeof(h) + size + sizeof(strtab);
	uint8_t *bc = malloc(len), *seen;

	memcpy(bc, &h, sizeof(h));
	memcpy(bc + sizeof(h), data, size);
	memcpy(bc + sizeof(h) + size, strtab, sizeof(strtab));
	if (filter_tree_build(bc, len, &t, &err) == 0) {
		/* at most one node per instruction: code_len + 1 bounds the array */
		seen = calloc(size + 1, 1);
		CHECK(t.root);
		walk(&t, t.root, size + 1, seen);
		free(seen);
		filter_tree_free(&t);
	} else {
		CHECK(err.msg[0]);
	}
	free(bc);
	return 0;
}
