/*
 * tsdl-blocks.c - the TSDL blocks that describe the trace rather than types:
 * trace, env, clock, stream, event and callsite, each a list of
 * "name = value;" and "name := type;" entries (plus typealias/typedef in
 * their own lexical scope). Unknown entries are extensions: accepted and
 * ignored, as CTF readers do.
 */
#include <string.h>

#include "common/hex.h"
#include "reader/tsdl-parser-impl.h"

enum block_kind {
	BLOCK_TRACE,
	BLOCK_ENV,
	BLOCK_CLOCK,
	BLOCK_STREAM,
	BLOCK_EVENT,
	BLOCK_CALLSITE,
};

static const char *const block_names[] = {
    [BLOCK_TRACE] = "trace",   [BLOCK_ENV] = "env",	[BLOCK_CLOCK] = "clock",
    [BLOCK_STREAM] = "stream", [BLOCK_EVENT] = "event", [BLOCK_CALLSITE] = "callsite",
};

/* One entry of a block: "key = value" or "key := type". */
struct entry {
	const char *key;
	unsigned int line;
	unsigned int column;
	bool is_type;
	struct tsdl_value value;     /* when !is_type */
	const struct ctf_type *type; /* when is_type */
};

/* What a block is being filled into, and which known keys it has seen. */
struct block {
	enum block_kind kind;
	unsigned int line;
	unsigned int column;
	unsigned int seen; /* bit per known key, to refuse duplicates */
	struct ctf_clock *clock;
	struct ctf_stream_class *stream;
	struct tsdl_pending_event *event;
};

static int block_kind_of(const struct tsdl_token *tok)
{
	for (unsigned int k = 0; k < sizeof(block_names) / sizeof(block_names[0]); k++)
		if (tsdl_token_is(tok, block_names[k]))
			return (int)k;
	return -1;
}

bool tsdl_at_block(struct tsdl_parser *p)
{
	return block_kind_of(tsdl_peek(p, 0)) >= 0 && tsdl_peek(p, 1)->kind == TSDL_TOK_LBRACE;
}

/* Marks known key number bit as seen, refusing a second one. */
static void once(struct tsdl_parser *p, struct block *b, unsigned int bit, const struct entry *e)
{
	if (b->seen & (1u << bit))
		tsdl_fail(p, e->line, e->column, "duplicate '%s' in %s block", e->key,
			  block_names[b->kind]);
	b->seen |= 1u << bit;
}

static const char *value_text(struct tsdl_parser *p, const struct entry *e)
{
	if (e->value.kind == TSDL_VALUE_INTEGER)
		tsdl_fail(p, e->value.line, e->value.column, "'%s' must be a string or a name",
			  e->key);
	return e->value.text;
}

static const char *value_string(struct tsdl_parser *p, const struct entry *e)
{
	if (e->value.kind != TSDL_VALUE_STRING)
		tsdl_fail(p, e->value.line, e->value.column, "'%s' must be a string literal",
			  e->key);
	return e->value.text;
}

static const struct ctf_type *entry_struct(struct tsdl_parser *p, const struct entry *e)
{
	if (!e->is_type)
		tsdl_fail(p, e->line, e->column, "'%s' needs a type: '%s := struct {...};'", e->key,
			  e->key);
	if (e->type->kind != CTF_TYPE_STRUCT)
		tsdl_fail(p, e->line, e->column, "'%s' must be a struct type", e->key);
	return e->type;
}

/* "2a6422d0-6cee-11e0-8c08-cb07d7b3a564" into 16 bytes. */
static void parse_uuid(struct tsdl_parser *p, const struct entry *e, uint8_t out[16])
{
	const char *s = value_string(p, e);
	unsigned int n = 0;

	for (unsigned int i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash) {
			if (s[i] != '-')
				goto bad;
			continue;
		}
		if (trax_hex_digit(s[i]) < 0 || trax_hex_digit(s[i + 1]) < 0)
			goto bad;
		out[n++] = (uint8_t)(trax_hex_digit(s[i]) * 16 + trax_hex_digit(s[i + 1]));
		i++;
	}
	if (s[36] == '\0')
		return;
