/*
 * text-plan.c - the part of an event line after its time stamp and delta
 * (see text-plan.h): the header items, the event name and the scopes.
 *
 * Most of it is the same for every event of a class: the header items, the
 * scope and field names, the separators. The first event of each event
 * class (with its trace and scope types) compiles a line plan: that
 * constant text cut into literals, with one operation between two literals
 * per value to format. Later events copy the literals and format only the
 * values: integers, enumerations and strings that are members of a scope's
 * root struct straight into the output buffer, everything else with the
 * general value printer (put_value).
 */
#include "reader/text-plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/text-write.h"

static inline void puts_(struct ctf_text_buf *b, const char *s)
{
	ctf_text_put(b, s, strlen(s));
}

#define PUTL(b, lit) ctf_text_put((b), (lit), sizeof(lit) - 1)

static void out_of_memory(void)
{
	fprintf(stderr, "trax: out of memory\n");
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		out_of_memory();
	return p;
}

/* ---- values, the general way ---- */

/* Strings longer than this are escaped in pieces (bounding the room asked for). */
#define ESCAPE_PIECE 4096

static void put_escaped(struct ctf_text_buf *b, const char *s, uint64_t len)
{
	const char *nul;

	if (len <= ESCAPE_PIECE) {
		ctf_text_buf_reserve(b, CTF_TEXT_ESCAPED_MAX(len));
		b->len = (size_t)(ctf_text_write_escaped(b->data + b->len, s, len) - b->data);
		return;
	}
	nul = memchr(s, 0, len);
	if (nul)
		len = (uint64_t)(nul - s);
	ctf_text_putc(b, '"');
	for (uint64_t off = 0; off < len; off += ESCAPE_PIECE) {
		uint64_t n = len - off < ESCAPE_PIECE ? len - off : ESCAPE_PIECE;

		ctf_text_buf_reserve(b, 4 * n);
		b->len =
		    (size_t)(ctf_text_write_escaped_bytes(b->data + b->len, s + off, n) - b->data);
	}
	ctf_text_putc(b, '"');
}

static void put_integer(struct ctf_text_buf *b, const struct ctf_integer_type *it, uint64_t v)
{
	ctf_text_buf_reserve(b, CTF_TEXT_INTEGER_MAX);
	b->len = (size_t)(ctf_text_write_integer(b->data + b->len, it, v) - b->data);
}

static void put_enum(struct ctf_text_buf *b, const struct ctf_enum_type *et, uint64_t v)
{
	unsigned int printed = 0;
	const char *label;

	PUTL(b, "( ");
	for (unsigned int i = 0; (label = ctf_enum_label_next(et, v, &i));) {
		if (printed++)
			PUTL(b, ", ");
		put_escaped(b, label, strlen(label));
	}
	if (!printed)
		PUTL(b, "<unknown>");
	PUTL(b, " : container = ");
	put_integer(b, &et->container, v);
	PUTL(b, " )");
}

static void put_value(struct ctf_text_buf *b, const struct ctf_value *v, bool names);

/* An array or sequence printed as one string (its value is u.str). */
static bool is_text(const struct ctf_type *t)
{
	return (t->kind == CTF_TYPE_ARRAY && ctf_type_is_text_element(t->u.array.element)) ||
	       (t->kind == CTF_TYPE_SEQUENCE && ctf_type_is_text_element(t->u.sequence.element));
}

/*
 * Whether values of type t are left out of the text, as Babeltrace 2 leaves
 * them out of its trace IR: integers and enums mapped to a clock (their
 * values only move the clock), structs whose members all are (not empty
 * ones), arrays and sequences of such elements. One that a sequence's
 * length or a variant's tag names is kept (length_or_tag), as Babeltrace
 * keeps it: docs/text-format.md.
 */
static bool is_clock_only(const struct ctf_type *t)
{
	switch (t->kind) {
	case CTF_TYPE_INTEGER:
		return t->u.integer.clock != NULL;
	case CTF_TYPE_ENUM:
		return t->u.enumeration.container.clock != NULL;
	case CTF_TYPE_STRUCT:
		for (unsigned int i = 0; i < t->u.structure.field_count; i++)
			if (t->u.structure.fields[i].length_or_tag ||
			    !is_clock_only(t->u.structure.fields[i].type))
				return false;
		return t->u.structure.field_count > 0;
	case CTF_TYPE_ARRAY:
		return is_clock_only(t->u.array.element);
	case CTF_TYPE_SEQUENCE:
		return is_clock_only(t->u.sequence.element);
	default:
		return false;
	}
}

