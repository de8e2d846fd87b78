/*
 * test_analysis_sched.c - `trax analyze schedlatency` and `irqstats` on a
 * kernel trace written here with known answers, and their parts:
 *  - durstats: the sample standard deviation rounded as Python's
 *    statistics.stdev (exactly: values computed by Python 3.11 on the same
 *    pseudo-random samples, most of which the naive sqrt((double)var)
 *    misses by one unit in the last place), the average as int / int;
 *  - kirq: hard IRQ entry/exit matching, soft IRQ raise queues.
 *
 * With an argument DIR, only writes the trace to DIR/kernel (for
 * tests/integration/analyze_sched_irq.sh, which gives it to
 * lttng-schedstats and, renamed, to lttng-irqstats).
 *
 * The story, times in ns from the clock's zero (2023-11-14 22:13:20 UTC);
 * A alpha (100), B Beta (200), C charlie (300), D delta (400):
 *   1000  CPU 0  switch swapper/0 -> alpha (prio 20)
 *   2000  CPU 0  sched_wakeup Beta (prio 20), by alpha
 *   3000  CPU 1  switch swapper/1 -> charlie (prio 0)
 *   4000  CPU 1  sched_wakeup delta (prio 0), by charlie
 *   5000  CPU 0  switch alpha -> Beta           latency  3000 (Beta, 20)
 *   6000  CPU 0  irq 10 "eth0" entry, 8500 exit   2500
 *   9000  CPU 0  softirq 3 raise, 10000 entry, 14000 exit: 4000, raised 1000 before
 *  15000  CPU 1  switch charlie -> delta        latency 11000 (delta, 0)
 *  16000  CPU 1  irq 10 "eth0-rx" entry, 17000 exit   1000
 *  18000  CPU 1  irq 11 "timer" entry, 18500 exit       500
 *  19000  CPU 1  irq 12 "x" entry, 19500 irq 13 exit: not counted (not 12)
 *  20000  CPU 0  sched_wakeup alpha (prio 20), by Beta
 *  21000  CPU 1  sched_wakeup charlie, by delta; 22000 again (the first counts)
 *  24000  CPU 1  softirq 1 entry (no raise), 24600 exit: 600, no raise latency
 *  26000  CPU 1  switch delta -> charlie        latency  5000 (charlie, 0)
 *  27000  CPU 0  switch Beta -> alpha           latency  7000 (alpha, 20)
 *  30000  CPU 1  timer_tick (the period's end)
 * Total: 4 latencies, 3, 5, 7, 11 us: average 6.5, stdev 3.41565...; per
 * prio 0: 5 and 11 us, 20: 3 and 7. Rows sorted by lower-cased name:
 * alpha, Beta, charlie, delta (byte order would put Beta first).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis-trace.h"
#include "analysis/analysis.h"
#include "analysis/durstats.h"
#include "analysis/kirq.h"
#include "check.h"

static const uint8_t uuid[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 7};

static const struct ctfw_field wakeup_fields[] = {
    {"comm", AT_COMM},
    {"tid", AT_I32},
    {"prio", AT_I32},
    {"target_cpu", AT_I32},
};
static const struct ctfw_field irq_entry_fields[] = {{"irq", AT_I32}, {"name", AT_STR}};
static const struct ctfw_field irq_exit_fields[] = {{"irq", AT_I32}, {"ret", AT_I32}};
static const struct ctfw_field vec_fields[] = {{"vec", AT_I32}};
static const struct ctfw_field tick_fields[] = {{"x", AT_I32}};

enum {
	EV_SWITCH,
	EV_WAKEUP,
	EV_IRQ_ENTRY,
	EV_IRQ_EXIT,
	EV_RAISE,
	EV_SOFT_ENTRY,
	EV_SOFT_EXIT,
	EV_TICK
};

static const struct ctfw_event_class classes[] = {
    [EV_SWITCH] = {"sched_switch", -1, NULL, at_switch_fields, 7},
    [EV_WAKEUP] = {"sched_wakeup", -1, NULL, wakeup_fields, 4},
    [EV_IRQ_ENTRY] = {"irq_handler_entry", -1, NULL, irq_entry_fields, 2},
    [EV_IRQ_EXIT] = {"irq_handler_exit", -1, NULL, irq_exit_fields, 2},
    [EV_RAISE] = {"irq_softirq_raise", -1, NULL, vec_fields, 1},
    [EV_SOFT_ENTRY] = {"irq_softirq_entry", -1, NULL, vec_fields, 1},
    [EV_SOFT_EXIT] = {"irq_softirq_exit", -1, NULL, vec_fields, 1},
    [EV_TICK] = {"timer_tick", -1, NULL, tick_fields, 1},
};

static void sw(struct ctfw_stream_file *f, uint64_t ts, const char *pc, int pt, int pp,
	       const char *nc, int nt, int np)
{
	at_switch(f, EV_SWITCH, ts, pc, pt, pp, 0, nc, nt, np);
}

static void wakeup(struct ctfw_stream_file *f, uint64_t ts, const char *comm, int tid, int prio,
		   int target)
{
	struct at_rec r = {.n = 0};

	at_putcomm(&r, comm);
	at_put32(&r, tid);
	at_put32(&r, prio);
	at_put32(&r, target);
	at_emit(f, EV_WAKEUP, ts, &r);
}

static void irq(struct ctfw_stream_file *f, uint64_t ts, int nr, const char *name)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, nr);
	if (name)
		at_putstr(&r, name);
	else
		at_put32(&r, 1); /* ret: IRQ_HANDLED */
	at_emit(f, name ? EV_IRQ_ENTRY : EV_IRQ_EXIT, ts, &r);
}

