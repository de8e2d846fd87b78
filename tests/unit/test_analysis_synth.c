/*
 * test_analysis_synth.c - `trax analyze` on a kernel trace written here,
 * with the writer (src/writer), whose answers are known: two CPUs, three
 * threads with known times on the CPU, a migration, a state dump, a
 * discarded-events count. cputop must print exactly those values (text
 * and MI), stats exactly those counts.
 *
 * With an argument DIR, only writes the trace to DIR/kernel (for
 * tests/integration/analyze_cputop.sh, which gives it to lttng-cputop).
 *
 * The story, times in ns from the clock's zero (2023-11-14 22:13:20 UTC):
 *   1000       CPU 0  state dump: alpha (100/100, prio 20), alpha-w (101/100)
 *   2000       CPU 0  sched_switch swapper/0 (0) -> alpha (100)
 *   3000       CPU 1  sched_switch swapper/1 (0) -> beta (200)
 *   1 003 000  CPU 1  sched_migrate_task alpha (100) 0 -> 1
 *   4 003 000  CPU 1  sched_switch beta -> swapper/1
 *   5 002 000  CPU 0  sched_switch alpha -> swapper/0
 *   6 002 000  CPU 0  sched_switch swapper/0 -> alpha-w (101)
 *   8 002 000  CPU 0  sched_switch alpha-w -> swapper/0
 *  10 001 000  CPU 1  timer_tick (another event: the period's end)
 * Period: [1000, 10 001 000], 10 ms. alpha 5 ms = 50 %, beta 4 ms = 40 %,
 * alpha-w 2 ms = 20 %, swapper/0 1 us = 0.01 % (first seen switching
 * out: charged from the start, lttng-cputop's rule); CPU 0 busy from the
 * start to 2000 and in alpha and alpha-w's times: 7.001 ms = 70.01 %,
 * CPU 1 4.002 ms = 40.02 %; total (70.01 + 40.02) / 2 = 55.015 %, which
 * prints 55.02 (the double is 0.55015). No two events of the trace have
 * the same time: lttng-analyses takes those in Babeltrace 1's heap order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis-trace.h"
#include "analysis/analysis.h"
#include "check.h"

static const uint8_t uuid[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};

static const struct ctfw_field migrate_fields[] = {
    {"comm", AT_COMM},	  {"tid", AT_I32},	{"prio", AT_I32},
    {"orig_cpu", AT_I32}, {"dest_cpu", AT_I32},
};
static const struct ctfw_field dump_fields[] = {
    {"tid", AT_I32},
    {"pid", AT_I32},
    {"name", AT_COMM},
    {"prio", AT_I32},
};
static const struct ctfw_field tick_fields[] = {{"x", AT_I32}};

enum { EV_SWITCH, EV_MIGRATE, EV_DUMP, EV_TICK };

static const struct ctfw_event_class classes[] = {
    [EV_SWITCH] = {"sched_switch", -1, NULL, at_switch_fields, 7},
    [EV_MIGRATE] = {"sched_migrate_task", -1, NULL, migrate_fields, 5},
    [EV_DUMP] = {"lttng_statedump_process_state", -1, NULL, dump_fields, 4},
    [EV_TICK] = {"timer_tick", -1, NULL, tick_fields, 1},
};

static void sw(struct ctfw_stream_file *f, uint64_t ts, const char *pc, int pt, const char *nc,
	       int nt)
{
	at_switch(f, EV_SWITCH, ts, pc, pt, 20, 0, nc, nt, 20);
}

static void dump(struct ctfw_stream_file *f, uint64_t ts, int tid, int pid, const char *name)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, tid);
	at_put32(&r, pid);
	at_putcomm(&r, name);
	at_put32(&r, 20);
	at_emit(f, EV_DUMP, ts, &r);
}

/* Writes the trace into dir (a kernel trace directory, created). */
static void write_trace(const char *dir)
{
	struct ctfw_stream_file c[2];
	struct at_rec r;

	at_metadata(dir, &(struct at_meta){.uuid = uuid,
					   .clock_uuid = "09080706-0504-0302-0100-010203040506",
					   .classes = classes,
					   .nr_classes = sizeof(classes) / sizeof(classes[0])});
	/* both streams span the trace (the stream intersection keeps it whole) */
	at_open_cpus(c, 2, dir, uuid, 1000);
	dump(&c[0], 1000, 100, 100, "alpha");
	dump(&c[0], 1000, 101, 100, "alpha-w");
	sw(&c[0], 2000, "swapper/0", 0, "alpha", 100);
	sw(&c[1], 3000, "swapper/1", 0, "beta", 200);
	r.n = 0;
	at_putcomm(&r, "alpha");
	at_put32(&r, 100);
	at_put32(&r, 20);
	at_put32(&r, 0);
	at_put32(&r, 1);
	at_emit(&c[1], EV_MIGRATE, 1003000, &r);
	sw(&c[1], 4003000, "beta", 200, "swapper/1", 0);
	sw(&c[0], 5002000, "alpha", 100, "swapper/0", 0);
	sw(&c[0], 6002000, "swapper/0", 0, "alpha-w", 101);
	sw(&c[0], 8002000, "alpha-w", 101, "swapper/0", 0);
	at_emit32(&c[1], EV_TICK, 10001000, 7);
	/* the tracer lost 7 events on CPU 1 (stats reports them) */
	ctfw_stream_file_set_discarded(&c[1], 7);
	at_close_cpus(c, 2, 10001000);
	CHECK_EQ(at_failures(), 0);
}

