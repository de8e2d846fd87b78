/*
 * lib-provider.h - LTTng-UST's shared library load/unload tracking events
 * (lttng-ust(3), "Shared library load/unload tracking"): an object that
 * appeared since the loaded objects were last looked at (lttng_ust_lib:load,
 * then its build_id and debug_link), one that went (unload). Names, fields
 * and field types are LTTng-UST 2.13's. The ip context is the `ip` argument:
 * the caller of the dlopen(3) or dlclose(3) that made the change.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER lttng_ust_lib
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "ust/lib-provider.h"

#if !defined(TRAX_LIB_PROVIDER_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TRAX_LIB_PROVIDER_H

#include <stddef.h>
#include <stdint.h>
#include <trax/tracepoint.h>

TRACEPOINT_EVENT(lttng_ust_lib, load,
		 TP_ARGS(const void *, ip, uint64_t, baddr, uint64_t, memsz, const char *, path,
			 uint8_t, has_build_id, uint8_t, has_debug_link),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_integer(uint64_t, memsz, memsz) ctf_string(path, path)
				   ctf_integer(uint8_t, has_build_id, has_build_id)
				       ctf_integer(uint8_t, has_debug_link, has_debug_link)))

TRACEPOINT_EVENT(lttng_ust_lib, build_id,
		 TP_ARGS(const void *, ip, uint64_t, baddr, const uint8_t *, build_id, size_t,
			 build_id_len),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_sequence_hex(uint8_t, build_id, build_id, size_t, build_id_len)))

TRACEPOINT_EVENT(lttng_ust_lib, debug_link,
		 TP_ARGS(const void *, ip, uint64_t, baddr, const char *, filename, uint32_t, crc),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_integer(uint32_t, crc, crc) ctf_string(filename, filename)))

TRACEPOINT_EVENT(lttng_ust_lib, unload, TP_ARGS(const void *, ip, uint64_t, baddr),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)))

#endif

/* The probes take the ip context from the `ip` argument (outermost reading only). */
#ifndef TRACEPOINT_HEADER_MULTI_READ
#define TP_IP_PARAM ip
#include <trax/tracepoint-event.h>
#undef TP_IP_PARAM
#else
#include <trax/tracepoint-event.h>
#endif
