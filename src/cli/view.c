/*
 * view.c - `trax view [OPTIONS] PATH...`: every event of the CTF traces
 * found under the paths, merged in time order, printed as Babeltrace 2's
 * sink.text.pretty does by default (docs/text-format.md).
 *
 * The traces are found, grouped into streams and merged by the reader
 * library's stream set (src/reader/stream-set.h, shared with the public API
 * so both give the same events in the same order); this file only parses
 * options and formats the events and discarded-items warnings it yields.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/view.h"
#include "cli/client.h"
#include "cli/view-pipeline.h"
#include "cli/view-twin.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/json-format.h"
#include "reader/stream-set.h"
#include "reader/text-format.h"

#define OUT_BUFFER_SIZE (1u << 20)

static void usage_to(FILE *f)
{
	fputs("Usage: trax view [OPTIONS] [PATH...]\n"
	      "Print the events of the CTF traces found under each PATH, in time order,\n"
	      "as babeltrace2 does by default. Without PATH, the trace of the current\n"
	      "session (its output directory, or its newest snapshot).\n"
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

/*
 * The line plan of each fixed program's events (open addressing): a
 * printer's hints (ctf_text_print_event_hinted()) for the events it reads
 * itself.
 */
struct plan_hints {
	struct plan_hint {
		const struct ctf_decode_prog *prog;
		const struct ctf_text_plan *plan;
	} * v;
	size_t n, cap;
	/* the last one asked for (events of one class come in runs), in v */
	const struct ctf_decode_prog *last_prog;
	const struct ctf_text_plan **last_hint;
};

/* hint_of() for another program than the last one's. */
static __attribute__((noinline)) const struct ctf_text_plan **
hint_find(struct plan_hints *h, const struct ctf_decode_prog *prog)
{
	size_t i;

	if (2 * (h->n + 1) > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct plan_hint *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t k = 0; k < h->cap; k++)
			if (h->v[k].prog) {
				for (i = ((uintptr_t)h->v[k].prog >> 4) & (cap - 1); n[i].prog;
				     i = (i + 1) & (cap - 1))
					;
				n[i] = h->v[k];
			}
		free(h->v);
		h->v = n;
		h->cap = cap;
	}
	for (i = ((uintptr_t)prog >> 4) & (h->cap - 1); h->v[i].prog; i = (i + 1) & (h->cap - 1))
		if (h->v[i].prog == prog)
			break;
	if (!h->v[i].prog) {
		h->v[i].prog = prog;
		h->n++;
	}
	h->last_prog = prog; /* (v may have moved: last_hint is set anew) */
	return h->last_hint = &h->v[i].plan;
}

/* Where the plan of prog's events is kept; NULL (no hint) when memory runs out. */
static inline const struct ctf_text_plan **hint_of(struct plan_hints *h,
						   const struct ctf_decode_prog *prog)
{
	return prog == h->last_prog ? h->last_hint : hint_find(h, prog);
}

/* The text line of the event reader r has just read, with the plan hints h. */
static inline void print_line(struct ctf_text_printer *pr, struct plan_hints *h,
			      const struct ctf_text_trace *t, const struct ctf_stream_reader *r,
			      int64_t ns)
{
	const struct ctf_text_plan **hint = r->body_prog ? hint_of(h, r->body_prog) : NULL;

	if (hint)
		ctf_text_print_event_hinted(pr, t, &r->packet, &r->event, ns, hint);
	else
		ctf_text_print_event(pr, t, &r->packet, &r->event, ns);
}

/* What printing needs, for print_item(). */
struct view_printer {
	enum view_mode mode;
	uint64_t count;
	struct ctf_text_buf out;
	struct ctf_text_printer pr;
	struct ctf_text_trace *info; /* per trace: what the printer shows of it */
	struct plan_hints hints;     /* for the events read on its own thread */
};

