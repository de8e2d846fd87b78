/*
 * metadata.h - TSDL (CTF 1.8) metadata for the traces trax writes, from the
 * writer's own description of them (writer/desc.h): the trace and its
 * packet header, the clock, the environment, one stream block per stream
 * class (compact event header, packet context, event context) and one
 * event block per event class recorded in a stream. The text is appended
 * to `out`; out->failed tells of a lack of memory.
 */
#ifndef TRAX_CTF_WRITER_METADATA_H
#define TRAX_CTF_WRITER_METADATA_H

#include <stdint.h>

#include "common/strbuf.h"
#include "writer/desc.h"

/* The preamble: types, trace block (packet header), env, clock, shared structures. */
void ctf_metadata_trace(struct strbuf *out, const struct ctfw_trace *trace);
void ctf_metadata_stream(struct strbuf *out, const struct ctfw_stream *stream);
/* Event class ev recorded in stream stream_id under id. */
void ctf_metadata_event(struct strbuf *out, const struct ctfw_event_class *ev, uint32_t id,
			uint32_t stream_id);

#endif /* TRAX_CTF_WRITER_METADATA_H */
