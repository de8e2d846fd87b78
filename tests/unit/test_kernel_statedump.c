/*
 * test_kernel_statedump.c - the kernel state dump (src/kernel/statedump.c)
 * on a /proc and /sys tree made here (processes with odd names, threads in
 * every state, a nested PID and user namespace, kernel threads, a
 * workqueue worker, a zombie, processes that vanished, file descriptors,
 * memory maps, interrupts from sysfs and from /proc/interrupts, network
 * interfaces, block devices, CPUs), then on the real /proc: every record
 * is decoded through its class's description and compared as text,
 * "lttng_statedump_process_state tid=100 pid=100 ...".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "common/strbuf.h"
#include "kernel/statedump.h"
#include "writer/metadata.h"
#include "writer/stream-file.h"
#include "writer/trace-env.h"

/* ---- the records, decoded as text ---- */

struct log {
	char **lines;
	size_t n, cap;
	uint64_t last_ts;
	int cpu;
	int fail_at; /* > 0: the sink fails on that record */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* One integer of the payload at *at, as its type says; false when it overruns. */
static bool decode_int(const struct ctfw_integer *t, const uint8_t *p, size_t len, size_t *at,
		       char *out, size_t size)
{
	size_t n = t->size / 8;
	uint64_t v = 0;

	if (t->align != 8 || t->size % 8 || *at + n > len)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned int shift = t->byte_order == CTFW_BYTE_ORDER_BE ? 8 * (n - 1 - i) : 8 * i;

		v |= (uint64_t)p[*at + i] << shift;
	}
	*at += n;
	if (t->base == 16)
		append(out, size, "0x%llx", (unsigned long long)v);
	else if (t->base == 8)
		append(out, size, "0%llo", (unsigned long long)v);
	else if (t->is_signed) {
		int64_t s =
		    n < 8 && (v >> (8 * n - 1)) ? (int64_t)(v | ~0ull << (8 * n)) : (int64_t)v;

		append(out, size, "%lld", (long long)s);
	} else
		append(out, size, "%llu", (unsigned long long)v);
	return true;
}

static int sink(void *arg, const struct kevent_record *r)
{
	struct log *log = arg;
	const struct ctfw_event_class *cls = &r->cls->cls;
	const uint8_t *p = r->payload;
	size_t at = 0;
	char line[8192];

	if (log->fail_at > 0 && (int)log->n + 1 == log->fail_at)
		return -ENOSPC;
	CHECK(r->cpu == log->cpu && r->tid == gettid(), "cpu %d tid %d", r->cpu, r->tid);
	CHECK(r->ts >= log->last_ts && r->ts <= now_ns(), "time %llu after %llu",
	      (unsigned long long)r->ts, (unsigned long long)log->last_ts);
	CHECK(r->cls->id == KEVENT_ID_NONE);
	log->last_ts = r->ts;
	snprintf(line, sizeof(line), "%s", cls->name);
	for (unsigned int i = 0; i < cls->nr_fields; i++) {
		const struct ctfw_field *f = &cls->fields[i];
		bool ok = true;

		append(line, sizeof(line), " %s=", f->name);
		if (f->type.kind == CTFW_TYPE_INTEGER) {
			ok = decode_int(&f->type.integer, p, r->len, &at, line, sizeof(line));
		} else if (f->type.kind == CTFW_TYPE_STRING) {
			const uint8_t *nul = at < r->len ? memchr(p + at, 0, r->len - at) : NULL;

			ok = nul != NULL;
			if (ok) {
				append(line, sizeof(line), "\"%s\"", (const char *)p + at);
				at = (size_t)(nul - p) + 1;
			}
		} else if (f->type.kind == CTFW_TYPE_ARRAY) {
			const struct ctfw_type *e = f->type.array.elem;
			size_t n = f->type.array.length;

			ok = e->kind == CTFW_TYPE_INTEGER && e->integer.size == 8 &&
			     e->integer.encoding == CTFW_ENCODING_UTF8 && at + n <= r->len;
			if (ok) {
				size_t textlen = strnlen((const char *)p + at, n);

				append(line, sizeof(line), "\"%.*s\"", (int)textlen,
				       (const char *)p + at);
				for (size_t k = textlen; k < n;
				     k++) /* NUL-padded, as the kernel's comm */
					CHECK(p[at + k] == 0, "%s: byte %zu of %s", cls->name, k,
					      f->name);
				at += n;
			}
		} else {
			ok = false;
		}
		CHECK(ok, "%s: field %s does not decode", cls->name, f->name);
		if (!ok)
			return 0;
	}
	CHECK(at == r->len, "%s: %zu bytes described, %zu written", cls->name, at, r->len);
	if (log->n == log->cap) {
		log->cap = log->cap ? log->cap * 2 : 256;
		log->lines = realloc(log->lines, log->cap * sizeof(*log->lines));
	}
	log->lines[log->n++] = strdup(line);
	return 0;
}

static void log_free(struct log *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->lines[i]);
	free(log->lines);
	memset(log, 0, sizeof(*log));
}

static void log_print(const struct log *log)
{
	for (size_t i = 0; i < log->n; i++)
		fprintf(stderr, "  %zu: %s\n", i, log->lines[i]);
}

/* The index of the record that is exactly `line`, or -1. */
static long find(const struct log *log, const char *line)
{
	for (size_t i = 0; i < log->n; i++)
		if (!strcmp(log->lines[i], line))
			return (long)i;
	return -1;
}

/* The index of the first record starting with prefix, from `from`, or -1. */
static long find_prefix(const struct log *log, size_t from, const char *prefix)
{
	for (size_t i = from; i < log->n; i++)
		if (!strncmp(log->lines[i], prefix, strlen(prefix)))
			return (long)i;
	return -1;
}

