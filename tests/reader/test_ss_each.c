/*
 * test_ss_each.c - ctf_ss_each() (stream-set.h), whose runs of events are
 * read by ctf_stream_run() (decode-stream.h), against ctf_ss_next(), the
 * item-at-a-time reference: on every trace of the conformance corpus and
 * of tests/reader/golden, and on generated LTTng-like traces made for the
 * runs' edges (several streams whose events interleave in runs, ties
 * between streams, 27-bit clock wrap-arounds, extended headers, events
 * that cannot be fused, discarded events and packets, a clock going back,
 * a truncated stream), both must give the same items (kind, stream, file,
 * time, position, class, every value), then the same status and error;
 * with runs reading the files through windows of several sizes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/stream-set.h"

#include "check.h"

/* ------------------------------------------------------------ recording */

struct rec {
	int kind;
	size_t stream, file;
	int64_t ns;
	uint64_t bit_offset, packet_offset, hash;
	const void *cls;
	int dkind, dhas_count, dhas_range;
	uint64_t dcount;
	int64_t dbegin, dend;
};

struct recs {
	struct rec *v;
	size_t n, cap;
	int st;
	char error[1200];
	struct ctf_stream_set *ss;
	size_t stop_after; /* the visitor stops (returns 7) after this many, 0: never */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_value(uint64_t h, const struct ctf_value *v)
{
	const struct ctf_type *t;

	if (!v)
		return mix(h, 1);
	t = v->type;
	if (!t)
		return mix(h, 2);
	h = mix(h, (uint64_t)t->kind);
	switch (t->kind) {
	case CTF_TYPE_STRING:
		h = mix(h, v->u.str.len);
		for (uint64_t i = 0; i < v->u.str.len; i++)
			h = mix(h, (unsigned char)v->u.str.ptr[i]);
		return h;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE: {
		const struct ctf_type *el =
		    t->kind == CTF_TYPE_ARRAY ? t->u.array.element : t->u.sequence.element;

		if (ctf_type_is_text_element(el)) {
			h = mix(h, v->u.str.len);
			for (uint64_t i = 0; i < v->u.str.len; i++)
				h = mix(h, (unsigned char)v->u.str.ptr[i]);
			return h;
		}
	}
		/* fall through */
	case CTF_TYPE_STRUCT:
		h = mix(h, v->u.list.count);
		for (uint64_t i = 0; i < v->u.list.count; i++)
			h = hash_value(h, &v->u.list.items[i]);
		return h;
	case CTF_TYPE_VARIANT:
		h = mix(h, v->u.variant.option);
		return hash_value(h, v->u.variant.value);
	default:
		return mix(h, v->u.u);
	}
}

static void record(struct recs *rs, struct ctf_ss_stream *s)
{
	struct rec r;

	memset(&r, 0, sizeof(r)); /* padding too: records are compared with memcmp() */
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 1024;
		rs->v = realloc(rs->v, rs->cap * sizeof(*rs->v));
		if (!rs->v)
			abort();
	}
	r.kind = s->kind;
	r.stream = (size_t)(s - rs->ss->streams);
	r.file = (size_t)(s->item_file - rs->ss->files);
	if (s->kind == CTF_SS_EVENT) {
		const struct ctf_stream_reader *sr = s->item_file->sr;
		const struct ctf_event *e = &sr->event;

		r.ns = s->event_ns;
		r.bit_offset = e->bit_offset;
		r.packet_offset = sr->packet.offset;
		r.cls = e->cls;
		r.hash = hash_value(mix(mix(0, e->has_clock), e->clock_value), e->header);
		r.hash = hash_value(r.hash, e->stream_context);
		r.hash = hash_value(r.hash, e->context);
		r.hash = hash_value(r.hash, e->payload);
	} else {
		r.dkind = s->discard->kind;
		r.dhas_count = s->discard->has_count;
		r.dcount = s->discard->count;
		r.dhas_range = s->discard->has_range;
		r.dbegin = s->discard->begin;
		r.dend = s->discard->end;
	}
	memcpy(&rs->v[rs->n++], &r, sizeof(r));
}

