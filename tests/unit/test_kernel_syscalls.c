/*
 * test_kernel_syscalls.c - system calls recorded with their arguments by
 * the BPF probes (src/kernel/syscalls.c, root only):
 *  - the table of this kernel's calls and the event layouts the rules give
 *    (openat, read, close, execve, connect, mmap, the unknown-call events),
 *    every argument type known, every name of the direction list an
 *    argument of this kernel;
 *  - a thread opens /etc/hostname, calls getpid, fails to create
 *    /nonexistent/x, reads 7 bytes and closes: its eight records have
 *    exactly the payloads LTTng-modules would write, its tid, times in
 *    program order, each CPU's records in time order, and no getpid;
 *  - the layouts LTTng makes by hand (connect, accept4, pipe2, execve),
 *    an unknown call number and a 32-bit number without a call;
 *  - calls enabled and disabled while recording, a start after a stop;
 *  - a pid filter on another process records nothing of this one, and
 *    changed while running records it;
 *  - a storm of getppid into one page of ring per CPU: records lost, and
 *    records handed over plus records lost is exactly twice the number of
 *    calls made.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "filter/filter.h"
#include "kernel/kfilter.h"
#include "kernel/kfpush.h"
#include "kernel/syscall-table.h"
#include "kernel/syscalls.h"

static const char *root = "/sys/kernel/tracing";

/* ---- what a sink receives ---- */

struct rec {
	char name[64];
	uint64_t ts;
	int cpu;
	int32_t tid;
	uint8_t payload[512];
	size_t len;
};

struct sink {
	struct rec *recs;
	size_t n, cap;
	int32_t only_tid; /* 0: every record */
	unsigned long seen;
};

static int sink_fn(void *arg, const struct kevent_record *r)
{
	struct sink *s = arg;
	struct rec *x;

	s->seen++;
	if (s->only_tid && r->tid != s->only_tid)
		return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->recs = realloc(s->recs, s->cap * sizeof(*s->recs));
		if (!s->recs)
			abort();
	}
	x = &s->recs[s->n++];
	snprintf(x->name, sizeof(x->name), "%s", r->cls->cls.name);
	x->ts = r->ts;
	x->cpu = r->cpu;
	x->tid = r->tid;
	x->len = r->len < sizeof(x->payload) ? r->len : sizeof(x->payload);
	memcpy(x->payload, r->payload, x->len);
	return 0;
}

/* ---- expected payloads ---- */

struct pl {
	uint8_t b[512];
	size_t n;
};

static void put(struct pl *p, const void *v, size_t n)
{
	memcpy(p->b + p->n, v, n);
	p->n += n;
}
#define PUT(p, type, v)                                                                            \
	do {                                                                                       \
		type v_ = (type)(v);                                                               \
		put(p, &v_, sizeof(v_));                                                           \
	} while (0)

static void put_str(struct pl *p, const char *s)
{
	put(p, s, strlen(s) + 1);
}

static void check_payload(const struct rec *r, const struct pl *want, const char *what)
{
	CHECK(r->len == want->n && !memcmp(r->payload, want->b, want->n),
	      "%s: %s payload differs (%zu bytes, %zu expected)", what, r->name, r->len, want->n);
}

/* ---- the table ---- */

static const struct sc_call *find_call(const struct sc_table *t, const char *name)
{
	for (unsigned int i = 0; i < t->ncalls; i++)
		if (!strcmp(t->calls[i].name, name))
			return &t->calls[i];
	return NULL;
}

/* Field i of ev is called name, of that kind, integer size, sign, base. */
static void check_field(const struct sc_event *ev, unsigned int i, const char *name, int kind,
			int bits, int is_signed, int base)
{
	const struct ctfw_field *f;

	CHECK(i < ev->nfields, "%s has no field %u (%s)", ev->name, i, name);
	if (i >= ev->nfields)
		return;
	f = &ev->fields[i];
	CHECK(!strcmp(f->name, name), "%s field %u: %s, not %s", ev->name, i, f->name, name);
	CHECK(f->type.kind == (enum ctfw_type_kind)kind, "%s.%s: kind %d", ev->name, name,
	      f->type.kind);
	if (kind == CTFW_TYPE_INTEGER)
		CHECK(f->type.integer.size == bits && f->type.integer.is_signed == is_signed &&
			  f->type.integer.base == base,
		      "%s.%s: %d bits, signed %d, base %d", ev->name, name, f->type.integer.size,
		      f->type.integer.is_signed, f->type.integer.base);
}

