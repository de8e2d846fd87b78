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

void app_event_free(struct app_event *e)
{
	for (unsigned int i = 0; e->enums && i < e->desc.nr_fields; i++) {
		for (unsigned int k = 0; k < e->enums[i].nr_entries; k++)
			free((char *)e->enums[i].entries[k].label);
		free((void *)e->enums[i].entries);
		free((char *)e->enums[i].name);
	}
	for (unsigned int i = 0; e->fields && i < e->desc.nr_fields; i++)
		free((char *)e->fields[i].name);
	free(e->enums);
	free(e->fields);
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
	case TRAX_FIELD_INTEGER:
		return "integer";
	case TRAX_FIELD_FLOAT:
		return "float";
	case TRAX_FIELD_STRING:
		return "string";
	case TRAX_FIELD_ARRAY:
		return "array";
	case TRAX_FIELD_SEQUENCE:
		return "sequence";
	default:
		return "enum";
	}
}

/*
 * field=KIND:NAME:SIZE:SIGNED:BASE:NETWORK:TEXT:FLOAT_BITS:COUNT:LEN_SIZE:
 * LEN_SIGNED:NOWRITE:ENUM_NAME into f; false when anything is off.
 */
static bool parse_field(const char *v, struct trax_field_desc *f, char **enum_name)
{
	long long k, size, sig, base, net, text, fbits, count, lsize, lsig, nowrite;
	const char *p = v, *colon;
	char name[TRAXD_NAME_MAX + 1];

	memset(f, 0, sizeof(*f));
	*enum_name = NULL;
	if (!parse_long(&p, &k, TRAX_FIELD_INTEGER, TRAX_FIELD_ENUM))
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
	case TRAX_FIELD_INTEGER:
	case TRAX_FIELD_ENUM:
		if (!int_size_ok(size))
			return false;
		break;
	case TRAX_FIELD_FLOAT:
		if (fbits != 32 && fbits != 64)
			return false;
		break;
	case TRAX_FIELD_ARRAY:
		if (!int_size_ok(size))
			return false;
		break;
	case TRAX_FIELD_SEQUENCE:
		if (!int_size_ok(size) || !int_size_ok(lsize))
			return false;
		break;
	}
	if (k == TRAX_FIELD_ENUM) {
		if (!is_ident(p, TRAXD_NAME_MAX))
			return false;
		*enum_name = strdup(p);
		if (!*enum_name)
			return false;
	} else if (*p) {
		return false;
	}
	f->name = strdup(name);
	if (!f->name) {
		free(*enum_name);
		*enum_name = NULL;
		return false;
	}
	f->kind = (uint8_t)k;
	f->nowrite = (uint8_t)nowrite;
	f->float_bits = (uint8_t)fbits;
	f->elem.size = (uint8_t)size;
	f->elem.is_signed = (uint8_t)sig;
	f->elem.base = (uint8_t)base;
	f->elem.network = (uint8_t)net;
	f->elem.text = (uint8_t)text;
	f->length.size = (uint8_t)lsize;
	f->length.is_signed = (uint8_t)lsig;
	f->length.base = 10;
	f->count = (uint32_t)count;
	return true;
}

/* enum=START:END:LABEL */
static bool parse_enum_entry(const char *v, struct trax_enum_entry *m, bool is_signed)
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
	m->start = start;
	m->end = end;
	m->flags = 0;
	m->label = strdup(p);
	return m->label != NULL;
}

