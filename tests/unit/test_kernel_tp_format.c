/*
 * test_kernel_tp_format.c - the tracefs format parser (src/kernel/tp-format.c)
 * on format texts written here (sched_switch, a __data_loc string, a
 * __rel_loc one, an array of u64, a flexible array) and damaged ones,
 * refused with the line named; then on every events/SYSTEM/NAME/format of
 * the running kernel (tracefs mounted if it is not), each of which must
 * parse into fields that lie inside the record.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "check.h"
#include "kernel/tp-format.h"

#define COMMON                                                                                     \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                                 \
	"\n"

static const char sched_switch[] =
    "name: sched_switch\n"
    "ID: 372\n"
    "format:\n" COMMON "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm,\n"
    "   REC->prev_pid, garbage: that is not read\n";

static int parse(struct tp_event *ev, const char *text, char *err, size_t errlen)
{
	return tp_format_parse(ev, "test", text, strlen(text), err, errlen);
}

static void test_sched_switch(void)
{
	struct tp_event ev;
	char err[200];
	const struct tp_field *f;

	check_part = "sched_switch";
	CHECK_EQ(parse(&ev, sched_switch, err, sizeof(err)), 0);
	CHECK(!strcmp(ev.name, "sched_switch"));
	CHECK(!strcmp(ev.system, "test"));
	CHECK_EQ(ev.id, 372);
	CHECK_EQ(ev.nr_fields, 11);
	CHECK_EQ(ev.nr_common, 4);
	CHECK_EQ(ev.common_pid, 3);
	CHECK_EQ(ev.size, 64);

	f = tp_event_field(&ev, "prev_comm");
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(f->kind, TP_FIELD_ARRAY);
		CHECK(!strcmp(f->type, "char"));
		CHECK_EQ(f->offset, 8);
		CHECK_EQ(f->size, 16);
		CHECK_EQ(f->array_len, 16);
		CHECK_EQ(f->elem_size, 1);
		CHECK(f->is_char);
		CHECK(!f->is_pointer);
	}
	f = tp_event_field(&ev, "prev_state");
	CHECK(f && f->kind == TP_FIELD_SCALAR && f->offset == 32 && f->size == 8 && f->is_signed);
	f = tp_event_field(&ev, "next_pid");
	CHECK(f && !strcmp(f->type, "pid_t") && f->offset == 56 && f->size == 4 && f->is_signed);
	f = tp_event_field(&ev, "common_type");
	CHECK(f && !strcmp(f->type, "unsigned short") && !f->is_signed && f->size == 2);
	CHECK(tp_event_field(&ev, "REC") == NULL);
	tp_event_free(&ev);
	CHECK(ev.fields == NULL && ev.name == NULL);
	tp_event_free(&ev); /* twice is harmless */
}

static void test_dynamic(void)
{
	static const char text[] =
	    "name: irq_handler_entry\n"
	    "ID: 118\n"
	    "format:\n" COMMON "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	    "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	    "\tfield:__rel_loc char[] rel;\toffset:16;\tsize:4;\tsigned:0;\n"
	    "\tfield:__data_loc u64[] addrs;\toffset:20;\tsize:4;\tsigned:0;\n"
	    "\tfield:__data_loc cpumask_t mask;\toffset:24;\tsize:4;\tsigned:0;\n"
	    "\tfield:const char * filename;\toffset:32;\tsize:8;\tsigned:0;\n"
	    "\tfield:u64 stack[4];\toffset:40;\tsize:32;\tsigned:0;\n"
	    "\tfield:unsigned long args[];\toffset:72;\tsize:0;\tsigned:0;\n"
	    "\n"
	    "print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n";
	struct tp_event ev;
	char err[200];
	const struct tp_field *f;
	uint8_t rec[96];
	const uint8_t *data;
	uint32_t len, loc;

	check_part = "dynamic";
	CHECK(parse(&ev, text, err, sizeof(err)) == 0, "%s", err);
	CHECK_EQ(ev.nr_fields, 12);
	CHECK_EQ(ev.size, 72);

	f = tp_event_field(&ev, "name");
	CHECK(f && f->kind == TP_FIELD_DATA_LOC && !strcmp(f->type, "char") && f->is_char &&
	      f->elem_size == 1 && f->size == 4);
	/* "eth0\0" at 76: (5 << 16) | 76 */
	memset(rec, 0, sizeof(rec));
	loc = 5u << 16 | 76;
	memcpy(rec + 12, &loc, 4);
	memcpy(rec + 76, "eth0", 5);
	CHECK(f && tp_field_dyn(f, rec, sizeof(rec), &data, &len) == 0 && len == 5 &&
	      data == rec + 76 && !strcmp((const char *)data, "eth0"));
	/* one byte past the record: refused */
	CHECK(f && tp_field_dyn(f, rec, 80, &data, &len) == -1);
	CHECK(f && tp_field_dyn(f, rec, 81, &data, &len) == 0);
	/* the locator itself past the record */
	CHECK(f && tp_field_dyn(f, rec, 15, &data, &len) == -1);

	f = tp_event_field(&ev, "rel");
	CHECK(f && f->kind == TP_FIELD_REL_LOC && f->is_char);
	/* relative to the field's end (20): 56 + 20 = 76 */
	loc = 5u << 16 | 56;
	memcpy(rec + 16, &loc, 4);
	CHECK(f && tp_field_dyn(f, rec, sizeof(rec), &data, &len) == 0 && data == rec + 76 &&
	      len == 5);

	f = tp_event_field(&ev, "addrs");
	CHECK(f && f->kind == TP_FIELD_DATA_LOC && !strcmp(f->type, "u64") && f->elem_size == 8 &&
	      !f->is_char);
	f = tp_event_field(&ev, "mask");
	CHECK(f && f->kind == TP_FIELD_DATA_LOC && !strcmp(f->type, "cpumask_t") &&
	      f->elem_size == 1);
	f = tp_event_field(&ev, "filename");
	CHECK(f && f->kind == TP_FIELD_SCALAR && f->is_pointer && !f->is_char &&
	      !strcmp(f->type, "const char *"));
	f = tp_event_field(&ev, "stack");
	CHECK(f && f->kind == TP_FIELD_ARRAY && f->array_len == 4 && f->elem_size == 8 &&
	      !f->is_char);
	f = tp_event_field(&ev, "args");
	CHECK(f && f->kind == TP_FIELD_ARRAY && f->array_len == 0 && f->size == 0 &&
	      f->elem_size == sizeof(long));
	/* a scalar is not dynamic */
	CHECK(tp_field_dyn(tp_event_field(&ev, "irq"), rec, sizeof(rec), &data, &len) == -1);
	tp_event_free(&ev);
}

