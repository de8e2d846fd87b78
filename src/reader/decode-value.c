/*
 * decode-value.c - lookups in decoded value trees.
 */
#include <string.h>

#include "reader/ctf-value.h"

const struct ctf_value *ctf_value_field(const struct ctf_value *v, const char *name)
{
	const struct ctf_struct_type *st;
	unsigned int i;

	if (!v || v->type->kind != CTF_TYPE_STRUCT)
		return NULL;
	st = &v->type->u.structure;
	for (i = 0; i < st->field_count && i < v->u.list.count; i++)
		if (!strcmp(st->fields[i].name, name))
			return &v->u.list.items[i];
	return NULL;
}
