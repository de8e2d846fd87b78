/*
 * test_analysis_flow.c - `trax analyze flow` and `trax analyze spans` on
 * traces written here with the writer, whose answers are known exactly.
 *
 * The kernel trace (flow), times in ns after the clock's zero
 * (2023-11-14 22:13:20 UTC); threads A (100), B (200), C (300):
 *    1000  CPU 0  sched_switch swapper/0 -> A           (prev_state 0)
 *    1500  CPU 1  sched_switch swapper/1 -> B
 *    2000  CPU 0  syscall_entry_read
 *    3000  CPU 0  irq_handler_entry 36
 *    3500  CPU 0  irq_handler_exit 36
 *    4000  CPU 0  sched_switch A -> swapper/0           (prev_state 1: sleeping)
 *    5000  CPU 1  sched_wakeup A                        (B current: the waker)
 *    5500  CPU 1  irq_softirq_entry 1 (TIMER)
 *    5800  CPU 1  irq_softirq_exit 1
 *    6000  CPU 1  sched_switch B -> A                   (prev_state 0x100: preempted)
 *    7000  CPU 1  syscall_exit_read
 *    8000  CPU 1  sched_process_fork A -> C (300)
 *    9000  CPU 1  sched_process_exit A
 *   10000  CPU 1  sched_switch A -> C                   (prev_state 0x20: zombie)
 *   11000  CPU 0  sched_switch swapper/0 -> B
 *   12000  CPU 0  sched_process_free A
 *   13000  CPU 1  timer_tick                            (the end)
 * Intervals:
 *   A: [1000,2000) running CPU 0, [2000,3000) syscall read, [3000,3500) irq 36
 *      (in read), [3500,4000) syscall read, [4000,5000) blocked in read,
 *      [5000,6000) runnable woken by B, [6000,7000) syscall read CPU 1,
 *      [7000,10000) running CPU 1, [10000,12000) exited (then freed)
 *   B: [1000,1500) unknown, [1500,5500) running CPU 1, [5500,5800) softirq 1
 *      TIMER, [5800,6000) running, [6000,11000) runnable preempted from CPU 1,
 *      [11000,13000) running CPU 0
 *   C: [8000,10000) runnable forked, [10000,13000) running CPU 1
 *
 * The user-space trace (spans): app:enter and app:exit with an id field
 * and a vtid context, one stream:
 *    1000 vtid 1 enter 7;  2000 vtid 2 enter 8;  3000 vtid 1 enter 9
 *    4000 vtid 1 exit 7;   6000 vtid 2 exit 8;   9000 vtid 1 exit 9
 *    9500 vtid 3 exit 5;  10000 vtid 3 enter 5; 11000 vtid 2 enter 10
 *   13000 vtid 2 exit 10
 * Per thread (nested: an exit closes the thread's latest enter): 1000
 * (3000-4000), 4000, 8000 (1000-9000), 2000; one exit without enter (vtid
 * 3 at 9500), one enter left open (10000). By id: 7: 3000, 8: 4000,
 * 9: 6000, 10: 2000; id 5 ends before it begins (one of each unmatched).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis-trace.h"
#include "analysis/analysis.h"
#include "check.h"
#include "common/strbuf.h"

static const uint8_t uuid[16] = {1, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};

static const struct ctfw_field task_fields[] = {
    {"comm", AT_COMM}, {"tid", AT_I32}, {"prio", AT_I32}, {"target_cpu", AT_I32}};
static const struct ctfw_field irq_fields[] = {{"irq", AT_I32}};
static const struct ctfw_field vec_fields[] = {{"vec", AT_I32}};
static const struct ctfw_field read_entry_fields[] = {{"fd", AT_I32}};
static const struct ctfw_field ret_fields[] = {{"ret", AT_I64}};
static const struct ctfw_field fork_fields[] = {
    {"parent_comm", AT_COMM}, {"parent_tid", AT_I32}, {"parent_pid", AT_I32},
    {"child_comm", AT_COMM},  {"child_tid", AT_I32},  {"child_pid", AT_I32},
};
static const struct ctfw_field tick_fields[] = {{"x", AT_I32}};

enum {
	EV_SWITCH,
	EV_WAKEUP,
	EV_ENTRY,
	EV_EXIT,
	EV_IRQ_IN,
	EV_IRQ_OUT,
	EV_SOFT_IN,
	EV_SOFT_OUT,
	EV_FORK,
	EV_PEXIT,
	EV_FREE,
	EV_TICK
};

static const struct ctfw_event_class kclasses[] = {
    [EV_SWITCH] = {"sched_switch", -1, NULL, at_switch_fields, 7},
    [EV_WAKEUP] = {"sched_wakeup", -1, NULL, task_fields, 4},
    [EV_ENTRY] = {"syscall_entry_read", -1, NULL, read_entry_fields, 1},
    [EV_EXIT] = {"syscall_exit_read", -1, NULL, ret_fields, 1},
    [EV_IRQ_IN] = {"irq_handler_entry", -1, NULL, irq_fields, 1},
    [EV_IRQ_OUT] = {"irq_handler_exit", -1, NULL, irq_fields, 1},
    [EV_SOFT_IN] = {"irq_softirq_entry", -1, NULL, vec_fields, 1},
    [EV_SOFT_OUT] = {"irq_softirq_exit", -1, NULL, vec_fields, 1},
    [EV_FORK] = {"sched_process_fork", -1, NULL, fork_fields, 6},
    [EV_PEXIT] = {"sched_process_exit", -1, NULL, task_fields, 3},
    [EV_FREE] = {"sched_process_free", -1, NULL, task_fields, 3},
    [EV_TICK] = {"timer_tick", -1, NULL, tick_fields, 1},
};

static void sw(struct ctfw_stream_file *f, uint64_t ts, const char *pc, int pt, int64_t state,
	       const char *nc, int nt)
{
	at_switch(f, EV_SWITCH, ts, pc, pt, 20, state, nc, nt, 20);
}

static void task(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, const char *comm, int tid)
{
	struct at_rec r = {.n = 0};

	at_putcomm(&r, comm);
	at_put32(&r, tid);
	at_put32(&r, 20);
	if (id == EV_WAKEUP)
		at_put32(&r, 1);
	at_emit(f, id, ts, &r);
}

static void one(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, int64_t v)
{
	struct at_rec r = {.n = 0};

	if (id == EV_EXIT)
		at_put64(&r, v);
	else
		at_put32(&r, (int32_t)v);
	at_emit(f, id, ts, &r);
}

/* Metadata for classes (n of them) in one stream (with its event context) into dir. */
static void write_metadata(const char *dir, const struct ctfw_event_class *classes, uint32_t n,
			   const struct ctfw_stream *stream)
{
	at_metadata(dir, &(struct at_meta){.uuid = uuid,
					   .clock_uuid = "01080706-0504-0302-0100-010203040506",
					   .stream = stream,
					   .classes = classes,
					   .nr_classes = n});
}

