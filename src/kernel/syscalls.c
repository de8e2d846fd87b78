/*
 * syscalls.c - system calls with their arguments (syscalls.h): the table
 * of the running kernel's calls (syscall-table.c), the BPF probes
 * (bpf/syscalls.bpf.c, embedded as a libbpf skeleton), and the reading of
 * their per-CPU perf buffers into event records.
 *
 * Order: a probe takes its time stamp, then writes its record; a probe
 * that is preempted in between (or interrupted by another probe on its
 * CPU) writes its record after a later one. Records are therefore held
 * for HOLDBACK_NS after their time stamp, sorted by it per CPU, and handed
 * over in that order; once the probes are detached every record is handed
 * over. A record that still comes later than one already handed over on
 * its CPU (held back longer than HOLDBACK_NS) takes that one's time stamp,
 * so that each CPU's records stay in order; they are counted (`late`).
 */
#include <errno.h>
#include <fnmatch.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>

#include "kernel/syscall-table.h"
#include "kernel/syscalls.h"
#include "syscalls.skel.h"

#define HOLDBACK_NS 10000000ull /* 10 ms */

struct pend {
	uint64_t ts, seq;
	uint32_t off, len;
};

/* Records of one CPU read from its buffer and not handed over yet. */
struct cpu_queue {
	uint8_t *buf, *spare; /* record bytes; spare: for compaction */
	size_t used, cap;
	struct pend *recs;
	size_t n, ncap;
	uint64_t last_ts; /* of the last record handed over */
	int err;	  /* ENOMEM while queuing: records were dropped */
};

struct ksyscalls {
	struct sc_table t;
	struct syscalls_bpf *skel;
	struct perf_buffer *pb;
	bool attached;
	int ncpus;
	struct cpu_queue *q;
	uint64_t *lost;
	uint64_t seq, late, damaged;
	uint8_t *payload;
	int *pids;
	unsigned int npids;
};

struct ksyscalls *ksyscalls_new(const char *root, char *err, size_t errlen)
{
	struct ksyscalls *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sc_table_load(&s->t, root, err, errlen)) {
		free(s);
		return NULL;
	}
	s->payload = malloc(SC_PAYLOAD_MAX);
	if (!s->payload) {
		snprintf(err, errlen, "out of memory");
		ksyscalls_free(s);
		return NULL;
	}
	return s;
}

void ksyscalls_free(struct ksyscalls *s)
{
	if (!s)
		return;
	perf_buffer__free(s->pb);
	syscalls_bpf__destroy(s->skel);
	for (int c = 0; s->q && c < s->ncpus; c++) {
		free(s->q[c].buf);
		free(s->q[c].spare);
		free(s->q[c].recs);
	}
	free(s->q);
	free(s->lost);
	free(s->payload);
	free(s->pids);
	sc_table_free(&s->t);
	free(s);
}

unsigned int ksyscalls_count(const struct ksyscalls *s)
{
	return s->t.ncalls;
}

const char *ksyscalls_name(const struct ksyscalls *s, unsigned int i)
{
	return i < s->t.ncalls ? s->t.calls[i].name : NULL;
}

const char *ksyscalls_signature(const struct ksyscalls *s, unsigned int i)
{
	return i < s->t.ncalls ? s->t.calls[i].signature : NULL;
}

/* The probes' descriptor of call number nr, from the table. */
static struct sc_desc desc_of(const struct ksyscalls *s, int nr)
{
	struct sc_desc d;
	int i = s->t.by_nr[nr];

	memset(&d, 0, sizeof(d));
	d.lenarg = SC_MAX_ARGS;
	if (i >= 0) {
		const struct sc_call *c = &s->t.calls[i];

		d.flags = (c->enabled[0] ? SC_DESC_ENTRY : 0) | (c->enabled[1] ? SC_DESC_EXIT : 0);
		memcpy(d.cap[0], c->ev[0].cap, SC_MAX_ARGS);
		memcpy(d.cap[1], c->ev[1].cap, SC_MAX_ARGS);
		d.lenarg = c->ev[1].lenarg < SC_MAX_ARGS ? c->ev[1].lenarg : c->ev[0].lenarg;
	} else {
		d.flags = (s->t.unknown_enabled[0] ? SC_DESC_ENTRY : 0) |
			  (s->t.unknown_enabled[1] ? SC_DESC_EXIT : 0);
	}
	return d;
}

/* Writes the descriptors of the numbers in [from, to) the probes read (when loaded). 0, or -errno.
 */
