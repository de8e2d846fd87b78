/*
 * view.c - `trax view [OPTIONS] PATH...`: every event of the CTF traces
 * found under the paths, merged in time order, printed as Babeltrace 2's
 * sink.text.pretty does by default (docs/text-format.md).
 *
 * The traces are found, grouped into streams and merged by the reader
 * library's stream set (src/ctf/stream-set.h, shared with the public API
 * so both give the same events in the same order); this file only parses
 * options and formats the events and discarded-items warnings it yields.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/view.h"
#include "cli/client.h"
#include "cli/view-pipeline.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctf/json-format.h"
#include "ctf/stream-set.h"
#include "ctf/text-format.h"

#define OUT_BUFFER_SIZE (1u << 20)

static void usage_to(FILE *f)
{
	fputs("Usage: trax view [OPTIONS] [PATH...]\n"
	      "Print the events of the CTF traces found under each PATH, in time order,\n"
	      "as babeltrace2 does by default. Without PATH, the trace of the current\n"
	      "session (its output directory).\n"
	      "\n"
	      "Options:\n"
	      "  --clock-cycles        print time stamps in clock cycles\n"
	      "  --clock-date          print the date with the time stamps\n"
	      "  --clock-gmt           print time stamps in UTC instead of local time\n"
	      "  --clock-seconds       print time stamps as seconds since the Epoch\n"
	      "  --no-delta            do not print the time since the previous event\n"
	      "  --names=LIST          field names to print: payload, context, scope, header,\n"
	      "                        all, none (default: payload,context)\n"
	      "  --fields=LIST         header items to print: trace, trace:hostname,\n"
	      "                        trace:domain, trace:procname, trace:vpid, loglevel,\n"
	      "                        emf, callsite, all\n"
	      "                        (default: trace:hostname,trace:procname,trace:vpid)\n"
	      "  --format=FORMAT       output format: text (default, as babeltrace2) or json\n"
	      "                        (one JSON object per event and line: timestamp in ns\n"
	      "                        from the origin or null, name, stream_id, fields,\n"
	      "                        context, packet_context)\n"
	      "  --count               decode every event, print only \"N events\"\n"
	      "  -h, --help            print this help\n",
	      f);
}

void trax_view_usage(void *stream)
{
	usage_to(stream);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("trax view: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'trax view --help'.\n", stderr);
	return 2;
}

static int fatal(const char *msg)
{
	fflush(stdout);
	fprintf(stderr, "trax view: %s\n", msg);
	return 1;
}

enum view_mode { MODE_TEXT, MODE_JSON, MODE_COUNT };

/* What printing needs, for print_item(). */
struct view_printer {
	enum view_mode mode;
	uint64_t count;
	struct ctf_text_buf out;
	struct ctf_text_printer pr;
	struct ctf_text_trace *info; /* per trace: what the printer shows of it */
};

static void print_item(void *ctx, const struct view_item *it)
{
	struct view_printer *vp = ctx;

	if (it->kind == CTF_SS_EVENT) {
		if (it->rest)
			ctf_text_print_event_split(&vp->pr, it->event, it->event_ns, it->rest,
						   it->rest_len);
		else if (vp->mode == MODE_TEXT && it->plan_hint)
			ctf_text_print_event_hinted(&vp->pr, &vp->info[it->file->t->index],
						    it->packet, it->event, it->event_ns,
						    it->plan_hint);
		else if (vp->mode == MODE_TEXT)
			ctf_text_print_event(&vp->pr, &vp->info[it->file->t->index], it->packet,
					     it->event, it->event_ns);
		else if (vp->mode == MODE_JSON)
			ctf_json_print_event(&vp->out, it->packet, it->event, it->event->has_clock,
					     it->event_ns, it->stream_id);
		else
			vp->count++;
	} else if (vp->mode != MODE_COUNT) {
		const struct ctf_ss_discard *w = it->discard;

		/* warnings go to stderr: what precedes them must be out first */
		ctf_text_buf_flush(&vp->out);
		ctf_text_print_discarded(
		    &vp->pr,
		    w->kind == CTF_SS_DISCARDED_EVENTS ? CTF_TEXT_DISCARDED_EVENTS
						       : CTF_TEXT_DISCARDED_PACKETS,
		    w->has_count, w->count, w->has_range, w->begin, w->end, it->t->name,
		    it->t->trace->has_uuid ? it->t->trace->uuid : NULL, it->file->abs_path,
		    it->sc_id, it->stream_id);
	}
}

