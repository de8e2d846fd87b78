/*
 * an-run.c - the driver of every analysis (analysis.h): opens the traces,
 * sets the time range (--begin/--end, the stream intersection), reads
 * every event once, in time order, giving it to the analysis and then to
 * the system state (kstate), in lttng-analyses' order
 * (docs/analyses-reference.md section 1.2), and has the analysis report.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/table.h"

static const struct an_def *const analyses[] = {
    &an_cputop_def,   &an_stats_def,	&an_flow_def,	      &an_spans_def,
    &an_schedlat_def, &an_irqstats_def, &an_syscallstats_def, &an_iolatency_def};

#define NANALYSES (sizeof(analyses) / sizeof(analyses[0]))

void an_options_init(struct an_options *o)
{
	memset(o, 0, sizeof(*o));
	o->intersect = 1;
	o->limit = 10;
	o->top = 10;
}

static const struct an_def *find(const char *name)
{
	for (size_t i = 0; i < NANALYSES; i++)
		if (!strcmp(analyses[i]->name, name))
			return analyses[i];
	return NULL;
}

int an_exists(const char *name)
{
	return find(name) != NULL;
}

void an_list(FILE *f)
{
	for (size_t i = 0; i < NANALYSES; i++)
		fprintf(f, "%-14s %s\n", analyses[i]->name, analyses[i]->summary);
}

void an_print_json_error(FILE *f, const char *msg)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, "{\"error-message\": ");
	{
		struct strbuf m;

		strbuf_init(&m);
		strbuf_printf(&m, "Error: %s", msg);
		an_json_string(&sb, m.buf ? m.buf : "");
		strbuf_free(&m);
	}
	strbuf_puts(&sb, "}\n");
	if (sb.buf)
		fputs(sb.buf, f);
	strbuf_free(&sb);
}

static int fail(struct an_run *run, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct an_run *run, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->err, run->errlen, fmt, ap);
	va_end(ap);
	return status;
}

static int list_has(const struct an_int_list *l, int64_t v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return 1;
	return 0;
}

int an_ids_pass(const struct an_run *run, int64_t tid, int64_t pid, const char *comm)
{
	const struct an_options *o = run->o;

	if (o->nprocnames) {
		size_t i;

		for (i = 0; i < o->nprocnames; i++)
			if (!strcmp(o->procnames[i], comm))
				break;
		if (i == o->nprocnames)
			return 0;
	}
	if (o->tids.n && !list_has(&o->tids, tid))
		return 0;
	if (o->pids.n && (pid < 0 || !list_has(&o->pids, pid)))
		return 0;
	return 1;
}

int an_thread_passes(const struct an_run *run, const struct kthread *t)
{
	return !t || an_ids_pass(run, t->tid, t->pid, t->comm);
}

int an_cpu_passes(const struct an_run *run, int64_t cpu)
{
	return !run->o->cpus.n || list_has(&run->o->cpus, cpu);
}

int an_multi_day(const struct an_run *run)
{
	char a[64], b[64];

	if (!run->bounds.has_bounds)
		return 0;
	an_format_time(a, sizeof(a), run->bounds.begin, 1, run->o->gmt);
	an_format_time(b, sizeof(b), run->bounds.end, 1, run->o->gmt);
	return strncmp(a, b, 10) != 0;
}

void *an_grow(void *v, size_t *cap, size_t need, size_t size, int *failed)
{
	size_t c = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return v;
	while (c < need)
		c *= 2;
	n = realloc(v, c * size);
	if (!n) {
		*failed = 1;
		return NULL;
	}
	memset((char *)n + *cap * size, 0, (c - *cap) * size);
	*cap = c;
	return n;
}

void an_print_timerange(const struct an_run *run, int64_t begin, int64_t end)
{
	char b[64], e[64];

	fprintf(run->out, "Timerange: [%s, %s]\n",
		an_format_time(b, sizeof(b), begin, 1, run->o->gmt),
		an_format_time(e, sizeof(e), end, 1, run->o->gmt));
}

/* LTTng-modules before 2.7.1 wrote the sched_wak* priorities 100 too high. */
static int old_kernel_tracer(struct trax_reader *r)
{
	for (size_t t = 0; t < trax_reader_trace_count(r); t++) {
		const char *domain = trax_reader_env_string(r, t, "domain");
		int64_t ma, mi, pl;

		if (!domain || strcmp(domain, "kernel") ||
		    trax_reader_env_int(r, t, "tracer_major", &ma) ||
		    trax_reader_env_int(r, t, "tracer_minor", &mi) ||
		    trax_reader_env_int(r, t, "tracer_patchlevel", &pl))
			continue;
		return ma < 2 || (ma == 2 && (mi < 7 || (mi == 7 && pl < 1)));
	}
	return 0;
}

