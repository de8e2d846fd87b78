/*
 * test_kernel_krecorder.c - the flight recorder of a snapshot session's
 * system calls (src/kernel/krecorder.c): records come out of a take in the
 * order they went in, whole (payloads that cross the buffer's end too),
 * with their class, time, thread and CPU; a full CPU drops its oldest
 * records, and the ones kept are exactly the newest that fit (checked
 * against a model of the costs over thousands of records of many sizes);
 * the dropped counts are exact, per take and in total; a take empties,
 * so the next holds only what came after; records too large, of unknown
 * CPUs, or refused by the sink are counted.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernel/krecorder.h"

static struct kevent_class cls_a, cls_b;

/* Payload of record seq: len bytes derived from seq, so each is recognisable. */
static void fill(uint8_t *p, size_t len, uint64_t seq)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seq * 31 + i * 7 + 1);
}

static size_t len_of(uint64_t seq)
{
	return (size_t)((seq * 13) % 61); /* 0..60 bytes: costs of 24..88 */
}

static size_t cost_of(size_t len)
{
	return KRECORDER_OVERHEAD + ((len + 7) & ~(size_t)7);
}

static void put(struct krecorder *r, int cpu, uint64_t seq)
{
	uint8_t p[256];
	size_t len = len_of(seq);
	struct kevent_record rec = {seq & 1 ? &cls_b : &cls_a,
				    1000 + seq,
				    cpu,
				    (int32_t)(seq % 1000),
				    p,
				    len,
				    NULL,
				    0,
				    NULL};

	fill(p, len, seq);
	CHECK(krecorder_sink(r, &rec) == 0);
}

/* What a take saw: the records, checked as they come. */
struct seen {
	int cpu;
	uint64_t next; /* the sequence number expected next */
	uint64_t n;
	int bad;
	int fail_after; /* the sink fails on this record (0: never) */
};

static int collect(void *arg, const struct kevent_record *rec)
{
	struct seen *s = arg;
	uint8_t want[256];
	uint64_t seq = rec->ts - 1000;
	size_t len = len_of(seq);

	if (s->fail_after && s->n + 1 == (uint64_t)s->fail_after)
		return -EIO;
	fill(want, len, seq);
	if (seq != s->next || rec->cpu != s->cpu || rec->len != len ||
	    memcmp(rec->payload, want, len) || rec->tid != (int32_t)(seq % 1000) ||
	    rec->cls != (seq & 1 ? &cls_b : &cls_a)) {
		if (s->bad++ < 5)
			fprintf(stderr, "record %llu (expected %llu): cpu %d len %zu tid %d\n",
				(unsigned long long)seq, (unsigned long long)s->next, rec->cpu,
				rec->len, rec->tid);
	}
	s->next = seq + 1;
	s->n++;
	return 0;
}

/*
 * The first record of [from, to) a recorder of cap bytes keeps: the
 * longest run of newest records whose costs fit (what dropping the oldest
 * first leaves).
 */
static uint64_t model_first(uint64_t from, uint64_t to, size_t cap)
{
	size_t sum = 0;
	uint64_t first = to;

	while (first > from && sum + cost_of(len_of(first - 1)) <= cap) {
		sum += cost_of(len_of(first - 1));
		first--;
	}
	return first;
}

