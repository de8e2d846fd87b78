/*
 * kfpush-field.c - an LTTng field of a converted event as the kernel's
 * record holds it: the conversion program kmap built (one op per field)
 * says which kernel field it comes from and how its value changes
 * (kmap-internal.h), the event's format says how the kernel's own filter
 * types that field.
 */
#include <string.h>

#include "kernel/kfpush-internal.h"

/* The kernel field at offset off of kind kind (and size, when not 0). */
static const struct tp_field *field_at(const struct tp_event *ev, uint32_t off,
				       enum tp_field_kind kind, uint32_t size)
{
	for (unsigned int i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->offset == off &&
		    (f->kind == kind ||
		     (kind == TP_FIELD_DATA_LOC && f->kind == TP_FIELD_REL_LOC)) &&
		    (!size || f->size == size))
			return f;
	}
	return NULL;
}

/*
 * The kernel filters "char *" fields as strings it reads through the
 * pointer (its FILTER_PTR_STRING): a number cannot be compared to them.
 */
static bool kernel_string_pointer(const struct tp_field *f)
{
	return !strcmp(f->type, "char *") || !strcmp(f->type, "const char *");
}

/* task_struct's comm: always NUL-terminated within its 16 bytes */
static bool is_comm(const struct tp_field *f)
{
	size_t n = strlen(f->name);

	return f->size <= 16 && n >= 4 && !strcmp(f->name + n - 4, "comm");
}

static const struct ctfw_integer *integer_of(const struct ctfw_type *t)
{
	if (t->kind == CTFW_TYPE_INTEGER)
		return &t->integer;
	if (t->kind == CTFW_TYPE_ENUM)
		return &t->enumeration.container;
	return NULL;
}

/* The value a filter reads from a bytes-long field holding v (truncated, extended). */
static int64_t as_read(uint64_t v, unsigned int bytes, bool is_signed)
{
	unsigned int bits = bytes * 8;

	if (bits >= 64)
		return (int64_t)v;
	v &= (1ull << bits) - 1;
	if (is_signed && (v >> (bits - 1)) & 1)
		v |= ~0ull << bits;
	return (int64_t)v;
}

static void from_op(const struct kmap_event *m, const struct kmap_op *op, const struct ctfw_type *t,
		    struct kfp_field *out)
{
	const struct ctfw_integer *ci = integer_of(t);
	const struct tp_field *f;

	switch (op->code) {
	case KOP_INT:
	case KOP_BIT:
		f = field_at(m->ev, op->src, TP_FIELD_SCALAR, op->ssize);
		if (!f || !ci || kernel_string_pointer(f) || ci->size % 8 || ci->size > 64)
			return;
		out->name = f->name;
		out->ssize = f->size;
		out->ssigned = f->is_signed;
		out->dsize = ci->size / 8;
		out->dsigned = ci->is_signed;
		if (op->code == KOP_BIT) {
			out->bit = op->n;
			out->kind = KFP_FIELD_BIT;
		} else {
			out->k = op->k;
			out->kind = KFP_FIELD_INT;
		}
		return;
	case KOP_CONST:
		if (ci && ci->size % 8 == 0 && ci->size <= 64) {
			out->value = as_read((uint64_t)op->k, ci->size / 8, ci->is_signed);
			out->kind = KFP_FIELD_CONST;
		} else if (t->kind == CTFW_TYPE_SEQUENCE && t->sequence.elem &&
			   t->sequence.elem->kind == CTFW_TYPE_INTEGER &&
			   t->sequence.elem->integer.encoding == CTFW_ENCODING_UTF8) {
			out->kind = KFP_FIELD_EMPTY; /* a text sequence without source: length 0 */
		}
		return;
	case KOP_TEXT_ARR:
	case KOP_STR_ARR:
		if (!op->slen) { /* no source: zeros, or "" */
			out->kind = KFP_FIELD_EMPTY;
			return;
		}
		/* a text array shorter than the kernel's cuts its strings: not the same text */
		if (op->code == KOP_TEXT_ARR && op->n < op->slen)
			return;
		f = field_at(m->ev, op->src, TP_FIELD_ARRAY, op->slen);
		if (!f || !f->is_char || !f->array_len)
			return;
		out->name = f->name;
		out->size = f->size;
		out->nul_terminated = is_comm(f);
		out->kind = KFP_FIELD_STR;
		return;
	case KOP_STR_DYN:
		f = field_at(m->ev, op->src, TP_FIELD_DATA_LOC, 4);
		if (!f || !f->is_char)
			return;
		out->name = f->name;
		out->size = 0;
		out->nul_terminated = true; /* the kernel's __string() ends with its NUL */
		out->kind = KFP_FIELD_STR;
		return;
	default:
		return; /* made from more than the record's bytes, or cut: not the kernel's value */
	}
}

void kfp_field_find(const struct kmap_event *m, const char *name, bool ctx, struct kfp_field *out)
{
	const struct ctfw_event_class *cls = &m->cls.cls;

	memset(out, 0, sizeof(*out));
	if (ctx) {
		/*
		 * $ctx.tid: the thread the record was made in, which tracefs
		 * records as common_pid (and kfilter would read from the record).
		 */
		const struct tp_field *f =
		    m->ev->common_pid >= 0 ? &m->ev->fields[m->ev->common_pid] : NULL;

		if (!strcmp(name, "procname")) {
			/*
			 * The kernel's COMM: the current task's name when the
			 * event is recorded (a name no event's field has; the
			 * kernel looks at the event's fields first), compared
			 * as a char[16] that always holds its NUL.
			 */
			out->kind = KFP_FIELD_STR;
			out->name = "COMM";
			out->size = 16;
			out->nul_terminated = true;
			return;
		}
		if (!strcmp(name, "cpu_id")) {
			/* the kernel's common_cpu: the CPU the event is recorded on, an int */
			out->kind = KFP_FIELD_INT;
			out->name = "common_cpu";
			out->ssize = out->dsize = 4;
			out->ssigned = out->dsigned = true;
			return;
		}
		if (strcmp(name, "tid") || !f || f->kind != TP_FIELD_SCALAR || f->size != 4)
			return;
		out->kind = KFP_FIELD_INT;
		out->name = f->name;
		out->ssize = out->dsize = 4;
		out->ssigned = f->is_signed;
		out->dsigned = true;
		return;
	}
	for (unsigned int i = 0; i < cls->nr_fields; i++)
		if (!strcmp(cls->fields[i].name, name)) {
			from_op(m, &m->ops[i], &cls->fields[i].type, out);
			return;
		}
}
