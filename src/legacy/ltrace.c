/*
 * ltrace.c - the common layer of the pre-CTF trace readers (legacy.h,
 * ltrace-impl.h): the probe, the trace and its tracefiles, classes and
 * warnings, the cursors (which call the format's ops), the TSC -> ns
 * arithmetic and the block order.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "legacy/larena.h"
#include "legacy/ltrace-impl.h"

enum ltt_format ltt_probe_dir(const char *dir)
{
	enum ltt_format f = lv0_probe(dir);

	return f != LTT_FORMAT_NONE ? f : lv2_probe(dir);
}

/* 1.2.1: the offsets the magic may be at, and the versions each allows. */
static bool magic_version_agrees(unsigned off, uint8_t major, uint8_t minor)
{
	switch (off) {
	case 16:
		return major == 2;
	case 40:
		return (major == 0 && minor >= 5 && minor <= 7) || major == 1 || major == 2;
	case 56:
	case 72:
		return major == 0 && (minor == 3 || minor == 4);
	}
	return false;
}

int ltrace_find_magic(const uint8_t *blk, size_t len, struct ltrace_magic *m)
{
	static const unsigned offsets[] = {16, 40, 56, 72};

	for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		unsigned off = offsets[i];
		/* major/minor: 4 bytes after the magic in format 2, 17 in format 0 */
		unsigned vo = off == 16 ? 4 : 17;
		bool be;

		if (off + vo + 2 > len)
			break;
		if (ltrace_u32(blk + off, false) == LTRACE_MAGIC)
			be = false;
		else if (ltrace_u32(blk + off, true) == LTRACE_MAGIC)
			be = true;
		else
			continue;
		if (!magic_version_agrees(off, blk[off + vo], blk[off + vo + 1]))
			continue;
		m->offset = off;
		m->big_endian = be;
		m->major = blk[off + vo];
		m->minor = blk[off + vo + 1];
		return 0;
	}
	return -1;
}

long ltrace_read_head(const char *path, uint8_t *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -1;
	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (long)got;
}

char *ltrace_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "name_123" -> 123, else -1 (and the position of the '_' in *us). */
static int cpu_suffix(const char *name, size_t *us)
{
	const char *u = strrchr(name, '_');
	long v = 0;

	if (!u || !u[1] || u == name)
		return -1;
	for (const char *p = u + 1; *p; p++) {
		if (*p < '0' || *p > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*p - '0');
	}
	*us = (size_t)(u - name);
	return (int)v;
}

static int walk_dir(const char *dir, const char *rel, ltrace_walk_fn fn, void *arg, char *err,
		    size_t errlen, int depth)
{
	char *path = NULL, **names = NULL;
	size_t n = 0, cap = 0;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (depth > 16)
		return 0;
	if (asprintf(&path, "%s%s%s", dir, *rel ? "/" : "", rel) < 0)
		return -1;
	d = opendir(path);
	if (!d) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!*rel && !strcmp(de->d_name, "eventdefs"))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*nn));
			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(de->d_name))) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (rc)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n && !rc; i++) {
		char *sub = NULL, *full = NULL;
		struct stat st;

		if (asprintf(&sub, "%s%s%s", rel, *rel ? "/" : "", names[i]) < 0 ||
		    asprintf(&full, "%s/%s", dir, sub) < 0) {
			free(sub);
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -1;
			break;
		}
		if (stat(full, &st) == 0) {
			size_t us;
			int cpu;

			if (S_ISDIR(st.st_mode)) {
				rc = walk_dir(dir, sub, fn, arg, err, errlen, depth + 1);
			} else if (S_ISREG(st.st_mode) && (cpu = cpu_suffix(names[i], &us)) >= 0) {
				/* the group: the path up to the name's last '_' */
				size_t glen = strlen(sub) - strlen(names[i]) + us;
				char *group = strndup(sub, glen);
				if (!group) {
					snprintf(err, errlen, "%s: out of memory", path);
					rc = -1;
				} else {
					rc = fn(arg, sub, group, cpu);
				}
				free(group);
			}
		}
		free(sub);
		free(full);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(path);
	return rc;
}

int ltrace_walk(const char *dir, ltrace_walk_fn fn, void *arg, char *err, size_t errlen)
{
	return walk_dir(dir, "", fn, arg, err, errlen, 0);
}