static void write_trace(const char *dir)
{
	struct ctfw_stream_file c[2];

	at_metadata(dir, &(struct at_meta){.uuid = uuid,
					   .clock_uuid = "09080706-0504-0302-0100-010203040507",
					   .classes = classes,
					   .nr_classes = sizeof(classes) / sizeof(classes[0])});
	at_open_cpus(c, 2, dir, uuid, 1000);
	sw(&c[0], 1000, "swapper/0", 0, 20, "alpha", 100, 20);
	wakeup(&c[0], 2000, "Beta", 200, 20, 0);
	sw(&c[1], 3000, "swapper/1", 0, 20, "charlie", 300, 0);
	wakeup(&c[1], 4000, "delta", 400, 0, 1);
	sw(&c[0], 5000, "alpha", 100, 20, "Beta", 200, 20);
	irq(&c[0], 6000, 10, "eth0");
	irq(&c[0], 8500, 10, NULL);
	at_emit32(&c[0], EV_RAISE, 9000, 3);
	at_emit32(&c[0], EV_SOFT_ENTRY, 10000, 3);
	at_emit32(&c[0], EV_SOFT_EXIT, 14000, 3);
	sw(&c[1], 15000, "charlie", 300, 0, "delta", 400, 0);
	irq(&c[1], 16000, 10, "eth0-rx");
	irq(&c[1], 17000, 10, NULL);
	irq(&c[1], 18000, 11, "timer");
	irq(&c[1], 18500, 11, NULL);
	irq(&c[1], 19000, 12, "x");
	irq(&c[1], 19500, 13, NULL);
	wakeup(&c[0], 20000, "alpha", 100, 20, 0);
	wakeup(&c[1], 21000, "charlie", 300, 0, 1);
	wakeup(&c[1], 22000, "charlie", 300, 0, 1);
	at_emit32(&c[1], EV_SOFT_ENTRY, 24000, 1);
	at_emit32(&c[1], EV_SOFT_EXIT, 24600, 1);
	sw(&c[1], 26000, "delta", 400, 0, "charlie", 300, 0);
	sw(&c[0], 27000, "Beta", 200, 20, "alpha", 100, 20);
	at_emit32(&c[1], EV_TICK, 30000, 7);
	at_close_cpus(c, 2, 30000);
	CHECK_EQ(at_failures(), 0);
}

/* The pseudo-random samples of /tmp gen.py (a 64-bit LCG, bits 33..63). */
static uint64_t lcg_state = 12345;

static uint64_t lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lcg_state >> 33;
}

