/*
 * program.h - a linked filter program (internal to src/filter): the code
 * after linking and specialization, with the tables its operands index.
 * Built by link.c, run by interp.c, which trusts what the validator
 * proved of it.
 */
#ifndef TRAX_FILTER_PROGRAM_H
#define TRAX_FILTER_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "filter/filter.h"

struct filter_literal {
	const char *s; /* into the program's strings */
	size_t len;
	uint8_t glob; /* a star-glob pattern, escapes as written */
};

struct filter_program {
	struct filter_program_head head; /* first: filter_run() reads it inline */
	uint8_t *code;
	uint32_t code_len;
	char *strings; /* the bytecode's string table, copied */
	struct filter_literal *lits;
	unsigned int nr_lits;
	const struct filter_ctx_field *ctx; /* the layout's: outlives the program */
	unsigned int nr_ctx;
};

/* String comparison as LTTng-UST orders strings (bytes as signed chars); len SIZE_MAX: up to NUL.
 */
int filter_str_cmp(const char *a, size_t alen, const char *b, size_t blen);
/* 1 when s matches the star-glob pattern p ('*' any run, '\' escapes the next character). */
int filter_glob_match(const char *p, size_t plen, const char *s, size_t slen);

#endif /* TRAX_FILTER_PROGRAM_H */
