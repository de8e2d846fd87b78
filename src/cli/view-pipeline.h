/*
 * view-pipeline.h - the items of a stream set (events, discarded-items
 * notifications) read on one thread and printed on another: `trax view`'s
 * text output runs its decoding and its formatting on two cores.
 *
 * A reader thread takes the items from ctf_ss_next() and copies what the
 * printer needs (the event's context and payload values, the packet's
 * context; value-copy.h) into batches of a few thousand items; the calling
 * thread prints each batch in order while the next is being read. Items
 * come out exactly as ctf_ss_next() gives them, in the same order; an error
 * comes after the items before it, as it does without the pipeline.
 */
#ifndef TRAX_CLI_VIEW_PIPELINE_H
#define TRAX_CLI_VIEW_PIPELINE_H

#include <stdint.h>

#include "ctf/stream-set.h"
#include "ctf/text-buf.h"

struct ctf_text_plan;

/* One item, as the printer sees it; valid during the print call only. */
struct view_item {
	enum ctf_ss_item_kind kind;
	const struct ctf_ss_trace *t;	      /* the stream's first file's trace */
	const struct ctf_ss_file *file;	      /* the item's file */
	uint64_t sc_id, stream_id;	      /* the stream's */
	int64_t event_ns;		      /* CTF_SS_EVENT */
	const struct ctf_packet *packet;      /* CTF_SS_EVENT: only its context is copied */
	const struct ctf_event *event;	      /* CTF_SS_EVENT: no header */
	const struct ctf_ss_discard *discard; /* CTF_SS_DISCARD */
	/*
	 * Events whose line plan cannot change (text-plan.h): where the
	 * printer keeps it (ctf_text_print_event_hinted()); NULL otherwise.
	 */
	const struct ctf_text_plan **plan_hint;
	/*
	 * CTF_SS_EVENT: the end of its text line, made on the reading thread
	 * (view_rest_fn), when it was: the printer writes the time part and
	 * copies it (the values, packet and plan are then not there). NULL
	 * otherwise.
	 */
	const char *rest;
	size_t rest_len;
};

typedef void (*view_print_fn)(void *ctx, const struct view_item *item);

/*
 * Writes the end of event item's line (what follows its time part) to
 * out, on the reading thread, while the event is decoded (item holds the
 * reader's values): 0, or -1 to leave the whole line to the printer.
 */
typedef int (*view_rest_fn)(void *ctx, const struct view_item *item, struct ctf_text_buf *out);

/* Fills item from stream s, the item ctf_ss_next() just gave (no copy). */
void view_item_of(struct view_item *item, const struct ctf_ss_stream *s);

/*
 * Prints every item of ss through print, reading on a second thread: 0 at
 * the end of the items, -1 on error (ss->error says what; the items before
 * it were printed). Falls back to one thread when no thread can be started.
 *
 * With rest (not NULL), the two threads share the formatting: when the
 * printer falls behind (two batches or more wait for it), the reading
 * thread formats the ends of the lines of the next batch with rest, and
 * the printer only writes their time parts and copies them.
 *
 * For tests, TRAX_VIEW_SPLIT=all has every batch's lines ended by the
 * reading thread, =none none; TRAX_VIEW_BATCH=N makes batches of N items.
 */
int view_pipeline_run(struct ctf_stream_set *ss, view_print_fn print, void *ctx, view_rest_fn rest,
		      void *rest_ctx);

#endif /* TRAX_CLI_VIEW_PIPELINE_H */