static void check_durstats(void)
{
	/* statistics.stdev of the samples of draws 1, 2, 3, 16, 25, 29 (Python 3.11) */
	static const struct {
		int draw;
		double stdev;
	} want[] = {
	    {1, 0x1.13d6068d3d848p+29},	 {2, 0x1.793c854fdc9a0p+29},  {3, 0x1.12d7cc91e8f0bp+29},
	    {16, 0x1.2a6aaf4f85025p+29}, {25, 0x1.0bbde97e22772p+29}, {29, 0x1.62462c34e2e3dp+28},
	};
	size_t k = 0;
	struct an_durstats d;
	double sd;

	check_part = "durstats";
	for (int draw = 1; draw <= 29; draw++) {
		uint64_t n = 2 + lcg() % 30;
		int64_t sum = 0;

		an_durstats_init(&d);
		for (uint64_t i = 0; i < n; i++) {
			int64_t x = (int64_t)(lcg() % 2000000000);

			an_durstats_add(&d, x);
			sum += x;
		}
		if (k < sizeof(want) / sizeof(want[0]) && want[k].draw == draw) {
			CHECK_EQ(an_durstats_stdev(&d, &sd), 0);
			CHECK(sd == want[k].stdev, "draw %d: %a, Python %a", draw, sd,
			      want[k].stdev);
			CHECK(an_durstats_avg(&d) == (double)sum / (double)n);
			k++;
		}
	}
	an_durstats_init(&d);
	CHECK_EQ(an_durstats_stdev(&d, &sd), -1);
	CHECK(an_durstats_avg(&d) == 0);
	an_durstats_add(&d, 5);
	CHECK_EQ(an_durstats_stdev(&d, &sd), -1);
	an_durstats_add(&d, 5);
	CHECK(an_durstats_stdev(&d, &sd) == 0 && sd == 0, "%a", sd);
	/* exact squares and ties */
	CHECK(an_sqrt_frac(49, 1) == 7.0);
	CHECK(an_sqrt_frac(1, 4) == 0.5);
	CHECK(an_sqrt_frac(2, 1) == sqrt(2.0));
	CHECK(an_sqrt_frac((unsigned __int128)1 << 100, 1) == 0x1p50);
}

static void check_kirq(void)
{
	struct kirq s;
	const struct kirq_hard *h;
	const struct kirq_soft *x;

	check_part = "kirq";
	kirq_init(&s);
	/* an exit of another irq drops the current one */
	kirq_hard_entry(&s, 1, 5, 100);
	CHECK(kirq_hard_exit(&s, 1, 6, 150) == NULL);
	CHECK(kirq_hard_exit(&s, 1, 5, 160) == NULL);
	kirq_hard_entry(&s, 1, 5, 200);
	kirq_hard_entry(&s, 1, 7, 210); /* replaces 5 */
	h = kirq_hard_exit(&s, 1, 7, 260);
	CHECK(h && h->irq == 7 && h->begin == 210 && h->end == 260 && h->cpu == 1);
	/* exits on another CPU do not touch this one */
	kirq_hard_entry(&s, 0, 5, 300);
	CHECK(kirq_hard_exit(&s, 1, 5, 310) == NULL);
	h = kirq_hard_exit(&s, 0, 5, 320);
	CHECK(h && h->begin == 300);

	/* soft: raises while raised count once; a raise while running is for the next run */
	kirq_soft_raise(&s, 0, 3, 1000);
	kirq_soft_raise(&s, 0, 3, 1100);
	kirq_soft_entry(&s, 0, 3, 1200);
	kirq_soft_raise(&s, 0, 3, 1300);
	x = kirq_soft_exit(&s, 0, 3, 1400);
	CHECK(x && x->raised && x->raise_ts == 1000 && x->begin == 1200 && x->end == 1400);
	kirq_soft_entry(&s, 0, 3, 1500);
	x = kirq_soft_exit(&s, 0, 3, 1600);
	CHECK(x && x->raised && x->raise_ts == 1300 && x->begin == 1500);
	CHECK(kirq_soft_exit(&s, 0, 3, 1700) == NULL);
	/* raised, never entered: the exit is ignored, the raise kept */
	kirq_soft_raise(&s, 0, 9, 2000);
	CHECK(kirq_soft_exit(&s, 0, 9, 2100) == NULL);
	kirq_soft_entry(&s, 0, 9, 2200);
	x = kirq_soft_exit(&s, 0, 9, 2300);
	CHECK(x && x->raise_ts == 2000 && x->vec == 9);
	/* vectors out of range are ignored */
	kirq_soft_entry(&s, 0, KIRQ_VECS, 2400);
	CHECK(kirq_soft_exit(&s, 0, KIRQ_VECS, 2500) == NULL);
	CHECK(!s.failed);
	CHECK(!strcmp(kirq_soft_name(5), "BLOCK_IOPOLL_SOFTIRQ"));
	CHECK(!strcmp(kirq_soft_name(10), "unknown"));
	kirq_free(&s);
}

