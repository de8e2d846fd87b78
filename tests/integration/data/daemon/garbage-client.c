/*
 * garbage-client.c - a misbehaving peer of traxd, for daemon_faults.sh:
 *
 *   garbage-client RUNDIR CASE [ARG...]
 *
 * connects to RUNDIR/client.sock or RUNDIR/app.sock and sends what CASE
 * names: random bytes, broken headers, oversized or truncated payloads,
 * payloads without NULs, malformed event descriptions, descriptors, idle
 * connections. It builds the frames by hand, after src/common/proto.c (a
 * 16-byte header: magic "TRAX", version 1, type, payload length, sequence
 * number; then NUL-terminated key=value strings), so that it can break
 * them. After each message it waits a little and prints one line saying
 * how the daemon took it:
 *
 *   WHAT: reply status=EPROTO      the first string of the daemon's answer
 *   WHAT: closed by the daemon     it hung up
 *   WHAT: nothing within N ms      neither
 *
 * It exits 0 unless it could not connect at all: the test judges the
 * daemon by these lines, by its pid and by what `trax` gets from it.
 *
 * Cases (SOCK: client or app, the socket they go to):
 *   random-SOCK      random bytes; random frames behind a valid magic
 *   magic-SOCK       wrong magic, wrong version (app: a header cut short)
 *   huge-SOCK        headers announcing more than the 4 MiB limit
 *   half-SOCK        a header and half its payload, then a hang-up
 *   nonul-SOCK       payloads not made of NUL-terminated key=value strings
 *   fds-SOCK         SCM_RIGHTS with 1 to 250 descriptors, on valid and
 *                    broken frames
 *   events           APP_HELLO, then malformed APP_EVENTS (bad field
 *                    strings, huge indexes, enums without a field...), one
 *                    connection each, and a valid one to compare
 *   idle-SOCK N      N connections left idle (stall-app N: each sends a
 *                    header whose payload never comes) until the file
 *                    $GARBAGE_RELEASE exists (at most 60 s)
 *   register KV...   a valid registration describing the events KV...
 *   big-enum N, big-enums N, big-events N, big-fields N
 *                    large descriptions (one enum of N mappings; enums of
 *                    65535 mappings up to 4 MiB; N events; events of 1024
 *                    fields up to 4 MiB)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAGIC	    0x54524158u
#define VERSION	    1u
#define MAX_PAYLOAD (4u << 20)

/* enum trax_msg_type (src/common/proto.h) */
#define MSG_REPLY	   1
#define MSG_LIST	   18
#define MSG_APP_HELLO	   64
#define MSG_APP_EVENTS	   65
#define MSG_APP_READY	   66
#define MSG_APP_ACK	   67
#define MSG_APP_REGISTERED 96

struct hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t len;
	uint32_t seq;
};

static const char *rundir;

static int sock_connect(const char *name)
{
	struct sockaddr_un a;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		perror("socket");
		exit(2);
	}
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s", rundir, name);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		fprintf(stderr, "garbage-client: connect %s: %s\n", a.sun_path, strerror(errno));
		exit(2);
	}
	return fd;
}

/* Sends what it can: a daemon hanging up early is no error here. */
static void send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		p += (size_t)n;
		len -= (size_t)n;
	}
}

static void send_hdr(int fd, uint32_t magic, uint16_t version, uint16_t type, uint32_t len)
{
	struct hdr h = {magic, version, type, len, 7};

	send_all(fd, &h, sizeof(h));
}

static void send_msg(int fd, uint16_t type, const void *payload, size_t len)
{
	send_hdr(fd, MAGIC, VERSION, type, (uint32_t)len);
	send_all(fd, payload, len);
}

/* A payload of strings, each with its NUL. */
struct payload {
	char *buf;
	size_t len, cap;
};

