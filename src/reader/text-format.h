/*
 * text-format.h - Babeltrace 2's default text output (sink.text.pretty),
 * byte for byte, as docs/text-format.md describes it: one line per event,
 * the discarded events/packets warnings, the time formats.
 *
 * Lines are written to a ctf_text_buf (text-buf.h), an output buffer
 * written out when full (by a writer thread with direct I/O when the
 * output is a large regular file); the formatter builds them with
 * hand-written integer formatting (no printf per field), from a plan of
 * each event class's line made on its first event (text-plan.h).
 *
 *	struct ctf_text_buf out;
 *	ctf_text_buf_init(&out, 1);
 *	struct ctf_text_printer p;
 *	ctf_text_printer_init(&p, &opts, &out);
 *	ctf_text_print_event(&p, &trace_info, packet, event, ns);
 *	...
 *	ctf_text_buf_flush(&out);
 *	ctf_text_printer_fini(&p);
 */
#ifndef TRAX_CTF_TEXT_FORMAT_H
#define TRAX_CTF_TEXT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "reader/ctf-ir.h"
#include "reader/decode-stream.h"
#include "reader/text-buf.h"

/* Which names are printed (--names) and which header items (--fields). */
struct ctf_text_options {
	bool clock_cycles;
	bool clock_seconds;
	bool clock_date;
	bool clock_gmt;
	bool no_delta;
	bool names_payload; /* default on */
	bool names_context; /* default on */
	bool names_scope;
	bool names_header;
	bool field_trace;
	bool field_hostname; /* default on */
	bool field_domain;
	bool field_procname; /* default on */
	bool field_vpid;     /* default on */
	bool field_loglevel;
	bool field_emf;
};

/* The defaults of babeltrace2 without --names and --fields. */
void ctf_text_options_default(struct ctf_text_options *o);
/*
 * Parses the LIST of --names=LIST (is_names) or --fields=LIST into o.
 * 0, or -1 when a word is unknown (*bad then points at it, in list).
 */
int ctf_text_options_parse(struct ctf_text_options *o, bool is_names, const char *list, char *bad,
			   size_t badlen);

/* What the header items of a trace's events print (from its env and name). */
struct ctf_text_trace {
	const char *name;			  /* docs/text-format.md 6.1, never NULL */
	const char *hostname, *domain, *procname; /* NULL when absent */
	bool has_vpid;
	int64_t vpid;
};

/* Fills t from the trace's env; name is kept as given. */
void ctf_text_trace_init(struct ctf_text_trace *t, const struct ctf_trace *trace, const char *name);

struct ctf_text_plan_cache;

struct ctf_text_printer {
	struct ctf_text_options opt;
	struct ctf_text_buf *out;
	uint64_t last_ns;     /* as Babeltrace: (uint64_t)-1 until the first event */
	uint64_t last_cycles; /* the same for --clock-cycles */
	bool negative_warned;
	/* where the warnings go: NULL for stderr (after stdout is flushed) */
	FILE *err;

	/* Private: */
	struct ctf_text_plan_cache *plans; /* the line plans (text-plan.h) */
	/*
	 * The time stamp's text up to the nanoseconds ("[HH:MM:SS." ...) for
	 * the second starting at sec_start_ns (1 << 63: none yet); copied 32
	 * bytes at a time, hence its size.
	 */
	uint64_t sec_start_ns;
	size_t sec_text_len;
	char sec_text[96];
};

/*
 * The printer keeps plans keyed by the addresses of the event classes and
 * of the ctf_text_trace given to ctf_text_print_event(): both must outlive
 * it (until ctf_text_printer_fini()).
 */
void ctf_text_printer_init(struct ctf_text_printer *p, const struct ctf_text_options *o,
			   struct ctf_text_buf *out);
/* Frees what the printer keeps between lines (not its output buffer). */
void ctf_text_printer_fini(struct ctf_text_printer *p);

/*
 * One event line. ns: the event's time in ns from the origin (used when
 * ev->has_clock). Never fails (the buffer grows for a huge line; write
 * errors are kept in out->error).
 */
void ctf_text_print_event(struct ctf_text_printer *p, const struct ctf_text_trace *t,
			  const struct ctf_packet *pkt, const struct ctf_event *ev, int64_t ns);

struct ctf_text_plan;
/*
 * The same for lines whose plan cannot change from one to the next (see
 * ctf_text_print_rest_hinted() in text-plan.h): *hint, NULL at first, keeps it.
 */
void ctf_text_print_event_hinted(struct ctf_text_printer *p, const struct ctf_text_trace *t,
				 const struct ctf_packet *pkt, const struct ctf_event *ev,
				 int64_t ns, const struct ctf_text_plan **hint);

/*
 * Formats a time for a WARNING line (wall clock or seconds, never cycles)
 * into buf (at least 64 bytes), NUL-terminated; returns its length. May
 * write the one-time negative time warning to stderr.
 */
size_t ctf_text_format_time(struct ctf_text_printer *p, int64_t ns, char *buf);

/* The kinds of discarded-items warnings. */
enum ctf_text_discard_kind {
	CTF_TEXT_DISCARDED_EVENTS,
	CTF_TEXT_DISCARDED_PACKETS,
};

/*
 * Writes one "WARNING: Tracer discarded ..." line to stderr. count 0 with
 * has_count false: "may have discarded". has_range false: "(unknown time
 * range)". uuid NULL: "(no UUID)".
 */
void ctf_text_print_discarded(struct ctf_text_printer *p, enum ctf_text_discard_kind kind,
			      bool has_count, uint64_t count, bool has_range, int64_t begin_ns,
			      int64_t end_ns, const char *trace_name, const uint8_t *uuid,
			      const char *stream_path, uint64_t stream_class_id,
			      uint64_t stream_id);

#endif /* TRAX_CTF_TEXT_FORMAT_H */
