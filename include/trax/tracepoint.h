/*
 * trax/tracepoint.h - instrumenting an application with tracepoints.
 *
 * The API of the lttng-ust(3) manual page: a tracepoint provider header
 * includes this file, declares its events with TRACEPOINT_EVENT() and
 * friends, and ends by including <trax/tracepoint-event.h>. Code calls
 *
 *     tracepoint(provider, event, args...);
 *
 * which costs one load and one predictable branch while the event is not
 * recorded; the arguments are then not evaluated.
 *
 * In exactly one source file of the program (or of the shared object that
 * holds the call sites), define TRACEPOINT_DEFINE before including the
 * provider headers: it defines the tracepoints and registers them with
 * libtrax-ust at start-up. Add TRACEPOINT_PROBE_DYNAMIC_LINKAGE when the
 * provider is a shared object loaded with dlopen(3) or LD_PRELOAD: the
 * program then finds libtrax-ust at run time and need not link with it.
 */

#include <trax/tp-names.h>

/* ---- Generic part: included once per translation unit. ---- */
#ifndef TRAX_TRACEPOINT_H
#define TRAX_TRACEPOINT_H

/*
 * The system headers LTTng-UST's <lttng/tracepoint.h> brings along: programs
 * written for it use their names (stderr, exit, memset, uint32_t, bool,
 * getpid, dlopen, pid_t, assert, SYS_gettid...) without including them.
 */
#include <assert.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <syscall.h>
#include <unistd.h>
/* With _LGPL_SOURCE, LTTng-UST's inlined RCU read side brings pthread.h. */
#ifdef _LGPL_SOURCE
#include <pthread.h>
#endif
/* LTTng-UST 2.13 brings <type_traits> to C++ (C++ linkage even in extern "C"). */
#ifdef __cplusplus
extern "C++" {
#include <type_traits>
}
#endif
#include <trax/tp-args.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Log levels, most severe first (TRACEPOINT_LOGLEVEL). */
enum trax_loglevel {
	TRACE_EMERG = 0,
	TRACE_ALERT = 1,
	TRACE_CRIT = 2,
	TRACE_ERR = 3,
	TRACE_WARNING = 4,
	TRACE_NOTICE = 5,
	TRACE_INFO = 6,
	TRACE_DEBUG_SYSTEM = 7,
	TRACE_DEBUG_PROGRAM = 8,
	TRACE_DEBUG_PROCESS = 9,
	TRACE_DEBUG_MODULE = 10,
	TRACE_DEBUG_UNIT = 11,
	TRACE_DEBUG_FUNCTION = 12,
	TRACE_DEBUG_LINE = 13,
	TRACE_DEBUG = 14,
};

/*
 * One call site group: the tracepoint `provider:event` of one module. `state`
 * is the only thing the fast path reads; the library sets it when a probe is
 * connected and some channel records the event.
 */
struct trax_tracepoint {
	const char *name;      /* "provider:event" */
	int state;	       /* non-zero: call the probe */
	void *probe;	       /* the provider's probe, called as probe(data, args...) */
	void *data;	       /* struct trax_event_state of the event */
	const char *signature; /* argument list, must match the provider's */
};

/* Set to 1 by libtrax-ust's constructor when the program defines it (weak). */
extern int trax_ust_loaded __attribute__((weak));

/* Registers the tracepoints of a module (called by TRACEPOINT_DEFINE code). */
int trax_tracepoints_register(struct trax_tracepoint *const *start, size_t count)
    __attribute__((visibility("default")));
void trax_tracepoints_unregister(struct trax_tracepoint *const *start)
    __attribute__((visibility("default")));

/*
 * tracepoint_disable_destructors(): the process's tracepoints and probes
 * stay registered at exit, so that tracepoints keep recording in
 * destructors that run after those of the modules defining them (LTTng-UST
 * 2.8 and later). A no-op while libtrax-ust is not loaded.
 */
void trax_disable_destructors(void) __attribute__((weak, visibility("default")));
extern void *__trax_tracepoints_lib __attribute__((weak, visibility("hidden")));
static inline void tracepoint_disable_destructors(void)
{
	void (*fn)(void) = trax_disable_destructors;

	/* With TRACEPOINT_PROBE_DYNAMIC_LINKAGE, libtrax-ust came with dlopen. */
	if (!fn && &__trax_tracepoints_lib && __trax_tracepoints_lib)
		*(void **)&fn = dlsym(__trax_tracepoints_lib, "trax_disable_destructors");
	if (fn)
		fn();
}

#define TP_ARGS(...)	    __VA_ARGS__
#define TP_FIELDS(...)	    __VA_ARGS__
#define TP_ENUM_VALUES(...) __VA_ARGS__

