/*
 * test_kernel_kmap.c - tracefs records converted into LTTng-modules 2.13
 * payloads (src/kernel/kmap*.c): records made here for sched_switch,
 * sched_migrate_task (a __data_loc comm into a text array),
 * sched_process_fork (process ids from a task resolver), irq, softirq
 * (renamed), block (rwbs flags, tid from common_pid), kmalloc (a gfp bit),
 * rcu_utilization (a kernel string by address), an event LTTng does not
 * instrument (typed from its format); damaged records give 0. Then every
 * event of this machine's tracefs gets a class and converts a record, and
 * a trace of the classes made here reads in babeltrace2 with the values
 * written.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "common/strbuf.h"
#include "kernel/kmap-internal.h"
#include "kernel/kmap.h"
#include "kernel/tp-format.h"
#include "writer/metadata.h"
#include "writer/stream-file.h"

#define COMMON                                                                                     \
	"name: %s\nID: %d\nformat:\n"                                                              \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define F(decl, off, size, sgn)                                                                    \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sgn ";\n"

static const char sched_switch_fmt[] = COMMON F("char prev_comm[16]", 8, 16, 0)
    F("pid_t prev_pid", 24, 4, 1) F("int prev_prio", 28, 4, 1) F("long prev_state", 32, 8, 1)
	F("char next_comm[16]", 40, 16, 0) F("pid_t next_pid", 56, 4, 1)
	    F("int next_prio", 60, 4, 1);
static const char migrate_fmt[] =
    COMMON F("__data_loc char[] comm", 8, 4, 0) F("pid_t pid", 12, 4, 1) F("int prio", 16, 4, 1)
	F("int orig_cpu", 20, 4, 1) F("int dest_cpu", 24, 4, 1);
static const char fork_fmt[] =
    COMMON F("__data_loc char[] parent_comm", 8, 4, 0) F("pid_t parent_pid", 12, 4, 1)
	F("__data_loc char[] child_comm", 16, 4, 0) F("pid_t child_pid", 20, 4, 1);
static const char irq_entry_fmt[] =
    COMMON F("int irq", 8, 4, 1) F("__data_loc char[] name", 12, 4, 0);
static const char softirq_fmt[] = COMMON F("unsigned int vec", 8, 4, 0);
static const char rq_issue_fmt[] = COMMON F("dev_t dev", 8, 4, 0) F("sector_t sector", 16, 8, 0)
    F("unsigned int nr_sector", 24, 4, 0) F("unsigned int bytes", 28, 4, 0)
	F("unsigned short ioprio", 32, 2, 0) F("char rwbs[10]", 34, 10, 0)
	    F("char comm[16]", 44, 16, 0) F("__data_loc char[] cmd", 60, 4, 0);
static const char kmalloc_fmt[] =
    COMMON F("unsigned long call_site", 8, 8, 0) F("const void * ptr", 16, 8, 0)
	F("size_t bytes_req", 24, 8, 0) F("size_t bytes_alloc", 32, 8, 0)
	    F("unsigned long gfp_flags", 40, 8, 0) F("int node", 48, 4, 1);
static const char rcu_fmt[] = COMMON F("const char * s", 8, 8, 0);
static const char hrstart_fmt[] = COMMON F("void * hrtimer", 8, 8, 0) F("void * function", 16, 8, 0)
    F("s64 expires", 24, 8, 1) F("s64 softexpires", 32, 8, 1) F("enum hrtimer_mode mode", 40, 4, 0);
static const char generic_fmt[] = COMMON F("void * ptr", 8, 8, 0) F("short delta", 16, 2, 1)
    F("char tag[4]", 18, 4, 0) F("__data_loc char[] label", 24, 4, 0)
	F("__data_loc u64[] vals", 28, 4, 0) F("u16 pair[2]", 32, 4, 0) F("u8 rest[]", 36, 0, 0);

static void parse(struct tp_event *ev, const char *system, const char *fmt, const char *name,
		  int id)
{
	char text[4096], err[200];
	int n = snprintf(text, sizeof(text), fmt, name, id);

	if (tp_format_parse(ev, system, text, (size_t)n, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", name, err);
		abort();
	}
}

/* A record being made: fields put at their offsets. */
static uint8_t rec[256];

static void begin(uint16_t type, int32_t pid)
{
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
}

static void put(size_t off, const void *v, size_t n)
{
	memcpy(rec + off, v, n);
}

static void put32(size_t off, uint32_t v)
{
	put(off, &v, 4);
}

static void put64(size_t off, uint64_t v)
{
	put(off, &v, 8);
}

/* A __data_loc at off for text (with its NUL) at at. */
static void put_loc(size_t off, size_t at, const char *text)
{
	size_t n = strlen(text) + 1;

	put32(off, (uint32_t)(n << 16 | at));
	put(at, text, n);
}

static int32_t get_i32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

static int64_t get_i64(const uint8_t *p)
{
	int64_t v;

	memcpy(&v, p, 8);
	return v;
}

static const struct ctfw_field *field(struct kmap_event *m, unsigned int i)
{
	return &kmap_event_class(m)->cls.fields[i];
}

