/*
 * writer-metadata.h - TSDL (CTF 1.8) metadata for the traces trax writes:
 * the trace and its packet header, the clock, the environment, one stream
 * per channel (compact event header, packet context, context fields) and
 * one event block per event.
 */
#ifndef TRAX_CTF_WRITER_METADATA_H
#define TRAX_CTF_WRITER_METADATA_H

#include <stdint.h>

#include "common/clock.h"
#include "common/strbuf.h"
#include "trax/probe.h"

/* Context fields a channel can add before each event's payload. */
enum ctf_context {
	CTF_CTX_VPID = 0,
	CTF_CTX_VTID,
	CTF_CTX_PROCNAME,
	CTF_CTX_PTHREAD_ID,
	CTF_CTX_IP,
	CTF_CTX_COUNT
};

#define CTF_PROCNAME_LEN 17

struct ctf_env_entry {
	const char *key;
	const char *str; /* string value, or NULL for the integer */
	int64_t num;
};

struct ctf_trace_desc {
	uint8_t uuid[16];
	struct trax_clock_info clock;
	const struct ctf_env_entry *env;
	unsigned int nr_env;
};

struct ctf_stream_desc {
	uint32_t id;
	const uint8_t *contexts; /* enum ctf_context, in recording order */
	unsigned int nr_contexts;
};

/* Context names as users type them ("vpid", ...); -1 when unknown. */
int ctf_context_from_name(const char *name);
const char *ctf_context_name(int ctx);
/* Bytes a context field takes in a record. */
unsigned int ctf_context_size(int ctx);

void ctf_metadata_trace(struct strbuf *out, const struct ctf_trace_desc *trace);
void ctf_metadata_stream(struct strbuf *out, const struct ctf_stream_desc *stream);
/* loglevel < 0: none written. */
void ctf_metadata_event(struct strbuf *out, const struct trax_event_desc *ev, uint32_t id,
			uint32_t stream_id, int loglevel);

#endif /* TRAX_CTF_WRITER_METADATA_H */