/* A struct member the text leaves out. */
static bool is_hidden_member(const struct ctf_field *f, bool packet_context)
{
	return (packet_context && ctf_field_is_packet_bookkeeping(f)) ||
	       (!f->length_or_tag && is_clock_only(f->type));
}

/*
 * Does a scope print anything? Not a packet context whose members are all
 * consumed, nor a scope of clock values only.
 */
static bool scope_printable(bool packet_context, const struct ctf_type *t)
{
	const struct ctf_struct_type *st = &t->u.structure;

	if (!packet_context)
		return !is_clock_only(t);
	for (unsigned int i = 0; i < st->field_count; i++)
		if (!is_hidden_member(&st->fields[i], true))
			return true;
	return false;
}

static void put_struct(struct ctf_text_buf *b, const struct ctf_value *v, bool names,
		       bool packet_context)
{
	const struct ctf_struct_type *st = &v->type->u.structure;
	unsigned int printed = 0;

	ctf_text_putc(b, '{');
	for (uint64_t i = 0; i < v->u.list.count; i++) {
		const struct ctf_field *f = &st->fields[i];

		if (is_hidden_member(f, packet_context))
			continue;
		if (printed++)
			PUTL(b, ", ");
		else
			ctf_text_putc(b, ' ');
		if (names) {
			puts_(b, f->display_name);
			PUTL(b, " = ");
		}
		put_value(b, &v->u.list.items[i], names);
	}
	PUTL(b, " }");
}

static void put_float(struct ctf_text_buf *b, double d)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%g", d);

	ctf_text_put(b, buf, (size_t)n);
}

static void put_value(struct ctf_text_buf *b, const struct ctf_value *v, bool names)
{
	const struct ctf_type *t = v->type;

	switch (t->kind) {
	case CTF_TYPE_INTEGER:
		put_integer(b, &t->u.integer, v->u.u);
		break;
	case CTF_TYPE_FLOAT:
		put_float(b, v->u.d);
		break;
	case CTF_TYPE_ENUM:
		put_enum(b, &t->u.enumeration, v->u.u);
		break;
	case CTF_TYPE_STRING:
		put_escaped(b, v->u.str.ptr, v->u.str.len);
		break;
	case CTF_TYPE_STRUCT:
		put_struct(b, v, names, false);
		break;
	case CTF_TYPE_VARIANT:
		PUTL(b, "{ ");
		put_value(b, v->u.variant.value, names);
		PUTL(b, " }");
		break;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE: {
		const struct ctf_type *el =
		    t->kind == CTF_TYPE_ARRAY ? t->u.array.element : t->u.sequence.element;

		if (ctf_type_is_text_element(el)) {
			put_escaped(b, v->u.str.ptr, v->u.str.len);
			break;
		}
		ctf_text_putc(b, '[');
		for (uint64_t i = 0; i < v->u.list.count; i++) {
			if (i)
				PUTL(b, ", ");
			else
				ctf_text_putc(b, ' ');
			if (names) {
				ctf_text_putc(b, '[');
				ctf_text_put_u64(b, i);
				PUTL(b, "] = ");
			}
			put_value(b, &v->u.list.items[i], names);
		}
		PUTL(b, " ]");
		break;
	}
	}
}

/* ---- line plans ---- */

/* The scopes after the event name, in print order. */
enum { SCOPE_PACKET_CONTEXT, SCOPE_STREAM_CONTEXT, SCOPE_EVENT_CONTEXT, SCOPE_PAYLOAD, SCOPES };

static const char *const scope_names[SCOPES] = {
    "stream.packet.context = ",
    "stream.event.context = ",
    "event.context = ",
    "event.fields = ",
};

enum plan_op_kind {
	OP_U10,	   /* unsigned base-10 integer */
	OP_S10,	   /* signed base-10 integer */
	OP_INT,	   /* integer in another base */
	OP_ENUM,   /* enumeration of at most 64 labels */
	OP_STRING, /* string, or text array or sequence */
	OP_VALUE,  /* anything else: put_value() */
	OP_ROOT,   /* a scope whose root is not a struct: put_value() */
	OP_END,	   /* nothing: its literal ends the line */
};

