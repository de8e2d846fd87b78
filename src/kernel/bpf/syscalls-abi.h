/*
 * syscalls-abi.h - what the BPF system call probes (syscalls.bpf.c) and
 * the reader of their buffers (syscalls.c) share: the descriptor user
 * space writes for each call number, the settings, and the layout of a
 * record. Compiled on both sides, so it uses the kernel's fixed-width
 * types only (vmlinux.h in the BPF program, <linux/types.h> in trax).
 *
 * A record, in the ring buffer of the CPU it was made on (sized to what
 * the event needs: a call without arguments takes 24 or 32 bytes, where
 * the whole register set would take 80, so a ring holds that many more):
 *
 *	struct sc_wire    time, thread, call number, flags, size
 *	__u64 counters[n] the values of the channel's perf:cpu: counters on
 *	                  the record's CPU (n: `ncounters`, 0 without counter
 *	                  contexts; 0 for a counter that could not be read)
 *	__s64 ret         at an exit only
 *	__u64 regs[n]     the first n argument registers (n in the flags: the
 *	                  descriptor's nregs for this direction, 6 without one)
 *	char comm[16]     the thread's name, when user space asks (SC_REC_COMM)
 *	captures          for each argument whose descriptor asks for user
 *	                  memory, in argument order: __u16 length, then that
 *	                  many bytes (a string with its NUL; length 0: the
 *	                  memory could not be read)
 *
 * The reader expands it into a struct sc_rec (all six registers, ret) with
 * the counters then the captures after it, and takes the counters out
 * before the rest of trax decodes it.
 */
#ifndef TRAX_KERNEL_BPF_SYSCALLS_ABI_H
#define TRAX_KERNEL_BPF_SYSCALLS_ABI_H

#ifndef __bpf__ /* the BPF program has them from vmlinux.h */
#include <linux/types.h>
#endif

#define SC_MAX_ARGS 6
/* Descriptors exist for call numbers 0..SC_NR_SLOTS-1 (x86-64's are < 512). */
#define SC_NR_SLOTS 1024
/* A string argument is cut after this many bytes, its NUL included. */
#define SC_STR_MAX 4096
/* The largest socket address decoded: struct sockaddr_in6. */
#define SC_SOCKADDR_MAX 28
/* Processes a pid filter can hold. */
#define SC_MAX_PIDS 4096
/*
 * Counter contexts a record can carry; the probes' array of counters has
 * SC_MAX_COUNTERS slots per CPU: CPU c's counter j at c * SC_MAX_COUNTERS + j.
 */
#define SC_MAX_COUNTERS 8

/* What the probe copies from the user memory an argument points to. */
enum sc_cap {
	SC_CAP_NONE = 0,
	SC_CAP_STR,		/* a NUL-terminated string, at most SC_STR_MAX bytes */
	SC_CAP_U32,		/* 4 bytes (an int the call reads or writes) */
	SC_CAP_INT2,		/* 8 bytes (the two descriptors of pipe, socketpair) */
	SC_CAP_SOCKADDR_LENARG, /* a socket address; argument `lenarg` is its length */
	SC_CAP_SOCKADDR_LENPTR, /* likewise; argument `lenarg` points to its length */
};

/* sc_desc.flags, and the settings for calls without a descriptor. */
#define SC_DESC_ENTRY 0x1 /* record the entries */
#define SC_DESC_EXIT  0x2 /* record the exits */

/*
 * One call number: whether to record it, and what to copy (cap[0] at entry,
 * cap[1] at exit), and the guard its records must pass (guard[0] at entry,
 * guard[1] at exit: an index in the probes' array of guard sets, 0 for
 * none).
 */
struct sc_desc {
	__u8 flags;
	__u8 lenarg;
	__u8 cap[2][SC_MAX_ARGS];
	__u8 nregs[2]; /* argument registers the entry, the exit record (<= SC_MAX_ARGS) */
	__u16 guard[2];
};

/*
 * Guards: what of a channel's LTTng filters the probes can check on the
 * registers, the return value and the thread before they record
 * (syscall-guard.c derives them): a record is made only when each guard
 * of its set holds. A guard accepts a value v when it lies in one of its
 * intervals; v is the source (argument register, return value, thread or
 * process id) cast as the event's field is: sign-extended from 32 bits
 * first when sext32, then its low `size` bytes, extended with the field's
 * sign, compared as a signed 64-bit integer (as the filter compares).
 * A guard set may accept more than the filters (the exact check runs in
 * traxd after), never less.
 */
