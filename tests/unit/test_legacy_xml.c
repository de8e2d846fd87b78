/*
 * test_legacy_xml.c - the facility XML reader (src/legacy/lxml.c): every
 * facility file LTTV shipped (tests/data/legacy/facilities/) parses, with
 * its event and named-type counts; fields checked by hand in each grammar
 * (the genevent files of ltt-control, the seed-era files of LTTV 0.6.9,
 * and a seed-grammar file written here with text enum labels, a union
 * with a selector, lengthsize, medium/long sizes); comments, entities,
 * loose tags; and errors, each one line "FILE:LINE:COL: what".
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "legacy/ltt-type.h"

#ifndef TRAX_SRC_DIR
#define TRAX_SRC_DIR "."
#endif
#define FACILITIES TRAX_SRC_DIR "/tests/data/legacy/facilities"

static char err[512];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(*len + 1);
	if (b && fread(b, 1, *len, f) != *len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

/* Parses a file of the test data: NULL (and a failed check) when it does not. */
static struct ltt_facility *load(const char *rel, size_t *n)
{
	char path[512];
	size_t len;
	char *text;
	struct ltt_facility *f = NULL;

	snprintf(path, sizeof(path), "%s/%s", FACILITIES, rel);
	text = slurp(path, &len);
	CHECK(text != NULL, "cannot read %s", path);
	if (!text)
		return NULL;
	if (lxml_parse(text, len, rel, &f, n, err, sizeof(err))) {
		CHECK(0, "%s", err);
		f = NULL;
	}
	free(text);
	return f;
}

/* A malformed file of the test data: lxml_parse fails with exactly want. */
static void expect_file_error(const char *rel, const char *want)
{
	char path[512];
	size_t len, n = 0;
	char *text;
	struct ltt_facility *f = NULL;

	snprintf(path, sizeof(path), "%s/%s", FACILITIES, rel);
	text = slurp(path, &len);
	CHECK(text != NULL, "cannot read %s", path);
	if (!text)
		return;
	err[0] = '\0';
	CHECK(lxml_parse(text, len, rel, &f, &n, err, sizeof(err)) == -1, "%s parsed", rel);
	CHECK(!strcmp(err, want), "error '%s', want '%s'", err, want);
	lxml_free(f, n);
	free(text);
}

static struct ltt_facility *parse_text(const char *text, size_t *n)
{
	struct ltt_facility *f = NULL;

	if (lxml_parse(text, strlen(text), "t.xml", &f, n, err, sizeof(err))) {
		CHECK(0, "%s", err);
		return NULL;
	}
	return f;
}

static const struct ltt_event_type *event(const struct ltt_facility *f, const char *name)
{
	for (size_t i = 0; i < f->nevents; i++)
		if (!strcmp(f->events[i].name, name))
			return &f->events[i];
	CHECK(0, "no event %s in %s", name, f->name);
	return NULL;
}

static const struct ltt_type *field(const struct ltt_type *s, const char *name)
{
	for (size_t i = 0; s && i < s->nfields; i++)
		if (!strcmp(s->fields[i].name, name))
			return s->fields[i].type;
	CHECK(0, "no field %s", name);
	return NULL;
}

static const char *label(const struct ltt_type *e, int64_t v)
{
	for (size_t i = 0; e && i < e->nlabels; i++)
		if (e->labels[i].value == v)
			return e->labels[i].name;
	return "";
}

/* ---- every shipped file ---- */