static void test_order(void)
{
	struct krecorder *r = krecorder_new(2, 4096);
	struct seen s = {.cpu = 1, .next = 0};
	uint64_t dropped = 99;

	check_part = "order";
	CHECK(r != NULL);
	for (uint64_t i = 0; i < 30; i++)
		put(r, 1, i);
	CHECK_EQ(krecorder_held(r, 1), 30);
	CHECK_EQ(krecorder_take(r, 1, collect, &s, &dropped), 30);
	CHECK_EQ(s.n, 30);
	CHECK_EQ(s.bad, 0);
	CHECK_EQ(dropped, 0);
	CHECK_EQ(krecorder_held(r, 1), 0);
	/* CPU 0 had nothing */
	s = (struct seen){.cpu = 0, .next = 0};
	CHECK_EQ(krecorder_take(r, 0, collect, &s, &dropped), 0);
	CHECK_EQ(s.n, 0);
	/* after a take, only what came after */
	for (uint64_t i = 30; i < 35; i++)
		put(r, 1, i);
	s = (struct seen){.cpu = 1, .next = 30};
	CHECK_EQ(krecorder_take(r, 1, collect, &s, &dropped), 5);
	CHECK(s.n == 5 && s.next == 35 && !s.bad);
	krecorder_free(r);
}

/* Counts a take's records per CPU and keeps their sequence numbers in order. */
struct per_cpu {
	uint64_t seqs[64];
	unsigned int n;
	int cpu_bad;
	int cpu;
};

static int gather(void *arg, const struct kevent_record *rec)
{
	struct per_cpu *p = arg;

	if (rec->cpu != p->cpu)
		p->cpu_bad++;
	if (p->n < 64)
		p->seqs[p->n] = rec->ts - 1000;
	p->n++;
	return 0;
}

static void test_cpus(void)
{
	struct krecorder *r = krecorder_new(2, 4096);
	struct per_cpu p0 = {.cpu = 0}, p1 = {.cpu = 1};
	int ordered = 1;

	check_part = "cpus";
	for (uint64_t i = 0; i < 20; i++)
		put(r, (int)(i % 2), i);
	CHECK_EQ(krecorder_take(r, 0, gather, &p0, NULL), 10);
	CHECK_EQ(krecorder_take(r, 1, gather, &p1, NULL), 10);
	for (unsigned int i = 0; i < 10; i++)
		ordered &= p0.seqs[i] == 2 * i && p1.seqs[i] == 2 * i + 1;
	CHECK(ordered, "each CPU's records, in the order put");
	CHECK_EQ(p0.cpu_bad + p1.cpu_bad, 0);
	krecorder_free(r);
}

/* Many records of many sizes through a small recorder: kept = the newest that fit. */
static void test_wraparound(size_t cap)
{
	struct krecorder *r = krecorder_new(1, cap);
	uint64_t from = 0, total_dropped = 0, dropped;
	static const uint64_t batches[] = {1, 3, 7, 50, 333, 2000, 4, 129, 5000};

	check_part = "wraparound";
	for (unsigned int b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		uint64_t to = from + batches[b], first = model_first(from, to, cap);
		struct seen s = {.cpu = 0, .next = first};

		for (uint64_t i = from; i < to; i++)
			put(r, 0, i);
		CHECK_EQ(krecorder_held(r, 0), to - first);
		CHECK_EQ(krecorder_dropped(r, 0), total_dropped + (first - from));
		CHECK_EQ(krecorder_take(r, 0, collect, &s, &dropped), to - first);
		CHECK_EQ(s.n, to - first);
		CHECK(s.next == to, "cap %zu batch %u: the newest is %llu, not %llu", cap, b,
		      (unsigned long long)s.next - 1, (unsigned long long)to - 1);
		CHECK(s.bad == 0, "cap %zu batch %u: %d records not as put", cap, b, s.bad);
		CHECK_EQ(dropped, first - from);
		total_dropped += first - from;
		CHECK_EQ(krecorder_dropped(r, 0), total_dropped);
		CHECK_EQ(krecorder_held(r, 0), 0);
		from = to;
	}
	/* a take of an empty CPU: nothing, nothing dropped since */
	{
		struct seen s = {.cpu = 0, .next = from};

		CHECK_EQ(krecorder_take(r, 0, collect, &s, &dropped), 0);
		CHECK_EQ(dropped, 0);
	}
	krecorder_free(r);
}

