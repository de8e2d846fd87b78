/*
 * syscalls.c - system calls with their arguments (syscalls.h): the table
 * of the running kernel's calls (syscall-table.c), the BPF probes
 * (bpf/syscalls.bpf.c, embedded as a libbpf skeleton), and the reading of
 * their per-CPU ring buffers into event records.
 *
 * Buffers: one BPF ring buffer per CPU, made here and put in the probes'
 * array of rings, which a probe indexes by its CPU: each CPU's records
 * keep their order, and the probe counts per CPU what its ring could not
 * take (exact losses). A ring costs the probe about half of what a perf
 * buffer does (docs/kernel.md, "System calls").
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
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/assert.h"
#include "common/glob.h"
#include "kernel/syscall-table.h"
#include "kernel/syscalls.h"
#include "syscalls.skel.h"

#define HOLDBACK_NS 10000000ull /* 10 ms */
/*
 * Records a consume takes from each CPU's ring, and hands over from each
 * CPU's queue, at most: with the probes writing on every CPU, reading a
 * ring until it was empty took 70 ms at times, and the writing of all it
 * gathered 100 ms more, while the rings (35 ms of such a load) overflowed.
 * In bounded steps the rings are read every few milliseconds; the backlog
 * waits in the queues.
 */
#define READ_BUDGET	  16384
#define DRAIN_BUDGET	  32768
#define QUEUE_PRESIZE_MAX (16u << 20)  /* bytes of a CPU's queue made at the start, at most */
#define RING_FULL	  (-ECANCELED) /* on_ring: the budget is spent (stops the ring's read) */

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
	size_t head;	  /* recs[head..n) are not handed over yet */
	size_t sorted;	  /* recs[head..sorted) are in time order (sorted <= n) */
	uint64_t last_ts; /* of the last record handed over */
	int err;	  /* ENOMEM while queuing: records were dropped */
};

/* What a ring's sample callback is given: the ring's CPU. */
struct ring_ctx {
	struct ksyscalls *s;
	int cpu;
	unsigned int budget; /* records this read may still take */
};

struct ksyscalls {
	struct sc_table t;
	struct syscalls_bpf *skel;
	struct ring_buffer **rb; /* [cpu]: one reader per ring, so that each is read in turn */
	bool pending;		 /* the last consume left records (ksyscalls_pending) */
	int *ring_fds;
	struct ring_ctx *rctx;
	bool attached;
	int ncpus;
	struct cpu_queue *q;
	uint64_t *lost; /* per CPU, as last read from the probes' counters */
	uint64_t seq, late, damaged;
	uint8_t *payload;
	int *pids;
	unsigned int npids;
	int *ids[2]; /* the uid and gid trackers' sets (KSYSCALLS_UID, KSYSCALLS_GID) */
	unsigned int nids[2];
	bool ids_on[2];
	/* the counters each record carries: counter_fds[cpu * ncounters + j] */
	int *counter_fds;
	unsigned int ncounters, counter_cpus;
	bool want_comm; /* records carry their thread's name (ksyscalls_want_comm) */
	/*
	 * The guard sets' slots in use (a call direction's each), and where
	 * the search for a free one starts: slots are taken in turn, so that
	 * one just given up is not written again while a probe may still read it.
	 */
	bool slot_used[SC_GUARD_SETS];
	unsigned int next_slot;
};

/* Closes the rings and their reader. */
static void rings_free(struct ksyscalls *s)
{
	for (int c = 0; s->rb && c < s->ncpus; c++)
		ring_buffer__free(s->rb[c]);
	free(s->rb);
	s->rb = NULL;
	for (int c = 0; s->ring_fds && c < s->ncpus; c++)
		if (s->ring_fds[c] >= 0)
			close(s->ring_fds[c]);
	free(s->ring_fds);
	s->ring_fds = NULL;
}

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
	rings_free(s);
	syscalls_bpf__destroy(s->skel);
	free(s->rctx);
	for (int c = 0; s->q && c < s->ncpus; c++) {
		free(s->q[c].buf);
		free(s->q[c].spare);
		free(s->q[c].recs);
	}
	free(s->q);
	free(s->lost);
	free(s->payload);
	free(s->pids);
	free(s->ids[0]);
	free(s->ids[1]);
	free(s->counter_fds);
	sc_table_free(&s->t);
	free(s);
}

