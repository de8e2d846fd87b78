/*
 * test_legacy_v2_gen.c - the compact format reader (src/legacy/lv2.c)
 * against the independent writer tests/legacy/ltt_gen.py: for each of its
 * 2.x scenarios, the events the reader gives, printed as the writer's
 * listing lines (NAME.expect.jsonl: file, cpu, event, tsc, ns, offset,
 * fields, lost_before), must be those lines; for its damaged traces, the
 * events before the fault and one line naming the file and the offset
 * (NAME.meta.json). Then the hand-written hex fixtures of
 * tests/data/legacy/hex/ (2.1 LE packed, 2.3 BE aligned 8), the same way.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "legacy/legacy.h"

static char out[256];

/* --- JSON lines as Python's json.dumps writes them ----------------------- */

struct line {
	char *s;
	size_t len, cap;
	bool first; /* no ", " before the next member */
};

static void add(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		l->cap = (l->len + n + 1) * 2;
		l->s = realloc(l->s, l->cap);
	}
	memcpy(l->s + l->len, s, n);
	l->len += n;
	l->s[l->len] = '\0';
}

static void adds(struct line *l, const char *s)
{
	add(l, s, strlen(s));
}

static void addf(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(struct line *l, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	adds(l, buf);
}

static void json_str(struct line *l, const char *s, size_t n)
{
	adds(l, "\"");
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			addf(l, "\\%c", ch);
		else if (ch == '\n')
			adds(l, "\\n");
		else if (ch == '\t')
			adds(l, "\\t");
		else if (ch == '\r')
			adds(l, "\\r");
		else if (ch < 0x20 || ch >= 0x7f)
			addf(l, "\\u%04x", ch);
		else
			add(l, (const char *)&ch, 1);
	}
	adds(l, "\"");
}

static void member(struct line *l, const char *name)
{
	if (!l->first)
		adds(l, ", ");
	l->first = false;
	if (name) {
		json_str(l, name, strlen(name));
		adds(l, ": ");
	}
}

static int s_integer(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		     uint64_t raw)
{
	struct line *l = arg;

	(void)size;
	member(l, name);
	if (t->kind == LTT_SIGNED)
		addf(l, "%lld", (long long)raw);
	else
		addf(l, "%llu", (unsigned long long)raw);
	return 0;
}

static int s_string(void *arg, const char *name, const struct ltt_type *t, const char *s,
		    size_t len)
{
	struct line *l = arg;

	(void)t;
	member(l, name);
	json_str(l, s, len);
	return 0;
}

static int s_array(void *arg, const char *name, const struct ltt_type *t, uint64_t n)
{
	struct line *l = arg;

	(void)t;
	(void)n;
	member(l, name);
	adds(l, "[");
	l->first = true;
	return 0;
}

static int s_struct(void *arg, const char *name, const struct ltt_type *t)
{
	struct line *l = arg;

	(void)t;
	member(l, name);
	adds(l, "{");
	l->first = true;
	return 0;
}

static int s_end(void *arg, const struct ltt_type *t)
{
	struct line *l = arg;

	adds(l, t->kind == LTT_STRUCT || t->kind == LTT_UNION ? "}" : "]");
	l->first = false;
	return 0;
}

static const struct ltt_payload_sink sink = {
    .integer = s_integer,
    .string = s_string,
    .begin_array = s_array,
    .begin_struct = s_struct,
    .end_compound = s_end,
};

/* One listing line of ev (file: its path in the trace). */
static void listing(struct line *l, const char *file, int cpu, const struct ltt_event *ev)
{
	char err[256] = "";
	long n;

	l->len = 0;
	adds(l, "{\"file\": ");
	json_str(l, file, strlen(file));
	addf(l, ", \"cpu\": %d, \"event\": ", cpu);
	json_str(l, ev->cls->name, strlen(ev->cls->name));
	addf(l, ", \"tsc\": %llu, \"ns\": %lld, \"offset\": %llu, \"fields\": {",
	     (unsigned long long)ev->tsc, (long long)ev->ns, (unsigned long long)ev->offset);
	l->first = true;
	/* the payload's own struct: its fields, no begin/end (ltt-type.h) */
	n = ltt_payload_decode(ev->cls->payload, &ev->cls->abi, ev->payload, ev->len, 0, &sink, l,
			       err, sizeof(err));
	if (n < 0)
		addf(l, " DECODE ERROR %s", err);
	adds(l, "}");
	if (ev->lost_before)
		addf(l, ", \"lost_before\": %llu", (unsigned long long)ev->lost_before);
	adds(l, "}");
}

