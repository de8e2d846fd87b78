/*
 * fuzz_proto.c - libFuzzer target for the framing of traxd's messages
 * (src/common/proto.c), which every program of a traced system applies to
 * what its peers send: traxd to the `trax` command and to applications, the
 * applications to traxd.
 *
 * FUZZ-SOURCES: src/common/proto.c
 *
 * Input: one byte P, then the bytes S. Three things are done with them:
 *
 *  1. S are the bytes arriving on a socket (a socket pair; written whole,
 *     in 1, 2, 4 or 8 pieces as bits 5-6 of P say, the first piece with
 *     P & 31 descriptors attached, and the second too when bit 7 is set;
 *     then the writing end is closed):
 *     trax_msg_recv() is called until it fails. Every message received is
 *     walked (trax_msg_first/next, trax_kv_value, trax_msg_get,
 *     trax_msg_get_after, trax_msg_get_u64, trax_msg_take_fd), checked
 *     against what proto.h promises (strings inside the payload, each with
 *     a key and a '='), and freed. No descriptor may be left open after.
 *
 *  2. The same bytes (up to 64 KiB) arrive 1 to 23 at a time on a
 *     non-blocking socket and go through the incremental receiver traxd
 *     uses (struct trax_rx, trax_rx_recv), called after each piece until
 *     -EAGAIN: it must deliver the same messages (type, sequence, payload,
 *     descriptors) and end with the same error as 1, and at each -EAGAIN
 *     hold exactly the bytes written that no whole message took (it reads
 *     all there is, never past the message it assembles).
 *
 *  3. Round trip: a message is built from S with trax_msg_init/add, sent
 *     with P & 31 descriptors over a socket pair and received; what comes
 *     out must be what went in (type, sequence, every key=value in order,
 *     the descriptors' files), and every trax_msg_add must succeed or fail
 *     exactly as proto.h says (empty key, '=' in the key, payload over
 *     4 MiB); more than 16 descriptors must be refused. S[0..1] is the
 *     type, S[2..5] the sequence, then S is split at '\n' into pieces:
 *     "KEY\tVALUE" (no tab: VALUE empty); "\x01" + bytes E, H, L: key "big",
 *     a value of (H * 256 + L) << (E & 7) bytes 'x' (up to 8 MiB);
 *     "\x02" + 8 bytes V + KEY: trax_msg_add_u64(KEY, V).
 *
 * Any mismatch abort()s. Messages larger than what a socket buffer holds
 * are sent from a helper thread; reads use short timeouts, and a truncated
 * message ends at the closed writing end, so no input can make it hang.
 *
 * Built and run by tools/fuzz.sh: `tools/fuzz.sh 60 proto`; seeds in
 * tests/fuzz/corpus/proto/ (valid messages, several in a row, with
 * repeated keys, numbers, descriptors).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK_ABORT
#include "check.h"
#include "fds.h"
#include "common/proto.h"

#define MAX_STREAM	(1u << 20)  /* bytes of S used */
#define DIRECT_LIMIT	(48u << 10) /* larger writes go through a helper thread */
#define MAX_PIECES	4096u
#define MAX_MSGS	4096u	    /* messages of part 1 that part 2 compares */
#define MAX_INCREMENTAL (64u << 10) /* part 2 only for inputs up to this */

static int null_fd = -1; /* /dev/null: the file every descriptor sent refers to */
static struct stat null_st;

/* ---- sending whole buffers, from a thread when they do not fit a socket buffer ---- */

struct writer {
	int sock;
	const uint8_t *data;
	size_t size;
	unsigned int pieces;	    /* 1, 2, 4, 8 */
	unsigned int nfds;	    /* attached to the first piece */
	size_t second_at;	    /* not 0: nfds attached to the piece there too */
	const struct trax_msg *msg; /* else: trax_msg_send(msg, msg_fds, nfds) */
	const int *msg_fds;
	int result;
};

static int send_fds(int sock, const uint8_t *p, size_t n, unsigned int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 32)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {(void *)p, n};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	size_t sent = 0;

	if (nfds) {
		struct cmsghdr *c;
		int fds[32];

		for (unsigned int i = 0; i < nfds; i++)
			fds[i] = null_fd;
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	while (sent < n || (nfds && n == 0)) {
		ssize_t r = sendmsg(sock, &mh, MSG_NOSIGNAL);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		sent += (size_t)r;
		iov.iov_base = (char *)p + sent;
		iov.iov_len = n - sent;
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
	}
	return 0;
}

