/* ex-json.c - the JSON writer of trax export (ex-json.h). */
#include "analysis/ex-json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ex_out_init(struct ex_out *o, FILE *f)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->buf = malloc(EX_OUT_SIZE);
	return o->buf ? 0 : -1;
}

int ex_out_flush(struct ex_out *o)
{
	if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->failed = 1;
	o->len = 0;
	if (!o->failed && fflush(o->f))
		o->failed = 1;
	return o->failed ? -1 : 0;
}

int ex_out_close(struct ex_out *o)
{
	int rc = o->buf ? ex_out_flush(o) : -1;

	free(o->buf);
	o->buf = NULL;
	return rc;
}

/* Room for n more bytes (n <= EX_OUT_SIZE). */
static inline char *room(struct ex_out *o, size_t n)
{
	if (o->len + n > EX_OUT_SIZE) {
		if (!o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
			o->failed = 1;
		o->len = 0;
	}
	return o->buf + o->len;
}

void ex_put_slow(struct ex_out *o, const char *s, size_t n)
{
	while (n) {
		size_t k = n < EX_OUT_SIZE ? n : EX_OUT_SIZE;

		memcpy(room(o, k), s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

void ex_uint(struct ex_out *o, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	if (v < 10) {
		char c = (char)('0' + v);

		ex_put(o, &c, 1);
		return;
	}
	/* two digits at a time */
	while (v >= 100) {
		static const char pairs[] = "00010203040506070809101112131415161718192021222324"
					    "25262728293031323334353637383940414243444546474849"
					    "50515253545556575859606162636465666768697071727374"
					    "75767778798081828384858687888990919293949596979899";
		unsigned k = (unsigned)(v % 100) * 2;

		v /= 100;
		tmp[--i] = pairs[k + 1];
		tmp[--i] = pairs[k];
	}
	if (v >= 10) {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	}
	if (v || i == (int)sizeof(tmp))
		tmp[--i] = (char)('0' + v);
	ex_put(o, tmp + i, sizeof(tmp) - (size_t)i);
}

void ex_int(struct ex_out *o, int64_t v)
{
	if (v < 0) {
		ex_put(o, "-", 1);
		ex_uint(o, (uint64_t)0 - (uint64_t)v);
	} else
		ex_uint(o, (uint64_t)v);
}

void ex_double(struct ex_out *o, double v)
{
	char tmp[40];

	if (!isfinite(v)) {
		ex_put(o, "null", 4);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.15g", v);
	if (strtod(tmp, NULL) != v)
		snprintf(tmp, sizeof(tmp), "%.17g", v);
	ex_puts(o, tmp);
}

void ex_us(struct ex_out *o, int64_t ns)
{
	uint64_t a;
	char *p;
	unsigned f;

	if (ns < 0) {
		ex_put(o, "-", 1);
		a = (uint64_t)0 - (uint64_t)ns;
	} else
		a = (uint64_t)ns;
	ex_uint(o, a / 1000);
	f = (unsigned)(a % 1000);
	p = room(o, 4);
	p[0] = '.';
	p[1] = (char)('0' + f / 100);
	p[2] = (char)('0' + f / 10 % 10);
	p[3] = (char)('0' + f % 10);
	o->len += 4;
}

/* The length of the valid UTF-8 sequence at s (2 to 4), 0 when not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;

	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	/* overlong forms, surrogates and code points above U+10FFFF */
	if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
	    (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
		return 0;
	return n;
}

void ex_str(struct ex_out *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	ex_put(o, "\"", 1);
	for (;;) {
		const unsigned char *q = p;
		size_t n;

		/* the plain run first */
		while (*q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\')
			q++;
		if (q > p)
			ex_put(o, (const char *)p, (size_t)(q - p));
		p = q;
		if (!*p)
			break;
		if (*p == '"' || *p == '\\') {
			char e[2] = {'\\', (char)*p};

			ex_put(o, e, 2);
			p++;
		} else if (*p < 0x20 || !(n = utf8_len(p))) {
			char e[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};

			ex_put(o, e, 6);
			p++;
		} else {
			ex_put(o, (const char *)p, n);
			p += n;
		}
	}
	ex_put(o, "\"", 1);
}

void ex_field(struct ex_out *o, const struct trax_field *f)
{
	int64_t i;
	uint64_t u;
	double d;
	const char *s;
	size_t n;

	switch (trax_field_kind(f)) {
	case TRAX_FIELD_SIGNED:
		if (trax_field_int(f, &i) == 0)
			ex_int(o, i);
		else
			ex_put(o, "null", 4);
		return;
	case TRAX_FIELD_UNSIGNED:
		if (trax_field_uint(f, &u) == 0)
			ex_uint(o, u);
		else
			ex_put(o, "null", 4);
		return;
	case TRAX_FIELD_ENUM:
		if ((s = trax_field_enum_label(f, 0)))
			ex_str(o, s);
		else if (trax_field_int(f, &i) == 0)
			ex_int(o, i);
		else if (trax_field_uint(f, &u) == 0)
			ex_uint(o, u);
		else
			ex_put(o, "null", 4);
		return;
	case TRAX_FIELD_FLOAT:
		if (trax_field_double(f, &d) == 0)
			ex_double(o, d);
		else
			ex_put(o, "null", 4);
		return;
	case TRAX_FIELD_STRING:
		s = trax_field_string(f, NULL);
		ex_str(o, s ? s : "");
		return;
	case TRAX_FIELD_STRUCT:
		n = trax_field_child_count(f);
		ex_put(o, "{", 1);
		for (size_t k = 0; k < n; k++) {
			const struct trax_field *c = trax_field_child(f, k);
			const char *name = trax_field_name(c);

			if (k)
				ex_put(o, ",", 1);
			ex_str(o, name ? name : "");
			ex_put(o, ":", 1);
			ex_field(o, c);
		}
		ex_put(o, "}", 1);
		return;
	case TRAX_FIELD_ARRAY:
	case TRAX_FIELD_SEQUENCE:
		/* text arrays (LTTng's ctf_array_text) read as strings */
		if ((s = trax_field_string(f, NULL))) {
			ex_str(o, s);
			return;
		}
		n = trax_field_child_count(f);
		ex_put(o, "[", 1);
		for (size_t k = 0; k < n; k++) {
			if (k)
				ex_put(o, ",", 1);
			ex_field(o, trax_field_child(f, k));
		}
		ex_put(o, "]", 1);
		return;
	case TRAX_FIELD_VARIANT:
		ex_field(o, trax_field_variant_selected(f));
		return;
	default:
		ex_put(o, "null", 4);
		return;
	}
}

size_t ex_scope_members(struct ex_out *o, const struct trax_event *ev, enum trax_scope scope,
			int first)
{
	size_t n = trax_event_field_count(ev, scope), w = 0;

	for (size_t k = 0; k < n; k++) {
		const struct trax_field *f = trax_event_field_by_index(ev, scope, k);
		const char *name = trax_field_name(f);

		if (!first || w)
			ex_put(o, ",", 1);
		ex_str(o, name ? name : "");
		ex_put(o, ":", 1);
		ex_field(o, f);
		w++;
	}
	return w;
}
