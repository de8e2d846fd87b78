/*
 * main.c - traxd: options, daemonizing, and the event loop that serves the
 * `trax` command and the traced applications (docs/daemon.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "daemon/traxd.h"

#ifndef TRAX_VERSION
#define TRAX_VERSION "0.0.0"
#endif

/* How long a client has to send its request. */
#define CLIENT_TIMEOUT_MS 5000

struct traxd traxd;
static bool log_verbose;

void traxd_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "traxd[%d]: %s\n", (int)getpid(), line);
}

static void usage(FILE *out)
{
	fputs("Usage: traxd [OPTION]...\n"
	      "The trax session daemon: keeps tracing sessions, registers instrumented\n"
	      "applications, and writes their events to disk.\n"
	      "\n"
	      "  -d, --daemonize   run in the background (the parent returns once the\n"
	      "                    daemon accepts connections)\n"
	      "  -f, --foreground  stay in the foreground (the default)\n"
	      "  -g, --group=NAME  root's daemon: the group whose members may use it\n"
	      "                    (default: tracing)\n"
	      "      --rundir=DIR  run directory (default: $TRAX_RUNDIR, /run/trax for\n"
	      "                    root, else $TRAX_HOME/.trax/run)\n"
	      "  -v, --verbose     log what happens on stderr\n"
	      "  -h, --help        this help\n"
	      "  -V, --version     the version\n"
	      "\n"
	      "The `trax` command starts traxd when it needs one. See traxd(8), trax(1).\n",
	      out);
}

/* Whether the peer may drive this daemon (docs/daemon.md, "Security"). */
static bool client_allowed(int fd)
{
	int uid, gid;

	if (trax_sock_peer(fd, NULL, &uid, &gid) < 0)
		return false;
	if (uid == 0 || (uid_t)uid == traxd.uid)
		return true;
	if (traxd.is_root && traxd.have_tracing_gid) {
		/* primary group, or a supplementary one (SO_PEERGROUPS) */
		gid_t groups[256];
		socklen_t n = sizeof(groups);

		if ((gid_t)gid == traxd.tracing_gid)
			return true;
#ifdef SO_PEERGROUPS
		if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &n) == 0)
			for (size_t i = 0; i < n / sizeof(gid_t); i++)
				if (groups[i] == traxd.tracing_gid)
					return true;
#endif
	}
	return false;
}

static void send_error(int fd, uint32_t seq, const char *status, const char *msg)
{
	struct trax_msg r;

	trax_msg_init(&r, TRAX_MSG_REPLY);
	r.seq = seq;
	trax_msg_add(&r, "status", "%s", status);
	trax_msg_add(&r, "error", "%s", msg);
	trax_msg_send(fd, &r, NULL, 0);
	trax_msg_free(&r);
}

static void client_accept(void)
{
	struct trax_msg req;
	int fd, err;

	fd = accept4(traxd.client_listen, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	err = trax_msg_recv(fd, &req, CLIENT_TIMEOUT_MS);
	if (err) {
		if (err == -EPROTO)
			send_error(fd, 0, "EPROTO", "malformed request");
		close(fd);
		return;
	}
	/* answered (with the request's number, so the client shows why), never served */
	if (!client_allowed(fd))
		send_error(fd, req.seq, "EPERM",
			   "permission denied: this session daemon belongs to another user");
	else
		traxd_client_request(fd, &req);
	trax_msg_free(&req);
	close(fd);
}

static int epoll_add(int fd, void *ptr)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = ptr};

	return epoll_ctl(traxd.epoll_fd, EPOLL_CTL_ADD, fd, &ev);
}

/* Tags for the listening sockets and signals in epoll's data.ptr. */
static char tag_client, tag_app, tag_signal;