static void *writer_run(void *arg)
{
	struct writer *w = arg;

	if (w->msg) {
		w->result = trax_msg_send(w->sock, w->msg, w->msg_fds, w->nfds);
		return NULL;
	}
	w->result = 0;
	for (unsigned int i = 0; i < w->pieces && !w->result; i++) {
		size_t from = w->size * i / w->pieces, to = w->size * (i + 1) / w->pieces;

		w->result = send_fds(w->sock, w->data + from, to - from,
				     i == 0 || (i == 1 && w->second_at) ? w->nfds : 0);
	}
	shutdown(w->sock, SHUT_WR); /* the reader sees the end */
	return NULL;
}

/* ---- 1. any bytes on the socket ---- */

/* Checks what proto.h promises of a message received, reading it all. */
static void walk(struct trax_msg *m)
{
	const char *kv, *first_key_kv = NULL;
	char key[256];
	unsigned int n = 0;

	CHECK(m->nfds <= TRAX_MSG_MAX_FDS);
	CHECK(m->len <= TRAX_MSG_MAX_PAYLOAD);
	CHECK((m->len == 0) == (trax_msg_first(m) == NULL));
	for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv)) {
		size_t left, len;
		const char *eq, *v, *found = NULL;

		CHECK(kv >= m->data && kv < m->data + m->len);
		left = (size_t)(m->data + m->len - kv);
		len = strnlen(kv, left);
		CHECK(len < left); /* NUL-terminated inside the payload */
		eq = memchr(kv, '=', len);
		CHECK(eq && eq != kv);
		if ((size_t)(eq - kv) < sizeof(key)) {
			memcpy(key, kv, (size_t)(eq - kv));
			key[eq - kv] = 0;
			v = trax_kv_value(kv, key);
			CHECK(v == eq + 1);
			/* the first string with this key is this one or an earlier one */
			v = trax_msg_get_after(m, NULL, key, &found);
			CHECK(v && found && found <= kv && v == found + (eq - kv) + 1);
			if (!first_key_kv)
				first_key_kv = kv;
		}
		n++;
	}
	/* every string with the first key, through trax_msg_get_after */
	if (first_key_kv) {
		const char *eq = strchr(first_key_kv, '='), *at = NULL;
		unsigned int seen = 0, expect = 0;
		uint64_t u;

		memcpy(key, first_key_kv, (size_t)(eq - first_key_kv));
		key[eq - first_key_kv] = 0;
		for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv))
			expect += trax_kv_value(kv, key) != NULL;
		while (trax_msg_get_after(m, at, key, &at))
			seen++;
		CHECK(seen == expect && seen >= 1);
		(void)trax_msg_get_u64(m, key, &u);
	}
	{
		static const char *const keys[] = {"seq", "status", "handle", "events", "size"};
		uint64_t u;

		for (unsigned int i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (trax_msg_get_u64(m, keys[i], &u))
				CHECK(trax_msg_get(m, keys[i]) != NULL);
	}
	for (unsigned int i = 0; i < m->nfds; i++) {
		int fd = trax_msg_take_fd(m, i);

		if (fd >= 0)
			close(fd);
		CHECK(trax_msg_take_fd(m, i) == -1);
	}
	CHECK(trax_msg_take_fd(m, m->nfds) == -1);
	(void)n;
}

/* What part 1 received, for part 2 to compare with. */
struct summary {
	uint16_t type;
	uint32_t seq, len;
	unsigned int nfds;
	uint64_t hash;
};

static struct summary got[MAX_MSGS];
static unsigned int nr_got; /* messages received (MAX_MSGS: at least) */
static int got_err;	    /* how part 1 ended */

static uint64_t fnv(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)p[i]) * 1099511628211ull;
	return h;
}

static struct summary summarize(const struct trax_msg *m)
{
	struct summary x = {m->type, m->seq, m->len, m->nfds, fnv(m->data, m->len)};

	return x;
}

