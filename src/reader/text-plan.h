/*
 * text-plan.h - the part of an event line after its time stamp and delta:
 * the header items (trace name, hostname, ...), the event name, the scopes
 * and the newline (docs/text-format.md 2, 6-8). text-plan.c writes it from
 * a plan made on the first event of each event class; text-format.c writes
 * the time stamp and delta before it.
 */
#ifndef TRAX_CTF_TEXT_PLAN_H
#define TRAX_CTF_TEXT_PLAN_H

#include "reader/decode-stream.h"
#include "reader/text-buf.h"
#include "reader/text-format.h"

/*
 * The line plans of one printer, keyed by the addresses of the event class
 * and of t: both must outlive them.
 */
struct ctf_text_plan_cache;

/*
 * Writes the rest of ev's line (after its time stamp and delta, which are
 * printed when ev->has_clock) to b. *plans: NULL at first, then the plans
 * made so far, to free with ctf_text_plan_cache_free().
 */
void ctf_text_print_rest(struct ctf_text_plan_cache **plans, const struct ctf_text_options *o,
			 struct ctf_text_buf *b, const struct ctf_text_trace *t,
			 const struct ctf_packet *pkt, const struct ctf_event *ev);

/* One line's plan (what it prints, made once per event class and trace). */
struct ctf_text_plan;

/*
 * ctf_text_print_rest() for a caller that knows the plan cannot change from
 * line to line: the same event class of the same trace, and scope values
 * of a fixed shape (the nodes of one decoding program's tree, as
 * trax_reader_print() gives them). *hint: NULL at first, then the plan.
 */
void ctf_text_print_rest_hinted(struct ctf_text_plan_cache **plans,
				const struct ctf_text_options *o, struct ctf_text_buf *b,
				const struct ctf_text_trace *t, const struct ctf_packet *pkt,
				const struct ctf_event *ev, const struct ctf_text_plan **hint);

void ctf_text_plan_cache_free(struct ctf_text_plan_cache *c);

#endif /* TRAX_CTF_TEXT_PLAN_H */
