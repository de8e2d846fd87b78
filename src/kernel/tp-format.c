/*
 * tp-format.c - tracefs format files parsed into record layouts (see
 * tp-format.h).
 *
 * The text is the kernel's, but it is read as untrusted input: every
 * number is range-checked, every field must lie inside a bounded record,
 * and an error names the line. What follows "print fmt:" (a C expression
 * that may span lines) is not read.
 */
#include "kernel/tp-format.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No record is larger: a ring buffer sub-buffer is at most a few MiB. */
#define TP_RECORD_MAX (1u << 24)

struct parser {
	const char *p, *end;
	unsigned int line;
	char *err;
	size_t errlen;
};

static int fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (ps->errlen) {
		n = snprintf(ps->err, ps->errlen, "line %u: ", ps->line);
		if (n < 0 || (size_t)n >= ps->errlen)
			return -1; /* cut short: the line number is what matters */
		va_start(ap, fmt);
		vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* [s, e) without blanks at either end. */
static void trim(const char **s, const char **e)
{
	while (*s < *e && is_space(**s))
		(*s)++;
	while (*e > *s && is_space((*e)[-1]))
		(*e)--;
}

static int starts(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) >= n && !memcmp(s, word, n);
}

/* A decimal number of [s, e) no larger than max. */
static int parse_uint(const char *s, const char *e, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (s == e)
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

static char *dup_range(const char *s, const char *e)
{
	char *d = malloc((size_t)(e - s) + 1);

	if (d) {
		memcpy(d, s, (size_t)(e - s));
		d[e - s] = 0;
	}
	return d;
}

/*
 * Bytes of an element of a C integer type named in a dynamic array
 * ("u64" of "__data_loc u64[]"), 0 when not known. Pointers and longs are
 * the machine's (the kernel that wrote the file runs on it).
 */
static uint32_t type_size(const char *t)
{
	static const struct {
		const char *name;
		uint32_t size;
	} known[] = {
	    {"char", 1},
	    {"signed char", 1},
	    {"unsigned char", 1},
	    {"bool", 1},
	    {"u8", 1},
	    {"s8", 1},
	    {"__u8", 1},
	    {"__s8", 1},
	    {"uint8_t", 1},
	    {"int8_t", 1},
	    {"short", 2},
	    {"unsigned short", 2},
	    {"u16", 2},
	    {"s16", 2},
	    {"__u16", 2},
	    {"__s16", 2},
	    {"uint16_t", 2},
	    {"int16_t", 2},
	    {"int", 4},
	    {"unsigned", 4},
	    {"unsigned int", 4},
	    {"u32", 4},
	    {"s32", 4},
	    {"__u32", 4},
	    {"__s32", 4},
	    {"uint32_t", 4},
	    {"int32_t", 4},
	    {"pid_t", 4},
	    {"long", sizeof(long)},
	    {"unsigned long", sizeof(long)},
	    {"long long", 8},
	    {"unsigned long long", 8},
	    {"u64", 8},
	    {"s64", 8},
	    {"__u64", 8},
	    {"__s64", 8},
	    {"uint64_t", 8},
	    {"int64_t", 8},
	};

	if (strchr(t, '*'))
		return sizeof(void *);
	if (!strncmp(t, "const ", 6))
		t += 6;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(t, known[i].name))
			return known[i].size;
	return 0;
}

static int is_char_type(const char *t)
{
	return !strcmp(t, "char") || !strcmp(t, "const char");
}

/*
 * One "field:DECL;\toffset:O;\tsize:S;\tsigned:B;" line (s..e, without the
 * leading blanks) into f.
 */
