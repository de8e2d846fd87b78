/* strbuf.c - growable strings; on allocation failure they stop growing and say so. */
#include "common/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = 0;
}

static int grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	size_t cap = sb->cap ? sb->cap : 256;
	char *p;

	if (sb->failed)
		return -1;
	if (need <= sb->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->failed = 1;
		return -1;
	}
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}
