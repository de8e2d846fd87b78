/*
 * test_legacy_v0_gen.c - the LTTV format reader (src/legacy/lv0*.c)
 * against traces it did not write: the 0.x scenarios of the independent
 * writer tests/legacy/ltt_gen.py and the hand-written hex fixtures of
 * tests/data/legacy/hex/ (tests/legacy/hex2bin.py). The reader's events,
 * printed as the writer's listing lines (file, cpu, event, tsc, ns,
 * offset, fields), must equal NAME.expect.jsonl by value
 * (tests/legacy/same_listing.py compares them); the damaged traces give
 * their events before the fault and one line naming the file and offset
 * that NAME.meta.json names.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "legacy/legacy.h"

static char work[256];

/* ---- the listing: JSON values through the payload walk ---- */

struct out {
	FILE *f;
	bool first; /* no comma before the next member */
};

static void jstr(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void key(struct out *o, const char *name)
{
	if (!o->first)
		fputs(", ", o->f);
	o->first = false;
	if (name) {
		jstr(o->f, name, strlen(name));
		fputs(": ", o->f);
	}
}

static int on_int(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		  uint64_t raw)
{
	struct out *o = arg;

	(void)size;
	key(o, name);
	fprintf(o->f, t->kind == LTT_SIGNED ? "%lld" : "%llu", (long long)raw);
	return 0;
}

static int on_float(void *arg, const char *name, const struct ltt_type *t, unsigned size, double v)
{
	struct out *o = arg;

	(void)t;
	(void)size;
	key(o, name);
	if (isnan(v))
		fputs("NaN", o->f);
	else if (isinf(v))
		fputs(v < 0 ? "-Infinity" : "Infinity", o->f);
	else
		fprintf(o->f, "%.17g", v);
	return 0;
}

static int on_string(void *arg, const char *name, const struct ltt_type *t, const char *s,
		     size_t len)
{
	struct out *o = arg;

	(void)t;
	key(o, name);
	jstr(o->f, s, len);
	return 0;
}

static int on_enum(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		   uint64_t raw, const char *label)
{
	struct out *o = arg;

	(void)t;
	(void)size;
	key(o, name);
	fprintf(o->f, "{\"value\": %lld, \"label\": ", (long long)raw);
	if (label)
		jstr(o->f, label, strlen(label));
	else
		fputs("null", o->f);
	fputc('}', o->f);
	return 0;
}

static int on_array(void *arg, const char *name, const struct ltt_type *t, uint64_t n)
{
	struct out *o = arg;

	(void)t;
	(void)n;
	key(o, name);
	fputc('[', o->f);
	o->first = true;
	return 0;
}

static int on_struct(void *arg, const char *name, const struct ltt_type *t)
{
	struct out *o = arg;

	(void)t;
	key(o, name);
	fputc('{', o->f);
	o->first = true;
	return 0;
}

static int on_union(void *arg, const char *name, const struct ltt_type *t, uint64_t code)
{
	struct out *o = arg;

	(void)t;
	key(o, name);
	fprintf(o->f, "{\"code\": %llu", (unsigned long long)code);
	o->first = false;
	return 0;
}

static int on_end(void *arg, const struct ltt_type *t)
{
	struct out *o = arg;

	fputc(t->kind == LTT_ARRAY || t->kind == LTT_SEQUENCE ? ']' : '}', o->f);
	o->first = false;
	return 0;
}

static const struct ltt_payload_sink json_sink = {
    .integer = on_int,
    .floating = on_float,
    .string = on_string,
    .enumeration = on_enum,
    .begin_array = on_array,
    .begin_struct = on_struct,
    .begin_union = on_union,
    .end_compound = on_end,
};

static int path_cmp(const void *a, const void *b)
{
	const struct ltt_file_info *x = *(const struct ltt_file_info *const *)a;
	const struct ltt_file_info *y = *(const struct ltt_file_info *const *)b;

	return strcmp(x->path, y->path);
}

/*
 * Lists dir's events into listing (files in path order) and its warnings and
 * errors into msgs ("warning LINE" / "error LINE"). 0, or -1 when it does
 * not open (msgs: the reason).
 */
static int list_trace(const char *dir, const char *listing, char *msgs, size_t msglen)
{
	char err[1024];
	struct ltt_trace *t = ltt_trace_open(dir, err, sizeof(err));
	const struct ltt_file_info **files;
	size_t nf, used = 0;
	FILE *f;

	msgs[0] = '\0';
	if (!t) {
		snprintf(msgs, msglen, "error %s\n", err);
		return -1;
	}
	for (size_t i = 0; ltt_trace_warning(t, i); i++)
		used += (size_t)snprintf(msgs + used, used < msglen ? msglen - used : 0,
					 "warning %s\n", ltt_trace_warning(t, i));
	nf = ltt_trace_file_count(t);
	files = calloc(nf ? nf : 1, sizeof(*files));
	for (size_t i = 0; i < nf; i++)
		files[i] = ltt_trace_file(t, i);
	qsort(files, nf, sizeof(*files), path_cmp);
	f = fopen(listing, "w");
	CHECK(f != NULL, "%s", listing);
	for (size_t k = 0; f && k < nf; k++) {
		size_t i = 0;
		struct ltt_cursor *c;
		struct ltt_event ev;
		int st;

		while (ltt_trace_file(t, i) != files[k])
			i++;
		c = ltt_cursor_open(t, i);
		while ((st = ltt_cursor_next(c, &ev)) > 0) {
			struct out o = {.f = f, .first = true};
			char perr[256];

			fputs("{\"file\": ", f);
			jstr(f, files[k]->path + strlen(dir) + 1,
			     strlen(files[k]->path + strlen(dir) + 1));
			fprintf(f, ", \"cpu\": %d, \"event\": ", files[k]->cpu);
			jstr(f, ev.cls->name, strlen(ev.cls->name));
			fprintf(f, ", \"tsc\": %llu, \"ns\": %lld, \"offset\": %llu, \"fields\": {",
				(unsigned long long)ev.tsc, (long long)ev.ns,
				(unsigned long long)ev.offset);
			/* base 0: a payload starts aligned on the trace's alignment (1.3) */
			if (ltt_payload_decode(ev.cls->payload, &ev.cls->abi, ev.payload, ev.len, 0,
					       &json_sink, &o, perr, sizeof(perr)) < 0)
				fprintf(f, "\"DECODE ERROR\": \"%s\"", perr);
			fputc('}', f);
			if (ev.lost_before)
				fprintf(f, ", \"lost_before\": %llu",
					(unsigned long long)ev.lost_before);
			fputs("}\n", f);
		}
		const char *w = ltt_cursor_warning(c);
		if (*w)
			used += (size_t)snprintf(msgs + used, used < msglen ? msglen - used : 0,
						 "warning %s\n", w);
		if (st < 0)
			used += (size_t)snprintf(msgs + used, used < msglen ? msglen - used : 0,
						 "error %s\n", ltt_cursor_error(c));
		ltt_cursor_close(c);
	}
	if (f)
		fclose(f);
	free(files);
	ltt_trace_close(t);
	return 0;
}

/* The value of "key": N (the first after from), or -1. */
static long meta_num(const char *meta, const char *k)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", k);
	p = strstr(meta, pat);
	return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

static void meta_str(const char *meta, const char *k, char *out, size_t outlen)
{
	char pat[64], fmt[32];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": \"", k);
	snprintf(fmt, sizeof(fmt), "%%%zu[^\"]", outlen - 1);
	out[0] = '\0';
	p = strstr(meta, pat);
	if (p)
		sscanf(p + strlen(pat), fmt, out);
}