static int visit(void *ctx, struct ctf_ss_stream *s)
{
	struct recs *rs = ctx;

	record(rs, s);
	return rs->stop_after && rs->n == rs->stop_after ? 7 : 0;
}

/* How the stream files are read: the windows set by main(), TRAX_NO_JIT=1 for the interpreter. */
static struct ctf_read_tuning tuning;

/* Reads every path's traces both ways; 0 when they could not be opened. */
static int read_both(const char *const *paths, size_t n, struct recs *a, struct recs *b,
		     size_t stop_after)
{
	struct ctf_stream_set ss = {0};
	struct ctf_ss_stream *s;

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	ss.tuning = tuning;
	if (ctf_ss_load(&ss, paths, n, CTF_SS_RANK_BY_NAME) || ctf_ss_open(&ss, false, 0)) {
		ctf_ss_free(&ss);
		return 0;
	}
	a->ss = b->ss = &ss;
	while ((a->st = ctf_ss_next(&ss, &s)) > 0) {
		record(a, s);
		if (stop_after && a->n == stop_after) {
			a->st = 7;
			break;
		}
	}
	snprintf(a->error, sizeof(a->error), "%s", a->st < 0 ? ss.error : "");
	ctf_ss_close(&ss);
	ss.error[0] = 0;
	ss.last_event_ns = INT64_MIN;
	if (ctf_ss_open(&ss, false, 0)) {
		CHECK(0, "%s: cannot open again: %s", paths[0], ss.error);
		ctf_ss_free(&ss);
		return 0;
	}
	b->stop_after = stop_after;
	b->st = ctf_ss_each(&ss, visit, b);
	snprintf(b->error, sizeof(b->error), "%s", b->st < 0 ? ss.error : "");
	ctf_ss_free(&ss);
	return 1;
}

/* Both ways gave the same items, status and error: the number of items, -1 when not. */
static long compare(const char *what, struct recs *a, struct recs *b)
{
	long ret = (long)a->n;

	for (size_t i = 0; i < a->n && i < b->n; i++) {
		if (memcmp(&a->v[i], &b->v[i], sizeof(a->v[i]))) {
			const struct rec *x = &a->v[i], *y = &b->v[i];

			CHECK(0,
			      "%s: item %zu differs: next: kind %d stream %zu ns %lld bit %llu; "
			      "each: kind %d stream %zu ns %lld bit %llu",
			      what, i, x->kind, x->stream, (long long)x->ns,
			      (unsigned long long)x->bit_offset, y->kind, y->stream,
			      (long long)y->ns, (unsigned long long)y->bit_offset);
			ret = -1;
			break;
		}
	}
	if (a->n != b->n) {
		CHECK(0, "%s: %zu items one at a time, %zu by ctf_ss_each()", what, a->n, b->n);
		ret = -1;
	}
	if (a->st != b->st || strcmp(a->error, b->error)) {
		CHECK(0, "%s: status %d \"%s\" one at a time, %d \"%s\" by ctf_ss_each()", what,
		      a->st, a->error, b->st, b->error);
		ret = -1;
	}
	free(a->v);
	free(b->v);
	return ret;
}

static long check_paths(const char *const *paths, size_t n, size_t stop_after)
{
	struct recs a, b;

	if (!read_both(paths, n, &a, &b, stop_after))
		return 0; /* a trace that cannot be opened has no items to compare */
	return compare(paths[0], &a, &b);
}

/* Every trace directory below dir (one level: the corpus's layout). */
static size_t check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	if (!d) {
		CHECK(0, "cannot open %s", dir);
		return 0;
	}
	while ((de = readdir(d))) {
		char p[4096];
		struct stat st;
		const char *one[1] = {p};

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (stat(p, &st) || !S_ISDIR(st.st_mode))
			continue;
		check_paths(one, 1, 0);
		n++;
	}
	closedir(d);
	return n;
}

