/*
 * text-format.c - Babeltrace 2's sink.text.pretty output (see
 * text-format.h and docs/text-format.md).
 */
#include "ctf/text-format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_S 1000000000LL

static inline void puts_(struct ctf_text_buf *b, const char *s)
{
	ctf_text_put(b, s, strlen(s));
}

#define PUTL(b, lit) ctf_text_put((b), (lit), sizeof(lit) - 1)

/* v on at least width digits, zero-padded. */
static void put_u64_pad(struct ctf_text_buf *b, uint64_t v, int width)
{
	char buf[24], *e = buf + sizeof(buf), *p = ctf_text_dec_u64(e, v);

	while (e - p < width)
		*--p = '0';
	ctf_text_put(b, p, (size_t)(e - p));
}

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

void ctf_text_printer_init(struct ctf_text_printer *p, const struct ctf_text_options *o,
			   struct ctf_text_buf *out)
{
	memset(p, 0, sizeof(*p));
	p->opt = *o;
	p->out = out;
	p->last_ns = (uint64_t)-1;
	p->last_cycles = (uint64_t)-1;
}

/* ---- time ---- */

/* The broken-down time of the last second formatted, as "[YYYY-MM-DD ]HH:MM:SS". */
static struct {
	bool valid;
	bool gmt, date;
	uint64_t sec;
	char text[48];
	size_t len;
} time_cache;

static size_t wall_prefix(bool gmt, bool date, uint64_t sec, char *out)
{
	struct tm tm;
	time_t t = (time_t)sec;
	size_t n = 0;

	if (time_cache.valid && time_cache.sec == sec && time_cache.gmt == gmt &&
	    time_cache.date == date) {
		memcpy(out, time_cache.text, time_cache.len);
		return time_cache.len;
	}
	if (gmt)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	if (date)
		n = strftime(out, 32, "%Y-%m-%d ", &tm);
	n += (size_t)snprintf(out + n, 16, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
	time_cache.valid = true;
	time_cache.sec = sec;
	time_cache.gmt = gmt;
	time_cache.date = date;
	memcpy(time_cache.text, out, n);
	time_cache.len = n;
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
			fflush(stdout);
			fputs("[warning] Fallback to [sec.ns] to print negative time value. Use "
			      "--clock-seconds.\n",
			      stderr);
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
	/* nsec_abs < 10^9: nine digits, four pairs and one, zero-padded. */
	for (int i = 7; i >= 1; i -= 2) {
		memcpy(buf + n + (size_t)i, ctf_text_digits2 + 2 * (nsec_abs % 100), 2);
		nsec_abs /= 100;
	}
	buf[n] = (char)('0' + nsec_abs);
	n += 9;
	buf[n] = 0;
	return n;
}

/* ---- values ---- */

static const char hexdig[] = "0123456789ABCDEF";

static void put_escaped(struct ctf_text_buf *b, const char *s, uint64_t len)
{
	ctf_text_putc(b, '"');
	for (uint64_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0)
			break;
		switch (c) {
		case '\\':
			PUTL(b, "\\\\");
			continue;
		case '\'':
			PUTL(b, "\\'");
			continue;
		case '"':
			PUTL(b, "\\\"");
			continue;
		case '?':
			PUTL(b, "\\?");
			continue;
		}
		if (c >= 0x20 && c != 0x7f) {
			ctf_text_putc(b, (char)c);
			continue;
		}
		switch (c) {
		case '\a':
			PUTL(b, "\\a");
			break;
		case '\b':
			PUTL(b, "\\b");
			break;
		case '\t':
			PUTL(b, "\\t");
			break;
		case '\n':
			PUTL(b, "\\n");
			break;
		case '\v':
			PUTL(b, "\\v");
			break;
		case '\f':
			PUTL(b, "\\f");
			break;
		case '\r':
			PUTL(b, "\\r");
			break;
		case 0x1b:
			PUTL(b, "\\e");
			break;
		default: {
			static const char lo[] = "0123456789abcdef";
			char x[4] = {'\\', 'x', lo[c >> 4], lo[c & 15]};

			ctf_text_put(b, x, 4);
		}
		}
	}
	ctf_text_putc(b, '"');
}