/* One trace: dir, its expected listing, its meta (NULL: no fault expected). */
static void compare(const char *name, const char *dir, const char *expect, const char *meta_path)
{
	char listing[512], cmd[2048], msgs[8192], meta[8192] = "";
	int opened;

	check_part = name;
	snprintf(listing, sizeof(listing), "%s/%s.read.jsonl", work, name);
	opened = list_trace(dir, listing, msgs, sizeof(msgs));
	if (meta_path) {
		FILE *m = fopen(meta_path, "r");
		size_t n = m ? fread(meta, 1, sizeof(meta) - 1, m) : 0;
		meta[n] = '\0';
		if (m)
			fclose(m);
	}
	if (!strstr(meta, "\"errors\"") || strstr(meta, "\"errors\": []")) {
		CHECK(opened == 0 && !strstr(msgs, "error ") && !strstr(msgs, "warning "), "%s",
		      msgs);
	} else {
		char file[256], want[512], kind[64];
		long off = meta_num(meta, "offset"), moff = meta_num(meta, "magic_offset");
		long line = meta_num(meta, "line");
		bool fatal = strstr(meta, "\"fatal\": true") != NULL;

		meta_str(meta, "file", file, sizeof(file));
		meta_str(meta, "kind", kind, sizeof(kind));
		if (!strcmp(kind, "malformed XML")) {
			/*
			 * the writer expects the trace not to open; this reader opens it
			 * and says why the facility's events cannot be decoded (lv0.c):
			 * either way one line names the file and line
			 */
			snprintf(want, sizeof(want), "%s/%s:%ld:", dir, file, line);
			CHECK(strstr(msgs, want) != NULL, "want \"%s\" in:\n%s", want, msgs);
			check_part = NULL;
			return;
		}
		snprintf(want, sizeof(want), "%s/%s: offset %ld: ", dir, file, off);
		if (!strstr(msgs, want) && moff >= 0)
			snprintf(want, sizeof(want), "%s/%s: offset %ld: ", dir, file, moff);
		CHECK(strstr(msgs, want) != NULL, "want \"%s\" in:\n%s", want, msgs);
		CHECK(fatal == (strstr(msgs, "error ") != NULL), "fatal %d:\n%s", fatal, msgs);
	}
	snprintf(cmd, sizeof(cmd), "python3 %s/tests/legacy/same_listing.py %s %s", TRAX_SRC_DIR,
		 expect, listing);
	CHECK(system(cmd) == 0, "%s", cmd);
	check_part = NULL;
}

