/*
 * print-twin.c - two threads, each reading the whole trace and formatting
 * every other chunk (see print-twin.h).
 *
 * Item i is in chunk i / K; side k formats the chunks c with c % 2 == k.
 * Both sides see the same items in the same order (a stream set's order
 * depends on nothing but the traces), so they agree on every chunk
 * boundary without talking. A side formats a chunk into one of its slots,
 * then, under the lock, copies to out every slot of its own whose turn has
 * come (next); it waits only when all its slots are full, or at the end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "reader/print-twin.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS		   3
#define CHUNK_ITEMS	   4096
#define CHUNK_TEXT_INITIAL (512u << 10)

/* A warning within a chunk: after the text before off, err's bytes up to err_end. */
struct warning {
	size_t off;
	size_t err_end;
	bool flush; /* out is written before it (discarded items) */
};

struct slot {
	uint64_t chunk;
	struct ctf_text_buf text;
	FILE *err; /* a memory stream (errbuf, errlen), opened when first needed */
	char *errbuf;
	size_t errlen;
	struct warning *warnings;
	size_t nwarnings, cap;
};

struct twin {
	pthread_mutex_t lock;
	pthread_cond_t turn; /* next moved, or a side ended */
	uint64_t next;	     /* the chunk out takes next */
	bool stop;	     /* a side gave up: the other one ends too */
	struct ctf_text_buf *out;
	print_twin_fn fn;
	uint64_t chunk_items;
	struct side {
		struct twin *tw;
		unsigned int k;
		struct ctf_stream_set *ss;
		void *ctx;
		struct slot slots[SLOTS];
		unsigned int first, filled; /* the filled slots, oldest first (a ring) */
		struct slot *cur;	    /* the chunk being formatted, NULL: passing over */
		uint64_t chunk;		    /* the next chunk to start */
		uint64_t left;		    /* items left in the current one (0: none started) */
		int status;		    /* ctf_ss_each()'s; -1 also out of memory, 2 stopped */
		bool failed;		    /* out of memory (ss->error says so) */
		bool done;		    /* every chunk of it is in out */
		/* (each side on lines of its own: they are written at every item) */
	} __attribute__((aligned(128))) sides[2];
};

/* Copies slot s to out, its warnings in their places (lock held). */
static void emit(struct twin *tw, struct slot *s)
{
	size_t t = 0, e = 0;

	if (s->nwarnings)
		fflush(s->err);
	for (size_t i = 0; i < s->nwarnings; i++) {
		const struct warning *w = &s->warnings[i];

		ctf_text_put(tw->out, s->text.data + t, w->off - t);
		if (w->flush)
			ctf_text_buf_flush(tw->out);
		fwrite(s->errbuf + e, 1, w->err_end - e, stderr);
		fflush(stderr);
		t = w->off;
		e = w->err_end;
	}
	ctf_text_put(tw->out, s->text.data + t, s->text.len - t);
}

/* Emits the side's filled slots whose turn has come (lock held); true if any. */
static bool emit_ready(struct side *sd)
{
	struct twin *tw = sd->tw;
	bool any = false;

	while (sd->filled && sd->slots[sd->first].chunk == tw->next) {
		emit(tw, &sd->slots[sd->first]);
		sd->first = (sd->first + 1) % SLOTS;
		sd->filled--;
		tw->next++;
		any = true;
	}
	if (any)
		pthread_cond_broadcast(&tw->turn);
	return any;
}

/*
 * Whether the chunk out waits for can never come: the other side ended
 * with every chunk of its own in out, and it is one of them (lock held).
 */
static bool stalled(const struct side *sd)
{
	const struct side *o = &sd->tw->sides[sd->k ^ 1];

	return o->done && (sd->tw->next & 1) == o->k;
}

/* A free slot for chunk c (after emitting what can be); NULL when stopped. */
static struct slot *take_slot(struct side *sd, uint64_t c)
{
	struct twin *tw = sd->tw;
	struct slot *s;

	pthread_mutex_lock(&tw->lock);
	for (;;) {
		emit_ready(sd);
		if (tw->stop) {
			pthread_mutex_unlock(&tw->lock);
			return NULL;
		}
		if (sd->filled < SLOTS)
			break;
		if (stalled(sd)) {
			tw->stop = true;
			pthread_cond_broadcast(&tw->turn);
			continue;
		}
		pthread_cond_wait(&tw->turn, &tw->lock);
	}
	pthread_mutex_unlock(&tw->lock);
	s = &sd->slots[(sd->first + sd->filled) % SLOTS];
	s->chunk = c;
	s->text.len = 0;
	s->nwarnings = 0;
	if (s->err && ftell(s->err) > 0) {
		/* (rare: a chunk with warnings) a new stream rather than a rewound one */
		fclose(s->err);
		free(s->errbuf);
		s->err = NULL;
		s->errbuf = NULL;
	}
	if (!s->err && !(s->err = open_memstream(&s->errbuf, &s->errlen)))
		return NULL;
	return s;
}

/* The chunk being formatted is complete: into the filled ones, out when its turn has come. */
static void finish(struct side *sd)
{
	struct twin *tw = sd->tw;

	sd->filled++;
	sd->cur = NULL;
	pthread_mutex_lock(&tw->lock);
	emit_ready(sd);
	pthread_mutex_unlock(&tw->lock);
}

