/*
 * kfpush-apply.c - the kernel filters of one tracefs instance (see
 * kfpush.h): what each event has been given, so that a rule added while
 * recording rewrites only the filters that change, and a refusal is
 * undone.
 *
 * The kernel applies a new filter to the records made after the write
 * (it swaps the program under RCU); records already in the buffer were
 * made under the old one, and the LTTng filter after them is the exact
 * check for both.
 */
#include "kernel/kfpush.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kfpush_entry {
	uint32_t id;
	char *text; /* the filter set (never NULL in the table) */
};

struct kfpush {
	struct tracefs_instance *in;
	bool off; /* TRAX_KERNEL_FILTER=after */
	struct kfpush_entry *e;
	unsigned int n, cap;
};

struct kfpush *kfpush_new(struct tracefs_instance *in)
{
	struct kfpush *p = calloc(1, sizeof(*p));
	const char *env = getenv("TRAX_KERNEL_FILTER");

	if (!p)
		return NULL;
	p->in = in;
	p->off = env && !strcmp(env, "after");
	return p;
}

bool kfpush_pushes(const struct kfpush *p)
{
	return p && !p->off;
}

void kfpush_free(struct kfpush *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < p->n; i++)
		free(p->e[i].text);
	free(p->e);
	free(p);
}

static struct kfpush_entry *entry(const struct kfpush *p, uint32_t id)
{
	for (unsigned int i = 0; i < p->n; i++)
		if (p->e[i].id == id)
			return &p->e[i];
	return NULL;
}

const char *kfpush_current(const struct kfpush *p, uint32_t id)
{
	const struct kfpush_entry *e = p ? entry(p, id) : NULL;

	return e ? e->text : NULL;
}

static void forget(struct kfpush *p, struct kfpush_entry *e)
{
	free(e->text);
	*e = p->e[--p->n];
}

static int remember(struct kfpush *p, uint32_t id, const char *text)
{
	struct kfpush_entry *e = entry(p, id);
	char *t = strdup(text);

	if (!t)
		return -ENOMEM;
	if (!e) {
		if (p->n == p->cap) {
			unsigned int cap = p->cap ? 2 * p->cap : 16;
			struct kfpush_entry *ne = realloc(p->e, cap * sizeof(*ne));

			if (!ne) {
				free(t);
				return -ENOMEM;
			}
			p->e = ne;
			p->cap = cap;
		}
		e = &p->e[p->n++];
		e->id = id;
		e->text = NULL;
	}
	free(e->text);
	e->text = t;
	return 0;
}

/* What the kernel says of a filter it refused: the filter file's text, on one line. */
static void refusal(const struct kfpush *p, const struct tp_event *ev, char *buf, size_t size)
{
	char file[512];

	buf[0] = 0;
	snprintf(file, sizeof(file), "events/%s/%s/filter", ev->system, ev->name);
	if (tracefs_read(p->in, file, buf, size) <= 0)
		return;
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
}

int kfpush_event(struct kfpush *p, const struct tp_event *ev, const struct kmap_event *m,
		 const struct kfpush_rule *rules, unsigned int n)
{
	char text[KFPUSH_MAX_TEXT], why[1024];
	struct kfpush_entry *e = entry(p, ev->id);
	int have = !p->off && kfpush_translate(m, rules, n, text, sizeof(text), NULL) == 1, r;

	if (!have) {
		if (!e)
			return 0;
		r = tracefs_set_filter(p->in, ev->system, ev->name, "0");
		if (r == 0)
			forget(p, e);
		return r;
	}
	if (e && !strcmp(e->text, text))
		return 1;
	r = tracefs_set_filter(p->in, ev->system, ev->name, text);
	if (r == 0) {
		remember(p, ev->id, text);
		return 1;
	}
	/*
	 * Refused: the kernel has already disabled the event's filter (it
	 * records everything); the LTTng filter after it is then the only one.
	 */
	refusal(p, ev, why, sizeof(why));
	fprintf(stderr,
		"traxd[%d]: %s:%s: the kernel refused filter '%s' (%s): %s; filtered after "
		"recording only\n",
		(int)getpid(), ev->system, ev->name, text, strerror(-r), why);
	tracefs_set_filter(p->in, ev->system, ev->name, "0");
	if (e)
		forget(p, e);
	return r;
}