/* ------------------------------------------------------------ generator */

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned rnd_below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* A little-endian bit writer. */
struct bits {
	uint8_t *b;
	size_t cap;
	uint64_t pos; /* bits */
};

static void put(struct bits *w, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++, w->pos++) {
		size_t byte = (size_t)(w->pos / 8);

		if (byte >= w->cap) {
			size_t cap = w->cap ? w->cap * 2 : 4096;

			w->b = realloc(w->b, cap);
			memset(w->b + w->cap, 0, cap - w->cap);
			w->cap = cap;
		}
		if ((v >> i) & 1)
			w->b[byte] |= (uint8_t)(1u << (w->pos % 8));
	}
}

static void align(struct bits *w, unsigned a)
{
	while (w->pos % a)
		put(w, 0, 1);
}

static void put_at(struct bits *w, uint64_t at, uint64_t v, unsigned size)
{
	uint64_t save = w->pos;

	w->pos = at;
	for (unsigned i = 0; i < size; i++, w->pos++) {
		uint8_t *p = &w->b[w->pos / 8], m = (uint8_t)(1u << (w->pos % 8));

		*p = (uint8_t)(((v >> i) & 1) ? (*p | m) : (*p & ~m));
	}
	w->pos = save;
}

static const char gen_metadata[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "trace { major = 1; minor = 8; byte_order = le;\n"
    "	packet.header := struct { uint32_t magic; uint32_t stream_id; };\n"
    "};\n"
    "env { hostname = \"gen\"; };\n"
    "clock { name = c; freq = 1000000000; offset = 1000; };\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := ts27;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;\n"
    "struct event_header_compact {\n"
    "	enum : integer { size = 5; align = 1; signed = false; }\n"
    "		{ compact = 0 ... 30, extended = 31 } id;\n"
    "	variant <id> { struct { ts27 timestamp; } compact;\n"
    "		struct { uint32_t id; ts64 timestamp; } extended; } v;\n"
    "} align(8);\n"
    "stream { id = 0; event.header := struct event_header_compact;\n"
    "	packet.context := struct { ts64 timestamp_begin; ts64 timestamp_end;\n"
    "		uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num;\n"
    "		uint64_t events_discarded; uint32_t cpu_id; };\n"
    "};\n"
    "event { id = 0; name = \"a\"; stream_id = 0; fields := struct { uint64_t seq;\n"
    "	integer { size = 32; align = 8; signed = true; } th; }; };\n"
    "event { id = 1; name = \"b\"; stream_id = 0; fields := struct { uint8_t x;\n"
    "	integer { size = 3; align = 1; signed = true; } y;\n"
    "	integer { size = 13; align = 1; signed = false; } z; }; };\n"
    "event { id = 2; name = \"s\"; stream_id = 0; fields := struct { string str; uint32_t n; }; "
    "};\n"
    "event { id = 40; name = \"big\"; stream_id = 0; fields := struct { uint32_t v; }; };\n";

#define GEN_STREAMS 3

struct gen_stream {
	struct bits w;
	uint64_t packet_start; /* bits */
	uint64_t prev_ts, begin_ts;
	unsigned in_packet, packet_events;
	uint64_t seq_num, discarded;
	unsigned nevents;
	int open;
};

static void packet_open(struct gen_stream *g, unsigned cpu, uint64_t ts)
{
	g->packet_start = g->w.pos;
	put(&g->w, 0xC1FC1FC1u, 32);
	put(&g->w, 0, 32);
	g->begin_ts = ts;
	put(&g->w, ts, 64);  /* timestamp_begin */
	put(&g->w, 0, 64);   /* timestamp_end, set at the end */
	put(&g->w, 0, 64);   /* content_size */
	put(&g->w, 0, 64);   /* packet_size */
	put(&g->w, 0, 64);   /* packet_seq_num */
	put(&g->w, 0, 64);   /* events_discarded */
	put(&g->w, cpu, 32); /* cpu_id */
	g->prev_ts = ts;
	g->in_packet = 0;
	g->packet_events = 1 + rnd_below(rnd_below(4) ? 300 : 5);
	g->open = 1;
}

static void packet_close(struct gen_stream *g)
{
	uint64_t content = g->w.pos - g->packet_start, size;

	align(&g->w, 8);
	/* padding after the content, sometimes none */
	size = (g->w.pos - g->packet_start) + 8 * rnd_below(3) * rnd_below(40);
	while (g->w.pos - g->packet_start < size)
		put(&g->w, 0, 8);
	/* a lost packet now and then, some discarded events */
	g->seq_num += rnd_below(20) ? 1 : 2;
	if (!rnd_below(6))
		g->discarded += 1 + rnd_below(5);
	put_at(&g->w, g->packet_start + 8 * 8 + 64, g->prev_ts, 64);
	put_at(&g->w, g->packet_start + 8 * 8 + 128, content, 64);
	put_at(&g->w, g->packet_start + 8 * 8 + 192, size, 64);
	put_at(&g->w, g->packet_start + 8 * 8 + 256, g->seq_num, 64);
	put_at(&g->w, g->packet_start + 8 * 8 + 320, g->discarded, 64);
	g->open = 0;
}

static void event_write(struct gen_stream *g, uint64_t ts, int extended_anyway)
{
	unsigned what = rnd_below(10), id = what < 6 ? 0 : what < 8 ? 1 : what < 9 ? 2 : 40;
	int extended =
	    id >= 31 || ts - g->prev_ts >= (1u << 27) || ts < g->prev_ts || extended_anyway;

	align(&g->w, 8);
	if (extended) {
		put(&g->w, 31, 5);
		align(&g->w, 8);
		put(&g->w, id, 32);
		put(&g->w, ts, 64);
	} else {
		put(&g->w, id, 5);
		put(&g->w, ts & ((1u << 27) - 1), 27);
	}
	switch (id) {
	case 0:
		put(&g->w, rnd(), 64);
		put(&g->w, rnd(), 32);
		break;
	case 1:
		put(&g->w, rnd(), 8);
		put(&g->w, rnd(), 3);
		put(&g->w, rnd(), 13);
		break;
	case 2: {
		unsigned len = rnd_below(12);

		for (unsigned i = 0; i < len; i++)
			put(&g->w, 'a' + rnd_below(26), 8);
		put(&g->w, 0, 8);
		put(&g->w, rnd(), 32);
		break;
	}
	default:
		put(&g->w, rnd(), 32);
	}
	g->prev_ts = ts;
}

/*
 * Writes a trace of about nevents events under dir: GEN_STREAMS streams
 * taking turns in runs (ties between them when the clock does not move),
 * clock steps that sometimes wrap the 27-bit timestamps. back: one event
 * goes back in time; cut: the last stream file is truncated in an event.
 */
static void gen_trace(const char *dir, unsigned nevents, int back, int cut)
{
	struct gen_stream g[GEN_STREAMS] = {0};
	uint64_t ts = (1u << 20) + (uint64_t)rnd_below(1u << 27) + ((uint64_t)rnd_below(8) << 27);
	unsigned cur = 0, back_at = back ? 1 + rnd_below(nevents) : 0;
	char p[4200];
	FILE *f;

	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/metadata", dir);
	f = fopen(p, "w");
	fputs(gen_metadata, f);
	fclose(f);
	for (unsigned i = 0; i < nevents; i++) {
		struct gen_stream *s;
		unsigned step = rnd_below(8);

		/* runs: mostly the same stream again */
		if (rnd_below(8) == 0)
			cur = rnd_below(GEN_STREAMS);
		s = &g[cur];
		ts += step < 2	 ? 0
		      : step < 6 ? 1 + rnd_below(1000)
		      : step < 7 ? rnd_below(1u << 26)
				 : (1u << 27) + rnd_below(1u << 28);
		if (!s->open)
			packet_open(s, cur, ts);
		/* back to 0, before every event: not as its stream's first */
		if (back_at && i + 1 >= back_at && s->nevents) {
			event_write(s, 0, 1);
			back_at = 0;
		} else
			event_write(s, ts, !rnd_below(50));
		s->nevents++;
		if (++s->in_packet == s->packet_events)
			packet_close(s);
	}
	for (unsigned k = 0; k < GEN_STREAMS; k++) {
		size_t len;

		if (g[k].open)
			packet_close(&g[k]);
		len = (size_t)(g[k].w.pos / 8);
		if (cut && k == GEN_STREAMS - 1 && len > 200)
			len -= 1 + rnd_below(len / 2);
		snprintf(p, sizeof(p), "%s/ch_%u", dir, k);
		f = fopen(p, "w");
		if (len)
			fwrite(g[k].w.b, 1, len, f);
		fclose(f);
		free(g[k].w.b);
	}
}

static void remove_trace(const char *dir)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/metadata", dir);
	unlink(p);
	for (unsigned k = 0; k < GEN_STREAMS; k++) {
		snprintf(p, sizeof(p), "%s/ch_%u", dir, k);
		unlink(p);
	}
	rmdir(dir);
}

