/*
 * test_legacy_convert.c - the legacy converter (src/legacy/lconvert.c) on
 * the fake legacy trace of legacy-fake.h (every field type, two channels,
 * lost events, a tracefile that stops on an error), the CTF trace read
 * back with libtrax-reader: event names, timestamps, every value; the
 * statistics, warnings and the error line; then the reader given the
 * legacy directory itself: the same events, then the error.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "legacy-fake.h"
#include "legacy/lconvert.h"
#include "trax/reader.h"

static char warnings[1024];

static void on_warn(void *arg, const char *line)
{
	(void)arg;
	strncat(warnings, line, sizeof(warnings) - strlen(warnings) - 2);
	strcat(warnings, "\n");
}

static const struct trax_field *field(const struct trax_event *ev, const char *name)
{
	const struct trax_field *f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, name);

	CHECK(f != NULL, "field %s missing", name);
	return f;
}

static int64_t sval(const struct trax_field *f)
{
	int64_t v = 0;

	CHECK(f && trax_field_int(f, &v) == 0, "not a signed integer");
	return v;
}

static uint64_t uval(const struct trax_field *f)
{
	uint64_t v = 0;

	CHECK(f && trax_field_uint(f, &v) == 0, "not an unsigned integer");
	return v;
}

static const char *str(const struct trax_field *f)
{
	const char *s = f ? trax_field_string(f, NULL) : NULL;

	return s ? s : "(null)";
}

/* Every field of the fake's "fac.every" event, as the fake wrote it. */
static void check_every(const struct trax_event *ev)
{
	const struct trax_field *f, *g;
	double d = 0;

	CHECK_EQ(sval(field(ev, "i8")), -5);
	CHECK_EQ(uval(field(ev, "u16")), 65000);
	CHECK_EQ(sval(field(ev, "s32")), -100000);
	CHECK(uval(field(ev, "u64")) == UINT64_MAX);
	CHECK_EQ(sval(field(ev, "lng")), -7);
	CHECK_EQ(uval(field(ev, "ptr")), 0xdeadbeef);
	CHECK(trax_field_double(field(ev, "f32"), &d) == 0 && d == 1.5);
	CHECK(trax_field_double(field(ev, "f64"), &d) == 0 && d == -2.25);
	CHECK(!strcmp(str(field(ev, "str")), "hello"));
	f = field(ev, "en");
	CHECK(trax_field_kind(f) == TRAX_FIELD_ENUM);
	CHECK_EQ(uval(f), 5);
	CHECK(trax_field_enum_label(f, 0) && !strcmp(trax_field_enum_label(f, 0), "B"));
	f = field(ev, "sen");
	CHECK_EQ(sval(f), -1);
	CHECK(trax_field_enum_label(f, 0) && !strcmp(trax_field_enum_label(f, 0), "NEG"));
	f = field(ev, "arr");
	CHECK(trax_field_kind(f) == TRAX_FIELD_ARRAY);
	CHECK_EQ(trax_field_child_count(f), 3);
	CHECK_EQ(uval(trax_field_child(f, 0)), 1);
	CHECK_EQ(uval(trax_field_child(f, 2)), 3);
	CHECK(!strcmp(str(field(ev, "carr")), "abc"));
	f = field(ev, "seq");
	CHECK(trax_field_kind(f) == TRAX_FIELD_SEQUENCE);
	CHECK_EQ(trax_field_child_count(f), 2);
	CHECK_EQ(uval(trax_field_child(f, 1)), 20);
	CHECK(!strcmp(str(field(ev, "cseq")), "xy"));
	f = field(ev, "st");
	CHECK(trax_field_kind(f) == TRAX_FIELD_STRUCT);
	CHECK_EQ(uval(trax_field_child_by_name(f, "a")), 1);
	CHECK(!strcmp(str(trax_field_child_by_name(f, "b")), "in"));
	/* a union with a selector: its tag, then a variant */
	f = field(ev, "sel_tag");
	CHECK_EQ(uval(f), 1);
	CHECK(trax_field_enum_label(f, 0) && !strcmp(trax_field_enum_label(f, 0), "_text"));
	f = field(ev, "sel");
	CHECK(trax_field_kind(f) == TRAX_FIELD_VARIANT);
	g = trax_field_variant_selected(f);
	CHECK(g && trax_field_name(g) && !strcmp(trax_field_name(g), "text"));
	CHECK(!strcmp(str(g), "hi"));
	/* a union without one: a struct of all its members, read at one offset */
	f = field(ev, "cun");
	CHECK(trax_field_kind(f) == TRAX_FIELD_STRUCT);
	CHECK_EQ(uval(trax_field_child_by_name(f, "x")), 0x01020304);
	CHECK_EQ(uval(trax_field_child_by_name(f, "y")), 0x0304);
	CHECK_EQ(uval(field(ev, "ref")), 9);
	/* an array of unions with a selector: structs {v_tag, v} */
	f = field(ev, "arrsel");
	CHECK_EQ(trax_field_child_count(f), 2);
	g = trax_field_variant_selected(trax_field_child_by_name(trax_field_child(f, 0), "v"));
	CHECK(g && !strcmp(trax_field_name(g), "num"));
	CHECK_EQ(uval(g), 7);
	g = trax_field_variant_selected(trax_field_child_by_name(trax_field_child(f, 1), "v"));
	CHECK(!strcmp(str(g), "z"));
	CHECK_EQ(uval(field(ev, "bad_name")), 4);
	/* 21 fields, the selector union's tag, the two sequences' lengths */
	CHECK_EQ(trax_event_field_count(ev, TRAX_SCOPE_PAYLOAD), 24);
}