static const struct shipped {
	const char *path, *facility;
	size_t nevents, nnamed;
} shipped[] = {
    {"genevent/core.xml", "core", 2, 0},
    {"genevent/heartbeat.xml", "heartbeat", 1, 2},
    {"genevent/kernel.xml", "kernel", 10, 2},
    {"genevent/memory.xml", "memory", 6, 0},
    {"genevent/timer.xml", "timer", 3, 2},
    {"ltt-control/block.xml", "block", 2, 0},
    {"ltt-control/compact.xml", "compact", 7, 0},
    {"ltt-control/core.xml", "core", 5, 0},
    {"ltt-control/fs.xml", "fs", 18, 0},
    {"ltt-control/fs_data.xml", "fs_data", 2, 0},
    {"ltt-control/ipc.xml", "ipc", 3, 0},
    {"ltt-control/kernel.xml", "kernel", 30, 4},
    {"ltt-control/kernel_arch_arm.xml", "kernel_arch", 6, 1},
    {"ltt-control/kernel_arch_c2.xml", "kernel_arch", 2, 1},
    {"ltt-control/kernel_arch_i386.xml", "kernel_arch", 6, 1},
    {"ltt-control/kernel_arch_mips.xml", "kernel_arch", 6, 1},
    {"ltt-control/kernel_arch_powerpc.xml", "kernel_arch", 6, 1},
    {"ltt-control/kernel_arch_ppc.xml", "kernel_arch", 2, 1},
    {"ltt-control/kernel_arch_sh.xml", "kernel_arch", 6, 1},
    {"ltt-control/kernel_arch_x86_64.xml", "kernel_arch", 6, 1},
    {"ltt-control/kernel_process.xml", "process", 0, 0},
    {"ltt-control/list.xml", "list", 7, 5},
    {"ltt-control/locking.xml", "locking", 6, 0},
    {"ltt-control/memory.xml", "memory", 7, 0},
    {"ltt-control/mm.xml", "mm", 8, 0},
    {"ltt-control/net.xml", "net", 8, 0},
    {"ltt-control/network.xml", "network", 2, 0},
    {"ltt-control/process.xml", "process", 8, 1},
    {"ltt-control/socket.xml", "socket", 4, 0},
    {"ltt-control/stack.xml", "stack", 3, 0},
    {"ltt-control/stack_arch_i386.xml", "stack_arch", 5, 0},
    {"ltt-control/stack_arch_x86_64.xml", "stack_arch", 7, 0},
    {"ltt-control/statedump.xml", "statedump", 7, 4},
    {"ltt-control/timer.xml", "timer", 4, 1},
    {"ltt-control/user_generic.xml", "user_generic", 6, 0},
    {"ltt-control/xen.xml", "xen", 6, 0},
    {"lttv-0.6.9/process.xml", "process", 9, 1},
    {"lttv-0.7.0/memory.xml", "memory", 6, 0},
    {"lttv-0.7.0/s390_kernel.xml", "s390_kernel", 1, 0},
    {"lttv-0.7.0/timer.xml", "timer", 3, 1},
    {"poly/core-0.6.9.xml", "core", 4, 1},
    {"poly/core.xml", "core", 4, 1},
    {"poly/fs.xml", "fs", 11, 0},
    {"poly/ipc-0.6.9.xml", "ipc", 4, 0},
    {"poly/ipc.xml", "ipc", 4, 0},
    {"poly/kernel-0.6.9.xml", "kernel", 10, 2},
    {"poly/kernel.xml", "kernel", 10, 2},
    {"poly/kernel_arch_arm.xml", "kernel_arch", 2, 1},
    {"poly/kernel_arch_i386.xml", "kernel_arch", 2, 1},
    {"poly/kernel_arch_mips.xml", "kernel_arch", 2, 1},
    {"poly/locking.xml", "locking", 4, 0},
    {"poly/memory.xml", "memory", 6, 0},
    {"poly/network-0.6.9.xml", "network", 2, 0},
    {"poly/network.xml", "network", 2, 0},
    {"poly/network_ip_interface.xml", "network_ip_interface", 2, 0},
    {"poly/process.xml", "process", 9, 1},
    {"poly/s390_kernel.xml", "s390_kernel", 1, 0},
    {"poly/socket.xml", "socket", 4, 0},
    {"poly/stack_arch_i386.xml", "stack_arch", 2, 0},
    {"poly/statedump.xml", "statedump", 5, 0},
    {"poly/timer.xml", "timer", 3, 1},
    {"poly/user_generic.xml", "user_generic", 3, 0},
    {"tests/tests.xml", "tests", 1, 0},
    {"usertrace-generic/user_generic.xml", "user_generic", 2, 0},
    {"xenoltt/xenoltt.xml", "xenoltt", 21, 0},
};

/*
 * Shipped files that are truly malformed (the README says why), with the one
 * line lxml_parse must give. Both hold 4 events and no named type.
 */
static const struct malformed {
	const char *path, *error;
} malformed[] = {
    {"genevent/ipc.xml", "genevent/ipc.xml:5:5: unexpected <descriptiona> in <event>"},
    {"genevent/socket.xml", "genevent/socket.xml:5:5: unexpected <descriptiona> in <event>"},
};