static void test_sched_switch(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	uint8_t out[256];
	char err[100];
	size_t n;
	const struct ctfw_field *f;
	static const char *names[] = {"prev_comm", "prev_tid", "prev_prio", "prev_state",
				      "next_comm", "next_tid", "next_prio"};

	check_part = "sched_switch";
	parse(&ev, "sched", sched_switch_fmt, "sched_switch", 372);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m != NULL, "%s", err);
	CHECK(kmap_event_is_mapped(m));
	CHECK(!strcmp(kmap_event_class(m)->cls.name, "sched_switch"));
	CHECK_EQ(kmap_event_class(m)->id, KEVENT_ID_NONE);
	CHECK_EQ(kmap_event_class(m)->cls.nr_fields, 7);
	for (unsigned int i = 0; i < 7; i++)
		CHECK(!strcmp(field(m, i)->name, names[i]), "field %u: %s", i, field(m, i)->name);
	f = field(m, 0);
	CHECK(f->type.kind == CTFW_TYPE_ARRAY && f->type.array.length == 16 &&
	      f->type.array.elem->integer.encoding == CTFW_ENCODING_UTF8 &&
	      f->type.array.elem->integer.size == 8);
	f = field(m, 1);
	CHECK(f->type.kind == CTFW_TYPE_INTEGER && f->type.integer.size == 32 &&
	      f->type.integer.is_signed && f->type.integer.base == 10);
	f = field(m, 3);
	CHECK(f->type.kind == CTFW_TYPE_INTEGER && f->type.integer.size == 64 &&
	      f->type.integer.is_signed);

	begin(372, 1234);
	put(8, "bash", 5);
	put32(24, 1234);
	put32(28, 120);
	put64(32, 1);
	put(40, "swapper/1", 10);
	put32(56, 0);
	put32(60, (uint32_t)-1); /* a deadline task: prio -1 */
	memset(out, 0xee, sizeof(out));
	n = kmap_convert(m, rec, 64, out, sizeof(out));
	CHECK_EQ(n, 16 + 4 + 4 + 8 + 16 + 4 + 4);
	CHECK(!memcmp(out, "bash\0\0\0\0\0\0\0\0\0\0\0\0", 16));
	CHECK_EQ(get_i32(out + 16), 1234);
	CHECK_EQ(get_i32(out + 20), 20);
	CHECK_EQ(get_i64(out + 24), 1);
	CHECK(!memcmp(out + 32, "swapper/1\0\0\0\0\0\0\0", 16));
	CHECK_EQ(get_i32(out + 48), 0);
	CHECK_EQ(get_i32(out + 52), -101);
	CHECK(n <= kmap_payload_max(m, 64));

	/* shorter than the format: refused */
	CHECK_EQ(kmap_convert(m, rec, 63, out, sizeof(out)), 0);
	/* out too small, by one byte */
	CHECK_EQ(kmap_convert(m, rec, 64, out, 55), 0);
	CHECK_EQ(kmap_convert(m, rec, 64, out, 56), 56);
	kmap_event_free(m);
	tp_event_free(&ev);
}

