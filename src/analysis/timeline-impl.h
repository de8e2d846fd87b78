/*
 * timeline-impl.h - what the parts of `trax timeline` share: the rows and
 * their state changes (timeline-state.c computes them from the events),
 * the resolutions and the compact encoding (timeline-levels.c), the page
 * (timeline-html.c).
 *
 * The thread-state machine here is the timeline's own, minimal one (LTTV's
 * control-flow states over kstate's thread names); it can later give way
 * to kflow.c's when that exists.
 */
#ifndef TRAX_ANALYSIS_TIMELINE_IMPL_H
#define TRAX_ANALYSIS_TIMELINE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/an-impl.h"
#include "analysis/idmap.h"
#include "analysis/timeline.h"
#include "common/strbuf.h"

/*
 * States, as LTTV's control-flow view coloured them (its drawing.c
 * colours, listed in the page's legend); TL_IDLE is a CPU's only.
 * At most 16 (4 bits in the encoding).
 */
enum tl_state {
	TL_UNKNOWN = 0, /* not known yet (not drawn) */
	TL_USER,	/* running in user mode */
	TL_SYSCALL,	/* running in a system call */
	TL_IRQ,		/* running an IRQ handler */
	TL_SOFTIRQ,	/* running a softirq */
	TL_WAIT_CPU,	/* runnable: woken or preempted, waiting for a CPU */
	TL_WAIT,	/* blocked */
	TL_WAIT_FORK,	/* forked, not run yet */
	TL_EXIT,	/* exiting (after sched_process_exit, still running) */
	TL_ZOMBIE,	/* exited, not freed */
	TL_IDLE,	/* a CPU running its idle task */
	TL_STATE_COUNT
};

/* A change of a row's state at time t (ns since the first event); detail: 0 or a string/row id. */
struct tl_change {
	int64_t t;
	uint32_t detail;
	uint8_t state;
};

struct tl_mark {
	int64_t t;
	uint32_t name; /* string id */
};

struct tl_span {
	int64_t begin, end;
	uint32_t name; /* string id of the begin event's name */
	uint32_t depth;
	uint32_t pair; /* index in an_timeline_options.spans */
};

enum tl_row_kind { TL_ROW_CPU, TL_ROW_THREAD, TL_ROW_STREAM };

#define TL_IRQ_DEPTH 8

struct tl_row {
	enum tl_row_kind kind;
	int64_t id; /* CPU number, tid, or stream key */
	int64_t pid;
	uint32_t label; /* string id (threads: set at the end from kstate) */
	struct tl_change *ch;
	size_t nch, capch;
	struct tl_mark *marks;
	size_t nmarks, capmarks;
	struct tl_span *spans;
	size_t nspans, capspans;
	struct tl_span *open; /* spans begun, not ended (a stack) */
	size_t nopen, capopen;
	/* threads */
	uint32_t comm;	/* string id of the procname context (user-space events), 0: none */
	int64_t on_cpu; /* -1: not running */
	int in_sys, blocked, known, exited, forked;
	uint32_t sys_name;
	/* CPUs */
	int64_t current; /* row index of the running thread, -1: idle or unknown */
	int cpu_known;
	uint8_t irq[TL_IRQ_DEPTH]; /* TL_IRQ or TL_SOFTIRQ */
	uint32_t irq_detail[TL_IRQ_DEPTH];
	int nirq;
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
void tl_add_mark(struct tl_model *m, struct tl_row *r, int64_t t, uint32_t name);
/* Closes what is open at the end (spans, states) and sorts spans by begin. */
void tl_model_finish(struct tl_model *m);

/*
 * Encodings (the page decodes them): an unsigned LEB128 varint stream,
 * written as base64. Levels: for a row of n changes over [0, span], level k
 * has buckets of span / (TL_LEVEL0_BUCKETS * 4^k) ns, each the state that
 * covers most of it; levels stop when they would hold n / 2 buckets or
 * more (the raw changes are then about as cheap to draw).
 */
#define TL_LEVEL0_BUCKETS 1024
#define TL_MAX_LEVELS	  12

void tl_put_varint(struct strbuf *sb, uint64_t v);
void tl_base64(struct strbuf *out, const unsigned char *p, size_t n);
/* Bucket width of level k (ns, >= 1). */
double tl_level_width(int64_t span, int k);
/* The number of coarse levels a row of n changes gets. */
int tl_level_count(int64_t span, size_t n);
/*
 * Level k of changes ch[0..n) (times relative to 0, span the total): the
 * dominant state of each bucket, runs merged, into out (times, states;
 * detail: the state that covers most of the rest of the bucket, 0: none).
 * Returns the number of changes, -1 when memory ran out.
 */
long tl_decimate(const struct tl_change *ch, size_t n, int64_t span, int k,
		 struct tl_change **out);
/*
 * Changes as varints: (delta t << 4 | state), then the detail when the
 * state has one (raw changes) or always (coarse, the runner-up state).
 */
void tl_encode_changes(struct strbuf *raw, const struct tl_change *ch, size_t n, int coarse);
/* Marks of level k (k < 0: all): (delta t, name, count) per bucket's first mark. */
size_t tl_encode_marks(struct strbuf *raw, const struct tl_mark *mk, size_t n, int64_t span,
		       int k);
/* Spans sorted by begin: (delta begin, duration, name, depth). */
void tl_encode_spans(struct strbuf *raw, const struct tl_span *sp, size_t n);
/* Whether a state's changes carry a detail. */
int tl_state_has_detail(enum tl_state s);

/* Writes the page: the model's rows, the stats text, the template. 0, or -1 (memory). */
int tl_write_html(FILE *out, struct tl_model *m, const char *title, const char *stats_text,
		  double gen_seconds);

/* The page template (timeline-page.html, made a C string by the build). */
extern const char tl_page_template[];

#endif /* TRAX_ANALYSIS_TIMELINE_IMPL_H */
