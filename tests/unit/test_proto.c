/*
 * test_proto.c - the daemon protocol's framing (src/common/proto.c):
 * messages and descriptors go through intact, and every malformed input
 * is refused with -EPROTO (or the right error) without reading past it;
 * the incremental receiver (struct trax_rx) takes a message in any pieces,
 * never waits, and closes what it received when it gives up.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common/proto.h"

static void pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		perror("socketpair");
		exit(1);
	}
}

static void test_roundtrip(void)
{
	struct trax_msg m, r;
	int sv[2], p1[2], p2[2], fds[2];
	const char *kv, *found;
	uint64_t v;
	char buf[8];
	int n = 0;

	pair(sv);
	if (pipe(p1) || pipe(p2))
		exit(1);
	trax_msg_init(&m, TRAX_MSG_ENABLE_EVENT);
	m.seq = 42;
	CHECK(trax_msg_add(&m, "session", "%s", "my-session"));
	CHECK(trax_msg_add(&m, "name", "%s", "my_provider:*"));
	CHECK(trax_msg_add(&m, "name", "%s", "other:ev"));
	CHECK(trax_msg_add_u64(&m, "loglevel", 6));
	CHECK(trax_msg_add(&m, "empty", "%s", ""));
	CHECK(!trax_msg_add(&m, "bad=key", "x")); /* keys cannot hold '=' */
	m.oom = false;				  /* that failure is not a reason to stop here */
	fds[0] = p1[1];
	fds[1] = p2[0];
	CHECK(trax_msg_send(sv[0], &m, fds, 2) == 0);
	trax_msg_free(&m);

	CHECK(trax_msg_recv(sv[1], &r, 1000) == 0);
	CHECK(r.type == TRAX_MSG_ENABLE_EVENT);
	CHECK(r.seq == 42);
	CHECK(r.nfds == 2);
	CHECK(trax_msg_get(&r, "session") && !strcmp(trax_msg_get(&r, "session"), "my-session"));
	CHECK(trax_msg_get(&r, "name") && !strcmp(trax_msg_get(&r, "name"), "my_provider:*"));
	CHECK(trax_msg_get(&r, "empty") && !strcmp(trax_msg_get(&r, "empty"), ""));
	CHECK(trax_msg_get(&r, "missing") == NULL);
	CHECK(trax_msg_get(&r, "nam") == NULL); /* a prefix of a key is not the key */
	CHECK(trax_msg_get_u64(&r, "loglevel", &v) && v == 6);
	CHECK(!trax_msg_get_u64(&r, "session", &v));
	/* repeated keys, in order */
	CHECK(trax_msg_get_after(&r, NULL, "name", &found) && !strcmp(found, "name=my_provider:*"));
	CHECK(trax_msg_get_after(&r, found, "name", &found) && !strcmp(found, "name=other:ev"));
	CHECK(trax_msg_get_after(&r, found, "name", &found) == NULL);
	for (kv = trax_msg_first(&r); kv; kv = trax_msg_next(&r, kv))
		n++;
	CHECK(n == 5);
	/* the descriptors are the pipes' ends: data written to one comes out of the other */
	fds[0] = trax_msg_take_fd(&r, 0);
	fds[1] = trax_msg_take_fd(&r, 1);
	CHECK(trax_msg_take_fd(&r, 0) == -1);
	CHECK(write(fds[0], "abc", 3) == 3);
	CHECK(read(p1[0], buf, 3) == 3 && !memcmp(buf, "abc", 3));
	CHECK(write(p2[1], "xyz", 3) == 3);
	CHECK(read(fds[1], buf, 3) == 3 && !memcmp(buf, "xyz", 3));
	trax_msg_free(&r);
	close(fds[0]);
	close(fds[1]);
	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	close(p2[1]);

	/* an empty message, then a large one, back to back */
	trax_msg_init(&m, TRAX_MSG_APP_READY);
	CHECK(trax_msg_send(sv[0], &m, NULL, 0) == 0);
	trax_msg_free(&m);
	trax_msg_init(&m, TRAX_MSG_APP_EVENTS);
	for (int i = 0; i < 20000; i++)
		trax_msg_add(&m, "field", "1:field_%d:32:0:10:0:0:0:0:0:0:0:", i);
	CHECK(!m.oom && m.len > 500000);
	/* the receiver reads while the sender writes: more than a socket buffer */
	if (fork() == 0) {
		_exit(trax_msg_send(sv[0], &m, NULL, 0) == 0 ? 0 : 1);
	}
	CHECK(trax_msg_recv(sv[1], &r, 1000) == 0 && r.type == TRAX_MSG_APP_READY && r.len == 0);
	trax_msg_free(&r);
	CHECK(trax_msg_recv(sv[1], &r, 5000) == 0 && r.len == m.len &&
	      !memcmp(r.data, m.data, m.len));
	trax_msg_free(&r);
	trax_msg_free(&m);
	close(sv[0]);
	close(sv[1]);
}

