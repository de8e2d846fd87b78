/*
 * view-pipeline.c - reading a stream set on one thread, printing on
 * another (see view-pipeline.h).
 *
 * Batches go round a ring: the reader fills a free one and publishes it,
 * the printer prints it and gives it back. One mutex and two condition
 * variables per handoff, thousands of items per batch: the cost per item
 * is that of the copies.
 */
#include "cli/view-pipeline.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/decode-prog-impl.h"
#include "ctf/value-copy.h"

#define BATCHES	    4
#define BATCH_ITEMS 4096
/* a batch also ends when its copies pass this (events with large values) */
#define BATCH_BYTES (4u << 20)

struct item_copy {
	struct view_item item;
	struct ctf_event event;
	struct ctf_ss_discard discard;
	/*
	 * Events decoded by a fixed program (decode-stream.h, body_prog):
	 * only the leaves are copied, at vals in the batch's values; the
	 * printer loads them into its own clone of the program's tree.
	 */
	const struct ctf_decode_prog *prog;
	size_t vals;
	/* the end of its line, formatted by the reading thread: text[rest_off ..] */
	bool formatted;
	size_t rest_off;
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
	struct item_copy items[BATCH_ITEMS];
	size_t count;
	int end; /* after the items: 0 more follow, 1 the end, -1 an error */
	struct ctf_value_arena arena;
	/* the packets the items refer to (contexts copied), each once per batch */
	struct ctf_packet *packets;
	size_t npackets, cap_packets;
	const struct ctf_stream_reader *last_reader;
	uint64_t last_packet; /* index of last_reader's packet copied last */
	uint64_t *vals;	      /* the leaves of fixed events */
	size_t nvals, cap_vals;
	struct ctf_text_buf text; /* the ends of lines formatted by the reading thread */
};