/* The warning of discarded-items notification it. */
static void print_discard(struct ctf_text_printer *pr, const struct view_item *it)
{
	const struct ctf_ss_discard *w = it->discard;

	ctf_text_print_discarded(pr,
				 w->kind == CTF_SS_DISCARDED_EVENTS ? CTF_TEXT_DISCARDED_EVENTS
								    : CTF_TEXT_DISCARDED_PACKETS,
				 w->has_count, w->count, w->has_range, w->begin, w->end,
				 it->t->name, it->t->trace->has_uuid ? it->t->trace->uuid : NULL,
				 it->file->abs_path, it->sc_id, it->stream_id);
}

static void print_item(void *ctx, const struct view_item *it)
{
	struct view_printer *vp = ctx;

	if (it->kind == VIEW_EVENT) {
		if (vp->mode == MODE_TEXT && it->plan_hint)
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
	} else if (it->kind == VIEW_TEXT) {
		/* lines made on the reading thread: the next delta is from their last */
		ctf_text_put(&vp->out, it->rest, it->rest_len);
		if (it->event->has_clock) {
			vp->pr.last_ns = (uint64_t)it->event_ns;
			vp->pr.last_cycles = it->event->clock_value;
		}
	} else if (vp->mode != MODE_COUNT) {
		/* warnings go to stderr: what precedes them must be out first */
		ctf_text_buf_flush(&vp->out);
		print_discard(&vp->pr, it);
	}
}

/* The reading thread's share of the text lines (view_pipeline_run()'s line). */
struct view_lines {
	struct ctf_text_printer pr; /* its plans, options and second; its time set per line */
	const struct ctf_text_trace *info;
	struct plan_hints hints;
};

static int line_of(void *ctx, const struct view_item *it, const struct view_time *prev,
		   struct ctf_text_buf *out)
{
	struct view_lines *vl = ctx;

	/* a negative time may warn (stderr): the printer's, in its order */
	if (it->event->has_clock && it->event_ns < 0)
		return -1;
	vl->pr.out = out;
	vl->pr.last_ns = prev->set ? (uint64_t)prev->ns : (uint64_t)-1;
	vl->pr.last_cycles = prev->set ? prev->cycles : (uint64_t)-1;
	print_line(&vl->pr, &vl->hints, &vl->info[it->file->t->index], it->file->sr, it->event_ns);
	return 0;
}

/* One of the two threads of the text output (view-twin.h), with its own stream set. */
struct view_side {
	struct ctf_text_printer pr;
	struct ctf_text_trace *info; /* per trace of its stream set */
	struct plan_hints hints;
	/* (each side on lines of its own: its printer is written at every line) */
} __attribute__((aligned(128)));

/* view_twin_fn: item s formatted into out, or passed over (out NULL). */
static void side_item(void *ctx, struct ctf_ss_stream *s, struct ctf_text_buf *out, FILE *err)
{
	struct view_side *sd = ctx;
	const struct ctf_stream_reader *r = s->item_file->sr;
	const struct ctf_text_options *o = &sd->pr.opt;
	struct view_item item;

	if (!out) {
		/* what the next lines depend on: the last time, the warning given once */
		if (s->kind == CTF_SS_EVENT && r->event.has_clock) {
			if (s->event_ns < 0 && !o->clock_cycles && !o->clock_seconds)
				sd->pr.negative_warned = true;
			sd->pr.last_ns = (uint64_t)s->event_ns;
			sd->pr.last_cycles = r->event.clock_value;
		} else if (s->kind == CTF_SS_DISCARD && s->discard->has_range &&
			   !o->clock_seconds && (s->discard->begin < 0 || s->discard->end < 0)) {
			sd->pr.negative_warned = true;
		}
		return;
	}
	sd->pr.out = out;
	sd->pr.err = err;
	if (s->kind == CTF_SS_EVENT) {
		print_line(&sd->pr, &sd->hints, &sd->info[s->item_file->t->index], r, s->event_ns);
	} else {
		view_item_of(&item, s);
		print_discard(&sd->pr, &item);
	}
}

