/*
 * an-irqstats.c - `trax analyze irqstats`: per hard IRQ and per soft IRQ
 * vector, how many ran and how long (and for soft IRQs, the latency from
 * the raise to the run), as lttng-irqstats 0.6.1 computes and prints them
 * (docs/analyses-reference.md section 6), with lttng-irqfreq's
 * distributions of the handlers' durations (--freq) and lttng-irqlog's
 * list of every handler run (--log).
 *
 * One deliberate difference: lttng-analyses looks for soft IRQs under
 * names LTTng never writes (softirq_*, not irq_softirq_*) and so never
 * shows them on LTTng traces; trax reads both (kirq.h) and shows them.
 * The hard IRQ numbers are lttng-irqstats'.
 *
 * Memory: a row per IRQ number and per vector (and the distinct names of
 * each IRQ); --freq and --log keep every handler run in a spool (spool.h:
 * bounded memory, the rest on disk).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/durstats.h"
#include "analysis/freqdist.h"
#include "analysis/pyfmt.h"
#include "analysis/spool.h"
#include "analysis/table.h"

/* A handler run, kept for --freq and --log (lttng-analyses' irq_list), in order of its end. */
struct iq_run {
	int64_t begin, end, raise_ts, nr;
	int32_t cpu;
	uint8_t hard, raised;
};

struct iq_row {
	int hard;
	int64_t nr;
	struct strbuf names; /* hard: every distinct name, ", "-separated */
	const char *last;    /* the last name added (in names) */
	size_t last_len;
	struct an_durstats dur;
	struct an_durstats raise; /* soft: raise to entry */
};

struct irqstats {
	struct an_run *run;
	struct iq_row *rows;
	size_t nrows, cap;
	struct an_idmap index; /* (hard << 63 | nr) -> row */
	double min_ns, max_ns;
	struct an_spool *runs; /* --freq, --log: iq_run */
	int failed;
};

static uint64_t key_of(int hard, int64_t nr)
{
	return ((uint64_t)hard << 63) ^ (uint64_t)nr;
}

static struct iq_row *row_get(struct irqstats *is, int hard, int64_t nr, int *created)
{
	uint32_t i = an_idmap_get(&is->index, key_of(hard, nr));
	struct iq_row *r;

	*created = 0;
	if (i != AN_IDMAP_NONE)
		return &is->rows[i];
	if (is->nrows == is->cap) {
		size_t cap = is->cap ? is->cap * 2 : 32;
		struct iq_row *v = realloc(is->rows, cap * sizeof(*v));

		if (!v)
			goto oom;
		is->rows = v;
		is->cap = cap;
	}
	if (an_idmap_put(&is->index, key_of(hard, nr), (uint32_t)is->nrows))
		goto oom;
	r = &is->rows[is->nrows++];
	memset(r, 0, sizeof(*r));
	r->hard = hard;
	r->nr = nr;
	strbuf_init(&r->names);
	an_durstats_init(&r->dur);
	an_durstats_init(&r->raise);
	*created = 1;
	return r;
oom:
	is->failed = 1;
	return NULL;
}

/* Adds name to a hard IRQ's names unless it has it already. */
static void add_name(struct irqstats *is, struct iq_row *r, const char *name)
{
	size_t len = strlen(name), start;
	const char *p;

	/* most IRQs keep one name: the last one first, then the whole list */
	if (r->last && r->last_len == len && !memcmp(r->last, name, len))
		return;
	for (p = r->names.buf; p && *p;) {
		const char *sep = strstr(p, ", ");
		size_t n = sep ? (size_t)(sep - p) : strlen(p);

		/* (a name holding ", " is found only whole: lttng-analyses keeps a list) */
		if (n == len && !memcmp(p, name, len))
			return;
		p = sep ? sep + 2 : p + n;
	}
	if (r->names.len)
		strbuf_puts(&r->names, ", ");
	start = r->names.len;
	strbuf_puts(&r->names, name);
	if (r->names.failed) {
		is->failed = 1;
		return;
	}
	r->last = r->names.buf + start;
	r->last_len = len;
}