/*
 * An enumeration's labels (at most 64), each once, quoted and escaped, in
 * print order: the order of their first declaration.
 */
struct enum_plan {
	const struct ctf_enum_type *et;
	uint8_t *label_of_mapping; /* per mapping: its label's rank */
	uint32_t *label_off, *label_len;
	char *text;   /* the labels, with CTF_TEXT_COPY_SLACK bytes after them */
	size_t bound; /* the most bytes write_enum() writes */
};

#define ENUM_PLAN_LABELS 64

/* As put_enum() prints it. */
static char *write_enum(char *d, const struct enum_plan *ep, uint64_t v)
{
	const struct ctf_enum_type *et = ep->et;
	uint64_t matched = 0; /* bit r: label of rank r matches */

	d = CTF_TEXT_WRITEL(d, "( ");
	for (unsigned int j = 0; j < et->mapping_count; j++) {
		const struct ctf_enum_mapping *m = &et->mappings[j];

		if (et->container.is_signed
			? (int64_t)v >= (int64_t)m->start && (int64_t)v <= (int64_t)m->end
			: v >= m->start && v <= m->end)
			matched |= (uint64_t)1 << ep->label_of_mapping[j];
	}
	if (!matched)
		d = CTF_TEXT_WRITEL(d, "<unknown>");
	for (bool first = true; matched; matched &= matched - 1, first = false) {
		unsigned int r = (unsigned int)__builtin_ctzll(matched);

		if (!first)
			d = CTF_TEXT_WRITEL(d, ", ");
		d = ctf_text_copy_literal(d, ep->text + ep->label_off[r], ep->label_len[r]);
	}
	d = CTF_TEXT_WRITEL(d, " : container = ");
	d = ctf_text_write_integer(d, &et->container, v);
	return CTF_TEXT_WRITEL(d, " )");
}

static void enum_plan_free(struct enum_plan *ep)
{
	if (!ep)
		return;
	free(ep->label_of_mapping);
	free(ep->label_off);
	free(ep->label_len);
	free(ep->text);
	free(ep);
}

/* NULL when the enumeration has too many labels (printed by put_enum()). */
static struct enum_plan *compile_enum(const struct ctf_enum_type *et)
{
	struct enum_plan *ep;
	size_t text_len = 0, nlabels = 0;
	const unsigned int n = et->mapping_count;

	ep = xcalloc(1, sizeof(*ep));
	ep->et = et;
	ep->label_of_mapping = xcalloc(n, sizeof(*ep->label_of_mapping));
	ep->label_off = xcalloc(n, sizeof(*ep->label_off));
	ep->label_len = xcalloc(n, sizeof(*ep->label_len));
	for (unsigned int j = 0; j < n; j++) {
		const char *label = et->mappings[j].label;
		unsigned int i;

		for (i = 0; i < j; i++)
			if (!strcmp(et->mappings[i].label, label))
				break;
		if (i < j) {
			ep->label_of_mapping[j] = ep->label_of_mapping[i];
			continue;
		}
		if (nlabels == ENUM_PLAN_LABELS) {
			enum_plan_free(ep);
			return NULL;
		}
		ep->label_of_mapping[j] = (uint8_t)nlabels++;
		text_len += CTF_TEXT_ESCAPED_MAX(strlen(label));
	}
	ep->text = xcalloc(text_len + CTF_TEXT_COPY_SLACK, 1);
	text_len = 0;
	for (unsigned int j = 0; j < n; j++) {
		const char *label = et->mappings[j].label;
		unsigned int r = ep->label_of_mapping[j];

		if (ep->label_len[r])
			continue; /* a later mapping of a label */
		ep->label_off[r] = (uint32_t)text_len;
		ep->label_len[r] =
		    (uint32_t)(ctf_text_write_escaped(ep->text + text_len, label, strlen(label)) -
			       (ep->text + text_len));
		text_len += ep->label_len[r];
	}
	/* "( ", the labels and ", " between them or "<unknown>", " : container = ", " )" */
	ep->bound = 2 + text_len + 2 * nlabels + 9 + 15 + CTF_TEXT_INTEGER_MAX + 2;
	return ep;
}