static void pl_add(struct payload *p, const char *s)
{
	size_t n = strlen(s) + 1;

	if (p->len + n > p->cap) {
		p->cap = (p->len + n) * 2 + 4096;
		p->buf = realloc(p->buf, p->cap);
		if (!p->buf) {
			perror("realloc");
			exit(2);
		}
	}
	memcpy(p->buf + p->len, s, n);
	p->len += n;
}

static void pl_addf(struct payload *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pl_addf(struct payload *p, const char *fmt, ...)
{
	char s[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	pl_add(p, s);
}

static void pl_free(struct payload *p)
{
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

/* Prints how the daemon took the last message (see the top of the file). */
static void await(int fd, int ms, const char *what)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char buf[4096];
	ssize_t n;

	if (poll(&p, 1, ms) <= 0) {
		printf("%s: nothing within %d ms\n", what, ms);
		return;
	}
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	if (n <= 0) {
		printf("%s: closed by the daemon\n", what);
		return;
	}
	buf[n] = 0;
	if ((size_t)n > sizeof(struct hdr))
		printf("%s: reply %s\n", what, buf + sizeof(struct hdr));
	else
		printf("%s: %zd bytes\n", what, n);
}

static void fill_random(char *buf, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (char)(seed >> 16);
	}
}

static void case_random(const char *sock)
{
	static char buf[256 * 1024];

	for (unsigned int round = 0; round < 8; round++) {
		int fd = sock_connect(sock);

		fill_random(buf, sizeof(buf), round + 1);
		send_all(fd, buf, sizeof(buf) >> (round & 3));
		await(fd, 2000, "random bytes");
		close(fd);
	}
	/* behind a valid magic and version: random type, length and payload */
	for (unsigned int round = 0; round < 32; round++) {
		int fd = sock_connect(sock);
		struct hdr h;

		fill_random(buf, 4096, round + 100);
		memcpy(&h, buf, sizeof(h));
		h.magic = MAGIC;
		h.version = VERSION;
		h.len = (h.len & 4095) | 1;
		send_all(fd, &h, sizeof(h));
		send_all(fd, buf + sizeof(h), h.len);
		await(fd, 2000, "random frame");
		close(fd);
	}
}

static void case_magic(const char *sock)
{
	int fd = sock_connect(sock);

	send_hdr(fd, 0x4e54544cu /* "LTTN" */, VERSION, MSG_LIST, 0);
	await(fd, 2000, "wrong magic");
	close(fd);
	fd = sock_connect(sock);
	send_hdr(fd, MAGIC, 99, MSG_LIST, 0);
	await(fd, 2000, "wrong version");
	close(fd);
	if (!strcmp(sock, "app.sock")) {
		/* (the client socket waits 5 s for the rest: idle-client covers that) */
		fd = sock_connect(sock);
		send_all(fd, "TRAX\1", 5);
		await(fd, 2000, "header cut short");
		close(fd);
	}
}

static void case_huge(const char *sock)
{
	static const uint32_t lens[] = {MAX_PAYLOAD + 1, 0x7fffffffu, 0xffffffffu};
	char junk[1024];

	memset(junk, 'a', sizeof(junk));
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		int fd = sock_connect(sock);

		send_hdr(fd, MAGIC, VERSION, MSG_LIST, lens[i]);
		send_all(fd, junk, sizeof(junk));
		await(fd, 2000, "oversized payload");
		close(fd);
	}
}

static void case_half(const char *sock)
{
	char body[1000];
	int fd = sock_connect(sock);

	memset(body, 'k', sizeof(body));
	body[1] = '=';
	send_hdr(fd, MAGIC, VERSION, MSG_LIST, sizeof(body));
	send_all(fd, body, sizeof(body) / 2);
	usleep(100000);
	close(fd);
	printf("half a payload: sent, then hung up\n");
	fd = sock_connect(sock);
	send_hdr(fd, MAGIC, VERSION, MSG_APP_HELLO, 64);
	close(fd);
	printf("a header alone: sent, then hung up\n");
}

