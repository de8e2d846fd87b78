/*
 * trax/tp-names.h - accepts LTTng-UST 2.13's spellings of the provider
 * switches (LTTNG_UST_TRACEPOINT_DEFINE, ..._CREATE_PROBES,
 * ..._PROBE_DYNAMIC_LINKAGE) by defining the classic ones. No include guard:
 * read at each inclusion, since the switches are set per file.
 */
#if defined(LTTNG_UST_TRACEPOINT_DEFINE) && !defined(TRACEPOINT_DEFINE)
#define TRACEPOINT_DEFINE
#endif
#if defined(LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE) &&                                         \
    !defined(TRACEPOINT_PROBE_DYNAMIC_LINKAGE)
#define TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#endif
#if defined(LTTNG_UST_TRACEPOINT_CREATE_PROBES) && !defined(TRACEPOINT_CREATE_PROBES)
#define TRACEPOINT_CREATE_PROBES
#endif
