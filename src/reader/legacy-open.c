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
#include "reader/trace-dir.h"

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

/* A private directory to convert into (removed at close): 0, or -1 with open_err set. */
static int make_private(struct trax_reader *r, const char *src, char *dir, size_t size,
			char *open_err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	remove_stale(tmp);
	snprintf(dir, size, "%s/trax-legacy-%ld-XXXXXX", tmp, (long)getpid());
	if (!mkdtemp(dir)) {
		snprintf(open_err, errlen, "%s: cannot make a directory to convert it in: %s", src,
			 dir);
		return -1;
	}
	if (grow(&r->legacy_dirs, r->nlegacy_dirs) ||
	    !(r->legacy_dirs[r->nlegacy_dirs] = strdup(dir))) {
		remove_tree(dir);
		snprintf(open_err, errlen, "out of memory");
		return -1;
	}
	r->nlegacy_dirs++;
	return 0;
}

struct file_ctx {
	struct trax_reader *r;
	const char *out;
};

/* A stream file made of a tracefile: kept for trax_reader_legacy_names(). */
static void on_file(void *arg, const char *legacy_path, const char *stream_name)
{
	struct file_ctx *fc = arg;
	struct trax_reader *r = fc->r;
	size_t n = r->nlegacy_files;
	char *ctf = NULL, *orig;

	if (grow(&r->legacy_file_ctf, n) || grow(&r->legacy_file_orig, n))
		return; /* (warnings name the copy) */
	if (asprintf(&ctf, "%s/%s", fc->out, stream_name) < 0)
		return;
	orig = ctf_path_absolute(legacy_path);
	if (!orig) {
		free(ctf);
		return;
	}
	r->legacy_file_ctf[n] = ctf;
	r->legacy_file_orig[n] = orig;
	r->nlegacy_files++;
}

int trax_reader_legacy_names(const struct trax_reader *r, struct ctf_stream_set *ss)
{
	for (size_t i = 0; r->nlegacy_files && i < ss->nfiles; i++) {
		struct ctf_ss_file *f = &ss->files[i];

		for (size_t k = 0; k < r->nlegacy_files; k++) {
			char *p;

			if (strcmp(f->path, r->legacy_file_ctf[k]))
				continue;
			if (!(p = strdup(r->legacy_file_orig[k]))) {
				snprintf(ss->error, sizeof(ss->error), "out of memory");
				return -1;
			}
			free(f->abs_path);
			f->abs_path = p;
			break;
		}
	}
	return 0;
}

/*
 * Converts the legacy trace src into out, the pair kept for
 * trax_reader_legacy_origin(): 0, or -1 with open_err set.
 */
static int convert_into(struct trax_reader *r, const char *src, const char *out, char *open_err,
			size_t errlen)
{
	struct file_ctx fc = {.r = r, .out = out};
	/* (two threads as for printing: the classes' ids of a temporary trace do not matter) */
	struct ltt_convert_stats st = {.warn = on_warning,
				       .file = on_file,
				       .arg = &fc,
				       .threads = r->opt.threads == 1 ? 1 : 2};
	char err[1024];
	size_t n = r->nlegacy_pairs;
	int rc;

	if (grow(&r->legacy_from, n) || grow(&r->legacy_to, n) ||
	    !(r->legacy_from[n] = strdup(src))) {
		snprintf(open_err, errlen, "out of memory");
		return -1;
	}
	if (!(r->legacy_to[n] = strdup(out))) {
		free(r->legacy_from[n]);
		snprintf(open_err, errlen, "out of memory");
		return -1;
	}
	r->nlegacy_pairs++;
	rc = ltt_convert(src, out, &st, err, sizeof(err));
	if (rc == -2) {
		snprintf(open_err, errlen, "%s", err);
		return -1;
	}
	if (rc == -1 && !r->legacy_error[0])
		snprintf(r->legacy_error, sizeof(r->legacy_error), "%s", err);
	return 0;
}

/* Directories found under a path given to the reader. */
struct found {
	char **v;
	size_t n;
	bool ctf;   /* a CTF trace too (a metadata file) */
	bool nomem; /* the list is short */
};

static bool has_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The legacy trace directories below dir, as trace-dir.c finds CTF ones:
 * a CTF trace's directory (its metadata file) or a legacy trace's is not
 * searched further; as deep as trace-dir.c goes.
 */