static void case_nonul(const char *sock)
{
	static const struct {
		const char *what;
		const char *data;
		size_t len;
	} bad[] = {
	    {"no NUL at the end", "name=x", 6}, {"no '=' in a string", "name\0", 5},
	    {"empty key", "=x\0", 3},		{"an empty string", "a=1\0\0", 5},
	    {"only NULs", "\0\0\0\0", 4},	{"binary", "\x01\x02\xff=\x80\xfe", 6},
	};
	char *big = malloc(MAX_PAYLOAD);
	int fd;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fd = sock_connect(sock);
		send_msg(fd, MSG_LIST, bad[i].data, bad[i].len);
		await(fd, 2000, bad[i].what);
		close(fd);
	}
	/* the limit, 4 MiB, of one string without any NUL */
	fd = sock_connect(sock);
	memset(big, 'x', MAX_PAYLOAD);
	big[1] = '=';
	send_msg(fd, MSG_LIST, big, MAX_PAYLOAD);
	await(fd, 5000, "4 MiB without a NUL");
	close(fd);
	free(big);
}

/* Connects to app.sock and says APP_HELLO. */
static int app_hello(void)
{
	struct payload p = {0};
	int fd = sock_connect("app.sock");

	pl_addf(&p, "pid=%d", (int)getpid());
	pl_add(&p, "ppid=1");
	pl_addf(&p, "uid=%u", (unsigned int)getuid());
	pl_addf(&p, "gid=%u", (unsigned int)getgid());
	pl_add(&p, "bits=64");
	pl_add(&p, "procname=garbage\x01/../x");
	pl_add(&p, "abi=1");
	pl_add(&p, "version=9.9.9");
	send_msg(fd, MSG_APP_HELLO, p.buf, p.len);
	pl_free(&p);
	return fd;
}

/* The strings of one APP_EVENTS message, NULL-terminated. */
static const char *const bad_events[][6] = {
    /* field strings */
    {"event=0", "name=garbage:a", "field=1:x"},
    {"event=0", "name=garbage:a", "field=99:a:32:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=0:a:32:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=-1:a:32:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=1:a b:32:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=1::32:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=1:9a:32:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=1:a:7:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=1:a:32:1:3:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=1:a:99999999999999999999999:1:10:0:0:0:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=1:a:32:1:10:0:0:0:0:0:0:0:junk"},
    {"event=0", "name=garbage:a", "field=1:a:32:1:10:0:0:0:0:0:0"},
    {"event=0", "name=garbage:a", "field=2:f:32:0:0:0:0:17:0:0:0:0:"},
    {"event=0", "name=garbage:a", "field=4:arr:8:0:10:0:1:0:2000000:0:0:0:"},
    {"event=0", "name=garbage:a", "field=5:sq:8:0:10:0:1:0:0:3:0:0:"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:bad name"},
    {"event=0", "name=garbage:a", "field=1:a:32:1:10:0:0:0:0:0:0:0:en"},
    /* names and levels */
    {"event=0", "name="},
    {"event=0", "name=bad name\"{}"},
    {"event=0", "name=garbage:a", "name=garbage:b"},
    {"event=0", "loglevel=3"},
    {"event=0", "name=garbage:a", "loglevel=99"},
    {"event=0", "name=garbage:a", "loglevel=-2"},
    /* indexes */
    {"event=4294967295", "name=garbage:a"},
    {"event=65536", "name=garbage:a"},
    {"event=-1", "name=garbage:a"},
    {"event=1", "name=garbage:a"},
    {"event=", "name=garbage:a"},
    {"event=0x0", "name=garbage:a"},
    {"name=garbage:a", "event=0"},
    {"event=0", "name=garbage:a", "event=0", "name=garbage:b"},
    {"event=0", "name=garbage:a", "event=18446744073709551617", "name=garbage:b"},
    /* enums */
    {"event=0", "name=garbage:a", "enum=0:1:X"},
    {"event=0", "name=garbage:a", "field=1:a:32:1:10:0:0:0:0:0:0:0:", "enum=0:1:X"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum=0:X"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum=a:b:X"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum=0:1:\x01\x02"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en",
     "enum=99999999999999999999:1:X"},
    /* ctf_enum_auto() entries whose values are not the next ones, misplaced */
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum=5:5:X",
     "enum_auto=1"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum=0:3:X",
     "enum=5:5:Y", "enum_auto=1"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum=0:1:X",
     "enum=2:3:Y", "enum_auto=1"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum=0:0:X",
     "enum_auto=2"},
    {"event=0", "name=garbage:a", "field=6:e:32:1:10:0:0:0:0:0:0:0:en", "enum_auto=1"},
    {"event=0", "name=garbage:a", "emf_uri=a", "emf_uri=b"},
};