static void test_migrate(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	uint8_t out[256];
	char err[100];

	check_part = "sched_migrate_task";
	parse(&ev, "sched", migrate_fmt, "sched_migrate_task", 300);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m && kmap_event_is_mapped(m));
	CHECK_EQ(kmap_event_class(m)->cls.nr_fields, 5);
	CHECK(!strcmp(field(m, 1)->name, "tid") && !strcmp(field(m, 3)->name, "orig_cpu"));

	begin(300, 77);
	put_loc(8, 28, "a-very-long-thread-name"); /* 23 characters: cut to 16 */
	put32(12, 4242);
	put32(16, 139);
	put32(20, 1);
	put32(24, 0);
	CHECK_EQ(kmap_convert(m, rec, 52, out, sizeof(out)), 16 + 16);
	CHECK(!memcmp(out, "a-very-long-thre", 16));
	CHECK_EQ(get_i32(out + 16), 4242);
	CHECK_EQ(get_i32(out + 20), 39);
	CHECK_EQ(get_i32(out + 24), 1);
	CHECK_EQ(get_i32(out + 28), 0);
	/* the string ends one byte past the record */
	CHECK_EQ(kmap_convert(m, rec, 51, out, sizeof(out)), 0);
	/* a locator past the record */
	put32(8, 5u << 16 | 250);
	CHECK_EQ(kmap_convert(m, rec, 52, out, sizeof(out)), 0);
	/* a short comm: zero-filled */
	put_loc(8, 28, "sh");
	CHECK_EQ(kmap_convert(m, rec, 31, out, sizeof(out)), 32);
	CHECK(!memcmp(out, "sh\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16));
	kmap_event_free(m);
	tp_event_free(&ev);
}

/* A made-up system: thread 500 of process 400 in a nested pid namespace (as 3 there). */
static int task_calls;

static void fake_task(void *arg, int32_t tid, struct kmap_task *out)
{
	(void)arg;
	task_calls++;
	if (tid == 500) {
		out->tgid = 400;
		out->pid_ns_inum = 4026532000u;
		out->nr_vtids = 2;
		out->vtids[0] = 500;
		out->vtids[1] = 3;
	} else if (tid == 400) {
		out->tgid = 400;
		out->pid_ns_inum = 4026531836u;
		out->nr_vtids = 1;
		out->vtids[0] = 400;
	}
	/* others: unknown */
}

static void test_fork(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	struct kmap_env env = {.task = fake_task};
	uint8_t out[512];
	char err[100];
	size_t n;
	static const char *names[] = {"parent_comm",	"parent_tid", "parent_pid",
				      "parent_ns_inum", "child_comm", "child_tid",
				      "vtids",		"child_pid",  "child_ns_inum"};

	check_part = "sched_process_fork";
	parse(&ev, "sched", fork_fmt, "sched_process_fork", 310);
	m = kmap_event_new_env(&ev, &env, err, sizeof(err));
	CHECK(m && kmap_event_is_mapped(m));
	CHECK_EQ(kmap_event_class(m)->cls.nr_fields, 9);
	for (unsigned int i = 0; i < 9; i++)
		CHECK(!strcmp(field(m, i)->name, names[i]), "field %u: %s", i, field(m, i)->name);
	CHECK(field(m, 6)->type.kind == CTFW_TYPE_SEQUENCE &&
	      field(m, 6)->type.sequence.length.size == 8 &&
	      field(m, 6)->type.sequence.elem->integer.size == 32 &&
	      field(m, 6)->type.sequence.elem->integer.is_signed);

	/* thread 400 creates thread 500 */
	begin(310, 400);
	put_loc(8, 24, "server");
	put32(12, 400);
	put_loc(16, 32, "worker");
	put32(20, 500);
	task_calls = 0;
	n = kmap_convert(m, rec, 40, out, sizeof(out));
	CHECK_EQ(n, 16 + 4 + 4 + 4 + 16 + 4 + (1 + 8) + 4 + 4);
	CHECK(!memcmp(out, "server", 7));
	CHECK_EQ(get_i32(out + 16), 400);		    /* parent_tid */
	CHECK_EQ(get_i32(out + 20), 400);		    /* parent_pid */
	CHECK_EQ((uint32_t)get_i32(out + 24), 4026531836u); /* parent_ns_inum */
	CHECK(!memcmp(out + 28, "worker", 7));
	CHECK_EQ(get_i32(out + 44), 500); /* child_tid */
	CHECK_EQ(out[48], 2);		  /* vtids */
	CHECK_EQ(get_i32(out + 49), 500);
	CHECK_EQ(get_i32(out + 53), 3);
	CHECK_EQ(get_i32(out + 57), 400); /* child_pid: the process, not the thread */
	CHECK_EQ((uint32_t)get_i32(out + 61), 4026532000u);
	CHECK_EQ(task_calls, 2); /* once per thread */
	CHECK(n <= kmap_payload_max(m, 40));

	/* a thread nothing is known of: its own process, one namespace level */
	put32(20, 777);
	n = kmap_convert(m, rec, 40, out, sizeof(out));
	CHECK_EQ(n, 16 + 4 + 4 + 4 + 16 + 4 + (1 + 4) + 4 + 4);
	CHECK_EQ(out[48], 1);
	CHECK_EQ(get_i32(out + 49), 777);
	CHECK_EQ(get_i32(out + 53), 777);
	CHECK_EQ(get_i32(out + 57), 0);
	kmap_event_free(m);

	/* the default resolver reads /proc: this process */
	m = kmap_event_new(&ev, err, sizeof(err));
	put32(12, getpid());
	put32(20, getpid());
	n = kmap_convert(m, rec, 40, out, sizeof(out));
	CHECK(n > 0);
	CHECK_EQ(get_i32(out + 20), getpid());
	CHECK(get_i32(out + 24) != 0, "pid namespace inode");
	CHECK(out[48] >= 1);
	CHECK_EQ(get_i32(out + 49), getpid()); /* as this process's /proc sees it */
	kmap_event_free(m);
	tp_event_free(&ev);
}

static void test_irq(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	uint8_t out[256];
	char err[100], name[64];

	check_part = "irq";
	parse(&ev, "irq", irq_entry_fmt, "irq_handler_entry", 120);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m && kmap_event_is_mapped(m));
	CHECK(field(m, 1)->type.kind == CTFW_TYPE_STRING);
	begin(120, 0);
	put32(8, 19);
	put_loc(12, 16, "virtio0-input.0");
	CHECK_EQ(kmap_convert(m, rec, 32, out, sizeof(out)), 4 + 16);
	CHECK_EQ(get_i32(out), 19);
	CHECK(!strcmp((char *)out + 4, "virtio0-input.0"));
	/* a string without its NUL inside the record ends at the record's end */
	put32(12, 4u << 16 | 16);
	CHECK_EQ(kmap_convert(m, rec, 20, out, sizeof(out)), 4 + 5);
	CHECK(!strcmp((char *)out + 4, "virt"));
	kmap_event_free(m);
	tp_event_free(&ev);

	parse(&ev, "irq", softirq_fmt, "softirq_entry", 121);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m && !strcmp(kmap_event_class(m)->cls.name, "irq_softirq_entry"));
	CHECK(!strcmp(field(m, 0)->name, "vec") && !field(m, 0)->type.integer.is_signed);
	begin(121, 0);
	put32(8, 3);
	CHECK_EQ(kmap_convert(m, rec, 12, out, sizeof(out)), 4);
	CHECK_EQ(get_i32(out), 3);
	kmap_event_free(m);
	tp_event_free(&ev);

	CHECK(!strcmp(kmap_lttng_name("irq", "softirq_raise", name, sizeof(name)),
		      "irq_softirq_raise"));
	CHECK(!strcmp(kmap_lttng_name("timer", "hrtimer_start", name, sizeof(name)),
		      "timer_hrtimer_start"));
	CHECK(!strcmp(kmap_lttng_name("kmem", "mm_page_alloc", name, sizeof(name)),
		      "kmem_mm_page_alloc"));
	CHECK(
	    !strcmp(kmap_lttng_name("sched", "sched_switch", name, sizeof(name)), "sched_switch"));
	CHECK(!strcmp(kmap_lttng_name("xfs", "xfs_iget", name, sizeof(name)), "xfs_iget"));
	CHECK(kmap_lttng_name("irq", "softirq_raise", name, 17) == NULL);
	CHECK(kmap_lttng_name("irq", "softirq_raise", name, 18) != NULL);
}

