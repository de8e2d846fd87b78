/*
 * trax/probe.h - the interface between generated tracepoint probes and
 * libtrax-ust.
 *
 * Applications never include this file directly: <trax/tracepoint-event.h>
 * generates, for each tracepoint provider, descriptions of its events (names,
 * log levels, field types) and one probe function per event class that
 * serializes the fields. This header declares what that generated code uses.
 * Changing a structure here changes the ABI: bump TRAX_PROBE_ABI.
 */
#ifndef TRAX_PROBE_H
#define TRAX_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRAX_PROBE_ABI 3

#ifndef TRAX_API
#define TRAX_API __attribute__((visibility("default")))
#endif

/* Kinds of fields a ctf_*() macro describes. */
enum trax_field_kind {
	TRAX_FIELD_INTEGER = 1,
	TRAX_FIELD_FLOAT,
	TRAX_FIELD_STRING,
	TRAX_FIELD_ARRAY,    /* fixed element count */
	TRAX_FIELD_SEQUENCE, /* length field followed by the elements */
	TRAX_FIELD_ENUM,
};

/* An integer as it is laid out in the trace (also array/sequence elements). */
struct trax_integer_type {
	uint8_t size;	   /* bits: 8, 16, 32 or 64 */
	uint8_t is_signed; /* two's complement when set */
	uint8_t base;	   /* preferred display base: 2, 8, 10 or 16 */
	uint8_t network;   /* stored big-endian (ctf_*_network) */
	uint8_t text;	   /* UTF-8 text (ctf_array_text, ctf_sequence_text) */
};

/* trax_enum_entry flags. */
#define TRAX_ENUM_AUTO 1u /* ctf_enum_auto(): the value after the previous entry's end */
/*
 * The signedness of the expressions that gave start and end is known: each
 * is written in the metadata as its own type reads it (as LTTng-UST writes
 * it: -5 in an unsigned enumeration stays -5). Without TRAX_ENUM_TYPED the
 * container's signedness decides.
 */
#define TRAX_ENUM_TYPED	       2u
#define TRAX_ENUM_START_SIGNED 4u
#define TRAX_ENUM_END_SIGNED   8u

/* One mapping of a TRACEPOINT_ENUM: a label for the values start..end. */
struct trax_enum_entry {
	const char *label;
	int64_t start; /* read as uint64_t when the container is unsigned */
	int64_t end;
	unsigned int flags; /* TRAX_ENUM_* */
};

struct trax_enum_desc {
	const char *name;
	const struct trax_enum_entry *entries;
	unsigned int nr_entries;
};

/* One field of an event class, in declaration order. */
struct trax_field_desc {
	const char *name;
	uint8_t kind;			 /* enum trax_field_kind */
	uint8_t nowrite;		 /* visible to filters, never written to the trace */
	uint8_t float_bits;		 /* TRAX_FIELD_FLOAT: 32 or 64 */
	struct trax_integer_type elem;	 /* integer, enum container, elements */
	struct trax_integer_type length; /* TRAX_FIELD_SEQUENCE: length type */
	uint32_t count;			 /* TRAX_FIELD_ARRAY: element count */
	const struct trax_enum_desc *enum_desc;
};

/*
 * The values of an enumeration's entries, read in order: an entry's own, or
 * for a ctf_enum_auto() entry the one after the previous entry's end (0 for
 * the first entry), as LTTng-UST numbers them. `next` starts at 0.
 */
static inline void trax_enum_entry_values(const struct trax_enum_entry *m, uint64_t *next,
					  int64_t *start, int64_t *end)
{
	if (m->flags & TRAX_ENUM_AUTO) {
		*start = *end = (int64_t)*next;
	} else {
		*start = m->start;
		*end = m->end;
	}
	*next = (uint64_t)*end + 1;
}

/* One event (a TRACEPOINT_EVENT or a TRACEPOINT_EVENT_INSTANCE). */
struct trax_event_desc {
	const char *name;	/* "provider:event" */
	const char *class_name; /* the TRACEPOINT_EVENT_CLASS it instantiates */
	const char *signature;	/* the probe's argument list, checked at connection */
	void (*probe)(void);	/* called as probe(state, args...) */
	const struct trax_field_desc *fields;
	unsigned int nr_fields;
	int loglevel;		      /* TRACEPOINT_LOGLEVEL, -1 when none was given */
	const char *model_emf_uri;    /* TRACEPOINT_MODEL_EMF_URI, or NULL */
	struct trax_event_desc *next; /* the provider's next event */
};

/*
 * A provider: its events in a list (the generated code cannot build an
 * array of them at compile time without reading the provider header inside
 * an initializer, which breaks on headers it includes). `abi` stays at this
 * offset in every version, so that an old probe is recognized and refused.
 */
struct trax_provider_desc {
	const char *name;
	struct trax_event_desc *events; /* the first event, linked by next */
	unsigned int nr_events;
	unsigned int abi;
	/*
	 * Links the events and gives them their levels and URIs (generated
	 * code); the library calls it, under its lock, while events is NULL.
	 */
	void (*link)(struct trax_provider_desc *);
};

/* Used by the generated link(): TRACEPOINT_LOGLEVEL, TRACEPOINT_MODEL_EMF_URI. */
static inline void trax_provider_set_loglevel(struct trax_provider_desc *p, const char *event,
					      int level)
{
	struct trax_event_desc *d;

	for (d = p->events; d; d = d->next)
		if (!strcmp(d->name, event))
			d->loglevel = level;
}