static size_t count_prefix(const struct log *log, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; i < log->n; i++)
		n += !strncmp(log->lines[i], prefix, strlen(prefix));
	return n;
}

#define EXPECT(log, line)                                                                          \
	do {                                                                                       \
		CHECK(find(log, line) >= 0, "no record \"%s\"", line);                             \
	} while (0)

/* ---- a /proc and /sys tree ---- */

static char root[PATH_MAX];

static const char *at_root(const char *fmt, va_list ap)
{
	static char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/", root);

	vsnprintf(path + n, sizeof(path) - (size_t)n, fmt, ap);
	return path;
}

static void mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
}

/* Writes text to the file ROOT/path (its directories made). */
static void put(const char *text, const char *fmt, ...)
{
	va_list ap;
	char path[PATH_MAX];
	FILE *f;

	va_start(ap, fmt);
	snprintf(path, sizeof(path), "%s", at_root(fmt, ap));
	va_end(ap);
	mkdirs(path);
	f = fopen(path, "w");
	CHECK(f != NULL, "%s: %s", path, strerror(errno));
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A symbolic link ROOT/path -> target, as /proc's fd and ns links. */
static void link_to(const char *target, const char *fmt, ...)
{
	va_list ap;
	char path[PATH_MAX];

	va_start(ap, fmt);
	snprintf(path, sizeof(path), "%s", at_root(fmt, ap));
	va_end(ap);
	mkdirs(path);
	CHECK(symlink(target, path) == 0, "%s: %s", path, strerror(errno));
}

static void dir(const char *fmt, ...)
{
	va_list ap;
	char path[PATH_MAX];

	va_start(ap, fmt);
	snprintf(path, sizeof(path), "%s/", at_root(fmt, ap));
	va_end(ap);
	mkdirs(path);
}

/* A stat line as the kernel writes it (52 fields), with what the dump reads. */
static void put_stat(int pid, int tid, const char *comm, char state, int ppid, unsigned int flags,
		     int cpu, int policy)
{
	char line[1024];

	snprintf(line, sizeof(line), "%d (%s) %c %d %d %d 0 -1 %u", tid, comm, state, ppid, pid,
		 pid, flags);
	for (int field = 10; field <= 52; field++)
		append(line, sizeof(line), " %d", field == 39 ? cpu : field == 41 ? policy : field);
	append(line, sizeof(line), "\n");
	put(line, "proc/%d/task/%d/stat", pid, tid);
}

static void put_status(int pid, int tid, const char *ids, const char *nstgid, const char *nspid)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "Name:\tx\nState:\tS (sleeping)\nTgid:\t%d\nPid:\t%d\n%sNStgid:\t%s\nNSpid:\t%s\n",
		 pid, tid, ids, nstgid, nspid);
	put(text, "proc/%d/task/%d/status", pid, tid);
}

/* The namespace links of a thread; the inodes are base + 1..8 (pid, user, cgroup...). */
static void put_ns(int pid, int tid, unsigned int base, bool with_time)
{
	static const char *kinds[] = {"pid", "user", "cgroup", "ipc", "mnt", "net", "uts", "time"};
	char target[64];

	for (unsigned int i = 0; i < 8; i++) {
		if (i == 7 && !with_time)
			continue;
		snprintf(target, sizeof(target), "%s:[%u]", kinds[i], base + 1 + i);
		link_to(target, "proc/%d/task/%d/ns/%s", pid, tid, kinds[i]);
	}
}

#define UIDS	 "Uid:\t1000\t1000\t1000\t1000\nGid:\t100\t100\t100\t100\n"
#define ROOT_IDS "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
#define NS0	 4026531000u /* the reader's namespaces: NS0 + 1 pid, + 2 user... */