/* Notes a warning written to s->err while formatting an item whose text started at off. */
static int note_warning(struct slot *s, size_t off, bool flush)
{
	long end = ftell(s->err);
	size_t last = s->nwarnings ? s->warnings[s->nwarnings - 1].err_end : 0;

	if (end < 0 || (size_t)end == last)
		return 0;
	if (s->nwarnings == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct warning *n = realloc(s->warnings, cap * sizeof(*n));

		if (!n)
			return -1;
		s->warnings = n;
		s->cap = cap;
	}
	s->warnings[s->nwarnings++] = (struct warning){off, (size_t)end, flush};
	return 0;
}

/* ctf_ss_each()'s visitor: 0, or 2 to stop (the other side gave up, or memory). */
static int visit(void *ctx, struct ctf_ss_stream *s)
{
	struct side *sd = ctx;
	struct twin *tw = sd->tw;
	struct slot *cur;
	bool warns;
	size_t off;

	/* (a count down, not a division per item) */
	if (sd->left-- == 0) {
		uint64_t c = sd->chunk++;

		sd->left = tw->chunk_items - 1;
		if (sd->cur)
			finish(sd);
		if ((c & 1) == sd->k && !(sd->cur = take_slot(sd, c)))
			return 2;
	}
	if (!(cur = sd->cur)) {
		tw->fn(sd->ctx, s, NULL, NULL);
		return 0;
	}
	/* what may write a warning: a discard, an event before the origin */
	warns = s->kind == CTF_SS_DISCARD || (s->item_file->sr->event.has_clock && s->event_ns < 0);
	off = cur->text.len;
	tw->fn(sd->ctx, s, &cur->text, cur->err);
	if (warns && note_warning(cur, off, s->kind == CTF_SS_DISCARD))
		return 2;
	return 0;
}

static void *side_main(void *arg)
{
	struct side *sd = arg;
	struct twin *tw = sd->tw;
	int st = ctf_ss_each(sd->ss, visit, sd);

	if (sd->cur)
		finish(sd);
	pthread_mutex_lock(&tw->lock);
	if (st == 2 && !tw->stop) {
		/* (out of memory: the other side must not wait for this one) */
		snprintf(sd->ss->error, sizeof(sd->ss->error), "out of memory");
		sd->failed = true;
		tw->stop = true;
		pthread_cond_broadcast(&tw->turn);
	}
	while (!tw->stop && sd->filled) {
		if (emit_ready(sd))
			continue;
		if (stalled(sd)) {
			tw->stop = true;
			pthread_cond_broadcast(&tw->turn);
			break;
		}
		pthread_cond_wait(&tw->turn, &tw->lock);
	}
	/* (2: stopped because the other side failed, which says why) */
	sd->status = st == 2 && !sd->failed ? 2 : st == 2 ? -1 : st;
	sd->done = true;
	pthread_cond_broadcast(&tw->turn);
	pthread_mutex_unlock(&tw->lock);
	return NULL;
}

int print_twin_run(struct ctf_stream_set *ss[2], void *ctx[2], print_twin_fn fn,
		   struct ctf_text_buf *out, uint64_t chunk_items)
{
	struct twin *tw = aligned_alloc(128, sizeof(struct twin));
	pthread_t second;
	int result = 0;

	if (!tw)
		return -2;
	memset(tw, 0, sizeof(*tw));
	tw->out = out;
	tw->fn = fn;
	tw->chunk_items = chunk_items ? chunk_items : CHUNK_ITEMS;
	pthread_mutex_init(&tw->lock, NULL);
	pthread_cond_init(&tw->turn, NULL);
	for (unsigned int k = 0; k < 2; k++) {
		struct side *sd = &tw->sides[k];

		sd->tw = tw;
		sd->k = k;
		sd->ss = ss[k];
		sd->ctx = ctx[k];
		for (unsigned int i = 0; i < SLOTS; i++)
			if (ctf_text_buf_init(&sd->slots[i].text, -1, CHUNK_TEXT_INITIAL))
				result = -2;
	}
	if (!result && pthread_create(&second, NULL, side_main, &tw->sides[1]) != 0)
		result = -2;
	if (!result) {
		side_main(&tw->sides[0]);
		pthread_join(second, NULL);
		/* an error of either side (the same one when the trace has it) */
		if (tw->sides[0].status == -1) {
			result = -1;
		} else if (tw->sides[1].status == -1) {
			memcpy(ss[0]->error, ss[1]->error, sizeof(ss[0]->error));
			result = -1;
		} else if (tw->stop) {
			snprintf(ss[0]->error, sizeof(ss[0]->error), "the two readers disagree");
			result = -1;
		}
	}
	for (unsigned int k = 0; k < 2; k++)
		for (unsigned int i = 0; i < SLOTS; i++) {
			struct slot *s = &tw->sides[k].slots[i];

			ctf_text_buf_free(&s->text);
			if (s->err)
				fclose(s->err);
			free(s->errbuf);
			free(s->warnings);
		}
	pthread_cond_destroy(&tw->turn);
	pthread_mutex_destroy(&tw->lock);
	free(tw);
	return result;
}