static void check_schedlatency(const char *dir)
{
	struct an_options o;
	char *out;
	int st;

	check_part = "schedlatency text";
	an_options_init(&o);
	o.total = o.per_tid = o.per_prio = 1;
	out = at_run("schedlatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "Timerange: [2023-11-14 22:13:20.000001000, 2023-11-14 22:13:20.000030000]\n"
		     "\nScheduling latency stats (total) (us)\n"
		     "Count        Min          Avg          Max          Stdev       \n"
		     "4            3.000        6.500        11.000       3.416       \n"),
	      "%s", out);
	CHECK(at_has(out,
		     "\nScheduling latency stats (per-TID) (us)\n"
		     "Process                      Count           Min           Avg           Max "
		     "        Stdev   Priorities\n"
		     "alpha (100)                      1         7.000         7.000         7.000 "
		     "            ?   [20]\n"
		     "Beta (200)                       1         3.000         3.000         3.000 "
		     "            ?   [20]\n"
		     "charlie (300)                    1         5.000         5.000         5.000 "
		     "            ?   [0]\n"
		     "delta (400)                      1        11.000        11.000        11.000 "
		     "            ?   [0]\n"),
	      "%s", out);
	CHECK(at_has(out,
		     "\nScheduling latency stats (per-prio) (us)\n"
		     "Prio    Count           Min           Avg           Max         Stdev\n"
		     "   0        2         5.000         8.000        11.000         4.243\n"
		     "  20        2         3.000         5.000         7.000         2.828\n"),
	      "%s", out);
	free(out);

	check_part = "schedlatency json";
	o.json = 1;
	out = at_run("schedlatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "{\"results\": [{\"class\": \"total_stats\", \"time-range\": {\"class\": "
		     "\"time-range\", \"begin\": {\"class\": \"timestamp\", \"value\": "
		     "1700000000000001000}, \"end\": {\"class\": \"timestamp\", \"value\": "
		     "1700000000000030000}}, \"data\": [[{\"class\": \"number\", \"value\": 4}, "
		     "{\"class\": \"duration\", \"value\": 3000}, {\"class\": \"duration\", "
		     "\"value\": 6500.0}, {\"class\": \"duration\", \"value\": 11000}, {\"class\": "
		     "\"duration\", \"value\": 3415.650255319866}]]}"),
	      "%s", out);
	CHECK(at_has(out,
		     "[{\"class\": \"process\", \"name\": \"Beta\", \"tid\": 200}, {\"class\": "
		     "\"number\", \"value\": 1}, {\"class\": \"duration\", \"value\": 3000}, "
		     "{\"class\": \"duration\", \"value\": 3000.0}, {\"class\": \"duration\", "
		     "\"value\": 3000}, {\"class\": \"unknown\"}, {\"class\": \"string\", "
		     "\"value\": \"[20]\"}]"),
	      "%s", out);
	CHECK(at_has(out,
		     "[{\"class\": \"number\", \"value\": 0}, {\"class\": \"number\", \"value\": "
		     "2}, {\"class\": \"duration\", \"value\": 5000}, {\"class\": \"duration\", "
		     "\"value\": 8000.0}, {\"class\": \"duration\", \"value\": 11000}, {\"class\": "
		     "\"duration\", \"value\": 4242.640687119285}]"),
	      "%s", out);
	free(out);

	/* filters: --min/--max (us) on the latency, --cpu on the switch's CPU, --tid on the wakee
	 */
	check_part = "schedlatency filters";
	o.json = 0;
	o.per_tid = o.per_prio = 0;
	o.has_min = 1, o.min_us = 4.5;
	o.has_max = 1, o.max_us = 7;
	out = at_run("schedlatency", &o, dir, &st);
	CHECK(at_has(out, "2            5.000        6.000        7.000        1.414       \n"),
	      "%s", out);
	free(out);
	o.has_min = o.has_max = 0;
	o.cpus.v = (int64_t[]){1};
	o.cpus.n = 1;
	out = at_run("schedlatency", &o, dir, &st);
	CHECK(at_has(out, "2            5.000        8.000        11.000       4.243       \n"),
	      "%s", out);
	free(out);
	o.cpus.n = 0;
	o.tids.v = (int64_t[]){200};
	o.tids.n = 1;
	o.total = 0;
	out = at_run("schedlatency", &o, dir, &st);
	CHECK(at_has(out, "\nBeta (200)  ") && !at_has(out, "alpha (100)") &&
		  !at_has(out, "(total)"),
	      "%s", out);
	free(out);
	o.tids.n = 0;

	/* --top N: the N longest first; --log: in the order of the switches */
	check_part = "schedlatency lists";
	o.total = 0;
	o.top_list = 1;
	o.top = 2;
	out = at_run("schedlatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "\nScheduling top\nWakeup               Switch                 Latency (us)   "
		     "Priority  CPU   Wakee                      Waker                    \n"
		     "[22:13:20.000004000, 22:13:20.000015000]          11.000          0    1   "
		     "delta (400)                charlie (300)            \n"
		     "[22:13:20.000020000, 22:13:20.000027000]           7.000         20    0   "
		     "alpha (100)                Beta (200)               \n"),
	      "%s", out);
	CHECK(!at_has(out, "(per-TID)") && !at_has(out, "5.000"), "%s", out);
	free(out);
	o.top_list = 0;
	o.log = 1;
	o.json = 1;
	out = at_run("schedlatency", &o, dir, &st);
	CHECK(at_has(out, "\"data\": [[{\"class\": \"timestamp\", \"value\": 1700000000000002000}, "
			  "{\"class\": \"timestamp\", \"value\": 1700000000000005000}, {\"class\": "
			  "\"duration\", \"value\": 3000}, {\"class\": \"number\", \"value\": 20}, "
			  "{\"class\": \"cpu\", \"id\": 0}, {\"class\": \"process\", \"name\": "
			  "\"Beta\", \"tid\": 200}, {\"class\": \"process\", \"name\": \"alpha\", "
			  "\"tid\": 100}]"),
	      "%s", out);
	CHECK(out && strstr(out, "\"value\": 3000}") < strstr(out, "\"value\": 11000}") &&
		  strstr(out, "\"value\": 11000}") < strstr(out, "\"value\": 5000}") &&
		  strstr(out, "\"value\": 5000}") < strstr(out, "\"value\": 7000}"),
	      "log order: %s", out);
	free(out);
	o.log = 0;
	o.json = 0;

	/* a range that starts after the wakeups: they still count (the state saw them) */
	check_part = "schedlatency range";
	o.total = 1;
	o.begin = "1700000000000025000";
	out = at_run("schedlatency", &o, dir, &st);
	CHECK(at_has(out,
		     "Timerange: [2023-11-14 22:13:20.000026000, 2023-11-14 22:13:20.000030000]\n"),
	      "%s", out);
	CHECK(at_has(out, "2            5.000        6.000        7.000        1.414       \n"),
	      "%s", out);
	free(out);
}

