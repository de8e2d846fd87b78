/*
 * view.c - `trax view [OPTIONS] PATH...`: every event of the CTF traces
 * found under the paths, merged in time order, printed as Babeltrace 2's
 * sink.text.pretty does by default (docs/text-format.md).
 *
 * Each trace's stream files are grouped into streams as Babeltrace does
 * (same trace UUID, stream class and stream_instance_id: the files of a
 * rotated stream, the chunks of a rotated session), each stream is read
 * in order, and a binary heap keyed by the time of each stream's next
 * message merges them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/view.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctf/decode-clock.h"
#include "ctf/decode-stream.h"
#include "ctf/json-format.h"
#include "ctf/merge.h"
#include "ctf/metadata-read.h"
#include "ctf/text-format.h"
#include "ctf/trace-dir.h"

#define OUT_BUFFER_SIZE (1u << 20)

struct vtrace {
	struct ctf_trace *trace;
	char *name;
	struct ctf_text_trace info;
	int rank; /* tie order between traces (equal for one UUID) */
};

struct vfile {
	struct vtrace *t;
	struct ctf_stream_reader *r;
	char *abs_path;
	bool pending; /* its first packet is read, not yet handled */
	bool has_first_ns;
	int64_t first_ns;
	uint64_t sc_id;
	bool has_instance;
	uint64_t instance;
	size_t order;
};

struct vwarn {
	enum ctf_text_discard_kind kind;
	bool has_count;
	uint64_t count;
	bool has_range;
	int64_t begin, end;
};

enum { ITEM_EVENT, ITEM_WARN };

struct vstream {
	struct vtrace *t; /* the first file's trace */
	struct vfile **files;
	size_t nfiles, cur;
	uint64_t sc_id, stream_id;
	size_t ordinal;
	/* the current item */
	int kind;
	int64_t key;
	int64_t event_ns;
	struct vfile *item_file;
	struct vwarn warns[2];
	int nwarn, iwarn;
	/* counters of the previous packet */
	bool seen_disc, seen_seq;
	uint64_t prev_disc, prev_seq;
	bool prev_has_end;
	int64_t prev_end;
	int64_t last_key;
};

static char g_error[1200];

