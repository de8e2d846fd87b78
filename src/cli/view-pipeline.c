/*
 * view-pipeline.c - reading a stream set on one thread, printing on
 * another (see view-pipeline.h).
 *
 * Batches go round a ring: the reader fills a free one and publishes it,
 * the printer prints it and gives it back. One mutex and two condition
 * variables per handoff, thousands of items per batch: the cost per item
 * is that of what crosses from one core to the other. That is why an event
 * decoded by a fixed program crosses as a 40-byte record and its leaves
 * (the stream, packet and program it shares with the events around it are
 * written once, in a context the records point to), and why the reading
 * thread, when the printer is behind, makes whole lines: the printer then
 * copies text, which costs less than anything it could be handed to format.
 */
#include "cli/view-pipeline.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/decode-prog-impl.h"
#include "reader/value-copy.h"

#define BATCHES	    4
#define BATCH_ITEMS 4096
/* a batch also ends when its copies or its text pass this (large values) */
#define BATCH_BYTES (4u << 20)

enum rec_kind {
	REC_FIXED, /* an event of a fixed program: its leaves */
	REC_COPY,  /* an event with copies of its values, or a discard: an item_copy */
	REC_TEXT,  /* lines the reading thread formatted */
};

/* One item of a batch, in order. */
struct rec {
	uint8_t kind;
	bool has_clock; /* REC_TEXT: one of its lines has a clock: ns, cycles */
	uint32_t ref;	/* REC_FIXED: its context in ctxs; REC_COPY: its copy in items */
	uint64_t off;	/* REC_FIXED: its leaves in vals; REC_TEXT: its text in text */
	uint64_t len;	/* REC_TEXT: its text's length */
	int64_t ns;	/* REC_FIXED: the event's time; REC_TEXT: its last clocked line's */
	uint64_t cycles;
};

/* What the events of a run of fixed records share: stream, packet, program. */
struct fixed_ctx {
	const struct ctf_ss_trace *t;
	const struct ctf_ss_file *file;
	uint64_t sc_id, stream_id;
	size_t packet; /* in the batch's packets */
	const struct ctf_decode_prog *prog;
	const struct ctf_event_class *cls;
	bool has_clock;
	/* the event's scopes in the program's tree (where the mirror has them) */
	const struct ctf_value *stream_context, *context, *payload;
	uint64_t packet_index; /* (the reading thread's, to know a packet changed) */
};

/* An event with copies of its values, or a discarded-items notification. */
struct item_copy {
	struct view_item item;
	struct ctf_event event;
	struct ctf_ss_discard discard;
	size_t packet; /* events: in the batch's packets */
};

/* The printer's clone of a fixed program's value tree, and its scopes in it. */
struct mirror {
	const struct ctf_decode_prog *prog; /* NULL: a free entry */
	struct ctf_value *tree;
	struct ctf_value *stream_context, *context, *payload;
	/* the line plan of its events: one event class, one trace, one shape */
	const struct ctf_text_plan *plan;
};

struct batch {
	struct rec recs[BATCH_ITEMS];
	size_t count; /* records */
	size_t nread; /* items (lines in a row make one record) */
	int end;      /* after the items: 0 more follow, 1 the end, -1 an error */
	struct item_copy *items;
	size_t nitems, cap_items;
	struct {
		struct fixed_ctx *v;
		size_t n, cap;
	} ctxs;
	struct ctf_value_arena arena;
	/* the packets the items refer to (contexts copied), each once per batch */
	struct ctf_packet *packets;
	size_t npackets, cap_packets;
	const struct ctf_stream_reader *last_reader;
	uint64_t last_packet; /* index of last_reader's packet copied last */
	uint64_t *vals;	      /* the leaves of fixed events */
	size_t nvals, cap_vals;
	struct ctf_text_buf text; /* the lines formatted by the reading thread */
};

struct pipeline {
	struct ctf_stream_set *ss;
	pthread_mutex_t lock;
	pthread_cond_t filled_cond, freed_cond;
	struct batch *batches[BATCHES];
	unsigned int fill, print; /* next batch to fill, to print (counters) */
	bool stop;		  /* the printer gave up (out of memory): the reader ends */
	view_line_fn line;	  /* formats lines on the reading thread, or NULL */
	void *line_ctx;
	/* the reading thread's: the time of the last event with a clock read */
	struct view_time last;
	/* for tests: TRAX_VIEW_SPLIT=all|none (else -1: as the load goes), TRAX_VIEW_BATCH */
	int split;
	size_t batch_items;
	/* the printer's: mirrors by program (open addressing), the last one used */
	struct mirror *mirrors;
	size_t nmirrors, cap_mirrors;
	struct mirror *last_mirror;
};