/*
 * Whether two stream sets opened on the same paths see the same traces: the
 * same stream files of the same sizes, the same event classes. A trace
 * being written (a live session) may have grown between the two openings;
 * two readers of different traces would disagree on the chunks.
 */
static bool same_traces(const struct ctf_stream_set *a, const struct ctf_stream_set *b)
{
	if (a->ntraces != b->ntraces || a->nfiles != b->nfiles)
		return false;
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct ctf_ss_file *x = &a->files[i], *y = &b->files[i];

		if (strcmp(x->path, y->path) || !x->sr != !y->sr ||
		    (x->sr && x->sr->file_size != y->sr->file_size))
			return false;
	}
	for (size_t i = 0; i < a->ntraces; i++) {
		const struct ctf_trace *x = a->traces[i].trace, *y = b->traces[i].trace;

		if (x->stream_count != y->stream_count)
			return false;
		for (unsigned int k = 0; k < x->stream_count; k++)
			if (x->streams[k]->event_count != y->streams[k]->event_count)
				return false;
	}
	return true;
}

/*
 * The text output on two threads, each with a stream set of the traces
 * (ss, and another one opened here): 0, -1 (error: ss->error), or -2 when
 * the second one could not be had (nothing read: the caller goes on alone).
 */
static int run_twin(struct ctf_stream_set *ss, const char *const *paths, size_t npaths,
		    const struct ctf_text_options *opt, struct view_printer *vp)
{
	struct ctf_stream_set ss2 = {0};
	struct ctf_stream_set *sets[2] = {ss, &ss2};
	struct view_side sides[2] = {0};
	void *ctx[2] = {&sides[0], &sides[1]};
	int st = -2;

	if (ctf_ss_load(&ss2, paths, npaths, CTF_SS_RANK_BY_NAME) || ctf_ss_open(&ss2, false, 0) ||
	    !same_traces(ss, &ss2) ||
	    !(sides[1].info = calloc(ss2.ntraces, sizeof(*sides[1].info))))
		goto out;
	sides[0].info = vp->info;
	for (size_t i = 0; i < ss2.ntraces; i++)
		ctf_text_trace_init(&sides[1].info[i], ss2.traces[i].trace, ss2.traces[i].name);
	for (unsigned int k = 0; k < 2; k++)
		ctf_text_printer_init(&sides[k].pr, opt, NULL);
	st = view_twin_run(sets, ctx, side_item, &vp->out);
	for (unsigned int k = 0; k < 2; k++) {
		ctf_text_printer_fini(&sides[k].pr);
		free(sides[k].hints.v);
	}
out:
	free(sides[1].info);
	ctf_ss_free(&ss2);
	return st;
}

/* ctf_ss_each()'s visitor for --count: the loop it measures, nothing else. */
static int count_item(void *ctx, struct ctf_ss_stream *s)
{
	struct view_printer *vp = ctx;

	vp->count += s->kind == CTF_SS_EVENT;
	return 0;
}

/* The second part of a count on two threads (ctf_ss_split_packets()). */
struct count_second {
	const char *const *paths;
	size_t npaths;
	const size_t *cut;
	size_t nfiles; /* the first set's: the second one must find as many */
	struct ctf_stream_set ss;
	struct view_printer vp; /* (only its count) */
	int status;
};

/* The second part: the traces loaded and opened again, from each file's cut on. */
static void *count_second_main(void *arg)
{
	struct count_second *c = arg;

	c->ss.part = 2;
	c->ss.part_cut = c->cut;
	if (ctf_ss_load(&c->ss, c->paths, c->npaths, CTF_SS_RANK_BY_NAME) ||
	    c->ss.nfiles != c->nfiles || ctf_ss_open(&c->ss, false, 0))
		c->status = -1;
	else
		c->status = ctf_ss_each(&c->ss, count_item, &c->vp);
	return NULL;
}