/* Sends a raw header and payload, then reads what trax_msg_recv makes of it. */
static int recv_raw(uint32_t magic, uint16_t version, uint32_t len, const char *payload,
		    size_t plen, bool close_after)
{
	struct trax_msg_header h = {magic, version, TRAX_MSG_LIST, len, 1};
	struct trax_msg r;
	int sv[2], err;

	pair(sv);
	if (write(sv[0], &h, sizeof(h)) != sizeof(h) ||
	    (plen && write(sv[0], payload, plen) != (ssize_t)plen))
		exit(1);
	if (close_after)
		close(sv[0]);
	err = trax_msg_recv(sv[1], &r, 1000);
	if (err == 0)
		trax_msg_free(&r);
	if (!close_after)
		close(sv[0]);
	close(sv[1]);
	return err;
}

/* The protocol's numbers: decimal digits only, within the bound given. */
static void test_parse_u64(void)
{
	uint64_t v = 7;

	CHECK(trax_parse_u64("0", 0, &v) && v == 0);
	CHECK(trax_parse_u64("4294967295", UINT32_MAX, &v) && v == UINT32_MAX);
	CHECK(trax_parse_u64("18446744073709551615", UINT64_MAX, &v) && v == UINT64_MAX);
	v = 7;
	CHECK(!trax_parse_u64("4294967296", UINT32_MAX, &v) && v == 7);
	CHECK(!trax_parse_u64("18446744073709551616", UINT64_MAX, &v) && v == 7);
	CHECK(!trax_parse_u64("", UINT64_MAX, &v) && v == 7);
	CHECK(!trax_parse_u64(NULL, UINT64_MAX, &v) && v == 7);
	CHECK(!trax_parse_u64("+1", UINT64_MAX, &v) && v == 7);
	CHECK(!trax_parse_u64("-1", UINT64_MAX, &v) && v == 7);
	CHECK(!trax_parse_u64(" 1", UINT64_MAX, &v) && v == 7);
	CHECK(!trax_parse_u64("1x", UINT64_MAX, &v) && v == 7);
}

static void test_malformed(void)
{
	struct trax_msg m, r;
	int sv[2];

	/* well formed, as a reference */
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, 4, "a=b", 4, true) == 0);
	CHECK(recv_raw(0x12345678, TRAX_PROTO_VERSION, 4, "a=b", 4, true) == -EPROTO);
	CHECK(recv_raw(TRAX_PROTO_MAGIC, 99, 4, "a=b", 4, true) == -EPROTO);
	/* a length past the limit is refused before anything is allocated or read */
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_MAX_PAYLOAD + 1, "", 0,
		       false) == -EPROTO);
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, 0xffffffffu, "", 0, false) == -EPROTO);
	/* payload without its final NUL, without '=', with an empty key */
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, 3, "a=b", 3, true) == -EPROTO);
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, 4, "abc", 4, true) == -EPROTO);
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, 4, "=bc", 4, true) == -EPROTO);
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, 8, "a=b\0\0c=d", 8, true) == -EPROTO);
	/* a payload cut short by the peer closing */
	CHECK(recv_raw(TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, 100, "a=b", 4, true) == -EPROTO);

	/* nothing at all: the peer closed, or nothing came in time */
	pair(sv);
	close(sv[0]);
	CHECK(trax_msg_recv(sv[1], &r, 1000) == -ECONNRESET);
	close(sv[1]);
	pair(sv);
	CHECK(trax_msg_recv(sv[1], &r, 50) == -ETIMEDOUT);
	/* half a header, then the peer goes */
	CHECK(write(sv[0], "TRAX", 4) == 4);
	close(sv[0]);
	CHECK(trax_msg_recv(sv[1], &r, 1000) == -EPROTO);
	close(sv[1]);

	/* sending: too many descriptors, or a message that failed to build */
	pair(sv);
	trax_msg_init(&m, TRAX_MSG_LIST);
	{
		int fds[TRAX_MSG_MAX_FDS + 1] = {0};

		CHECK(trax_msg_send(sv[0], &m, fds, TRAX_MSG_MAX_FDS + 1) == -EINVAL);
	}
	m.oom = true;
	CHECK(trax_msg_send(sv[0], &m, NULL, 0) == -ENOMEM);
	trax_msg_free(&m);
	/* a peer that is gone: an error, never SIGPIPE */
	close(sv[1]);
	trax_msg_init(&m, TRAX_MSG_LIST);
	CHECK(trax_msg_send(sv[0], &m, NULL, 0) == -EPIPE);
	trax_msg_free(&m);
	close(sv[0]);
}

