/*
 * schedlat.h - what the parts of `trax analyze schedlatency` share: the
 * statistics (an-schedlat.c) and the lists made from every sample, top,
 * log and frequency distributions (schedlat-lists.c).
 */
#ifndef TRAX_ANALYSIS_SCHEDLAT_H
#define TRAX_ANALYSIS_SCHEDLAT_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/an-impl.h"
#include "analysis/durstats.h"
#include "analysis/priolist.h"
#include "analysis/spool.h"
#include "analysis/table.h"
#include "common/strbuf.h"

/* lttng-analyses' --freq-resolution default: buckets of a distribution */
#define SL_FREQ_BUCKETS 20

struct sl_thread {
	int64_t tid;
	char comm[KSTATE_COMM_MAX]; /* when it entered the table: never changed */
	char key[KSTATE_COMM_MAX];  /* comm lower-cased: the sort key */
	struct an_durstats lat;
	struct an_prio *prios;
	size_t nprios;
	size_t order;	  /* of entry into the table */
	uint64_t *counts; /* --freq: its buckets */
};

/* The latencies of the wakees of one priority. */
struct sl_group {
	int known;
	int64_t prio;
	struct an_durstats lat;
	uint64_t counts[SL_FREQ_BUCKETS];
};

/* One latency, kept in a spool for the lists (--top, --log, --freq). */
struct sl_sample {
	int64_t wakeup, sw;
	int64_t wakee, waker; /* tids, waker -1: none */
	int64_t prio;
	int32_t prio_known, cpu;
};

struct schedlat {
	struct an_run *run;
	struct sl_thread *threads;
	size_t nthreads, cap;
	struct sl_group *groups;
	size_t ngroups;
	struct an_durstats total;
	uint64_t total_counts[SL_FREQ_BUCKETS];
	double min_ns, max_ns;
	struct an_spool *samples; /* every sample, in order (sl_sample), for the lists */
	uint64_t nsamples;
	int counted; /* the samples were counted in the buckets (sl_freq_count) */
	int failed;
};

/* The tables lttng-schedstats' options ask for. */
struct sl_wants {
	int stats, top, log, freq;
	int total, per_tid, per_prio;
};

/* '%0.03f' % (ns / 1000) */
static inline void sl_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%0.03f", ns / 1000);
}

/*
 * The log (every sample in order) or the top (--top N samples of the
 * longest latencies) as MI table (mi) or text (sb): 0, -1 when reading the
 * samples back failed.
 */
int sl_list(struct schedlat *sl, int top, struct an_mi *mi, struct strbuf *sb);
/*
 * The frequency distributions (total, per TID, per priority, as w asks)
 * as MI tables or text; threads[] and groups[] in their printed order
 * (groups by priority). 0, -1 on error.
 */
int sl_freq(struct schedlat *sl, const struct sl_wants *w, struct an_mi *mi, struct strbuf *sb);
/* Counts the samples in the buckets of every row (once; sl_freq's first step): 0, or -1. */
int sl_freq_count(struct schedlat *sl);
/*
 * A row's buckets (d its statistics, counts its counts) as the page's bins,
 * the values sl_freq prints: SL_FREQ_BUCKETS, or 0 when it prints none
 * (all latencies the same).
 */
size_t sl_freq_bins(const struct schedlat *sl, const struct an_durstats *d, const uint64_t *counts,
		    struct an_html_bin *bins);

#endif /* TRAX_ANALYSIS_SCHEDLAT_H */