void view_item_of(struct view_item *item, const struct ctf_ss_stream *s)
{
	item->kind = (enum view_item_kind)s->kind;
	item->t = s->t;
	item->file = s->item_file;
	item->sc_id = s->sc_id;
	item->stream_id = s->stream_id;
	item->event_ns = s->event_ns;
	item->packet = &s->item_file->sr->packet;
	item->event = &s->item_file->sr->event;
	item->discard = s->discard;
	item->plan_hint = NULL;
	item->rest = NULL;
	item->rest_len = 0;
}

/* Room for one more element of size sz in *v (*cap of them): 0, or -1. */
static int grow(void **v, size_t n, size_t *cap, size_t sz, size_t first)
{
	size_t c;
	void *p;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : first;
	if (!(p = realloc(*v, c * sz)))
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

/*
 * The packet of reader r, its context copied into b (once per packet and
 * batch): its index in b->packets, or SIZE_MAX when memory runs out.
 */
static size_t packet_copy(struct batch *b, const struct ctf_stream_reader *r)
{
	struct ctf_packet *p;
	int oom = 0;

	if (b->npackets && b->last_reader == r && b->last_packet == r->packet.index)
		return b->npackets - 1;
	if (grow((void **)&b->packets, b->npackets, &b->cap_packets, sizeof(*p), 16))
		return SIZE_MAX;
	p = &b->packets[b->npackets];
	*p = r->packet;
	p->header = NULL; /* not printed */
	p->context =
	    ctf_value_copy(&b->arena, r->packet.context, r->map, r->map + r->file_size, &oom);
	if (oom)
		return SIZE_MAX;
	b->last_reader = r;
	b->last_packet = r->packet.index;
	return b->npackets++;
}

/* Room for n more leaves in b: 0, or -1 when memory runs out. */
static int grow_vals(struct batch *b, size_t n)
{
	size_t cap = b->cap_vals ? 2 * b->cap_vals : 8 * BATCH_ITEMS;
	uint64_t *v;

	while (cap - b->nvals < n)
		cap *= 2;
	if (!(v = realloc(b->vals, cap * sizeof(*v))))
		return -1;
	b->vals = v;
	b->cap_vals = cap;
	return 0;
}

/* The context of fixed event s in b (the last one, when s shares it): -1 on OOM. */
static int64_t fixed_ctx_of(struct batch *b, const struct ctf_ss_stream *s)
{
	const struct ctf_stream_reader *r = s->item_file->sr;
	struct fixed_ctx *x;
	size_t pk;

	if (b->ctxs.n) {
		x = &b->ctxs.v[b->ctxs.n - 1];
		if (x->file == s->item_file && x->prog == r->body_prog && x->cls == r->event.cls &&
		    x->packet_index == r->packet.index)
			return (int64_t)(b->ctxs.n - 1);
	}
	if ((pk = packet_copy(b, r)) == SIZE_MAX ||
	    grow((void **)&b->ctxs.v, b->ctxs.n, &b->ctxs.cap, sizeof(*x), 64))
		return -1;
	x = &b->ctxs.v[b->ctxs.n];
	x->t = s->t;
	x->file = s->item_file;
	x->sc_id = s->sc_id;
	x->stream_id = s->stream_id;
	x->packet = pk;
	x->packet_index = r->packet.index;
	x->prog = r->body_prog;
	x->cls = r->event.cls;
	x->has_clock = r->event.has_clock;
	x->stream_context = r->event.stream_context;
	x->context = r->event.context;
	x->payload = r->event.payload;
	return (int64_t)b->ctxs.n++;
}

/* Event s of a fixed program into b as a record and its leaves; -1 on OOM. */
static int add_fixed(struct batch *b, const struct ctf_ss_stream *s)
{
	const struct ctf_stream_reader *r = s->item_file->sr;
	const struct ctf_decode_prog *prog = r->body_prog;
	uint32_t n = prog->run.nfields;
	struct rec *rc = &b->recs[b->count];
	int64_t x = fixed_ctx_of(b, s);

	if (x < 0 || (b->cap_vals - b->nvals < n && grow_vals(b, n)))
		return -1;
	rc->kind = REC_FIXED;
	rc->ref = (uint32_t)x;
	rc->off = b->nvals;
	rc->ns = s->event_ns;
	rc->cycles = r->event.clock_value;
	ctf_prog_save_leaves(prog, b->vals + b->nvals);
	b->nvals += n;
	b->count++;
	return 0;
}

/* Item s into b with copies of its values; -1 when memory runs out. */
static int add_copy(struct batch *b, const struct ctf_ss_stream *s)
{
	struct item_copy *c;
	struct rec *rc = &b->recs[b->count];
	int oom = 0;

	if (grow((void **)&b->items, b->nitems, &b->cap_items, sizeof(*c), 64))
		return -1;
	c = &b->items[b->nitems];
	view_item_of(&c->item, s);
	if (s->kind == CTF_SS_EVENT) {
		const struct ctf_stream_reader *r = s->item_file->sr;
		const void *lo = r->map, *hi = r->map + r->file_size;

		c->event = r->event;
		c->event.header = NULL; /* not printed */
		c->event.stream_context =
		    ctf_value_copy(&b->arena, r->event.stream_context, lo, hi, &oom);
		c->event.context = ctf_value_copy(&b->arena, r->event.context, lo, hi, &oom);
		c->event.payload = ctf_value_copy(&b->arena, r->event.payload, lo, hi, &oom);
		if (oom || (c->packet = packet_copy(b, r)) == SIZE_MAX)
			return -1;
		c->item.discard = NULL;
	} else {
		c->discard = *s->discard;
		c->item.packet = NULL;
		c->item.event = NULL;
	}
	rc->kind = REC_COPY;
	rc->ref = (uint32_t)b->nitems++;
	b->count++;
	return 0;
}

/* Event s's line, formatted into b's text: 0, 1 when line declined, -1 (memory). */
static int add_line(struct pipeline *pl, struct batch *b, const struct ctf_ss_stream *s)
{
	size_t off = b->text.len;
	struct view_item live;
	struct rec *rc;

	view_item_of(&live, s);
	if (pl->line(pl->line_ctx, &live, &pl->last, &b->text)) {
		b->text.len = off;
		return 1;
	}
	if (b->text.error)
		return -1;
	/* lines in a row make one text record */
	rc = &b->recs[b->count - (b->count && b->recs[b->count - 1].kind == REC_TEXT)];
	if (rc == &b->recs[b->count]) {
		rc->kind = REC_TEXT;
		rc->has_clock = false;
		rc->off = off;
		rc->len = 0;
		b->count++;
	}
	rc->len += b->text.len - off;
	if (live.event->has_clock) {
		rc->has_clock = true;
		rc->ns = live.event_ns;
		rc->cycles = live.event->clock_value;
	}
	return 0;
}

/* What ctf_ss_each()'s visitor fills. */
struct fill {
	struct pipeline *pl;
	struct batch *b;
	bool formatted; /* the reading thread formats the lines */
};

/* ctf_ss_each()'s visitor: into the batch; 1 when it is full, 2 when memory runs out. */
static int fill_item(void *ctx, struct ctf_ss_stream *s)
{
	struct fill *f = ctx;
	struct pipeline *pl = f->pl;
	struct batch *b = f->b;

	if (s->kind == CTF_SS_EVENT) {
		const struct ctf_stream_reader *r = s->item_file->sr;
		int st = 1;

		if (f->formatted && (st = add_line(pl, b, s)) < 0)
			return 2;
		if (st && (r->body_prog ? add_fixed(b, s) : add_copy(b, s)))
			return 2;
		if (r->event.has_clock) {
			pl->last.set = true;
			pl->last.ns = s->event_ns;
			pl->last.cycles = r->event.clock_value;
		}
	} else if (add_copy(b, s)) {
		return 2;
	}
	return ++b->nread < pl->batch_items && b->arena.used < BATCH_BYTES &&
		       b->text.len < BATCH_BYTES
		   ? 0
		   : 1;
}

static void *reader_main(void *arg)
{
	struct pipeline *pl = arg;

	for (;;) {
		struct batch *b;
		struct fill f = {.pl = pl};
		int st;

		pthread_mutex_lock(&pl->lock);
		while (!pl->stop && pl->fill - pl->print == BATCHES)
			pthread_cond_wait(&pl->freed_cond, &pl->lock);
		if (pl->stop) {
			pthread_mutex_unlock(&pl->lock);
			return NULL;
		}
		b = pl->batches[pl->fill % BATCHES];
		/*
		 * The printer falls behind (besides the batch it prints, a
		 * whole one waits for it): this thread formats this batch's
		 * lines, which the printer will only copy. When this thread
		 * falls behind in turn, the printer formats again: the share
		 * settles where both keep pace.
		 */
		f.formatted = pl->line && (pl->split >= 0 ? pl->split : pl->fill - pl->print >= 2);
		pthread_mutex_unlock(&pl->lock);
		f.b = b;
		b->text.len = 0;
		b->count = 0;
		b->nread = 0;
		b->nitems = 0;
		b->ctxs.n = 0;
		b->npackets = 0;
		b->nvals = 0;
		b->end = 0;
		ctf_value_arena_reset(&b->arena);
		/* (runs of events of one stream in a tight loop: ctf_ss_each()) */
		st = ctf_ss_each(pl->ss, fill_item, &f);
		if (st == 2) {
			snprintf(pl->ss->error, sizeof(pl->ss->error), "out of memory");
			st = -1;
		}
		b->end = st < 0 ? -1 : st == 0 ? 1 : 0;

		pthread_mutex_lock(&pl->lock);
		pl->fill++;
		pthread_cond_signal(&pl->filled_cond);
		pthread_mutex_unlock(&pl->lock);
		if (b->end)
			return NULL;
	}
}

/* The printer's mirror of x's program (made on its first event); NULL when memory runs out. */
static struct mirror *mirror_of(struct pipeline *pl, const struct fixed_ctx *x)
{
	const struct ctf_decode_prog *prog = x->prog;
	struct mirror *m;
	size_t i;

	if (pl->last_mirror && pl->last_mirror->prog == prog)
		return pl->last_mirror;
	if (2 * (pl->nmirrors + 1) > pl->cap_mirrors) {
		size_t cap = pl->cap_mirrors ? 2 * pl->cap_mirrors : 64;
		struct mirror *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t k = 0; k < pl->cap_mirrors; k++)
			if (pl->mirrors[k].prog) {
				for (i = ((uintptr_t)pl->mirrors[k].prog >> 4) & (cap - 1);
				     n[i].prog; i = (i + 1) & (cap - 1))
					;
				n[i] = pl->mirrors[k];
			}
		free(pl->mirrors);
		pl->mirrors = n;
		pl->cap_mirrors = cap;
	}
	for (i = ((uintptr_t)prog >> 4) & (pl->cap_mirrors - 1); pl->mirrors[i].prog;
	     i = (i + 1) & (pl->cap_mirrors - 1))
		if (pl->mirrors[i].prog == prog)
			return pl->last_mirror = &pl->mirrors[i];
	m = &pl->mirrors[i];
	m->tree = ctf_decode_prog_clone_tree(prog);
	if (!m->tree)
		return NULL;
	/* an event's scopes are the same values of its program every time */
	m->stream_context =
	    x->stream_context ? m->tree + ctf_decode_prog_slot_of(prog, x->stream_context) : NULL;
	m->context = x->context ? m->tree + ctf_decode_prog_slot_of(prog, x->context) : NULL;
	m->payload = x->payload ? m->tree + ctf_decode_prog_slot_of(prog, x->payload) : NULL;
	m->prog = prog;
	pl->nmirrors++;
	return pl->last_mirror = m;
}

