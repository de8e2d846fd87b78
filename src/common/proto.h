/*
 * proto.h - the messages traxd exchanges with the `trax` command and with
 * traced applications, over Unix stream sockets (docs/daemon.md lists them).
 *
 * A message is a 16-byte header (magic, version, type, payload length,
 * sequence number) and a payload of NUL-terminated "key=value" strings, in
 * order, keys repeatable: a format both ends can check field by field, that
 * old and new peers can skip parts of, and that a test can read. File
 * descriptors (shared memory, trace files) ride along with the header as
 * SCM_RIGHTS ancillary data.
 *
 * Everything received is validated before use: magic and version, a
 * payload of at most TRAX_MSG_MAX_PAYLOAD bytes that ends with a NUL, every
 * string holding a '=', at most TRAX_MSG_MAX_FDS descriptors. A peer that
 * sends anything else is disconnected; nothing it sends can make the
 * receiver allocate more than that bound or read out of it.
 *
 *	struct trax_msg m;
 *	trax_msg_init(&m, TRAX_MSG_CREATE);
 *	trax_msg_add(&m, "name", "%s", name);
 *	trax_msg_send(fd, &m, NULL, 0);
 *	trax_msg_free(&m);
 */
#ifndef TRAX_PROTO_H
#define TRAX_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRAX_PROTO_MAGIC   0x54524158u /* "TRAX" */
#define TRAX_PROTO_VERSION 1u

#define TRAX_MSG_MAX_PAYLOAD (4u << 20)
#define TRAX_MSG_MAX_FDS     16u

/*
 * Message types. Requests from the `trax` command get one reply
 * (TRAX_MSG_REPLY); the types from and to applications are listed with
 * their direction.
 */
enum trax_msg_type {
	TRAX_MSG_REPLY = 1, /* status=0|errno-name, error=TEXT, then records */

	/* trax command -> traxd */
	TRAX_MSG_CREATE = 16,
	TRAX_MSG_DESTROY,
	TRAX_MSG_LIST,
	TRAX_MSG_ENABLE_CHANNEL,
	TRAX_MSG_ENABLE_EVENT,
	TRAX_MSG_DISABLE_EVENT,
	TRAX_MSG_ADD_CONTEXT,
	TRAX_MSG_START,
	TRAX_MSG_STOP,
	TRAX_MSG_SNAPSHOT_RECORD,
	TRAX_MSG_TRACK,
	TRAX_MSG_UNTRACK,
	TRAX_MSG_STATUS,
	TRAX_MSG_DISABLE_CHANNEL,

	/* application -> traxd */
	TRAX_MSG_APP_HELLO = 64,
	TRAX_MSG_APP_EVENTS, /* event descriptions (more may follow: dlopen) */
	TRAX_MSG_APP_READY,  /* all it has is described: traxd may configure it */
	TRAX_MSG_APP_ACK,    /* an order was carried out */

	/* traxd -> application */
	TRAX_MSG_APP_REGISTERED = 96, /* configured: the application may go on */
	TRAX_MSG_APP_CHANNEL,	      /* map a buffer set (fd: shared memory) */
	TRAX_MSG_APP_BIND,	      /* record events in a channel, with these ids */
	TRAX_MSG_APP_UNBIND,	      /* stop recording events in a channel */
	TRAX_MSG_APP_CHANNEL_DEL,     /* forget a channel */
	TRAX_MSG_APP_FLUSH,	      /* close the current packets of a channel */
	TRAX_MSG_APP_STATEDUMP,	      /* emit the lttng_ust_statedump events */
};

/* A message being built or one received. */
struct trax_msg {
	uint16_t type;
	uint32_t seq;
	char *data; /* payload: "k=v\0k=v\0..." */
	uint32_t len, cap;
	int fds[TRAX_MSG_MAX_FDS]; /* received descriptors, -1 when taken */
	unsigned int nfds;
	bool oom; /* an add failed: the message must not be sent */
};

void trax_msg_init(struct trax_msg *m, uint16_t type);
/* Frees the payload and closes the descriptors not taken. */
void trax_msg_free(struct trax_msg *m);
/* Appends key=value (printf format); false when out of memory or too large. */
bool trax_msg_add(struct trax_msg *m, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool trax_msg_add_u64(struct trax_msg *m, const char *key, uint64_t v);

/*
 * Sends m with nfds descriptors; 0, or -errno (EPIPE when the peer is
 * gone; ENOMEM when m->oom). Never raises SIGPIPE.
 */
int trax_msg_send(int sock, const struct trax_msg *m, const int *fds, unsigned int nfds);

/*
 * Receives one message into m (initialized by the call), waiting at most
 * timeout_ms (-1: no limit). 0; -ETIMEDOUT; -ECONNRESET when the peer closed
 * the connection; -EPROTO when what came is not a valid message (the
 * connection must then be dropped); other -errno.
 */
int trax_msg_recv(int sock, struct trax_msg *m, int timeout_ms);

/*
 * Reading a payload. Strings are visited in order; trax_msg_get returns
 * the value of the first string with this key (after `from`, when not
 * NULL: to walk repeated keys), NULL when there is none.
 */
const char *trax_msg_first(const struct trax_msg *m);
const char *trax_msg_next(const struct trax_msg *m, const char *kv);
const char *trax_msg_get(const struct trax_msg *m, const char *key);
const char *trax_msg_get_after(const struct trax_msg *m, const char *from, const char *key,
			       const char **found);
/* The value of key as an unsigned number; false when absent or not one. */
bool trax_msg_get_u64(const struct trax_msg *m, const char *key, uint64_t *v);
/* Whether kv is "key=...", and then its value. */
const char *trax_kv_value(const char *kv, const char *key);

/* Takes descriptor i out of m (the caller owns it); -1 when there is none. */
int trax_msg_take_fd(struct trax_msg *m, unsigned int i);

/* Connects to the Unix socket at path; the descriptor, or -errno. */
int trax_sock_connect(const char *path);
/* Listens on the Unix socket at path (replacing a stale one); fd or -errno. */
int trax_sock_listen(const char *path, int mode);
/* The peer's credentials (SO_PEERCRED): 0, or -errno. */
int trax_sock_peer(int sock, int *pid, int *uid, int *gid);

#endif /* TRAX_PROTO_H */
