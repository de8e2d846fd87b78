/*
 * legacy.h - reading the trace formats LTTng wrote before CTF (issue 19,
 * docs/legacy-formats.md): the LTTV format (seed 000: trace versions 0.4
 * and 0.7, facilities described by eventdefs/ XML) and the compact format
 * (seed 002: versions 2.1 and 2.3, markers described in the metadata
 * channel).
 *
 * Both are read the same way: ltt_trace_open() finds the tracefiles and
 * loads every event description (facility loads and their XML, or the
 * metadata channel's markers) before any event is read, so that the event
 * classes are known up front; a cursor per tracefile then yields its
 * events in time order (blocks sorted by their begin TSC), each with its
 * class, its extended TSC, its time in ns and its payload bytes, which
 * ltt_payload_decode() (ltt-type.h) walks with the class's type and ABI.
 *
 *	struct ltt_trace *t = ltt_trace_open(dir, err, sizeof(err));
 *	for (size_t i = 0; i < ltt_trace_file_count(t); i++) {
 *		struct ltt_cursor *c = ltt_cursor_open(t, i);
 *		struct ltt_event ev;
 *		while ((st = ltt_cursor_next(c, &ev)) > 0)
 *			use(ev.cls, ev.ns, ev.payload, ev.len);
 *		if (st < 0)
 *			report(ltt_cursor_error(c));	(one line: file and offset)
 *		ltt_cursor_close(c);
 *	}
 *	ltt_trace_close(t);
 *
 * Nothing here is shared between threads; a trace may have several cursors
 * open at once (one per tracefile, for merging).
 */
#ifndef TRAX_LEGACY_LEGACY_H
#define TRAX_LEGACY_LEGACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "legacy/ltt-type.h"

enum ltt_format {
	LTT_FORMAT_NONE = 0,
	LTT_FORMAT_LTTV,    /* seed 000: major version 0 */
	LTT_FORMAT_COMPACT, /* seed 002: major version 2 */
};

/*
 * What dir holds: LTT_FORMAT_LTTV for a directory with control/ and
 * eventdefs/ whose tracefiles carry the magic with major 0,
 * LTT_FORMAT_COMPACT for one with a metadata_N tracefile (at the root or in
 * control/) of major 2, else LTT_FORMAT_NONE (a CTF trace, or nothing).
 * Cheap: reads the first block header of one file.
 */
enum ltt_format ltt_probe_dir(const char *dir);

/* An event class: what one (facility, event id) or one marker is. */
struct ltt_class {
	uint32_t index;			/* dense, 0..ltt_trace_class_count()-1 */
	const char *name;		/* "facility.event" (seed 000) or the marker's name */
	const char *channel;		/* the tracefile group (2.3's channel name, 2.1's
					   group): the CTF stream class. NULL for seed 000:
					   a facility's events may be in any group */
	const char *facility;		/* seed 000: the facility's name; NULL for markers */
	uint32_t facility_id;		/* seed 000: the id the trace gave it; markers: 0 */
	uint32_t event_id;		/* the id in the event header */
	const struct ltt_type *payload; /* a struct (its fields are the payload) */
	struct ltt_abi abi;		/* sizes, alignment, byte order of its payload */
};

/* A tracefile: one CPU's file of one tracefile group. */
struct ltt_file_info {
	const char *path;    /* as opened (dir/...) */
	const char *channel; /* the group: "cpu", "control/facilities", "metadata", ... */
	int cpu;	     /* the _N suffix */
	uint64_t blocks;     /* how many blocks the file holds */
	uint32_t block_size; /* buf_size */
};

/* The trace-wide parameters, from the first block of the first tracefile. */
struct ltt_trace_info {
	enum ltt_format format;
	uint8_t major, minor;
	uint8_t arch_size;
	uint32_t arch_type, arch_variant;
	bool big_endian;
	bool flight_recorder;
	uint8_t alignment;   /* 0: packed; else the arch size */
	bool has_heartbeat;  /* seed 000: 32-bit event TSCs */
	uint64_t start_freq; /* as in the header (kHz for 0.x, Hz for 2.x) */
	uint32_t freq_scale; /* 1 when the header has none or 0 */
	uint64_t start_tsc;
	uint64_t start_time_sec, start_time_usec;
};