static void check_cputop(const char *dir)
{
	struct an_options o;
	char *out;
	int st;

	check_part = "cputop text";
	an_options_init(&o);
	out = at_run("cputop", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "Timerange: [2023-11-14 22:13:20.000001000, 2023-11-14 22:13:20.010001000]\n"),
	      "%s", out);
	/* rows in decreasing usage, each bar int(80 * value / max) blocks */
	CHECK(at_has(out, " 50.00 %   alpha (100)                        1   [20]\n"), "%s", out);
	CHECK(at_has(out, " 40.00 %   beta (200)                         0   [20]\n"), "%s", out);
	CHECK(at_has(out, " 20.00 %   alpha-w (101)                      0   [20]\n"), "%s", out);
	CHECK(at_has(out, "  0.01 %   swapper/0 (0)                      0   []\n"), "%s", out);
	CHECK(out && strstr(out, "alpha (100)") < strstr(out, "beta (200)") &&
		  strstr(out, "beta (200)") < strstr(out, "alpha-w (101)"),
	      "order: %s", out);
	CHECK(at_has(out, " 70.01 % CPU 0\n") && at_has(out, " 40.02 % CPU 1\n"), "%s", out);
	CHECK(at_has(out, "\nTotal CPU Usage: 55.02%\n"), "%s", out);
	free(out);

	check_part = "cputop json";
	o.json = 1;
	out = at_run("cputop", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out, "{\"results\": [{\"class\": \"per-process\", \"time-range\": {\"class\": "
			  "\"time-range\", \"begin\": {\"class\": \"timestamp\", \"value\": "
			  "1700000000000001000}, \"end\": {\"class\": \"timestamp\", \"value\": "
			  "1700000000010001000}}, \"data\": [[{\"class\": \"process\", \"name\": "
			  "\"alpha\", \"tid\": 100}, {\"class\": \"number\", \"value\": 1}, "
			  "{\"class\": \"string\", \"value\": \"[20]\"}, {\"class\": \"ratio\", "
			  "\"value\": 0.5}]"),
	      "%s", out);
	CHECK(at_has(out,
		     "\"name\": \"beta\", \"tid\": 200}, {\"class\": \"number\", \"value\": 0}, "
		     "{\"class\": \"string\", \"value\": \"[20]\"}, {\"class\": \"ratio\", "
		     "\"value\": 0.4}]"),
	      "%s", out);
	CHECK(at_has(out, "\"value\": 0.2}]"), "%s", out);
	CHECK(at_has(out, "\"value\": 0.0001}]"), "%s", out);
	CHECK(at_has(out, "[{\"class\": \"cpu\", \"id\": 0}, {\"class\": \"ratio\", \"value\": "
			  "0.7001000000000001}]"),
	      "%s", out);
	CHECK(at_has(out, "[{\"class\": \"cpu\", \"id\": 1}, {\"class\": \"ratio\", \"value\": "
			  "0.40020000000000006}]"),
	      "%s", out);
	CHECK(at_has(out, "{\"class\": \"total\"") && at_has(out, "\"value\": 0.55015}]]}]}\n"),
	      "%s", out);
	free(out);

	/*
	 * --tid 101: only alpha-w is switched in; the others, first seen
	 * switching out, are still listed, charged from the start
	 * (lttng-cputop's rule 4): alpha 5.001 ms, beta 4.002 ms
	 */
	check_part = "cputop --tid";
	o.json = 0;
	o.tids.v = (int64_t[]){101};
	o.tids.n = 1;
	out = at_run("cputop", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out, " 20.00 %   alpha-w (101)"), "%s", out);
	CHECK(at_has(out, " 50.01 %   alpha (100)                        0   []\n"), "%s", out);
	CHECK(at_has(out, " 40.02 %   beta (200)                         0   []\n"), "%s", out);
	/* alpha migrated: not asked for, not counted; CPU 0: start to 2000 and alpha-w's 2 ms */
	CHECK(at_has(out, " 20.01 % CPU 0\n") && at_has(out, "  0.02 % CPU 1\n"), "%s", out);
	free(out);
	o.tids.n = 0;

	/* --begin/--end: the period is [first event at or after begin, last at or before end] */
	check_part = "cputop range";
	o.begin = "22:13:20.005000000";
	o.end = "1700000000007000000";
	o.gmt = 1;
	out = at_run("cputop", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "Timerange: [2023-11-14 22:13:20.005002000, 2023-11-14 22:13:20.006002000]\n"),
	      "%s", out);
	/*
	 * [5 002 000, 6 002 000]: alpha, first seen switching out at the
	 * start, 0; swapper/0, at 6 002 000: 1 ms, 100 %; alpha-w switched
	 * in at the end: 0; CPU 0 idle between; both CPUs known (the total)
	 */
	CHECK(at_has(out, "100.00 %   swapper/0 (0)                      0   []\n"), "%s", out);
	CHECK(at_has(out, "  0.00 %   alpha (100)                        0   []\n"), "%s", out);
	CHECK(at_has(out, "  0.00 %   alpha-w (101)                      0   [20]\n"), "%s", out);
	CHECK(!at_has(out, "beta"), "%s", out);
	CHECK(at_has(out, "  0.00 % CPU 0\n") && at_has(out, "\nTotal CPU Usage: 0.00%\n"), "%s",
	      out);
	free(out);
	o.begin = o.end = NULL;

	check_part = "cputop errors";
	o.begin = "yesterday";
	out = at_run("cputop", &o, dir, &st);
	CHECK_EQ(st, AN_USAGE);
	free(out);
	o.begin = NULL;
	o.end = "1000";
	out = at_run("cputop", &o, dir, &st);
	CHECK_EQ(st, AN_USAGE); /* before the trace's beginning */
	free(out);
}

