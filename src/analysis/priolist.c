/*
 * priolist.c - a thread's priorities with their counts (priolist.h).
 */
#include <stdlib.h>

#include "analysis/priolist.h"

int an_prio_add(struct an_prio **v, size_t *n, int known, int64_t prio)
{
	struct an_prio *nv;

	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].known == known && (!known || (*v)[i].prio == prio)) {
			(*v)[i].count++;
			return 0;
		}
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	*v = nv;
	nv[(*n)++] = (struct an_prio){known, prio, 1};
	return 0;
}

static int cmp_prio(const void *a, const void *b)
{
	const struct an_prio *x = a, *y = b;

	if (x->known != y->known)
		return x->known - y->known;
	return x->prio < y->prio ? -1 : x->prio > y->prio;
}

void an_prio_format(struct an_prio *v, size_t n, struct strbuf *sb)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_prio);
	strbuf_puts(sb, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_puts(sb, ", ");
		if (v[i].known)
			strbuf_printf(sb, "%lld", (long long)v[i].prio);
		else
			strbuf_puts(sb, "None");
		if (v[i].count > 1)
			strbuf_printf(sb, " (%lu times)", v[i].count);
	}
	strbuf_puts(sb, "]");
}
