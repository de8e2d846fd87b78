/*
 * lv2-meta.c - the marker descriptions of the compact format: the two
 * core events' layouts and the tables they fill (lv2-meta.h).
 */
#include "legacy/lv2-meta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_channel(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void *grow(void *v, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return v;
	ncap = *cap ? *cap * 2 : 16;
	nv = realloc(v, ncap * elem);
	if (nv)
		*cap = ncap;
	return nv;
}

int lv2_meta_set_id(struct lv2_meta *m, const char *channel, const char *name, uint16_t id,
		    const struct ltt_abi *abi, char *err, size_t errlen)
{
	struct lv2_marker *mk;
	void *nv;

	for (size_t i = 0; i < m->nids; i++) {
		mk = &m->ids[i];
		if (mk->id != id || !same_channel(mk->channel, channel))
			continue;
		if (strcmp(mk->name, name) == 0)
			return 0;
		snprintf(err, errlen, "marker id %u%s%s is %s and %s", id,
			 channel ? " of channel " : "", channel ? channel : "", mk->name, name);
		return -1;
	}
	nv = grow(m->ids, &m->ids_cap, m->nids, sizeof(*m->ids));
	if (!nv)
		goto nomem;
	m->ids = nv;
	mk = &m->ids[m->nids];
	memset(mk, 0, sizeof(*mk));
	mk->channel = dup_or_null(channel);
	mk->name = strdup(name);
	if ((channel && !mk->channel) || !mk->name) {
		free(mk->channel);
		free(mk->name);
		goto nomem;
	}
	mk->id = id;
	mk->abi = *abi;
	m->nids++;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int lv2_meta_set_format(struct lv2_meta *m, const char *channel, const char *name,
			const char *format, char *err, size_t errlen)
{
	struct lv2_format *f;
	char perr[256];
	void *nv;

	for (size_t i = 0; i < m->nformats; i++) {
		f = &m->formats[i];
		if (strcmp(f->name, name) != 0 || !same_channel(f->channel, channel))
			continue;
		if (strcmp(f->format, format) == 0)
			return 0;
		snprintf(err, errlen, "marker format mismatch for %s%s%s: \"%s\" then \"%s\"",
			 channel ? channel : "", channel ? "." : "", name, f->format, format);
		return -1;
	}
	nv = grow(m->formats, &m->formats_cap, m->nformats, sizeof(*m->formats));
	if (!nv)
		goto nomem;
	m->formats = nv;
	f = &m->formats[m->nformats];
	memset(f, 0, sizeof(*f));
	f->channel = dup_or_null(channel);
	f->name = strdup(name);
	f->format = strdup(format);
	if ((channel && !f->channel) || !f->name || !f->format) {
		free(f->channel);
		free(f->name);
		free(f->format);
		goto nomem;
	}
	m->nformats++;
	perr[0] = '\0';
	f->type = lmarker_parse(format, perr, sizeof(perr));
	if (!f->type) {
		snprintf(err, errlen, "marker %s%s%s: %s", channel ? channel : "",
			 channel ? "." : "", name, perr[0] ? perr : "format not understood");
		return 1;
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void lv2_meta_resolve(struct lv2_meta *m)
{
	for (size_t i = 0; i < m->nids; i++) {
		struct lv2_marker *mk = &m->ids[i];

		mk->payload = NULL;
		for (size_t j = 0; j < m->nformats; j++) {
			const struct lv2_format *f = &m->formats[j];

			if (f->type && strcmp(f->name, mk->name) == 0 &&
			    same_channel(f->channel, mk->channel)) {
				mk->payload = lmarker_type_get(f->type);
				break;
			}
		}
	}
}

void lv2_meta_free(struct lv2_meta *m)
{
	for (size_t i = 0; i < m->nids; i++) {
		free(m->ids[i].channel);
		free(m->ids[i].name);
	}
	for (size_t i = 0; i < m->nformats; i++) {
		free(m->formats[i].channel);
		free(m->formats[i].name);
		free(m->formats[i].format);
		if (m->formats[i].type)
			lmarker_free(m->formats[i].type);
	}
	free(m->ids);
	free(m->formats);
	memset(m, 0, sizeof(*m));
}

/* A NUL-terminated string at *off: its start, *off past its NUL; NULL when unterminated. */
static const char *take_string(const uint8_t *p, size_t len, size_t *off)
{
	const uint8_t *nul;

	if (*off >= len)
		return NULL;
	nul = memchr(p + *off, '\0', len - *off);
	if (!nul)
		return NULL;
	const char *s = (const char *)p + *off;
	*off = (size_t)(nul - p) + 1;
	return s;
}

long lv2_decode_set_id(const uint8_t *p, size_t len, size_t base, uint8_t alignment, bool be,
		       bool with_channel, struct lv2_set_id *out, char *err, size_t errlen)
{
	size_t off = 0;
	unsigned a = alignment < 2 ? alignment : 2;

	memset(out, 0, sizeof(*out));
	if (with_channel && !(out->channel = take_string(p, len, &off))) {
		snprintf(err, errlen, "set_marker_id: channel name not terminated");
		return -1;
	}
	if (!(out->name = take_string(p, len, &off))) {
		snprintf(err, errlen, "set_marker_id: marker name not terminated");
		return -1;
	}
	/* the u16 id is aligned on the block offset, as the writer's address was */
	off += ltt_pad(base + off, a);
	if (off + 7 > len) {
		snprintf(err, errlen,
			 "set_marker_id of %s: %zu bytes where the id and sizes need %zu",
			 out->name, len, off + 7);
		return -1;
	}
	out->id = be ? (uint16_t)(p[off] << 8 | p[off + 1]) : (uint16_t)(p[off + 1] << 8 | p[off]);
	out->int_size = p[off + 2];
	out->long_size = p[off + 3];
	out->pointer_size = p[off + 4];
	out->size_t_size = p[off + 5];
	out->alignment = p[off + 6];
	return (long)(off + 7);
}

long lv2_decode_set_format(const uint8_t *p, size_t len, bool with_channel,
			   struct lv2_set_format *out, char *err, size_t errlen)
{
	size_t off = 0;

	memset(out, 0, sizeof(*out));
	if (with_channel && !(out->channel = take_string(p, len, &off))) {
		snprintf(err, errlen, "set_marker_format: channel name not terminated");
		return -1;
	}
	if (!(out->name = take_string(p, len, &off))) {
		snprintf(err, errlen, "set_marker_format: marker name not terminated");
		return -1;
	}
	if (!(out->format = take_string(p, len, &off))) {
		snprintf(err, errlen, "set_marker_format of %s: format not terminated", out->name);
		return -1;
	}
	return (long)off;
}

static unsigned type_align(const struct ltt_type *t, const struct ltt_abi *abi, unsigned depth)
{
	unsigned a = 1, s;

	t = ltt_type_resolve(t);
	if (!t || depth > 32)
		return 1;
	switch (t->kind) {
	case LTT_SIGNED:
	case LTT_UNSIGNED:
	case LTT_FLOAT:
	case LTT_ENUM:
		s = ltt_type_scalar_size(t, abi);
		return s ? s : 1;
	case LTT_STRING:
	case LTT_TYPEREF:
		return 1;
	case LTT_ARRAY:
		return t->elem ? type_align(t->elem, abi, depth + 1) : 1;
	case LTT_SEQUENCE:
		if (t->length_type)
			a = type_align(t->length_type, abi, depth + 1);
		if (t->elem && (s = type_align(t->elem, abi, depth + 1)) > a)
			a = s;
		return a;
	case LTT_STRUCT:
	case LTT_UNION:
		for (size_t i = 0; i < t->nfields; i++)
			if ((s = type_align(t->fields[i].type, abi, depth + 1)) > a)
				a = s;
		if (t->kind == LTT_UNION && t->typecode_size > a)
			a = t->typecode_size;
		return a;
	}
	return 1;
}

unsigned lv2_payload_align(const struct ltt_type *t, const struct ltt_abi *abi)
{
	unsigned a;

	if (!abi->alignment)
		return 1;
	a = type_align(t, abi, 0);
	return a < abi->alignment ? a : abi->alignment;
}