static void write_kernel(const char *dir)
{
	struct ctfw_stream stream = {.id = 0};
	struct ctfw_stream_file c[2];
	struct at_rec r = {.n = 0};

	write_metadata(dir, kclasses, sizeof(kclasses) / sizeof(kclasses[0]), &stream);
	at_open_cpus(c, 2, dir, uuid, 1000);
	sw(&c[0], 1000, "swapper/0", 0, 0, "A", 100);
	sw(&c[1], 1500, "swapper/1", 0, 0, "B", 200);
	one(&c[0], EV_ENTRY, 2000, 3);
	one(&c[0], EV_IRQ_IN, 3000, 36);
	one(&c[0], EV_IRQ_OUT, 3500, 36);
	sw(&c[0], 4000, "A", 100, 1, "swapper/0", 0);
	task(&c[1], EV_WAKEUP, 5000, "A", 100);
	one(&c[1], EV_SOFT_IN, 5500, 1);
	one(&c[1], EV_SOFT_OUT, 5800, 1);
	sw(&c[1], 6000, "B", 200, 0x100, "A", 100);
	one(&c[1], EV_EXIT, 7000, 0);
	at_putcomm(&r, "A");
	at_put32(&r, 100);
	at_put32(&r, 100);
	at_putcomm(&r, "C");
	at_put32(&r, 300);
	at_put32(&r, 100);
	at_emit(&c[1], EV_FORK, 8000, &r);
	task(&c[1], EV_PEXIT, 9000, "A", 100);
	sw(&c[1], 10000, "A", 100, 0x20, "C", 300);
	sw(&c[0], 11000, "swapper/0", 0, 0, "B", 200);
	task(&c[0], EV_FREE, 12000, "A", 100);
	one(&c[1], EV_TICK, 13000, 0);
	at_close_cpus(c, 2, 13000);
	CHECK_EQ(at_failures(), 0);
}

