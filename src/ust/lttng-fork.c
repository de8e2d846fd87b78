/*
 * lttng-fork.c - LTTng-UST's fork, namespace and credential hooks
 * (<lttng/ust-fork.h>, 2.10's <lttng/ust.h>). libtrax-ust follows fork(2)
 * with pthread_atfork() (daemon-client.c, embedded.c) and records no
 * namespace or credential context, so the hooks only keep their contract
 * on the signal mask: what "before" saves, "after" restores.
 */
#include <signal.h>

#include "ust/ust.h"

#include "lttng/ust-fork.h"
#include "lttng/ust.h"

TRAX_EXPORT void lttng_ust_before_fork(sigset_t *save_sigset)
{
	if (save_sigset)
		pthread_sigmask(SIG_SETMASK, NULL, save_sigset);
}

static void restore(sigset_t *restore_sigset)
{
	if (restore_sigset)
		pthread_sigmask(SIG_SETMASK, restore_sigset, NULL);
}

TRAX_EXPORT void lttng_ust_after_fork_parent(sigset_t *restore_sigset)
{
	restore(restore_sigset);
}

TRAX_EXPORT void lttng_ust_after_fork_child(sigset_t *restore_sigset)
{
	restore(restore_sigset);
}

/* The 2.10 names. */
TRAX_EXPORT void ust_before_fork(sigset_t *save_sigset)
{
	lttng_ust_before_fork(save_sigset);
}

TRAX_EXPORT void ust_after_fork_parent(sigset_t *restore_sigset)
{
	restore(restore_sigset);
}

TRAX_EXPORT void ust_after_fork_child(sigset_t *restore_sigset)
{
	restore(restore_sigset);
}

/* Nothing to refresh: no namespace or credential is cached. */
#define NOTHING_AFTER(what)                                                                        \
	TRAX_EXPORT void lttng_ust_after_##what(void)                                              \
	{                                                                                          \
	}

NOTHING_AFTER(setns)
NOTHING_AFTER(unshare)
NOTHING_AFTER(setuid)
NOTHING_AFTER(setgid)
NOTHING_AFTER(seteuid)
NOTHING_AFTER(setegid)
NOTHING_AFTER(setreuid)
NOTHING_AFTER(setregid)
NOTHING_AFTER(setresuid)
NOTHING_AFTER(setresgid)