static void test_sockets(void)
{
	char dir[] = "/tmp/trax-proto-XXXXXX", path[128];
	int l, c, s, uid, gid, pid;
	struct trax_msg m, r;

	if (!mkdtemp(dir))
		exit(1);
	snprintf(path, sizeof(path), "%s/x.sock", dir);
	CHECK(trax_sock_connect(path) == -ENOENT);
	l = trax_sock_listen(path, 0600);
	CHECK(l >= 0);
	/* listening again on the same path replaces a stale socket */
	c = trax_sock_connect(path);
	CHECK(c >= 0);
	s = accept(l, NULL, NULL);
	CHECK(s >= 0);
	CHECK(trax_sock_peer(s, &pid, &uid, &gid) == 0 && pid == getpid() &&
	      (uid_t)uid == geteuid() && (gid_t)gid == getegid());
	trax_msg_init(&m, TRAX_MSG_STATUS);
	trax_msg_add(&m, "session", "s");
	CHECK(trax_msg_send(c, &m, NULL, 0) == 0);
	CHECK(trax_msg_recv(s, &r, 1000) == 0 && r.type == TRAX_MSG_STATUS);
	trax_msg_free(&m);
	trax_msg_free(&r);
	close(c);
	close(s);
	close(l);
	unlink(path);
	rmdir(dir);
	CHECK(
	    trax_sock_connect("/tmp/a-path-that-is-much-too-long-for-a-unix-socket-address-"
			      "because-sun-path-holds-only-a-hundred-and-eight-bytes-xxxxxxxxxx") ==
	    -ENAMETOOLONG);
}

/* ---- the incremental receiver ---- */

/* Writes len bytes, with nfds descriptors (copies of fd) attached when nfds > 0. */
static void send_piece(int sock, const void *buf, size_t len, int nfds, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 250)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {(void *)buf, len};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};

	if (nfds > 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		for (int i = 0; i < nfds; i++)
			memcpy(CMSG_DATA(c) + i * sizeof(int), &fd, sizeof(int));
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != (ssize_t)len) {
		perror("sendmsg");
		exit(1);
	}
}

/* A raw frame: header then payload, in buf; its length. */
static size_t frame(char *buf, uint32_t magic, uint16_t version, uint16_t type, uint32_t seq,
		    const char *payload, uint32_t plen)
{
	struct trax_msg_header h = {magic, version, type, plen, seq};

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), payload, plen);
	return sizeof(h) + plen;
}

/* Whether every copy of a pipe's write end is closed: its read end says EOF. */
static bool write_end_closed(int rd)
{
	char c;
	int fl = fcntl(rd, F_GETFL);

	fcntl(rd, F_SETFL, fl | O_NONBLOCK);
	return read(rd, &c, 1) == 0;
}

static const char kv2[] = "a=1\0name=two";

