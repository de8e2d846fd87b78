/*
 * clock.c - the trace clock, and TRAX_CLOCK_PLUGIN: a shared object whose
 * trax_clock_plugin_init(struct trax_clock_plugin *) (or LTTng-UST's
 * lttng_ust_clock_plugin_init, see below) fills in the read function.
 */
#include "common/clock.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "common/log.h"
#include "common/uuid.h"

uint64_t (*trax_clock_override)(void);
static struct trax_clock_plugin plugin;
static char clock_uuid[37];

uint64_t trax_clock_fn(void)
{
	return trax_clock_read();
}

int trax_clock_init(void)
{
	const char *path = trax_env_get("CLOCK_PLUGIN");
	void *h;
	void (*init)(struct trax_clock_plugin *);

	trax_uuid_string(clock_uuid);
	if (!path || !*path)
		return 0;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		trax_debug("clock plugin %s: %s; using CLOCK_MONOTONIC", path, dlerror());
		return -1;
	}
	*(void **)&init = dlsym(h, "trax_clock_plugin_init");
	if (!init) {
		trax_debug("clock plugin %s: no trax_clock_plugin_init(); using CLOCK_MONOTONIC",
			   path);
		return -1;
	}
	init(&plugin);
	if (!plugin.read || !plugin.freq) {
		trax_debug("clock plugin %s gave no read function or frequency; ignored", path);
		memset(&plugin, 0, sizeof(plugin));
		return -1;
	}
	trax_clock_override = plugin.read;
	trax_debug("clock plugin %s loaded (%s, %llu Hz)", path,
		   plugin.name ? plugin.name : "unnamed", (unsigned long long)plugin.freq);
	return 0;
}

void trax_clock_describe(struct trax_clock_info *info)
{
	struct timespec rt, mono_a, mono_b;
	uint64_t freq = plugin.read ? plugin.freq : 1000000000u;
	uint64_t t_a, t_b, now, epoch_ns;
	__int128 cycles_since_epoch;

	memset(info, 0, sizeof(*info));
	info->name = plugin.read && plugin.name ? plugin.name : "monotonic";
	info->description =
		plugin.read && plugin.description ? plugin.description : "Monotonic Clock";
	info->freq = freq;
	memcpy(info->uuid, clock_uuid, sizeof(info->uuid));

	/* Bracket the realtime read by two trace clock reads; use their middle. */
	t_a = trax_clock_read();
	clock_gettime(CLOCK_MONOTONIC, &mono_a);
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono_b);
	t_b = trax_clock_read();
	(void)mono_a;
	(void)mono_b;
	now = t_a + (t_b - t_a) / 2;
	epoch_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	/* offset = epoch time of clock 0, in cycles: epoch_now - now. */
	cycles_since_epoch = (__int128)epoch_ns * freq / 1000000000u - (__int128)now;
	info->offset_s = (int64_t)(cycles_since_epoch / (__int128)freq);
	info->offset = (int64_t)(cycles_since_epoch % (__int128)freq);
	if (info->offset < 0) {
		info->offset += (int64_t)freq;
		info->offset_s -= 1;
	}
}
