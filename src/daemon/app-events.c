/*
 * app-events.c - reading the event descriptions applications send
 * (APP_EVENTS, docs/daemon.md): every field checked (kinds, sizes, bases,
 * names, enum labels) before it can reach a metadata file, since what an
 * application says is not trusted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/traxd.h"

/* The mappings of an enumeration field, labels included. */
static void free_mappings(struct ctfw_enum_mapping *m, unsigned int n)
{
	for (unsigned int k = 0; k < n; k++)
		free((char *)m[k].label);
	free(m);
}

void app_event_free(struct app_event *e)
{
	for (unsigned int i = 0; e->fields && i < e->cls.nr_fields; i++) {
		struct ctfw_type *t = &e->fields[i].type;

		if (t->kind == CTFW_TYPE_ENUM)
			free_mappings((struct ctfw_enum_mapping *)t->enumeration.mappings,
				      t->enumeration.nr_mappings);
		free((char *)e->fields[i].name);
	}
	free(e->fields);
	free(e->elems);
	free(e->name);
	free(e->emf_uri);
	free(e->signature);
	free(e->fields_text);
}

static bool is_ident(const char *s, size_t max)
{
	size_t n = 0;

	if (!s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (; *s; s++, n++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return n <= max;
}

/* Event names: "provider:event", the characters LTTng accepts in both. */
static bool is_event_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > TRAXD_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == ':' || *s == '.' || *s == '-'))
			return false;
	return true;
}

static bool parse_long(const char **p, long long *v, long long min, long long max)
{
	char *end;

	errno = 0;
	*v = strtoll(*p, &end, 10);
	if (errno || end == *p || *v < min || *v > max || (*end != ':' && *end != '\0'))
		return false;
	*p = *end == ':' ? end + 1 : end;
	return true;
}

static bool int_size_ok(long long s)
{
	return s == 8 || s == 16 || s == 32 || s == 64;
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case TRAX_PROTO_FIELD_INTEGER:
		return "integer";
	case TRAX_PROTO_FIELD_FLOAT:
		return "float";
	case TRAX_PROTO_FIELD_STRING:
		return "string";
	case TRAX_PROTO_FIELD_ARRAY:
		return "array";
	case TRAX_PROTO_FIELD_SEQUENCE:
		return "sequence";
	default:
		return "enum";
	}
}

/*
 * A field as described, before the event is whole: its type for the
 * metadata (elem: its elements', mappings: an enumeration's, growing) and
 * what only the description says of it.
 */
struct parsed_field {
	struct ctfw_field f;
	struct ctfw_type elem;
	struct ctfw_enum_mapping *mappings;
	unsigned int nr_mappings;
	int kind; /* enum trax_proto_field_kind */
	bool nowrite;
};

static void parsed_field_free(struct parsed_field *pf)
{
	free((char *)pf->f.name);
	free_mappings(pf->mappings, pf->nr_mappings);
}

/*
 * field=KIND:NAME:SIZE:SIGNED:BASE:NETWORK:TEXT:FLOAT_BITS:COUNT:LEN_SIZE:
 * LEN_SIGNED:NOWRITE:ENUM_NAME into pf; false when anything is off.
 */
