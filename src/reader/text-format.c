/*
 * text-format.c - Babeltrace 2's sink.text.pretty output (see
 * text-format.h and docs/text-format.md): the options, the time stamps and
 * deltas, the warnings. The rest of a line comes from text-plan.c.
 *
 * The time stamp reuses the text of its second ("[HH:MM:SS.") until the
 * second changes, and writes the nanoseconds eight digits at a time.
 */
#include "reader/text-format.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "reader/text-plan.h"
#include "reader/text-write.h"

#define NS_PER_S 1000000000LL

/* Room for the time stamp and the delta of a line, in every format. */
#define TIME_PART_MAX 192

/* ---- options ---- */

void ctf_text_options_default(struct ctf_text_options *o)
{
	memset(o, 0, sizeof(*o));
	o->names_payload = o->names_context = true;
	o->field_hostname = o->field_procname = o->field_vpid = true;
}

int ctf_text_options_parse(struct ctf_text_options *o, bool is_names, const char *list, char *bad,
			   size_t badlen)
{
	const char *s = list;

	if (is_names)
		o->names_payload = o->names_context = o->names_scope = o->names_header = false;
	else
		o->field_trace = o->field_hostname = o->field_domain = o->field_procname =
		    o->field_vpid = o->field_loglevel = o->field_emf = false;
	for (;;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char w[64];
		bool ok = true;

		if (n >= sizeof(w))
			ok = false;
		else {
			memcpy(w, s, n);
			w[n] = 0;
		}
		if (ok && is_names) {
			if (!strcmp(w, "payload"))
				o->names_payload = true;
			else if (!strcmp(w, "context"))
				o->names_context = true;
			else if (!strcmp(w, "scope"))
				o->names_scope = true;
			else if (!strcmp(w, "header"))
				o->names_header = true;
			else if (!strcmp(w, "all"))
				o->names_payload = o->names_context = o->names_scope =
				    o->names_header = true;
			else if (!strcmp(w, "none"))
				;
			else
				ok = false;
		} else if (ok) {
			if (!strcmp(w, "trace"))
				o->field_trace = true;
			else if (!strcmp(w, "trace:hostname"))
				o->field_hostname = true;
			else if (!strcmp(w, "trace:domain"))
				o->field_domain = true;
			else if (!strcmp(w, "trace:procname"))
				o->field_procname = true;
			else if (!strcmp(w, "trace:vpid"))
				o->field_vpid = true;
			else if (!strcmp(w, "loglevel"))
				o->field_loglevel = true;
			else if (!strcmp(w, "emf"))
				o->field_emf = true;
			else if (!strcmp(w, "callsite"))
				;
			else if (!strcmp(w, "all"))
				o->field_trace = o->field_hostname = o->field_domain =
				    o->field_procname = o->field_vpid = o->field_loglevel =
					o->field_emf = true;
			else
				ok = false;
		}
		if (!ok) {
			snprintf(bad, badlen, "%.*s", (int)n, s);
			return -1;
		}
		if (!e)
			return 0;
		s = e + 1;
	}
}

void ctf_text_trace_init(struct ctf_text_trace *t, const struct ctf_trace *trace, const char *name)
{
	const struct ctf_env_entry *e;

	memset(t, 0, sizeof(*t));
	t->name = name ? name : "";
	e = ctf_trace_env(trace, "hostname");
	if (e && e->is_string)
		t->hostname = e->string;
	e = ctf_trace_env(trace, "domain");
	if (e && e->is_string)
		t->domain = e->string;
	e = ctf_trace_env(trace, "procname");
	if (e && e->is_string)
		t->procname = e->string;
	e = ctf_trace_env(trace, "vpid");
	if (e && !e->is_string) {
		t->has_vpid = true;
		t->vpid = e->integer;
	}
}

/* ---- time ---- */

/*
 * "[YYYY-MM-DD ]HH:MM:SS" of second sec into out. Called once per second of
 * events (printers keep the text of the current second), from any thread.
 */
