/*
 * perf-record.c - tracepoints and counter values through perf
 * (perf-record.h).
 *
 * Every event of a group shares the leader's clock (use_clockid,
 * CLOCK_MONOTONIC: the trace's clock), and the members' values in a
 * group read come in the order they joined: the counters first, so a
 * sample's first n values are the counters whatever tracepoints come
 * and go after them.
 *
 * Losses: the leader reads its group with PERF_FORMAT_LOST (Linux 6.0):
 * each tracepoint member's count of samples its ring could not take, at
 * any time. (PERF_RECORD_LOST records come only once the ring has room
 * again: losses just before the stop would go unreported.) A member that
 * is closed leaves its count in lost_closed. Older kernels: the leader
 * without PERF_FORMAT_LOST, and the PERF_RECORD_LOST records counted.
 *
 * A member that joins a running group is not scheduled until the group
 * is (Linux 6.18 here: it counts nothing): kperf_enable stops and
 * restarts the group, which leaves the counters uncounting for the few
 * microseconds in between.
 *
 * Threads: the main thread opens and closes tracepoints and changes the
 * pid set; CPU c's reader thread only reads cpu c's ring. The pid set is
 * published whole (release) and replaced, never changed; the sets it
 * replaces are freed with the kperf.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "kernel/perf-record.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A tracepoint; kperf.tps keeps the order they joined the groups in (the groups' order). */
struct kperf_tp {
	uint32_t id;
	int *fds; /* per CPU */
};

#ifndef PERF_FORMAT_LOST /* (Linux 6.0's; the headers trax builds with may be older) */
#define PERF_FORMAT_LOST (1u << 4)
#endif

struct kperf_cpu {
	int *counter_fds; /* [0]: the group's leader, which holds the ring */
	struct perf_event_mmap_page *map;
	size_t map_len, data_len;
	uint8_t *copy;	       /* a sample that wraps around the ring's end, put together */
	uint64_t lost_records; /* PERF_RECORD_LOST's counts (kernels without PERF_FORMAT_LOST) */
	uint64_t lost_closed;  /* the losses of the members closed */
	uint64_t last_ts;
};

struct pid_set {
	unsigned int n;
	int pids[]; /* sorted */
};

struct kperf {
	const struct perf_counter_def *counters[KPERF_MAX_COUNTERS];
	unsigned int ncounters, nr_cpus;
	struct kperf_cpu *cpus;
	struct kperf_tp *tps;
	unsigned int ntps, cap_tps;
	const struct pid_set *pids; /* NULL: all */
	struct pid_set **old_pids;
	unsigned int nold;
	size_t page;
	bool format_lost; /* the leaders read their members' losses */
	bool started;
};

