/*
 * fake-traxd-client.c - a stand-in for traxd's client side, for testing the
 * `trax` command without the daemon (tests/integration/cli.sh).
 *
 * It listens on $TRAX_RUNDIR/client.sock, as traxd does, and for every
 * request it receives:
 *   - appends one line to $FAKE_TRAXD_LOG: the request's type name and its
 *     key=value strings, in order, separated by spaces
 *     ("ENABLE_EVENT session=s channel=ch1 name=my_provider:* loglevel=6");
 *   - answers from $FAKE_TRAXD_SCRIPT, read again for each request: the
 *     first line "TYPE<TAB>k=v<TAB>k=v..." whose TYPE is the request's (or
 *     "*") gives the strings of the reply, in order. Without such a line the
 *     reply is "status=0". Strings starting with '@' are directives, not
 *     sent: @close (close the connection instead of answering), @seq=N
 *     (answer with this sequence number), @type=N (answer with this message
 *     type), @sleep=MS (wait before answering), @garbage (send bytes that are
 *     not a message).
 *
 * Options: --daemonize (the parent returns once the socket listens, as
 * `traxd --daemonize` does; the `trax` command starts it so when
 * TRAX_DAEMON_PATH names it), --foreground (the default). $FAKE_TRAXD_PIDFILE,
 * when set, receives the pid of the process that listens. SIGTERM ends it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/proto.h"

static char sock_path[PATH_MAX];
static volatile sig_atomic_t quit;

static void on_term(int sig)
{
	(void)sig;
	quit = 1;
}

static const char *type_name(unsigned int t)
{
	switch (t) {
	case TRAX_MSG_CREATE:
		return "CREATE";
	case TRAX_MSG_DESTROY:
		return "DESTROY";
	case TRAX_MSG_LIST:
		return "LIST";
	case TRAX_MSG_ENABLE_CHANNEL:
		return "ENABLE_CHANNEL";
	case TRAX_MSG_DISABLE_CHANNEL:
		return "DISABLE_CHANNEL";
	case TRAX_MSG_ENABLE_EVENT:
		return "ENABLE_EVENT";
	case TRAX_MSG_DISABLE_EVENT:
		return "DISABLE_EVENT";
	case TRAX_MSG_ADD_CONTEXT:
		return "ADD_CONTEXT";
	case TRAX_MSG_START:
		return "START";
	case TRAX_MSG_STOP:
		return "STOP";
	case TRAX_MSG_SNAPSHOT_RECORD:
		return "SNAPSHOT_RECORD";
	case TRAX_MSG_TRACK:
		return "TRACK";
	case TRAX_MSG_UNTRACK:
		return "UNTRACK";
	case TRAX_MSG_STATUS:
		return "STATUS";
	default:
		return "UNKNOWN";
	}
}

static void log_request(const struct trax_msg *m)
{
	const char *path = getenv("FAKE_TRAXD_LOG");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fputs(type_name(m->type), f);
	for (const char *kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv))
		fprintf(f, " %s", kv);
	fputc('\n', f);
	fclose(f);
}

/* Answers one request; false when the connection is to be closed. */
static bool answer(int fd, const struct trax_msg *req)
{
	const char *path = getenv("FAKE_TRAXD_SCRIPT");
	const char *name = type_name(req->type);
	struct trax_msg rep;
	char *line = NULL;
	size_t cap = 0;
	bool found = false, keep = true, garbage = false;
	FILE *f = path && *path ? fopen(path, "r") : NULL;

	trax_msg_init(&rep, TRAX_MSG_REPLY);
	rep.seq = req->seq;
	while (f && !found && getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok;

		line[strcspn(line, "\n")] = 0;
		tok = strtok_r(line, "\t", &save);
		if (!tok || (strcmp(tok, name) && strcmp(tok, "*")))
			continue;
		found = true;
		while ((tok = strtok_r(NULL, "\t", &save))) {
			char *eq = strchr(tok, '=');

			if (!strcmp(tok, "@close")) {
				keep = false;
			} else if (!strcmp(tok, "@garbage")) {
				garbage = true;
			} else if (!strncmp(tok, "@seq=", 5)) {
				rep.seq = (uint32_t)strtoul(tok + 5, NULL, 10);
			} else if (!strncmp(tok, "@type=", 6)) {
				rep.type = (uint16_t)strtoul(tok + 6, NULL, 10);
			} else if (!strncmp(tok, "@sleep=", 7)) {
				trax_sleep_ms(strtol(tok + 7, NULL, 10));
			} else if (eq) {
				*eq = 0;
				trax_msg_add(&rep, tok, "%s", eq + 1);
			}
		}
	}
	if (f)
		fclose(f);
	free(line);
	if (!found)
		trax_msg_add(&rep, "status", "0");
	if (garbage) {
		static const char junk[32] = "this is not a trax message.....";

		if (write(fd, junk, sizeof(junk)) < 0)
			keep = false;
	} else if (keep && trax_msg_send(fd, &rep, NULL, 0) < 0) {
		keep = false;
	}
	trax_msg_free(&rep);
	return keep;
}

static void serve(int lfd)
{
	int cfd = -1;

	while (!quit) {
		struct pollfd p = {cfd >= 0 ? cfd : lfd, POLLIN, 0};
		int n = poll(&p, 1, 200);

		if (n <= 0)
			continue;
		if (cfd < 0) {
			cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			continue;
		}
		{
			struct trax_msg m;

			if (trax_msg_recv(cfd, &m, 1000) < 0) {
				close(cfd);
				cfd = -1;
				continue;
			}
			log_request(&m);
			if (!answer(cfd, &m)) {
				close(cfd);
				cfd = -1;
			}
			trax_msg_free(&m);
		}
	}
	if (cfd >= 0)
		close(cfd);
}

int main(int argc, char **argv)
{
	const char *rundir = getenv("TRAX_RUNDIR"), *pidfile = getenv("FAKE_TRAXD_PIDFILE");
	bool daemonize = false;
	int lfd, ready[2] = {-1, -1};
	struct sigaction sa;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--daemonize") || !strcmp(argv[i], "-d")) {
			daemonize = true;
		} else if (strcmp(argv[i], "--foreground") && strcmp(argv[i], "-f")) {
			fprintf(stderr, "fake-traxd-client: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (!rundir || !*rundir) {
		fprintf(stderr, "fake-traxd-client: TRAX_RUNDIR is not set\n");
		return 2;
	}
	snprintf(sock_path, sizeof(sock_path), "%s/client.sock", rundir);
	mkdir(rundir, 0700);
	if (daemonize) {
		pid_t pid;
		char c;

		if (pipe(ready) < 0)
			return 1;
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid > 0) {
			close(ready[1]);
			return read(ready[0], &c, 1) == 1 ? 0 : 1;
		}
		close(ready[0]);
		setsid();
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	lfd = trax_sock_listen(sock_path, 0600);
	if (lfd < 0) {
		fprintf(stderr, "fake-traxd-client: %s: %s\n", sock_path, strerror(-lfd));
		return 1;
	}
	if (pidfile && *pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	if (daemonize) {
		int null = open("/dev/null", O_RDWR);

		/* the parent (and whoever waits for its output) may go on */
		if (write(ready[1], "", 1) != 1)
			return 1;
		close(ready[1]);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			close(null);
		}
	}
	serve(lfd);
	close(lfd);
	unlink(sock_path);
	return 0;
}
