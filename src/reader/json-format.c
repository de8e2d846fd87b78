/*
 * json-format.c - newline-delimited JSON events (see json-format.h).
 */
#include "reader/json-format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/ctf-value.h"

#define PUTL(b, lit) ctf_text_put((b), (lit), sizeof(lit) - 1)

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, uint64_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void put_string(struct ctf_text_buf *b, const char *str, uint64_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	uint64_t i = 0, run = 0; /* run: bytes copied as they are, pending */

	ctf_text_putc(b, '"');
	while (i < len) {
		unsigned char c = s[i];
		size_t l;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			run++;
			continue;
		}
		if (c >= 0x80 && (l = utf8_len(s + i, len - i)) != 0) {
			i += l;
			run += l;
			continue;
		}
		if (run)
			ctf_text_put(b, (const char *)s + i - run, (size_t)run);
		run = 0;
		if (c == '"') {
			PUTL(b, "\\\"");
		} else if (c == '\\') {
			PUTL(b, "\\\\");
		} else {
			char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};

			ctf_text_put(b, e, sizeof(e));
		}
		i++;
	}
	if (run)
		ctf_text_put(b, (const char *)s + i - run, (size_t)run);
	ctf_text_putc(b, '"');
}

static void put_cstring(struct ctf_text_buf *b, const char *s)
{
	put_string(b, s, strlen(s));
}

static void put_float(struct ctf_text_buf *b, const struct ctf_float_type *ft, double d)
{
	char buf[40];
	int n = 0;

	if (isnan(d)) {
		PUTL(b, "\"nan\"");
		return;
	}
	if (isinf(d)) {
		if (d < 0)
			PUTL(b, "\"-inf\"");
		else
			PUTL(b, "\"inf\"");
		return;
	}
	/* the shortest %g form that reads back to the same value */
	if (ft->exp_dig + ft->mant_dig <= 32) {
		for (int prec = 6; prec <= 9; prec++) {
			n = snprintf(buf, sizeof(buf), "%.*g", prec, d);
			if ((float)strtod(buf, NULL) == (float)d)
				break;
		}
	} else {
		for (int prec = 15; prec <= 17; prec++) {
			n = snprintf(buf, sizeof(buf), "%.*g", prec, d);
			if (strtod(buf, NULL) == d)
				break;
		}
	}
	ctf_text_put(b, buf, (size_t)n);
	/* a float stays one for the reader: 16777216.0, -0.0 (whose sign "-0" loses) */
	if (!memchr(buf, '.', (size_t)n) && !memchr(buf, 'e', (size_t)n))
		PUTL(b, ".0");
}

static void put_int(struct ctf_text_buf *b, bool is_signed, uint64_t v)
{
	if (is_signed)
		ctf_text_put_s64(b, (int64_t)v);
	else
		ctf_text_put_u64(b, v);
}

static void put_enum(struct ctf_text_buf *b, const struct ctf_enum_type *et, uint64_t v)
{
	bool sgn = et->container.is_signed;
	unsigned int printed = 0;
	const char *label;

	PUTL(b, "{\"value\": ");
	put_int(b, sgn, v);
	PUTL(b, ", \"labels\": [");
	for (unsigned int i = 0; (label = ctf_enum_label_next(et, v, &i));) {
		if (printed++)
			PUTL(b, ", ");
		put_cstring(b, label);
	}
	PUTL(b, "]}");
}

static void put_value(struct ctf_text_buf *b, const struct ctf_value *v);

/*
 * The members of struct value v as "name": value pairs (no braces); skip
 * (may be NULL) says which to leave out. *printed counts the pairs written
 * so far (for the commas).
 */
static void put_members(struct ctf_text_buf *b, const struct ctf_value *v,
			bool (*skip)(const struct ctf_field *, const void *), const void *arg,
			unsigned int *printed)
{
	const struct ctf_struct_type *st = &v->type->u.structure;

	for (uint64_t i = 0; i < v->u.list.count; i++) {
		const struct ctf_field *f = &st->fields[i];

		if (skip && skip(f, arg))
			continue;
		if ((*printed)++)
			PUTL(b, ", ");
		put_cstring(b, f->display_name);
		PUTL(b, ": ");
		put_value(b, &v->u.list.items[i]);
	}
}