struct ltt_event {
	const struct ltt_class *cls;
	uint64_t tsc;		/* extended to 64 bits */
	int64_t ns;		/* docs/legacy-formats.md 1.7 / 2.4: exact */
	const uint8_t *payload; /* valid until the next ltt_cursor_next() */
	size_t len;		/* the payload's size (from the header, else computed) */
	size_t base;		/* the payload's offset in its block: ltt_payload_decode's base */
	uint64_t offset;	/* of the event header in the file, for messages */
	/*
	 * Events the tracer lost just before this one (2.3's counters,
	 * unclosed flight-recorder blocks), 0 when none: what CTF's
	 * events_discarded counts.
	 */
	uint64_t lost_before;
	/*
	 * len is the header's event size, not yet checked against the
	 * description (only after ltt_cursor_trust_sizes()): a consumer that
	 * walks the payload anyway compares the size its walk found with len
	 * and calls ltt_cursor_check_size() when they differ.
	 */
	bool size_unchecked;
};

struct ltt_trace;
struct ltt_cursor;

/* Opens and loads dir's descriptions; NULL with err set (one line: what and where). */
struct ltt_trace *ltt_trace_open(const char *dir, char *err, size_t errlen);
void ltt_trace_close(struct ltt_trace *t);

const struct ltt_trace_info *ltt_trace_info(const struct ltt_trace *t);
size_t ltt_trace_file_count(const struct ltt_trace *t);
const struct ltt_file_info *ltt_trace_file(const struct ltt_trace *t, size_t i);
size_t ltt_trace_class_count(const struct ltt_trace *t);
const struct ltt_class *ltt_trace_class(const struct ltt_trace *t, size_t i);
/*
 * Warnings met while loading (a facility whose XML is missing, a checksum
 * that differs...): one line each, in order; NULL past the last.
 */
const char *ltt_trace_warning(const struct ltt_trace *t, size_t i);

/* A cursor over tracefile i's events, or NULL (memory; the message is in ltt_cursor_error's). */
struct ltt_cursor *ltt_cursor_open(struct ltt_trace *t, size_t i);
/*
 * The next event: 1 (ev set), 0 at the end, -1 on an error that stops the
 * file (ltt_cursor_error(); the events before it were returned). Events
 * that cannot be decoded but can be skipped (an unknown facility whose
 * event has a size) are skipped with a warning (ltt_cursor_warning).
 */
int ltt_cursor_next(struct ltt_cursor *c, struct ltt_event *ev);
/*
 * From now on, the events whose header has a size and whose description
 * has no fixed layout come with that size unchecked (ev.size_unchecked),
 * for a consumer that walks each payload once itself: the cursor's own
 * walk of it would be a second one. Formats without sizes ignore it.
 */
void ltt_cursor_trust_sizes(struct ltt_cursor *c);
/*
 * The check the cursor left out for ev, the last event it returned: the
 * payload's size (ev->len; ev->cls->abi may have changed to the fallback
 * of docs/legacy-formats.md 1.3: walk it again), or -1 when the event is
 * to be skipped (the warning is in ltt_cursor_warning()).
 */
long ltt_cursor_check_size(struct ltt_cursor *c, const struct ltt_event *ev);
/* The error: one line naming the file and the byte offset. */
const char *ltt_cursor_error(const struct ltt_cursor *c);
/* Warnings since the last call (one line each, "" when none); the caller prints them. */
const char *ltt_cursor_warning(struct ltt_cursor *c);
void ltt_cursor_close(struct ltt_cursor *c);

#endif /* TRAX_LEGACY_LEGACY_H */
