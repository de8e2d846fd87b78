/*
 * an-flow.c - `trax analyze flow`: per thread, the sequence of its states
 * over time as LTTV's control-flow view computed them (kflow.h), one line
 * (or JSON object) per interval. By default each interval is printed when
 * it closes, so memory does not grow with the trace; --group keeps them to
 * print them per thread (memory: one record per interval). Formats of
 * trax's own: docs/analyses.md, "flow".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/kflow.h"
#include "analysis/table.h"

/* A thread's intervals, kept with --group. */
struct fl_row {
	const struct kflow_thread *t;
	struct kflow_interval *iv;
	size_t n, cap;
};

struct flow {
	struct an_run *run;
	struct kflow kf;
	int json, group, date;
	int started;
	uint64_t printed; /* intervals printed or kept */
	size_t nthreads;  /* threads with intervals */
	struct fl_row *rows;
	size_t nrows, cap_rows;
	struct strbuf sb; /* a line */
	int64_t tsec;	  /* the second whose text is in tbuf */
	char tbuf[64];
	int failed;
};

/* A time as lttng-analyses prints it, the second's text computed once per second. */
static void put_time(struct flow *fl, int64_t ns)
{
	int64_t s = ns / 1000000000, r = ns % 1000000000;

	if (r < 0) {
		r += 1000000000;
		s--;
	}
	if (s != fl->tsec || !fl->tbuf[0]) {
		char *dot;

		an_format_time(fl->tbuf, sizeof(fl->tbuf), s * 1000000000, fl->date,
			       fl->run->o->gmt);
		if ((dot = strrchr(fl->tbuf, '.')))
			*dot = 0;
		fl->tsec = s;
	}
	strbuf_printf(&fl->sb, "%s.%09" PRId64, fl->tbuf, r);
}

