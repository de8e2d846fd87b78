/*
 * dl-provider.h - the events of libtrax-ust-dl.so (lttng-ust-dl(3)): one
 * per call of dlopen(3), dlmopen(3) and dlclose(3), the first two followed
 * by the object's build_id and debug_link. Names, fields and field types
 * are LTTng-UST 2.13's liblttng-ust-dl's. The ip context is the `ip`
 * argument: the call's return address in its caller.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER lttng_ust_dl
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "ust-dl/dl-provider.h"

#if !defined(TRAX_DL_PROVIDER_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TRAX_DL_PROVIDER_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <trax/tracepoint.h>

TRACEPOINT_EVENT(lttng_ust_dl, dlopen,
		 TP_ARGS(const void *, ip, uint64_t, baddr, uint64_t, memsz, int, flags,
			 const char *, path, uint8_t, has_build_id, uint8_t, has_debug_link),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_integer(uint64_t, memsz, memsz)
				   ctf_integer_hex(int, flags, flags) ctf_string(path, path)
				       ctf_integer(uint8_t, has_build_id, has_build_id)
					   ctf_integer(uint8_t, has_debug_link, has_debug_link)))

TRACEPOINT_EVENT(lttng_ust_dl, dlmopen,
		 TP_ARGS(const void *, ip, uint64_t, baddr, uint64_t, memsz, Lmid_t, nsid, int,
			 flags, const char *, path, uint8_t, has_build_id, uint8_t, has_debug_link),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_integer(uint64_t, memsz, memsz) ctf_integer(Lmid_t, nsid, nsid)
				   ctf_integer_hex(int, flags, flags) ctf_string(path, path)
				       ctf_integer(uint8_t, has_build_id, has_build_id)
					   ctf_integer(uint8_t, has_debug_link, has_debug_link)))

TRACEPOINT_EVENT(lttng_ust_dl, build_id,
		 TP_ARGS(const void *, ip, uint64_t, baddr, const uint8_t *, build_id, size_t,
			 build_id_len),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_sequence_hex(uint8_t, build_id, build_id, size_t, build_id_len)))

TRACEPOINT_EVENT(lttng_ust_dl, debug_link,
		 TP_ARGS(const void *, ip, uint64_t, baddr, const char *, filename, uint32_t, crc),
		 TP_FIELDS(ctf_unused(ip) ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_integer(uint32_t, crc, crc) ctf_string(filename, filename)))

TRACEPOINT_EVENT(lttng_ust_dl, dlclose, TP_ARGS(const void *, ip, uint64_t, baddr),
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