/* One value of a line, after the literal that precedes it. */
struct plan_op {
	uint8_t kind;	/* enum plan_op_kind */
	uint8_t scope;	/* SCOPE_... */
	bool names;	/* field names on (for put_value()) */
	uint32_t index; /* member of the scope's root struct */
	uint32_t lit_off, lit_len;
	/*
	 * The most bytes written after this op's value up to the next op that
	 * makes its own room (op_reserves()), that op's literal included.
	 */
	size_t rest_bound;
	const struct ctf_integer_type *it; /* OP_INT */
	struct enum_plan *ep;		   /* OP_ENUM, owned */
};

struct ctf_text_plan {
	/* What it is for: the line of an event of ec in trace, with these scope types. */
	const struct ctf_event_class *ec;
	const struct ctf_text_trace *trace;
	bool has_clock;
	const struct ctf_type *scope_type[SCOPES]; /* NULL: no such scope */
	/*
	 * The member count of each scope's root struct whose members the ops
	 * index (bit k of indexed_scopes set). A value with another count is
	 * printed the general way.
	 */
	unsigned int indexed_scopes;
	uint32_t root_count[SCOPES];
	size_t head_len;    /* text[0, head_len): the header items and the event name */
	size_t first_bound; /* the most bytes written from text[0] to the first self-reserving op */
	uint32_t nops;
	struct plan_op *ops; /* the last is OP_END */
	char *text;	     /* the literals, with CTF_TEXT_COPY_SLACK bytes after them */
};

/* The plans of a printer: an open-addressing hash table. */
struct ctf_text_plan_cache {
	const struct ctf_text_plan *last; /* the previous line's */
	struct ctf_text_plan **slots;
	size_t nslots; /* a power of 2 */
	size_t count;
	/*
	 * In live_caches, so that the plans of a printer never finished
	 * (ctf_text_printer_fini()) stay reachable for leak checkers.
	 */
	struct ctf_text_plan_cache *next, **pprev;
};

static _Thread_local struct ctf_text_plan_cache *live_caches;

/* A growing text while a plan is compiled. */
struct text_builder {
	char *data;
	size_t len, cap;
};

static void tb_put(struct text_builder *s, const char *p, size_t n)
{
	if (s->cap - s->len < n + CTF_TEXT_COPY_SLACK) {
		size_t cap = s->cap ? s->cap : 256;

		while (cap - s->len < n + CTF_TEXT_COPY_SLACK)
			cap *= 2;
		s->data = realloc(s->data, cap);
		if (!s->data)
			out_of_memory();
		s->cap = cap;
	}
	memcpy(s->data + s->len, p, n);
	s->len += n;
}

static void tb_puts(struct text_builder *s, const char *p)
{
	tb_put(s, p, strlen(p));
}

#define TB_PUTL(s, lit) tb_put((s), (lit), sizeof(lit) - 1)

static void tb_put_s64(struct text_builder *s, int64_t v)
{
	char buf[24];

	tb_put(s, buf, (size_t)(ctf_text_write_s64(buf, v) - buf));
}

static const char *const loglevel_names[] = {
    "TRACE_EMERG",	    "TRACE_ALERT",	   "TRACE_CRIT",	 "TRACE_ERR",
    "TRACE_WARNING",	    "TRACE_NOTICE",	   "TRACE_INFO",	 "TRACE_DEBUG_SYSTEM",
    "TRACE_DEBUG_PROGRAM",  "TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
    "TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE",	   "TRACE_DEBUG",
};

/*
 * The header after the time stamp and delta, up to the event name's ": "
 * (docs/text-format.md 2, 7.3). started: a time stamp was printed with
 * header names.
 */
