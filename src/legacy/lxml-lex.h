/*
 * lxml-lex.h - the tokens of the facility XML files (lxml-lex.c) for the
 * reader of their grammar (lxml.c): tags with their attributes (values
 * quoted or not, entities decoded), text, the three kinds of comments
 * skipped; errors as one line "FILE:LINE:COL: what". Internal to
 * src/legacy.
 */
#ifndef TRAX_LEGACY_LXML_LEX_H
#define TRAX_LEGACY_LXML_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "legacy/ltt-type.h"

#define LXML_MAX_DEPTH 64 /* nested types: hostile files end here, not in the stack */
#define LXML_MAX_ATTRS 16

enum ltok_kind { LTOK_EOF, LTOK_OPEN, LTOK_CLOSE, LTOK_TEXT };

struct lattr {
	const char *name;
	const char *value; /* "" for a bare attribute (per_tracefile) */
};

struct ltok {
	enum ltok_kind kind;
	size_t pos;	  /* where it starts, for messages */
	const char *name; /* OPEN, CLOSE */
	struct lattr attrs[LXML_MAX_ATTRS];
	unsigned nattrs;
	bool empty;	  /* OPEN written <x/> */
	const char *text; /* TEXT, trimmed */
};

/* A typeref to resolve once its facility is complete. */
struct lref {
	struct ltt_type *t;
	size_t facility;
	struct lref *next;
};

/* A <type name=...> declaration, for the lookups once the file is read. */
struct lnamed {
	size_t facility;
	const char *name;
	struct ltt_type *t;
	size_t pos; /* of its tag */
};

struct lparser {
	const char *s;
	size_t len, pos;
	const char *file;
	char *err;
	size_t errlen;
	bool failed;
	struct lxml_arena *a;
	struct ltok peeked;
	bool has_peeked;
	unsigned depth;
	struct lref *refs;
	struct lnamed *named; /* every facility's, sorted by resolve() */
	size_t nnamed, capnamed;
	struct ltt_facility *fac; /* being built */
	size_t nfac, capfac;
};

/* The first error wins: P->failed, P->err = "FILE:LINE:COL: ..." at byte pos. */
void lx_error(struct lparser *P, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Zeroed arena memory; NULL with the error set. */
void *lx_alloc(struct lparser *P, size_t size);
/* Appends el to a growing arena array *arrp of *n (capacity *cap) elements. */
int lx_push(struct lparser *P, void *arrp, size_t *n, size_t *cap, size_t elsize, const void *el);
bool lx_is_space(char c);
/* The next token (after any peeked one); 0, or -1 with the error set. */
int lx_next(struct lparser *P, struct ltok *t);
/* The next token, left to be returned by lx_next. */
int lx_peek(struct lparser *P, struct ltok **t);
/* An attribute's value ("" when bare), NULL when absent. */
const char *lx_attr(const struct ltok *t, const char *name);
/* After a leaf element written without "/": consumes its closing tag if it is next. */
int lx_end_leaf(struct lparser *P, const struct ltok *open);
/* The raw text of a <description> just opened, up to its closing tag. */
const char *lx_description(struct lparser *P, const struct ltok *open);
/* The error for a token a context does not expect. */
void lx_unexpected(struct lparser *P, const struct ltok *t, const char *where);

#endif /* TRAX_LEGACY_LXML_LEX_H */
