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
};

typedef void (*view_print_fn)(void *ctx, const struct view_item *item);

/* Fills item from stream s, the item ctf_ss_next() just gave (no copy). */
void view_item_of(struct view_item *item, const struct ctf_ss_stream *s);

/*
 * Prints every item of ss through print, reading on a second thread: 0 at
 * the end of the items, -1 on error (ss->error says what; the items before
 * it were printed). Falls back to one thread when no thread can be started.
 */
int view_pipeline_run(struct ctf_stream_set *ss, view_print_fn print, void *ctx);

#endif /* TRAX_CLI_VIEW_PIPELINE_H */
