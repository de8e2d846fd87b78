/* tp.h - the filter tests' provider: one event with a field of every kind
 * a filter can read (tests/integration/filter_lttng.sh). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER flt

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"

#if !defined(FLT_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define FLT_TP_H

#include <lttng/tracepoint.h>
#include <arpa/inet.h>
#include <stdint.h>

#include "rows.h"

TRACEPOINT_ENUM(flt, color,
	TP_ENUM_VALUES(
		ctf_enum_value("RED", 0)
		ctf_enum_value("GREEN", 1)
		ctf_enum_range("MANY", 10, 20)
	)
)

TRACEPOINT_EVENT(flt, ev,
	TP_ARGS(const struct flt_row *, r),
	TP_FIELDS(
		ctf_integer(int, n, r->n)
		ctf_integer(int, i, r->i)
		ctf_integer(unsigned int, u, r->u)
		ctf_integer(int8_t, i8, r->i8)
		ctf_integer(uint8_t, u8, r->u8)
		ctf_integer(int64_t, i64, r->i64)
		ctf_integer(uint64_t, u64, r->u64)
		ctf_integer_hex(int, hx, r->i)
		ctf_integer_network(uint16_t, net, htons(r->net))
		ctf_float(double, d, r->d)
		ctf_float(float, f, r->f)
		ctf_string(s, r->s)
		ctf_array(int32_t, arr, r->arr, 3)
		ctf_array_text(char, txt, r->txt, 4)
		ctf_sequence(int16_t, seq, r->seq, size_t, r->seq_len)
		ctf_sequence_text(char, stxt, r->s, unsigned int, r->stxt_len)
		ctf_enum(flt, color, int, e, r->e)
		ctf_integer_nowrite(int, hid, r->hid)
		ctf_string_nowrite(hs, r->hs)
	)
)

/* an event without the fields of flt:ev: a filter naming them is false for it */
TRACEPOINT_EVENT(flt, other,
	TP_ARGS(int, x),
	TP_FIELDS(
		ctf_integer(int, x, x)
	)
)

#endif /* FLT_TP_H */

#include <lttng/tracepoint-event.h>
