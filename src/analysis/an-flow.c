/*
 * an-flow.c - `trax analyze flow`: per thread, the sequence of its states
 * over time as LTTV's control-flow view computed them (kflow.h), one line
 * (or JSON object) per interval. By default each interval is printed when
 * it closes, so memory does not grow with the trace; --group keeps them in
 * a spool (spool.h: bounded memory, the rest on disk) sorted by thread to
 * print them per thread. Formats of trax's own: docs/analyses.md, "flow".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/kflow.h"
#include "analysis/spool.h"
#include "analysis/table.h"

/* A thread with intervals, with --group. */
struct fl_row {
	const struct kflow_thread *t;
	size_t n; /* its intervals */
};

/* An interval kept with --group: printed by tid, then row, then in order of closing. */
struct fl_kept {
	int64_t tid;
	uint64_t row, seq;
	struct kflow_interval iv;
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
	struct an_spool *kept; /* --group: fl_kept */
	struct strbuf sb;      /* a line */
	int64_t tsec;	       /* the second whose text is in tbuf */
	char tbuf[64];
	size_t tlen;
	int failed;
};

/* (per interval: digits written by hand, printf's parsing costs more than the rest) */
static void put_int(struct strbuf *sb, int64_t v)
{
	char b[24], *p = b + sizeof(b);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		*--p = '-';
	strbuf_add(sb, p, (size_t)(b + sizeof(b) - p));
}

/* v with exactly n digits (leading zeros). */
static void put_digits(char *p, uint64_t v, int n)
{
	while (n--) {
		p[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

static void put_spaces(struct strbuf *sb, size_t n)
{
	static const char sp[] = "                                ";

	while (n) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;

		strbuf_add(sb, sp, k);
		n -= k;
	}
}

/* A time as lttng-analyses prints it, the second's text computed once per second. */
static void put_time(struct flow *fl, int64_t ns)
{
	int64_t s = ns / 1000000000, r = ns % 1000000000;
	char frac[10];

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
		fl->tlen = strlen(fl->tbuf);
	}
	strbuf_add(&fl->sb, fl->tbuf, fl->tlen);
	frac[0] = '.';
	put_digits(frac + 1, (uint64_t)r, 9);
	strbuf_add(&fl->sb, frac, 10);
}

/* Nanoseconds (>= 0) as microseconds with 3 decimals, right-aligned in width, exactly. */
static void put_us(struct strbuf *sb, int64_t ns, int width)
{
	char b[40], *p = b + sizeof(b) - 4;
	uint64_t u = (uint64_t)ns / 1000;
	size_t n;

	p[0] = '.';
	put_digits(p + 1, (uint64_t)ns % 1000, 3);
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10));
	n = (size_t)(b + sizeof(b) - p);
	if ((size_t)width > n)
		put_spaces(sb, (size_t)width - n);
	strbuf_add(sb, p, n);
}

