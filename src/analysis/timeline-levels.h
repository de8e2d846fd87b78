/*
 * timeline-levels.h - the timeline's states, changes, marks and spans, and
 * their reduction to several resolutions and compact encoding
 * (timeline-levels.c); apart from timeline-impl.h so that tests include it
 * without the reader's headers.
 */
#ifndef TRAX_ANALYSIS_TIMELINE_LEVELS_H
#define TRAX_ANALYSIS_TIMELINE_LEVELS_H

#include <stddef.h>
#include <stdint.h>

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
	TL_EXIT,	/* exiting, still running (LTTV's; kflow has none: not written) */
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
	uint32_t args; /* string id of its fields as text, 0: none (after TL_MARK_ARGS_MAX marks) */
	uint32_t count; /* events it stands for: 1, more once merged (tl_compact_marks) */
};

/* Marks whose fields the page shows on hover (the first ones of the trace: the page's size). */
#define TL_MARK_ARGS_MAX 50000

struct tl_span {
	int64_t begin, end;
	uint32_t name; /* string id of the begin event's name */
	uint32_t depth;
	uint32_t pair; /* index in an_timeline_options.spans */
};

/*
 * Encodings (the page decodes them): an unsigned LEB128 varint stream,
 * written as base64. Levels: for a row of n changes over [0, span], level k
 * has buckets of span / (TL_LEVEL0_BUCKETS * 4^k) ns, each the state that
 * covers most of it; levels stop when they would hold n / 2 buckets or
 * more (the raw changes are then about as cheap to draw).
 */
#define TL_LEVEL0_BUCKETS 1024
/* Raw changes are written in chunks of this many, each decoded by the page when shown. */
#define TL_RAW_CHUNK  4096
#define TL_MAX_LEVELS 12

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
long tl_decimate(const struct tl_change *ch, size_t n, int64_t span, int k, struct tl_change **out);
/*
 * Changes as varints: (delta t << 4 | state), then the detail when the
 * state has one (raw changes) or always (coarse, the runner-up state).
 */
void tl_encode_changes(struct strbuf *raw, const struct tl_change *ch, size_t n, int coarse);
/*
 * Marks of level k: (delta t, name, count) per bucket's first mark; k < 0:
 * every mark, (delta t, name, count, args).
 */
size_t tl_encode_marks(struct strbuf *raw, const struct tl_mark *mk, size_t n, int64_t span, int k);
/* Spans sorted by begin: (delta begin, duration, name, depth). */
void tl_encode_spans(struct strbuf *raw, const struct tl_span *sp, size_t n);
/*
 * Bounding a row while it streams: its changes ch[0..n), known until end
 * (the end of the last interval; times relative), merged in buckets of w ns
 * (aligned on multiples of w; the last one cut at end), each bucket the
 * state that covers most of it (and the detail of that state's longest
 * piece), runs merged. The last bucket, merged as far as it is known, is
 * merged again with what follows at the next call (approximately: its
 * merged state counts as one piece). In place: the new count, -1 when
 * memory ran out.
 */
long tl_compact(struct tl_change *ch, size_t n, int64_t end, int64_t w);
/*
 * The same for marks mk[0..n) (in time order): one per bucket of w ns, the
 * bucket's first (its time, name, fields), counting the others. In place:
 * the new count.
 */
size_t tl_compact_marks(struct tl_mark *mk, size_t n, int64_t w);
/* Whether a state's changes carry a detail. */
int tl_state_has_detail(enum tl_state s);

#endif /* TRAX_ANALYSIS_TIMELINE_LEVELS_H */
