/*
 * traxd.h - the session daemon's state: sessions (channels, event rules,
 * contexts, trackers), registered applications, and the traces it
 * consumes (docs/daemon.md is the protocol and the picture).
 *
 * All state belongs to the main thread, which runs the event loop (client
 * requests, application messages). The consumer threads (consumer.c) only
 * move complete packets from shared memory to files; what they share with
 * the main thread is guarded by each trace's lock.
 */
#ifndef TRAX_DAEMON_TRAXD_H
#define TRAX_DAEMON_TRAXD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/proto.h"
#include "common/shm.h"
#include "common/strbuf.h"
#include "writer/contexts.h"
#include "writer/desc.h"
#include "ringbuf/bufset.h"
#include "ringbuf/ringbuf.h"

#define TRAXD_NAME_MAX	   255
#define TRAXD_PATH_MAX	   4096
#define TRAXD_MAX_SESSIONS 1024
#define TRAXD_MAX_CHANNELS 256 /* per session */
#define TRAXD_MAX_RULES	   4096
#define TRAXD_MAX_APPS	   65536
#define TRAXD_MAX_EVENTS   65536 /* per application */
#define TRAXD_MAX_FIELDS   1024	 /* per event */

/* ---- applications (app.c) ---- */

/* One event an application described (APP_EVENTS). */
struct app_event {
	struct ctfw_event_class cls; /* what the metadata says of it: its written fields */
	struct ctfw_field *fields;   /* cls.fields */
	struct ctfw_type *elems;     /* per field: its elements' type (arrays, sequences) */
	char *name;
	int loglevel;
	char *emf_uri;
	char *signature;   /* the field= and enum= strings: equal means same layout */
	char *fields_text; /* "type name, ..." for `trax list -u` */
};

/* What an application was given of one channel. */
struct app_channel {
	struct dchan *chan; /* NULL: slot free */
	uint32_t handle;
	uint64_t *bound; /* per event index: 0, or bound with the filters bind_sig() names */
	uint64_t statedump_start; /* the session's start_seq when its state dump was asked for */
};

struct app {
	int fd;
	int pid, uid, gid; /* from SO_PEERCRED, not from what it says */
	int ppid, bits;
	char procname[32];
	bool ready;	 /* APP_READY received */
	bool registered; /* APP_REGISTERED sent */
	struct app_event *events;
	uint32_t nevents, cap_events;
	struct app_channel *chans;
	uint32_t nchans;
	uint32_t next_handle;
	uint32_t next_seq;
	char *rx_error; /* why it was dropped */
	struct app *next;
	struct trax_rx rx;  /* the message being received */
	int64_t last_rx_ms; /* when it last sent something (or connected): trax_now_ms() */
};

/* ---- sessions (session.c) ---- */

struct event_rule {
	char *pattern; /* glob: '*' anywhere */
	bool enabled;
	int loglevel; /* -1: any */
	bool loglevel_only;
	char **excludes;
	unsigned int nexcludes;
	uint8_t *filter; /* bytecode (checked), NULL: none */
	size_t filter_len;
};

struct channel_attr {
	uint64_t subbuf_size;
	uint32_t num_subbuf;
	bool overwrite;
	bool per_pid;
	uint64_t switch_timer_us, read_timer_us;
	int64_t blocking_timeout_us;
	uint64_t tracefile_size;
	uint32_t tracefile_count;
};

struct channel {
	char name[TRAXD_NAME_MAX + 1];
	struct channel_attr attr;
	bool enabled;
	uint32_t stream_id;
	uint8_t contexts[CTF_CTX_COUNT];
	unsigned int ncontexts;
	struct event_rule *rules;
	unsigned int nrules;
};

struct tracker {
	bool all; /* every value (the default) */
	int *values;
	unsigned int nvalues;
};

struct session {
	char name[TRAXD_NAME_MAX + 1];
	char output[TRAXD_PATH_MAX];
	bool snapshot, no_output;
	bool active;
	bool started_once;  /* channels can no longer be added or changed */
	uint64_t start_seq; /* this start's number among all the daemon's (from 1) */
	unsigned int snapshot_count;
	struct channel *channels;
	unsigned int nchannels;
	struct tracker vpid, vuid;
	struct dtrace *traces;	/* one per uid (or per process) that was traced */
	struct kdomain *kernel; /* the kernel domain (session-kernel.c), NULL until used */
	char creation_time[32];
	struct session *next;
};

