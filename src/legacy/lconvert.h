/*
 * lconvert.h - a pre-CTF trace (legacy.h) converted into a CTF 1.8 trace by
 * trax's CTF writer, streaming: each tracefile becomes a stream file of
 * its channel's stream class, each event class an event class of that
 * stream, each payload its CTF record (fields in the same order, integers
 * in the host's byte order, byte-packed). Timestamps are the events' ns
 * (a 1 GHz clock without offset: exact); events the tracer lost are the
 * packets' events_discarded. `trax convert`, and the reader when it is
 * given a legacy trace, use it (docs/legacy-formats.md "How trax reads
 * them").
 */
#ifndef TRAX_LEGACY_LCONVERT_H
#define TRAX_LEGACY_LCONVERT_H

#include <stddef.h>
#include <stdint.h>

#define LCONV_MAX_THREADS 8

struct ltt_convert_stats {
	/* set by the caller (each may be NULL) */
	/* a warning of the trace or of a tracefile: one line, without '\n' */
	void (*warn)(void *arg, const char *line);
	/* called now and then: payload bytes read so far of total */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	/* each stream file made: the tracefile's path and the stream file's name in ctf_dir */
	void (*file)(void *arg, const char *legacy_path, const char *stream_name);
	void *arg;
	/*
	 * Threads converting tracefiles at once (0 or 1: the calling thread
	 * only; at most LCONV_MAX_THREADS). With more than one the callbacks
	 * are called from each, one at a time, warnings in no fixed order, and
	 * the classes' ids in the metadata depend on which thread met them
	 * first: the events and their values are the same.
	 */
	unsigned threads;
	/* filled by ltt_convert() */
	uint64_t events;    /* written */
	uint64_t discarded; /* lost by the tracer (as the legacy trace tells) */
	uint64_t skipped;   /* not written: payload not decodable, or too large for a packet */
	uint32_t files;	    /* stream files written */
	uint32_t classes;   /* event classes described */
};

/*
 * Converts the legacy trace in legacy_dir into a CTF trace in ctf_dir
 * (created when missing; it should be empty). 0 when every event was
 * converted; -1 with err set (one line naming the legacy file and
 * offset) when a tracefile had an error: the CTF trace then holds every
 * event before it (and the other tracefiles' events) and can be read;
 * -2 with err set when no CTF trace could be written (the legacy trace
 * does not open, ctf_dir cannot be written).
 */
int ltt_convert(const char *legacy_dir, const char *ctf_dir, struct ltt_convert_stats *st,
		char *err, size_t errlen);

#endif /* TRAX_LEGACY_LCONVERT_H */