struct pipeline {
	struct ctf_stream_set *ss;
	pthread_mutex_t lock;
	pthread_cond_t filled_cond, freed_cond;
	struct batch *batches[BATCHES];
	unsigned int fill, print; /* next batch to fill, to print (counters) */
	bool stop;		  /* the printer gave up (out of memory): the reader ends */
	view_rest_fn rest;	  /* formats ends of lines on the reading thread, or NULL */
	void *rest_ctx;
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
	item->kind = s->kind;
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

/* The packet of reader r, its context copied into b (once per packet and batch). */
static const struct ctf_packet *packet_copy(struct batch *b, const struct ctf_stream_reader *r,
					    int *oom)
{
	struct ctf_packet *p;

	if (b->npackets && b->last_reader == r && b->last_packet == r->packet.index)
		return &b->packets[b->npackets - 1];
	if (b->npackets == b->cap_packets) {
		size_t cap = b->cap_packets ? 2 * b->cap_packets : 16;
		struct ctf_packet *n = realloc(b->packets, cap * sizeof(*n));

		if (!n) {
			*oom = 1;
			return NULL;
		}
		/* items point to the packets: move them along */
		for (size_t i = 0; i < b->count; i++)
			if (b->items[i].item.kind == CTF_SS_EVENT)
				b->items[i].item.packet =
				    n + (b->items[i].item.packet - b->packets);
		b->packets = n;
		b->cap_packets = cap;
	}
	p = &b->packets[b->npackets++];
	*p = r->packet;
	p->header = NULL; /* not printed */
	p->context =
	    ctf_value_copy(&b->arena, r->packet.context, r->map, r->map + r->file_size, oom);
	b->last_reader = r;
	b->last_packet = r->packet.index;
	return p;
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

/* Copies item s into b; -1 when memory runs out. */
static int batch_add(struct batch *b, const struct ctf_ss_stream *s)
{
	struct item_copy *c = &b->items[b->count];
	int oom = 0;

	c->formatted = false;
	view_item_of(&c->item, s);
	if (s->kind == CTF_SS_EVENT) {
		const struct ctf_stream_reader *r = s->item_file->sr;
		const void *lo = r->map, *hi = r->map + r->file_size;

		c->event = r->event;
		c->event.header = NULL; /* not printed */
		c->prog = r->body_prog;
		if (c->prog) {
			uint32_t n = c->prog->run.nfields;

			if (b->cap_vals - b->nvals < n && grow_vals(b, n))
				return -1;
			c->vals = b->nvals;
			ctf_prog_save_leaves(c->prog, b->vals + b->nvals);
			b->nvals += n;
		} else {
			c->event.stream_context =
			    ctf_value_copy(&b->arena, r->event.stream_context, lo, hi, &oom);
			c->event.context =
			    ctf_value_copy(&b->arena, r->event.context, lo, hi, &oom);
			c->event.payload =
			    ctf_value_copy(&b->arena, r->event.payload, lo, hi, &oom);
		}
		c->item.event = &c->event;
		c->item.packet = packet_copy(b, r, &oom);
		c->item.discard = NULL;
	} else {
		c->discard = *s->discard;
		c->item.discard = &c->discard;
		c->item.packet = NULL;
		c->item.event = NULL;
	}
	if (oom)
		return -1;
	b->count++;
	return 0;
}

/*
 * Event s into b with the end of its line formatted (rest), not its
 * values: 0, 1 when rest declined (nothing added), -1 when memory runs out.
 */
static int batch_add_formatted(struct pipeline *pl, struct batch *b, const struct ctf_ss_stream *s)
{
	struct item_copy *c = &b->items[b->count];
	size_t off = b->text.len;
	struct view_item live;

	view_item_of(&live, s);
	if (pl->rest(pl->rest_ctx, &live, &b->text)) {
		b->text.len = off;
		return 1;
	}
	if (b->text.error)
		return -1;
	/* what the printer reads of a formatted line: its time (ctf_text_print_event_split()) */
	c->item.kind = CTF_SS_EVENT;
	c->item.event_ns = live.event_ns;
	c->item.file = live.file;
	c->item.t = live.t;
	c->event.has_clock = live.event->has_clock;
	c->event.clock_value = live.event->clock_value;
	c->item.event = &c->event;
	c->item.packet = NULL;
	c->item.rest_len = b->text.len - off; /* (rest: set by the printer, text may move) */
	c->rest_off = off;
	c->formatted = true;
	c->prog = NULL;
	b->count++;
	return 0;
}

/* What ctf_ss_each()'s visitor fills. */
struct fill {
	struct pipeline *pl;
	struct batch *b;
	bool formatted; /* the reading thread formats the ends of the lines */
};

/* ctf_ss_each()'s visitor: into the batch; 1 when it is full, 2 when memory runs out. */
static int fill_item(void *ctx, struct ctf_ss_stream *s)
{
	struct fill *f = ctx;
	struct batch *b = f->b;
	int st = 1;

	if (f->formatted && s->kind == CTF_SS_EVENT && (st = batch_add_formatted(f->pl, b, s)) < 0)
		return 2;
	if (st && batch_add(b, s))
		return 2;
	return b->count < f->pl->batch_items && b->arena.used < BATCH_BYTES ? 0 : 1;
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
		 * The printer falls behind (a batch waits for it): this thread
		 * formats the ends of the lines of every other batch, about
		 * half the printer's work when the printer sets the pace (its
		 * lines cost twice the reading), none when it waits for this one.
		 */
		f.formatted =
		    pl->rest &&
		    (pl->split >= 0 ? pl->split : (pl->fill & 1) && pl->fill - pl->print >= 1);
		pthread_mutex_unlock(&pl->lock);
		f.b = b;
		b->text.len = 0;

		b->count = 0;
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

/* The printer's mirror of prog (made on its first event); NULL when memory runs out. */
static struct mirror *mirror_of(struct pipeline *pl, const struct ctf_decode_prog *prog,
				const struct ctf_event *ev)
{
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
	    ev->stream_context ? m->tree + ctf_decode_prog_slot_of(prog, ev->stream_context) : NULL;
	m->context = ev->context ? m->tree + ctf_decode_prog_slot_of(prog, ev->context) : NULL;
	m->payload = ev->payload ? m->tree + ctf_decode_prog_slot_of(prog, ev->payload) : NULL;
	m->prog = prog;
	pl->nmirrors++;
	return pl->last_mirror = m;
}

/* The values of a fixed event c, loaded into the printer's mirror: 0, or -1 (memory). */
static int load_event(struct pipeline *pl, const struct batch *b, struct item_copy *c)
{
	struct mirror *m = mirror_of(pl, c->prog, &c->event);

	if (!m)
		return -1;
	ctf_prog_load_leaves(c->prog, m->tree, b->vals + c->vals);
	c->event.stream_context = m->stream_context;
	c->event.context = m->context;
	c->event.payload = m->payload;
	c->item.plan_hint = &m->plan;
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

int view_pipeline_run(struct ctf_stream_set *ss, view_print_fn print, void *ctx, view_rest_fn rest,
		      void *rest_ctx)
{
	struct pipeline pl = {.ss = ss, .rest = rest, .rest_ctx = rest_ctx};
	pthread_t reader;
	int result = 0, started = 0;
	const char *split = getenv("TRAX_VIEW_SPLIT"), *items = getenv("TRAX_VIEW_BATCH");

	pl.split = split && !strcmp(split, "all") ? 1 : split && !strcmp(split, "none") ? 0 : -1;
	pl.batch_items = items && atoi(items) > 0 && atoi(items) < BATCH_ITEMS ? (size_t)atoi(items)
									       : BATCH_ITEMS;
	for (unsigned int i = 0; i < BATCHES; i++)
		if (!(pl.batches[i] = calloc(1, sizeof(*pl.batches[i]))) ||
		    ctf_text_buf_init(&pl.batches[i]->text, -1, 256 << 10))
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

		for (size_t i = 0; i < b->count; i++) {
			struct item_copy *c = &b->items[i];

			if (c->formatted)
				c->item.rest = b->text.data + c->rest_off;
			if (c->item.kind == CTF_SS_EVENT && c->prog && load_event(&pl, b, c)) {
				snprintf(ss->error, sizeof(ss->error), "out of memory");
				result = -1;
				break;
			}
			print(ctx, &c->item);
		}
		if (result < 0) {
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
