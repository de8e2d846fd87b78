/*
 * daemon-client.c - the application's side of traxd's protocol
 * (docs/daemon.md, "Application -> traxd" and "traxd -> application").
 *
 * Unless the embedded mode is on (TRAX_OUTPUT), the library's start-up
 * starts one thread per daemon it may register with: the user's (run
 * directory $TRAX_RUNDIR, else $TRAX_HOME/.trax/run with TRAX_HOME
 * defaulting to $HOME; not for root) and root's (/run/trax, unless
 * TRAX_RUNDIR is set). Each thread connects to the daemon's app.sock,
 * introduces the process (APP_HELLO), describes every event the registry
 * knows (APP_EVENTS, by index), says APP_READY, and then carries out the
 * daemon's orders one by one, acknowledging each: map a channel's buffers
 * (APP_CHANNEL), bind events to it with the daemon's ids (APP_BIND), unbind
 * them (APP_UNBIND), forget it (APP_CHANNEL_DEL), close its packets
 * (APP_FLUSH), run the state dump into a session's channels (APP_STATEDUMP).
 * Events registered later (a provider's constructor, dlopen) are described
 * as they come.
 *
 * The start-up waits for the daemons that answered the connection to say
 * APP_REGISTERED, at most TRAX_REGISTER_TIMEOUT ms (default 3000, 0: not at
 * all, negative: as long as it takes); with no daemon listening, connect()
 * fails at once and nothing waits. A provider registered after the start-up
 * (the application's own, whose constructors run after the library's, or
 * one loaded by dlopen) is described in more APP_EVENTS, which the daemon
 * answers with APP_REGISTERED events=N once the events below N are
 * configured: the registration waits for that the same way, so that the
 * provider's first events are recorded when a session wants them. A daemon
 * whose first APP_REGISTERED has no `events` does not answer APP_EVENTS:
 * nothing waits for it then. Nor for a daemon that let one wait expire,
 * until it answers again: a daemon that does not answer delays the start-up
 * once, not at every provider.
 *
 * Nothing the daemon sends can crash or stop the application: messages
 * are framed and checked by common/proto.c, every key is checked here
 * (handles, indexes, ids, geometry against the shared memory received), a
 * refused order is acknowledged with its error, unused descriptors are
 * closed. The application may close the library's descriptors (daemons
 * close every descriptor at start-up) and get their numbers again for
 * files of its own: the socket and the wake-up pipe are checked to be the
 * same files (device and inode) before every use, and a number that is no
 * longer ours is never read, written or closed. When the connection drops, everything that daemon
 * bound is unbound and its channels retired (the application runs on untraced), and the thread
 * tries again every second. The threads block every signal, are detached (exit does not wait for
 * them) and only ever wait in poll(), in the pause between two attempts, or in sends bounded by a
 * timeout; connect() does not wait (a daemon whose backlog is full is tried again later).
 *
 * After fork(), the child runs untraced: the parent's channels are retired
 * in it (it must not write into the parent's buffers, and the daemon does
 * not know it), its copy of the connections is closed, and no thread is
 * started for it (exec starts afresh).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/assert.h"
#include "common/clock.h"
#include "common/env.h"
#include "common/hex.h"
#include "common/log.h"
#include "common/proto.h"
#include "ust/ust.h"

#ifndef TRAX_VERSION
#define TRAX_VERSION "0.0.0"
#endif

#define RETRY_PERIOD_MS		    1000
#define SEND_TIMEOUT_S		    5	 /* a daemon that reads nothing for this long is dropped */
#define RECV_TIMEOUT_MS		    5000 /* for the rest of a message once it has begun */
#define EVENTS_PER_MESSAGE	    (1u << 20) /* bytes of APP_EVENTS payload, about */
#define MAX_CHANNELS		    4096u      /* live channels per connection */
#define DEFAULT_REGISTER_TIMEOUT_MS 3000
#define MAX_CLIENTS		    2
#define POLL_PERIOD_MS		    1000 /* the descriptors are checked again this often */

/* A channel a daemon gave, by its handle on that connection. */
struct dchannel {
	struct dchannel *next;
	uint32_t handle;
	struct trax_channel *ch;
};

/* What a descriptor was opened on, to notice its number being given to another file. */
struct fd_id {
	dev_t dev;
	ino_t ino;
};

struct client {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* the daemon's app.sock */
	int first_fd; /* connected by the start-up, for the thread to take over */
	struct fd_id first_id;

	/* Under state_lock (waiters and fork read them). */
	int wake_rd, wake_wr; /* pipe: events were registered */
	struct fd_id wake_id;
	int fd; /* the connection, -1 when there is none */
	struct fd_id sock_id;
	uint32_t conn_gen;     /* changes at each connection and disconnection */
	int registered;	       /* APP_REGISTERED came on this connection */
	int counts_events;     /* and said events=N: it answers every APP_EVENTS */
	uint32_t events_known; /* the events below this index are configured */
	int stalled;	       /* a wait for its answer expired: nobody waits for it again */
	struct dchannel *channels;
	unsigned int nr_channels;

	/* The thread's own. */
	uint32_t events_sent;  /* indexes below this are described */
	uint32_t events_ready; /* ... and were before APP_READY */
	uint32_t seq;
};

static struct client clients[MAX_CLIENTS];
static int nr_clients;
static int started; /* threads run (not in a forked child) */
static long register_timeout_ms = DEFAULT_REGISTER_TIMEOUT_MS;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_cond;
/* The daemons the start-up waits for: connected by it, and on which connection. */
static bool startup_which[MAX_CLIENTS];
static uint32_t startup_gen[MAX_CLIENTS];

