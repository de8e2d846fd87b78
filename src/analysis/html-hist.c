/*
 * html-hist.c - the analyses' histogram page (html-hist.h): the items are
 * kept as JSON text (a memory stream) while the analysis reports, then
 * written into the template's data element in a temporary file renamed to
 * the page's path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/html-hist.h"
#include "analysis/html-util.h"

/* The page template (html-page.html, made a C string by the build). */
extern const char an_html_page_template[];

struct an_html {
	char *path, *tmp;
	FILE *f;     /* the temporary file */
	FILE *items; /* the items' JSON, comma-separated */
	char *buf;   /* items' memory */
	size_t len;
	size_t nitems;
};

const char *an_html_unit(double max_ns, double *scale)
{
	if (max_ns >= 1e9) {
		*scale = 1e9;
		return "s";
	}
	if (max_ns >= 1e6) {
		*scale = 1e6;
		return "ms";
	}
	if (max_ns >= 1e3) {
		*scale = 1e3;
		return "us";
	}
	*scale = 1;
	return "ns";
}

struct an_html *an_html_open(const char *path, char *err, size_t errlen)
{
	struct an_html *h = calloc(1, sizeof(*h));
	int fd;

	if (!h || !(h->path = strdup(path)) || asprintf(&h->tmp, "%s.tmp-XXXXXX", path) < 0) {
		if (h)
			free(h->path);
		free(h);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	fd = mkstemp(h->tmp);
	if (fd < 0 || !(h->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(h->tmp);
		}
		free(h->tmp);
		free(h->path);
		free(h);
		return NULL;
	}
	/* mkstemp's file is the user's only: the page gets a new file's mode */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	if (!(h->items = open_memstream(&h->buf, &h->len))) {
		snprintf(err, errlen, "out of memory");
		an_html_abort(h);
		return NULL;
	}
	return h;
}

static void item_begin(struct an_html *h, const char *kind)
{
	fprintf(h->items, "%s{\"t\":\"%s\"", h->nitems++ ? ",\n" : "", kind);
}

void an_html_hist(struct an_html *h, const char *title, const char *key,
		  const struct an_html_bin *bins, size_t nbins, const struct an_html_mark *marks,
		  size_t nmarks)
{
	double scale, top = 0;
	const char *unit;

	for (size_t i = 0; i < nbins; i++)
		if (bins[i].high > top)
			top = bins[i].high;
	for (size_t i = 0; i < nmarks; i++)
		if (marks[i].value > top)
			top = marks[i].value;
	unit = an_html_unit(top, &scale);
	item_begin(h, "h");
	fputs(",\"title\":", h->items);
	an_html_json_str(h->items, title);
	fputs(",\"key\":", h->items);
	an_html_json_str(h->items, key);
	fprintf(h->items, ",\"unit\":\"%s\",\"scale\":%.0f,\"bins\":[", unit, scale);
	for (size_t i = 0; i < nbins; i++)
		fprintf(h->items, "%s[%.17g,%.17g,%" PRIu64 "]", i ? "," : "", bins[i].low,
			bins[i].high, bins[i].count);
	fputs("],\"marks\":[", h->items);
	for (size_t i = 0; i < nmarks; i++) {
		fputs(i ? ",[" : "[", h->items);
		an_html_json_str(h->items, marks[i].label);
		fprintf(h->items, ",%.17g]", marks[i].value);
	}
	fputs("]}", h->items);
}

/* A duration as the tables show it: 3 decimals in its own unit ("6.783 us"). */
static void put_duration(FILE *f, double ns)
{
	double scale;
	const char *unit = an_html_unit(ns, &scale);
	char buf[64];

	snprintf(buf, sizeof(buf), "%.3f %s", ns / scale, unit);
	an_html_json_str(f, buf);
}

void an_html_stats(struct an_html *h, const char *title, const char *label_header,
		   const struct an_html_stat *rows, size_t nrows)
{
	item_begin(h, "s");
	fputs(",\"title\":", h->items);
	an_html_json_str(h->items, title);
	fputs(",\"head\":", h->items);
	an_html_json_str(h->items, label_header);
	fputs(",\"rows\":[", h->items);
	for (size_t i = 0; i < nrows; i++) {
		const struct an_html_stat *r = &rows[i];

		fputs(i ? ",[" : "[", h->items);
		an_html_json_str(h->items, r->label);
		fprintf(h->items, ",%" PRIu64, r->count);
		/* each value in its own unit: a row's minimum and maximum may be ns and s */
		fputc(',', h->items);
		put_duration(h->items, r->count ? r->min : 0);
		fputc(',', h->items);
		put_duration(h->items, r->count ? r->avg : 0);
		fputc(',', h->items);
		put_duration(h->items, r->count ? r->max : 0);
		fputc(',', h->items);
		if (r->has_stdev)
			put_duration(h->items, r->stdev);
		else
			fputs("\"?\"", h->items);
		fputc(']', h->items);
	}
	fputs("]}", h->items);
}

void an_html_note(struct an_html *h, const char *text)
{
	item_begin(h, "n");
	fputs(",\"text\":", h->items);
	an_html_json_str(h->items, text);
	fputs("}", h->items);
}

static void release(struct an_html *h)
{
	if (h->items)
		fclose(h->items);
	free(h->buf);
	free(h->tmp);
	free(h->path);
	free(h);
}

void an_html_abort(struct an_html *h)
{
	if (!h)
		return;
	if (h->f)
		fclose(h->f);
	unlink(h->tmp);
	release(h);
}

int an_html_commit(struct an_html *h, const char *title, char *err, size_t errlen)
{
	const char *pos = an_html_page_template;
	int st, bad;

	if (fflush(h->items) || ferror(h->items)) {
		snprintf(err, errlen, "out of memory");
		an_html_abort(h);
		return -1;
	}
	st = an_html_template_until(h->f, &pos, "<!--TRAX-TITLE-->");
	an_html_text(h->f, title);
	st |= an_html_template_until(h->f, &pos, "/*TRAX-DATA*/");
	fputs("{\"title\":", h->f);
	an_html_json_str(h->f, title);
	fputs(",\"items\":[\n", h->f);
	if (h->len)
		fwrite(h->buf, 1, h->len, h->f);
	fputs("]}", h->f);
	st |= an_html_template_until(h->f, &pos, NULL);
	errno = 0;
	bad = st || ferror(h->f) || fflush(h->f) || fsync(fileno(h->f));
	bad |= fclose(h->f) != 0;
	h->f = NULL;
	if (bad) {
		snprintf(err, errlen, "cannot write %s: %s", h->path,
			 st ? "bad page template" : strerror(errno ? errno : EIO));
		an_html_abort(h);
		return -1;
	}
	if (rename(h->tmp, h->path)) {
		snprintf(err, errlen, "cannot write %s: %s", h->path, strerror(errno));
		an_html_abort(h);
		return -1;
	}
	release(h);
	return 0;
}
