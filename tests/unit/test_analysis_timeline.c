/*
 * test_analysis_timeline.c - `trax timeline` (src/analysis/timeline-*.c)
 * on traces written here with known states: the rows of the page, their
 * state changes, marks and spans decoded from the page's data and compared
 * with the story's, value by value; and the levels (decimation) on known
 * changes.
 *
 * The kernel trace (times in ns; the page counts from the first event, 1000):
 *   1000  CPU 0  sched_switch swapper/0 (0) -> A (100)
 *   1500  CPU 1  sched_switch swapper/1 (0) -> C (300)
 *   2000  CPU 0  syscall_entry_read (A)
 *   3000  CPU 0  irq_handler_entry irq 5 "eth0"
 *   3500  CPU 0  irq_handler_exit
 *   4000  CPU 0  sched_switch A (prev_state 1: blocked) -> B (200)
 *   6000  CPU 0  sched_wakeup A
 *   7000  CPU 0  sched_switch B (prev_state 0: preempted) -> A
 *   8000  CPU 0  syscall_exit_read (A)
 *   9000  CPU 0  irq_softirq_entry vec 1 (TIMER)
 *   9500  CPU 0  irq_softirq_exit
 *  10000  CPU 0  sched_switch A (prev_state 0) -> swapper/0
 *  11000  CPU 1  timer_tick (the end)
 * The user-space trace (vtid context 300, thread C):
 *   app:enter 2000, app:tick 2500, app:enter 3000, app:exit 4000,
 *   app:exit 5000, app:exit 6000 (no begin left), app:enter 7000 (never ends)
 * With --span app:enter,app:exit: spans [1000, +3000] depth 0,
 * [2000, +1000] depth 1, [6000, +4000 (to the end, 11000)] depth 0; one
 * end unmatched; 7 marks.
 * Also: the same kernel trace from --begin (the events before teach the
 * states: kflow's); a thread's life (fork, exit, zombie, free, an IRQ) in
 * kflow's states; the bound (--max-changes) on 10000 switches and
 * tl_compact on known changes.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis-trace.h"
#include "analysis/timeline-levels.h"
#include "analysis/timeline.h"
#include "check.h"
#include "writer/trace-env.h"

static const uint8_t uuid_k[16] = {1, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};
static const uint8_t uuid_u[16] = {2, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};

static const struct ctfw_field wakeup_fields[] = {
    {"comm", AT_COMM}, {"tid", AT_I32}, {"prio", AT_I32}, {"target_cpu", AT_I32}};
static const struct ctfw_field fd_fields[] = {{"fd", AT_I32}};
static const struct ctfw_field ret_fields[] = {{"ret", AT_I64}};
static const struct ctfw_field irq_entry_fields[] = {{"irq", AT_I32}, {"name", AT_COMM}};
static const struct ctfw_field irq_exit_fields[] = {{"irq", AT_I32}, {"ret", AT_I32}};
static const struct ctfw_field vec_fields[] = {{"vec", AT_I32}};
static const struct ctfw_field x_fields[] = {{"x", AT_I32}};

enum {
	EV_SWITCH,
	EV_WAKEUP,
	EV_SYS_READ,
	EV_SYS_READ_EXIT,
	EV_IRQ,
	EV_IRQ_EXIT,
	EV_SOFT,
	EV_SOFT_EXIT,
	EV_TICK
};

static const struct ctfw_event_class kclasses[] = {
    [EV_SWITCH] = {"sched_switch", -1, NULL, at_switch_fields, 7},
    [EV_WAKEUP] = {"sched_wakeup", -1, NULL, wakeup_fields, 4},
    [EV_SYS_READ] = {"syscall_entry_read", -1, NULL, fd_fields, 1},
    [EV_SYS_READ_EXIT] = {"syscall_exit_read", -1, NULL, ret_fields, 1},
    [EV_IRQ] = {"irq_handler_entry", -1, NULL, irq_entry_fields, 2},
    [EV_IRQ_EXIT] = {"irq_handler_exit", -1, NULL, irq_exit_fields, 2},
    [EV_SOFT] = {"irq_softirq_entry", -1, NULL, vec_fields, 1},
    [EV_SOFT_EXIT] = {"irq_softirq_exit", -1, NULL, vec_fields, 1},
    [EV_TICK] = {"timer_tick", -1, NULL, x_fields, 1},
};

enum { EV_ENTER, EV_EXIT, EV_APPTICK };
static const struct ctfw_event_class uclasses[] = {
    [EV_ENTER] = {"app:enter", -1, NULL, x_fields, 1},
    [EV_EXIT] = {"app:exit", -1, NULL, x_fields, 1},
    [EV_APPTICK] = {"app:tick", -1, NULL, x_fields, 1},
};
static const struct ctfw_field vtid_ctx[] = {{"vtid", AT_I32}};

static void sw(struct ctfw_stream_file *f, uint64_t ts, const char *pc, int pt, int64_t state,
	       const char *nc, int nt)
{
	at_switch(f, EV_SWITCH, ts, pc, pt, 20, state, nc, nt, 20);
}

static void app(struct ctfw_stream_file *f, uint32_t id, uint64_t ts)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, 300); /* vtid */
	at_put32(&r, 0);
	at_emit(f, id, ts, &r);
}

