/*
 * kfilter.c - LTTng filters on kernel records (see kfilter.h): a class's
 * top-level fields as the filter's layout, and per record their values
 * read from the payload, every length checked against it.
 */
#include "kernel/kfilter.h"

#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"
#include "kernel/kthreads.h"

struct kfilter {
	struct filter_program *prog;
	const struct ctfw_event_class *cls;
	unsigned int nr_fields; /* of the layout: the class's first ones */
};

static bool is_text_elem(const struct ctfw_type *t)
{
	return t->kind == CTFW_TYPE_INTEGER && t->integer.size == 8 &&
	       t->integer.encoding == CTFW_ENCODING_UTF8;
}

static uint8_t elem_code(const struct ctfw_integer *i)
{
	return (uint8_t)((i->size / 8) | (i->is_signed ? FILTER_ELEM_SIGNED : 0) |
			 (i->byte_order == CTFW_BYTE_ORDER_BE ? FILTER_ELEM_BE : 0));
}

/* How the filter sees a field; false when it cannot (structures...). */
static bool field_layout(const struct ctfw_field *f, struct filter_field *out)
{
	const struct ctfw_type *t = &f->type, *e;

	out->name = f->name;
	out->elem = 0;
	switch (t->kind) {
	case CTFW_TYPE_INTEGER:
	case CTFW_TYPE_ENUM:
		out->type = FILTER_FIELD_INT;
		return true;
	case CTFW_TYPE_FLOAT:
		out->type = FILTER_FIELD_FLOAT;
		return true;
	case CTFW_TYPE_STRING:
		out->type = FILTER_FIELD_STRING;
		return true;
	case CTFW_TYPE_ARRAY:
	case CTFW_TYPE_SEQUENCE:
		e = t->kind == CTFW_TYPE_ARRAY ? t->array.elem : t->sequence.elem;
		if (e->kind != CTFW_TYPE_INTEGER || e->integer.size % 8 || e->integer.size > 64)
			return false;
		out->type = is_text_elem(e) ? FILTER_FIELD_TEXT : FILTER_FIELD_ARRAY;
		out->elem = elem_code(&e->integer);
		return true;
	default:
		return false;
	}
}

/* ---- contexts ($ctx.NAME) ---- */

static const struct kthread_info *env_thread(struct kfilter_env *e)
{
	if (!e->ti && e->threads)
		e->ti = kthreads_get(e->threads, e->tid, e->ts);
	return e->ti;
}

static void ctx_int(struct filter_arg *out, int64_t v)
{
	out->u = (uint64_t)v;
}

static void get_tid(struct filter_arg *out, void *priv)
{
	ctx_int(out, ((struct kfilter_env *)priv)->tid);
}

static void get_cpu(struct filter_arg *out, void *priv)
{
	ctx_int(out, ((struct kfilter_env *)priv)->cpu);
}

/* One getter per struct kthread_info member; -1 when the thread is unknown. */
#define KFILTER_THREAD_GETTER(NAME, MEMBER)                                                        \
	static void get_##NAME(struct filter_arg *out, void *priv)                                 \
	{                                                                                          \
		const struct kthread_info *ti = env_thread(priv);                                  \
		ctx_int(out, ti ? ti->MEMBER : -1);                                                \
	}

static void get_pid(struct filter_arg *out, void *priv)
{
	struct kfilter_env *e = priv;
	const struct kthread_info *ti = e->pid > 0 ? NULL : env_thread(e);

	ctx_int(out, e->pid > 0 ? e->pid : ti ? ti->pid : -1);
}
KFILTER_THREAD_GETTER(ppid, ppid)
KFILTER_THREAD_GETTER(vpid, vpid)
KFILTER_THREAD_GETTER(vtid, vtid)
KFILTER_THREAD_GETTER(prio, prio)
KFILTER_THREAD_GETTER(nice, nice)

static void get_procname(struct filter_arg *out, void *priv)
{
	const struct kthread_info *ti;

	if (((struct kfilter_env *)priv)->comm) {
		out->str = ((struct kfilter_env *)priv)->comm;
		return;
	}
	ti = env_thread(priv);

	/* comm is NUL-padded to 16 bytes, its last one always NUL */
	out->str = ti ? ti->comm : "";
}

static void get_hostname(struct filter_arg *out, void *priv)
{
	const char *h = ((struct kfilter_env *)priv)->hostname;

	out->str = h ? h : "";
}