static void put_integer(struct ctf_text_buf *b, const struct ctf_integer_type *it, uint64_t v)
{
	char buf[72], *e = buf + sizeof(buf), *p = e;
	unsigned int size = it->size;

	switch (it->base) {
	case 2:
		PUTL(b, "0b");
		if (size < 64)
			v <<= 64 - size;
		for (unsigned int i = 0; i < size; i++) {
			buf[i] = (v & (1ULL << 63)) ? '1' : '0';
			v <<= 1;
		}
		ctf_text_put(b, buf, size);
		return;
	case 8:
		if (it->is_signed && size < 64) {
			unsigned int r = ((size - 1) / 3 + 1) * 3;

			if (r < 64)
				v &= ((uint64_t)1 << r) - 1;
		}
		do {
			*--p = (char)('0' + (v & 7));
			v >>= 3;
		} while (v);
		*--p = '0';
		ctf_text_put(b, p, (size_t)(e - p));
		return;
	case 16:
		if (it->is_signed && size < 64) {
			unsigned int r = ((size - 1) / 4 + 1) * 4;

			if (r < 64)
				v &= ((uint64_t)1 << r) - 1;
		}
		do {
			*--p = hexdig[v & 15];
			v >>= 4;
		} while (v);
		*--p = 'x';
		*--p = '0';
		ctf_text_put(b, p, (size_t)(e - p));
		return;
	default:
		if (it->is_signed)
			ctf_text_put_s64(b, (int64_t)v);
		else
			ctf_text_put_u64(b, v);
	}
}

static void put_enum(struct ctf_text_buf *b, const struct ctf_enum_type *et, uint64_t v)
{
	unsigned int printed = 0;

	PUTL(b, "( ");
	for (unsigned int i = 0; i < et->mapping_count; i++) {
		const char *label = et->mappings[i].label;

		if (!ctf_enum_label_matches(et, i, v))
			continue;
		if (printed++)
			PUTL(b, ", ");
		put_escaped(b, label, strlen(label));
	}
	if (!printed)
		PUTL(b, "<unknown>");
	PUTL(b, " : container = ");
	put_integer(b, &et->container, v);
	PUTL(b, " )");
}

static void put_value(struct ctf_text_buf *b, const struct ctf_value *v, bool names);

static bool is_special_packet_field(const struct ctf_field *f)
{
	const char *n = f->name;

	if (f->type->kind != CTF_TYPE_INTEGER)
		return false;
	return !strcmp(n, "timestamp_begin") || !strcmp(n, "timestamp_end") ||
	       !strcmp(n, "content_size") || !strcmp(n, "packet_size") ||
	       !strcmp(n, "events_discarded") || !strcmp(n, "packet_seq_num");
}

/*
 * Which of a packet context's first 64 fields are not printed, as a bit
 * mask. Every event of a stream has the same packet context type: the
 * answer is kept for the last type asked about.
 */
static uint64_t special_packet_fields(const struct ctf_type *t)
{
	static __thread const struct ctf_type *cached_type;
	static __thread uint64_t cached_mask;
	const struct ctf_struct_type *st = &t->u.structure;
	uint64_t mask = 0;

	if (t == cached_type)
		return cached_mask;
	for (unsigned int i = 0; i < st->field_count && i < 64; i++)
		if (is_special_packet_field(&st->fields[i]))
			mask |= (uint64_t)1 << i;
	cached_type = t;
	cached_mask = mask;
	return mask;
}

static void put_struct(struct ctf_text_buf *b, const struct ctf_value *v, bool names,
		       bool packet_context)
{
	const struct ctf_struct_type *st = &v->type->u.structure;
	uint64_t special = packet_context ? special_packet_fields(v->type) : 0;
	unsigned int printed = 0;

	ctf_text_putc(b, '{');
	for (uint64_t i = 0; i < v->u.list.count; i++) {
		const struct ctf_field *f = &st->fields[i];

		if (packet_context && (i < 64 ? (special >> i) & 1 : is_special_packet_field(f)))
			continue;
		if (printed++)
			PUTL(b, ", ");
		else
			ctf_text_putc(b, ' ');
		if (names) {
			puts_(b, f->display_name);
			PUTL(b, " = ");
		}
		put_value(b, &v->u.list.items[i], names);
	}
	PUTL(b, " }");
}

static void put_float(struct ctf_text_buf *b, double d)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%g", d);

	ctf_text_put(b, buf, (size_t)n);
}

