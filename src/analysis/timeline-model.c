/*
 * timeline-model.c - the timeline's rows (timeline-impl.h): a row per CPU,
 * thread or user-space stream, each a list of state changes, marks and
 * spans; interned strings.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline-impl.h"

void tl_strings_init(struct tl_strings *s)
{
	memset(s, 0, sizeof(*s));
	an_idmap_init(&s->map);
}

void tl_strings_free(struct tl_strings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	an_idmap_free(&s->map);
	memset(s, 0, sizeof(*s));
}

/* FNV-1a, 64 bits; probing on to the next key when another string has the hash. */
static uint64_t hash(const char *p)
{
	uint64_t h = 1469598103934665603ull;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return h;
}

uint32_t tl_intern(struct tl_strings *s, const char *str)
{
	uint64_t h = hash(str ? str : "");
	uint32_t id;
	int failed = 0;
	char **v;

	if (!str)
		str = "";
	while ((id = an_idmap_get(&s->map, h)) != AN_IDMAP_NONE) {
		if (!strcmp(s->v[id], str))
			return id;
		h++;
	}
	v = an_grow(s->v, &s->cap, s->n + 1, sizeof(*v), &failed);
	if (!v)
		return UINT32_MAX;
	s->v = v;
	if (!(v[s->n] = strdup(str)))
		return UINT32_MAX;
	if (an_idmap_put(&s->map, h, (uint32_t)s->n)) {
		free(v[s->n]);
		return UINT32_MAX;
	}
	return (uint32_t)s->n++;
}

void tl_model_init(struct tl_model *m)
{
	memset(m, 0, sizeof(*m));
	an_idmap_init(&m->cpu_rows);
	an_idmap_init(&m->thread_rows);
	an_idmap_init(&m->stream_rows);
	tl_strings_init(&m->str);
	tl_intern(&m->str, ""); /* id 0: no detail */
}

void tl_model_free(struct tl_model *m)
{
	for (size_t i = 0; i < m->nrows; i++) {
		struct tl_row *r = m->rows[i];

		free(r->ch);
		free(r->marks);
		free(r->spans);
		free(r->open);
		free(r);
	}
	free(m->rows);
	an_idmap_free(&m->cpu_rows);
	an_idmap_free(&m->thread_rows);
	an_idmap_free(&m->stream_rows);
	tl_strings_free(&m->str);
	memset(m, 0, sizeof(*m));
}

static struct tl_row *row_get(struct tl_model *m, struct an_idmap *map, enum tl_row_kind kind,
			      uint64_t key)
{
	uint32_t i = an_idmap_get(map, key);
	struct tl_row **v, *r;

	if (i != AN_IDMAP_NONE)
		return m->rows[i];
	v = an_grow(m->rows, &m->caprows, m->nrows + 1, sizeof(*v), &m->failed);
	if (!v)
		return NULL;
	m->rows = v;
	r = calloc(1, sizeof(*r));
	if (!r || an_idmap_put(map, key, (uint32_t)m->nrows)) {
		free(r);
		m->failed = 1;
		return NULL;
	}
	r->kind = kind;
	r->id = (int64_t)key;
	r->pid = -1;
	r->order = m->nrows;
	m->rows[m->nrows++] = r;
	return r;
}

struct tl_row *tl_cpu_row(struct tl_model *m, int64_t cpu)
{
	return row_get(m, &m->cpu_rows, TL_ROW_CPU, (uint64_t)cpu);
}

struct tl_row *tl_thread_row(struct tl_model *m, int64_t tid)
{
	return row_get(m, &m->thread_rows, TL_ROW_THREAD, (uint64_t)tid);
}

struct tl_row *tl_stream_row(struct tl_model *m, uint64_t key)
{
	return row_get(m, &m->stream_rows, TL_ROW_STREAM, key);
}

