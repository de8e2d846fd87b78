/*
 * test_proto.c - the daemon protocol's framing (src/common/proto.c):
 * messages and descriptors go through intact, and every malformed input
 * is refused with -EPROTO (or the right error) without reading past it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/proto.h"

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

struct raw_header {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t len;
	uint32_t seq;
};

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
	struct raw_header h = {magic, version, TRAX_MSG_LIST, len, 1};
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

int main(void)
{
	test_roundtrip();
	test_malformed();
	test_sockets();
	if (failures) {
		fprintf(stderr, "test_proto: %d failures\n", failures);
		return 1;
	}
	printf("test_proto: ok\n");
	return 0;
}