bad:
	tsdl_fail(p, e->value.line, e->value.column,
		  "uuid must be written xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
}

static void trace_entry(struct tsdl_parser *p, struct block *b, const struct entry *e)
{
	struct ctf_trace *trace = p->build->trace;

	if (strcmp(e->key, "major") == 0) {
		once(p, b, 0, e);
		if (tsdl_value_uint(p, &e->value, "major") != 1)
			tsdl_fail(p, e->value.line, e->value.column,
				  "trace major version must be 1 (CTF 1.8)");
		trace->major = 1;
	} else if (strcmp(e->key, "minor") == 0) {
		once(p, b, 1, e);
		if (tsdl_value_uint(p, &e->value, "minor") != 8)
			tsdl_fail(p, e->value.line, e->value.column,
				  "trace minor version must be 8 (CTF 1.8)");
		trace->minor = 8;
	} else if (strcmp(e->key, "uuid") == 0) {
		once(p, b, 2, e);
		parse_uuid(p, e, trace->uuid);
		trace->has_uuid = true;
	} else if (strcmp(e->key, "byte_order") == 0) {
		once(p, b, 3, e);
		if (e->value.kind == TSDL_VALUE_NAME && strcmp(e->value.text, "le") == 0)
			trace->byte_order = CTF_BYTE_ORDER_LE;
		else if (e->value.kind == TSDL_VALUE_NAME &&
			 (strcmp(e->value.text, "be") == 0 ||
			  strcmp(e->value.text, "network") == 0))
			trace->byte_order = CTF_BYTE_ORDER_BE;
		else
			tsdl_fail(p, e->value.line, e->value.column,
				  "the trace's byte_order must be be or le");
	} else if (strcmp(e->key, "packet.header") == 0) {
		once(p, b, 4, e);
		trace->packet_header = entry_struct(p, e);
	}
}

static void trace_end(struct tsdl_parser *p, struct block *b)
{
	static const char *const required[] = {"major", "minor", NULL, "byte_order"};

	for (unsigned int i = 0; i < 4; i++)
		if (required[i] && !(b->seen & (1u << i)))
			tsdl_fail(p, b->line, b->column, "trace block without '%s'", required[i]);
}

static void env_entry(struct tsdl_parser *p, const struct entry *e)
{
	struct ctf_trace *trace = p->build->trace;
	struct ctf_env_entry *slot = NULL;

	if (e->is_type || e->value.kind == TSDL_VALUE_NAME)
		return; /* not a value an environment holds: ignored */
	for (unsigned int i = 0; i < trace->env_count; i++)
		if (strcmp(trace->env[i].key, e->key) == 0)
			slot = &trace->env[i]; /* a later entry replaces an earlier one */
	if (!slot) {
		trace->env = tsdl_grow(p, trace->env, trace->env_count, &p->build->env_cap,
				       sizeof(*trace->env));
		slot = &trace->env[trace->env_count++];
		slot->key = e->key;
	}
	if (e->value.kind == TSDL_VALUE_STRING) {
		slot->is_string = true;
		slot->string = e->value.text;
		/* any such entry, even one replaced later, as Babeltrace 2 reads it */
		if (strcmp(e->key, "tracer_name") == 0 && strncmp(e->value.text, "lttng", 5) == 0)
			p->build->is_lttng = true;
	} else {
		slot->is_string = false;
		slot->integer = tsdl_value_int(p, &e->value, e->key);
	}
}