static uint32_t rwbs(struct kmap_event *m, const char *text)
{
	uint8_t out[256];
	char r[10] = {0};
	size_t n;

	memcpy(r, text, strlen(text) < sizeof(r) ? strlen(text) : sizeof(r));
	put(34, r, 10);
	n = kmap_convert(m, rec, 72, out, sizeof(out));
	CHECK_EQ(n, 4 + 8 + 4 + 4 + 4 + 4 + 16);
	return (uint32_t)get_i32(out + 24);
}

static void test_block(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	uint8_t out[256];
	char err[100];
	static const char *names[] = {"dev", "sector", "nr_sector", "bytes", "tid", "rwbs", "comm"};

	check_part = "block_rq_issue";
	parse(&ev, "block", rq_issue_fmt, "block_rq_issue", 200);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m && kmap_event_is_mapped(m));
	CHECK_EQ(kmap_event_class(m)->cls.nr_fields, 7);
	for (unsigned int i = 0; i < 7; i++)
		CHECK(!strcmp(field(m, i)->name, names[i]), "field %u: %s", i, field(m, i)->name);
	begin(200, 3141);
	put32(8, 8u << 20 | 16); /* 8,16 */
	put64(16, 123456789);
	put32(24, 8);
	put32(28, 4096);
	put(44, "kworker/u4:1", 13);
	put_loc(60, 64, "");
	CHECK_EQ(rwbs(m, "WS"), 1 | 32);
	CHECK_EQ(rwbs(m, "R"), 4);
	CHECK_EQ(rwbs(m, "RA"), 4 | 8);
	CHECK_EQ(rwbs(m, "FWFS"), 1024 | 1 | 512 | 32);
	CHECK_EQ(rwbs(m, "F"), 256);
	CHECK_EQ(rwbs(m, "FS"), 256 | 32);
	CHECK_EQ(rwbs(m, "DE"), 2 | 128);
	CHECK_EQ(rwbs(m, "RM"), 4 | 64);
	CHECK_EQ(rwbs(m, "N"), 0);
	CHECK_EQ(rwbs(m, ""), 0);
	CHECK_EQ(rwbs(m, "WSWSWSWSWS"), 1 | 32); /* no NUL in the array */
	kmap_convert(m, rec, 72, out, sizeof(out));
	CHECK_EQ(get_i32(out), 8 << 20 | 16);
	CHECK_EQ(get_i64(out + 4), 123456789);
	CHECK_EQ(get_i32(out + 12), 8);
	CHECK_EQ(get_i32(out + 16), 4096);
	CHECK_EQ(get_i32(out + 20), 3141); /* tid: common_pid, the current thread */
	CHECK(!memcmp(out + 28, "kworker/u4:1\0\0\0", 16));
	kmap_event_free(m);
	tp_event_free(&ev);
}

static void test_kmalloc(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	uint8_t out[256];
	char err[100];

	check_part = "kmalloc";
	parse(&ev, "kmem", kmalloc_fmt, "kmalloc", 400);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m && kmap_event_is_mapped(m));
	CHECK(!strcmp(kmap_event_class(m)->cls.name, "kmem_kmalloc"));
	CHECK_EQ(kmap_event_class(m)->cls.nr_fields, 7);
	CHECK(!strcmp(field(m, 6)->name, "accounted") && field(m, 6)->type.integer.size == 8);
	CHECK(field(m, 0)->type.integer.base == 16 && field(m, 4)->type.integer.size == 32);
	begin(400, 1);
	put64(8, 0xffffffff81234567ull);
	put64(16, 0xffff888001020304ull);
	put64(24, 100);
	put64(32, 128);
	put64(40, 0xcc0 | 1u << 22); /* GFP_KERNEL | __GFP_ACCOUNT */
	put32(48, (uint32_t)-1);
	CHECK_EQ(kmap_convert(m, rec, 52, out, sizeof(out)), 8 + 8 + 8 + 8 + 4 + 4 + 1);
	CHECK_EQ((uint64_t)get_i64(out), 0xffffffff81234567ull);
	CHECK_EQ((uint64_t)get_i64(out + 8), 0xffff888001020304ull);
	CHECK_EQ(get_i64(out + 16), 100);
	CHECK_EQ(get_i64(out + 24), 128);
	CHECK_EQ((uint32_t)get_i32(out + 32), 0xcc0 | 1u << 22);
	CHECK_EQ(get_i32(out + 36), -1);
	CHECK_EQ(out[40], 1);
	put64(40, 0xcc0);
	kmap_convert(m, rec, 52, out, sizeof(out));
	CHECK_EQ(out[40], 0);
	kmap_event_free(m);
	tp_event_free(&ev);
}