/*
 * Bit 7 of P: the second piece of part 1 carries descriptors too (when the
 * first two are not empty); where it begins, or 0.
 */
static size_t second_fds_at(uint8_t plan, size_t size)
{
	unsigned int pieces = 1u << ((plan >> 5) & 3);
	size_t at = size / pieces, end = size * 2 / pieces;

	return (plan & 0x80) && (plan & 31) && pieces >= 2 && at > 0 && end > at ? at : 0;
}

static void fuzz_stream(uint8_t plan, const uint8_t *s, size_t size)
{
	struct writer w = {.data = s,
			   .size = size,
			   .pieces = 1u << ((plan >> 5) & 3),
			   .nfds = plan & 31u,
			   .second_at = second_fds_at(plan, size)};
	pthread_t t;
	bool threaded = size > DIRECT_LIMIT;
	int sv[2], err;
	unsigned int msgs = 0;
	int big = 4 << 20;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	w.sock = sv[0];
	if (threaded) {
		if (pthread_create(&t, NULL, writer_run, &w)) {
			close(sv[0]);
			close(sv[1]);
			return;
		}
	} else {
		writer_run(&w);
		close(sv[0]);
	}
	for (;;) {
		struct trax_msg m;

		err = trax_msg_recv(sv[1], &m, threaded ? 2000 : 100);
		if (err) {
			/* what a failed call leaves: nothing to free */
			CHECK(m.data == NULL && m.nfds == 0);
			break;
		}
		if (msgs < MAX_MSGS)
			got[msgs] = summarize(&m);
		msgs++;
		walk(&m);
		trax_msg_free(&m);
	}
	/* never a timeout: everything was written and the end closed */
	CHECK(err != -ETIMEDOUT);
	nr_got = msgs < MAX_MSGS ? msgs : MAX_MSGS;
	got_err = err;
	if (threaded) {
		close(sv[1]); /* a writer still blocked gets EPIPE */
		pthread_join(t, NULL);
		close(sv[0]);
	} else {
		close(sv[1]);
	}
}

/* ---- 2. the same bytes a few at a time, through struct trax_rx ---- */

/*
 * S is written in pieces of 1 to 23 bytes (with descriptors where part 1
 * had them: the same bytes carry them) on a non-blocking socket, and trax_rx_recv() is called
 * after each piece until it says -EAGAIN; then the writing end is closed
 * and it is called until it fails. It must deliver the messages part 1
 * received, and end as part 1 ended; and since it reads all there is but
 * never past the message it assembles, at each -EAGAIN trax_rx_bytes() is
 * exactly what was written less the whole messages taken.
 */
static void fuzz_incremental(uint8_t plan, const uint8_t *s, size_t size)
{
	struct trax_rx rx;
	size_t written = 0, taken = 0, second_at = second_fds_at(plan, size);
	unsigned int msgs = 0, piece = 0;
	int sv[2], err = -EAGAIN;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0)
		return;
	trax_rx_init(&rx);
	CHECK(trax_rx_bytes(&rx) == 0);
	while (err == -EAGAIN) {
		bool end = written == size;

		if (end) {
			shutdown(sv[0], SHUT_WR);
		} else {
			size_t n = 1 + (piece * 7u + plan) % 23u;
			/* (part 1's first piece is empty when S is shorter than the pieces) */
			bool with_fds = (piece == 0 && size / (1u << ((plan >> 5) & 3)) > 0) ||
					(second_at && written == second_at);

			if (n > size - written)
				n = size - written;
			/* a piece begins where part 1's second piece does */
			if (second_at && written < second_at && written + n > second_at)
				n = second_at - written;
			CHECK(send_fds(sv[0], s + written, n, with_fds ? plan & 31u : 0) == 0);
			written += n;
			piece++;
		}
		for (;;) {
			struct trax_msg m;

			err = trax_rx_recv(sv[1], &rx, &m);
			if (err)
				break;
			CHECK(trax_rx_bytes(&rx) == 0);
			if (msgs < MAX_MSGS) {
				struct summary x = summarize(&m);

				CHECK(msgs < nr_got);
				CHECK(x.type == got[msgs].type && x.seq == got[msgs].seq &&
				      x.len == got[msgs].len && x.nfds == got[msgs].nfds &&
				      x.hash == got[msgs].hash);
			}
			msgs++;
			taken += TRAX_MSG_HEADER_SIZE + m.len;
			trax_msg_free(&m);
		}
		if (err == -EAGAIN) {
			CHECK(!end); /* after the end, a message is whole or the peer is gone */
			CHECK(written == taken + trax_rx_bytes(&rx));
		}
	}
	/* it ends as part 1 ended, and holds nothing any more */
	if (nr_got < MAX_MSGS) {
		CHECK(msgs == nr_got);
		CHECK(err == got_err);
	}
	CHECK(trax_rx_bytes(&rx) == 0 && rx.m.data == NULL && rx.m.nfds == 0);
	trax_rx_free(&rx);
	close(sv[0]);
	close(sv[1]);
}