static void usage_to(FILE *f)
{
	fputs("Usage: trax view [OPTIONS] PATH...\n"
	      "Print the events of the CTF traces found under each PATH, in time order,\n"
	      "as babeltrace2 does by default.\n"
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

/* ---- loading ---- */

static char *trace_name(const struct ctf_trace *trace, const char *arg, const char *dir)
{
	const struct ctf_env_entry *h = ctf_trace_env(trace, "hostname");
	const char *rel = dir;
	size_t alen = strlen(arg);
	char *name;

	if (!strncmp(dir, arg, alen))
		rel = dir + alen;
	while (*rel == '/')
		rel++;
	if (h && h->is_string && h->string[0]) {
		if (*rel) {
			if (asprintf(&name, "%s/%s", h->string, rel) < 0)
				return NULL;
		} else {
			name = strdup(h->string);
		}
	} else {
		name = strdup(rel);
	}
	return name;
}

static char *absolute_path(const char *path)
{
	char *cwd, *p;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return strdup(path);
	if (asprintf(&p, "%s/%s", cwd, path) < 0)
		p = NULL;
	free(cwd);
	return p;
}

static int clock_ns(const struct ctf_clock *c, uint64_t v, int64_t *ns, const char *file)
{
	if (ctf_clock_cycles_to_ns(c, v, ns) == 0)
		return 0;
	snprintf(g_error, sizeof(g_error),
		 "%s: clock value %llu of clock `%s` does not fit a signed 64-bit number of "
		 "nanoseconds from the origin",
		 file, (unsigned long long)v, c->name);
	return -1;
}

static int cmp_trace_ptr(const void *a, const void *b)
{
	const struct vtrace *x = *(struct vtrace *const *)a, *y = *(struct vtrace *const *)b;

	if (x->trace->has_uuid != y->trace->has_uuid)
		return x->trace->has_uuid ? -1 : 1;
	if (x->trace->has_uuid)
		return memcmp(x->trace->uuid, y->trace->uuid, 16);
	return strcmp(x->name, y->name);
}

/* Same stream of the same (merged) trace. */
static bool same_group(const struct vfile *a, const struct vfile *b)
{
	if (a->t != b->t) {
		if (!a->t->trace->has_uuid || !b->t->trace->has_uuid ||
		    memcmp(a->t->trace->uuid, b->t->trace->uuid, 16))
			return false;
	}
	return a->sc_id == b->sc_id && a->has_instance && b->has_instance &&
	       a->instance == b->instance;
}

static int cmp_file_group(const void *a, const void *b)
{
	const struct vfile *x = *(struct vfile *const *)a, *y = *(struct vfile *const *)b;

	if (x->t->rank != y->t->rank)
		return x->t->rank < y->t->rank ? -1 : 1;
	if (x->sc_id != y->sc_id)
		return x->sc_id < y->sc_id ? -1 : 1;
	if (x->has_instance != y->has_instance)
		return x->has_instance ? -1 : 1;
	if (x->has_instance && x->instance != y->instance)
		return x->instance < y->instance ? -1 : 1;
	if (!x->has_instance)
		return x->order < y->order ? -1 : (x->order > y->order);
	/* files of one stream: by their first time, then their order */
	if (x->has_first_ns && y->has_first_ns && x->first_ns != y->first_ns)
		return x->first_ns < y->first_ns ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

/* ---- merging ---- */

static int cmp_stream(const void *a, const void *b)
{
	const struct vstream *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->t->rank != y->t->rank)
		return x->t->rank < y->t->rank ? -1 : 1;
	if (x->sc_id != y->sc_id)
		return x->sc_id < y->sc_id ? -1 : 1;
	if (x->stream_id != y->stream_id)
		return x->stream_id < y->stream_id ? -1 : 1;
	return x->ordinal < y->ordinal ? -1 : (x->ordinal > y->ordinal);
}

static void add_warn(struct vstream *s, enum ctf_text_discard_kind kind, bool has_count,
		     uint64_t count, bool has_range, int64_t begin, int64_t end)
{
	struct vwarn *w = &s->warns[s->nwarn++];

	w->kind = kind;
	w->has_count = has_count;
	w->count = count;
	w->has_range = has_range;
	w->begin = begin;
	w->end = end;
}

static int on_packet(struct vstream *s, struct vfile *f)
{
	const struct ctf_packet *pkt = &f->r->packet;
	bool has_begin = false, has_end = false;
	int64_t begin = 0, end = 0;

	s->nwarn = s->iwarn = 0;
	if (pkt->clock && pkt->has_timestamp_begin) {
		if (clock_ns(pkt->clock, pkt->timestamp_begin, &begin, f->r->path))
			return -1;
		has_begin = true;
	}
	if (pkt->clock && pkt->has_timestamp_end) {
		if (clock_ns(pkt->clock, pkt->timestamp_end, &end, f->r->path))
			return -1;
		has_end = true;
	}
	if (pkt->has_events_discarded) {
		uint64_t d = pkt->events_discarded;

		if (!s->seen_disc) {
			if (d != 0)
				add_warn(s, CTF_TEXT_DISCARDED_EVENTS, false, 0,
					 has_begin && has_end, begin, end);
		} else if (d > s->prev_disc) {
			add_warn(s, CTF_TEXT_DISCARDED_EVENTS, true, d - s->prev_disc,
				 s->prev_has_end && has_end, s->prev_end, end);
		} else if (d < s->prev_disc) {
			add_warn(s, CTF_TEXT_DISCARDED_EVENTS, false, 0, s->prev_has_end && has_end,
				 s->prev_end, end);
		}
		s->seen_disc = true;
		s->prev_disc = d;
	}
	if (pkt->has_packet_seq_num) {
		uint64_t q = pkt->packet_seq_num;

		/* Babeltrace ignores a repeated sequence number */
		if (s->seen_seq && q != s->prev_seq + 1 && q != s->prev_seq)
			add_warn(s, CTF_TEXT_DISCARDED_PACKETS, true, q - s->prev_seq - 1,
				 s->prev_has_end && has_begin, s->prev_end, begin);
		s->seen_seq = true;
		s->prev_seq = q;
	}
	s->prev_has_end = has_end;
	s->prev_end = end;
	return 0;
}

/* Reads the stream's next item: 1, 0 at its end, -1 on error (g_error). */
static int stream_advance(struct vstream *s)
{
	for (;;) {
		struct vfile *f;
		int st;

		if (s->iwarn < s->nwarn) {
			const struct vwarn *w = &s->warns[s->iwarn++];

			s->kind = ITEM_WARN;
			s->key = w->has_range ? w->begin : s->last_key;
			s->item_file = s->files[s->cur];
			s->last_key = s->key;
			return 1;
		}
		if (s->cur >= s->nfiles)
			return 0;
		f = s->files[s->cur];
		if (f->pending) {
			f->pending = false;
			st = CTF_STREAM_PACKET;
		} else {
			st = ctf_stream_next(f->r);
		}
		switch (st) {
		case CTF_STREAM_PACKET:
			if (on_packet(s, f))
				return -1;
			continue;
		case CTF_STREAM_EVENT:
			s->kind = ITEM_EVENT;
			s->item_file = f;
			if (f->r->event.has_clock) {
				if (clock_ns(f->r->packet.clock, f->r->event.clock_value,
					     &s->event_ns, f->r->path))
					return -1;
				s->key = s->event_ns;
			} else {
				s->event_ns = 0;
				s->key = s->last_key;
			}
			s->last_key = s->key;
			return 1;
		case CTF_STREAM_END:
			s->cur++;
			continue;
		default:
			snprintf(g_error, sizeof(g_error), "%s", f->r->error);
			return -1;
		}
	}
}

/* ---- the command ---- */

struct view_state {
	struct ctf_trace_set *sets;
	size_t nsets;
	struct vtrace *traces;
	size_t ntraces;
	struct vfile *files;
	size_t nfiles;
	struct vstream *streams;
	size_t nstreams;
};

static void state_free(struct view_state *v)
{
	for (size_t i = 0; i < v->nfiles; i++) {
		ctf_stream_close(v->files[i].r);
		free(v->files[i].abs_path);
	}
	free(v->files);
	for (size_t i = 0; i < v->nstreams; i++)
		free(v->streams[i].files);
	free(v->streams);
	for (size_t i = 0; i < v->ntraces; i++) {
		ctf_trace_free(v->traces[i].trace);
		free(v->traces[i].name);
	}
	free(v->traces);
	for (size_t i = 0; i < v->nsets; i++)
		ctf_trace_set_free(&v->sets[i]);
	free(v->sets);
}

static int fatal(const char *msg)
{
	fflush(stdout);
	fprintf(stderr, "trax view: %s\n", msg);
	return 1;
}

/* Clocks of all streams must be correlatable (docs/text-format.md section 9). */
static int check_clocks(struct view_state *v)
{
	const struct vfile *first = NULL;

	for (size_t i = 0; i < v->nfiles; i++) {
		const struct vfile *f = &v->files[i];
		const struct ctf_clock *c, *c0;

		if (!f->r)
			continue;
		if (!first) {
			first = f;
			continue;
		}
		c0 = first->r->packet.clock;
		c = f->r->packet.clock;
		if (!c0 != !c) {
			snprintf(g_error, sizeof(g_error),
				 "%s: cannot merge a stream %s a clock with %s, which has %s",
				 f->r->path, c ? "with" : "without", first->r->path,
				 c0 ? "one" : "none");
			return -1;
		}
		if (!c)
			continue;
		if (c0->absolute ? !c->absolute
				 : (c0->has_uuid ? (c->absolute || !c->has_uuid ||
						    memcmp(c0->uuid, c->uuid, 16))
						 : c != c0)) {
			snprintf(g_error, sizeof(g_error),
				 "%s: its clock `%s` cannot be correlated with clock `%s` of %s "
				 "(neither both absolute nor the same clock UUID)",
				 f->r->path, c->name, c0->name, first->r->path);
			return -1;
		}
	}
	return 0;
}

static int load(struct view_state *v, char **paths, size_t npaths)
{
	char err[1200];
	size_t nf = 0;

	v->sets = calloc(npaths, sizeof(*v->sets));
	if (!v->sets)
		return fatal("out of memory");
	v->nsets = npaths;
	for (size_t i = 0; i < npaths; i++) {
		if (ctf_trace_set_add(&v->sets[i], paths[i], err, sizeof(err)))
			return fatal(err);
		v->ntraces += v->sets[i].nr_traces;
		for (size_t j = 0; j < v->sets[i].nr_traces; j++)
			nf += v->sets[i].traces[j].nr_streams;
	}
	v->traces = calloc(v->ntraces, sizeof(*v->traces));
	v->files = calloc(nf ? nf : 1, sizeof(*v->files));
	if (!v->traces || !v->files)
		return fatal("out of memory");

	size_t k = 0;
	for (size_t i = 0; i < npaths; i++) {
		for (size_t j = 0; j < v->sets[i].nr_traces; j++, k++) {
			const struct ctf_trace_dir *td = &v->sets[i].traces[j];
			struct vtrace *t = &v->traces[k];
			struct tsdl_error terr;

			t->trace = ctf_metadata_load(td->metadata_path, &terr);
			if (!t->trace) {
				tsdl_error_format(&terr, err, sizeof(err));
				return fatal(err);
			}
			t->name = trace_name(t->trace, paths[i], td->path);
			if (!t->name)
				return fatal("out of memory");
			ctf_text_trace_init(&t->info, t->trace, t->name);
		}
	}

	/* trace ranks: UUID order, then name order; one UUID, one rank */
	{
		struct vtrace **order = malloc((v->ntraces ? v->ntraces : 1) * sizeof(*order));

		if (!order)
			return fatal("out of memory");
		for (size_t i = 0; i < v->ntraces; i++)
			order[i] = &v->traces[i];
		qsort(order, v->ntraces, sizeof(*order), cmp_trace_ptr);
		for (size_t i = 0; i < v->ntraces; i++)
			order[i]->rank = (i && !cmp_trace_ptr(&order[i - 1], &order[i]))
					     ? order[i - 1]->rank
					     : (int)i;
		free(order);
	}

	/* open every stream file and read its first packet */
	k = 0;
	for (size_t i = 0; i < npaths; i++) {
		for (size_t j = 0; j < v->sets[i].nr_traces; j++, k++) {
			const struct ctf_trace_dir *td = &v->sets[i].traces[j];

			for (size_t m = 0; m < td->nr_streams; m++) {
				struct vfile *f = &v->files[v->nfiles];
				int st;

				f->t = &v->traces[k];
				f->order = v->nfiles;
				f->r = ctf_stream_open(f->t->trace, td->streams[m].path, err,
						       sizeof(err));
				if (!f->r)
					return fatal(err);
				v->nfiles++;
				st = ctf_stream_next(f->r);
				if (st == CTF_STREAM_END) {
					/* an empty file: no stream */
					ctf_stream_close(f->r);
					f->r = NULL;
					continue;
				}
				if (st != CTF_STREAM_PACKET)
					return fatal(f->r->error);
				f->pending = true;
				f->sc_id = f->r->packet.stream_class->id;
				f->has_instance = f->r->packet.has_stream_instance_id;
				f->instance = f->r->packet.stream_instance_id;
				if (f->r->packet.clock && f->r->packet.has_timestamp_begin &&
				    ctf_clock_cycles_to_ns(f->r->packet.clock,
							   f->r->packet.timestamp_begin,
							   &f->first_ns) == 0)
					f->has_first_ns = true;
				f->abs_path = absolute_path(td->streams[m].path);
				if (!f->abs_path)
					return fatal("out of memory");
			}
		}
	}
	if (check_clocks(v))
		return fatal(g_error);

	/* group the files into streams */
	{
		struct vfile **order = malloc((v->nfiles ? v->nfiles : 1) * sizeof(*order));
		size_t n = 0;

		if (!order)
			return fatal("out of memory");
		for (size_t i = 0; i < v->nfiles; i++)
			if (v->files[i].r)
				order[n++] = &v->files[i];
		qsort(order, n, sizeof(*order), cmp_file_group);
		v->streams = calloc(n ? n : 1, sizeof(*v->streams));
		if (!v->streams) {
			free(order);
			return fatal("out of memory");
		}
		for (size_t i = 0; i < n;) {
			size_t e = i + 1;
			struct vstream *s = &v->streams[v->nstreams];

			while (e < n && same_group(order[i], order[e]))
				e++;
			s->files = malloc((e - i) * sizeof(*s->files));
			if (!s->files) {
				free(order);
				return fatal("out of memory");
			}
			memcpy(s->files, order + i, (e - i) * sizeof(*s->files));
			s->nfiles = e - i;
			s->t = order[i]->t;
			s->sc_id = order[i]->sc_id;
			s->ordinal = v->nstreams;
			s->last_key = INT64_MIN;
			if (order[i]->has_instance) {
				s->stream_id = order[i]->instance;
			} else {
				/* Babeltrace numbers them per stream class, in opening order */
				uint64_t id = 0;

				for (size_t p = 0; p < v->nstreams; p++)
					if (v->streams[p].t->rank == s->t->rank &&
					    v->streams[p].sc_id == s->sc_id &&
					    !v->streams[p].files[0]->has_instance)
						id++;
				s->stream_id = id;
			}
			v->nstreams++;
			i = e;
		}
		free(order);
	}
	return 0;
}

enum view_mode { MODE_TEXT, MODE_JSON, MODE_COUNT };

static int run(struct view_state *v, const struct ctf_text_options *opt, enum view_mode mode)
{
	uint64_t count = 0;
	struct ctf_text_buf out;
	struct ctf_text_printer pr;
	struct ctf_merge_heap heap;
	int status = 0;

	if (ctf_text_buf_init(&out, STDOUT_FILENO, OUT_BUFFER_SIZE))
		return fatal("out of memory");
	ctf_text_printer_init(&pr, opt, &out);
	ctf_merge_init(&heap, cmp_stream);
	for (size_t i = 0; i < v->nstreams; i++) {
		int st = stream_advance(&v->streams[i]);

		if (st < 0) {
			status = 1;
			goto end;
		}
		if (st > 0 && ctf_merge_push(&heap, &v->streams[i])) {
			snprintf(g_error, sizeof(g_error), "out of memory");
			status = 1;
			goto end;
		}
	}
	for (;;) {
		struct vstream *s = ctf_merge_top(&heap);
		int st;

		if (!s)
			break;
		if (s->kind == ITEM_EVENT) {
			const struct ctf_stream_reader *r = s->item_file->r;

			if (mode == MODE_TEXT)
				ctf_text_print_event(&pr, &s->item_file->t->info, &r->packet,
						     &r->event, s->event_ns);
			else if (mode == MODE_JSON)
				ctf_json_print_event(&out, &r->packet, &r->event,
						     r->event.has_clock, s->event_ns, s->stream_id);
			else
				count++;
		} else if (mode != MODE_COUNT) {
			const struct vwarn *w = &s->warns[s->iwarn - 1];
			const struct vfile *f = s->item_file;

			ctf_text_buf_flush(&out);
			ctf_text_print_discarded(&pr, w->kind, w->has_count, w->count, w->has_range,
						 w->begin, w->end, s->t->name,
						 s->t->trace->has_uuid ? s->t->trace->uuid : NULL,
						 f->abs_path, s->sc_id, s->stream_id);
		}
		st = stream_advance(s);
		if (st < 0) {
			status = 1;
			break;
		}
		if (st == 0)
			ctf_merge_pop(&heap);
		else
			ctf_merge_top_changed(&heap);
	}
end:
	if (mode == MODE_COUNT && !status) {
		char line[32];
		int n = snprintf(line, sizeof(line), "%llu events\n", (unsigned long long)count);

		ctf_text_put(&out, line, (size_t)n);
	}
	ctf_text_buf_flush(&out);
	if (status)
		fatal(g_error);
	else if (out.error && out.error != EPIPE) {
		fprintf(stderr, "trax view: standard output: %s\n", strerror(out.error));
		status = 1;
	}
	ctf_merge_free(&heap);
	ctf_text_buf_free(&out);
	return status;
}

int trax_view_main(int argc, char **argv)
{
	struct ctf_text_options opt;
	char **paths;
	size_t npaths = 0;
	bool only_paths = false;
	struct view_state v = {0};
	enum view_mode mode = MODE_TEXT;
	bool count = false;
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
		free(paths);
		return usage_error("%s", "no trace path given");
	}
	status = load(&v, paths, npaths);
	if (!status)
		status = run(&v, &opt, count ? MODE_COUNT : mode);
	state_free(&v);
	free(paths);
	return status;
}