static void test_table(void)
{
	struct sc_table t;
	char err[256];
	const struct sc_call *c;
	struct ksyscalls *s;
	int found = 0;

	check_part = "table";
	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return;
	CHECK(ksyscalls_count(s) > 300, "%u calls", ksyscalls_count(s));
	for (unsigned int i = 0; i < ksyscalls_count(s); i++) {
		const char *n = ksyscalls_name(s, i);

		if (!strcmp(n, "openat")) {
			found++;
			CHECK(!strcmp(ksyscalls_signature(s, i),
				      "int dfd, const char * filename, int flags, umode_t mode"),
			      "%s", ksyscalls_signature(s, i));
		}
		found += !strcmp(n, "close") || !strcmp(n, "read");
	}
	CHECK_EQ(found, 3);
	CHECK_EQ(ksyscalls_enable(s, "open*", true, true) >= 3, 1); /* open, openat, openat2... */
	CHECK_EQ(ksyscalls_enable(s, "no_such_call", true, true), 0);
	ksyscalls_free(s);

	CHECK_EQ(sc_table_load(&t, root, err, sizeof(err)), 0);
	CHECK_EQ(t.fallback_types, 0);
	CHECK(sc_dir_check(&t, err, sizeof(err)) == 0, "%s", err);

	c = find_call(&t, "openat");
	CHECK(c && c->nr == SYS_openat);
	if (c) {
		CHECK(!strcmp(c->ev[0].name, "syscall_entry_openat"));
		CHECK_EQ(c->ev[0].nfields, 4);
		check_field(&c->ev[0], 0, "dfd", CTFW_TYPE_INTEGER, 32, 1, 10);
		check_field(&c->ev[0], 1, "filename", CTFW_TYPE_STRING, 0, 0, 0);
		check_field(&c->ev[0], 2, "flags", CTFW_TYPE_INTEGER, 32, 1, 10);
		check_field(&c->ev[0], 3, "mode", CTFW_TYPE_INTEGER, 16, 0, 10);
		CHECK_EQ(c->ev[0].cap[1], SC_CAP_STR);
		CHECK(!strcmp(c->ev[1].name, "syscall_exit_openat"));
		CHECK_EQ(c->ev[1].nfields, 1);
		check_field(&c->ev[1], 0, "ret", CTFW_TYPE_INTEGER, 64, 1, 10);
	}
	c = find_call(&t, "read");
	CHECK(c && c->nr == SYS_read);
	if (c) {
		CHECK_EQ(c->ev[0].nfields, 2);
		check_field(&c->ev[0], 0, "fd", CTFW_TYPE_INTEGER, 32, 0, 10);
		check_field(&c->ev[0], 1, "count", CTFW_TYPE_INTEGER, 64, 0, 10);
		CHECK_EQ(c->ev[1].nfields, 2);
		check_field(&c->ev[1], 1, "buf", CTFW_TYPE_INTEGER, 64, 0, 10);
	}
	c = find_call(&t, "newfstat"); /* __NR_fstat: the kernel's name, LTTng's too */
	CHECK(c && c->nr == SYS_fstat);
	c = find_call(&t, "execve");
	if (c) {
		CHECK_EQ(c->ev[0].nfields, 3);
		check_field(&c->ev[0], 0, "filename", CTFW_TYPE_STRING, 0, 0, 0);
		check_field(&c->ev[0], 1, "argv", CTFW_TYPE_INTEGER, 64, 0, 16);
		check_field(&c->ev[0], 2, "envp", CTFW_TYPE_INTEGER, 64, 0, 16);
		CHECK_EQ(c->ev[1].nfields, 1);
	}
	c = find_call(&t, "connect");
	if (c) {
		CHECK_EQ(c->ev[0].nfields, 7);
		check_field(&c->ev[0], 2, "addrlen", CTFW_TYPE_INTEGER, 32, 1, 16);
		check_field(&c->ev[0], 3, "family", CTFW_TYPE_INTEGER, 16, 0, 10);
		check_field(&c->ev[0], 4, "dport", CTFW_TYPE_INTEGER, 16, 0, 10);
		check_field(&c->ev[0], 5, "v4addr", CTFW_TYPE_SEQUENCE, 0, 0, 0);
		check_field(&c->ev[0], 6, "v6addr", CTFW_TYPE_SEQUENCE, 0, 0, 0);
		CHECK_EQ(c->ev[0].fields[4].type.integer.byte_order, CTFW_BYTE_ORDER_BE);
		CHECK_EQ(c->ev[0].cap[1], SC_CAP_SOCKADDR_LENARG);
		CHECK_EQ(c->ev[0].lenarg, 2);
	}
	c = find_call(&t, "mmap");
	if (c)
		check_field(&c->ev[1], 0, "ret", CTFW_TYPE_INTEGER, 64, 0, 16);
	c = find_call(&t, "mount"); /* three strings */
	if (c)
		CHECK(c->ev[0].cap[0] == SC_CAP_STR && c->ev[0].cap[1] == SC_CAP_STR &&
		      c->ev[0].cap[2] == SC_CAP_STR && c->ev[0].cap[4] == SC_CAP_NONE);
	c = find_call(&t, "statx"); /* 332: after 313, every argument in both events */
	if (c)
		CHECK_EQ(c->ev[1].nfields, 6);
	c = find_call(&t, "getpid");
	if (c)
		CHECK(c->ev[0].nfields == 0 && c->ev[1].nfields == 1);
	CHECK(!strcmp(t.unknown[0][0].name, "syscall_entry_unknown"));
	CHECK(!strcmp(t.unknown[1][1].name, "compat_syscall_exit_unknown"));
	check_field(&t.unknown[0][1], 0, "id", CTFW_TYPE_INTEGER, 32, 1, 10);
	check_field(&t.unknown[0][1], 1, "ret", CTFW_TYPE_INTEGER, 64, 1, 10);
	check_field(&t.unknown[0][1], 2, "args", CTFW_TYPE_ARRAY, 0, 0, 0);
	sc_table_free(&t);
}