unsigned int ksyscalls_count(const struct ksyscalls *s)
{
	return s->t.ncalls;
}

unsigned int ksyscalls_compat_count(const struct ksyscalls *s)
{
	return s->t.ncompat;
}

/* Call i of both tables (the 64-bit ones, then the 32-bit ones), or NULL. */
static struct sc_call *call_at(const struct ksyscalls *s, unsigned int i)
{
	if (i < s->t.ncalls)
		return &s->t.calls[i];
	if (i - s->t.ncalls < s->t.ncompat)
		return &s->t.compat[i - s->t.ncalls];
	return NULL;
}

const char *ksyscalls_name(const struct ksyscalls *s, unsigned int i)
{
	const struct sc_call *c = call_at(s, i);

	return c ? c->name : NULL;
}

const char *ksyscalls_signature(const struct ksyscalls *s, unsigned int i)
{
	return i < s->t.ncalls ? s->t.calls[i].signature : NULL;
}

/*
 * How many argument registers a record of ev must carry: up to the last
 * argument one of its fields shows (a socket address's length argument
 * included). What only user memory gives needs none.
 */
static uint8_t regs_needed(const struct sc_event *ev, uint8_t lenarg)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < ev->nfields; i++) {
		const struct sc_fsrc *f = &ev->src[i];
		unsigned int need = 0;

		switch (f->src) {
		case SC_SRC_RET:
		case SC_SRC_ID:
			break;
		case SC_SRC_ARGS:
			need = SC_MAX_ARGS;
			break;
		case SC_SRC_SA_FAMILY:
		case SC_SRC_SA_PORT:
		case SC_SRC_SA_V4:
		case SC_SRC_SA_V6:
			need = lenarg < SC_MAX_ARGS ? lenarg + 1u : 0;
			if (f->arg + 1u > need)
				need = f->arg + 1u;
			break;
		default:
			need = f->arg + 1u;
			break;
		}
		if (need > n)
			n = need;
	}
	return (uint8_t)(n < SC_MAX_ARGS ? n : SC_MAX_ARGS);
}

/* The probes' descriptor of call number nr (of the 32-bit table: compat), from the table. */
static struct sc_desc desc_of(const struct ksyscalls *s, int nr, bool compat)
{
	struct sc_desc d;
	int i = compat ? s->t.by_nr32[nr] : s->t.by_nr[nr];

	memset(&d, 0, sizeof(d));
	d.lenarg = SC_MAX_ARGS;
	if (i >= 0) {
		const struct sc_call *c = compat ? &s->t.compat[i] : &s->t.calls[i];

		d.flags = (c->enabled[0] ? SC_DESC_ENTRY : 0) | (c->enabled[1] ? SC_DESC_EXIT : 0);
		memcpy(d.cap[0], c->ev[0].cap, SC_MAX_ARGS);
		memcpy(d.cap[1], c->ev[1].cap, SC_MAX_ARGS);
		d.lenarg = c->ev[1].lenarg < SC_MAX_ARGS ? c->ev[1].lenarg : c->ev[0].lenarg;
		d.nregs[0] = regs_needed(&c->ev[0], d.lenarg);
		d.nregs[1] = regs_needed(&c->ev[1], d.lenarg);
		for (int dir = 0; dir < 2; dir++) {
			if (c->guards[dir] == SC_GUARDS_NONE) /* no rule can accept one */
				d.flags &= (uint8_t) ~(dir ? SC_DESC_EXIT : SC_DESC_ENTRY);
			else if (c->guards[dir] == SC_GUARDS_SOME)
				d.guard[dir] = c->guard_slot[dir];
		}
	} else {
		d.flags = (s->t.unknown_enabled[0] ? SC_DESC_ENTRY : 0) |
			  (s->t.unknown_enabled[1] ? SC_DESC_EXIT : 0);
		d.nregs[0] = d.nregs[1] = SC_MAX_ARGS; /* the unknown events show them all */
	}
	return d;
}

/*
 * Writes the descriptors of the numbers in [from, to) of the 64-bit or
 * the 32-bit (compat) table the probes read (when loaded). 0, or -errno.
 */