/*
 * Channels no longer used, kept allocated for good: a probe may still hold
 * one (their shared memory is given back by trax_channel_retire).
 */
static struct trax_channel *retired[64];
static struct retired_block {
	struct retired_block *next;
	struct trax_channel *ch;
} * retired_more;
static unsigned int nr_retired;

/* ---- helpers ---- */

static bool fd_id_of(int fd, struct fd_id *id)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return false;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return true;
}

/* Whether fd still is the file it was opened on. */
static bool fd_is(int fd, const struct fd_id *id)
{
	struct fd_id now;

	return fd_id_of(fd, &now) && now.dev == id->dev && now.ino == id->ino;
}

static void close_if_ours(int fd, const struct fd_id *id)
{
	if (fd_is(fd, id))
		close(fd);
}

/* A new wake-up pipe; false when there is none. */
static bool wake_open(struct client *c)
{
	int p[2];

	TRAX_ASSERT_LOCKED(&state_lock);
	c->wake_rd = c->wake_wr = -1;
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return false;
	if (!fd_id_of(p[0], &c->wake_id)) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	c->wake_rd = p[0];
	c->wake_wr = p[1];
	return true;
}

static const char *errno_name(int err)
{
	switch (err) {
	case 0:
		return "0";
	case ENOENT:
		return "ENOENT";
	case EEXIST:
		return "EEXIST";
	case ENOMEM:
		return "ENOMEM";
	case ENOSPC:
		return "ENOSPC";
	case ENOSYS:
		return "ENOSYS";
	case EINVAL:
		return "EINVAL";
	default:
		return "EIO";
	}
}

static bool get_u64(const struct trax_msg *m, const char *key, uint64_t max, uint64_t *v)
{
	return trax_parse_u64(trax_msg_get(m, key), max, v);
}