static int perf_open(struct perf_event_attr *a, int cpu, int group)
{
	long fd = syscall(SYS_perf_event_open, a, -1, cpu, group, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* What every event of a group has: the trace's clock, group reads. */
static void attr_base(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->read_format = PERF_FORMAT_GROUP;
}

static int cpu_open(struct kperf *p, unsigned int cpu, size_t ring_bytes, char *err, size_t errlen)
{
	struct kperf_cpu *c = &p->cpus[cpu];
	struct perf_event_attr a;
	size_t data = p->page;

	c->counter_fds = malloc(p->ncounters * sizeof(int));
	if (!c->counter_fds) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (unsigned int j = 0; j < p->ncounters; j++)
		c->counter_fds[j] = -1;
	for (unsigned int j = 0; j < p->ncounters; j++) {
		attr_base(&a, p->counters[j]->type, p->counters[j]->config);
		if (j == 0) {
			a.disabled = 1; /* the group starts with kperf_start */
			a.pinned = 1;	/* always counting, as LTTng's counters */
			if (p->format_lost)
				a.read_format |= PERF_FORMAT_LOST;
		}
		c->counter_fds[j] = perf_open(&a, (int)cpu, j ? c->counter_fds[0] : -1);
		if (j == 0 && c->counter_fds[0] == -EINVAL && p->format_lost) {
			p->format_lost = false; /* an older kernel: PERF_RECORD_LOST */
			a.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
			c->counter_fds[0] = perf_open(&a, (int)cpu, -1);
		}
		if (c->counter_fds[j] < 0) {
			int e = c->counter_fds[j];

			snprintf(err, errlen, "counter %s on CPU %u: %s", p->counters[j]->name, cpu,
				 strerror(-e));
			return e;
		}
	}
	while (data < ring_bytes && data < (1u << 30))
		data *= 2;
	c->data_len = data;
	c->map_len = data + p->page;
	c->map = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->counter_fds[0], 0);
	if (c->map == MAP_FAILED) {
		int e = -errno;

		c->map = NULL;
		snprintf(err, errlen, "the perf ring of CPU %u (%zu bytes): %s", cpu, data,
			 strerror(-e));
		return e;
	}
	c->copy = malloc(65536); /* a perf record's size is 16 bits */
	if (!c->copy) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

struct kperf *kperf_new(const struct perf_counter_def *const *counters, unsigned int n,
			unsigned int nr_cpus, size_t ring_bytes, char *err, size_t errlen)
{
	struct kperf *p;

	if (!n || n > KPERF_MAX_COUNTERS || !nr_cpus) {
		snprintf(err, errlen, "%u counter contexts (1 to %u can be recorded)", n,
			 KPERF_MAX_COUNTERS);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->cpus = calloc(nr_cpus, sizeof(*p->cpus)))) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(p->counters, counters, n * sizeof(*counters));
	p->ncounters = n;
	p->nr_cpus = nr_cpus;
	p->page = (size_t)sysconf(_SC_PAGESIZE);
	p->format_lost = true;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		if (cpu_open(p, cpu, ring_bytes, err, errlen)) {
			kperf_free(p);
			return NULL;
		}
	return p;
}

/*
 * A group read of cpu's leader: nr, then per member its value (and with
 * PERF_FORMAT_LOST its losses), the counters first, then the tracepoints
 * in kperf.tps's order. Members read, or -errno.
 */
static long group_read(const struct kperf *p, int cpu, uint64_t *buf, size_t words)
{
	ssize_t n = read(p->cpus[cpu].counter_fds[0], buf, words * 8);
	size_t per = p->format_lost ? 2 : 1;

	if (n < 0)
		return -errno;
	if ((size_t)n < 8 || buf[0] < p->ncounters || (size_t)n < 8 * (1 + per * buf[0]))
		return -EIO;
	return (long)buf[0];
}

#define GROUP_WORDS (1 + 2 * (KPERF_MAX_COUNTERS + KPERF_MAX_TRACEPOINTS))

static void tp_close(struct kperf *p, struct kperf_tp *t)
{
	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++)
		if (t->fds[cpu] >= 0)
			close(t->fds[cpu]);
	free(t->fds);
	t->fds = NULL;
}

void kperf_free(struct kperf *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < p->ntps; i++)
		tp_close(p, &p->tps[i]);
	free(p->tps);
	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++) {
		struct kperf_cpu *c = &p->cpus[cpu];

		if (c->map)
			munmap(c->map, c->map_len);
		for (unsigned int j = 0; c->counter_fds && j < p->ncounters; j++)
			if (c->counter_fds[j] >= 0)
				close(c->counter_fds[j]);
		free(c->counter_fds);
		free(c->copy);
	}
	free(p->cpus);
	free((void *)p->pids);
	for (unsigned int i = 0; i < p->nold; i++)
		free(p->old_pids[i]);
	free(p->old_pids);
	free(p);
}

/* The tracepoint's members, one per CPU, joined to the groups and writing to their rings. */
static int tp_open(struct kperf *p, uint32_t id, int *fds, char *err, size_t errlen)
{
	struct perf_event_attr a;

	attr_base(&a, PERF_TYPE_TRACEPOINT, id);
	a.sample_period = 1;
	/*
	 * PERIOD: one sample per event. Without it a tracepoint whose perf
	 * count is a value (sched_stat_runtime counts its runtime in ns) makes
	 * that many samples, until perf throttles the whole group: 200,000
	 * sched_stat_runtime a second and the switches lost.
	 */
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
			PERF_SAMPLE_RAW;
	a.watermark = 1; /* the reader is woken when a ring is half full (or by its timer) */
	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++)
		fds[cpu] = -1;
	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++) {
		struct kperf_cpu *c = &p->cpus[cpu];

		a.wakeup_watermark = (uint32_t)(c->data_len / 2);
		fds[cpu] = perf_open(&a, (int)cpu, c->counter_fds[0]);
		if (fds[cpu] < 0 || ioctl(fds[cpu], PERF_EVENT_IOC_SET_OUTPUT, c->counter_fds[0])) {
			int e = fds[cpu] < 0 ? fds[cpu] : -errno;

			snprintf(err, errlen, "tracepoint %u on CPU %u through perf: %s", id, cpu,
				 strerror(-e));
			return e;
		}
	}
	return 0;
}

