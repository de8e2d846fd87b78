/*
 * print.c - trax_reader_print(): the events of a reader printed as
 * Babeltrace 2's sink.text.pretty does (text-format.h) or as JSON lines
 * (json-format.h), on one thread or on two (print-twin.h).
 *
 * Events decoded by a fixed program (decode-prog.h) have a line plan that
 * cannot change (text-plan.h): each printer keeps those plans by program,
 * in a small open-addressing table, and hands them to the formatter.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/export.h"
#include "reader/json-format.h"
#include "reader/print-twin.h"
#include "reader/reader-impl.h"
#include "reader/text-format.h"

#define OUT_BUFFER_SIZE (1u << 20)

TRAX_EXPORT void trax_print_options_init(struct trax_print_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
}

TRAX_EXPORT int trax_print_check_list(int names, const char *list, char *bad, size_t badlen)
{
	struct ctf_text_options o;
	char word[128];

	if (!list) {
		if (bad && badlen)
			bad[0] = 0;
		return -1;
	}
	ctf_text_options_default(&o);
	if (!ctf_text_options_parse(&o, names != 0, list, word, sizeof(word)))
		return 0;
	if (bad && badlen)
		snprintf(bad, badlen, "%s", word);
	return -1;
}

/* The caller's print options as the formatter takes them: 0, or -1 (r's error set). */
static int text_options_of(struct trax_reader *r, const struct trax_print_options *po,
			   struct trax_print_options *copy, struct ctf_text_options *to)
{
	struct trax_print_options o;
	char bad[128];

	trax_print_options_init(&o);
	if (po) {
		if (po->size < offsetof(struct trax_print_options, format)) {
			trax_reader_set_error(r, "trax_reader_print: options without their size");
			return -1;
		}
		memcpy(&o, po, po->size < sizeof(o) ? po->size : sizeof(o));
	}
	ctf_text_options_default(to);
	to->clock_cycles = o.clock_cycles;
	to->clock_date = o.clock_date;
	to->clock_gmt = o.clock_gmt;
	to->clock_seconds = o.clock_seconds;
	to->no_delta = o.no_delta;
	if (o.names && ctf_text_options_parse(to, true, o.names, bad, sizeof(bad))) {
		trax_reader_set_error(r, "unknown names item '%s'", bad);
		return -1;
	}
	if (o.fields && ctf_text_options_parse(to, false, o.fields, bad, sizeof(bad))) {
		trax_reader_set_error(r, "unknown fields item '%s'", bad);
		return -1;
	}
	if (o.format != TRAX_PRINT_TEXT && o.format != TRAX_PRINT_JSON) {
		trax_reader_set_error(r, "trax_reader_print: unknown format %d", (int)o.format);
		return -1;
	}
	*copy = o;
	return 0;
}

/* The line plan of each fixed program's events (ctf_text_print_event_hinted()). */
struct plan_hints {
	struct plan_hint {
		const struct ctf_decode_prog *prog;
		const struct ctf_text_plan *plan;
	} * v;
	size_t n, cap;
	/* the last one asked for (events of one class come in runs), in v */
	const struct ctf_decode_prog *last_prog;
	const struct ctf_text_plan **last_hint;
};

/* hint_of() for another program than the last one's. */
static __attribute__((noinline)) const struct ctf_text_plan **
hint_find(struct plan_hints *h, const struct ctf_decode_prog *prog)
{
	size_t i;

	if (2 * (h->n + 1) > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct plan_hint *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t k = 0; k < h->cap; k++)
			if (h->v[k].prog) {
				for (i = ((uintptr_t)h->v[k].prog >> 4) & (cap - 1); n[i].prog;
				     i = (i + 1) & (cap - 1))
					;
				n[i] = h->v[k];
			}
		free(h->v);
		h->v = n;
		h->cap = cap;
	}
	for (i = ((uintptr_t)prog >> 4) & (h->cap - 1); h->v[i].prog; i = (i + 1) & (h->cap - 1))
		if (h->v[i].prog == prog)
			break;
	if (!h->v[i].prog) {
		h->v[i].prog = prog;
		h->n++;
	}
	h->last_prog = prog; /* (v may have moved: last_hint is set anew) */
	return h->last_hint = &h->v[i].plan;
}

/* Where the plan of prog's events is kept; NULL (no hint) when memory runs out. */
static inline const struct ctf_text_plan **hint_of(struct plan_hints *h,
						   const struct ctf_decode_prog *prog)
{
	return prog == h->last_prog ? h->last_hint : hint_find(h, prog);
}

/*
 * One printer: a formatter, its plan hints and what it shows of each
 * trace of its stream set. Each thread has its own (on lines of its own:
 * it is written at every event).
 */
struct printer {
	struct ctf_text_printer pr;
	struct ctf_text_trace *info; /* per trace of its stream set */
	struct plan_hints hints;
} __attribute__((aligned(128)));

