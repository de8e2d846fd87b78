/*
 * statedump-record.h - what the parts of the kernel state dump share
 * (statedump.c: threads, their namespaces, files and maps;
 * statedump-system.c: interrupts, network interfaces, block devices,
 * CPUs): the run's context, the event classes (statedump-classes.c), the
 * payload being built, and reading files of /proc and /sys.
 *
 * A payload is built with the sd_put_* functions in the order of its
 * class's fields, by writer/desc.h's rules (integers byte-aligned in the
 * machine's order but the network-order address, strings NUL-terminated,
 * the text array padded with NULs), then sent with sd_emit().
 */
#ifndef TRAX_KERNEL_STATEDUMP_RECORD_H
#define TRAX_KERNEL_STATEDUMP_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"

/* The event classes, as LTTng-modules 2.13 declares them. */
extern struct kevent_class sd_class_start, sd_class_end, sd_class_process_state,
    sd_class_process_pid_ns, sd_class_process_user_ns, sd_class_process_cgroup_ns,
    sd_class_process_ipc_ns, sd_class_process_mnt_ns, sd_class_process_net_ns,
    sd_class_process_uts_ns, sd_class_process_time_ns, sd_class_file_descriptor, sd_class_vm_map,
    sd_class_network_interface, sd_class_block_device, sd_class_interrupt, sd_class_cpu_topology;

/* The largest payload: a file descriptor's, with a path of PATH_MAX and " (deleted)". */
#define SD_PAYLOAD_MAX (2 * PATH_MAX)

/* A threaded interrupt handler's thread ("irq/26-ttyS0"), found among the tasks. */
struct sd_irq_thread {
	uint32_t irq;
	char action[16]; /* the name after "irq/N-", maybe cut */
	int32_t tid;
};

/* A user namespace's depth below the reader's, found once per namespace. */
struct sd_userns {
	uint32_t inum;
	unsigned int depth;
};

struct sd_ctx {
	kevent_sink_fn sink;
	void *arg;
	int cpu;
	int32_t tid; /* the thread running the dump */
	int err;     /* the sink's first error: nothing more is sent */
	const char *proc, *sys;

	uint8_t payload[SD_PAYLOAD_MAX];
	size_t len;
	bool overflow; /* the payload did not fit: the record is not sent */

	char path[PATH_MAX];
	char *file; /* the last file read, NUL-terminated */
	size_t file_cap;

	uint32_t self_pid_ns, self_user_ns; /* the reader's namespaces */

	struct sd_irq_thread *irq_threads;
	size_t nr_irq_threads, cap_irq_threads;
	struct sd_userns userns[16];
	unsigned int nr_userns;
};

static inline void sd_begin(struct sd_ctx *c)
{
	c->len = 0;
	c->overflow = false;
}

void sd_put(struct sd_ctx *c, const void *bytes, size_t n);

static inline void sd_put_i32(struct sd_ctx *c, int32_t v)
{
	sd_put(c, &v, sizeof(v));
}

static inline void sd_put_u32(struct sd_ctx *c, uint32_t v)
{
	sd_put(c, &v, sizeof(v));
}

static inline void sd_put_u64(struct sd_ctx *c, uint64_t v)
{
	sd_put(c, &v, sizeof(v));
}

static inline void sd_put_u16(struct sd_ctx *c, uint16_t v)
{
	sd_put(c, &v, sizeof(v));
}

static inline void sd_put_u8(struct sd_ctx *c, uint8_t v)
{
	sd_put(c, &v, sizeof(v));
}

/* A string field: its bytes and a NUL. */
void sd_put_str(struct sd_ctx *c, const char *s);

/*
 * Sends the payload built since sd_begin() as a record of cls, timestamped
 * now (CLOCK_MONOTONIC). The context's error: 0, or the sink's first.
 */
int sd_emit(struct sd_ctx *c, struct kevent_class *cls);

/* c->path from a format; NULL when it does not fit. */
const char *sd_path(struct sd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Reads the whole file at path into c->file (NUL-terminated, for the
 * parsers' sake only: they use the length). Its length, or -1 when it
 * cannot be read (gone, unreadable, larger than 256 MiB).
 */
long sd_read(struct sd_ctx *c, const char *path);

/* A symbolic link's target, NUL-terminated, into buf: its length, or -1. */
long sd_readlink(const char *path, char *buf, size_t size);

/*
 * The numeric entries of a directory (PIDs, TIDs, fds, irqs), sorted: a
 * malloc'ed array (*n entries), or NULL with *n = 0 when the directory
 * cannot be read or is empty.
 */
int32_t *sd_numeric_entries(const char *dir, size_t *n);

/* The namespace events of one thread (statedump-ns.c), after its process_state. */
void sd_dump_thread_ns(struct sd_ctx *c, int32_t pid, int32_t tid, int32_t ppid);

/* The reader's own namespaces, to which the others are compared (statedump-ns.c). */
void sd_read_self_ns(struct sd_ctx *c);

/* The system-wide parts (statedump-system.c), in LTTng's order after the threads. */
void sd_dump_interrupts(struct sd_ctx *c);
void sd_dump_network(struct sd_ctx *c);
void sd_dump_block_devices(struct sd_ctx *c);
void sd_dump_cpus(struct sd_ctx *c);

#endif /* TRAX_KERNEL_STATEDUMP_RECORD_H */
