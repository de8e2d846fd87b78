/*
 * legacy-open.c - the reader given a pre-CTF trace (docs/legacy-formats.md
 * "How trax reads them"): a path that ltt_probe_dir() recognizes is
 * converted (legacy/lconvert.h) into a private directory under $TMPDIR
 * (else /tmp), which is read in its place and removed when the reader is
 * closed (or, if the process was killed, by the next conversion there). A conversion that stopped
 * on an error keeps the events before it; the error line is given after the last event
 * (trax_reader_at_end).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "legacy/lconvert.h"
#include "legacy/legacy.h"
#include "reader/reader-impl.h"

static void on_warning(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "WARNING: %s\n", line);
}

/* Removes dir and what it holds (a converted trace: files and one level of folders). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	if (d) {
		while ((e = readdir(d))) {
			struct stat st;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(path);
			else
				unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/*
 * Directories of readers that were killed before they could remove theirs
 * (trax-legacy-PID-XXXXXX whose process is gone), removed by the next
 * conversion in the same TMPDIR.
 */
static void remove_stale(const char *tmp)
{
	DIR *d = opendir(tmp);
	struct dirent *e;
	char path[PATH_MAX];

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, "trax-legacy-", 12))
			continue;
		pid = strtol(e->d_name + 12, &end, 10);
		if (end == e->d_name + 12 || *end != '-' || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmp, e->d_name);
		remove_tree(path);
	}
	closedir(d);
}

/* The last component of path, for the converted trace's directory name. */
static const char *base_name(const char *path, char *buf, size_t size)
{
	size_t n = strlen(path);
	const char *s;

	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(buf, size, "%.*s", (int)n, path);
	s = strrchr(buf, '/');
	s = s ? s + 1 : buf;
	return *s && strcmp(s, ".") && strcmp(s, "..") ? s : "trace";
}

/* Room for entry n of *v; -1 on no memory. */
static int grow(char ***v, size_t n)
{
	char **nv = realloc(*v, (n + 1) * sizeof(**v));

	if (!nv)
		return -1;
	*v = nv;
	return 0;
}

int trax_reader_legacy_convert(struct trax_reader *r, char *open_err, size_t errlen)
{
	for (size_t i = 0; i < r->npaths; i++) {
		struct ltt_convert_stats st = {.warn = on_warning};
		const char *tmp = getenv("TMPDIR");
		char dir[PATH_MAX], out[PATH_MAX + 256], name[256], err[1024];
		char *copy;
		int rc;

		if (ltt_probe_dir(r->paths[i]) == LTT_FORMAT_NONE)
			continue;
		if (!tmp || !*tmp)
			tmp = "/tmp";
		remove_stale(tmp);
		snprintf(dir, sizeof(dir), "%s/trax-legacy-%ld-XXXXXX", tmp, (long)getpid());
		if (!mkdtemp(dir)) {
			snprintf(open_err, errlen,
				 "%s: cannot make a directory to convert it in: %s", r->paths[i],
				 dir);
			return -1;
		}
		snprintf(out, sizeof(out), "%s/%s", dir,
			 base_name(r->paths[i], name, sizeof(name)));
		if (grow(&r->legacy_dirs, r->nlegacy_dirs) ||
		    grow(&r->legacy_from, r->nlegacy_dirs) ||
		    grow(&r->legacy_to, r->nlegacy_dirs) ||
		    !(r->legacy_dirs[r->nlegacy_dirs] = strdup(dir))) {
			remove_tree(dir);
			snprintf(open_err, errlen, "out of memory");
			return -1;
		}
		r->legacy_from[r->nlegacy_dirs] = NULL;
		r->legacy_to[r->nlegacy_dirs] = NULL;
		r->nlegacy_dirs++;
		rc = ltt_convert(r->paths[i], out, &st, err, sizeof(err));
		if (rc == -2) {
			snprintf(open_err, errlen, "%s", err);
			return -1;
		}
		if (rc == -1 && !r->legacy_error[0])
			snprintf(r->legacy_error, sizeof(r->legacy_error), "%s", err);
		copy = strdup(out);
		if (!copy) {
			snprintf(open_err, errlen, "out of memory");
			return -1;
		}
		/* the legacy path is kept (legacy_from) for trax_reader_trace_path() */
		r->legacy_from[r->nlegacy_dirs - 1] = r->paths[i];
		r->paths[i] = copy;
		r->legacy_to[r->nlegacy_dirs - 1] = copy;
	}
	return 0;
}

void trax_reader_legacy_cleanup(struct trax_reader *r)
{
	for (size_t i = 0; i < r->nlegacy_dirs; i++) {
		remove_tree(r->legacy_dirs[i]);
		free(r->legacy_dirs[i]);
		free(r->legacy_from[i]);
	}
	free(r->legacy_dirs);
	free(r->legacy_from);
	free(r->legacy_to);
	r->legacy_dirs = r->legacy_from = r->legacy_to = NULL;
	r->nlegacy_dirs = 0;
}

const char *trax_reader_legacy_origin(const struct trax_reader *r, const char *dir)
{
	for (size_t i = 0; dir && i < r->nlegacy_dirs; i++)
		if (r->legacy_to[i] && !strcmp(r->legacy_to[i], dir))
			return r->legacy_from[i];
	return dir;
}

int trax_reader_at_end(struct trax_reader *r)
{
	if (!r->legacy_error[0])
		return 0;
	trax_reader_set_error(r, "%s", r->legacy_error);
	r->failed = true;
	return -1;
}
