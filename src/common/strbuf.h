/* strbuf.h - a growable string for building text (TSDL metadata, paths). */
#ifndef TRAX_STRBUF_H
#define TRAX_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	int failed; /* an allocation failed: the content is incomplete */
};

void strbuf_init(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* TRAX_STRBUF_H */