/*
 * An event of a class: each reading of a provider header gives the 5-argument
 * _TRAX_EVENT_INSTANCE (class provider, class, provider, event, arguments:
 * LTTng-UST 2.13's LTTNG_UST_TRACEPOINT_EVENT_INSTANCE) its meaning.
 */
#define TRACEPOINT_EVENT_INSTANCE(prov, cls, name, args)                                           \
	_TRAX_EVENT_INSTANCE(prov, cls, prov, name, TP_ARGS(args))

#define _TRAX_TP(prov, name) __trax_tp_##prov##___##name

/*
 * tracepoint(): records the event when enabled. The arguments are evaluated
 * only then.
 */
#define tracepoint(prov, name, ...)                                                                \
	do {                                                                                       \
		if (__builtin_expect(                                                              \
			__atomic_load_n(&_TRAX_TP(prov, name).state, __ATOMIC_RELAXED), 0))        \
			__trax_tp_cb_##prov##___##name(__VA_ARGS__);                               \
	} while (0)

/* Non-zero while the event is recorded somewhere. */
#define tracepoint_enabled(prov, name)                                                             \
	__builtin_expect(__atomic_load_n(&_TRAX_TP(prov, name).state, __ATOMIC_RELAXED), 0)

/* Calls the probe without the enabled check (pair with tracepoint_enabled()). */
#define do_tracepoint(prov, name, ...) __trax_tp_cb_##prov##___##name(__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* TRAX_TRACEPOINT_H */

/*
 * ---- Registration of the module's tracepoints (TRACEPOINT_DEFINE) ----
 * Pointers to every tracepoint the module defines land in one ELF section;
 * a constructor hands the section to libtrax-ust. The flag is shared by the
 * whole module so that several TRACEPOINT_DEFINE files register it once.
 */
#if defined(TRACEPOINT_DEFINE) && !defined(TRAX_TRACEPOINT_DEFINE_DONE)
#define TRAX_TRACEPOINT_DEFINE_DONE
#ifdef __cplusplus
extern "C" {
#endif
extern struct trax_tracepoint *const __start___trax_tracepoints_ptrs[]
    __attribute__((weak, visibility("hidden")));
extern struct trax_tracepoint *const __stop___trax_tracepoints_ptrs[]
    __attribute__((weak, visibility("hidden")));
/* The call sites' references to their providers' probes (<trax/tp-declare.h>). */
extern const void *const __start___trax_provider_refs[] __attribute__((weak, visibility("hidden")));
int __trax_tracepoints_registered __attribute__((weak, visibility("hidden")));
#ifdef TRACEPOINT_PROBE_DYNAMIC_LINKAGE
void *__trax_tracepoints_lib __attribute__((weak, visibility("hidden")));
#endif

static void __attribute__((constructor)) __trax_tracepoints_init(void)
{
	size_t n;

	/* Uses the references' section, so that --gc-sections keeps them. */
	__asm__ __volatile__("" : : "r"(__start___trax_provider_refs));
	if (__trax_tracepoints_registered++)
		return;
	if (!__start___trax_tracepoints_ptrs)
		return;
	n = (size_t)(__stop___trax_tracepoints_ptrs - __start___trax_tracepoints_ptrs);
#ifdef TRACEPOINT_PROBE_DYNAMIC_LINKAGE
	{
		int (*reg)(struct trax_tracepoint *const *, size_t);

		__trax_tracepoints_lib = dlopen("libtrax-ust.so.0", RTLD_NOW | RTLD_GLOBAL);
		if (!__trax_tracepoints_lib)
			return; /* tracing unavailable: call sites stay disabled */
		*(void **)&reg = dlsym(__trax_tracepoints_lib, "trax_tracepoints_register");
		if (reg)
			reg(__start___trax_tracepoints_ptrs, n);
	}
#else
	trax_tracepoints_register(__start___trax_tracepoints_ptrs, n);
#endif
}

static void __attribute__((destructor)) __trax_tracepoints_fini(void)
{
	if (--__trax_tracepoints_registered || !__start___trax_tracepoints_ptrs)
		return;
#ifdef TRACEPOINT_PROBE_DYNAMIC_LINKAGE
	if (__trax_tracepoints_lib) {
		void (*unreg)(struct trax_tracepoint *const *);

		*(void **)&unreg = dlsym(__trax_tracepoints_lib, "trax_tracepoints_unregister");
		if (unreg)
			unreg(__start___trax_tracepoints_ptrs);
	}
#else
	trax_tracepoints_unregister(__start___trax_tracepoints_ptrs);
#endif
}
#ifdef __cplusplus
}
#endif
#endif /* TRACEPOINT_DEFINE */

/* ---- Per provider header: declare the call sites (first reading). ---- */
#if !defined(TRACEPOINT_HEADER_MULTI_READ) && !defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#include <trax/tp-declare.h>
#endif
