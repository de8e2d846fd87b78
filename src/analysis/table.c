/* table.c - lttng-analyses' output formats (table.h). */
#include "analysis/table.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *an_py_float(char *buf, size_t len, double v)
{
	char digits[40], *e, mant[24];
	int exp10, nd = 0, prec;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, v < 0 ? "-Infinity" : "Infinity");
		return buf;
	}
	if (v == 0) {
		snprintf(buf, len, signbit(v) ? "-0.0" : "0.0");
		return buf;
	}
	/* the fewest significant digits that read back as v */
	for (prec = 0; prec < 17; prec++) {
		snprintf(digits, sizeof(digits), "%.*e", prec, v);
		if (strtod(digits, NULL) == v)
			break;
	}
	/* digits: [-]d[.ddd]e[+-]xx: split into the digit string and the exponent */
	e = strchr(digits, 'e');
	exp10 = atoi(e + 1);
	for (const char *p = digits; p < e; p++)
		if (*p >= '0' && *p <= '9')
			mant[nd++] = *p;
	while (nd > 1 && mant[nd - 1] == '0')
		nd--;
	mant[nd] = 0;

	struct strbuf sb;
	strbuf_init(&sb);
	if (v < 0)
		strbuf_puts(&sb, "-");
	if (exp10 >= -4 && exp10 < 16) {
		/* positional, with at least one digit after the point (repr's "r" format) */
		if (exp10 < 0) {
			strbuf_puts(&sb, "0.");
			for (int i = -1; i > exp10; i--)
				strbuf_puts(&sb, "0");
			strbuf_puts(&sb, mant);
		} else if (nd > exp10 + 1) {
			strbuf_add(&sb, mant, (size_t)exp10 + 1);
			strbuf_puts(&sb, ".");
			strbuf_puts(&sb, mant + exp10 + 1);
		} else {
			strbuf_puts(&sb, mant);
			for (int i = nd; i <= exp10; i++)
				strbuf_puts(&sb, "0");
			strbuf_puts(&sb, ".0");
		}
	} else {
		strbuf_add(&sb, mant, 1);
		if (nd > 1) {
			strbuf_puts(&sb, ".");
			strbuf_puts(&sb, mant + 1);
		}
		strbuf_printf(&sb, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
	}
	snprintf(buf, len, "%s", sb.buf ? sb.buf : "");
	strbuf_free(&sb);
	return buf;
}

/* The next code point of UTF-8 text at *p (advanced); a bad byte counts as itself. */
static uint32_t utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t c = s[0];
	int n = 0;

	if (c >= 0xF0 && c < 0xF8)
		n = 3, c &= 0x07;
	else if (c >= 0xE0)
		n = 2, c &= 0x0F;
	else if (c >= 0xC0)
		n = 1, c &= 0x1F;
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*p = s + 1;
			return s[0];
		}
		c = (c << 6) | (s[i] & 0x3F);
	}
	*p = s + n + 1;
	return c;
}

void an_json_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	strbuf_puts(sb, "\"");
	while (*p) {
		uint32_t c = utf8_next(&p);

		switch (c) {
		case '"':
			strbuf_puts(sb, "\\\"");
			break;
		case '\\':
			strbuf_puts(sb, "\\\\");
			break;
		case '\n':
			strbuf_puts(sb, "\\n");
			break;
		case '\r':
			strbuf_puts(sb, "\\r");
			break;
		case '\t':
			strbuf_puts(sb, "\\t");
			break;
		case '\b':
			strbuf_puts(sb, "\\b");
			break;
		case '\f':
			strbuf_puts(sb, "\\f");
			break;
		default:
			if (c < 0x20 || (c >= 0x7F && c < 0x10000))
				strbuf_printf(sb, "\\u%04x", c);
			else if (c >= 0x10000) {
				c -= 0x10000;
				strbuf_printf(sb, "\\u%04x\\u%04x", 0xD800 + (c >> 10),
					      0xDC00 + (c & 0x3FF));
			} else {
				char ch = (char)c;
				strbuf_add(sb, &ch, 1);
			}
		}
	}
	strbuf_puts(sb, "\"");
}