/* The reading thread's share of the text lines (view_pipeline_run()'s rest). */
struct view_rest {
	struct ctf_text_printer pr; /* its plans and options, not its time state */
	const struct ctf_text_trace *info;
	/* the line plan of each fixed program's events (open addressing) */
	struct rest_hint {
		const struct ctf_decode_prog *prog;
		const struct ctf_text_plan *plan;
	} * hints;
	size_t nhints, cap;
	/* the last one asked for (events of one class come in runs), in hints */
	const struct ctf_decode_prog *last_prog;
	const struct ctf_text_plan **last_hint;
};

/* Where the plan of prog's events is kept; NULL (no hint) when memory runs out. */
static const struct ctf_text_plan **hint_of(struct view_rest *vr,
					    const struct ctf_decode_prog *prog)
{
	size_t i;

	if (prog == vr->last_prog)
		return vr->last_hint;
	if (2 * (vr->nhints + 1) > vr->cap) {
		size_t cap = vr->cap ? 2 * vr->cap : 64;
		struct rest_hint *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t k = 0; k < vr->cap; k++)
			if (vr->hints[k].prog) {
				for (i = ((uintptr_t)vr->hints[k].prog >> 4) & (cap - 1); n[i].prog;
				     i = (i + 1) & (cap - 1))
					;
				n[i] = vr->hints[k];
			}
		free(vr->hints);
		vr->hints = n;
		vr->cap = cap;
	}
	for (i = ((uintptr_t)prog >> 4) & (vr->cap - 1); vr->hints[i].prog;
	     i = (i + 1) & (vr->cap - 1))
		if (vr->hints[i].prog == prog)
			break;
	if (!vr->hints[i].prog) {
		vr->hints[i].prog = prog;
		vr->nhints++;
	}
	vr->last_prog = prog; /* (hints may have moved: last_hint is set anew) */
	return vr->last_hint = &vr->hints[i].plan;
}

static int rest_of_line(void *ctx, const struct view_item *it, struct ctf_text_buf *out)
{
	struct view_rest *vr = ctx;
	const struct ctf_decode_prog *prog = it->file->sr->body_prog;

	vr->pr.out = out;
	ctf_text_print_event_rest(&vr->pr, &vr->info[it->file->t->index], it->packet, it->event,
				  prog ? hint_of(vr, prog) : NULL);
	return 0;
}

/* ctf_ss_each()'s visitor for --count: the loop it measures, nothing else. */
static int count_item(void *ctx, struct ctf_ss_stream *s)
{
	struct view_printer *vp = ctx;

	vp->count += s->kind == CTF_SS_EVENT;
	return 0;
}

/* ctf_ss_each()'s visitor for the output on one thread. */
static int visit_item(void *ctx, struct ctf_ss_stream *s)
{
	struct view_item item;

	view_item_of(&item, s);
	print_item(ctx, &item);
	return 0;
}

/* Whether the text output runs on two threads (TRAX_VIEW_THREADS=1: one). */
static bool use_pipeline(enum view_mode mode)
{
	const char *e = getenv("TRAX_VIEW_THREADS");

	return mode == MODE_TEXT && !(e && strcmp(e, "1") == 0);
}

static int run(struct ctf_stream_set *ss, const struct ctf_text_options *opt, enum view_mode mode)
{
	struct view_printer vp = {.mode = mode};
	int st;

	vp.info = calloc(ss->ntraces ? ss->ntraces : 1, sizeof(*vp.info));
	if (!vp.info)
		return fatal("out of memory");
	for (size_t i = 0; i < ss->ntraces; i++)
		ctf_text_trace_init(&vp.info[i], ss->traces[i].trace, ss->traces[i].name);
	if (ctf_text_buf_init(&vp.out, STDOUT_FILENO, OUT_BUFFER_SIZE)) {
		free(vp.info);
		return fatal("out of memory");
	}
	ctf_text_printer_init(&vp.pr, opt, &vp.out);
	if (use_pipeline(mode)) {
		struct view_rest vr = {.info = vp.info};

		ctf_text_printer_init(&vr.pr, opt, NULL);
		st = view_pipeline_run(ss, print_item, &vp, rest_of_line, &vr);
		ctf_text_printer_fini(&vr.pr);
		free(vr.hints);
	} else {
		st = ctf_ss_each(ss, mode == MODE_COUNT ? count_item : visit_item, &vp);
	}
	if (mode == MODE_COUNT && !st) {
		char line[32];
		int n = snprintf(line, sizeof(line), "%llu events\n", (unsigned long long)vp.count);

		ctf_text_put(&vp.out, line, (size_t)n);
	}
	ctf_text_buf_flush(&vp.out);
	if (st < 0) {
		fatal(ss->error);
		st = 1;
	} else if (vp.out.error && vp.out.error != EPIPE) {
		fprintf(stderr, "trax view: standard output: %s\n", strerror(vp.out.error));
		st = 1;
	}
	ctf_text_printer_fini(&vp.pr);
	ctf_text_buf_free(&vp.out);
	free(vp.info);
	return st;
}

