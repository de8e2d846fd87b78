/*
 * client.c - talking to traxd (docs/daemon.md): the run directory, the
 * connection (starting the daemon when a command needs one), requests and
 * replies, and the current session kept in $TRAX_HOME/.traxrc.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/client.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/clock.h"

extern char **environ;

/* How long a request may wait for its reply, unless CLI_REQ_NO_TIMEOUT. */
#define REPLY_TIMEOUT_MS 30000
/* How long a daemon started here may take to answer. */
#define START_TIMEOUT_MS 5000

static int g_fd = -1;
static uint32_t g_seq;

const char *cli_home(void)
{
	const char *h = getenv("TRAX_HOME");
	struct passwd *pw;

	if (h && *h)
		return h;
	h = getenv("HOME");
	if (h && *h)
		return h;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir ? pw->pw_dir : "/";
}

int cli_rundir(char *buf, size_t len)
{
	const char *env = getenv("TRAX_RUNDIR");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/run/trax");
	else
		n = snprintf(buf, len, "%s/.trax/run", cli_home());
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int socket_path(char *buf, size_t len)
{
	char dir[PATH_MAX];
	int err = cli_rundir(dir, sizeof(dir));

	if (err)
		return err;
	if ((size_t)snprintf(buf, len, "%s/client.sock", dir) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Whether a connection error means that no daemon listens there. */
static bool no_daemon(int err)
{
	return err == -ENOENT || err == -ECONNREFUSED || err == -ENOTDIR;
}

/*
 * The traxd to start: $TRAX_DAEMON_PATH, else the one next to this
 * program, else "traxd" from PATH (*search set).
 */
static void daemon_path(char *buf, size_t len, bool *search)
{
	const char *env = getenv("TRAX_DAEMON_PATH");
	char self[PATH_MAX];
	ssize_t n;

	*search = false;
	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = 0;
		slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			if ((size_t)snprintf(buf, len, "%s/traxd", self) < len &&
			    access(buf, X_OK) == 0)
				return;
		}
	}
	snprintf(buf, len, "traxd");
	*search = true;
}

/* Starts `traxd --daemonize` and waits until it answers: the socket, or -1 with err set. */
static int start_daemon(const char *sock, bool quiet, char *err, size_t errlen)
{
	char path[PATH_MAX];
	char *argv[] = {"traxd", "--daemonize", NULL};
	bool search;
	pid_t pid;
	int rc, status;
	int64_t deadline = trax_now_ms() + START_TIMEOUT_MS;
	const char *no = getenv("TRAX_NO_AUTOSTART");

	if (no && *no && strcmp(no, "0")) {
		snprintf(err, errlen, "No session daemon is available (TRAX_NO_AUTOSTART is set)");
		return -1;
	}
	daemon_path(path, sizeof(path), &search);
	if (!quiet) {
		printf("Spawning a session daemon\n");
		fflush(stdout);
	}
	argv[0] = path;
	rc = search ? posix_spawnp(&pid, path, NULL, NULL, argv, environ)
		    : posix_spawn(&pid, path, NULL, NULL, argv, environ);
	if (rc) {
		snprintf(err, errlen, "No session daemon is available, and %s cannot be run: %s",
			 path, strerror(rc));
		return -1;
	}
	/* `traxd --daemonize` returns once the daemon accepts connections */
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			snprintf(err, errlen, "Cannot wait for %s: %s", path, strerror(errno));
			return -1;
		}
		if (trax_now_ms() >= deadline) {
			snprintf(err, errlen, "The session daemon (%s) did not start within %d s",
				 path, START_TIMEOUT_MS / 1000);
			return -1;
		}
		trax_sleep_ms(20);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(err, errlen,
				 "No session daemon is available, and %s cannot be run", path);
		else
			snprintf(err, errlen, "The session daemon (%s) failed to start", path);
		return -1;
	}
	for (;;) {
		int fd = trax_sock_connect(sock);

		if (fd >= 0)
			return fd;
		if (!no_daemon(fd) || trax_now_ms() >= deadline) {
			snprintf(err, errlen,
				 "The session daemon started but does not answer on %s: %s", sock,
				 strerror(-fd));
			return -1;
		}
		trax_sleep_ms(20);
	}
}

static int connect_daemon(unsigned int flags, char *err, size_t errlen)
{
	char sock[PATH_MAX];
	int fd, e = socket_path(sock, sizeof(sock));

	if (e) {
		snprintf(err, errlen, "Cannot find the run directory: %s", strerror(-e));
		return -1;
	}
	fd = trax_sock_connect(sock);
	if (fd >= 0)
		return fd;
	if (!no_daemon(fd)) {
		snprintf(err, errlen, "Cannot connect to the session daemon at %s: %s", sock,
			 strerror(-fd));
		return -1;
	}
	if (!(flags & CLI_REQ_AUTOSTART)) {
		snprintf(err, errlen, "No session daemon is available");
		return -1;
	}
	return start_daemon(sock, flags & CLI_REQ_QUIET, err, errlen);
}