static const struct ctfw_field vtid_ctx[] = {{"vtid", AT_I32}};
static const struct ctfw_field id_fields[] = {{"id", AT_I32}};
static const struct ctfw_event_class uclasses[] = {
    {"app:enter", -1, NULL, id_fields, 1},
    {"app:exit", -1, NULL, id_fields, 1},
};

static void span_ev(struct ctfw_stream_file *f, int exit, uint64_t ts, int vtid, int id)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, vtid);
	at_put32(&r, id);
	at_emit(f, (uint32_t)exit, ts, &r);
}

static void write_ust(const char *dir)
{
	struct ctfw_stream stream = {.id = 0, .event_context = vtid_ctx, .nr_event_context = 1};
	struct ctfw_stream_file f;

	write_metadata(dir, uclasses, 2, &stream);
	at_open_cpus(&f, 1, dir, uuid, 1000);
	span_ev(&f, 0, 1000, 1, 7);
	span_ev(&f, 0, 2000, 2, 8);
	span_ev(&f, 0, 3000, 1, 9);
	span_ev(&f, 1, 4000, 1, 7);
	span_ev(&f, 1, 6000, 2, 8);
	span_ev(&f, 1, 9000, 1, 9);
	span_ev(&f, 1, 9500, 3, 5);
	span_ev(&f, 0, 10000, 3, 5);
	span_ev(&f, 0, 11000, 2, 10);
	span_ev(&f, 1, 13000, 2, 10);
	at_close_cpus(&f, 1, 13000);
	CHECK_EQ(at_failures(), 0);
}

/* The expected grouped text (times are 22:13:20.000 00X XXX). */
static const char *const grouped_lines[] = {
    "Timerange: [2023-11-14 22:13:20.000001000, 2023-11-14 22:13:20.000013000]\n",
    "\nA (tid 100): 9 intervals\n",
    "  22:13:20.000001000 22:13:20.000002000          1.000  running  CPU 0\n",
    "  22:13:20.000002000 22:13:20.000003000          1.000  syscall  CPU 0, read\n",
    "  22:13:20.000003000 22:13:20.000003500          0.500  irq      CPU 0, IRQ 36 (in read)\n",
    "  22:13:20.000003500 22:13:20.000004000          0.500  syscall  CPU 0, read\n",
    "  22:13:20.000004000 22:13:20.000005000          1.000  blocked  in read\n",
    "  22:13:20.000005000 22:13:20.000006000          1.000  runnable woken by B (200)\n",
    "  22:13:20.000006000 22:13:20.000007000          1.000  syscall  CPU 1, read\n",
    "  22:13:20.000007000 22:13:20.000010000          3.000  running  CPU 1\n",
    "  22:13:20.000010000 22:13:20.000012000          2.000  exited\n",
    "\nB (tid 200): 6 intervals\n",
    "  22:13:20.000001000 22:13:20.000001500          0.500  unknown\n",
    "  22:13:20.000001500 22:13:20.000005500          4.000  running  CPU 1\n",
    "  22:13:20.000005500 22:13:20.000005800          0.300  softirq  CPU 1, softirq 1 TIMER\n",
    "  22:13:20.000005800 22:13:20.000006000          0.200  running  CPU 1\n",
    "  22:13:20.000006000 22:13:20.000011000          5.000  runnable preempted from CPU 1\n",
    "  22:13:20.000011000 22:13:20.000013000          2.000  running  CPU 0\n",
    "\nC (tid 300, pid 100): 2 intervals\n",
    "  22:13:20.000008000 22:13:20.000010000          2.000  runnable forked\n",
    "  22:13:20.000010000 22:13:20.000013000          3.000  running  CPU 1\n",
    NULL,
};