static void test_rcu_kstrings(void)
{
	static const char formats[] = "0xffffffff8281a291 : \"End context switch\"\n"
				      "0xffffffff8281a2a4 : \"Start context switch\"\n"
				      "0xffffffff82819000 : \"with \\\"quotes\\\"\\n\"\n"
				      "garbage line\n"
				      "0xffffffff80000000 : \"\"\n";
	struct kmap_kstrings *k = kmap_kstrings_parse(formats, sizeof(formats) - 1);
	struct kmap_env env = {0};
	struct tp_event ev;
	struct kmap_event *m;
	uint8_t out[256];
	char err[100];
	size_t n;

	check_part = "rcu_utilization";
	CHECK(k != NULL);
	CHECK(!strcmp(kmap_kstrings_find(k, 0xffffffff8281a2a4ull), "Start context switch"));
	CHECK(!strcmp(kmap_kstrings_find(k, 0xffffffff8281a291ull), "End context switch"));
	CHECK(!strcmp(kmap_kstrings_find(k, 0xffffffff82819000ull), "with \"quotes\"\n"));
	CHECK(kmap_kstrings_find(k, 0xffffffff8281a292ull) == NULL);
	CHECK(kmap_kstrings_find(k, 0) == NULL);
	env.kstrings = k;
	parse(&ev, "rcu", rcu_fmt, "rcu_utilization", 500);
	m = kmap_event_new_env(&ev, &env, err, sizeof(err));
	CHECK(m && kmap_event_is_mapped(m));
	CHECK(field(m, 0)->type.kind == CTFW_TYPE_STRING && !strcmp(field(m, 0)->name, "s"));
	begin(500, 0);
	put64(8, 0xffffffff8281a2a4ull);
	n = kmap_convert(m, rec, 16, out, sizeof(out));
	CHECK_EQ(n, 21);
	CHECK(!strcmp((char *)out, "Start context switch"));
	CHECK(n <= kmap_payload_max(m, 16));
	put64(8, 0xffffffff81000001ull);
	n = kmap_convert(m, rec, 16, out, sizeof(out));
	CHECK(!strcmp((char *)out, "0xffffffff81000001"), "%s", out);
	kmap_event_free(m);
	/* without the strings: the address */
	m = kmap_event_new(&ev, err, sizeof(err));
	put64(8, 0xffffffff8281a2a4ull);
	n = kmap_convert(m, rec, 16, out, sizeof(out));
	CHECK_EQ(n, 19);
	CHECK(!strcmp((char *)out, "0xffffffff8281a2a4"));
	kmap_event_free(m);
	tp_event_free(&ev);
	kmap_kstrings_free(k);
}

static void test_generic(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	uint8_t out[256];
	char err[100];
	const struct ctfw_field *f;
	uint64_t vals[2] = {7, 0xfffffffffull};
	size_t n;

	check_part = "not instrumented";
	parse(&ev, "test", generic_fmt, "test_every_kind", 900);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m && !kmap_event_is_mapped(m));
	CHECK(!strcmp(kmap_event_class(m)->cls.name, "test_every_kind"));
	CHECK_EQ(kmap_event_class(m)->cls.nr_fields, 7);
	f = field(m, 0); /* void * ptr: hexadecimal, unsigned 64 */
	CHECK(!strcmp(f->name, "ptr") && f->type.kind == CTFW_TYPE_INTEGER &&
	      f->type.integer.size == 64 && !f->type.integer.is_signed &&
	      f->type.integer.base == 16);
	f = field(m, 1);
	CHECK(f->type.integer.size == 16 && f->type.integer.is_signed &&
	      f->type.integer.base == 10);
	f = field(m, 2); /* char tag[4]: text */
	CHECK(f->type.kind == CTFW_TYPE_ARRAY && f->type.array.length == 4 &&
	      f->type.array.elem->integer.encoding == CTFW_ENCODING_UTF8);
	f = field(m, 3);
	CHECK(f->type.kind == CTFW_TYPE_STRING && !strcmp(f->name, "label"));
	f = field(m, 4); /* __data_loc u64[]: a sequence, 32-bit length */
	CHECK(f->type.kind == CTFW_TYPE_SEQUENCE && f->type.sequence.length.size == 32 &&
	      f->type.sequence.elem->integer.size == 64);
	f = field(m, 5); /* u16 pair[2] */
	CHECK(f->type.kind == CTFW_TYPE_ARRAY && f->type.array.length == 2 &&
	      f->type.array.elem->integer.size == 16 && !f->type.array.elem->integer.encoding);
	f = field(m, 6); /* u8 rest[]: the record's end */
	CHECK(f->type.kind == CTFW_TYPE_SEQUENCE && f->type.sequence.elem->integer.size == 8);

	begin(900, 0);
	put64(8, 0xdeadbeef);
	put(16, "\xfe\xff", 2); /* -2 */
	put(18, "ab\0z", 4);
	put_loc(24, 44, "lbl");
	put32(28, 16u << 16 | 48);
	put(48, vals, 16);
	put(32, "\x01\x00\x02\x00", 4);
	put(36, "\x05\x06\x07", 3);
	/* the rest: 36..38, then "lbl" (44..47) and vals (48..63) follow: rest is 36..64 */
	n = kmap_convert(m, rec, 64, out, sizeof(out));
	CHECK_EQ(n, 8 + 2 + 4 + 4 + (4 + 16) + 4 + (4 + 28));
	CHECK_EQ(get_i64(out), 0xdeadbeef);
	CHECK_EQ((int16_t)(out[8] | out[9] << 8), -2);
	CHECK(!memcmp(out + 10, "ab\0z", 4));
	CHECK(!strcmp((char *)out + 14, "lbl"));
	CHECK_EQ(get_i32(out + 18), 2);
	CHECK_EQ(get_i64(out + 22), 7);
	CHECK_EQ(get_i64(out + 30), (int64_t)0xfffffffffull);
	CHECK(!memcmp(out + 38, "\x01\x00\x02\x00", 4));
	CHECK_EQ(get_i32(out + 42), 28);
	CHECK(!memcmp(out + 46, "\x05\x06\x07", 3));
	CHECK(n <= kmap_payload_max(m, 64));
	/* a sequence's elements past the record */
	CHECK_EQ(kmap_convert(m, rec, 63, out, sizeof(out)), 0);
	kmap_event_free(m);
	tp_event_free(&ev);
}