/* ---- recording ---- */

struct work {
	pid_t tid;
	int fd, fail_ret;
	long nread;
	char buf[16];
};

static void *worker(void *arg)
{
	struct work *w = arg;

	w->tid = (pid_t)syscall(SYS_gettid);
	w->fd = (int)syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY | O_CLOEXEC, 0);
	(void)syscall(SYS_getpid);
	w->fail_ret =
	    (int)syscall(SYS_openat, AT_FDCWD, "/nonexistent/x", O_CREAT | O_WRONLY, 0644);
	w->nread = syscall(SYS_read, w->fd, w->buf, 7);
	(void)syscall(SYS_close, w->fd);
	return NULL;
}

static int by_ts(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void test_record(void)
{
	struct ksyscalls *s;
	struct sink sk = {0};
	struct work w = {0};
	pthread_t th;
	char err[256];
	struct pl p;
	struct stat st;
	long n;
	int e;

	check_part = "record";
	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return;
	CHECK_EQ(ksyscalls_enable(s, "openat", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "close", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "read", true, true), 1);
	e = ksyscalls_start(s, 256 * 1024, err, sizeof(err));
	CHECK(e == 0, "start: %s", err);
	if (e) {
		ksyscalls_free(s);
		return;
	}
	{
		int fds[64];

		CHECK(ksyscalls_fds(s, fds, 64) >= (unsigned int)sysconf(_SC_NPROCESSORS_ONLN));
	}
	pthread_create(&th, NULL, worker, &w);
	pthread_join(th, NULL);
	n = ksyscalls_consume(s, sink_fn, &sk); /* held back: at most some of them */
	CHECK(n >= 0);
	ksyscalls_stop(s);
	n = ksyscalls_consume(s, sink_fn, &sk);
	CHECK(n >= 0);
	CHECK(w.fd >= 0 && w.fail_ret == -1);
	CHECK_EQ(stat("/etc/hostname", &st), 0);

	/* each CPU's records in time order, as handed over; no getpid from anyone */
	for (size_t i = 0; i < sk.n; i++) {
		CHECK(!strstr(sk.recs[i].name, "getpid"), "%s recorded", sk.recs[i].name);
		for (size_t j = i + 1; j < sk.n; j++)
			if (sk.recs[j].cpu == sk.recs[i].cpu) {
				CHECK(sk.recs[j].ts >= sk.recs[i].ts, "cpu %d: out of order",
				      sk.recs[i].cpu);
				break;
			}
	}
	/* the worker's records, in program order */
	{
		struct rec mine[16];
		size_t k = 0;

		for (size_t i = 0; i < sk.n; i++)
			if (sk.recs[i].tid == w.tid && k < 16)
				mine[k++] = sk.recs[i];
		qsort(mine, k, sizeof(*mine), by_ts);
		CHECK_EQ(k, 8);
		if (k != 8)
			goto out;
		CHECK(!strcmp(mine[0].name, "syscall_entry_openat"));
		p.n = 0;
		PUT(&p, int32_t, -100);
		put_str(&p, "/etc/hostname");
		PUT(&p, int32_t, 524288);
		PUT(&p, uint16_t, 0);
		check_payload(&mine[0], &p, "open /etc/hostname");

		CHECK(!strcmp(mine[1].name, "syscall_exit_openat"));
		p.n = 0;
		PUT(&p, int64_t, w.fd);
		check_payload(&mine[1], &p, "its fd");

		CHECK(!strcmp(mine[2].name, "syscall_entry_openat"));
		p.n = 0;
		PUT(&p, int32_t, -100);
		put_str(&p, "/nonexistent/x");
		PUT(&p, int32_t, O_CREAT | O_WRONLY);
		PUT(&p, uint16_t, 0644);
		check_payload(&mine[2], &p, "create /nonexistent/x");

		CHECK(!strcmp(mine[3].name, "syscall_exit_openat"));
		p.n = 0;
		PUT(&p, int64_t, -2);
		check_payload(&mine[3], &p, "ENOENT");

		CHECK(!strcmp(mine[4].name, "syscall_entry_read"));
		p.n = 0;
		PUT(&p, uint32_t, w.fd);
		PUT(&p, uint64_t, 7);
		check_payload(&mine[4], &p, "read 7");

		CHECK(!strcmp(mine[5].name, "syscall_exit_read"));
		p.n = 0;
		PUT(&p, int64_t, st.st_size < 7 ? st.st_size : 7);
		PUT(&p, uint64_t, (uintptr_t)w.buf);
		check_payload(&mine[5], &p, "bytes read, and where");
		CHECK_EQ(w.nread, st.st_size < 7 ? st.st_size : 7);

		CHECK(!strcmp(mine[6].name, "syscall_entry_close"));
		p.n = 0;
		PUT(&p, uint32_t, w.fd);
		check_payload(&mine[6], &p, "close");

		CHECK(!strcmp(mine[7].name, "syscall_exit_close"));
		p.n = 0;
		PUT(&p, int64_t, 0);
		check_payload(&mine[7], &p, "closed");
		for (int i = 1; i < 8; i++)
			CHECK(mine[i].ts > mine[i - 1].ts);
	}
out:
	for (int cpu = 0; cpu < 64; cpu++)
		CHECK_EQ(ksyscalls_lost(s, cpu), 0);
	free(sk.recs);
	ksyscalls_free(s);
}

/* The first record of thread tid called name, or NULL. */
static const struct rec *first_of(const struct sink *sk, int32_t tid, const char *name)
{
	for (size_t i = 0; i < sk->n; i++)
		if (sk->recs[i].tid == tid && !strcmp(sk->recs[i].name, name))
			return &sk->recs[i];
	return NULL;
}

/*
 * The layouts LTTng makes by hand: a TCP connection on the loopback
 * (connect's address decoded at entry, accept4's at exit), pipe2's two
 * descriptors, execve's file name and hex pointers; a number without a
 * call (999) and a 32-bit one (int $0x80, 17) as the unknown-call events
 * (test_kernel_compat checks the named 32-bit calls).
 */
static void test_layouts(void)
{
	struct ksyscalls *s;
	struct sink sk = {0};
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct sockaddr_in peer;
	socklen_t salen = sizeof(sa), plen = sizeof(peer);
	int lfd, cfd, afd, pfd[2], e;
	/*
	 * On the stack: after fork, the child's pages of read-only data (a
	 * string literal) are not mapped until touched, and the probe cannot
	 * fault them in (docs/kernel.md).
	 */
	char path[] = "/bin/true";
	char *argv[] = {path, "x", NULL};
	char *envp[] = {NULL};
	const struct rec *r;
	char err[256];
	long ret32 = 0;
	int32_t self = (int32_t)syscall(SYS_gettid);
	pid_t child;
	struct pl p;

	check_part = "layouts";
	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return;
	CHECK_EQ(ksyscalls_enable(s, "connect", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "accept4", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "pipe2", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "execve", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "unknown", true, true), 1);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(lfd >= 0 && !bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) && !listen(lfd, 1) &&
	      !getsockname(lfd, (struct sockaddr *)&sa, &salen));
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	e = ksyscalls_start(s, 256 * 1024, err, sizeof(err));
	CHECK(e == 0, "start: %s", err);
	if (e)
		goto out;
	CHECK_EQ(connect(cfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	afd = accept4(lfd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC);
	CHECK(afd >= 0);
	CHECK_EQ(pipe2(pfd, O_CLOEXEC), 0);
	(void)syscall(999, 1, 2, 3, 4, 5, 6);
	/* i386's number 17 (`break`, which no kernel implements), through the 32-bit entry */
	__asm__ volatile("int $0x80" : "=a"(ret32) : "a"(17L) : "memory");
	child = fork();
	if (child == 0) {
		execve(path, argv, envp);
		_exit(127);
	}
	waitpid(child, NULL, 0);
	ksyscalls_stop(s);
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);

	r = first_of(&sk, self, "syscall_entry_connect");
	CHECK(r != NULL);
	if (r) {
		p.n = 0;
		PUT(&p, int32_t, cfd);
		PUT(&p, uint64_t, (uintptr_t)&sa);
		PUT(&p, int32_t, sizeof(sa));
		PUT(&p, uint16_t, AF_INET);
		put(&p, &sa.sin_port, 2); /* network order, as the field is declared */
		PUT(&p, uint32_t, 4);
		put(&p, &sa.sin_addr, 4);
		PUT(&p, uint32_t, 0); /* no IPv6 address */
		check_payload(r, &p, "connect");
	}
	r = first_of(&sk, self, "syscall_exit_connect");
	CHECK(r && r->len == 8 && !memcmp(r->payload, &(int64_t){0}, 8));
	r = first_of(&sk, self, "syscall_entry_accept4");
	CHECK(r != NULL);
	if (r) {
		p.n = 0;
		PUT(&p, int32_t, lfd);
		PUT(&p, uint64_t, (uintptr_t)&peer);
		PUT(&p, int32_t, sizeof(peer)); /* *upeer_addrlen at entry */
		PUT(&p, int32_t, SOCK_CLOEXEC);
		check_payload(r, &p, "accept4");
	}
	r = first_of(&sk, self, "syscall_exit_accept4");
	CHECK(r != NULL);
	if (r) {
		p.n = 0;
		PUT(&p, int64_t, afd);
		PUT(&p, int32_t, plen); /* at exit */
		PUT(&p, uint16_t, AF_INET);
		put(&p, &peer.sin_port, 2);
		PUT(&p, uint32_t, 4);
		put(&p, &peer.sin_addr, 4);
		PUT(&p, uint32_t, 0);
		check_payload(r, &p, "accepted peer");
	}
	r = first_of(&sk, self, "syscall_entry_pipe2");
	CHECK(r && r->len == 4 && !memcmp(r->payload, &(int32_t){O_CLOEXEC}, 4));
	r = first_of(&sk, self, "syscall_exit_pipe2");
	CHECK(r != NULL);
	if (r) {
		p.n = 0;
		PUT(&p, int64_t, 0);
		put(&p, pfd, 8);
		check_payload(r, &p, "pipe2's descriptors");
	}
	r = first_of(&sk, self, "syscall_entry_unknown");
	CHECK(r != NULL);
	if (r) {
		p.n = 0;
		PUT(&p, int32_t, 999);
		for (int i = 1; i <= 6; i++)
			PUT(&p, uint64_t, i);
		check_payload(r, &p, "an unknown call");
	}
	r = first_of(&sk, self, "syscall_exit_unknown");
	CHECK(r && r->len == 4 + 8 + 48 && !memcmp(r->payload + 4, &(int64_t){-ENOSYS}, 8));
	r = first_of(&sk, self, "compat_syscall_entry_unknown");
	CHECK(r && r->len == 4 + 48 && !memcmp(r->payload, &(int32_t){17}, 4));
	r = first_of(&sk, self, "compat_syscall_exit_unknown");
	CHECK(r && !memcmp(r->payload + 4, &(int64_t){-ENOSYS}, 8) && ret32 == -ENOSYS);
	r = first_of(&sk, child, "syscall_entry_execve");
	CHECK(r != NULL);
	if (r) {
		p.n = 0;
		put_str(&p, "/bin/true");
		PUT(&p, uint64_t, (uintptr_t)argv);
		PUT(&p, uint64_t, (uintptr_t)envp);
		check_payload(r, &p, "execve");
	}
	r = first_of(&sk, child, "syscall_exit_execve");
	CHECK(r && r->len == 8 && !memcmp(r->payload, &(int64_t){0}, 8));
	close(afd);
	close(pfd[0]);
	close(pfd[1]);
out:
	close(cfd);
	close(lfd);
	free(sk.recs);
	ksyscalls_free(s);
}

/* Opens (and closes) /etc/hostname n times; the number of records that makes. */
static void open_close(int n)
{
	for (int i = 0; i < n; i++)
		close((int)syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY, 0));
}

