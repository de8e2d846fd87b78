/*
 * html-util.c - escaping and template copying for trax's pages
 * (html-util.h).
 */
#include <string.h>

#include "analysis/html-util.h"

void an_html_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void an_html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

int an_html_template_until(FILE *f, const char **pos, const char *marker)
{
	const char *e = marker ? strstr(*pos, marker) : NULL;
	size_t n = e ? (size_t)(e - *pos) : strlen(*pos);

	if (marker && !e)
		return -1;
	fwrite(*pos, 1, n, f);
	*pos += n + (e ? strlen(marker) : 0);
	return 0;
}