static void check_flow(const char *dir)
{
	struct an_options o;
	struct strbuf want;
	char *out;
	int st;

	check_part = "flow --group";
	an_options_init(&o);
	o.group = 1;
	out = at_run("flow", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	strbuf_init(&want);
	for (size_t i = 0; grouped_lines[i]; i++)
		strbuf_puts(&want, grouped_lines[i]);
	CHECK(out && want.buf && !strcmp(out, want.buf), "got:\n%s\nexpected:\n%s", out, want.buf);
	strbuf_free(&want);
	free(out);

	/* streaming: the same intervals, in the order they close, each naming its thread */
	check_part = "flow";
	o.group = 0;
	out = at_run("flow", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out, "Begin              End                 Duration (us)  Thread"), "%s",
	      out);
	CHECK(at_has(out, "\n22:13:20.000001000 22:13:20.000001500          0.500  B (200)"
			  "                  unknown\n"
			  "22:13:20.000001000 22:13:20.000002000          1.000  A (100)"
			  "                  running  CPU 0\n"
			  "22:13:20.000002000 22:13:20.000003000"),
	      "%s", out);
	CHECK(at_has(out, "\n17 intervals of 3 threads\n"), "%s", out);
	free(out);

	check_part = "flow json";
	o.json = 1;
	out = at_run("flow", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "{\"analysis\": \"flow\", \"intervals\": [\n{\"tid\": 200, \"begin\": "
		     "1700000000000001000, \"end\": 1700000000000001500, \"state\": \"unknown\"},\n"
		     "{\"tid\": 100, \"begin\": "
		     "1700000000000001000, \"end\": 1700000000000002000, \"state\": \"running\", "
		     "\"cpu\": 0},\n"),
	      "%s", out);
	CHECK(at_has(out, "{\"tid\": 100, \"begin\": 1700000000000003000, \"end\": "
			  "1700000000000003500, \"state\": \"irq\", \"cpu\": 0, \"syscall\": "
			  "\"read\", \"irq\": 36}"),
	      "%s", out);
	CHECK(at_has(out, "\"state\": \"runnable\", \"syscall\": \"read\", \"reason\": \"woken\", "
			  "\"waker\": 200}"),
	      "%s", out);
	CHECK(at_has(out, "\"state\": \"runnable\", \"cpu\": 1, \"reason\": \"preempted\"}"), "%s",
	      out);
	CHECK(at_has(out,
		     "\n], \"threads\": [{\"tid\": 100, \"name\": \"A\"}, {\"tid\": 200, \"name\": "
		     "\"B\"}, {\"tid\": 300, \"pid\": 100, \"name\": \"C\"}], \"time-range\": "
		     "{\"begin\": 1700000000000001000, \"end\": 1700000000000013000}}\n"),
	      "%s", out);
	free(out);

	/* --begin: the state is known from before; intervals cut at the period's start (5500) */
	check_part = "flow --begin --tid";
	o.json = 0;
	o.group = 1;
	o.begin = "1700000000000005200";
	o.tids.v = (int64_t[]){100};
	o.tids.n = 1;
	out = at_run("flow", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "\nA (tid 100): 4 intervals\n"
		     "  22:13:20.000005500 22:13:20.000006000          0.500  runnable woken by "
		     "B (200)\n"),
	      "%s", out);
	CHECK(!at_has(out, "(tid 200)"), "%s", out);
	free(out);
	o.begin = NULL;
	o.tids.n = 0;
}

