/*
 * an-spans.c - `trax analyze spans --begin-event B --end-event E`: pairs
 * of events turned into durations, for any trace (user space included):
 * count, min, average, max, standard deviation, percentiles, a histogram,
 * the slowest spans, and the events left unpaired.
 *
 * Pairing: per thread (the vtid/tid context), else per stream, or by the
 * value of a field both events have (--match FIELD). Spans nest: each key
 * has a stack of open begins, an end closes the latest.
 *
 * Memory does not grow with the number of spans: the durations go to a
 * log-linear histogram (1024 bins per power of two, exact below 2048 ns,
 * within 1/1024 above; each bin knows its smallest and largest value), the
 * slowest N to a heap; what grows is one small record per key (thread,
 * stream or --match value) ever seen. Formats: docs/analyses.md, "spans".
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/table.h"

#define SUB_BITS 10
#define SUB	 (1 << SUB_BITS)
#define NCHUNKS	 54 /* bins 0 .. 55295: durations up to 2^63 */
#define NBUCKETS 20 /* of the histogram printed */

enum sp_key { KEY_NONE, KEY_TID, KEY_STREAM, KEY_FIELD };

struct sp_cls {
	uint8_t init;
	uint8_t begin, end; /* the class is the begin event, the end event */
	uint8_t key;	    /* enum sp_key */
	struct kev_ref ref; /* KEY_FIELD: the field */
};

struct sp_stack {
	int64_t *ts;
	uint32_t n, cap;
};

struct sp_bin {
	uint64_t count;
	int64_t min, max;
};

/* One of the slowest spans. */
struct sp_top {
	int64_t dur, begin, end;
	uint8_t key;
	int64_t id;	/* tid, stream id, or the field's integer */
	char label[48]; /* the field's string */
	uint64_t order; /* of completion: ties keep the earliest */
};

struct spans {
	struct an_run *run;
	struct sp_cls *cls;
	size_t ncls;
	struct an_idmap keys;
	struct sp_stack *stacks;
	size_t nstacks, cap_stacks;
	struct sp_bin *bins[NCHUNKS];
	uint64_t count;
	int64_t min, max;
	__int128 sum;
	unsigned __int128 sumsq;
	int sumsq_overflow;
	struct sp_top *top; /* a min-heap on (dur, -order) */
	size_t ntop;
	uint64_t unmatched_ends, no_key;
	int begin_seen, end_seen;
	int failed;
};

static size_t bin_of(int64_t v)
{
	int msb, shift;

	if (v < 2 * SUB)
		return (size_t)(v < 0 ? 0 : v);
	msb = 63 - __builtin_clzll((unsigned long long)v);
	shift = msb - SUB_BITS;
	return (size_t)(shift + 1) * SUB + (size_t)((v >> shift) - SUB);
}

static struct kev_ref find_field(const struct trax_event *ev, const char *name)
{
	/* Babeltrace 1's order of scopes, as kev's */
	static const enum trax_scope order[] = {
	    TRAX_SCOPE_PAYLOAD,	     TRAX_SCOPE_EVENT_CONTEXT,	TRAX_SCOPE_STREAM_EVENT_CONTEXT,
	    TRAX_SCOPE_EVENT_HEADER, TRAX_SCOPE_PACKET_CONTEXT, TRAX_SCOPE_PACKET_HEADER,
	};
	struct kev_ref ref = {-1, 0};

	for (size_t s = 0; s < sizeof(order) / sizeof(order[0]); s++) {
		size_t n = trax_event_field_count(ev, order[s]);

		for (size_t i = 0; i < n && i <= UINT16_MAX; i++) {
			const char *fn =
			    trax_field_name(trax_event_field_by_index(ev, order[s], i));

			if (fn && !strcmp(fn, name)) {
				ref.scope = (int8_t)order[s];
				ref.index = (uint16_t)i;
				return ref;
			}
		}
	}
	return ref;
}

