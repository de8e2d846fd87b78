/*
 * fuzz_kfpush.c - libFuzzer target for the kernel filter translator
 * (src/kernel/kfpush*.c, src/filter/tree.c): any text as an LTTng filter
 * on sched_switch and kmalloc. What compiles is translated alone and as
 * one of two rules; a translation must fit the buffer, be non-empty, and
 * have its parentheses and quotes balanced as the kernel reads them.
 *
 * FUZZ-SOURCES: src/kernel/tp-format.c src/kernel/kmap*.c src/kernel/kfilter.c
 * src/kernel/kthreads.c src/kernel/proc-text.c src/kernel/kfpush.c src/kernel/kfpush-field.c
 * src/kernel/kfpush-int.c src/kernel/kfpush-str.c src/filter/[a-z]*.c src/common/strbuf.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "filter/filter.h"
#include "kernel/kfilter.h"
#include "kernel/kfpush.h"
#include "kernel/kmap.h"
#include "kernel/tp-format.h"

#define COMMON                                                                                     \
	"name: %s\nID: 1\nformat:\n"                                                               \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define F(decl, off, size, sgn)                                                                    \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sgn ";\n"

static const char *const formats[][3] = {
    {"sched", "sched_switch",
     COMMON F("char prev_comm[16]", 8, 16, 0) F("pid_t prev_pid", 24, 4, 1)
	 F("int prev_prio", 28, 4, 1) F("long prev_state", 32, 8, 1)
	     F("char next_comm[16]", 40, 16, 0) F("pid_t next_pid", 56, 4, 1)
		 F("int next_prio", 60, 4, 1)},
    {"kmem", "kmalloc",
     COMMON F("unsigned long call_site", 8, 8, 0) F("const void * ptr", 16, 8, 0)
	 F("size_t bytes_req", 24, 8, 0) F("size_t bytes_alloc", 32, 8, 0)
	     F("unsigned long gfp_flags", 40, 8, 0) F("int node", 48, 4, 1)},
    {"test", "gen",
     COMMON F("char tag[4]", 8, 4, 0) F("signed char tiny", 12, 1, 1)
	 F("__data_loc char[] label", 16, 4, 0)},
};
#define NR_EVENTS (sizeof(formats) / sizeof(formats[0]))

static struct tp_event evs[NR_EVENTS];
static struct kmap_event *maps[NR_EVENTS];

static void setup(void)
{
	char text[2048], err[200];

	for (unsigned int i = 0; i < NR_EVENTS; i++) {
		int n = snprintf(text, sizeof(text), formats[i][2], formats[i][1]);

		if (tp_format_parse(&evs[i], formats[i][0], text, (size_t)n, err, sizeof(err)))
			abort();
		maps[i] = kmap_event_new(&evs[i], err, sizeof(err));
		if (!maps[i])
			abort();
	}
}

/* Parentheses balanced outside the quotes, every quote closed. */
static void check_text(const char *t)
{
	int depth = 0;
	char q = 0;

	CHECK(*t);
	for (; *t; t++) {
		if (q) {
			if (*t == q)
				q = 0;
			continue;
		}
		if (*t == '"' || *t == '\'')
			q = *t;
		else if (*t == '(')
			depth++;
		else if (*t == ')')
			CHECK(--depth >= 0);
	}
	CHECK(!q && !depth);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	char *expr = malloc(size + 1), out[KFPUSH_MAX_TEXT];
	struct filter_error err;
	uint8_t *code = NULL;
	size_t len = 0;

	if (!ready) {
		setup();
		ready = 1;
	}
	memcpy(expr, data, size);
	expr[size] = 0;
	if (filter_compile(expr, &code, &len, &err)) {
		free(expr);
		return 0;
	}
	for (unsigned int i = 0; i < NR_EVENTS; i++) {
		struct kfilter *f = kfilter_new(code, len, &kmap_event_class(maps[i])->cls);
		struct kfpush_rule r[2] = {{code, len, f != NULL}, {code, len, true}};
		bool exact;
		int got;

		kfilter_free(f);
		got = kfpush_translate(maps[i], r, 1, out, sizeof(out), &exact);
		CHECK(got == 0 || got == 1);
		if (got == 1) {
			CHECK(strlen(out) < sizeof(out));
			check_text(out);
		}
		got = kfpush_translate(maps[i], r, 2, out, sizeof(out), NULL);
		if (got == 1)
			check_text(out);
		/* a small buffer: nothing, never a cut text */
		got = kfpush_translate(maps[i], r, 1, out, 8, NULL);
		CHECK(got == 0 || strlen(out) < 8);
	}
	free(code);
	free(expr);
	return 0;
}