/* "INDEX" or "INDEX:ID". */
static bool parse_event_ref(const char *s, bool with_id, uint32_t *index, uint32_t *id)
{
	char buf[32];
	const char *colon = strchr(s, ':');
	uint64_t a, b;
	size_t n;

	if (!with_id)
		return !colon && trax_parse_u64(s, UINT32_MAX, &a) && (*index = (uint32_t)a, true);
	if (!colon || (n = (size_t)(colon - s)) >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (!trax_parse_u64(buf, UINT32_MAX, &a) || !trax_parse_u64(colon + 1, UINT32_MAX, &b))
		return false;
	*index = (uint32_t)a;
	*id = (uint32_t)b;
	return true;
}

static bool parse_uuid(const char *s, uint8_t out[16])
{
	unsigned int i;

	if (!s || strlen(s) != 32)
		return false;
	for (i = 0; i < 32; i++) {
		char c = s[i];
		int v = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;

		if (v < 0)
			return false;
		if (i % 2 == 0)
			out[i / 2] = (uint8_t)(v << 4);
		else
			out[i / 2] |= (uint8_t)v;
	}
	return true;
}

static void keep_retired(struct trax_channel *ch)
{
	struct retired_block *b;

	if (nr_retired < sizeof(retired) / sizeof(retired[0])) {
		retired[nr_retired++] = ch;
		return;
	}
	b = malloc(sizeof(*b));
	if (!b)
		return; /* unreachable then, but still never freed */
	b->ch = ch;
	b->next = retired_more;
	retired_more = b;
}

/* Unbinds, retires and forgets a channel. */
static void channel_forget(struct client *c, struct dchannel *d)
{
	struct dchannel **pd;

	TRAX_ASSERT_LOCKED(&state_lock);
	for (pd = &c->channels; *pd; pd = &(*pd)->next)
		if (*pd == d) {
			*pd = d->next;
			break;
		}
	c->nr_channels--;
	trax_registry_unbind_channel(d->ch);
	trax_channel_retire(d->ch);
	keep_retired(d->ch);
	free(d);
}

static struct dchannel *channel_find(struct client *c, uint32_t handle)
{
	struct dchannel *d;

	for (d = c->channels; d; d = d->next)
		if (d->handle == handle)
			return d;
	return NULL;
}

/* ---- sending ---- */

/* Sends m, numbered as the next message of this connection unless it answers one. */
static int send_msg(struct client *c, int fd, struct trax_msg *m)
{
	int err;

	if (m->type != TRAX_MSG_APP_ACK)
		m->seq = ++c->seq;
	/* The application may have closed our socket and opened a file of its own. */
	if (!fd_is(fd, &c->sock_id))
		return -EBADF;
	err = trax_msg_send(fd, m, NULL, 0);
	if (err)
		trax_debug("daemon %s: cannot send a message: %s", c->path, strerror(-err));
	return err;
}

/* The process's name: the main thread's, whichever thread asks. */
static void process_name(char *buf, size_t size)
{
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		snprintf(buf, size, "app");
		return;
	}
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

static int send_hello(struct client *c, int fd)
{
	struct trax_msg m;
	char procname[32];
	int err;

	process_name(procname, sizeof(procname));
	trax_msg_init(&m, TRAX_MSG_APP_HELLO);
	trax_msg_add(&m, "pid", "%d", (int)getpid());
	trax_msg_add(&m, "ppid", "%d", (int)getppid());
	trax_msg_add(&m, "uid", "%u", (unsigned int)getuid());
	trax_msg_add(&m, "gid", "%u", (unsigned int)getgid());
	trax_msg_add(&m, "bits", "%u", (unsigned int)(sizeof(void *) * 8));
	trax_msg_add(&m, "procname", "%s", procname);
	/* The protocol's version (docs/daemon.md), not the probe ABI: probes stay in the process.
	 */
	trax_msg_add(&m, "abi", "%u", 1u);
	trax_msg_add(&m, "version", "%s", TRAX_VERSION);
	err = send_msg(c, fd, &m);
	trax_msg_free(&m);
	return err;
}

/* The protocol's field kinds are the probe ABI's: sent as they are. */
_Static_assert((int)TRAX_FIELD_INTEGER == (int)TRAX_PROTO_FIELD_INTEGER &&
		   (int)TRAX_FIELD_FLOAT == (int)TRAX_PROTO_FIELD_FLOAT &&
		   (int)TRAX_FIELD_STRING == (int)TRAX_PROTO_FIELD_STRING &&
		   (int)TRAX_FIELD_ARRAY == (int)TRAX_PROTO_FIELD_ARRAY &&
		   (int)TRAX_FIELD_SEQUENCE == (int)TRAX_PROTO_FIELD_SEQUENCE &&
		   (int)TRAX_FIELD_ENUM == (int)TRAX_PROTO_FIELD_ENUM,
	       "APP_EVENTS field kinds");

/* Appends the description of one event (docs/daemon.md, APP_EVENTS). */
static void describe_event(struct trax_msg *m, uint32_t index, const struct trax_event_desc *d,
			   int loglevel)
{
	unsigned int i, j;

	trax_msg_add(m, "event", "%" PRIu32, index);
	trax_msg_add(m, "name", "%s", d->name);
	trax_msg_add(m, "loglevel", "%d", loglevel);
	if (d->model_emf_uri)
		trax_msg_add(m, "emf_uri", "%s", d->model_emf_uri);
	for (i = 0; i < d->nr_fields; i++) {
		const struct trax_field_desc *f = &d->fields[i];
		const struct trax_enum_desc *en = f->kind == TRAX_FIELD_ENUM ? f->enum_desc : NULL;

		trax_msg_add(m, "field", "%u:%s:%u:%u:%u:%u:%u:%u:%" PRIu32 ":%u:%u:%u:%s",
			     (unsigned int)f->kind, f->name, f->elem.size, f->elem.is_signed,
			     f->elem.base, f->elem.network, f->elem.text, f->float_bits, f->count,
			     f->length.size, f->length.is_signed, f->nowrite,
			     en && en->name ? en->name : "");
		uint64_t next = 0;

		for (j = 0; en && j < en->nr_entries; j++) {
			int64_t start, end;

			/* ctf_enum_auto() entries travel with their computed values. */
			trax_enum_entry_values(&en->entries[j], &next, &start, &end);
			trax_msg_add(m, "enum", "%" PRId64 ":%" PRId64 ":%s", start, end,
				     en->entries[j].label ? en->entries[j].label : "");
			if (en->entries[j].flags & TRAX_ENUM_AUTO)
				trax_msg_add(m, "enum_auto", "1");
			else if (en->entries[j].flags & TRAX_ENUM_TYPED)
				trax_msg_add(m, "enum_signed", "%u:%u",
					     !!(en->entries[j].flags & TRAX_ENUM_START_SIGNED),
					     !!(en->entries[j].flags & TRAX_ENUM_END_SIGNED));
		}
	}
}

/* Copies the strings of src at the end of dst. */
static bool msg_append(struct trax_msg *dst, const struct trax_msg *src)
{
	const char *kv;

	for (kv = trax_msg_first(src); kv; kv = trax_msg_next(src, kv)) {
		const char *eq = strchr(kv, '=');
		char key[32];
		size_t n = (size_t)(eq - kv);

		if (n >= sizeof(key))
			return false;
		memcpy(key, kv, n);
		key[n] = 0;
		if (!trax_msg_add(dst, key, "%s", eq + 1))
			return false;
	}
	return true;
}

/*
 * Events whose description does not fit in a message: described by name
 * only (indexes must follow each other), and never bound (the daemon would
 * describe them without their fields). Under state_lock.
 */
static uint32_t *undescribed;
static unsigned int nr_undescribed;

static void mark_undescribed(uint32_t index)
{
	uint32_t *n;

	pthread_mutex_lock(&state_lock);
	for (unsigned int i = 0; i < nr_undescribed; i++)
		if (undescribed[i] == index)
			goto out;
	n = realloc(undescribed, (nr_undescribed + 1) * sizeof(*n));
	if (n) {
		undescribed = n;
		undescribed[nr_undescribed++] = index;
	}
out:
	pthread_mutex_unlock(&state_lock);
}

static bool is_undescribed(uint32_t index)
{
	TRAX_ASSERT_LOCKED(&state_lock);
	for (unsigned int i = 0; i < nr_undescribed; i++)
		if (undescribed[i] == index)
			return true;
	return false;
}

/* Describes the events registered since the last call, in messages of bounded size. */
static int send_events(struct client *c, int fd)
{
	uint32_t n = trax_registry_nr_indexed();
	struct trax_msg m;
	int err = 0;

	trax_msg_init(&m, TRAX_MSG_APP_EVENTS);
	while (c->events_sent < n && !err) {
		const struct trax_event_desc *d;
		struct trax_msg one;
		int level;

		if (trax_registry_event_info(c->events_sent, &d, &level))
			break; /* cannot be: indexes are never taken back */
		trax_msg_init(&one, TRAX_MSG_APP_EVENTS);
		describe_event(&one, c->events_sent, d, level);
		if (one.oom) {
			trax_debug("daemon %s: event %s is too large to describe; it will not be "
				   "traced",
				   c->path, d->name);
			mark_undescribed(c->events_sent);
			trax_msg_free(&one);
			trax_msg_init(&one, TRAX_MSG_APP_EVENTS);
			trax_msg_add(&one, "event", "%" PRIu32, c->events_sent);
			trax_msg_add(&one, "name", "%s", d->name);
			trax_msg_add(&one, "loglevel", "%d", level);
		}
		if (m.len && m.len + one.len > EVENTS_PER_MESSAGE) {
			err = send_msg(c, fd, &m);
			trax_msg_free(&m);
			trax_msg_init(&m, TRAX_MSG_APP_EVENTS);
		}
		if (!err && !msg_append(&m, &one))
			err = -ENOMEM;
		trax_msg_free(&one);
		c->events_sent++;
	}
	if (!err && m.len)
		err = send_msg(c, fd, &m);
	trax_msg_free(&m);
	return err;
}

/* Every event known, then APP_READY. */
static int send_ready(struct client *c, int fd)
{
	struct trax_msg m;
	int err = send_events(c, fd);

	if (err)
		return err;
	trax_msg_init(&m, TRAX_MSG_APP_READY);
	err = send_msg(c, fd, &m);
	trax_msg_free(&m);
	c->events_ready = c->events_sent;
	return err;
}

static int send_ack(struct client *c, int fd, uint32_t seq, int err, const char *why)
{
	struct trax_msg m;
	int ret;

	trax_msg_init(&m, TRAX_MSG_APP_ACK);
	m.seq = seq;
	trax_msg_add(&m, "seq", "%" PRIu32, seq);
	trax_msg_add(&m, "status", "%s", errno_name(err));
	if (err)
		trax_msg_add(&m, "error", "%s", why);
	ret = send_msg(c, fd, &m);
	trax_msg_free(&m);
	return ret;
}

/* ---- orders ---- */

/* Where an order failed: its errno (positive) and a line for the daemon's log. */
struct order_result {
	int err;
	char why[160];
};

static int refuse(struct order_result *r, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(struct order_result *r, int err, const char *fmt, ...)
{
	va_list ap;

	r->err = err;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return err;
}

static int order_channel(struct client *c, struct trax_msg *m, struct order_result *r)
{
	struct trax_channel_attr attr;
	struct trax_channel *ch;
	struct dchannel *d;
	uint64_t handle, stream_id, subbuf, nsub, ncpu, size, ow = 0;
	int64_t blocking = 0;
	const char *name = trax_msg_get(m, "name");
	const char *bt = trax_msg_get(m, "blocking_timeout");
	const char *ctx = trax_msg_get(m, "contexts");
	uint8_t uuid[16];
	int fd, err;

	if (!get_u64(m, "handle", UINT32_MAX, &handle) || !name || !*name ||
	    !get_u64(m, "stream_id", UINT32_MAX, &stream_id) ||
	    !parse_uuid(trax_msg_get(m, "uuid"), uuid) ||
	    !get_u64(m, "subbuf_size", UINT64_MAX, &subbuf) ||
	    !get_u64(m, "num_subbuf", UINT32_MAX, &nsub) ||
	    !get_u64(m, "nr_cpus", TRAX_CHANNEL_MAX_CPUS, &ncpu) ||
	    !get_u64(m, "size", UINT64_MAX, &size) ||
	    (trax_msg_get(m, "overwrite") && !get_u64(m, "overwrite", 1, &ow)))
		return refuse(r, EINVAL, "APP_CHANNEL: a key is missing or out of range");
	if (bt) {
		uint64_t v;

		if (!strcmp(bt, "-1"))
			blocking = -1;
		else if (trax_parse_u64(bt, INT64_MAX, &v))
			blocking = (int64_t)v;
		else
			return refuse(r, EINVAL, "APP_CHANNEL: blocking_timeout=%.32s", bt);
	}
	if (m->nfds != 1)
		return refuse(r, EINVAL, "APP_CHANNEL: %u descriptors, expected 1", m->nfds);
	if (channel_find(c, (uint32_t)handle))
		return refuse(r, EEXIST, "APP_CHANNEL: handle %" PRIu64 " is in use", handle);
	if (c->nr_channels >= MAX_CHANNELS)
		return refuse(r, ENOSPC, "APP_CHANNEL: %u channels already", c->nr_channels);
	memset(&attr, 0, sizeof(attr));
	attr.subbuf_size = subbuf;
	attr.num_subbuf = (uint32_t)nsub;
	attr.overwrite = (int)ow;
	attr.blocking_timeout_us = blocking;
	if (trax_channel_parse_contexts(&attr, ctx ? ctx : "", 1))
		return refuse(r, EINVAL, "APP_CHANNEL: contexts=%.64s", ctx);

	ch = aligned_alloc(64, sizeof(*ch));
	d = calloc(1, sizeof(*d));
	if (!ch || !d) {
		free(ch);
		free(d);
		return refuse(r, ENOMEM, "APP_CHANNEL: out of memory");
	}
	fd = trax_msg_take_fd(m, 0);
	err = trax_channel_attach(ch, name, (uint32_t)stream_id, &attr, uuid, (unsigned int)ncpu,
				  fd, size);
	if (err) {
		free(ch);
		free(d);
		return refuse(
		    r, -err, "APP_CHANNEL %s: the shared memory does not match the geometry", name);
	}
	d->handle = (uint32_t)handle;
	d->ch = ch;
	pthread_mutex_lock(&state_lock);
	d->next = c->channels;
	c->channels = d;
	c->nr_channels++;
	pthread_mutex_unlock(&state_lock);
	trax_debug("daemon %s: channel %s (handle %u, %u buffers of %u x %llu bytes)", c->path,
		   ch->name, d->handle, (unsigned int)ncpu, (unsigned int)nsub,
		   (unsigned long long)subbuf);
	return 0;
}

/* The channel named by the order's handle, or NULL (and r says why). */
static struct dchannel *order_target(struct client *c, const struct trax_msg *m, const char *what,
				     struct order_result *r)
{
	struct dchannel *d;
	uint64_t handle;

	if (!get_u64(m, "handle", UINT32_MAX, &handle)) {
		refuse(r, EINVAL, "%s: no valid handle", what);
		return NULL;
	}
	d = channel_find(c, (uint32_t)handle);
	if (!d)
		refuse(r, ENOENT, "%s: no channel has handle %" PRIu64, what, handle);
	return d;
}

/* Checks every event=INDEX[:ID] of an order before any is carried out. */
static int check_event_refs(const struct trax_msg *m, bool with_id, const char *what,
			    struct order_result *r)
{
	uint32_t n = trax_registry_nr_indexed(), index, id;
	const char *kv, *v;

	for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv)) {
		if (!(v = trax_kv_value(kv, "event")))
			continue;
		if (!parse_event_ref(v, with_id, &index, &id))
			return refuse(r, EINVAL, "%s: event=%.32s", what, v);
		if (index >= n)
			return refuse(r, ENOENT, "%s: no event has index %" PRIu32, what, index);
	}
	return 0;
}