static const struct sp_cls *cls_of(struct spans *s, const struct trax_event *ev,
				   const struct kev_class *c)
{
	const struct an_options *o = s->run->o;
	struct sp_cls *k;

	if (c->id >= s->ncls) {
		size_t n = s->ncls ? s->ncls : 64;

		while (n <= c->id)
			n *= 2;
		if (!(k = realloc(s->cls, n * sizeof(*k)))) {
			s->failed = 1;
			return NULL;
		}
		memset(k + s->ncls, 0, (n - s->ncls) * sizeof(*k));
		s->cls = k;
		s->ncls = n;
	}
	k = &s->cls[c->id];
	if (k->init)
		return k;
	k->init = 1;
	k->begin = !strcmp(c->name, o->begin_event);
	k->end = !strcmp(c->name, o->end_event);
	if (!k->begin && !k->end)
		return k;
	s->begin_seen |= k->begin;
	s->end_seen |= k->end;
	if (o->match) {
		k->ref = find_field(ev, o->match);
		k->key = k->ref.scope >= 0 ? KEY_FIELD : KEY_NONE;
	} else
		k->key = kev_has(c, KR_CTX_TID) ? KEY_TID : KEY_STREAM;
	return k;
}

/* The event's key (and what the top list shows of it): 0, or -1 without one. */
static int key_of(const struct trax_event *ev, const struct kev_class *c, const struct sp_cls *k,
		  uint64_t *key, int64_t *id, const char **str)
{
	const struct trax_field *f;
	uint64_t u;

	*str = NULL;
	switch (k->key) {
	case KEY_TID:
		if (kev_int(ev, c, KR_CTX_TID, id))
			return -1;
		*key = (uint64_t)*id;
		return 0;
	case KEY_STREAM:
		*id = (int64_t)trax_event_stream_id(ev);
		*key = ((uint64_t)trax_event_trace_index(ev) << 48) ^
		       (trax_event_stream_class_id(ev) << 40) ^ trax_event_stream_id(ev);
		return 0;
	case KEY_FIELD:
		f = trax_event_field_by_index(ev, (enum trax_scope)k->ref.scope, k->ref.index);
		if (!f)
			return -1;
		if (trax_field_int(f, id) == 0) {
			*key = (uint64_t)*id;
			return 0;
		}
		if (trax_field_uint(f, &u) == 0) {
			*id = (int64_t)u;
			*key = u;
			return 0;
		}
		if ((*str = trax_field_string(f, NULL))) {
			/* FNV-1a: strings that collide would be paired (2^-64 a pair) */
			uint64_t h = 0xcbf29ce484222325ULL;

			for (const unsigned char *p = (const unsigned char *)*str; *p; p++)
				h = (h ^ *p) * 0x100000001b3ULL;
			*key = h;
			*id = 0;
			return 0;
		}
		return -1;
	default:
		return -1;
	}
}

static struct sp_stack *stack_of(struct spans *s, uint64_t key, int create)
{
	uint32_t i = an_idmap_get(&s->keys, key);

	if (i != AN_IDMAP_NONE)
		return &s->stacks[i];
	if (!create)
		return NULL;
	if (s->nstacks == s->cap_stacks) {
		size_t cap = s->cap_stacks ? s->cap_stacks * 2 : 64;
		struct sp_stack *v = realloc(s->stacks, cap * sizeof(*v));

		if (!v)
			goto oom;
		s->stacks = v;
		s->cap_stacks = cap;
	}
	if (an_idmap_put(&s->keys, key, (uint32_t)s->nstacks))
		goto oom;
	memset(&s->stacks[s->nstacks], 0, sizeof(s->stacks[0]));
	return &s->stacks[s->nstacks++];
oom:
	s->failed = 1;
	return NULL;
}

static int top_less(const struct sp_top *a, const struct sp_top *b)
{
	return a->dur != b->dur ? a->dur < b->dur : a->order > b->order;
}