static void make_tree(void)
{
	link_to("pid:[4026531001]", "proc/self/ns/pid");
	link_to("user:[4026531002]", "proc/self/ns/user");

	/* 100: a name with spaces and parentheses; threads asleep, runnable, real-time, gone */
	put_stat(100, 100, "a) b (c", 'S', 1, 0x400100, 1, 0);
	put_status(100, 100, UIDS, "100", "100");
	put_ns(100, 100, NS0, true);
	put("Name:\tx\nNStgid:\t100\nNSpid:\t100\n", "proc/100/status");
	put_stat(100, 101, "worker", 'R', 1, 0x400040, 0, 0);
	put_status(100, 101, UIDS, "100", "101");
	put_ns(100, 101, NS0, true);
	put_stat(100, 102, "rt", 'R', 1, 0x400040, 1, 1);
	put_status(100, 102, UIDS, "100", "102");
	put_ns(100, 102, NS0, false);
	dir("proc/100/task/103"); /* exited while the dump ran */
	link_to("/dev/null", "proc/100/fd/0");
	put("pos:\t0\nflags:\t0100002\nmnt_id:\t25\nino:\t5\n", "proc/100/fdinfo/0");
	link_to("socket:[12345]", "proc/100/fd/3");
	put("pos:\t0\nflags:\t02000001\nmnt_id:\t8\nino:\t12345\n", "proc/100/fdinfo/3");
	link_to("/tmp/with space (deleted)", "proc/100/fd/7");
	put("pos:\t10\nflags:\t0100000\nmnt_id:\t25\nino:\t77\n", "proc/100/fdinfo/7");
	link_to("/closed", "proc/100/fd/9"); /* its fdinfo is gone: closed meanwhile */
	put("55d0c0a00000-55d0c0a21000 r-xp 00002000 fd:01 1311                       "
	    "/usr/bin/a b\n"
	    "7ffd10000000-7ffd10021000 rw-s 00000000 00:00 0                          [stack]\n"
	    "not a map\n"
	    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0",
	    "proc/100/maps");

	/* 200: in a PID and a user namespace of its own, child of 100 */
	put_stat(200, 200, "contained", 'D', 100, 0x400100, 0, 0);
	put_status(200, 200,
		   "Uid:\t100000\t100000\t100000\t100000\nGid:\t100005\t100005\t100005\t100005\n",
		   "200\t1", "200\t1");
	link_to("pid:[4026532200]", "proc/200/task/200/ns/pid");
	link_to("user:[4026532300]", "proc/200/task/200/ns/user");
	link_to("net:[4026532400]", "proc/200/task/200/ns/net");
	put("         0     100000      65536\n", "proc/200/task/200/uid_map");
	put("         0     100000      65536\n", "proc/200/task/200/gid_map");
	dir("proc/200/fd");
	put("", "proc/200/maps");

	/* kernel threads: kthreadd, an interrupt's thread, a workqueue worker, a long name */
	put_stat(2, 2, "kthreadd", 'S', 0, 0x208040, 1, 0);
	put_status(2, 2, ROOT_IDS, "2", "2");
	put_stat(50, 50, "irq/26-ttyS0", 'S', 2, 0x208040, 0, 1);
	put_status(50, 50, ROOT_IDS, "50", "50");
	put_stat(60, 60, "kworker/0:2-events", 'I', 2, 0x4208060, 0, 0);
	put_status(60, 60, ROOT_IDS, "60", "60");
	put("kworker/0:2 (60, #threads: 1)\n-------------------\nse.exec_start : 1\n",
	    "proc/60/task/60/sched");
	put_stat(70, 70, "kworker/R-mm_percpu_wq", 'P', 2, 0x208040, 1, 0);
	put_status(70, 70, ROOT_IDS, "70", "70");

	/* a zombie: no namespaces but its PID and user ones, no files */
	put_stat(80, 80, "defunct", 'Z', 100, 0x400044, 1, 0);
	put_status(80, 80, UIDS, "80", "80");
	link_to("pid:[4026531001]", "proc/80/task/80/ns/pid");
	link_to("user:[4026531002]", "proc/80/task/80/ns/user");

	/* processes that vanished, or that lie */
	dir("proc/300");
	put("301 no parentheses S 1\n", "proc/301/task/301/stat");
	put("302 (truncated) S 1 302 302 0 -1 0 1 2 3\n", "proc/302/task/302/stat");

	/* interrupts */
	put("IO-APIC\n", "sys/kernel/irq/26/chip_name");
	put("ttyS0\n", "sys/kernel/irq/26/actions");
	put("IO-APIC\n", "sys/kernel/irq/27/chip_name");
	put("\n", "sys/kernel/irq/27/actions");
	put("PCI-MSIX-0000:00:01.0\n", "sys/kernel/irq/28/chip_name");
	put("virtio0-config,virtio0-extra\n", "sys/kernel/irq/28/actions");
	put("\n", "sys/kernel/irq/129/chip_name");
	put("x\n", "sys/kernel/irq/129/actions");
	put("           CPU0       CPU1       \n"
	    "  0:         44          0   IO-APIC   2-edge      timer\n"
	    " 26:          0         14   IO-APIC   4-edge      ttyS0, extra\n"
	    " 27:          0          0   IO-APIC   5-edge\n"
	    "NMI:          0          0   Non-maskable interrupts\n"
	    "ERR:          0\n",
	    "proc/interrupts");

	/* network interfaces: the loopback (its addresses are the machine's), one down, one without
	 */
	put("0x9\n", "sys/class/net/lo/flags");
	put("1\n", "sys/class/net/lo/ifindex");
	put("0x1002\n", "sys/class/net/trxdown0/flags");
	put("7\n", "sys/class/net/trxdown0/ifindex");
	put("0x1003\n", "sys/class/net/trxnoaddr0/flags");
	put("9\n", "sys/class/net/trxnoaddr0/ifindex");
	put("1\n", "sys/class/net/bonding_masters");

	put("major minor  #blocks  name\n\n"
	    " 254        0  268435456 vda\n"
	    " 254        1       1024 vda1\n"
	    "   7        0          0 loop0\n"
	    " 259   131072       1000 nvme0n1p1\n",
	    "proc/partitions");

	put("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
	    "model name\t: Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz\nstepping\t: 4\n"
	    "physical id\t: 0\nsiblings\t: 2\ncore id\t\t: 0\ncpu cores\t: 2\nflags\t\t: fpu\n\n"
	    "processor\t: 1\nvendor_id\t: \ncpu family\t: 23\nmodel\t\t: 300\nmodel name\t: \n"
	    "physical id\t: 1\ncore id\t\t: 3\ncpu cores\t: 2\n\n",
	    "proc/cpuinfo");
}

/* The tree without /sys/kernel/irq, as on kernels without sparse interrupts. */
static void remove_irq_dir(void)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/kernel/irq'", root);
	CHECK(system(cmd) == 0);
}

static void rm_tree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

static void check_ns(const struct log *log, int tid, unsigned int base, bool with_time)
{
	static const char *kinds[] = {"cgroup", "ipc", "mnt", "net", "uts", "time"};
	char line[256];

	snprintf(line, sizeof(line),
		 "lttng_statedump_process_pid_ns tid=%d vtid=%d vpid=100 vppid=1 ns_level=0 "
		 "ns_inum=%u",
		 tid, tid, base + 1);
	EXPECT(log, line);
	snprintf(line, sizeof(line),
		 "lttng_statedump_process_user_ns tid=%d vuid=1000 vgid=100 ns_level=0 ns_inum=%u",
		 tid, base + 2);
	EXPECT(log, line);
	for (unsigned int i = 0; i < 6; i++) {
		snprintf(line, sizeof(line), "lttng_statedump_process_%s_ns tid=%d ns_inum=%u",
			 kinds[i], tid, base + 3 + i);
		if (i == 5 && !with_time)
			CHECK(find(log, line) < 0, "%s", line);
		else
			EXPECT(log, line);
	}
}

