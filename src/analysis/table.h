/*
 * table.h - what the analyses print: lttng-analyses' machine interface
 * (one JSON document, `{"results": [TABLE, ...]}`, docs/analyses-reference.md
 * section 1.5) and its text (time stamps, bar graphs), with Python's
 * number formats, so that scripts written for the `lttng-*-mi` commands and
 * eyes used to the text commands find the same bytes.
 */
#ifndef TRAX_ANALYSIS_TABLE_H
#define TRAX_ANALYSIS_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/strbuf.h"

/*
 * Python's repr() of a float (shortest digits that read back as the same
 * double; "5814.0", "0.860323356771818", "1e-05", "1.5e+16"), as json.dumps
 * prints it. buf: at least 32 bytes. Returns buf.
 */
char *an_py_float(char *buf, size_t len, double v);

/* A JSON string as json.dumps (ensure_ascii) writes it: quotes, escapes, \uXXXX. */
void an_json_string(struct strbuf *sb, const char *s);

/*
 * A time as lttng-analyses prints it: "hh:mm:ss.nnnnnnnnn", preceded by
 * "YYYY-MM-DD " with date; local time, or UTC with gmt.
 */
char *an_format_time(char *buf, size_t len, int64_t ns, int date, int gmt);

/* The number of characters (UTF-8 code points) of s: Python's len() for padding. */
size_t an_text_width(const char *s);
/* s left-aligned in width columns ('{:<W}') appended to sb. */
void an_pad_left(struct strbuf *sb, const char *s, size_t width);
/* s right-aligned ('{:>W}'). */
void an_pad_right(struct strbuf *sb, const char *s, size_t width);

/* A row of a bar graph (termgraph.BarGraph): the value, its text, the label. */
struct an_bar {
	double value;
	char value_str[32]; /* without the unit */
	const char *label;
};

/*
 * Prints a bar graph as lttng-analyses' termgraph: the title (and the label
 * header after it), 80 '#', a line per row (bar of int(80 * value / max)
 * '█' padded to 80, the value and unit right-aligned, the label), an empty
 * line. Nothing at all without rows.
 */
void an_bar_graph(FILE *f, const char *title, const char *label_header, const char *unit,
		  const struct an_bar *rows, size_t n);

/*
 * The MI document, written as it is made (a table from its first row on,
 * in pieces of 64 KiB: memory does not grow with a long log); a table
 * without rows is not written (lttng-analyses drops those). After a
 * failure the document may be cut short: an_mi_end() says so.
 */
struct an_mi {
	FILE *f;
	struct strbuf table; /* the table being built, not yet written */
	size_t tables, rows, cells;
	int failed;
};

void an_mi_begin(struct an_mi *mi, FILE *f);
/* A table of class cls over [begin, end]; a subtitle makes it {"inherit": cls, "title": ...}. */
void an_mi_table(struct an_mi *mi, const char *cls, const char *title, int64_t begin, int64_t end);
void an_mi_row(struct an_mi *mi);
void an_mi_row_end(struct an_mi *mi);
void an_mi_table_end(struct an_mi *mi);
/* Writes the document and a newline: 0, or -1 when memory or the output failed. */
int an_mi_end(struct an_mi *mi);

/* Cells (mi.py's classes). */
void an_mi_number(struct an_mi *mi, const char *cls, int64_t v); /* number, timestamp, duration */
void an_mi_float(struct an_mi *mi, const char *cls, double v);	 /* ratio, duration (float) */
void an_mi_string(struct an_mi *mi, const char *v);
void an_mi_unknown(struct an_mi *mi);
/* An empty cell: JSON null. */
void an_mi_null(struct an_mi *mi);
/* process {name?, pid?, tid?}: NULL name or a negative pid/tid leaves the key out. */
void an_mi_process(struct an_mi *mi, const char *name, int64_t pid, int64_t tid);
void an_mi_cpu(struct an_mi *mi, int64_t id);
/* A cell given as JSON text, written as is (null, or an object the caller built). */
void an_mi_raw(struct an_mi *mi, const char *json);
/* irq {hard, nr, name?}: an interrupt (NULL name leaves the key out). */
void an_mi_irq(struct an_mi *mi, int hard, int64_t nr, const char *name);
/* A cell of a class trax adds (stats): {"class": cls, "name": value}. */
void an_mi_named(struct an_mi *mi, const char *cls, const char *key, const char *value);

#endif /* TRAX_ANALYSIS_TABLE_H */