struct ltrace_file *ltrace_add_file(struct ltt_trace *t, const char *relpath, const char *channel,
				    int cpu, char *err, size_t errlen)
{
	struct ltrace_file *f;
	struct stat st;
	int fd;

	if (t->nfiles == t->files_cap) {
		size_t cap = t->files_cap ? t->files_cap * 2 : 8;
		struct ltrace_file *nf = realloc(t->files, cap * sizeof(*nf));
		if (!nf) {
			snprintf(err, errlen, "%s: out of memory", t->dir);
			return NULL;
		}
		t->files = nf;
		t->files_cap = cap;
	}
	f = &t->files[t->nfiles];
	memset(f, 0, sizeof(*f));
	if (asprintf(&f->path, "%s/%s", t->dir, relpath) < 0) {
		f->path = NULL;
		snprintf(err, errlen, "%s: out of memory", t->dir);
		return NULL;
	}
	f->relpath = strdup(relpath);
	f->channel = strdup(channel);
	if (!f->relpath || !f->channel) {
		snprintf(err, errlen, "%s: out of memory", f->path);
		goto fail;
	}
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", f->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	f->size = (size_t)st.st_size;
	if (f->size) {
		void *m = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			snprintf(err, errlen, "%s: %s", f->path, strerror(errno));
			close(fd);
			goto fail;
		}
		f->data = m;
	}
	close(fd);
	f->info.path = f->path;
	f->info.channel = f->channel;
	f->info.cpu = cpu;
	t->nfiles++;
	return f;
fail:
	free(f->path);
	free(f->relpath);
	free(f->channel);
	return NULL;
}

static void file_free(struct ltrace_file *f)
{
	if (f->data)
		munmap((void *)f->data, f->size);
	free(f->path);
	free(f->relpath);
	free(f->channel);
	free(f->blocks);
	free(f->tail_error);
}

void ltrace_drop_last_file(struct ltt_trace *t)
{
	if (t->nfiles)
		file_free(&t->files[--t->nfiles]);
}

static int file_cmp(const void *a, const void *b)
{
	const struct ltrace_file *x = a, *y = b;
	int c = strcmp(x->channel, y->channel);

	return c ? c : (x->info.cpu > y->info.cpu) - (x->info.cpu < y->info.cpu);
}

void ltrace_sort_files(struct ltt_trace *t)
{
	if (t->nfiles > 1) /* (qsort wants a non-NULL array even of 0) */
		qsort(t->files, t->nfiles, sizeof(*t->files), file_cmp);
	/* the public info points into each struct: fix after the move */
	for (size_t i = 0; i < t->nfiles; i++) {
		t->files[i].info.path = t->files[i].path;
		t->files[i].info.channel = t->files[i].channel;
	}
}

struct ltrace_block *ltrace_add_block(struct ltrace_file *f)
{
	/* grows by doubling: the capacity is the next power of two */
	if ((f->nblocks & (f->nblocks - 1)) == 0) {
		size_t cap = f->nblocks ? f->nblocks * 2 : 1;
		struct ltrace_block *nb = realloc(f->blocks, cap * sizeof(*nb));
		if (!nb)
			return NULL;
		f->blocks = nb;
	}
	memset(&f->blocks[f->nblocks], 0, sizeof(f->blocks[0]));
	f->blocks[f->nblocks].number = (uint32_t)f->nblocks;
	f->info.blocks = f->nblocks + 1;
	return &f->blocks[f->nblocks++];
}

static int block_cmp(const void *a, const void *b)
{
	const struct ltrace_block *x = a, *y = b;

	if (x->begin_tsc != y->begin_tsc)
		return x->begin_tsc < y->begin_tsc ? -1 : 1;
	return (x->number > y->number) - (x->number < y->number);
}

void ltrace_blocks_sort(struct ltrace_file *f)
{
	if (f->nblocks > 1)
		qsort(f->blocks, f->nblocks, sizeof(*f->blocks), block_cmp);
}

void ltrace_file_tail_error(struct ltrace_file *f, const char *fmt, ...)
{
	va_list ap;

	if (f->tail_error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&f->tail_error, fmt, ap) < 0)
		f->tail_error = NULL;
	va_end(ap);
	if (f->tail_error)
		lmsg_one_line(f->tail_error);
}

struct ltt_class *ltrace_add_class(struct ltt_trace *t, const char *name, const char *channel,
				   const char *facility, uint32_t facility_id, uint32_t event_id,
				   const struct ltt_type *payload, const struct ltt_abi *abi)
{
	struct ltt_class *c;
	char *n = NULL, *ch = NULL, *fa = NULL;

	if (t->nclasses == t->classes_cap) {
		size_t cap = t->classes_cap ? t->classes_cap * 2 : 32;
		struct ltt_class **nc = realloc(t->classes, cap * sizeof(*nc));
		if (!nc)
			return NULL;
		t->classes = nc;
		t->classes_cap = cap;
	}
	c = calloc(1, sizeof(*c));
	n = strdup(name);
	ch = channel ? strdup(channel) : NULL;
	fa = facility ? strdup(facility) : NULL;
	if (!c || !n || (channel && !ch) || (facility && !fa)) {
		free(c);
		free(n);
		free(ch);
		free(fa);
		return NULL;
	}
	c->index = (uint32_t)t->nclasses;
	c->name = n;
	c->channel = ch;
	c->facility = fa;
	c->facility_id = facility_id;
	c->event_id = event_id;
	c->payload = payload;
	c->abi = *abi;
	t->classes[t->nclasses++] = c;
	return c;
}