/* ---- traces and their buffers (trace.c, consumer.c) ---- */

struct meta_text {
	struct strbuf sb;
};

/* One channel's buffers in one trace: a bufset and its stream files. */
struct dchan {
	struct dtrace *trace;
	const struct channel *chan; /* valid while the session lives */
	uint32_t stream_id;
	struct trax_shm shm;
	struct ringbuf_config cfg;
	struct ringbuf *rbs;
	unsigned int nr_cpus;
	int *fds;	      /* stream files, one per CPU */
	int *index_fds;	      /* their index files (index/STREAM.idx) */
	uint64_t *file_size;  /* bytes written to each */
	uint32_t *file_index; /* tracefile rotation: current file number */
	uint64_t *ow_written; /* overwrite mode: per CPU, written up to this position */
	void *bounce;	      /* overwrite mode: a sub-buffer copied before it is written */
	/* event ids: by (name, signature) */
	struct dchan_event {
		char *name;
		char *signature;
		uint32_t id;
		bool described; /* its event block is in the metadata */
	} * events;
	uint32_t nevents, cap_events;
	uint64_t packets_written;
	uint64_t packets_dropped; /* incomplete after an application died, or invalid */
	/*
	 * Applications that die in the middle of a record leave sub-buffers
	 * that never complete (consumer_repair): per CPU, the oldest one seen
	 * incomplete, its counter then and since when; and the trace clock at
	 * the last death of an application writing here.
	 */
	struct dchan_stall {
		uint64_t pos, count, since_us;
	} * stalls;
	uint64_t last_death_ts;
	pthread_t thread;
	bool thread_started;
	bool stop_thread;
	uint32_t flush_req, flush_done; /* requests to the consumer thread */
	struct dchan *next;
};

struct dtrace {
	struct session *session;
	bool per_pid;
	int key;			 /* uid, or pid */
	char procname[32];		 /* per process: its name */
	char vpid_datetime[32];		 /* per process: when it registered (env) */
	unsigned int bits;		 /* the applications' word size */
	char path[TRAXD_PATH_MAX + 128]; /* output (shorter than TRAXD_PATH_MAX - 512) + ust/... */
	uint8_t uuid[16];
	int metadata_fd;
	struct meta_text *meta; /* the metadata so far, whole: for snapshots */
	pthread_mutex_t lock;	/* the files and metadata, shared with consumers */
	struct dchan *chans;
	bool app_gone; /* per process: the application exited */
	struct dtrace *next;
};

/* ---- the daemon ---- */

struct traxd {
	char rundir[TRAXD_PATH_MAX];
	uid_t uid;
	bool is_root;
	char group[TRAXD_NAME_MAX + 1]; /* root's: members may drive it (--group) */
	gid_t tracing_gid;
	bool have_tracing_gid;
	int lock_fd;
	int client_listen, app_listen;
	int epoll_fd;
	struct session *sessions;
	unsigned int nsessions;
	struct app *apps;
	unsigned int napps;
	char hostname[256];
	bool quit;
	/* descriptors (main.c): a spare for EMFILE, the limit, what applications may not use */
	int spare_fd;
	int fd_limit, fd_reserve;
};

extern struct traxd traxd;

/* state.c */
/*
 * accept4() that never leaves a connection pending for lack of descriptors:
 * on EMFILE/ENFILE the connection is accepted on the spare descriptor and
 * closed at once. The descriptor, or -errno.
 */
int traxd_accept(int listen_fd);

/* rundir.c */
int traxd_rundir_default(char *buf, size_t len, bool *is_root);
int traxd_rundir_prepare(struct traxd *d);

