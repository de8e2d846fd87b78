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
	TRAX_MSG_REGENERATE_STATEDUMP,

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

/*
 * The KIND of an APP_EVENTS field= (docs/daemon.md): the numbers of the
 * probe ABI's enum trax_field_kind, which libtrax-ust sends as they are
 * (daemon-client.c checks they agree) and traxd reads without that ABI.
 */
enum trax_proto_field_kind {
	TRAX_PROTO_FIELD_INTEGER = 1,
	TRAX_PROTO_FIELD_FLOAT,
	TRAX_PROTO_FIELD_STRING,
	TRAX_PROTO_FIELD_ARRAY,
	TRAX_PROTO_FIELD_SEQUENCE,
	TRAX_PROTO_FIELD_ENUM,
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
 * timeout_ms (-1: no limit) for it to begin; once part of it has come, the
 * rest must follow within 5 s. 0; -ETIMEDOUT (nothing came); -ECONNRESET
 * when the peer closed the connection between messages; -EPROTO when what
 * came is not a valid message, or was cut short (the connection must then
 * be dropped); other -errno. For the blocking users (the `trax` command,
 * libtrax-ust): a server of many peers uses struct trax_rx instead.
 */
int trax_msg_recv(int sock, struct trax_msg *m, int timeout_ms);

/*
 * Incremental, non-blocking reception: what a server that must never wait
 * for one peer uses (traxd). Each connection keeps a struct trax_rx: the
 * header bytes so far, then the payload so far (its buffer grows with what
 * comes, up to the length announced, never past TRAX_MSG_MAX_PAYLOAD) and
 * the descriptors received so far, whichever bytes they came with.
 *
 *	struct trax_rx rx;
 *	trax_rx_init(&rx);
 *	...			  (the socket is readable)
 *	err = trax_rx_recv(fd, &rx, &m);
 *	if (err == 0)		  m is a whole message: use it, trax_msg_free(&m)
 *	else if (err == -EAGAIN)  nothing more for now (rx keeps what came)
 *	else			  drop the connection (rx holds nothing any more)
 *	...
 *	trax_rx_free(&rx);	  when the connection goes
 *
 * trax_rx_recv reads without waiting (MSG_DONTWAIT: the socket may stay
 * blocking for sends) as much as the current message still lacks, never
 * more: what follows it stays in the socket, for the next call (a
 * level-triggered poll says it is there). It returns
 *   0		a message is complete: m is filled (and owned by the caller) as
 *		trax_msg_recv fills it, after the same checks; rx is empty again;
 *   -EAGAIN	the message is not complete yet (trax_rx_bytes tells whether
 *		anything of it came);
 *   -ECONNRESET the peer closed the connection between two messages;
 *   -EPROTO	invalid (magic, version, length, payload, more than
 *		TRAX_MSG_MAX_FDS descriptors), or the peer closed the connection
 *		in the middle of a message;
 *   other -errno (-ENOMEM...).
 * On every error the descriptors received are closed and the buffer freed.
 * m is written only when 0 is returned. Deadlines are the caller's: this
 * never looks at a clock.
 */
#define TRAX_MSG_HEADER_SIZE 16u
/* The header as sent, in the host's byte order (both ends share a machine). */
struct trax_msg_header {
	uint32_t magic; /* TRAX_PROTO_MAGIC */
	uint16_t version;
	uint16_t type;
	uint32_t len; /* payload bytes after the header */
	uint32_t seq;
};

struct trax_rx {
	unsigned char hdr[TRAX_MSG_HEADER_SIZE];
	uint32_t hdr_got;  /* header bytes received */
	uint32_t got;	   /* payload bytes received (once the header is whole) */
	struct trax_msg m; /* the message being received: type, seq, data, len, fds */
};

void trax_rx_init(struct trax_rx *rx);
int trax_rx_recv(int sock, struct trax_rx *rx, struct trax_msg *m);
/* Bytes of the current message received so far (0: between two messages). */
size_t trax_rx_bytes(const struct trax_rx *rx);
/* Closes the descriptors and frees what is held of a message not complete. */
void trax_rx_free(struct trax_rx *rx);

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
/*
 * s as a decimal number in [0, max]: digits only, no sign, no space. False
 * (and *v untouched) when s is NULL, empty, or not such a number.
 */
bool trax_parse_u64(const char *s, uint64_t max, uint64_t *v);
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
