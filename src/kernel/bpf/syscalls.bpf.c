/*
 * syscalls.bpf.c - the system call probes: one program on the raw
 * sys_enter tracepoint and one on sys_exit (tp_btf: the arguments are the
 * kernel's struct pt_regs and the call number or return value), for every
 * call. Each looks up what user space asked for the call number
 * (syscalls-abi.h: struct sc_desc), and writes a record with the time,
 * thread, number, the six argument registers (or the return value and the
 * registers again: the kernel keeps the caller's in pt_regs until the
 * return), and what the descriptor asks to copy from user memory, into the
 * ring buffer of its CPU. A full ring drops the record and counts it in
 * `lost`, per CPU.
 *
 * A descriptor may name a guard set (syscalls-abi.h): what of the
 * channel's filters can be checked on the registers, the return value and
 * the thread; a call that fails it is not recorded.
 *
 * User memory is read with the non-faulting helpers (a sleepable tp_btf
 * program is refused): a string or address whose page is not resident is
 * recorded as unreadable (length 0).
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "syscalls-abi.h"

/* The helpers that read user memory are offered to GPL-compatible programs only. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Covers a record's largest header: 24 bytes, 8 counters, ret, 6 registers, comm (160). */
#define SC_HEAD_MASK 0xff

/* x86's thread_info.status bit for a 32-bit call (arch/x86/include/asm/thread_info.h). */
#define TS_COMPAT 0x0002

/*
 * The descriptors: of the 64-bit call numbers, then (from SC_NR_SLOTS) of
 * the 32-bit ones (int $0x80, the ia32 entry). One map: a lookup in one
 * of two would give the verifier two kinds of pointer to follow through
 * the rest of the program, past its limit.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * SC_NR_SLOTS);
	__type(key, __u32);
	__type(value, struct sc_desc);
} descs SEC(".maps");

/* The guard sets (syscalls-abi.h): descriptors name theirs by index (0: none). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SC_GUARD_SETS);
	__type(key, __u32);
	__type(value, struct sc_guard_set);
} guards SEC(".maps");

/* The processes recorded when filter_pids is set (trackers). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SC_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/* The real user and group ids recorded when filter_uids, filter_gids are set (trackers). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SC_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} uids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SC_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} gids SEC(".maps");

/*
 * One ring buffer per CPU, made by user space (its size set before the
 * programs load, the array sized to the possible CPUs): each CPU's records
 * stay in the order they were written, and a full ring counts its own
 * losses.
 */
struct ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 16);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct ring);
} rings SEC(".maps");

/* Records the CPU's ring could not take. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/* The perf:cpu: counters, SC_MAX_COUNTERS slots per CPU (user space sizes and fills it). */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(max_entries, SC_MAX_COUNTERS);
	__type(key, __u32);
	__type(value, __u32);
} counters SEC(".maps");

