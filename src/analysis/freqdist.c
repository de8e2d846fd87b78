/*
 * freqdist.c - lttng-analyses' frequency distributions (freqdist.h), its
 * arithmetic in doubles step by step, so that the bounds print the same.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/freqdist.h"

int an_freq_init(struct an_freq *f, const struct an_options *o, int64_t lo, int64_t hi)
{
	/* --min/--max were made ns (* 1000), and are made µs again (/ 1000) */
	double min = o->has_min ? o->min_us * 1000 : (double)lo;
	double max = o->has_max ? o->max_us * 1000 : (double)hi;

	memset(f, 0, sizeof(*f));
	f->min = min / 1000;
	f->max = max / 1000;
	f->step = (f->max - f->min) / AN_FREQ_BUCKETS;
	return f->step == 0 ? -1 : 0;
}

void an_freq_add(struct an_freq *f, int64_t ns)
{
	double us = (double)ns / 1000;
	long long i = (long long)((us - f->min) / f->step);

	if (i >= AN_FREQ_BUCKETS) {
		/* the maximum goes in the last bucket, anything beyond nowhere */
		if (us == f->max)
			f->counts[AN_FREQ_BUCKETS - 1]++;
		return;
	}
	if (i < 0) /* (below --min: filtered before; Python would wrap around) */
		return;
	f->counts[i]++;
}

void an_freq_text(struct strbuf *sb, const char *title, const struct an_freq *f)
{
	uint64_t maxc = 0;
	size_t vlen = 1;
	char v[32];

	for (int i = 0; i < AN_FREQ_BUCKETS; i++) {
		size_t l = (size_t)snprintf(v, sizeof(v), "%llu", (unsigned long long)f->counts[i]);

		if (f->counts[i] > maxc)
			maxc = f->counts[i];
		if (l > vlen)
			vlen = l;
	}
	strbuf_printf(sb, "%s (\xc2\xb5s)\n", title);
	for (int i = 0; i < 80; i++)
		strbuf_puts(sb, "#");
	strbuf_puts(sb, "\n");
	for (int i = 0; i < AN_FREQ_BUCKETS; i++) {
		int w = maxc ? (int)(72 * (double)f->counts[i] / (double)maxc) : 0;

		/* Duration.from_us(lower).to_us(): through ns and back */
		strbuf_printf(sb, "%7.3f ", ((i * f->step + f->min) * 1000) / 1000);
		for (int k = 0; k < w; k++)
			strbuf_puts(sb, "\xe2\x96\x88");
		for (int k = w; k < 72; k++)
			strbuf_puts(sb, " ");
		strbuf_puts(sb, " ");
		snprintf(v, sizeof(v), "%llu", (unsigned long long)f->counts[i]);
		an_pad_right(sb, v, vlen);
		strbuf_puts(sb, "\n");
	}
	strbuf_puts(sb, "\n");
}

void an_freq_mi(struct an_mi *mi, const char *title, const struct an_freq *f, int64_t begin,
		int64_t end)
{
	an_mi_table(mi, "freq", title, begin, end);
	for (int i = 0; i < AN_FREQ_BUCKETS; i++) {
		an_mi_row(mi);
		an_mi_float(mi, "duration", (i * f->step + f->min) * 1000);
		an_mi_float(mi, "duration", ((i + 1) * f->step + f->min) * 1000);
		an_mi_number(mi, "number", (int64_t)f->counts[i]);
		an_mi_row_end(mi);
	}
	an_mi_table_end(mi);
}