/* ---- the records in a CTF trace, read by Babeltrace 2 ---- */

struct ctf_out {
	struct ctfw_stream_file f;
	struct strbuf meta;
	const struct kevent_class *classes[32]; /* the id of a class is its index */
	unsigned int nr_classes;
};

/* Gives each class an id of this trace's own: the classes' id fields are left alone. */
static int ctf_sink(void *arg, const struct kevent_record *r)
{
	struct ctf_out *o = arg;
	unsigned int id = 0;
	void *p;

	while (id < o->nr_classes && o->classes[id] != r->cls)
		id++;
	if (id == o->nr_classes) {
		if (id == sizeof(o->classes) / sizeof(o->classes[0]))
			return -E2BIG;
		o->classes[o->nr_classes++] = r->cls;
		ctf_metadata_event(&o->meta, &r->cls->cls, id, 0);
	}
	p = ctfw_stream_file_reserve(&o->f, id, r->ts, r->len);
	if (!p)
		return -EIO;
	memcpy(p, r->payload, r->len);
	return 0;
}

static void test_babeltrace(const char *proc, const char *sys)
{
	static const uint8_t uuid[16] = {7, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	struct ctfw_env_entry env[CTF_ENV_UST_MAX];
	struct ctf_env_ust_desc ed = {.buffering_id = 0,
				      .bits = 64,
				      .trace_name = "statedump",
				      .creation_datetime = "20260101T000000+0000",
				      .hostname = "host"};
	struct ctfw_trace trace = {
	    .clock = {"monotonic", "monotonic", 1000000000, 0, 0,
		      "07020304-0506-0708-090a-0b0c0d0e0f10"},
	    .env = env,
	};
	struct ctfw_stream stream = {.id = 0};
	struct ctf_out o = {.nr_classes = 0};
	char dir[PATH_MAX + 8], cmd[3 * PATH_MAX], path[PATH_MAX + 32];
	FILE *f;
	static char text[1 << 16];
	size_t n = 0;

	check_part = "babeltrace2";
	snprintf(dir, sizeof(dir), "%s/trace", root);
	CHECK(mkdir(dir, 0755) == 0);
	memcpy(trace.uuid, uuid, 16);
	trace.nr_env = ctf_env_ust(env, &ed);
	strbuf_init(&o.meta);
	ctf_metadata_trace(&o.meta, &trace);
	ctf_metadata_stream(&o.meta, &stream);
	CHECK_EQ(ctfw_stream_file_open(&o.f, dir, "channel0_1", uuid, 0, 1, 1 << 16), 0);
	CHECK_EQ(kstatedump_run(ctf_sink, &o, 1, proc, sys), 0);
	CHECK_EQ(ctfw_stream_file_close(&o.f, now_ns()), 0);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "w");
	CHECK(f && fwrite(o.meta.buf, 1, o.meta.len, f) == o.meta.len && !o.meta.failed);
	if (f)
		fclose(f);
	strbuf_free(&o.meta);

	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' 2>&1 | sed 's/^\\[[^]]*\\] //'", dir);
	f = popen(cmd, "r");
	CHECK(f != NULL);
	if (f) {
		n = fread(text, 1, sizeof(text) - 1, f);
		CHECK(pclose(f) == 0, "babeltrace2 is needed (and must read the trace):\n%s", text);
	}
	text[n] = '\0';
	static const char *const lines[] =
	{ "lttng_statedump_start: { cpu_id = 1 }, { }\n",
	  "lttng_statedump_process_state: { cpu_id = 1 }, { tid = 100, pid = 100, ppid = 1, "
	  "name = \"a) b (c\", type = 0, mode = 5, submode = 0, status = 5, cpu = 1, "
	  "file_table_address = 0x64 }\n",
	  "lttng_statedump_process_pid_ns: { cpu_id = 1 }, { tid = 200, vtid = 1, vpid = 1, "
	  "vppid = 0, ns_level = 1, ns_inum = 4026532200 }\n",
	  "lttng_statedump_process_user_ns: { cpu_id = 1 }, { tid = 200, vuid = 0, vgid = 5, "
	  "ns_level = 1, ns_inum = 4026532300 }\n",
	  "lttng_statedump_process_net_ns: { cpu_id = 1 }, { tid = 200, ns_inum = 4026532400 }\n",
	  "lttng_statedump_file_descriptor: { cpu_id = 1 }, { file_table_address = 0x64, fd = 3, "
	  "flags = 02000001, fmode = 0x2, filename = \"socket:[12345]\" }\n",
	  "lttng_statedump_vm_map: { cpu_id = 1 }, { pid = 100, start = 0x55D0C0A00000, "
	  "end = 0x55D0C0A21000, flags = 0x5, inode = 1311, pgoff = 8192 }\n",
	  "lttng_statedump_interrupt: { cpu_id = 1 }, { irq = 26, name = \"IO-APIC\", "
	  "action = \"ttyS0\", tid = 50 }\n",
	  "lttng_statedump_network_interface: { cpu_id = 1 }, { name = \"lo\", "
	  "address_ipv4 = 0x7F000001 }\n",
	  "lttng_statedump_block_device: { cpu_id = 1 }, { dev = 266338305, diskname = \"vda1\" "
	  "}\n",
#if defined(__x86_64__) || defined(__i386__)
	  "lttng_statedump_cpu_topology: { cpu_id = 1 }, { architecture = \"x86\", cpu_id = 1, "
	  "vendor = \"unknown\", family = 23, model = 44, model_name = \"unknown\", "
	  "physical_id = 1, core_id = 3, cores = 2 }\n",
#endif
	  "lttng_statedump_end: { cpu_id = 1 }, { }\n",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		CHECK(strstr(text, lines[i]), "babeltrace2 did not print:\n%s", lines[i]);
	if (failures || getenv("SD_PRINT"))
		fprintf(stderr, "babeltrace2:\n%s\n", text);
}

