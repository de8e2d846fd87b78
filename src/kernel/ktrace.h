/*
 * ktrace.h - an LTTng kernel trace directory, written through trax's CTF
 * writer: the metadata (clock "monotonic", the env LTTng-modules 2.13
 * writes, one stream class per channel, an event block per class the
 * first time one of its records is written), and per channel and CPU the
 * stream files CHANNEL_CPU with their index.
 *
 * The sources of a channel (tracefs pages, BPF buffers, the state dump)
 * each write their own set of per-CPU stream files (ktrace_streams), from
 * one thread each: a stream file's records are in time order, and two
 * sources never share one. Readers merge the streams by time.
 *
 *	t = ktrace_open(&cfg, err, sizeof(err));
 *	ch = ktrace_channel_add(t, &chcfg, err, sizeof(err));
 *	ss = ktrace_streams_add(ch, "", err, sizeof(err));	 channel0_0, channel0_1...
 *	source_run(..., ktrace_sink, ss);			 (kevent_sink_fn)
 *	ktrace_streams_flush(ss, now);
 *	ktrace_close(t);
 */
#ifndef TRAX_KERNEL_KTRACE_H
#define TRAX_KERNEL_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"

struct ktrace;
struct ktrace_channel;
struct ktrace_streams;

struct ktrace_config {
	const char *dir;	       /* the trace directory, made if missing (".../kernel") */
	const char *trace_name;	       /* env: the session's name */
	const char *creation_datetime; /* env: "YYYYmmddTHHMMSS+zzzz" */
	const char *hostname;	       /* NULL: the machine's */
	const char *tracefs;	       /* its mount point: names of exited threads (kthreads.h) */
};

/* Contexts a kernel channel can record after each event header (LTTng's names). */
enum kctx {
	KCTX_PID = 0,
	KCTX_TID,
	KCTX_PPID,
	KCTX_VPID,
	KCTX_VTID,
	KCTX_PROCNAME,
	KCTX_PRIO,
	KCTX_NICE,
	KCTX_CPU_ID,
	KCTX_HOSTNAME,
	KCTX_COUNT
};

/*
 * The perf:cpu: counters (common/perf-counter.h) are contexts too:
 * KCTX_PERF + their index in that table; a record's `counters` give their
 * values, in the order they are among the channel's contexts.
 */
#define KCTX_PERF 64
/* Contexts a channel can have. */
#define KCTX_MAX 32

/* "pid", "procname", "perf:cpu:page-fault"...; -1 when not a kernel context trax records. */
int kctx_from_name(const char *name);
const char *kctx_name(int ctx);
static inline bool kctx_is_perf(int ctx)
{
	return ctx >= KCTX_PERF;
}

struct ktrace_channel_config {
	const char *name;	 /* "channel0" */
	unsigned int nr_cpus;	 /* streams per source */
	size_t packet_size;	 /* bytes, a multiple of 4096 */
	const uint8_t *contexts; /* enum kctx, in recording order */
	unsigned int ncontexts;
};

struct ktrace *ktrace_open(const struct ktrace_config *cfg, char *err, size_t errlen);
/* A channel: the next stream class. NULL and err set on failure. */
struct ktrace_channel *ktrace_channel_add(struct ktrace *t, const struct ktrace_channel_config *cfg,
					  char *err, size_t errlen);
/*
 * A source's stream files in channel ch: NAME_CPU when suffix is "", else
 * NAMEsuffix_CPU. NULL and err set on failure.
 */
struct ktrace_streams *ktrace_streams_add(struct ktrace_channel *ch, const char *suffix, char *err,
					  size_t errlen);

/*
 * kevent_sink_fn: writes r to the stream file of r->cpu in the set `streams`
 * (a struct ktrace_streams *), giving its class an id and describing it in
 * the metadata on its first record. Thread-safe across sets; one thread
 * per set.
 */
int ktrace_sink(void *streams, const struct kevent_record *r);

/* Sets cpu's running count of events the source lost (never decreases). */
void ktrace_streams_set_discarded(struct ktrace_streams *ss, int cpu, uint64_t total);
/* Writes the packets being filled (ts_end: now). 0, or -errno. */
int ktrace_streams_flush(struct ktrace_streams *ss, uint64_t ts_end);
/* Records written, and records dropped (too large, write errors), in a set. */
uint64_t ktrace_streams_written(const struct ktrace_streams *ss);

/*
 * Flushes and closes everything. The classes written must still exist
 * (they are told the trace is gone). 0, or the first error.
 */
int ktrace_close(struct ktrace *t);

#endif /* TRAX_KERNEL_KTRACE_H */