#define BIND_MAX_FILTERS 64

/*
 * The filters of the event entry at kv: the filter=INDEX:HEX entries that
 * follow it, up to the next event entry (decoded into *f, *nf of them,
 * malloc'd). The bytecode is untrusted: the registry validates it when it
 * links it to the event. 0, or -EINVAL (another index, not hexadecimal,
 * too many), -ENOMEM.
 */
static int bind_filters(const struct trax_msg *m, const char *kv, uint32_t index,
			struct trax_bytecode *f, unsigned int *nf)
{
	const char *v;

	for (kv = trax_msg_next(m, kv); kv && !trax_kv_value(kv, "event");
	     kv = trax_msg_next(m, kv)) {
		uint8_t *code;
		size_t len;
		uint64_t at;
		const char *hex;
		char num[16];

		if (!(v = trax_kv_value(kv, "filter")))
			continue;
		hex = strchr(v, ':');
		if (!hex || (size_t)(hex - v) >= sizeof(num))
			goto bad;
		memcpy(num, v, (size_t)(hex - v));
		num[hex - v] = 0;
		if (!trax_parse_u64(num, UINT32_MAX, &at) || at != index ||
		    *nf == BIND_MAX_FILTERS || trax_hex_decode(hex + 1, &code, &len))
			goto bad;
		f[(*nf)++] = (struct trax_bytecode){code, len};
	}
	return 0;
bad:
	for (unsigned int i = 0; i < *nf; i++)
		free((void *)f[i].code);
	*nf = 0;
	return -EINVAL;
}

