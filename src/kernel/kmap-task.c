/*
 * kmap-task.c - what kmap's conversions need beyond the record (see
 * kmap.h): a thread's process and pid namespaces, read from /proc when a
 * record names the thread (sched_process_fork, a rare event), and the
 * kernel's constant strings tracefs lists in printk_formats, looked up by
 * address (rcu_utilization, on every context switch: a binary search).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kmap-internal.h"

void kmap_task_from_proc(void *arg, int32_t tid, struct kmap_task *out)
{
	char path[64], line[512], link[64];
	FILE *f;
	ssize_t n;

	(void)arg;
	memset(out, 0, sizeof(*out));
	out->tgid = -1;
	if (tid <= 0)
		return; /* the idle tasks have no /proc entry */
	/* /proc/TID opens for any thread, leader or not (it is only left out of listings) */
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "Tgid:", 5)) {
				out->tgid = (int32_t)strtol(line + 5, NULL, 10);
			} else if (!strncmp(line, "NSpid:", 6)) {
				char *p = line + 6, *e;

				while (out->nr_vtids < KMAP_MAX_NS_LEVEL) {
					long v = strtol(p, &e, 10);

					if (e == p)
						break;
					out->vtids[out->nr_vtids++] = (int32_t)v;
					p = e;
				}
			}
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)tid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = 0; /* "pid:[4026531836]" */
		if (!strncmp(link, "pid:[", 5))
			out->pid_ns_inum = (uint32_t)strtoul(link + 5, NULL, 10);
	}
}

struct kstring {
	uint64_t addr;
	char *text;
};

struct kmap_kstrings {
	struct kstring *v;
	size_t n;
	size_t maxlen;
};

static int by_addr(const void *a, const void *b)
{
	const struct kstring *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The quoted text of a printk_formats line, its C escapes undone; NULL when out of memory. */
static char *unquote(const char *s, const char *e)
{
	char *out = malloc((size_t)(e - s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; s < e; s++) {
		if (*s == '\\' && s + 1 < e) {
			s++;
			*o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
	return out;
}

struct kmap_kstrings *kmap_kstrings_parse(const char *text, size_t len)
{
	struct kmap_kstrings *k = calloc(1, sizeof(*k));
	const char *p = text, *end = text + len;
	size_t cap = 0;

	if (!k)
		return NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q, *e;
		char *t;
		uint64_t addr = 0;
		int digits = 0;

		if (!nl)
			nl = end;
		/* "0xffffffff8281a2a4 : \"Start context switch\"" */
		q = p;
		if (nl - q > 2 && q[0] == '0' && q[1] == 'x') {
			for (q += 2; q < nl && digits < 16; q++, digits++) {
				char c = *q;
				int d = c >= '0' && c <= '9'   ? c - '0'
					: c >= 'a' && c <= 'f' ? c - 'a' + 10
					: c >= 'A' && c <= 'F' ? c - 'A' + 10
							       : -1;

				if (d < 0)
					break;
				addr = addr << 4 | (uint64_t)d;
			}
		}
		q = digits ? memchr(q, '"', (size_t)(nl - q)) : NULL;
		e = nl;
		while (e > p && e[-1] != '"')
			e--;
		if (q && e - 1 > q) {
			if (k->n == cap) {
				size_t ncap = cap ? cap * 2 : 64;
				struct kstring *v = realloc(k->v, ncap * sizeof(*v));

				if (!v)
					goto fail;
				k->v = v;
				cap = ncap;
			}
			t = unquote(q + 1, e - 1);
			if (!t)
				goto fail;
			k->v[k->n].addr = addr;
			k->v[k->n++].text = t;
			if (strlen(t) > k->maxlen)
				k->maxlen = strlen(t);
		}
		p = nl + 1;
	}
	if (k->n)
		qsort(k->v, k->n, sizeof(k->v[0]), by_addr);
	return k;
fail:
	kmap_kstrings_free(k);
	return NULL;
}

void kmap_kstrings_free(struct kmap_kstrings *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].text);
	free(k->v);
	free(k);
}

const char *kmap_kstrings_find(const struct kmap_kstrings *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr == addr)
			return k->v[mid].text;
		if (k->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t kmap_kstrings_maxlen(const struct kmap_kstrings *k)
{
	return k->maxlen;
}