/* --- the scenarios --------------------------------------------------------- */

struct listed {
	char **lines;
	size_t n;
	char err[1024]; /* the errors and warnings, one per line */
};

/*
 * 2.4's ns from metadata_0's block 0 header, computed here from its bytes:
 * checked on every event besides the listing's own ns.
 */
struct time_base {
	uint64_t start_tsc, sec, usec, freq;
	uint32_t scale;
};

static uint64_t hdr_u(const uint8_t *p, unsigned n, bool be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << 8 * (be ? n - 1 - i : i);
	return v;
}

static bool time_base(const char *path, struct time_base *tb)
{
	uint8_t h[60];
	FILE *f = fopen(path, "rb");
	bool be, ok = f && fread(h, 1, sizeof(h), f) == sizeof(h);

	if (f)
		fclose(f);
	if (!ok)
		return false;
	be = h[16] == 0x00;
	tb->start_tsc = hdr_u(h, 8, be);
	tb->sec = hdr_u(h + 24, 8, be);
	tb->usec = hdr_u(h + 32, 8, be);
	tb->freq = hdr_u(h + 40, 8, be);
	tb->scale = (uint32_t)hdr_u(h + 48, 4, be);
	return true;
}

static int64_t expected_ns(const struct time_base *tb, uint64_t tsc)
{
	__int128 base = (__int128)tb->sec * 1000000000 + (__int128)tb->usec * 1000;
	unsigned __int128 k = (unsigned __int128)1000000000 * (tb->scale ? tb->scale : 1);

	if (tsc >= tb->start_tsc)
		return (int64_t)(base + (__int128)((tsc - tb->start_tsc) * k / tb->freq));
	return (int64_t)(base - (__int128)((tb->start_tsc - tsc) * k / tb->freq));
}

static int by_path(const void *a, const void *b)
{
	const struct ltt_file_info *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

/* Every event of the trace at dir, files in path order; 0, or -1 (open failed, err set). */
static int list_trace(const char *dir, struct listed *ls)
{
	struct ltt_trace *t;
	const struct ltt_file_info **files;
	size_t nf;

	memset(ls, 0, sizeof(*ls));
	t = ltt_trace_open(dir, ls->err, sizeof(ls->err));
	if (!t)
		return -1;
	nf = ltt_trace_file_count(t);
	files = calloc(nf, sizeof(*files));
	for (size_t i = 0; i < nf; i++)
		files[i] = ltt_trace_file(t, i);
	qsort(files, nf, sizeof(*files), by_path);
	struct time_base tb = {0};
	bool have_tb = false;

	for (size_t k = 0; k < nf && !have_tb; k++)
		if (strstr(files[k]->path, "metadata_0"))
			have_tb = time_base(files[k]->path, &tb);
	CHECK(have_tb, "no metadata_0 header in %s", dir);
	for (size_t k = 0; k < nf; k++) {
		size_t i = 0;
		struct ltt_cursor *c;
		struct ltt_event ev;
		struct line l = {0};
		const char *rel = files[k]->path + strlen(dir) + 1;
		int st;

		while (ltt_trace_file(t, i) != files[k])
			i++;
		c = ltt_cursor_open(t, i);
		while ((st = ltt_cursor_next(c, &ev)) > 0) {
			listing(&l, rel, files[k]->cpu, &ev);
			if (have_tb)
				CHECK_EQ(ev.ns, expected_ns(&tb, ev.tsc));
			ls->lines = realloc(ls->lines, (ls->n + 1) * sizeof(char *));
			ls->lines[ls->n++] = strdup(l.s);
		}
		const char *w = ltt_cursor_warning(c);

		if (*w)
			snprintf(ls->err + strlen(ls->err), sizeof(ls->err) - strlen(ls->err),
				 "warning %s\n", w);
		if (st < 0)
			snprintf(ls->err + strlen(ls->err), sizeof(ls->err) - strlen(ls->err),
				 "error %s\n", ltt_cursor_error(c));
		ltt_cursor_close(c);
		free(l.s);
	}
	free(files);
	ltt_trace_close(t);
	return 0;
}

static void free_listed(struct listed *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		free(ls->lines[i]);
	free(ls->lines);
}

/* Compares the listing with NAME.expect.jsonl: the number of lines that agree. */
static void compare_listing(const char *name, const char *dir, const char *expect,
			    const char *meta_path)
{
	char path[512], *line = NULL;
	size_t cap = 0, i = 0;
	struct listed ls;
	FILE *f;
	ssize_t n;

	check_part = name;
	snprintf(path, sizeof(path), "%s", expect);
	f = fopen(path, "r");
	CHECK(f != NULL, "%s", path);
	if (!f)
		return;
	CHECK(list_trace(dir, &ls) == 0, "%s", ls.err);
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		CHECK(i < ls.n, "line %zu missing: %s", i + 1, line);
		if (i >= ls.n)
			break;
		CHECK(strcmp(line, ls.lines[i]) == 0,
		      "line %zu\n  expected %.600s\n  read     %.600s", i + 1, line, ls.lines[i]);
		i++;
	}
	CHECK(i == ls.n, "%zu lines expected, %zu read", i, ls.n);
	/* damaged traces: the error named in NAME.meta.json, else none */
	{
		FILE *m = meta_path ? fopen(meta_path, "r") : NULL;
		char meta[4096] = "", want[300], *o;
		size_t mn = m ? fread(meta, 1, sizeof(meta) - 1, m) : 0;

		meta[mn] = '\0';
		if (m)
			fclose(m);
		o = strstr(meta, "\"offset\": ");
		if (o) {
			char file[128] = "";
			char *fp = strstr(meta, "\"file\": \"");

			if (fp)
				sscanf(fp + 9, "%127[^\"]", file);
			snprintf(want, sizeof(want), "/%s: offset %ld: ", file,
				 strtol(o + 10, NULL, 10));
			CHECK(strstr(ls.err, want) != NULL, "want \"%s\" in:\n%s", want, ls.err);
			CHECK(strstr(meta, "\"fatal\": true") ? strstr(ls.err, "error ") != NULL
							      : strstr(ls.err, "error ") == NULL,
			      "%s", ls.err);
		} else {
			CHECK(strstr(ls.err, "error ") == NULL, "%s", ls.err);
		}
	}
	free(line);
	free_listed(&ls);
	fclose(f);
	check_part = NULL;
}

