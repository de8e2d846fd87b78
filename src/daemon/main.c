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
#include <limits.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "kernel/kdomain.h"
#include "daemon/traxd.h"

#ifndef TRAX_VERSION
#define TRAX_VERSION "0.0.0"
#endif

/* How long a client has to send its whole request, from its connection. */
#define CLIENT_TIMEOUT_MS 5000
/* How long a reply may wait for a client that does not read it. */
#define CLIENT_SEND_TIMEOUT_S 2
/* Clients whose request is being read at once; more are refused. */
#define CLIENT_MAX 64
/* How often deadlines are looked at. */
#define TICK_MS 250

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

/* ---- descriptors ---- */

/*
 * The daemon's descriptors: one per application connection (up to
 * TRAXD_MAX_APPS), one per pending client (up to CLIENT_MAX), and those of
 * the traces it writes (a memfd per channel, a stream file per CPU and
 * channel, a metadata file). Only applications come in numbers a peer
 * chooses, so the policy is simple: at start-up the soft RLIMIT_NOFILE is
 * raised to the hard one; applications only ever get descriptors below
 * fd_limit - fd_reserve (the kernel gives the lowest free one, so checking
 * the lowest free one before accepting is enough; at the limit the app.sock
 * listener is taken out of epoll, and put back once there is room: the
 * applications wait in the backlog); clients and trace files share the top
 * fd_reserve. When even those run out, opening a trace file fails (that
 * channel goes untraced) and a client is refused through the spare
 * descriptor (traxd_accept): the daemon never spins on a listener it cannot
 * accept from, and `trax` still gets through a daemon full of applications.
 */
static void fd_limits_init(void)
{
	struct rlimit rl;
	rlim_t limit = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			struct rlimit want = rl;

			/* (an unlimited hard limit: the kernel's nr_open caps it; try 1 Mi) */
			want.rlim_cur =
			    rl.rlim_max == RLIM_INFINITY ? (rlim_t)1 << 20 : rl.rlim_max;
			if (setrlimit(RLIMIT_NOFILE, &want) == 0)
				rl = want;
		}
		limit = rl.rlim_cur;
	}
	traxd.fd_limit = limit > INT_MAX ? INT_MAX : (int)limit;
	traxd.fd_reserve = traxd.fd_limit / 4;
	if (traxd.fd_reserve < 16)
		traxd.fd_reserve = 16;
	if (traxd.fd_reserve > 1024)
		traxd.fd_reserve = 1024;
	traxd.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	traxd_log("descriptors: limit %d, %d kept from applications", traxd.fd_limit,
		  traxd.fd_reserve);
}

/* Whether an application may be accepted: its descriptor would be below the reserve. */
static bool app_room(void)
{
	int probe;

	if (traxd.napps >= TRAXD_MAX_APPS)
		return false;
	/* the lowest free descriptor: the one accept4() would give */
	probe = fcntl(traxd.epoll_fd, F_DUPFD_CLOEXEC, 0);
	if (probe < 0)
		return false;
	close(probe);
	return probe < traxd.fd_limit - traxd.fd_reserve;
}

/* Tags for the listening sockets and signals in epoll's data.ptr. */
static char tag_client, tag_app, tag_signal;
/* Listeners taken out of epoll (no descriptor for what they would accept). */
static bool client_listen_off, app_listen_off;

static void listener_set(int fd, void *tag, bool *off, bool on)
{
	struct epoll_event ev = {.events = on ? EPOLLIN : 0, .data.ptr = tag};

	if (*off == !on)
		return;
	if (epoll_ctl(traxd.epoll_fd, EPOLL_CTL_MOD, fd, &ev) == 0) {
		*off = !on;
		traxd_log("%s listener %s", tag == &tag_app ? "application" : "client",
			  on ? "resumed" : "paused: out of descriptors");
	}
}

/* ---- clients: one request, one reply ---- */

/* A client connection being read; its slot is free when fd < 0. */
struct client_conn {
	int fd;
	int64_t deadline;
	struct trax_rx rx;
};

static struct client_conn clients[CLIENT_MAX];
static unsigned int nclients;

static bool is_client(const void *p)
{
	uintptr_t u = (uintptr_t)p;

	return u >= (uintptr_t)clients && u < (uintptr_t)(clients + CLIENT_MAX);
}

