/*
 * fuzz_kmap.c - libFuzzer target for the kernel record converter
 * (src/kernel/kmap*.c): the input is "SYSTEM\0FORMAT\0RECORD", a tracefs
 * system, a format file's text and a record's bytes. Any format that
 * parses must get a class; converting any record must stay inside the
 * record and the output, write at most kmap_payload_max bytes, write the
 * same bytes again into an output of exactly that size, and refuse one
 * byte less.
 *
 * FUZZ-SOURCES: src/kernel/tp-format.c src/kernel/kmap*.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "kernel/kmap-internal.h"
#include "kernel/tp-format.h"

/* No /proc: a made-up thread 7 of process 5, two namespaces deep; others unknown. */
static void task(void *arg, int32_t tid, struct kmap_task *out)
{
	(void)arg;
	if (tid == 7) {
		out->tgid = 5;
		out->pid_ns_inum = 99;
		out->nr_vtids = 2;
		out->vtids[0] = 7;
		out->vtids[1] = 1;
	}
}

static const char kstrings[] = "0x0000000000000010 : \"Start context switch\"\n"
			       "0x0000000000000020 : \"End context switch\"\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kmap_kstrings *k;
	const uint8_t *sys_end, *fmt_end;
	struct kmap_env env = {.task = task};
	struct tp_event ev;
	struct kmap_event *m;
	char sys[32], err[128];
	uint8_t *rec, *out;
	size_t rec_len, max, n, n2;

	if (!k)
		k = kmap_kstrings_parse(kstrings, sizeof(kstrings) - 1);
	env.kstrings = k;
	sys_end = memchr(data, 0, size);
	if (!sys_end || sys_end - data >= (long)sizeof(sys))
		return 0;
	memcpy(sys, data, (size_t)(sys_end - data) + 1);
	fmt_end = memchr(sys_end + 1, 0, size - (size_t)(sys_end + 1 - data));
	if (!fmt_end)
		return 0;
	if (tp_format_parse(&ev, sys, (const char *)sys_end + 1, (size_t)(fmt_end - sys_end - 1),
			    err, sizeof(err)))
		return 0;
	m = kmap_event_new_env(&ev, &env, err, sizeof(err));
	CHECK(m != NULL, "%s", err);
	/* copies of the exact sizes: reading or writing past them is a report */
	rec_len = size - (size_t)(fmt_end + 1 - data);
	rec = malloc(rec_len ? rec_len : 1);
	memcpy(rec, fmt_end + 1, rec_len);
	max = kmap_payload_max(m, rec_len);
	out = malloc(max ? max : 1);
	n = kmap_convert(m, rec, rec_len, out, max);
	CHECK(n <= max);
	if (n) {
		uint8_t *exact = malloc(n), *less = malloc(n);

		n2 = kmap_convert(m, rec, rec_len, exact, n);
		CHECK(n2 == n && !memcmp(exact, out, n));
		CHECK(kmap_convert(m, rec, rec_len, less, n - 1) == 0);
		free(exact);
		free(less);
	}
	CHECK(kmap_convert(m, rec, rec_len < m->min_len ? rec_len : 0, out, max) == 0 ||
	      m->min_len == 0);
	free(out);
	free(rec);
	kmap_event_free(m);
	tp_event_free(&ev);
	return 0;
}