static void put_value(struct ctf_text_buf *b, const struct ctf_value *v)
{
	const struct ctf_type *t = v->type;

	switch (t->kind) {
	case CTF_TYPE_INTEGER:
		put_int(b, t->u.integer.is_signed, v->u.u);
		break;
	case CTF_TYPE_FLOAT:
		put_float(b, &t->u.floating, v->u.d);
		break;
	case CTF_TYPE_ENUM:
		put_enum(b, &t->u.enumeration, v->u.u);
		break;
	case CTF_TYPE_STRING:
		put_string(b, v->u.str.ptr, v->u.str.len);
		break;
	case CTF_TYPE_STRUCT: {
		unsigned int printed = 0;

		ctf_text_putc(b, '{');
		put_members(b, v, NULL, NULL, &printed);
		ctf_text_putc(b, '}');
		break;
	}
	case CTF_TYPE_VARIANT:
		put_value(b, v->u.variant.value);
		break;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE: {
		const struct ctf_type *el =
		    t->kind == CTF_TYPE_ARRAY ? t->u.array.element : t->u.sequence.element;

		if (ctf_type_is_text_element(el)) {
			const char *nul = memchr(v->u.str.ptr, 0, (size_t)v->u.str.len);

			put_string(b, v->u.str.ptr,
				   nul ? (uint64_t)(nul - v->u.str.ptr) : v->u.str.len);
			break;
		}
		ctf_text_putc(b, '[');
		for (uint64_t i = 0; i < v->u.list.count; i++) {
			if (i)
				PUTL(b, ", ");
			put_value(b, &v->u.list.items[i]);
		}
		ctf_text_putc(b, ']');
		break;
	}
	}
}

static bool skip_special(const struct ctf_field *f, const void *arg)
{
	(void)arg;
	return ctf_field_is_packet_bookkeeping(f);
}

/* A stream-context member hidden by an event-context member of its name. */
static bool skip_hidden(const struct ctf_field *f, const void *arg)
{
	const struct ctf_value *ctx = arg;
	const struct ctf_struct_type *st = &ctx->type->u.structure;

	for (unsigned int i = 0; i < st->field_count; i++)
		if (!strcmp(st->fields[i].display_name, f->display_name))
			return true;
	return false;
}

static bool is_struct(const struct ctf_value *v)
{
	return v && v->type->kind == CTF_TYPE_STRUCT;
}

void ctf_json_print_event(struct ctf_text_buf *b, const struct ctf_packet *pkt,
			  const struct ctf_event *ev, bool has_ts, int64_t ns, uint64_t stream_id)
{
	const struct ctf_event_class *ec = ev->cls;
	unsigned int printed;

	PUTL(b, "{\"timestamp\": ");
	if (has_ts)
		ctf_text_put_s64(b, ns);
	else
		PUTL(b, "null");
	PUTL(b, ", \"name\": ");
	put_cstring(b, ec && ec->name ? ec->name : "<unknown>");
	PUTL(b, ", \"stream_id\": ");
	ctf_text_put_u64(b, stream_id);
	PUTL(b, ", \"fields\": ");
	if (ev->payload)
		put_value(b, ev->payload);
	else
		PUTL(b, "{}");
	if (ev->stream_context || ev->context) {
		printed = 0;
		PUTL(b, ", \"context\": {");
		if (is_struct(ev->stream_context))
			put_members(b, ev->stream_context,
				    is_struct(ev->context) ? skip_hidden : NULL, ev->context,
				    &printed);
		if (is_struct(ev->context))
			put_members(b, ev->context, NULL, NULL, &printed);
		ctf_text_putc(b, '}');
	}
	if (is_struct(pkt->context)) {
		const struct ctf_struct_type *st = &pkt->context->type->u.structure;
		bool any = false;

		for (unsigned int i = 0; i < st->field_count && !any; i++)
			any = !ctf_field_is_packet_bookkeeping(&st->fields[i]);
		if (any) {
			printed = 0;
			PUTL(b, ", \"packet_context\": {");
			put_members(b, pkt->context, skip_special, NULL, &printed);
			ctf_text_putc(b, '}');
		}
	}
	PUTL(b, "}\n");
}