static bool parse_field(const char *v, struct parsed_field *pf)
{
	long long k, size, sig, base, net, text, fbits, count, lsize, lsig, nowrite;
	const char *p = v, *colon;
	char name[TRAXD_NAME_MAX + 1];
	struct ctfw_type *t = &pf->f.type;

	memset(pf, 0, sizeof(*pf));
	if (!parse_long(&p, &k, TRAX_PROTO_FIELD_INTEGER, TRAX_PROTO_FIELD_ENUM))
		return false;
	colon = strchr(p, ':');
	if (!colon || (size_t)(colon - p) > TRAXD_NAME_MAX)
		return false;
	memcpy(name, p, (size_t)(colon - p));
	name[colon - p] = 0;
	p = colon + 1;
	if (!is_ident(name, TRAXD_NAME_MAX) || !parse_long(&p, &size, 0, 64) ||
	    !parse_long(&p, &sig, 0, 1) || !parse_long(&p, &base, 0, 16) ||
	    !parse_long(&p, &net, 0, 1) || !parse_long(&p, &text, 0, 1) ||
	    !parse_long(&p, &fbits, 0, 64) || !parse_long(&p, &count, 0, 1 << 20) ||
	    !parse_long(&p, &lsize, 0, 64) || !parse_long(&p, &lsig, 0, 1) ||
	    !parse_long(&p, &nowrite, 0, 1))
		return false;
	/* strings and floats have no display base: 0 stands for decimal */
	if (base == 0)
		base = 10;
	if (base != 2 && base != 8 && base != 10 && base != 16)
		return false;
	switch (k) {
	case TRAX_PROTO_FIELD_INTEGER:
	case TRAX_PROTO_FIELD_ENUM:
	case TRAX_PROTO_FIELD_ARRAY:
		if (!int_size_ok(size))
			return false;
		break;
	case TRAX_PROTO_FIELD_FLOAT:
		if (fbits != 32 && fbits != 64)
			return false;
		break;
	case TRAX_PROTO_FIELD_SEQUENCE:
		if (!int_size_ok(size) || !int_size_ok(lsize))
			return false;
		break;
	}
	/* an enumeration's name says nothing the metadata writes */
	if (k == TRAX_PROTO_FIELD_ENUM ? !is_ident(p, TRAXD_NAME_MAX) : *p != 0)
		return false;
	pf->f.name = strdup(name);
	if (!pf->f.name)
		return false;
	pf->kind = (int)k;
	pf->nowrite = nowrite;
	pf->elem.kind = CTFW_TYPE_INTEGER;
	pf->elem.integer = ctfw_integer((unsigned int)size, sig, (unsigned int)base);
	pf->elem.integer.byte_order = net ? CTFW_BYTE_ORDER_BE : CTFW_BYTE_ORDER_NATIVE;
	pf->elem.integer.encoding = text ? CTFW_ENCODING_UTF8 : CTFW_ENCODING_NONE;
	switch (k) {
	case TRAX_PROTO_FIELD_INTEGER:
		*t = pf->elem;
		break;
	case TRAX_PROTO_FIELD_FLOAT:
		t->kind = CTFW_TYPE_FLOAT;
		t->floating = ctfw_float_bits((unsigned int)fbits);
		break;
	case TRAX_PROTO_FIELD_STRING:
		t->kind = CTFW_TYPE_STRING;
		break;
	case TRAX_PROTO_FIELD_ARRAY:
		t->kind = CTFW_TYPE_ARRAY;
		t->array.length = (uint32_t)count;
		break;
	case TRAX_PROTO_FIELD_SEQUENCE:
		t->kind = CTFW_TYPE_SEQUENCE;
		t->sequence.length = ctfw_integer((unsigned int)lsize, lsig, 10);
		break;
	case TRAX_PROTO_FIELD_ENUM:
		t->kind = CTFW_TYPE_ENUM;
		t->enumeration.container = pf->elem.integer;
		break;
	}
	return true;
}

/* enum=START:END:LABEL, its values written with the container's signedness */
static bool parse_enum_entry(const char *v, struct ctfw_enum_mapping *m, bool is_signed)
{
	long long start, end;
	const char *p = v;

	if (!parse_long(&p, &start, INT64_MIN, INT64_MAX) ||
	    !parse_long(&p, &end, INT64_MIN, INT64_MAX) || strlen(p) > 1024)
		return false;
	if (is_signed ? start > end : (uint64_t)start > (uint64_t)end)
		return false;
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20)
			return false;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->start_signed = m->end_signed = is_signed;
	m->label = strdup(p);
	return m->label != NULL;
}

/* Appends enum=V to the enumeration of pf (geometric growth). */
static bool add_enum_entry(struct parsed_field *pf, const char *v)
{
	unsigned int c = pf->nr_mappings;
	struct ctfw_enum_mapping *n = pf->mappings;

	if (c >= 65536)
		return false;
	/* capacity: the next power of two */
	if ((c & (c - 1)) == 0) {
		n = realloc(n, (c ? 2 * c : 1) * sizeof(*n));
		if (!n)
			return false;
		pf->mappings = n;
	}
	if (!parse_enum_entry(v, &n[c], pf->elem.integer.is_signed))
		return false;
	pf->nr_mappings++;
	return true;
}

