/*
 * rundir.c - the daemon's run directory: where it is, that only its owner
 * can enter it, the lock that keeps one daemon per directory, and the two
 * sockets (docs/daemon.md, "Where a daemon lives").
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"
#include "daemon/traxd.h"

int traxd_rundir_default(char *buf, size_t len, bool *is_root)
{
	const char *env = getenv("TRAX_RUNDIR"), *home;

	*is_root = geteuid() == 0;
	if (env && *env) {
		if ((size_t)snprintf(buf, len, "%s", env) >= len)
			return -ENAMETOOLONG;
		return 0;
	}
	if (*is_root) {
		snprintf(buf, len, "/run/trax");
		return 0;
	}
	home = getenv("TRAX_HOME");
	if (!home || !*home)
		home = getenv("HOME");
	if (!home || !*home)
		return -ENOENT;
	if ((size_t)snprintf(buf, len, "%s/.trax/run", home) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* The directory exists, is ours, and (for a user's daemon) only we can enter it. */
static int check_dir(const struct traxd *d)
{
	struct stat st;

	if (lstat(d->rundir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "traxd: %s is not a directory\n", d->rundir);
		return -ENOTDIR;
	}
	if (st.st_uid != d->uid) {
		fprintf(stderr, "traxd: %s belongs to uid %d, not to this user (%d)\n", d->rundir,
			(int)st.st_uid, (int)d->uid);
		return -EPERM;
	}
	if (!d->is_root && (st.st_mode & 077)) {
		/* ours: tighten it rather than refuse */
		if (chmod(d->rundir, 0700) < 0)
			return -errno;
	}
	return 0;
}

int traxd_rundir_prepare(struct traxd *d)
{
	char path[TRAXD_PATH_MAX + 32];
	struct group *g;
	int fd, err;

	err = trax_mkdirs(d->rundir, d->is_root ? 0755 : 0700);
	if (err) {
		fprintf(stderr, "traxd: cannot create %s: %s\n", d->rundir, strerror(-err));
		return err;
	}
	if (d->is_root)
		chmod(d->rundir, 0755);
	err = check_dir(d);
	if (err) {
		if (err != -EPERM && err != -ENOTDIR)
			fprintf(stderr, "traxd: %s: %s\n", d->rundir, strerror(-err));
		return err;
	}
	snprintf(path, sizeof(path), "%s/traxd.lock", d->rundir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		fprintf(stderr, "traxd: cannot open %s: %s\n", path, strerror(errno));
		return -errno;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		char pid[32] = "";
		ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);

		if (n > 0)
			pid[n] = 0;
		pid[strcspn(pid, "\n")] = 0;
		fprintf(stderr, "traxd: a daemon (pid %s) already runs in %s\n", *pid ? pid : "?",
			d->rundir);
		close(fd);
		return -EBUSY;
	}
	if (ftruncate(fd, 0) == 0) {
		int n = snprintf(path, sizeof(path), "%d\n", (int)getpid());

		if (pwrite(fd, path, (size_t)n, 0) != n)
			traxd_log("cannot write the lock file");
	}
	d->lock_fd = fd;

	g = d->is_root ? getgrnam(d->group) : NULL;
	d->have_tracing_gid = g != NULL;
	d->tracing_gid = g ? g->gr_gid : 0;

	snprintf(path, sizeof(path), "%s/client.sock", d->rundir);
	d->client_listen = trax_sock_listen(path, d->is_root && g ? 0660 : 0600);
	if (d->client_listen >= 0 && d->is_root && g && chown(path, 0, g->gr_gid) < 0)
		traxd_log("cannot give %s to group %s: %s", path, d->group, strerror(errno));
	if (d->client_listen < 0) {
		fprintf(stderr, "traxd: cannot listen on %s: %s\n", path,
			strerror(-d->client_listen));
		return d->client_listen;
	}
	snprintf(path, sizeof(path), "%s/app.sock", d->rundir);
	d->app_listen = trax_sock_listen(path, d->is_root ? 0666 : 0600);
	if (d->app_listen < 0) {
		fprintf(stderr, "traxd: cannot listen on %s: %s\n", path, strerror(-d->app_listen));
		return d->app_listen;
	}
	return 0;
}