/* Prints batch b's items in order: 0, or -1 when memory runs out. */
static int print_batch(struct pipeline *pl, struct batch *b, view_print_fn print, void *ctx)
{
	const struct fixed_ctx *cur = NULL; /* what it and ev hold now */
	struct mirror *m = NULL;
	struct view_item it = {.kind = VIEW_EVENT};
	struct ctf_event ev = {0};

	for (size_t i = 0; i < b->count; i++) {
		const struct rec *rc = &b->recs[i];

		if (rc->kind == REC_FIXED) {
			const struct fixed_ctx *x = &b->ctxs.v[rc->ref];

			if (x != cur) {
				if (!(m = mirror_of(pl, x)))
					return -1;
				it.kind = VIEW_EVENT;
				it.t = x->t;
				it.file = x->file;
				it.sc_id = x->sc_id;
				it.stream_id = x->stream_id;
				it.packet = &b->packets[x->packet];
				it.event = &ev;
				it.discard = NULL;
				it.plan_hint = &m->plan;
				it.rest = NULL;
				it.rest_len = 0;
				ev.cls = x->cls;
				ev.has_clock = x->has_clock;
				ev.header = NULL;
				ev.stream_context = m->stream_context;
				ev.context = m->context;
				ev.payload = m->payload;
				cur = x;
			}
			ctf_prog_load_leaves(x->prog, m->tree, b->vals + rc->off);
			ev.clock_value = rc->cycles;
			it.event_ns = rc->ns;
			print(ctx, &it);
		} else if (rc->kind == REC_COPY) {
			struct item_copy *c = &b->items[rc->ref];

			if (c->item.kind == VIEW_EVENT) {
				c->item.packet = &b->packets[c->packet];
				c->item.event = &c->event;
			} else {
				c->item.discard = &c->discard;
			}
			print(ctx, &c->item);
		} else {
			struct view_item t = {.kind = VIEW_TEXT};
			struct ctf_event last = {.has_clock = rc->has_clock,
						 .clock_value = rc->cycles};

			t.rest = b->text.data + rc->off;
			t.rest_len = rc->len;
			t.event = &last;
			t.event_ns = rc->ns;
			print(ctx, &t);
		}
	}
	return 0;
}

