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

#include "common/shm.h"
#include "ctf/writer-metadata.h"
#include "ringbuf/ringbuf.h"
#include "trax/probe.h"
#include "trax/tracepoint.h"

#define TRAX_API_EXPORT __attribute__((visibility("default")))

/* Packets on disk are whole multiples of this (direct I/O blocks). */
#define TRAX_PACKET_ALIGN 4096u

/* One event bound to a channel, as the metadata must describe it. */
struct trax_channel_event {
	const struct trax_event_desc *desc;
	uint32_t id;
	int loglevel;
};

struct trax_channel_attr {
	uint64_t subbuf_size;
	uint32_t num_subbuf;
	int overwrite;
	int64_t blocking_timeout_us; /* <0: forever, 0: never block */
	uint8_t contexts[CTF_CTX_COUNT];
	unsigned int nr_contexts;
};

struct trax_channel {
	char name[64];
	uint32_t stream_id;
	struct trax_channel_attr attr;
	int nr_cpus;
	struct ringbuf *bufs; /* one per possible CPU */
	struct trax_shm shm;
	struct ringbuf_notify *notify; /* in shm */
	uint8_t trace_uuid[16];
	unsigned int context_size; /* bytes of context per record */
	int active;		   /* records are taken (session started) */
	int blocking;		   /* blocking allowed (app and channel agree) */
	/* Events bound to this channel (under the registry lock). */
	struct trax_channel_event *events;
	uint32_t nr_events, cap_events;
	uint32_t metadata_generation; /* bumped when events are added */
	uint32_t too_large_logged;
};

/* channel.c */
int trax_channel_create(struct trax_channel *ch, const char *name, uint32_t stream_id,
			const struct trax_channel_attr *attr, const uint8_t trace_uuid[16]);
void trax_channel_destroy(struct trax_channel *ch);
/* Default attributes, with TRAX_SUBBUF_SIZE / TRAX_NUM_SUBBUF / ... applied. */
void trax_channel_attr_default(struct trax_channel_attr *attr);

/* registry.c */
void trax_registry_lock(void);
void trax_registry_unlock(void);
/*
 * Records every event whose name matches one of the comma-separated glob
 * patterns (and future ones as their providers register) in ch.
 */
int trax_registry_enable(struct trax_channel *ch, const char *patterns);
/* Stops recording into ch: bindings stay (ids are kept), tracepoints turn off. */
void trax_registry_disable_channel(struct trax_channel *ch);

/* context.c */
void trax_context_write(const struct trax_channel *ch, char *dst, const void *ip);
void trax_context_reset_after_fork(void);

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
	struct ctf_env_entry env[12];
	unsigned int nr_env;
	char hostname[256];
	char procname[32];
	char datetime[32];
	int metadata_fd;
	uint32_t metadata_generation_written;
	uint32_t metadata_events_written;
	int *stream_fds;
	off_t *stream_sizes; /* bytes of whole packets in each stream file */
	struct trax_file_id *stream_ids;
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
void trax_statedump_run(void);

/* embedded.c */
extern struct trax_session *trax_embedded_session;
void trax_embedded_init(void);
void trax_embedded_fini(void);

#endif /* TRAX_UST_H */