/* Byte by byte, descriptors with the first byte: -EAGAIN until the last one. */
static void test_rx_bytewise(void)
{
	struct trax_rx rx;
	struct trax_msg r;
	char buf[64], c;
	size_t n =
	    frame(buf, TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_CREATE, 9, kv2, sizeof(kv2));
	int sv[2], p[2], fd;

	pair(sv);
	if (pipe(p))
		exit(1);
	trax_rx_init(&rx);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN && trax_rx_bytes(&rx) == 0);
	for (size_t i = 0; i < n; i++) {
		send_piece(sv[0], buf + i, 1, i == 0 ? 2 : 0, p[1]);
		if (i + 1 < n) {
			CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN);
			CHECK(trax_rx_bytes(&rx) == i + 1);
			/* nothing more came: still waiting, nothing lost */
			CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN);
			CHECK(trax_rx_bytes(&rx) == i + 1);
		}
	}
	CHECK(trax_rx_recv(sv[1], &rx, &r) == 0);
	CHECK(trax_rx_bytes(&rx) == 0);
	CHECK(r.type == TRAX_MSG_CREATE && r.seq == 9 && r.len == sizeof(kv2));
	CHECK(trax_msg_get(&r, "name") && !strcmp(trax_msg_get(&r, "name"), "two"));
	CHECK(r.nfds == 2);
	fd = trax_msg_take_fd(&r, 1);
	CHECK(write(fd, "q", 1) == 1 && read(p[0], &c, 1) == 1 && c == 'q');
	close(fd);
	trax_msg_free(&r);
	/* the other copy was closed with the message */
	close(p[1]);
	CHECK(write_end_closed(p[0]));
	close(p[0]);
	/* nothing more: waiting for the next message; then the peer goes */
	CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN);
	close(sv[0]);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == -ECONNRESET);
	trax_rx_free(&rx);
	close(sv[1]);
}

/* Descriptors with the header, payload later; or with the payload, not the header. */
static void test_rx_fds_apart(void)
{
	struct trax_rx rx;
	struct trax_msg r;
	char buf[64];
	size_t n = frame(buf, TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_APP_CHANNEL, 3, kv2,
			 sizeof(kv2));
	int sv[2], p[2];

	pair(sv);
	if (pipe(p))
		exit(1);
	trax_rx_init(&rx);
	send_piece(sv[0], buf, sizeof(struct trax_msg_header), 1, p[1]);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN);
	CHECK(trax_rx_bytes(&rx) == sizeof(struct trax_msg_header) && rx.m.nfds == 1);
	send_piece(sv[0], buf + sizeof(struct trax_msg_header), 5, 0, -1);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN);
	send_piece(sv[0], buf + sizeof(struct trax_msg_header) + 5,
		   n - sizeof(struct trax_msg_header) - 5, 0, -1);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == 0 && r.nfds == 1 && r.fds[0] >= 0);
	CHECK(r.type == TRAX_MSG_APP_CHANNEL && trax_msg_get(&r, "a"));
	trax_msg_free(&r);
	/* with the payload's last piece */
	send_piece(sv[0], buf, sizeof(struct trax_msg_header) + 3, 0, -1);
	send_piece(sv[0], buf + sizeof(struct trax_msg_header) + 3,
		   n - sizeof(struct trax_msg_header) - 3, 3, p[1]);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == 0 && r.nfds == 3);
	trax_msg_free(&r);
	close(p[1]);
	CHECK(write_end_closed(p[0]));
	close(p[0]);
	trax_rx_free(&rx);
	close(sv[0]);
	close(sv[1]);
}

/* A message larger than a socket buffer, read as it comes, in many pieces. */
static void test_rx_many_reads(void)
{
	struct trax_msg m, r;
	struct trax_rx rx;
	int sv[2], err, again = 0, status;
	pid_t pid;

	pair(sv);
	trax_msg_init(&m, TRAX_MSG_APP_EVENTS);
	m.seq = 77;
	for (int i = 0; i < 40000; i++)
		trax_msg_add(&m, "field", "1:field_%d:32:0:10:0:0:0:0:0:0:0:", i);
	CHECK(!m.oom && m.len > 1000000);
	pid = fork();
	if (pid == 0) {
		/* in pieces of a few KiB, with pauses: the receiver sees them apart */
		int fl = 4096;

		setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &fl, sizeof(fl));
		_exit(trax_msg_send(sv[0], &m, NULL, 0) == 0 ? 0 : 1);
	}
	trax_rx_init(&rx);
	for (;;) {
		struct pollfd pf = {.fd = sv[1], .events = POLLIN};

		err = trax_rx_recv(sv[1], &rx, &r);
		if (err != -EAGAIN)
			break;
		again++;
		if (poll(&pf, 1, 5000) != 1)
			break;
	}
	CHECK(err == 0);
	(void)again; /* (how the pieces fall depends on the scheduler) */
	if (err == 0) {
		CHECK(r.type == TRAX_MSG_APP_EVENTS && r.seq == 77 && r.len == m.len &&
		      !memcmp(r.data, m.data, m.len));
		trax_msg_free(&r);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* the same, in pieces of 997 bytes (the first ends inside the header: 7 then 997...) */
	{
		struct trax_msg_header h = {TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, m.type, 300000,
					    78};
		size_t total, off = 0, step = 7;
		char *wire;

		/* the strings of m up to 300000 bytes */
		while (m.data[h.len - 1] != '\0')
			h.len--;
		total = sizeof(h) + h.len;
		wire = malloc(total);
		memcpy(wire, &h, sizeof(h));
		memcpy(wire + sizeof(h), m.data, h.len);
		again = 0;
		while (off < total) {
			size_t k = total - off < step ? total - off : step;

			send_piece(sv[0], wire + off, k, 0, -1);
			off += k;
			step = 997;
			err = trax_rx_recv(sv[1], &rx, &r);
			if (off < total) {
				CHECK(err == -EAGAIN && trax_rx_bytes(&rx) == off);
				again += err == -EAGAIN;
			}
		}
		CHECK(again > 300);
		CHECK(err == 0 && r.seq == 78 && r.len == h.len &&
		      !memcmp(r.data, wire + sizeof(h), h.len));
		if (err == 0)
			trax_msg_free(&r);
		free(wire);
	}
	trax_msg_free(&m);
	trax_rx_free(&rx);
	close(sv[0]);
	close(sv[1]);
}