static void test_fake_tree(void)
{
	struct log log = {.cpu = 1};
	char proc[PATH_MAX + 8], sys[PATH_MAX + 8], line[512];
	struct ifaddrs *addrs, *a;
	int ret;

	check_part = "fake tree";
	snprintf(root, sizeof(root), "%s/trax-statedump-XXXXXX", getenv("TMPDIR") ?: "/tmp");
	CHECK(mkdtemp(root) != NULL, "%s", strerror(errno));
	make_tree();
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);

	ret = kstatedump_run(sink, &log, 1, proc, sys);
	CHECK_EQ(ret, 0);
	CHECK(log.n > 2 && !strcmp(log.lines[0], "lttng_statedump_start") &&
	      !strcmp(log.lines[log.n - 1], "lttng_statedump_end"));
	CHECK_EQ(count_prefix(&log, "lttng_statedump_start"), 1);
	CHECK_EQ(count_prefix(&log, "lttng_statedump_end"), 1);

	/* threads: names, parents, states (LTTng's codes), CPUs, the shared table */
	EXPECT(&log, "lttng_statedump_process_state tid=100 pid=100 ppid=1 name=\"a) b (c\" type=0 "
		     "mode=5 submode=0 status=5 cpu=1 file_table_address=0x64");
	EXPECT(&log, "lttng_statedump_process_state tid=101 pid=100 ppid=1 name=\"worker\" type=0 "
		     "mode=5 submode=0 status=1 cpu=0 file_table_address=0x64");
	EXPECT(&log, "lttng_statedump_process_state tid=102 pid=100 ppid=1 name=\"rt\" type=0 "
		     "mode=5 submode=0 status=2 cpu=1 file_table_address=0x64");
	EXPECT(&log, "lttng_statedump_process_state tid=200 pid=200 ppid=100 name=\"contained\" "
		     "type=0 mode=5 submode=0 status=5 cpu=0 file_table_address=0xc8");
	EXPECT(&log, "lttng_statedump_process_state tid=2 pid=2 ppid=0 name=\"kthreadd\" type=1 "
		     "mode=5 submode=0 status=5 cpu=1 file_table_address=0x2");
	EXPECT(&log, "lttng_statedump_process_state tid=50 pid=50 ppid=2 name=\"irq/26-ttyS0\" "
		     "type=1 mode=5 submode=0 status=5 cpu=0 file_table_address=0x32");
	EXPECT(&log, "lttng_statedump_process_state tid=60 pid=60 ppid=2 name=\"kworker/0:2\" "
		     "type=1 mode=5 submode=0 status=5 cpu=0 file_table_address=0x3c");
	EXPECT(&log, "lttng_statedump_process_state tid=70 pid=70 ppid=2 name=\"kworker/R-mm_pe\" "
		     "type=1 mode=5 submode=0 status=0 cpu=1 file_table_address=0x46");
	EXPECT(&log, "lttng_statedump_process_state tid=80 pid=80 ppid=100 name=\"defunct\" type=1 "
		     "mode=5 submode=0 status=4 cpu=1 file_table_address=0x50");
	CHECK_EQ(count_prefix(&log, "lttng_statedump_process_state"), 9);
	CHECK(find_prefix(&log, 0, "lttng_statedump_process_state tid=103") < 0);
	CHECK(find_prefix(&log, 0, "lttng_statedump_process_state tid=30") < 0);

	/* namespaces */
	check_ns(&log, 100, NS0, true);
	check_ns(&log, 101, NS0, true);
	check_ns(&log, 102, NS0, false);
	EXPECT(&log, "lttng_statedump_process_pid_ns tid=200 vtid=1 vpid=1 vppid=0 ns_level=1 "
		     "ns_inum=4026532200");
	EXPECT(&log, "lttng_statedump_process_pid_ns tid=200 vtid=200 vpid=200 vppid=100 "
		     "ns_level=0 ns_inum=4026531001");
	CHECK(find(&log, "lttng_statedump_process_pid_ns tid=200 vtid=1 vpid=1 vppid=0 ns_level=1 "
			 "ns_inum=4026532200") <
	      find(&log, "lttng_statedump_process_pid_ns tid=200 vtid=200 vpid=200 vppid=100 "
			 "ns_level=0 ns_inum=4026531001"));
	EXPECT(&log, "lttng_statedump_process_user_ns tid=200 vuid=0 vgid=5 ns_level=1 "
		     "ns_inum=4026532300");
	EXPECT(&log, "lttng_statedump_process_user_ns tid=200 vuid=100000 vgid=100005 ns_level=0 "
		     "ns_inum=4026531002");
	EXPECT(&log, "lttng_statedump_process_net_ns tid=200 ns_inum=4026532400");
	CHECK_EQ(count_prefix(&log, "lttng_statedump_process_pid_ns tid=200 "), 2);
	CHECK_EQ(count_prefix(&log, "lttng_statedump_process_ipc_ns tid=200 "), 0);
	EXPECT(&log, "lttng_statedump_process_pid_ns tid=80 vtid=80 vpid=80 vppid=100 ns_level=0 "
		     "ns_inum=4026531001");
	CHECK_EQ(count_prefix(&log, "lttng_statedump_process_net_ns tid=80 "), 0);
	/* kernel threads without links: a namespace of inode 0, as LTTng's NULL one */
	EXPECT(&log, "lttng_statedump_process_pid_ns tid=2 vtid=2 vpid=2 vppid=0 ns_level=0 "
		     "ns_inum=0");

	/* file descriptors: after the first thread's namespaces, before the second thread */
	long fd0 = find(&log, "lttng_statedump_file_descriptor file_table_address=0x64 fd=0 "
			      "flags=0100002 fmode=0x3 filename=\"/dev/null\"");
	long fd3 = find(&log, "lttng_statedump_file_descriptor file_table_address=0x64 fd=3 "
			      "flags=02000001 fmode=0x2 filename=\"socket:[12345]\"");
	long fd7 = find(&log, "lttng_statedump_file_descriptor file_table_address=0x64 fd=7 "
			      "flags=0100000 fmode=0x1 filename=\"/tmp/with space (deleted)\"");
	long t100 = find_prefix(&log, 0, "lttng_statedump_process_state tid=100 ");
	long t101 = find_prefix(&log, 0, "lttng_statedump_process_state tid=101 ");
	long ns100 = find_prefix(&log, 0, "lttng_statedump_process_time_ns tid=100 ");

	CHECK(fd0 > ns100 && fd3 == fd0 + 1 && fd7 == fd3 + 1 && t101 > fd7 && ns100 > t100,
	      "state %ld ns %ld fds %ld %ld %ld next thread %ld", t100, ns100, fd0, fd3, fd7, t101);
	CHECK_EQ(count_prefix(&log, "lttng_statedump_file_descriptor"), 3);

	/* memory maps: after the files */
	long m1 =
	    find(&log, "lttng_statedump_vm_map pid=100 start=0x55d0c0a00000 end=0x55d0c0a21000 "
		       "flags=0x5 inode=1311 pgoff=8192");

	CHECK(m1 == fd7 + 1, "map at %ld", m1);
	EXPECT(&log, "lttng_statedump_vm_map pid=100 start=0x7ffd10000000 end=0x7ffd10021000 "
		     "flags=0xb inode=0 pgoff=0");
	EXPECT(&log, "lttng_statedump_vm_map pid=100 start=0xffffffffff600000 "
		     "end=0xffffffffff601000 flags=0x4 inode=0 pgoff=0");
	CHECK_EQ(count_prefix(&log, "lttng_statedump_vm_map"), 3);

	/* interrupts: the threaded handler's thread found among the tasks */
	long irq = find(&log, "lttng_statedump_interrupt irq=26 name=\"IO-APIC\" action=\"ttyS0\" "
			      "tid=50");

	CHECK(irq > find_prefix(&log, 0, "lttng_statedump_vm_map pid=100 start=0xffff"));
	EXPECT(&log, "lttng_statedump_interrupt irq=28 name=\"PCI-MSIX-0000:00:01.0\" "
		     "action=\"virtio0-config\" tid=0");
	EXPECT(&log, "lttng_statedump_interrupt irq=28 name=\"PCI-MSIX-0000:00:01.0\" "
		     "action=\"virtio0-extra\" tid=0");
	long irq129 = find(&log, "lttng_statedump_interrupt irq=129 name=\"unnamed_irq_chip\" "
				 "action=\"x\" tid=0");
	CHECK(irq129 > irq, "irqs in numeric order: %ld %ld", irq, irq129);
	CHECK_EQ(count_prefix(&log, "lttng_statedump_interrupt"), 4);

	/* network interfaces: the loopback's IPv4 addresses (getifaddrs's), then the one down */
	long net = find_prefix(&log, 0, "lttng_statedump_network_interface");
	size_t nlo = 0;

	CHECK(net > irq129);
	CHECK(getifaddrs(&addrs) == 0);
	for (a = addrs; a; a = a->ifa_next) {
		if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET || strcmp(a->ifa_name, "lo"))
			continue;
		snprintf(line, sizeof(line),
			 "lttng_statedump_network_interface name=\"lo\" address_ipv4=0x%x",
			 ntohl(((struct sockaddr_in *)(void *)a->ifa_addr)->sin_addr.s_addr));
		CHECK(!strcmp(log.lines[net + (long)nlo], line), "%s", line);
		nlo++;
	}
	freeifaddrs(addrs);
	CHECK(nlo >= 1, "the loopback has no IPv4 address here: the test needs 127.0.0.1");
	EXPECT(&log, "lttng_statedump_network_interface name=\"lo\" address_ipv4=0x7f000001");
	CHECK(!strcmp(log.lines[net + (long)nlo],
		      "lttng_statedump_network_interface name=\"trxdown0\" address_ipv4=0x0"));
	CHECK_EQ(count_prefix(&log, "lttng_statedump_network_interface"), nlo + 1);

	/* block devices, CPUs */
	long blk = find(&log, "lttng_statedump_block_device dev=266338304 diskname=\"vda\"");

	CHECK(blk > net);
	CHECK_EQ(find(&log, "lttng_statedump_block_device dev=266338305 diskname=\"vda1\""),
		 blk + 1);
	EXPECT(&log, "lttng_statedump_block_device dev=271712256 diskname=\"nvme0n1p1\"");
	CHECK_EQ(count_prefix(&log, "lttng_statedump_block_device"), 3);
