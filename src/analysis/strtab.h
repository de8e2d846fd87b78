/*
 * strtab.h - interned strings (system call names, file names): each
 * distinct string stored once and named by a small id, so that the
 * per-event state holds ids and compares integers.
 */
#ifndef TRAX_ANALYSIS_STRTAB_H
#define TRAX_ANALYSIS_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/idmap.h"

struct strtab {
	struct an_idmap map; /* hash of the string -> id */
	char *arena;	     /* the strings, NUL-terminated, one after the other */
	size_t len, cap;
	size_t *off; /* id -> offset in arena */
	size_t count, offcap;
};

void strtab_init(struct strtab *t);
void strtab_free(struct strtab *t);
/* The id of s (added when new): 0.., or UINT32_MAX when memory ran out. */
uint32_t strtab_id(struct strtab *t, const char *s);
/* The string of id (valid until the next strtab_id). */
static inline const char *strtab_str(const struct strtab *t, uint32_t id)
{
	return t->arena + t->off[id];
}

#endif /* TRAX_ANALYSIS_STRTAB_H */