static void check_spans(const char *dir)
{
	struct an_options o;
	char *out;
	int st;

	check_part = "spans per thread";
	an_options_init(&o);
	o.begin_event = "app:enter";
	o.end_event = "app:exit";
	o.top = 3;
	out = at_run("spans", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "Spans from app:enter to app:exit, per thread (vtid/tid context), else per "
		     "stream\n"),
	      "%s", out);
	/* stdev: sqrt(((1000-3750)^2 + (4000-3750)^2 + (8000-3750)^2 + (2000-3750)^2) / 3) */
	CHECK(
	    at_has(out,
		   "\n4                     1.000          3.750          8.000          3.096\n"),
	    "%s", out);
	CHECK(at_has(out, "\np50                   2.000\np90                   8.000\n"
			  "p95                   8.000\np99                   8.000\n"
			  "p99.9                 8.000\n"),
	      "%s", out);
	/* 20 buckets from 1 to 8 us, step 0.35: 1000 -> 0, 2000 -> 2 (1.7), 4000 -> 8, 8000 -> 19
	 */
	CHECK(at_has(out, "\n         1.000 \u2588"), "%s", out);
	CHECK(at_has(out, "\n         1.350                                        "), "%s", out);
	CHECK(at_has(out, "\n         1.700 \u2588"), "%s", out);
	CHECK(at_has(out, "\n         3.800 \u2588"), "%s", out);
	CHECK(at_has(out, "\n         7.650 \u2588"), "%s", out);
	CHECK(at_has(out,
		     "2023-11-14 22:13:20.000001000 2023-11-14 22:13:20.000009000          8.000"
		     "  tid 1\n"
		     "2023-11-14 22:13:20.000002000 2023-11-14 22:13:20.000006000          4.000"
		     "  tid 2\n"
		     "2023-11-14 22:13:20.000011000 2023-11-14 22:13:20.000013000          2.000"
		     "  tid 2\n"),
	      "%s", out);
	CHECK(at_has(out,
		     "\nUnmatched: 1 begin events without an end, 1 end events without a begin\n"),
	      "%s", out);
	free(out);

	check_part = "spans --match";
	o.match = "id";
	o.json = 1;
	out = at_run("spans", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	/* 3000, 4000, 6000, 2000: stdev sqrt(8750000 / 3) */
	CHECK(at_has(out,
		     "{\"class\": \"string\", \"value\": \"by field id\"}, {\"class\": "
		     "\"number\", \"value\": 4}, {\"class\": \"duration\", \"value\": 2000}, "
		     "{\"class\": \"duration\", \"value\": 3750.0}, {\"class\": \"duration\", "
		     "\"value\": 6000}, {\"class\": \"duration\", \"value\": 1707.825127659933}]"),
	      "%s", out);
	CHECK(at_has(out, "[{\"class\": \"number\", \"value\": 50.0}, {\"class\": \"duration\", "
			  "\"value\": 3000}]"),
	      "%s", out);
	CHECK(at_has(out, "[{\"class\": \"number\", \"value\": 99.9}, {\"class\": \"duration\", "
			  "\"value\": 6000}]"),
	      "%s", out);
	CHECK(at_has(out,
		     "[{\"class\": \"timestamp\", \"value\": 1700000000000003000}, {\"class\": "
		     "\"timestamp\", \"value\": 1700000000000009000}, {\"class\": \"duration\", "
		     "\"value\": 6000}, {\"class\": \"number\", \"value\": 9}]"),
	      "%s", out);
	CHECK(at_has(out,
		     "\"data\": [[{\"class\": \"number\", \"value\": 1}, {\"class\": \"number\", "
		     "\"value\": 1}, {\"class\": \"number\", \"value\": 0}]]"),
	      "%s", out);
	free(out);

	check_part = "spans errors";
	o.json = 0;
	o.end_event = "app:nothing";
	out = at_run("spans", &o, dir, &st);
	CHECK_EQ(st, AN_FAIL);
	free(out);
	o.end_event = NULL;
	out = at_run("spans", &o, dir, &st);
	CHECK_EQ(st, AN_USAGE);
	free(out);
}

int main(void)
{
	char tmp[] = "/tmp/trax-test-flow.XXXXXX", kdir[100], udir[100];

	setenv("TZ", "UTC", 1);
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(kdir, sizeof(kdir), "%s/kernel", tmp);
	snprintf(udir, sizeof(udir), "%s/ust", tmp);
	write_kernel(kdir);
	write_ust(udir);
	check_flow(kdir);
	check_spans(udir);
	if (!failures) {
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmp);
	}
	return CHECK_RESULT();
}