static void write_kernel(const char *dir)
{
	struct ctfw_stream_file c[2];
	struct at_rec r;

	at_metadata(dir, &(struct at_meta){.uuid = uuid_k,
					   .clock_uuid = "09080706-0504-0302-0100-010203040506",
					   .classes = kclasses,
					   .nr_classes = sizeof(kclasses) / sizeof(kclasses[0])});
	at_open_cpus(c, 2, dir, uuid_k, 1000);
	sw(&c[0], 1000, "swapper/0", 0, 0, "A", 100);
	sw(&c[1], 1500, "swapper/1", 0, 0, "C", 300);
	at_emit32(&c[0], EV_SYS_READ, 2000, 3);
	r.n = 0;
	at_put32(&r, 5);
	at_putcomm(&r, "eth0");
	at_emit(&c[0], EV_IRQ, 3000, &r);
	r.n = 0;
	at_put32(&r, 5);
	at_put32(&r, 1);
	at_emit(&c[0], EV_IRQ_EXIT, 3500, &r);
	sw(&c[0], 4000, "A", 100, 1, "B", 200);
	r.n = 0;
	at_putcomm(&r, "A");
	at_put32(&r, 100);
	at_put32(&r, 20);
	at_put32(&r, 0);
	at_emit(&c[0], EV_WAKEUP, 6000, &r);
	sw(&c[0], 7000, "B", 200, 0, "A", 100);
	r.n = 0;
	at_put64(&r, 10);
	at_emit(&c[0], EV_SYS_READ_EXIT, 8000, &r);
	at_emit32(&c[0], EV_SOFT, 9000, 1);
	at_emit32(&c[0], EV_SOFT_EXIT, 9500, 1);
	sw(&c[0], 10000, "A", 100, 0, "swapper/0", 0);
	at_emit32(&c[1], EV_TICK, 11000, 0);
	at_close_cpus(c, 2, 11000);
	CHECK_EQ(at_failures(), 0);
}

static void write_user(const char *dir)
{
	struct ctfw_env_entry env[CTF_ENV_UST_MAX];
	struct ctf_env_ust_desc ed = {.buffering_id = 0,
				      .bits = 64,
				      .trace_name = "synth",
				      .creation_datetime = "20231114T221320+0000",
				      .hostname = "synth"};
	struct ctfw_stream stream = {.id = 0, .event_context = vtid_ctx, .nr_event_context = 1};
	struct ctfw_stream_file u;

	at_metadata(dir, &(struct at_meta){.uuid = uuid_u,
					   .clock_uuid = "09080706-0504-0302-0100-010203040506",
					   .env = env,
					   .nr_env = ctf_env_ust(env, &ed),
					   .stream = &stream,
					   .classes = uclasses,
					   .nr_classes = sizeof(uclasses) / sizeof(uclasses[0])});
	at_open_cpus(&u, 1, dir, uuid_u, 1000);
	app(&u, EV_ENTER, 2000);
	app(&u, EV_APPTICK, 2500);
	app(&u, EV_ENTER, 3000);
	app(&u, EV_EXIT, 4000);
	app(&u, EV_EXIT, 5000);
	app(&u, EV_EXIT, 6000);
	app(&u, EV_ENTER, 7000);
	at_close_cpus(&u, 1, 11000);
	CHECK_EQ(at_failures(), 0);
}

/* The page's data, decoded. */
static int b64val(char c)
{
	const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(a, c) : NULL;

	return p ? (int)(p - a) : -1;
}