/* Records of exactly a quarter of the bytes: four fit, the fifth drops one. */
static void test_exact_fit(void)
{
	/* len_of(seq) = 0 for seq = 0, 61, 122...: cost 24 each */
	struct krecorder *r = krecorder_new(1, 4 * KRECORDER_OVERHEAD);
	struct per_cpu p = {.cpu = 0};
	uint64_t dropped;

	check_part = "exact fit";
	for (uint64_t k = 0; k < 4; k++)
		put(r, 0, 61 * k);
	CHECK_EQ(krecorder_held(r, 0), 4);
	CHECK_EQ(krecorder_dropped(r, 0), 0);
	put(r, 0, 61 * 4);
	CHECK_EQ(krecorder_held(r, 0), 4);
	CHECK_EQ(krecorder_dropped(r, 0), 1);
	/* a record of 8 bytes of payload (cost 32) drops two of 24 */
	put(r, 0, 10); /* len_of(10) = 130 % 61 = 8 */
	CHECK_EQ(len_of(10), 8);
	CHECK_EQ(krecorder_held(r, 0), 3);
	CHECK_EQ(krecorder_dropped(r, 0), 3);
	CHECK_EQ(krecorder_take(r, 0, gather, &p, &dropped), 3);
	CHECK(p.n == 3 && p.seqs[0] == 61 * 3 && p.seqs[1] == 61 * 4 && p.seqs[2] == 10,
	      "kept %llu %llu %llu", (unsigned long long)p.seqs[0], (unsigned long long)p.seqs[1],
	      (unsigned long long)p.seqs[2]);
	CHECK_EQ(dropped, 3);
	krecorder_free(r);
}

static void test_refused(void)
{
	struct krecorder *r = krecorder_new(2, 128);
	uint8_t big[200] = {0};
	struct kevent_record rec = {&cls_a, 5,	  0, 1,	  big,
				    105,    NULL, 0, NULL}; /* cost 24 + 112 > 128 */
	struct seen s = {.cpu = 0};
	uint64_t dropped;

	check_part = "refused";
	put(r, 0, 0);
	CHECK(krecorder_sink(r, &rec) == 0);
	CHECK_EQ(krecorder_held(r, 0), 1); /* the one before stays */
	CHECK_EQ(krecorder_dropped(r, 0), 1);
	rec.cpu = 2;
	rec.len = 4;
	CHECK(krecorder_sink(r, &rec) == 0);
	rec.cpu = -1;
	CHECK(krecorder_sink(r, &rec) == 0);
	CHECK_EQ(krecorder_stray(r), 2);
	CHECK_EQ(krecorder_take(r, 0, collect, &s, &dropped), 1);
	CHECK_EQ(s.bad, 0);
	CHECK_EQ(dropped, 1);
	CHECK_EQ(krecorder_take(r, 5, collect, &s, &dropped), 0);
	CHECK_EQ(dropped, 0);

	krecorder_free(r);

	/* a sink that fails on the third of five: two handed, three dropped */
	r = krecorder_new(2, 4096);
	for (uint64_t i = 0; i < 5; i++)
		put(r, 1, i);
	s = (struct seen){.cpu = 1, .next = 0, .fail_after = 3};
	CHECK_EQ(krecorder_take(r, 1, collect, &s, &dropped), -EIO);
	CHECK(s.n == 2 && s.next == 2 && !s.bad);
	CHECK_EQ(dropped, 3);
	CHECK_EQ(krecorder_held(r, 1), 0);
	CHECK_EQ(krecorder_dropped(r, 1), 3);
	krecorder_free(r);
	CHECK(krecorder_new(0, 4096) == NULL);
}

int main(void)
{
	test_order();
	test_cpus();
	/* capacities that do and do not divide the costs; 4096: the smallest channel's page */
	test_wraparound(4096);
	test_wraparound(1000);
	test_wraparound(88);
	test_wraparound(8192 + 40);
	test_exact_fit();
	test_refused();
	return CHECK_RESULT();
}
