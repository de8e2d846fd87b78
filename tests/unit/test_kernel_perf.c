/*
 * test_kernel_perf.c - the perf:cpu: counter contexts (root only):
 *  - the table of LTTng's counter names (common/perf-counter.c): events,
 *    field names, the kernel contexts' names for them (ktrace.h);
 *  - tracepoints recorded through perf groups (src/kernel/perf-record.c):
 *    a thread on CPU 0 calls getpid, touches N new pages, calls getpid:
 *    the two sys_enter_getpid records are its own (raw record: the id, its
 *    tid, the call number), their times lie between clock readings taken
 *    around them, and the page-fault counter grows by N to N + 64 between
 *    them while cpu-clock grows by the time between them;
 *  - every CPU's records in time order with counters that never decrease;
 *  - a tracepoint enabled and disabled while recording; a pid filter;
 *    the counters read from user space (what the state dump carries);
 *  - a ring of one page overflowed: records handed plus records lost
 *    account for every call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "common/perf-counter.h"
#include "kernel/ktrace.h"
#include "kernel/perf-record.h"

#define NPAGES 256

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The tracefs id of an event, from its format directory. */
static uint32_t tp_id(const char *event)
{
	char path[256];
	unsigned int id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", event);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &id) != 1)
		id = 0;
	if (f)
		fclose(f);
	return id;
}

