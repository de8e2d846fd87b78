/*
 * tracefs-instance.c - a tracefs instance of trax's own: making and
 * removing it (and those a killed traxd left), its files, settings,
 * events, per-CPU counters and raw buffers (see tracefs.h). Nothing here
 * writes outside root/instances/NAME, so the top-level buffer and other
 * users of ftrace keep their settings.
 */
#include "kernel/tracefs.h"
#include "kernel/tracefs-path.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* rmdir while a reader still closes its descriptor: a few short tries. */
#define RMDIR_TRIES	10
#define RMDIR_PAUSE_NS	20000000L
#define INSTANCE_PREFIX "trax-"

static int instance_file(const struct tracefs_instance *in, const char *file, char *path,
			 size_t size)
{
	if (!in->path[0] || !file || file[0] == '/')
		return -EINVAL;
	if ((size_t)snprintf(path, size, "%s/%s", in->path, file) >= size)
		return -ENAMETOOLONG;
	return 0;
}

int tracefs_write(const struct tracefs_instance *in, const char *file, const char *text)
{
	char path[1024];
	size_t len = strlen(text), done = 0;
	int fd, r = instance_file(in, file, path, sizeof(path));

	if (r < 0)
		return r;
	/* O_TRUNC: set_event_pid and the like replace their list instead of adding to it */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	close(fd);
	return r;
}

long tracefs_read(const struct tracefs_instance *in, const char *file, char *buf, size_t size)
{
	char path[1024];
	size_t len = 0;
	int fd, r = instance_file(in, file, path, sizeof(path));

	if (r < 0)
		return r;
	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	return r < 0 ? r : (long)len;
}

/* per_cpu/cpuN: the highest N + 1 (CPUs that may come online later have one too). */
static int count_cpus(const char *path)
{
	char dir[1024];
	struct dirent *d;
	int n = 0;
	DIR *dp;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/per_cpu", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		char *end;
		long cpu;

		if (strncmp(d->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)d->d_name[3]))
			continue;
		cpu = strtol(d->d_name + 3, &end, 10);
		if (*end || cpu < 0 || cpu >= 65536)
			continue;
		if (cpu + 1 > n)
			n = (int)cpu + 1;
	}
	closedir(dp);
	return n ? n : -ENOENT;
}

/* A session's name as part of a directory name: letters, digits, '.', '_', '-'. */
static void append_sanitized(char *dst, size_t size, const char *session)
{
	size_t at = strlen(dst);

	if (!session || !*session)
		session = "_";
	for (; *session && at + 1 < size; session++) {
		unsigned char c = (unsigned char)*session;

		dst[at++] = (isalnum(c) || c == '.' || c == '_' || c == '-') ? (char)c : '_';
	}
	dst[at] = 0;
}

static int set_names(struct tracefs_instance *in, const char *root, const char *name)
{
	if ((size_t)snprintf(in->root, sizeof(in->root), "%s", root) >= sizeof(in->root) ||
	    (size_t)snprintf(in->name, sizeof(in->name), "%s", name) >= sizeof(in->name) ||
	    (size_t)snprintf(in->path, sizeof(in->path), "%s/instances/%s", root, name) >=
		sizeof(in->path))
		return -ENAMETOOLONG;
	return 0;
}

int tracefs_instance_create(struct tracefs_instance *in, const char *root, const char *session)
{
	char name[sizeof(in->name)];
	int r;

	memset(in, 0, sizeof(*in));
	snprintf(name, sizeof(name), INSTANCE_PREFIX "%d-", (int)getpid());
	append_sanitized(name, sizeof(name), session);
	r = set_names(in, root, name);
	if (r < 0)
		goto fail;
	if (mkdir(in->path, 0750) != 0) {
		r = -errno;
		goto fail;
	}
	r = count_cpus(in->path);
	if (r < 0) {
		rmdir(in->path);
		goto fail;
	}
	in->nr_cpus = r;
	return 0;
fail:
	memset(in, 0, sizeof(*in));
	return r;
}

int tracefs_instance_destroy(struct tracefs_instance *in)
{
	struct timespec pause = {0, RMDIR_PAUSE_NS};
	int i, r = 0;

	if (!in->path[0])
		return 0;
	/*
	 * Stop it first: rmdir would do the same, but an instance that
	 * cannot be removed yet (EBUSY) must not go on recording meanwhile.
	 * Failures here are not the caller's business: rmdir decides.
	 */
	tracefs_write(in, "tracing_on", "0");
	tracefs_write(in, "events/enable", "0");
	tracefs_write(in, "set_event_pid", "");
	for (i = 0; i < RMDIR_TRIES; i++) {
		if (rmdir(in->path) == 0 || errno == ENOENT) {
			r = 0;
			break;
		}
		r = -errno;
		if (r != -EBUSY)
			break;
		nanosleep(&pause, NULL);
	}
	if (r == 0) {
		in->path[0] = 0;
		in->nr_cpus = 0;
	}
	return r;
}