/* The text of an errno name the daemon answered, for a refusal without error=. */
static const char *status_text(const char *name)
{
	static const struct {
		const char *name;
		int e;
	} names[] = {
	    {"ENOENT", ENOENT},	    {"EEXIST", EEXIST},	  {"EINVAL", EINVAL},
	    {"EPERM", EPERM},	    {"EBUSY", EBUSY},	  {"EACCES", EACCES},
	    {"ENOMEM", ENOMEM},	    {"ENOSPC", ENOSPC},	  {"EIO", EIO},
	    {"EALREADY", EALREADY}, {"ENOTSUP", ENOTSUP}, {"EAGAIN", EAGAIN},
	    {"ERANGE", ERANGE},	    {"E2BIG", E2BIG},	  {"ENAMETOOLONG", ENAMETOOLONG},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name))
			return strerror(names[i].e);
	return NULL;
}

static void drop_connection(void)
{
	if (g_fd >= 0)
		close(g_fd);
	g_fd = -1;
}

static int do_request(struct trax_msg *req, struct trax_msg *reply, unsigned int flags, char *err,
		      size_t errlen)
{
	const char *first, *status, *text;
	int e;

	trax_msg_init(reply, 0);
	if (g_fd < 0) {
		g_fd = connect_daemon(flags, err, errlen);
		if (g_fd < 0)
			return CLI_FAIL;
	}
	req->seq = ++g_seq;
	e = trax_msg_send(g_fd, req, NULL, 0);
	if (e) {
		drop_connection();
		snprintf(err, errlen, "Cannot send to the session daemon: %s", strerror(-e));
		return CLI_FAIL;
	}
	e = trax_msg_recv(g_fd, reply, flags & CLI_REQ_NO_TIMEOUT ? -1 : REPLY_TIMEOUT_MS);
	if (e) {
		drop_connection();
		trax_msg_init(reply, 0);
		if (e == -ETIMEDOUT)
			snprintf(err, errlen, "The session daemon did not answer within %d s",
				 REPLY_TIMEOUT_MS / 1000);
		else if (e == -ECONNRESET)
			snprintf(err, errlen, "The session daemon closed the connection");
		else if (e == -EPROTO)
			snprintf(err, errlen, "The session daemon sent an invalid message");
		else
			snprintf(err, errlen, "Cannot receive from the session daemon: %s",
				 strerror(-e));
		return CLI_FAIL;
	}
	first = trax_msg_first(reply);
	status = first ? trax_kv_value(first, "status") : NULL;
	if (reply->type != TRAX_MSG_REPLY || reply->seq != req->seq || !status || !*status) {
		drop_connection();
		trax_msg_free(reply);
		trax_msg_init(reply, 0);
		snprintf(err, errlen, "The session daemon sent an unexpected reply");
		return CLI_FAIL;
	}
	if (!strcmp(status, "0"))
		return CLI_OK;
	text = trax_msg_get(reply, "error");
	if (text && *text)
		snprintf(err, errlen, "%s", text);
	else if (status_text(status))
		snprintf(err, errlen, "%s", status_text(status));
	else
		snprintf(err, errlen, "The session daemon refused the command (%s)", status);
	return CLI_FAIL;
}

static char g_last_error[1024];

int cli_connect(unsigned int flags)
{
	if (g_fd >= 0)
		return CLI_OK;
	g_fd = connect_daemon(flags, g_last_error, sizeof(g_last_error));
	if (g_fd >= 0)
		return CLI_OK;
	if (!(flags & CLI_REQ_QUIET))
		cli_error("%s", g_last_error);
	return CLI_FAIL;
}

int cli_request(struct trax_msg *req, struct trax_msg *reply, unsigned int flags)
{
	int rc = do_request(req, reply, flags, g_last_error, sizeof(g_last_error));

	/* traxd answers one request per connection, then closes it */
	drop_connection();
	if (rc && !(flags & CLI_REQ_QUIET))
		cli_error("%s", g_last_error);
	return rc;
}

const char *cli_last_error(void)
{
	return g_last_error;
}

const char *cli_reply_status(const struct trax_msg *reply)
{
	const char *first = trax_msg_first(reply);

	return first ? trax_kv_value(first, "status") : NULL;
}

/* ---- records ---- */

const char *cli_record_kind(const char *rec)
{
	return trax_kv_value(rec, "record");
}

const char *cli_record_next(const struct trax_msg *m, const char *rec, const char *kind)
{
	const char *kv = rec ? trax_msg_next(m, rec) : trax_msg_first(m);

	for (; kv; kv = trax_msg_next(m, kv)) {
		const char *k = trax_kv_value(kv, "record");

		if (k && (!kind || !strcmp(k, kind)))
			return kv;
	}
	return NULL;
}

