/*
 * init.c - libtrax-ust's start-up and shutdown.
 *
 * The constructor of the shared library runs before the program's; in a
 * static link this file is only pulled in through trax_ust_ensure_init(),
 * which every registration calls, so that tracing starts however the
 * program was linked and in whatever order the constructors run.
 */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/log.h"
#include "ust/ust.h"

/* Programs define these weakly to learn whether the tracer is loaded. */
extern int trax_ust_loaded __attribute__((weak));
extern int lttng_ust_loaded __attribute__((weak));

void trax_tracef_register(void);
void trax_statedump_register(void);

static int init_state;	 /* 0: not started, 1: running, 2: done */
static pid_t init_owner; /* the thread running it (re-entry returns at once) */

void trax_ust_ensure_init(void)
{
	int expected = 0;
	pid_t self;

	if (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) == 2)
		return;
	self = (pid_t)syscall(SYS_gettid);
	if (!__atomic_compare_exchange_n(&init_state, &expected, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		/* Re-entered from the initialization itself: go on. */
		if (__atomic_load_n(&init_owner, __ATOMIC_RELAXED) == self)
			return;
		while (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2)
			sched_yield();
		return;
	}
	__atomic_store_n(&init_owner, self, __ATOMIC_RELAXED);
	if (&trax_ust_loaded)
		trax_ust_loaded = 1;
	if (&lttng_ust_loaded)
		lttng_ust_loaded = 1;
	trax_log_init();
	trax_cpu_init();
	trax_clock_init();
	trax_tracef_register();
	trax_statedump_register();
	trax_embedded_init();
	/* Last: the daemons hear of every event registered so far. */
	trax_daemon_client_init();
	__atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
	/*
	 * After the library is up: a thread that registers a provider
	 * meanwhile goes on (and waits for the daemons on its own) instead of
	 * spinning until the start-up ends.
	 */
	trax_daemon_client_wait();
}

static void __attribute__((constructor(101))) trax_ust_init(void)
{
	trax_ust_ensure_init();
}

static void __attribute__((destructor(101))) trax_ust_fini(void)
{
	trax_embedded_fini();
}
