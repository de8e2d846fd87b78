/*
 * test_analysis_html.c - what `trax analyze --html` computes before
 * drawing: the unit a duration is shown in (html-hist.c) and the bins of
 * syscallstats' log-linear histograms (loghist.c): exact below 128 ns,
 * adjacent, as few as the target asks and no fewer, and counts that are
 * those of the values in each bin's [low, high), checked one by one on
 * pseudo-random durations; and the writer: a page in place only when
 * committed (an aborted one, an unwritable path leave nothing), its
 * items in the data element with text that cannot close the script.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/html-hist.h"
#include "analysis/loghist.h"
#include "check.h"

static void check_unit(double ns, const char *unit, double scale)
{
	double s = 0;
	const char *u = an_html_unit(ns, &s);

	CHECK(!strcmp(u, unit) && s == scale, "%.17g ns: %s (%g), expected %s (%g)", ns, u, s, unit,
	      scale);
}

/* Adjacent bins from min's to max's, summing to the count. */
static void check_shape(const struct an_loghist *h, const struct an_html_bin *b, size_t n)
{
	uint64_t sum = 0;

	CHECK(n >= 1 && n <= AN_LOGHIST_MAX_BINS, "%zu bins", n);
	for (size_t i = 0; i < n; i++) {
		CHECK(b[i].low < b[i].high, "bin %zu: [%g, %g)", i, b[i].low, b[i].high);
		if (i)
			CHECK(b[i].low == b[i - 1].high, "bin %zu starts at %g, %zu ends at %g", i,
			      b[i].low, i - 1, b[i - 1].high);
		sum += b[i].count;
	}
	CHECK(b[0].low <= (double)h->min && (double)h->min < b[0].high,
	      "min %" PRId64 " not in [%g, %g)", h->min, b[0].low, b[0].high);
	/* (<=: INT64_MAX is 2^63 as a double) */
	CHECK(b[n - 1].low <= (double)h->max && (double)h->max <= b[n - 1].high,
	      "max %" PRId64 " not in [%g, %g)", h->max, b[n - 1].low, b[n - 1].high);
	CHECK_EQ(sum, h->count);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	if (buf) {
		len = fread(buf, 1, (1 << 20) - 1, f);
		buf[len] = 0;
	}
	fclose(f);
	return buf;
}