#if defined(__x86_64__) || defined(__i386__)
	long cpu0 =
	    find(&log, "lttng_statedump_cpu_topology architecture=\"x86\" cpu_id=0 "
		       "vendor=\"GenuineIntel\" family=6 model=85 "
		       "model_name=\"Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz\" physical_id=0 "
		       "core_id=0 cores=2");

	CHECK(cpu0 > blk);
	CHECK_EQ(find(&log, "lttng_statedump_cpu_topology architecture=\"x86\" cpu_id=1 "
			    "vendor=\"unknown\" family=23 model=44 model_name=\"unknown\" "
			    "physical_id=1 core_id=3 cores=2"),
		 cpu0 + 1);
	CHECK_EQ(count_prefix(&log, "lttng_statedump_cpu_topology"), 2);
#endif
	if (failures)
		log_print(&log);
	log_free(&log);

	/* without /sys/kernel/irq: /proc/interrupts */
	check_part = "fake tree, /proc/interrupts";
	remove_irq_dir();
	log = (struct log){.cpu = 0};
	CHECK_EQ(kstatedump_run(sink, &log, 0, proc, sys), 0);
	EXPECT(&log, "lttng_statedump_interrupt irq=0 name=\"IO-APIC\" action=\"timer\" tid=0");
	EXPECT(&log, "lttng_statedump_interrupt irq=26 name=\"IO-APIC\" action=\"ttyS0\" tid=50");
	EXPECT(&log, "lttng_statedump_interrupt irq=26 name=\"IO-APIC\" action=\"extra\" tid=0");
	CHECK_EQ(count_prefix(&log, "lttng_statedump_interrupt"), 3);
	log_free(&log);

	/* a sink that fails: the dump stops there and says why */
	check_part = "failing sink";
	log = (struct log){.cpu = 0, .fail_at = 5};
	CHECK_EQ(kstatedump_run(sink, &log, 0, proc, sys), -ENOSPC);
	CHECK_EQ(log.n, 4);
	log_free(&log);

	/* nothing there at all: start and end */
	check_part = "empty tree";
	log = (struct log){.cpu = 0};
	snprintf(proc, sizeof(proc), "%s/none", root);
	CHECK_EQ(kstatedump_run(sink, &log, 0, proc, proc), 0);
	CHECK(log.n == 2 && !strcmp(log.lines[0], "lttng_statedump_start") &&
	      !strcmp(log.lines[1], "lttng_statedump_end"));
	log_free(&log);

	snprintf(proc, sizeof(proc), "%s/proc", root);
	test_babeltrace(proc, sys);
	rm_tree();
}