static void test_every_file(void)
{
	for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		const struct shipped *s = &shipped[i];
		size_t n = 0;
		struct ltt_facility *f;

		check_part = s->path;
		f = load(s->path, &n);
		if (f) {
			CHECK_EQ(n, 1);
			CHECK(!strcmp(f[0].name, s->facility), "facility %s", f[0].name);
			CHECK_EQ(f[0].nevents, s->nevents);
			CHECK_EQ(f[0].nnamed, s->nnamed);
			for (size_t e = 0; e < f[0].nevents; e++)
				CHECK(f[0].events[e].payload &&
				      f[0].events[e].payload->kind == LTT_STRUCT);
		}
		lxml_free(f, n);
	}
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		check_part = malformed[i].path;
		expect_file_error(malformed[i].path, malformed[i].error);
	}
	check_part = NULL;

	/* and nothing in the folder escapes the table */
	static const char *const dirs[] = {"genevent",		"ltt-control", "lttv-0.6.9",
					   "lttv-0.7.0",	"poly",	       "tests",
					   "usertrace-generic", "xenoltt"};
	size_t seen = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		char path[512];
		DIR *dir;
		struct dirent *de;

		snprintf(path, sizeof(path), "%s/%s", FACILITIES, dirs[d]);
		dir = opendir(path);
		CHECK(dir != NULL, "%s", path);
		while (dir && (de = readdir(dir))) {
			char rel[300];
			bool listed = false;

			if (!strstr(de->d_name, ".xml"))
				continue;
			snprintf(rel, sizeof(rel), "%s/%s", dirs[d], de->d_name);
			for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++)
				listed |= !strcmp(shipped[i].path, rel);
			for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++)
				listed |= !strcmp(malformed[i].path, rel);
			CHECK(listed, "%s is not in the table of shipped files", rel);
			seen++;
		}
		if (dir)
			closedir(dir);
	}
	CHECK_EQ(seen,
		 sizeof(shipped) / sizeof(shipped[0]) + sizeof(malformed) / sizeof(malformed[0]));
}

/* ---- fields by hand ---- */