/* Closes tracepoint i, keeping what its members lost and the others' order. */
static void tp_remove(struct kperf *p, unsigned int i)
{
	uint64_t buf[GROUP_WORDS], *lost = calloc(p->nr_cpus, sizeof(*lost));
	unsigned int pos = p->ncounters + i;

	for (unsigned int cpu = 0; lost && p->format_lost && cpu < p->nr_cpus; cpu++)
		if (group_read(p, (int)cpu, buf, GROUP_WORDS) > (long)pos)
			lost[cpu] = buf[1 + 2 * pos + 1];
	tp_close(p, &p->tps[i]);
	/* (after the close: a reader may count them short for a moment, never twice) */
	for (unsigned int cpu = 0; lost && cpu < p->nr_cpus; cpu++)
		__atomic_add_fetch(&p->cpus[cpu].lost_closed, lost[cpu], __ATOMIC_RELAXED);
	free(lost);
	memmove(&p->tps[i], &p->tps[i + 1], (p->ntps - i - 1) * sizeof(*p->tps));
	p->ntps--;
}

/* Stops and restarts the groups: members that joined them running are scheduled. */
static void groups_restart(struct kperf *p)
{
	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++) {
		ioctl(p->cpus[cpu].counter_fds[0], PERF_EVENT_IOC_DISABLE, 0);
		ioctl(p->cpus[cpu].counter_fds[0], PERF_EVENT_IOC_ENABLE, 0);
	}
}