static inline void trax_provider_set_model_emf_uri(struct trax_provider_desc *p, const char *event,
						   const char *uri)
{
	struct trax_event_desc *d;

	for (d = p->events; d; d = d->next)
		if (!strcmp(d->name, event))
			d->model_emf_uri = uri;
}

/*
 * Where one event is recorded: a channel and the event's id in it. An event
 * enabled in several channels has several bindings, in a list the probe walks
 * with atomic loads of the head and of each `next`: the library changes them
 * while probes run (one store each), and never frees a binding, which keeps
 * leading into the list once taken out of it.
 */
struct trax_binding {
	struct trax_binding *next;
	void *channel;
	uint32_t event_id;
	uint32_t flags;
	const void *filters; /* the library's, for trax_event_filter() (TRAX_BINDING_FILTERED) */
};

/* trax_binding flags. */
#define TRAX_BINDING_FILTERED 1u /* filters decide: call trax_event_filter() first */

/*
 * A field's value as the event's filters read it, one per field of the
 * event class (_nowrite ones too), in declaration order: integers and
 * enumerations in u (signed ones sign-extended, network ones in the
 * host's order), floats in d, strings in str ("(null)" for NULL), arrays
 * and sequences as their first element and count.
 */
struct trax_filter_arg {
	union {
		uint64_t u;
		double d;
		const char *str;
		struct {
			const void *ptr;
			size_t count;
		} seq;
	};
};

/* An integer field's value for the filters (see struct trax_filter_arg). */
static inline uint64_t trax_filter_int(uint64_t v, unsigned int size, int is_signed, int net)
{
	if (!net || size == 1)
		return v;
	if (size == 2)
		v = __builtin_bswap16((uint16_t)v);
	else if (size == 4)
		v = __builtin_bswap32((uint32_t)v);
	else
		return __builtin_bswap64(v);
	if (is_signed)
		return (uint64_t)(size == 2 ? (int64_t)(int16_t)v : (int64_t)(int32_t)v);
	return v;
}

/*
 * 1 when the event whose fields hold args passes one of the filters of
 * binding b (TRAX_BINDING_FILTERED set), 0 when it must not be recorded
 * there. ip is the call site's address ($ctx.ip).
 */
TRAX_API int trax_event_filter(const struct trax_binding *b, const struct trax_filter_arg *args,
			       const void *ip);

/* What a tracepoint's data pointer points to: the event's live state. */
struct trax_event_state {
	struct trax_binding *bindings; /* NULL: recorded nowhere */
	const struct trax_event_desc *desc;
};

/* A reservation: the probe writes the payload at pos, then commits. */
struct trax_ctx {
	char *pos;	 /* next payload byte */
	void *buf;	 /* internal: the per-CPU buffer */
	uint64_t offset; /* internal: position of the record in the buffer */
	uint32_t len;	 /* internal: record length, header included */
	uint32_t pad;
};

/*
 * Reserves room for a record of payload_len bytes in the binding's channel,
 * writes the event header and context, and points ctx->pos at the payload.
 * Returns 0, or -1 when the record is dropped (buffer full, record too large,
 * tracing stopped): the drop is counted and nothing must be written.
 */
TRAX_API int trax_event_reserve(struct trax_ctx *ctx, const struct trax_binding *b,
				size_t payload_len, const void *ip);
/* Publishes a reserved record to the consumer. */
TRAX_API void trax_event_commit(struct trax_ctx *ctx);

TRAX_API int trax_provider_register(struct trax_provider_desc *provider);
TRAX_API void trax_provider_unregister(struct trax_provider_desc *provider);

/* Field writers used by the generated probes (byte-packed layout). */
static inline void trax_write(struct trax_ctx *ctx, const void *src, size_t len)
{
	memcpy(ctx->pos, src, len);
	ctx->pos += len;
}

static inline void trax_write_zero(struct trax_ctx *ctx, size_t len)
{
	memset(ctx->pos, 0, len);
	ctx->pos += len;
}

/*
 * Writes a string measured earlier as len bytes with its NUL. If another
 * thread shortened it meanwhile, the record keeps its size: the bytes after
 * the new end are '#', so the fields after it still decode.
 */
static inline void trax_write_string(struct trax_ctx *ctx, const char *s, size_t len)
{
	const char *end = (const char *)memchr(s, 0, len - 1);
	size_t n = end ? (size_t)(end - s) : len - 1;

	memcpy(ctx->pos, s, n);
	if (n < len - 1)
		memset(ctx->pos + n, '#', len - 1 - n);
	ctx->pos[len - 1] = 0;
	ctx->pos += len;
}

/* Writes the low `size` bytes of v in the machine's byte order. */
static inline void trax_write_uint(struct trax_ctx *ctx, uint64_t v, size_t size)
{
	switch (size) {
	case 1: {
		uint8_t b = (uint8_t)v;
		trax_write(ctx, &b, 1);
		break;
	}
	case 2: {
		uint16_t b = (uint16_t)v;
		trax_write(ctx, &b, 2);
		break;
	}
	case 4: {
		uint32_t b = (uint32_t)v;
		trax_write(ctx, &b, 4);
		break;
	}
	default:
		trax_write(ctx, &v, 8);
		break;
	}
}

/* Sequence lengths past this are treated as too large to record. */
#define TRAX_MAX_SEQUENCE_LEN ((size_t)1 << 28)

#ifdef __cplusplus
}
#endif

#endif /* TRAX_PROBE_H */