static void put_value(struct ctf_text_buf *b, const struct ctf_value *v, bool names)
{
	const struct ctf_type *t = v->type;

	switch (t->kind) {
	case CTF_TYPE_INTEGER:
		put_integer(b, &t->u.integer, v->u.u);
		break;
	case CTF_TYPE_FLOAT:
		put_float(b, v->u.d);
		break;
	case CTF_TYPE_ENUM:
		put_enum(b, &t->u.enumeration, v->u.u);
		break;
	case CTF_TYPE_STRING:
		put_escaped(b, v->u.str.ptr, v->u.str.len);
		break;
	case CTF_TYPE_STRUCT:
		put_struct(b, v, names, false);
		break;
	case CTF_TYPE_VARIANT:
		PUTL(b, "{ ");
		put_value(b, v->u.variant.value, names);
		PUTL(b, " }");
		break;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE: {
		const struct ctf_type *el =
		    t->kind == CTF_TYPE_ARRAY ? t->u.array.element : t->u.sequence.element;

		if (ctf_type_is_text_element(el)) {
			put_escaped(b, v->u.str.ptr, v->u.str.len);
			break;
		}
		ctf_text_putc(b, '[');
		for (uint64_t i = 0; i < v->u.list.count; i++) {
			if (i)
				PUTL(b, ", ");
			else
				ctf_text_putc(b, ' ');
			if (names) {
				ctf_text_putc(b, '[');
				ctf_text_put_u64(b, i);
				PUTL(b, "] = ");
			}
			put_value(b, &v->u.list.items[i], names);
		}
		PUTL(b, " ]");
		break;
	}
	}
}

/* ---- event lines ---- */

static const char *const loglevel_names[] = {
    "TRACE_EMERG",	    "TRACE_ALERT",	   "TRACE_CRIT",	 "TRACE_ERR",
    "TRACE_WARNING",	    "TRACE_NOTICE",	   "TRACE_INFO",	 "TRACE_DEBUG_SYSTEM",
    "TRACE_DEBUG_PROGRAM",  "TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
    "TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE",	   "TRACE_DEBUG",
};

/* Does the packet context print anything (a member that is not consumed)? */
static bool packet_context_printable(const struct ctf_value *ctx)
{
	const struct ctf_struct_type *st = &ctx->type->u.structure;
	uint64_t special = special_packet_fields(ctx->type);

	for (unsigned int i = 0; i < st->field_count; i++)
		if (i < 64 ? !((special >> i) & 1) : !is_special_packet_field(&st->fields[i]))
			return true;
	return false;
}