const char *cli_record_each(const struct trax_msg *m, const char *rec, const char *key,
			    const char **it)
{
	const char *kv = trax_msg_next(m, *it ? *it : rec);

	for (; kv && !trax_kv_value(kv, "record"); kv = trax_msg_next(m, kv)) {
		const char *v = trax_kv_value(kv, key);

		if (v) {
			*it = kv;
			return v;
		}
	}
	return NULL;
}

const char *cli_record_get(const struct trax_msg *m, const char *rec, const char *key)
{
	const char *it = NULL;

	return cli_record_each(m, rec, key, &it);
}

/* ---- the current session ---- */

static int rc_path(char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%s/.traxrc", cli_home()) >= len ? -ENAMETOOLONG : 0;
}

const char *cli_current_session(void)
{
	static char name[CLI_NAME_MAX + 1];
	char path[PATH_MAX], line[CLI_NAME_MAX + 64];
	const char *found = NULL;
	FILE *f;

	if (rc_path(path, sizeof(path)))
		return NULL;
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\r\n");

		line[n] = 0;
		if (!strncmp(line, "session=", 8) && line[8] && n - 8 <= CLI_NAME_MAX) {
			memcpy(name, line + 8, n - 8 + 1);
			found = name;
		}
	}
	fclose(f);
	return found;
}

const char *cli_session(const char *given)
{
	const char *cur;

	if (given)
		return given;
	cur = cli_current_session();
	if (!cur)
		cli_error("No session specified and no current session (create one with "
			  "'trax create')");
	return cur;
}

int cli_set_current_session(const char *name)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	FILE *f;
	int ok;

	if (rc_path(path, sizeof(path)) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid()) >= sizeof(tmp))
		return cli_error("Cannot write the current session: path too long");
	f = fopen(tmp, "we");
	if (!f)
		return cli_error("Cannot write %s: %s", tmp, strerror(errno));
	ok = fprintf(f, "session=%s\n", name) > 0;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		return cli_error("Cannot write %s: %s", path, strerror(e));
	}
	return CLI_OK;
}

void cli_clear_current_session(const char *name)
{
	const char *cur = cli_current_session();
	char path[PATH_MAX];

	if (!cur || (name && strcmp(cur, name)) || rc_path(path, sizeof(path)))
		return;
	unlink(path);
}

bool cli_is_true(const char *v)
{
	return v && (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"));
}

/*
 * The newest snapshot of a snapshot session: the directory snapshot-N-...
 * of the largest N in its output (each snapshot holds the whole buffers,
 * so two of them hold the same events). NULL and a message when none.
 */
static char *last_snapshot(const char *session, const char *output, char *err, size_t errlen)
{
	DIR *d = opendir(output);
	struct dirent *e;
	unsigned long best = 0, n;
	char *path = NULL, *end;

	if (!d && errno != ENOENT) {
		snprintf(err, errlen,
			 "no trace path given, and the output %s of the current session %s "
			 "cannot be read: %s",
			 output, session, strerror(errno));
		return NULL;
	}
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "snapshot-", 9) ||
		    (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) ||
		    (n = strtoul(e->d_name + 9, &end, 10)) <= best || *end != '-')
			continue;
		free(path);
		best = n;
		if (asprintf(&path, "%s/%s", output, e->d_name) < 0)
			path = NULL;
	}
	if (d)
		closedir(d);
	if (!path)
		snprintf(
		    err, errlen,
		    "no trace path given, and the current session %s has no snapshot in %s yet "
		    "(trax snapshot record takes one)",
		    session, output);
	return path;
}

char *cli_current_output(char *err, size_t errlen)
{
	const char *cur = cli_current_session(), *rec, *out;
	struct trax_msg req, reply;
	char *path = NULL;
	char why[1024];

	if (!cur) {
		snprintf(err, errlen, "no trace path given and no current session");
		return NULL;
	}
	trax_msg_init(&req, TRAX_MSG_LIST);
	trax_msg_add(&req, "name", "%s", cur);
	if (do_request(&req, &reply, 0, why, sizeof(why))) {
		snprintf(err, errlen,
			 "no trace path given, and the output of the current session %s "
			 "is unknown: %s",
			 cur, why);
	} else {
		rec = cli_record_next(&reply, NULL, "session");
		out = rec ? cli_record_get(&reply, rec, "output") : NULL;
		if (!out || !*out)
			snprintf(err, errlen,
				 "no trace path given, and the current session %s has "
				 "no output directory",
				 cur);
		else if (cli_is_true(cli_record_get(&reply, rec, "snapshot")))
			path = last_snapshot(cur, out, err, errlen);
		else if (!(path = strdup(out)))
			snprintf(err, errlen, "out of memory");
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return path;
}