int kperf_enable(struct kperf *p, uint32_t id, bool on, char *err, size_t errlen)
{
	struct kperf_tp t = {.id = id};
	unsigned int i;
	int e;

	for (i = 0; i < p->ntps && p->tps[i].id != id; i++)
		;
	if (!on) {
		if (i < p->ntps)
			tp_remove(p, i);
		return 0;
	}
	if (i < p->ntps)
		return 0;
	if (p->ntps >= KPERF_MAX_TRACEPOINTS) {
		snprintf(err, errlen,
			 "a channel with perf counter contexts records %u tracepoints at most "
			 "(each record carries a value per tracepoint)",
			 KPERF_MAX_TRACEPOINTS);
		return -E2BIG;
	}
	if (p->ntps == p->cap_tps) {
		unsigned int cap = p->cap_tps ? 2 * p->cap_tps : 16;
		struct kperf_tp *n = realloc(p->tps, cap * sizeof(*n));

		if (!n) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		p->tps = n;
		p->cap_tps = cap;
	}
	t.fds = malloc(p->nr_cpus * sizeof(int));
	if (!t.fds) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	e = tp_open(p, id, t.fds, err, errlen);
	if (e) {
		tp_close(p, &t);
		return e;
	}
	p->tps[p->ntps++] = t;
	if (p->started)
		groups_restart(p);
	return 0;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int kperf_set_pids(struct kperf *p, const int *pids, unsigned int npids)
{
	struct pid_set *s = NULL, *old = (struct pid_set *)p->pids;
	struct pid_set **r;

	if (npids) {
		s = malloc(sizeof(*s) + npids * sizeof(int));
		if (!s)
			return -ENOMEM;
		s->n = npids;
		memcpy(s->pids, pids, npids * sizeof(int));
		qsort(s->pids, npids, sizeof(int), int_cmp);
	}
	if (old) {
		/* a reader may still look at it: kept until the end */
		r = realloc(p->old_pids, (p->nold + 1) * sizeof(*r));
		if (!r) {
			free(s);
			return -ENOMEM;
		}
		p->old_pids = r;
		p->old_pids[p->nold++] = old;
	}
	__atomic_store_n(&p->pids, s, __ATOMIC_RELEASE);
	return 0;
}

int kperf_start(struct kperf *p)
{
	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++)
		if (ioctl(p->cpus[cpu].counter_fds[0], PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
	p->started = true;
	return 0;
}

void kperf_stop(struct kperf *p)
{
	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++)
		ioctl(p->cpus[cpu].counter_fds[0], PERF_EVENT_IOC_DISABLE, 0);
	p->started = false;
}

int kperf_fd(const struct kperf *p, int cpu)
{
	return cpu >= 0 && (unsigned int)cpu < p->nr_cpus ? p->cpus[cpu].counter_fds[0] : -1;
}

int kperf_counter_fd(const struct kperf *p, int cpu, unsigned int j)
{
	return cpu >= 0 && (unsigned int)cpu < p->nr_cpus && j < p->ncounters
		   ? p->cpus[cpu].counter_fds[j]
		   : -1;
}

unsigned int kperf_ncounters(const struct kperf *p)
{
	return p->ncounters;
}

int kperf_read(const struct kperf *p, int cpu, uint64_t *values)
{
	uint64_t buf[GROUP_WORDS];
	size_t per = p->format_lost ? 2 : 1;
	long n;

	if (cpu < 0 || (unsigned int)cpu >= p->nr_cpus)
		return -EINVAL;
	n = group_read(p, cpu, buf, GROUP_WORDS);
	if (n < 0)
		return (int)n;
	for (unsigned int j = 0; j < p->ncounters; j++)
		values[j] = buf[1 + per * j];
	return 0;
}

uint64_t kperf_lost(const struct kperf *p, int cpu)
{
	const struct kperf_cpu *c;
	uint64_t buf[GROUP_WORDS], lost;
	long n;

	if (cpu < 0 || (unsigned int)cpu >= p->nr_cpus)
		return 0;
	c = &p->cpus[cpu];
	if (!p->format_lost)
		return __atomic_load_n(&c->lost_records, __ATOMIC_RELAXED);
	lost = __atomic_load_n(&c->lost_closed, __ATOMIC_RELAXED);
	n = group_read(p, cpu, buf, GROUP_WORDS);
	for (long m = p->ncounters; m < n; m++)
		lost += buf[1 + 2 * m + 1];
	return lost;
}

static bool pid_wanted(const struct kperf *p, int pid)
{
	const struct pid_set *s = __atomic_load_n(&p->pids, __ATOMIC_ACQUIRE);

	return !s || bsearch(&pid, s->pids, s->n, sizeof(int), int_cmp);
}

/*
 * A sample of sample_type TID | TIME | PERIOD | READ (group) | RAW: u32
 * pid, tid; u64 time; u64 period; u64 nr, values[nr]; u32 size,
 * raw[size]. 0 when handed (or skipped), -errno from fn, 1 when damaged.
 */
static int sample(struct kperf *p, int cpu, const uint8_t *s, size_t len, kperf_sample_fn fn,
		  void *arg)
{
	struct kperf_cpu *c = &p->cpus[cpu];
	uint64_t values[KPERF_MAX_COUNTERS], nr, ts;
	uint32_t pid, tid, rawlen;
	size_t off = 24; /* (the period is not used) */

	if (len < off + 8)
		return 1;
	memcpy(&pid, s, 4);
	memcpy(&tid, s + 4, 4);
	memcpy(&ts, s + 8, 8);
	memcpy(&nr, s + off, 8);
	off += 8;
	if (nr < p->ncounters || nr > (len - off) / 8)
		return 1;
	memcpy(values, s + off, p->ncounters * 8);
	off += nr * 8;
	if (len - off < 4)
		return 1;
	memcpy(&rawlen, s + off, 4);
	off += 4;
	if (rawlen > len - off)
		return 1;
	if (!pid_wanted(p, (int)pid))
		return 0;
	/* a sample taken before a nested one wrote after it: the CPU's stream stays in order */
	if (ts < c->last_ts)
		ts = c->last_ts;
	c->last_ts = ts;
	return fn(arg, cpu, ts, (int32_t)tid, s + off, rawlen, values);
}

long kperf_consume(struct kperf *p, int cpu, kperf_sample_fn fn, void *arg)
{
	struct kperf_cpu *c;
	const uint8_t *data;
	uint64_t head, tail;
	long handed = 0;
	int r = 0;

	if (cpu < 0 || (unsigned int)cpu >= p->nr_cpus)
		return -EINVAL;
	c = &p->cpus[cpu];
	data = (const uint8_t *)c->map + p->page;
	head = __atomic_load_n(&c->map->data_head, __ATOMIC_ACQUIRE);
	tail = c->map->data_tail;
	while (tail < head && r >= 0) {
		struct perf_event_header h;
		size_t at = (size_t)(tail % c->data_len);
		const uint8_t *rec;

		if (c->data_len - at >= sizeof(h)) {
			memcpy(&h, data + at, sizeof(h));
		} else {
			size_t first = c->data_len - at;

			memcpy(&h, data + at, first);
			memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break; /* damaged: the rest of what is there is skipped */
		if (c->data_len - at >= h.size) {
			rec = data + at;
		} else {
			size_t first = c->data_len - at;

			memcpy(c->copy, data + at, first);
			memcpy(c->copy + first, data, h.size - first);
			rec = c->copy;
		}
		if (h.type == PERF_RECORD_SAMPLE) {
			r = sample(p, cpu, rec + sizeof(h), h.size - sizeof(h), fn, arg);
			if (r == 0)
				handed++;
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16 &&
			   !p->format_lost) {
			uint64_t n;

			memcpy(&n, rec + sizeof(h) + 8, 8);
			__atomic_store_n(&c->lost_records, c->lost_records + n, __ATOMIC_RELAXED);
		}
		tail += h.size;
	}
	if (tail < head && r >= 0)
		tail = head;
	__atomic_store_n(&c->map->data_tail, tail, __ATOMIC_RELEASE);
	return r < 0 ? r : handed;
}