/*
 * --count on two threads, each reading about half of the packets
 * (ctf_ss_split_packets()): those that begin before a time on this one,
 * through ss opened again, the others on a second thread, through the
 * traces opened anew. Nothing is decoded twice, no event is compared with
 * the cut. 0 (vp->count set), -1 on error (ss->error), or -2 when the
 * parts are not known, no thread can be had, or either part met an error:
 * ss is then open at its start again, for one thread to count, and to
 * report the error as it meets it.
 */
static int run_count_halves(struct ctf_stream_set *ss, const char *const *paths, size_t npaths,
			    struct view_printer *vp)
{
	struct count_second *c = calloc(1, sizeof(*c));
	size_t *cut = calloc(ss->nfiles ? ss->nfiles : 1, sizeof(*cut));
	struct view_printer first = {0};
	pthread_t second;
	int st = -2;

	if (!c || !cut || ctf_ss_split_packets(ss, cut))
		goto out;
	c->paths = paths;
	c->npaths = npaths;
	c->cut = cut;
	c->nfiles = ss->nfiles;
	if (pthread_create(&second, NULL, count_second_main, c) != 0)
		goto out;
	ctf_ss_close(ss);
	ss->part = 1;
	ss->part_cut = cut;
	st = ctf_ss_open(ss, false, 0);
	if (!st)
		st = ctf_ss_each(ss, count_item, &first);
	pthread_join(second, NULL);
	ss->part = 0;
	ss->part_cut = NULL;
	if (st == 0 && c->status == 0) {
		vp->count = first.count + c->vp.count;
	} else {
		ctf_ss_close(ss);
		st = ctf_ss_open(ss, false, 0) ? -1 : -2;
	}
out:
	if (c)
		ctf_ss_free(&c->ss);
	free(c);
	free(cut);
	return st;
}

/* ctf_ss_each()'s visitor for the output on one thread. */
static int visit_item(void *ctx, struct ctf_ss_stream *s)
{
	struct view_printer *vp = ctx;
	struct view_item item;

	if (s->kind == CTF_SS_EVENT && vp->mode == MODE_TEXT) {
		print_line(&vp->pr, &vp->hints, &vp->info[s->item_file->t->index], s->item_file->sr,
			   s->event_ns);
		return 0;
	}
	view_item_of(&item, s);
	print_item(ctx, &item);
	return 0;
}

/*
 * How the output runs (TRAX_VIEW_THREADS): 1 on one thread; else text on
 * two threads reading the whole trace and formatting every other chunk
 * (view-twin.h), or with "pipeline" read on one and printed on the other;
 * --count on two threads, each counting one half of the trace.
 */
static bool single_thread(void)
{
	const char *e = getenv("TRAX_VIEW_THREADS");

	return e && strcmp(e, "1") == 0;
}

static int threads_wanted(enum view_mode mode)
{
	const char *e = getenv("TRAX_VIEW_THREADS");

	if (mode != MODE_TEXT || single_thread())
		return 1;
	return e && strcmp(e, "pipeline") == 0 ? 3 : 2;
}

static int run(struct ctf_stream_set *ss, const char *const *paths, size_t npaths,
	       const struct ctf_text_options *opt, enum view_mode mode)
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
	st = -2;
	if (threads_wanted(mode) == 2)
		st = run_twin(ss, paths, npaths, opt, &vp);
	else if (mode == MODE_COUNT && !single_thread())
		st = run_count_halves(ss, paths, npaths, &vp);
	if (st != -2) {
		/* (done) */
	} else if (threads_wanted(mode) == 3) {
		struct view_lines vl = {.info = vp.info};

		ctf_text_printer_init(&vl.pr, opt, NULL);
		st = view_pipeline_run(ss, print_item, &vp, line_of, &vl);
		ctf_text_printer_fini(&vl.pr);
		free(vl.hints.v);
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
	free(vp.hints.v);
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
		status =
		    run(&ss, (const char *const *)paths, npaths, &opt, count ? MODE_COUNT : mode);
	ctf_ss_free(&ss);
	free(paths);
	free(current);
	return status;
}