static void top_down(struct sp_top *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct sp_top t;

		if (l < n && top_less(&h[l], &h[m]))
			m = l;
		if (r < n && top_less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void top_add(struct spans *s, const struct sp_top *t)
{
	size_t n = (size_t)s->run->o->top;

	if (!n)
		return;
	if (s->ntop < n) {
		size_t i = s->ntop++;

		s->top[i] = *t;
		while (i && top_less(&s->top[i], &s->top[(i - 1) / 2])) {
			struct sp_top x = s->top[i];

			s->top[i] = s->top[(i - 1) / 2];
			s->top[(i - 1) / 2] = x;
			i = (i - 1) / 2;
		}
	} else if (top_less(&s->top[0], t)) {
		s->top[0] = *t;
		top_down(s->top, s->ntop, 0);
	}
}

static void add_span(struct spans *s, int64_t begin, int64_t end, uint8_t key, int64_t id,
		     const char *str)
{
	int64_t d = end - begin;
	size_t b = bin_of(d);
	struct sp_bin *bin;
	unsigned __int128 sq = (unsigned __int128)((unsigned __int128)(uint64_t)d * (uint64_t)d);

	if (!s->bins[b / SUB] && !(s->bins[b / SUB] = calloc(SUB, sizeof(struct sp_bin)))) {
		s->failed = 1;
		return;
	}
	bin = &s->bins[b / SUB][b % SUB];
	if (!bin->count || d < bin->min)
		bin->min = d;
	if (!bin->count || d > bin->max)
		bin->max = d;
	bin->count++;
	if (!s->count || d < s->min)
		s->min = d;
	if (!s->count || d > s->max)
		s->max = d;
	s->count++;
	s->sum += d;
	if (s->sumsq + sq < s->sumsq)
		s->sumsq_overflow = 1;
	s->sumsq += sq;
	if (s->run->o->top > 0) {
		struct sp_top t = {
		    .dur = d, .begin = begin, .end = end, .key = key, .id = id, .order = s->count};

		if (str)
			snprintf(t.label, sizeof(t.label), "%s", str);
		top_add(s, &t);
	}
}

static int on_event(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	struct spans *s = an;
	const struct sp_cls *k = cls_of(s, ev, c);
	struct sp_stack *st;
	uint64_t key;
	int64_t id;
	const char *str;

	if (!k)
		return -1;
	if (!k->begin && !k->end)
		return 0;
	if (key_of(ev, c, k, &key, &id, &str)) {
		s->no_key++;
		return 0;
	}
	if (k->end && (st = stack_of(s, key, 0)) && st->n) {
		add_span(s, st->ts[--st->n], ts, k->key, id, str);
		return s->failed ? -1 : 0;
	}
	if (!k->begin) {
		s->unmatched_ends++;
		return 0;
	}
	if (!(st = stack_of(s, key, 1)))
		return -1;
	if (st->n == st->cap) {
		uint32_t cap = st->cap ? st->cap * 2 : 4;
		int64_t *v = realloc(st->ts, cap * sizeof(*v));

		if (!v) {
			s->failed = 1;
			return -1;
		}
		st->ts = v;
		st->cap = cap;
	}
	st->ts[st->n++] = ts;
	return 0;
}

static void *create(struct an_run *run)
{
	const struct an_options *o = run->o;
	struct spans *s;

	if (!o->begin_event || !o->end_event) {
		snprintf(run->err, run->errlen,
			 "spans needs --begin-event NAME and --end-event NAME (e.g. "
			 "--begin-event prov:enter --end-event prov:exit)");
		return NULL;
	}
	if (!(s = calloc(1, sizeof(*s))))
		return NULL;
	s->run = run;
	an_idmap_init(&s->keys);
	if (o->top > 0 && !(s->top = calloc((size_t)o->top, sizeof(*s->top)))) {
		free(s);
		return NULL;
	}
	return s;
}

static void destroy(void *an)
{
	struct spans *s = an;

	for (size_t i = 0; i < s->nstacks; i++)
		free(s->stacks[i].ts);
	free(s->stacks);
	for (size_t i = 0; i < NCHUNKS; i++)
		free(s->bins[i]);
	free(s->cls);
	free(s->top);
	an_idmap_free(&s->keys);
	free(s);
}

/* The nearest-rank percentile p (the smallest d with at least p % of the spans <= d). */
static int64_t percentile(const struct spans *s, double p)
{
	uint64_t rank = (uint64_t)ceil(p / 100 * (double)s->count), cum = 0;

	if (rank < 1)
		rank = 1;
	for (size_t ch = 0; ch < NCHUNKS; ch++) {
		if (!s->bins[ch])
			continue;
		for (size_t i = 0; i < SUB; i++) {
			const struct sp_bin *b = &s->bins[ch][i];

			if (!b->count)
				continue;
			if (cum + b->count >= rank)
				return cum + b->count == rank ? b->max : b->min;
			cum += b->count;
		}
	}
	return s->max;
}

/* Counts of NBUCKETS equal buckets from min to max (lttng-analyses' freq rule). */
static size_t buckets(const struct spans *s, uint64_t *counts, double *step)
{
	size_t n = s->max > s->min ? NBUCKETS : 1;

	memset(counts, 0, NBUCKETS * sizeof(*counts));
	*step = (double)(s->max - s->min) / NBUCKETS;
	for (size_t ch = 0; ch < NCHUNKS; ch++) {
		if (!s->bins[ch])
			continue;
		for (size_t i = 0; i < SUB; i++) {
			const struct sp_bin *b = &s->bins[ch][i];
			size_t k = 0;

			if (!b->count)
				continue;
			/* a bin spans at most 1/1024 of its values: counted where its smallest is
			 */
			if (n > 1) {
				double x = (double)(b->min - s->min) / *step;

				k = x >= NBUCKETS - 1 ? NBUCKETS - 1 : (size_t)x;
			}
			counts[k] += b->count;
		}
	}
	return n;
}

static double stdev(const struct spans *s)
{
	/* sample deviation: (n * sum(d^2) - sum(d)^2) / (n (n - 1)), exact in 128 bits */
	long double n = (long double)s->count, v;

	if (!s->sumsq_overflow && s->count < (1ULL << 20)) {
		unsigned __int128 a = (unsigned __int128)s->count * s->sumsq;
		unsigned __int128 b = (unsigned __int128)(s->sum * s->sum);

		if (a / s->count == s->sumsq)
			return (double)sqrtl((long double)(a - b) / (n * (n - 1)));
	}
	v = ((long double)s->sumsq - (long double)s->sum * (long double)s->sum / n) / (n - 1);
	return (double)sqrtl(v > 0 ? v : 0);
}

static const double pcts[] = {50, 90, 95, 99, 99.9};
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))

