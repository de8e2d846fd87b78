/*
 * clock.c - the trace clock, and TRAX_CLOCK_PLUGIN: a shared object whose
 * trax_clock_plugin_init(struct trax_clock_plugin *) fills in the read
 * function, frequency, name and description, or, written for LTTng-UST,
 * whose lttng_ust_clock_plugin_init() sets them through <lttng/ust-clock.h>.
 */
#include "common/clock.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/env.h"
#include "common/log.h"
#include "common/uuid.h"

uint64_t (*trax_clock_override)(void);
struct trax_tsc_model trax_tsc;
static struct trax_clock_plugin plugin;
static char clock_uuid[37];
static int override_closed; /* trax_clock_init() is over */

/* The kernel's boot id, a UUID; returns 1 when read. */
static int read_boot_id(char out[37])
{
	char buf[64] = {0};
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 36 || buf[8] != '-' || buf[13] != '-' || buf[18] != '-' || buf[23] != '-')
		return 0;
	memcpy(out, buf, 36);
	out[36] = 0;
	return 1;
}

uint64_t trax_clock_fn(void)
{
	return trax_clock_read();
}

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", hexadecimal digits. */
static int is_uuid(const char *s)
{
	int i;

	for (i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		char c = s[i];

		if (dash ? c != '-'
			 : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			     (c >= 'A' && c <= 'F')))
			return 0;
	}
	return s[36] == 0;
}

int trax_clock_override_open(void)
{
	return !override_closed && !trax_clock_override;
}

int trax_clock_override_install(const struct trax_clock_plugin *p, const char *uuid)
{
	if (!trax_clock_override_open())
		return -EBUSY;
	if (!p->read || !p->freq)
		return -EINVAL;
	plugin = *p;
	if (uuid && is_uuid(uuid)) {
		memcpy(clock_uuid, uuid, sizeof(clock_uuid));
	} else {
		if (uuid)
			trax_debug("clock plugin: uuid '%.40s' is not a UUID; using a new one",
				   uuid);
		trax_uuid_string(clock_uuid); /* a clock of its own */
	}
	trax_clock_override = plugin.read;
	return 0;
}

/* A plugin written for LTTng-UST: lttng_ust_clock_plugin_init(), then its override. */
static int init_lttng_plugin(void *h, const char *path)
{
	void (*init)(void);

	*(void **)&init = dlsym(h, "lttng_ust_clock_plugin_init");
	if (!init) {
		trax_debug("clock plugin %s: neither trax_clock_plugin_init() nor "
			   "lttng_ust_clock_plugin_init(); using CLOCK_MONOTONIC",
			   path);
		return -1;
	}
	init();
	if (!trax_clock_override) {
		trax_debug("clock plugin %s enabled no clock override; using CLOCK_MONOTONIC",
			   path);
		return -1;
	}
	return 0;
}

static int load_plugin(void)
{
	const char *path = trax_env_get("CLOCK_PLUGIN");
	void *h;
	void (*init)(struct trax_clock_plugin *);
	struct trax_clock_plugin p;

	/*
	 * CLOCK_MONOTONIC is one clock per boot: name it by the boot id, as
	 * LTTng does, so that readers merge the traces of every process (and
	 * LTTng's own) taken since this boot on one timeline.
	 */
	if (!read_boot_id(clock_uuid))
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
		if (init_lttng_plugin(h, path))
			return -1;
	} else {
		memset(&p, 0, sizeof(p));
		init(&p);
		if (trax_clock_override_install(&p, NULL)) {
			trax_debug("clock plugin %s gave no read function or frequency; ignored",
				   path);
			return -1;
		}
	}
	trax_debug("clock plugin %s loaded (%s, %llu Hz)", path,
		   plugin.name ? plugin.name : "unnamed", (unsigned long long)plugin.freq);
	return 0;
}

int trax_clock_init(void)
{
	int err = 0;

	/* An override installed earlier (by a program's constructor) stays. */
	if (!trax_clock_override)
		err = load_plugin();
	override_closed = 1;
	return err;
}

void trax_clock_describe(struct trax_clock_info *info)
{
	struct timespec rt;
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
	clock_gettime(CLOCK_REALTIME, &rt);
	t_b = trax_clock_read();
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

#if defined(__x86_64__)
#include <cpuid.h>

#define TSC_PERIOD_NS	 50000000u /* re-base every 50 ms */
#define TSC_MAX_SLEW_PPM 1000u

static uint32_t rebase_lock;
static uint64_t anchor_tsc, anchor_ns; /* first calibration point: the long baseline */
static uint64_t max_period;	       /* TSC_PERIOD_NS in cycles */

static uint64_t model_at(uint64_t t, uint64_t bt, uint64_t bn, uint64_t mu)
{
	if (t < bt)
		return bn; /* a TSC read a little early: hold, never step back */
	return bn + (uint64_t)(((unsigned __int128)(t - bt) * mu) >> 32);
}

/*
 * A close (TSC, CLOCK_MONOTONIC) pair: the tightest of a few tries, since a
 * virtual CPU can be descheduled between two reads.
 */
static void sample(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t t1 = trax_rdtsc();
		uint64_t m = trax_clock_monotonic();
		uint64_t t2 = trax_rdtsc();

		if (t2 - t1 < best) {
			best = t2 - t1;
			*tsc = t1 + (t2 - t1) / 2;
			*ns = m;
		}
	}
}