/* The base64 string starting at s (after its quote) decoded into out: its length. */
static size_t unb64(const char *s, unsigned char *out, size_t cap)
{
	size_t n = 0;
	uint32_t acc = 0;
	int bits = 0;

	for (; *s && *s != '"'; s++) {
		int v = b64val(*s);

		if (v < 0)
			continue;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n < cap)
				out[n++] = (unsigned char)(acc >> bits & 0xff);
		}
	}
	return n;
}

static uint64_t varint(const unsigned char *b, size_t n, size_t *p)
{
	uint64_t v = 0;
	int shift = 0;

	while (*p < n) {
		unsigned char c = b[(*p)++];

		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80))
			break;
	}
	return v;
}

/* The row whose "k" and "id" are given: a pointer into the page, NULL when absent. */
static const char *row(const char *page, char kind, long id)
{
	char key[64];

	snprintf(key, sizeof(key), "{\"k\":\"%c\",\"id\":%ld,", kind, id);
	return strstr(page, key);
}

/* The n-th string of the page's table (plain ASCII here). */
static void string_at(const char *page, unsigned id, char *out, size_t cap)
{
	const char *p = strstr(page, "\"strings\":[\"");

	out[0] = 0;
	if (!p)
		return;
	p += 12;
	for (unsigned i = 0; i < id && p; i++) {
		p = strstr(p, "\",\"");
		if (p)
			p += 3;
	}
	if (p) {
		size_t n = strcspn(p, "\"");

		snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
	}
}

/* A row's raw changes as "t:state:detail " with details as strings (or row numbers) . */
static void changes_text(const char *page, const char *r, char *out, size_t cap, int cpu)
{
	const char *ch = r ? strstr(r, "\"raw\":[\"") : NULL;
	unsigned char b[4096];
	size_t n, p = 0, len = 0;
	uint64_t t = 0;

	out[0] = 0;
	if (!ch)
		return;
	n = unb64(ch + 8, b, sizeof(b));
	while (p < n && len + 80 < cap) {
		uint64_t v = varint(b, n, &p), d = 0;
		unsigned st = (unsigned)(v & 15);
		char ds[64] = "";

		t += v >> 4;
		if (tl_state_has_detail((enum tl_state)st))
			d = varint(b, n, &p);
		if (d && cpu && (st == TL_USER || st == TL_SYSCALL))
			snprintf(ds, sizeof(ds), "row%u", (unsigned)d);
		else if (d)
			string_at(page, (unsigned)d, ds, sizeof(ds));
		len += (size_t)snprintf(out + len, cap - len, "%llu:%u%s%s ", (unsigned long long)t,
					st, ds[0] ? ":" : "", ds);
	}
}

static char *page_max(const char *kdir, const char *udir, const struct an_span_pair *spans,
		      size_t nspans, size_t max_changes, const char *begin)
{
	struct an_options o;
	struct an_timeline_options to = {
	    .spans = spans, .nspans = nspans, .title = "synth", .max_changes = max_changes};
	const char *paths[2] = {kdir, udir};
	char err[1024], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int st;

	an_options_init(&o);
	o.intersect = 0;
	o.begin = begin;
	o.gmt = 1;
	CHECK(f != NULL);
	if (!f)
		return NULL;
	st = an_timeline(&o, &to, paths, udir ? 2 : 1, f, err, sizeof(err));
	CHECK_EQ(st, AN_OK);
	if (st)
		fprintf(stderr, "an_timeline: %s\n", err);
	fclose(f);
	return buf;
}

static char *page_of(const char *kdir, const char *udir, const struct an_span_pair *spans,
		     size_t nspans)
{
	return page_max(kdir, udir, spans, nspans, 0, NULL);
}

