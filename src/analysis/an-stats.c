/*
 * an-stats.c - `trax analyze stats`: LTTV's statistics view. Events per
 * name, per CPU, per process and per stream over the range, their rates,
 * and what the tracer lost (discarded events, lost packets: from the
 * stream files' packet contexts). Works on any CTF trace: the process of
 * an event is its tid/vtid context (with procname, pid/vpid), else, in a
 * kernel trace, the thread the sched_switch events say runs on its CPU.
 * Tables of trax's own (text, and JSON in the MI document's shape).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/table.h"

struct st_proc {
	int64_t tid, pid; /* pid -1: unknown */
	char name[KSTATE_COMM_MAX];
	uint64_t count;
	size_t order;
};

struct st_stream {
	size_t trace;
	uint64_t sc, id;
	uint64_t count;
};

struct stats {
	struct an_run *run;
	uint64_t *per_class; /* by kev class id */
	size_t nclass;
	uint64_t *per_cpu; /* by cpu id */
	size_t ncpu;
	uint64_t no_cpu; /* events of streams without cpu_id */
	struct st_proc *procs;
	size_t nprocs, cap_procs;
	struct an_idmap proc_map;
	uint64_t no_proc;
	struct st_stream *streams;
	size_t nstreams, cap_streams;
	struct an_idmap stream_map;
	uint64_t events;
	int failed;
};

static void count_process(struct stats *s, const struct trax_event *ev, const struct kev_class *c)
{
	int64_t tid, pid = -1;
	const char *name = NULL;
	struct st_proc *p;
	uint32_t i;

	if (kev_int(ev, c, KR_CTX_TID, &tid) == 0) {
		kev_int(ev, c, KR_CTX_PID, &pid);
		name = kev_str(ev, c, KR_CTX_PROCNAME);
	} else {
		int64_t cpu;
		struct kthread *t;

		if (kev_int(ev, c, KR_PKT_CPU_ID, &cpu) ||
		    (tid = kstate_current(&s->run->st, cpu)) < 0) {
			s->no_proc++;
			return;
		}
		t = kstate_thread(&s->run->st, tid);
		if (t) {
			pid = t->pid;
			name = t->comm;
		}
	}
	i = an_idmap_get(&s->proc_map, (uint64_t)tid);
	if (i == AN_IDMAP_NONE) {
		struct st_proc *v =
		    an_grow(s->procs, &s->cap_procs, s->nprocs + 1, sizeof(*v), &s->failed);

		if (!v)
			return;
		s->procs = v;
		i = (uint32_t)s->nprocs;
		if (an_idmap_put(&s->proc_map, (uint64_t)tid, i)) {
			s->failed = 1;
			return;
		}
		s->procs[i].tid = tid;
		s->procs[i].pid = -1;
		s->procs[i].order = s->nprocs++;
	}
	p = &s->procs[i];
	p->count++;
	if (pid >= 0)
		p->pid = pid;
	if (name && *name && strncmp(p->name, name, sizeof(p->name) - 1)) {
		size_t n = strnlen(name, sizeof(p->name) - 1);

		memcpy(p->name, name, n);
		p->name[n] = 0;
	}
}

static int on_event(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	struct stats *s = an;
	int64_t cpu;
	uint64_t key;
	uint32_t i;

	(void)ts;
	s->events++;
	if (c->id >= s->nclass) {
		uint64_t *v = an_grow(s->per_class, &s->nclass, c->id + 1, sizeof(*v), &s->failed);

		if (!v)
			return -1;
		s->per_class = v;
	}
	s->per_class[c->id]++;
	if (kev_int(ev, c, KR_PKT_CPU_ID, &cpu) == 0 && cpu >= 0 && cpu < (1 << 20)) {
		if ((size_t)cpu >= s->ncpu) {
			uint64_t *v =
			    an_grow(s->per_cpu, &s->ncpu, (size_t)cpu + 1, sizeof(*v), &s->failed);

			if (!v)
				return -1;
			s->per_cpu = v;
		}
		s->per_cpu[cpu]++;
	} else
		s->no_cpu++;
	count_process(s, ev, c);

	key = ((uint64_t)trax_event_trace_index(ev) << 48) ^
	      (trax_event_stream_class_id(ev) << 40) ^ trax_event_stream_id(ev);
	i = an_idmap_get(&s->stream_map, key);
	if (i == AN_IDMAP_NONE) {
		struct st_stream *v =
		    an_grow(s->streams, &s->cap_streams, s->nstreams + 1, sizeof(*v), &s->failed);

		if (!v)
			return -1;
		s->streams = v;
		i = (uint32_t)s->nstreams;
		if (an_idmap_put(&s->stream_map, key, i))
			return -1;
		s->streams[i].trace = trax_event_trace_index(ev);
		s->streams[i].sc = trax_event_stream_class_id(ev);
		s->streams[i].id = trax_event_stream_id(ev);
		s->nstreams++;
	}
	s->streams[i].count++;
	return s->failed ? -1 : 0;
}