static int descs_write_abi(struct ksyscalls *s, int from, int to, bool compat)
{
	int fd;

	if (!s->skel)
		return 0;
	fd = bpf_map__fd(s->skel->maps.descs);
	for (int nr = from; nr < to; nr++) {
		struct sc_desc d = desc_of(s, nr, compat);
		__u32 key = (__u32)nr + (compat ? SC_NR_SLOTS : 0); /* the 32-bit ones after */

		if (bpf_map_update_elem(fd, &key, &d, BPF_ANY))
			return -errno;
	}
	s->skel->bss->unknown_flags = (s->t.unknown_enabled[0] ? SC_DESC_ENTRY : 0) |
				      (s->t.unknown_enabled[1] ? SC_DESC_EXIT : 0);
	s->skel->bss->compat_flags = s->skel->bss->unknown_flags;
	return 0;
}

/* Writes call c's guard set of direction dir into its slot of the probes' array. 0, or -errno. */
static int guard_write(struct ksyscalls *s, const struct sc_call *c, int dir)
{
	__u32 key = c->guard_slot[dir];

	if (!s->skel || !key)
		return 0;
	if (bpf_map_update_elem(bpf_map__fd(s->skel->maps.guards), &key, &c->guard_set[dir],
				BPF_ANY))
		return -errno;
	return 0;
}

/* A free guard slot, taken (0: none left). */
static uint16_t slot_take(struct ksyscalls *s)
{
	for (unsigned int k = 0; k < SC_GUARD_SETS - 1; k++) {
		unsigned int slot = 1 + (s->next_slot + k) % (SC_GUARD_SETS - 1);

		if (!s->slot_used[slot]) {
			s->slot_used[slot] = true;
			s->next_slot = slot; /* (the next search starts after it) */
			return (uint16_t)slot;
		}
	}
	return 0;
}

int ksyscalls_set_guards(struct ksyscalls *s, unsigned int i, bool exit,
			 const struct kfpush_rule *rules, unsigned int n)
{
	struct sc_call *c = call_at(s, i);
	struct sc_guard_set set;
	int dir = exit ? 1 : 0, kind, e;
	bool compat = i >= s->t.ncalls;

	if (!c)
		return -EINVAL;
	kind = sc_guard_derive(&c->ev[dir], rules, n, &set);
	if (kind == c->guards[dir] &&
	    (kind != SC_GUARDS_SOME || !memcmp(&set, &c->guard_set[dir], sizeof(set))))
		return 0;
	/* the descriptor leaves the old slot before it is given up */
	c->guards[dir] = SC_GUARDS_ALL;
	if (c->nr >= 0 && c->nr < SC_NR_SLOTS && (e = descs_write_abi(s, c->nr, c->nr + 1, compat)))
		return e;
	if (c->guard_slot[dir])
		s->slot_used[c->guard_slot[dir]] = false;
	c->guard_slot[dir] = 0;
	if (kind == SC_GUARDS_SOME) {
		c->guard_set[dir] = set;
		c->guard_slot[dir] = slot_take(s);
		if (!c->guard_slot[dir])
			kind = SC_GUARDS_ALL; /* (no slot left: traxd's check alone) */
		else if ((e = guard_write(s, c, dir)))
			return e;
	}
	c->guards[dir] = (uint8_t)kind;
	if (c->nr >= 0 && c->nr < SC_NR_SLOTS && (e = descs_write_abi(s, c->nr, c->nr + 1, compat)))
		return e;
	return 0;
}

/* Writes every call's guard sets (at the probes' load). 0, or -errno. */
static int guards_write(struct ksyscalls *s)
{
	int e;

	for (unsigned int i = 0; i < s->t.ncalls + s->t.ncompat; i++)
		for (int dir = 0; dir < 2; dir++)
			if ((e = guard_write(s, call_at(s, i), dir)))
				return e;
	return 0;
}

/* The same for both tables. */
static int descs_write(struct ksyscalls *s, int from, int to)
{
	int e = descs_write_abi(s, from, to, false);

	return e ? e : descs_write_abi(s, from, to, true);
}

static int by_call_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct sc_call *)elem)->name);
}

/* Whether a 64-bit call has this name (the table is sorted by name). */
static bool native_named(const struct ksyscalls *s, const char *name)
{
	return bsearch(name, s->t.calls, s->t.ncalls, sizeof(*s->t.calls), by_call_name) != NULL;
}

