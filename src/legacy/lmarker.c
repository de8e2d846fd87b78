/*
 * lmarker.c - the format strings of the compact format's markers (seed
 * 002, docs/legacy-formats.md 2.5) as a struct type: "name %conv" items,
 * a "#" trace type before a conversion giving the size written in the
 * trace, "%%" and "##" literals, unnamed fields "field N".
 */
#include "legacy/ltt-type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy/larena.h"

struct lmarker_type {
	struct lxml_arena *a;
	struct ltt_type *type;
};

/* What a qualifier or a trace type's size says. */
struct lsize {
	enum ltt_size_ref ref;
	uint8_t size;
	bool set;
};

struct lconv {
	struct lsize size;
	enum ltt_kind kind; /* LTT_SIGNED, LTT_UNSIGNED, LTT_STRING */
	uint8_t base;
	bool is_char, is_pointer, network;
};

static int merr(char *err, size_t errlen, const char *format, size_t pos, const char *what)
{
	if (errlen) {
		snprintf(err, errlen, "marker format \"%s\", at %zu: %s", format, pos, what);
		lmsg_one_line(err);
	}
	return -1;
}

/* A C length qualifier at *p (advanced): h hh l ll L q j z Z t. */
static void parse_qualifier(const char **p, struct lsize *sz)
{
	const char *s = *p;

	sz->set = true;
	sz->ref = LTT_SIZE_FIXED;
	if (s[0] == 'h' && s[1] == 'h')
		sz->size = 1, s += 2;
	else if (s[0] == 'h')
		sz->size = 2, s++;
	else if (s[0] == 'l' && s[1] == 'l')
		sz->size = 8, s += 2;
	else if (s[0] == 'l')
		sz->ref = LTT_SIZE_LONG, s++;
	else if (s[0] == 'L' || s[0] == 'q' || s[0] == 'j')
		sz->size = 8, s++;
	else if (s[0] == 'z' || s[0] == 'Z')
		sz->ref = LTT_SIZE_SIZE_T, s++;
	else if (s[0] == 't')
		sz->ref = LTT_SIZE_POINTER, s++;
	else
		sz->set = false;
	*p = s;
}

/* A conversion letter into c; 0, or -1 when it is not one. */
static int parse_conversion(char ch, struct lconv *c)
{
	c->base = 10;
	switch (ch) {
	case 'c':
		c->kind = LTT_UNSIGNED;
		c->is_char = true;
		c->size = (struct lsize){LTT_SIZE_FIXED, 1, true};
		return 0;
	case 'd':
	case 'i':
		c->kind = LTT_SIGNED;
		return 0;
	case 'o':
		c->kind = LTT_UNSIGNED;
		c->base = 8;
		return 0;
	case 'u':
		c->kind = LTT_UNSIGNED;
		return 0;
	case 'x':
	case 'X':
		c->kind = LTT_UNSIGNED;
		c->base = 16;
		return 0;
	case 'p':
		c->kind = LTT_UNSIGNED;
		c->base = 16;
		c->is_pointer = true;
		c->size = (struct lsize){LTT_SIZE_POINTER, 0, true};
		return 0;
	case 's':
		c->kind = LTT_STRING;
		return 0;
	default:
		return -1;
	}
}

/* The trace type after '#' (at *p, advanced): [n] then 1 2 4 8 or a C qualifier, then a conversion.
 */
static int parse_trace_type(const char **p, struct lconv *tt)
{
	const char *s = *p;

	memset(tt, 0, sizeof(*tt));
	if (*s == 'n') {
		tt->network = true;
		s++;
	}
	if (*s == '1' || *s == '2' || *s == '4' || *s == '8') {
		tt->size = (struct lsize){LTT_SIZE_FIXED, (uint8_t)(*s - '0'), true};
		s++;
	} else {
		parse_qualifier(&s, &tt->size);
	}
	struct lsize written = tt->size;

	if (parse_conversion(*s, tt))
		return -1;
	if (written.set) /* #2c, #4p: the written size wins over the conversion's */
		tt->size = written;
	*p = s + 1;
	return 0;
}

/* The C type after '%' (at *p, advanced): flags, width/precision (ignored), qualifier, conversion.
 */
static int parse_c_type(const char **p, struct lconv *c)
{
	const char *s = *p;
	struct lsize q;

	memset(c, 0, sizeof(*c));
	while (*s && strchr("-+ #0", *s))
		s++;
	/* width and precision only change the printing (LTTV refused them; we skip them) */
	while ((*s >= '0' && *s <= '9') || *s == '.')
		s++;
	parse_qualifier(&s, &q);
	if (parse_conversion(*s, c))
		return -1;
	if (!c->size.set)
		c->size = q.set ? q : (struct lsize){LTT_SIZE_INT, 0, true};
	*p = s + 1;
	return 0;
}

