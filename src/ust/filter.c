/*
 * filter.c - event filters in libtrax-ust: an event's fields as the filter
 * module sees them, the linked programs of one binding, and the test the
 * probes make through trax_event_filter() (registry.c) before reserving.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "common/log.h"
#include "ust/ust.h"

/* The probes fill trax_filter_arg; the filter module reads filter_arg: one layout. */
_Static_assert(sizeof(struct trax_filter_arg) == sizeof(struct filter_arg), "filter argument");
_Static_assert(offsetof(struct trax_filter_arg, seq.count) ==
		   offsetof(struct filter_arg, seq.count),
	       "filter argument");

static uint8_t elem_format(const struct trax_integer_type *t)
{
	return (uint8_t)((t->size / 8) | (t->is_signed ? FILTER_ELEM_SIGNED : 0) |
			 (t->network ? FILTER_ELEM_BE : 0));
}

/* The event's fields as filters read them (every field, _nowrite ones too). */
static void event_layout(const struct trax_event_desc *d, struct filter_field *f)
{
	for (unsigned int i = 0; i < d->nr_fields; i++) {
		const struct trax_field_desc *fd = &d->fields[i];

		f[i].name = fd->name;
		f[i].elem = 0;
		switch (fd->kind) {
		case TRAX_FIELD_FLOAT:
			f[i].type = FILTER_FIELD_FLOAT;
			break;
		case TRAX_FIELD_STRING:
			f[i].type = FILTER_FIELD_STRING;
			break;
		case TRAX_FIELD_ARRAY:
		case TRAX_FIELD_SEQUENCE:
			f[i].type = fd->elem.text ? FILTER_FIELD_TEXT : FILTER_FIELD_ARRAY;
			f[i].elem = elem_format(&fd->elem);
			break;
		default: /* integers and enumerations */
			f[i].type = FILTER_FIELD_INT;
			break;
		}
	}
}

int trax_filters_link(const struct trax_event_desc *d, const struct trax_bytecode *bc,
		      unsigned int n, struct trax_filters **out)
{
	struct filter_field *fields = calloc(d->nr_fields + 1, sizeof(*fields));
	struct trax_filters *f = calloc(1, sizeof(*f) + n * sizeof(f->progs[0]));
	struct filter_layout layout;

	if (!fields || !f) {
		free(fields);
		free(f);
		return -ENOMEM;
	}
	event_layout(d, fields);
	layout.fields = fields;
	layout.nr_fields = d->nr_fields;
	layout.ctx = trax_context_filter_fields(&layout.nr_ctx);
	for (unsigned int i = 0; i < n; i++) {
		struct filter_error err;
		struct filter_program *p = filter_link(bc[i].code, bc[i].len, &layout, &err);

		if (p)
			f->progs[f->n++] = p;
		else
			trax_debug("filter '%s' of %s: %s: never true for this event",
				   filter_source(bc[i].code, bc[i].len) ?: "?", d->name, err.msg);
	}
	/* the programs keep the field names (the event's), not the array */
	free(fields);
	*out = f;
	return 0;
}

void trax_filters_free(struct trax_filters *f)
{
	if (!f)
		return;
	for (unsigned int i = 0; i < f->n; i++)
		filter_free(f->progs[i]);
	free(f);
}