static void *create(struct an_run *run)
{
	struct stats *s = calloc(1, sizeof(*s));

	if (s) {
		s->run = run;
		an_idmap_init(&s->proc_map);
		an_idmap_init(&s->stream_map);
	}
	return s;
}

static void destroy(void *an)
{
	struct stats *s = an;

	free(s->per_class);
	free(s->per_cpu);
	free(s->procs);
	free(s->streams);
	an_idmap_free(&s->proc_map);
	an_idmap_free(&s->stream_map);
	free(s);
}

/* Event names with their counts, several classes of one name (several traces) summed. */
struct name_count {
	const char *name;
	uint64_t count;
};

static int cmp_names(const void *a, const void *b)
{
	const struct name_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_procs(const void *a, const void *b)
{
	const struct st_proc *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static double rate(uint64_t n, int64_t dur)
{
	return dur > 0 ? (double)n * 1e9 / (double)dur : 0;
}

/* The stream file's path relative to its trace's directory. */
static const char *rel_path(struct trax_reader *r, const struct trax_stream_info *si)
{
	const char *tp = trax_reader_trace_path(r, si->trace);
	size_t l = tp ? strlen(tp) : 0;

	if (tp && !strncmp(si->path, tp, l) && si->path[l] == '/')
		return si->path + l + 1;
	return si->path;
}

static int report(void *an)
{
	struct stats *s = an;
	struct an_run *run = s->run;
	struct trax_reader *r = run->r;
	int json = run->o->json;
	int64_t begin = run->period_begin, end = run->last_ts, dur = end - begin;
	struct name_count *names = NULL;
	size_t nnames = 0, nfiles = trax_reader_stream_count(r), nprocs;
	uint64_t discarded = 0, lost = 0;
	char b[64];
	struct an_mi mi;

	if (s->failed)
		goto oom;
	if (!run->started) {
		if (json)
			fputs("{\"results\": []}\n", run->out);
		else
			fputs("No event in the time range.\n", run->out);
		return AN_OK;
	}
	names = calloc(run->kev.count + 1, sizeof(*names));
	if (!names)
		goto oom;
	for (size_t i = 0; i < run->kev.count && i < s->nclass; i++) {
		const char *n = run->kev.classes[i]->name;
		size_t k;

		if (!s->per_class[i])
			continue;
		for (k = 0; k < nnames; k++)
			if (!strcmp(names[k].name, n))
				break;
		if (k == nnames)
			names[nnames++].name = n;
		names[k].count += s->per_class[i];
	}
	qsort(names, nnames, sizeof(*names), cmp_names);
	if (s->nprocs > 1)
		qsort(s->procs, s->nprocs, sizeof(*s->procs), cmp_procs);
	nprocs = s->nprocs;
	if (run->o->limit > 0 && (size_t)run->o->limit < nprocs)
		nprocs = (size_t)run->o->limit;
	for (size_t i = 0; i < nfiles; i++) {
		struct trax_stream_info si = {.size = sizeof(si)}, sj = {.size = sizeof(sj)};
		int later = 0;

		if (trax_reader_stream_info(r, i, &si))
			continue;
		lost += si.packets_lost;
		/* a stream's running count: its files' largest (a rotated stream's last file) */
		for (size_t j = 0; j < nfiles && !later && si.has_instance; j++)
			later = j != i && !trax_reader_stream_info(r, j, &sj) &&
				sj.trace == si.trace && sj.stream_class_id == si.stream_class_id &&
				sj.has_instance && sj.instance_id == si.instance_id &&
				(sj.events_discarded > si.events_discarded ||
				 (sj.events_discarded == si.events_discarded && j > i));
		if (!later)
			discarded += si.events_discarded;
	}

	if (json) {
		an_mi_begin(&mi, run->out);
		an_mi_table(&mi, "summary", NULL, begin, end);
		an_mi_row(&mi);
		an_mi_number(&mi, "number", (int64_t)s->events);
		an_mi_number(&mi, "duration", dur);
		an_mi_float(&mi, "number", rate(s->events, dur));
		an_mi_number(&mi, "number", (int64_t)discarded);
		an_mi_number(&mi, "number", (int64_t)lost);
		an_mi_row_end(&mi);
		an_mi_table_end(&mi);
		an_mi_table(&mi, "per-event", NULL, begin, end);
		for (size_t i = 0; i < nnames; i++) {
			an_mi_row(&mi);
			an_mi_named(&mi, "event", "name", names[i].name);
			an_mi_number(&mi, "number", (int64_t)names[i].count);
			an_mi_float(&mi, "number", rate(names[i].count, dur));
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		an_mi_table(&mi, "per-cpu", NULL, begin, end);
		for (size_t i = 0; i < s->ncpu; i++) {
			if (!s->per_cpu[i])
				continue;
			an_mi_row(&mi);
			an_mi_cpu(&mi, (int64_t)i);
			an_mi_number(&mi, "number", (int64_t)s->per_cpu[i]);
			an_mi_float(&mi, "number", rate(s->per_cpu[i], dur));
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		an_mi_table(&mi, "per-process", NULL, begin, end);
		for (size_t i = 0; i < nprocs; i++) {
			const struct st_proc *p = &s->procs[i];

			an_mi_row(&mi);
			an_mi_process(&mi, p->name[0] ? p->name : NULL, p->pid, p->tid);
			an_mi_number(&mi, "number", (int64_t)p->count);
			an_mi_float(&mi, "number", rate(p->count, dur));
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		an_mi_table(&mi, "per-stream", NULL, begin, end);
		for (size_t i = 0; i < s->nstreams; i++) {
			const struct st_stream *st = &s->streams[i];

			an_mi_row(&mi);
			an_mi_named(&mi, "trace", "path", trax_reader_trace_path(r, st->trace));
			an_mi_number(&mi, "number", (int64_t)st->sc);
			an_mi_number(&mi, "number", (int64_t)st->id);
			an_mi_number(&mi, "number", (int64_t)st->count);
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		an_mi_table(&mi, "per-stream-file", NULL, begin, end);
		for (size_t i = 0; i < nfiles; i++) {
			struct trax_stream_info si = {.size = sizeof(si)};

			if (trax_reader_stream_info(r, i, &si) || !si.packets)
				continue;
			an_mi_row(&mi);
			an_mi_named(&mi, "path", "path", si.path);
			an_mi_number(&mi, "number", (int64_t)si.packets);
			an_mi_number(&mi, "number", (int64_t)si.events_discarded);
			an_mi_number(&mi, "number", (int64_t)si.packets_lost);
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		if (an_mi_end(&mi))
			goto oom;
		free(names);
		return AN_OK;
	}

	an_print_timerange(run, begin, end);
	fprintf(run->out, "Events: %" PRIu64 " in %s s (%.1f events/s)\n", s->events,
		an_py_float(b, sizeof(b), (double)dur / 1e9), rate(s->events, dur));
	fprintf(run->out, "Discarded events: %" PRIu64 ", lost packets: %" PRIu64 "\n", discarded,
		lost);
	fprintf(run->out, "\nPer event\n%-48s %12s %14s\n", "Name", "Count", "Rate (/s)");
	for (size_t i = 0; i < nnames; i++)
		fprintf(run->out, "%-48s %12" PRIu64 " %14.1f\n", names[i].name, names[i].count,
			rate(names[i].count, dur));
	fprintf(run->out, "\nPer CPU\n%-48s %12s %14s\n", "CPU", "Count", "Rate (/s)");
	for (size_t i = 0; i < s->ncpu; i++)
		if (s->per_cpu[i])
			fprintf(run->out, "%-48zu %12" PRIu64 " %14.1f\n", i, s->per_cpu[i],
				rate(s->per_cpu[i], dur));
	if (s->no_cpu)
		fprintf(run->out, "%-48s %12" PRIu64 " %14.1f\n", "(no cpu_id)", s->no_cpu,
			rate(s->no_cpu, dur));
	fprintf(run->out, "\nPer process\n%-48s %12s %14s\n", "Process (pid, tid)", "Count",
		"Rate (/s)");
	for (size_t i = 0; i < nprocs; i++) {
		const struct st_proc *p = &s->procs[i];
		char label[128], pid[32];

		if (p->pid >= 0)
			snprintf(pid, sizeof(pid), "%" PRId64, p->pid);
		else
			snprintf(pid, sizeof(pid), "?");
		snprintf(label, sizeof(label), "%s (%s, %" PRId64 ")", p->name, pid, p->tid);
		fprintf(run->out, "%-48s %12" PRIu64 " %14.1f\n", label, p->count,
			rate(p->count, dur));
	}
	if (s->no_proc)
		fprintf(run->out, "%-48s %12" PRIu64 " %14.1f\n", "(unknown)", s->no_proc,
			rate(s->no_proc, dur));
	fprintf(run->out, "\nPer stream\n%-48s %12s %14s\n", "Trace, stream class:stream", "Count",
		"Rate (/s)");
	for (size_t i = 0; i < s->nstreams; i++) {
		const struct st_stream *st = &s->streams[i];
		char label[4096];

		snprintf(label, sizeof(label), "%s %" PRIu64 ":%" PRIu64,
			 trax_reader_trace_path(r, st->trace), st->sc, st->id);
		fprintf(run->out, "%-48s %12" PRIu64 " %14.1f\n", label, st->count,
			rate(st->count, dur));
	}
	fprintf(run->out, "\nPer stream file\n%-48s %12s %14s %12s\n", "File", "Packets",
		"Discarded", "Lost packets");
	for (size_t i = 0; i < nfiles; i++) {
		struct trax_stream_info si = {.size = sizeof(si)};

		if (trax_reader_stream_info(r, i, &si) || !si.packets)
			continue;
		fprintf(run->out, "%-48s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 "\n",
			rel_path(r, &si), si.packets, si.events_discarded, si.packets_lost);
	}
	free(names);
	return AN_OK;
oom:
	free(names);
	snprintf(run->err, run->errlen, "out of memory");
	return AN_FAIL;
}

const struct an_def an_stats_def = {
    .name = "stats",
    .summary = "events per name, CPU, process and stream; rates; discarded events (as LTTV)",
    .create = create,
    .destroy = destroy,
    .event = on_event,
    .report = report,
};
