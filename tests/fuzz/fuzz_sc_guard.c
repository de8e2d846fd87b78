/*
 * fuzz_sc_guard.c - libFuzzer target for the system call probes' guards
 * (src/kernel/syscall-guard.c): any text as an LTTng filter on a call's
 * entry and exit (integers of each width and sign, a string), native and
 * 32-bit. What compiles gets its guards alone and OR'ed with a second rule
 * (the text's second half); each set must be well formed (sources the
 * probes know, 1 or 2 sorted disjoint intervals, at most SC_MAX_GUARDS
 * guards), and accept every record the filter accepts among a few made
 * from the input's bytes.
 *
 * FUZZ-SOURCES: src/kernel/syscall-[cgoprt]*.c src/kernel/tp-format.c src/kernel/kfilter.c
 * src/kernel/kthreads.c src/kernel/proc-text.c src/filter/[a-z]*.c src/common/strbuf.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "filter/filter.h"
#include "kernel/kfilter.h"
#include "kernel/kfpush.h"
#include "kernel/syscall-table.h"

/* (the table's numbers are not needed: no table is loaded) */
int sc_nr_of(const char *name)
{
	(void)name;
	return -1;
}

static struct sc_call call;

static void setup(void)
{
	static const char *const types[] = {"int",  "unsigned int", "size_t",
					    "long", "umode_t",	    "const char *"};
	static const char *const names[] = {"a", "b", "c", "d", "e", "filename"};
	unsigned int fallback = 0;

	call.name = strdup("fuzzcall");
	call.nr = 400;
	call.nargs = 6;
	for (unsigned int a = 0; a < 6; a++) {
		call.arg_type[a] = strdup(types[a]);
		call.arg_name[a] = strdup(names[a]);
	}
	if (sc_call_build(&call, &fallback))
		abort();
}

static void check_set(int kind, const struct sc_guard_set *set)
{
	CHECK(kind == SC_GUARDS_ALL || kind == SC_GUARDS_SOME || kind == SC_GUARDS_NONE);
	if (kind != SC_GUARDS_SOME)
		return;
	CHECK(set->n >= 1 && set->n <= SC_MAX_GUARDS);
	for (unsigned int i = 0; i < set->n; i++) {
		const struct sc_guard *g = &set->g[i];

		if (g->src == SC_GUARD_COMM) { /* a name: its bytes within the mask */
			CHECK(g->size == 16);
			CHECK(((uint64_t)g->lo[0] & ~(uint64_t)g->hi[0]) == 0 &&
			      ((uint64_t)g->lo[1] & ~(uint64_t)g->hi[1]) == 0);
			continue;
		}
		CHECK(g->src < SC_MAX_ARGS || g->src == SC_GUARD_RET || g->src == SC_GUARD_TID ||
		      g->src == SC_GUARD_TGID);
		CHECK(g->size == 1 || g->size == 2 || g->size == 4 || g->size == 8);
		CHECK(g->nranges >= 1 && g->nranges <= SC_GUARD_RANGES);
		for (unsigned int k = 0; k < g->nranges; k++) {
			CHECK(g->lo[k] <= g->hi[k]);
			if (k)
				CHECK(g->lo[k] > g->hi[k - 1]);
		}
	}
}

static int pass(int kind, const struct sc_guard_set *set, const struct sc_rec *r)
{
	if (kind != SC_GUARDS_SOME)
		return kind == SC_GUARDS_ALL;
	for (unsigned int i = 0; i < set->n; i++) {
		const struct sc_guard *g = &set->g[i];
		uint64_t w[2];

		if (g->src == SC_GUARD_COMM) {
			memcpy(w, r->comm, 16);
			if ((w[0] & (uint64_t)g->hi[0]) != (uint64_t)g->lo[0] ||
			    (w[1] & (uint64_t)g->hi[1]) != (uint64_t)g->lo[1])
				return 0;
			continue;
		}
		uint64_t v = g->src == SC_GUARD_RET    ? (uint64_t)r->ret
			     : g->src == SC_GUARD_TID  ? r->tid
			     : g->src == SC_GUARD_TGID ? r->tgid
						       : r->args[g->src % SC_MAX_ARGS];

		if (!sc_guard_holds(g, sc_guard_cast(g, v)))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	char *text;
	uint8_t *code[2] = {NULL, NULL};
	size_t len[2], half = size / 2;
	struct filter_error fe;

	if (!ready) {
		setup();
		ready = 1;
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (filter_compile(text, &code[0], &len[0], &fe)) {
		free(text);
		return 0;
	}
	text[half] = 0;
	if (filter_compile(text + (size > half ? half + 1 : half), &code[1], &len[1], &fe))
		code[1] = NULL;
	for (int compat = 0; compat < 2; compat++)
		for (int dir = 0; dir < 2; dir++) {
			struct sc_event *ev = &call.ev[dir];
			struct kfilter *kf[2] = {NULL, NULL};
			struct kfpush_rule r[2];
			struct sc_guard_set set;
			unsigned int n = code[1] ? 2 : 1;
			int kind;

			ev->compat = compat;
			for (unsigned int k = 0; k < n; k++) {
				kf[k] = kfilter_new(code[k], len[k], &ev->kc.cls);
				r[k] = (struct kfpush_rule){code[k], len[k], kf[k] != NULL};
			}
			kind = sc_guard_derive(ev, r, n, &set);
			check_set(kind, &set);
			/* records from the input's bytes: no payload the filter accepts is refused
			 */
			for (size_t off = 0; off + 64 <= size && off < 1024; off += 64) {
				uint8_t rec[sizeof(struct sc_rec) + 2 + 4], pay[SC_PAYLOAD_MAX];
				struct sc_rec *sr = (struct sc_rec *)rec;
				uint16_t sl = 4;
				long pl;
				int lttng = 0;

				memset(rec, 0, sizeof(rec));
				memcpy(sr->args, data + off, 48);
				memcpy(&sr->ret, data + off + 48, 8);
				memcpy(&sr->tid, data + off + 56, 4);
				sr->tid = 1 + sr->tid % 4194304; /* a thread that makes calls */
				sr->tgid = 1 + (sr->tid * 7) % 4194304;
				if (compat)
					for (int a = 0; a < SC_MAX_ARGS; a++)
						sr->args[a] = (uint32_t)sr->args[a];
				sr->flags = (compat ? SC_REC_COMPAT : 0) | SC_REC_COMM;
				/* a task's name: up to 15 of the input's bytes, NUL-padded */
				memcpy(sr->comm, data + off + 60, 4);
				sr->comm[data[off + 63] % 5] = 0;
				memcpy(rec + sizeof(*sr), &sl, 2);
				memcpy(rec + sizeof(*sr) + 2, "abc", 4);
				sr->size = sizeof(rec);
				pl = sc_payload(ev, sr, sizeof(rec), pay, sizeof(pay));
				CHECK(pl >= 0);
				for (unsigned int k = 0; k < n; k++) {
					struct kfilter_env env = {.tid = (int32_t)sr->tid,
								  .pid = (int32_t)sr->tgid,
								  .comm = sr->comm};

					lttng |= kf[k] && kfilter_run(kf[k], pay, (size_t)pl, &env);
				}
				CHECK(!lttng || pass(kind, &set, sr));
			}
			for (unsigned int k = 0; k < n; k++)
				kfilter_free(kf[k]);
		}
	free(code[0]);
	free(code[1]);
	free(text);
	return 0;
}
