/*
 * larena.h - the memory of a parsed type tree (lxml.c, lmarker.c): every
 * node, string and array of one parse comes from one arena, freed at once.
 */
#ifndef TRAX_LEGACY_LARENA_H
#define TRAX_LEGACY_LARENA_H

#include <stddef.h>

struct lxml_arena;

struct lxml_arena *larena_new(void);
void larena_free(struct lxml_arena *a);
/* size zeroed bytes aligned for any type; NULL when memory is out */
void *larena_alloc(struct lxml_arena *a, size_t size);
/* a NUL-terminated copy of n bytes of s */
char *larena_strndup(struct lxml_arena *a, const char *s, size_t n);

/*
 * Error messages of the legacy readers quote names and values from the
 * files they read: control characters (a newline in a quoted attribute)
 * become '?', so that a message stays one line.
 */
void lmsg_one_line(char *msg);

#endif /* TRAX_LEGACY_LARENA_H */