/* The single-thread way, when no thread can be had. */
static int run_inline(struct ctf_stream_set *ss, view_print_fn print, void *ctx)
{
	struct ctf_ss_stream *s;
	struct view_item item;
	int st;

	while ((st = ctf_ss_next(ss, &s)) > 0) {
		view_item_of(&item, s);
		print(ctx, &item);
	}
	return st < 0 ? -1 : 0;
}

int view_pipeline_run(struct ctf_stream_set *ss, view_print_fn print, void *ctx, view_line_fn line,
		      void *line_ctx)
{
	struct pipeline pl = {.ss = ss, .line = line, .line_ctx = line_ctx};
	pthread_t reader;
	int result = 0, started = 0;
	const char *split = getenv("TRAX_VIEW_SPLIT"), *items = getenv("TRAX_VIEW_BATCH");

	pl.split = split && !strcmp(split, "all") ? 1 : split && !strcmp(split, "none") ? 0 : -1;
	pl.batch_items = items && atoi(items) > 0 && atoi(items) < BATCH_ITEMS ? (size_t)atoi(items)
									       : BATCH_ITEMS;
	for (unsigned int i = 0; i < BATCHES; i++)
		if (!(pl.batches[i] = calloc(1, sizeof(*pl.batches[i]))) ||
		    ctf_text_buf_init(&pl.batches[i]->text, -1, 512 << 10))
			goto inline_run;
	pthread_mutex_init(&pl.lock, NULL);
	pthread_cond_init(&pl.filled_cond, NULL);
	pthread_cond_init(&pl.freed_cond, NULL);
	if (pthread_create(&reader, NULL, reader_main, &pl) != 0)
		goto inline_run_destroy;
	started = 1;
	for (;;) {
		struct batch *b;

		pthread_mutex_lock(&pl.lock);
		while (pl.fill == pl.print)
			pthread_cond_wait(&pl.filled_cond, &pl.lock);
		b = pl.batches[pl.print % BATCHES];
		pthread_mutex_unlock(&pl.lock);

		if (print_batch(&pl, b, print, ctx)) {
			snprintf(ss->error, sizeof(ss->error), "out of memory");
			result = -1;
			/* the reader may be waiting for a free batch */
			pthread_mutex_lock(&pl.lock);
			pl.stop = true;
			pthread_cond_signal(&pl.freed_cond);
			pthread_mutex_unlock(&pl.lock);
			break;
		}

		/* (read before the batch goes back: the reader refills it at once) */
		int end = b->end;

		pthread_mutex_lock(&pl.lock);
		pl.print++;
		pthread_cond_signal(&pl.freed_cond);
		pthread_mutex_unlock(&pl.lock);
		if (end) {
			result = end < 0 ? -1 : 0;
			break;
		}
	}
	pthread_join(reader, NULL);
inline_run_destroy:
	pthread_cond_destroy(&pl.filled_cond);
	pthread_cond_destroy(&pl.freed_cond);
	pthread_mutex_destroy(&pl.lock);
inline_run:
	if (!started)
		result = run_inline(ss, print, ctx);
	for (unsigned int i = 0; i < BATCHES; i++)
		if (pl.batches[i]) {
			ctf_value_arena_free(&pl.batches[i]->arena);
			free(pl.batches[i]->items);
			free(pl.batches[i]->ctxs.v);
			free(pl.batches[i]->packets);
			free(pl.batches[i]->vals);
			ctf_text_buf_free(&pl.batches[i]->text);
			free(pl.batches[i]);
		}
	for (size_t i = 0; i < pl.cap_mirrors; i++)
		free(pl.mirrors[i].tree);
	free(pl.mirrors);
	return result;
}