static int printer_init(struct printer *p, const struct ctf_stream_set *ss,
			const struct ctf_text_options *opt, struct ctf_text_buf *out)
{
	memset(p, 0, sizeof(*p));
	p->info = calloc(ss->ntraces ? ss->ntraces : 1, sizeof(*p->info));
	if (!p->info)
		return -1;
	for (size_t i = 0; i < ss->ntraces; i++)
		ctf_text_trace_init(&p->info[i], ss->traces[i].trace, ss->traces[i].name);
	ctf_text_printer_init(&p->pr, opt, out);
	return 0;
}

static void printer_fini(struct printer *p)
{
	if (p->info)
		ctf_text_printer_fini(&p->pr);
	free(p->hints.v);
	free(p->info);
}

/* The text line of event item s. */
static inline void print_line(struct printer *p, const struct ctf_ss_stream *s)
{
	const struct ctf_stream_reader *r = s->item_file->sr;
	const struct ctf_text_trace *t = &p->info[s->item_file->t->index];
	const struct ctf_text_plan **hint = r->body_prog ? hint_of(&p->hints, r->body_prog) : NULL;

	if (hint)
		ctf_text_print_event_hinted(&p->pr, t, &r->packet, &r->event, s->event_ns, hint);
	else
		ctf_text_print_event(&p->pr, t, &r->packet, &r->event, s->event_ns);
}

/* The warning of discarded-items item s. */
static void print_discard(struct ctf_text_printer *pr, const struct ctf_ss_stream *s)
{
	const struct ctf_ss_discard *w = s->discard;

	ctf_text_print_discarded(pr,
				 w->kind == CTF_SS_DISCARDED_EVENTS ? CTF_TEXT_DISCARDED_EVENTS
								    : CTF_TEXT_DISCARDED_PACKETS,
				 w->has_count, w->count, w->has_range, w->begin, w->end, s->t->name,
				 s->t->trace->has_uuid ? s->t->trace->uuid : NULL,
				 s->item_file->abs_path, s->sc_id, s->stream_id);
}

/* print_twin_fn: item s formatted into out, or passed over (out NULL). */
static void side_item(void *ctx, struct ctf_ss_stream *s, struct ctf_text_buf *out, FILE *err)
{
	struct printer *p = ctx;
	const struct ctf_stream_reader *r = s->item_file->sr;
	const struct ctf_text_options *o = &p->pr.opt;

	if (!out) {
		/* what the next lines depend on: the last time, the warning given once */
		if (s->kind == CTF_SS_EVENT && r->event.has_clock) {
			if (s->event_ns < 0 && !o->clock_cycles && !o->clock_seconds)
				p->pr.negative_warned = true;
			p->pr.last_ns = (uint64_t)s->event_ns;
			p->pr.last_cycles = r->event.clock_value;
		} else if (s->kind == CTF_SS_DISCARD && s->discard->has_range &&
			   !o->clock_seconds && (s->discard->begin < 0 || s->discard->end < 0)) {
			p->pr.negative_warned = true;
		}
		return;
	}
	p->pr.out = out;
	p->pr.err = err;
	if (s->kind == CTF_SS_EVENT)
		print_line(p, s);
	else
		print_discard(&p->pr, s);
}

/*
 * Whether two stream sets opened on the same paths see the same traces: the
 * same stream files of the same sizes, the same event classes. A trace
 * being written (a live session) may have grown between the two openings;
 * two readers of different traces would disagree on the chunks.
 */
static bool same_traces(const struct ctf_stream_set *a, const struct ctf_stream_set *b)
{
	if (a->ntraces != b->ntraces || a->nfiles != b->nfiles)
		return false;
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct ctf_ss_file *x = &a->files[i], *y = &b->files[i];

		if (strcmp(x->path, y->path) || !x->sr != !y->sr ||
		    (x->sr && x->sr->file_size != y->sr->file_size))
			return false;
	}
	for (size_t i = 0; i < a->ntraces; i++) {
		const struct ctf_trace *x = a->traces[i].trace, *y = b->traces[i].trace;

		if (x->stream_count != y->stream_count)
			return false;
		for (unsigned int k = 0; k < x->stream_count; k++)
			if (x->streams[k]->event_count != y->streams[k]->event_count)
				return false;
	}
	return true;
}

/*
 * The text output on two threads, each with a stream set of the traces
 * (r's, and another one opened here): 0, -1 (error: r->ss.error), or -2
 * when the second one could not be had (nothing read: the caller goes on
 * alone).
 */
static int run_twin(struct trax_reader *r, const struct ctf_text_options *opt, struct printer *p0,
		    struct ctf_text_buf *out, uint64_t chunk_items)
{
	struct ctf_stream_set ss2 = {0};
	struct ctf_stream_set *sets[2] = {&r->ss, &ss2};
	struct printer *p1 = aligned_alloc(128, sizeof(*p1));
	void *ctx[2] = {p0, p1};
	int st = -2;

	if (!p1 || trax_reader_load_again(r, &ss2) || ctf_ss_open(&ss2, false, 0) ||
	    !same_traces(&r->ss, &ss2) || printer_init(p1, &ss2, opt, NULL)) {
		free(p1);
		ctf_ss_free(&ss2);
		return -2;
	}
	p0->pr.out = NULL;
	st = print_twin_run(sets, ctx, side_item, out, chunk_items);
	printer_fini(p1);
	free(p1);
	ctf_ss_free(&ss2);
	return st;
}

