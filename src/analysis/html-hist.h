/*
 * html-hist.h - the page `trax analyze NAME --html FILE` writes: one
 * self-contained HTML file (html-page.html, embedded; no network) with the
 * analysis's histograms as SVG bar charts (axes in ns, us, ms or s as the
 * range asks, a bin's range and count on hover) and its summary tables
 * (count, min, avg, max, stdev per row). The analyses give what they
 * computed (their --freq buckets, their statistics); this file only
 * draws. Items appear in the order they are given.
 *
 * The page is written to a temporary file next to FILE, renamed to FILE
 * when complete: a failed run leaves no partial page.
 */
#ifndef TRAX_ANALYSIS_HTML_HIST_H
#define TRAX_ANALYSIS_HTML_HIST_H

#include <stddef.h>
#include <stdint.h>

struct an_html;

/* A bin of a histogram: durations in [low, high) ns (the last one's high included). */
struct an_html_bin {
	double low, high;
	uint64_t count;
};

/* A row of a summary table, durations in ns (count 0: min, avg, max shown as 0). */
struct an_html_stat {
	const char *label;
	uint64_t count;
	double min, avg, max, stdev;
	int has_stdev; /* 0: shown as "?" (too few values) */
};

/* A value marked on a histogram (a percentile): a vertical line and its label. */
struct an_html_mark {
	const char *label;
	double value; /* ns */
};

/*
 * Creates the temporary file for the page at path: the page, or NULL with
 * a one-line message in err ("cannot write PATH: REASON").
 */
struct an_html *an_html_open(const char *path, char *err, size_t errlen);

/*
 * A histogram: its title, a short key naming what it counts (the row of
 * the analysis's tables it matches: "read", "all", "Priority: 20"), its
 * bins in order (adjacent, low to high), marks (NULL, 0: none).
 */
void an_html_hist(struct an_html *h, const char *title, const char *key,
		  const struct an_html_bin *bins, size_t nbins, const struct an_html_mark *marks,
		  size_t nmarks);
/* A summary table: its title, the header of its first column, its rows. */
void an_html_stats(struct an_html *h, const char *title, const char *label_header,
		   const struct an_html_stat *rows, size_t nrows);
/* A line of text (what was left out, why a histogram is missing). */
void an_html_note(struct an_html *h, const char *text);

/*
 * Writes the page (title: the page's heading) and moves it to its path: 0,
 * or -1 with the message in err (nothing left at the path). Frees h.
 */
int an_html_commit(struct an_html *h, const char *title, char *err, size_t errlen);
/* Removes the temporary file, frees h (NULL: nothing). */
void an_html_abort(struct an_html *h);

/*
 * The unit the page shows durations up to max_ns in: "ns", "us", "ms" or
 * "s" (the largest one max_ns is at least 1 of), its size in ns in *scale.
 */
const char *an_html_unit(double max_ns, double *scale);

#endif /* TRAX_ANALYSIS_HTML_HIST_H */
