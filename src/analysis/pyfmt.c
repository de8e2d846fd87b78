/*
 * pyfmt.c - Python's str.format() for string fields (pyfmt.h).
 */
#include <stdarg.h>
#include <stdlib.h>

#include "analysis/pyfmt.h"
#include "analysis/table.h"

static void vformat(struct strbuf *sb, const char *fmt, va_list ap)
{
	const char *lit = fmt;

	for (const char *p = fmt; *p;) {
		const char *s;
		char align = 0;
		size_t width = 0;

		if (*p != '{') {
			p++;
			continue;
		}
		strbuf_add(sb, lit, (size_t)(p - lit));
		p++;
		if (*p == ':') {
			align = p[1];
			width = strtoul(p + 2, (char **)&p, 10);
		}
		while (*p && *p != '}')
			p++;
		if (*p)
			p++;
		lit = p;
		s = va_arg(ap, const char *);
		if (align == '>')
			an_pad_right(sb, s, width);
		else if (align == '<')
			an_pad_left(sb, s, width);
		else
			strbuf_puts(sb, s);
	}
	strbuf_puts(sb, lit);
}

void an_pyfmt(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(sb, fmt, ap);
	va_end(ap);
}

void an_pyfmt_line(FILE *f, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	strbuf_init(&sb);
	va_start(ap, fmt);
	vformat(&sb, fmt, ap);
	va_end(ap);
	strbuf_add(&sb, "\n", 1);
	if (sb.buf)
		fwrite(sb.buf, 1, sb.len, f);
	strbuf_free(&sb);
}
