/*
 * init.c - libtrax-ust's constructor and destructor.
 */
#include "common/clock.h"
#include "common/cpu.h"
#include "common/log.h"
#include "ust/ust.h"

/* Programs define these weakly to learn whether the tracer is loaded. */
extern int trax_ust_loaded __attribute__((weak));
extern int lttng_ust_loaded __attribute__((weak));

void trax_tracef_register(void);

static void __attribute__((constructor(101))) trax_ust_init(void)
{
	if (&trax_ust_loaded)
		trax_ust_loaded = 1;
	if (&lttng_ust_loaded)
		lttng_ust_loaded = 1;
	trax_log_init();
	trax_cpu_init();
	trax_clock_init();
	trax_tracef_register();
	trax_embedded_init();
}

static void __attribute__((destructor(101))) trax_ust_fini(void)
{
	trax_embedded_fini();
}