bool app_event_parse(const struct trax_msg *m, const char **kv, uint32_t index, struct app_event *e)
{
	struct trax_field_desc fields[TRAXD_MAX_FIELDS];
	struct trax_enum_desc enums[TRAXD_MAX_FIELDS];
	unsigned int nf = 0;
	struct strbuf sig;
	const char *v;
	bool ok = true;

	long long idx;

	memset(e, 0, sizeof(*e));
	v = trax_kv_value(*kv, "event");
	if (!v || !parse_long(&v, &idx, 0, TRAXD_MAX_EVENTS - 1) || *v || (uint32_t)idx != index)
		return false;
	memset(enums, 0, sizeof(enums));
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
			char *ename = NULL;

			ok = nf < TRAXD_MAX_FIELDS && parse_field(v, &fields[nf], &ename);
			if (ok) {
				strbuf_puts(&sig, *kv);
				strbuf_add(&sig, "\n", 1);
				ok = !sig.failed;
			}
			if (ok && ename)
				enums[nf].name = ename;
			if (ok)
				nf++;
		} else if ((v = trax_kv_value(*kv, "enum"))) {
			struct trax_enum_desc *ed = nf ? &enums[nf - 1] : NULL;
			struct trax_enum_entry *n;

			ok = ed && ed->name && ed->nr_entries < 65536;
			if (ok) {
				strbuf_puts(&sig, *kv);
				strbuf_add(&sig, "\n", 1);
				ok = !sig.failed;
			}
			if (ok) {
				/* capacity: the next power of two (geometric growth) */
				unsigned int c = ed->nr_entries;

				n = (struct trax_enum_entry *)ed->entries;
				if ((c & (c - 1)) == 0) {
					n = realloc(n, (c ? 2 * c : 1) * sizeof(*n));
					if (n)
						ed->entries = n;
				}
				ok = n != NULL;
				if (ok) {
					ok = parse_enum_entry(v, &n[ed->nr_entries],
							      fields[nf - 1].elem.is_signed);
					if (ok)
						ed->nr_entries++;
				}
			}
		} else if ((v = trax_kv_value(*kv, "enum_auto"))) {
			/*
			 * The entry before was ctf_enum_auto(): written without its
			 * value, which TSDL then gives as LTTng-UST does. It must be
			 * that value, or the metadata would say otherwise.
			 */
			struct trax_enum_desc *ed = nf ? &enums[nf - 1] : NULL;
			unsigned int k = ed ? ed->nr_entries : 0;

			ok = k > 0 && !strcmp(v, "1");
			if (ok) {
				struct trax_enum_entry *m =
				    (struct trax_enum_entry *)&ed->entries[k - 1];
				uint64_t want = k > 1 ? (uint64_t)ed->entries[k - 2].end + 1 : 0;

				ok = (uint64_t)m->start == want && m->end == m->start;
				m->flags |= TRAX_ENUM_AUTO;
			}
			if (ok) {
				strbuf_puts(&sig, *kv);
				strbuf_add(&sig, "\n", 1);
				ok = !sig.failed;
			}
		} else if ((v = trax_kv_value(*kv, "enum_signed"))) {
			/* enum_signed=S:E: how the entry before writes its values */
			struct trax_enum_desc *ed = nf ? &enums[nf - 1] : NULL;
			unsigned int k = ed ? ed->nr_entries : 0;

			ok = k > 0 && strlen(v) == 3 && (v[0] == '0' || v[0] == '1') &&
			     v[1] == ':' && (v[2] == '0' || v[2] == '1');
			if (ok) {
				struct trax_enum_entry *m =
				    (struct trax_enum_entry *)&ed->entries[k - 1];

				ok = !(m->flags & TRAX_ENUM_AUTO);
				m->flags |= TRAX_ENUM_TYPED |
					    (v[0] == '1' ? TRAX_ENUM_START_SIGNED : 0) |
					    (v[2] == '1' ? TRAX_ENUM_END_SIGNED : 0);
			}
			if (ok) {
				strbuf_puts(&sig, *kv);
				strbuf_add(&sig, "\n", 1);
				ok = !sig.failed;
			}
		}
		/* other keys: from a newer library, ignored */
	}
	if (ok && !e->name)
		ok = false;
	for (unsigned int i = 0; ok && i < nf; i++)
		if (fields[i].kind == TRAX_FIELD_ENUM && enums[i].nr_entries == 0)
			ok = false;
	/* two fields of one name: no reader takes such a structure */
	for (unsigned int i = 0; ok && i < nf; i++)
		for (unsigned int k = i + 1; ok && k < nf; k++)
			if (!strcmp(fields[i].name, fields[k].name))
				ok = false;
	if (ok && sig.len) {
		e->signature = sig.buf;
		sig.buf = NULL;
	}
	strbuf_free(&sig);
	if (ok && nf) {
		e->fields = calloc(nf, sizeof(*e->fields));
		e->enums = calloc(nf, sizeof(*e->enums));
		ok = e->fields && e->enums;
	}
	if (ok) {
		struct strbuf text;

		strbuf_init(&text);
		for (unsigned int i = 0; i < nf; i++) {
			bool seq = fields[i].kind == TRAX_FIELD_SEQUENCE;
			const char *kind = kind_name(fields[i].kind);

			e->fields[i] = fields[i];
			e->enums[i] = enums[i];
			if (fields[i].kind == TRAX_FIELD_ENUM)
				e->fields[i].enum_desc = &e->enums[i];
			/*
			 * As lttng-ust lists them: a sequence's length is a field of its
			 * own; arrays and sequences are strings when they hold text, else
			 * of an unknown type.
			 */
			if (fields[i].kind == TRAX_FIELD_ARRAY || seq)
				kind = fields[i].elem.text ? "string" : "unknown";
			if (seq)
				strbuf_printf(&text, "%sinteger _%s_length, %s %s", i ? ", " : "",
					      fields[i].name, kind, fields[i].name);
			else
				strbuf_printf(&text, "%s%s %s", i ? ", " : "", kind,
					      fields[i].name);
		}
		if (text.failed)
			ok = false;
		else if (text.len)
			e->fields_text = text.buf, text.buf = NULL;
		strbuf_free(&text);
		e->desc.nr_fields = nf;
		nf = 0; /* owned by e now */
	}
	if (!ok) {
		for (unsigned int i = 0; i < nf; i++) {
			free((char *)fields[i].name);
			for (unsigned int k = 0; k < enums[i].nr_entries; k++)
				free((char *)enums[i].entries[k].label);
			free((void *)enums[i].entries);
			free((char *)enums[i].name);
		}
		app_event_free(e);
		return false;
	}
	if (!e->signature)
		e->signature = strdup("");
	e->desc.name = e->name;
	e->desc.fields = e->fields;
	e->desc.model_emf_uri = e->emf_uri;
	return e->signature != NULL;
}

const char *app_event_field_text(const struct app_event *e)
{
	return e->fields_text ? e->fields_text : "";
}