/* A record is built here: strings do not fit on the 512-byte stack. */
struct scratch {
	__u8 buf[SC_SCRATCH];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

/* Settings user space changes while the programs run (the .bss map is mapped). */
__u32 filter_pids;   /* only the tgids in `pids` */
__u32 filter_uids;   /* only the real uids in `uids` */
__u32 filter_gids;   /* only the real gids in `gids` */
__u32 unknown_flags; /* SC_DESC_*: numbers without a descriptor (>= SC_NR_SLOTS, < 0) */
__u32 compat_flags;  /* SC_DESC_*: 32-bit numbers without a descriptor */
__u32 want_comm;     /* the thread's name in each record ($ctx.procname, procname) */
__u32 ncounters;     /* counter values after each record's header (set before the start) */

static __always_inline __u32 capture(__u8 *buf, __u32 off, __u8 cap, __u64 ptr, __u64 lenval)
{
	__u16 *lenp;
	__u8 *dst;
	long n = 0;
	__u32 want = 0;

	/*
	 * off is below SC_CAPTURE_LIMIT; the mask shows the verifier a bound
	 * (in assembly, or the compiler drops it as useless).
	 */
	asm volatile("%0 &= %1" : "+r"(off) : "i"(SC_CAPTURE_MASK));
	lenp = (__u16 *)(buf + off);
	dst = buf + off + 2;

	if (cap == SC_CAP_STR) {
		n = bpf_probe_read_user_str(dst, SC_STR_MAX, (const void *)ptr);
		if (n < 0)
			n = 0;
		if (n > SC_STR_MAX)
			n = SC_STR_MAX;
	} else {
		if (cap == SC_CAP_U32)
			want = 4;
		else if (cap == SC_CAP_INT2)
			want = 8;
		else if ((__s64)lenval > 0)
			want = lenval < SC_SOCKADDR_MAX ? (__u32)lenval : SC_SOCKADDR_MAX;
		if (want && want <= SC_SOCKADDR_MAX &&
		    !bpf_probe_read_user(dst, want, (const void *)ptr))
			n = want;
	}
	*lenp = (__u16)n;
	return off + 2 + (__u32)n;
}

/* Argument register i of a native call. */
/*
 * The caller's six argument registers into av: x86-64's, or, for a 32-bit
 * call, i386's, 32 bits each (the kernel's compat entry uses their low
 * halves: a 64-bit program's int $0x80 may leave the high halves set).
 * Read once: the probe then indexes av, which keeps the verifier's
 * count of states low. (Direct loads: tp_btf's arguments are trusted
 * kernel pointers, CO-RE relocated.)
 */
static __always_inline void regs_read(struct pt_regs *regs, int compat, __u64 *av)
{
	if (compat) {
		av[0] = (__u32)regs->bx;
		av[1] = (__u32)regs->cx;
		av[2] = (__u32)regs->dx;
		av[3] = (__u32)regs->si;
		av[4] = (__u32)regs->di;
		av[5] = (__u32)regs->bp;
	} else {
		av[0] = regs->di;
		av[1] = regs->si;
		av[2] = regs->dx;
		av[3] = regs->r10;
		av[4] = regs->r8;
		av[5] = regs->r9;
	}
}

/* av[i] with a constant index for each case (a variable one would need bounds). */
static __always_inline __u64 arg_at(const __u64 *av, __u32 i)
{
	switch (i) {
	case 0:
		return av[0];
	case 1:
		return av[1];
	case 2:
		return av[2];
	case 3:
		return av[3];
	case 4:
		return av[4];
	default:
		return av[5];
	}
}

/* A guard's source (syscalls-abi.h: struct sc_guard). */
static __always_inline __u64 guard_source(const struct sc_guard *g, const __u64 *av, long ret,
					  __u64 pid_tgid)
{
	switch (g->src) {
	case SC_GUARD_RET:
		return (__u64)ret;
	case SC_GUARD_TID:
		return (__u32)pid_tgid;
	case SC_GUARD_TGID:
		return pid_tgid >> 32;
	default:
		return arg_at(av, g->src);
	}
}

/* Whether a record passes guard set gi: each of its guards holds. */
static __always_inline int guards_pass(__u32 gi, struct pt_regs *regs, int compat, long ret,
				       __u64 pid_tgid)
{
	const struct sc_guard_set *set = bpf_map_lookup_elem(&guards, &gi);
	__u64 av[SC_MAX_ARGS], comm[2] = {0, 0};
	int have_comm = 0;

	if (!set)
		return 1;
	regs_read(regs, compat, av);
	for (int i = 0; i < SC_MAX_GUARDS; i++) {
		const struct sc_guard *g = &set->g[i];

		if (i >= set->n)
			break;
		if (g->src == SC_GUARD_COMM) {
			if (!have_comm) {
				bpf_get_current_comm(comm, sizeof(comm));
				have_comm = 1;
			}
			if ((comm[0] & (__u64)g->hi[0]) != (__u64)g->lo[0] ||
			    (comm[1] & (__u64)g->hi[1]) != (__u64)g->lo[1])
				return 0;
			continue;
		}
		if (!sc_guard_holds(g, sc_guard_cast(g, guard_source(g, av, ret, pid_tgid))))
			return 0;
	}
	return 1;
}

/* Counts a record the ring could not take. */
static __always_inline void count_lost(void)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &key);

	if (n)
		(*n)++;
}

/* Whether the call's records in direction dir capture user memory. */
static __always_inline int has_captures(const struct sc_desc *d, __u32 dir)
{
	int any = 0;

	for (int i = 0; i < SC_MAX_ARGS; i++)
		any |= d->cap[dir][i] != SC_CAP_NONE;
	return any;
}