int ksyscalls_enable(struct ksyscalls *s, const char *pattern, bool entry, bool exit)
{
	bool unknown = trax_glob_match(pattern, "unknown");
	int n = 0, e;

	for (unsigned int i = 0; i < s->t.ncalls; i++) {
		struct sc_call *c = &s->t.calls[i];

		if (!trax_glob_match(pattern, c->name))
			continue;
		c->enabled[0] = entry;
		c->enabled[1] = exit;
		n++;
		if ((e = descs_write_abi(s, c->nr, c->nr + 1, false)))
			return e;
	}
	/*
	 * The 32-bit calls of the names matched: LTTng-modules 2.13 matches
	 * an enabler's name against both ABIs' events (lttng-tools always
	 * asks for ABI "all"), so `--syscall openat` records
	 * compat_syscall_entry_openat too.
	 */
	for (unsigned int i = 0; i < s->t.ncompat; i++) {
		struct sc_call *c = &s->t.compat[i];

		if (!trax_glob_match(pattern, c->name))
			continue;
		c->enabled[0] = entry;
		c->enabled[1] = exit;
		if (!native_named(s, c->name))
			n++; /* a 32-bit-only call (socketcall) */
		if ((e = descs_write_abi(s, c->nr, c->nr + 1, true)))
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

/* Replaces the BPF uid or gid set with s->ids[kind]. 0, or -errno. */
static int ids_apply(struct ksyscalls *s, int kind)
{
	int fd = bpf_map__fd(kind == KSYSCALLS_GID ? s->skel->maps.gids : s->skel->maps.uids);
	__u32 *flag =
	    kind == KSYSCALLS_GID ? &s->skel->bss->filter_gids : &s->skel->bss->filter_uids;
	__u32 key, next;
	__u8 one = 1;

	*flag = 0;
	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		key = next;
		if (bpf_map_delete_elem(fd, &key))
			return -errno;
	}
	for (unsigned int i = 0; i < s->nids[kind]; i++) {
		key = (__u32)s->ids[kind][i];
		if (bpf_map_update_elem(fd, &key, &one, BPF_ANY))
			return -errno;
	}
	*flag = s->ids_on[kind];
	return 0;
}

int ksyscalls_set_ids(struct ksyscalls *s, int kind, const int *ids, unsigned int n, bool all)
{
	int *copy = NULL;

	if (kind != KSYSCALLS_UID && kind != KSYSCALLS_GID)
		return -EINVAL;
	if (n > SC_MAX_PIDS)
		return -E2BIG;
	if (n) {
		copy = malloc(n * sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		memcpy(copy, ids, n * sizeof(*copy));
	}
	free(s->ids[kind]);
	s->ids[kind] = copy;
	s->nids[kind] = n;
	s->ids_on[kind] = !all;
	return s->skel ? ids_apply(s, kind) : 0;
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

/*
 * Expands a ring's record (struct sc_wire, cbytes of counters, ret, its
 * registers, captures) into r; *caps and *ncaps: its captures (the
 * counters, then the captures: r->size counts both). 0, or -1 when it is
 * damaged.
 */
static int wire_expand(const uint8_t *data, size_t size, size_t cbytes, struct sc_rec *r,
		       const uint8_t **caps, size_t *ncaps)
{
	struct sc_wire w;
	size_t off = sizeof(w) + cbytes, nregs;

	if (size < sizeof(w))
		return -1;
	memcpy(&w, data, sizeof(w));
	nregs = (w.flags >> SC_REC_NREGS_SHIFT) & SC_REC_NREGS_MASK;
	if (w.size > size || nregs > SC_MAX_ARGS || off > w.size)
		return -1;
	memset(r, 0, sizeof(*r));
	r->ts = w.ts;
	r->tid = w.tid;
	r->tgid = w.tgid;
	r->nr = w.nr;
	r->flags = w.flags & (SC_REC_EXIT | SC_REC_COMPAT | SC_REC_COMM);
	if (w.flags & SC_REC_EXIT) {
		if (off + 8 > w.size)
			return -1;
		memcpy(&r->ret, data + off, 8);
		off += 8;
	}
	if (off + nregs * 8 > w.size)
		return -1;
	memcpy(r->args, data + off, nregs * 8);
	off += nregs * 8;
	if (w.flags & SC_REC_COMM) {
		if (off + 16 > w.size)
			return -1;
		memcpy(r->comm, data + off, 16);
		r->comm[15] = 0;
		off += 16;
	}
	*caps = data + off;
	*ncaps = w.size - off;
	if (sizeof(*r) + cbytes + *ncaps > UINT16_MAX)
		return -1;
	r->size = (uint16_t)(sizeof(*r) + cbytes + *ncaps);
	return 0;
}

/* Queues cpu's record, expanded (wire_expand). */
static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	struct ksyscalls *s = ctx;
	struct cpu_queue *q;
	struct sc_rec *r;
	const uint8_t *caps;
	size_t ncaps, need, cbytes = 8u * s->ncounters;

	if (cpu < 0 || cpu >= s->ncpus)
		return;
	q = &s->q[cpu];
	/* the expanded record is at most its header more than the wire's */
	need = aligned(sizeof(*r) + size);
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
	/*
	 * Expanded in place, in the queue: through a copy on the stack, the
	 * 16-byte loads of the copy stalled on the narrower stores just made
	 * (a third of the reader's time).
	 */
	r = (struct sc_rec *)(q->buf + q->used);
	if (wire_expand(data, size, cbytes, r, &caps, &ncaps)) {
		s->damaged++;
		return;
	}
	/* the counters (drain_cpu takes them out), then the captures */
	memcpy((uint8_t *)r + sizeof(*r), (const uint8_t *)data + sizeof(struct sc_wire), cbytes);
	memcpy((uint8_t *)r + sizeof(*r) + cbytes, caps, ncaps);
	q->recs[q->n++] = (struct pend){r->ts, s->seq++, (uint32_t)q->used, r->size};
	q->used += aligned(r->size);
}

/* A ring's sample callback: RING_FULL once this read's budget is spent. */
static int on_ring(void *ctx, void *data, size_t size)
{
	struct ring_ctx *rc = ctx;

	on_sample(rc->s, rc->cpu, data, (__u32)size);
	return --rc->budget ? 0 : RING_FULL;
}

/* The probes' counts of records each CPU's ring could not take. 0, or -errno. */
static int lost_read(struct ksyscalls *s)
{
	__u64 *v = calloc((size_t)s->ncpus, sizeof(*v));
	__u32 key = 0;
	int r = 0;

	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.lost), &key, v))
		r = -errno;
	else
		for (int c = 0; c < s->ncpus; c++)
			s->lost[c] = v[c];
	free(v);
	return r;
}

