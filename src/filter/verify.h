/*
 * verify.h - the filter validator (internal to src/filter): a walk over a
 * program that proves, before anything runs it, that
 *   - every instruction is known and whole, and the last one is a return;
 *   - every jump goes forward to the start of an instruction, and the
 *     stack there is the same (depth and types) on every path to it;
 *   - the stack never underflows and never holds more than
 *     FILTER_STACK_MAX values; a return leaves exactly one;
 *   - every string operand is a NUL-terminated string of the table;
 *   - every operator gets operand types it is defined for;
 *   - in a linked program, every load names an argument, context or
 *     literal that exists, with the type the load expects.
 * The walk can also hand each instruction, with the types of the stack
 * before it, to a visitor that may rewrite its opcode: the linker's
 * specializer is that visitor.
 */
#ifndef TRAX_FILTER_VERIFY_H
#define TRAX_FILTER_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "filter/filter.h"

/* Types of the values on the stack. */
enum filter_vtype {
	FILTER_VT_INT = 1,
	FILTER_VT_DBL,
	FILTER_VT_STR,
	FILTER_VT_GLOB,
	FILTER_VT_ANY, /* a field or context before linking */
};

/* What a linked program's loads refer to (NULL in generic mode). */
struct filter_link_info {
	const uint8_t *arg_types; /* enum filter_field_type, per argument */
	const uint8_t *arg_elems; /* element format, per argument */
	unsigned int nr_args;
	const uint8_t *ctx_types;
	unsigned int nr_ctx;
	const uint8_t *lit_glob; /* per literal: 1 for a pattern */
	unsigned int nr_lits;
};

/*
 * Called before each instruction at code[off] with the types of the
 * stack (stack[0] at the bottom, depth values). It may rewrite code[off]
 * to an opcode with the same operand size. 0 to go on, -1 to stop (msg
 * filled).
 */
typedef int (*filter_visit_fn)(void *ctx, uint8_t *code, uint32_t off, const uint8_t *stack,
			       unsigned int depth, char *msg, size_t msg_size);

/*
 * Walks code[0..code_len) with the string table str[0..str_len) (unused
 * when linked is set). Returns 0, or -1 with *bad_off set to the failing
 * instruction (or code_len) and msg filled. visit may be NULL; with a
 * visitor, code is written to.
 */
int filter_verify(uint8_t *code, uint32_t code_len, const char *str, uint32_t str_len,
		  const struct filter_link_info *linked, filter_visit_fn visit, void *visit_ctx,
		  uint32_t *bad_off, char *msg, size_t msg_size);

/* The bytecode's parts, checked: 0, or -1 with err filled. */
int filter_split(const uint8_t *bc, size_t len, const uint8_t **code, uint32_t *code_len,
		 const char **str, uint32_t *str_len, struct filter_error *err);

#endif /* TRAX_FILTER_VERIFY_H */