static void test_pids(void)
{
	struct ksyscalls *s;
	struct sink sk = {0};
	char err[256];
	pid_t child = fork();
	int e;

	check_part = "pids";
	if (child == 0) {
		pause();
		_exit(0);
	}
	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		goto out;
	CHECK_EQ(ksyscalls_enable(s, "*", true, true) > 300, 1);
	CHECK_EQ(ksyscalls_set_pids(s, &child, 1), 0);
	e = ksyscalls_start(s, 64 * 1024, err, sizeof(err));
	CHECK(e == 0, "start: %s", err);
	if (e)
		goto out;
	open_close(10);
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	usleep(20000);
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	CHECK_EQ(sk.seen, 0); /* the child sleeps in pause() */

	{
		int self = getpid();

		sk.only_tid = (int32_t)syscall(SYS_gettid);
		CHECK_EQ(ksyscalls_set_pids(s, &self, 1), 0);
		open_close(10);
		ksyscalls_stop(s);
		CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
		CHECK(sk.n >= 40, "%zu records of this thread", sk.n); /* 10 x openat, close */
	}
out:
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	free(sk.recs);
	ksyscalls_free(s);
}

/* Counts sk's records of thread tid called name. */
static unsigned int count_of(const struct sink *sk, int32_t tid, const char *name)
{
	unsigned int n = 0;

	for (size_t i = 0; i < sk->n; i++)
		n += sk->recs[i].tid == tid && !strcmp(sk->recs[i].name, name);
	return n;
}