static void test_genevent_fields(void)
{
	size_t n;
	struct ltt_facility *f;
	const struct ltt_event_type *ev;
	const struct ltt_type *t;

	/* kernel_arch_i386: syscall_entry (syscall_id: typeref to an enum of int size; address:
	 * ulong) */
	f = load("ltt-control/kernel_arch_i386.xml", &n);
	if (f) {
		ev = event(f, "syscall_entry");
		CHECK_EQ(ev->payload->nfields, 2);
		t = field(ev->payload, "syscall_id");
		CHECK(t && t->kind == LTT_TYPEREF && !strcmp(t->name, "syscall_name"));
		t = ltt_type_resolve(t);
		CHECK(t && t->kind == LTT_ENUM && t->size_ref == LTT_SIZE_INT);
		CHECK(!strcmp(label(t, 0), "restart_syscall"));
		CHECK(!strcmp(label(t, 11), "execve"));
		/* labels without value follow the previous: timer_settime 260, then 261.. */
		CHECK(!strcmp(label(t, 261), "timer_gettime"));
		CHECK(!strcmp(label(t, 267), "clock_nanosleep"));
		CHECK(!strcmp(label(t, 278), "mq_unlink"));
		CHECK(!strcmp(label(t, 327), "ltt_register_generic"));
		t = field(ev->payload, "address");
		CHECK(t && t->kind == LTT_UNSIGNED && t->size_ref == LTT_SIZE_LONG);
		ev = event(f, "kthread_create");
		t = field(ev->payload, "pid");
		CHECK(t && t->kind == LTT_SIGNED && t->size_ref == LTT_SIZE_LONG);
		t = field(ev->payload, "function");
		CHECK(t && t->kind == LTT_UNSIGNED && t->size_ref == LTT_SIZE_POINTER &&
		      t->base == 16);
		CHECK(!strcmp(f->events[0].name, "trap_entry")); /* event id 0: file order */
		CHECK(!strcmp(f->events[5].name, "kthread_create"));
		lxml_free(f, n);
	}

	/* kernel_arch_sh: a label whose value slipped into its name follows the previous (171) */
	f = load("ltt-control/kernel_arch_sh.xml", &n);
	if (f) {
		t = ltt_type_resolve(field(event(f, "syscall_entry")->payload, "syscall_id"));
		CHECK(!strcmp(label(t, 172), "prctl              172"));
		CHECK(!strcmp(label(t, 173), "rt_sigreturn"));
		lxml_free(f, n);
	}

	/* kernel.xml: vprintk (u1, a sequence of uint length and uchar elements, a pointer) */
	f = load("ltt-control/kernel.xml", &n);
	if (f) {
		ev = event(f, "vprintk");
		t = field(ev->payload, "loglevel");
		CHECK(t && t->kind == LTT_UNSIGNED && t->size_ref == LTT_SIZE_FIXED &&
		      t->size == 1);
		t = field(ev->payload, "text");
		CHECK(t && t->kind == LTT_SEQUENCE);
		CHECK(t && t->length_type->kind == LTT_UNSIGNED &&
		      t->length_type->size_ref == LTT_SIZE_INT);
		CHECK(t && t->elem->kind == LTT_UNSIGNED && t->elem->size == 1 && t->elem->is_char);
		CHECK(t && t->is_char);
		ev = event(f, "irq_entry");
		t = ltt_type_resolve(field(ev->payload, "mode"));
		CHECK(t && t->kind == LTT_ENUM && t->nlabels == 2 &&
		      !strcmp(label(t, 1), "kernel"));
		lxml_free(f, n);
	}

	/* core.xml: facility_load (a string then seven uint_fixed 4) */
	f = load("ltt-control/core.xml", &n);
	if (f) {
		ev = event(f, "facility_load");
		CHECK_EQ(ev->payload->nfields, 8);
		CHECK(ev->payload->fields[0].type->kind == LTT_STRING);
		for (size_t i = 1; i < ev->payload->nfields; i++) {
			t = ev->payload->fields[i].type;
			CHECK(t->kind == LTT_UNSIGNED && t->size_ref == LTT_SIZE_FIXED &&
			      t->size == 4);
		}
		CHECK(!strcmp(ev->payload->fields[7].name, "has_alignment"));
		CHECK(ev->description && !strcmp(ev->description, "Facility is loaded"));
		lxml_free(f, n);
	}

	/* statedump.xml: a field of an undeclared type parses; decoding it fails */
	f = load("ltt-control/statedump.xml", &n);
	if (f) {
		static const struct ltt_abi abi = {4, 4, 4, 4, 0, false, false, false};
		/* pid 1, parent 0, name "x", then mode */
		static const uint8_t b[14] = {1, 0, 0, 0, 0, 0, 0, 0, 'x', 0, 0, 0, 0, 0};

		ev = event(f, "enumerate_process_state");
		t = field(ev->payload, "mode");
		CHECK(t && t->kind == LTT_TYPEREF && t->ref == NULL);
		CHECK(ltt_payload_size(ev->payload, &abi, b, sizeof(b), 0, err, sizeof(err)) == -1);
		CHECK(strstr(err, "field mode at offset 10") && strstr(err, "execution_mode"), "%s",
		      err);
		/* submode is declared: resolved */
		CHECK(ltt_type_resolve(field(ev->payload, "submode")) != NULL);
		/* byte_order="network" */
		ev = event(f, "enumerate_network_ip_interface");
		t = field(ev->payload, "addr");
		CHECK(t && t->network && t->size == 4);
		/* <string> and <uint size="4"> without "/" did not swallow what follows */
		ev = event(f, "enumerate_file_descriptors");
		CHECK_EQ(ev->payload->nfields, 3);
		lxml_free(f, n);
	}

	/* fs_data.xml: a sequence whose children are written <uint> <uchar> without "/" */
	f = load("ltt-control/fs_data.xml", &n);
	if (f) {
		t = field(event(f, "write")->payload, "data");
		CHECK(t && t->kind == LTT_SEQUENCE && t->length_type->size_ref == LTT_SIZE_INT &&
		      t->elem->size == 1);
		lxml_free(f, n);
	}
}