static int parse_field(struct parser *ps, const char *s, const char *e, struct tp_field *f)
{
	const char *decl = s + strlen("field:"), *decl_end, *name, *name_end, *type_end, *a;
	const char *dims = NULL, *dims_end = NULL;
	uint64_t offset = 0, size = 0, sign = 0, n;
	int have_offset = 0, have_size = 0;

	memset(f, 0, sizeof(*f));
	decl_end = memchr(decl, ';', (size_t)(e - decl));
	if (!decl_end)
		return fail(ps, "field without ';'");

	/* attributes: "offset:O;" "size:S;" "signed:B;", in any order; others ignored */
	for (a = decl_end + 1; a < e;) {
		const char *v, *v_end;

		while (a < e && is_space(*a))
			a++;
		if (a == e)
			break;
		v_end = memchr(a, ';', (size_t)(e - a));
		if (!v_end)
			return fail(ps, "field attribute without ';'");
		v = memchr(a, ':', (size_t)(v_end - a));
		if (!v)
			return fail(ps, "field attribute without ':'");
		if (starts(a, v, "offset") && v - a == 6) {
			if (parse_uint(v + 1, v_end, TP_RECORD_MAX, &offset))
				return fail(ps, "bad offset");
			have_offset = 1;
		} else if (starts(a, v, "size") && v - a == 4) {
			if (parse_uint(v + 1, v_end, TP_RECORD_MAX, &size))
				return fail(ps, "bad size");
			have_size = 1;
		} else if (starts(a, v, "signed") && v - a == 6) {
			if (parse_uint(v + 1, v_end, 1, &sign))
				return fail(ps, "bad signed");
		}
		a = v_end + 1;
	}
	if (!have_offset || !have_size)
		return fail(ps, "field without offset or size");
	if (offset + size > TP_RECORD_MAX)
		return fail(ps, "field past %u bytes", TP_RECORD_MAX);

	/* the name: the last identifier, before an optional [N] */
	trim(&decl, &decl_end);
	name_end = decl_end;
	if (name_end > decl && name_end[-1] == ']') {
		dims_end = name_end - 1;
		dims = memchr(decl, '[', (size_t)(dims_end - decl));
		if (!dims)
			return fail(ps, "']' without '['");
		/* "__data_loc char[] name" keeps its [] in the type: the name comes after */
		name_end = dims;
		dims++;
		trim(&decl, &name_end);
	}
	name = name_end;
	while (name > decl && is_ident(name[-1]))
		name--;
	if (name == name_end || !is_ident_start(*name))
		return fail(ps, "field without a name");
	type_end = name;
	trim(&decl, &type_end);
	if (decl == type_end)
		return fail(ps, "field %.*s without a type", (int)(name_end - name), name);

	f->offset = (uint32_t)offset;
	f->size = (uint32_t)size;
	f->is_signed = sign != 0;
	f->name = dup_range(name, name_end);
	if (!f->name)
		return fail(ps, "out of memory");

	if (starts(decl, type_end, "__data_loc ") || starts(decl, type_end, "__rel_loc ")) {
		const char *t = memchr(decl, ' ', (size_t)(type_end - decl));

		if (dims)
			return fail(ps, "dynamic field %s with [N]", f->name);
		f->kind = decl[2] == 'd' ? TP_FIELD_DATA_LOC : TP_FIELD_REL_LOC;
		if (size != 4)
			return fail(ps, "dynamic field %s of size %u, not 4", f->name, f->size);
		trim(&t, &type_end);
		/* "char[]"; older kernels and a few events ("cpumask_t") have no [] */
		if (type_end - t >= 2 && type_end[-1] == ']' && type_end[-2] == '[')
			type_end -= 2;
		trim(&t, &type_end);
		if (t == type_end)
			return fail(ps, "dynamic field %s without a type", f->name);
		f->type = dup_range(t, type_end);
		if (!f->type)
			return fail(ps, "out of memory");
		/* an unknown element type is read as bytes */
		f->elem_size = type_size(f->type);
		if (!f->elem_size)
			f->elem_size = 1;
	} else {
		f->type = dup_range(decl, type_end);
		if (!f->type)
			return fail(ps, "out of memory");
		if (dims) {
			f->kind = TP_FIELD_ARRAY;
			trim(&dims, &dims_end);
			if (dims == dims_end) {
				/* "char buf[]": a flexible array, the rest of the record */
				if (size)
					return fail(ps, "flexible array %s of size %u", f->name,
						    f->size);
				f->elem_size = type_size(f->type);
				if (!f->elem_size)
					f->elem_size = 1;
			} else if (!parse_uint(dims, dims_end, TP_RECORD_MAX, &n)) {
				if (!n || size % n)
					return fail(ps,
						    "array %s of %u bytes cannot hold %u elements",
						    f->name, f->size, (unsigned int)n);
				f->array_len = (uint32_t)n;
				f->elem_size = (uint32_t)(size / n);
			} else {
				/* [LEN] left as a name: the element's size says how many */
				f->elem_size = type_size(f->type);
				if (!f->elem_size || !size || size % f->elem_size)
					return fail(ps, "array %s of unknown length", f->name);
				f->array_len = f->size / f->elem_size;
			}
		} else if ((size == 1 || size == 2 || size == 4 || size == 8) &&
			   ((!starts(f->type, f->type + strlen(f->type), "struct ") &&
			     !starts(f->type, f->type + strlen(f->type), "union ")) ||
			    strchr(f->type, '*'))) {
			f->kind = TP_FIELD_SCALAR;
			f->elem_size = f->size;
		} else {
			f->kind = TP_FIELD_OTHER;
			f->elem_size = 1;
		}
	}
	f->is_pointer = strchr(f->type, '*') != NULL;
	f->is_char = is_char_type(f->type) && f->kind != TP_FIELD_SCALAR;
	return 0;
}

static void free_fields(struct tp_field *fields, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		free(fields[i].name);
		free(fields[i].type);
	}
	free(fields);
}

