/*
 * lttng/ust-clock.h - LTTng-UST's trace clock override API, for clock
 * plugins written for LTTng-UST: the shared object named by
 * LTTNG_UST_CLOCK_PLUGIN (or TRAX_CLOCK_PLUGIN) defines
 *
 *     void lttng_ust_clock_plugin_init(void);
 *
 * which libtrax-ust calls at start-up; it sets the callbacks below, then
 * calls lttng_ust_enable_trace_clock_override(). The functions return 0, or
 * a negative errno value: -EBUSY once an override is enabled, or once the
 * library has started (its traces already describe their clock: only a
 * plugin can change it); -EINVAL from the enabling when the read, frequency,
 * name or description callback is missing (the uuid one is optional).
 * trax's own plugin form, trax_clock_plugin_init(), is in trax-ust(3).
 */
#ifndef TRAX_LTTNG_UST_CLOCK_H
#define TRAX_LTTNG_UST_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The current time in clock cycles (a 64-bit monotonic counter). */
typedef uint64_t (*lttng_ust_clock_read64_function)(void);
/* Cycles per second. */
typedef uint64_t (*lttng_ust_clock_freq_function)(void);
/* Writes the clock's UUID ("xxxxxxxx-xxxx-...", LTTNG_UST_UUID_STR_LEN bytes with the NUL). */
typedef int (*lttng_ust_clock_uuid_function)(char *uuid);
/* The clock's name in the metadata, and its description. */
typedef const char *(*lttng_ust_clock_name_function)(void);
typedef const char *(*lttng_ust_clock_description_function)(void);

#define LTTNG_UST_UUID_STR_LEN 37

/* Setters, before the enabling; getters: the current ones (the default clock's until enabled). */
int lttng_ust_trace_clock_set_read64_cb(lttng_ust_clock_read64_function read64_cb);
int lttng_ust_trace_clock_get_read64_cb(lttng_ust_clock_read64_function *read64_cb);
int lttng_ust_trace_clock_set_freq_cb(lttng_ust_clock_freq_function freq_cb);
int lttng_ust_trace_clock_get_freq_cb(lttng_ust_clock_freq_function *freq_cb);
int lttng_ust_trace_clock_set_uuid_cb(lttng_ust_clock_uuid_function uuid_cb);
int lttng_ust_trace_clock_get_uuid_cb(lttng_ust_clock_uuid_function *uuid_cb);
int lttng_ust_trace_clock_set_name_cb(lttng_ust_clock_name_function name_cb);
int lttng_ust_trace_clock_get_name_cb(lttng_ust_clock_name_function *name_cb);
int lttng_ust_trace_clock_set_description_cb(lttng_ust_clock_description_function description_cb);
int lttng_ust_trace_clock_get_description_cb(lttng_ust_clock_description_function *description_cb);

/* Makes the callbacks the trace clock. */
int lttng_ust_enable_trace_clock_override(void);

#ifdef __cplusplus
}
#endif

#endif /* TRAX_LTTNG_UST_CLOCK_H */
