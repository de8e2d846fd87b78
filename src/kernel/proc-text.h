/*
 * proc-text.h - the text of /proc and /sys files the kernel state dump
 * reads (statedump.c), parsed without trusting it: every function takes
 * the bytes read (not NUL-terminated), never reads past them, and says
 * when a file is not what it should be. The layouts are proc(5)'s and the
 * kernel's (fs/proc/array.c, fs/proc/task_mmu.c, fs/proc/fd.c).
 */
#ifndef TRAX_KERNEL_PROC_TEXT_H
#define TRAX_KERNEL_PROC_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A task's name as the kernel keeps it (task_struct.comm): 15 bytes and a NUL. */
#define PROC_COMM_LEN 16

/* Task flags of /proc/PID/stat's 9th field (include/linux/sched.h). */
#define PROC_PF_WQ_WORKER 0x00000020u
#define PROC_PF_KTHREAD	  0x00200000u

/* What the state dump uses of /proc/PID/task/TID/stat. */
struct proc_stat {
	char comm[PROC_COMM_LEN]; /* NUL-padded, cut to 15 bytes */
	bool comm_cut;		  /* the file's name was longer (kernel threads' full names) */
	char state;		  /* R S D Z X T t I P ... */
	int32_t ppid;		  /* the parent's tgid */
	uint32_t flags;		  /* PF_* */
	int32_t processor;	  /* the CPU it last ran on */
};

/*
 * "PID (COMM) STATE PPID ... PROCESSOR ...": the name runs from the first
 * '(' to the last ')' (it may hold spaces, parentheses, even newlines).
 * 0, or -1 when the text is not a stat line.
 */
int proc_stat_parse(const char *buf, size_t len, struct proc_stat *st);

/*
 * /proc/PID/sched's first line, "COMM (PID, #threads: N)": the name as the
 * kernel keeps it, which stat extends for workqueue workers
 * ("kworker/0:2-events" is "kworker/0:2"). 0, or -1.
 */
int proc_sched_comm(const char *buf, size_t len, char comm[PROC_COMM_LEN]);

/* Levels of nested PID namespaces kept from a status file's NSpid line. */
#define PROC_NS_LEVELS 32

/* What the state dump uses of /proc/PID/task/TID/status. */
struct proc_status {
	uint32_t uid, gid; /* real ids, as the reader's user namespace sees them */
	bool has_ids;	   /* the Uid and Gid lines were there */
	/*
	 * NSpid and NStgid: the thread's and its process's ids in each PID
	 * namespace from the reader's (index 0) to the thread's own;
	 * nr_levels 0 when the lines are missing or disagree.
	 */
	unsigned int nr_levels;
	int32_t nspid[PROC_NS_LEVELS], nstgid[PROC_NS_LEVELS];
};

/* 0, or -1 when the text has no field of interest. */
int proc_status_parse(const char *buf, size_t len, struct proc_status *st);

/* /proc/PID/fdinfo/FD's "flags:" (octal, O_CLOEXEC included). 0, or -1. */
int proc_fdinfo_flags(const char *buf, size_t len, uint32_t *flags);

/* Bits of a memory map's vm_flags that /proc/PID/maps shows (include/linux/mm.h). */
#define PROC_VM_READ   0x1u
#define PROC_VM_WRITE  0x2u
#define PROC_VM_EXEC   0x4u
#define PROC_VM_SHARED 0x8u

struct proc_map {
	uint64_t start, end; /* addresses */
	uint64_t flags;	     /* PROC_VM_* from "rwxs" / "rwxp" */
	uint64_t pgoff;	     /* offset in the file, in bytes */
	uint64_t inode;
};

/* One line of /proc/PID/maps ("start-end perms offset dev inode [path]"). 0, or -1. */
int proc_maps_line(const char *line, size_t len, struct proc_map *m);

/*
 * The id that /proc/PID/uid_map (or gid_map; "inside outside count" lines)
 * gives to `outside`, an id of the reader's namespace; 65534 (the
 * kernel's overflow id) when no line maps it.
 */
uint32_t proc_idmap_inside(const char *buf, size_t len, uint32_t outside);

/* A namespace link's inode ("pid:[4026531836]"); 0 when it is not one of kind `kind`. */
uint32_t proc_ns_inum(const char *link, size_t len, const char *kind);

/* One line of /proc/partitions ("major minor #blocks name"). */
struct proc_partition {
	uint32_t major, minor;
	uint64_t blocks;
	char name[64];
};

/* 0, or -1 (the header, blank or damaged lines, names too long). */
int proc_partitions_line(const char *line, size_t len, struct proc_partition *p);

/* The dev_t the kernel gives major:minor (MKDEV: major << 20 | minor). */
static inline uint32_t proc_mkdev(uint32_t major, uint32_t minor)
{
	return major << 20 | (minor & 0xfffffu);
}

/* One CPU of /proc/cpuinfo (x86's names). */
struct proc_cpu {
	int32_t processor;
	char vendor[32]; /* vendor_id; "" when missing */
	int32_t family;	 /* "cpu family" */
	int32_t model;
	char model_name[64]; /* "model name" */
	int32_t physical_id; /* "physical id", 0 when missing */
	int32_t core_id;
	int32_t cores; /* "cpu cores" */
};

/*
 * The next CPU block of /proc/cpuinfo from *pos (blocks are separated by
 * blank lines and start with "processor"): 1 and *pos after it, or 0 at
 * the end.
 */
int proc_cpuinfo_next(const char *buf, size_t len, size_t *pos, struct proc_cpu *cpu);

/*
 * One line of /proc/interrupts ("  26:   0   14   IO-APIC   4-edge   ttyS0"),
 * for kernels without /sys/kernel/irq: its number, its chip's name and
 * where the names of its actions begin (", "-separated), with ncpus count
 * columns. 0, or -1 for the header and the architecture's lines
 * ("NMI:", "LOC:") and damaged ones.
 */
struct proc_irq_line {
	uint32_t irq;
	char chip[64];
	const char *actions; /* inside the line; not NUL-terminated */
	size_t actions_len;
};

int proc_interrupts_line(const char *line, size_t len, unsigned int ncpus,
			 struct proc_irq_line *irq);

/* Columns of /proc/interrupts' header line ("CPU0 CPU1 ..."). */
unsigned int proc_interrupts_ncpus(const char *line, size_t len);

#endif /* TRAX_KERNEL_PROC_TEXT_H */