static void check_stats(const char *dir)
{
	struct an_options o;
	char *out;
	int st;

	check_part = "stats";
	an_options_init(&o);
	out = at_run("stats", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out, "Events: 10 in 0.01 s (1000.0 events/s)\n"), "%s", out);
	CHECK(at_has(out, "Discarded events: 7, lost packets: 0\n"), "%s", out);
	CHECK(
	    at_has(
		out,
		"\nsched_switch                                                6          600.0\n"),
	    "%s", out);
	CHECK(
	    at_has(
		out,
		"\nlttng_statedump_process_state                               2          200.0\n"),
	    "%s", out);
	CHECK(
	    at_has(
		out,
		"\nsched_migrate_task                                          1          100.0\n"),
	    "%s", out);
	CHECK(
	    at_has(
		out,
		"\n0                                                           6          600.0\n"),
	    "%s", out);
	CHECK(
	    at_has(
		out,
		"\n1                                                           4          400.0\n"),
	    "%s", out);
	/* the thread the switches say runs on the event's CPU (before the event) */
	CHECK(
	    at_has(
		out,
		"\nbeta (?, 200)                                               2          200.0\n"),
	    "%s", out);
	CHECK(
	    at_has(
		out,
		"\nalpha (100, 100)                                            1          100.0\n"),
	    "%s", out);
	CHECK(
	    at_has(
		out,
		"\n(unknown)                                                   6          600.0\n"),
	    "%s", out);
	free(out);
	o.json = 1;
	out = at_run("stats", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(
	    at_has(out,
		   "\"data\": [[{\"class\": \"number\", \"value\": 10}, {\"class\": \"duration\", "
		   "\"value\": 10000000}, {\"class\": \"number\", \"value\": 1000.0}, {\"class\": "
		   "\"number\", \"value\": 7}, {\"class\": \"number\", \"value\": 0}]]"),
	    "%s", out);
	free(out);
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/trax-test-analysis.XXXXXX", dir[100];

	setenv("TZ", "UTC", 1);
	if (argc > 1) {
		snprintf(dir, sizeof(dir), "%s/kernel", argv[1]);
		mkdir(argv[1], 0755);
		write_trace(dir);
		return CHECK_RESULT();
	}
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/kernel", tmp);
	write_trace(dir);
	check_cputop(dir);
	check_stats(dir);
	if (!failures) {
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmp);
	}
	return CHECK_RESULT();
}