/* Enumerations: hrtimer_start's mode. */
static void test_enum(void)
{
	struct tp_event ev;
	struct kmap_event *m;
	char err[100];
	const struct ctfw_field *f;

	check_part = "hrtimer_start";
	parse(&ev, "timer", hrstart_fmt, "hrtimer_start", 600);
	m = kmap_event_new(&ev, err, sizeof(err));
	CHECK(m && kmap_event_is_mapped(m));
	CHECK(!strcmp(kmap_event_class(m)->cls.name, "timer_hrtimer_start"));
	/* was_armed is left out: this record has none */
	CHECK_EQ(kmap_event_class(m)->cls.nr_fields, 5);
	f = field(m, 4);
	CHECK(f->type.kind == CTFW_TYPE_ENUM && f->type.enumeration.container.size == 32 &&
	      f->type.enumeration.nr_mappings == 15 &&
	      !strcmp(f->type.enumeration.mappings[1].label, "HRTIMER_MODE_REL"));
	kmap_event_free(m);
	tp_event_free(&ev);
}

/* The table's own language: every entry names a system, and its fields parse. */
static void test_table(void)
{
	unsigned int n = kmap_table_count();

	check_part = "table";
	CHECK(n > 140, "%u entries", n);
	for (unsigned int i = 0; i < n; i++) {
		const char *e = kmap_table_entry(i);

		CHECK(strchr(e, ':') && strchr(e, ':') < e + strcspn(e, " "), "%s", e);
	}
	CHECK(kmap_table_entry(n) == NULL);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, n = 0, r;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = 0;
	fclose(f);
	*len = n;
	return buf;
}

/* One converted record per class of this machine, as a trace babeltrace2 must read whole. */
static void read_all_classes(struct kmap_event **ms, struct tp_event *evs, unsigned int n)
{
	static const uint8_t uuid[16] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 1, 2, 3};
	struct ctfw_trace trace = {
	    .clock = {"monotonic", "test", 1000000000, 0, 0,
		      "01010203-0508-0d15-2237-5990e9010203"},
	};
	struct ctfw_stream stream = {.id = 0};
	struct ctfw_stream_file sf;
	struct strbuf sb;
	char dir[] = "/tmp/trax-test-kmap-all.XXXXXX", cmd[300], outpath[100];
	static uint8_t zeros[4096];
	unsigned int written = 0, lines = 0;
	size_t len;
	char *text, *p;
	FILE *f;

	memcpy(trace.uuid, uuid, 16);
	strbuf_init(&sb);
	ctf_metadata_trace(&sb, &trace);
	ctf_metadata_stream(&sb, &stream);
	for (unsigned int i = 0; i < n; i++)
		ctf_metadata_event(&sb, &kmap_event_class(ms[i])->cls, i, 0);
	CHECK(!sb.failed);
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		strbuf_free(&sb);
		return;
	}
	snprintf(outpath, sizeof(outpath), "%s/metadata", dir);
	f = fopen(outpath, "w");
	CHECK(f && fwrite(sb.buf, 1, sb.len, f) == sb.len);
	if (f)
		fclose(f);
	strbuf_free(&sb);
	CHECK_EQ(ctfw_stream_file_open(&sf, dir, "channel0_0", uuid, 0, 0, 1 << 16), 0);
	for (unsigned int i = 0; i < n; i++) {
		size_t rl = evs[i].size, max = kmap_payload_max(ms[i], rl);
		uint8_t *q;

		if (rl > sizeof(zeros) || max > 8192)
			continue;
		len = kmap_convert(ms[i], zeros, rl, (uint8_t[8192]){0}, 8192);
		q = ctfw_stream_file_reserve(&sf, i, 1000 + i, len);
		CHECK(q != NULL);
		if (q && kmap_convert(ms[i], zeros, rl, q, len) == len)
			written++;
	}
	CHECK_EQ(ctfw_stream_file_close(&sf, 1000 + n), 0);
	snprintf(outpath, sizeof(outpath), "%s.txt", dir);
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' >'%s' 2>&1", dir, outpath);
	CHECK(system(cmd) == 0, "%s", cmd);
	text = read_all(outpath, &len);
	for (p = text; p && *p; p++)
		lines += *p == '\n';
	CHECK_EQ(lines, written);
	CHECK(text &&
		  strstr(text, "sched_switch: { cpu_id = 0 }, { prev_comm = \"\", prev_tid = 0, "
			       "prev_prio = -100, prev_state = 0, next_comm = \"\", "
			       "next_tid = 0, next_prio = -100 }"),
	      "%.2000s", text ? text : "(nothing)");
	CHECK(text && strstr(text, "irq_softirq_entry: { cpu_id = 0 }, { vec = 0 }"));
	printf("babeltrace2 read %u records of %u classes\n", lines, n);
	free(text);
	/* babeltrace 1.x: what lttng-analyses reads traces with (it wraps long lines) */
	snprintf(cmd, sizeof(cmd), "babeltrace '%s' >'%s' 2>&1", dir, outpath);
	CHECK(system(cmd) == 0, "%s", cmd);
	text = read_all(outpath, &len);
	lines = text && *text == '[';
	for (p = text; p && (p = strstr(p, "\n[")); p++)
		lines++;
	CHECK_EQ(lines, written);
	CHECK(text && strstr(text, "irq_softirq_entry: { cpu_id = 0 }, { vec = 0 }"), "%.2000s",
	      text ? text : "(nothing)");
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, outpath);
	CHECK(system(cmd) == 0);
}