struct oc {
	int n;
	int32_t tid;
};

static void *open_close_main(void *arg)
{
	struct oc *o = arg;

	o->tid = (int32_t)syscall(SYS_gettid);
	open_close(o->n);
	return NULL;
}

/* open_close(n) in a thread of its own (not this one, whose calls start and stop); its tid. */
static int32_t open_close_thread(int n)
{
	struct oc o = {n, 0};
	pthread_t th;

	pthread_create(&th, NULL, open_close_main, &o);
	pthread_join(th, NULL);
	return o.tid;
}

/* Calls enabled and disabled while recording, and a start after a stop. */
static void test_live(void)
{
	struct ksyscalls *s;
	struct sink sk = {0};
	int32_t t[5];
	char err[256];
	int e;

	check_part = "live";
	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return;
	CHECK_EQ(ksyscalls_enable(s, "openat", true, true), 1);
	e = ksyscalls_start(s, 256 * 1024, err, sizeof(err));
	CHECK(e == 0, "start: %s", err);
	if (e) {
		ksyscalls_free(s);
		return;
	}
	CHECK_EQ(ksyscalls_start(s, 4096, err, sizeof(err)), -EBUSY);
	t[0] = open_close_thread(5);
	CHECK_EQ(ksyscalls_enable(s, "openat", false, false), 1);
	t[1] = open_close_thread(7);
	CHECK_EQ(ksyscalls_enable(s, "close", false, true), 1); /* exits only */
	t[2] = open_close_thread(3);
	ksyscalls_stop(s);
	t[3] = open_close_thread(4); /* not recorded */
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	CHECK_EQ(count_of(&sk, t[0], "syscall_entry_openat"), 5);
	CHECK_EQ(count_of(&sk, t[0], "syscall_exit_openat"), 5);
	CHECK_EQ(count_of(&sk, t[0], "syscall_exit_close"), 0);
	CHECK_EQ(count_of(&sk, t[1], "syscall_exit_openat"), 0);
	CHECK_EQ(count_of(&sk, t[2], "syscall_entry_close"), 0);
	CHECK_EQ(count_of(&sk, t[2], "syscall_exit_close"), 3);
	CHECK_EQ(count_of(&sk, t[3], "syscall_exit_close"), 0);

	e = ksyscalls_start(s, 256 * 1024, err, sizeof(err));
	CHECK(e == 0, "start again: %s", err);
	t[4] = open_close_thread(2);
	ksyscalls_stop(s);
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	CHECK_EQ(count_of(&sk, t[4], "syscall_exit_close"), 2);
	CHECK_EQ(count_of(&sk, t[4], "syscall_entry_openat"), 0);
	free(sk.recs);
	ksyscalls_free(s);
}

