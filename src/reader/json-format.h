/*
 * json-format.h - `trax view --format=json`: one JSON object per event, one
 * per line (newline-delimited JSON), written to a ctf_text_buf:
 *
 *   {"timestamp": NS|null, "name": "...", "stream_id": N, "fields": {...},
 *    "context": {...}, "packet_context": {...}}
 *
 * - timestamp: nanoseconds from the clock's origin (an integer), null when
 *   the event has no time;
 * - fields: the payload; context: the stream event context's and the event
 *   context's members in one object (an event-context member hides a
 *   stream-context member of the same name), omitted when neither scope is
 *   declared; packet_context: the packet context's members that the text
 *   output prints (not timestamp_begin/end, content_size, packet_size,
 *   events_discarded, packet_seq_num), omitted when there are none;
 * - names as displayed (one leading underscore stripped);
 * - integers and enum values in decimal, whatever their display base (all
 *   64-bit values exactly); floats as the shortest decimal that reads back
 *   to the same value, "nan", "inf", "-inf" as strings;
 * - enums: {"value": N, "labels": ["...", ...]}; structs: objects; arrays
 *   and sequences: arrays, except text ones (8-bit integers with an
 *   encoding), which are strings up to their first NUL as in the text
 *   output; variants: the selected option's value;
 * - strings: UTF-8 copied as is; '"' and '\\' escaped; control characters
 *   (below 0x20) as \u00XX; each byte that is not part of a valid UTF-8
 *   sequence as \u00XX too (the byte's value as a code point, U+0080 to
 *   U+00FF), so the output is always valid UTF-8 and the bytes recoverable.
 */
#ifndef TRAX_CTF_JSON_FORMAT_H
#define TRAX_CTF_JSON_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/decode-stream.h"
#include "reader/text-format.h"

/* One event line. has_ts false: "timestamp": null. */
void ctf_json_print_event(struct ctf_text_buf *b, const struct ctf_packet *pkt,
			  const struct ctf_event *ev, bool has_ts, int64_t ns, uint64_t stream_id);

#endif /* TRAX_CTF_JSON_FORMAT_H */