#define SC_MAX_GUARDS	4    /* guards in a set */
#define SC_GUARD_RANGES 2    /* intervals of a guard */
#define SC_GUARD_SETS	4096 /* sets the probes' array holds (slot 0 unused) */
#define SC_GUARD_RET	6    /* sc_guard.src: the return value (0..5: argument register) */
#define SC_GUARD_TID	7    /* the thread's id */
#define SC_GUARD_TGID	8    /* its process's id */
/*
 * Its name (16 bytes, as two little-endian 64-bit words w[0], w[1]): the
 * guard holds when (w[k] & hi[k]) == lo[k] for both (an exact name: its
 * bytes and NUL; a prefix: its bytes). No cast, no intervals.
 */
#define SC_GUARD_COMM 9

struct sc_guard {
	__s64 lo[SC_GUARD_RANGES], hi[SC_GUARD_RANGES];
	__u8 src;
	__u8 size; /* 1, 2, 4 or 8 */
	__u8 is_signed;
	__u8 sext32;
	__u8 nranges; /* 1..SC_GUARD_RANGES */
	__u8 pad[3];
};

struct sc_guard_set {
	__u32 n; /* guards (<= SC_MAX_GUARDS) */
	__u32 pad;
	struct sc_guard g[SC_MAX_GUARDS];
};

/* A guard's source value v as its field holds it, compared as the filter compares. */
static inline __attribute__((always_inline)) __s64 sc_guard_cast(const struct sc_guard *g, __u64 v)
{
	if (g->sext32)
		v = (__u64)(__s64)(__s32)v;
	switch (g->size) {
	case 1:
		return g->is_signed ? (__s64)(__s8)v : (__s64)(__u8)v;
	case 2:
		return g->is_signed ? (__s64)(__s16)v : (__s64)(__u16)v;
	case 4:
		return g->is_signed ? (__s64)(__s32)v : (__s64)(__u32)v;
	default:
		return (__s64)v;
	}
}

/* Whether a guard accepts v (sc_guard_cast's). */
static inline __attribute__((always_inline)) int sc_guard_holds(const struct sc_guard *g, __s64 v)
{
	int in = 0;

	for (int k = 0; k < SC_GUARD_RANGES; k++)
		if (k < g->nranges && v >= g->lo[k] && v <= g->hi[k])
			in = 1;
	return in;
}

/* sc_rec.flags */
#define SC_REC_EXIT   0x1 /* a return (ret is set), else an entry */
#define SC_REC_COMPAT 0x2 /* a 32-bit call (int 0x80 or sysenter): nr is of that table */
#define SC_REC_COMM   0x4 /* the thread's name (16 bytes) follows the registers */

/* sc_wire.flags: bits 8-11 hold the registers recorded */
#define SC_REC_NREGS_SHIFT 8
#define SC_REC_NREGS_MASK  0xf

/* The head of a record in a ring. */
struct sc_wire {
	__u64 ts;  /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 tid; /* the thread (the kernel's pid) */
	__u32 tgid;
	__s32 nr;
	__u16 flags;
	__u16 size; /* bytes of the record, captures included */
};

/* A record as the reader expands it (size: this struct and the captures). */
struct sc_rec {
	__u64 ts;  /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 tid; /* the thread (the kernel's pid) */
	__u32 tgid;
	__s64 ret;
	__u64 args[SC_MAX_ARGS];
	__s32 nr;
	__u16 flags;
	__u16 size;    /* bytes of the record, captures included */
	char comm[16]; /* SC_REC_COMM: the thread's name at the call, NUL-padded */
};

/*
 * The probe's per-CPU scratch. Captures start below SC_CAPTURE_LIMIT (three
 * whole strings, or more shorter ones, after the header), an offset the
 * verifier is shown bounded by SC_CAPTURE_MASK; the largest capture still
 * fits after it.
 */
#define SC_CAPTURE_LIMIT (sizeof(struct sc_rec) + 3 * (2 + SC_STR_MAX))
#define SC_CAPTURE_MASK	 0x3fff
#define SC_SCRATCH	 (SC_CAPTURE_MASK + 1 + 2 + SC_STR_MAX)

#endif /* TRAX_KERNEL_BPF_SYSCALLS_ABI_H */