static void check_irqstats(const char *dir)
{
	struct an_options o;
	char *out;
	int st;

	check_part = "irqstats text";
	an_options_init(&o);
	out = at_run("irqstats", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(
	    at_has(
		out,
		"Timerange: [2023-11-14 22:13:20.000001000, 2023-11-14 22:13:20.000030000]\n"
		"Hard IRQ                                             Duration (us)\n"
		"                       count          min          avg          max        stdev  "
		"     \n"
		"----------------------------------------------------------------------------------"
		"|\n"
		"10: <eth0, eth0-rx>        2        1.000        1.750        2.500        1.061  "
		"|\n"
		"11: <timer>                1        0.500        0.500        0.500            ?  "
		"|\n"
		"\nSoft IRQ  "),
	    "%s", out);
	CHECK(!at_has(out, "\n12:") && !at_has(out, "\n13:"), "%s", out);
	CHECK(
	    at_has(out,
		   "\n1:  <TIMER_SOFTIRQ>        1        0.600        0.600        0.600       "
		   "     ?  |\n"
		   "3:  <NET_RX_SOFTIRQ>       1        4.000        4.000        4.000            "
		   "?  |      1        1.000        1.000        1.000            ?\n"),
	    "%s", out);
	free(out);

	check_part = "irqstats json";
	o.json = 1;
	out = at_run("irqstats", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out, "\"data\": [[{\"class\": \"irq\", \"hard\": true, \"nr\": 10, \"name\": "
			  "\"eth0, eth0-rx\"}, {\"class\": \"number\", \"value\": 2}, {\"class\": "
			  "\"duration\", \"value\": 1000}, {\"class\": \"duration\", \"value\": "
			  "1750.0}, {\"class\": \"duration\", \"value\": 2500}, {\"class\": "
			  "\"duration\", \"value\": 1060.6601717798212}]"),
	      "%s", out);
	CHECK(at_has(out,
		     "[{\"class\": \"irq\", \"hard\": false, \"nr\": 1, \"name\": "
		     "\"TIMER_SOFTIRQ\"}, {\"class\": \"number\", \"value\": 1}, {\"class\": "
		     "\"duration\", \"value\": 600}, {\"class\": \"duration\", \"value\": 600.0}, "
		     "{\"class\": \"duration\", \"value\": 600}, {\"class\": \"unknown\"}, "
		     "{\"class\": \"number\", \"value\": 0}, {\"class\": \"unknown\"}, {\"class\": "
		     "\"unknown\"}, {\"class\": \"unknown\"}, {\"class\": \"unknown\"}]"),
	      "%s", out);
	free(out);

	/* --irq alone: hard IRQs only; --cpu 0: eth0's first run; --min (us) */
	check_part = "irqstats filters";
	o.json = 0;
	o.has_irqs = 1;
	o.irqs.v = (int64_t[]){10};
	o.irqs.n = 1;
	o.cpus.v = (int64_t[]){0};
	o.cpus.n = 1;
	out = at_run("irqstats", &o, dir, &st);
	CHECK(at_has(out,
		     "10: <eth0, eth0-rx>        1        2.500        2.500        2.500       "
		     "     ?  |\n") &&
		  !at_has(out, "Soft") && !at_has(out, "11:"),
	      "%s", out);
	free(out);
	o.has_irqs = 0;
	o.cpus.n = 0;
	o.has_softirqs = 1;
	o.softirqs.v = (int64_t[]){3, 1};
	o.softirqs.n = 2;
	o.has_min = 1;
	o.min_us = 0.7;
	out = at_run("irqstats", &o, dir, &st);
	CHECK(!at_has(out, "Hard") && at_has(out, "3:  <NET_RX_SOFTIRQ>") && !at_has(out, "TIMER"),
	      "%s", out);
	free(out);
	o.has_softirqs = o.has_min = 0;

	/* the exit of an IRQ entered before --begin counts, under the name "unknown" */
	check_part = "irqstats range";
	o.begin = "1700000000000016500";
	out = at_run("irqstats", &o, dir, &st);
	CHECK(at_has(out, "\n10: <unknown>              1        1.000"), "%s", out);
	CHECK(at_has(out, "\n11: <timer>  "), "%s", out);
	free(out);
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/trax-test-analysis-sched.XXXXXX", dir[100];

	setenv("TZ", "UTC", 1);
	if (argc > 1) {
		snprintf(dir, sizeof(dir), "%s/kernel", argv[1]);
		mkdir(argv[1], 0755);
		write_trace(dir);
		return CHECK_RESULT();
	}
	check_durstats();
	check_kirq();
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/kernel", tmp);
	write_trace(dir);
	check_schedlatency(dir);
	check_irqstats(dir);
	if (!failures) {
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmp);
	}
	return CHECK_RESULT();
}