static void client_close(struct client_conn *c)
{
	epoll_ctl(traxd.epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	trax_rx_free(&c->rx);
	c->fd = -1;
	nclients--;
}

static void client_accept(void)
{
	struct timeval tv = {CLIENT_SEND_TIMEOUT_S, 0};
	struct epoll_event ev = {.events = EPOLLIN};
	struct client_conn *c = NULL;
	int fd = traxd_accept(traxd.client_listen);

	if (fd < 0)
		return;
	for (unsigned int i = 0; !c && i < CLIENT_MAX; i++)
		if (clients[i].fd < 0)
			c = &clients[i];
	if (!c) {
		traxd_log("%d clients waited on already: one refused", CLIENT_MAX);
		close(fd);
		return;
	}
	/* the reply is sent blocking, but a client that does not read it is not waited for */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	ev.data.ptr = c;
	if (epoll_ctl(traxd.epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->deadline = trax_now_ms() + CLIENT_TIMEOUT_MS;
	trax_rx_init(&c->rx);
	nclients++;
}

/* Reads what came of c's request; serves it once whole. False when c is closed. */
static bool client_readable(struct client_conn *c)
{
	struct trax_msg req;
	int err = trax_rx_recv(c->fd, &c->rx, &req);

	if (err == -EAGAIN)
		return true;
	if (err == 0) {
		/* answered (with the request's number, so the client shows why), never served */
		if (!client_allowed(c->fd))
			send_error(
			    c->fd, req.seq, "EPERM",
			    "permission denied: this session daemon belongs to another user");
		else
			traxd_client_request(c->fd, &req);
		trax_msg_free(&req);
	} else if (err == -EPROTO) {
		send_error(c->fd, 0, "EPROTO", "malformed request");
	}
	client_close(c);
	return false;
}

/* ---- the loop ---- */

/* Deadlines: clients past theirs, silent applications, listeners to resume. */
static void tick(int64_t now)
{
	for (unsigned int i = 0; nclients && i < CLIENT_MAX; i++) {
		struct client_conn *c = &clients[i];

		if (c->fd < 0 || now < c->deadline)
			continue;
		/* what came while the daemon was busy elsewhere still counts */
		if (client_readable(c)) {
			traxd_log("a client sent no whole request within %d ms", CLIENT_TIMEOUT_MS);
			client_close(c);
		}
	}
	apps_tick(now);
	if (traxd.spare_fd < 0)
		traxd.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (traxd.spare_fd < 0)
		return;
	listener_set(traxd.client_listen, &tag_client, &client_listen_off, true);
	if (app_listen_off && app_room())
		listener_set(traxd.app_listen, &tag_app, &app_listen_off, true);
}

static int epoll_add(int fd, void *ptr)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = ptr};

	return epoll_ctl(traxd.epoll_fd, EPOLL_CTL_ADD, fd, &ev);
}

static int event_loop(int sigfd)
{
	struct epoll_event evs[64];
	int64_t next_tick = trax_now_ms() + TICK_MS;

	for (unsigned int i = 0; i < CLIENT_MAX; i++)
		clients[i].fd = -1;
	while (!traxd.quit) {
		int64_t now = trax_now_ms();
		int n;

		if (now >= next_tick) {
			tick(now);
			next_tick = now + TICK_MS;
		}
		n = epoll_wait(traxd.epoll_fd, evs, 64,
			       (int)(next_tick > now ? next_tick - now : 0));
		if (n < 0 && errno != EINTR)
			return -errno;
		for (int i = 0; i < n; i++) {
			void *p = evs[i].data.ptr;

			if (p == &tag_client) {
				client_accept();
				/* no spare to refuse with: paused until there is one */
				if (traxd.spare_fd < 0)
					listener_set(traxd.client_listen, &tag_client,
						     &client_listen_off, false);
			} else if (p == &tag_app) {
				/* at the reserve (or without a spare): paused until there is room
				 */
				if (traxd.spare_fd >= 0 && app_room())
					app_accept(traxd.app_listen);
				else
					listener_set(traxd.app_listen, &tag_app, &app_listen_off,
						     false);
			} else if (p == &tag_signal) {
				struct signalfd_siginfo si;

				if (read(sigfd, &si, sizeof(si)) == sizeof(si))
					traxd_log("signal %u: quitting", si.ssi_signo);
				traxd.quit = true;
			} else if (is_client(p)) {
				struct client_conn *c = p;

				/*
				 * A request may drop applications that the rest of this
				 * batch names: what is left is reported again (level-
				 * triggered), after the request.
				 */
				if (c->fd >= 0 && !client_readable(c))
					break;
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
	if (!traxd_verbose)
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
	static const char default_group[] = "tracing";
	const char *rundir = NULL, *group = default_group;
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
			traxd_verbose = true;
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
	traxd.lock_fd = traxd.client_listen = traxd.app_listen = traxd.spare_fd = -1;
	if (rundir) {
		is_root = geteuid() == 0;
		snprintf(traxd.rundir, sizeof(traxd.rundir), "%s", rundir);
	} else if ((err = traxd_rundir_default(traxd.rundir, sizeof(traxd.rundir), &is_root))) {
		fprintf(stderr, "traxd: no run directory: set HOME, TRAX_HOME or TRAX_RUNDIR\n");
		return 1;
	}
	traxd.is_root = is_root;
	snprintf(traxd.group, sizeof(traxd.group), "%s", group);
	/* a group asked for by name must exist (the default may not: root alone then) */
	if (group != default_group && (!*group || !getgrnam(group))) {
		fprintf(stderr, "traxd: --group: no group named '%s'\n", group);
		return 2;
	}
	if (group != default_group && !is_root)
		fprintf(stderr, "traxd: --group is for root's daemon; ignored\n");
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
	fd_limits_init();
	if (traxd_rundir_prepare(&traxd) < 0)
		return 1;
	trax_clock_init();
	if (traxd.is_root) {
		/* what a killed traxd left in tracefs goes before anything is recorded */
		int stale = kdomain_cleanup_stale();

		if (stale > 0)
			traxd_log("removed %d tracefs instance(s) of dead daemons", stale);
	}
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
