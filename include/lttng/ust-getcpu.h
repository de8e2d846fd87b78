/*
 * lttng/ust-getcpu.h - LTTng-UST's CPU lookup override, for getcpu plugins
 * written for LTTng-UST: the shared object named by LTTNG_UST_GETCPU_PLUGIN
 * (or TRAX_GETCPU_PLUGIN) defines
 *
 *     void lttng_ust_getcpu_plugin_init(void);
 *
 * which libtrax-ust calls at start-up, and which calls
 * lttng_ust_getcpu_override() with the function that tells the current CPU
 * (it picks the per-CPU buffer of each event). Returns 0. A program may
 * also call it at any time.
 */
#ifndef TRAX_LTTNG_UST_GETCPU_H
#define TRAX_LTTNG_UST_GETCPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int lttng_ust_getcpu_override(int (*getcpu)(void));

#ifdef __cplusplus
}
#endif

#endif /* TRAX_LTTNG_UST_GETCPU_H */