/* The events of the fake trace in time order, then the reader's end (want_end). */
static void check_events(struct trax_reader *r, int want_end, const char *want_error)
{
	static const struct {
		const char *name;
		int64_t ns;
		uint64_t value;
	} want[] = {
	    {"core.facility_load", 1100000000000000500, 0xabcd},
	    {"fac.every", 1100000000000001000, 0},
	    {"fac.small", 1100000000000001500, 8},
	    {"fac.small", 1100000000000002000, 7},
	    {"fac.small", 1100000000000005000, 11},
	};
	const struct trax_event *ev;
	size_t i;
	int st = 0;

	for (i = 0; i < 5 && (st = trax_reader_next(r, &ev)) > 0; i++) {
		CHECK(!strcmp(trax_event_name(ev), want[i].name), "event %zu: %s", i,
		      trax_event_name(ev));
		CHECK(trax_event_timestamp_ns(ev) == want[i].ns, "event %zu: %" PRId64, i,
		      trax_event_timestamp_ns(ev));
		if (i == 0) {
			CHECK(!strcmp(str(field(ev, "name")), "fac"));
			CHECK_EQ(uval(field(ev, "checksum")), 0xabcd);
			CHECK_EQ(trax_event_stream_class_id(ev), 1);
		} else if (i == 1) {
			check_every(ev);
			CHECK_EQ(trax_event_stream_class_id(ev), 0);
		} else {
			CHECK_EQ(uval(field(ev, "value")), want[i].value);
		}
	}
	CHECK_EQ(i, 5);
	st = trax_reader_next(r, &ev);
	CHECK_EQ(st, want_end);
	if (want_error)
		CHECK(!strcmp(trax_reader_error(r), want_error), "error: %s", trax_reader_error(r));
}