/*
 * enum_auto=1: the entry before was ctf_enum_auto(), written without its
 * value, which TSDL then gives as LTTng-UST does. It must be that value, or
 * the metadata would say otherwise.
 */
static bool set_enum_auto(struct parsed_field *pf, const char *v)
{
	unsigned int k = pf->nr_mappings;
	struct ctfw_enum_mapping *m = &pf->mappings[k - 1];
	uint64_t want = k > 1 ? (uint64_t)pf->mappings[k - 2].end + 1 : 0;

	m->implicit = true;
	return !strcmp(v, "1") && (uint64_t)m->start == want && m->end == m->start;
}

/* enum_signed=S:E: how the entry before writes its values */
static bool set_enum_signed(struct parsed_field *pf, const char *v)
{
	struct ctfw_enum_mapping *m = &pf->mappings[pf->nr_mappings - 1];

	if (strlen(v) != 3 || (v[0] != '0' && v[0] != '1') || v[1] != ':' ||
	    (v[2] != '0' && v[2] != '1') || m->implicit)
		return false;
	m->start_signed = v[0] == '1';
	m->end_signed = v[2] == '1';
	return true;
}

/* "type name, ..." as lttng-ust lists them, for `trax list -u` */
static bool fields_text(struct app_event *e, const struct parsed_field *fields, unsigned int nf)
{
	struct strbuf text;
	bool ok;

	strbuf_init(&text);
	for (unsigned int i = 0; i < nf; i++) {
		bool seq = fields[i].kind == TRAX_PROTO_FIELD_SEQUENCE;
		const char *kind = kind_name(fields[i].kind);

		/*
		 * A sequence's length is a field of its own; arrays and sequences
		 * are strings when they hold text, else of an unknown type.
		 */
		if (fields[i].kind == TRAX_PROTO_FIELD_ARRAY || seq)
			kind = fields[i].elem.integer.encoding == CTFW_ENCODING_UTF8 ? "string"
										     : "unknown";
		if (seq)
			strbuf_printf(&text, "%sinteger _%s_length, %s %s", i ? ", " : "",
				      fields[i].f.name, kind, fields[i].f.name);
		else
			strbuf_printf(&text, "%s%s %s", i ? ", " : "", kind, fields[i].f.name);
	}
	ok = !text.failed;
	if (ok && text.len)
		e->fields_text = text.buf, text.buf = NULL;
	strbuf_free(&text);
	return ok;
}

/*
 * Moves the written fields into e->cls (the others are freed): each one's
 * element type into e->elems. Every field is freed when it fails.
 */
static bool take_fields(struct app_event *e, struct parsed_field *fields, unsigned int nf)
{
	unsigned int i, n = 0;

	for (i = 0; i < nf; i++)
		n += !fields[i].nowrite;
	if (n) {
		e->fields = calloc(n, sizeof(*e->fields));
		e->elems = calloc(n, sizeof(*e->elems));
	}
	if (n && (!e->fields || !e->elems)) {
		for (i = 0; i < nf; i++)
			parsed_field_free(&fields[i]);
		return false;
	}
	for (i = 0, n = 0; i < nf; i++) {
		struct ctfw_field *f;

		if (fields[i].nowrite) {
			parsed_field_free(&fields[i]);
			continue;
		}
		f = &e->fields[n];
		*f = fields[i].f;
		e->elems[n] = fields[i].elem;
		if (f->type.kind == CTFW_TYPE_ARRAY)
			f->type.array.elem = &e->elems[n];
		else if (f->type.kind == CTFW_TYPE_SEQUENCE)
			f->type.sequence.elem = &e->elems[n];
		else if (f->type.kind == CTFW_TYPE_ENUM)
			f->type.enumeration.mappings = fields[i].mappings,
			f->type.enumeration.nr_mappings = fields[i].nr_mappings;
		else
			free_mappings(fields[i].mappings, fields[i].nr_mappings);
		e->cls.nr_fields = ++n;
	}
	e->cls.fields = e->fields;
	return true;
}

