/*
 * krecorder.c - the per-CPU flight recorder of event records
 * (krecorder.h).
 *
 * Each CPU has a circular buffer of bytes holding whole records one after
 * the other, oldest at `head`: a header (time, class, thread, payload
 * length) then the payload, padded to 8 bytes. Records are copied in and
 * out in up to two pieces where they cross the buffer's end, so that no
 * byte is lost to padding at the end: the bytes a CPU holds are exactly
 * the sum of its records' costs, and which record is dropped depends only
 * on those costs (the unit test counts on it).
 */
#include "kernel/krecorder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct krec_header {
	uint64_t ts;
	struct kevent_class *cls;
	int32_t tid;
	uint32_t len;
};

_Static_assert(sizeof(struct krec_header) == KRECORDER_OVERHEAD, "record header size");

struct krec_cpu {
	uint8_t *buf;		/* cap bytes, taken at the first record */
	size_t head, used;	/* the oldest record's offset; bytes held */
	uint64_t held;		/* records held */
	uint64_t dropped;	/* since made */
	uint64_t dropped_taken; /* `dropped` at the last take */
};

struct krecorder {
	unsigned int nr_cpus;
	size_t cap;	  /* bytes per CPU, a multiple of 8 */
	uint8_t *scratch; /* a payload that crosses the end, made whole for the sink */
	uint64_t stray;
	struct krec_cpu cpus[];
};

static size_t padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

struct krecorder *krecorder_new(unsigned int nr_cpus, size_t bytes_per_cpu)
{
	struct krecorder *r;

	if (!nr_cpus)
		return NULL;
	r = calloc(1, sizeof(*r) + nr_cpus * sizeof(r->cpus[0]));
	if (!r)
		return NULL;
	r->nr_cpus = nr_cpus;
	r->cap = bytes_per_cpu & ~(size_t)7;
	return r;
}

void krecorder_free(struct krecorder *r)
{
	if (!r)
		return;
	for (unsigned int c = 0; c < r->nr_cpus; c++)
		free(r->cpus[c].buf);
	free(r->scratch);
	free(r);
}

/* Copies n bytes into c's buffer at offset off, wrapping at its end. */
static void ring_put(const struct krecorder *r, struct krec_cpu *c, size_t off, const void *src,
		     size_t n)
{
	size_t first = r->cap - off < n ? r->cap - off : n;

	memcpy(c->buf + off, src, first);
	memcpy(c->buf, (const uint8_t *)src + first, n - first);
}

/* Copies n bytes out of c's buffer from offset off, wrapping at its end. */
static void ring_get(const struct krecorder *r, const struct krec_cpu *c, size_t off, void *dst,
		     size_t n)
{
	size_t first = r->cap - off < n ? r->cap - off : n;

	memcpy(dst, c->buf + off, first);
	memcpy((uint8_t *)dst + first, c->buf, n - first);
}

static size_t advance(const struct krecorder *r, size_t off, size_t n)
{
	off += n;
	return off >= r->cap ? off - r->cap : off;
}

/* Forgets c's oldest record. */
static void drop_oldest(const struct krecorder *r, struct krec_cpu *c)
{
	struct krec_header h;
	size_t cost;

	ring_get(r, c, c->head, &h, sizeof(h));
	cost = sizeof(h) + padded(h.len);
	c->head = advance(r, c->head, cost);
	c->used -= cost;
	c->held--;
}

int krecorder_sink(void *recorder, const struct kevent_record *rec)
{
	struct krecorder *r = recorder;
	struct krec_cpu *c;
	struct krec_header h;
	size_t cost, tail;

	if (rec->cpu < 0 || (unsigned int)rec->cpu >= r->nr_cpus) {
		r->stray++;
		return 0;
	}
	c = &r->cpus[rec->cpu];
	cost = sizeof(h) + padded(rec->len);
	if (rec->len > UINT32_MAX || cost > r->cap) {
		c->dropped++;
		return 0;
	}
	if (!c->buf) {
		c->buf = malloc(r->cap);
		if (!c->buf) {
			c->dropped++;
			return 0;
		}
	}
	while (c->used + cost > r->cap) {
		drop_oldest(r, c);
		c->dropped++;
	}
	h = (struct krec_header){rec->ts, rec->cls, rec->tid, (uint32_t)rec->len};
	tail = advance(r, c->head, c->used);
	ring_put(r, c, tail, &h, sizeof(h));
	ring_put(r, c, advance(r, tail, sizeof(h)), rec->payload, rec->len);
	c->used += cost;
	c->held++;
	return 0;
}

long krecorder_take(struct krecorder *r, int cpu, kevent_sink_fn sink, void *arg, uint64_t *dropped)
{
	struct krec_cpu *c;
	long handed = 0;
	int e = 0;

	if (cpu < 0 || (unsigned int)cpu >= r->nr_cpus) {
		if (dropped)
			*dropped = 0;
		return 0;
	}
	c = &r->cpus[cpu];
	while (c->held && !e) {
		struct krec_header h;
		struct kevent_record kr;
		size_t at;

		ring_get(r, c, c->head, &h, sizeof(h));
		at = advance(r, c->head, sizeof(h));
		/* (no counters: snapshot sessions have no counter contexts) */
		/* (the pid and name are not kept: the contexts look them up, as for tracepoints) */
		kr = (struct kevent_record){h.cls, h.ts, cpu, h.tid, c->buf + at,
					    h.len, NULL, 0,   NULL};
		if (h.len > r->cap - at) {
			/* the payload crosses the end: made whole */
			if (!r->scratch && !(r->scratch = malloc(r->cap))) {
				e = -ENOMEM;
				break;
			}
			ring_get(r, c, at, r->scratch, h.len);
			kr.payload = r->scratch;
		}
		e = sink(arg, &kr);
		drop_oldest(r, c);
		if (e >= 0)
			handed++;
		else
			c->dropped++;
	}
	/* what the sink could not take is lost with the rest */
	c->dropped += c->held;
	c->held = 0;
	c->head = c->used = 0;
	if (dropped)
		*dropped = c->dropped - c->dropped_taken;
	c->dropped_taken = c->dropped;
	return e < 0 ? e : handed;
}

uint64_t krecorder_held(const struct krecorder *r, int cpu)
{
	return cpu >= 0 && (unsigned int)cpu < r->nr_cpus ? r->cpus[cpu].held : 0;
}

uint64_t krecorder_dropped(const struct krecorder *r, int cpu)
{
	return cpu >= 0 && (unsigned int)cpu < r->nr_cpus ? r->cpus[cpu].dropped : 0;
}

uint64_t krecorder_stray(const struct krecorder *r)
{
	return r->stray;
}
