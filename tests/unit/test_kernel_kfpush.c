/*
 * test_kernel_kfpush.c - LTTng filters translated into the kernel's event
 * filter syntax (src/kernel/kfpush*.c): for events built from tracefs
 * formats (LTTng's renames and priorities minus 100, truncated and bit
 * fields, strings of every kind, widths and signedness), each expression
 * gives exactly the expected kernel text, or nothing (a refusal), with
 * whether it is exact; several rules are their OR. Then, on this
 * machine's tracefs (root), the filters set in an instance: read back,
 * unchanged filters not rewritten, a refused one cleared.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "filter/filter.h"
#include "kernel/kfilter.h"
#include "kernel/kfpush.h"
#include "kernel/kmap.h"
#include "kernel/tp-format.h"
#include "kernel/tracefs.h"

#define COMMON                                                                                     \
	"name: %s\nID: %d\nformat:\n"                                                              \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define F(decl, off, size, sgn)                                                                    \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sgn ";\n"

static const char switch_fmt[] = COMMON F("char prev_comm[16]", 8, 16, 0)
    F("pid_t prev_pid", 24, 4, 1) F("int prev_prio", 28, 4, 1) F("long prev_state", 32, 8, 1)
	F("char next_comm[16]", 40, 16, 0) F("pid_t next_pid", 56, 4, 1)
	    F("int next_prio", 60, 4, 1);
static const char waking_fmt[] = COMMON F("char comm[16]", 8, 16, 0) F("pid_t pid", 24, 4, 1)
    F("int prio", 28, 4, 1) F("int target_cpu", 32, 4, 1);
static const char irq_fmt[] = COMMON F("int irq", 8, 4, 1) F("__data_loc char[] name", 12, 4, 0);
static const char kmalloc_fmt[] =
    COMMON F("unsigned long call_site", 8, 8, 0) F("const void * ptr", 16, 8, 0)
	F("size_t bytes_req", 24, 8, 0) F("size_t bytes_alloc", 32, 8, 0)
	    F("unsigned long gfp_flags", 40, 8, 0) F("int node", 48, 4, 1);
/* an event LTTng does not instrument: its fields as the format types them */
static const char gen_fmt[] = COMMON F("char tag[4]", 8, 4, 0) F("unsigned char small", 12, 1, 0)
    F("signed char tiny", 13, 1, 1) F("const char * cstr", 16, 8, 0)
	F("__data_loc char[] label", 24, 4, 0) F("unsigned int flags", 28, 4, 0)
	    F("u64 big", 32, 8, 0);

struct ev {
	struct tp_event tp;
	struct kmap_event *m;
};