/* Nanoseconds as microseconds with 3 decimals, exactly (no double). */
static void put_us(struct strbuf *sb, int64_t ns, int width)
{
	char b[40];

	snprintf(b, sizeof(b), "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
	strbuf_printf(sb, "%*s", width, b);
}

static void put_detail(struct flow *fl, const struct kflow_interval *iv)
{
	struct strbuf *sb = &fl->sb;

	switch (iv->state) {
	case KFLOW_USER:
	case KFLOW_SYSCALL:
	case KFLOW_IRQ:
	case KFLOW_SOFTIRQ:
		strbuf_printf(sb, "CPU %d", iv->cpu);
		if (iv->state == KFLOW_SYSCALL)
			strbuf_printf(sb, ", %s", iv->syscall);
		else if (iv->state == KFLOW_IRQ)
			strbuf_printf(sb, ", IRQ %d", iv->irq);
		else if (iv->state == KFLOW_SOFTIRQ) {
			const char *n = kflow_softirq_name(iv->irq);

			strbuf_printf(sb, ", softirq %d%s%s", iv->irq, n ? " " : "", n ? n : "");
		}
		if (iv->state >= KFLOW_IRQ && iv->syscall)
			strbuf_printf(sb, " (in %s)", iv->syscall);
		break;
	case KFLOW_RUNNABLE:
		if (iv->reason == KFLOW_R_WOKEN) {
			const struct kflow_thread *w =
			    iv->waker > 0 ? kflow_thread(&fl->kf, iv->waker) : NULL;

			strbuf_puts(sb, "woken");
			if (w)
				strbuf_printf(sb, " by %s (%" PRId64 ")", w->comm, w->tid);
		} else if (iv->reason == KFLOW_R_PREEMPTED)
			strbuf_printf(sb, "preempted from CPU %d", iv->cpu);
		else if (iv->reason == KFLOW_R_FORKED)
			strbuf_puts(sb, "forked");
		else if (iv->reason == KFLOW_R_STATEDUMP)
			strbuf_puts(sb, "state dump");
		break;
	case KFLOW_BLOCKED:
		if (iv->syscall)
			strbuf_printf(sb, "in %s", iv->syscall);
		else if (iv->reason == KFLOW_R_STATEDUMP)
			strbuf_puts(sb, "state dump");
		break;
	case KFLOW_EXITED:
		if (iv->reason == KFLOW_R_STATEDUMP)
			strbuf_puts(sb, "state dump");
		break;
	default:
		break;
	}
}

/* One interval as a text line; with the thread's name when not grouped. */
static void text_line(struct flow *fl, const struct kflow_thread *t,
		      const struct kflow_interval *iv)
{
	struct strbuf *sb = &fl->sb;
	size_t mark;

	strbuf_reset(sb);
	if (fl->group)
		strbuf_puts(sb, "  ");
	put_time(fl, iv->begin);
	strbuf_puts(sb, " ");
	put_time(fl, iv->end);
	put_us(sb, iv->end - iv->begin, 15);
	strbuf_puts(sb, "  ");
	if (t) {
		mark = sb->len;
		strbuf_printf(sb, "%s (%" PRId64 ")", t->comm, t->tid);
		while (sb->len < mark + 24)
			strbuf_puts(sb, " ");
		strbuf_puts(sb, " ");
	}
	strbuf_printf(sb, "%-8s ", kflow_state_name(iv->state));
	put_detail(fl, iv);
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = 0;
	strbuf_puts(sb, "\n");
	if (sb->buf)
		fputs(sb->buf, fl->run->out);
}

/* One interval as a JSON object (no newline). */
static void json_interval(struct flow *fl, const struct kflow_thread *t,
			  const struct kflow_interval *iv)
{
	struct strbuf *sb = &fl->sb;
	const char *reason = kflow_reason_name(iv->reason);

	strbuf_printf(sb,
		      "{\"tid\": %" PRId64 ", \"begin\": %" PRId64 ", \"end\": %" PRId64
		      ", \"state\": \"%s\"",
		      t->tid, iv->begin, iv->end, kflow_state_name(iv->state));
	if (iv->cpu >= 0)
		strbuf_printf(sb, ", \"cpu\": %d", iv->cpu);
	if (iv->syscall) {
		strbuf_puts(sb, ", \"syscall\": ");
		an_json_string(sb, iv->syscall);
	}
	if (iv->state == KFLOW_IRQ)
		strbuf_printf(sb, ", \"irq\": %d", iv->irq);
	if (iv->state == KFLOW_SOFTIRQ)
		strbuf_printf(sb, ", \"softirq\": %d", iv->irq);
	if (reason)
		strbuf_printf(sb, ", \"reason\": \"%s\"", reason);
	if (iv->reason == KFLOW_R_WOKEN && iv->waker > 0)
		strbuf_printf(sb, ", \"waker\": %" PRId64, iv->waker);
	strbuf_puts(sb, "}");
}

static struct fl_row *row_of(struct flow *fl, struct kflow_thread *t)
{
	if (t->slot == AN_IDMAP_NONE) {
		if (fl->nrows == fl->cap_rows) {
			size_t cap = fl->cap_rows ? fl->cap_rows * 2 : 64;
			struct fl_row *v = realloc(fl->rows, cap * sizeof(*v));

			if (!v) {
				fl->failed = 1;
				return NULL;
			}
			fl->rows = v;
			fl->cap_rows = cap;
		}
		memset(&fl->rows[fl->nrows], 0, sizeof(fl->rows[0]));
		fl->rows[fl->nrows].t = t;
		t->slot = (uint32_t)fl->nrows++;
	}
	return &fl->rows[t->slot];
}

static void on_interval(void *ctx, const struct kflow_thread *ct, const struct kflow_interval *iv)
{
	struct flow *fl = ctx;
	struct kflow_thread *t = (struct kflow_thread *)ct; /* (its slot is ours) */

	if (!an_ids_pass(fl->run, t->tid, t->pid, t->comm))
		return;
	if (t->slot == AN_IDMAP_NONE)
		fl->nthreads++;
	if (fl->group) {
		struct fl_row *r = row_of(fl, t);

		if (!r)
			return;
		if (r->n == r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 16;
			struct kflow_interval *v = realloc(r->iv, cap * sizeof(*v));

			if (!v) {
				fl->failed = 1;
				return;
			}
			r->iv = v;
			r->cap = cap;
		}
		r->iv[r->n++] = *iv;
		fl->printed++;
		return;
	}
	t->slot = 0; /* seen: listed in the JSON's threads */
	if (fl->json) {
		strbuf_reset(&fl->sb);
		if (fl->printed)
			strbuf_puts(&fl->sb, ",\n");
		json_interval(fl, t, iv);
		if (fl->sb.buf)
			fputs(fl->sb.buf, fl->run->out);
	} else {
		if (!fl->printed)
			fprintf(fl->run->out, "%-*s %-*s %14s  %-24s %-8s %s\n", fl->date ? 29 : 18,
				"Begin", fl->date ? 29 : 18, "End", "Duration (us)", "Thread",
				"State", "Detail");
		text_line(fl, t, iv);
	}
	fl->printed++;
}

static int on_event(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	struct flow *fl = an;

	if (!fl->started && fl->run->started) {
		fl->started = 1;
		kflow_start(&fl->kf, fl->run->period_begin);
		if (fl->json && !fl->group)
			fputs("{\"analysis\": \"flow\", \"intervals\": [\n", fl->run->out);
	}
	return kflow_event(&fl->kf, ev, c, ts) || fl->failed ? -1 : 0;
}

/* Does the range span several days (the times then print with their date)? */
static int multi_day(const struct an_run *run)
{
	char a[64], b[64];

	if (!run->bounds.has_bounds)
		return 0;
	an_format_time(a, sizeof(a), run->bounds.begin, 1, run->o->gmt);
	an_format_time(b, sizeof(b), run->bounds.end, 1, run->o->gmt);
	return strncmp(a, b, 10) != 0;
}

static void *create(struct an_run *run)
{
	struct flow *fl = calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	fl->run = run;
	fl->json = run->o->json;
	fl->group = run->o->group;
	fl->date = multi_day(run);
	fl->tsec = -1;
	strbuf_init(&fl->sb);
	kflow_init(&fl->kf, on_interval, fl);
	return fl;
}

static void destroy(void *an)
{
	struct flow *fl = an;

	for (size_t i = 0; i < fl->nrows; i++)
		free(fl->rows[i].iv);
	free(fl->rows);
	kflow_free(&fl->kf);
	strbuf_free(&fl->sb);
	free(fl);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct fl_row *x = a, *y = b;

	return x->t->tid < y->t->tid ? -1 : x->t->tid > y->t->tid;
}

static void json_thread(struct flow *fl, const struct kflow_thread *t)
{
	struct strbuf *sb = &fl->sb;

	strbuf_printf(sb, "{\"tid\": %" PRId64 ", ", t->tid);
	if (t->pid >= 0)
		strbuf_printf(sb, "\"pid\": %" PRId64 ", ", t->pid);
	strbuf_puts(sb, "\"name\": ");
	an_json_string(sb, t->comm);
}

static void json_range(struct flow *fl, int64_t begin, int64_t end)
{
	fprintf(fl->run->out, "\"time-range\": {\"begin\": %" PRId64 ", \"end\": %" PRId64 "}}\n",
		begin, end);
}

static int report(void *an)
{
	struct flow *fl = an;
	struct an_run *run = fl->run;
	FILE *out = run->out;
	int64_t begin = run->period_begin, end = run->last_ts;

	if (!run->started) {
		if (fl->json)
			fputs("{\"analysis\": \"flow\", \"intervals\": [], \"threads\": []}\n", out);
		else
			fputs("No event in the time range.\n", out);
		return AN_OK;
	}
	kflow_finish(&fl->kf, end);
	if (fl->failed || fl->kf.failed || fl->sb.failed) {
		snprintf(run->err, run->errlen, "out of memory");
		return AN_FAIL;
	}
	if (!fl->group) {
		if (fl->json) {
			int first = 1;

			fputs("\n], \"threads\": [", out);
			for (size_t i = 0; i < kflow_thread_count(&fl->kf); i++) {
				const struct kflow_thread *t = kflow_thread_at(&fl->kf, i);

				if (t->slot == AN_IDMAP_NONE)
					continue;
				strbuf_reset(&fl->sb);
				if (!first)
					strbuf_puts(&fl->sb, ", ");
				first = 0;
				json_thread(fl, t);
				strbuf_puts(&fl->sb, "}");
				if (fl->sb.buf)
					fputs(fl->sb.buf, out);
			}
			fputs("], ", out);
			json_range(fl, begin, end);
		} else {
			fputc('\n', out);
			an_print_timerange(run, begin, end);
			fprintf(out, "%" PRIu64 " intervals of %zu threads\n", fl->printed,
				fl->nthreads);
		}
		return fl->sb.failed ? AN_FAIL : AN_OK;
	}
	/* --group: per thread, by tid */
	if (fl->nrows > 1)
		qsort(fl->rows, fl->nrows, sizeof(*fl->rows), cmp_rows);
	if (fl->json)
		fputs("{\"analysis\": \"flow\", \"threads\": [", out);
	else
		an_print_timerange(run, begin, end);
	for (size_t i = 0; i < fl->nrows; i++) {
		const struct fl_row *r = &fl->rows[i];

		if (fl->json) {
			strbuf_reset(&fl->sb);
			if (i)
				strbuf_puts(&fl->sb, ",\n");
			else
				strbuf_puts(&fl->sb, "\n");
			json_thread(fl, r->t);
			strbuf_puts(&fl->sb, ", \"intervals\": [");
			for (size_t k = 0; k < r->n; k++) {
				if (k)
					strbuf_puts(&fl->sb, ",\n");
				else
					strbuf_puts(&fl->sb, "\n");
				json_interval(fl, r->t, &r->iv[k]);
			}
			strbuf_puts(&fl->sb, "]}");
			if (fl->sb.buf)
				fputs(fl->sb.buf, out);
			continue;
		}
		fprintf(out, "\n%s (tid %" PRId64, r->t->comm, r->t->tid);
		if (r->t->pid >= 0)
			fprintf(out, ", pid %" PRId64, r->t->pid);
		fprintf(out, "): %zu intervals\n", r->n);
		for (size_t k = 0; k < r->n; k++)
			text_line(fl, NULL, &r->iv[k]);
	}
	if (fl->json) {
		fputs("\n], ", out);
		json_range(fl, begin, end);
	}
	if (fl->sb.failed) {
		snprintf(run->err, run->errlen, "out of memory");
		return AN_FAIL;
	}
	return AN_OK;
}

const struct an_def an_flow_def = {
    .name = "flow",
    .summary = "per thread, its states over time (LTTV's control flow view)",
    .needs = 1u << KEV_SCHED_SWITCH,
    .needs_names = "sched_switch",
    .record_hint = "trax enable-event -k sched_switch,sched_waking,sched_wakeup,"
		   "sched_wakeup_new,sched_process_fork,sched_process_exit,sched_process_free,"
		   "irq_handler_entry,irq_handler_exit,irq_softirq_entry,irq_softirq_exit,"
		   "lttng_statedump_process_state; trax enable-event -k --syscall --all",
    .create = create,
    .destroy = destroy,
    .event = on_event,
    .before = 1,
    .report = report,
};