/* One ring per CPU, of bytes each, and their reader. 0, or -errno. */
static int rings_make(struct ksyscalls *s, size_t bytes, char *err, size_t errlen)
{
	s->rb = calloc((size_t)s->ncpus, sizeof(*s->rb));
	if (!s->rb) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int c = 0; c < s->ncpus; c++) {
		int fd =
		    bpf_map_create(BPF_MAP_TYPE_RINGBUF, "trax_sc_ring", 0, 0, (__u32)bytes, NULL);
		int r;

		if (fd < 0) {
			r = -errno;
			snprintf(err, errlen, "a ring buffer of %zu bytes: %s", bytes,
				 strerror(errno));
			return r;
		}
		s->ring_fds[c] = fd;
		s->rctx[c] = (struct ring_ctx){s, c, 0};
		s->rb[c] = ring_buffer__new(fd, on_ring, &s->rctx[c], NULL);
		r = s->rb[c] ? 0 : -errno;
		if (r) {
			snprintf(err, errlen, "reading the rings: %s", strerror(-r));
			return r;
		}
	}
	return 0;
}

void ksyscalls_want_comm(struct ksyscalls *s, bool on)
{
	s->want_comm = on;
	if (s->skel)
		__atomic_store_n(&s->skel->bss->want_comm, on, __ATOMIC_RELAXED);
}

int ksyscalls_set_counters(struct ksyscalls *s, const int *fds, unsigned int nr_cpus,
			   unsigned int n)
{
	int *copy;

	if (s->skel)
		return -EBUSY;
	if (n > SC_MAX_COUNTERS)
		return -E2BIG;
	copy = malloc((size_t)nr_cpus * n * sizeof(int) + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, fds, (size_t)nr_cpus * n * sizeof(int));
	free(s->counter_fds);
	s->counter_fds = copy;
	s->ncounters = n;
	s->counter_cpus = nr_cpus;
	return 0;
}

