/*
 * test_analysis_sys.c - `trax analyze syscallstats` and `iolatency` on a
 * kernel trace written here, with the writer, whose answers are known:
 * system calls of known durations and return values on CPU 0 (thread
 * alpha, then beta), calls on CPU 1 where no switch says who runs (not
 * counted), a state dump fd, opens, reads, writes, an fsync, failures.
 * Every printed value is checked (text and MI), with lttng-analyses'
 * rules: return-value counts one too high, stdev of syscallstats only
 * above two calls, iolatency's above one; a read on an fd opened before
 * --begin dropped.
 *
 * With an argument DIR, only writes the trace to DIR/kernel (for
 * tests/integration/analyze_sys.sh, which gives it to lttng-analyses).
 *
 * The story, times in ns from the clock's zero (2023-11-14 22:13:20 UTC),
 * all on CPU 0 unless said:
 *   1000  state dump: alpha (100/100), fd 3 of 100 is /data/a
 *   2000  sched_switch swapper/0 -> alpha (100)
 *   3000, 3500  CPU 1: getpid entry and exit (nobody runs there: ignored)
 *   10 000-12 000, 20 000-26 000, 30 000-31 000  getpid (2, 6, 1 us)
 *   40 000-50 000   read(3) = 4096          10 us
 *   60 000-64 000   openat(/data/b) = 4      4 us
 *   70 000-73 000   read(4) = 100            3 us
 *   80 000-85 000   write(4) = 10            5 us
 *   90 000-190 000  fsync(4) = 0           100 us
 *   200 000-202 000 openat(/nope) = -2       2 us
 *   210 000-211 000 close(4) = 0             1 us
 *   220 000-224 000 read(9) = -9             4 us
 *   230 000-231 000 close(4) = -9            1 us
 *   240 000-241 000 read(3) = -512           1 us
 *   250 000  sched_switch alpha -> beta (200, pid unknown)
 *   260 000-270 000 read(5) = 7 (beta)      10 us
 *   299 000 (CPU 1), 300 000: timer_tick (the end)
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

static const struct ctfw_field dump_fields[] = {
    {"tid", AT_I32},
    {"pid", AT_I32},
    {"name", AT_COMM},
    {"prio", AT_I32},
};
static const struct ctfw_field dumpfd_fields[] = {
    {"pid", AT_I32}, {"fd", AT_I32}, {"flags", AT_I32}, {"fmode", AT_I32}, {"filename", AT_STR},
};
static const struct ctfw_field fd_fields[] = {{"fd", AT_I32}};
static const struct ctfw_field rw_fields[] = {{"fd", AT_I32}, {"count", AT_I64}};
static const struct ctfw_field open_fields[] = {
    {"dfd", AT_I32}, {"filename", AT_STR}, {"flags", AT_I32}, {"mode", AT_I32}};
static const struct ctfw_field ret_fields[] = {{"ret", AT_I64}};
static const struct ctfw_field tick_fields[] = {{"x", AT_I32}};

enum {
	EV_SWITCH,
	EV_DUMP,
	EV_DUMPFD,
	EV_GETPID,
	EV_GETPID_X,
	EV_READ,
	EV_READ_X,
	EV_WRITE,
	EV_WRITE_X,
	EV_OPENAT,
	EV_OPENAT_X,
	EV_CLOSE,
	EV_CLOSE_X,
	EV_FSYNC,
	EV_FSYNC_X,
	EV_TICK
};

static const struct ctfw_event_class classes[] = {
    [EV_SWITCH] = {"sched_switch", -1, NULL, at_switch_fields, 7},
    [EV_DUMP] = {"lttng_statedump_process_state", -1, NULL, dump_fields, 4},
    [EV_DUMPFD] = {"lttng_statedump_file_descriptor", -1, NULL, dumpfd_fields, 5},
    [EV_GETPID] = {"syscall_entry_getpid", -1, NULL, tick_fields, 1},
    [EV_GETPID_X] = {"syscall_exit_getpid", -1, NULL, ret_fields, 1},
    [EV_READ] = {"syscall_entry_read", -1, NULL, rw_fields, 2},
    [EV_READ_X] = {"syscall_exit_read", -1, NULL, ret_fields, 1},
    [EV_WRITE] = {"syscall_entry_write", -1, NULL, rw_fields, 2},
    [EV_WRITE_X] = {"syscall_exit_write", -1, NULL, ret_fields, 1},
    [EV_OPENAT] = {"syscall_entry_openat", -1, NULL, open_fields, 4},
    [EV_OPENAT_X] = {"syscall_exit_openat", -1, NULL, ret_fields, 1},
    [EV_CLOSE] = {"syscall_entry_close", -1, NULL, fd_fields, 1},
    [EV_CLOSE_X] = {"syscall_exit_close", -1, NULL, ret_fields, 1},
    [EV_FSYNC] = {"syscall_entry_fsync", -1, NULL, fd_fields, 1},
    [EV_FSYNC_X] = {"syscall_exit_fsync", -1, NULL, ret_fields, 1},
    [EV_TICK] = {"timer_tick", -1, NULL, tick_fields, 1},
};

static void sw(struct ctfw_stream_file *f, uint64_t ts, const char *pc, int pt, const char *nc,
	       int nt)
{
	at_switch(f, EV_SWITCH, ts, pc, pt, 20, 0, nc, nt, 20);
}

/* A system call: entry (its fields in r) at b, exit with ret at e. */
static void call(struct ctfw_stream_file *f, uint32_t id, const struct at_rec *r, uint64_t b,
		 uint64_t e, int64_t ret)
{
	struct at_rec x = {.n = 0};

	at_emit(f, id, b, r);
	at_put64(&x, ret);
	at_emit(f, id + 1, e, &x);
}

