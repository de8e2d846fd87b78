/*
 * writer-env.c - the env block of trax's traces, as LTTng 2.13 writes it
 * (see writer-env.h; the keys and their order were read off traces that
 * LTTng-UST 2.13.5 recorded with per-uid and per-pid buffers).
 */
#include "writer/trace-env.h"

#include <assert.h>
#include <time.h>

#ifndef TRAX_VERSION
#define TRAX_VERSION "0.0.0"
#endif

unsigned int ctf_env_ust(struct ctfw_env_entry out[CTF_ENV_UST_MAX],
			 const struct ctf_env_ust_desc *d)
{
	unsigned int n = 0;

#define STR(k, v) (out[n++] = (struct ctfw_env_entry){(k), (v) ? (v) : "", 0})
#define NUM(k, v) (out[n++] = (struct ctfw_env_entry){(k), NULL, (int64_t)(v)})
	STR("domain", "ust");
	STR("tracer_name", "lttng-ust");
	NUM("tracer_major", CTF_ENV_UST_MAJOR);
	NUM("tracer_minor", CTF_ENV_UST_MINOR);
	STR("tracer_buffering_scheme", d->per_pid ? "pid" : "uid");
	NUM("tracer_buffering_id", d->buffering_id);
	NUM("architecture_bit_width", d->bits);
	STR("trace_name", d->trace_name);
	STR("trace_creation_datetime", d->creation_datetime);
	STR("hostname", d->hostname);
	if (d->per_pid) {
		/* LTTng's per-process traces say more of the process */
		NUM("tracer_patchlevel", CTF_ENV_UST_PATCHLEVEL);
		NUM("vpid", d->buffering_id);
		STR("procname", d->procname);
		STR("vpid_datetime", d->vpid_datetime);
	}
	/* what really wrote the trace: keys no LTTng tool gives a meaning to */
	STR("trax_tracer_name", "trax-ust");
	STR("trax_tracer_version", TRAX_VERSION);
#undef STR
#undef NUM
	assert(n <= CTF_ENV_UST_MAX);
	return n;
}

unsigned int ctf_env_kernel(struct ctfw_env_entry out[CTF_ENV_KERNEL_MAX],
			    const struct ctf_env_kernel_desc *d)
{
	unsigned int n = 0;

#define STR(k, v) (out[n++] = (struct ctfw_env_entry){(k), (v) ? (v) : "", 0})
#define NUM(k, v) (out[n++] = (struct ctfw_env_entry){(k), NULL, (int64_t)(v)})
	STR("hostname", d->hostname);
	STR("domain", "kernel");
	STR("sysname", d->sysname);
	STR("kernel_release", d->kernel_release);
	STR("kernel_version", d->kernel_version);
	STR("tracer_name", "lttng-modules");
	NUM("tracer_major", CTF_ENV_KERNEL_MAJOR);
	NUM("tracer_minor", CTF_ENV_KERNEL_MINOR);
	NUM("tracer_patchlevel", CTF_ENV_KERNEL_PATCHLEVEL);
	STR("trace_buffering_scheme", "global");
	STR("trace_name", d->trace_name);
	STR("trace_creation_datetime", d->creation_datetime);
	/* what really wrote the trace: no kernel module, tracefs and BPF */
	STR("trax_tracer_name", "trax-kernel");
	STR("trax_tracer_version", TRAX_VERSION);
#undef STR
#undef NUM
	assert(n <= CTF_ENV_KERNEL_MAX);
	return n;
}

void ctf_env_datetime(char *out, unsigned int size, int64_t unix_seconds)
{
	time_t t = (time_t)unix_seconds;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(out, size, "%Y%m%dT%H%M%S%z", &tm))
		out[0] = 0;
}