static void gen_scenario(const char *name)
{
	char dir[512], expect[512], meta[512];

	snprintf(dir, sizeof(dir), "%s/gen/%s", work, name);
	snprintf(expect, sizeof(expect), "%s/gen/%s.expect.jsonl", work, name);
	snprintf(meta, sizeof(meta), "%s/gen/%s.meta.json", work, name);
	compare(name, dir, expect, meta);
}

static void hex_fixture(const char *name)
{
	char dir[512], expect[512], cmd[2048];

	snprintf(dir, sizeof(dir), "%s/hex/%s", work, name);
	snprintf(expect, sizeof(expect), "%s/tests/data/legacy/hex/%s/expect.jsonl", TRAX_SRC_DIR,
		 name);
	snprintf(cmd, sizeof(cmd),
		 "python3 %s/tests/legacy/hex2bin.py %s/tests/data/legacy/hex/%s %s", TRAX_SRC_DIR,
		 TRAX_SRC_DIR, name, dir);
	CHECK(system(cmd) == 0, "%s", cmd);
	compare(name, dir, expect, NULL);
}

int main(void)
{
	static const char *const scenarios[] = {
	    "v04-le-packed-hb",	      "v04-be-aligned4-nohb",
	    "v07-le-aligned8-hb",     "v07-be-packed-nohb",
	    "v07-be-aligned4-flight", "dmg-v04-magic",
	    "dmg-v07-magic",	      "dmg-v07-truncated",
	    "dmg-v07-overrun",	      "dmg-v07-unknown-facility",
	    "dmg-v07-xml-seed",	      "dmg-v07-xml-genevent",
	};
	char cmd[1024];

	snprintf(work, sizeof(work), "/tmp/trax-test-lv0gen-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/hex && python3 %s/tests/legacy/ltt_gen.py %s/gen v04-le-packed-hb "
		 "v04-be-aligned4-nohb v07-le-aligned8-hb v07-be-packed-nohb "
		 "v07-be-aligned4-flight damaged >/dev/null",
		 work, TRAX_SRC_DIR, work);
	CHECK(system(cmd) == 0, "%s", cmd);
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		gen_scenario(scenarios[i]);
	hex_fixture("v04-le-packed-hb");
	hex_fixture("v07-be-aligned8-nohb");
	if (!failures) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", work);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", work);
	} else {
		fprintf(stderr, "the traces and listings are kept in %s\n", work);
	}
	return CHECK_RESULT();
}