/*
 * A record of registers only (no captures, counters or name: most calls),
 * reserved in the ring at its size and written there, instead of built in
 * the scratch and copied by bpf_ringbuf_output() (the copy and the output
 * were a sixth of the probes' cost). The ring's reservations take constant
 * sizes: one per count of registers.
 */
#define SC_IN_PLACE(N)                                                                             \
	case N: {                                                                                  \
		struct sc_wire *w = bpf_ringbuf_reserve(ring, SC_WIRE_SIZE(exit, N), 0);           \
		__u64 *v;                                                                          \
                                                                                                   \
		if (!w)                                                                            \
			break;                                                                     \
		w->ts = ts;                                                                        \
		w->tid = (__u32)pid_tgid;                                                          \
		w->tgid = (__u32)(pid_tgid >> 32);                                                 \
		w->nr = (__s32)nr;                                                                 \
		w->flags = flags | (N << SC_REC_NREGS_SHIFT);                                      \
		w->size = SC_WIRE_SIZE(exit, N);                                                   \
		v = (__u64 *)(w + 1);                                                              \
		if (exit)                                                                          \
			*v++ = (__u64)ret;                                                         \
		for (int k = 0; k < N; k++)                                                        \
			v[k] = av[k];                                                              \
		bpf_ringbuf_submit(w, 0);                                                          \
		return 0;                                                                          \
	}
#define SC_WIRE_SIZE(exit, n) (sizeof(struct sc_wire) + ((exit) ? 8 : 0) + 8 * (n))

static __always_inline int record_in_place(struct pt_regs *regs, __u64 pid_tgid, long nr, int exit,
					   long ret, int compat, __u32 nregs)
{
	__u64 av[SC_MAX_ARGS];
	__u64 ts = bpf_ktime_get_ns();
	__u16 flags = (exit ? SC_REC_EXIT : 0) | (compat ? SC_REC_COMPAT : 0);
	__u32 key = bpf_get_smp_processor_id();
	void *ring = bpf_map_lookup_elem(&rings, &key);

	if (!ring) {
		count_lost();
		return 0;
	}
	regs_read(regs, compat, av);
	switch (nregs) {
		SC_IN_PLACE(0)
		SC_IN_PLACE(1)
		SC_IN_PLACE(2)
		SC_IN_PLACE(3)
		SC_IN_PLACE(4)
		SC_IN_PLACE(5)
		SC_IN_PLACE(6)
	default:
		break;
	}
	count_lost(); /* (the ring was full) */
	return 0;
}

