/*
 * lttng-plugins.c - LTTng-UST's clock override and getcpu override API
 * (<lttng/ust-clock.h>, <lttng/ust-getcpu.h>), for plugins written for
 * LTTng-UST: their lttng_ust_clock_plugin_init() and
 * lttng_ust_getcpu_plugin_init() call these (common/clock.c and
 * common/cpu.c load them). The clock callbacks are gathered here until the
 * enabling hands them to the trace clock as a struct trax_clock_plugin.
 */
#include <errno.h>
#include <string.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "ust/ust.h"

#include "lttng/ust-clock.h"
#include "lttng/ust-getcpu.h"

/* What the setters gathered; the name and description are called once, at the enabling. */
static struct {
	lttng_ust_clock_read64_function read64;
	lttng_ust_clock_freq_function freq;
	lttng_ust_clock_uuid_function uuid;
	lttng_ust_clock_name_function name;
	lttng_ust_clock_description_function description;
} pending;
static int enabled; /* the gathered callbacks are the trace clock */

/*
 * The trace clock as it is (CLOCK_MONOTONIC, or a plugin of trax's form),
 * for the getters until an override is enabled here.
 */
static uint64_t default_read64(void)
{
	return trax_clock_read();
}

static uint64_t default_freq(void)
{
	struct trax_clock_info info;

	trax_clock_describe(&info);
	return info.freq;
}

static int default_uuid(char *uuid)
{
	struct trax_clock_info info;

	trax_clock_describe(&info);
	memcpy(uuid, info.uuid, LTTNG_UST_UUID_STR_LEN);
	return 0;
}

static const char *default_name(void)
{
	struct trax_clock_info info;

	trax_clock_describe(&info);
	return info.name;
}

static const char *default_description(void)
{
	struct trax_clock_info info;

	trax_clock_describe(&info);
	return info.description;
}

/* Setters fail once the clock can no longer change. */
#define SETTER(what, type)                                                                         \
	TRAX_EXPORT int lttng_ust_trace_clock_set_##what##_cb(type cb)                             \
	{                                                                                          \
		if (enabled || !trax_clock_override_open())                                        \
			return -EBUSY;                                                             \
		pending.what = cb;                                                                 \
		return 0;                                                                          \
	}                                                                                          \
	TRAX_EXPORT int lttng_ust_trace_clock_get_##what##_cb(type *cb)                            \
	{                                                                                          \
		*cb = enabled ? pending.what : default_##what;                                     \
		return 0;                                                                          \
	}

SETTER(read64, lttng_ust_clock_read64_function)
SETTER(freq, lttng_ust_clock_freq_function)
SETTER(uuid, lttng_ust_clock_uuid_function)
SETTER(name, lttng_ust_clock_name_function)
SETTER(description, lttng_ust_clock_description_function)

TRAX_EXPORT int lttng_ust_enable_trace_clock_override(void)
{
	struct trax_clock_plugin p;
	char uuid[LTTNG_UST_UUID_STR_LEN] = {0};
	int err;

	if (enabled || !trax_clock_override_open())
		return -EBUSY;
	if (!pending.read64 || !pending.freq || !pending.name || !pending.description)
		return -EINVAL;
	p.read = pending.read64;
	p.freq = pending.freq();
	p.name = pending.name();
	p.description = pending.description();
	if (!p.freq || !p.name || !p.description)
		return -EINVAL;
	/* No uuid callback, or one that fails: a uuid of the clock's own. */
	if (pending.uuid && pending.uuid(uuid) == 0)
		uuid[LTTNG_UST_UUID_STR_LEN - 1] = 0;
	else
		uuid[0] = 0;
	err = trax_clock_override_install(&p, uuid[0] ? uuid : NULL);
	if (!err)
		enabled = 1;
	return err;
}

TRAX_EXPORT int lttng_ust_getcpu_override(int (*getcpu)(void))
{
	__atomic_store_n(&trax_getcpu_override, getcpu, __ATOMIC_RELEASE);
	return 0;
}