/* ---- the real /proc ---- */

static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;
static int helper_tid;

static void *helper(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "sd (helper)");
	__atomic_store_n(&helper_tid, gettid(), __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&hold); /* asleep until the dump is done */
	pthread_mutex_unlock(&hold);
	return NULL;
}

static void test_real_proc(void)
{
	struct log log = {.cpu = 0};
	char tmpl[] = "/tmp/trax-statedump-fd-XXXXXX", line[PATH_MAX + 256], comm[16] = "";
	int fd = mkstemp(tmpl);
	pthread_t th;
	struct stat pidns;
	uint64_t t0, t1;
	int ret;

	check_part = "real /proc";
	CHECK(fd >= 0, "%s", strerror(errno));
	prctl(PR_GET_NAME, comm);
	pthread_mutex_lock(&hold);
	CHECK(pthread_create(&th, NULL, helper, NULL) == 0);
	while (!__atomic_load_n(&helper_tid, __ATOMIC_SEQ_CST))
		usleep(1000);

	t0 = now_ns();
	ret = kstatedump_run(sink, &log, 0, NULL, NULL);
	t1 = now_ns();
	pthread_mutex_unlock(&hold);
	pthread_join(th, NULL);
	CHECK_EQ(ret, 0);
	CHECK(log.n > 2 && !strcmp(log.lines[0], "lttng_statedump_start") &&
	      !strcmp(log.lines[log.n - 1], "lttng_statedump_end"));

	snprintf(line, sizeof(line),
		 "lttng_statedump_process_state tid=%d pid=%d ppid=%d name=\"%s\" type=0 mode=5 "
		 "submode=0 status=1 cpu=",
		 gettid(), getpid(), getppid(), comm);
	long self = find_prefix(&log, 0, line);

	CHECK(self >= 0, "no record \"%s...\"", line);
	snprintf(line, sizeof(line),
		 "lttng_statedump_process_state tid=%d pid=%d ppid=%d name=\"sd (helper)\" type=0 "
		 "mode=5 submode=0 status=5 cpu=",
		 helper_tid, getpid(), getppid());
	CHECK(find_prefix(&log, 0, line) > self, "no record \"%s...\"", line);
	snprintf(line, sizeof(line), " file_table_address=0x%x", getpid());
	CHECK(self >= 0 && strstr(log.lines[self], line), "%s", self >= 0 ? log.lines[self] : "");

	snprintf(line, sizeof(line),
		 "lttng_statedump_file_descriptor file_table_address=0x%x fd=%d flags=0100002 "
		 "fmode=0x3 filename=\"%s\"",
		 getpid(), fd, tmpl);
	CHECK(find(&log, line) > self, "no record \"%s\"", line);

	CHECK(stat("/proc/self/ns/pid", &pidns) == 0);
	snprintf(line, sizeof(line),
		 "lttng_statedump_process_pid_ns tid=%d vtid=%d vpid=%d vppid=%d ns_level=0 "
		 "ns_inum=%llu",
		 gettid(), gettid(), getpid(), getppid(), (unsigned long long)pidns.st_ino);
	CHECK(find(&log, line) > self, "no record \"%s\"", line);
#if defined(__x86_64__) || defined(__i386__)
	CHECK_EQ(count_prefix(&log, "lttng_statedump_cpu_topology"), sysconf(_SC_NPROCESSORS_ONLN));
#endif
	CHECK(count_prefix(&log, "lttng_statedump_process_state") > 10);
	/* workqueue workers: the task's name, without stat's "-WORKQUEUE" */
	for (size_t i = 0; i < log.n; i++) {
		const char *name = strstr(log.lines[i], " name=\"kworker/");

		if (name && !strncmp(log.lines[i], "lttng_statedump_process_state", 29) &&
		    strncmp(name, " name=\"kworker/R-", 17))
			CHECK(!strpbrk(name + 15, "-+") ||
				  strchr(name + 15, '"') < strpbrk(name + 15, "-+"),
			      "%s", log.lines[i]);
	}
	CHECK(count_prefix(&log, "lttng_statedump_process_state tid=1 pid=1 ppid=0 ") == 1);
	printf("real /proc: %zu records (%zu threads, %zu files, %zu maps) in %.1f ms\n", log.n,
	       count_prefix(&log, "lttng_statedump_process_state"),
	       count_prefix(&log, "lttng_statedump_file_descriptor"),
	       count_prefix(&log, "lttng_statedump_vm_map"), (double)(t1 - t0) / 1e6);
	if (failures || getenv("SD_PRINT"))
		log_print(&log);
	log_free(&log);
	close(fd);
	unlink(tmpl);
}