/*
 * Every event of this machine gets a class, converts a record of zeros
 * and refuses one byte less than its program reads; the classes together
 * make a trace babeltrace2 reads.
 */
static void test_machine(void)
{
	const char *root = "/sys/kernel/tracing";
	char path[2048], err[256];
	struct stat st;
	DIR *d;
	struct dirent *sys;
	unsigned int n = 0, mapped = 0, fell_back = 0, cap = 4096;
	static uint8_t rec0[4096], out[16384];
	struct kmap_kstrings *k;
	struct kmap_env env = {0};
	struct tp_event *evs = calloc(cap, sizeof(*evs));
	struct kmap_event **ms = calloc(cap, sizeof(*ms));
	size_t klen;
	char *ktext;

	check_part = "this machine";
	snprintf(path, sizeof(path), "%s/events", root);
	if (stat(path, &st) && mount("nodev", root, "tracefs", 0, NULL)) {
		CHECK(0, "tracefs is not mounted at %s and cannot be (root needed)", root);
		return;
	}
	snprintf(path, sizeof(path), "%s/printk_formats", root);
	ktext = read_all(path, &klen);
	CHECK(ktext != NULL, "%s", path);
	k = ktext ? kmap_kstrings_parse(ktext, klen) : NULL;
	free(ktext);
	env.kstrings = k;
	snprintf(path, sizeof(path), "%s/events", root);
	d = opendir(path);
	CHECK(d != NULL);
	if (!d)
		return;
	while ((sys = readdir(d))) {
		char dir[1280];
		DIR *sd;
		struct dirent *e;

		if (sys->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/events/%s", root, sys->d_name);
		sd = opendir(dir);
		if (!sd)
			continue;
		while ((e = readdir(sd)) && n < cap) {
			struct tp_event *ev = &evs[n];
			struct kmap_event *m;
			size_t len, got;
			char *text;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/format", dir, e->d_name);
			text = read_all(path, &len);
			if (!text)
				continue;
			if (tp_format_parse(ev, sys->d_name, text, len, err, sizeof(err))) {
				CHECK(0, "%s: %s", path, err);
				free(text);
				continue;
			}
			free(text);
			m = kmap_event_new_env(ev, &env, err, sizeof(err));
			CHECK(m != NULL, "%s: %s", path, err);
			if (!m) {
				tp_event_free(ev);
				continue;
			}
			ms[n++] = m;
			if (kmap_event_is_mapped(m))
				mapped++;
			else if (kmap_table_find(ev->system, ev->name)) {
				fell_back++;
				CHECK(0, "%s:%s is in the table but its record does not fit it",
				      ev->system, ev->name);
			}
			if (ev->size > sizeof(rec0))
				continue;
			/* zeros: every locator points at offset 0 with length 0 */
			got = kmap_convert(m, rec0, ev->size, out, sizeof(out));
			CHECK(got > 0 || kmap_event_class(m)->cls.nr_fields == 0, "%s:%s",
			      ev->system, ev->name);
			CHECK(got <= kmap_payload_max(m, ev->size), "%s:%s", ev->system, ev->name);
			/* one byte short of what the program reads: refused */
			if (m->min_len)
				CHECK_EQ(kmap_convert(m, rec0, m->min_len - 1, out, sizeof(out)),
					 0);
		}
		closedir(sd);
	}
	closedir(d);
	printf("%u events: %u with LTTng's layout, %u as tracefs types them, %u fell back\n", n,
	       mapped, n - mapped, fell_back);
	CHECK(n > 2000, "only %u events", n);
	CHECK(mapped > 100, "only %u mapped", mapped);
	read_all_classes(ms, evs, n);
	for (unsigned int i = 0; i < n; i++) {
		kmap_event_free(ms[i]);
		tp_event_free(&evs[i]);
	}
	free(ms);
	free(evs);
	kmap_kstrings_free(k);
}

/* The classes made here as a trace babeltrace2 reads, with the values converted. */
static void test_babeltrace(void)
{
	static const uint8_t uuid[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};
	struct ctfw_trace trace = {
	    .clock = {"monotonic", "test", 1000000000, 0, 0,
		      "09080706-0504-0302-0100-010203040506"},
	};
	struct ctfw_stream stream = {.id = 0};
	struct tp_event evs[4];
	struct kmap_event *ms[4];
	struct ctfw_stream_file sf;
	struct strbuf sb;
	char dir[] = "/tmp/trax-test-kmap.XXXXXX", cmd[300], outpath[100], err[100];
	uint8_t *p, tmp[256];
	size_t len;
	char *text;

	check_part = "babeltrace2";
	memcpy(trace.uuid, uuid, 16);
	parse(&evs[0], "sched", sched_switch_fmt, "sched_switch", 372);
	parse(&evs[1], "block", rq_issue_fmt, "block_rq_issue", 200);
	parse(&evs[2], "test", generic_fmt, "test_every_kind", 900);
	parse(&evs[3], "timer", hrstart_fmt, "hrtimer_start", 600);
	strbuf_init(&sb);
	ctf_metadata_trace(&sb, &trace);
	ctf_metadata_stream(&sb, &stream);
	for (int i = 0; i < 4; i++) {
		ms[i] = kmap_event_new(&evs[i], err, sizeof(err));
		ctf_metadata_event(&sb, &kmap_event_class(ms[i])->cls, (uint32_t)i, 0);
	}
	CHECK(!sb.failed);
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(outpath, sizeof(outpath), "%s/metadata", dir);
	{
		FILE *f = fopen(outpath, "w");

		CHECK(f && fwrite(sb.buf, 1, sb.len, f) == sb.len);
		if (f)
			fclose(f);
	}
	CHECK_EQ(ctfw_stream_file_open(&sf, dir, "channel0_0", uuid, 0, 0, 4096), 0);

	begin(372, 1234);
	put(8, "bash", 5);
	put32(24, 1234);
	put32(28, 120);
	put64(32, 1);
	put(40, "swapper/1", 10);
	put32(60, 120);
	len = kmap_convert(ms[0], rec, 64, tmp, sizeof(tmp));
	p = ctfw_stream_file_reserve(&sf, 0, 1000, len);
	CHECK(p && kmap_convert(ms[0], rec, 64, p, len) == 56);

	begin(200, 3141);
	put32(8, 8u << 20 | 16);
	put64(16, 2048);
	put32(24, 8);
	put32(28, 4096);
	put(34, "WS", 3);
	put(44, "dd", 3);
	put_loc(60, 64, "");
	len = kmap_convert(ms[1], rec, 72, tmp, sizeof(tmp));
	p = ctfw_stream_file_reserve(&sf, 1, 2000, len);
	CHECK(p && kmap_convert(ms[1], rec, 72, p, len) == len);

	begin(900, 0);
	put64(8, 0xdeadbeef);
	put(16, "\xfe\xff", 2);
	put(18, "ab\0z", 4);
	put_loc(24, 36, "lbl");
	put32(28, 8u << 16 | 40);
	put64(40, 7);
	len = kmap_convert(ms[2], rec, 48, tmp, sizeof(tmp));
	p = ctfw_stream_file_reserve(&sf, 2, 3000, len);
	CHECK(p && kmap_convert(ms[2], rec, 48, p, len) == len);

	begin(600, 0);
	put64(8, 0xffff888000001000ull);
	put64(16, 0xffffffff81000000ull);
	put64(24, 5000);
	put64(32, 4000);
	put32(40, 1);
	len = kmap_convert(ms[3], rec, 44, tmp, sizeof(tmp));
	p = ctfw_stream_file_reserve(&sf, 3, 4000, len);
	CHECK(p && kmap_convert(ms[3], rec, 44, p, len) == len);
	CHECK_EQ(ctfw_stream_file_close(&sf, 5000), 0);

	snprintf(outpath, sizeof(outpath), "%s.txt", dir);
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' >'%s' 2>&1", dir, outpath);
	CHECK(system(cmd) == 0, "%s", cmd);
	text = read_all(outpath, &len);
	CHECK(text && strstr(text, "sched_switch: { cpu_id = 0 }, { prev_comm = \"bash\", "
				   "prev_tid = 1234, prev_prio = 20, prev_state = 1, "
				   "next_comm = \"swapper/1\", next_tid = 0, next_prio = 20 }"),
	      "babeltrace2 printed:\n%s", text ? text : "(nothing)");
	CHECK(text &&
		  strstr(text, "block_rq_issue: { cpu_id = 0 }, { dev = 8388624, sector = 2048, "
			       "nr_sector = 8, bytes = 4096, tid = 3141, rwbs = 33, "
			       "comm = \"dd\" }"),
	      "babeltrace2 printed:\n%s", text ? text : "(nothing)");
	CHECK(text && strstr(text, "test_every_kind: { cpu_id = 0 }, { ptr = 0xDEADBEEF, "
				   "delta = -2, tag = \"ab\", label = \"lbl\", _vals_length = 1, "
				   "vals = [ [0] = 7 ], pair = [ [0] = 0, [1] = 0 ], "
				   "_rest_length = 12"),
	      "babeltrace2 printed:\n%s", text ? text : "(nothing)");
	CHECK(text && strstr(text, "timer_hrtimer_start: { cpu_id = 0 }, { hrtimer = "
				   "0xFFFF888000001000, function = 0xFFFFFFFF81000000, "
				   "expires = 5000, softexpires = 4000, mode = ( "
				   "\"HRTIMER_MODE_REL\" : container = 1 ) }"),
	      "babeltrace2 printed:\n%s", text ? text : "(nothing)");
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, outpath);
	CHECK(system(cmd) == 0);
	for (int i = 0; i < 4; i++) {
		kmap_event_free(ms[i]);
		tp_event_free(&evs[i]);
	}
	strbuf_free(&sb);
}

int main(void)
{
	test_sched_switch();
	test_migrate();
	test_fork();
	test_irq();
	test_block();
	test_kmalloc();
	test_rcu_kstrings();
	test_generic();
	test_enum();
	test_table();
	test_machine();
	test_babeltrace();
	return CHECK_RESULT();
}
