/*
 * trax/tp-declare.h - first reading of a provider header: declares each
 * tracepoint and its inline call-site helper (and defines the tracepoint under
 * TRACEPOINT_DEFINE). Included by <trax/tracepoint.h>, and again by
 * <trax/tracepoint-event.h> to restore these meanings after generating probes.
 * No include guard: it is meant to be read several times.
 */
#undef TRACEPOINT_EVENT
#undef TRACEPOINT_EVENT_CLASS
#undef _TRAX_EVENT_INSTANCE
#undef TRACEPOINT_LOGLEVEL
#undef TRACEPOINT_MODEL_EMF_URI
#undef TRACEPOINT_ENUM
#undef _TRAX_TP_DEFINITION

#define TRACEPOINT_EVENT(prov, name, args, fields)                                                 \
	_TRAX_DECLARE_TRACEPOINT(prov, name, TP_ARGS(args))
#define TRACEPOINT_EVENT_CLASS(prov, cls, args, fields)
#define _TRAX_EVENT_INSTANCE(cls_prov, cls, prov, name, args)                                      \
	_TRAX_DECLARE_TRACEPOINT(prov, name, TP_ARGS(args))
#define TRACEPOINT_LOGLEVEL(prov, name, level)
#define TRACEPOINT_MODEL_EMF_URI(prov, name, uri)
#define TRACEPOINT_ENUM(prov, name, values)

/*
 * Symbol visibility, as LTTng-UST 2.13 sets it, read at each inclusion of a
 * provider header: a tracepoint's definition is seen by every module (so a
 * program's call sites may use the tracepoints a shared library it links
 * with defines), unless LTTNG_UST_TRACEPOINT_HIDDEN_DEFINITION keeps it in
 * its module; LTTNG_UST_TRACEPOINT_PROVIDER_HIDDEN_DEFINITION does the same
 * for the provider's symbol (<trax/tracepoint-event.h>).
 */
#undef _TRAX_TP_VISIBILITY
#undef _TRAX_PROVIDER_VISIBILITY
#ifdef LTTNG_UST_TRACEPOINT_HIDDEN_DEFINITION
#define _TRAX_TP_VISIBILITY __attribute__((visibility("hidden")))
#else
#define _TRAX_TP_VISIBILITY __attribute__((visibility("default")))
#endif
#ifdef LTTNG_UST_TRACEPOINT_PROVIDER_HIDDEN_DEFINITION
#define _TRAX_PROVIDER_VISIBILITY __attribute__((visibility("hidden")))
#else
#define _TRAX_PROVIDER_VISIBILITY __attribute__((visibility("default")))
#endif

#undef _TRAX_PROVIDER_REF
#if defined(TRACEPOINT_DEFINE) && !defined(TRACEPOINT_PROBE_DYNAMIC_LINKAGE)
/*
 * A reference to the symbol only the provider's probes define
 * (<trax/tracepoint-event.h>): linking the call sites pulls the probes out
 * of an archive, or names the provider in an "undefined reference to
 * __trax_probes_of_provider_PROV" error when they are missing, instead of a
 * program that runs without its events. The section is kept by the
 * registration constructor (<trax/tracepoint.h>) under --gc-sections too.
 * Not with TRACEPOINT_PROBE_DYNAMIC_LINKAGE: the probes come at run time.
 */
#define _TRAX_PROVIDER_REF(prov, name)                                                             \
	_TRAX_EXTERN_C int __trax_probes_of_provider_##prov _TRAX_PROVIDER_VISIBILITY;             \
	static const void *const __trax_provider_ref_##prov##___##name                             \
	    __attribute__((used, section("__trax_provider_refs"))) =                               \
		&__trax_probes_of_provider_##prov;
#else
#define _TRAX_PROVIDER_REF(prov, name)
#endif

#ifdef TRACEPOINT_DEFINE
/* The definition, and a pointer to it in the module's registration section. */
#define _TRAX_TP_DEFINITION(prov, name, args)                                                      \
	struct trax_tracepoint _TRAX_TP(prov, name) __attribute__((weak))                          \
	_TRAX_TP_VISIBILITY = {#prov ":" #name, 0, 0, 0, _TRAX_STR(_TRAX_PARAMS(args))};           \
	static struct trax_tracepoint *const __trax_tp_ptr_##prov##___##name                       \
	    __attribute__((used, section("__trax_tracepoints_ptrs"))) = &_TRAX_TP(prov, name);     \
	_TRAX_PROVIDER_REF(prov, name)
#else
#define _TRAX_TP_DEFINITION(prov, name, args)
#endif

/*
 * The helper loads the probe once the branch in tracepoint() is taken; a NULL
 * probe (provider not loaded) makes do_tracepoint() a no-op. The instruction
 * after the call keeps the probe's return address (the ip context) in the
 * inlined helper: a tracepoint that ends a function would otherwise be a tail
 * call, its ip in the caller's caller, and Babeltrace 2's debug-info filter
 * would name the wrong function, or the next line.
 */
#ifndef _TRAX_DECLARE_TRACEPOINT
#ifdef __cplusplus
#define _TRAX_EXTERN_C extern "C"
#else
#define _TRAX_EXTERN_C extern
#endif
#define _TRAX_DECLARE_TRACEPOINT(prov, name, args)                                                 \
	_TRAX_EXTERN_C struct trax_tracepoint _TRAX_TP(prov, name) _TRAX_TP_VISIBILITY;            \
	_TRAX_TP_DEFINITION(prov, name, TP_ARGS(args))                                             \
	static inline                                                                              \
	    __attribute__((always_inline)) void __trax_tp_cb_##prov##___##name(_TRAX_PARAMS(args)) \
	{                                                                                          \
		void *__tp_probe = __atomic_load_n(&_TRAX_TP(prov, name).probe, __ATOMIC_ACQUIRE); \
		void *__tp_data = __atomic_load_n(&_TRAX_TP(prov, name).data, __ATOMIC_ACQUIRE);   \
		if (__builtin_expect(__tp_probe != 0, 1)) {                                        \
			((void (*)(void *_TRAX_CPARAMS(args)))__tp_probe)(                         \
			    __tp_data _TRAX_CANAMES(args));                                        \
			__asm__ __volatile__("nop");                                               \
		}                                                                                  \
	}
#endif
