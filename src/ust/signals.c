/*
 * signals.c - the committed events are written out before a fatal signal
 * ends the program, and the application's handlers still run as it set
 * them.
 *
 * While a session records, the library's handler stays in front for the
 * fatal signals: it asks the consumer to flush, then does what the
 * application asked for (its handler, with its flags and mask, or the
 * default action). To keep it in front when the application installs its
 * own handlers later, sigaction() and signal() are interposed: for those
 * signals they record the application's choice and report it back, and
 * re-install the library's handler with the application's flags and mask;
 * an application that ignores a signal gets exactly that. Untraced
 * programs, and other signals, go straight to the C library.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "common/log.h"
#include "ust/ust.h"

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGABRT, SIGSEGV, SIGBUS,
				    SIGFPE, SIGILL,  SIGQUIT, SIGHUP};
#define NR_FATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

/* What the application asked for, per fatal signal. */
static struct sigaction app_action[NR_FATAL];
/* 1 while the library's handler is the one installed in the kernel. */
static int owned[NR_FATAL];

/*
 * The C library's own entry point: no dlsym() (which may allocate, and
 * cannot be used while a sanitizer runtime sets its handlers up).
 */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *oact);

static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	return __sigaction(sig, act, oact);
}

static int fatal_index(int sig)
{
	unsigned int i;

	for (i = 0; i < NR_FATAL; i++)
		if (fatal_signals[i] == sig)
			return (int)i;
	return -1;
}

static int is_ignore(const struct sigaction *a)
{
	return !(a->sa_flags & SA_SIGINFO) && a->sa_handler == SIG_IGN;
}

static void flush_handler(int sig, siginfo_t *info, void *uctx);

/* The library's handler, with the application's flags and mask. */
static void install_ours(int sig, const struct sigaction *app)
{
	struct sigaction ours;

	memset(&ours, 0, sizeof(ours));
	ours.sa_sigaction = flush_handler;
	ours.sa_mask = app->sa_mask;
	/* SA_RESETHAND is emulated: the library must see the next one too. */
	ours.sa_flags = (app->sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
	real_sigaction(sig, &ours, NULL);
}

static void flush_handler(int sig, siginfo_t *info, void *uctx)
{
	struct trax_session *s = trax_embedded_session;
	int saved_errno = errno;
	int i = fatal_index(sig);
	struct sigaction app;

	if (i < 0)
		return;
	app = app_action[i];
	if (app.sa_flags & SA_RESETHAND) {
		/* One-shot handler: the next delivery takes the default action. */
		memset(&app_action[i], 0, sizeof(app_action[i]));
		app_action[i].sa_handler = SIG_DFL;
	}
	errno = saved_errno;
	if (app.sa_flags & SA_SIGINFO) {
		if (app.sa_sigaction) {
			app.sa_sigaction(sig, info, uctx);
			return;
		}
	} else if (app.sa_handler == SIG_IGN) {
		return;
	} else if (app.sa_handler != SIG_DFL) {
		app.sa_handler(sig);
		return;
	}
	/*
	 * Default action, which ends the process for all these signals: write
	 * out what is committed, then give the signal back to the kernel. (An
	 * application's handler runs without that delay: it may well go on, and
	 * if it ends the process by re-raising or exit(), the trace is written
	 * then.)
	 */
	if (s)
		trax_consumer_flush_from_signal(s);
	__atomic_store_n(&owned[i], 0, __ATOMIC_RELEASE);
	real_sigaction(sig, &app, NULL);
	if ((sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL) && info &&
	    info->si_code > 0)
		return; /* a fault: the instruction runs again and dies */
	{
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, sig);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	}
	raise(sig);
}

void trax_signals_install(void)
{
	unsigned int i;

	for (i = 0; i < NR_FATAL; i++) {
		struct sigaction cur;

		if (real_sigaction(fatal_signals[i], NULL, &cur))
			continue;
		/* Leave alone what the application (or its parent) chose to ignore. */
		if (is_ignore(&cur))
			continue;
		app_action[i] = cur;
		install_ours(fatal_signals[i], &cur);
		__atomic_store_n(&owned[i], 1, __ATOMIC_RELEASE);
	}
}

TRAX_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	int i = fatal_index(sig);
	sigset_t all, old;

	struct sigaction want;

	if (i < 0 || !__atomic_load_n(&owned[i], __ATOMIC_ACQUIRE))
		return real_sigaction(sig, act, oact);
	if (act)
		want = *act; /* act and oact may be the same object */
	/* The handler reads app_action: no signal in between on this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (oact)
		*oact = app_action[i];
	if (act) {
		app_action[i] = want;
		if (is_ignore(&want)) {
			__atomic_store_n(&owned[i], 0, __ATOMIC_RELEASE);
			real_sigaction(sig, &want, NULL);
		} else {
			install_ours(sig, &want);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/* signal(): BSD semantics as in glibc (handler kept, SA_RESTART). */
TRAX_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	static sighandler_t (*real_signal)(int, sighandler_t);
	struct sigaction act, old;
	int i = fatal_index(sig);

	if (i < 0 || !__atomic_load_n(&owned[i], __ATOMIC_ACQUIRE)) {
		if (!real_signal)
			*(void **)&real_signal = dlsym(RTLD_NEXT, "signal");
		if (!real_signal) {
			errno = ENOSYS;
			return SIG_ERR;
		}
		return real_signal(sig, handler);
	}
	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART;
	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, &old))
		return SIG_ERR;
	return (old.sa_flags & SA_SIGINFO) ? (sighandler_t)(void *)old.sa_sigaction
					   : old.sa_handler;
}
