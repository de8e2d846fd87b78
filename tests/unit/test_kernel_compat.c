/*
 * test_kernel_compat.c - 32-bit system calls (int $0x80, the ia32 entry)
 * named per call, as LTTng-modules names them (src/kernel/syscall-compat.c;
 * root only):
 *  - the table: names from <asm/unistd_32.h> turned into the 32-bit
 *    kernel's function names (getuid16 at 24, getuid at 199, llseek at 140,
 *    newstat at 106), compat_syscall_entry_/exit_ events whose fields are
 *    the 64-bit call's where both have the call, trax's own arguments for
 *    the 32-bit-only ones, every type known, no number left without a
 *    call that this kernel has;
 *  - a thread of this 64-bit program makes 32-bit calls with int $0x80
 *    (the kernel treats them as a 32-bit program's): openat of
 *    /etc/hostname (its path in memory below 4 GiB), _llseek, lseek with a
 *    negative offset, read, close, getpid; enabling "openat" and the
 *    others by name records their compat events with exactly the
 *    arguments, strings and return values LTTng-modules would write
 *    (a signed long argument sign-extended from its 32-bit register).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "kernel/syscall-table.h"
#include "kernel/syscalls.h"

static const char *root = "/sys/kernel/tracing";

/* i386's numbers (arch/x86/entry/syscalls/syscall_32.tbl) */
#define NR32_READ   3
#define NR32_CLOSE  6
#define NR32_LSEEK  19
#define NR32_GETPID 20
#define NR32_LLSEEK 140
#define NR32_OPENAT 295

struct rec {
	char name[64];
	uint64_t ts;
	int32_t tid;
	uint8_t payload[256];
	size_t len;
};

struct sink {
	struct rec recs[64];
	size_t n;
	int32_t tid;
};

static int sink_fn(void *arg, const struct kevent_record *r)
{
	struct sink *s = arg;
	struct rec *x;

	if (r->tid != s->tid || s->n == sizeof(s->recs) / sizeof(s->recs[0]))
		return 0;
	x = &s->recs[s->n++];
	snprintf(x->name, sizeof(x->name), "%s", r->cls->cls.name);
	x->ts = r->ts;
	x->tid = r->tid;
	x->len = r->len < sizeof(x->payload) ? r->len : sizeof(x->payload);
	memcpy(x->payload, r->payload, x->len);
	return 0;
}