/* Two messages (and part of a third) in one write: each call takes one, never more. */
static void test_rx_two_in_one(void)
{
	struct trax_rx rx;
	struct trax_msg r;
	char buf[256];
	size_t n = 0;
	int sv[2];

	pair(sv);
	n += frame(buf + n, TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_APP_HELLO, 1, kv2,
		   sizeof(kv2));
	n += frame(buf + n, TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_APP_READY, 2, "", 0);
	n += frame(buf + n, TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_APP_ACK, 3, "s=0", 4);
	send_piece(sv[0], buf, n - 2, 0, -1);
	trax_rx_init(&rx);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == 0 && r.type == TRAX_MSG_APP_HELLO && r.seq == 1 &&
	      r.len == sizeof(kv2));
	trax_msg_free(&r);
	CHECK(trax_rx_bytes(&rx) == 0);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == 0 && r.type == TRAX_MSG_APP_READY && r.seq == 2 &&
	      r.len == 0 && r.data == NULL);
	trax_msg_free(&r);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN);
	CHECK(trax_rx_bytes(&rx) == sizeof(struct trax_msg_header) + 2);
	/* the end of the third; the peer closing in the middle of a fourth is an error */
	send_piece(sv[0], buf + n - 2, 2, 0, -1);
	send_piece(sv[0], buf, 20, 0, -1);
	close(sv[0]);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == 0 && r.type == TRAX_MSG_APP_ACK && r.seq == 3);
	trax_msg_free(&r);
	CHECK(trax_rx_recv(sv[1], &rx, &r) == -EPROTO);
	CHECK(trax_rx_bytes(&rx) == 0);
	trax_rx_free(&rx);
	close(sv[1]);
}

/*
 * Sends pieces (each with nfds copies of a pipe's write end), and returns
 * what the receiver makes of them once the last has come; checks that it
 * then holds none of those descriptors.
 */
static int rx_error(const char *const *pieces, const size_t *lens, const int *nfds, size_t n,
		    bool close_after)
{
	struct trax_rx rx;
	struct trax_msg r;
	int sv[2], p[2], err = -EAGAIN;

	pair(sv);
	if (pipe(p))
		exit(1);
	trax_rx_init(&rx);
	for (size_t i = 0; i < n; i++) {
		send_piece(sv[0], pieces[i], lens[i], nfds[i], p[1]);
		err = trax_rx_recv(sv[1], &rx, &r);
		if (err != -EAGAIN)
			break;
	}
	if (close_after && err == -EAGAIN) {
		close(sv[0]);
		sv[0] = -1;
		err = trax_rx_recv(sv[1], &rx, &r);
	}
	if (err == 0)
		trax_msg_free(&r);
	else if (err != -EAGAIN)
		CHECK(trax_rx_bytes(&rx) == 0 && rx.m.nfds == 0 && rx.m.data == NULL);
	else
		trax_rx_free(&rx); /* given up on */
	close(p[1]);
	/* every descriptor received is closed (or the message kept and freed them) */
	CHECK(write_end_closed(p[0]));
	close(p[0]);
	trax_rx_free(&rx);
	if (sv[0] >= 0)
		close(sv[0]);
	close(sv[1]);
	return err;
}