static void find_legacy(const char *dir, int depth, struct found *f)
{
	DIR *d;
	struct dirent *e;

	if (depth > 32 || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path) ||
		    stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (has_file(path, "metadata")) {
			f->ctf = true;
		} else if (ltt_probe_dir(path) != LTT_FORMAT_NONE) {
			if (grow(&f->v, f->n) || !(f->v[f->n] = strdup(path)))
				f->nomem = true;
			else
				f->n++;
		} else {
			find_legacy(path, depth + 1, f);
		}
	}
	closedir(d);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The legacy traces below path i (not a trace itself) converted into one
 * private directory, which is read with path i (in its place when path i
 * holds no CTF trace): 0, or -1 with open_err set.
 */
static int convert_nested(struct trax_reader *r, size_t i, char *open_err, size_t errlen)
{
	struct found f = {0};
	char dir[PATH_MAX], out[PATH_MAX + 300], name[256];
	int ret = 0;

	if (has_file(r->paths[i], "metadata"))
		return 0; /* a CTF trace: nothing below it is read */
	find_legacy(r->paths[i], 1, &f);
	if (f.nomem) {
		snprintf(open_err, errlen, "out of memory");
		ret = -1;
	}
	if (!f.n || ret)
		goto out;
	qsort(f.v, f.n, sizeof(*f.v), by_string);
	if (make_private(r, r->paths[i], dir, sizeof(dir), open_err, errlen)) {
		ret = -1;
		goto out;
	}
	for (size_t k = 0; k < f.n && !ret; k++) {
		struct stat st;

		/* trace1, else trace1-2, ... (two traces named alike in different folders) */
		snprintf(out, sizeof(out), "%s/%s", dir, base_name(f.v[k], name, sizeof(name)));
		for (unsigned u = 2; stat(out, &st) == 0; u++)
			snprintf(out, sizeof(out), "%s/%s-%u", dir, name, u);
		ret = convert_into(r, f.v[k], out, open_err, errlen);
	}
	if (!ret) {
		char *copy = strdup(dir);

		if (!copy || (f.ctf && grow(&r->paths, r->npaths))) {
			free(copy);
			snprintf(open_err, errlen, "out of memory");
			ret = -1;
		} else if (f.ctf) {
			r->paths[r->npaths++] = copy; /* read as well */
		} else {
			free(r->paths[i]);
			r->paths[i] = copy;
		}
	}
out:
	for (size_t k = 0; k < f.n; k++)
		free(f.v[k]);
	free(f.v);
	return ret;
}

int trax_reader_legacy_convert(struct trax_reader *r, char *open_err, size_t errlen)
{
	size_t given = r->npaths; /* (paths added below are private copies) */

	for (size_t i = 0; i < given; i++) {
		char dir[PATH_MAX], out[PATH_MAX + 256], name[256];
		char *copy;

		if (ltt_probe_dir(r->paths[i]) == LTT_FORMAT_NONE) {
			if (convert_nested(r, i, open_err, errlen))
				return -1;
			continue;
		}
		if (make_private(r, r->paths[i], dir, sizeof(dir), open_err, errlen))
			return -1;
		snprintf(out, sizeof(out), "%s/%s", dir,
			 base_name(r->paths[i], name, sizeof(name)));
		if (convert_into(r, r->paths[i], out, open_err, errlen))
			return -1;
		copy = strdup(out);
		if (!copy) {
			snprintf(open_err, errlen, "out of memory");
			return -1;
		}
		free(r->paths[i]);
		r->paths[i] = copy;
	}
	return 0;
}

void trax_reader_legacy_cleanup(struct trax_reader *r)
{
	for (size_t i = 0; i < r->nlegacy_dirs; i++) {
		remove_tree(r->legacy_dirs[i]);
		free(r->legacy_dirs[i]);
	}
	for (size_t i = 0; i < r->nlegacy_pairs; i++) {
		free(r->legacy_from[i]);
		free(r->legacy_to[i]);
	}
	for (size_t i = 0; i < r->nlegacy_files; i++) {
		free(r->legacy_file_ctf[i]);
		free(r->legacy_file_orig[i]);
	}
	free(r->legacy_file_ctf);
	free(r->legacy_file_orig);
	r->legacy_file_ctf = r->legacy_file_orig = NULL;
	r->nlegacy_files = 0;
	free(r->legacy_dirs);
	free(r->legacy_from);
	free(r->legacy_to);
	r->legacy_dirs = r->legacy_from = r->legacy_to = NULL;
	r->nlegacy_dirs = r->nlegacy_pairs = 0;
}

const char *trax_reader_legacy_origin(const struct trax_reader *r, const char *dir)
{
	for (size_t i = 0; dir && i < r->nlegacy_pairs; i++)
		if (!strcmp(r->legacy_to[i], dir))
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