/* A scenario of ltt_gen.py. */
static void compare(const char *name)
{
	char dir[512], expect[512], meta[512];

	snprintf(dir, sizeof(dir), "%s/%s", out, name);
	snprintf(expect, sizeof(expect), "%s/%s.expect.jsonl", out, name);
	snprintf(meta, sizeof(meta), "%s/%s.meta.json", out, name);
	compare_listing(name, dir, expect, meta);
}

/* A hand-written fixture of tests/data/legacy/hex/: every value, ns too, exact. */
static void hex_fixture(const char *name)
{
	char dir[512], expect[512], cmd[2048];

	snprintf(dir, sizeof(dir), "%s/hex/%s", out, name);
	snprintf(expect, sizeof(expect), "%s/tests/data/legacy/hex/%s/expect.jsonl", TRAX_SRC_DIR,
		 name);
	snprintf(
	    cmd, sizeof(cmd),
	    "mkdir -p %s/hex && python3 %s/tests/legacy/hex2bin.py %s/tests/data/legacy/hex/%s %s",
	    out, TRAX_SRC_DIR, TRAX_SRC_DIR, name, dir);
	CHECK(system(cmd) == 0, "%s", cmd);
	compare_listing(name, dir, expect, NULL);
}

int main(void)
{
	static const char *const names[] = {
	    "v21-le-packed",	 "v21-be-aligned8", "v23-le-aligned4", "v23-be-aligned8-flight",
	    "dmg-v21-truncated", "dmg-v23-magic",   "dmg-v23-overrun", "dmg-v23-unknown-marker",
	};
	char cmd[1024];

	snprintf(out, sizeof(out), "/tmp/trax-test-lv2gen-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "python3 %s/tests/legacy/ltt_gen.py %s v21-le-packed v21-be-aligned8 "
		 "v23-le-aligned4 v23-be-aligned8-flight damaged >/dev/null",
		 TRAX_SRC_DIR, out);
	CHECK(system(cmd) == 0, "%s", cmd);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		compare(names[i]);
	hex_fixture("v21-le-packed");
	hex_fixture("v23-be-aligned8");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", out);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", out);
	return CHECK_RESULT();
}