static void test_rx_errors(void)
{
	struct trax_msg_header h = {TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, TRAX_MSG_LIST, 4, 1};
	struct trax_msg_header bad = h, big = h, long_h = h;
	const char *pc[3];
	size_t len[3];
	int nf[3];

	/* the reference: fine */
	pc[0] = (const char *)&h, len[0] = sizeof(h), nf[0] = 2;
	pc[1] = "a=b", len[1] = 4, nf[1] = 0;
	CHECK(rx_error(pc, len, nf, 2, false) == 0);
	/* wrong magic, wrong version: refused at the header, descriptors closed */
	bad.magic = 0x4e54544c;
	pc[0] = (const char *)&bad;
	CHECK(rx_error(pc, len, nf, 1, false) == -EPROTO);
	bad.magic = TRAX_PROTO_MAGIC;
	bad.version = 2;
	CHECK(rx_error(pc, len, nf, 1, false) == -EPROTO);
	/* a length past the limit: refused before any payload */
	big.len = TRAX_MSG_MAX_PAYLOAD + 1;
	pc[0] = (const char *)&big;
	CHECK(rx_error(pc, len, nf, 1, false) == -EPROTO);
	/* payloads that are not key=value strings */
	pc[0] = (const char *)&h;
	pc[1] = "a=bc";
	CHECK(rx_error(pc, len, nf, 2, false) == -EPROTO);
	pc[1] = "ab\0";
	CHECK(rx_error(pc, len, nf, 2, false) == -EPROTO);
	pc[1] = "=b\0";
	CHECK(rx_error(pc, len, nf, 2, false) == -EPROTO);
	/* the peer goes in the middle of the header, of the payload */
	len[0] = 7;
	CHECK(rx_error(pc, len, nf, 1, true) == -EPROTO);
	len[0] = sizeof(h);
	pc[1] = "a=b", len[1] = 2;
	CHECK(rx_error(pc, len, nf, 2, true) == -EPROTO);
	len[1] = 4;
	/* more than 16 descriptors: in one piece, or over several */
	nf[0] = 17;
	CHECK(rx_error(pc, len, nf, 2, false) == -EPROTO);
	nf[0] = 200;
	CHECK(rx_error(pc, len, nf, 2, false) == -EPROTO);
	nf[0] = 16, nf[1] = 1;
	CHECK(rx_error(pc, len, nf, 2, false) == -EPROTO);
	pc[0] = (const char *)&h, len[0] = 8, nf[0] = 10;
	pc[1] = (const char *)&h + 8, len[1] = 8, nf[1] = 7;
	CHECK(rx_error(pc, len, nf, 2, false) == -EPROTO);
	nf[1] = 6;
	pc[2] = "a=b", len[2] = 4, nf[2] = 0;
	CHECK(rx_error(pc, len, nf, 3, false) == 0);
	/* given up on (trax_rx_free) in the middle: descriptors closed */
	pc[0] = (const char *)&h, len[0] = sizeof(h), nf[0] = 3;
	pc[1] = "a=", len[1] = 2, nf[1] = 1;
	CHECK(rx_error(pc, len, nf, 2, false) == -EAGAIN);
	/* an announced length costs what came, not what was announced */
	{
		struct trax_rx rx;
		struct trax_msg r;
		int sv[2];

		long_h.len = TRAX_MSG_MAX_PAYLOAD;
		pair(sv);
		trax_rx_init(&rx);
		send_piece(sv[0], &long_h, sizeof(long_h), 0, -1);
		send_piece(sv[0], "k=", 2, 0, -1);
		CHECK(trax_rx_recv(sv[1], &rx, &r) == -EAGAIN);
		CHECK(trax_rx_bytes(&rx) == sizeof(long_h) + 2 && rx.m.cap <= (256u << 10));
		trax_rx_free(&rx);
		CHECK(trax_rx_bytes(&rx) == 0 && rx.m.data == NULL);
		close(sv[0]);
		close(sv[1]);
	}
}

int main(void)
{
	test_roundtrip();
	test_parse_u64();
	test_malformed();
	test_sockets();
	test_rx_bytewise();
	test_rx_fds_apart();
	test_rx_many_reads();
	test_rx_two_in_one();
	test_rx_errors();
	if (!failures)
		printf("test_proto: ok\n");
	return CHECK_RESULT();
}