static struct ltt_type *field_type(struct lxml_arena *a, const struct lconv *c,
				   const struct lconv *tt, bool has_tt)
{
	struct ltt_type *t = larena_alloc(a, sizeof(*t));

	if (!t)
		return NULL;
	t->base = c->base;
	t->is_char = c->is_char;
	if (c->kind == LTT_STRING) { /* a string stays one whatever the trace type */
		t->kind = LTT_STRING;
		return t;
	}
	const struct lconv *w = has_tt ? tt : c; /* what the trace holds */

	t->kind = w->kind == LTT_STRING ? c->kind : w->kind;
	/* "#u%lu": a trace type without a size takes the C type's */
	t->size_ref = w->size.set ? w->size.ref : c->size.ref;
	t->size = w->size.set ? w->size.size : c->size.size;
	t->network = has_tt && tt->network;
	if (c->is_pointer)
		t->base = 16;
	return t;
}

struct lmarker_type *lmarker_parse(const char *format, char *err, size_t errlen)
{
	struct lmarker_type *m = calloc(1, sizeof(*m));
	struct ltt_field *fields = NULL;
	size_t nfields = 0, cap = 0;
	const char *name = NULL, *s = format;
	size_t name_len = 0;
	struct lconv tt;
	bool has_tt = false;

	if (errlen)
		err[0] = 0;
	if (!m || !(m->a = larena_new()) || !(m->type = larena_alloc(m->a, sizeof(*m->type))))
		goto oom;
	m->type->kind = LTT_STRUCT;
	while (*s) {
		size_t pos = s - format;

		if (s[0] == '#' && s[1] == '#') {
			s += 2;
		} else if (s[0] == '%' && s[1] == '%') {
			s += 2;
		} else if (*s == '#') {
			s++;
			if (has_tt) {
				merr(err, errlen, format, pos, "two trace types for one field");
				goto fail;
			}
			if (parse_trace_type(&s, &tt)) {
				merr(err, errlen, format, pos, "not a trace type (#[n]SIZE CONV)");
				goto fail;
			}
			has_tt = true;
		} else if (*s == '%') {
			struct lconv c;
			struct ltt_field f;

			s++;
			if (parse_c_type(&s, &c)) {
				merr(err, errlen, format, pos, "unknown conversion");
				goto fail;
			}
			if (name_len) {
				f.name = larena_strndup(m->a, name, name_len);
			} else {
				char buf[32];

				snprintf(buf, sizeof(buf), "field %zu", nfields + 1);
				f.name = larena_strndup(m->a, buf, strlen(buf));
			}
			f.type = field_type(m->a, &c, &tt, has_tt);
			if (!f.name || !f.type)
				goto oom;
			if (nfields == cap) {
				size_t ncap = cap ? cap * 2 : 8;
				struct ltt_field *nf = larena_alloc(m->a, ncap * sizeof(*nf));

				if (!nf)
					goto oom;
				if (nfields)
					memcpy(nf, fields, nfields * sizeof(*nf));
				fields = nf;
				cap = ncap;
			}
			fields[nfields++] = f;
			has_tt = false;
			name = NULL;
			name_len = 0;
		} else if (*s == ' ' || *s == '\t' || *s == '\n') {
			s++;
		} else {
			/* a word: the name of the next field is the first word after the previous
			 * one */
			const char *w = s;

			while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '%' &&
			       *s != '#')
				s++;
			if (!name) {
				name = w;
				name_len = s - w;
				/* "len=%d", "len:%d": the punctuation is no part of the name */
				while (name_len &&
				       (name[name_len - 1] == '=' || name[name_len - 1] == ':'))
					name_len--;
				if (!name_len)
					name = NULL;
			}
		}
	}
	if (has_tt) {
		merr(err, errlen, format, strlen(format), "a trace type without its conversion");
		goto fail;
	}
	m->type->fields = fields;
	m->type->nfields = nfields;
	return m;
oom:
	merr(err, errlen, format, 0, "out of memory");
fail:
	lmarker_free(m);
	return NULL;
}

const struct ltt_type *lmarker_type_get(const struct lmarker_type *m)
{
	return m->type;
}

void lmarker_free(struct lmarker_type *m)
{
	if (!m)
		return;
	larena_free(m->a);
	free(m);
}