/*
 * Probes recording this process's getppid calls into rings of ring_bytes
 * per CPU, started; NULL (said) when they cannot be.
 */
static struct ksyscalls *getppid_probes(size_t ring_bytes)
{
	struct ksyscalls *s;
	char err[256];
	int self = getpid(), e;

	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return NULL;
	CHECK_EQ(ksyscalls_enable(s, "getppid", true, true), 1);
	CHECK_EQ(ksyscalls_set_pids(s, &self, 1), 0);
	e = ksyscalls_start(s, ring_bytes, err, sizeof(err));
	CHECK(e == 0, "start: %s", err);
	if (e) {
		ksyscalls_free(s);
		return NULL;
	}
	return s;
}

/* Runs the calling thread on CPU 0 only (saved: its CPUs before), so that one ring fills. */
static void pin_cpu0(cpu_set_t *saved)
{
	cpu_set_t one;

	sched_getaffinity(0, sizeof(*saved), saved);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	CHECK_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
}

static void test_lost(void)
{
	struct ksyscalls *s;
	struct sink sk = {0};
	cpu_set_t saved;
	int calls = 20000;
	uint64_t lost = 0, mine = 0;

	check_part = "lost";
	if (!(s = getppid_probes(4096))) /* one page per CPU */
		return;
	pin_cpu0(&saved);
	sk.only_tid = (int32_t)syscall(SYS_gettid);
	for (int i = 0; i < calls; i++)
		(void)syscall(SYS_getppid);
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	(void)syscall(SYS_getppid); /* after a drain: recorded */
	calls++;
	sched_setaffinity(0, sizeof(saved), &saved);
	ksyscalls_stop(s);
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		lost += ksyscalls_lost(s, cpu);
	for (size_t i = 0; i < sk.n; i++)
		mine += strstr(sk.recs[i].name, "_getppid") != NULL;
	CHECK(lost > 0, "nothing lost with one page per CPU");
	CHECK_EQ(mine + lost, 2 * (uint64_t)calls);
	CHECK_EQ(mine, sk.n);
	printf("lost: %d calls, %llu records handed over, %llu lost\n", calls,
	       (unsigned long long)mine, (unsigned long long)lost);
	free(sk.recs);
	ksyscalls_free(s);
}