static int cmp_top(const void *a, const void *b)
{
	const struct sp_top *x = a, *y = b;

	return top_less(x, y) ? 1 : top_less(y, x) ? -1 : 0;
}

static void key_text(char *buf, size_t len, const struct sp_top *t)
{
	if (t->key == KEY_TID)
		snprintf(buf, len, "tid %" PRId64, t->id);
	else if (t->key == KEY_STREAM)
		snprintf(buf, len, "stream %" PRId64, t->id);
	else if (t->label[0])
		snprintf(buf, len, "%s", t->label);
	else
		snprintf(buf, len, "%" PRId64, t->id);
}

static const char *how(const struct an_options *o, char *buf, size_t len)
{
	if (o->match)
		snprintf(buf, len, "by field %s", o->match);
	else
		snprintf(buf, len, "per thread (vtid/tid context), else per stream");
	return buf;
}

static uint64_t open_begins(const struct spans *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->nstacks; i++)
		n += s->stacks[i].n;
	return n;
}

static void us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%0.03f", ns / 1000);
}

static int report_json(struct spans *s, int64_t begin, int64_t end, double sd, uint64_t *counts,
		       size_t nb, double step)
{
	struct an_run *run = s->run;
	struct an_mi mi;
	char hbuf[128];

	an_mi_begin(&mi, run->out);
	an_mi_table(&mi, "span-stats", NULL, begin, end);
	an_mi_row(&mi);
	an_mi_string(&mi, run->o->begin_event);
	an_mi_string(&mi, run->o->end_event);
	an_mi_string(&mi, how(run->o, hbuf, sizeof(hbuf)));
	an_mi_number(&mi, "number", (int64_t)s->count);
	an_mi_number(&mi, "duration", s->count ? s->min : 0);
	an_mi_float(&mi, "duration", s->count ? (double)s->sum / (double)s->count : 0);
	an_mi_number(&mi, "duration", s->count ? s->max : 0);
	if (s->count >= 2)
		an_mi_float(&mi, "duration", sd);
	else
		an_mi_unknown(&mi);
	an_mi_row_end(&mi);
	an_mi_table_end(&mi);
	an_mi_table(&mi, "span-percentiles", NULL, begin, end);
	for (size_t i = 0; s->count && i < NPCTS; i++) {
		an_mi_row(&mi);
		an_mi_float(&mi, "number", pcts[i]);
		an_mi_number(&mi, "duration", percentile(s, pcts[i]));
		an_mi_row_end(&mi);
	}
	an_mi_table_end(&mi);
	an_mi_table(&mi, "freq", NULL, begin, end);
	for (size_t i = 0; s->count && i < nb; i++) {
		an_mi_row(&mi);
		an_mi_float(&mi, "duration", (double)s->min + (double)i * step);
		an_mi_float(&mi, "duration",
			    nb > 1 ? (double)s->min + (double)(i + 1) * step : (double)s->max);
		an_mi_number(&mi, "number", (int64_t)counts[i]);
		an_mi_row_end(&mi);
	}
	an_mi_table_end(&mi);
	an_mi_table(&mi, "top-span", NULL, begin, end);
	for (size_t i = 0; i < s->ntop; i++) {
		const struct sp_top *t = &s->top[i];

		an_mi_row(&mi);
		an_mi_number(&mi, "timestamp", t->begin);
		an_mi_number(&mi, "timestamp", t->end);
		an_mi_number(&mi, "duration", t->dur);
		if (t->key == KEY_TID)
			an_mi_process(&mi, NULL, -1, t->id);
		else if (t->key == KEY_STREAM)
			an_mi_named(&mi, "stream", "id",
				    (snprintf(hbuf, sizeof(hbuf), "%" PRId64, t->id), hbuf));
		else if (t->label[0])
			an_mi_string(&mi, t->label);
		else
			an_mi_number(&mi, "number", t->id);
		an_mi_row_end(&mi);
	}
	an_mi_table_end(&mi);
	an_mi_table(&mi, "unmatched", NULL, begin, end);
	an_mi_row(&mi);
	an_mi_number(&mi, "number", (int64_t)open_begins(s));
	an_mi_number(&mi, "number", (int64_t)s->unmatched_ends);
	an_mi_number(&mi, "number", (int64_t)s->no_key);
	an_mi_row_end(&mi);
	an_mi_table_end(&mi);
	return an_mi_end(&mi) ? -1 : 0;
}

