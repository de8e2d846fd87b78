/*
 * ust.h - libtrax-ust internals: channels (per-CPU ring buffers and the
 * context fields they record), the registry of providers, tracepoints and
 * enabled events, and the consumer that writes channels out as CTF.
 */
#ifndef TRAX_UST_H
#define TRAX_UST_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/export.h"
#include "common/shm.h"
#include "filter/filter.h"
#include "writer/contexts.h"
#include "writer/desc.h"
#include "writer/trace-env.h"
#include "writer/packet.h"
#include "ringbuf/bufset.h"
#include "ringbuf/ringbuf.h"
#include "trax/probe.h"
#include "trax/tracepoint.h"

/* Buffers in a set received from the daemon, at most (Linux's NR_CPUS limit). */
#define TRAX_CHANNEL_MAX_CPUS 8192u

/* Packets on disk are whole multiples of this (direct I/O blocks). */
#define TRAX_PACKET_ALIGN CTF_PACKET_ALIGN

/* One event bound to a channel, as the metadata must describe it. */
struct trax_channel_event {
	const struct ctfw_event_class *cls;
	uint32_t id;
};

struct trax_channel_attr {
	uint64_t subbuf_size;
	uint32_t num_subbuf;
	int overwrite;
	int64_t blocking_timeout_us; /* <0: forever, 0: never block */
	uint8_t contexts[CTF_CTX_COUNT];
	unsigned int nr_contexts;
};

/*
 * A channel: a bufset (control page + one ring buffer per CPU) in shared
 * memory, created here (embedded mode) or received from traxd, and what the
 * packet headers and records need to know about it. The fields every record
 * reads come first, on one cache line.
 */
struct trax_channel {
	/*
	 * The control page's `active` word: records are taken while it is not
	 * 0. The consumer (traxd, or the embedded one) flips it for every
	 * process sharing the buffers. A channel this process no longer uses
	 * points it at a private 0 instead (trax_channel_retire), so that
	 * writing to the shared word stays the consumer's business.
	 */
	const uint32_t *active;
	struct ringbuf *bufs; /* one per CPU of the set */
	int nr_cpus;
	unsigned int context_size; /* bytes of context per record */
	struct trax_channel_attr attr;
	int blocking; /* blocking allowed (app and channel agree) */
	char name[64];
	uint32_t stream_id;
	uint8_t trace_uuid[16];
	struct bufset_ctrl *ctrl;      /* in shm */
	struct ringbuf_notify *notify; /* in shm */
	struct trax_shm shm;
	/* Events bound to this channel by trax_registry_enable (under the registry lock). */
	struct trax_channel_event *events;
	uint32_t nr_events, cap_events;
	uint32_t metadata_generation; /* bumped when events are added */
	uint32_t too_large_logged;
} __attribute__((aligned(64)));

/* channel.c */
/* A new bufset in a memfd of its own (embedded mode), inactive. */
int trax_channel_create(struct trax_channel *ch, const char *name, uint32_t stream_id,
			const struct trax_channel_attr *attr, const uint8_t trace_uuid[16]);
/*
 * A bufset another process (traxd) created: maps `size` bytes of fd and
 * attaches nr_cpus buffers of the geometry in attr (bufset_attach checks
 * it). The descriptor is closed whatever the outcome. 0, or -errno.
 */
int trax_channel_attach(struct trax_channel *ch, const char *name, uint32_t stream_id,
			const struct trax_channel_attr *attr, const uint8_t trace_uuid[16],
			unsigned int nr_cpus, int fd, uint64_t size);
/* Frees a channel no tracepoint ever recorded into (failed set-up). */
void trax_channel_destroy(struct trax_channel *ch);
/*
 * Stops this process from ever recording into ch again, without touching
 * what other processes share: `active` points at a private 0, and the
 * shared memory is replaced by private zero pages at the same address, so
 * that a thread still inside a record finishes it harmlessly. The structure
 * itself stays allocated: probes may still hold it.
 */
void trax_channel_retire(struct trax_channel *ch);
/* Sets the shared active word (embedded mode: the in-process consumer is its owner). */
void trax_channel_set_active(struct trax_channel *ch, int active);
/* Default attributes, with TRAX_SUBBUF_SIZE / TRAX_NUM_SUBBUF / ... applied. */
void trax_channel_attr_default(struct trax_channel_attr *attr);
/* Parses "vpid,vtid,..." into attr's contexts; strict: -EINVAL on unknown or repeated names. */
int trax_channel_parse_contexts(struct trax_channel_attr *attr, const char *list, int strict);

/* A filter's bytecode (filter/bytecode.h), as traxd sends it or TRAX_FILTER compiles to. */
struct trax_bytecode {
	const uint8_t *code;
	size_t len;
};

/* registry.c */
void trax_registry_lock(void);
void trax_registry_unlock(void);
/*
 * Records every event whose name matches one of the comma-separated glob
 * patterns (and future ones as their providers register) in ch.
 */
int trax_registry_enable(struct trax_channel *ch, const char *patterns);
/* The same, recording only what filter (bytecode, copied; NULL: none) accepts. */
int trax_registry_enable_filtered(struct trax_channel *ch, const char *patterns,
				  const struct trax_bytecode *filter);

/*
 * The daemon's view of the registry: every event gets an index, in
 * registration order from 0, never reused, and the daemon binds events by
 * index to its channels with ids of its choosing. Bindings are published
 * the way the probes expect: a new list head or next pointer is stored
 * atomically, unlinked bindings are never freed (a probe may still be
 * walking them) and keep pointing into the list.
 */