char *an_format_time(char *buf, size_t len, int64_t ns, int date, int gmt)
{
	/* Python's // and %: floor division */
	int64_t s = ns / 1000000000, r = ns % 1000000000;
	time_t t;
	struct tm tm;

	if (r < 0) {
		r += 1000000000;
		s--;
	}
	t = (time_t)s;
	if (gmt)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	if (date)
		snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d.%09" PRId64, tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, r);
	else
		snprintf(buf, len, "%02d:%02d:%02d.%09" PRId64, tm.tm_hour, tm.tm_min, tm.tm_sec,
			 r);
	return buf;
}

size_t an_text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		utf8_next(&p);
		n++;
	}
	return n;
}

static void spaces(struct strbuf *sb, size_t n)
{
	static const char sp[] = "                                ";

	while (n > 0) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;

		strbuf_add(sb, sp, k);
		n -= k;
	}
}

void an_pad_left(struct strbuf *sb, const char *s, size_t width)
{
	size_t w = an_text_width(s);

	strbuf_puts(sb, s);
	if (w < width)
		spaces(sb, width - w);
}

void an_pad_right(struct strbuf *sb, const char *s, size_t width)
{
	size_t w = an_text_width(s);

	if (w < width)
		spaces(sb, width - w);
	strbuf_puts(sb, s);
}

#define AN_GRAPH_WIDTH 80

void an_bar_graph(FILE *f, const char *title, const char *label_header, const char *unit,
		  const struct an_bar *rows, size_t n)
{
	struct strbuf sb;
	double max = 0;
	size_t maxlen = 0, ulen = unit ? strlen(unit) + 1 : 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(rows[i].value_str) + ulen;

		if (rows[i].value > max)
			max = rows[i].value;
		if (l > maxlen)
			maxlen = l;
	}
	strbuf_init(&sb);
	strbuf_puts(&sb, title);
	if (label_header) {
		spaces(&sb, AN_GRAPH_WIDTH - an_text_width(title) + 1 + maxlen + 1);
		strbuf_puts(&sb, label_header);
	}
	strbuf_puts(&sb, "\n");
	for (int i = 0; i < AN_GRAPH_WIDTH; i++)
		strbuf_puts(&sb, "#");
	strbuf_puts(&sb, "\n");
	for (size_t i = 0; i < n; i++) {
		int w = max == 0 ? 0 : (int)(AN_GRAPH_WIDTH * rows[i].value / max);
		size_t l = strlen(rows[i].value_str) + ulen;

		if (w < 0)
			w = 0;
		if (w > AN_GRAPH_WIDTH)
			w = AN_GRAPH_WIDTH;
		for (int k = 0; k < w; k++)
			strbuf_puts(&sb, "\xe2\x96\x88"); /* U+2588 FULL BLOCK */
		spaces(&sb, (size_t)(AN_GRAPH_WIDTH - w) + 1 + (maxlen - l));
		strbuf_puts(&sb, rows[i].value_str);
		if (unit) {
			strbuf_puts(&sb, " ");
			strbuf_puts(&sb, unit);
		}
		strbuf_puts(&sb, " ");
		strbuf_puts(&sb, rows[i].label);
		strbuf_puts(&sb, "\n");
	}
	strbuf_puts(&sb, "\n");
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_free(&sb);
}

/* ---- MI ---- */

void an_mi_begin(struct an_mi *mi, FILE *f)
{
	memset(mi, 0, sizeof(*mi));
	mi->f = f;
	strbuf_init(&mi->table);
}

static void time_value(struct strbuf *sb, const char *key, int64_t ns)
{
	strbuf_printf(sb, "\"%s\": {\"class\": \"timestamp\", \"value\": %" PRId64 "}", key, ns);
}

void an_mi_table(struct an_mi *mi, const char *cls, const char *title, int64_t begin, int64_t end)
{
	struct strbuf *sb = &mi->table;

	strbuf_reset(sb);
	mi->rows = 0;
	strbuf_puts(sb, "{\"class\": ");
	if (title) {
		strbuf_puts(sb, "{\"inherit\": ");
		an_json_string(sb, cls);
		strbuf_puts(sb, ", \"title\": ");
		an_json_string(sb, title);
		strbuf_puts(sb, "}");
	} else
		an_json_string(sb, cls);
	strbuf_puts(sb, ", \"time-range\": {\"class\": \"time-range\", ");
	time_value(sb, "begin", begin);
	strbuf_puts(sb, ", ");
	time_value(sb, "end", end);
	strbuf_puts(sb, "}, \"data\": [");
}