static size_t wall_prefix(bool gmt, bool date, uint64_t sec, char *out)
{
	struct tm tm;
	time_t t = (time_t)sec;
	size_t n = 0;

	if (gmt)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	if (date)
		n = strftime(out, 32, "%Y-%m-%d ", &tm);
	n += (size_t)snprintf(out + n, 16, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
	return n;
}

size_t ctf_text_format_time(struct ctf_text_printer *p, int64_t ns, char *buf)
{
	int64_t sec = ns / NS_PER_S, nsec = ns % NS_PER_S;
	uint64_t sec_abs, nsec_abs;
	bool neg;
	size_t n = 0;
	char tmp[24], *e, *d;

	if (sec >= 0 && nsec >= 0) {
		neg = false;
		sec_abs = (uint64_t)sec;
		nsec_abs = (uint64_t)nsec;
	} else if (sec > 0 && nsec < 0) {
		neg = false;
		sec_abs = (uint64_t)(sec - 1);
		nsec_abs = (uint64_t)(NS_PER_S + nsec);
	} else if (sec == 0 && nsec < 0) {
		neg = true;
		sec_abs = 0;
		nsec_abs = (uint64_t)-nsec;
	} else if (sec < 0 && nsec > 0) {
		neg = true;
		sec_abs = (uint64_t) - (sec + 1);
		nsec_abs = (uint64_t)(NS_PER_S - nsec);
	} else if (sec < 0 && nsec == 0) {
		neg = true;
		sec_abs = (uint64_t)0 - (uint64_t)sec;
		nsec_abs = 0;
	} else {
		neg = true;
		sec_abs = (uint64_t)0 - (uint64_t)sec;
		nsec_abs = (uint64_t)-nsec;
	}
	if (!p->opt.clock_seconds) {
		if (neg && !p->negative_warned) {
			if (!p->err)
				fflush(stdout);
			fputs("[warning] Fallback to [sec.ns] to print negative time value. Use "
			      "--clock-seconds.\n",
			      p->err ? p->err : stderr);
			p->negative_warned = true;
			goto seconds;
		}
		n = wall_prefix(p->opt.clock_gmt, p->opt.clock_date, sec_abs, buf);
		goto nanos;
	}
seconds:
	if (neg)
		buf[n++] = '-';
	e = tmp + sizeof(tmp);
	d = ctf_text_dec_u64(e, sec_abs);
	memcpy(buf + n, d, (size_t)(e - d));
	n += (size_t)(e - d);
nanos:
	buf[n++] = '.';
	n = (size_t)(ctf_text_write_nanos(buf + n, (uint32_t)nsec_abs) - buf);
	buf[n] = 0;
	return n;
}

/*
 * The time stamp and the delta of a line: "[TIME] (+DELTA) ", or
 * "timestamp = TIME, delta = +DELTA" with header names. At most
 * TIME_PART_MAX bytes.
 */
static inline __attribute__((always_inline)) char *
write_time_part(struct ctf_text_printer *p, char *d, const struct ctf_event *ev, int64_t ns)
{
	const struct ctf_text_options *o = &p->opt;
	bool names = o->names_header;

	if (o->clock_cycles) {
		d = names ? CTF_TEXT_WRITEL(d, "timestamp = ") : CTF_TEXT_WRITEL(d, "[");
		d = ctf_text_write_u64_pad(d, ev->clock_value, 20);
		if (!names)
			d = CTF_TEXT_WRITEL(d, "] ");
	} else if (__builtin_expect(ns >= 0, 1)) {
		uint64_t in_sec = (uint64_t)ns - p->sec_start_ns;

		/* sec_start_ns is 1 << 63 at first: never within a second of ns >= 0 */
		if (__builtin_expect(in_sec >= (uint64_t)NS_PER_S, 0)) {
			uint64_t sec = (uint64_t)ns / NS_PER_S;
			char *t = p->sec_text;

			t = names ? CTF_TEXT_WRITEL(t, "timestamp = ") : CTF_TEXT_WRITEL(t, "[");
			if (o->clock_seconds)
				t = ctf_text_write_u64(t, sec);
			else
				t += wall_prefix(o->clock_gmt, o->clock_date, sec, t);
			*t++ = '.';
			p->sec_text_len = (size_t)(t - p->sec_text);
			p->sec_start_ns = sec * NS_PER_S;
			in_sec = (uint64_t)ns - p->sec_start_ns;
		}
		d = ctf_text_copy_literal(d, p->sec_text, p->sec_text_len);
		d = ctf_text_write_nanos(d, (uint32_t)in_sec);
		if (!names)
			d = CTF_TEXT_WRITEL(d, "] ");
	} else {
		/* negative: Babeltrace's quirks (docs/text-format.md 3.6) */
		d = names ? CTF_TEXT_WRITEL(d, "timestamp = ") : CTF_TEXT_WRITEL(d, "[");
		d += ctf_text_format_time(p, ns, d);
		if (!names)
			d = CTF_TEXT_WRITEL(d, "] ");
	}
	if (!o->no_delta) {
		d = names ? CTF_TEXT_WRITEL(d, ", delta = ") : CTF_TEXT_WRITEL(d, "(");
		if (o->clock_cycles) {
			if (p->last_cycles == (uint64_t)-1) {
				d = CTF_TEXT_WRITEL(d, "+????????????");
			} else {
				*d++ = '+';
				d = ctf_text_write_u64_pad(d, ev->clock_value - p->last_cycles, 12);
			}
		} else if (p->last_ns == (uint64_t)-1) {
			d = CTF_TEXT_WRITEL(d, "+?.?????????");
		} else {
			uint64_t delta = (uint64_t)ns - p->last_ns;

			*d++ = '+';
			if (delta < 10000) {
				/* events microseconds apart (most of a busy trace): 4 digits */
				unsigned int hi = (unsigned int)delta / 100,
					     lo = (unsigned int)delta % 100;

				memcpy(d, "0.00000", 7);
				memcpy(d + 7, ctf_text_digits2 + 2 * hi, 2);
				memcpy(d + 9, ctf_text_digits2 + 2 * lo, 2);
				d += 11;
			} else if (delta < (uint64_t)NS_PER_S) {
				*d++ = '0';
				*d++ = '.';
				d = ctf_text_write_nanos(d, (uint32_t)delta);
			} else {
				d = ctf_text_write_u64(d, delta / NS_PER_S);
				*d++ = '.';
				d = ctf_text_write_nanos(d, (uint32_t)(delta % NS_PER_S));
			}
		}
		if (!names)
			d = CTF_TEXT_WRITEL(d, ") ");
	}
	p->last_ns = (uint64_t)ns;
	p->last_cycles = ev->clock_value;
	return d;
}

/* ---- printers and event lines ---- */

void ctf_text_printer_init(struct ctf_text_printer *p, const struct ctf_text_options *o,
			   struct ctf_text_buf *out)
{
	memset(p, 0, sizeof(*p));
	p->opt = *o;
	p->out = out;
	p->last_ns = (uint64_t)-1;
	p->last_cycles = (uint64_t)-1;
	p->sec_start_ns = (uint64_t)1 << 63;
}

void ctf_text_printer_fini(struct ctf_text_printer *p)
{
	ctf_text_plan_cache_free(p->plans);
	p->plans = NULL;
}

void ctf_text_print_event(struct ctf_text_printer *p, const struct ctf_text_trace *t,
			  const struct ctf_packet *pkt, const struct ctf_event *ev, int64_t ns)
{
	struct ctf_text_buf *b = p->out;

	if (ev->has_clock) {
		char *d = ctf_text_room(b, b->data + b->len, TIME_PART_MAX + CTF_TEXT_COPY_SLACK);

		d = write_time_part(p, d, ev, ns);
		b->len = (size_t)(d - b->data);
	}
	ctf_text_print_rest(&p->plans, &p->opt, b, t, pkt, ev);
}

void ctf_text_print_event_hinted(struct ctf_text_printer *p, const struct ctf_text_trace *t,
				 const struct ctf_packet *pkt, const struct ctf_event *ev,
				 int64_t ns, const struct ctf_text_plan **hint)
{
	struct ctf_text_buf *b = p->out;

	if (ev->has_clock) {
		char *d = ctf_text_room(b, b->data + b->len, TIME_PART_MAX + CTF_TEXT_COPY_SLACK);

		d = write_time_part(p, d, ev, ns);
		b->len = (size_t)(d - b->data);
	}
	ctf_text_print_rest_hinted(&p->plans, &p->opt, b, t, pkt, ev, hint);
}

/* ---- warnings ---- */

void ctf_text_print_discarded(struct ctf_text_printer *p, enum ctf_text_discard_kind kind,
			      bool has_count, uint64_t count, bool has_range, int64_t begin_ns,
			      int64_t end_ns, const char *trace_name, const uint8_t *uuid,
			      const char *stream_path, uint64_t stream_class_id, uint64_t stream_id)
{
	const char *what = kind == CTF_TEXT_DISCARDED_EVENTS ? "event" : "packet";
	FILE *err = p->err ? p->err : stderr;
	char t1[80], t2[80], range[200], ubuf[64];

	if (has_range) {
		ctf_text_format_time(p, begin_ns, t1);
		ctf_text_format_time(p, end_ns, t2);
		snprintf(range, sizeof(range), "between [%s] and [%s]", t1, t2);
	} else {
		snprintf(range, sizeof(range), "(unknown time range)");
	}
	if (uuid)
		snprintf(
		    ubuf, sizeof(ubuf),
		    "UUID: %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		    uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8],
		    uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
	else
		snprintf(ubuf, sizeof(ubuf), "no UUID");
	if (has_count)
		fprintf(err, "WARNING: Tracer discarded %llu %s%s %s", (unsigned long long)count,
			what, count == 1 ? "" : "s", range);
	else
		fprintf(err, "WARNING: Tracer may have discarded %ss %s", what, range);
	fprintf(err,
		" in trace \"%s\" (%s) within stream \"%s\" (stream class ID: %llu, stream ID: "
		"%llu).\n",
		trace_name, ubuf, stream_path, (unsigned long long)stream_class_id,
		(unsigned long long)stream_id);
}