static void test_seed_era_files(void)
{
	size_t n;
	struct ltt_facility *f;
	const struct ltt_type *t;

	/* LTTV 0.6.9: unquoted values, one <struct> per event, time_heartbeat a typeref */
	f = load("poly/core-0.6.9.xml", &n);
	if (f) {
		const struct ltt_event_type *ev = event(f, "time_heartbeat");

		/* the typeref to a struct became the payload itself */
		CHECK(ev->payload->kind == LTT_STRUCT && ev->payload->nfields == 3);
		t = field(ev->payload, "cycle_count");
		CHECK(t && t->kind == LTT_UNSIGNED && t->size == 8);
		ev = event(f, "facility_load");
		CHECK_EQ(ev->payload->nfields, 7);
		CHECK(!strcmp(ev->payload->fields[6].name, "alignment"));
		lxml_free(f, n);
	}
	/* poly/kernel.xml: syscall_entry (uint size=1, pointer), unquoted label values */
	f = load("poly/kernel.xml", &n);
	if (f) {
		const struct ltt_event_type *ev = event(f, "syscall_entry");

		CHECK(ev == &f->events[0]);
		CHECK_EQ(ev->payload->nfields, 2);
		t = field(ev->payload, "syscall_id");
		CHECK(t && t->kind == LTT_UNSIGNED && t->size_ref == LTT_SIZE_FIXED &&
		      t->size == 1);
		t = field(ev->payload, "address");
		CHECK(t && t->kind == LTT_UNSIGNED && t->size_ref == LTT_SIZE_POINTER);
		t = ltt_type_resolve(field(event(f, "tasklet_entry")->payload, "priority"));
		CHECK(t && t->kind == LTT_ENUM && !strcmp(label(t, 1), "HIGH"));
		lxml_free(f, n);
	}
	/* poly/stack_arch_i386.xml: <sequence custom_write/> followed by its two types */
	f = load("poly/stack_arch_i386.xml", &n);
	if (f) {
		t = field(event(f, "kernel_dump")->payload, "eip");
		CHECK(t && t->kind == LTT_SEQUENCE && t->length_type->size_ref == LTT_SIZE_INT &&
		      t->elem->size_ref == LTT_SIZE_LONG);
		lxml_free(f, n);
	}
	/* poly/network_ip_interface.xml: the bare "network" attribute */
	f = load("poly/network_ip_interface.xml", &n);
	if (f) {
		t = field(event(f, "dev_up")->payload, "addr");
		CHECK(t && t->network && t->size == 4);
		lxml_free(f, n);
	}
	/* poly/process.xml: signal_name is used before it is declared */
	f = load("poly/process.xml", &n);
	if (f) {
		t = ltt_type_resolve(field(event(f, "kill")->payload, "signal"));
		CHECK(t && t->kind == LTT_ENUM && !strcmp(label(t, 9), "SIGKILL"));
		lxml_free(f, n);
	}
}

/* A file of the seed's grammar (seed 000 text), written here: no shipped file has its unions. */
static const char seed_text[] =
    "<facility name=seed>\n"
    "  <description>Seed grammar &amp; more</description>\n"
    "  <event name=ev per_tracefile>\n"
    "    <description>one struct</description>\n"
    "    <struct>\n"
    "      <field name=kind><description>k</description><enum size=1> ZERO ONE\n"
    "        TWO </enum></field>\n"
    "      <field name=u><union typecodesize=2>\n"
    "        <field name=a><uint size=short/></field>\n"
    "        <field name=b><string/></field>\n"
    "      </union></field>\n"
    "      <field name=q><sequence lengthsize=1><int size=medium/></sequence></field>\n"
    "      <field name=arr><array size=3><float size=long/></array></field>\n"
    "      <field name=l><int size=long format=\"%ld\"/></field>\n"
    "      <field name=t><typeref name=later/></field>\n"
    "    </struct>\n"
    "  </event>\n"
    "  <event name=second><uint size=8/></event>\n"
    "  <type name=later><struct><field name=x><float size=medium/></field></struct></type>\n"
    "</facility>\n";

