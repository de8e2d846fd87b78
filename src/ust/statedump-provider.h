/*
 * statedump-provider.h - the LTTng-UST state dump events (lttng-ust(3),
 * "LTTng-UST state dump"): the process's name, and for each executable and
 * shared object loaded when tracing starts, its base address, size, path,
 * build ID and debug link.
 * Names, fields and field types are LTTng-UST's, so that Babeltrace 2's
 * flt.lttng-utils.debug-info component can use trax traces.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER lttng_ust_statedump
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "ust/statedump-provider.h"

#if !defined(TRAX_STATEDUMP_PROVIDER_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TRAX_STATEDUMP_PROVIDER_H

#include <stddef.h>
#include <stdint.h>
#include <trax/tracepoint.h>

/* Bytes of the procname field: LTTng-UST's, the kernel's 16 and one more. */
#define TRAX_STATEDUMP_PROCNAME_LEN 17

TRACEPOINT_EVENT(lttng_ust_statedump, start, TP_ARGS(), TP_FIELDS())

TRACEPOINT_EVENT(lttng_ust_statedump, bin_info,
		 TP_ARGS(uint64_t, baddr, uint64_t, memsz, const char *, path, uint8_t, is_pic,
			 uint8_t, has_build_id, uint8_t, has_debug_link),
		 TP_FIELDS(ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_integer(uint64_t, memsz, memsz) ctf_string(path, path)
				   ctf_integer(uint8_t, is_pic, is_pic)
				       ctf_integer(uint8_t, has_build_id, has_build_id)
					   ctf_integer(uint8_t, has_debug_link, has_debug_link)))

TRACEPOINT_EVENT(lttng_ust_statedump, build_id,
		 TP_ARGS(uint64_t, baddr, const uint8_t *, build_id, size_t, build_id_len),
		 TP_FIELDS(ctf_integer_hex(uint64_t, baddr, baddr)
			       ctf_sequence_hex(uint8_t, build_id, build_id, size_t, build_id_len)))

TRACEPOINT_EVENT(lttng_ust_statedump, debug_link,
		 TP_ARGS(uint64_t, baddr, const char *, filename, uint32_t, crc),
		 TP_FIELDS(ctf_integer_hex(uint64_t, baddr, baddr) ctf_integer(uint32_t, crc, crc)
			       ctf_string(filename, filename)))

/* The process's name at start-up (LTTng-UST 2.12 and later), 16 bytes and a NUL. */
TRACEPOINT_EVENT(lttng_ust_statedump, procname, TP_ARGS(const char *, name),
		 TP_FIELDS(ctf_array_text(char, procname, name, TRAX_STATEDUMP_PROCNAME_LEN)))

TRACEPOINT_EVENT(lttng_ust_statedump, end, TP_ARGS(), TP_FIELDS())

#endif

#include <trax/tracepoint-event.h>