static struct at_rec fdrec(int fd)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, fd);
	return r;
}

static struct at_rec rwrec(int fd, int64_t count)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, fd);
	at_put64(&r, count);
	return r;
}

static struct at_rec openrec(const char *path, int flags)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, -100);
	at_putstr(&r, path);
	at_put32(&r, flags);
	at_put32(&r, 0);
	return r;
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
	at_open_cpus(c, 2, dir, uuid, 1000);
	r.n = 0;
	at_put32(&r, 100);
	at_put32(&r, 100);
	at_putcomm(&r, "alpha");
	at_put32(&r, 20);
	at_emit(&c[0], EV_DUMP, 1000, &r);
	r.n = 0;
	at_put32(&r, 100);
	at_put32(&r, 3);
	at_put32(&r, 0);
	at_put32(&r, 0);
	at_putstr(&r, "/data/a");
	at_emit(&c[0], EV_DUMPFD, 1000, &r);
	sw(&c[0], 2000, "swapper/0", 0, "alpha", 100);
	r = fdrec(0);
	call(&c[1], EV_GETPID, &r, 3000, 3500, 1);
	call(&c[0], EV_GETPID, &r, 10000, 12000, 100);
	call(&c[0], EV_GETPID, &r, 20000, 26000, 100);
	call(&c[0], EV_GETPID, &r, 30000, 31000, 100);
	r = rwrec(3, 4096);
	call(&c[0], EV_READ, &r, 40000, 50000, 4096);
	r = openrec("/data/b", 02000000);
	call(&c[0], EV_OPENAT, &r, 60000, 64000, 4);
	r = rwrec(4, 4096);
	call(&c[0], EV_READ, &r, 70000, 73000, 100);
	r = rwrec(4, 10);
	call(&c[0], EV_WRITE, &r, 80000, 85000, 10);
	r = fdrec(4);
	call(&c[0], EV_FSYNC, &r, 90000, 190000, 0);
	r = openrec("/nope", 0);
	call(&c[0], EV_OPENAT, &r, 200000, 202000, -2);
	r = fdrec(4);
	call(&c[0], EV_CLOSE, &r, 210000, 211000, 0);
	r = rwrec(9, 1);
	call(&c[0], EV_READ, &r, 220000, 224000, -9);
	r = fdrec(4);
	call(&c[0], EV_CLOSE, &r, 230000, 231000, -9);
	r = rwrec(3, 10);
	call(&c[0], EV_READ, &r, 240000, 241000, -512);
	sw(&c[0], 250000, "alpha", 100, "beta", 200);
	r = rwrec(5, 64);
	call(&c[0], EV_READ, &r, 260000, 270000, 7);
	at_emit32(&c[1], EV_TICK, 299000, 7);
	at_emit32(&c[0], EV_TICK, 300000, 7);
	at_close_cpus(c, 2, 300000);
	CHECK_EQ(at_failures(), 0);
}

