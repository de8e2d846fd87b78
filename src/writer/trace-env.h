/*
 * writer-env.h - the `env` block of the traces trax writes.
 *
 * Tools decide how to read a trace from its env: Babeltrace 2 applies its
 * LTTng rules when tracer_name starts with "lttng", Trace Compass uses its
 * LTTng-UST layout only for tracer_name "lttng-ust" with tracer_major >= 2,
 * lttng-analyses reads the tracer version. A trax user-space trace follows
 * LTTng-UST 2.13's layout, so its env is written exactly as LTTng 2.13
 * writes it for the same kind of trace (same keys, same order), and trax's
 * own name and version follow in keys of their own.
 */
#ifndef TRAX_CTF_WRITER_ENV_H
#define TRAX_CTF_WRITER_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "writer/desc.h"

/* The LTTng-UST release whose trace layout trax's user-space traces follow. */
#define CTF_ENV_UST_MAJOR      2
#define CTF_ENV_UST_MINOR      13
#define CTF_ENV_UST_PATCHLEVEL 0

/* At most this many entries in a user-space trace's env. */
#define CTF_ENV_UST_MAX 16

/*
 * A user-space trace: its buffers are per user (uid layout) or per process
 * (pid layout). The strings must outlive the entries made of them.
 */
struct ctf_env_ust_desc {
	bool per_pid;
	int64_t buffering_id;	       /* the uid, or the pid */
	unsigned int bits;	       /* 32 or 64: the applications' word size */
	const char *trace_name;	       /* the session's name */
	const char *creation_datetime; /* the session's, as "YYYYmmddTHHMMSS+zzzz" */
	const char *hostname;
	/* per_pid only: */
	const char *procname;
	const char *vpid_datetime; /* the process's registration, same format */
};

/* Fills out[] with the env entries of such a trace; returns how many. */
unsigned int ctf_env_ust(struct ctfw_env_entry out[CTF_ENV_UST_MAX],
			 const struct ctf_env_ust_desc *d);

/* The LTTng-modules release whose kernel trace layout trax's kernel traces follow. */
#define CTF_ENV_KERNEL_MAJOR	  2
#define CTF_ENV_KERNEL_MINOR	  13
#define CTF_ENV_KERNEL_PATCHLEVEL 0

/* At most this many entries in a kernel trace's env. */
#define CTF_ENV_KERNEL_MAX 16

/* A kernel trace (LTTng-modules' keys, in its order). The strings must outlive the entries. */
struct ctf_env_kernel_desc {
	const char *hostname;
	const char *sysname, *kernel_release, *kernel_version; /* uname(2)'s */
	const char *trace_name;
	const char *creation_datetime;
};

unsigned int ctf_env_kernel(struct ctfw_env_entry out[CTF_ENV_KERNEL_MAX],
			    const struct ctf_env_kernel_desc *d);

/* Formats a time as LTTng's env dates are written (local time, with its offset). */
void ctf_env_datetime(char *out, unsigned int size, int64_t unix_seconds);

#endif /* TRAX_CTF_WRITER_ENV_H */
