/*
 * count.c - trax_reader_count(): every event left decoded and counted, on
 * two threads where LTTng's packet indexes split the traces in two halves
 * (ctf_ss_split_packets()), else on the calling thread.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/export.h"
#include "reader/reader-impl.h"

/* ctf_ss_each()'s visitor: the loop --count measures, nothing else. */
static int count_item(void *ctx, struct ctf_ss_stream *s)
{
	uint64_t *count = ctx;

	*count += s->kind == CTF_SS_EVENT;
	return 0;
}

/* The second part of a count on two threads. */
struct count_second {
	const struct trax_reader *r;
	const size_t *cut;
	struct ctf_stream_set ss;
	uint64_t count;
	int status;
};

/* The second part: the traces loaded and opened again, from each file's cut on. */
static void *count_second_main(void *arg)
{
	struct count_second *c = arg;

	c->ss.part = 2;
	c->ss.part_cut = c->cut;
	if (trax_reader_load_again(c->r, &c->ss) || c->ss.nfiles != c->r->ss.nfiles ||
	    ctf_ss_open(&c->ss, false, 0))
		c->status = -1;
	else
		c->status = ctf_ss_each(&c->ss, count_item, &c->count);
	return NULL;
}

/*
 * The count on two threads, each reading about half of the packets: those
 * that begin before a time on this one, through r's set opened again, the
 * others on a second thread, through the traces opened anew. Nothing is
 * decoded twice, no event is compared with the cut. 0 (*count set), -1 on
 * error (r->ss.error), or -2 when the parts are not known, no thread can
 * be had, or either part met an error: r's set is then open at its start
 * again, for one thread to count, and to report the error as it meets it.
 */
static int count_halves(struct trax_reader *r, uint64_t *count)
{
	struct ctf_stream_set *ss = &r->ss;
	struct count_second *c = calloc(1, sizeof(*c));
	size_t *cut = calloc(ss->nfiles ? ss->nfiles : 1, sizeof(*cut));
	uint64_t first = 0;
	pthread_t second;
	int st = -2;

	if (!c || !cut || ctf_ss_split_packets(ss, cut))
		goto out;
	c->r = r;
	c->cut = cut;
	if (pthread_create(&second, NULL, count_second_main, c) != 0)
		goto out;
	ctf_ss_close(ss);
	ss->part = 1;
	ss->part_cut = cut;
	st = ctf_ss_open(ss, false, 0);
	if (!st)
		st = ctf_ss_each(ss, count_item, &first);
	pthread_join(second, NULL);
	ss->part = 0;
	ss->part_cut = NULL;
	if (st == 0 && c->status == 0) {
		*count = first + c->count;
	} else {
		ctf_ss_close(ss);
		st = ctf_ss_open(ss, false, 0) ? -1 : -2;
	}
out:
	if (c)
		ctf_ss_free(&c->ss);
	free(c);
	free(cut);
	return st;
}

TRAX_EXPORT int trax_reader_count(struct trax_reader *r, uint64_t *count)
{
	uint64_t n = 0;
	int st = -2;

	if (!r)
		return -1;
	if (!count) {
		trax_reader_set_error(r, "trax_reader_count: NULL count");
		return -1;
	}
	if (r->failed)
		return -1;
	if (r->fresh && r->opt.threads != 1)
		st = count_halves(r, &n);
	r->fresh = false;
	if (st == -2)
		st = ctf_ss_each(&r->ss, count_item, &n);
	if (st < 0) {
		trax_reader_set_error(r, "%s", r->ss.error);
		r->failed = true;
		return -1;
	}
	if (trax_reader_at_end(r))
		return -1;
	*count = n;
	return 0;
}