static int descs_write(struct ksyscalls *s, int from, int to)
{
	int fd;

	if (!s->skel)
		return 0;
	fd = bpf_map__fd(s->skel->maps.descs);
	for (int nr = from; nr < to; nr++) {
		struct sc_desc d = desc_of(s, nr);
		__u32 key = (__u32)nr;

		if (bpf_map_update_elem(fd, &key, &d, BPF_ANY))
			return -errno;
	}
	s->skel->bss->unknown_flags = (s->t.unknown_enabled[0] ? SC_DESC_ENTRY : 0) |
				      (s->t.unknown_enabled[1] ? SC_DESC_EXIT : 0);
	s->skel->bss->compat_flags = s->skel->bss->unknown_flags;
	return 0;
}

int ksyscalls_enable(struct ksyscalls *s, const char *pattern, bool entry, bool exit)
{
	bool unknown = !fnmatch(pattern, "unknown", 0);
	int n = 0, e;

	for (unsigned int i = 0; i < s->t.ncalls; i++) {
		struct sc_call *c = &s->t.calls[i];

		if (fnmatch(pattern, c->name, 0))
			continue;
		c->enabled[0] = entry;
		c->enabled[1] = exit;
		n++;
		if ((e = descs_write(s, c->nr, c->nr + 1)))
			return e;
	}
	/* LTTng's unknown-call events (and the 32-bit calls, recorded as such) */
	if (unknown) {
		s->t.unknown_enabled[0] = entry;
		s->t.unknown_enabled[1] = exit;
		n++;
		if ((e = descs_write(s, 0, SC_NR_SLOTS)))
			return e;
	}
	return n;
}

/* Replaces the BPF pid set with s->pids. 0, or -errno. */
static int pids_apply(struct ksyscalls *s)
{
	int fd = bpf_map__fd(s->skel->maps.pids);
	__u32 key, next;
	__u8 one = 1;

	s->skel->bss->filter_pids = 0;
	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		key = next;
		if (bpf_map_delete_elem(fd, &key))
			return -errno;
	}
	for (unsigned int i = 0; i < s->npids; i++) {
		key = (__u32)s->pids[i];
		if (bpf_map_update_elem(fd, &key, &one, BPF_ANY))
			return -errno;
	}
	s->skel->bss->filter_pids = s->npids > 0;
	return 0;
}