uint64_t trax_clock_rebase(uint64_t t)
{
	uint64_t bt = __atomic_load_n(&trax_tsc.base_tsc, __ATOMIC_RELAXED);
	uint64_t bn = __atomic_load_n(&trax_tsc.base_ns, __ATOMIC_RELAXED);
	uint64_t mu = __atomic_load_n(&trax_tsc.mult, __ATOMIC_RELAXED);
	uint64_t tn, mono, v, slope, mult;
	int64_t err, corr, limit;

	if (__atomic_exchange_n(&rebase_lock, 1, __ATOMIC_ACQUIRE)) {
		/* Another thread is at it: use the parameters, read consistently. */
		for (;;) {
			uint32_t seq = __atomic_load_n(&trax_tsc.seq, __ATOMIC_ACQUIRE);

			bt = __atomic_load_n(&trax_tsc.base_tsc, __ATOMIC_RELAXED);
			bn = __atomic_load_n(&trax_tsc.base_ns, __ATOMIC_RELAXED);
			mu = __atomic_load_n(&trax_tsc.mult, __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (!(seq & 1) && __atomic_load_n(&trax_tsc.seq, __ATOMIC_RELAXED) == seq)
				return model_at(t, bt, bn, mu);
		}
	}
	bt = trax_tsc.base_tsc;
	bn = trax_tsc.base_ns;
	mu = trax_tsc.mult;
	if (t >= bt && t - bt <= trax_tsc.period) {
		__atomic_store_n(&rebase_lock, 0, __ATOMIC_RELEASE);
		return model_at(t, bt, bn, mu);
	}
	sample(&tn, &mono);
	if (tn <= anchor_tsc) {
		/* The TSC went back (restored VM?): start a new baseline here. */
		anchor_tsc = tn - 1;
		anchor_ns = mono;
	}
	v = model_at(tn, bt, bn, mu);
	/* Slope over the whole run so far: ever more precise. */
	slope = (uint64_t)(((unsigned __int128)(mono - anchor_ns) << 32) / (tn - anchor_tsc));
	err = (int64_t)(mono - v);
	if (err > 5000 || slope == 0) {
		/* Behind by more than 5 us: step forward (time never goes back). */
		v = mono;
		err = 0;
	}
	/* Slew: remove the error over the next period, within TSC_MAX_SLEW_PPM. */
	corr = (int64_t)(((__int128)err * ((__int128)1 << 32)) /
			 (__int128)(trax_tsc.period ? trax_tsc.period : 1));
	limit = (int64_t)(slope / (1000000u / TSC_MAX_SLEW_PPM));
	if (corr > limit)
		corr = limit;
	if (corr < -limit)
		corr = -limit;
	mult = (uint64_t)((int64_t)slope + corr);

	__atomic_store_n(&trax_tsc.seq, trax_tsc.seq + 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&trax_tsc.base_tsc, tn, __ATOMIC_RELAXED);
	__atomic_store_n(&trax_tsc.base_ns, v, __ATOMIC_RELAXED);
	__atomic_store_n(&trax_tsc.mult, mult, __ATOMIC_RELAXED);
	/* Short periods while the slope is young, then TSC_PERIOD_NS. */
	if (trax_tsc.period < max_period)
		__atomic_store_n(&trax_tsc.period, trax_tsc.period * 2, __ATOMIC_RELAXED);
	__atomic_store_n(&trax_tsc.seq, trax_tsc.seq + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&rebase_lock, 0, __ATOMIC_RELEASE);
	if (t <= tn)
		return model_at(t, bt, bn, mu) < v ? model_at(t, bt, bn, mu) : v;
	return model_at(t, tn, v, mult);
}

static int tsc_is_safe(void)
{
	unsigned int a, b, c, d;
	char cs[32] = {0};
	int fd;
	ssize_t n;

	/* Invariant TSC: constant rate, runs in deep C-states. */
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8)))
		return 0;
	/* The kernel trusts it (synchronized across CPUs) when it keeps time with it. */
	fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, cs, sizeof(cs) - 1);
	close(fd);
	return n >= 3 && !strncmp(cs, "tsc", 3) && (cs[3] == '\n' || cs[3] == 0);
}

void trax_clock_tsc_enable(void)
{
	const char *v = trax_env_get("CLOCK_TSC");
	uint64_t t0, m0, t1, m1;

	if (__atomic_load_n(&trax_tsc.enabled, __ATOMIC_ACQUIRE) || trax_clock_override)
		return;
	if (v && !strcmp(v, "0"))
		return;
	if (!tsc_is_safe()) {
		trax_debug("timestamps from clock_gettime(CLOCK_MONOTONIC): the TSC is not the "
			   "kernel's clocksource here");
		return;
	}
	sample(&t0, &m0);
	do
		sample(&t1, &m1);
	while (m1 - m0 < 200000 || t1 <= t0);
	anchor_tsc = t0;
	anchor_ns = m0;
	trax_tsc.mult = (uint64_t)(((unsigned __int128)(m1 - m0) << 32) / (t1 - t0));
	trax_tsc.base_tsc = t1;
	trax_tsc.base_ns = m1;
	max_period = (uint64_t)(((unsigned __int128)TSC_PERIOD_NS << 32) / trax_tsc.mult);
	trax_tsc.period = max_period >> 6; /* ~0.8 ms, doubling up to 50 ms */
	__atomic_store_n(&trax_tsc.enabled, 1, __ATOMIC_RELEASE);
	trax_debug("timestamps from the TSC (%.1f MHz), tracking CLOCK_MONOTONIC",
		   4294967296.0 / (double)trax_tsc.mult * 1000.0);
}
#else
uint64_t trax_clock_rebase(uint64_t tsc)
{
	(void)tsc;
	return trax_clock_monotonic();
}

void trax_clock_tsc_enable(void)
{
}
#endif
