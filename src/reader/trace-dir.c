/* trace-dir.c - finding traces and their stream files (see trace-dir.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include "reader/trace-dir.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper than any real session; stops symlink loops. */
#define MAX_DEPTH 32

static void set_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* dir/name, with one slash between them however many dir ends with ("/" stays "/"). */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (asprintf(&p, "%.*s%s%s", (int)n, dir, n && dir[n - 1] == '/' ? "" : "/", name) < 0)
		return NULL;
	return p;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ctf_stream_file *)a)->name,
		      ((const struct ctf_stream_file *)b)->name);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct ctf_trace_dir *)a)->path,
		      ((const struct ctf_trace_dir *)b)->path);
}

static void free_trace(struct ctf_trace_dir *t)
{
	size_t i;

	for (i = 0; i < t->nr_streams; i++) {
		free(t->streams[i].path);
		free(t->streams[i].name);
	}
	free(t->streams);
	free(t->path);
	free(t->metadata_path);
}

/* Lists the stream files of the trace in dir. */
static int add_trace(struct ctf_trace_set *set, const char *dir, char *err, size_t errlen)
{
	struct ctf_trace_dir t = {0}, *grown;
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	if (!d) {
		set_error(err, errlen, "%s: cannot open the directory: %s", dir, strerror(errno));
		return -1;
	}
	t.path = strdup(dir);
	t.metadata_path = join(dir, "metadata");
	while ((e = readdir(d))) {
		struct stat st;
		char *p;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "metadata"))
			continue;
		p = join(dir, e->d_name);
		if (!p || stat(p, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		if (t.nr_streams == cap) {
			struct ctf_stream_file *n;

			cap = cap ? cap * 2 : 8;
			n = realloc(t.streams, cap * sizeof(*n));
			if (!n) {
				free(p);
				break;
			}
			t.streams = n;
		}
		t.streams[t.nr_streams].path = p;
		t.streams[t.nr_streams].name = strdup(e->d_name);
		t.nr_streams++;
	}
	closedir(d);
	if (t.nr_streams)
		qsort(t.streams, t.nr_streams, sizeof(*t.streams), by_name);
	grown = realloc(set->traces, (set->nr_traces + 1) * sizeof(*grown));
	if (!grown || !t.path || !t.metadata_path) {
		free_trace(&t);
		set_error(err, errlen, "%s: out of memory", dir);
		return -1;
	}
	set->traces = grown;
	set->traces[set->nr_traces++] = t;
	return 0;
}

static int search(struct ctf_trace_set *set, const char *dir, int depth, char *err, size_t errlen)
{
	struct stat st;
	char *meta;
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (depth > MAX_DEPTH)
		return 0;
	meta = join(dir, "metadata");
	if (meta && stat(meta, &st) == 0 && S_ISREG(st.st_mode)) {
		free(meta);
		return add_trace(set, dir, err, errlen);
	}
	free(meta);
	d = opendir(dir);
	if (!d) {
		set_error(err, errlen, "%s: cannot open the directory: %s", dir, strerror(errno));
		return -1;
	}
	while (ret == 0 && (e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = join(dir, e->d_name);
		if (p && stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			ret = search(set, p, depth + 1, err, errlen);
		free(p);
	}
	closedir(d);
	return ret;
}

int ctf_trace_set_add(struct ctf_trace_set *set, const char *path, char *err, size_t errlen)
{
	struct stat st;
	size_t before = set->nr_traces;

	if (stat(path, &st) < 0) {
		set_error(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		set_error(err, errlen, "%s: not a directory (a CTF trace is a directory)", path);
		return -1;
	}
	if (search(set, path, 0, err, errlen))
		return -1;
	if (set->nr_traces == before) {
		set_error(err, errlen, "%s: no CTF trace found (no metadata file in it or below)",
			  path);
		return -1;
	}
	qsort(set->traces + before, set->nr_traces - before, sizeof(*set->traces), by_path);
	return 0;
}

void ctf_trace_set_free(struct ctf_trace_set *set)
{
	size_t i;

	for (i = 0; i < set->nr_traces; i++)
		free_trace(&set->traces[i]);
	free(set->traces);
	set->traces = NULL;
	set->nr_traces = 0;
}

char *ctf_path_absolute(const char *path)
{
	char *cwd, *p;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return strdup(path);
	if (asprintf(&p, "%s/%s", cwd, path) < 0)
		p = NULL;
	free(cwd);
	return p;
}