/* A damaged text: refused, and the error names the line. */
static void refused(const char *text, const char *want)
{
	struct tp_event ev;
	char err[200];

	CHECK_EQ(parse(&ev, text, err, sizeof(err)), -1);
	CHECK(strstr(err, want) != NULL, "error \"%s\", wanted \"%s\"", err, want);
	CHECK(ev.fields == NULL && ev.name == NULL);
}

static void test_damaged(void)
{
	struct tp_event ev;
	char err[8];

	check_part = "damaged";
	refused("name: x\nID: 1\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\n"
		"\tfield:int b;\toffset:x;\tsize:4;\tsigned:1;\n",
		"line 5: bad offset");
	refused("name: x\nID: 1\nformat:\n\tfield:int a\toffset:8;\tsize:4;\n", "line 4: ");
	refused("name: x\nID: 1\nformat:\n\tfield:int a;\tsize:4;\tsigned:1;\n",
		"line 4: field without offset or size");
	refused("name: x\nID: 1\nformat:\n\tfield:int 9;\toffset:8;\tsize:4;\tsigned:1;\n",
		"line 4: field without a name");
	refused("name: x\nID: 1\nformat:\n\tfield:int ;\toffset:8;\tsize:4;\tsigned:1;\n",
		"line 4: field int without a type");
	refused("name: x\nID: 1\nformat:\n\tfield:a;\toffset:8;\tsize:4;\tsigned:1;\n",
		"line 4: field a without a type");
	refused("name: x\nID: 1\nformat:\n\tfield:char c[3];\toffset:8;\tsize:4;\tsigned:1;\n",
		"line 4: array c of 4 bytes cannot hold 3 elements");
	refused("name: x\nID: 1\nformat:\n\tfield:char c[0];\toffset:8;\tsize:4;\tsigned:1;\n",
		"line 4: array c");
	refused("name: x\nID: 1\nformat:\n\tfield:__data_loc char[] s;\toffset:8;\tsize:8;\n",
		"line 4: dynamic field s of size 8, not 4");
	refused("name: x\nID: 1\nformat:\n\tfield:int a;\toffset:16777215;\tsize:4;\tsigned:1;\n",
		"line 4: field past");
	refused("name: x\nID: 1\nformat:\n\tfield:int a;\toffset:99999999999999999999;\tsize:4;\n",
		"line 4: bad offset");
	refused("name: x\nID: 1\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\tsigned:2;\n",
		"line 4: bad signed");
	refused("name: x\nID: 1\nformat:\n\toops\n", "line 4: not a field");
	refused("name: x\nID: 99999999999\nformat:\n", "line 2: bad ID");
	refused("name: x\nbogus\nformat:\n", "line 2: unexpected line");
	refused("name:\nID: 1\nformat:\n", "line 1: empty name");
	refused("ID: 1\nformat:\n", "line 3: no name");
	refused("name: x\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n",
		"line 4: no ID");
	refused("name: x\nID: 1\n", "line 3: no format");
	refused("", "no name");
	refused("name: x\nID: 1\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:char b[4;\toffset:12;\tsize:4;\tsigned:1;\n",
		"line 5: ");
	{
		static const char nul[] = "name: x\nID: 1\nfor\0mat:\n";

		CHECK_EQ(tp_format_parse(&ev, "s", nul, sizeof(nul) - 1, err, sizeof(err)), -1);
		/* the message is cut to the buffer, NUL-terminated */
		CHECK_EQ(strlen(err), sizeof(err) - 1);
		CHECK(!strncmp(err, "line 3:", 7), "%s", err);
	}
	/* not NUL-terminated: only len bytes are read */
	CHECK_EQ(tp_format_parse(&ev, "s", sched_switch, 30, err, sizeof(err)), -1);
	CHECK_EQ(tp_format_parse(&ev, "s", NULL, 0, NULL, 0), -1);
	/* a minimal one: no fields at all, no print fmt */
	CHECK_EQ(parse(&ev, "name: e\nID: 7\nformat:\n", err, sizeof(err)), 0);
	CHECK(ev.nr_fields == 0 && ev.size == 0 && ev.common_pid == -1 && ev.id == 7);
	tp_event_free(&ev);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap);

	if (!f) {
		free(buf);
		return NULL;
	}
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* A field lies inside the record, and what its kind says holds. */
static int field_sane(const struct tp_event *ev, const struct tp_field *f)
{
	if (f->offset + f->size > ev->size)
		return 0;
	switch (f->kind) {
	case TP_FIELD_SCALAR:
		return f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8;
	case TP_FIELD_ARRAY:
		return f->array_len ? f->array_len * f->elem_size == f->size : f->size == 0;
	case TP_FIELD_DATA_LOC:
	case TP_FIELD_REL_LOC:
		return f->size == 4 && f->elem_size > 0;
	case TP_FIELD_OTHER:
		return 1;
	}
	return 0;
}