static int event_loop(int sigfd)
{
	struct epoll_event evs[64];

	while (!traxd.quit) {
		int n = epoll_wait(traxd.epoll_fd, evs, 64, 1000);

		if (n < 0 && errno != EINTR)
			return -errno;
		for (int i = 0; i < n; i++) {
			void *p = evs[i].data.ptr;

			if (p == &tag_client) {
				client_accept();
			} else if (p == &tag_app) {
				app_accept(traxd.app_listen);
			} else if (p == &tag_signal) {
				struct signalfd_siginfo si;

				if (read(sigfd, &si, sizeof(si)) == sizeof(si))
					traxd_log("signal %u: quitting", si.ssi_signo);
				traxd.quit = true;
			} else {
				app_readable(p);
			}
		}
	}
	return 0;
}

/* Forks into the background; the parent exits once the child is ready (or failed). */
static int daemonize(int *ready_fd)
{
	int pfd[2];
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		char c = 1;

		close(pfd[1]);
		/* 0: ready; nothing (EOF): the child failed and said why on stderr */
		if (read(pfd[0], &c, 1) != 1 || c != 0)
			_exit(1);
		_exit(0);
	}
	close(pfd[0]);
	setsid();
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (pid > 0)
		_exit(0);
	*ready_fd = pfd[1];
	return 0;
}

static void detach_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	if (!log_verbose)
		dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"daemonize", no_argument, NULL, 'd'},   {"foreground", no_argument, NULL, 'f'},
	    {"group", required_argument, NULL, 'g'}, {"rundir", required_argument, NULL, 'r'},
	    {"verbose", no_argument, NULL, 'v'},     {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},     {NULL, 0, NULL, 0}};
	bool daemon_mode = false, is_root;
	const char *rundir = NULL, *group = "tracing";
	int c, ready_fd = -1, sigfd, err;
	sigset_t mask;

	while ((c = getopt_long(argc, argv, "dfg:vhV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			daemon_mode = true;
			break;
		case 'f':
			daemon_mode = false;
			break;
		case 'g':
			group = optarg;
			break;
		case 'r':
			rundir = optarg;
			break;
		case 'v':
			log_verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("traxd %s\n", TRAX_VERSION);
			return 0;
		default:
			fputs("Try 'traxd --help'.\n", stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "traxd: unexpected argument '%s'\nTry 'traxd --help'.\n",
			argv[optind]);
		return 2;
	}
	memset(&traxd, 0, sizeof(traxd));
	traxd.uid = geteuid();
	traxd.lock_fd = traxd.client_listen = traxd.app_listen = -1;
	if (rundir) {
		is_root = geteuid() == 0;
		snprintf(traxd.rundir, sizeof(traxd.rundir), "%s", rundir);
	} else if ((err = traxd_rundir_default(traxd.rundir, sizeof(traxd.rundir), &is_root))) {
		fprintf(stderr, "traxd: no run directory: set HOME, TRAX_HOME or TRAX_RUNDIR\n");
		return 1;
	}
	traxd.is_root = is_root;
	snprintf(traxd.group, sizeof(traxd.group), "%s", group);
	gethostname(traxd.hostname, sizeof(traxd.hostname) - 1);
	umask(077);

	if (daemon_mode && daemonize(&ready_fd) < 0) {
		fprintf(stderr, "traxd: cannot daemonize: %s\n", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (traxd_rundir_prepare(&traxd) < 0)
		return 1;
	trax_clock_init();
	traxd.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (traxd.epoll_fd < 0 || sigfd < 0 || epoll_add(traxd.client_listen, &tag_client) ||
	    epoll_add(traxd.app_listen, &tag_app) || epoll_add(sigfd, &tag_signal)) {
		fprintf(stderr, "traxd: %s\n", strerror(errno));
		return 1;
	}
	traxd_log("ready in %s", traxd.rundir);
	if (ready_fd >= 0) {
		char ok = 0;

		detach_stdio();
		if (write(ready_fd, &ok, 1) != 1)
			return 1;
		close(ready_fd);
	}
	err = event_loop(sigfd);
	/* what was recorded goes to disk before the daemon goes */
	session_destroy_all();
	return err ? 1 : 0;
}