static void test_seed_grammar(void)
{
	size_t n;
	struct ltt_facility *f = parse_text(seed_text, &n);
	const struct ltt_type *p, *t;

	if (!f)
		return;
	CHECK(!strcmp(f->description, "Seed grammar & more"), "%s", f->description);
	p = event(f, "ev")->payload;
	CHECK_EQ(p->nfields, 6);
	t = field(p, "kind");
	CHECK(t && t->kind == LTT_ENUM && t->size == 1 && t->nlabels == 3);
	CHECK(!strcmp(label(t, 0), "ZERO") && !strcmp(label(t, 1), "ONE") &&
	      !strcmp(label(t, 2), "TWO"));
	t = field(p, "u");
	CHECK(t && t->kind == LTT_UNION && t->typecode_size == 2 && t->nfields == 2);
	CHECK(t && t->fields[0].type->size == 2 && t->fields[1].type->kind == LTT_STRING);
	t = field(p, "q");
	CHECK(t && t->kind == LTT_SEQUENCE && t->length_type->kind == LTT_UNSIGNED &&
	      t->length_type->size == 1);
	CHECK(t && t->elem->kind == LTT_SIGNED && t->elem->size_ref == LTT_SIZE_INT);
	t = field(p, "arr");
	CHECK(t && t->kind == LTT_ARRAY && t->length == 3 && t->elem->kind == LTT_FLOAT &&
	      t->elem->size == 8);
	t = field(p, "l");
	CHECK(t && t->kind == LTT_SIGNED && t->size_ref == LTT_SIZE_LONG);
	t = ltt_type_resolve(field(p, "t"));
	CHECK(t && t->kind == LTT_STRUCT && t->fields[0].type->kind == LTT_FLOAT &&
	      t->fields[0].type->size == 4);
	/* an event of one non-struct type: a struct of one field */
	p = event(f, "second")->payload;
	CHECK(p->kind == LTT_STRUCT && p->nfields == 1 && p->fields[0].type->size == 8);

	/*
	 * Decode ev, packed, little-endian, int 4 long 8: kind=2, code=1 (2
	 * bytes) then b "hi", q: length 2, two ints, arr: 3 doubles, l, t.x.
	 */
	static const struct ltt_abi abi = {4, 8, 8, 8, 0, false, false, false};
	uint8_t b[64], *w = b;
	const double d[3] = {0.5, 1.0, -2.0};
	const float x = 3.0f;
	const int64_t l = -7;

	*w++ = 2;
	*w++ = 1, *w++ = 0;
	memcpy(w, "hi", 3), w += 3;
	*w++ = 2;
	memcpy(w, "\x05\0\0\0\xff\xff\xff\xff", 8), w += 8;
	memcpy(w, d, sizeof(d)), w += sizeof(d);
	memcpy(w, &l, 8), w += 8;
	memcpy(w, &x, 4), w += 4;
	CHECK_EQ(ltt_payload_size(event(f, "ev")->payload, &abi, b, sizeof(b), 0, err, sizeof(err)),
		 w - b);
	lxml_free(f, n);
}

/* Comments of three kinds, entities, quotes, loose tags, several facilities. */
static const char loose_text[] =
    "<?xml version=\"1.0\"?>\n"
    "<!-- an XML comment -->\n"
    "/* a C comment */\n"
    "// a line comment\n"
    "<facility name='a&lt;b'>\n"
    "  <event name=\"e\" scope=\"trace\" scope=\"tracefile\">\n"
    "    <description>x &gt; 0 // not a comment</description>\n"
    "    <field name=\"u\"><union><field name=\"i\"><int_fixed size=\"4\"></field>\n"
    "      <field name=\"c\"><char></char></field></union></field>\n"
    "    <field name=\"n\"><ushort network/></field>\n"
    "  </event>\n"
    "</facility>\n"
    "<facility name=second><event name=only/></facility>\n";

static void test_loose(void)
{
	size_t n;
	struct ltt_facility *f = parse_text(loose_text, &n);
	const struct ltt_type *t;

	if (!f)
		return;
	CHECK_EQ(n, 2);
	CHECK(!strcmp(f[0].name, "a<b"), "%s", f[0].name);
	CHECK(!strcmp(f[0].events[0].description, "x > 0 // not a comment"), "%s",
	      f[0].events[0].description);
	t = field(f[0].events[0].payload, "u");
	CHECK(t && t->kind == LTT_UNION && t->typecode_size == 0 && t->nfields == 2);
	CHECK(t && t->fields[1].type->kind == LTT_SIGNED && t->fields[1].type->is_char);
	t = field(f[0].events[0].payload, "n");
	CHECK(t && t->network && t->size == 2 && t->kind == LTT_UNSIGNED);
	CHECK(!strcmp(f[1].name, "second") && f[1].nevents == 1 &&
	      f[1].events[0].payload->nfields == 0);
	lxml_free(f, n);
}

/*
 * The gen helper's fixture tests/data/legacy/hex/v07-be-aligned8-nohb
 * (written from docs/legacy-formats.md alone): its eventdefs/gen.xml and
 * the two payloads of its cpu_0 (block offsets 128 and 168, big-endian,
 * aligned on 8) decode to the sizes of their headers' event_size and the
 * values of its expect.jsonl.
 */
