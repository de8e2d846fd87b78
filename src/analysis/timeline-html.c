/*
 * timeline-html.c - writes the timeline's page (timeline-impl.h): the
 * template (timeline-page.html) with the title, the rows as one JSON
 * document of base64 varint streams, and the stats tables.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/html-util.h"
#include "analysis/timeline-impl.h"

static int64_t sort_key(const struct tl_row *r)
{
	return r->pid >= 0 ? r->pid : r->id;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct tl_row *x = *(const struct tl_row *const *)a;
	const struct tl_row *y = *(const struct tl_row *const *)b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->kind == TL_ROW_THREAD && sort_key(x) != sort_key(y))
		return sort_key(x) < sort_key(y) ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

/* base64 of raw, as a JSON string; raw emptied. */
static void put_b64(FILE *f, struct strbuf *raw, struct strbuf *b64)
{
	strbuf_reset(b64);
	tl_base64(b64, (const unsigned char *)(raw->buf ? raw->buf : ""), raw->len);
	fputc('"', f);
	if (b64->len)
		fwrite(b64->buf, 1, b64->len, f);
	fputc('"', f);
	strbuf_reset(raw);
}

static int write_rows(FILE *f, struct tl_model *m, struct tl_row **rows, size_t n, int64_t span)
{
	struct strbuf raw, b64;
	int failed = 0;

	strbuf_init(&raw);
	strbuf_init(&b64);
	fputs("\"rows\":[", f);
	for (size_t i = 0; i < n && !failed; i++) {
		const struct tl_row *r = rows[i];
		int lc = tl_level_count(span, r->nch), lm = tl_level_count(span, r->nmarks);

		fprintf(f, "%s{\"k\":\"%c\",\"id\":%" PRId64 ",\"pid\":%" PRId64 ",\"name\":%u",
			i ? ",\n" : "",
			r->kind == TL_ROW_CPU	   ? 'c'
			: r->kind == TL_ROW_THREAD ? 't'
						   : 's',
			r->kind == TL_ROW_STREAM ? (int64_t)i : r->id, r->pid, r->label);
		/* the raw changes in chunks (the page decodes those it shows), with their first
		 * times */
		fprintf(f, ",\"nch\":%zu,\"ct\":[", r->nch);
		for (size_t c = 0; c < r->nch; c += TL_RAW_CHUNK)
			fprintf(f, "%s%" PRId64, c ? "," : "", r->ch[c].t);
		fputs("],\"raw\":[", f);
		for (size_t c = 0; c < r->nch; c += TL_RAW_CHUNK) {
			size_t len = r->nch - c < TL_RAW_CHUNK ? r->nch - c : TL_RAW_CHUNK;

			if (c)
				fputc(',', f);
			tl_encode_changes(&raw, r->ch + c, len, 0);
			put_b64(f, &raw, &b64);
		}
		fputs("],\"ch\":[", f);
		for (int k = 0; k < lc; k++) {
			struct tl_change *d = NULL;
			long nd = tl_decimate(r->ch, r->nch, span, k, &d);

			if (nd < 0) {
				failed = 1;
				break;
			}
			tl_encode_changes(&raw, d, (size_t)nd, 1);
			free(d);
			if (k)
				fputc(',', f);
			put_b64(f, &raw, &b64);
		}
		fprintf(f, "],\"nmk\":%" PRIu64 ",\"mk\":[", r->mark_total);
		tl_encode_marks(&raw, r->marks, r->nmarks, span, -1);
		put_b64(f, &raw, &b64);
		for (int k = 0; k < lm; k++) {
			tl_encode_marks(&raw, r->marks, r->nmarks, span, k);
			fputc(',', f);
			put_b64(f, &raw, &b64);
		}
		fprintf(f, "],\"nsp\":%zu,\"sp\":", r->nspans);
		tl_encode_spans(&raw, r->spans, r->nspans);
		put_b64(f, &raw, &b64);
		fputc('}', f);
		failed |= raw.failed || b64.failed;
	}
	fputs("],\n", f);
	strbuf_free(&raw);
	strbuf_free(&b64);
	(void)m;
	return failed ? -1 : 0;
}

int tl_write_html(FILE *f, struct tl_model *m, const char *title, const char *stats_text,
		  double gen_seconds)
{
	struct tl_row **rows = malloc((m->nrows + 1) * sizeof(*rows));
	size_t *newpos = malloc((m->nrows + 1) * sizeof(*newpos));
	const char *pos = tl_page_template;
	int64_t span = m->t1 - m->t0;
	size_t n = 0;
	int st;

	if (!rows || !newpos) {
		free(rows);
		free(newpos);
		return -1;
	}
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i]->nch || m->rows[i]->nmarks || m->rows[i]->nspans)
			rows[n++] = m->rows[i];
	qsort(rows, n, sizeof(*rows), cmp_rows);
	/* a CPU's running thread: its row index + 1 in the page's order (0: a row left out) */
	for (size_t i = 0; i < m->nrows; i++)
		newpos[i] = 0;
	for (size_t i = 0; i < n; i++)
		newpos[rows[i]->order] = i + 1;
	for (size_t i = 0; i < n; i++) {
		struct tl_row *r = rows[i];

		if (r->kind != TL_ROW_CPU)
			continue;
		for (size_t j = 0; j < r->nch; j++)
			if (r->ch[j].state == TL_USER || r->ch[j].state == TL_SYSCALL ||
			    r->ch[j].state == TL_EXIT)
				r->ch[j].detail = r->ch[j].detail && r->ch[j].detail <= m->nrows
						      ? (uint32_t)newpos[r->ch[j].detail - 1]
						      : 0;
	}

	st = an_html_template_until(f, &pos, "<!--TRAX-TITLE-->");
	an_html_text(f, title ? title : "trace");
	st |= an_html_template_until(f, &pos, "/*TRAX-DATA*/");
	fputs("{\"title\":", f);
	an_html_json_str(f, title ? title : "trace");
	fprintf(f,
		",\"t0\":\"%" PRId64 "\",\"span\":%" PRId64 ",\"events\":%" PRIu64
		",\"marks\":%" PRIu64 ",\"spans\":%" PRIu64 ",\"unmatched\":%" PRIu64
		",\"gen\":%.3f,\"dropped\":%" PRId64 ",\"mdropped\":%" PRId64
		",\"maxch\":%zu,\"lw\":[",
		m->t0, span, m->events, m->marks, m->spans, m->unmatched_ends, gen_seconds,
		m->dropped, m->marks_dropped, m->max_changes);
	for (int k = 0; k < TL_MAX_LEVELS; k++)
		fprintf(f, "%s%.3f", k ? "," : "", tl_level_width(span, k));
	fputs("],\n\"strings\":[", f);
	for (size_t i = 0; i < m->str.n; i++) {
		if (i)
			fputc(',', f);
		an_html_json_str(f, m->str.v[i]);
	}
	fputs("],\n", f);
	st |= write_rows(f, m, rows, n, span);
	fputs("\"end\":1}", f);
	st |= an_html_template_until(f, &pos, "<!--TRAX-STATS-->");
	an_html_text(f, stats_text ? stats_text : "");
	st |= an_html_template_until(f, &pos, NULL);
	free(rows);
	free(newpos);
	return st || ferror(f) ? -1 : 0;
}