/* The signature: every field= and enum*= string, one per line. */
static bool add_to_signature(struct strbuf *sig, const char *kv)
{
	strbuf_puts(sig, kv);
	strbuf_add(sig, "\n", 1);
	return !sig->failed;
}

bool app_event_parse(const struct trax_msg *m, const char **kv, uint32_t index, struct app_event *e)
{
	struct parsed_field fields[TRAXD_MAX_FIELDS];
	struct parsed_field *last = NULL; /* the last field, when an enumeration */
	unsigned int nf = 0;
	struct strbuf sig;
	const char *v;
	bool ok = true;

	long long idx;

	memset(e, 0, sizeof(*e));
	v = trax_kv_value(*kv, "event");
	if (!v || !parse_long(&v, &idx, 0, TRAXD_MAX_EVENTS - 1) || *v || (uint32_t)idx != index)
		return false;
	strbuf_init(&sig);
	e->loglevel = -1;
	for (*kv = trax_msg_next(m, *kv); ok && *kv && !trax_kv_value(*kv, "event");
	     *kv = trax_msg_next(m, *kv)) {
		if ((v = trax_kv_value(*kv, "name"))) {
			ok = !e->name && is_event_name(v) && (e->name = strdup(v));
		} else if ((v = trax_kv_value(*kv, "loglevel"))) {
			long long l;

			ok = parse_long(&v, &l, -1, 14) && !*v;
			e->loglevel = (int)l;
		} else if ((v = trax_kv_value(*kv, "emf_uri"))) {
			ok = !e->emf_uri && strlen(v) < 4096 && (e->emf_uri = strdup(v));
		} else if ((v = trax_kv_value(*kv, "field"))) {
			ok = nf < TRAXD_MAX_FIELDS && parse_field(v, &fields[nf]);
			if (ok)
				nf++;
			if (ok)
				ok = add_to_signature(&sig, *kv);
			last = ok && fields[nf - 1].kind == TRAX_PROTO_FIELD_ENUM ? &fields[nf - 1]
										  : NULL;
		} else if ((v = trax_kv_value(*kv, "enum"))) {
			ok = last && add_to_signature(&sig, *kv) && add_enum_entry(last, v);
		} else if ((v = trax_kv_value(*kv, "enum_auto"))) {
			ok = last && last->nr_mappings && set_enum_auto(last, v) &&
			     add_to_signature(&sig, *kv);
		} else if ((v = trax_kv_value(*kv, "enum_signed"))) {
			ok = last && last->nr_mappings && set_enum_signed(last, v) &&
			     add_to_signature(&sig, *kv);
		}
		/* other keys: from a newer library, ignored */
	}
	if (ok && !e->name)
		ok = false;
	for (unsigned int i = 0; ok && i < nf; i++)
		if (fields[i].kind == TRAX_PROTO_FIELD_ENUM && fields[i].nr_mappings == 0)
			ok = false;
	/* two fields of one name: no reader takes such a structure */
	for (unsigned int i = 0; ok && i < nf; i++)
		for (unsigned int k = i + 1; ok && k < nf; k++)
			if (!strcmp(fields[i].f.name, fields[k].f.name))
				ok = false;
	if (ok && sig.len) {
		e->signature = sig.buf;
		sig.buf = NULL;
	}
	strbuf_free(&sig);
	if (ok)
		ok = fields_text(e, fields, nf);
	if (ok) {
		ok = take_fields(e, fields, nf);
		nf = 0; /* owned by e now, or freed */
	}
	for (unsigned int i = 0; i < nf; i++)
		parsed_field_free(&fields[i]);
	if (!ok) {
		app_event_free(e);
		return false;
	}
	if (!e->signature)
		e->signature = strdup("");
	e->cls.name = e->name;
	e->cls.loglevel = e->loglevel;
	e->cls.model_emf_uri = e->emf_uri;
	return e->signature != NULL;
}

const char *app_event_field_text(const struct app_event *e)
{
	return e->fields_text ? e->fields_text : "";
}