static int gen_int(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		   uint64_t raw)
{
	(void)t;
	(void)size;
	snprintf((char *)arg + strlen(arg), 256 - strlen(arg), "%s=%llu ", name,
		 (unsigned long long)raw);
	return 0;
}

static int gen_str(void *arg, const char *name, const struct ltt_type *t, const char *s, size_t len)
{
	(void)t;
	snprintf((char *)arg + strlen(arg), 256 - strlen(arg), "%s='%.*s' ", name, (int)len, s);
	return 0;
}

static void test_gen_fixture(void)
{
	size_t n;
	struct ltt_facility *f = load("../hex/v07-be-aligned8-nohb/eventdefs/gen.xml", &n);
	static const struct ltt_abi abi = {4, 8, 8, 8, 8, true, true, false};
	static const uint8_t ev1[22] = {0x41, 0, 0, 0, 0, 0,   0,   0, 1, 2,	3,
					4,    5, 6, 7, 8, 'a', 'b', 0, 0, 0xbe, 0xef};
	static const uint8_t ev2[20] = {0xff, 0,    0,	  0,	0,    0,    0, 0, 0xff, 0xff,
					0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0,	1};
	const struct ltt_payload_sink sink = {.integer = gen_int, .string = gen_str};
	char got[256] = "";

	if (!f)
		return;
	CHECK_EQ(ltt_payload_decode(f->events[0].payload, &abi, ev1, sizeof(ev1), 128, &sink, got,
				    err, sizeof(err)),
		 22);
	CHECK(!strcmp(got, "c=65 l=72623859790382856 s='ab' h=48879 "), "%s", got);
	got[0] = 0;
	CHECK_EQ(ltt_payload_decode(f->events[0].payload, &abi, ev2, sizeof(ev2), 168, &sink, got,
				    err, sizeof(err)),
		 20);
	CHECK(!strcmp(got, "c=255 l=18446744073709551615 s='' h=1 "), "%s", got);
	lxml_free(f, n);
}

/* ---- errors ---- */

static void expect_error(const char *text, const char *want)
{
	struct ltt_facility *f = (struct ltt_facility *)1;
	size_t n = 99;

	check_part = want;
	CHECK(lxml_parse(text, strlen(text), "t.xml", &f, &n, err, sizeof(err)) == -1);
	CHECK(f == NULL && n == 0);
	CHECK(!strcmp(err, want), "got \"%s\"", err);
	check_part = NULL;
}

static void test_errors(void)
{
	/* the column counts bytes from 1; "    <field name=f>" is 18 bytes */
	expect_error("<facility name=x>\n  <event name=e>\n    <field name=f><bogus/></field>",
		     "t.xml:3:19: unexpected <bogus> in <field>");
	expect_error("<facility name=x>\n/* never closed", "t.xml:2:1: unterminated comment");
	expect_error("<facility name=x>\n<type name=t><uint size=3/></type></facility>",
		     "t.xml:2:14: <uint>: size '3' is not 1, 2, 4, 8, short, medium or long");
	expect_error("<facility name=x>\n<event name=e/>\n",
		     "t.xml:3:1: end of file inside <facility>");
	expect_error(
	    "<facility name=x><type name=u><union typecodesize=1></union></type></facility>",
	    "t.xml:1:31: <union> with a selector has no fields");
	expect_error("<facility name=x><event name=e><field name=f></field></event></facility>",
		     "t.xml:1:32: field 'f' has no type");
	expect_error("<facility name=x><type name=s><sequence><uint/></sequence></type></facility>",
		     "t.xml:1:31: <sequence> needs a length type and an element type");
	expect_error("<facility name=x><type name=s><sequence><string/><uint/></sequence></type>",
		     "t.xml:1:31: <sequence>: its length type is not an integer");
	expect_error("", "t.xml:1:1: no <facility> in the file");
	expect_error("\n\nhello", "t.xml:3:1: expected <facility>");
	expect_error("<facility name=x><event name=e></field></facility>",
		     "t.xml:1:32: unexpected </field> in <event>");
	expect_error("<facility name=x>\n<type name=a><string/></type>\n<type "
		     "name=a><string/></type></facility>",
		     "t.xml:3:1: type 'a' declared twice");
	expect_error("<facility name=x><event name=e><struct/><struct/></event></facility>",
		     "t.xml:1:41: event 'e': a second payload type <struct>");
	expect_error("<facility name=x><type name=f><float/></type></facility>",
		     "t.xml:1:31: <float> without size");
	expect_error(
	    "<facility name=x><type name=e><enum><label value=1/></enum></type></facility>",
	    "t.xml:1:37: <label> without name");
	expect_error("<facility name=x><type name=e><enum><label name=a value=z/></enum></type>",
		     "t.xml:1:37: <label>: value 'z' is not an integer");
	expect_error("<facility name=\"x>", "t.xml:1:16: unterminated attribute value");
	expect_error("<facility name=x><event name=e><array><uint/></array></event></facility>",
		     "t.xml:1:32: <array> needs a size");
	expect_error("<facility>", "t.xml:1:1: <facility> without name");

	/* hostile nesting ends with an error, not a stack overflow */
	static char deep[200 * 40 + 64];
	size_t o = 0;

	o += sprintf(deep + o, "<facility name=x><type name=t>");
	for (int i = 0; i < 200; i++)
		o += sprintf(deep + o, "<struct><field name=f>");
	struct ltt_facility *f;
	size_t n;

	CHECK(lxml_parse(deep, o, "deep.xml", &f, &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "deep.xml:1:") && strstr(err, "nested deeper than 64"), "%s", err);
}

