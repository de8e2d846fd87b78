/*
 * view-pipeline.h - the items of a stream set (events, discarded-items
 * notifications) read on one thread and printed on another: `trax view`'s
 * text output runs its decoding and its formatting on two cores.
 *
 * A reader thread takes the items from ctf_ss_each() into batches of a few
 * thousand items; the calling thread prints each batch in order while the
 * next is being read. A batch holds, item by item, either what the printer
 * needs to format it (the leaves of an event decoded by a fixed program, 48
 * bytes or so; else copies of its values, value-copy.h), or its finished
 * text line, which the reading thread formats itself when the printer falls
 * behind. Items come out exactly as ctf_ss_next() gives them, in the same
 * order; an error comes after the items before it, as it does without the
 * pipeline.
 */
#ifndef TRAX_CLI_VIEW_PIPELINE_H
#define TRAX_CLI_VIEW_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/stream-set.h"
#include "reader/text-buf.h"

struct ctf_text_plan;

/* What an item is, as the printer sees it. */
enum view_item_kind {
	VIEW_EVENT = CTF_SS_EVENT,
	VIEW_DISCARD = CTF_SS_DISCARD,
	/*
	 * Finished text lines, formatted by the reading thread (view_line_fn):
	 * rest, rest_len. event->has_clock, event->clock_value and event_ns
	 * are the time of the last of them with a clock, if one had.
	 */
	VIEW_TEXT,
};

/* One item, as the printer sees it; valid during the print call only. */
struct view_item {
	enum view_item_kind kind;
	const struct ctf_ss_trace *t;	      /* the stream's first file's trace */
	const struct ctf_ss_file *file;	      /* the item's file */
	uint64_t sc_id, stream_id;	      /* the stream's */
	int64_t event_ns;		      /* VIEW_EVENT */
	const struct ctf_packet *packet;      /* VIEW_EVENT: only its context is copied */
	const struct ctf_event *event;	      /* VIEW_EVENT: no header */
	const struct ctf_ss_discard *discard; /* VIEW_DISCARD */
	/*
	 * Events whose line plan cannot change (text-plan.h): where the
	 * printer keeps it (ctf_text_print_event_hinted()); NULL otherwise.
	 */
	const struct ctf_text_plan **plan_hint;
	const char *rest; /* VIEW_TEXT */
	size_t rest_len;
};

typedef void (*view_print_fn)(void *ctx, const struct view_item *item);

/* The time of the last event with a clock before an item (for its delta). */
struct view_time {
	bool set; /* false: no event with a clock yet */
	int64_t ns;
	uint64_t cycles;
};

/*
 * Writes the whole text line of event item to out, on the reading thread,
 * while the event is decoded (item holds the reader's values); prev is the
 * time of the event with a clock before it. 0, or -1 to leave the line to
 * the printer (nothing written).
 */
typedef int (*view_line_fn)(void *ctx, const struct view_item *item, const struct view_time *prev,
			    struct ctf_text_buf *out);

/* Fills item from stream s, the item ctf_ss_next() just gave (no copy). */
void view_item_of(struct view_item *item, const struct ctf_ss_stream *s);

/*
 * Prints every item of ss through print, reading on a second thread: 0 at
 * the end of the items, -1 on error (ss->error says what; the items before
 * it were printed). Falls back to one thread when no thread can be started.
 *
 * With line (not NULL), the two threads share the formatting: when the
 * printer falls behind (a whole batch waits for it), the reading thread
 * formats the lines of the next batch with line, and the printer only
 * copies them (VIEW_TEXT items).
 *
 * For tests, TRAX_VIEW_SPLIT=all has every batch's lines formatted by the
 * reading thread, =none none; TRAX_VIEW_BATCH=N makes batches of N items.
 */
int view_pipeline_run(struct ctf_stream_set *ss, view_print_fn print, void *ctx, view_line_fn line,
		      void *line_ctx);

#endif /* TRAX_CLI_VIEW_PIPELINE_H */
