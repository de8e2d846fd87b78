/*
 * test_analysis_spool.c - the analyses' spool (src/analysis/spool.c):
 * random records with many equal keys, under caps that make it spill
 * hundreds of runs, come back as a stable sort would give them (qsort
 * on (key, order added) is the oracle), every one once, on every pass;
 * without a comparator in the order added; an empty spool; a temporary
 * directory that does not exist is an error said, not a crash. The top
 * lists (topk.c) keep the k first of random records as qsort orders them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/spool.h"
#include "analysis/topk.h"
#include "check.h"

struct rec {
	uint32_t key, seq; /* seq: the order added */
	uint64_t payload;  /* a function of both: a record torn apart would show */
};

static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static int by_key_seq(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = by_key(a, b);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

static uint64_t payload_of(uint32_t key, uint32_t seq)
{
	return ((uint64_t)key << 32 | seq) * 0x9e3779b97f4a7c15ull;
}

/* n records with keys in [0, range), spool with the given cap, sorted or not, read twice */
static void check_case(size_t n, uint32_t range, size_t cap, int sorted, int expect_spill)
{
	struct rec *v = malloc((n + 1) * sizeof(*v));
	struct an_spool *s;
	uint64_t x = n * 31 + range;
	char part[96];

	snprintf(part, sizeof(part), "n %zu, keys %u, cap %zu, %s", n, range, cap,
		 sorted ? "sorted" : "unsorted");
	check_part = part;
	an_spool_set_cap(cap);
	s = an_spool_new(sizeof(struct rec), sorted ? by_key : NULL);
	CHECK(s != NULL);
	if (!s || !v) {
		free(v);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		v[i].key = (uint32_t)(lcg(&x) % range);
		v[i].seq = (uint32_t)i;
		v[i].payload = payload_of(v[i].key, v[i].seq);
		CHECK(an_spool_add(s, &v[i]) == 0, "%s", an_spool_error(s));
	}
	CHECK_EQ(an_spool_count(s), n);
	if (expect_spill)
		CHECK(an_spool_runs(s) > 1, "%zu runs", an_spool_runs(s));
	else
		CHECK_EQ(an_spool_runs(s), 0);
	if (sorted)
		qsort(v, n, sizeof(*v), by_key_seq);
	for (int pass = 0; pass < 2; pass++) {
		const struct rec *r;
		size_t k = 0, bad = 0;

		CHECK(an_spool_rewind(s) == 0, "%s", an_spool_error(s));
		while ((r = an_spool_next(s))) {
			if (k < n && (r->key != v[k].key || r->seq != v[k].seq ||
				      r->payload != payload_of(r->key, r->seq))) {
				if (!bad)
					CHECK(0,
					      "pass %d, record %zu: key %u seq %u, expected %u %u",
					      pass, k, r->key, r->seq, v[k].key, v[k].seq);
				bad++;
			}
			k++;
		}
		CHECK_EQ(k, n);
		CHECK_EQ(bad, 0);
		CHECK(!*an_spool_error(s), "%s", an_spool_error(s));
	}
	an_spool_free(s);
	free(v);
	an_spool_set_cap(0);
	check_part = NULL;
}

static void check_bad_tmpdir(void)
{
	struct an_spool *s;
	struct rec r = {1, 2, 3};
	int failed = 0;
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;

	setenv("TMPDIR", "/nonexistent-trax-spool-dir", 1);
	an_spool_set_cap(64);
	s = an_spool_new(sizeof(r), by_key);
	for (int i = 0; i < 100 && s; i++)
		failed |= an_spool_add(s, &r) != 0;
	CHECK(failed, "adding past the cap with no temporary directory succeeded");
	CHECK(s && strstr(an_spool_error(s), "temporary file"), "error: %s",
	      s ? an_spool_error(s) : "(no spool)");
	CHECK(s && an_spool_rewind(s) == -1);
	CHECK(s && an_spool_next(s) == NULL);
	an_spool_free(s);
	an_spool_set_cap(0);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

/* k first of n random records (keys with ties; seq makes the order total) */
static void check_topk(size_t n, uint32_t range, size_t k)
{
	struct rec *v = malloc((n + 1) * sizeof(*v));
	struct an_topk t;
	uint64_t x = n + k * 7;
	size_t want = k < n ? k : n;
	char part[64];

	snprintf(part, sizeof(part), "topk: n %zu, keys %u, k %zu", n, range, k);
	check_part = part;
	CHECK(v && an_topk_init(&t, sizeof(struct rec), k, by_key_seq) == 0);
	if (!v) {
		free(v);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		v[i].key = (uint32_t)(lcg(&x) % range);
		v[i].seq = (uint32_t)i;
		v[i].payload = payload_of(v[i].key, v[i].seq);
		an_topk_add(&t, &v[i]);
	}
	an_topk_sort(&t);
	qsort(v, n, sizeof(*v), by_key_seq);
	CHECK_EQ(t.n, want);
	for (size_t i = 0; i < t.n && i < want; i++) {
		const struct rec *r = (const struct rec *)(t.v + i * t.sz);

		if (r->key != v[i].key || r->seq != v[i].seq || r->payload != v[i].payload) {
			CHECK(0, "rank %zu: key %u seq %u, expected %u %u", i, r->key, r->seq,
			      v[i].key, v[i].seq);
			break;
		}
	}
	an_topk_free(&t);
	free(v);
	check_part = NULL;
}

int main(void)
{
	check_topk(10000, 30, 11);
	check_topk(10000, 1000000, 1);
	check_topk(5, 3, 11);
	check_topk(0, 3, 4);
	check_topk(1000, 2, 1000);
	/* a record is 16 bytes (+4 of index): a 400-byte cap holds 20, 100000 records make 5000
	 * runs */
	check_case(100000, 50, 400, 1, 1);
	check_case(100000, 1000000, 4096, 1, 1);
	check_case(30000, 3, 1000, 1, 1);
	check_case(50000, 100, 1 << 20, 1, 0);
	check_case(1, 10, 400, 1, 0);
	check_case(0, 10, 400, 1, 0);
	check_case(100000, 50, 400, 0, 1);
	check_case(1000, 50, 1 << 20, 0, 0);
	/* a cap below two records still works (two at a time) */
	check_case(1000, 7, 1, 1, 1);
	check_bad_tmpdir();
	/* TRAX_ANALYZE_MEM: bytes, with k/M/G */
	setenv("TRAX_ANALYZE_MEM", "3k", 1);
	CHECK_EQ(an_spool_cap(), 3072);
	setenv("TRAX_ANALYZE_MEM", "5M", 1);
	CHECK_EQ(an_spool_cap(), 5 << 20);
	unsetenv("TRAX_ANALYZE_MEM");
	CHECK_EQ(an_spool_cap(), 32 << 20);
	return CHECK_RESULT();
}
