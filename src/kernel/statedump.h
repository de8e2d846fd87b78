/*
 * statedump.h - LTTng's kernel state dump, read from /proc and /sys: what
 * existed before the trace began (threads, their file descriptors and
 * memory maps, interrupt handlers, network interfaces, block devices, CPU
 * topology), as the lttng_statedump_* events LTTng-modules 2.13 writes at
 * the start of a session, between lttng_statedump_start and
 * lttng_statedump_end. Analyses need it to name the threads that never ran
 * or forked during the trace.
 *
 * LTTng reads the kernel's own structures; trax reads /proc, which is not
 * one atomic picture, and has no address for a file table: docs/kernel.md
 * says what differs.
 */
#ifndef TRAX_KERNEL_STATEDUMP_H
#define TRAX_KERNEL_STATEDUMP_H

#include <stddef.h>

#include "kernel/kevent.h"

/*
 * Sends the whole state dump to sink, timestamped with CLOCK_MONOTONIC
 * when each record is made, on cpu `cpu` (the stream it goes to), from
 * the calling thread (each record's tid). proc and sys: where /proc and
 * /sys are (tests give other trees; NULL: "/proc", "/sys"). 0, or the
 * sink's -errno (the dump stops at the record the sink refused), or
 * -ENOMEM. What cannot be read (a process that exited, a missing file) is
 * left out.
 */
int kstatedump_run(kevent_sink_fn sink, void *arg, int cpu, const char *proc, const char *sys);

#endif /* TRAX_KERNEL_STATEDUMP_H */