static void make(struct ev *e, const char *system, const char *name, const char *fmt, int id)
{
	char text[4096], err[200];
	int n = snprintf(text, sizeof(text), fmt, name, id);

	if (tp_format_parse(&e->tp, system, text, (size_t)n, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", name, err);
		exit(1);
	}
	e->m = kmap_event_new(&e->tp, err, sizeof(err));
	if (!e->m) {
		fprintf(stderr, "%s: %s\n", name, err);
		exit(1);
	}
}

static void drop(struct ev *e)
{
	kmap_event_free(e->m);
	tp_event_free(&e->tp);
}

/* Compiles expr into r (linked against e's class as kfilter links it). */
static void rule(struct kfpush_rule *r, const struct ev *e, const char *expr)
{
	struct filter_error err;
	uint8_t *code = NULL;
	size_t len = 0;
	struct kfilter *f;

	memset(r, 0, sizeof(*r));
	if (!expr)
		return; /* a rule without filter */
	if (filter_compile(expr, &code, &len, &err)) {
		fprintf(stderr, "%s: %s\n", expr, err.msg);
		exit(1);
	}
	f = kfilter_new(code, len, &kmap_event_class(e->m)->cls);
	r->code = code;
	r->len = len;
	r->linked = f != NULL;
	kfilter_free(f);
}

static void unrule(struct kfpush_rule *r)
{
	free((void *)r->code);
}

#define NEVER "common_pid < 0 && common_pid >= 0"

/* The translation of rules (exact: 1, 0; -1: either) is want (NULL: nothing pushed). */
static void check_rules(const struct ev *e, const struct kfpush_rule *r, unsigned int n,
			const char *what, const char *want, int exact)
{
	char out[KFPUSH_MAX_TEXT];
	bool ex = false;
	int got = kfpush_translate(e->m, r, n, out, sizeof(out), &ex);

	if (!want) {
		CHECK(got == 0, "%s: %s: pushed [%s]", e->tp.name, what, got ? out : "");
		return;
	}
	CHECK(got == 1, "%s: %s: nothing pushed, expected [%s]", e->tp.name, what, want);
	if (got != 1)
		return;
	CHECK(!strcmp(out, want), "%s: %s:\n   got [%s]\n  want [%s]", e->tp.name, what, out, want);
	if (exact >= 0)
		CHECK(ex == (exact == 1), "%s: %s: exact %d", e->tp.name, what, ex);
}

static void tr(const struct ev *e, const char *expr, const char *want, int exact)
{
	struct kfpush_rule r;

	rule(&r, e, expr);
	check_rules(e, &r, 1, expr, want, exact);
	unrule(&r);
}

static void test_sched_switch(void)
{
	struct ev e;

	check_part = "sched_switch";
	make(&e, "sched", "sched_switch", switch_fmt, 372);
	/* LTTng's names and values */
	tr(&e, "prev_tid == 5", "prev_pid == 5", 1);
	tr(&e, "prev_prio == 20", "prev_prio == 120", 1);
	tr(&e, "next_prio != 20", "next_prio != 120", 1);
	tr(&e, "20 == next_prio", "next_prio == 120", 1);
	tr(&e, "prev_tid < 100", "prev_pid < 100", 1);
	tr(&e, "prev_tid <= 100", "prev_pid <= 100", 1);
	tr(&e, "100 > prev_tid", "prev_pid < 100", 1);
	tr(&e, "prev_tid > 10 && prev_tid < 20", "prev_pid > 10 && prev_pid < 20", 1);
	tr(&e, "prev_tid >= 100 && next_tid <= 200", "prev_pid >= 100 && next_pid <= 200", 1);
	tr(&e, "prev_tid == -1", "prev_pid == -1", 1);
	/* minus 100 wraps for values no kernel priority has: kept, exactly */
	tr(&e, "prev_prio < 20", "prev_prio >= -2147483548 && prev_prio <= 119", 1);
	tr(&e, "prev_prio >= 20", "prev_prio <= -2147483549 || prev_prio >= 120", 1);
	/* out of the field's range */
	tr(&e, "prev_tid == 5000000000", NEVER, 1);
	tr(&e, "prev_tid != 5000000000", NULL, -1);
	tr(&e, "prev_tid < 5000000000 && next_tid == 3", "next_pid == 3", 1);
	tr(&e, "prev_tid == -2147483648", "prev_pid == -2147483648", 1);
	/* truth of an integer */
	tr(&e, "prev_tid", "prev_pid != 0", 1);
	tr(&e, "!prev_tid", "prev_pid == 0", 1);
	tr(&e, "1", NULL, -1);
	tr(&e, "0", NEVER, 1);
	tr(&e, "prev_tid == 1 && 0", NEVER, 1);
	/* logic: && above ||, negation pushed down */
	tr(&e, "prev_tid == 1 || prev_tid == 2 && next_tid == 3",
	   "prev_pid == 1 || prev_pid == 2 && next_pid == 3", 1);
	tr(&e, "(prev_tid == 1 || prev_tid == 2) && next_tid == 3",
	   "(prev_pid == 1 || prev_pid == 2) && next_pid == 3", 1);
	tr(&e, "!(prev_tid == 1 || next_tid == 2)", "prev_pid != 1 && next_pid != 2", 1);
	tr(&e, "!(prev_tid == 1 && next_tid < 2)", "prev_pid != 1 || next_pid >= 2", 1);
	tr(&e, "!!(prev_tid == 1)", "prev_pid == 1", 1);
	/* bit masks */
	tr(&e, "prev_state & 1", "prev_state & 1", 1);
	tr(&e, "(prev_state & 4) == 0", "!prev_state & 4", 1);
	tr(&e, "(prev_state & 3) == 2", "!prev_state & 1 && prev_state & 2", 1);
	tr(&e, "(prev_state & 6) != 6", "!prev_state & 2 || !prev_state & 4", 1);
	tr(&e, "(prev_state & 3) == 4", NEVER, 1);
	tr(&e, "(prev_state & 0x8000000000000000) != 0", "prev_state & -9223372036854775808", 1);
	tr(&e, "(prev_tid & 0x100000000) != 0", NULL, 0);
	/* strings */
	tr(&e, "prev_comm == \"bash\"", "prev_comm == \"bash\"", 1);
	tr(&e, "prev_comm != \"bash\"", "prev_comm != \"bash\"", 1);
	tr(&e, "prev_comm == ''", "prev_comm == \"\"", 1);
	tr(&e, "prev_comm == 'say \"hi\"'", "prev_comm == 'say \"hi\"'", 1);
	tr(&e, "prev_comm == \"0123456789abcdef\"", "prev_comm == \"0123456789abcdef\"", 1);
	tr(&e, "prev_comm == \"0123456789abcdefX\"", NEVER, 1);
	tr(&e, "prev_comm == \"sh*\"", "prev_comm ~ \"\\sh*\"", 1);
	tr(&e, "prev_comm != \"*sh\"", "!prev_comm ~ \"*\\sh\"", 1);
	tr(&e, "\"k*\" == next_comm", "next_comm ~ \"\\k*\"", 1);
	tr(&e, "prev_comm == \"a\\*b?[*\"", "prev_comm ~ \"\\a\\*b\\?\\[*\"", 1);
	tr(&e, "prev_comm == \"!x*\"", "prev_comm ~ \"\\!x*\"", 1);
	tr(&e, "prev_comm == \"**\"", NULL, -1);
	tr(&e, "prev_comm < \"b\"", NULL, 0);
	/* what the kernel cannot say: dropped from &&, true in || */
	tr(&e, "prev_tid == 1 && prev_prio == next_prio", "prev_pid == 1", 0);
	tr(&e, "prev_tid == 1 || prev_prio == next_prio", NULL, 0);
	tr(&e, "!(prev_tid == 1 || prev_prio == next_prio)", "prev_pid != 1", 0);
	tr(&e, "prev_tid == 1 && (prev_state << 1) == 2", "prev_pid == 1", 0);
	tr(&e, "prev_tid == 1 && prev_prio < 1.5", "prev_pid == 1", 0);
	/* a field the event lacks: the rule never matches (kfilter's rule) */
	tr(&e, "nosuch == 1", NEVER, 1);
	/*
	 * contexts: the thread's is common_pid, its name the kernel's COMM,
	 * its CPU common_cpu; the others are not in the record
	 */
	tr(&e, "prev_tid == 1 && $ctx.procname == \"x\"", "prev_pid == 1 && COMM == \"x\"", 1);
	tr(&e, "$ctx.procname == \"kfp*\" || $ctx.cpu_id == 1",
	   "COMM ~ \"\\kfp*\" || common_cpu == 1", 1);
	/* 16 characters: never a name (the kernel's strncmp over 16 bytes says so); 17: never */
	tr(&e, "$ctx.procname == \"0123456789abcdef\"", "COMM == \"0123456789abcdef\"", 1);
	tr(&e, "$ctx.procname == \"0123456789abcdefX\"", NEVER, 1);
	tr(&e, "$ctx.cpu_id >= 4294967296", NEVER, 1);
	tr(&e, "prev_tid == 1 && $ctx.ppid == 2", "prev_pid == 1", 0);
	tr(&e, "$ctx.nosuch == 1", NEVER, 1);
	{
		struct kfpush_rule r;

		rule(&r, &e, "$ctx.tid == 5 && $ctx.vtid == 5");
		CHECK(r.linked, "a filter on the contexts links to the class");
		check_rules(&e, &r, 1, "$ctx.tid", "common_pid == 5", 0);
		unrule(&r);
	}
	/* several rules: their OR */
	{
		struct kfpush_rule r[3];

		rule(&r[0], &e, "prev_tid == 1");
		rule(&r[1], &e, "next_tid == 2 && next_prio == 0");
		rule(&r[2], &e, NULL);
		check_rules(&e, r, 2, "two rules",
			    "prev_pid == 1 || next_pid == 2 && next_prio == 100", 1);
		check_rules(&e, r, 3, "and one without filter", NULL, -1);
		unrule(&r[1]);
		rule(&r[1], &e, "prev_prio == next_prio");
		check_rules(&e, r, 2, "one that does not translate", NULL, -1);
		unrule(&r[1]);
		rule(&r[1], &e, "nosuch == 2");
		check_rules(&e, r, 2, "one that never matches", "prev_pid == 1", 1);
		unrule(&r[1]);
		rule(&r[1], &e, "prev_tid == 7 && prev_prio == next_prio");
		check_rules(&e, r, 2, "one that half translates", "prev_pid == 1 || prev_pid == 7",
			    0);
		unrule(&r[0]);
		unrule(&r[1]);
	}
	drop(&e);
}

static void test_others(void)
{
	struct ev w, irq, km, gen;

	check_part = "sched_waking";
	make(&w, "sched", "sched_waking", waking_fmt, 375);
	tr(&w, "tid == 7 && prio == 0", "pid == 7 && prio == 100", 1);
	tr(&w, "comm == \"kworker*\"", "comm ~ \"\\kworker*\"", 1);
	tr(&w, "target_cpu == 1", "target_cpu == 1", 1);
	drop(&w);

	check_part = "irq_handler_entry";
	make(&irq, "irq", "irq_handler_entry", irq_fmt, 225);
	tr(&irq, "name == \"eth0\"", "name == \"eth0\"", 1);
	tr(&irq, "name == \"*eth*\"", "name ~ \"*\\eth*\"", 1);
	tr(&irq, "name == \"1*\"", "name ~ \"\\1*\"", 1);
	tr(&irq, "name == \"*\"", NULL, -1);
	tr(&irq, "irq == -1 || irq > 1000", "irq == -1 || irq > 1000", 1);
	drop(&irq);

	check_part = "kmalloc";
	make(&km, "kmem", "kmalloc", kmalloc_fmt, 658);
	/* gfp_flags: the kernel's 64 bits cut to LTTng's 32 */
	tr(&km, "gfp_flags == 5", NULL, 0);
	tr(&km, "(gfp_flags & 0x10) == 0x10", "gfp_flags & 16", 1);
	tr(&km, "(gfp_flags & 0x100000000) != 0", NULL, 0);
	/* accounted: bit 22 of gfp_flags */
	tr(&km, "accounted == 1", "gfp_flags & 4194304", 1);
	tr(&km, "accounted == 0", "!gfp_flags & 4194304", 1);
	tr(&km, "accounted != 0", "gfp_flags & 4194304", 1);
	tr(&km, "accounted < 5", NULL, -1);
	tr(&km, "accounted == 2", NEVER, 1);
	/* unsigned 64 bits, which the filter compares as signed */
	tr(&km, "call_site == 0xffffffff81000000", "call_site == 18446744071578845184", 1);
	tr(&km, "call_site < 0", "call_site > 9223372036854775807", 1);
	/* above 2^63 - 1 the filter sees a negative value: not > 4096 */
	tr(&km, "bytes_req > 4096 && node == -1",
	   "bytes_req >= 4097 && bytes_req <= 9223372036854775807 && node == -1", 1);
	tr(&km, "ptr == 0", "ptr == 0", 1);
	drop(&km);

	check_part = "generic";
	make(&gen, "test", "gen", gen_fmt, 900);
	tr(&gen, "tag == \"ab\"", "tag == \"ab\"", 1);
	tr(&gen, "tag == \"abcd\"", "tag == \"abcd\"", 1);
	tr(&gen, "tag == \"abcde\"", NEVER, 1);
	/* a char[N] that may lack its NUL: only "prefix*" */
	tr(&gen, "tag == \"ab*\"", "tag ~ \"ab*\"", 1);
	tr(&gen, "tag == \"abcde*\"", NEVER, 1);
	tr(&gen, "tag == \"*b\"", NULL, 0);
	tr(&gen, "tag == \"1*\"", NULL, 0);
	tr(&gen, "tag == \"a\\\\**\"", NULL, 0);
	/* widths and signedness */
	tr(&gen, "small == 300", NEVER, 1);
	tr(&gen, "small == -1", NEVER, 1);
	tr(&gen, "small < 300", NULL, -1);
	tr(&gen, "small >= 200", "small >= 200", 1);
	tr(&gen, "tiny == -1", "tiny == -1", 1);
	tr(&gen, "tiny == 255", NEVER, 1);
	tr(&gen, "tiny < 0", "tiny < 0", 1);
	tr(&gen, "(tiny & 0x80) != 0", "tiny & -128", 1);
	tr(&gen, "(flags & 0x80000000) == 0", "!flags & 2147483648", 1);
	tr(&gen, "big == -1", "big == 18446744073709551615", 1);
	/* a char * the kernel reads as a string */
	tr(&gen, "cstr == 0", NULL, 0);
	tr(&gen, "label == \"x\" && label != \"y*\"", "label == \"x\" && !label ~ \"\\y*\"", 1);
	drop(&gen);
	check_part = NULL;
}

/* The filters set in a real instance. */
static void test_instance(void)
{
	char root[256], err[256], buf[512];
	struct tracefs_instance in;
	struct kfpush *p;
	struct kfpush_rule r;
	struct ev e;
	char *text = NULL;
	long n;

	check_part = "instance";
	if (geteuid() != 0 || tracefs_find(root, sizeof(root), err, sizeof(err)) < 0) {
		CHECK(0, "needs root and tracefs: %s", geteuid() ? "not root" : err);
		return;
	}
	n = tracefs_read_format(root, "sched", "sched_switch", &text);
	CHECK(n > 0);
	if (n <= 0)
		return;
	if (tp_format_parse(&e.tp, "sched", text, (size_t)n, err, sizeof(err))) {
		CHECK(0, "%s", err);
		return;
	}
	free(text);
	e.m = kmap_event_new(&e.tp, err, sizeof(err));
	CHECK(e.m != NULL);
	CHECK_EQ(tracefs_instance_create(&in, root, "kfpush-unit"), 0);
	p = kfpush_new(&in);

	rule(&r, &e, "prev_tid == 12345 || next_prio == 20");
	CHECK_EQ(kfpush_event(p, &e.tp, e.m, &r, 1), 1);
	CHECK(tracefs_read(&in, "events/sched/sched_switch/filter", buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "prev_pid == 12345 || next_prio == 120\n"), "[%s]", buf);
	CHECK(!strcmp(kfpush_current(p, e.tp.id), "prev_pid == 12345 || next_prio == 120"));
	/* unchanged: not written again (the file written by hand stays) */
	tracefs_write(&in, "events/sched/sched_switch/filter", "prev_pid == 1");
	CHECK_EQ(kfpush_event(p, &e.tp, e.m, &r, 1), 1);
	CHECK(tracefs_read(&in, "events/sched/sched_switch/filter", buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "prev_pid == 1\n"), "[%s]", buf);
	unrule(&r);
	/* nothing to push: cleared */
	rule(&r, &e, "prev_prio == next_prio");
	CHECK_EQ(kfpush_event(p, &e.tp, e.m, &r, 1), 0);
	CHECK(tracefs_read(&in, "events/sched/sched_switch/filter", buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "none\n"), "[%s]", buf);
	CHECK(kfpush_current(p, e.tp.id) == NULL);
	unrule(&r);
	kfpush_free(p);

	/* refused by the kernel (a field this event lacks): cleared, -EINVAL */
	{
		struct tp_event fake = e.tp;
		char *old = fake.name;

		/* sched_switch's converter, written to sched_waking's filter: no prev_pid there */
		fake.name = "sched_waking";
		p = kfpush_new(&in);
		rule(&r, &e, "prev_tid == 3");
		CHECK_EQ(kfpush_event(p, &fake, e.m, &r, 1), -22);
		CHECK(tracefs_read(&in, "events/sched/sched_waking/filter", buf, sizeof(buf)) > 0);
		CHECK(!strcmp(buf, "none\n"), "[%s]", buf);
		CHECK(kfpush_current(p, fake.id) == NULL);
		unrule(&r);
		kfpush_free(p);
		fake.name = old;
	}

	/* TRAX_KERNEL_FILTER=after: nothing pushed */
	setenv("TRAX_KERNEL_FILTER", "after", 1);
	p = kfpush_new(&in);
	rule(&r, &e, "prev_tid == 3");
	CHECK_EQ(kfpush_event(p, &e.tp, e.m, &r, 1), 0);
	unrule(&r);
	kfpush_free(p);
	unsetenv("TRAX_KERNEL_FILTER");

	CHECK_EQ(tracefs_instance_destroy(&in), 0);
	drop(&e);
	check_part = NULL;
}

int main(void)
{
	test_sched_switch();
	test_others();
	test_instance();
	return CHECK_RESULT();
}