static void check_page(const char *kdir, const char *udir)
{
	static const struct an_span_pair spans[] = {{"app:enter", "app:exit"}};
	char *page = page_of(kdir, udir, spans, 1);
	char text[2048];
	const char *r;

	CHECK(page && strstr(page, "\"events\":20,\"marks\":7,\"spans\":3,\"unmatched\":1,"),
	      "%.300s", page ? strstr(page, "\"t0\"") : "");
	CHECK(page && strstr(page, "\"t0\":\"1700000000000001000\",\"span\":10000,"));
	/* rows: the CPUs, then the threads by pid (unknown: tid); nothing else */
	CHECK(page && (r = row(page, 'c', 0)) && r < row(page, 'c', 1) &&
	      row(page, 'c', 1) < row(page, 't', 100) &&
	      row(page, 't', 100) < row(page, 't', 200) &&
	      row(page, 't', 200) < row(page, 't', 300) && !row(page, 't', 0) &&
	      !strstr(page, "{\"k\":\"s\""));
	if (!page)
		return;
	changes_text(page, row(page, 't', 100), text, sizeof(text), 0);
	/* user, read, irq 5, read, blocked in read, woken, read again, user, softirq, user,
	 * preempted */
	CHECK(!strcmp(text, "0:1 1000:2:read 2000:3:irq 5 eth0 2500:2:read 3000:6:read 5000:5 "
			    "6000:2:read 7000:1 8000:4:softirq 1 TIMER 8500:1 9000:5 "),
	      "A: %s", text);
	changes_text(page, row(page, 't', 200), text, sizeof(text), 0);
	CHECK(!strcmp(text, "3000:1 6000:5 "), "B: %s", text);
	changes_text(page, row(page, 't', 300), text, sizeof(text), 0);
	CHECK(!strcmp(text, "500:1 "), "C: %s", text);
	/* a CPU's detail: the running thread's row number (A 3, B 4, C 5), or the IRQ */
	changes_text(page, row(page, 'c', 0), text, sizeof(text), 1);
	CHECK(!strcmp(text, "0:1:row3 1000:2:row3 2000:3:irq 5 eth0 2500:2:row3 3000:1:row4 "
			    "6000:2:row3 7000:1:row3 8000:4:softirq 1 TIMER 8500:1:row3 9000:10 "),
	      "CPU 0: %s", text);
	changes_text(page, row(page, 'c', 1), text, sizeof(text), 1);
	CHECK(!strcmp(text, "500:1:row5 "), "CPU 1: %s", text);
	/* C's marks (all 7 user-space events) and spans */
	r = row(page, 't', 300);
	CHECK(r && strstr(r, "\"nmk\":7,") && strstr(r, "\"nsp\":3,"), "%.200s", r ? r : "");
	if (r && strstr(r, "\"sp\":\"")) {
		unsigned char b[256];
		size_t n = unb64(strstr(r, "\"sp\":\"") + 6, b, sizeof(b)), p = 0, len = 0;
		uint64_t t = 0;

		text[0] = 0;
		while (p < n) {
			uint64_t d, dur, name, depth;
			char s[64];

			t += varint(b, n, &p);
			dur = varint(b, n, &p);
			name = varint(b, n, &p);
			depth = varint(b, n, &p);
			string_at(page, (unsigned)name, s, sizeof(s));
			d = t;
			len +=
			    (size_t)snprintf(text + len, sizeof(text) - len, "%llu+%llu:%s:%llu ",
					     (unsigned long long)d, (unsigned long long)dur, s,
					     (unsigned long long)depth);
		}
		CHECK(!strcmp(text, "1000+3000:app:enter:0 2000+1000:app:enter:1 "
				    "6000+4000:app:enter:0 "),
		      "spans: %s", text);
	}
	/* the marks' fields, for the hover (every app:* event has x = 0) */
	CHECK(strstr(page, ",\"x = 0\","));
	/* the stats tables are on the page, the template's markers are not */
	CHECK(strstr(page, "Events: 20 in ") && !strstr(page, "TRAX-DATA") &&
	      !strstr(page, "TRAX-STATS") && !strstr(page, "TRAX-TITLE"));
	free(page);

	/*
	 * from --begin 5000 (the page from the wakeup at 6000): the events
	 * before taught the states: A is woken in read (entered at 2000), runs
	 * in it at 7000; B ran on CPU 0 since 4000
	 */
	page = page_max(kdir, NULL, NULL, 0, 0, "2023-11-14 22:13:20.000005000");
	CHECK(page && strstr(page, "\"t0\":\"1700000000000006000\","));
	changes_text(page, row(page, 't', 100), text, sizeof(text), 0);
	CHECK(!strncmp(text, "0:5 1000:2:read 2000:1 ", 23), "A from --begin: %s", text);
	changes_text(page, row(page, 't', 200), text, sizeof(text), 0);
	CHECK(!strcmp(text, "0:1 1000:5 "), "B from --begin: %s", text);
	free(page);

	/*
	 * the user-space trace alone, at most 4 marks: at the 5th (3000 ns
	 * after the first), buckets of 750, 1500, then 3000 ns leave 2: the
	 * first 4 marks are one (count 4), then 3000, 4000, 5000 (not merged:
	 * 4 records)
	 */
	page = page_max(udir, NULL, NULL, 0, 4, NULL);
	CHECK(page && strstr(page, "\"mdropped\":3000,\"maxch\":4,"));
	r = page ? row(page, 't', 300) : NULL;
	CHECK(r && strstr(r, "\"nmk\":7,"), "%.200s", r ? r : "");
	if (r && strstr(r, "\"mk\":[\"")) {
		unsigned char b[256];
		size_t n = unb64(strstr(r, "\"mk\":[\"") + 7, b, sizeof(b)), p = 0, len = 0;
		uint64_t t = 0;

		text[0] = 0;
		while (p < n) {
			uint64_t count;

			t += varint(b, n, &p);
			varint(b, n, &p); /* name */
			count = varint(b, n, &p);
			varint(b, n, &p); /* fields */
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%llu*%llu ",
						(unsigned long long)t, (unsigned long long)count);
		}
		CHECK(!strcmp(text, "0*4 3000*1 4000*1 5000*1 "), "marks: %s", text);
	}
	free(page);

	/* the kernel trace alone: no marks, no spans */
	page = page_of(kdir, NULL, NULL, 0);
	CHECK(page && strstr(page, "\"events\":13,\"marks\":0,\"spans\":0,\"unmatched\":0,"));
	free(page);
}