struct pl {
	uint8_t b[256];
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

static void check_rec(const struct rec *r, const char *name, const struct pl *want)
{
	CHECK(!strcmp(r->name, name), "%s where %s was expected", r->name, name);
	CHECK(r->len == want->n && !memcmp(r->payload, want->b, want->n),
	      "%s: payload differs (%zu bytes, %zu expected)", r->name, r->len, want->n);
}

/* ---- the table ---- */

static const struct sc_call *compat_nr(const struct sc_table *t, int nr)
{
	return t->by_nr32[nr] >= 0 ? &t->compat[t->by_nr32[nr]] : NULL;
}

static const struct sc_call *native(const struct sc_table *t, const char *name)
{
	for (unsigned int i = 0; i < t->ncalls; i++)
		if (!strcmp(t->calls[i].name, name))
			return &t->calls[i];
	return NULL;
}

static void check_named(const struct sc_table *t, int nr, const char *name, unsigned int nargs)
{
	const struct sc_call *c = compat_nr(t, nr);

	CHECK(c != NULL, "32-bit call %d (%s) has no event", nr, name);
	if (!c)
		return;
	CHECK(!strcmp(c->name, name), "32-bit call %d is %s, not %s", nr, c->name, name);
	CHECK(c->nargs == nargs, "%s: %u arguments, not %u", name, c->nargs, nargs);
}

static void test_table(void)
{
	struct sc_table t;
	const struct sc_call *c, *n;
	char err[256], want[80];

	check_part = "table";
	CHECK(sc_table_load(&t, root, err, sizeof(err)) == 0, "%s", err);
	CHECK(t.ncompat > 350, "%u 32-bit calls", t.ncompat);
	CHECK_EQ(t.fallback_types, 0);
	check_named(&t, NR32_OPENAT, "openat", 4);
	check_named(&t, 24, "getuid16", 0);
	check_named(&t, 199, "getuid", 0);
	check_named(&t, 23, "setuid16", 1);
	check_named(&t, NR32_LLSEEK, "llseek", 5);
	check_named(&t, 102, "socketcall", 2);
	check_named(&t, 192, "mmap_pgoff", 6);
	check_named(&t, 221, "fcntl64", 3);
	check_named(&t, 195, "stat64", 2);
	check_named(&t, 106, "newstat", 2);
	check_named(&t, 18, "stat", 2);
	check_named(&t, 265, "clock_gettime32", 2);
	check_named(&t, 403, "clock_gettime", 2);
	check_named(&t, 180, "ia32_pread64", 5);
	check_named(&t, 120, "clone", 5);
	CHECK_EQ(t.by_nr32[17], -1); /* break: no kernel has it */

	/* a call both ABIs have: the 64-bit call's fields, the compat names */
	c = compat_nr(&t, NR32_OPENAT);
	n = native(&t, "openat");
	CHECK(c && n);
	if (c && n) {
		for (int e = 0; e < 2; e++) {
			snprintf(want, sizeof(want), "compat_syscall_%s_openat",
				 e ? "exit" : "entry");
			CHECK(!strcmp(c->ev[e].name, want), "%s", c->ev[e].name);
			CHECK(!strcmp(c->ev[e].kc.cls.name, want));
			CHECK(c->ev[e].compat && !n->ev[e].compat);
			CHECK_EQ(c->ev[e].nfields, n->ev[e].nfields);
			for (unsigned int i = 0; i < c->ev[e].nfields && i < n->ev[e].nfields; i++)
				CHECK(!strcmp(c->ev[e].fields[i].name, n->ev[e].fields[i].name) &&
					  !memcmp(&c->ev[e].fields[i].type,
						  &n->ev[e].fields[i].type,
						  sizeof(c->ev[e].fields[i].type)),
				      "openat field %u", i);
		}
		CHECK_EQ(c->ev[0].cap[1], SC_CAP_STR);
	}
	/* the 32-bit clone's child_tid is its fifth argument */
	c = compat_nr(&t, 120);
	if (c)
		for (unsigned int i = 0; i < c->ev[0].nfields; i++)
			if (!strcmp(c->ev[0].fields[i].name, "child_tid"))
				CHECK_EQ(c->ev[0].src[i].arg, 4);
	sc_table_free(&t);
}

/* ---- recording ---- */

struct work {
	char *mem; /* below 4 GiB */
	pid_t tid;
	long fd, llseek_ret, lseek_ret, nread, close_ret, pid;
};

/* A 32-bit call of this 64-bit program: int $0x80 takes i386's registers. */
static long call32(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

static void *worker(void *arg)
{
	struct work *w = arg;
	long m = (long)(uintptr_t)w->mem;

	w->tid = (pid_t)syscall(SYS_gettid);
	w->fd = call32(NR32_OPENAT, AT_FDCWD, m, O_RDONLY, 0, 0);
	w->llseek_ret = call32(NR32_LLSEEK, w->fd, 0, 2, m + 64, SEEK_SET);
	w->lseek_ret = call32(NR32_LSEEK, w->fd, -1, SEEK_SET, 0, 0);
	w->nread = call32(NR32_READ, w->fd, m + 128, 7, 0, 0);
	w->close_ret = call32(NR32_CLOSE, w->fd, 0, 0, 0, 0);
	w->pid = call32(NR32_GETPID, 0, 0, 0, 0, 0);
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
	struct stat st;
	pthread_t th;
	char err[256];
	struct pl p;
	int e;

	check_part = "record";
	w.mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		     -1, 0);
	CHECK(w.mem != MAP_FAILED);
	if (w.mem == MAP_FAILED)
		return;
	strcpy(w.mem, "/etc/hostname");
	CHECK_EQ(stat("/etc/hostname", &st), 0);
	s = ksyscalls_new(root, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return;
	/* by name, as `enable-event -k --syscall NAME`: both ABIs */
	CHECK_EQ(ksyscalls_enable(s, "openat", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "read", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "close", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "getpid", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "lseek", true, true), 1);
	CHECK_EQ(ksyscalls_enable(s, "llseek", true, true), 1); /* 32-bit only */
	e = ksyscalls_start(s, 256 * 1024, err, sizeof(err));
	CHECK(e == 0, "start: %s", err);
	if (e) {
		ksyscalls_free(s);
		return;
	}
	pthread_create(&th, NULL, worker, &w);
	pthread_join(th, NULL);
	ksyscalls_stop(s);
	sk.tid = w.tid;
	CHECK(ksyscalls_consume(s, sink_fn, &sk) >= 0);
	CHECK(w.fd >= 0 && w.llseek_ret == 0 && w.lseek_ret == -EINVAL && w.close_ret == 0 &&
		  w.pid == getpid(),
	      "the calls: fd %ld, llseek %ld, lseek %ld, close %ld, pid %ld", w.fd, w.llseek_ret,
	      w.lseek_ret, w.close_ret, w.pid);
	/* from offset 2, where _llseek put it */
	CHECK_EQ(w.nread, (st.st_size - 2 < 7 ? st.st_size - 2 : 7));
	qsort(sk.recs, sk.n, sizeof(*sk.recs), by_ts);
	CHECK_EQ(sk.n, 12);
	if (sk.n != 12)
		goto out;

	p.n = 0;
	PUT(&p, int32_t, AT_FDCWD);
	put(&p, "/etc/hostname", 14);
	PUT(&p, int32_t, O_RDONLY);
	PUT(&p, uint16_t, 0);
	check_rec(&sk.recs[0], "compat_syscall_entry_openat", &p);
	p.n = 0;
	PUT(&p, int64_t, w.fd);
	check_rec(&sk.recs[1], "compat_syscall_exit_openat", &p);

	p.n = 0;
	PUT(&p, uint32_t, w.fd);
	PUT(&p, uint64_t, 0);
	PUT(&p, uint64_t, 2);
	PUT(&p, uint64_t, (uintptr_t)w.mem + 64);
	PUT(&p, uint32_t, SEEK_SET);
	check_rec(&sk.recs[2], "compat_syscall_entry_llseek", &p);
	p.n = 0;
	PUT(&p, int64_t, 0);
	check_rec(&sk.recs[3], "compat_syscall_exit_llseek", &p);

	p.n = 0;
	PUT(&p, uint32_t, w.fd);
	PUT(&p, int64_t, -1); /* off_t: sign-extended */
	PUT(&p, uint32_t, SEEK_SET);
	check_rec(&sk.recs[4], "compat_syscall_entry_lseek", &p);
	p.n = 0;
	PUT(&p, int64_t, -EINVAL);
	check_rec(&sk.recs[5], "compat_syscall_exit_lseek", &p);

	p.n = 0;
	PUT(&p, uint32_t, w.fd);
	PUT(&p, uint64_t, 7);
	check_rec(&sk.recs[6], "compat_syscall_entry_read", &p);
	p.n = 0;
	PUT(&p, int64_t, w.nread);
	PUT(&p, uint64_t, (uintptr_t)w.mem + 128);
	check_rec(&sk.recs[7], "compat_syscall_exit_read", &p);

	p.n = 0;
	PUT(&p, uint32_t, w.fd);
	check_rec(&sk.recs[8], "compat_syscall_entry_close", &p);
	p.n = 0;
	PUT(&p, int64_t, 0);
	check_rec(&sk.recs[9], "compat_syscall_exit_close", &p);

	p.n = 0;
	check_rec(&sk.recs[10], "compat_syscall_entry_getpid", &p);
	PUT(&p, int64_t, getpid());
	check_rec(&sk.recs[11], "compat_syscall_exit_getpid", &p);
out:
	ksyscalls_free(s);
	munmap(w.mem, 4096);
}

int main(void)
{
	struct stat st;
	char path[256];

	if (geteuid() != 0) {
		fprintf(stderr, "test_kernel_compat: needs root (BPF)\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/events", root);
	if (stat(path, &st) && mount("nodev", root, "tracefs", 0, NULL)) {
		CHECK(0, "tracefs is not mounted at %s and cannot be", root);
		return CHECK_RESULT();
	}
	test_table();
	test_record();
	return CHECK_RESULT();
}