/* The owner's pid in "trax-PID-...", or 0 when the name is not one of trax's. */
static pid_t owner_pid(const char *name)
{
	const char *p = name + strlen(INSTANCE_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) != 0 ||
	    !isdigit((unsigned char)*p))
		return 0;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || *end != '-' || pid <= 0 || pid > INT32_MAX)
		return 0;
	return (pid_t)pid;
}

int tracefs_remove_stale(const char *root)
{
	char dir[1024];
	struct dirent *d;
	int removed = 0;
	DIR *dp;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/instances", root) >= sizeof(dir))
		return -ENAMETOOLONG;
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		struct tracefs_instance in;
		pid_t pid = owner_pid(d->d_name);

		/* EPERM says the process exists: only ESRCH means its owner is gone */
		if (!pid || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		memset(&in, 0, sizeof(in));
		if (set_names(&in, root, d->d_name) == 0 && tracefs_instance_destroy(&in) == 0)
			removed++;
	}
	closedir(dp);
	return removed;
}

int tracefs_set_clock(struct tracefs_instance *in, const char *clock)
{
	return tracefs_write(in, "trace_clock", clock);
}

int tracefs_set_buffer_kb(struct tracefs_instance *in, uint64_t kb_per_cpu)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, kb_per_cpu);
	return tracefs_write(in, "buffer_size_kb", text);
}

int tracefs_set_overwrite(struct tracefs_instance *in, bool overwrite)
{
	return tracefs_write(in, "options/overwrite", overwrite ? "1" : "0");
}

int tracefs_set_tracing(struct tracefs_instance *in, bool on)
{
	return tracefs_write(in, "tracing_on", on ? "1" : "0");
}

int tracefs_set_pids(struct tracefs_instance *in, const int *pids, unsigned int npids)
{
	size_t size = (size_t)npids * 12 + 2, at = 0;
	char *text = malloc(size);
	unsigned int i;
	int r;

	if (!text)
		return -ENOMEM;
	text[0] = 0;
	for (i = 0; i < npids; i++) {
		/*
		 * -1 is "no process" (untrack --all): a pid no task can have,
		 * since pids stay below pid_max, itself at most PID_MAX_LIMIT
		 * (an empty list would mean every process)
		 */
		at += (size_t)snprintf(text + at, size - at, "%s%d", i ? " " : "",
				       pids[i] < 0 ? TRACEFS_NO_PID : pids[i]);
	}
	/* none: the truncating open alone empties the list */
	r = tracefs_write(in, "set_event_pid", text);
	free(text);
	return r;
}

int tracefs_enable_event(struct tracefs_instance *in, const char *system, const char *name, bool on)
{
	char file[512];
	int r = tracefs_event_path(file, sizeof(file), system, name, "enable");

	return r < 0 ? r : tracefs_write(in, file, on ? "1" : "0");
}

int tracefs_set_filter(struct tracefs_instance *in, const char *system, const char *name,
		       const char *filter)
{
	char file[512];
	int r = tracefs_event_path(file, sizeof(file), system, name, "filter");

	return r < 0 ? r : tracefs_write(in, file, filter);
}

/* "key: 123" at the start of a line of stats: 1 and *v set, or 0. */
static int stats_value(const char *line, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	const char *p = line + n;
	char *end;

	if (strncmp(line, key, n) != 0 || *p != ':')
		return 0;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	errno = 0;
	*v = strtoull(p, &end, 10);
	return !errno && (*end == 0 || *end == '\n');
}

int tracefs_cpu_stats(const struct tracefs_instance *in, int cpu, struct tracefs_cpu_stats *st)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"entries", offsetof(struct tracefs_cpu_stats, entries)},
	    {"overrun", offsetof(struct tracefs_cpu_stats, overrun)},
	    {"commit overrun", offsetof(struct tracefs_cpu_stats, commit_overrun)},
	    {"bytes", offsetof(struct tracefs_cpu_stats, bytes)},
	    {"dropped events", offsetof(struct tracefs_cpu_stats, dropped)},
	    {"read events", offsetof(struct tracefs_cpu_stats, read)},
	};
	char file[64], text[1024], *line, *save;
	unsigned int found = 0;
	long n;

	if (cpu < 0 || cpu >= in->nr_cpus)
		return -EINVAL;
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	n = tracefs_read(in, file, text, sizeof(text));
	if (n < 0)
		return (int)n;
	memset(st, 0, sizeof(*st));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			uint64_t v;

			if (stats_value(line, keys[k].key, &v)) {
				memcpy((char *)st + keys[k].off, &v, sizeof(v));
				found |= 1u << k;
			}
		}
	}
	/* the two counters every kernel since tracefs has; the others stay 0 when absent */
	return (found & 3) == 3 ? 0 : -EPROTO;
}

int tracefs_open_raw(const struct tracefs_instance *in, int cpu, bool snapshot)
{
	char file[64], path[1024];
	int fd, r;

	if (cpu < 0 || cpu >= in->nr_cpus)
		return -EINVAL;
	snprintf(file, sizeof(file), "per_cpu/cpu%d/%s", cpu,
		 snapshot ? "snapshot_raw" : "trace_pipe_raw");
	r = instance_file(in, file, path, sizeof(path));
	if (r < 0)
		return r;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
