/*
 * proto.c - framing, checking and descriptor passing of traxd's messages
 * (see proto.h).
 */
#include "common/proto.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"

/* trax_msg_recv: once a message has begun, the rest must follow within this. */
#define REST_TIMEOUT_MS 5000

_Static_assert(sizeof(struct trax_msg_header) == TRAX_MSG_HEADER_SIZE, "the header is 16 bytes");

void trax_msg_init(struct trax_msg *m, uint16_t type)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	for (unsigned int i = 0; i < TRAX_MSG_MAX_FDS; i++)
		m->fds[i] = -1;
}

void trax_msg_free(struct trax_msg *m)
{
	for (unsigned int i = 0; i < m->nfds; i++)
		if (m->fds[i] >= 0)
			close(m->fds[i]);
	free(m->data);
	m->data = NULL;
	m->len = m->cap = 0;
	m->nfds = 0;
}

static bool reserve(struct trax_msg *m, size_t n)
{
	size_t cap;
	char *d;

	if (m->len + n <= m->cap)
		return true;
	if (m->len + n > TRAX_MSG_MAX_PAYLOAD)
		return false;
	cap = m->cap ? m->cap : 256;
	while (cap < m->len + n)
		cap *= 2;
	if (cap > TRAX_MSG_MAX_PAYLOAD)
		cap = TRAX_MSG_MAX_PAYLOAD;
	d = realloc(m->data, cap);
	if (!d)
		return false;
	m->data = d;
	m->cap = (uint32_t)cap;
	return true;
}

bool trax_msg_add(struct trax_msg *m, const char *key, const char *fmt, ...)
{
	size_t klen = strlen(key);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || klen == 0 || strchr(key, '=') || !reserve(m, klen + 1 + (size_t)n + 1)) {
		m->oom = true;
		return false;
	}
	memcpy(m->data + m->len, key, klen);
	m->data[m->len + klen] = '=';
	va_start(ap, fmt);
	vsnprintf(m->data + m->len + klen + 1, (size_t)n + 1, fmt, ap);
	va_end(ap);
	/* a value may not hold a NUL: it would end the string early */
	m->len += (uint32_t)(klen + 1 + strlen(m->data + m->len + klen + 1) + 1);
	return true;
}

bool trax_msg_add_u64(struct trax_msg *m, const char *key, uint64_t v)
{
	return trax_msg_add(m, key, "%llu", (unsigned long long)v);
}