/* The counters in the probes' array (loaded). 0, or -errno. */
static int counters_write(struct ksyscalls *s, char *err, size_t errlen)
{
	int fd = bpf_map__fd(s->skel->maps.counters);

	for (unsigned int c = 0; c < s->counter_cpus && (int)c < s->ncpus; c++)
		for (unsigned int j = 0; j < s->ncounters; j++) {
			__u32 key = c * SC_MAX_COUNTERS + j;
			__u32 v = (__u32)s->counter_fds[c * s->ncounters + j];

			if (bpf_map_update_elem(fd, &key, &v, BPF_ANY)) {
				int r = -errno;

				snprintf(err, errlen, "counter %u of CPU %u for the probes: %s", j,
					 c, strerror(errno));
				return r;
			}
		}
	s->skel->bss->ncounters = s->ncounters;
	s->skel->bss->want_comm = s->want_comm;
	return 0;
}

/*
 * Gives each CPU's queue room for about a ring's worth of records, its
 * pages touched, before the probes attach: grown from nothing while the
 * probes already wrote at full speed, the queues' reallocations and first
 * page faults made the first reads several times slower (390 ns a record
 * instead of 65), and the rings of a machine making system calls on
 * every CPU overflowed in the first 50 ms (one start in five lost events;
 * none in 40 after this and the reader's higher priority, kdomain.c). Up
 * to QUEUE_PRESIZE_MAX bytes each: a larger queue still grows when it
 * must. Out of memory: they grow as before.
 */
static void queues_presize(struct ksyscalls *s, size_t ring_bytes)
{
	size_t cap = ring_bytes < QUEUE_PRESIZE_MAX ? ring_bytes : QUEUE_PRESIZE_MAX;
	size_t ncap = cap / 64; /* records: 24 bytes and more in a ring, 96 and more expanded */

	if (cap < (1 << 16))
		return;
	for (int c = 0; c < s->ncpus; c++) {
		struct cpu_queue *q = &s->q[c];
		uint8_t *buf = malloc(cap), *spare = malloc(cap);
		struct pend *recs = malloc(ncap * sizeof(*recs));

		if (!buf || !spare || !recs) {
			free(buf);
			free(spare);
			free(recs);
			return;
		}
		memset(buf, 0, cap);
		memset(spare, 0, cap);
		memset(recs, 0, ncap * sizeof(*recs));
		TRAX_ASSERT(q->n == 0 && q->used == 0);
		free(q->buf);
		free(q->spare);
		free(q->recs);
		*q = (struct cpu_queue){
		    .buf = buf, .spare = spare, .cap = cap, .recs = recs, .ncap = ncap};
	}
}