/* The number of entries of dir (. and .. left out). */
static int entries(const char *dir)
{
	char cmd[512];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	if ((p = popen(cmd, "r"))) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void check_writer(void)
{
	char dir[] = "/tmp/trax-test-html.XXXXXX", path[300], err[256];
	static const struct an_html_bin bins[] = {{0, 1000, 3}, {1000, 2000, 0}, {2000, 3000, 7}};
	static const struct an_html_mark marks[] = {{"p50", 2500}};
	struct an_html_stat row = {"</script><b>x", 10, 5, 1500.5, 2999, 12.25, 1};
	struct an_html *h;
	char *page;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/p.html", dir);
	/* aborted: nothing left */
	h = an_html_open(path, err, sizeof(err));
	CHECK(h != NULL, "%s", err);
	CHECK_EQ(entries(dir), 1); /* the temporary file */
	an_html_abort(h);
	CHECK_EQ(entries(dir), 0);
	/* committed */
	h = an_html_open(path, err, sizeof(err));
	CHECK(h != NULL, "%s", err);
	if (!h)
		return;
	an_html_stats(h, "Stats", "Row", &row, 1);
	an_html_hist(h, "Durations <all>", "all", bins, 3, marks, 1);
	an_html_note(h, "a & b");
	CHECK(an_html_commit(h, "t</script>", err, sizeof(err)) == 0, "%s", err);
	CHECK_EQ(entries(dir), 1);
	page = slurp(path);
	CHECK(page != NULL);
	if (page) {
		CHECK(strstr(page, "id=\"trax-data\">{\"title\":\"t\\u003c/script\\u003e\"") !=
		      NULL);
		/* the only "</script>" closings are the template's two */
		int closings = 0;

		/* the only "</script>" are the template's two: the texts' are escaped */
		for (const char *p = page; (p = strstr(p, "</script>")); p++)
			closings++;
		CHECK_EQ(closings, 2);
		CHECK(strstr(page, "<title>trax analyze: t&lt;/script&gt;</title>") != NULL);
		CHECK(strstr(page, "\"key\":\"all\",\"unit\":\"us\",\"scale\":1000,"
				   "\"bins\":[[0,1000,3],[1000,2000,0],[2000,3000,7]],"
				   "\"marks\":[[\"p50\",2500]]") != NULL,
		      "the histogram's data");
		CHECK(strstr(page, "[\"\\u003c/script\\u003e\\u003cb\\u003ex\",10,\"5.000 ns\","
				   "\"1.500 us\",\"2.999 us\",\"12.250 ns\"]") != NULL,
		      "the table's row");
		CHECK(strstr(page, "\"a \\u0026 b\"") != NULL, "the note");
		free(page);
	}
	unlink(path);
	/* an unwritable path: a message naming it, no page */
	snprintf(path, sizeof(path), "%s/no/such/dir/p.html", dir);
	CHECK(an_html_open(path, err, sizeof(err)) == NULL);
	CHECK(strstr(err, path) != NULL, "%s", err);
	rmdir(dir);
}

int main(void)
{
	check_writer();
	struct an_html_bin b[AN_LOGHIST_MAX_BINS];
	struct an_loghist h;
	size_t n;

	/* the largest unit the value is at least one of */
	check_unit(0, "ns", 1);
	check_unit(999, "ns", 1);
	check_unit(1000, "us", 1e3);
	check_unit(999999, "us", 1e3);
	check_unit(1e6, "ms", 1e6);
	check_unit(999999999, "ms", 1e6);
	check_unit(1e9, "s", 1e9);
	check_unit(3.6e12, "s", 1e9);

	/* empty: no bin */
	an_loghist_init(&h);
	CHECK_EQ(an_loghist_bins(&h, 40, b), 0);

	/* below 128 ns every ns has its bin: 5, 5, 100 in 1-ns bins would be 96 > 40, 2-ns
	 * bins 49, 4-ns bins 25 (chunk 0: [4, 8) .. [60, 64), 15; chunk 1: [64, 68) .. [100,
	 * 104), 10) */
	an_loghist_add(&h, 5);
	an_loghist_add(&h, 5);
	an_loghist_add(&h, 100);
	n = an_loghist_bins(&h, 40, b);
	CHECK_EQ(n, 25);
	check_shape(&h, b, n);
	CHECK(b[0].low == 4 && b[0].high == 8 && b[0].count == 2);
	CHECK(b[n - 1].low == 100 && b[n - 1].high == 104 && b[n - 1].count == 1);
	/* a target of 100: 1-ns bins, 96 > AN_LOGHIST_MAX_BINS: clamped, 2-ns bins 49 */
	n = an_loghist_bins(&h, 100, b);
	CHECK_EQ(n, 49);
	CHECK(b[0].low == 4 && b[0].high == 6 && b[0].count == 2);
	an_loghist_free(&h);

	/* 1 ns to 1 s: one bin per power of two, [0, 64), [64, 128), [128, 256) .. [2^29, 2^30) */
	an_loghist_init(&h);
	an_loghist_add(&h, 1);
	an_loghist_add(&h, 1000000000);
	an_loghist_add(&h, -5); /* counted as 0 */
	n = an_loghist_bins(&h, 40, b);
	CHECK_EQ(n, 25);
	check_shape(&h, b, n);
	CHECK(b[0].low == 0 && b[0].high == 64 && b[0].count == 2);
	CHECK(b[2].low == 128 && b[2].high == 256 && b[2].count == 0);
	CHECK(b[24].low == 536870912.0 && b[24].high == 1073741824.0 && b[24].count == 1);
	an_loghist_free(&h);

	/* the largest durations */
	an_loghist_init(&h);
	an_loghist_add(&h, INT64_MAX);
	an_loghist_add(&h, (int64_t)1 << 62);
	n = an_loghist_bins(&h, 40, b);
	check_shape(&h, b, n);
	CHECK(b[n - 1].high == 9223372036854775808.0, "last high %g", b[n - 1].high);
	an_loghist_free(&h);

	/* pseudo-random durations over three decades: each bin holds exactly the values in it */
	for (int round = 0; round < 3; round++) {
		static int64_t v[20000];
		uint64_t x = 88172645463325252ULL + (uint64_t)round;
		size_t target = round == 0 ? 40 : round == 1 ? 12 : 60;

		an_loghist_init(&h);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			v[i] = 1000 + (int64_t)((x >> 33) % (round == 2 ? 3000 : 5000000));
			an_loghist_add(&h, v[i]);
		}
		n = an_loghist_bins(&h, target, b);
		check_shape(&h, b, n);
		for (size_t k = 0; k < n; k++) {
			uint64_t c = 0;

			for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
				c += (double)v[i] >= b[k].low && (double)v[i] < b[k].high;
			CHECK(c == b[k].count,
			      "round %d bin %zu [%g, %g): %" PRIu64 ", values %" PRIu64, round, k,
			      b[k].low, b[k].high, b[k].count, c);
		}
		/* the finest bins that fit: halving them would make more than the target; when
		 * none fit (12 for 3 decades), one per power of two */
		if (n <= target)
			CHECK(2 * n > target, "round %d: %zu bins, twice as many fit in %zu", round,
			      n, target);
		else
			for (size_t k = 1; k < n; k++)
				CHECK(b[k].high == 2 * b[k].low,
				      "round %d: %zu bins, bin %zu [%g, %g)", round, n, k, b[k].low,
				      b[k].high);
		CHECK(round != 1 || n == 13, "round 1: %zu bins", n);
		an_loghist_free(&h);
	}
	return CHECK_RESULT();
}
