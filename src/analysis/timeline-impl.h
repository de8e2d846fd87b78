/*
 * timeline-impl.h - what the parts of `trax timeline` share: the rows and
 * their state changes (timeline-state.c computes them from the events),
 * the resolutions and the compact encoding (timeline-levels.c), the page
 * (timeline-html.c).
 *
 * The states are kflow.c's (its thread and CPU intervals), which
 * timeline-state.c turns into the rows' changes.
 */
#ifndef TRAX_ANALYSIS_TIMELINE_IMPL_H
#define TRAX_ANALYSIS_TIMELINE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/an-impl.h"
#include "analysis/idmap.h"
#include "analysis/timeline-levels.h"
#include "analysis/timeline.h"
#include "common/strbuf.h"

enum tl_row_kind { TL_ROW_CPU, TL_ROW_THREAD, TL_ROW_STREAM };

struct tl_row {
	enum tl_row_kind kind;
	int64_t id; /* CPU number, tid, or stream key */
	int64_t pid;
	uint32_t label; /* string id (threads: set at the end from kstate) */
	struct tl_change *ch;
	size_t nch, capch;
	struct tl_mark *marks;
	size_t nmarks, capmarks;
	uint64_t mark_total; /* the events its marks stand for (nmarks until merged) */
	struct tl_span *spans;
	size_t nspans, capspans;
	struct tl_span *open; /* spans begun, not ended (a stack) */
	size_t nopen, capopen;
	uint32_t comm;	  /* string id of the procname context (user-space events), 0: none */
	int64_t last_end; /* the end of the last interval kflow reported (absolute ns) */
	size_t merged;	  /* nch after the last tl_model_bound (nothing new: nothing to merge) */
	int64_t merged_w; /* its width */
	size_t order;
};

/* Interned strings: names, comms, IRQ descriptions. */
struct tl_strings {
	char **v;
	size_t n, cap;
	struct an_idmap map; /* hash -> id */
};

void tl_strings_init(struct tl_strings *s);
void tl_strings_free(struct tl_strings *s);
/* The id of s (added when new): UINT32_MAX when memory ran out. */
uint32_t tl_intern(struct tl_strings *s, const char *str);

/* The rows and what fills them. */
struct tl_model {
	struct tl_row **rows;
	size_t nrows, caprows;
	struct an_idmap cpu_rows, thread_rows, stream_rows; /* id -> row index */
	struct tl_strings str;
	int64_t t0, t1; /* first and last event times (absolute ns) */
	int started;
	uint64_t events, marks, spans, unmatched_ends;
	size_t nchanges;       /* in all the rows */
	size_t max_changes;    /* the bound (tl_model_bound), 0: none; the marks' too */
	int64_t dropped;       /* the rows' detail below this (ns) was merged, 0: none */
	size_t nmark_recs;     /* marks kept in all the rows (m->marks: the events) */
	int64_t marks_dropped; /* marks closer than this (ns) were merged, 0: none */
	int failed;
};

void tl_model_init(struct tl_model *m);
void tl_model_free(struct tl_model *m);
/* The row of CPU cpu / thread tid / a stream, created when new: NULL when memory ran out. */
struct tl_row *tl_cpu_row(struct tl_model *m, int64_t cpu);
struct tl_row *tl_thread_row(struct tl_model *m, int64_t tid);
struct tl_row *tl_stream_row(struct tl_model *m, uint64_t key);
/* Sets a row's state from time t (absolute ns) on. */
void tl_set(struct tl_model *m, struct tl_row *r, int64_t t, enum tl_state s, uint32_t detail);
/*
 * When the rows hold more than max_changes changes: each row's changes
 * until its last_end merged (tl_compact) into buckets of a width, the
 * smallest power-of-2 multiple of the previous one (or of the span so far
 * over max_changes) that leaves at most half of max_changes. Called as the
 * rows grow, it keeps memory and the page bounded, the detail of the
 * finest level lost (m->dropped says how much).
 */
void tl_model_bound(struct tl_model *m);
void tl_add_mark(struct tl_model *m, struct tl_row *r, int64_t t, uint32_t name, uint32_t args);
/* Closes what is open at the end (spans, states) and sorts spans by begin. */
void tl_model_finish(struct tl_model *m);

/* Writes the page: the model's rows, the stats text, the template. 0, or -1 (memory). */
int tl_write_html(FILE *out, struct tl_model *m, const char *title, const char *stats_text,
		  double gen_seconds);

/* The page template (timeline-page.html, made a C string by the build). */
extern const char tl_page_template[];

#endif /* TRAX_ANALYSIS_TIMELINE_IMPL_H */