int main(void)
{
	const char *corpus = getenv("TRAX_CONFORMANCE"), *src = getenv("TRAX_SRC");
	char tmp[] = "/tmp/trax-test-each.XXXXXX", p[4000];
	size_t ntraces = 0;
	long items = 0, errors = 0;

	/*
	 * Runs read the files through a window (decode-stream.c): a small one
	 * here, moved a few times per packet; then for the generated traces,
	 * none (the mapping), small ones and the default.
	 */
	tuning.no_jit = getenv("TRAX_NO_JIT") != NULL;
	tuning.window = 100;
	if (corpus) {
		snprintf(p, sizeof(p), "%s/ctf/succeed", corpus);
		ntraces += check_dir(p);
		snprintf(p, sizeof(p), "%s/ctf/fail", corpus);
		ntraces += check_dir(p);
	}
	if (src) {
		snprintf(p, sizeof(p), "%s/tests/reader/golden", src);
		ntraces += check_dir(p);
	}
	CHECK(!corpus || ntraces > 20, "only %zu traces in the corpus", ntraces);

	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	for (unsigned seed = 1; seed <= 60; seed++) {
		const char *one[1] = {p};
		int back = seed % 5 == 0, cut = seed % 7 == 0;
		long n;

		static const size_t windows[] = {CTF_READ_WINDOW_NONE, 64, 200, 4096, 0};

		tuning.window = windows[seed % 5];
		rng = 0x2545F4914F6CDD1Dull * seed;
		snprintf(p, sizeof(p), "%s/t%u", tmp, seed);
		gen_trace(p, 200 + rnd_below(6000), back, cut);
		n = check_paths(one, 1, 0);
		if (n > 0)
			items += n;
		/* a visitor that stops: the same items up to there, its value returned */
		if (n > 10)
			check_paths(one, 1, (size_t)n / 2);
		{
			struct recs a, b;

			if (read_both(one, 1, &a, &b, 0)) {
				errors += a.st < 0;
				CHECK(!back || a.st < 0 || a.n == 0,
				      "seed %u: an event back in time but no error", seed);
				compare(p, &a, &b);
			}
		}
		remove_trace(p);
	}
	rmdir(tmp);
	/* the generated traces reached what they are for */
	CHECK(items > 100000, "only %ld items in the generated traces", items);
	CHECK(errors >= 10, "only %ld generated traces ended with an error", errors);
	if (!failures)
		printf("test_ss_each: %zu traces of the corpora and 60 generated ones (%ld items) "
		       "read alike\n",
		       ntraces, items);
	return CHECK_RESULT();
}