/* ---- the system call tables of the other architectures ---- */

static void test_arch_tables(void)
{
	size_t n;
	struct ltt_facility *f;
	const struct ltt_type *t;

	/* c2: <label name value> without "/", a description after the first; three ABI blocks */
	f = load("ltt-control/kernel_arch_c2.xml", &n);
	if (f) {
		t = field(event(f, "syscall_entry")->payload, "syscall_id");
		CHECK(t && t->kind == LTT_TYPEREF);
		t = ltt_type_resolve(t);
		CHECK(t && t->kind == LTT_ENUM && t->nlabels == 583);
		CHECK(!strcmp(label(t, 3999), "o32_base"));
		CHECK(!strcmp(label(t, 4309), "o32_vmsplice"));
		CHECK(!strcmp(label(t, 6272), "N32_vmsplice"));
		CHECK(!strcmp(label(t, 4279), "")); /* the hole after waitid */
		/* <pointer> </field>: the element closes at </field> */
		t = field(event(f, "syscall_entry")->payload, "address");
		CHECK(t && t->kind == LTT_UNSIGNED && t->size_ref == LTT_SIZE_POINTER);
		lxml_free(f, n);
	}

	/* x86_64: a label name with a trailing space is kept as written; madvise1 shares 5219 */
	f = load("ltt-control/kernel_arch_x86_64.xml", &n);
	if (f) {
		t = ltt_type_resolve(field(event(f, "syscall_entry")->payload, "syscall_id"));
		CHECK(!strcmp(label(t, 5277), "ia32_mq_open "));
		CHECK(!strcmp(label(t, 285), "ltt_register_generic"));
		CHECK(!strcmp(label(t, 5327), "ia32_ltt_register_generic"));
		lxml_free(f, n);
	}

	/* powerpc: one name (epoll_wait) for two values, 238 and 303 */
	f = load("ltt-control/kernel_arch_powerpc.xml", &n);
	if (f) {
		t = ltt_type_resolve(field(event(f, "syscall_entry")->payload, "syscall_id"));
		CHECK(!strcmp(label(t, 238), "epoll_wait"));
		CHECK(!strcmp(label(t, 303), "epoll_wait"));
		lxml_free(f, n);
	}

	/* poly mips (seed era, unquoted, <enum> without size): n32 block at 6000 */
	f = load("poly/kernel_arch_mips.xml", &n);
	if (f) {
		t = ltt_type_resolve(field(event(f, "syscall_entry")->payload, "syscall_id"));
		CHECK(t && t->kind == LTT_ENUM && t->nlabels == 783);
		CHECK(!strcmp(label(t, 6249), "N32_inotify_rm_watch"));
		lxml_free(f, n);
	}

	/* genevent timer: an event with only a description has an empty payload */
	f = load("genevent/timer.xml", &n);
	if (f) {
		CHECK_EQ(event(f, "softirq")->payload->nfields, 0);
		lxml_free(f, n);
	}
}

int main(void)
{
	test_every_file();
	test_genevent_fields();
	test_arch_tables();
	test_seed_era_files();
	test_seed_grammar();
	test_loose();
	test_gen_fixture();
	test_errors();
	return CHECK_RESULT();
}