/*
 * A thread's life, in kflow's states (the timeline's are flow's):
 *   1000  CPU 0  sched_switch swapper/0 -> A (100)
 *   2000  CPU 0  sched_process_fork A -> C (300, pid 300)
 *   3000  CPU 0  sched_process_exit A      (A still runs: user mode)
 *   4000  CPU 0  sched_switch A (prev_state 0x20: zombie) -> C
 *   5000  CPU 0  sched_process_free A      (A's row ends: unknown)
 *   6000  CPU 0  irq_handler_entry 5 "eth0"; 6500 exit
 *   7000  CPU 0  sched_switch C (prev_state 1) -> swapper/0
 *   8000  CPU 1  timer_tick (the end; CPU 1 never switched: no row)
 */
enum { LV_SWITCH, LV_FORK, LV_PEXIT, LV_FREE, LV_IRQ, LV_IRQ_EXIT, LV_TICK };
static const struct ctfw_field fork_fields[] = {
    {"parent_comm", AT_COMM}, {"parent_tid", AT_I32}, {"parent_pid", AT_I32},
    {"child_comm", AT_COMM},  {"child_tid", AT_I32},  {"child_pid", AT_I32},
};
static const struct ctfw_field task_fields[] = {
    {"comm", AT_COMM}, {"tid", AT_I32}, {"prio", AT_I32}};
static const struct ctfw_event_class lclasses[] = {
    [LV_SWITCH] = {"sched_switch", -1, NULL, at_switch_fields, 7},
    [LV_FORK] = {"sched_process_fork", -1, NULL, fork_fields, 6},
    [LV_PEXIT] = {"sched_process_exit", -1, NULL, task_fields, 3},
    [LV_FREE] = {"sched_process_free", -1, NULL, task_fields, 3},
    [LV_IRQ] = {"irq_handler_entry", -1, NULL, irq_entry_fields, 2},
    [LV_IRQ_EXIT] = {"irq_handler_exit", -1, NULL, irq_exit_fields, 2},
    [LV_TICK] = {"timer_tick", -1, NULL, x_fields, 1},
};

static void life_task(struct ctfw_stream_file *f, uint32_t id, uint64_t ts)
{
	struct at_rec r = {.n = 0};

	at_putcomm(&r, "A");
	at_put32(&r, 100);
	at_put32(&r, 20);
	at_emit(f, id, ts, &r);
}