/* Sends one APP_EVENTS of these strings (and APP_READY) after an APP_HELLO. */
static void describe(const char *const *strings, size_t n, const char *what)
{
	struct payload p = {0};
	int fd = app_hello();

	for (size_t k = 0; k < n && strings[k]; k++)
		pl_add(&p, strings[k]);
	send_msg(fd, MSG_APP_EVENTS, p.buf, p.len);
	send_msg(fd, MSG_APP_READY, NULL, 0);
	await(fd, 2000, what);
	pl_free(&p);
	close(fd);
}

static void case_events(void)
{
	static const char *const good[] = {"event=0",
					   "name=garbage:fine",
					   "loglevel=-1",
					   "field=1:a:32:1:10:0:0:0:0:0:0:0:",
					   "field=6:e:32:1:10:0:0:0:0:0:0:0:en",
					   "enum=0:1:X",
					   "enum=2:2:Y",
					   "enum_auto=1",
					   "emf_uri=http://example.com/model.emf",
					   "newer_key=ignored"};
	char longname[600];
	struct payload p = {0};
	const char *s[4];
	int fd;

	for (size_t i = 0; i < sizeof(bad_events) / sizeof(bad_events[0]); i++)
		describe(bad_events[i], 6, "bad event description");
	/* too many fields in one event, names and labels too long */
	pl_add(&p, "event=0");
	pl_add(&p, "name=garbage:many");
	for (int f = 0; f < 1100; f++)
		pl_addf(&p, "field=1:f%d:32:1:10:0:0:0:0:0:0:0:", f);
	fd = app_hello();
	send_msg(fd, MSG_APP_EVENTS, p.buf, p.len);
	await(fd, 2000, "bad event description");
	pl_free(&p);
	close(fd);
	memset(longname, 'n', sizeof(longname));
	longname[sizeof(longname) - 1] = 0;
	pl_addf(&p, "name=garbage:%s", longname);
	s[0] = "event=0";
	s[1] = p.buf;
	describe(s, 2, "bad event description");
	pl_free(&p);
	pl_addf(&p, "field=1:%s:32:1:10:0:0:0:0:0:0:0:", longname);
	s[1] = "name=garbage:a";
	s[2] = p.buf;
	describe(s, 3, "bad event description");
	pl_free(&p);
	pl_addf(&p, "enum=0:1:%s%s", longname, longname);
	s[2] = "field=6:e:32:1:10:0:0:0:0:0:0:0:en";
	s[3] = p.buf;
	describe(s, 4, "bad event description");
	pl_free(&p);
	/* the control: a valid description is taken (APP_REGISTERED) */
	describe(good, sizeof(good) / sizeof(good[0]), "valid event description");
	/* out of order: events before hello, ready twice, unknown and misdirected types */
	fd = sock_connect("app.sock");
	for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); k++)
		pl_add(&p, good[k]);
	send_msg(fd, MSG_APP_EVENTS, p.buf, p.len);
	send_msg(fd, MSG_APP_READY, NULL, 0);
	send_msg(fd, MSG_APP_READY, NULL, 0);
	send_msg(fd, 0, NULL, 0);
	send_msg(fd, 65535, "a=b", 4);
	send_msg(fd, MSG_APP_ACK, "seq=99999999999999999999999\0status=EWHAT", 41);
	send_msg(fd, MSG_APP_REGISTERED, "handle=1", 9);
	send_msg(fd, MSG_REPLY, "status=0", 9);
	pl_free(&p);
	await(fd, 2000, "messages out of order");
	close(fd);
}