static void report_text(struct spans *s, int64_t begin, int64_t end, double sd, uint64_t *counts,
			size_t nb, double step)
{
	struct an_run *run = s->run;
	FILE *out = run->out;
	char a[64], b[64], c[64], d[64], e[64];
	uint64_t maxc = 0;

	an_print_timerange(run, begin, end);
	fprintf(out, "Spans from %s to %s, %s\n\n", run->o->begin_event, run->o->end_event,
		how(run->o, a, sizeof(a)));
	us(a, sizeof(a), s->count ? (double)s->min : 0);
	us(b, sizeof(b), s->count ? (double)s->sum / (double)s->count : 0);
	us(c, sizeof(c), s->count ? (double)s->max : 0);
	if (s->count >= 2)
		us(d, sizeof(d), sd);
	else
		snprintf(d, sizeof(d), "?");
	fprintf(out, "Span duration (us)\n%-12s %14s %14s %14s %14s\n", "Count", "Min", "Avg",
		"Max", "Stdev");
	fprintf(out, "%-12" PRIu64 " %14s %14s %14s %14s\n", s->count, a, b, c, d);
	if (s->count) {
		fprintf(out, "\nPercentiles (us)\n");
		for (size_t i = 0; i < NPCTS; i++) {
			snprintf(e, sizeof(e), "p%g", pcts[i]);
			us(a, sizeof(a), (double)percentile(s, pcts[i]));
			fprintf(out, "%-12s %14s\n", e, a);
		}
		for (size_t i = 0; i < nb; i++)
			if (counts[i] > maxc)
				maxc = counts[i];
		fprintf(out, "\nSpan duration distribution (us)\n");
		for (int i = 0; i < 80; i++)
			fputc('#', out);
		fputc('\n', out);
		for (size_t i = 0; i < nb; i++) {
			int w = maxc ? (int)(72 * counts[i] / maxc) : 0;

			us(a, sizeof(a), (double)s->min + (double)i * step);
			fprintf(out, "%14s ", a);
			for (int k = 0; k < 72; k++)
				fputs(k < w ? "\u2588" : " ", out);
			fprintf(out, " %" PRIu64 "\n", counts[i]);
		}
	}
	if (s->ntop) {
		fprintf(out, "\nSlowest %zu spans\n%-29s %-29s %14s  %s\n", s->ntop, "Begin", "End",
			"Duration (us)", "Key");
		for (size_t i = 0; i < s->ntop; i++) {
			const struct sp_top *t = &s->top[i];

			key_text(e, sizeof(e), t);
			us(c, sizeof(c), (double)t->dur);
			fprintf(out, "%-29s %-29s %14s  %s\n",
				an_format_time(a, sizeof(a), t->begin, 1, run->o->gmt),
				an_format_time(b, sizeof(b), t->end, 1, run->o->gmt), c, e);
		}
	}
	fprintf(out,
		"\nUnmatched: %" PRIu64 " begin events without an end, %" PRIu64
		" end events without a begin",
		open_begins(s), s->unmatched_ends);
	if (run->o->match)
		fprintf(out, ", %" PRIu64 " events without the field %s", s->no_key, run->o->match);
	else if (s->no_key)
		fprintf(out, ", %" PRIu64 " events without a thread", s->no_key);
	fputc('\n', out);
}