static void test_machine(void)
{
	const char *root = "/sys/kernel/tracing";
	char path[1024], err[256];
	struct stat st;
	DIR *d;
	struct dirent *sys;
	unsigned int n = 0, bad = 0, with_data_loc = 0, with_switch = 0;

	check_part = "this machine";
	snprintf(path, sizeof(path), "%s/events", root);
	if (stat(path, &st) && mount("nodev", root, "tracefs", 0, NULL)) {
		CHECK(0, "tracefs is not mounted at %s and cannot be (root needed)", root);
		return;
	}
	d = opendir(path);
	CHECK(d != NULL, "%s", path);
	if (!d)
		return;
	while ((sys = readdir(d))) {
		char dir[1024 + 256];
		DIR *sd;
		struct dirent *e;

		if (sys->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", path, sys->d_name);
		sd = opendir(dir);
		if (!sd)
			continue; /* a file: enable, header_page... */
		while ((e = readdir(sd))) {
			char fpath[2048];
			struct tp_event ev;
			size_t len;
			char *text;

			if (e->d_name[0] == '.')
				continue;
			snprintf(fpath, sizeof(fpath), "%s/%s/format", dir, e->d_name);
			text = read_all(fpath, &len);
			if (!text)
				continue; /* enable, filter */
			n++;
			if (tp_format_parse(&ev, sys->d_name, text, len, err, sizeof(err))) {
				CHECK(0, "%s: %s", fpath, err);
				bad++;
			} else {
				CHECK(!strcmp(ev.name, e->d_name), "%s: name %s", fpath, ev.name);
				CHECK(ev.nr_common >= 4 && ev.common_pid >= 0, "%s", fpath);
				for (unsigned int i = 0; i < ev.nr_fields; i++) {
					CHECK(field_sane(&ev, &ev.fields[i]), "%s: field %s", fpath,
					      ev.fields[i].name);
					if (ev.fields[i].kind == TP_FIELD_DATA_LOC)
						with_data_loc++;
				}
				if (!strcmp(ev.name, "sched_switch")) {
					const struct tp_field *f = tp_event_field(&ev, "next_comm");

					with_switch++;
					CHECK(f && f->kind == TP_FIELD_ARRAY && f->is_char &&
					      f->array_len == 16);
				}
				tp_event_free(&ev);
			}
			free(text);
		}
		closedir(sd);
	}
	closedir(d);
	printf("%u format files parsed, %u refused, %u __data_loc fields\n", n, bad, with_data_loc);
	CHECK(n > 2000, "only %u format files", n);
	CHECK(with_data_loc > 100);
	CHECK_EQ(with_switch, 1);
}

int main(void)
{
	test_sched_switch();
	test_dynamic();
	test_damaged();
	test_machine();
	return CHECK_RESULT();
}