int ksyscalls_set_pids(struct ksyscalls *s, const int *pids, unsigned int npids)
{
	int *copy = NULL;

	if (npids > SC_MAX_PIDS)
		return -E2BIG;
	if (npids) {
		copy = malloc(npids * sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		memcpy(copy, pids, npids * sizeof(*copy));
	}
	free(s->pids);
	s->pids = copy;
	s->npids = npids;
	return s->skel ? pids_apply(s) : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Record bytes are kept 8-byte aligned, as struct sc_rec needs. */
static size_t aligned(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* A record of the probes: queue a copy of it on its CPU. */
static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	struct ksyscalls *s = ctx;
	struct cpu_queue *q;
	struct sc_rec r; /* (data is 4 bytes past an 8-byte boundary) */
	size_t need;

	if (cpu < 0 || cpu >= s->ncpus)
		return;
	q = &s->q[cpu];
	if (size < sizeof(r)) {
		s->damaged++;
		return;
	}
	memcpy(&r, data, sizeof(r));
	if (r.size < sizeof(r) || r.size > size) {
		s->damaged++;
		return;
	}
	size = r.size;
	need = aligned(size);
	if (q->used + need > q->cap) {
		size_t cap = q->cap ? q->cap : 1 << 16;
		uint8_t *nb, *ns;

		while (cap < q->used + need)
			cap *= 2;
		nb = realloc(q->buf, cap);
		if (nb)
			q->buf = nb;
		ns = nb ? realloc(q->spare, cap) : NULL;
		if (ns)
			q->spare = ns;
		if (!nb || !ns) {
			q->err = ENOMEM;
			return;
		}
		q->cap = cap;
	}
	if (q->n == q->ncap) {
		size_t ncap = q->ncap ? q->ncap * 2 : 1024;
		struct pend *nr = realloc(q->recs, ncap * sizeof(*nr));

		if (!nr) {
			q->err = ENOMEM;
			return;
		}
		q->recs = nr;
		q->ncap = ncap;
	}
	memcpy(q->buf + q->used, data, size);
	q->recs[q->n++] = (struct pend){r.ts, s->seq++, (uint32_t)q->used, size};
	q->used += need;
}

static void on_lost(void *ctx, int cpu, __u64 count)
{
	struct ksyscalls *s = ctx;

	if (cpu >= 0 && cpu < s->ncpus)
		s->lost[cpu] += count;
}

/* The two kinds of records the perf buffers hold (perf_event_open(2)). */
struct raw_sample { /* PERF_RECORD_SAMPLE of PERF_SAMPLE_RAW */
	struct perf_event_header h;
	__u32 size;
	uint8_t data[];
};
struct raw_lost { /* PERF_RECORD_LOST */
	struct perf_event_header h;
	__u64 id, lost;
};

/* perf_buffer's raw callback: a record of the probes, or a count of lost ones. */
static enum bpf_perf_event_ret on_raw(void *ctx, int cpu, struct perf_event_header *h)
{
	if (h->type == PERF_RECORD_SAMPLE && h->size >= sizeof(struct raw_sample)) {
		struct raw_sample *r = (struct raw_sample *)h;

		if (r->size <= h->size - sizeof(*r))
			on_sample(ctx, cpu, r->data, r->size);
	} else if (h->type == PERF_RECORD_LOST && h->size >= sizeof(struct raw_lost)) {
		on_lost(ctx, cpu, ((struct raw_lost *)h)->lost);
	}
	return LIBBPF_PERF_EVENT_CONT;
}

int ksyscalls_start(struct ksyscalls *s, size_t buffer_bytes, char *err, size_t errlen)
{
	/*
	 * The buffers wake their reader when a quarter of them is full (its
	 * poll() times out at the read timer otherwise). perf_buffer__new()
	 * asks for a wakeup at every record: an IRQ-work interrupt per record,
	 * which on a virtual machine made each recorded system call 7 times
	 * dearer (bench/kernel.sh, docs/benchmarks.md).
	 */
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_BPF_OUTPUT,
	    .sample_type = PERF_SAMPLE_RAW,
	    .sample_period = 1,
	    .watermark = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 1;
	int r;

	if (s->skel && s->attached) {
		snprintf(err, errlen, "already started");
		return -EBUSY;
	}
	if (s->skel) { /* stopped: attach again */
		r = syscalls_bpf__attach(s->skel);
		if (r) {
			snprintf(err, errlen, "attaching to sys_enter and sys_exit: %s",
				 strerror(-r));
			return r;
		}
		s->attached = true;
		return 0;
	}
	while (pages * (size_t)page < buffer_bytes && pages < (1u << 20))
		pages *= 2;
	s->ncpus = libbpf_num_possible_cpus();
	if (s->ncpus <= 0) {
		snprintf(err, errlen, "cannot count the CPUs: %s", strerror(-s->ncpus));
		return s->ncpus ? s->ncpus : -EINVAL;
	}
	free(s->q); /* (of a start that failed) */
	free(s->lost);
	s->q = calloc((size_t)s->ncpus, sizeof(*s->q));
	s->lost = calloc((size_t)s->ncpus, sizeof(*s->lost));
	if (!s->q || !s->lost) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	s->skel = syscalls_bpf__open();
	if (!s->skel) {
		r = -errno;
		snprintf(err, errlen, "opening the BPF object: %s", strerror(errno));
		return r;
	}
	r = syscalls_bpf__load(s->skel);
	if (r) {
		snprintf(err, errlen,
			 "loading the BPF probes: %s (they need root, BPF and the kernel's BTF)",
			 strerror(-r));
		goto fail;
	}
	r = descs_write(s, 0, SC_NR_SLOTS);
	if (r) {
		snprintf(err, errlen, "writing the call descriptors: %s", strerror(-r));
		goto fail;
	}
	r = pids_apply(s);
	if (r) {
		snprintf(err, errlen, "writing the pid filter: %s", strerror(-r));
		goto fail;
	}
	attr.wakeup_watermark = (__u32)(pages * (size_t)page / 4);
	s->pb =
	    perf_buffer__new_raw(bpf_map__fd(s->skel->maps.events), pages, &attr, on_raw, s, NULL);
	if (!s->pb) {
		r = -errno;
		snprintf(err, errlen, "creating the perf buffers (%zu pages per CPU): %s", pages,
			 strerror(errno));
		goto fail;
	}
	r = syscalls_bpf__attach(s->skel);
	if (r) {
		snprintf(err, errlen, "attaching to sys_enter and sys_exit: %s", strerror(-r));
		goto fail;
	}
	s->attached = true;
	return 0;
fail:
	perf_buffer__free(s->pb);
	s->pb = NULL;
	syscalls_bpf__destroy(s->skel);
	s->skel = NULL;
	return r < 0 ? r : -EINVAL;
}

void ksyscalls_stop(struct ksyscalls *s)
{
	if (s->skel && s->attached)
		syscalls_bpf__detach(s->skel);
	s->attached = false;
}

unsigned int ksyscalls_fds(const struct ksyscalls *s, int *fds, unsigned int max)
{
	unsigned int n = 0;

	if (!s->pb)
		return 0;
	for (size_t i = 0; i < perf_buffer__buffer_cnt(s->pb) && n < max; i++) {
		int fd = perf_buffer__buffer_fd(s->pb, i);

		if (fd >= 0)
			fds[n++] = fd;
	}
	return n;
}

static int by_time(const void *a, const void *b)
{
	const struct pend *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The event class a record is of. */
static const struct sc_event *event_of(const struct ksyscalls *s, const struct sc_rec *r)
{
	int exit = (r->flags & SC_REC_EXIT) != 0;

	if (r->flags & SC_REC_COMPAT)
		return &s->t.unknown[1][exit];
	if (r->nr >= 0 && r->nr < SC_NR_SLOTS && s->t.by_nr[r->nr] >= 0)
		return &s->t.calls[s->t.by_nr[r->nr]].ev[exit];
	return &s->t.unknown[0][exit];
}

/* Hands cpu's records up to horizon to sink, in time order. Records handed, or -errno. */
static long drain_cpu(struct ksyscalls *s, int cpu, uint64_t horizon, kevent_sink_fn sink,
		      void *arg)
{
	struct cpu_queue *q = &s->q[cpu];
	size_t k = 0, used = 0;
	long handed = 0;
	int ret = 0;

	if (!q->n)
		return 0;
	/* records come nearly always in order: the check costs less than the sort */
	for (size_t i = 1; i < q->n; i++) {
		if (by_time(&q->recs[i - 1], &q->recs[i]) > 0) {
			qsort(q->recs, q->n, sizeof(*q->recs), by_time);
			break;
		}
	}
	for (; k < q->n && q->recs[k].ts <= horizon; k++) {
		const struct sc_rec *r = (const struct sc_rec *)(q->buf + q->recs[k].off);
		const struct sc_event *ev = event_of(s, r);
		struct kevent_record kr;
		long len = sc_payload(ev, r, q->recs[k].len, s->payload, SC_PAYLOAD_MAX);
		uint64_t ts = q->recs[k].ts;

		if (len < 0) {
			s->damaged++;
			continue;
		}
		if (ts < q->last_ts) {
			ts = q->last_ts;
			s->late++;
		}
		kr = (struct kevent_record){&((struct sc_event *)ev)->kc,
					    ts,
					    cpu,
					    (int32_t)r->tid,
					    s->payload,
					    (size_t)len};
		ret = sink(arg, &kr);
		if (ret < 0) {
			k++;
			break;
		}
		q->last_ts = ts;
		handed++;
	}
	/* keep the records not handed over, at the start of the buffer */
	for (size_t i = k; i < q->n; i++) {
		memcpy(q->spare + used, q->buf + q->recs[i].off, q->recs[i].len);
		q->recs[i - k] = q->recs[i];
		q->recs[i - k].off = (uint32_t)used;
		used += aligned(q->recs[i].len);
	}
	{
		uint8_t *t = q->buf;

		q->buf = q->spare;
		q->spare = t;
	}
	q->n -= k;
	q->used = used;
	return ret < 0 ? ret : handed;
}

long ksyscalls_consume(struct ksyscalls *s, kevent_sink_fn sink, void *arg)
{
	uint64_t horizon;
	long total = 0;
	int r;

	if (!s->pb)
		return 0;
	/* what was written before now - HOLDBACK_NS is in the buffers once they are read */
	horizon = s->attached ? now_ns() - HOLDBACK_NS : UINT64_MAX;
	r = perf_buffer__consume(s->pb);
	if (r < 0)
		return r;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		long n;

		if (s->q[cpu].err) {
			s->q[cpu].err = 0;
			return -ENOMEM;
		}
		n = drain_cpu(s, cpu, horizon, sink, arg);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

uint64_t ksyscalls_lost(const struct ksyscalls *s, int cpu)
{
	return s->lost && cpu >= 0 && cpu < s->ncpus ? s->lost[cpu] : 0;
}

struct kevent_class *ksyscalls_class(struct ksyscalls *s, unsigned int i, bool exit)
{
	return i < s->t.ncalls ? &s->t.calls[i].ev[exit ? 1 : 0].kc : NULL;
}