void ltrace_warn(struct ltt_trace *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (t->nwarnings == t->warnings_cap) {
		size_t cap = t->warnings_cap ? t->warnings_cap * 2 : 8;
		char **nw = realloc(t->warnings, cap * sizeof(*nw));
		if (!nw)
			return;
		t->warnings = nw;
		t->warnings_cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0) {
		lmsg_one_line(s); /* names from the trace may hold newlines */
		t->warnings[t->nwarnings++] = s;
	}
	va_end(ap);
}

int ltrace_cursor_fail(struct ltt_cursor *c, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->failed)
		return -1;
	n = snprintf(c->err, sizeof(c->err), "%s: offset %llu: ", c->f->path,
		     (unsigned long long)off);
	if (n < 0 || (size_t)n >= sizeof(c->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(c->err + n, sizeof(c->err) - (size_t)n, fmt, ap);
	va_end(ap);
	lmsg_one_line(c->err);
	c->failed = true;
	return -1;
}

void ltrace_cursor_warn(struct ltt_cursor *c, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL, *line = NULL, *nw;
	size_t len;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg || asprintf(&line, "%s: offset %llu: %s\n", c->f->path, (unsigned long long)off,
			     msg) < 0) {
		free(msg);
		return;
	}
	free(msg);
	len = strlen(line);
	/* one line each: the newline that ends it is the only one */
	line[len - 1] = '\0';
	lmsg_one_line(line);
	line[len - 1] = '\n';
	nw = realloc(c->warn, c->warn_len + len + 1);
	if (nw) {
		memcpy(nw + c->warn_len, line, len + 1);
		c->warn = nw;
		c->warn_len += len;
	}
	free(line);
}

/* 128-bit: floor(delta * mul / div) saturated to INT64_MAX. */
static uint64_t scaled(uint64_t delta, unsigned __int128 mul, uint64_t div)
{
	unsigned __int128 q = (unsigned __int128)delta * mul / div;

	return q > INT64_MAX ? (uint64_t)INT64_MAX : (uint64_t)q;
}

int64_t ltrace_tsc_ns(const struct ltt_trace_info *info, uint64_t tsc)
{
	unsigned __int128 unit = info->format == LTT_FORMAT_COMPACT ? 1000000000u : 1000000u;
	__int128 base =
	    (__int128)info->start_time_sec * 1000000000 + (__int128)info->start_time_usec * 1000;
	__int128 ns = base;

	if (info->start_freq) {
		unit *= info->freq_scale ? info->freq_scale : 1;
		if (tsc >= info->start_tsc)
			ns += scaled(tsc - info->start_tsc, unit, info->start_freq);
		else
			ns -= scaled(info->start_tsc - tsc, unit, info->start_freq);
	}
	if (ns > INT64_MAX)
		return INT64_MAX;
	if (ns < INT64_MIN)
		return INT64_MIN;
	return (int64_t)ns;
}

/* The trace. */

struct refusal {
	const char *dir;
	char *err;
	size_t errlen;
};

static int refusal_one(void *arg, const char *relpath, const char *group, int cpu)
{
	struct refusal *r = arg;
	uint8_t head[128];
	struct ltrace_magic m;
	char *path = NULL;
	long n;

	(void)group;
	(void)cpu;
	if (asprintf(&path, "%s/%s", r->dir, relpath) < 0)
		return 0;
	n = ltrace_read_head(path, head, sizeof(head));
	if (n > 0 && ltrace_find_magic(head, (size_t)n, &m) == 0) {
		if (m.offset == 40 && m.major != 0)
			snprintf(r->err, r->errlen,
				 "%s: trace version %u.%u (LTTng marker era) not supported", path,
				 m.major, m.minor);
		else
			snprintf(
			    r->err, r->errlen,
			    "%s: trace version %u.%u: the directory lacks what that format needs "
			    "(control/ and eventdefs/, or a metadata tracefile)",
			    path, m.major, m.minor);
		free(path);
		return 1;
	}
	free(path);
	return 0;
}

/* Why dir is no trace we read: the first tracefile's version, else no magic. */
static void describe_refusal(const char *dir, char *err, size_t errlen)
{
	struct refusal r = {.dir = dir, .err = err, .errlen = errlen};
	char werr[256];

	if (ltrace_walk(dir, refusal_one, &r, werr, sizeof(werr)) <= 0)
		snprintf(err, errlen,
			 "%s: not an LTT trace (no tracefile with the magic 0x00D6B7ED)", dir);
}