int tp_format_parse(struct tp_event *ev, const char *system, const char *text, size_t len,
		    char *err, size_t errlen)
{
	struct parser ps = {.p = text, .end = text + len, .line = 0, .err = err, .errlen = errlen};
	unsigned int cap = 0;
	int in_format = 0, have_id = 0;

	memset(ev, 0, sizeof(*ev));
	ev->common_pid = -1;
	if (errlen)
		err[0] = 0;
	if (!text)
		ps.p = ps.end = "";

	while (ps.p < ps.end) {
		const char *s = ps.p, *e = memchr(s, '\n', (size_t)(ps.end - s));

		if (!e)
			e = ps.end;
		ps.p = e < ps.end ? e + 1 : e;
		ps.line++;
		if (memchr(s, 0, (size_t)(e - s))) {
			fail(&ps, "NUL byte");
			goto error;
		}
		trim(&s, &e);
		if (s == e)
			continue; /* the blank line after the common fields, or an empty one */
		if (starts(s, e, "print fmt:"))
			break; /* the rest is a C expression for the kernel's text output */
		if (!in_format) {
			if (starts(s, e, "name:")) {
				const char *n = s + 5, *ne = e;

				trim(&n, &ne);
				if (n == ne) {
					fail(&ps, "empty name");
					goto error;
				}
				free(ev->name);
				ev->name = dup_range(n, ne);
				if (!ev->name) {
					fail(&ps, "out of memory");
					goto error;
				}
			} else if (starts(s, e, "ID:")) {
				const char *n = s + 3, *ne = e;
				uint64_t id;

				trim(&n, &ne);
				if (parse_uint(n, ne, UINT32_MAX, &id)) {
					fail(&ps, "bad ID");
					goto error;
				}
				ev->id = (uint32_t)id;
				have_id = 1;
			} else if (starts(s, e, "format:")) {
				in_format = 1;
			} else {
				fail(&ps, "unexpected line before format:");
				goto error;
			}
			continue;
		}
		if (!starts(s, e, "field:")) {
			fail(&ps, "not a field");
			goto error;
		}
		if (ev->nr_fields == cap) {
			unsigned int ncap = cap ? cap * 2 : 16;
			struct tp_field *nf;

			if (ncap > 65536) {
				fail(&ps, "too many fields");
				goto error;
			}
			nf = realloc(ev->fields, ncap * sizeof(*nf));
			if (!nf) {
				fail(&ps, "out of memory");
				goto error;
			}
			ev->fields = nf;
			cap = ncap;
		}
		if (parse_field(&ps, s, e, &ev->fields[ev->nr_fields])) {
			/* a partly filled field owns what it allocated */
			ev->nr_fields++;
			goto error;
		}
		ev->nr_fields++;
	}

	ps.line++;
	if (!ev->name) {
		fail(&ps, "no name: line");
		goto error;
	}
	if (!have_id) {
		fail(&ps, "no ID: line");
		goto error;
	}
	if (!in_format) {
		fail(&ps, "no format: line");
		goto error;
	}
	for (unsigned int i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (ev->nr_common == i && !strncmp(f->name, "common_", 7))
			ev->nr_common++;
		if (!strcmp(f->name, "common_pid") && f->kind == TP_FIELD_SCALAR && f->size == 4)
			ev->common_pid = (int)i;
		if (f->offset + f->size > ev->size)
			ev->size = f->offset + f->size;
	}
	ev->system = strdup(system ? system : "");
	if (!ev->system) {
		fail(&ps, "out of memory");
		goto error;
	}
	return 0;

error:
	tp_event_free(ev);
	ev->common_pid = -1;
	return -1;
}

void tp_event_free(struct tp_event *ev)
{
	if (!ev)
		return;
	free(ev->system);
	free(ev->name);
	free_fields(ev->fields, ev->nr_fields);
	memset(ev, 0, sizeof(*ev));
	ev->common_pid = -1;
}

const struct tp_field *tp_event_field(const struct tp_event *ev, const char *name)
{
	for (unsigned int i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

int tp_field_dyn(const struct tp_field *f, const uint8_t *rec, size_t rec_len, const uint8_t **data,
		 uint32_t *len)
{
	uint32_t loc;
	uint64_t off;

	if (f->kind != TP_FIELD_DATA_LOC && f->kind != TP_FIELD_REL_LOC)
		return -1;
	if ((uint64_t)f->offset + 4 > rec_len)
		return -1;
	memcpy(&loc, rec + f->offset, 4);
	off = loc & 0xffff;
	if (f->kind == TP_FIELD_REL_LOC)
		off += (uint64_t)f->offset + 4;
	if (off + (loc >> 16) > rec_len)
		return -1;
	*data = rec + off;
	*len = loc >> 16;
	return 0;
}