static void clock_entry(struct tsdl_parser *p, struct block *b, const struct entry *e)
{
	struct ctf_clock *clock = b->clock;

	if (e->is_type)
		return;
	if (strcmp(e->key, "name") == 0) {
		once(p, b, 0, e);
		clock->name = value_text(p, e);
	} else if (strcmp(e->key, "uuid") == 0) {
		once(p, b, 1, e);
		parse_uuid(p, e, clock->uuid);
		clock->has_uuid = true;
	} else if (strcmp(e->key, "description") == 0) {
		once(p, b, 2, e);
		clock->description = value_string(p, e);
	} else if (strcmp(e->key, "freq") == 0) {
		once(p, b, 3, e);
		clock->freq = tsdl_value_uint(p, &e->value, "freq");
		if (!clock->freq)
			tsdl_fail(p, e->value.line, e->value.column, "clock frequency is 0");
	} else if (strcmp(e->key, "precision") == 0) {
		once(p, b, 4, e);
		clock->precision = tsdl_value_uint(p, &e->value, "precision");
	} else if (strcmp(e->key, "offset_s") == 0) {
		once(p, b, 5, e);
		clock->offset_s = tsdl_value_int(p, &e->value, "offset_s");
	} else if (strcmp(e->key, "offset") == 0) {
		once(p, b, 6, e);
		clock->offset = tsdl_value_int(p, &e->value, "offset");
	} else if (strcmp(e->key, "absolute") == 0) {
		once(p, b, 7, e);
		clock->absolute = tsdl_value_bool(p, &e->value, "absolute");
	}
}

static void clock_end(struct tsdl_parser *p, struct block *b)
{
	struct ctf_trace *trace = p->build->trace;

	if (!b->clock->name)
		tsdl_fail(p, b->line, b->column, "clock block without a name");
	if (ctf_trace_clock(trace, b->clock->name))
		tsdl_fail(p, b->line, b->column, "duplicate clock '%s'", b->clock->name);
	trace->clocks = tsdl_grow(p, trace->clocks, trace->clock_count, &p->build->clock_cap,
				  sizeof(*trace->clocks));
	trace->clocks[trace->clock_count++] = *b->clock;
}

static void stream_entry(struct tsdl_parser *p, struct block *b, const struct entry *e)
{
	struct ctf_stream_class *stream = b->stream;

	if (strcmp(e->key, "id") == 0) {
		once(p, b, 0, e);
		stream->id = tsdl_value_uint(p, &e->value, "stream id");
		stream->has_id = true;
	} else if (strcmp(e->key, "packet.context") == 0) {
		once(p, b, 1, e);
		stream->packet_context = entry_struct(p, e);
	} else if (strcmp(e->key, "event.header") == 0) {
		once(p, b, 2, e);
		stream->event_header = entry_struct(p, e);
	} else if (strcmp(e->key, "event.context") == 0) {
		once(p, b, 3, e);
		stream->event_context = entry_struct(p, e);
	}
}

static void stream_end(struct tsdl_parser *p, struct block *b)
{
	struct tsdl_build *build = p->build;

	build->streams = tsdl_grow(p, build->streams, build->stream_count, &build->stream_cap,
				   sizeof(*build->streams));
	build->streams[build->stream_count].stream = b->stream;
	build->streams[build->stream_count].column = b->column;
	build->stream_count++;
}

static void event_entry(struct tsdl_parser *p, struct block *b, const struct entry *e)
{
	struct ctf_event_class *event = b->event->event;

	if (strcmp(e->key, "name") == 0) {
		once(p, b, 0, e);
		event->name = value_text(p, e);
	} else if (strcmp(e->key, "id") == 0) {
		once(p, b, 1, e);
		event->id = tsdl_value_uint(p, &e->value, "event id");
		b->event->has_id = true;
	} else if (strcmp(e->key, "stream_id") == 0) {
		once(p, b, 2, e);
		event->stream_id = tsdl_value_uint(p, &e->value, "stream_id");
		b->event->has_stream_id = true;
	} else if (strcmp(e->key, "loglevel") == 0) {
		once(p, b, 3, e);
		event->loglevel = tsdl_value_int(p, &e->value, "loglevel");
		event->has_loglevel = true;
	} else if (strcmp(e->key, "model.emf.uri") == 0) {
		once(p, b, 4, e);
		event->emf_uri = value_string(p, e);
	} else if (strcmp(e->key, "context") == 0) {
		once(p, b, 5, e);
		event->context = entry_struct(p, e);
	} else if (strcmp(e->key, "fields") == 0) {
		once(p, b, 6, e);
		event->fields = entry_struct(p, e);
	}
}