/* session.c: requests of the `trax` command */
/* The reply being built to a request. */
struct reply {
	struct trax_msg m;
	bool failed;
};
/* Makes r a failure: status (an errno name) and one line; returns -1. */
int reply_fail(struct reply *r, const char *status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void traxd_client_request(int fd, struct trax_msg *req);
struct session *session_find(const char *name);
void session_destroy_all(void);

/* session-kernel.c: the kernel domain's requests (domain=kernel) */
struct kdomain;
bool kernel_request(struct reply *r, struct session *s, const struct trax_msg *req);
/* `trax list -k` (no session). */
int kernel_list(struct reply *r, const struct trax_msg *req);
/* Session hooks: start (0 or -1 with r failed), stop, destroy, listing. */
int kernel_session_start(struct reply *r, struct session *s);
void kernel_session_stop(struct session *s);
/* A snapshot's kernel trace, in path/kernel (0, or -1 with r failed). */
int kernel_session_snapshot(struct reply *r, struct session *s, const char *path);
void kernel_session_free(struct session *s);
void kernel_session_describe(struct reply *r, const struct session *s);

/* app-events.c */
/*
 * Reads one event description of an APP_EVENTS message, from *kv (its
 * "event=INDEX" string, which must be `index`) up to the next event's;
 * leaves *kv there. False (nothing allocated) on anything invalid.
 */
bool app_event_parse(const struct trax_msg *m, const char **kv, uint32_t index,
		     struct app_event *e);
void app_event_free(struct app_event *e);

/* app.c */
void app_accept(int listen_fd);
void app_readable(struct app *a);
void app_drop(struct app *a, const char *why);
/* Drops the applications that owe a message or their registration and went silent. */
void apps_tick(int64_t now);
/* Gives a just-ready or already-known application what the sessions need. */
void app_configure(struct app *a);
/*
 * Recomputes the bindings of every application for one session; an
 * application that joins the started session records its state dump.
 */
void apps_update_session(struct session *s);
/* Tells every application to forget a session's channels (it is destroyed). */
void apps_forget_session(struct session *s);
const char *app_event_field_text(const struct app_event *e);
bool rule_matches(const struct event_rule *r, const char *name, int loglevel);
bool tracker_allows(const struct tracker *t, int value);

/* trace.c */
struct dchan *trace_channel_get(struct session *s, const struct channel *c, const struct app *a);
int trace_event_id(struct dchan *dc, const struct app_event *e, uint32_t *id);
void trace_set_active(struct session *s, bool active);
/* Flushes every buffer of s and writes what they hold; returns once it is on disk. */
int trace_flush_session(struct session *s);
int trace_snapshot(struct session *s, const char *output, char *path, size_t pathlen);
void trace_destroy_session(struct session *s);
/* An application exited: per-process traces are flushed and closed. */
void trace_app_gone(struct session *s, const struct app *a);

/* consumer.c */
int consumer_start(struct dchan *dc);
void consumer_stop(struct dchan *dc);
/*
 * Drains dc's complete packets (the main thread or the consumer thread,
 * under the trace lock). settled: the buffers were flushed and
 * ringbuf_settle'd, what is still incomplete will stay so (overwrite mode
 * then counts it lost and goes on; see src/ringbuf/consumer.h).
 */
void consumer_drain(struct dchan *dc, bool settled);
/*
 * Takes the sub-buffers that an application dying in the middle of a record
 * left incomplete: each one closed, incomplete, unchanged for quiet_us and
 * opened before the last death of an application writing to the channel
 * (with writers_dead: every writer is dead, none of that is needed). Its
 * committed records are written, the dead one left out. Trace lock held.
 */
void consumer_repair(struct dchan *dc, uint64_t quiet_us, bool writers_dead);
/*
 * Makes a packet whose `missing` bytes were reserved by a record that was
 * never committed readable again: finds that record among the committed
 * ones and cuts it out (src/daemon/repair.c). False when it cannot.
 */
bool packet_repair(const struct dchan *dc, void *subbuf, uint64_t missing);
/*
 * Reads the record of dc's channel at p (before end): its length, and its
 * timestamp (from the previous one, *ts; never past ts_end); 0 when it
 * cannot be a record of this channel.
 */
size_t packet_record_len(const struct dchan *dc, const uint8_t *p, const uint8_t *end, uint64_t *ts,
			 uint64_t ts_end);
int consumer_open_files(struct dchan *dc);
/*
 * Whether a packet header (a copy: applications write the shared memory)
 * describes a packet of dc's geometry: the consumer and snapshots write
 * nothing else.
 */
struct ctf_packet_header;
bool consumer_packet_valid(const struct dchan *dc, const struct ctf_packet_header *h);

/* util */
/* Whether traxd_log() writes (--verbose); stderr otherwise goes to /dev/null. */
extern bool traxd_verbose;
/* A line on stderr, "traxd[PID]: ...", when traxd_verbose. */
void traxd_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* TRAX_DAEMON_TRAXD_H */