static void write_life(const char *dir)
{
	struct ctfw_stream_file c[2];
	struct at_rec r = {.n = 0};

	at_metadata(dir, &(struct at_meta){.uuid = uuid_k,
					   .clock_uuid = "09080706-0504-0302-0100-010203040506",
					   .classes = lclasses,
					   .nr_classes = sizeof(lclasses) / sizeof(lclasses[0])});
	at_open_cpus(c, 2, dir, uuid_k, 1000);
	at_switch(&c[0], LV_SWITCH, 1000, "swapper/0", 0, 20, 0, "A", 100, 20);
	at_putcomm(&r, "A");
	at_put32(&r, 100);
	at_put32(&r, 100);
	at_putcomm(&r, "C");
	at_put32(&r, 300);
	at_put32(&r, 300);
	at_emit(&c[0], LV_FORK, 2000, &r);
	life_task(&c[0], LV_PEXIT, 3000);
	at_switch(&c[0], LV_SWITCH, 4000, "A", 100, 20, 0x20, "C", 300, 20);
	life_task(&c[0], LV_FREE, 5000);
	r.n = 0;
	at_put32(&r, 5);
	at_putcomm(&r, "eth0");
	at_emit(&c[0], LV_IRQ, 6000, &r);
	r.n = 0;
	at_put32(&r, 5);
	at_put32(&r, 1);
	at_emit(&c[0], LV_IRQ_EXIT, 6500, &r);
	at_switch(&c[0], LV_SWITCH, 7000, "C", 300, 20, 1, "swapper/0", 0, 20);
	at_emit32(&c[1], LV_TICK, 8000, 0);
	at_close_cpus(c, 2, 8000);
	CHECK_EQ(at_failures(), 0);
}

static void check_life(const char *dir)
{
	char *page = page_of(dir, NULL, NULL, 0), text[1024];

	CHECK(page != NULL);
	if (!page)
		return;
	CHECK(!row(page, 'c', 1), "a row for CPU 1, never switched");
	/* A: user mode (exiting: still running), exited (zombie) from 3000, freed: unknown */
	changes_text(page, row(page, 't', 100), text, sizeof(text), 0);
	CHECK(!strcmp(text, "0:1 3000:9 4000:0 "), "A: %s", text);
	/* C: forked (waiting), user mode, the IRQ, user mode, blocked */
	changes_text(page, row(page, 't', 300), text, sizeof(text), 0);
	CHECK(!strcmp(text, "1000:7 3000:1 5000:3:irq 5 eth0 5500:1 6000:6 "), "C: %s", text);
	/* CPU 0: A (row 2), C (row 3), the IRQ, C, idle */
	changes_text(page, row(page, 'c', 0), text, sizeof(text), 1);
	CHECK(!strcmp(text, "0:1:row2 3000:1:row3 5000:3:irq 5 eth0 5500:1:row3 6000:10 "),
	      "CPU 0: %s", text);
	free(page);
}

/*
 * The bound: CPU 0 runs A (100) 30 ns then B (200) 10 ns, 5000 times (both
 * preempted: runnable between), over 200 us; CPU 1 a tick at the end.
 * 15000 state changes in all, at most 1000 kept.
 */
#define BIG_CYCLES 5000
static void write_big(const char *dir)
{
	struct ctfw_stream_file c[2];

	at_metadata(dir, &(struct at_meta){.uuid = uuid_k,
					   .clock_uuid = "09080706-0504-0302-0100-010203040506",
					   .classes = kclasses,
					   .nr_classes = sizeof(kclasses) / sizeof(kclasses[0])});
	at_open_cpus(c, 2, dir, uuid_k, 1000);
	sw(&c[0], 1000, "swapper/0", 0, 0, "A", 100);
	for (uint64_t k = 0; k < BIG_CYCLES; k++) {
		sw(&c[0], 1000 + 40 * k + 30, "A", 100, 0, "B", 200);
		sw(&c[0], 1000 + 40 * k + 40, "B", 200, 0, "A", 100);
	}
	at_emit32(&c[1], EV_TICK, 1000 + 40 * BIG_CYCLES, 0);
	at_close_cpus(c, 2, 1000 + 40 * BIG_CYCLES);
	CHECK_EQ(at_failures(), 0);
}

