/*
 * tsdl-parser-impl.h - the TSDL parser's state and the pieces its files
 * share (internal): token stream, values, type specifiers on one side
 * (tsdl-parser.c), the trace/env/clock/stream/event blocks on the other
 * (tsdl-blocks.c).
 *
 * Errors unwind with longjmp to tsdl_parse(): everything allocated lives in
 * the trace's arena, so nothing leaks when parsing stops half-way.
 */
#ifndef TRAX_TSDL_PARSER_IMPL_H
#define TRAX_TSDL_PARSER_IMPL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "reader/tsdl-build.h"
#include "reader/tsdl-lexer.h"
#include "reader/tsdl-scope.h"

/* Blocks, bodies and parentheses nested deeper than this are refused (bounds recursion). */
#define TSDL_MAX_NESTING 64

struct tsdl_parser {
	struct tsdl_lexer lexer;
	struct tsdl_token lookahead[3];
	unsigned int lookahead_count;
	struct ctf_arena *arena;
	struct tsdl_build *build;
	struct tsdl_scope *scope;   /* innermost lexical scope */
	enum ctf_byte_order native; /* the trace's byte order, found before parsing */
	unsigned int nesting;
	jmp_buf fail;
};

/* A right-hand side of "name = value;". */
enum tsdl_value_kind {
	TSDL_VALUE_INTEGER, /* integer or character constant, with its sign */
	TSDL_VALUE_STRING,
	TSDL_VALUE_NAME, /* identifiers joined by dots: "le", "clock.monotonic.value" */
};

struct tsdl_value {
	enum tsdl_value_kind kind;
	bool negative;
	uint64_t magnitude;
	const char *text; /* STRING, NAME */
	unsigned int line;
	unsigned int column;
};

/* Stops parsing with an error at line:column. */
__attribute__((noreturn, format(printf, 4, 5))) void
tsdl_fail(struct tsdl_parser *p, unsigned int line, unsigned int column, const char *fmt, ...);
/* Arena memory, or stops with "out of memory". */
void *tsdl_alloc(struct tsdl_parser *p, size_t size);
/* Grows an arena array (see ctf_arena_grow) or stops. */
void *tsdl_grow(struct tsdl_parser *p, void *old, unsigned int count, unsigned int *cap,
		size_t elem_size);

const struct tsdl_token *tsdl_peek(struct tsdl_parser *p, unsigned int ahead);
struct tsdl_token tsdl_next(struct tsdl_parser *p);
/* Consumes a token of that kind or stops with "expected WHAT". */
struct tsdl_token tsdl_expect(struct tsdl_parser *p, enum tsdl_token_kind kind, const char *what);
void tsdl_enter(struct tsdl_parser *p, const struct tsdl_token *at);
void tsdl_leave(struct tsdl_parser *p);
void tsdl_push_scope(struct tsdl_parser *p);
void tsdl_pop_scope(struct tsdl_parser *p);

void tsdl_parse_value(struct tsdl_parser *p, struct tsdl_value *v);
uint64_t tsdl_value_uint(struct tsdl_parser *p, const struct tsdl_value *v, const char *what);
int64_t tsdl_value_int(struct tsdl_parser *p, const struct tsdl_value *v, const char *what);
bool tsdl_value_bool(struct tsdl_parser *p, const struct tsdl_value *v, const char *what);
/* Identifiers joined by dots ("packet.header"): the left-hand side of an assignment. */
const char *tsdl_parse_dotted_name(struct tsdl_parser *p, const char *what);

/*
 * A declaration: typealias, typedef, or type specifiers with declarators
 * ending with ';'. Fields go to *fields (NULL outside struct and variant
 * bodies, where a declarator is an error).
 */
struct tsdl_field_list {
	struct ctf_field *fields;
	unsigned int count;
	unsigned int cap;
};
void tsdl_parse_declaration(struct tsdl_parser *p, struct tsdl_field_list *fields);
/* Whether the next tokens start a declaration rather than an assignment. */
bool tsdl_at_declaration(struct tsdl_parser *p);
/* A type specifier alone, as after ":=" (no declarator). */
const struct ctf_type *tsdl_parse_type(struct tsdl_parser *p);

/* The trace, env, clock, stream, event and callsite blocks; at the keyword. */
bool tsdl_at_block(struct tsdl_parser *p);
void tsdl_parse_block(struct tsdl_parser *p);

#endif /* TRAX_TSDL_PARSER_IMPL_H */