static void test_table(void)
{
	int pf = perf_counter_find("perf:cpu:page-fault");
	int l1 = perf_counter_find("perf:cpu:L1-dcache-load-misses");
	char field[64];

	check_part = "table";
	CHECK(pf >= 0);
	CHECK_EQ(perf_counter_at((unsigned int)pf)->type, PERF_TYPE_SOFTWARE);
	CHECK_EQ(perf_counter_at((unsigned int)pf)->config, PERF_COUNT_SW_PAGE_FAULTS);
	CHECK(l1 >= 0);
	CHECK_EQ(perf_counter_at((unsigned int)l1)->type, PERF_TYPE_HW_CACHE);
	CHECK_EQ(perf_counter_at((unsigned int)l1)->config,
		 PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
		     PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	CHECK_EQ(perf_counter_at((unsigned int)perf_counter_find("perf:cpu:cycles"))->config,
		 PERF_COUNT_HW_CPU_CYCLES);
	CHECK_EQ(perf_counter_find("perf:cpu:nope"), -1);
	CHECK_EQ(perf_counter_find("perf:thread:page-fault"), -1);
	CHECK_EQ(perf_counter_find("page-fault"), -1);
	CHECK_EQ(perf_counter_count(), 53);
	perf_counter_field_name("perf:cpu:page-fault", field, sizeof(field));
	CHECK(!strcmp(field, "perf_cpu_page_fault"), "%s", field);
	perf_counter_field_name("perf:cpu:L1-dcache-load-misses", field, sizeof(field));
	CHECK(!strcmp(field, "perf_cpu_L1_dcache_load_misses"), "%s", field);
	CHECK_EQ(kctx_from_name("perf:cpu:cpu-clock"),
		 KCTX_PERF + perf_counter_find("perf:cpu:cpu-clock"));
	CHECK(kctx_is_perf(kctx_from_name("perf:cpu:cpu-clock")));
	CHECK(!strcmp(kctx_name(kctx_from_name("perf:cpu:cpu-clock")), "perf:cpu:cpu-clock"));
	CHECK_EQ(kctx_from_name("perf:cpu:nope"), -1);
	CHECK(!kctx_is_perf(kctx_from_name("tid")));
	/* software counters every Linux has */
	CHECK(perf_counter_available(perf_counter_at((unsigned int)pf)));
	CHECK(perf_counter_available(
	    perf_counter_at((unsigned int)perf_counter_find("perf:cpu:cpu-clock"))));
}

/* ---- what the samples say ---- */

struct sample {
	int cpu;
	uint64_t ts;
	int32_t tid, rec_pid;
	uint16_t type;
	int32_t nr; /* sys_enter_*: __syscall_nr */
	uint64_t counters[2];
};

struct samples {
	struct sample s[200000];
	size_t n;
};

static struct samples got;

static int on_sample(void *arg, int cpu, uint64_t ts, int32_t tid, const uint8_t *raw, size_t len,
		     const uint64_t *counters)
{
	struct samples *ss = arg;
	struct sample *s;

	if (ss->n == sizeof(ss->s) / sizeof(ss->s[0]) || len < 12)
		return 0;
	s = &ss->s[ss->n++];
	s->cpu = cpu;
	s->ts = ts;
	s->tid = tid;
	memcpy(&s->type, raw, 2);
	memcpy(&s->rec_pid, raw + 4, 4);
	memcpy(&s->nr, raw + 8, 4);
	memcpy(s->counters, counters, sizeof(s->counters));
	return 0;
}

static void consume_all(struct kperf *p, unsigned int ncpus)
{
	for (unsigned int c = 0; c < ncpus; c++)
		CHECK(kperf_consume(p, (int)c, on_sample, &got) >= 0);
}

/* Our records of tracepoint id since index from. */
static size_t ours(size_t from, uint16_t id, size_t *idx, size_t max)
{
	int32_t tid = (int32_t)syscall(SYS_gettid);
	size_t k = 0;

	for (size_t i = from; i < got.n; i++)
		if (got.s[i].tid == tid && got.s[i].type == id) {
			if (k < max)
				idx[k] = i;
			k++;
		}
	return k;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	CHECK(!sched_setaffinity(0, sizeof(set), &set));
}

static void test_record(void)
{
	const struct perf_counter_def *defs[2] = {
	    perf_counter_at((unsigned int)perf_counter_find("perf:cpu:page-fault")),
	    perf_counter_at((unsigned int)perf_counter_find("perf:cpu:cpu-clock")),
	};
	unsigned int ncpus = (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	uint32_t getpid_id = tp_id("syscalls/sys_enter_getpid");
	uint32_t getppid_id = tp_id("syscalls/sys_enter_getppid");
	int32_t tid = (int32_t)syscall(SYS_gettid);
	int pid = getpid();
	uint64_t t0, t1, t2, t3, values[2], before[2];
	size_t idx[4], from;
	char err[256] = "";
	struct kperf *p;
	long page = sysconf(_SC_PAGESIZE);
	char *mem;
	int pids[1];

	check_part = "record";
	CHECK(getpid_id && getppid_id);
	p = kperf_new(defs, 2, ncpus, 1 << 20, err, sizeof(err));
	CHECK(p, "%s", err);
	if (!p)
		return;
	CHECK_EQ(kperf_ncounters(p), 2);
	CHECK(kperf_fd(p, 0) >= 0 && kperf_counter_fd(p, 1, 1) >= 0 &&
	      kperf_counter_fd(p, 0, 2) < 0);
	CHECK(!kperf_enable(p, getpid_id, true, err, sizeof(err)), "%s", err);
	CHECK(!kperf_start(p));
	pin(0);
	mem = mmap(NULL, (size_t)(NPAGES * page), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	t0 = now_ns();
	syscall(SYS_getpid);
	t1 = now_ns();
	for (long i = 0; i < NPAGES; i++)
		mem[i * page] = 1;
	t2 = now_ns();
	syscall(SYS_getpid);
	t3 = now_ns();
	consume_all(p, ncpus);
	CHECK_EQ(ours(0, (uint16_t)getpid_id, idx, 4), 2);
	if (ours(0, (uint16_t)getpid_id, idx, 4) == 2) {
		const struct sample *a = &got.s[idx[0]], *b = &got.s[idx[1]];
		int64_t dclock = (int64_t)(b->counters[1] - a->counters[1]);
		int64_t dts = (int64_t)(b->ts - a->ts);

		CHECK(a->cpu == 0 && b->cpu == 0);
		CHECK(a->ts >= t0 && a->ts <= t1, "%lu not in [%lu, %lu]", a->ts, t0, t1);
		CHECK(b->ts >= t2 && b->ts <= t3, "%lu not in [%lu, %lu]", b->ts, t2, t3);
		CHECK_EQ(a->rec_pid, tid);
		CHECK_EQ(a->nr, SYS_getpid);
		CHECK(b->counters[0] - a->counters[0] >= NPAGES &&
			  b->counters[0] - a->counters[0] <= NPAGES + 64,
		      "page faults %lu -> %lu for %d pages", a->counters[0], b->counters[0],
		      NPAGES);
		/* cpu-clock: the CPU's time in ns, read at each record */
		CHECK(dclock > dts - dts / 10 - 20000 && dclock < dts + dts / 10 + 20000,
		      "cpu-clock grew %ld ns in %ld ns", (long)dclock, (long)dts);
		printf("page faults %lu -> %lu (%d pages), cpu-clock +%ld ns in %ld ns\n",
		       a->counters[0], b->counters[0], NPAGES, (long)dclock, (long)dts);
	}
	munmap(mem, (size_t)(NPAGES * page));

	/* a tracepoint added and removed while recording */
	check_part = "live";
	from = got.n;
	CHECK(!kperf_enable(p, getppid_id, true, err, sizeof(err)), "%s", err);
	syscall(SYS_getppid);
	consume_all(p, ncpus);
	CHECK_EQ(ours(from, (uint16_t)getppid_id, idx, 4), 1);
	CHECK(!kperf_enable(p, getppid_id, false, err, sizeof(err)));
	from = got.n;
	syscall(SYS_getppid);
	syscall(SYS_getpid);
	consume_all(p, ncpus);
	CHECK_EQ(ours(from, (uint16_t)getppid_id, idx, 4), 0);
	CHECK_EQ(ours(from, (uint16_t)getpid_id, idx, 4), 1);

	/* trackers: another process only, then everyone */
	check_part = "pids";
	pids[0] = 1;
	CHECK(!kperf_set_pids(p, pids, 1));
	from = got.n;
	syscall(SYS_getpid);
	consume_all(p, ncpus);
	CHECK_EQ(ours(from, (uint16_t)getpid_id, idx, 4), 0);
	pids[0] = pid; /* (getpid() here would be recorded) */
	CHECK(!kperf_set_pids(p, pids, 1));
	syscall(SYS_getpid);
	consume_all(p, ncpus);
	CHECK_EQ(ours(from, (uint16_t)getpid_id, idx, 4), 1);
	CHECK(!kperf_set_pids(p, NULL, 0));

	/* the counters as the state dump reads them: at or after the last record */
	check_part = "read";
	CHECK(!kperf_read(p, 0, before));
	syscall(SYS_getpid);
	consume_all(p, ncpus);
	CHECK(!kperf_read(p, 0, values));
	CHECK_EQ(ours(got.n - 1, (uint16_t)getpid_id, idx, 4), 1);
	CHECK(values[0] >= got.s[got.n - 1].counters[0] &&
	      before[0] <= got.s[got.n - 1].counters[0]);
	CHECK(values[1] >= got.s[got.n - 1].counters[1] &&
	      before[1] <= got.s[got.n - 1].counters[1]);
	CHECK_EQ(kperf_read(p, (int)ncpus, values), -EINVAL);

	/* every CPU: in time order, counters never decreasing */
	check_part = "order";
	for (unsigned int c = 0; c < ncpus; c++) {
		const struct sample *last = NULL;
		size_t bad = 0, n = 0;

		for (size_t i = 0; i < got.n; i++) {
			const struct sample *s = &got.s[i];

			if (s->cpu != (int)c)
				continue;
			n++;
			if (last && (s->ts < last->ts || s->counters[0] < last->counters[0] ||
				     s->counters[1] < last->counters[1]))
				bad++;
			last = s;
		}
		CHECK_EQ(bad, 0);
		printf("CPU %u: %zu records in order\n", c, n);
	}
	kperf_stop(p);
	CHECK_EQ(kperf_lost(p, 0), 0);
	kperf_free(p);
	pin(0);
}

static void test_lost(void)
{
	const struct perf_counter_def *defs[1] = {
	    perf_counter_at((unsigned int)perf_counter_find("perf:cpu:page-fault")),
	};
	unsigned int ncpus = (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	uint32_t id = tp_id("syscalls/sys_enter_getppid");
	char err[256] = "";
	struct kperf *p;
	size_t idx[1], handed;
	uint64_t lost;
	long n;

	check_part = "lost";
	p = kperf_new(defs, 1, ncpus, 4096, err, sizeof(err)); /* a ring of one page */
	CHECK(p, "%s", err);
	if (!p)
		return;
	CHECK(!kperf_enable(p, id, true, err, sizeof(err)), "%s", err);
	CHECK(!kperf_start(p));
	pin(0);
	got.n = 0;
	for (int i = 0; i < 5000; i++)
		syscall(SYS_getppid);
	kperf_stop(p);
	n = kperf_consume(p, 0, on_sample, &got);
	handed = ours(0, (uint16_t)id, idx, 1);
	lost = kperf_lost(p, 0);
	printf("5000 getppid into one page: %zu records handed, %lu lost\n", handed, lost);
	CHECK(n > 0 && lost > 0);
	/* (other threads' getppid on CPU 0 may be among the lost) */
	CHECK(handed + lost >= 5000 && handed + lost <= 5100, "%zu + %lu", handed, lost);
	/* a tracepoint closed keeps its losses counted */
	CHECK(!kperf_enable(p, id, false, err, sizeof(err)));
	CHECK_EQ(kperf_lost(p, 0), lost);
	kperf_free(p);
}

static void test_errors(void)
{
	const struct perf_counter_def *defs[1] = {
	    perf_counter_at((unsigned int)perf_counter_find("perf:cpu:page-fault")),
	};
	char err[256] = "";
	struct kperf *p;

	check_part = "errors";
	CHECK(!kperf_new(defs, 0, 1, 4096, err, sizeof(err)));
	CHECK(strstr(err, "counter contexts"), "%s", err);
	p = kperf_new(defs, 1, 1, 4096, err, sizeof(err));
	CHECK(p);
	if (!p)
		return;
	CHECK(kperf_enable(p, 0xfffff, true, err, sizeof(err)) < 0);
	CHECK(strstr(err, "tracepoint 1048575"), "%s", err);
	kperf_free(p);
}

int main(void)
{
	if (geteuid() != 0) {
		fprintf(stderr, "test_kernel_perf needs root (per-CPU counters, tracepoints)\n");
		return 1;
	}
	test_table();
	test_record();
	test_lost();
	test_errors();
	return CHECK_RESULT();
}