int trax_view_main(int argc, char **argv)
{
	struct ctf_text_options opt;
	char **paths;
	size_t npaths = 0;
	bool only_paths = false;
	struct ctf_stream_set ss = {0};
	enum view_mode mode = MODE_TEXT;
	bool count = false;
	char *current = NULL;
	int status;

	ctf_text_options_default(&opt);
	paths = calloc((size_t)argc, sizeof(*paths));
	if (!paths)
		return fatal("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		bool is_names = false;

		if (only_paths || a[0] != '-' || !a[1]) {
			paths[npaths++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			only_paths = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_to(stdout);
			free(paths);
			return 0;
		} else if (!strcmp(a, "--clock-cycles")) {
			opt.clock_cycles = true;
		} else if (!strcmp(a, "--clock-date")) {
			opt.clock_date = true;
		} else if (!strcmp(a, "--clock-gmt")) {
			opt.clock_gmt = true;
		} else if (!strcmp(a, "--clock-seconds")) {
			opt.clock_seconds = true;
		} else if (!strcmp(a, "--no-delta")) {
			opt.no_delta = true;
		} else if (!strcmp(a, "--count")) {
			count = true;
		} else if (!strncmp(a, "--format", 8) && (a[8] == '=' || a[8] == 0)) {
			if (a[8] == '=') {
				val = a + 9;
			} else if (i + 1 < argc) {
				val = argv[++i];
			} else {
				free(paths);
				return usage_error("option '%s' needs a value", a);
			}
			if (!strcmp(val, "json")) {
				mode = MODE_JSON;
			} else if (!strcmp(val, "text")) {
				mode = MODE_TEXT;
			} else {
				free(paths);
				return usage_error("unknown format '%s' (text or json)", val);
			}
		} else if (!strncmp(a, "--names", 7) || !strncmp(a, "--fields", 8) ||
			   !strcmp(a, "-n") || !strcmp(a, "-f")) {
			size_t l = !strncmp(a, "--names", 7)	? 7
				   : !strncmp(a, "--fields", 8) ? 8
								: 2;

			is_names = !strncmp(a, "--names", 7) || !strcmp(a, "-n");
			if (a[l] == '=') {
				val = a + l + 1;
			} else if (a[l] == 0) {
				if (i + 1 >= argc) {
					free(paths);
					return usage_error("option '%s' needs a value", a);
				}
				val = argv[++i];
			} else {
				free(paths);
				return usage_error("unknown option '%s'", a);
			}
			char bad[128];

			if (ctf_text_options_parse(&opt, is_names, val, bad, sizeof(bad))) {
				fprintf(stderr, "trax view: unknown %s item '%s'\n",
					is_names ? "--names" : "--fields", bad);
				fputs("Try 'trax view --help'.\n", stderr);
				free(paths);
				return 2;
			}
		} else {
			free(paths);
			return usage_error("unknown option '%s'", a);
		}
	}
	if (!npaths) {
		/* the current session's trace (trax list SESSION: its output) */
		char why[1280];

		current = cli_current_output(why, sizeof(why));
		if (!current) {
			free(paths);
			return usage_error("%s", why);
		}
		paths[npaths++] = current;
	}
	if (ctf_ss_load(&ss, (const char *const *)paths, npaths, CTF_SS_RANK_BY_NAME) ||
	    ctf_ss_open(&ss, false, 0))
		status = fatal(ss.error);
	else
		status = run(&ss, &opt, count ? MODE_COUNT : mode);
	ctf_ss_free(&ss);
	free(paths);
	free(current);
	return status;
}
