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

/* One call number: whether to record it, and what to copy (cap[0] at entry, cap[1] at exit). */
struct sc_desc {
	__u8 flags;
	__u8 lenarg;
	__u8 cap[2][SC_MAX_ARGS];
	__u8 nregs[2]; /* argument registers the entry, the exit record (<= SC_MAX_ARGS) */
};

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