static __always_inline int record(struct pt_regs *regs, long nr, int exit, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32;
	struct task_struct *task;
	const struct sc_desc *d = 0;
	struct sc_wire *r;
	__u64 *regv, av[SC_MAX_ARGS];
	void *ring;
	__u32 key = 0, off, flags, nregs = SC_MAX_ARGS, dir = exit ? 1 : 0;
	__u8 *buf;
	int compat;

	if (filter_pids && !bpf_map_lookup_elem(&pids, &tgid))
		return 0;
	if (filter_uids | filter_gids) {
		/* the caller's real ids in the initial namespace, as LTTng's uid/gid trackers */
		__u64 ug = bpf_get_current_uid_gid();
		__u32 uid = (__u32)ug, gid = (__u32)(ug >> 32);

		if (filter_uids && !bpf_map_lookup_elem(&uids, &uid))
			return 0;
		if (filter_gids && !bpf_map_lookup_elem(&gids, &gid))
			return 0;
	}
	task = bpf_get_current_task_btf();
	compat = (task->thread_info.status & TS_COMPAT) != 0;
	if (nr >= 0 && nr < SC_NR_SLOTS) {
		key = (__u32)nr + (compat ? SC_NR_SLOTS : 0);
		d = bpf_map_lookup_elem(&descs, &key);
		if (!d)
			return 0;
		flags = d->flags;
		nregs = d->nregs[dir];
	} else {
		flags = compat ? compat_flags : unknown_flags;
	}
	if (!(flags & (exit ? SC_DESC_EXIT : SC_DESC_ENTRY)))
		return 0;

	if (nregs > SC_MAX_ARGS)
		nregs = SC_MAX_ARGS;
	/* what the channel's filters reject, known from the registers, is not recorded */
	if (d && d->guard[dir] && !guards_pass(d->guard[dir], regs, compat, ret, pid_tgid))
		return 0;
	if (d && !ncounters && !want_comm && !has_captures(d, dir))
		return record_in_place(regs, pid_tgid, nr, exit, ret, compat, nregs);

	key = 0;
	buf = bpf_map_lookup_elem(&scratch, &key);
	if (!buf)
		return 0;
	r = (struct sc_wire *)buf;
	r->ts = bpf_ktime_get_ns();
	r->tid = (__u32)pid_tgid;
	r->tgid = tgid;
	r->nr = (__s32)nr;
	r->flags =
	    (exit ? SC_REC_EXIT : 0) | (compat ? SC_REC_COMPAT : 0) | (nregs << SC_REC_NREGS_SHIFT);
	off = sizeof(*r);
	if (ncounters) {
		/* the counters' values, right after the header (at fixed places) */
		__u32 base = bpf_get_smp_processor_id() * SC_MAX_COUNTERS;

		for (__u32 j = 0; j < SC_MAX_COUNTERS; j++) {
			struct bpf_perf_event_value v = {};

			if (j >= ncounters)
				break;
			if (bpf_perf_event_read_value(&counters, base + j, &v, sizeof(v)))
				v.counter = 0;
			__builtin_memcpy(buf + sizeof(*r) + 8 * j, &v.counter, 8);
			off += 8;
		}
	}
	if (exit) {
		*(__s64 *)(buf + off) = ret;
		off += 8;
	}
	/* only the registers the event shows */
	regs_read(regs, compat, av);
	regv = (__u64 *)(buf + off);
	if (nregs > 0)
		regv[0] = av[0];
	if (nregs > 1)
		regv[1] = av[1];
	if (nregs > 2)
		regv[2] = av[2];
	if (nregs > 3)
		regv[3] = av[3];
	if (nregs > 4)
		regv[4] = av[4];
	if (nregs > 5)
		regv[5] = av[5];
	off += nregs * 8;
	if (want_comm) {
		bpf_get_current_comm(buf + off, 16);
		r->flags |= SC_REC_COMM;
	}
	/*
	 * (by arithmetic, not in the branch: one verifier state with off in a
	 * range, instead of two through the captures below)
	 */
	off += (want_comm & 1) << 4;
	/*
	 * The header's size differs with the counters, the direction and the
	 * registers: as constants, each would make the verifier walk the
	 * captures below once more (past its limit). Masked, it is one range.
	 */
	asm volatile("%0 &= %1" : "+r"(off) : "i"(SC_HEAD_MASK));

	if (d) {
		__u8 lenarg = d->lenarg;

		for (int i = 0; i < SC_MAX_ARGS; i++) {
			__u8 cap = d->cap[dir][i];
			__u64 lenval = 0;

			if (cap == SC_CAP_NONE)
				continue;
			/*
			 * off through memory (the record's size field, set
			 * again below): the verifier then sees the same range
			 * at each iteration whatever the captures before it
			 * took, and follows one path per capture kind instead
			 * of every combination of them.
			 */
			*(volatile __u16 *)&r->size = (__u16)off;
			off = *(volatile __u16 *)&r->size;
			if (off > SC_CAPTURE_LIMIT)
				break;
			if (lenarg < SC_MAX_ARGS) {
				lenval = arg_at(av, lenarg);
				if (cap == SC_CAP_SOCKADDR_LENPTR) {
					__s32 v = 0;

					bpf_probe_read_user(&v, sizeof(v), (const void *)lenval);
					lenval = (__u64)(__s64)v;
				} else {
					lenval = (__u64)(__s64)(__s32)lenval; /* an int */
				}
			}
			off = capture(buf, off, cap, av[i], lenval);
		}
	}
	/* (in assembly: the compiler knows no bound of a value read back through memory either) */
	asm volatile("if %[o] <= %[max] goto +1\n\t%[o] = %[max]"
		     : [o] "+r"(off)
		     : [max] "i"(SC_SCRATCH));
	r->size = (__u16)off;
	key = bpf_get_smp_processor_id();
	ring = bpf_map_lookup_elem(&rings, &key);
	/* (default flags: the reader is woken only when it has caught up) */
	if (!ring || bpf_ringbuf_output(ring, buf, off, 0))
		count_lost();
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sc_enter, struct pt_regs *regs, long id)
{
	return record(regs, id, 0, 0);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sc_exit, struct pt_regs *regs, long ret)
{
	return record(regs, regs->orig_ax, 1, ret);
}