uint32_t trax_registry_nr_indexed(void);
/* Description of event `index`: 0, or -ENOENT. Descriptions live as long as the process. */
int trax_registry_event_info(uint32_t index, const struct trax_event_desc **desc, int *loglevel);
/* Records event `index` in ch with id. 0; -ENOENT (no such event); -ENOMEM. */
int trax_registry_bind_index(uint32_t index, struct trax_channel *ch, uint32_t id);
/*
 * The same, recording only what one of the n filters accepts (n 0:
 * everything); a binding that exists takes the new filters.
 */
int trax_registry_bind_index_filtered(uint32_t index, struct trax_channel *ch, uint32_t id,
				      const struct trax_bytecode *filters, unsigned int n);
/* Stops recording event `index` in ch (nothing when it is not bound there). */
int trax_registry_unbind_index(uint32_t index, struct trax_channel *ch);
/* Stops recording every event in ch. */
void trax_registry_unbind_channel(struct trax_channel *ch);

/* event-class.c */
/*
 * The writer's description of event d (its fields but the nowrite ones), in
 * one block to free() that points into d: d must outlive it.
 */
struct ctfw_event_class *trax_event_class_new(const struct trax_event_desc *d, int loglevel);

/* context.c */
void trax_context_write(const struct trax_channel *ch, char *dst, const void *ip);
void trax_context_reset_after_fork(void);
/* The contexts filters can name ($ctx.vpid, ...): n entries, for the process's life. */
const struct filter_ctx_field *trax_context_filter_fields(unsigned int *n);

/* filter.c */
/* The linked filters of one binding: an event passes when one of them accepts it. */
struct trax_filters {
	struct trax_filters *retired_next; /* replaced ones, kept by the registry */
	unsigned int n;			   /* 0: the event never passes (no program linked) */
	struct filter_program *progs[];
};
/*
 * Links n bytecodes against event d: *out, never freed (probes may still
 * read it after the binding changes). A bytecode that does not link (a
 * field the event lacks, mismatched types) is left out: it never accepts
 * this event, as LTTng-UST does. 0, or -ENOMEM.
 */
int trax_filters_link(const struct trax_event_desc *d, const struct trax_bytecode *bc,
		      unsigned int n, struct trax_filters **out);
/* Frees f and its programs (NULL accepted): only once no probe can be reading it. */
void trax_filters_free(struct trax_filters *f);
/* 1 when one of f's programs accepts the event (args: its fields' values; ip: $ctx.ip). */
static inline int trax_filters_pass(const struct trax_filters *f,
				    const struct trax_filter_arg *args, const void *ip)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (filter_run(f->progs[i], (const struct filter_arg *)args, (void *)ip))
			return 1;
	return 0;
}

/* consumer.c: the in-process consumer of the embedded mode. */
struct trax_session;
int trax_consumer_start(struct trax_session *s);
/* Flushes every buffer to disk; final: and stops the consumer. */
void trax_consumer_flush(struct trax_session *s, int final);
/* Async-signal-safe version: asks the consumer thread and waits for it. */
void trax_consumer_flush_from_signal(struct trax_session *s);

/* What a descriptor was opened on, to notice it being replaced. */
struct trax_file_id {
	dev_t dev;
	ino_t ino;
};

struct trax_session {
	char path[4096]; /* trace directory */
	struct trax_channel channel;
	struct ctfw_env_entry env[CTF_ENV_UST_MAX];
	unsigned int nr_env;
	char hostname[256];
	char procname[32];
	char datetime[32];     /* the directory's stamp, YYYYmmdd-HHMMSS */
	char env_datetime[32]; /* the env's dates */
	char trace_name[256];
	int metadata_fd;
	uint32_t metadata_generation_written;
	uint32_t metadata_events_written;
	int *stream_fds;
	off_t *stream_sizes; /* bytes of whole packets in each stream file */
	struct trax_file_id *stream_ids;
	int *index_fds; /* index/STREAM.idx of each stream file (-1: none) */
	struct trax_file_id *index_ids;
	off_t *index_sizes;
	struct trax_file_id metadata_id;
	uint64_t *overwrite_written; /* overwrite mode: next position to write, per CPU */
	void *bounce;		     /* overwrite mode: a copy of one sub-buffer */
	off_t metadata_size;
	int output_failed;
	pthread_t thread;
	int thread_started;
	uint32_t request; /* futex-like word: flush requests from signal handlers */
	uint32_t request_done;
	int stopping;
	int stopped;
	uint64_t discarded_reported;
};

/* init.c: idempotent, re-entrant start-up of the library. */
void trax_ust_ensure_init(void);

/*
 * signals.c: flushes the trace on fatal signals, in front of the
 * application's own handlers, which still run as the application set them.
 */
void trax_signals_install(void);

/* statedump.c: the lttng_ust_statedump events, for a session that starts. */
void trax_statedump_register(void);
/*
 * Records the state dump into the channels listed (a session's), or into
 * every channel its events are bound to (only NULL).
 */
void trax_statedump_run(struct trax_channel *const *only, size_t nr_only);

/* embedded.c */
extern struct trax_session *trax_embedded_session;
void trax_embedded_init(void);
void trax_embedded_fini(void);

/*
 * daemon-client.c: registration with traxd and obedience to it
 * (docs/daemon.md), when the embedded mode is off.
 */
void trax_daemon_client_init(void);
/* The start-up's wait for the daemons (TRAX_REGISTER_TIMEOUT), once the library is up. */
void trax_daemon_client_wait(void);
/*
 * Events were just registered (a provider's constructor, dlopen): they are
 * described to every connected daemon; the caller waits (at most
 * TRAX_REGISTER_TIMEOUT) for the daemons that confirm such updates.
 * Called without the registry lock.
 */
void trax_daemon_client_events_added(void);

#endif /* TRAX_UST_H */