static void on_irq_entry(void *ctx, int64_t irq, const char *name)
{
	struct irqstats *is = ctx;
	int created;
	struct iq_row *r = row_get(is, 1, irq, &created);

	if (r)
		add_name(is, r, name);
}

static void keep(struct irqstats *is, int hard, int64_t nr, int64_t cpu, int64_t begin, int64_t end,
		 int raised, int64_t raise_ts)
{
	struct iq_run x;

	if (!is->runs)
		return;
	memset(&x, 0, sizeof(x));
	x.begin = begin;
	x.end = end;
	x.raise_ts = raise_ts;
	x.nr = nr;
	x.cpu = (int32_t)cpu;
	x.hard = (uint8_t)hard;
	x.raised = (uint8_t)raised;
	if (an_spool_add(is->runs, &x)) {
		is->failed = 1;
		snprintf(is->run->err, is->run->errlen, "%s", an_spool_error(is->runs));
	}
}

static int duration_passes(struct irqstats *is, int64_t d)
{
	const struct an_options *o = is->run->o;

	return !(o->has_min && (double)d < is->min_ns) && !(o->has_max && (double)d > is->max_ns);
}

static void on_irq_exit(void *ctx, const struct kirq_hard *h)
{
	struct irqstats *is = ctx;
	int64_t d = h->end - h->begin;
	struct iq_row *r;
	int created;

	if (!an_cpu_passes(is->run, h->cpu) || !duration_passes(is, d))
		return;
	if (!(r = row_get(is, 1, h->irq, &created)))
		return;
	if (created)
		add_name(is, r, "unknown"); /* its entry was before the period */
	an_durstats_add(&r->dur, d);
	keep(is, 1, h->irq, h->cpu, h->begin, h->end, 0, 0);
}

static void on_softirq_exit(void *ctx, const struct kirq_soft *x)
{
	struct irqstats *is = ctx;
	int64_t d = x->end - x->begin;
	struct iq_row *r;
	int created;

	if (!an_cpu_passes(is->run, x->cpu) || !duration_passes(is, d))
		return;
	if (!(r = row_get(is, 0, x->vec, &created)))
		return;
	an_durstats_add(&r->dur, d);
	if (x->raised)
		an_durstats_add(&r->raise, x->begin - x->raise_ts);
	keep(is, 0, x->vec, x->cpu, x->begin, x->end, x->raised, x->raise_ts);
}

static const struct kstate_hooks hooks = {
    .irq_entry = on_irq_entry,
    .irq_exit = on_irq_exit,
    .softirq_exit = on_softirq_exit,
};

static void *create(struct an_run *run)
{
	struct irqstats *is = calloc(1, sizeof(*is));

	if (is) {
		is->run = run;
		an_idmap_init(&is->index);
		is->min_ns = run->o->min_us * 1000;
		is->max_ns = run->o->max_us * 1000;
		if ((run->o->freq || run->o->log) &&
		    !(is->runs = an_spool_new(sizeof(struct iq_run), NULL))) {
			free(is);
			return NULL;
		}
	}
	return is;
}

static void destroy(void *an)
{
	struct irqstats *is = an;

	for (size_t i = 0; i < is->nrows; i++)
		strbuf_free(&is->rows[i].names);
	free(is->rows);
	an_idmap_free(&is->index);
	an_spool_free(is->runs);
	free(is);
}

