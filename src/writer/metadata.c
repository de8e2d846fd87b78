/*
 * metadata.c - produces the TSDL text describing trax's traces from the
 * writer's description (desc.h). The trace's own integers are byte-aligned
 * (align = 8): the recorder writes fields packed, which keeps records small
 * and costs nothing on x86.
 */
#include "writer/metadata.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "common/uuid.h"
#include "writer/packet.h"

/* A TSDL string literal: quotes and backslashes escaped, control bytes dropped. */
static void put_quoted(struct strbuf *out, const char *s)
{
	strbuf_add(out, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			strbuf_add(out, "\\", 1);
			strbuf_add(out, s, 1);
		} else if (c == '\n') {
			strbuf_add(out, "\\n", 2);
		} else if (c >= 0x20) {
			strbuf_add(out, s, 1);
		}
	}
	strbuf_add(out, "\"", 1);
}

void ctf_metadata_trace(struct strbuf *out, const struct ctfw_trace *t)
{
	char uuid[37];
	unsigned int i;

	trax_uuid_format(t->uuid, uuid);
	strbuf_puts(out, "/* CTF 1.8 */\n\n");
	strbuf_puts(out,
		    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n");
	strbuf_printf(out,
		      "trace {\n"
		      "\tmajor = 1;\n"
		      "\tminor = 8;\n"
		      "\tuuid = \"%s\";\n"
		      "\tbyte_order = %s;\n"
		      "\tpacket.header := struct {\n"
		      "\t\tuint32_t magic;\n"
		      "\t\tuint8_t  uuid[16];\n"
		      "\t\tuint32_t stream_id;\n"
		      "\t\tuint64_t stream_instance_id;\n"
		      "\t};\n"
		      "};\n\n",
		      uuid, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "le" : "be");

	strbuf_puts(out, "env {\n");
	for (i = 0; i < t->nr_env; i++) {
		strbuf_printf(out, "\t%s = ", t->env[i].key);
		if (t->env[i].str)
			put_quoted(out, t->env[i].str);
		else
			strbuf_printf(out, "%" PRId64, t->env[i].num);
		strbuf_puts(out, ";\n");
	}
	strbuf_puts(out, "};\n\n");

	strbuf_printf(out, "clock {\n\tname = \"%s\";\n\tuuid = \"%s\";\n\tdescription = ",
		      t->clock.name, t->clock.uuid);
	put_quoted(out, t->clock.description);
	strbuf_printf(out,
		      ";\n\tfreq = %" PRIu64 ";\n"
		      "\tprecision = 1;\n"
		      "\toffset_s = %" PRId64 ";\n"
		      "\toffset = %" PRId64 ";\n"
		      "\tabsolute = %s;\n"
		      "};\n\n",
		      t->clock.freq, t->clock.offset_s, t->clock.offset,
		      t->clock.absolute ? "TRUE" : "FALSE");

	strbuf_printf(out,
		      "typealias integer {\n"
		      "\tsize = 27; align = 1; signed = false;\n"
		      "\tmap = clock.%s.value;\n"
		      "} := uint27_clock_monotonic_t;\n\n"
		      "typealias integer {\n"
		      "\tsize = 64; align = 8; signed = false;\n"
		      "\tmap = clock.%s.value;\n"
		      "} := uint64_clock_monotonic_t;\n\n",
		      t->clock.name, t->clock.name);

	strbuf_puts(out, "struct packet_context {\n"
			 "\tuint64_clock_monotonic_t timestamp_begin;\n"
			 "\tuint64_clock_monotonic_t timestamp_end;\n"
			 "\tuint64_t content_size;\n"
			 "\tuint64_t packet_size;\n"
			 "\tuint64_t packet_seq_num;\n"
			 "\tuint64_t events_discarded;\n"
			 "\tuint32_t cpu_id;\n"
			 "};\n\n"
			 "struct event_header_compact {\n"
			 "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
			 "\tvariant <id> {\n"
			 "\t\tstruct {\n"
			 "\t\t\tuint27_clock_monotonic_t timestamp;\n"
			 "\t\t} compact;\n"
			 "\t\tstruct {\n"
			 "\t\t\tuint32_t id;\n"
			 "\t\t\tuint64_clock_monotonic_t timestamp;\n"
			 "\t\t} extended;\n"
			 "\t} v;\n"
			 "} align(8);\n\n");
}

static void put_indent(struct strbuf *out, unsigned int depth)
{
	while (depth--)
		strbuf_add(out, "\t", 1);
}

static void put_integer(struct strbuf *out, const struct ctfw_integer *t)
{
	strbuf_printf(out,
		      "integer { size = %u; align = %u; signed = %u; encoding = %s; base = %u;%s }",
		      t->size, t->align, t->is_signed ? 1u : 0u,
		      t->encoding == CTFW_ENCODING_UTF8 ? "UTF8" : "none", t->base,
		      t->byte_order == CTFW_BYTE_ORDER_BE   ? " byte_order = be;"
		      : t->byte_order == CTFW_BYTE_ORDER_LE ? " byte_order = le;"
							    : "");
}

static void put_enum_value(struct strbuf *out, int64_t v, bool is_signed)
{
	if (is_signed)
		strbuf_printf(out, "%" PRId64, v);
	else
		strbuf_printf(out, "%" PRIu64, (uint64_t)v);
}

/* Its mappings one per line, one level deeper than the enumeration. */
static void put_enum(struct strbuf *out, const struct ctfw_type *t, unsigned int depth)
{
	unsigned int i, n = t->enumeration.nr_mappings;

	strbuf_puts(out, "enum : ");
	put_integer(out, &t->enumeration.container);
	strbuf_puts(out, " {\n");
	for (i = 0; i < n; i++) {
		const struct ctfw_enum_mapping *m = &t->enumeration.mappings[i];

		put_indent(out, depth + 1);
		put_quoted(out, m->label);
		/* implicit: TSDL numbers it as its producer did */
		if (!m->implicit) {
			strbuf_puts(out, " = ");
			put_enum_value(out, m->start, m->start_signed);
			if (m->end != m->start) {
				strbuf_puts(out, " ... ");
				put_enum_value(out, m->end, m->end_signed);
			}
		}
		strbuf_puts(out, i + 1 < n ? ",\n" : "\n");
	}
	put_indent(out, depth);
	strbuf_puts(out, "}");
}

static void put_field(struct strbuf *out, const struct ctfw_field *f, unsigned int depth);

/*
 * A type specifier, its lines after the first indented as a field's at
 * depth is. Arrays and sequences are declarators: put_field writes them.
 */
static void put_type(struct strbuf *out, const struct ctfw_type *t, unsigned int depth)
{
	unsigned int i;

	switch (t->kind) {
	case CTFW_TYPE_INTEGER:
		put_integer(out, &t->integer);
		break;
	case CTFW_TYPE_FLOAT:
		strbuf_printf(out, "floating_point { exp_dig = %u; mant_dig = %u; align = %u; }",
			      t->floating.exp_dig, t->floating.mant_dig, t->floating.align);
		break;
	case CTFW_TYPE_STRING:
		strbuf_puts(out, "string");
		break;
	case CTFW_TYPE_ENUM:
		put_enum(out, t, depth);
		break;
	case CTFW_TYPE_STRUCT:
		if (!t->structure.nr_fields) {
			strbuf_puts(out, "struct { }");
			break;
		}
		strbuf_puts(out, "struct {\n");
		for (i = 0; i < t->structure.nr_fields; i++)
			put_field(out, &t->structure.fields[i], depth + 1);
		put_indent(out, depth);
		strbuf_puts(out, "}");
		break;
	case CTFW_TYPE_VARIANT:
		strbuf_printf(out, "variant <_%s> {\n", t->variant.tag);
		for (i = 0; i < t->variant.nr_options; i++)
			put_field(out, &t->variant.options[i], depth + 1);
		put_indent(out, depth);
		strbuf_puts(out, "}");
		break;
	case CTFW_TYPE_ARRAY:
	case CTFW_TYPE_SEQUENCE:
		break;
	}
}

/* One declaration, on its own lines at depth tabs (a sequence's length first). */
static void put_field(struct strbuf *out, const struct ctfw_field *f, unsigned int depth)
{
	const struct ctfw_type *t = &f->type;

	put_indent(out, depth);
	switch (t->kind) {
	case CTFW_TYPE_ARRAY:
		put_type(out, t->array.elem, depth);
		strbuf_printf(out, " _%s[%u];\n", f->name, t->array.length);
		break;
	case CTFW_TYPE_SEQUENCE:
		put_integer(out, &t->sequence.length);
		strbuf_printf(out, " __%s_length;\n", f->name);
		put_indent(out, depth);
		put_type(out, t->sequence.elem, depth);
		strbuf_printf(out, " _%s[ __%s_length ];\n", f->name, f->name);
		break;
	default:
		put_type(out, t, depth);
		strbuf_printf(out, " _%s;\n", f->name);
		break;
	}
}

void ctf_metadata_stream(struct strbuf *out, const struct ctfw_stream *s)
{
	unsigned int i;

	strbuf_printf(out,
		      "stream {\n"
		      "\tid = %u;\n"
		      "\tevent.header := struct event_header_compact;\n"
		      "\tpacket.context := struct packet_context;\n",
		      s->id);
	if (s->nr_event_context) {
		strbuf_puts(out, "\tevent.context := struct {\n");
		for (i = 0; i < s->nr_event_context; i++)
			put_field(out, &s->event_context[i], 2);
		strbuf_puts(out, "\t};\n");
	}
	strbuf_puts(out, "};\n\n");
}

void ctf_metadata_event(struct strbuf *out, const struct ctfw_event_class *ev, uint32_t id,
			uint32_t stream_id)
{
	unsigned int i;

	strbuf_puts(out, "event {\n\tname = ");
	put_quoted(out, ev->name);
	strbuf_printf(out, ";\n\tid = %u;\n\tstream_id = %u;\n", id, stream_id);
	if (ev->loglevel >= 0)
		strbuf_printf(out, "\tloglevel = %d;\n", ev->loglevel);
	if (ev->model_emf_uri) {
		strbuf_puts(out, "\tmodel.emf.uri = ");
		put_quoted(out, ev->model_emf_uri);
		strbuf_puts(out, ";\n");
	}
	if (ev->nr_fields) {
		strbuf_puts(out, "\tfields := struct {\n");
		for (i = 0; i < ev->nr_fields; i++)
			put_field(out, &ev->fields[i], 2);
		strbuf_puts(out, "\t};\n");
	} else {
		strbuf_puts(out, "\tfields := struct { };\n");
	}
	strbuf_puts(out, "};\n\n");
}