/*
 * Many connections left idle until $GARBAGE_RELEASE exists; with
 * header_only, each sends a header announcing a payload that never comes.
 */
static void case_idle(const char *sock, int n, int header_only)
{
	const char *release = getenv("GARBAGE_RELEASE");
	int *fds = calloc((size_t)n + 1, sizeof(int));
	struct rlimit rl;
	int opened = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)n + 64) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)n + 64 ? rl.rlim_max : (rlim_t)n + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (int i = 0; i < n; i++) {
		struct sockaddr_un a;
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

		if (fd < 0)
			break;
		memset(&a, 0, sizeof(a));
		a.sun_family = AF_UNIX;
		snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s", rundir, sock);
		/* non-blocking: a full backlog is no reason to wait */
		if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
			close(fd);
			continue;
		}
		if (header_only)
			send_hdr(fd, MAGIC, VERSION, MSG_APP_HELLO, 100);
		fds[opened++] = fd;
	}
	printf("%d idle connections to %s\n", opened, sock);
	fflush(stdout);
	for (int t = 0; release && t < 3000 && access(release, F_OK) != 0; t++)
		usleep(20000);
	for (int i = 0; i < opened; i++)
		close(fds[i]);
	free(fds);
}

/* Sends data with nfds copies of fd as SCM_RIGHTS. */
static void send_fds(int sock, const void *data, size_t len, int nfds, int fd)
{
	size_t space = CMSG_SPACE(sizeof(int) * (size_t)nfds);
	char *ctl = calloc(1, space);
	struct iovec iov = {(void *)data, len};
	struct msghdr mh = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = space};
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
	for (int i = 0; i < nfds; i++)
		memcpy(CMSG_DATA(c) + i * sizeof(int), &fd, sizeof(int));
	sendmsg(sock, &mh, MSG_NOSIGNAL);
	free(ctl);
}

static void case_fds(const char *sock)
{
	static const int counts[] = {1, 16, 17, 64, 250};
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	/* a request the daemon answers on either socket */
	struct hdr h = {MAGIC, VERSION, strcmp(sock, "app.sock") ? MSG_LIST : MSG_APP_READY, 0, 1};

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		int fd = sock_connect(sock);

		send_fds(fd, &h, sizeof(h), counts[i], devnull);
		await(fd, 2000, "valid message with descriptors");
		close(fd);
		fd = sock_connect(sock);
		send_fds(fd, "garbage!garbage!", 16, counts[i], devnull);
		await(fd, 2000, "broken header with descriptors");
		close(fd);
		/* 16 descriptors with each byte of a header */
		fd = sock_connect(sock);
		for (size_t b = 0; b < sizeof(h); b++)
			send_fds(fd, (const char *)&h + b, 1, 16, devnull);
		await(fd, 2000, "descriptors with every byte");
		close(fd);
	}
	/* descriptors, then a hang-up in the middle of the header */
	{
		int fd = sock_connect(sock);

		send_fds(fd, &h, 8, 16, devnull);
		close(fd);
	}
	close(devnull);
}