static int order_bind(struct client *c, struct trax_msg *m, struct order_result *r)
{
	struct dchannel *d = order_target(c, m, "APP_BIND", r);
	const char *kv, *v;
	uint32_t index, id;

	if (!d || check_event_refs(m, true, "APP_BIND", r))
		return r->err;
	pthread_mutex_lock(&state_lock);
	for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv)) {
		struct trax_bytecode filters[BIND_MAX_FILTERS];
		unsigned int nf = 0;
		int err;

		if (!(v = trax_kv_value(kv, "event")) || !parse_event_ref(v, true, &index, &id))
			continue;
		err = bind_filters(m, kv, index, filters, &nf);
		if (!err)
			err =
			    is_undescribed(index)
				? -EINVAL
				: trax_registry_bind_index_filtered(index, d->ch, id, filters, nf);
		if (err && !r->err)
			refuse(r, -err, "APP_BIND: event %" PRIu32 ": %s", index, strerror(-err));
		for (unsigned int i = 0; i < nf; i++)
			free((void *)filters[i].code);
	}
	pthread_mutex_unlock(&state_lock);
	return r->err;
}

static int order_unbind(struct client *c, struct trax_msg *m, struct order_result *r)
{
	struct dchannel *d = order_target(c, m, "APP_UNBIND", r);
	const char *all = trax_msg_get(m, "all");
	const char *kv, *v;
	uint32_t index, id;

	if (!d)
		return r->err;
	if (all && strcmp(all, "1"))
		return refuse(r, EINVAL, "APP_UNBIND: all=%.16s", all);
	if (check_event_refs(m, false, "APP_UNBIND", r))
		return r->err;
	pthread_mutex_lock(&state_lock);
	if (all) {
		trax_registry_unbind_channel(d->ch);
	} else {
		for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv))
			if ((v = trax_kv_value(kv, "event")) &&
			    parse_event_ref(v, false, &index, &id))
				trax_registry_unbind_index(index, d->ch);
	}
	pthread_mutex_unlock(&state_lock);
	return 0;
}

static int order_channel_del(struct client *c, struct trax_msg *m, struct order_result *r)
{
	struct dchannel *d = order_target(c, m, "APP_CHANNEL_DEL", r);

	if (!d)
		return r->err;
	pthread_mutex_lock(&state_lock);
	channel_forget(c, d);
	pthread_mutex_unlock(&state_lock);
	return 0;
}

static int order_flush(struct client *c, struct trax_msg *m, struct order_result *r)
{
	struct dchannel *d = order_target(c, m, "APP_FLUSH", r);
	int cpu;

	if (!d)
		return r->err;
	for (cpu = 0; cpu < d->ch->nr_cpus; cpu++)
		ringbuf_flush(&d->ch->bufs[cpu]);
	return 0;
}