/* The contexts a kernel channel can record (ktrace.h's kctx), by LTTng's names. */
static const struct filter_ctx_field kfilter_contexts[] = {
    {"tid", FILTER_FIELD_INT, 0, get_tid},
    {"pid", FILTER_FIELD_INT, 0, get_pid},
    {"ppid", FILTER_FIELD_INT, 0, get_ppid},
    {"vpid", FILTER_FIELD_INT, 0, get_vpid},
    {"vtid", FILTER_FIELD_INT, 0, get_vtid},
    {"prio", FILTER_FIELD_INT, 0, get_prio},
    {"nice", FILTER_FIELD_INT, 0, get_nice},
    {"cpu_id", FILTER_FIELD_INT, 0, get_cpu},
    {"procname", FILTER_FIELD_STRING, 0, get_procname},
    {"hostname", FILTER_FIELD_STRING, 0, get_hostname},
};

struct kfilter *kfilter_new(const uint8_t *code, size_t len, const struct ctfw_event_class *cls)
{
	struct filter_field fields[KFILTER_MAX_FIELDS];
	struct filter_layout layout = {0};
	struct filter_error err;
	struct kfilter *f;
	unsigned int n = 0;

	/* the fields up to the first one the filter cannot read: their offsets are known */
	while (n < cls->nr_fields && n < KFILTER_MAX_FIELDS &&
	       field_layout(&cls->fields[n], &fields[n]))
		n++;
	layout.fields = fields;
	layout.nr_fields = n;
	layout.ctx = kfilter_contexts;
	layout.nr_ctx = sizeof(kfilter_contexts) / sizeof(kfilter_contexts[0]);
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->prog = filter_link(code, len, &layout, &err);
	if (!f->prog) {
		free(f);
		return NULL;
	}
	f->cls = cls;
	f->nr_fields = n;
	return f;
}

void kfilter_free(struct kfilter *f)
{
	if (!f)
		return;
	filter_free(f->prog);
	free(f);
}

static uint64_t read_int(const uint8_t *p, const struct ctfw_integer *i)
{
	unsigned int bytes = i->size / 8;
	uint64_t v = 0;

	if (i->byte_order == CTFW_BYTE_ORDER_BE) {
		for (unsigned int k = 0; k < bytes; k++)
			v = (v << 8) | p[k];
	} else {
		memcpy(&v, p, bytes); /* little-endian machines: the trace's order */
	}
	if (i->is_signed && bytes < 8 && (v >> (bytes * 8 - 1)) & 1)
		v |= ~0ull << (bytes * 8);
	return v;
}

int kfilter_run(const struct kfilter *f, const uint8_t *payload, size_t len,
		struct kfilter_env *env)
{
	struct kfilter_env none = {.tid = -1, .cpu = -1};

	struct filter_arg args[KFILTER_MAX_FIELDS];
	const uint8_t *p = payload, *end = payload + len;

	for (unsigned int i = 0; i < f->nr_fields; i++) {
		const struct ctfw_type *t = &f->cls->fields[i].type, *e;
		const struct ctfw_integer *in;
		uint64_t count;
		size_t esz;

		switch (t->kind) {
		case CTFW_TYPE_INTEGER:
		case CTFW_TYPE_ENUM:
			in = t->kind == CTFW_TYPE_INTEGER ? &t->integer : &t->enumeration.container;
			if (in->size % 8 || (size_t)(end - p) < in->size / 8u)
				return 0;
			args[i].u = read_int(p, in);
			p += in->size / 8;
			break;
		case CTFW_TYPE_FLOAT:
			if (t->floating.exp_dig == 8) {
				float x;

				if ((size_t)(end - p) < 4)
					return 0;
				memcpy(&x, p, 4);
				args[i].d = x;
				p += 4;
			} else {
				if ((size_t)(end - p) < 8)
					return 0;
				memcpy(&args[i].d, p, 8);
				p += 8;
			}
			break;
		case CTFW_TYPE_STRING: {
			const uint8_t *nul = memchr(p, 0, (size_t)(end - p));

			if (!nul)
				return 0;
			args[i].str = (const char *)p;
			p = nul + 1;
			break;
		}
		case CTFW_TYPE_ARRAY:
		case CTFW_TYPE_SEQUENCE:
			if (t->kind == CTFW_TYPE_ARRAY) {
				e = t->array.elem;
				count = t->array.length;
			} else {
				in = &t->sequence.length;
				if ((size_t)(end - p) < in->size / 8u)
					return 0;
				count = read_int(p, in);
				p += in->size / 8;
				e = t->sequence.elem;
			}
			esz = e->integer.size / 8;
			if (count > (size_t)(end - p) / esz)
				return 0;
			args[i].seq.ptr = p;
			args[i].seq.count = (size_t)count;
			p += count * esz;
			break;
		default:
			return 0;
		}
	}
	return filter_run(f->prog, args, env ? env : &none);
}

bool kfilter_set_pass(const struct kfilter_set *s, const uint8_t *payload, size_t len,
		      struct kfilter_env *env)
{
	if (s->unfiltered)
		return true;
	for (unsigned int i = 0; i < s->n; i++)
		if (s->programs[i] && kfilter_run(s->programs[i], payload, len, env))
			return true;
	return false;
}