static int cmp_row(const void *a, const void *b)
{
	const struct iq_row *x = *(const struct iq_row *const *)a;
	const struct iq_row *y = *(const struct iq_row *const *)b;

	if (x->hard != y->hard)
		return y->hard - x->hard; /* hard IRQs first */
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static int listed(const struct an_int_list *l, int64_t v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return 1;
	return 0;
}

/* --irq / --softirq: which rows are shown (lttng-irqstats' rules) */
static int row_shown(const struct an_options *o, const struct iq_row *r)
{
	if (!r->dur.count)
		return 0;
	if (r->hard) {
		if (!o->has_irqs && o->has_softirqs)
			return 0;
		return !o->has_irqs || listed(&o->irqs, r->nr);
	}
	if (!o->has_softirqs && o->has_irqs)
		return 0;
	return !o->has_softirqs || listed(&o->softirqs, r->nr);
}

static void mi_durstats(struct an_mi *mi, const struct an_durstats *d)
{
	double sd;

	an_mi_number(mi, "duration", d->min);
	an_mi_float(mi, "duration", an_durstats_avg(d));
	an_mi_number(mi, "duration", d->max);
	if (an_durstats_stdev(d, &sd))
		an_mi_unknown(mi);
	else
		an_mi_float(mi, "duration", sd);
}

/* The four durations as text (µs), right-aligned in 12 columns, each after a space. */
static void text_durstats(struct strbuf *sb, const struct an_durstats *d)
{
	char b[4][48];
	double sd;

	snprintf(b[0], sizeof(b[0]), "%0.03f", (double)d->min / 1000);
	snprintf(b[1], sizeof(b[1]), "%0.03f", an_durstats_avg(d) / 1000);
	snprintf(b[2], sizeof(b[2]), "%0.03f", (double)d->max / 1000);
	if (an_durstats_stdev(d, &sd))
		snprintf(b[3], sizeof(b[3]), "?");
	else
		snprintf(b[3], sizeof(b[3]), "%0.03f", sd / 1000);
	for (int i = 0; i < 4; i++) {
		strbuf_puts(sb, " ");
		an_pad_right(sb, b[i], 12);
	}
}

static const char hard_header[] =
    "Hard IRQ                                             Duration (us)\n"
    "                       count          min          avg          max        stdev       \n"
    "----------------------------------------------------------------------------------|\n";
static const char soft_header[] =
    "Soft IRQ                                             Duration (us)                        "
    "                Raise latency (us)\n"
    "                       count          min          avg          max        stdev  |  "
    "count          min          avg          max        stdev       \n"
    "----------------------------------------------------------------------------------|------"
    "------------------------------------------------------\n";

static void text_row(struct strbuf *sb, const struct iq_row *r)
{
	char nr[32], count[32];
	const char *name = r->hard ? r->names.buf : kirq_soft_name(r->nr);

	snprintf(nr, sizeof(nr), "%lld:", (long long)r->nr);
	snprintf(count, sizeof(count), "%llu", (unsigned long long)r->dur.count);
	an_pad_left(sb, nr, 3);
	strbuf_puts(sb, " <");
	strbuf_puts(sb, name ? name : "");
	strbuf_puts(sb, ">");
	{
		size_t w = an_text_width(name ? name : "") + 2;

		for (; w < 18; w++)
			strbuf_puts(sb, " ");
	}
	strbuf_puts(sb, " ");
	an_pad_right(sb, count, 5);
	text_durstats(sb, &r->dur);
	strbuf_puts(sb, "  |");
	if (!r->hard && r->raise.count) {
		snprintf(count, sizeof(count), "%llu", (unsigned long long)r->raise.count);
		strbuf_puts(sb, " ");
		an_pad_right(sb, count, 6);
		text_durstats(sb, &r->raise);
	}
	strbuf_puts(sb, "\n");
}

/* lttng-irqlog's filter (_filter_irq): --irq/--softirq, as for the rows */
static int run_shown(const struct an_options *o, const struct iq_run *x)
{
	if (x->hard) {
		if (o->has_irqs)
			return listed(&o->irqs, x->nr);
		return !o->has_softirqs;
	}
	if (o->has_softirqs)
		return listed(&o->softirqs, x->nr);
	return !o->has_irqs;
}

static const char *row_name(const struct iq_row *r)
{
	if (!r->hard)
		return kirq_soft_name(r->nr);
	return r->names.buf ? r->names.buf : "";
}

/* One handler run of the log, as text (sb) or an MI row. */
static void log_row(struct irqstats *is, const struct iq_run *x, struct an_mi *mi,
		    struct strbuf *sb, int md)
{
	const struct an_run *run = is->run;
	uint32_t i = an_idmap_get(&is->index, key_of(x->hard, x->nr));
	const char *name = i == AN_IDMAP_NONE ? "" : row_name(&is->rows[i]);
	char a[64], b[64], t[64], v[48];

	if (mi) {
		char range[160];

		snprintf(range, sizeof(range),
			 "{\"class\": \"time-range\", \"begin\": {\"class\": \"timestamp\", "
			 "\"value\": %lld}, \"end\": {\"class\": \"timestamp\", \"value\": %lld}}",
			 (long long)x->begin, (long long)x->end);
		an_mi_row(mi);
		an_mi_raw(mi, range);
		if (x->hard)
			an_mi_null(mi);
		else if (!x->raised)
			an_mi_unknown(mi);
		else
			an_mi_number(mi, "timestamp", x->raise_ts);
		an_mi_cpu(mi, x->cpu);
		an_mi_irq(mi, x->hard, x->nr, name);
		an_mi_row_end(mi);
		return;
	}
	/* '[{:<18}, {:<18}] {:>15} {:>4}  {:<9} {:>4}  {:<22}' */
	strbuf_puts(sb, "[");
	an_pad_left(sb, an_format_time(a, sizeof(a), x->begin, md, run->o->gmt), 18);
	strbuf_puts(sb, ", ");
	an_pad_left(sb, an_format_time(b, sizeof(b), x->end, md, run->o->gmt), 18);
	strbuf_puts(sb, "] ");
	snprintf(v, sizeof(v), "%0.03f", (double)(x->end - x->begin) / 1000);
	an_pad_right(sb, v, 15);
	strbuf_puts(sb, " ");
	snprintf(v, sizeof(v), "%d", x->cpu);
	an_pad_right(sb, v, 4);
	strbuf_puts(sb, "  ");
	an_pad_left(sb, x->hard ? "IRQ" : "SoftIRQ", 9);
	strbuf_puts(sb, " ");
	snprintf(v, sizeof(v), "%lld", (long long)x->nr);
	an_pad_right(sb, v, 4);
	strbuf_puts(sb, "  ");
	if (!x->hard && x->raised) {
		struct strbuf n;

		strbuf_init(&n);
		strbuf_printf(&n, "%s (raised at %s)", name,
			      an_format_time(t, sizeof(t), x->raise_ts, md, run->o->gmt));
		an_pad_left(sb, n.buf ? n.buf : "", 22);
		if (n.failed)
			sb->failed = 1;
		strbuf_free(&n);
	} else
		an_pad_left(sb, name, 22);
	strbuf_puts(sb, "\n");
}

/* The log (lttng-irqlog): every handler run in order of its end; text written as it grows. */
static int report_log(struct irqstats *is, struct an_mi *mi, struct strbuf *sb, int64_t begin,
		      int64_t end)
{
	const struct an_options *o = is->run->o;
	const struct iq_run *x;
	int md = an_multi_day(is->run);

	if (an_spool_rewind(is->runs))
		return -1;
	if (mi)
		an_mi_table(mi, "log", NULL, begin, end);
	else
		an_pyfmt(sb, "{:<20} {:<19} {:>15} {:>4}  {:<9} {:>4}  {:<22}\n", "Begin", "End",
			 "Duration (us)", "CPU", "Type", "#", "Name");
	while ((x = an_spool_next(is->runs))) {
		if (!run_shown(o, x))
			continue;
		log_row(is, x, mi, sb, md);
		if (sb && sb->len >= 65536 && !sb->failed) {
			fwrite(sb->buf, 1, sb->len, is->run->out);
			strbuf_reset(sb);
		}
	}
	if (mi)
		an_mi_table_end(mi);
	return *an_spool_error(is->runs) ? -1 : 0;
}

/*
 * The distributions of the shown rows' durations (lttng-irqfreq), in
 * fq[] by row (ok[]: has one), from one pass over the runs: 0, -1 on error.
 */
static int fill_freqs(struct irqstats *is, struct iq_row **order, size_t n, struct an_freq *fq,
		      char *ok)
{
	const struct iq_run *x;

	for (size_t i = 0; i < n; i++) {
		size_t k = (size_t)(order[i] - is->rows);

		ok[k] = !an_freq_init(&fq[k], is->run->o, order[i]->dur.min, order[i]->dur.max);
	}
	if (an_spool_rewind(is->runs))
		return -1;
	while ((x = an_spool_next(is->runs))) {
		uint32_t k = an_idmap_get(&is->index, key_of(x->hard, x->nr));

		if (k != AN_IDMAP_NONE && ok[k])
			an_freq_add(&fq[k], x->end - x->begin);
	}
	return *an_spool_error(is->runs) ? -1 : 0;
}

/* '{} ({})'.format(irq_stats.name, id), in a title */
static void freq_title(char *buf, size_t len, const char *fmt, const struct iq_row *r)
{
	char sub[512];

	snprintf(sub, sizeof(sub), "%s (%lld)", row_name(r), (long long)r->nr);
	snprintf(buf, len, fmt, sub);
}

static void mi_stats(struct an_mi *mi, struct iq_row **order, size_t n, size_t nhard, int64_t begin,
		     int64_t end)
{
	for (int hard = 1; hard >= 0; hard--) {
		an_mi_table(mi, hard ? "hard-stats" : "soft-stats", NULL, begin, end);
		for (size_t i = hard ? 0 : nhard; i < (hard ? nhard : n); i++) {
			const struct iq_row *r = order[i];

			an_mi_row(mi);
			an_mi_irq(mi, hard, r->nr, row_name(r));
			an_mi_number(mi, "number", (int64_t)r->dur.count);
			mi_durstats(mi, &r->dur);
			if (!hard) {
				an_mi_number(mi, "number", (int64_t)r->raise.count);
				if (r->raise.count)
					mi_durstats(mi, &r->raise);
				else
					for (int k = 0; k < 4; k++)
						an_mi_unknown(mi);
			}
			an_mi_row_end(mi);
		}
		an_mi_table_end(mi);
	}
}

/* The statistics and distributions as text, as _print_stats_freq() prints them. */
static void text_stats_freq(struct irqstats *is, struct strbuf *sb, struct iq_row **order, size_t n,
			    size_t nhard, int stats, const struct an_freq *fq, const char *ok)
{
	char title[600];

	for (size_t i = 0; i < n && is->run->o->freq; i++) {
		size_t k = (size_t)(order[i] - is->rows);

		/* with the statistics: a header for each row, its distribution, an empty line */
		if (stats) {
			strbuf_puts(sb, order[i]->hard ? hard_header : soft_header);
			text_row(sb, order[i]);
		}
		if (ok[k]) {
			strbuf_puts(sb, "\n");
			freq_title(title, sizeof(title),
				   "Handler duration frequency distribution %s", order[i]);
			an_freq_text(sb, title, &fq[k]);
		}
		if (stats)
			strbuf_puts(sb, "\n");
	}
	if (is->run->o->freq)
		return;
	if (nhard)
		strbuf_puts(sb, hard_header);
	for (size_t i = 0; i < nhard; i++)
		text_row(sb, order[i]);
	if (n > nhard) {
		if (nhard)
			strbuf_puts(sb, "\n");
		strbuf_puts(sb, soft_header);
	}
	for (size_t i = nhard; i < n; i++)
		text_row(sb, order[i]);
}

static int report(void *an)
{
	struct irqstats *is = an;
	struct an_run *run = is->run;
	const struct an_options *o = run->o;
	int64_t begin = run->period_begin, end = run->last_ts;
	/* --stats, or neither --freq nor --log (lttng-irqstats, -irqfreq, -irqlog) */
	int stats = o->stats || !(o->freq || o->log);
	struct iq_row **order = NULL;
	struct an_freq *fq = NULL;
	char *ok = NULL, title[600];
	size_t n = 0, nhard = 0;
	struct strbuf sb;
	int status = AN_OK;

	if (is->failed)
		goto oom;
	if (!run->started) {
		if (o->json)
			fputs("{\"results\": []}\n", run->out);
		return AN_OK;
	}
	if (!(order = malloc((is->nrows + 1) * sizeof(*order))) ||
	    !(fq = calloc(is->nrows + 1, sizeof(*fq))) || !(ok = calloc(is->nrows + 1, 1))) {
		free(order);
		free(fq);
		goto oom;
	}
	for (size_t i = 0; i < is->nrows; i++)
		if (row_shown(o, &is->rows[i]))
			order[n++] = &is->rows[i];
	qsort(order, n, sizeof(*order), cmp_row);
	while (nhard < n && order[nhard]->hard)
		nhard++;
	strbuf_init(&sb);
	if (o->freq && fill_freqs(is, order, n, fq, ok))
		goto fail;

	if (o->json) {
		struct an_mi mi;

		/* lttng-analyses' MI order: the log, the statistics, the distributions */
		an_mi_begin(&mi, run->out);
		if (o->log && report_log(is, &mi, NULL, begin, end)) {
			an_mi_end(&mi);
			goto fail;
		}
		if (stats)
			mi_stats(&mi, order, n, nhard, begin, end);
		for (size_t i = 0; i < n && o->freq; i++) {
			size_t k = (size_t)(order[i] - is->rows);

			if (!ok[k])
				continue;
			freq_title(title, sizeof(title),
				   "Interrupt handler duration frequency distribution [%s]",
				   order[i]);
			an_freq_mi(&mi, title, &fq[k], begin, end);
		}
		if (an_mi_end(&mi))
			goto fail;
		goto done;
	}

	an_print_timerange(run, begin, end);
	if (stats || o->freq)
		text_stats_freq(is, &sb, order, n, nhard, stats, fq, ok);
	if (o->log && (stats || o->freq))
		strbuf_puts(&sb, "\n");
	if (o->log && report_log(is, NULL, &sb, begin, end))
		goto fail;
	if (sb.failed)
		goto fail;
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, run->out);
	goto done;
fail:
	status = AN_FAIL;
	if (is->runs && *an_spool_error(is->runs))
		snprintf(run->err, run->errlen, "%s", an_spool_error(is->runs));
	else
		snprintf(run->err, run->errlen, "out of memory");
done:
	strbuf_free(&sb);
	free(order);
	free(fq);
	free(ok);
	return status;
oom:
	if (!run->err[0])
		snprintf(run->err, run->errlen, "out of memory");
	return AN_FAIL;
}

const struct an_def an_irqstats_def = {
    .name = "irqstats",
    .summary = "hard and soft IRQs: counts, durations, raise latencies (as lttng-irqstats)",
    .needs = (1u << KEV_IRQ_ENTRY) | (1u << KEV_IRQ_EXIT) | (1u << KEV_SOFTIRQ_ENTRY) |
	     (1u << KEV_SOFTIRQ_EXIT) | (1u << KEV_LTTNG_SOFTIRQ_ENTRY) |
	     (1u << KEV_LTTNG_SOFTIRQ_EXIT),
    .needs_names = "irq_handler_entry/exit or irq_softirq_entry/exit",
    .record_hint = "trax enable-event -k irq_handler_entry,irq_handler_exit,"
		   "irq_softirq_raise,irq_softirq_entry,irq_softirq_exit",
    .hooks = &hooks,
    .create = create,
    .destroy = destroy,
    .report = report,
};