/*
 * APP_STATEDUMP: the state dump, recorded into the channels named by
 * `handle` (the session's that asks for it), every channel of this
 * connection without any. Run here, on this thread (as LTTng-UST runs it on
 * its listener thread), before the next order: at registration the daemon
 * sends it before APP_REGISTERED, so that it is in the trace before the
 * program's own events.
 */
static int order_statedump(struct client *c, struct trax_msg *m, struct order_result *r)
{
	struct trax_channel **chans;
	struct dchannel *d;
	const char *kv, *v;
	size_t n = 0, cap = 0;
	uint64_t handle;

	for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv))
		cap += trax_kv_value(kv, "handle") != NULL;
	if (!cap)
		cap = c->nr_channels;
	chans = malloc((cap ? cap : 1) * sizeof(*chans));
	if (!chans)
		return refuse(r, ENOMEM, "APP_STATEDUMP: out of memory");
	for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv)) {
		if (!(v = trax_kv_value(kv, "handle")))
			continue;
		if (!trax_parse_u64(v, UINT32_MAX, &handle)) {
			free(chans);
			return refuse(r, EINVAL, "APP_STATEDUMP: handle=%.16s", v);
		}
		d = channel_find(c, (uint32_t)handle);
		if (!d) {
			free(chans);
			return refuse(r, ENOENT, "APP_STATEDUMP: no channel has handle %" PRIu64,
				      handle);
		}
		chans[n++] = d->ch;
	}
	if (!n)
		for (d = c->channels; d && n < cap; d = d->next)
			chans[n++] = d->ch;
	if (n)
		trax_statedump_run(chans, n);
	free(chans);
	return 0;
}

static int on_registered(struct client *c, const struct trax_msg *m, struct order_result *r)
{
	const char *ev = trax_msg_get(m, "events");
	uint64_t n = 0;

	if (ev && !trax_parse_u64(ev, UINT32_MAX, &n))
		return refuse(r, EINVAL, "APP_REGISTERED: events=%.32s", ev);
	pthread_mutex_lock(&state_lock);
	if (!c->registered) {
		c->registered = 1;
		c->counts_events = ev != NULL;
		/* Without a count: what came before APP_READY, which it answers. */
		if (!ev)
			n = c->events_ready;
	}
	/* A daemon cannot have configured what it was not told of. */
	if (n > c->events_sent)
		n = c->events_sent;
	if (n > c->events_known)
		c->events_known = (uint32_t)n;
	c->stalled = 0;
	pthread_cond_broadcast(&state_cond);
	pthread_mutex_unlock(&state_lock);
	return 0;
}

/* Carries out one message of the daemon; false when the connection must end. */
static bool handle_message(struct client *c, int fd, struct trax_msg *m)
{
	struct order_result r = {0, ""};

	switch (m->type) {
	case TRAX_MSG_APP_REGISTERED:
		on_registered(c, m, &r);
		break;
	case TRAX_MSG_APP_CHANNEL:
		order_channel(c, m, &r);
		break;
	case TRAX_MSG_APP_BIND:
		order_bind(c, m, &r);
		break;
	case TRAX_MSG_APP_UNBIND:
		order_unbind(c, m, &r);
		break;
	case TRAX_MSG_APP_CHANNEL_DEL:
		order_channel_del(c, m, &r);
		break;
	case TRAX_MSG_APP_FLUSH:
		order_flush(c, m, &r);
		break;
	case TRAX_MSG_APP_STATEDUMP:
		order_statedump(c, m, &r);
		break;
	default:
		refuse(&r, ENOSYS, "message type %u is not an order to an application",
		       (unsigned int)m->type);
		break;
	}
	if (r.err)
		trax_debug("daemon %s: %s", c->path, r.why);
	return send_ack(c, fd, m->seq, r.err, r.why) == 0;
}

/* ---- the connection ---- */

/*
 * Connects without waiting: a daemon whose backlog is full (hung) answers
 * EAGAIN at once instead of holding the thread.
 */