/* What the one-thread visitor prints to. */
struct one_thread {
	struct printer *p;
	struct ctf_text_buf *out;
	bool json;
};

/* ctf_ss_each()'s visitor for the output on one thread. */
static int visit_item(void *ctx, struct ctf_ss_stream *s)
{
	struct one_thread *o = ctx;

	if (s->kind == CTF_SS_EVENT && !o->json) {
		print_line(o->p, s);
	} else if (s->kind == CTF_SS_EVENT) {
		const struct ctf_stream_reader *r = s->item_file->sr;

		ctf_json_print_event(o->out, &r->packet, &r->event, r->event.has_clock, s->event_ns,
				     s->stream_id);
	} else {
		/* warnings go to stderr: what precedes them must be out first */
		ctf_text_buf_flush(o->out);
		print_discard(&o->p->pr, s);
	}
	return 0;
}

TRAX_EXPORT int trax_reader_print(struct trax_reader *r, int fd,
				  const struct trax_print_options *po)
{
	struct ctf_text_options opt;
	struct trax_print_options o;
	struct ctf_text_buf out;
	struct printer *p;
	int st = -2, err;

	if (!r)
		return -1;
	if (r->failed)
		return -1;
	if (text_options_of(r, po, &o, &opt))
		return -1;
	if (fd < 0) {
		trax_reader_set_error(r, "trax_reader_print: bad file descriptor %d", fd);
		return -1;
	}
	p = aligned_alloc(128, sizeof(*p));
	if (!p || ctf_text_buf_init(&out, fd, OUT_BUFFER_SIZE)) {
		free(p);
		trax_reader_set_error(r, "out of memory");
		return -1;
	}
	if (printer_init(p, &r->ss, &opt, &out)) {
		free(p);
		ctf_text_buf_free(&out);
		trax_reader_set_error(r, "out of memory");
		return -1;
	}
	if (o.format == TRAX_PRINT_TEXT && r->fresh && r->opt.threads != 1)
		st = run_twin(r, &opt, p, &out, o.chunk_events);
	r->fresh = false;
	if (st == -2) {
		struct one_thread one = {p, &out, o.format == TRAX_PRINT_JSON};

		p->pr.out = &out;
		st = ctf_ss_each(&r->ss, visit_item, &one);
	}
	ctf_text_buf_flush(&out);
	if (st < 0) {
		trax_reader_set_error(r, "%s", r->ss.error);
		r->failed = true;
		st = -1;
	} else if (out.error) {
		trax_reader_set_error(r, "cannot write the output: %s", strerror(out.error));
		st = -2;
	} else if (st == 0) {
		st = trax_reader_at_end(r);
	}
	err = out.error;
	printer_fini(p);
	free(p);
	ctf_text_buf_free(&out);
	if (st == -2)
		errno = err;
	return st;
}

/* ---- printers of chosen events ---- */

struct trax_printer {
	struct printer p; /* (first: aligned as printers are) */
	struct trax_reader *r;
	struct ctf_text_buf out;
	bool json;
};

TRAX_EXPORT struct trax_printer *trax_printer_open(struct trax_reader *r, int fd,
						   const struct trax_print_options *po)
{
	struct ctf_text_options opt;
	struct trax_print_options o;
	struct trax_printer *tp;

	if (!r || text_options_of(r, po, &o, &opt))
		return NULL;
	if (fd < 0) {
		trax_reader_set_error(r, "trax_printer_open: bad file descriptor %d", fd);
		return NULL;
	}
	tp = aligned_alloc(128, sizeof(*tp));
	if (!tp || ctf_text_buf_init(&tp->out, fd, OUT_BUFFER_SIZE)) {
		free(tp);
		trax_reader_set_error(r, "out of memory");
		return NULL;
	}
	if (printer_init(&tp->p, &r->ss, &opt, &tp->out)) {
		ctf_text_buf_free(&tp->out);
		free(tp);
		trax_reader_set_error(r, "out of memory");
		return NULL;
	}
	tp->r = r;
	tp->json = o.format == TRAX_PRINT_JSON;
	return tp;
}

TRAX_EXPORT int trax_printer_event(struct trax_printer *tp, const struct trax_event *ev)
{
	if (!tp || !ev || ev->r != tp->r || !ev->s)
		return -1;
	if (tp->json)
		ctf_json_print_event(&tp->out, &ev->sr->packet, &ev->sr->event,
				     ev->sr->event.has_clock, ev->s->event_ns, ev->s->stream_id);
	else
		print_line(&tp->p, ev->s);
	return 0;
}

TRAX_EXPORT int trax_printer_close(struct trax_printer *tp)
{
	int err;

	if (!tp)
		return 0;
	ctf_text_buf_flush(&tp->out);
	err = tp->out.error;
	printer_fini(&tp->p);
	ctf_text_buf_free(&tp->out);
	free(tp);
	if (!err)
		return 0;
	errno = err;
	return -2;
}