/* out holds line (a whole line). */
static int has_line(const char *out, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = out; p && (p = strstr(p, line)); p++)
		if ((p == out || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

static void check_syscallstats(const char *dir)
{
	struct an_options o;
	char *out;
	int st;

	check_part = "syscallstats text";
	an_options_init(&o);
	out = at_run("syscallstats", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(has_line(out,
		       "Timerange: [2023-11-14 22:13:20.000001000, 2023-11-14 22:13:20.000300000]"),
	      "%s", out);
	CHECK(has_line(out, "alpha (100, TID: 100)                           Count            Min  "
			    "      Average          Max      Stdev  Return values "),
	      "%s", out);
	/* sorted by count; stdev only above two calls; every count one too many */
	CHECK(has_line(out,
		       " - read                                             4            1.0       "
		       "     4.5         10.0      3.873  {'success': 3, 'EBADF': 2, '-512': 2}"),
	      "%s", out);
	CHECK(has_line(out, " - getpid                                           3            1.0  "
			    "          3.0          6.0      2.646  {'success': 4}"),
	      "%s", out);
	CHECK(has_line(out, " - openat                                           2            2.0  "
			    "          3.0          4.0          ?  {'success': 2, 'ENOENT': 2}"),
	      "%s", out);
	CHECK(has_line(out, " - close                                            2            1.0  "
			    "          1.0          1.0          ?  {'success': 2, 'EBADF': 2}"),
	      "%s", out);
	CHECK(has_line(out, " - write                                            1            5.0  "
			    "          5.0          5.0          ?  {'success': 2}"),
	      "%s", out);
	CHECK(has_line(out, " - fsync                                            1          100.0  "
			    "        100.0        100.0          ?  {'success': 2}"),
	      "%s", out);
	CHECK(has_line(out, "Total:                                             13                 "
			    "                                                     "),
	      "%s", out);
	CHECK(has_line(out, "beta (?, TID: 200)                              Count            Min  "
			    "      Average          Max      Stdev  Return values "),
	      "%s", out);
	CHECK(has_line(out, " - read                                             1           10.0  "
			    "         10.0         10.0          ?  {'success': 2}"),
	      "%s", out);
	CHECK(out && strstr(out, "- read  ") < strstr(out, "- getpid") &&
		  strstr(out, "- getpid") < strstr(out, "- openat") &&
		  strstr(out, "- openat") < strstr(out, "- close") &&
		  strstr(out, "- close") < strstr(out, "- write") &&
		  strstr(out, "alpha (") < strstr(out, "beta ("),
	      "order: %s", out);
	CHECK(at_has(out, "\nTotal syscalls: 14\n"), "%s", out);
	free(out);

	check_part = "syscallstats json";
	o.json = 1;
	out = at_run("syscallstats", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "{\"results\": [{\"class\": {\"inherit\": \"per-tid\", \"title\": \"System "
		     "call statistics [alpha (100, TID: 100)]\"}"),
	      "%s", out);
	CHECK(at_has(out,
		     "[{\"class\": \"syscall\", \"name\": \"read\"}, {\"class\": \"number\", "
		     "\"value\": 4}, {\"class\": \"duration\", \"value\": 1000}, {\"class\": "
		     "\"duration\", \"value\": 4500.0}, {\"class\": \"duration\", \"value\": "
		     "10000}, {\"class\": \"duration\", \"value\": 3872.983346207417}, {\"class\": "
		     "\"string\", \"value\": \"{'success': 3, 'EBADF': 2, '-512': 2}\"}]"),
	      "%s", out);
	CHECK(at_has(out, "{\"class\": \"duration\", \"value\": 4000}, {\"class\": \"unknown\"}, "
			  "{\"class\": \"string\", \"value\": \"{'success': 2, 'ENOENT': 2}\"}]"),
	      "%s", out);
	CHECK(at_has(out, "{\"class\": \"total\", "), "%s", out);
	CHECK(
	    at_has(
		out,
		"\"data\": [[{\"class\": \"process\", \"name\": \"alpha\", \"pid\": 100, \"tid\": "
		"100}, {\"class\": \"number\", \"value\": 13}], [{\"class\": \"process\", "
		"\"name\": \"beta\", \"tid\": 200}, {\"class\": \"number\", \"value\": 1}]]}]}\n"),
	    "%s", out);
	free(out);

	/* --top 2: the two slowest calls, trax's own table */
	check_part = "syscallstats --top";
	o.json = 0;
	o.top = 2;
	o.top_list = 1;
	out = at_run("syscallstats", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(has_line(out, "[22:13:20.000090000, 22:13:20.000190000] fsync                     "
			    "100.000          0  alpha                    100     "),
	      "%s", out);
	CHECK(has_line(out, "[22:13:20.000040000, 22:13:20.000050000] read                       "
			    "10.000       4096  alpha                    100     "),
	      "%s", out);
	CHECK(out && strstr(out, "] fsync") < strstr(out, "] read"), "%s", out);
	free(out);
}

static void check_iolatency(const char *dir)
{
	struct an_options o;
	char *out;
	int st;

	check_part = "iolatency stats";
	an_options_init(&o);
	out = at_run("iolatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	/* the read of beta's unknown fd 5 counts: the fd is added at its exit */
	CHECK(at_has(out,
		     "\nSyscalls latency statistics (usec):\n"
		     "Type                    Count            Min        Average            Max "
		     "         Stdev\n"
		     "---------------------------------------------------------------------------"
		     "--------------\n"
		     "Open                        2          2.000          3.000          4.000 "
		     "         1.414\n"
		     "Read                        5          1.000          5.600         10.000 "
		     "         4.159\n"
		     "Write                       1          5.000          5.000          5.000 "
		     "             ?\n"
		     "Sync                        1        100.000        100.000        100.000 "
		     "             ?\n"),
	      "%s", out);
	CHECK(!at_has(out, "Disk"), "%s", out);
	free(out);

	check_part = "iolatency json";
	o.json = 1;
	out = at_run("iolatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out, "[{\"class\": \"string\", \"value\": \"Read\"}, {\"class\": \"number\", "
			  "\"value\": 5}, {\"class\": \"duration\", \"value\": 1000}, {\"class\": "
			  "\"duration\", \"value\": 5600.0}, {\"class\": \"duration\", \"value\": "
			  "10000}, {\"class\": \"duration\", \"value\": 4159.326868617084}]"),
	      "%s", out);
	free(out);

	/* --begin after the open of fd 4: its read and write are not counted, the failed reads are
	 */
	check_part = "iolatency --begin";
	o.json = 0;
	o.begin = "1700000000000065000";
	out = at_run("iolatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(has_line(out, "Read                        3          1.000          5.000         "
			    "10.000          4.583"),
	      "%s", out);
	CHECK(has_line(out, "Write                       0          0.000          0.000          "
			    "0.000              ?"),
	      "%s", out);
	CHECK(has_line(out, "Open                        1          2.000          2.000          "
			    "2.000              ?"),
	      "%s", out);
	free(out);
	o.begin = NULL;

	check_part = "iolatency --top";
	o.top_list = 1;
	out = at_run("iolatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out,
		     "\nTop system call latencies read (usec)\n"
		     "Begin                End                  Name             Duration (usec) "
		     "        Size  Proc                     PID      Filename      \n"
		     "[22:13:20.000040000, 22:13:20.000050000]  read                      10.000 "
		     "    4.00 KiB  alpha                    100      /data/a (fd=3)\n"
		     "[22:13:20.000260000, 22:13:20.000270000]  read                      10.000 "
		     "       7   B  beta                     200      unknown (fd=5)\n"
		     "[22:13:20.000220000, 22:13:20.000224000]  read                       4.000 "
		     "         N/A  alpha                    100      unknown (fd=9)\n"),
	      "%s", out);
	CHECK(has_line(out, "[22:13:20.000060000, 22:13:20.000064000]  openat                     "
			    "4.000          N/A  alpha                    100      /data/b (fd=4)"),
	      "%s", out);
	CHECK(has_line(out, "[22:13:20.000200000, 22:13:20.000202000]  openat                     "
			    "2.000          N/A  alpha                    100      N/A           "),
	      "%s", out);
	free(out);

	check_part = "iolatency --log";
	o.top_list = 0;
	o.log = 1;
	out = at_run("iolatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	CHECK(at_has(out, "\nI/O operations log None (usec)\n"), "%s", out);
	CHECK(has_line(out, "[22:13:20.000210000, 22:13:20.000211000]  close                      "
			    "1.000          N/A  alpha                    100      /data/b (fd=4)"),
	      "%s", out);
	CHECK(has_line(out,
		       "[22:13:20.000090000, 22:13:20.000190000]  fsync                    "
		       "100.000          N/A  alpha                    100      /data/b (fd=4)"),
	      "%s", out);
	CHECK(out && strstr(out, "]  fsync") < strstr(out, "]  close"), "%s", out);
	free(out);

	check_part = "iolatency --freq";
	o.log = 0;
	o.freq = 1;
	out = at_run("iolatency", &o, dir, &st);
	CHECK_EQ(st, AN_OK);
	/* reads 1..10 us: step 0.45 us; 10 us twice in the last bucket */
	CHECK(at_has(out, "I/O request latency distribution read (\xc2\xb5s)\n"), "%s", out);
	CHECK(at_has(out, "\n  1.000 "), "%s", out);
	CHECK(at_has(out, "\n  9.550 "), "%s", out);
	CHECK(!at_has(out, "distribution write"), "one write: no histogram: %s", out);
	free(out);
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/trax-test-analysis-sys.XXXXXX", dir[100];

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
	check_syscallstats(dir);
	check_iolatency(dir);
	if (!failures) {
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmp);
	}
	return CHECK_RESULT();
}