/* A row's raw changes (every chunk): their count, and the time each state covers until span. */
static size_t row_cover(const char *r, int64_t span, int64_t cover[TL_STATE_COUNT])
{
	const char *p = r ? strstr(r, "\"raw\":[") : NULL, *end = p ? strchr(p, ']') : NULL;
	static unsigned char b[1 << 20];
	size_t count = 0;
	int64_t t = 0, last_t = 0;
	int last = -1;

	memset(cover, 0, TL_STATE_COUNT * sizeof(*cover));
	for (p = p ? strchr(p + 7, '"') : NULL; p && p < end; p = strchr(p + 1, '"')) {
		size_t n = unb64(p + 1, b, sizeof(b)), q = 0;

		p = strchr(p + 1, '"'); /* (its closing quote) */
		t = 0;			/* (each chunk counts from 0) */
		while (q < n) {
			uint64_t v = varint(b, n, &q);

			t += (int64_t)(v >> 4);
			if (tl_state_has_detail((enum tl_state)(v & 15)))
				varint(b, n, &q);
			CHECK(t >= last_t, "changes out of order: %lld after %lld", (long long)t,
			      (long long)last_t);
			if (last >= 0)
				cover[last] += t - last_t;
			last = (int)(v & 15);
			last_t = t;
			count++;
		}
		if (!p)
			break;
	}
	if (last >= 0)
		cover[last] += span - last_t;
	return count;
}

static void check_bound(const char *dir)
{
	char *page = page_max(dir, NULL, NULL, 0, 1000, NULL),
	     *full = page_max(dir, NULL, NULL, 0, 0, NULL);
	int64_t cover[TL_STATE_COUNT], span = 40 * BIG_CYCLES;
	const char *d;
	size_t na, nb, nc;
	long dropped;

	CHECK(page && full);
	if (!page || !full)
		goto out;
	/* unbounded (the default bound is far): every change, nothing dropped */
	CHECK(strstr(full, "\"dropped\":0,\"mdropped\":0,\"maxch\":1000000,"));
	CHECK_EQ(row_cover(row(full, 't', 100), span, cover), 2 * BIG_CYCLES);
	CHECK_EQ(cover[TL_USER], 30 * BIG_CYCLES);
	CHECK_EQ(cover[TL_WAIT_CPU], 10 * BIG_CYCLES);
	/* bounded: detail dropped below a width, the rows' changes within the bound */
	d = strstr(page, "\"dropped\":");
	dropped = d ? strtol(d + 10, NULL, 10) : 0;
	CHECK(dropped >= 40, "dropped %ld", dropped);
	CHECK(strstr(page, ",\"maxch\":1000,"));
	na = row_cover(row(page, 't', 100), span, cover);
	/* A ran 3/4 of each 40 ns: user mode covers most of every bucket */
	CHECK(cover[TL_USER] >= span * 9 / 10, "A user %lld of %lld", (long long)cover[TL_USER],
	      (long long)span);
	nb = row_cover(row(page, 't', 200), span, cover);
	CHECK(cover[TL_WAIT_CPU] >= span * 9 / 10, "B runnable %lld",
	      (long long)cover[TL_WAIT_CPU]);
	nc = row_cover(row(page, 'c', 0), span, cover);
	CHECK(cover[TL_USER] == span, "CPU 0 user %lld", (long long)cover[TL_USER]);
	CHECK(na + nb + nc <= 1000, "%zu + %zu + %zu changes", na, nb, nc);
	/* the page: a fraction of the full one's size */
	CHECK(strlen(page) < 60000 && strlen(full) > 2 * strlen(page), "page %zu, full %zu",
	      strlen(page), strlen(full));
out:
	free(page);
	free(full);
}