static int report(void *an)
{
	struct spans *s = an;
	struct an_run *run = s->run;
	uint64_t counts[NBUCKETS];
	double step = 0, sd = 0;
	size_t nb = 0;

	if (s->failed) {
		snprintf(run->err, run->errlen, "out of memory");
		return AN_FAIL;
	}
	if (!s->begin_seen || !s->end_seen) {
		const char *name = !s->begin_seen ? run->o->begin_event : run->o->end_event;

		snprintf(run->err, run->errlen,
			 "the trace has no %s event (in the time range); record it with: trax "
			 "enable-event -u %s (-k for a kernel event)",
			 name, name);
		return AN_FAIL;
	}
	if (s->count) {
		nb = buckets(s, counts, &step);
		if (s->count >= 2)
			sd = stdev(s);
	}
	qsort(s->top, s->ntop, sizeof(*s->top), cmp_top);
	if (run->o->json)
		return report_json(s, run->period_begin, run->last_ts, sd, counts, nb, step)
			   ? (snprintf(run->err, run->errlen, "out of memory"), AN_FAIL)
			   : AN_OK;
	report_text(s, run->period_begin, run->last_ts, sd, counts, nb, step);
	return AN_OK;
}

/* --html: the statistics, the histogram of report()'s buckets, the percentiles marked on it. */
static int html(void *an, struct an_html *page)
{
	struct spans *s = an;
	struct an_html_bin bins[NBUCKETS];
	struct an_html_mark marks[NPCTS];
	char names[NPCTS][16], title[512];
	uint64_t counts[NBUCKETS];
	double step = 0;
	size_t nb = 0;
	struct an_html_stat row = {
	    .label = title,
	    .count = s->count,
	    .min = (double)s->min,
	    .avg = s->count ? (double)s->sum / (double)s->count : 0,
	    .max = (double)s->max,
	    .stdev = s->count >= 2 ? stdev(s) : 0,
	    .has_stdev = s->count >= 2,
	};

	snprintf(title, sizeof(title), "%s to %s", s->run->o->begin_event, s->run->o->end_event);
	an_html_stats(page, "Span duration", "Spans", &row, 1);
	if (!s->count) {
		an_html_note(page, "No span: no histogram.");
		return 0;
	}
	nb = buckets(s, counts, &step);
	for (size_t i = 0; i < nb; i++) {
		bins[i].low = (double)s->min + (double)i * step;
		bins[i].high = nb > 1 ? (double)s->min + (double)(i + 1) * step : (double)s->max;
		bins[i].count = counts[i];
	}
	for (size_t i = 0; i < NPCTS; i++) {
		snprintf(names[i], sizeof(names[i]), "p%g", pcts[i]);
		marks[i].label = names[i];
		marks[i].value = (double)percentile(s, pcts[i]);
	}
	snprintf(title, sizeof(title), "Span duration distribution, %s to %s",
		 s->run->o->begin_event, s->run->o->end_event);
	an_html_hist(page, title, "spans", bins, nb, marks, NPCTS);
	return 0;
}

const struct an_def an_spans_def = {
    .name = "spans",
    .summary = "durations between pairs of events (--begin-event, --end-event), any trace",
    .create = create,
    .destroy = destroy,
    .event = on_event,
    .report = report,
    .html = html,
};