static void put_detail(struct flow *fl, const struct kflow_interval *iv)
{
	struct strbuf *sb = &fl->sb;

	switch (iv->state) {
	case KFLOW_USER:
	case KFLOW_SYSCALL:
	case KFLOW_IRQ:
	case KFLOW_SOFTIRQ:
		strbuf_add(sb, "CPU ", 4);
		put_int(sb, iv->cpu);
		if (iv->state == KFLOW_SYSCALL) {
			strbuf_add(sb, ", ", 2);
			strbuf_puts(sb, iv->syscall);
		} else if (iv->state == KFLOW_IRQ) {
			strbuf_add(sb, ", IRQ ", 6);
			put_int(sb, iv->irq);
		} else if (iv->state == KFLOW_SOFTIRQ) {
			const char *n = kflow_softirq_name(iv->irq);

			strbuf_add(sb, ", softirq ", 10);
			put_int(sb, iv->irq);
			if (n) {
				strbuf_add(sb, " ", 1);
				strbuf_puts(sb, n);
			}
		}
		if (iv->state >= KFLOW_IRQ && iv->syscall) {
			strbuf_add(sb, " (in ", 5);
			strbuf_puts(sb, iv->syscall);
			strbuf_add(sb, ")", 1);
		}
		break;
	case KFLOW_RUNNABLE:
		if (iv->reason == KFLOW_R_WOKEN) {
			const struct kflow_thread *w =
			    iv->waker > 0 ? kflow_thread(&fl->kf, iv->waker) : NULL;

			strbuf_add(sb, "woken", 5);
			if (w) {
				strbuf_add(sb, " by ", 4);
				strbuf_puts(sb, w->comm);
				strbuf_add(sb, " (", 2);
				put_int(sb, w->tid);
				strbuf_add(sb, ")", 1);
			}
		} else if (iv->reason == KFLOW_R_PREEMPTED) {
			strbuf_puts(sb, "preempted from CPU ");
			put_int(sb, iv->cpu);
		} else if (iv->reason == KFLOW_R_FORKED)
			strbuf_puts(sb, "forked");
		else if (iv->reason == KFLOW_R_STATEDUMP)
			strbuf_puts(sb, "state dump");
		break;
	case KFLOW_BLOCKED:
		if (iv->syscall) {
			strbuf_add(sb, "in ", 3);
			strbuf_puts(sb, iv->syscall);
		} else if (iv->reason == KFLOW_R_STATEDUMP)
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
	const char *state = kflow_state_name(iv->state);
	size_t mark, n;

	strbuf_reset(sb);
	if (fl->group)
		strbuf_add(sb, "  ", 2);
	put_time(fl, iv->begin);
	strbuf_add(sb, " ", 1);
	put_time(fl, iv->end);
	put_us(sb, iv->end - iv->begin, 15);
	strbuf_add(sb, "  ", 2);
	if (t) {
		mark = sb->len;
		strbuf_puts(sb, t->comm);
		strbuf_add(sb, " (", 2);
		put_int(sb, t->tid);
		strbuf_add(sb, ")", 1);
		put_spaces(sb, sb->len < mark + 24 ? mark + 24 - sb->len : 0);
		strbuf_add(sb, " ", 1);
	}
	mark = sb->len;
	n = strlen(state);
	strbuf_add(sb, state, n);
	put_spaces(sb, n < 9 ? 9 - n : 1);
	put_detail(fl, iv);
	/* no trailing blank when there is no detail */
	if (sb->len == mark + (n < 9 ? 9 : n + 1))
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->buf[--sb->len] = 0;
	strbuf_add(sb, "\n", 1);
	if (sb->buf)
		fwrite(sb->buf, 1, sb->len, fl->run->out);
}

/* One interval as a JSON object (no newline). */
static void json_interval(struct flow *fl, const struct kflow_thread *t,
			  const struct kflow_interval *iv)
{
	struct strbuf *sb = &fl->sb;
	const char *reason = kflow_reason_name(iv->reason);

	strbuf_add(sb, "{\"tid\": ", 8);
	put_int(sb, t->tid);
	strbuf_add(sb, ", \"begin\": ", 11);
	put_int(sb, iv->begin);
	strbuf_add(sb, ", \"end\": ", 9);
	put_int(sb, iv->end);
	strbuf_add(sb, ", \"state\": \"", 12);
	strbuf_puts(sb, kflow_state_name(iv->state));
	strbuf_add(sb, "\"", 1);
	if (iv->cpu >= 0) {
		strbuf_add(sb, ", \"cpu\": ", 9);
		put_int(sb, iv->cpu);
	}
	if (iv->syscall) {
		strbuf_add(sb, ", \"syscall\": ", 13);
		an_json_string(sb, iv->syscall);
	}
	if (iv->state == KFLOW_IRQ) {
		strbuf_add(sb, ", \"irq\": ", 9);
		put_int(sb, iv->irq);
	}
	if (iv->state == KFLOW_SOFTIRQ) {
		strbuf_add(sb, ", \"softirq\": ", 13);
		put_int(sb, iv->irq);
	}
	if (reason) {
		strbuf_add(sb, ", \"reason\": \"", 13);
		strbuf_puts(sb, reason);
		strbuf_add(sb, "\"", 1);
	}
	if (iv->reason == KFLOW_R_WOKEN && iv->waker > 0) {
		strbuf_add(sb, ", \"waker\": ", 11);
		put_int(sb, iv->waker);
	}
	strbuf_add(sb, "}", 1);
}

static struct fl_row *row_of(struct flow *fl, struct kflow_thread *t)
{
	if (t->slot == AN_IDMAP_NONE) {
		struct fl_row *v =
		    an_grow(fl->rows, &fl->cap_rows, fl->nrows + 1, sizeof(*v), &fl->failed);

		if (!v)
			return NULL;
		fl->rows = v;
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
		struct fl_kept k;

		if (!r)
			return;
		memset(&k, 0, sizeof(k));
		k.tid = t->tid;
		k.row = t->slot;
		k.seq = fl->printed;
		k.iv = *iv;
		if (an_spool_add(fl->kept, &k)) {
			fl->failed = 1;
			snprintf(fl->run->err, fl->run->errlen, "%s", an_spool_error(fl->kept));
		}
		r->n++;
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
			fwrite(fl->sb.buf, 1, fl->sb.len, fl->run->out);
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

static int cmp_kept(const void *a, const void *b)
{
	const struct fl_kept *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void *create(struct an_run *run)
{
	struct flow *fl = calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	fl->run = run;
	fl->json = run->o->json;
	fl->group = run->o->group;
	fl->date = an_multi_day(run);
	fl->tsec = -1;
	strbuf_init(&fl->sb);
	kflow_init(&fl->kf, on_interval, fl);
	if (fl->group && !(fl->kept = an_spool_new(sizeof(struct fl_kept), cmp_kept))) {
		kflow_free(&fl->kf);
		free(fl);
		return NULL;
	}
	return fl;
}

static void destroy(void *an)
{
	struct flow *fl = an;

	an_spool_free(fl->kept);
	free(fl->rows);
	kflow_free(&fl->kf);
	strbuf_free(&fl->sb);
	free(fl);
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
	const struct fl_row *cur = NULL;

	if (!run->started) {
		if (fl->json)
			fputs("{\"analysis\": \"flow\", \"intervals\": [], \"threads\": []}\n",
			      out);
		else
			fputs("No event in the time range.\n", out);
		return AN_OK;
	}
	kflow_finish(&fl->kf, end);
	if (fl->failed || fl->kf.failed || fl->sb.failed) {
		snprintf(run->err, run->errlen, "%s",
			 fl->kept && *an_spool_error(fl->kept) ? an_spool_error(fl->kept)
							       : "out of memory");
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
	/* --group: per thread, by tid (then in order of appearance), each in order */
	if (fl->json)
		fputs("{\"analysis\": \"flow\", \"threads\": [", out);
	else
		an_print_timerange(run, begin, end);
	if (an_spool_rewind(fl->kept)) {
		snprintf(run->err, run->errlen, "%s", an_spool_error(fl->kept));
		return AN_FAIL;
	}
	for (const struct fl_kept *k; (k = an_spool_next(fl->kept));) {
		const struct fl_row *r = &fl->rows[k->row];
		int first = r != cur;

		if (first && cur && fl->json)
			fputs("]}", out);
		if (first && fl->json) {
			strbuf_reset(&fl->sb);
			strbuf_puts(&fl->sb, cur ? ",\n" : "\n");
			json_thread(fl, r->t);
			strbuf_puts(&fl->sb, ", \"intervals\": [");
		} else if (first) {
			fprintf(out, "\n%s (tid %" PRId64, r->t->comm, r->t->tid);
			if (r->t->pid >= 0)
				fprintf(out, ", pid %" PRId64, r->t->pid);
			fprintf(out, "): %zu intervals\n", r->n);
		}
		cur = r;
		if (!fl->json) {
			text_line(fl, NULL, &k->iv);
			continue;
		}
		if (!first)
			strbuf_reset(&fl->sb);
		strbuf_puts(&fl->sb, first ? "\n" : ",\n");
		json_interval(fl, r->t, &k->iv);
		if (fl->sb.buf)
			fwrite(fl->sb.buf, 1, fl->sb.len, out);
	}
	if (cur && fl->json)
		fputs("]}", out);
	if (*an_spool_error(fl->kept)) {
		snprintf(run->err, run->errlen, "%s", an_spool_error(fl->kept));
		return AN_FAIL;
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