/* Compaction of a row (tl_compact): known buckets, what follows the cut left as it was. */
static void check_compact(void)
{
	struct tl_change ch[] = {
	    {0, 0, TL_USER}, {1, 7, TL_SYSCALL}, {4, 0, TL_USER},
	    {9, 3, TL_WAIT}, {10, 0, TL_USER},	 {30, 7, TL_SYSCALL},
	};
	struct tl_change c2[6];
	long n;

	/*
	 * w 4, known until 33: [0,4) syscall 3 of 4 (detail 7); [4,8) user;
	 * [8,12) user 3, wait 1: user; user until [28,32) (user 2, syscall 2:
	 * the first wins); [32,33) syscall
	 */
	memcpy(c2, ch, sizeof(ch));
	n = tl_compact(c2, 6, 33, 4);
	CHECK_EQ(n, 3);
	if (n == 3) {
		CHECK(c2[0].t == 0 && c2[0].state == TL_SYSCALL && c2[0].detail == 7);
		CHECK(c2[1].t == 4 && c2[1].state == TL_USER && c2[1].detail == 0);
		CHECK(c2[2].t == 32 && c2[2].state == TL_SYSCALL && c2[2].detail == 7);
		/* again: nothing more to merge */
		CHECK_EQ(tl_compact(c2, 3, 33, 4), 3);
		CHECK(c2[2].t == 32);
	}
	/* known until 31: the last bucket, [28,31), is user's (2 of 3) */
	memcpy(c2, ch, sizeof(ch));
	n = tl_compact(c2, 6, 31, 4);
	CHECK_EQ(n, 2);
	if (n == 2)
		CHECK(c2[1].t == 4 && c2[1].state == TL_USER);
	/*
	 * a row starting inside a bucket starts there still (9: user covers 6 of
	 * [8,16), wait 1); the syscall from 30 covers 2 of [24,32): from 32 on
	 */
	memcpy(c2, ch + 3, 3 * sizeof(*ch));
	n = tl_compact(c2, 3, 40, 8);
	CHECK_EQ(n, 2);
	if (n == 2)
		CHECK(c2[0].t == 9 && c2[0].state == TL_USER && c2[1].t == 32 &&
		      c2[1].state == TL_SYSCALL);
	/* less than a bucket known: unchanged */
	CHECK_EQ(tl_compact(c2, 1, 3, 8), 1);
	{
		/* marks: one per bucket of 10 ns, the first, with the count of the others */
		struct tl_mark mk[] = {{1, 5, 6, 1}, {9, 7, 0, 1}, {10, 8, 0, 2}, {25, 9, 0, 1}};

		CHECK_EQ(tl_compact_marks(mk, 4, 10), 3);
		CHECK(mk[0].t == 1 && mk[0].name == 5 && mk[0].args == 6 && mk[0].count == 2);
		CHECK(mk[1].t == 10 && mk[1].count == 2 && mk[2].t == 25 && mk[2].count == 1);
	}
}

/* Levels: the dominant state of each bucket, and the runner-up. */
static void check_levels(void)
{
	/* span 4096 ns: level 0 buckets of 4 ns; a row of 3 changes has no level */
	struct tl_change ch[] = {
	    {0, 0, TL_USER}, {1, 0, TL_SYSCALL}, {4, 0, TL_USER}, {9, 0, TL_WAIT}, {10, 0, TL_USER},
	};
	struct tl_change *d = NULL;
	long n;

	CHECK(tl_level_width(4096, 0) == 4.0);
	CHECK(tl_level_width(4096, 1) == 1.0);
	CHECK_EQ(tl_level_count(4096, 3), 0);
	/* levels of 64, 16 and 4 ns (1024, 4096, 16384 buckets); 1 ns: 65536, more than n / 2 */
	CHECK_EQ(tl_level_count(4096 * 16, 100000), 3);
	n = tl_decimate(ch, 5, 4096, 0, &d);
	/*
	 * [0,4): syscall 3 ns over user 1; [4,8): user; [8,12): user 3 (8, 10,
	 * 11) and wait 1; from 12 on: user alone (a new run: its runner-up differs)
	 */
	CHECK_EQ(n, 4);
	if (d && n == 4) {
		CHECK(d[0].t == 0 && d[0].state == TL_SYSCALL && d[0].detail == TL_USER);
		CHECK(d[1].t == 4 && d[1].state == TL_USER && d[1].detail == 0);
		CHECK(d[2].t == 8 && d[2].state == TL_USER && d[2].detail == TL_WAIT);
		CHECK(d[3].t == 12 && d[3].state == TL_USER && d[3].detail == 0);
	}
	free(d);
}

int main(void)
{
	char tmp[] = "/tmp/trax-test-timeline.XXXXXX", kdir[100], udir[100];

	setenv("TZ", "UTC", 1);
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(kdir, sizeof(kdir), "%s/kernel", tmp);
	snprintf(udir, sizeof(udir), "%s/ust", tmp);
	write_kernel(kdir);
	write_user(udir);
	check_page(kdir, udir);
	check_levels();
	check_compact();
	snprintf(kdir, sizeof(kdir), "%s/life", tmp);
	write_life(kdir);
	check_life(kdir);
	snprintf(kdir, sizeof(kdir), "%s/big", tmp);
	write_big(kdir);
	check_bound(kdir);
	if (!failures) {
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmp);
	}
	return CHECK_RESULT();
}