/* The inode of /proc/PID/ns/KIND (0 when it cannot be read). */
static unsigned long long ns_ino(int pid, const char *kind)
{
	char path[64];
	struct stat sb;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid, kind);
	return stat(path, &sb) ? 0 : (unsigned long long)sb.st_ino;
}

static void write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text), "%s: %s", path,
	      strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * A process in a user namespace of its own (ids 5 and 7 there are root
 * outside) whose child is PID 1 of a new PID namespace: the dump shows
 * both levels of each, with the kernel's inodes.
 */
static void test_real_namespaces(void)
{
	int ready[2], done[2];
	pid_t child, grandchild = 0;
	struct log log = {.cpu = 0};
	char path[64], line[512];
	long at;

	check_part = "real namespaces";
	CHECK(pipe(ready) == 0 && pipe(done) == 0);
	child = fork();
	if (child == 0) {
		char c;
		pid_t g;

		close(ready[0]);
		close(done[1]);
		if (unshare(CLONE_NEWUSER | CLONE_NEWPID))
			_exit(2);
		if (write(ready[1], "u", 1) != 1 || read(done[0], &c, 1) != 1) /* mapped */
			_exit(3);
		g = fork();
		if (g == 0) {
			(void)!read(done[0], &c, 1); /* until the test closes it */
			_exit(0);
		}
		if (g < 0 || write(ready[1], &g, sizeof(g)) != sizeof(g))
			_exit(4);
		waitpid(g, NULL, 0);
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	char c = 0;

	CHECK(
	    child > 0 && read(ready[0], &c, 1) == 1 && c == 'u',
	    "unshare(CLONE_NEWUSER | CLONE_NEWPID) failed: the test needs user and PID namespaces");
	snprintf(path, sizeof(path), "/proc/%d/uid_map", child);
	write_text(path, "5 0 1\n");
	snprintf(path, sizeof(path), "/proc/%d/gid_map", child);
	write_text(path, "7 0 1\n");
	CHECK(write(done[1], "m", 1) == 1);
	CHECK(read(ready[0], &grandchild, sizeof(grandchild)) == sizeof(grandchild) &&
	      grandchild > 0);

	CHECK_EQ(kstatedump_run(sink, &log, 0, NULL, NULL), 0);

	snprintf(
	    line, sizeof(line),
	    "lttng_statedump_process_pid_ns tid=%d vtid=1 vpid=1 vppid=0 ns_level=1 ns_inum=%llu",
	    grandchild, ns_ino(grandchild, "pid"));
	at = find(&log, line);
	CHECK(at >= 0, "no record \"%s\"", line);
	snprintf(line, sizeof(line),
		 "lttng_statedump_process_pid_ns tid=%d vtid=%d vpid=%d vppid=%d ns_level=0 "
		 "ns_inum=%llu",
		 grandchild, grandchild, grandchild, child, ns_ino(getpid(), "pid"));
	CHECK(at >= 0 && find(&log, line) == at + 1, "no record \"%s\" after it", line);
	snprintf(line, sizeof(line),
		 "lttng_statedump_process_user_ns tid=%d vuid=5 vgid=7 ns_level=1 ns_inum=%llu",
		 grandchild, ns_ino(grandchild, "user"));
	at = find(&log, line);
	CHECK(at >= 0, "no record \"%s\"", line);
	snprintf(line, sizeof(line),
		 "lttng_statedump_process_user_ns tid=%d vuid=0 vgid=0 ns_level=0 ns_inum=%llu",
		 grandchild, ns_ino(getpid(), "user"));
	CHECK(at >= 0 && find(&log, line) == at + 1, "no record \"%s\" after it", line);
	/* the child: its own user namespace, the reader's PID namespace */
	snprintf(line, sizeof(line),
		 "lttng_statedump_process_user_ns tid=%d vuid=5 vgid=7 ns_level=1 ns_inum=%llu",
		 child, ns_ino(child, "user"));
	EXPECT(&log, line);
	snprintf(line, sizeof(line), "lttng_statedump_process_pid_ns tid=%d ", child);
	CHECK_EQ(count_prefix(&log, line), 1);
	if (failures)
		log_print(&log);
	log_free(&log);

	close(done[1]);
	close(ready[0]);
	if (child > 0)
		waitpid(child, NULL, 0);
}

int main(void)
{
	test_fake_tree();
	test_real_proc();
	test_real_namespaces();
	return CHECK_RESULT();
}