/* Is the day of a and b the same (local time, or UTC with gmt)? */
static int same_day(int64_t a, int64_t b, int gmt)
{
	char da[64], db[64];

	an_format_time(da, sizeof(da), a, 1, gmt);
	an_format_time(db, sizeof(db), b, 1, gmt);
	return !strncmp(da, db, 10);
}

static int set_range(struct an_run *run)
{
	const struct an_options *o = run->o;
	const struct an_bounds *b = &run->bounds;
	int multi = b->has_bounds && !same_day(b->begin, b->end, o->gmt);
	char msg[256];

	if (o->begin) {
		if (an_parse_time(o->begin, o->gmt, b->begin, multi, &run->begin, msg, sizeof(msg)))
			return fail(run, AN_USAGE, "--begin: %s", msg);
		run->has_begin = run->begin != 0; /* (lttng-analyses tests it for truth) */
	}
	if (o->end) {
		if (an_parse_time(o->end, o->gmt, b->begin, multi, &run->end, msg, sizeof(msg)))
			return fail(run, AN_USAGE, "--end: %s", msg);
		run->has_end = run->end != 0;
		if (b->has_bounds && run->end < b->begin)
			return fail(run, AN_USAGE, "--end timestamp before beginning of trace");
	}
	if (o->intersect && b->has_bounds) {
		if (!b->has_intersection)
			return fail(run, AN_FAIL,
				    "Trace has no intersection. Use --no-intersection to override");
		run->clip = 1;
	}
	return AN_OK;
}

static int on_event(void *ctx, const struct trax_event *ev)
{
	struct an_run *run = ctx;
	int64_t ts = trax_event_timestamp_ns(ev);
	const struct kev_class *c;

	if (run->clip) {
		const struct an_trace_clip *tc = &run->bounds.traces[trax_event_trace_index(ev)];

		if (run->bounds.all_set && ts > run->bounds.inter_end)
			return 1;
		if (tc->set && (ts < tc->begin || ts > tc->end))
			return 0;
	}
	/* the analysis first: an event after --end ends it, unused */
	if (run->has_end && ts > run->end)
		return 1;
	run->any = 1;
	run->last_ts = ts;
	if (!run->started && (!run->has_begin || ts >= run->begin)) {
		run->started = 1;
		run->period_begin = ts;
	}
	c = kev_lookup(&run->kev, ev);
	if (!c)
		return 2;
	if (run->started) {
		run->events++;
		if (run->def->event && run->def->event(run->an, ev, c, ts))
			return 2;
	} else if (run->def->before && run->def->event(run->an, ev, c, ts))
		return 2;
	/* then the state, which notifies the analysis while its period is open */
	run->st.notify = run->started;
	if (c->kind != KEV_OTHER && kstate_event(&run->st, ev, c, ts))
		return 2;
	if (run->def->state_event && c->kind != KEV_OTHER &&
	    run->def->state_event(run->an, ev, c, ts))
		return 2;
	return 0;
}

int an_run(const char *name, const struct an_options *o, const char *const *paths, size_t npaths,
	   FILE *out, char *err, size_t errlen)
{
	const struct an_def *def = find(name);

	if (!def) {
		snprintf(err, errlen, "Unknown analysis '%s' (see 'trax analyze --list')", name);
		return AN_USAGE;
	}
	return an_run_def(def, NULL, o, paths, npaths, out, err, errlen);
}