/* What the table holds so far written out (the document streams: its tables can be long). */
static void mi_flush(struct an_mi *mi)
{
	if (mi->table.failed)
		return;
	if (mi->table.len)
		fwrite(mi->table.buf, 1, mi->table.len, mi->f);
	strbuf_reset(&mi->table);
}

void an_mi_row(struct an_mi *mi)
{
	/* the table is written from its first row (one without rows is dropped) */
	if (!mi->rows) {
		fputs(mi->tables++ ? ", " : "{\"results\": [", mi->f);
		mi_flush(mi);
	} else if (mi->table.len >= 65536)
		mi_flush(mi);
	strbuf_puts(&mi->table, mi->rows ? ", [" : "[");
	mi->rows++;
	mi->cells = 0;
}

void an_mi_row_end(struct an_mi *mi)
{
	strbuf_puts(&mi->table, "]");
}

void an_mi_table_end(struct an_mi *mi)
{
	if (!mi->rows) {
		strbuf_reset(&mi->table);
		return;
	}
	strbuf_puts(&mi->table, "]}");
	mi->failed |= mi->table.failed;
	mi_flush(mi);
	mi->rows = 0;
}

int an_mi_end(struct an_mi *mi)
{
	int bad = mi->failed || mi->table.failed;

	if (!bad) {
		fputs(mi->tables ? "]}\n" : "{\"results\": []}\n", mi->f);
		bad = fflush(mi->f) != 0 || ferror(mi->f);
	}
	strbuf_free(&mi->table);
	return bad ? -1 : 0;
}

static struct strbuf *cell(struct an_mi *mi, const char *cls)
{
	struct strbuf *sb = &mi->table;

	if (mi->cells++)
		strbuf_puts(sb, ", ");
	strbuf_puts(sb, "{\"class\": ");
	an_json_string(sb, cls);
	return sb;
}

void an_mi_raw(struct an_mi *mi, const char *json)
{
	if (mi->cells++)
		strbuf_puts(&mi->table, ", ");
	strbuf_puts(&mi->table, json);
}

void an_mi_number(struct an_mi *mi, const char *cls, int64_t v)
{
	strbuf_printf(cell(mi, cls), ", \"value\": %" PRId64 "}", v);
}

void an_mi_float(struct an_mi *mi, const char *cls, double v)
{
	char b[40];

	strbuf_printf(cell(mi, cls), ", \"value\": %s}", an_py_float(b, sizeof(b), v));
}

void an_mi_string(struct an_mi *mi, const char *v)
{
	struct strbuf *sb = cell(mi, "string");

	strbuf_puts(sb, ", \"value\": ");
	an_json_string(sb, v);
	strbuf_puts(sb, "}");
}

void an_mi_unknown(struct an_mi *mi)
{
	strbuf_puts(cell(mi, "unknown"), "}");
}

void an_mi_null(struct an_mi *mi)
{
	if (mi->cells++)
		strbuf_puts(&mi->table, ", ");
	strbuf_puts(&mi->table, "null");
}

void an_mi_process(struct an_mi *mi, const char *name, int64_t pid, int64_t tid)
{
	struct strbuf *sb = cell(mi, "process");

	if (name) {
		strbuf_puts(sb, ", \"name\": ");
		an_json_string(sb, name);
	}
	if (pid >= 0)
		strbuf_printf(sb, ", \"pid\": %" PRId64, pid);
	if (tid >= 0)
		strbuf_printf(sb, ", \"tid\": %" PRId64, tid);
	strbuf_puts(sb, "}");
}

void an_mi_cpu(struct an_mi *mi, int64_t id)
{
	strbuf_printf(cell(mi, "cpu"), ", \"id\": %" PRId64 "}", id);
}

void an_mi_named(struct an_mi *mi, const char *cls, const char *key, const char *value)
{
	struct strbuf *sb = cell(mi, cls);

	strbuf_printf(sb, ", \"%s\": ", key);
	an_json_string(sb, value);
	strbuf_puts(sb, "}");
}

void an_mi_irq(struct an_mi *mi, int hard, int64_t nr, const char *name)
{
	struct strbuf *sb = cell(mi, "irq");

	strbuf_printf(sb, ", \"hard\": %s, \"nr\": %" PRId64, hard ? "true" : "false", nr);
	if (name) {
		strbuf_puts(sb, ", \"name\": ");
		an_json_string(sb, name);
	}
	strbuf_puts(sb, "}");
}