void ctf_text_print_event(struct ctf_text_printer *p, const struct ctf_text_trace *t,
			  const struct ctf_packet *pkt, const struct ctf_event *ev, int64_t ns)
{
	struct ctf_text_buf *b = p->out;
	const struct ctf_text_options *o = &p->opt;
	bool names = o->names_header;
	bool started = false; /* Babeltrace's !start_line */
	bool dom = false;
	const struct ctf_event_class *ec = ev->cls;

	if (ev->has_clock) {
		char tb[80];
		size_t n;

		if (names)
			PUTL(b, "timestamp = ");
		else
			ctf_text_putc(b, '[');
		if (o->clock_cycles) {
			put_u64_pad(b, ev->clock_value, 20);
		} else {
			n = ctf_text_format_time(p, ns, tb);
			ctf_text_put(b, tb, n);
		}
		if (!names)
			PUTL(b, "] ");
		if (!o->no_delta) {
			if (names)
				PUTL(b, ", delta = ");
			else
				ctf_text_putc(b, '(');
			if (o->clock_cycles) {
				if (p->last_cycles == (uint64_t)-1) {
					PUTL(b, "+????????????");
				} else {
					ctf_text_putc(b, '+');
					put_u64_pad(b, ev->clock_value - p->last_cycles, 12);
				}
			} else {
				if (p->last_ns == (uint64_t)-1) {
					PUTL(b, "+?.?????????");
				} else {
					uint64_t d = (uint64_t)ns - p->last_ns;

					ctf_text_putc(b, '+');
					ctf_text_put_u64(b, d / 1000000000u);
					ctf_text_putc(b, '.');
					put_u64_pad(b, d % 1000000000u, 9);
				}
			}
			if (!names)
				PUTL(b, ") ");
		}
		p->last_ns = (uint64_t)ns;
		p->last_cycles = ev->clock_value;
		started = names;
	}

	if (o->field_trace) {
		if (started)
			PUTL(b, ", ");
		if (names)
			PUTL(b, "trace = ");
		puts_(b, t->name);
		if (names)
			PUTL(b, ", ");
	}
#define DOM_SEP()                                                                                  \
	do {                                                                                       \
		if (started)                                                                       \
			PUTL(b, ", ");                                                             \
		else if (dom && !names)                                                            \
			ctf_text_putc(b, ':');                                                     \
	} while (0)
	if (o->field_hostname && t->hostname) {
		DOM_SEP();
		if (names)
			PUTL(b, "trace:hostname = ");
		puts_(b, t->hostname);
		dom = true;
	}
	if (o->field_domain && t->domain) {
		DOM_SEP();
		if (names)
			PUTL(b, "trace:domain = ");
		puts_(b, t->domain);
		dom = true;
	}
	if (o->field_procname && t->procname) {
		DOM_SEP();
		if (names)
			PUTL(b, "trace:procname = ");
		puts_(b, t->procname);
		dom = true;
	}
	if (o->field_vpid && t->has_vpid) {
		DOM_SEP();
		if (names)
			PUTL(b, "trace:vpid = ");
		ctf_text_putc(b, '(');
		ctf_text_put_s64(b, t->vpid);
		ctf_text_putc(b, ')');
		dom = true;
	}
	if (o->field_loglevel && ec->has_loglevel && ec->loglevel >= 0 && ec->loglevel <= 14) {
		DOM_SEP();
		if (names)
			PUTL(b, "loglevel = ");
		puts_(b, loglevel_names[ec->loglevel]);
		PUTL(b, " (");
		ctf_text_put_s64(b, ec->loglevel);
		ctf_text_putc(b, ')');
		dom = true;
	}
	if (o->field_emf && ec->emf_uri) {
		DOM_SEP();
		if (names)
			PUTL(b, "model.emf.uri = ");
		puts_(b, ec->emf_uri);
		dom = true;
	}
#undef DOM_SEP
	if (dom && !names)
		ctf_text_putc(b, ' ');
	if (started)
		PUTL(b, ", ");
	if (names)
		PUTL(b, "name = ");
	puts_(b, ec->name ? ec->name : "<unknown>");
	if (names)
		PUTL(b, ", ");
	else
		PUTL(b, ": ");

	/* The scopes: the first without separator. */
	started = false;
	if (pkt->context && packet_context_printable(pkt->context)) {
		started = true;
		if (o->names_scope)
			PUTL(b, "stream.packet.context = ");
		put_struct(b, pkt->context, o->names_context, true);
	}
	if (ev->stream_context) {
		if (started)
			PUTL(b, ", ");
		started = true;
		if (o->names_scope)
			PUTL(b, "stream.event.context = ");
		put_value(b, ev->stream_context, o->names_context);
	}
	if (ev->context) {
		if (started)
			PUTL(b, ", ");
		started = true;
		if (o->names_scope)
			PUTL(b, "event.context = ");
		put_value(b, ev->context, o->names_context);
	}
	if (ev->payload) {
		if (started)
			PUTL(b, ", ");
		if (o->names_scope)
			PUTL(b, "event.fields = ");
		put_value(b, ev->payload, o->names_payload);
	}
	ctf_text_putc(b, '\n');
}

/* ---- warnings ---- */

void ctf_text_print_discarded(struct ctf_text_printer *p, enum ctf_text_discard_kind kind,
			      bool has_count, uint64_t count, bool has_range, int64_t begin_ns,
			      int64_t end_ns, const char *trace_name, const uint8_t *uuid,
			      const char *stream_path, uint64_t stream_class_id, uint64_t stream_id)
{
	const char *what = kind == CTF_TEXT_DISCARDED_EVENTS ? "event" : "packet";
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
		fprintf(stderr, "WARNING: Tracer discarded %llu %s%s %s", (unsigned long long)count,
			what, count == 1 ? "" : "s", range);
	else
		fprintf(stderr, "WARNING: Tracer may have discarded %ss %s", what, range);
	fprintf(stderr,
		" in trace \"%s\" (%s) within stream \"%s\" (stream class ID: %llu, stream ID: "
		"%llu).\n",
		trace_name, ubuf, stream_path, (unsigned long long)stream_class_id,
		(unsigned long long)stream_id);
}