/* ---- 3. round trip ---- */

#define BIG_MAX (0xffffu << 7)
static char big[BIG_MAX + 1]; /* values of "big" pieces: its last bytes */

struct piece {
	const char *key, *value; /* what the payload must hold */
	size_t klen, vlen;
};

static bool valid_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

static void fuzz_round_trip(uint8_t plan, const uint8_t *s, size_t size)
{
	static struct piece pieces[MAX_PIECES];
	static char *owned[MAX_PIECES * 2];
	unsigned int npieces = 0, nowned = 0, nfds = plan & 31u;
	struct trax_msg m, r;
	uint16_t type = 0;
	uint32_t seq = 0;
	size_t i = 0;
	int fds[32], sv[2], err;

	if (size >= 2)
		memcpy(&type, s, 2);
	if (size >= 6)
		memcpy(&seq, s + 2, 4);
	i = size < 6 ? size : 6;
	trax_msg_init(&m, type);
	m.seq = seq;
	CHECK(m.type == type && m.len == 0 && !m.oom && m.nfds == 0);
	while (i < size && npieces < MAX_PIECES) {
		const uint8_t *p = s + i, *nl = memchr(p, '\n', size - i);
		size_t n = nl ? (size_t)(nl - p) : size - i;
		char *key, *value;
		struct trax_msg t;
		bool ok, expect;
		uint64_t v = 0;
		int kind = 0; /* 0: key\tvalue, 1: big, 2: number */

		i += n + 1;
		if (n >= 4 && p[0] == 1) {
			/* (p[2] p[3]) << (p[1] & 7): mostly small, up to 8 MiB */
			size_t vlen = ((size_t)p[2] << 8 | p[3]) << (p[1] & 7);

			kind = 1;
			key = strdup("big");
			CHECK(key);
			/* the end of a buffer of 'x' made once */
			if (!big[0]) {
				memset(big, 'x', BIG_MAX);
				big[BIG_MAX] = 0;
			}
			value = big + BIG_MAX - vlen;
		} else if (n >= 9 && p[0] == 2) {
			kind = 2;
			memcpy(&v, p + 1, 8);
			key = strndup((const char *)p + 9, n - 9);
			value = malloc(24);
			CHECK(key && value);
			snprintf(value, 24, "%llu", (unsigned long long)v);
		} else {
			const uint8_t *tab = memchr(p, '\t', n);
			size_t kn = tab ? (size_t)(tab - p) : n;

			key = strndup((const char *)p, kn);
			value = tab ? strndup((const char *)tab + 1, n - kn - 1) : strdup("");
			CHECK(key && value);
		}
		/* (a value holding a NUL is what is before it, as with "%s") */
		expect = *key && !strchr(key, '=') &&
			 m.len + strlen(key) + strlen(value) + 2 <= TRAX_MSG_MAX_PAYLOAD;
		/* on a copy: a refused add must leave the message as it was */
		t = m;
		ok = kind == 2 ? trax_msg_add_u64(&t, key, v) : trax_msg_add(&t, key, "%s", value);
		CHECK(ok == expect);
		if (ok) {
			CHECK(!t.oom && t.len == m.len + strlen(key) + strlen(value) + 2);
			m = t;
			pieces[npieces].key = key;
			pieces[npieces].klen = strlen(key);
			pieces[npieces].value = value;
			pieces[npieces].vlen = strlen(value);
			npieces++;
			owned[nowned++] = key;
			if (kind != 1)
				owned[nowned++] = value;
		} else {
			CHECK(t.oom && t.len == m.len && t.data == m.data);
			free(key);
			if (kind != 1)
				free(value);
		}
	}
	for (unsigned int k = 0; k < nfds; k++)
		fds[k] = null_fd;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		goto out;
	if (nfds > TRAX_MSG_MAX_FDS) {
		CHECK(trax_msg_send(sv[0], &m, fds, nfds) == -EINVAL);
		close(sv[0]);
		close(sv[1]);
		goto out;
	}
	if (m.len + 16 <= DIRECT_LIMIT) {
		CHECK(trax_msg_send(sv[0], &m, fds, nfds) == 0);
		CHECK(trax_msg_recv(sv[1], &r, 1000) == 0);
	} else {
		/* too large for the socket buffer: sent from a thread while it is read */
		struct writer w = {.sock = sv[0], .msg = &m, .msg_fds = fds, .nfds = nfds};
		pthread_t th;

		CHECK(pthread_create(&th, NULL, writer_run, &w) == 0);
		err = trax_msg_recv(sv[1], &r, 10000);
		pthread_join(th, NULL);
		CHECK(w.result == 0);
		CHECK(err == 0);
	}
	CHECK(r.type == m.type && r.seq == m.seq && r.len == m.len);
	CHECK(m.len == 0 || memcmp(r.data, m.data, m.len) == 0);
	CHECK(r.nfds == nfds);
	for (unsigned int k = 0; k < r.nfds; k++) {
		struct stat st;

		CHECK(r.fds[k] >= 0 && fstat(r.fds[k], &st) == 0);
		CHECK(st.st_dev == null_st.st_dev && st.st_ino == null_st.st_ino);
		CHECK(fcntl(r.fds[k], F_GETFD) & FD_CLOEXEC);
	}
	{
		const char *kv = trax_msg_first(&r);
		uint64_t u, want;

		for (unsigned int k = 0; k < npieces; k++, kv = trax_msg_next(&r, kv)) {
			const struct piece *pc = &pieces[k];
			const char *first = NULL;

			CHECK(kv != NULL);
			CHECK(strlen(kv) == pc->klen + 1 + pc->vlen);
			CHECK(memcmp(kv, pc->key, pc->klen) == 0 && kv[pc->klen] == '=');
			CHECK(memcmp(kv + pc->klen + 1, pc->value, pc->vlen) == 0);
			CHECK(trax_kv_value(kv, pc->key) == kv + pc->klen + 1);
			/* trax_msg_get: the value of the first piece with this key */
			for (unsigned int j = 0; j <= k && !first; j++)
				if (!strcmp(pieces[j].key, pc->key))
					first = pieces[j].value;
			CHECK(first && !strcmp(trax_msg_get(&r, pc->key), first));
			CHECK(trax_msg_get_u64(&r, pc->key, &u) == valid_u64(first, &want));
			if (valid_u64(first, &want))
				CHECK(u == want);
		}
		CHECK(kv == NULL);
		CHECK(trax_msg_get(&r, "no\nsuch") == NULL); /* no key holds a newline */
	}
	trax_msg_free(&r);
	close(sv[0]);
	close(sv[1]);
out:
	trax_msg_free(&m);
	for (unsigned int k = 0; k < nowned; k++)
		free(owned[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int before;

	if (null_fd < 0) {
		null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		CHECK(null_fd >= 0 && fstat(null_fd, &null_st) == 0);
	}
	if (size == 0)
		return 0;
	before = count_open_fds();
	fuzz_stream(data[0], data + 1, size - 1 > MAX_STREAM ? MAX_STREAM : size - 1);
	/* every descriptor received, kept or thrown away, is closed */
	CHECK(count_open_fds() == before);
	if (size - 1 <= MAX_INCREMENTAL) {
		fuzz_incremental(data[0], data + 1, size - 1);
		CHECK(count_open_fds() == before);
	}
	fuzz_round_trip(data[0], data + 1, size - 1 > MAX_STREAM ? MAX_STREAM : size - 1);
	CHECK(count_open_fds() == before);
	return 0;
}