static void compile_header(struct text_builder *s, const struct ctf_text_options *o,
			   const struct ctf_text_trace *t, const struct ctf_event_class *ec,
			   bool started)
{
	bool names = o->names_header;
	bool dom = false;

	if (o->field_trace) {
		if (started)
			TB_PUTL(s, ", ");
		if (names)
			TB_PUTL(s, "trace = ");
		tb_puts(s, t->name);
		if (names)
			TB_PUTL(s, ", ");
	}
#define DOM_SEP()                                                                                  \
	do {                                                                                       \
		if (started)                                                                       \
			TB_PUTL(s, ", ");                                                          \
		else if (dom && !names)                                                            \
			TB_PUTL(s, ":");                                                           \
	} while (0)
	if (o->field_hostname && t->hostname) {
		DOM_SEP();
		if (names)
			TB_PUTL(s, "trace:hostname = ");
		tb_puts(s, t->hostname);
		dom = true;
	}
	if (o->field_domain && t->domain) {
		DOM_SEP();
		if (names)
			TB_PUTL(s, "trace:domain = ");
		tb_puts(s, t->domain);
		dom = true;
	}
	if (o->field_procname && t->procname) {
		DOM_SEP();
		if (names)
			TB_PUTL(s, "trace:procname = ");
		tb_puts(s, t->procname);
		dom = true;
	}
	if (o->field_vpid && t->has_vpid) {
		DOM_SEP();
		if (names)
			TB_PUTL(s, "trace:vpid = ");
		TB_PUTL(s, "(");
		tb_put_s64(s, t->vpid);
		TB_PUTL(s, ")");
		dom = true;
	}
	if (o->field_loglevel && ec->has_loglevel && ec->loglevel >= 0 && ec->loglevel <= 14) {
		DOM_SEP();
		if (names)
			TB_PUTL(s, "loglevel = ");
		tb_puts(s, loglevel_names[ec->loglevel]);
		TB_PUTL(s, " (");
		tb_put_s64(s, ec->loglevel);
		TB_PUTL(s, ")");
		dom = true;
	}
	if (o->field_emf && ec->emf_uri) {
		DOM_SEP();
		if (names)
			TB_PUTL(s, "model.emf.uri = ");
		tb_puts(s, ec->emf_uri);
		dom = true;
	}
#undef DOM_SEP
	if (dom && !names)
		TB_PUTL(s, " ");
	if (started)
		TB_PUTL(s, ", ");
	if (names)
		TB_PUTL(s, "name = ");
	tb_puts(s, ec->name ? ec->name : "<unknown>");
	if (names)
		TB_PUTL(s, ", ");
	else
		TB_PUTL(s, ": ");
}

/* A plan being compiled. */
struct plan_builder {
	struct text_builder text;
	size_t lit_start; /* where the literal of the next op starts */
	struct plan_op *ops;
	uint32_t nops, cap;
};