static int client_connect(const char *path, struct fd_id *id)
{
	struct sockaddr_un a;
	struct timeval tv = {SEND_TIMEOUT_S, 0};
	int fd, uid;

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	/* Only a daemon of this user, or root's, may give this process orders. */
	if (trax_sock_peer(fd, NULL, &uid, NULL) || (uid != 0 && (uid_t)uid != geteuid())) {
		trax_debug("daemon %s: runs as uid %d, neither root nor this user; ignored", path,
			   uid);
		close(fd);
		return -EPERM;
	}
	/* Blocking from now on, but a send never waits more than SEND_TIMEOUT_S. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 || !fd_id_of(fd, id)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* The daemon is gone: unbind and retire everything it gave. */
static void disconnect(struct client *c, int fd)
{
	pthread_mutex_lock(&state_lock);
	while (c->channels)
		channel_forget(c, c->channels);
	c->fd = -1;
	c->conn_gen++;
	c->registered = 0;
	pthread_cond_broadcast(&state_cond);
	pthread_mutex_unlock(&state_lock);
	close_if_ours(fd, &c->sock_id);
	trax_debug("daemon %s: disconnected; tracing from it stopped, retrying every %d ms",
		   c->path, RETRY_PERIOD_MS);
}

/* Empties the wake-up pipe; makes a new one if the application took its number. */
static void wake_drain(struct client *c)
{
	char buf[64];

	pthread_mutex_lock(&state_lock);
	if (fd_is(c->wake_rd, &c->wake_id) && fd_is(c->wake_wr, &c->wake_id)) {
		while (read(c->wake_rd, buf, sizeof(buf)) > 0)
			;
	} else {
		/* One end is gone (a read end alone would always poll ready): a new pipe. */
		close_if_ours(c->wake_rd, &c->wake_id);
		close_if_ours(c->wake_wr, &c->wake_id);
		if (!wake_open(c))
			trax_debug("daemon %s: no pipe; later providers are described late",
				   c->path);
	}
	pthread_mutex_unlock(&state_lock);
}

static void serve(struct client *c, int fd, const struct fd_id *id)
{
	pthread_mutex_lock(&state_lock);
	c->sock_id = *id;
	if (c->fd != fd) {
		/* (the start-up made the first connection and waits on its number) */
		c->fd = fd;
		c->conn_gen++;
	}
	c->registered = 0;
	c->counts_events = 0;
	c->events_known = 0;
	c->stalled = 0;
	/* Only this thread writes it; waiters read it under the lock. */
	c->events_sent = 0;
	pthread_mutex_unlock(&state_lock);
	c->events_ready = 0;
	c->seq = 0;
	/* Pending wake-ups are covered by what follows. */
	wake_drain(c);
	if (send_hello(c, fd) || send_ready(c, fd)) {
		disconnect(c, fd);
		return;
	}
	trax_debug("daemon %s: connected, %" PRIu32 " events described", c->path, c->events_sent);
	for (;;) {
		struct pollfd p[2] = {{.fd = fd, .events = POLLIN},
				      {.fd = c->wake_rd, .events = POLLIN}};
		bool ok = true;
		int n = poll(p, 2, POLL_PERIOD_MS);

		if (n < 0 && errno != EINTR)
			break;
		if (!fd_is(fd, &c->sock_id)) {
			trax_debug("daemon %s: the application closed the connection's descriptor",
				   c->path);
			break;
		}
		if (n <= 0 || p[1].revents) {
			/* Woken, or a look now and then: the pipe may be another file now. */
			wake_drain(c);
			ok = send_events(c, fd) == 0;
		}
		if (ok && n > 0 && p[0].revents) {
			struct trax_msg m;
			int err = trax_msg_recv(fd, &m, RECV_TIMEOUT_MS);

			if (err == -ETIMEDOUT)
				continue;
			if (err) {
				if (err != -ECONNRESET)
					trax_debug("daemon %s: invalid message (%s); disconnecting",
						   c->path, strerror(-err));
				break;
			}
			ok = handle_message(c, fd, &m);
			trax_msg_free(&m);
		}
		if (!ok)
			break;
	}
	disconnect(c, fd);
}

static void *client_thread(void *arg)
{
	struct client *c = arg;
	struct fd_id id = c->first_id;
	int fd = c->first_fd;

	pthread_setname_np(pthread_self(), "trax-daemon");
	c->first_fd = -1;
	for (;;) {
		if (fd < 0)
			fd = client_connect(c->path, &id);
		if (fd >= 0)
			serve(c, fd, &id);
		if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
			return NULL;
		trax_sleep_ms(RETRY_PERIOD_MS);
		fd = -1;
	}
	return NULL;
}

/* ---- start-up, registrations, fork ---- */

/*
 * Whether a waiter still waits for c: for its first
 * APP_REGISTERED, then (want not 0) for the events below want.
 */
static bool still_pending(const struct client *c, uint32_t gen, uint32_t want)
{
	TRAX_ASSERT_LOCKED(&state_lock);
	if (c->conn_gen != gen || c->fd < 0 || c->stalled)
		return false; /* gone, or known not to answer: nothing to wait for */
	if (!c->registered)
		return true;
	return c->counts_events && c->events_known < want;
}

/*
 * Waits, with state_lock, until none of the clients in `which` is pending,
 * or until the deadline (-1: none). A client that made it expire is marked
 * stalled.
 */
static void wait_clients(const bool *which, const uint32_t *gen, uint32_t want, int64_t deadline)
{
	TRAX_ASSERT_LOCKED(&state_lock);
	for (;;) {
		bool pending = false, expired;
		int i;

		for (i = 0; i < nr_clients; i++)
			if (which[i] && still_pending(&clients[i], gen[i], want))
				pending = true;
		if (!pending)
			return;
		expired = deadline >= 0 && trax_now_ms() >= deadline;
		if (expired) {
			for (i = 0; i < nr_clients; i++)
				if (which[i] && still_pending(&clients[i], gen[i], want)) {
					clients[i].stalled = 1;
					trax_debug("daemon %s: no answer within %ld ms; going on",
						   clients[i].path, register_timeout_ms);
				}
			return;
		}
		if (deadline < 0) {
			pthread_cond_wait(&state_cond, &state_lock);
		} else {
			int64_t left = deadline - trax_now_ms();
			struct timespec ts;

			if (left < 0)
				left = 0;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_sec += left / 1000;
			ts.tv_nsec += (left % 1000) * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&state_cond, &state_lock, &ts);
		}
	}
}

void trax_daemon_client_events_added(void)
{
	bool which[MAX_CLIENTS] = {false};
	uint32_t gen[MAX_CLIENTS], want;
	bool any = false;
	int i;

	if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		return;
	want = trax_registry_nr_indexed();
	pthread_mutex_lock(&state_lock);
	for (i = 0; i < nr_clients; i++) {
		struct client *c = &clients[i];

		if (c->fd < 0)
			continue; /* described at the next connection */
		which[i] = true;
		gen[i] = c->conn_gen;
		any = true;
		/* Not into a file of the application's that got the pipe's number. */
		if (fd_is(c->wake_wr, &c->wake_id) && write(c->wake_wr, "", 1) < 0) {
			/* the pipe is full: a wake-up is pending anyway */
		}
	}
	if (any && register_timeout_ms != 0)
		wait_clients(which, gen, want,
			     register_timeout_ms < 0 ? -1 : trax_now_ms() + register_timeout_ms);
	pthread_mutex_unlock(&state_lock);
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&state_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&state_lock);
}