/*
 * More records than one consume takes from a ring (16,384) or hands over
 * from a queue (32,768): ksyscalls_pending() says so, and consumes again
 * give the rest, every record once, in time order.
 */
static void test_steps(void)
{
	struct ksyscalls *s;
	struct sink sk = {0};
	cpu_set_t saved;
	int calls = 30000, steps = 0;
	uint64_t lost = 0;
	long n;

	check_part = "steps";
	if (!(s = getppid_probes(16 << 20))) /* room for all */
		return;
	pin_cpu0(&saved);
	sk.only_tid = (int32_t)syscall(SYS_gettid);
	for (int i = 0; i < calls; i++)
		(void)syscall(SYS_getppid);
	sched_setaffinity(0, sizeof(saved), &saved);
	ksyscalls_stop(s);
	n = ksyscalls_consume(s, sink_fn, &sk);
	CHECK(n > 0 && n <= 16384, "one consume handed %ld", n);
	CHECK(ksyscalls_pending(s), "not pending after one consume of %d records", 2 * calls);
	while (ksyscalls_pending(s) && steps++ < 100)
		CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	CHECK(!ksyscalls_pending(s));
	CHECK(steps >= 3, "%d more consumes for %d records", steps, 2 * calls);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		lost += ksyscalls_lost(s, cpu);
	CHECK_EQ(lost, 0);
	CHECK_EQ(sk.n, 2 * (size_t)calls);
	for (size_t i = 1; i < sk.n; i++)
		CHECK(sk.recs[i].ts >= sk.recs[i - 1].ts, "record %zu out of order", i);
	free(sk.recs);
	ksyscalls_free(s);
}

/* Call name's index in s (ksyscalls_name), or -1. */
static int call_index(const struct ksyscalls *s, const char *name)
{
	for (unsigned int i = 0; i < ksyscalls_count(s); i++)
		if (!strcmp(ksyscalls_name(s, i), name))
			return (int)i;
	return -1;
}

/* Gives call i's direction the guards of one rule with filter text. */
static void guard_with(struct ksyscalls *s, int i, bool exit, const char *text)
{
	struct filter_error fe;
	struct kfilter *kf;
	struct kfpush_rule r;
	uint8_t *code;
	size_t len;

	if (filter_compile(text, &code, &len, &fe)) {
		CHECK(0, "cannot compile [%s]: %s", text, fe.msg);
		return;
	}
	kf = kfilter_new(code, len, &ksyscalls_class(s, (unsigned int)i, exit)->cls);
	r = (struct kfpush_rule){code, len, kf != NULL};
	CHECK_EQ(ksyscalls_set_guards(s, (unsigned int)i, exit, &r, 1), 0);
	kfilter_free(kf);
	free(code);
}

static void *getppid_main(void *arg)
{
	*(int32_t *)arg = (int32_t)syscall(SYS_gettid);
	for (int i = 0; i < 6; i++)
		(void)syscall(SYS_getppid);
	return NULL;
}

/* Names itself "kg-named", then calls getppid 3 times. */
static void *named_main(void *arg)
{
	prctl(PR_SET_NAME, "kg-named", 0, 0, 0);
	*(int32_t *)arg = (int32_t)syscall(SYS_gettid);
	for (int i = 0; i < 3; i++)
		(void)syscall(SYS_getppid);
	return NULL;
}

/*
 * Guards (ksyscalls_set_guards): the probes themselves leave out what a
 * filter rejects on registers, the return value and the thread (the
 * records handed over are not filtered after here), set before the start
 * and changed while recording.
 */
