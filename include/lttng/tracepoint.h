/*
 * lttng/tracepoint.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracepoint.h>.
 */
#include <trax/tracepoint.h>
#include <lttng/ust-api-compat.h>
#include <lttng/ust-version.h>

/* LTTng-UST 2.13's bound on "provider:event" names, with the NUL. */
#ifndef LTTNG_UST_TRACEPOINT_NAME_LEN_MAX
#define LTTNG_UST_TRACEPOINT_NAME_LEN_MAX 256
#endif

/* lttng_ust_loaded: LTTng-UST's name for trax_ust_loaded (set by the library). */
#ifndef TRAX_LTTNG_COMPAT_LOADED
#define TRAX_LTTNG_COMPAT_LOADED
#ifdef __cplusplus
extern "C"
#else
extern
#endif
    int lttng_ust_loaded __attribute__((weak));
#endif

/*
 * LTTng-UST 2.13's names for the same API, so that programs written for
 * either spelling compile unchanged. They expand to the classic macros at
 * their point of use, so they follow each reading of a provider header.
 */
#ifndef TRAX_LTTNG_COMPAT_213
#define TRAX_LTTNG_COMPAT_213
#define LTTNG_UST_TP_ARGS(...)		 __VA_ARGS__
#define LTTNG_UST_TP_FIELDS(...)	 __VA_ARGS__
#define LTTNG_UST_TP_ENUM_VALUES(...)	 __VA_ARGS__
#define LTTNG_UST_TRACEPOINT_EVENT	 TRACEPOINT_EVENT
#define LTTNG_UST_TRACEPOINT_EVENT_CLASS TRACEPOINT_EVENT_CLASS
/* (class provider, class, provider, event, arguments): five arguments in 2.13 */
#define LTTNG_UST_TRACEPOINT_EVENT_INSTANCE	     _TRAX_EVENT_INSTANCE
#define LTTNG_UST_TRACEPOINT_LOGLEVEL		     TRACEPOINT_LOGLEVEL
#define LTTNG_UST_TRACEPOINT_MODEL_EMF_URI	     TRACEPOINT_MODEL_EMF_URI
#define LTTNG_UST_TRACEPOINT_ENUM		     TRACEPOINT_ENUM
#define lttng_ust_tracepoint			     tracepoint
#define lttng_ust_tracepoint_enabled		     tracepoint_enabled
#define lttng_ust_do_tracepoint			     do_tracepoint
#define lttng_ust_field_integer			     ctf_integer
#define lttng_ust_field_integer_hex		     ctf_integer_hex
#define lttng_ust_field_integer_network		     ctf_integer_network
#define lttng_ust_field_integer_network_hex	     ctf_integer_network_hex
#define lttng_ust_field_integer_nowrite		     ctf_integer_nowrite
#define lttng_ust_field_float			     ctf_float
#define lttng_ust_field_float_nowrite		     ctf_float_nowrite
#define lttng_ust_field_string			     ctf_string
#define lttng_ust_field_string_nowrite		     ctf_string_nowrite
#define lttng_ust_field_array			     ctf_array
#define lttng_ust_field_array_nowrite		     ctf_array_nowrite
#define lttng_ust_field_array_hex		     ctf_array_hex
#define lttng_ust_field_array_nowrite_hex	     ctf_array_nowrite_hex
#define lttng_ust_field_array_network		     ctf_array_network
#define lttng_ust_field_array_network_nowrite	     ctf_array_network_nowrite
#define lttng_ust_field_array_network_hex	     ctf_array_network_hex
#define lttng_ust_field_array_network_nowrite_hex    ctf_array_network_nowrite_hex
#define lttng_ust_field_array_text		     ctf_array_text
#define lttng_ust_field_array_text_nowrite	     ctf_array_text_nowrite
#define lttng_ust_field_sequence		     ctf_sequence
#define lttng_ust_field_sequence_nowrite	     ctf_sequence_nowrite
#define lttng_ust_field_sequence_hex		     ctf_sequence_hex
#define lttng_ust_field_sequence_nowrite_hex	     ctf_sequence_nowrite_hex
#define lttng_ust_field_sequence_network	     ctf_sequence_network
#define lttng_ust_field_sequence_network_nowrite     ctf_sequence_network_nowrite
#define lttng_ust_field_sequence_network_hex	     ctf_sequence_network_hex
#define lttng_ust_field_sequence_network_nowrite_hex ctf_sequence_network_nowrite_hex
#define lttng_ust_field_sequence_text		     ctf_sequence_text
#define lttng_ust_field_sequence_text_nowrite	     ctf_sequence_text_nowrite
#define lttng_ust_field_enum			     ctf_enum
#define lttng_ust_field_enum_nowrite		     ctf_enum_nowrite
#define lttng_ust_field_enum_value		     ctf_enum_value
#define lttng_ust_field_enum_range		     ctf_enum_range
#define lttng_ust_field_enum_auto		     ctf_enum_auto
#define lttng_ust_field_unused			     ctf_unused
#define lttng_ust_field_unused_nowrite		     ctf_unused_nowrite
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG	     TRACE_EMERG
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_ALERT	     TRACE_ALERT
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_CRIT	     TRACE_CRIT
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR	     TRACE_ERR
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING	     TRACE_WARNING
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE	     TRACE_NOTICE
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO	     TRACE_INFO
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_SYSTEM   TRACE_DEBUG_SYSTEM
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROGRAM  TRACE_DEBUG_PROGRAM
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROCESS  TRACE_DEBUG_PROCESS
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_MODULE   TRACE_DEBUG_MODULE
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_UNIT     TRACE_DEBUG_UNIT
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION TRACE_DEBUG_FUNCTION
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE     TRACE_DEBUG_LINE
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG	     TRACE_DEBUG
#endif