int trax_msg_send(int sock, const struct trax_msg *m, const int *fds, unsigned int nfds)
{
	struct trax_msg_header h = {TRAX_PROTO_MAGIC, TRAX_PROTO_VERSION, m->type, m->len, m->seq};
	union {
		char buf[CMSG_SPACE(sizeof(int) * TRAX_MSG_MAX_FDS)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov[2] = {{&h, sizeof(h)}, {m->data, m->len}};
	struct msghdr mh = {.msg_iov = iov, .msg_iovlen = m->len ? 2 : 1};
	size_t total = sizeof(h) + m->len, sent = 0;

	if (m->oom)
		return -ENOMEM;
	if (nfds > TRAX_MSG_MAX_FDS)
		return -EINVAL;
	if (nfds) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	while (sent < total) {
		ssize_t n = sendmsg(sock, &mh, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		sent += (size_t)n;
		/* descriptors go with the first bytes only; skip what was sent */
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
		while (mh.msg_iovlen && (size_t)n >= mh.msg_iov[0].iov_len) {
			n -= (ssize_t)mh.msg_iov[0].iov_len;
			mh.msg_iov++;
			mh.msg_iovlen--;
		}
		if (mh.msg_iovlen) {
			mh.msg_iov[0].iov_base = (char *)mh.msg_iov[0].iov_base + n;
			mh.msg_iov[0].iov_len -= (size_t)n;
		}
	}
	return 0;
}

/* Waits until sock is readable before deadline (-1: forever): 0 or -errno. */
static int wait_readable(int sock, int64_t deadline)
{
	for (;;) {
		struct pollfd p = {.fd = sock, .events = POLLIN};
		int t = -1, n;

		if (deadline >= 0) {
			int64_t left = deadline - trax_now_ms();

			t = left > 0 ? (int)(left > 1000000 ? 1000000 : left) : 0;
		}
		n = poll(&p, 1, t);
		if (n > 0)
			return 0;
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

/* A payload is well formed: NUL-terminated "key=value" strings, keys not empty. */
static bool payload_valid(const char *d, uint32_t len)
{
	uint32_t i = 0;

	if (len == 0)
		return true;
	if (d[len - 1] != '\0')
		return false;
	while (i < len) {
		const char *s = d + i;
		size_t n = strlen(s);
		const char *eq = memchr(s, '=', n);

		if (!eq || eq == s)
			return false;
		i += (uint32_t)n + 1;
	}
	return true;
}

/* Takes a whole header into m (type, sequence, announced length); -EPROTO if invalid. */
static int header_take(struct trax_msg *m, const unsigned char *bytes)
{
	struct trax_msg_header h;

	memcpy(&h, bytes, sizeof(h));
	if (h.magic != TRAX_PROTO_MAGIC || h.version != TRAX_PROTO_VERSION ||
	    h.len > TRAX_MSG_MAX_PAYLOAD)
		return -EPROTO;
	m->type = h.type;
	m->seq = h.seq;
	m->len = h.len;
	return 0;
}

/*
 * Keeps in m the descriptors that came with the bytes just received. Every
 * one is either kept (closed with m) or closed here: -EPROTO when there are
 * more than a message may carry, or when the kernel had to drop some
 * (MSG_CTRUNC: more than fit in our control buffer in one go).
 */
static int collect_fds(struct msghdr *mh, struct trax_msg *m)
{
	int err = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (m->nfds < TRAX_MSG_MAX_FDS) {
				m->fds[m->nfds++] = fd;
			} else {
				close(fd);
				err = -EPROTO;
			}
		}
	}
	if (mh->msg_flags & MSG_CTRUNC)
		err = -EPROTO;
	return err;
}

/* The payload buffer grows with what arrives: an announced length alone costs little. */
#define RX_FIRST_CHUNK (64u << 10)

static int rx_grow(struct trax_rx *rx)
{
	uint32_t cap = rx->m.cap ? rx->m.cap * 2 : RX_FIRST_CHUNK;
	char *d;

	if (cap > rx->m.len)
		cap = rx->m.len;
	d = realloc(rx->m.data, cap);
	if (!d)
		return -ENOMEM;
	rx->m.data = d;
	rx->m.cap = cap;
	return 0;
}

void trax_rx_init(struct trax_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
	trax_msg_init(&rx->m, 0);
}

void trax_rx_free(struct trax_rx *rx)
{
	trax_msg_free(&rx->m);
	trax_rx_init(rx);
}

size_t trax_rx_bytes(const struct trax_rx *rx)
{
	return (size_t)rx->hdr_got + rx->got;
}

int trax_rx_recv(int sock, struct trax_rx *rx, struct trax_msg *m)
{
	int err;

	for (;;) {
		union {
			char buf[CMSG_SPACE(sizeof(int) * TRAX_MSG_MAX_FDS)];
			struct cmsghdr align;
		} ctl;
		struct iovec iov;
		struct msghdr mh = {.msg_iov = &iov,
				    .msg_iovlen = 1,
				    .msg_control = ctl.buf,
				    .msg_controllen = sizeof(ctl.buf)};
		ssize_t r;

		if (rx->hdr_got < TRAX_MSG_HEADER_SIZE) {
			iov.iov_base = rx->hdr + rx->hdr_got;
			iov.iov_len = TRAX_MSG_HEADER_SIZE - rx->hdr_got;
		} else {
			if (rx->got == rx->m.len)
				break; /* whole */
			if (rx->got == rx->m.cap && (err = rx_grow(rx)))
				goto fail;
			iov.iov_base = rx->m.data + rx->got;
			iov.iov_len = rx->m.cap - rx->got;
		}
		/* never more than this message lacks: the next one stays in the socket */
		r = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return -EAGAIN;
			err = -errno;
			goto fail;
		}
		if ((err = collect_fds(&mh, &rx->m)))
			goto fail;
		if (r == 0) {
			/* the peer is gone: between messages, or in the middle of one */
			err = trax_rx_bytes(rx) ? -EPROTO : -ECONNRESET;
			goto fail;
		}
		if (rx->hdr_got < TRAX_MSG_HEADER_SIZE) {
			rx->hdr_got += (uint32_t)r;
			if (rx->hdr_got == TRAX_MSG_HEADER_SIZE &&
			    (err = header_take(&rx->m, rx->hdr)))
				goto fail;
		} else {
			rx->got += (uint32_t)r;
		}
	}
	if (!payload_valid(rx->m.data, rx->m.len)) {
		err = -EPROTO;
		goto fail;
	}
	*m = rx->m; /* the caller owns the payload and descriptors now */
	trax_rx_init(rx);
	return 0;
fail:
	trax_rx_free(rx);
	return err;
}

int trax_msg_recv(int sock, struct trax_msg *m, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : trax_now_ms() + timeout_ms;
	struct trax_rx rx;
	bool begun = false;
	int err;

	trax_msg_init(m, 0);
	trax_rx_init(&rx);
	for (;;) {
		err = trax_rx_recv(sock, &rx, m);
		if (err != -EAGAIN)
			return err; /* a message, or an error (rx holds nothing then) */
		if (!begun && trax_rx_bytes(&rx)) {
			/*
			 * It has begun: the rest within REST_TIMEOUT_MS, or by the
			 * caller's deadline if that is later (no limit is not one here).
			 */
			int64_t rest = trax_now_ms() + REST_TIMEOUT_MS;

			begun = true;
			if (deadline < rest)
				deadline = rest;
		}
		err = wait_readable(sock, deadline);
		if (err) {
			if (err == -ETIMEDOUT && begun)
				err = -EPROTO; /* cut short */
			trax_rx_free(&rx);
			return err;
		}
	}
}

const char *trax_msg_first(const struct trax_msg *m)
{
	return m->len ? m->data : NULL;
}

const char *trax_msg_next(const struct trax_msg *m, const char *kv)
{
	const char *n = kv + strlen(kv) + 1;

	return n < m->data + m->len ? n : NULL;
}

const char *trax_kv_value(const char *kv, const char *key)
{
	size_t k = strlen(key);

	return strncmp(kv, key, k) == 0 && kv[k] == '=' ? kv + k + 1 : NULL;
}

const char *trax_msg_get_after(const struct trax_msg *m, const char *from, const char *key,
			       const char **found)
{
	const char *kv = from ? trax_msg_next(m, from) : trax_msg_first(m);

	for (; kv; kv = trax_msg_next(m, kv)) {
		const char *v = trax_kv_value(kv, key);

		if (v) {
			if (found)
				*found = kv;
			return v;
		}
	}
	return NULL;
}

const char *trax_msg_get(const struct trax_msg *m, const char *key)
{
	return trax_msg_get_after(m, NULL, key, NULL);
}

bool trax_parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	if (x > max)
		return false;
	*v = x;
	return true;
}

bool trax_msg_get_u64(const struct trax_msg *m, const char *key, uint64_t *v)
{
	return trax_parse_u64(trax_msg_get(m, key), UINT64_MAX, v);
}

int trax_msg_take_fd(struct trax_msg *m, unsigned int i)
{
	int fd;

	if (i >= m->nfds)
		return -1;
	fd = m->fds[i];
	m->fds[i] = -1;
	return fd;
}

static int fill_addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(a->sun_path))
		return -ENAMETOOLONG;
	strcpy(a->sun_path, path);
	return 0;
}

int trax_sock_connect(const char *path)
{
	struct sockaddr_un a;
	int fd, err = fill_addr(&a, path);

	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int trax_sock_listen(const char *path, int mode)
{
	struct sockaddr_un a;
	int fd, err = fill_addr(&a, path);

	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* the caller holds the daemon lock: a socket file left here is stale */
	unlink(path);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || chmod(path, (mode_t)mode) < 0 ||
	    listen(fd, 128) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int trax_sock_peer(int sock, int *pid, int *uid, int *gid)
{
	struct ucred cr;
	socklen_t n = sizeof(cr);

	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cr, &n) < 0)
		return -errno;
	if (pid)
		*pid = cr.pid;
	if (uid)
		*uid = (int)cr.uid;
	if (gid)
		*gid = (int)cr.gid;
	return 0;
}