struct ltt_trace *ltt_trace_open(const char *dir, char *err, size_t errlen)
{
	enum ltt_format fmt = ltt_probe_dir(dir);
	struct ltt_trace *t;
	int rc;

	if (fmt == LTT_FORMAT_NONE) {
		describe_refusal(dir, err, errlen);
		if (errlen)
			lmsg_one_line(err);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t || !(t->dir = strdup(dir))) {
		free(t);
		snprintf(err, errlen, "%s: out of memory", dir);
		return NULL;
	}
	t->info.format = fmt;
	t->info.freq_scale = 1;
	rc = fmt == LTT_FORMAT_LTTV ? lv0_load(t, err, errlen) : lv2_load(t, err, errlen);
	if (rc < 0 || !t->ops) {
		if (rc >= 0)
			snprintf(err, errlen, "%s: the reader set no cursor operations", dir);
		if (errlen)
			lmsg_one_line(err); /* it quotes names from the trace */
		ltt_trace_close(t);
		return NULL;
	}
	return t;
}

void ltt_trace_close(struct ltt_trace *t)
{
	if (!t)
		return;
	if (t->ops && t->ops->trace_free)
		t->ops->trace_free(t);
	for (size_t i = 0; i < t->nfiles; i++) {
		file_free(&t->files[i]);
	}
	free(t->files);
	for (size_t i = 0; i < t->nclasses; i++) {
		free((char *)t->classes[i]->name);
		free((char *)t->classes[i]->channel);
		free((char *)t->classes[i]->facility);
		free(t->classes[i]);
	}
	free(t->classes);
	for (size_t i = 0; i < t->nwarnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	free(t->dir);
	free(t);
}

const struct ltt_trace_info *ltt_trace_info(const struct ltt_trace *t)
{
	return &t->info;
}

size_t ltt_trace_file_count(const struct ltt_trace *t)
{
	return t->nfiles;
}

const struct ltt_file_info *ltt_trace_file(const struct ltt_trace *t, size_t i)
{
	return i < t->nfiles ? &t->files[i].info : NULL;
}

size_t ltt_trace_class_count(const struct ltt_trace *t)
{
	return t->nclasses;
}

const struct ltt_class *ltt_trace_class(const struct ltt_trace *t, size_t i)
{
	return i < t->nclasses ? t->classes[i] : NULL;
}

const char *ltt_trace_warning(const struct ltt_trace *t, size_t i)
{
	return i < t->nwarnings ? t->warnings[i] : NULL;
}

/* The cursors. */

struct ltt_cursor *ltt_cursor_open(struct ltt_trace *t, size_t i)
{
	struct ltt_cursor *c;

	if (i >= t->nfiles)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->t = t;
	c->f = &t->files[i];
	c->file = i;
	if (t->ops->cursor_open && t->ops->cursor_open(c) < 0) {
		c->failed = true; /* next returns the error */
		lmsg_one_line(c->err);
	}
	return c;
}

int ltt_cursor_next(struct ltt_cursor *c, struct ltt_event *ev)
{
	int rc;

	if (c->failed)
		return -1;
	rc = c->t->ops->cursor_next(c, ev);
	if (rc == 0 && c->f->tail_error) {
		snprintf(c->err, sizeof(c->err), "%s", c->f->tail_error);
		c->failed = true;
		return -1;
	}
	if (rc < 0 && !c->err[0])
		ltrace_cursor_fail(c, c->pos, "cannot read further");
	if (rc < 0) {
		lmsg_one_line(c->err); /* the formats' own messages too */
		c->failed = true;
	}
	return rc;
}

const char *ltt_cursor_error(const struct ltt_cursor *c)
{
	return c->err;
}

const char *ltt_cursor_warning(struct ltt_cursor *c)
{
	free(c->warn_out);
	c->warn_out = c->warn;
	c->warn = NULL;
	c->warn_len = 0;
	if (!c->warn_out)
		return "";
	/* one line each, without the last newline */
	if (c->warn_out[0] && c->warn_out[strlen(c->warn_out) - 1] == '\n')
		c->warn_out[strlen(c->warn_out) - 1] = '\0';
	return c->warn_out;
}

void ltt_cursor_trust_sizes(struct ltt_cursor *c)
{
	if (c->t->ops->cursor_trust_sizes && !c->failed)
		c->t->ops->cursor_trust_sizes(c);
}

long ltt_cursor_check_size(struct ltt_cursor *c, const struct ltt_event *ev)
{
	assert(ev->size_unchecked && c->t->ops->cursor_check_size);
	return c->t->ops->cursor_check_size(c, ev);
}

void ltt_cursor_close(struct ltt_cursor *c)
{
	if (!c)
		return;
	if (c->t->ops->cursor_close)
		c->t->ops->cursor_close(c);
	free(c->warn);
	free(c->warn_out);
	free(c);
}