static void test_convert(const char *tmp)
{
	struct ltt_convert_stats st = {.warn = on_warn};
	char out[512], err[512];
	const char *paths[1] = {out};
	struct trax_reader *r;
	int rc;

	snprintf(out, sizeof(out), "%s/ctf", tmp);
	rc = ltt_convert("fake", out, &st, err, sizeof(err));
	CHECK_EQ(rc, -1);
	CHECK(!strcmp(err, LEGACY_FAKE_ERROR), "%s", err);
	CHECK_EQ(st.events, 5);
	CHECK_EQ(st.discarded, 3);
	CHECK_EQ(st.skipped, 0);
	CHECK_EQ(st.files, 3);
	CHECK_EQ(st.classes, 3);
	CHECK(!strcmp(warnings, "fake: facility xyz has no description\n"
				"fake/control/facilities_0: a warning\n"),
	      "%s", warnings);

	r = trax_reader_open(paths, 1);
	CHECK(r != NULL, "%s", trax_reader_error(NULL));
	if (r) {
		struct trax_clock_info ci;

		check_events(r, 0, NULL);
		/* ns since the epoch: an absolute clock, merged with other traces' */
		CHECK_EQ(trax_reader_clock(r, 0, 0, &ci), 0);
		CHECK(!strcmp(ci.name, "legacy") && ci.freq == 1000000000 && ci.absolute,
		      "clock %s, %llu Hz, absolute %d", ci.name, (unsigned long long)ci.freq,
		      (int)ci.absolute);
		trax_reader_close(r);
	}

	/* nothing to open: nothing written */
	snprintf(out, sizeof(out), "%s/none", tmp);
	CHECK_EQ(ltt_convert("missing", out, NULL, err, sizeof(err)), -2);
	CHECK(!strcmp(err, "missing: no such trace"), "%s", err);
	CHECK(access(out, F_OK) != 0);
}

/* The reader given the legacy directory: converted on the fly, the error after the events. */
/* How many entries dir holds (-1: none, it cannot be read). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_reader_converts(const char *tmp)
{
	char dir[512], tmpdir[512];
	const char *paths[1] = {dir};
	struct trax_reader *r;
	uint64_t n = 0;

	snprintf(dir, sizeof(dir), "%s/legacy", tmp);
	snprintf(tmpdir, sizeof(tmpdir), "%s/tmpdir", tmp);
	CHECK(legacy_fake_make_dir(dir) == 0);
	CHECK(mkdir(tmpdir, 0700) == 0);
	setenv("TMPDIR", tmpdir, 1);
	r = trax_reader_open(paths, 1);
	CHECK(r != NULL, "%s", trax_reader_error(NULL));
	if (!r)
		return;
	CHECK_EQ(entries(tmpdir), 1); /* its private copy */
	CHECK_EQ(trax_reader_trace_count(r), 1);
	CHECK(trax_reader_env_string(r, 0, "legacy_format") &&
	      !strcmp(trax_reader_env_string(r, 0, "legacy_format"), "lttv"));
	/* the path given, not the copy's */
	CHECK(!strcmp(trax_reader_trace_path(r, 0), dir), "%s", trax_reader_trace_path(r, 0));
	check_events(r, -1, LEGACY_FAKE_ERROR);
	/* the error stays; a seek reads them again, and the error comes again after them */
	CHECK_EQ(trax_reader_seek_ns(r, 0), 0);
	check_events(r, -1, LEGACY_FAKE_ERROR);
	/* counting: the error too */
	CHECK_EQ(trax_reader_seek_ns(r, 0), 0);
	CHECK_EQ(trax_reader_count(r, &n), -1);
	CHECK(!strcmp(trax_reader_error(r), LEGACY_FAKE_ERROR), "%s", trax_reader_error(r));
	trax_reader_close(r);
	/* the converted copy is gone */
	CHECK_EQ(entries(tmpdir), 0);
	unsetenv("TMPDIR");
}

int main(void)
{
	char tmp[] = "/tmp/test_legacy_convert.XXXXXX";
	char cmd[600];

	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_convert(tmp);
	test_reader_converts(tmp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		CHECK(0, "%s", cmd);
	return CHECK_RESULT();
}