/* Returns the op, for the caller to complete (until the next add_op()). */
static struct plan_op *add_op(struct plan_builder *pb, enum plan_op_kind kind, unsigned int scope,
			      uint32_t index, bool names)
{
	struct plan_op *op;

	if (pb->nops == pb->cap) {
		pb->cap = pb->cap ? 2 * pb->cap : 16;
		pb->ops = realloc(pb->ops, pb->cap * sizeof(*pb->ops));
		if (!pb->ops)
			out_of_memory();
	}
	op = &pb->ops[pb->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	op->scope = (uint8_t)scope;
	op->index = index;
	op->names = names;
	op->lit_off = (uint32_t)pb->lit_start;
	op->lit_len = (uint32_t)(pb->text.len - pb->lit_start);
	pb->lit_start = pb->text.len;
	return op;
}

/* A scope's root struct, member by member, as put_struct() prints it. */
static void compile_struct(struct plan_builder *pb, const struct ctf_type *t, unsigned int scope,
			   bool names)
{
	const struct ctf_struct_type *st = &t->u.structure;
	unsigned int printed = 0;
	struct enum_plan *ep;

	TB_PUTL(&pb->text, "{");
	for (unsigned int i = 0; i < st->field_count; i++) {
		const struct ctf_field *f = &st->fields[i];
		const struct ctf_type *ft = f->type;

		if (is_hidden_member(f, scope == SCOPE_PACKET_CONTEXT))
			continue;
		if (printed++)
			TB_PUTL(&pb->text, ", ");
		else
			TB_PUTL(&pb->text, " ");
		if (names) {
			tb_puts(&pb->text, f->display_name);
			TB_PUTL(&pb->text, " = ");
		}
		if (ft->kind == CTF_TYPE_INTEGER && ft->u.integer.base == 10)
			add_op(pb, ft->u.integer.is_signed ? OP_S10 : OP_U10, scope, i, names);
		else if (ft->kind == CTF_TYPE_INTEGER)
			add_op(pb, OP_INT, scope, i, names)->it = &ft->u.integer;
		else if (ft->kind == CTF_TYPE_STRING || is_text(ft))
			add_op(pb, OP_STRING, scope, i, names);
		else if (ft->kind == CTF_TYPE_ENUM && (ep = compile_enum(&ft->u.enumeration)))
			add_op(pb, OP_ENUM, scope, i, names)->ep = ep;
		else
			add_op(pb, OP_VALUE, scope, i, names);
	}
	TB_PUTL(&pb->text, " }");
}

/* Whether an op makes its own room, and else the most bytes its value takes. */
static bool op_reserves(const struct plan_op *op)
{
	return op->kind == OP_STRING || op->kind == OP_VALUE || op->kind == OP_ROOT;
}

static size_t op_value_bound(const struct plan_op *op)
{
	switch (op->kind) {
	case OP_U10:
	case OP_S10:
		return 24;
	case OP_INT:
		return CTF_TEXT_INTEGER_MAX;
	case OP_ENUM:
		return op->ep->bound;
	default:
		return 0;
	}
}

static struct ctf_text_plan *compile_plan(const struct ctf_text_options *o,
					  const struct ctf_text_trace *t,
					  const struct ctf_event *ev,
					  const struct ctf_value *const scopes[SCOPES])
{
	struct ctf_text_plan *pl = xcalloc(1, sizeof(*pl));
	struct plan_builder pb = {0};
	bool started = false;
	size_t rest;

	pl->ec = ev->cls;
	pl->trace = t;
	pl->has_clock = ev->has_clock;
	compile_header(&pb.text, o, t, ev->cls, o->names_header && ev->has_clock);
	pl->head_len = pb.text.len;
	for (unsigned int k = 0; k < SCOPES; k++) {
		const struct ctf_value *v = scopes[k];
		bool names = k == SCOPE_PAYLOAD ? o->names_payload : o->names_context;

		pl->scope_type[k] = v ? v->type : NULL;
		if (!v)
			continue;
		/* left out when nothing is printed of it */
		if (!scope_printable(k == SCOPE_PACKET_CONTEXT, v->type))
			continue;
		if (started)
			TB_PUTL(&pb.text, ", ");
		started = true;
		if (o->names_scope)
			tb_puts(&pb.text, scope_names[k]);
		if (v->type->kind == CTF_TYPE_STRUCT) {
			pl->indexed_scopes |= 1u << k;
			pl->root_count[k] = v->type->u.structure.field_count;
			compile_struct(&pb, v->type, k, names);
		} else {
			add_op(&pb, OP_ROOT, k, 0, names);
		}
	}
	TB_PUTL(&pb.text, "\n");
	add_op(&pb, OP_END, 0, 0, false);
	/* room: see plan_op.rest_bound */
	rest = 0;
	for (uint32_t i = pb.nops; i-- > 0;) {
		struct plan_op *op = &pb.ops[i];

		op->rest_bound = rest;
		rest = op->lit_len + (op_reserves(op) ? 0 : op_value_bound(op) + rest);
	}
	pl->first_bound = rest;
	/* the copies read up to CTF_TEXT_COPY_SLACK bytes past the last literal */
	tb_put(&pb.text, "", 0);
	memset(pb.text.data + pb.text.len, 0, CTF_TEXT_COPY_SLACK);
	pl->text = pb.text.data;
	pl->ops = pb.ops;
	pl->nops = pb.nops;
	return pl;
}

static void plan_free(struct ctf_text_plan *pl)
{
	for (uint32_t i = 0; i < pl->nops; i++)
		enum_plan_free(pl->ops[i].ep);
	free(pl->text);
	free(pl->ops);
	free(pl);
}

static inline const struct ctf_type *type_of(const struct ctf_value *v)
{
	return v ? v->type : NULL;
}

static inline bool plan_matches(const struct ctf_text_plan *pl, const struct ctf_text_trace *t,
				const struct ctf_event *ev,
				const struct ctf_value *const scopes[SCOPES])
{
	return pl->ec == ev->cls && pl->trace == t && pl->has_clock == ev->has_clock &&
	       pl->scope_type[0] == type_of(scopes[0]) && pl->scope_type[1] == type_of(scopes[1]) &&
	       pl->scope_type[2] == type_of(scopes[2]) && pl->scope_type[3] == type_of(scopes[3]);
}

static size_t plan_hash(const struct ctf_text_trace *t, const struct ctf_event_class *ec)
{
	uint64_t h = (uint64_t)(uintptr_t)ec * 0x9E3779B97F4A7C15ULL ^
		     (uint64_t)(uintptr_t)t * 0xC2B2AE3D27D4EB4FULL;

	return (size_t)(h ^ (h >> 32));
}

static void cache_insert(struct ctf_text_plan_cache *c, struct ctf_text_plan *pl)
{
	size_t i = plan_hash(pl->trace, pl->ec) & (c->nslots - 1);

	while (c->slots[i])
		i = (i + 1) & (c->nslots - 1);
	c->slots[i] = pl;
	c->count++;
}

static struct ctf_text_plan_cache *cache_new(void)
{
	struct ctf_text_plan_cache *c = xcalloc(1, sizeof(*c));

	c->nslots = 64;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
	c->next = live_caches;
	if (live_caches)
		live_caches->pprev = &c->next;
	c->pprev = &live_caches;
	live_caches = c;
	return c;
}

/* The plan of an event's line: the previous line's, found, or compiled now. */
static const struct ctf_text_plan *get_plan(struct ctf_text_plan_cache **cache,
					    const struct ctf_text_options *o,
					    const struct ctf_text_trace *t,
					    const struct ctf_event *ev,
					    const struct ctf_value *const scopes[SCOPES])
{
	struct ctf_text_plan_cache *c = *cache;
	struct ctf_text_plan *pl;
	size_t i;

	if (__builtin_expect(c && c->last && plan_matches(c->last, t, ev, scopes), 1))
		return c->last;
	if (!c)
		c = *cache = cache_new();
	for (i = plan_hash(t, ev->cls) & (c->nslots - 1); (pl = c->slots[i]);
	     i = (i + 1) & (c->nslots - 1))
		if (plan_matches(pl, t, ev, scopes))
			return c->last = pl;
	pl = compile_plan(o, t, ev, scopes);
	if (2 * (c->count + 1) > c->nslots) {
		struct ctf_text_plan **old = c->slots;
		size_t n = c->nslots;

		c->nslots *= 2;
		c->slots = xcalloc(c->nslots, sizeof(*c->slots));
		c->count = 0;
		for (size_t k = 0; k < n; k++)
			if (old[k])
				cache_insert(c, old[k]);
		free(old);
	}
	cache_insert(c, pl);
	return c->last = pl;
}

void ctf_text_plan_cache_free(struct ctf_text_plan_cache *c)
{
	if (!c)
		return;
	*c->pprev = c->next;
	if (c->next)
		c->next->pprev = c->pprev;
	for (size_t i = 0; i < c->nslots; i++)
		if (c->slots[i])
			plan_free(c->slots[i]);
	free(c->slots);
	free(c);
}

/* ---- lines ---- */

/* The scopes of a line whose values do not have the shape its plan expects. */
static void print_scopes_general(struct ctf_text_buf *b, const struct ctf_text_options *o,
				 const struct ctf_value *const scopes[SCOPES])
{
	bool started = false;

	for (unsigned int k = 0; k < SCOPES; k++) {
		const struct ctf_value *v = scopes[k];

		if (!v || !scope_printable(k == SCOPE_PACKET_CONTEXT, v->type))
			continue;
		if (started)
			PUTL(b, ", ");
		started = true;
		if (o->names_scope)
			puts_(b, scope_names[k]);
		if (k == SCOPE_PACKET_CONTEXT)
			put_struct(b, v, o->names_context, true);
		else
			put_value(b, v, k == SCOPE_PAYLOAD ? o->names_payload : o->names_context);
	}
	ctf_text_putc(b, '\n');
}

/* Whether the scopes have the number of members the plan was made for. */
static inline bool shape_matches(const struct ctf_text_plan *pl,
				 const struct ctf_value *const scopes[SCOPES])
{
	for (unsigned int m = pl->indexed_scopes; m; m &= m - 1) {
		unsigned int k = (unsigned int)__builtin_ctz(m);

		if (__builtin_expect(scopes[k]->u.list.count != pl->root_count[k], 0))
			return false;
	}
	return true;
}

/* The line without its plan: the header text, then the scopes the general way. */
static void print_unplanned(struct ctf_text_buf *b, const struct ctf_text_options *o,
			    const struct ctf_text_plan *pl,
			    const struct ctf_value *const scopes[SCOPES])
{
	char *d;

	ctf_text_buf_reserve(b, pl->head_len + CTF_TEXT_COPY_SLACK);
	d = ctf_text_copy_literal(b->data + b->len, pl->text, pl->head_len);
	b->len = (size_t)(d - b->data);
	print_scopes_general(b, o, scopes);
}

/* The line by its plan (the scopes have its shape). */
static void print_planned(struct ctf_text_buf *b, const struct ctf_text_plan *pl,
			  const struct ctf_value *const scopes[SCOPES])
{
	char *d = ctf_text_room(b, b->data + b->len, pl->first_bound + CTF_TEXT_COPY_SLACK);

	/* (only the ops with a member: a scope may be absent, NULL) */
#define MEMBER(op) (&scopes[(op)->scope]->u.list.items[(op)->index])
	for (const struct plan_op *op = pl->ops;; op++) {
		d = ctf_text_copy_literal(d, pl->text + op->lit_off, op->lit_len);
		switch (op->kind) {
		case OP_U10:
			d = ctf_text_write_u64(d, MEMBER(op)->u.u);
			break;
		case OP_S10:
			d = ctf_text_write_s64(d, MEMBER(op)->u.s);
			break;
		case OP_INT:
			d = ctf_text_write_integer(d, op->it, MEMBER(op)->u.u);
			break;
		case OP_ENUM:
			d = write_enum(d, op->ep, MEMBER(op)->u.u);
			break;
		case OP_STRING: {
			const struct ctf_value *v = MEMBER(op);

			if (v->u.str.len <= ESCAPE_PIECE) {
				d = ctf_text_room(b, d,
						  CTF_TEXT_ESCAPED_MAX(v->u.str.len) +
						      op->rest_bound + CTF_TEXT_COPY_SLACK);
				d = ctf_text_write_escaped(d, v->u.str.ptr, v->u.str.len);
				break;
			}
			b->len = (size_t)(d - b->data);
			put_value(b, v, op->names);
			d = ctf_text_room(b, b->data + b->len,
					  op->rest_bound + CTF_TEXT_COPY_SLACK);
			break;
		}
		case OP_VALUE:
			b->len = (size_t)(d - b->data);
			put_value(b, MEMBER(op), op->names);
			d = ctf_text_room(b, b->data + b->len,
					  op->rest_bound + CTF_TEXT_COPY_SLACK);
			break;
		case OP_ROOT:
			b->len = (size_t)(d - b->data);
			put_value(b, scopes[op->scope], op->names);
			d = ctf_text_room(b, b->data + b->len,
					  op->rest_bound + CTF_TEXT_COPY_SLACK);
			break;
		case OP_END:
			b->len = (size_t)(d - b->data);
			return;
		}
	}
#undef MEMBER
}

void ctf_text_print_rest(struct ctf_text_plan_cache **plans, const struct ctf_text_options *o,
			 struct ctf_text_buf *b, const struct ctf_text_trace *t,
			 const struct ctf_packet *pkt, const struct ctf_event *ev)
{
	const struct ctf_value *const scopes[SCOPES] = {pkt->context, ev->stream_context,
							ev->context, ev->payload};
	const struct ctf_text_plan *pl = get_plan(plans, o, t, ev, scopes);

	if (shape_matches(pl, scopes))
		print_planned(b, pl, scopes);
	else
		print_unplanned(b, o, pl, scopes);
}

void ctf_text_print_rest_hinted(struct ctf_text_plan_cache **plans,
				const struct ctf_text_options *o, struct ctf_text_buf *b,
				const struct ctf_text_trace *t, const struct ctf_packet *pkt,
				const struct ctf_event *ev, const struct ctf_text_plan **hint)
{
	const struct ctf_value *const scopes[SCOPES] = {pkt->context, ev->stream_context,
							ev->context, ev->payload};
	const struct ctf_text_plan *pl = *hint;

	if (__builtin_expect(!pl, 0)) {
		pl = get_plan(plans, o, t, ev, scopes);
		if (!shape_matches(pl, scopes)) {
			print_unplanned(b, o, pl, scopes);
			return; /* no hint: each line is checked */
		}
		*hint = pl;
	}
	print_planned(b, pl, scopes);
}