/* Large descriptions, valid or just past the limits. */
static void case_big(const char *what, int count)
{
	struct payload p = {0};
	int fd = app_hello();

	if (!strcmp(what, "big-enum")) {
		pl_add(&p, "event=0");
		pl_add(&p, "name=garbage:big_enum");
		pl_add(&p, "field=6:e:32:1:10:0:0:0:0:0:0:0:en");
		for (int i = 0; i < count && p.len < MAX_PAYLOAD - 64; i++)
			pl_addf(&p, "enum=%d:%d:L%d", i, i, i);
	} else if (!strcmp(what, "big-enums")) {
		pl_add(&p, "event=0");
		pl_add(&p, "name=garbage:big_enums");
		for (int f = 0; f < count && p.len < MAX_PAYLOAD - 64; f++) {
			pl_addf(&p, "field=6:e%d:32:1:10:0:0:0:0:0:0:0:en%d", f, f);
			for (int i = 0; i < 65535 && p.len < MAX_PAYLOAD - 64; i++)
				pl_add(&p, "enum=0:0:");
		}
	} else if (!strcmp(what, "big-events")) {
		for (int i = 0; i < count && p.len < MAX_PAYLOAD - 128; i++) {
			pl_addf(&p, "event=%d", i);
			pl_addf(&p, "name=garbage:e%d", i);
			pl_add(&p, "field=1:seq:64:0:10:0:0:0:0:0:0:0:");
		}
	} else {
		for (int i = 0; i < count && p.len < MAX_PAYLOAD - 64 * 1024; i++) {
			pl_addf(&p, "event=%d", i);
			pl_addf(&p, "name=garbage:f%d", i);
			for (int f = 0; f < 1024; f++)
				pl_addf(&p, "field=1:f%d:32:1:10:0:0:0:0:0:0:0:", f);
		}
	}
	send_msg(fd, MSG_APP_EVENTS, p.buf, p.len);
	send_msg(fd, MSG_APP_READY, NULL, 0);
	await(fd, 60000, what);
	pl_free(&p);
	close(fd);
}

int main(int argc, char **argv)
{
	const char *c;
	int n;

	if (argc < 3) {
		fprintf(stderr, "usage: garbage-client RUNDIR CASE [ARG...]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	rundir = argv[1];
	c = argv[2];
	n = argc > 3 ? atoi(argv[3]) : 0;
	if (!strcmp(c, "random-client") || !strcmp(c, "random-app"))
		case_random(c[7] == 'c' ? "client.sock" : "app.sock");
	else if (!strcmp(c, "magic-client") || !strcmp(c, "magic-app"))
		case_magic(c[6] == 'c' ? "client.sock" : "app.sock");
	else if (!strcmp(c, "huge-client") || !strcmp(c, "huge-app"))
		case_huge(c[5] == 'c' ? "client.sock" : "app.sock");
	else if (!strcmp(c, "half-client") || !strcmp(c, "half-app"))
		case_half(c[5] == 'c' ? "client.sock" : "app.sock");
	else if (!strcmp(c, "nonul-client") || !strcmp(c, "nonul-app"))
		case_nonul(c[6] == 'c' ? "client.sock" : "app.sock");
	else if (!strcmp(c, "fds-client") || !strcmp(c, "fds-app"))
		case_fds(c[4] == 'c' ? "client.sock" : "app.sock");
	else if (!strcmp(c, "events"))
		case_events();
	else if (!strcmp(c, "idle-client"))
		case_idle("client.sock", n ? n : 3, 0);
	else if (!strcmp(c, "idle-app"))
		case_idle("app.sock", n ? n : 200, 0);
	else if (!strcmp(c, "stall-app"))
		case_idle("app.sock", n ? n : 3, 1);
	else if (!strcmp(c, "register"))
		describe((const char *const *)argv + 3, (size_t)(argc - 3), "register");
	else if (!strncmp(c, "big-", 4))
		case_big(c, n ? n : 1000);
	else {
		fprintf(stderr, "garbage-client: unknown case %s\n", c);
		return 2;
	}
	return 0;
}