static void event_end(struct tsdl_parser *p, struct block *b)
{
	struct tsdl_build *build = p->build;

	if (!b->event->event->name)
		tsdl_fail(p, b->line, b->column, "event block without a name");
	build->events = tsdl_grow(p, build->events, build->event_count, &build->event_cap,
				  sizeof(*build->events));
	build->events[build->event_count++] = *b->event;
}

static void parse_entry(struct tsdl_parser *p, struct entry *e)
{
	const struct tsdl_token *tok = tsdl_peek(p, 0);

	memset(e, 0, sizeof(*e));
	e->line = tok->line;
	e->column = tok->column;
	e->key = tsdl_parse_dotted_name(p, "an attribute name, a declaration or '}'");
	if (tsdl_peek(p, 0)->kind == TSDL_TOK_TYPE_ASSIGN) {
		tsdl_next(p);
		e->is_type = true;
		e->type = tsdl_parse_type(p);
	} else {
		tsdl_expect(p, TSDL_TOK_ASSIGN, "'=' or ':='");
		tsdl_parse_value(p, &e->value);
	}
	tsdl_expect(p, TSDL_TOK_SEMICOLON, "';'");
}

void tsdl_parse_block(struct tsdl_parser *p)
{
	struct tsdl_token kw = tsdl_next(p);
	struct tsdl_build *build = p->build;
	struct block b;

	memset(&b, 0, sizeof(b));
	b.kind = (enum block_kind)block_kind_of(&kw);
	b.line = kw.line;
	b.column = kw.column;
	switch (b.kind) {
	case BLOCK_TRACE:
		if (build->trace_seen)
			tsdl_fail(p, kw.line, kw.column, "second trace block");
		build->trace_seen = true;
		build->trace_line = kw.line;
		break;
	case BLOCK_CLOCK:
		b.clock = tsdl_alloc(p, sizeof(*b.clock));
		b.clock->freq = 1000000000;
		break;
	case BLOCK_STREAM:
		b.stream = tsdl_alloc(p, sizeof(*b.stream));
		b.stream->line = kw.line;
		break;
	case BLOCK_EVENT:
		b.event = tsdl_alloc(p, sizeof(*b.event));
		b.event->event = tsdl_alloc(p, sizeof(*b.event->event));
		b.event->event->line = kw.line;
		b.event->event->column = kw.column;
		b.event->line = kw.line;
		b.event->column = kw.column;
		break;
	default:
		break;
	}
	tsdl_expect(p, TSDL_TOK_LBRACE, "'{'");
	tsdl_enter(p, &kw);
	tsdl_push_scope(p);
	while (tsdl_peek(p, 0)->kind != TSDL_TOK_RBRACE) {
		struct entry e;

		if (tsdl_at_declaration(p)) {
			tsdl_parse_declaration(p, NULL);
			continue;
		}
		parse_entry(p, &e);
		switch (b.kind) {
		case BLOCK_TRACE:
			trace_entry(p, &b, &e);
			break;
		case BLOCK_ENV:
			env_entry(p, &e);
			break;
		case BLOCK_CLOCK:
			clock_entry(p, &b, &e);
			break;
		case BLOCK_STREAM:
			stream_entry(p, &b, &e);
			break;
		case BLOCK_EVENT:
			event_entry(p, &b, &e);
			break;
		case BLOCK_CALLSITE:
			break; /* call sites are not used by the reader */
		}
	}
	tsdl_next(p);
	tsdl_pop_scope(p);
	tsdl_leave(p);
	tsdl_expect(p, TSDL_TOK_SEMICOLON, "';' after the block");
	switch (b.kind) {
	case BLOCK_TRACE:
		trace_end(p, &b);
		break;
	case BLOCK_CLOCK:
		clock_end(p, &b);
		break;
	case BLOCK_STREAM:
		stream_end(p, &b);
		break;
	case BLOCK_EVENT:
		event_end(p, &b);
		break;
	default:
		break;
	}
}