int ksyscalls_start(struct ksyscalls *s, size_t buffer_bytes, char *err, size_t errlen)
{
	size_t bytes = (size_t)sysconf(_SC_PAGESIZE);
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
	/* a ring is a power of two of pages */
	while (bytes < buffer_bytes && bytes < (1u << 30))
		bytes *= 2;
	s->ncpus = libbpf_num_possible_cpus();
	if (s->ncpus <= 0) {
		snprintf(err, errlen, "cannot count the CPUs: %s", strerror(-s->ncpus));
		return s->ncpus ? s->ncpus : -EINVAL;
	}
	free(s->q); /* (of a start that failed) */
	free(s->lost);
	free(s->rctx);
	s->q = calloc((size_t)s->ncpus, sizeof(*s->q));
	s->lost = calloc((size_t)s->ncpus, sizeof(*s->lost));
	s->rctx = calloc((size_t)s->ncpus, sizeof(*s->rctx));
	s->ring_fds = malloc((size_t)s->ncpus * sizeof(*s->ring_fds));
	if (!s->q || !s->lost || !s->rctx || !s->ring_fds) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int c = 0; c < s->ncpus; c++)
		s->ring_fds[c] = -1;
	queues_presize(s, bytes);
	s->skel = syscalls_bpf__open();
	if (!s->skel) {
		r = -errno;
		snprintf(err, errlen, "opening the BPF object: %s", strerror(errno));
		return r;
	}
	r = rings_make(s, bytes, err, errlen);
	if (r)
		goto fail;
	/* the array of rings holds rings like CPU 0's */
	if ((r = bpf_map__set_max_entries(s->skel->maps.rings, (__u32)s->ncpus)) ||
	    (r = bpf_map__set_max_entries(s->skel->maps.counters,
					  (__u32)s->ncpus * SC_MAX_COUNTERS)) ||
	    (r = bpf_map__set_inner_map_fd(s->skel->maps.rings, s->ring_fds[0]))) {
		snprintf(err, errlen, "sizing the rings: %s", strerror(-r));
		goto fail;
	}
	r = syscalls_bpf__load(s->skel);
	if (r) {
		snprintf(err, errlen,
			 "loading the BPF probes: %s (they need root, BPF and the kernel's BTF)",
			 strerror(-r));
		goto fail;
	}
	r = guards_write(s);
	if (!r)
		r = descs_write(s, 0, SC_NR_SLOTS);
	if (r) {
		snprintf(err, errlen, "writing the call descriptors: %s", strerror(-r));
		goto fail;
	}
	r = pids_apply(s);
	if (!r)
		r = ids_apply(s, KSYSCALLS_UID);
	if (!r)
		r = ids_apply(s, KSYSCALLS_GID);
	if (r) {
		snprintf(err, errlen, "writing the process filters: %s", strerror(-r));
		goto fail;
	}
	if (s->ncounters && (r = counters_write(s, err, errlen)))
		goto fail;
	for (int c = 0; c < s->ncpus; c++) {
		__u32 key = (__u32)c;

		if (bpf_map_update_elem(bpf_map__fd(s->skel->maps.rings), &key, &s->ring_fds[c],
					BPF_ANY)) {
			r = -errno;
			snprintf(err, errlen, "the ring of CPU %d: %s", c, strerror(errno));
			goto fail;
		}
	}
	r = syscalls_bpf__attach(s->skel);
	if (r) {
		snprintf(err, errlen, "attaching to sys_enter and sys_exit: %s", strerror(-r));
		goto fail;
	}
	s->attached = true;
	return 0;
fail:
	rings_free(s);
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

	for (int c = 0; s->rb && c < s->ncpus && n < max; c++)
		fds[n++] = s->ring_fds[c];
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

	if (r->flags & SC_REC_COMPAT) {
		if (r->nr >= 0 && r->nr < SC_NR_SLOTS && s->t.by_nr32[r->nr] >= 0)
			return &s->t.compat[s->t.by_nr32[r->nr]].ev[exit];
		return &s->t.unknown[1][exit];
	}
	if (r->nr >= 0 && r->nr < SC_NR_SLOTS && s->t.by_nr[r->nr] >= 0)
		return &s->t.calls[s->t.by_nr[r->nr]].ev[exit];
	return &s->t.unknown[0][exit];
}

/*
 * Puts recs[from..n) in time order. They come from one CPU's ring, in the
 * order its probes reserved their records: in order but for the probes a
 * preemption delayed, so an insertion sort does little work; many records
 * out of place (a long delay) go to qsort instead.
 */
static void sort_pending(struct cpu_queue *q)
{
	struct pend *recs = q->recs;
	size_t from = q->head, n = q->n;
	size_t moves = 0, limit = 4 * (n - from) + 64;

	/*
	 * Only the records read since the last sort are placed: those held
	 * back (HOLDBACK_NS, thousands at high rates) are in order already,
	 * and scanning them again at every read cost a third of the reader.
	 */
	TRAX_ASSERT(q->sorted <= n);
	for (size_t i = q->sorted > from + 1 ? q->sorted : from + 1; i < n; i++) {
		struct pend x = recs[i];
		size_t j = i;

		while (j > from && by_time(&recs[j - 1], &x) > 0) {
			recs[j] = recs[j - 1];
			j--;
			if (++moves > limit) {
				recs[j] = x;
				qsort(recs + from, n - from, sizeof(*recs), by_time);
				q->sorted = n;
				return;
			}
		}
		recs[j] = x;
	}
	q->sorted = n;
}