static void clients_start(void);

/*
 * The child of a fork is a process of its own: it forgets its parent's
 * connections and channels (the parent keeps them) and registers anew,
 * waiting for its configuration as a program does at start-up, so that
 * its first events are recorded as the parent's were.
 */
static void atfork_child(void)
{
	pthread_condattr_t ca;
	bool was_started = __atomic_load_n(&started, __ATOMIC_ACQUIRE);
	int i;

	/*
	 * state_lock, taken before the fork, is recorded as the parent's
	 * thread's: this thread, the only one, takes it over (TRAX_ASSERT_LOCKED
	 * holds in what follows). The registry's own handler (registered
	 * first) has released its lock.
	 */
	pthread_mutex_unlock(&state_lock);
	pthread_mutex_lock(&state_lock);
	__atomic_store_n(&started, 0, __ATOMIC_RELEASE);
	for (i = 0; i < nr_clients; i++) {
		struct client *c = &clients[i];

		while (c->channels)
			channel_forget(c, c->channels);
		close_if_ours(c->fd, &c->sock_id);
		close_if_ours(c->wake_rd, &c->wake_id);
		close_if_ours(c->wake_wr, &c->wake_id);
		c->fd = c->wake_rd = c->wake_wr = c->first_fd = -1;
		c->registered = c->counts_events = c->stalled = 0;
		c->events_known = 0;
	}
	/* Waiters of the parent's do not exist here: a condition variable without them. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&state_cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_unlock(&state_lock);
	if (was_started && nr_clients) {
		clients_start();
		trax_daemon_client_wait();
	}
}

static void add_client(const char *rundir)
{
	struct client *c = &clients[nr_clients];

	if ((size_t)snprintf(c->path, sizeof(c->path), "%s/app.sock", rundir) >= sizeof(c->path)) {
		trax_debug("run directory %s: path too long for a socket; no daemon there", rundir);
		return;
	}
	c->fd = c->wake_rd = c->wake_wr = c->first_fd = -1;
	nr_clients++;
}

void trax_daemon_client_init(void)
{
	const char *output = trax_env_get("OUTPUT");
	const char *rundir = secure_getenv("TRAX_RUNDIR");
	pthread_condattr_t ca;

	if (output && *output)
		return; /* the embedded mode: no daemon */
	register_timeout_ms = trax_env_long("REGISTER_TIMEOUT", DEFAULT_REGISTER_TIMEOUT_MS);
	if (rundir && *rundir) {
		add_client(rundir);
	} else {
		/* secure_getenv: a set-id program does not follow the caller's environment */
		const char *home = secure_getenv("TRAX_HOME");
		char dir[PATH_MAX];

		if (!home || !*home)
			home = secure_getenv("HOME");
		if (geteuid() != 0 && home && *home &&
		    (size_t)snprintf(dir, sizeof(dir), "%s/.trax/run", home) < sizeof(dir))
			add_client(dir);
		add_client("/run/trax");
	}
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&state_cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	clients_start();
}

/*
 * Connects to each daemon and starts its thread (state_lock not held); the
 * start-up waits for the daemons it connected to (trax_daemon_client_wait).
 */
static void clients_start(void)
{
	bool which[MAX_CLIENTS] = {false};
	uint32_t gen[MAX_CLIENTS] = {0};
	sigset_t all, old;
	int i;

	/* The threads never take the application's signals. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nr_clients; i++) {
		struct client *c = &clients[i];
		pthread_attr_t attr;
		pthread_t t;
		int err;

		pthread_mutex_lock(&state_lock);
		if (!wake_open(c)) {
			pthread_mutex_unlock(&state_lock);
			trax_debug("daemon %s: no pipe (%s); not used", c->path, strerror(errno));
			continue;
		}
		/* Tried now: without a daemon, the start-up goes on at once. */
		c->first_fd = client_connect(c->path, &c->first_id);
		if (c->first_fd >= 0) {
			/* What the thread will set: the start-up waits on it. */
			c->fd = c->first_fd;
			c->sock_id = c->first_id;
			gen[i] = ++c->conn_gen;
			which[i] = true;
		}
		pthread_mutex_unlock(&state_lock);
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		err = pthread_create(&t, &attr, client_thread, c);
		pthread_attr_destroy(&attr);
		if (err) {
			trax_debug("daemon %s: cannot start a thread: %s", c->path, strerror(err));
			pthread_mutex_lock(&state_lock);
			if (c->first_fd >= 0)
				close(c->first_fd);
			c->first_fd = c->fd = -1;
			which[i] = false;
			pthread_mutex_unlock(&state_lock);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	memcpy(startup_which, which, sizeof(which));
	memcpy(startup_gen, gen, sizeof(gen));
}

void trax_daemon_client_wait(void)
{
	int64_t t0 = trax_now_ms();

	if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE) || register_timeout_ms == 0)
		return;
	pthread_mutex_lock(&state_lock);
	wait_clients(startup_which, startup_gen, 0,
		     register_timeout_ms < 0 ? -1 : t0 + register_timeout_ms);
	pthread_mutex_unlock(&state_lock);
	trax_debug("start-up waited %lld ms for the daemons", (long long)(trax_now_ms() - t0));
}