void tl_set(struct tl_model *m, struct tl_row *r, int64_t t, enum tl_state s, uint32_t detail)
{
	struct tl_change *c;

	t -= m->t0;
	if (r->nch) {
		c = &r->ch[r->nch - 1];
		if (c->state == s && c->detail == detail)
			return;
		/* a state that lasted no time is replaced (and the one before may then go on) */
		if (c->t >= t) {
			if (r->nch >= 2 && r->ch[r->nch - 2].state == s &&
			    r->ch[r->nch - 2].detail == detail) {
				r->nch--;
				m->nchanges--;
				return;
			}
			c->state = (uint8_t)s;
			c->detail = detail;
			return;
		}
	} else if (s == TL_UNKNOWN)
		return;
	c = an_grow(r->ch, &r->capch, r->nch + 1, sizeof(*c), &m->failed);
	if (!c)
		return;
	r->ch = c;
	c = &r->ch[r->nch++];
	m->nchanges++;
	c->t = t;
	c->state = (uint8_t)s;
	c->detail = detail;
}

void tl_model_bound(struct tl_model *m)
{
	int64_t span = m->t1 - m->t0, w;

	if (!m->max_changes || m->nchanges <= m->max_changes || m->failed)
		return;
	/* the width so far first (it merges what came since), doubled until the rows fit */
	w = m->dropped ? m->dropped : span / (int64_t)m->max_changes;
	if (w < 1)
		w = 1;
	for (;;) {
		size_t total = 0;

		for (size_t i = 0; i < m->nrows; i++) {
			struct tl_row *r = m->rows[i];
			long n;

			if (!r->nch)
				continue;
			if (r->merged == r->nch && r->merged_w == w) {
				total += r->nch;
				continue;
			}
			if ((n = tl_compact(r->ch, r->nch, r->last_end - m->t0, w)) < 0) {
				m->failed = 1;
				return;
			}
			r->nch = r->merged = (size_t)n;
			r->merged_w = w;
			total += r->nch;
			/* the memory given back (the array had grown by doubling) */
			if (r->capch > 64 && r->nch < r->capch / 4) {
				struct tl_change *v = realloc(r->ch, r->capch / 2 * sizeof(*v));

				if (v) {
					r->ch = v;
					r->capch /= 2;
				}
			}
		}
		m->nchanges = total;
		m->dropped = w;
		if (total <= m->max_changes / 2 || w > span)
			break;
		w *= 2;
	}
}

/* The marks' bound (tl_model_bound's, for marks): merged per bucket of a width doubled until
 * they fit in half. */
static void bound_marks(struct tl_model *m)
{
	int64_t span = m->t1 - m->t0;
	int64_t w = m->marks_dropped ? m->marks_dropped : span / (int64_t)m->max_changes;

	if (w < 1)
		w = 1;
	for (;;) {
		size_t total = 0;

		for (size_t i = 0; i < m->nrows; i++) {
			struct tl_row *r = m->rows[i];

			r->nmarks = tl_compact_marks(r->marks, r->nmarks, w);
			total += r->nmarks;
		}
		m->nmark_recs = total;
		m->marks_dropped = w;
		if (total <= m->max_changes / 2 || w > span)
			break;
		w *= 2;
	}
}

void tl_add_mark(struct tl_model *m, struct tl_row *r, int64_t t, uint32_t name, uint32_t args)
{
	struct tl_mark *v = an_grow(r->marks, &r->capmarks, r->nmarks + 1, sizeof(*v), &m->failed);

	if (!v)
		return;
	r->marks = v;
	v[r->nmarks].t = t - m->t0;
	v[r->nmarks].name = name;
	v[r->nmarks].args = args;
	v[r->nmarks].count = 1;
	r->nmarks++;
	r->mark_total++;
	m->marks++;
	if (m->max_changes && ++m->nmark_recs > m->max_changes)
		bound_marks(m);
}

static int cmp_spans(const void *a, const void *b)
{
	const struct tl_span *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

void tl_model_finish(struct tl_model *m)
{
	for (size_t i = 0; i < m->nrows; i++) {
		struct tl_row *r = m->rows[i];

		/* spans still open end with the trace */
		while (r->nopen) {
			struct tl_span *v =
			    an_grow(r->spans, &r->capspans, r->nspans + 1, sizeof(*v), &m->failed);

			if (!v)
				break;
			r->spans = v;
			v[r->nspans] = r->open[--r->nopen];
			v[r->nspans].end = m->t1 - m->t0;
			r->nspans++;
			m->spans++;
		}
		if (r->nspans > 1)
			qsort(r->spans, r->nspans, sizeof(*r->spans), cmp_spans);
	}
}