static void test_guards(void)
{
	struct ksyscalls *s;
	struct sink sk = {0};
	char err[256], buf[200];
	int self = getpid(), e, rd, gp, z1 = open("/dev/zero", O_RDONLY),
	    z2 = open("/dev/zero", O_RDONLY);
	int32_t me = (int32_t)syscall(SYS_gettid), other = 0, named = 0;
	pthread_t th;

	check_part = "guards";
	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s || z1 < 0 || z2 < 0)
		goto out;
	rd = call_index(s, "read");
	gp = call_index(s, "getppid");
	CHECK(rd >= 0 && gp >= 0);
	if (rd < 0 || gp < 0)
		goto out;
	CHECK_EQ(ksyscalls_enable(s, "read", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "getppid", true, true), 1);
	CHECK_EQ(ksyscalls_set_pids(s, &self, 1), 0);
	/* before the start: the entries of reads of z1 of 100 bytes or more; no exits (no fd) */
	snprintf(buf, sizeof(buf), "fd == %d && count >= 100", z1);
	guard_with(s, rd, false, buf);
	guard_with(s, rd, true, buf);
	e = ksyscalls_start(s, 1 << 20, err, sizeof(err));
	CHECK(e == 0, "start: %s", err);
	if (e)
		goto out;
	for (int i = 0; i < 5; i++)
		CHECK_EQ(read(z1, buf, 100), 100);
	for (int i = 0; i < 7; i++)
		CHECK_EQ(read(z2, buf, 100), 100);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(read(z1, buf, 50), 50);
	/* while recording: another thread's getppid calls only, entries and exits */
	snprintf(buf, sizeof(buf), "$ctx.tid != %d", (int)me);
	guard_with(s, gp, false, buf);
	guard_with(s, gp, true, "$ctx.tid != 0 && ret >= 0");
	for (int i = 0; i < 4; i++)
		(void)syscall(SYS_getppid);
	pthread_create(&th, NULL, getppid_main, &other);
	pthread_join(th, NULL);
	/* a thread's name (a prefix of it): only the named thread's calls */
	guard_with(s, gp, false, "$ctx.procname == \"kg-na*\"");
	guard_with(s, gp, true, "$ctx.procname == \"kg-named\"");
	pthread_create(&th, NULL, named_main, &named);
	pthread_join(th, NULL);
	for (int i = 0; i < 2; i++)
		(void)syscall(SYS_getppid);
	/* the read guards taken away: every read recorded again */
	CHECK_EQ(ksyscalls_set_guards(s, (unsigned int)rd, false, NULL, 0), 0);
	CHECK_EQ(ksyscalls_set_guards(s, (unsigned int)rd, true, NULL, 0), 0);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(read(z2, buf, 10), 10);
	ksyscalls_stop(s);
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	CHECK_EQ(count_of(&sk, me, "syscall_entry_read"), 5 + 2);
	CHECK_EQ(count_of(&sk, me, "syscall_exit_read"), 2);
	CHECK_EQ(count_of(&sk, me, "syscall_entry_getppid"), 0);
	CHECK_EQ(count_of(&sk, other, "syscall_entry_getppid"), 6);
	/* its exits: the entry's guard is not theirs (a tid other than 0 and ret >= 0: all) */
	CHECK_EQ(count_of(&sk, me, "syscall_exit_getppid"), 4);
	CHECK_EQ(count_of(&sk, other, "syscall_exit_getppid"), 6);
	CHECK_EQ(count_of(&sk, named, "syscall_entry_getppid"), 3);
	CHECK_EQ(count_of(&sk, named, "syscall_exit_getppid"), 3);
	for (size_t i = 0, k = 0; i < sk.n; i++) {
		int32_t fd;

		if (sk.recs[i].tid != me || strcmp(sk.recs[i].name, "syscall_entry_read"))
			continue;
		memcpy(&fd, sk.recs[i].payload, 4); /* fd: the first field */
		CHECK_EQ(fd, k++ < 5 ? z1 : z2);
	}
out:
	if (z1 >= 0)
		close(z1);
	if (z2 >= 0)
		close(z2);
	free(sk.recs);
	ksyscalls_free(s);
}

int main(void)
{
	struct stat st;
	char path[256];

	if (geteuid() != 0) {
		fprintf(stderr, "test_kernel_syscalls: needs root (BPF)\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/events", root);
	if (stat(path, &st) && mount("nodev", root, "tracefs", 0, NULL)) {
		CHECK(0, "tracefs is not mounted at %s and cannot be", root);
		return CHECK_RESULT();
	}
	test_table();
	test_record();
	test_layouts();
	test_live();
	test_pids();
	test_lost();
	test_steps();
	test_guards();
	return CHECK_RESULT();
}
