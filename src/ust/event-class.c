/*
 * event-class.c - the CTF writer's description (writer/desc.h) of an event
 * a tracepoint provider describes with the probe ABI (trax/probe.h): what
 * the metadata of a trace recording it says, made once per event when its
 * provider registers.
 */
#include <stdlib.h>

#include "ust/ust.h"

static struct ctfw_integer writer_integer(const struct trax_integer_type *t)
{
	struct ctfw_integer w = ctfw_integer(t->size, t->is_signed, t->base);

	w.byte_order = t->network ? CTFW_BYTE_ORDER_BE : CTFW_BYTE_ORDER_NATIVE;
	w.encoding = t->text ? CTFW_ENCODING_UTF8 : CTFW_ENCODING_NONE;
	return w;
}

static unsigned int nr_mappings(const struct trax_field_desc *f)
{
	return f->kind == TRAX_FIELD_ENUM && f->enum_desc ? f->enum_desc->nr_entries : 0;
}

/* An enumeration's mappings as TRACEPOINT_ENUM wrote them (see TRAX_ENUM_*). */
static void writer_mappings(struct ctfw_enum_mapping *out, const struct trax_field_desc *f)
{
	const struct trax_enum_desc *e = f->enum_desc;
	uint64_t next = 0;

	for (unsigned int i = 0; i < nr_mappings(f); i++) {
		const struct trax_enum_entry *m = &e->entries[i];
		bool typed = m->flags & TRAX_ENUM_TYPED;

		trax_enum_entry_values(m, &next, &out[i].start, &out[i].end);
		out[i].label = m->label;
		out[i].implicit = m->flags & TRAX_ENUM_AUTO;
		out[i].start_signed = typed ? m->flags & TRAX_ENUM_START_SIGNED : f->elem.is_signed;
		out[i].end_signed = typed ? m->flags & TRAX_ENUM_END_SIGNED : f->elem.is_signed;
	}
}

/* The type of field f; elem: room for its elements' type. */
static void writer_type(struct ctfw_type *t, struct ctfw_type *elem,
			struct ctfw_enum_mapping *mappings, const struct trax_field_desc *f)
{
	elem->kind = CTFW_TYPE_INTEGER;
	elem->integer = writer_integer(&f->elem);
	switch (f->kind) {
	case TRAX_FIELD_INTEGER:
		*t = *elem;
		break;
	case TRAX_FIELD_FLOAT:
		t->kind = CTFW_TYPE_FLOAT;
		t->floating = ctfw_float_bits(f->float_bits);
		break;
	case TRAX_FIELD_STRING:
		t->kind = CTFW_TYPE_STRING;
		break;
	case TRAX_FIELD_ARRAY:
		t->kind = CTFW_TYPE_ARRAY;
		t->array.elem = elem;
		t->array.length = f->count;
		break;
	case TRAX_FIELD_SEQUENCE:
		t->kind = CTFW_TYPE_SEQUENCE;
		t->sequence.elem = elem;
		t->sequence.length = writer_integer(&f->length);
		break;
	case TRAX_FIELD_ENUM:
		t->kind = CTFW_TYPE_ENUM;
		t->enumeration.container = elem->integer;
		writer_mappings(mappings, f);
		t->enumeration.mappings = mappings;
		t->enumeration.nr_mappings = nr_mappings(f);
		break;
	}
}

_Static_assert(sizeof(struct ctfw_event_class) % _Alignof(struct ctfw_field) == 0 &&
		   sizeof(struct ctfw_field) % _Alignof(struct ctfw_type) == 0 &&
		   sizeof(struct ctfw_type) % _Alignof(struct ctfw_enum_mapping) == 0,
	       "trax_event_class_new's block");

struct ctfw_event_class *trax_event_class_new(const struct trax_event_desc *d, int loglevel)
{
	unsigned int i, nf = 0, nm = 0;
	struct ctfw_event_class *c;
	struct ctfw_field *fields;
	struct ctfw_type *elems;
	struct ctfw_enum_mapping *mappings;

	for (i = 0; i < d->nr_fields; i++) {
		if (d->fields[i].nowrite)
			continue;
		nf++;
		nm += nr_mappings(&d->fields[i]);
	}
	/* one block: each part keeps the next one aligned */
	c = calloc(1,
		   sizeof(*c) + nf * (sizeof(*fields) + sizeof(*elems)) + nm * sizeof(*mappings));
	if (!c)
		return NULL;
	fields = (struct ctfw_field *)(c + 1);
	elems = (struct ctfw_type *)(fields + nf);
	mappings = (struct ctfw_enum_mapping *)(elems + nf);
	c->name = d->name;
	c->loglevel = loglevel;
	c->model_emf_uri = d->model_emf_uri;
	c->fields = fields;
	c->nr_fields = nf;
	for (i = 0; i < d->nr_fields; i++) {
		const struct trax_field_desc *f = &d->fields[i];

		if (f->nowrite)
			continue;
		fields->name = f->name;
		writer_type(&fields->type, elems, mappings, f);
		mappings += nr_mappings(f);
		fields++;
		elems++;
	}
	return c;
}