/* --html: the analysis's items, then the page written in place (page freed). */
static int page_commit(struct an_run *run, struct an_html *page, const char *const *paths,
		       size_t npaths)
{
	struct strbuf title;
	int bad;

	if (run->def->html(run->an, page)) {
		an_html_abort(page);
		return fail(run, AN_FAIL, "out of memory");
	}
	strbuf_init(&title);
	strbuf_puts(&title, run->def->name);
	for (size_t i = 0; i < npaths; i++)
		strbuf_printf(&title, "%s%s", i ? ", " : " on ", paths[i]);
	bad = title.failed;
	if (bad)
		an_html_abort(page);
	else
		bad = an_html_commit(page, title.buf, run->err, run->errlen);
	strbuf_free(&title);
	return bad ? (run->err[0] ? AN_FAIL : fail(run, AN_FAIL, "out of memory")) : AN_OK;
}

int an_run_def(const struct an_def *def, const void *extra, const struct an_options *o,
	       const char *const *paths, size_t npaths, FILE *out, char *err, size_t errlen)
{
	struct an_run run;
	struct trax_reader_options ro;
	struct an_html *page = NULL;
	int st, status;

	memset(&run, 0, sizeof(run));
	run.o = o;
	run.out = out;
	run.err = err;
	run.errlen = errlen;
	run.extra = extra;
	err[0] = 0;
	run.def = def;
	if (o->html && !def->html)
		return fail(&run, AN_USAGE,
			    "--html: %s has no histograms (syscallstats, iolatency, "
			    "schedlatency and spans have)",
			    def->name);
	/* the page's file first: a path that cannot be written fails before the long read */
	if (o->html && !(page = an_html_open(o->html, err, errlen)))
		return AN_FAIL;
	trax_reader_options_init(&ro);
	run.r = trax_reader_open_with(paths, npaths, &ro);
	if (!run.r) {
		an_html_abort(page);
		return fail(&run, AN_FAIL, "%s", trax_reader_error(NULL));
	}
	kev_init(&run.kev);
	kstate_init(&run.st, run.def->hooks, NULL);
	run.st.prio_minus_100 = old_kernel_tracer(run.r);
	if (an_bounds(run.r, &run.bounds)) {
		status = fail(&run, AN_FAIL, "%s", trax_reader_error(run.r));
		goto out;
	}
	if ((status = set_range(&run)) != AN_OK)
		goto out;
	run.an = run.def->create(&run);
	if (!run.an) {
		/* an analysis refusing its options says why */
		status = err[0] ? AN_USAGE : fail(&run, AN_FAIL, "out of memory");
		goto out;
	}
	run.st.ctx = run.an;
	if (run.clip && run.bounds.all_set && trax_reader_seek_ns(run.r, run.bounds.inter_begin)) {
		status = fail(&run, AN_FAIL, "%s", trax_reader_error(run.r));
		goto out;
	}
	st = trax_reader_each(run.r, on_event, &run);
	if (st < 0) {
		status = fail(&run, AN_FAIL, "%s", trax_reader_error(run.r));
		goto out;
	}
	if (st == 2) {
		/* an analysis failing on an event may have said why (a spool's disk error) */
		status = err[0] ? AN_FAIL : fail(&run, AN_FAIL, "out of memory");
		goto out;
	}
	if (run.def->needs && !(run.kev.kinds_seen & run.def->needs)) {
		status = fail(&run, AN_FAIL,
			      "%s needs %s events, and the trace has none (in the time range); "
			      "record them with: %s",
			      run.def->name, run.def->needs_names, run.def->record_hint);
		goto out;
	}
	status = run.def->report(run.an);
	if (status == AN_OK && page) {
		status = page_commit(&run, page, paths, npaths);
		page = NULL;
	}
out:
	an_html_abort(page);
	if (run.an)
		run.def->destroy(run.an);
	kstate_free(&run.st);
	an_bounds_free(&run.bounds);
	kev_free(&run.kev);
	trax_reader_close(run.r);
	return status;
}
