/*
 * kevent.h - what every source of the kernel domain hands to the trace it
 * records into: event classes (as LTTng-modules names and lays them out)
 * and records already encoded as their CTF payload. The sources are the
 * kernel's ring buffer through tracefs (kmap.c converts its records), the
 * BPF system call probes (syscalls.c) and the state dump read from /proc
 * (statedump.c); the session's kernel trace (kdomain.c) gives each class
 * its id on its first record, writes its metadata, and writes the records
 * to the stream of the CPU they were recorded on.
 *
 * Payloads follow the CTF writer's rules (writer/desc.h): integers
 * byte-aligned in the machine's byte order, strings NUL-terminated, a
 * sequence's length field just before it.
 */
#ifndef TRAX_KERNEL_KEVENT_H
#define TRAX_KERNEL_KEVENT_H

#include <stddef.h>
#include <stdint.h>

#include "writer/desc.h"

#define KEVENT_ID_NONE UINT32_MAX

/*
 * An event class. Its source owns it and keeps it (and everything its
 * description points to) until the trace is closed.
 */
struct kevent_class {
	struct ctfw_event_class cls;
	/*
	 * Its id in the first trace channel that wrote it (owner, set once,
	 * with release after id): the fast path of ktrace.c. A class written
	 * to other channels too (the state dump's, shared by every session)
	 * has its ids there in each channel's own table.
	 */
	uint32_t id;
	const void *owner;
	/*
	 * The filters its records pass before they are written (kdomain.c's
	 * struct kfilter_set, kfilter.h): NULL until the domain sets them,
	 * replaced (never changed) while recording, read with acquire.
	 */
	const void *filter;
};

/* A record ready to be written. */
struct kevent_record {
	struct kevent_class *cls;
	uint64_t ts; /* CLOCK_MONOTONIC, ns */
	int cpu;     /* where it was recorded */
	int32_t tid; /* the thread it was recorded in (0: the idle task, or none) */
	const void *payload;
	size_t len;
	/*
	 * The values of the channel's perf:cpu: counters on cpu at the event,
	 * in the order of its counter contexts (ktrace.h); NULL: not read
	 * (written as 0, as LTTng writes a counter it has not set up).
	 */
	const uint64_t *counters;
	/*
	 * The thread's process when the source knows it at the event (the
	 * system call probes do), else 0: then it is looked up (kthreads.h).
	 */
	int32_t pid;
	/* The thread's name at the event (16 bytes, NUL-padded) when the source knows it, else
	 * NULL. */
	const char *comm;
};

/*
 * Where a source sends records: 0 when written (or dropped and counted by
 * the sink), -errno when recording must stop (the trace cannot be written).
 */
typedef int (*kevent_sink_fn)(void *arg, const struct kevent_record *r);

#endif /* TRAX_KERNEL_KEVENT_H */