/* Hands cpu's records up to horizon to sink, in time order. Records handed, or -errno. */
static long drain_cpu(struct ksyscalls *s, int cpu, uint64_t horizon, kevent_sink_fn sink,
		      void *arg)
{
	struct cpu_queue *q = &s->q[cpu];
	size_t k, used = 0;
	long handed = 0;
	int ret = 0;

	if (q->head == q->n)
		return 0;
	sort_pending(q);
	for (k = q->head; k < q->n && q->recs[k].ts <= horizon; k++) {
		if (handed == DRAIN_BUDGET) {
			s->pending = true;
			break;
		}
		const struct sc_rec *r = (const struct sc_rec *)(q->buf + q->recs[k].off);
		const struct sc_event *ev = event_of(s, r);
		struct kevent_record kr;
		/* the counters' values (after the header) */
		size_t cbytes = 8u * s->ncounters, rlen = q->recs[k].len;
		uint64_t counters[SC_MAX_COUNTERS];
		long len = -1;
		uint64_t ts = q->recs[k].ts;

		if (cbytes && rlen >= sizeof(*r) + cbytes && r->size == rlen) {
			/*
			 * The counters follow the header: taken out, the captures
			 * moved up to it (the queue's copy is this reader's own).
			 */
			uint8_t *b = (uint8_t *)r;

			memcpy(counters, b + sizeof(*r), cbytes);
			memmove(b + sizeof(*r), b + sizeof(*r) + cbytes,
				rlen - sizeof(*r) - cbytes);
			rlen -= cbytes;
			((struct sc_rec *)r)->size = (__u16)rlen;
		}
		if (!cbytes || rlen < q->recs[k].len)
			len = sc_payload(ev, r, rlen, s->payload, SC_PAYLOAD_MAX);

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
					    (size_t)len,
					    s->ncounters ? counters : NULL,
					    (int32_t)r->tgid,
					    r->flags & SC_REC_COMM ? r->comm : NULL};
		ret = sink(arg, &kr);
		if (ret < 0) {
			k++;
			break;
		}
		q->last_ts = ts;
		handed++;
	}
	q->head = k;
	if (q->head == q->n) {
		q->head = q->n = q->used = q->sorted = 0;
	} else if (q->head > q->n - q->head) {
		/*
		 * More handed over than held: the held ones move to the start
		 * of the buffer (each record moves O(1) times on average).
		 */
		for (size_t i = q->head; i < q->n; i++) {
			memcpy(q->spare + used, q->buf + q->recs[i].off, q->recs[i].len);
			q->recs[i - q->head] = q->recs[i];
			q->recs[i - q->head].off = (uint32_t)used;
			used += aligned(q->recs[i].len);
		}
		uint8_t *t = q->buf;

		q->buf = q->spare;
		q->spare = t;
		q->n -= q->head;
		q->sorted = q->n;
		q->head = 0;
		q->used = used;
	}
	return ret < 0 ? ret : handed;
}

/* Reads the buffers and hands over each CPU's records up to horizon. Records handed, or -errno. */
static long consume(struct ksyscalls *s, uint64_t horizon, kevent_sink_fn sink, void *arg)
{
	long total = 0;
	int r;

	s->pending = false;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		s->rctx[cpu].budget = READ_BUDGET;
		r = ring_buffer__consume(s->rb[cpu]);
		if (r == RING_FULL)
			s->pending = true;
		else if (r < 0)
			return r;
	}
	if ((r = lost_read(s)))
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

long ksyscalls_consume(struct ksyscalls *s, kevent_sink_fn sink, void *arg)
{
	if (!s->rb)
		return 0;
	/* what was written before now - HOLDBACK_NS is in the buffers once they are read */
	return consume(s, s->attached ? now_ns() - HOLDBACK_NS : UINT64_MAX, sink, arg);
}

long ksyscalls_consume_now(struct ksyscalls *s, kevent_sink_fn sink, void *arg)
{
	uint64_t horizon = s->attached ? now_ns() : UINT64_MAX;
	long total = 0, n;

	if (!s->rb)
		return 0;
	do { /* (in steps, up to what was there now) */
		n = consume(s, horizon, sink, arg);
		if (n < 0)
			return n;
		total += n;
	} while (s->pending);
	return total;
}

bool ksyscalls_pending(const struct ksyscalls *s)
{
	return s->pending;
}

uint64_t ksyscalls_lost(const struct ksyscalls *s, int cpu)
{
	return s->lost && cpu >= 0 && cpu < s->ncpus ? s->lost[cpu] : 0;
}

struct kevent_class *ksyscalls_class(struct ksyscalls *s, unsigned int i, bool exit)
{
	struct sc_call *c = call_at(s, i);

	return c ? &c->ev[exit ? 1 : 0].kc : NULL;
}
