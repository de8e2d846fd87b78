/*
 * lv2.c - the compact format reader (seed 002, trace versions 2.1 and 2.3;
 * docs/legacy-formats.md, format 2): the probe, the loader (tracefiles,
 * block headers, the metadata channel's marker descriptions, the event
 * classes) and the cursor over one tracefile's events.
 *
 * Every marker id of a tracefile group maps to a slot: its class (NULL
 * when the marker has no usable format) and the payload alignment. In 2.1
 * every group shares the trace's one id space, so each group gets its own
 * classes (channel = the group); in 2.3 a marker belongs to its channel
 * and a group uses the markers of the channel of its name. The metadata
 * group's ids 0 and 1 are the two core events, decoded by fixed layouts
 * (the types below), whatever the trace says of them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy/lv2-meta.h"
#include "legacy/ltrace-impl.h"

#define LV2_MAGIC_OFF 16
#define LV2_HDR_21    60
#define LV2_HDR_23    68
#define LV2_TSC_BITS  27
#define LV2_UNCLOSED  0xFFFFFFFFu

/* A sub-buffer header (2.2). */
struct lv2_header {
	uint64_t begin, end;
	bool be;
	uint8_t major, minor, arch_size, alignment;
	uint64_t start_sec, start_usec, start_freq;
	uint32_t freq_scale, lost_size, buf_size, events_lost, subbuf_corrupt;
	unsigned size; /* 60 (2.1) or 68 (2.3) */
};

/* One event id of a group. */
#define LV2_PLAN_KEYS 8

struct lv2_slot {
	const struct ltt_class *cls;
	const struct lv2_marker *mk; /* the id's marker, also when cls is NULL */
	unsigned align;		     /* the payload's start alignment */
	/*
	 * The class's fixed-layout plans (ltt_payload_plan), made when first
	 * needed, one per payload start modulo the ABI's alignment (up to
	 * 8): most payloads are measured without a walk of their type.
	 */
	struct ltt_plan *plans[LV2_PLAN_KEYS];
	uint8_t planned; /* a bit per key */
};

static void slot_plans_free(struct lv2_slot *s)
{
	for (unsigned k = 0; k < LV2_PLAN_KEYS; k++) {
		free(s->plans[k]);
		s->plans[k] = NULL;
	}
	s->planned = 0;
}

/* The plan of the slot's class for a payload base bytes into its block, or NULL. */
static const struct ltt_plan *slot_plan(struct lv2_slot *s, uint64_t base)
{
	unsigned a = s->cls->abi.alignment, key;

	if (a > LV2_PLAN_KEYS)
		return NULL;
	key = a > 1 ? (unsigned)(base & (a - 1)) : 0;
	if (!(s->planned & 1u << key)) {
		s->planned |= (uint8_t)(1u << key);
		s->plans[key] = ltt_payload_plan(s->cls->payload, &s->cls->abi, (size_t)base);
	}
	return s->plans[key];
}

/* A tracefile group ("cpu", "control/metadata"): what its ids are. */
struct lv2_group {
	char *channel;
	bool metadata;
	struct lv2_slot *slots; /* indexed by event id */
	size_t nslots;
};

struct lv2_trace {
	struct lv2_meta meta;
	struct lv2_group *groups;
	size_t ngroups;
};

/* The cursor's own state. */
struct lv2_cursor {
	uint64_t block_off;
	bool unclosed;
	uint32_t prev_lost, prev_corrupt;
	uint64_t pending_lost;
};

/* The core events' payloads (2.5), named as LTTng 0.x's metadata markers. */
static struct ltt_type core_string = {.kind = LTT_STRING};
static struct ltt_type core_u16 = {
    .kind = LTT_UNSIGNED, .size_ref = LTT_SIZE_FIXED, .size = 2, .base = 10};
static struct ltt_type core_u8 = {
    .kind = LTT_UNSIGNED, .size_ref = LTT_SIZE_FIXED, .size = 1, .base = 10};
static struct ltt_field core_id_fields[] = {
    {"channel", &core_string}, {"name", &core_string},	{"event_id", &core_u16},
    {"int_size", &core_u8},    {"long_size", &core_u8}, {"pointer_size", &core_u8},
    {"size_t_size", &core_u8}, {"alignment", &core_u8},
};
static struct ltt_field core_format_fields[] = {
    {"channel", &core_string},
    {"name", &core_string},
    {"format", &core_string},
};
/* [0]: 2.1 (no channel field), [1]: 2.3 */
static struct ltt_type core_id_type[2] = {
    {.kind = LTT_STRUCT, .fields = core_id_fields + 1, .nfields = 7},
    {.kind = LTT_STRUCT, .fields = core_id_fields, .nfields = 8},
};
static struct ltt_type core_format_type[2] = {
    {.kind = LTT_STRUCT, .fields = core_format_fields + 1, .nfields = 2},
    {.kind = LTT_STRUCT, .fields = core_format_fields, .nfields = 3},
};

static unsigned min_align(unsigned alignment, unsigned size)
{
	return alignment < size ? alignment : size;
}

/* 0, or -1: no compact-format magic at offset 16 (or too short). */
static int header_parse(const uint8_t *p, size_t len, struct lv2_header *h)
{
	static const uint8_t le[4] = {0xED, 0xB7, 0xD6, 0x00}, be[4] = {0x00, 0xD6, 0xB7, 0xED};

	memset(h, 0, sizeof(*h));
	if (len < LV2_HDR_21)
		return -1;
	if (memcmp(p + LV2_MAGIC_OFF, le, 4) == 0)
		h->be = false;
	else if (memcmp(p + LV2_MAGIC_OFF, be, 4) == 0)
		h->be = true;
	else
		return -1;
	h->begin = ltrace_u64(p, h->be);
	h->end = ltrace_u64(p + 8, h->be);
	h->major = p[20];
	h->minor = p[21];
	h->arch_size = p[22];
	h->alignment = p[23];
	h->start_sec = ltrace_u64(p + 24, h->be);
	h->start_usec = ltrace_u64(p + 32, h->be);
	h->start_freq = ltrace_u64(p + 40, h->be);
	h->freq_scale = ltrace_u32(p + 48, h->be);
	h->lost_size = ltrace_u32(p + 52, h->be);
	h->buf_size = ltrace_u32(p + 56, h->be);
	h->size = LV2_HDR_21;
	if (h->minor >= 3) {
		if (len < LV2_HDR_23)
			return -1;
		h->events_lost = ltrace_u32(p + 60, h->be);
		h->subbuf_corrupt = ltrace_u32(p + 64, h->be);
		h->size = LV2_HDR_23;
	}
	return 0;
}

/* The marker-era header (2.0): the magic at 40 with major 1 or 2. */
static bool marker_era(const uint8_t *p, size_t len, uint8_t *major, uint8_t *minor)
{
	static const uint8_t le[4] = {0xED, 0xB7, 0xD6, 0x00}, be[4] = {0x00, 0xD6, 0xB7, 0xED};

	if (len < 56 || (memcmp(p + 40, le, 4) != 0 && memcmp(p + 40, be, 4) != 0))
		return false;
	/* magic, arch_type, arch_variant, float_word_order, arch_size, major, minor */
	*major = p[57];
	*minor = p[58];
	return *major == 1 || *major == 2;
}

/* "control/flight-cpu" -> "control/cpu" (the flight-recorder prefix of 2.1). */
static char *strip_flight(const char *group, bool *flight)
{
	const char *base = strrchr(group, '/');
	size_t dirlen = base ? (size_t)(base - group) + 1 : 0;
	char *s;

	base = group + dirlen;
	*flight = strncmp(base, "flight-", 7) == 0;
	s = malloc(strlen(group) + 1);
	if (!s)
		return NULL;
	memcpy(s, group, dirlen);
	strcpy(s + dirlen, *flight ? base + 7 : base);
	return s;
}

static const char *basename_of(const char *channel)
{
	const char *b = strrchr(channel, '/');

	return b ? b + 1 : channel;
}

static bool is_metadata(const char *channel)
{
	return strcmp(basename_of(channel), "metadata") == 0;
}

/* --- probe --------------------------------------------------------------- */

struct probe_state {
	const char *dir;
	enum ltt_format found;
};

static int probe_file(void *arg, const char *relpath, const char *group, int cpu)
{
	struct probe_state *ps = arg;
	uint8_t head[LV2_HDR_23];
	struct lv2_header h;
	uint8_t major, minor;
	bool flight;
	char *channel, *path;
	long n;

	(void)cpu;
	channel = strip_flight(group, &flight);
	if (!channel)
		return 0;
	/* the metadata channel, in control/ (2.1) or at the root (2.3) */
	if (!is_metadata(channel) ||
	    (strchr(channel, '/') && strcmp(channel, "control/metadata"))) {
		free(channel);
		return 0;
	}
	free(channel);
	if (asprintf(&path, "%s/%s", ps->dir, relpath) < 0)
		return 0;
	n = ltrace_read_head(path, head, sizeof(head));
	free(path);
	if (n <= 0)
		return 0;
	if ((header_parse(head, (size_t)n, &h) == 0 && h.major == 2) ||
	    marker_era(head, (size_t)n, &major, &minor)) {
		ps->found = LTT_FORMAT_COMPACT;
		return 1;
	}
	return 0;
}

enum ltt_format lv2_probe(const char *dir)
{
	struct probe_state ps = {dir, LTT_FORMAT_NONE};
	char err[256];

	if (ltrace_walk(dir, probe_file, &ps, err, sizeof(err)) < 0)
		return LTT_FORMAT_NONE;
	return ps.found;
}

/* --- load ---------------------------------------------------------------- */

struct load_state {
	struct ltt_trace *t;
	char *err;
	size_t errlen;
	bool flight;
	bool failed;
};

static int add_file(void *arg, const char *relpath, const char *group, int cpu)
{
	struct load_state *ls = arg;
	struct ltt_trace *t = ls->t;
	uint8_t head[LV2_HDR_23];
	struct lv2_header h;
	uint8_t major, minor;
	bool flight;
	char *channel, *path;
	long n;

	if (asprintf(&path, "%s/%s", t->dir, relpath) < 0)
		goto nomem;
	n = ltrace_read_head(path, head, sizeof(head));
	if (n >= 0 && marker_era(head, (size_t)n, &major, &minor) &&
	    header_parse(head, (size_t)n, &h) < 0) {
		snprintf(ls->err, ls->errlen,
			 "%s: trace version %u.%u (LTTng marker era) not supported", path, major,
			 minor);
		free(path);
		ls->failed = true;
		return 1;
	}
	if (n == 0) {
		/* an empty tracefile: a channel that recorded nothing */
	} else if (n < 0 || header_parse(head, (size_t)n, &h) < 0 || h.major != 2) {
		ltrace_warn(
		    t, "%s: not a compact-format tracefile (no magic at offset 16), skipped", path);
		free(path);
		return 0;
	}
	free(path);
	channel = strip_flight(group, &flight);
	if (!channel)
		goto nomem;
	ls->flight |= flight;
	if (!ltrace_add_file(t, relpath, channel, cpu, ls->err, ls->errlen)) {
		free(channel);
		ls->failed = true;
		return 1;
	}
	free(channel);
	return 0;
nomem:
	snprintf(ls->err, ls->errlen, "%s: out of memory", t->dir);
	ls->failed = true;
	return 1;
}

/* Reads f's block headers (1.2.1's rules: equal sizes, no partial block). */
static int read_blocks(struct ltt_trace *t, struct ltrace_file *f, char *err, size_t errlen)
{
	struct lv2_header h0, h;
	uint64_t nblocks;

	if (!f->data || f->size == 0)
		return 0;
	if (header_parse(f->data, f->size, &h0) < 0) {
		ltrace_file_tail_error(f, "%s: offset 0: sub-buffer header truncated", f->path);
		return 0;
	}
	f->big_endian = h0.be;
	if (h0.buf_size < h0.size) {
		ltrace_file_tail_error(f, "%s: offset 0: buf_size %u is smaller than its header",
				       f->path, h0.buf_size);
		return 0;
	}
	nblocks = f->size / h0.buf_size;
	for (uint64_t b = 0; b < nblocks; b++) {
		uint64_t off = b * h0.buf_size;
		struct ltrace_block *blk;

		if (header_parse(f->data + off, h0.buf_size, &h) < 0) {
			ltrace_file_tail_error(f, "%s: offset %llu: block %llu has no magic number",
					       f->path, (unsigned long long)off,
					       (unsigned long long)b);
			break;
		}
		if (h.buf_size != h0.buf_size || h.major != h0.major || h.minor != h0.minor ||
		    h.be != h0.be) {
			ltrace_file_tail_error(f,
					       "%s: offset %llu: block %llu differs from block 0 "
					       "(buf_size %u, version %u.%u)",
					       f->path, (unsigned long long)off,
					       (unsigned long long)b, h.buf_size, h.major, h.minor);
			break;
		}
		if (h.lost_size != LV2_UNCLOSED && h.lost_size > h.buf_size - h.size) {
			ltrace_file_tail_error(f,
					       "%s: offset %llu: block %llu: lost_size %u leaves "
					       "no room for its header",
					       f->path, (unsigned long long)off,
					       (unsigned long long)b, h.lost_size);
			break;
		}
		blk = ltrace_add_block(f);
		if (!blk) {
			snprintf(err, errlen, "%s: out of memory", f->path);
			return -1;
		}
		blk->offset = off;
		blk->begin_tsc = h.begin;
		blk->end_tsc = h.end;
		blk->lost_size = h.lost_size;
		blk->number = (uint32_t)b;
		blk->events_lost = h.events_lost;
		blk->subbuf_corrupt = h.subbuf_corrupt;
	}
	if (!f->tail_error && f->size % h0.buf_size)
		ltrace_file_tail_error(f, "%s: offset %llu: partial block %llu (%llu of %u bytes)",
				       f->path, (unsigned long long)(nblocks * h0.buf_size),
				       (unsigned long long)nblocks,
				       (unsigned long long)(f->size % h0.buf_size), h0.buf_size);
	f->info.blocks = f->nblocks;
	f->info.block_size = h0.buf_size;
	ltrace_blocks_sort(f);
	(void)t;
	return 0;
}

static struct lv2_group *group_of(struct lv2_trace *p, const char *channel)
{
	for (size_t i = 0; i < p->ngroups; i++)
		if (strcmp(p->groups[i].channel, channel) == 0)
			return &p->groups[i];
	return NULL;
}

static int group_add(struct lv2_trace *p, const char *channel)
{
	struct lv2_group *g;

	if (group_of(p, channel))
		return 0;
	g = realloc(p->groups, (p->ngroups + 1) * sizeof(*g));
	if (!g)
		return -1;
	p->groups = g;
	g = &p->groups[p->ngroups];
	memset(g, 0, sizeof(*g));
	g->channel = strdup(channel);
	if (!g->channel)
		return -1;
	g->metadata = is_metadata(channel);
	p->ngroups++;
	return 0;
}

static int slot_set(struct lv2_group *g, uint16_t id, const struct ltt_class *cls,
		    const struct lv2_marker *mk)
{
	if (id >= g->nslots) {
		size_t n = (size_t)id + 1;
		struct lv2_slot *s = realloc(g->slots, n * sizeof(*s));

		if (!s)
			return -1;
		memset(s + g->nslots, 0, (n - g->nslots) * sizeof(*s));
		g->slots = s;
		g->nslots = n;
	}
	slot_plans_free(&g->slots[id]);
	g->slots[id].cls = cls;
	g->slots[id].mk = mk;
	g->slots[id].align = cls ? lv2_payload_align(cls->payload, &cls->abi) : 1;
	return 0;
}

/* The core classes of every metadata group. */
static int add_core_classes(struct ltt_trace *t, struct lv2_trace *p)
{
	struct ltt_abi abi = {
	    .int_size = 4,
	    .long_size = t->info.arch_size,
	    .pointer_size = t->info.arch_size,
	    .size_t_size = t->info.arch_size,
	    .alignment = t->info.alignment,
	    .big_endian = t->info.big_endian,
	    .float_big_endian = t->info.big_endian,
	};
	int v = t->info.minor >= 3;

	for (size_t i = 0; i < p->ngroups; i++) {
		struct lv2_group *g = &p->groups[i];
		const struct ltt_class *id, *fmt;

		if (!g->metadata)
			continue;
		id = ltrace_add_class(t, "core_marker_id", g->channel, NULL, 0, 0, &core_id_type[v],
				      &abi);
		fmt = ltrace_add_class(t, "core_marker_format", g->channel, NULL, 0, 1,
				       &core_format_type[v], &abi);
		if (!id || !fmt || slot_set(g, 0, id, NULL) || slot_set(g, 1, fmt, NULL))
			return -1;
	}
	return 0;
}

/* Does the tracefile group `group` carry the 2.3 channel `channel`? */
static bool group_carries(const char *group, const char *channel)
{
	return strcmp(group, channel) == 0 || strcmp(basename_of(group), channel) == 0;
}

/* The classes of the markers, per group (see the top of the file). */
static int add_marker_classes(struct ltt_trace *t, struct lv2_trace *p)
{
	bool per_channel = t->info.minor >= 3;

	for (size_t i = 0; i < p->meta.nids; i++) {
		const struct lv2_marker *mk = &p->meta.ids[i];
		const struct ltt_class *cls = NULL;

		if (mk->id < 2)
			continue; /* the core ids: fixed layouts */
		for (size_t j = 0; j < p->ngroups; j++) {
			struct lv2_group *g = &p->groups[j];

			if (g->metadata || (per_channel && !group_carries(g->channel, mk->channel)))
				continue;
			if (mk->payload && (!cls || !per_channel)) {
				cls = ltrace_add_class(t, mk->name,
						       per_channel ? mk->channel : g->channel, NULL,
						       0, mk->id, mk->payload, &mk->abi);
				if (!cls)
					return -1;
			}
			if (slot_set(g, mk->id, mk->payload ? cls : NULL, mk))
				return -1;
		}
	}
	return 0;
}

/* Registers one core event of the metadata channel. */
static int meta_event(struct ltt_trace *t, struct lv2_trace *p, const struct ltrace_file *f,
		      const struct ltt_event *ev, char *err, size_t errlen)
{
	bool with_channel = t->info.minor >= 3;
	char msg[512];
	long n;
	int st;

	msg[0] = '\0';
	if (ev->cls->event_id == 0) {
		struct lv2_set_id s;
		struct ltt_abi abi;

		n = lv2_decode_set_id(ev->payload, ev->len, 0, t->info.alignment, f->big_endian,
				      with_channel, &s, msg, sizeof(msg));
		if (n < 0)
			goto warn;
		abi = (struct ltt_abi){
		    .int_size = s.int_size,
		    .long_size = s.long_size,
		    .pointer_size = s.pointer_size,
		    .size_t_size = s.size_t_size,
		    .alignment = s.alignment,
		    .big_endian = f->big_endian,
		    .float_big_endian = f->big_endian,
		    .realign_after_string = false,
		};
		if (!s.name[0]) {
			snprintf(msg, sizeof(msg), "set_marker_id with an empty marker name");
			goto warn;
		}
		if (lv2_meta_set_id(&p->meta, s.channel, s.name, s.id, &abi, msg, sizeof(msg)))
			goto warn;
		return 0;
	} else {
		struct lv2_set_format s;

		n = lv2_decode_set_format(ev->payload, ev->len, with_channel, &s, msg, sizeof(msg));
		if (n < 0)
			goto warn;
		st = lv2_meta_set_format(&p->meta, s.channel, s.name, s.format, msg, sizeof(msg));
		if (st < 0) {
			snprintf(err, errlen, "%s: offset %llu: %s", f->path,
				 (unsigned long long)ev->offset, msg);
			return -1;
		}
		if (st > 0)
			goto warn;
		return 0;
	}
warn:
	ltrace_warn(t, "%s: offset %llu: %s", f->path, (unsigned long long)ev->offset, msg);
	return 0;
}

/* Reads every metadata tracefile to its end (2.5). */
static int read_metadata(struct ltt_trace *t, struct lv2_trace *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		struct ltrace_file *f = &t->files[i];
		struct ltt_cursor *c;
		struct ltt_event ev;
		const char *w;
		int st;

		if (!is_metadata(f->channel))
			continue;
		c = ltt_cursor_open(t, i);
		if (!c) {
			snprintf(err, errlen, "%s: out of memory", f->path);
			return -1;
		}
		while ((st = ltt_cursor_next(c, &ev)) > 0)
			if (meta_event(t, p, f, &ev, err, errlen)) {
				ltt_cursor_close(c);
				return -1;
			}
		/* the cursor's warnings, one trace warning per line */
		w = ltt_cursor_warning(c);
		while (w && *w) {
			const char *nl = strchr(w, '\n');
			int len = nl ? (int)(nl - w) : (int)strlen(w);

			ltrace_warn(t, "%.*s", len, w);
			w = nl ? nl + 1 : NULL;
		}
		if (st < 0)
			ltrace_warn(t, "%s (the markers described after it are unknown)",
				    ltt_cursor_error(c));
		ltt_cursor_close(c);
	}
	lv2_meta_resolve(&p->meta);
	return 0;
}

static void lv2_trace_free(struct ltt_trace *t)
{
	struct lv2_trace *p = t->priv;

	if (!p)
		return;
	for (size_t i = 0; i < p->ngroups; i++) {
		free(p->groups[i].channel);
		for (size_t k = 0; k < p->groups[i].nslots; k++)
			slot_plans_free(&p->groups[i].slots[k]);
		free(p->groups[i].slots);
	}
	free(p->groups);
	lv2_meta_free(&p->meta);
	free(p);
	t->priv = NULL;
}

static int lv2_cursor_open(struct ltt_cursor *c);
static int lv2_cursor_next(struct ltt_cursor *c, struct ltt_event *ev);
static void lv2_cursor_close(struct ltt_cursor *c);

static const struct ltrace_ops lv2_ops = {
    .cursor_open = lv2_cursor_open,
    .cursor_next = lv2_cursor_next,
    .cursor_close = lv2_cursor_close,
    .trace_free = lv2_trace_free,
};

/* The trace parameters, from block 0 of the first metadata file (2.2). */
static int set_info(struct ltt_trace *t, bool flight, char *err, size_t errlen)
{
	const struct ltrace_file *m = NULL;
	struct lv2_header h;

	for (size_t i = 0; i < t->nfiles && !m; i++)
		if (is_metadata(t->files[i].channel) && t->files[i].size)
			m = &t->files[i];
	if (!m) {
		snprintf(err, errlen,
			 "%s: no metadata_N tracefile with data (in control/ or the root)", t->dir);
		return -1;
	}
	if (header_parse(m->data, m->size, &h) < 0) {
		snprintf(err, errlen, "%s: offset 0: sub-buffer header truncated", m->path);
		return -1;
	}
	if (h.minor != 1 && h.minor != 3) {
		snprintf(err, errlen,
			 "%s: offset 21: trace version %u.%u not supported (compact format: 2.1 "
			 "and 2.3)",
			 m->path, h.major, h.minor);
		return -1;
	}
	if (h.alignment != 0 && h.alignment != 1 && h.alignment != 2 && h.alignment != 4 &&
	    h.alignment != 8) {
		snprintf(err, errlen, "%s: offset 23: alignment %u (0, 1, 2, 4 or 8 expected)",
			 m->path, h.alignment);
		return -1;
	}
	t->info.format = LTT_FORMAT_COMPACT;
	t->info.major = h.major;
	t->info.minor = h.minor;
	t->info.arch_size = h.arch_size;
	t->info.big_endian = h.be;
	t->info.flight_recorder = flight;
	t->info.alignment = h.alignment;
	t->info.has_heartbeat = false;
	t->info.start_freq = h.start_freq;
	t->info.freq_scale = h.freq_scale ? h.freq_scale : 1;
	t->info.start_tsc = h.begin;
	t->info.start_time_sec = h.start_sec;
	t->info.start_time_usec = h.start_usec;
	if (!h.start_freq)
		ltrace_warn(t, "%s: offset 40: start_freq is 0: every event at the start time",
			    m->path);
	return 0;
}

int lv2_load(struct ltt_trace *t, char *err, size_t errlen)
{
	struct load_state ls = {t, err, errlen, false, false};
	struct lv2_trace *p;

	if (errlen)
		err[0] = '\0';
	if (ltrace_walk(t->dir, add_file, &ls, err, errlen) < 0 || ls.failed)
		return -1;
	ltrace_sort_files(t);
	p = calloc(1, sizeof(*p));
	if (!p)
		goto nomem;
	t->priv = p;
	t->ops = &lv2_ops;
	if (set_info(t, ls.flight, err, errlen))
		return -1;
	for (size_t i = 0; i < t->nfiles; i++) {
		struct ltrace_file *f = &t->files[i];

		if (read_blocks(t, f, err, errlen))
			return -1;
		if (f->nblocks &&
		    (f->big_endian != t->info.big_endian || f->data[21] != t->info.minor)) {
			/* one version and byte order per trace: the others are refused */
			ltrace_file_tail_error(
			    f,
			    "%s: offset 0: version 2.%u %s-endian, the trace's is 2.%u %s-endian",
			    f->path, f->data[21], f->big_endian ? "big" : "little", t->info.minor,
			    t->info.big_endian ? "big" : "little");
			f->nblocks = 0;
		}
		if (group_add(p, f->channel))
			goto nomem;
	}
	for (size_t i = 0; i < t->nfiles; i++)
		t->files[i].priv = group_of(p, t->files[i].channel);
	if (add_core_classes(t, p) || read_metadata(t, p, err, errlen) < 0)
		return err[0] ? -1 : (snprintf(err, errlen, "%s: out of memory", t->dir), -1);
	if (add_marker_classes(t, p))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "%s: out of memory", t->dir);
	return -1;
}

/* --- cursor -------------------------------------------------------------- */

static int lv2_cursor_open(struct ltt_cursor *c)
{
	c->priv = calloc(1, sizeof(struct lv2_cursor));
	if (!c->priv) {
		snprintf(c->err, sizeof(c->err), "%s: out of memory", c->f->path);
		c->failed = true;
		return -1;
	}
	return 0;
}

static void lv2_cursor_close(struct ltt_cursor *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* Enters block c->block: its events' span, its TSC, the events lost before it (2.6). */
static void enter_block(struct ltt_cursor *c)
{
	struct lv2_cursor *lc = c->priv;
	const struct ltrace_block *b = &c->f->blocks[c->block];
	unsigned hdr = c->t->info.minor >= 3 ? LV2_HDR_23 : LV2_HDR_21;
	uint32_t buf_size = c->f->info.block_size;

	lc->block_off = b->offset;
	lc->unclosed = b->lost_size == LV2_UNCLOSED || b->end_tsc < b->begin_tsc;
	c->pos = b->offset + hdr;
	c->end = b->offset + buf_size - (lc->unclosed ? 0 : b->lost_size);
	c->tsc = b->begin_tsc;
	c->in_block = true;
	/*
	 * 2.6: the running totals' increase since the previous block. An
	 * unclosed block's totals were never written; a total that went down
	 * (by 2^31 or more as a wrapping difference) is not a loss of
	 * billions of events but a counter the writer restarted: both are
	 * ignored, the latter becoming the new base.
	 */
	if (c->t->info.minor >= 3 && !lc->unclosed) {
		uint32_t lost = b->events_lost - lc->prev_lost;
		uint32_t corrupt = b->subbuf_corrupt - lc->prev_corrupt;

		if (lost < 0x80000000u)
			lc->pending_lost += lost;
		if (corrupt && corrupt < 0x80000000u)
			ltrace_cursor_warn(c, b->offset, "%u sub-buffer(s) lost before block %u",
					   corrupt, b->number);
		lc->prev_lost = b->events_lost;
		lc->prev_corrupt = b->subbuf_corrupt;
	}
}

enum { EV_END = 0, EV_READ = 1, EV_SKIPPED = 2, EV_FAIL = -1 };

/* A fault in the block: fatal, or the end of an unclosed block's events. */
static int block_fault(struct ltt_cursor *c, uint64_t off, const char *what)
{
	struct lv2_cursor *lc = c->priv;

	if (lc->unclosed) {
		ltrace_cursor_warn(
		    c, lc->block_off,
		    "block %u was never closed: its events from offset %llu on are lost (%s)",
		    c->f->blocks[c->block].number, (unsigned long long)off, what);
		return EV_END;
	}
	return ltrace_cursor_fail(c, off, "%s", what);
}

/* Skips an event by the size its header gives, with a warning. */
static int skip_event(struct ltt_cursor *c, uint64_t data, uint32_t size, uint64_t hdr_off,
		      const char *why)
{
	char msg[512];

	if (data + size > c->end) {
		snprintf(msg, sizeof(msg), "%s; its size %u overruns its block (ends at %llu)", why,
			 size, (unsigned long long)c->end);
		return block_fault(c, hdr_off, msg);
	}
	ltrace_cursor_warn(c, hdr_off, "%s: skipped (%u bytes)", why, size);
	c->pos = data + size;
	return EV_SKIPPED;
}

/* One event of the current block (2.3). */
static int read_event(struct ltt_cursor *c, struct ltt_event *ev)
{
	struct lv2_cursor *lc = c->priv;
	const struct lv2_group *g = c->f->priv;
	const uint8_t *d = c->f->data;
	bool be = c->f->big_endian;
	unsigned a = c->t->info.alignment;
	uint64_t pos = c->pos, hdr_off, data;
	uint32_t word, id, size = 0;
	bool has_size = false;
	struct lv2_slot *slot = NULL;
	const struct ltt_plan *plan;
	char msg[512], perr[256];
	long n;

	if (pos >= c->end)
		return EV_END;
	pos += ltt_pad(pos - lc->block_off, min_align(a, 4));
	hdr_off = pos;
	if (pos + 4 > c->end)
		return block_fault(c, hdr_off, "event header past the end of its block");
	word = ltrace_u32(d + pos, be);
	pos += 4;
	/* the zeros of a block the writer never closed are not events (even in metadata) */
	if (word == 0 && lc->unclosed)
		return block_fault(c, hdr_off, "a zero event header");
	id = word >> LV2_TSC_BITS;
	if (id == 31) {
		if (pos + 2 > c->end)
			return block_fault(c, hdr_off, "event header past the end of its block");
		id = ltrace_u16(d + pos, be);
		pos += 2;
		c->tsc = ltrace_tsc_extend(c->tsc, word & 0x07FFFFFFu, LV2_TSC_BITS);
	} else if (id == 29 || id == 30) {
		bool full_tsc = id == 29;

		if (pos + 4 > c->end)
			return block_fault(c, hdr_off, "event header past the end of its block");
		id = ltrace_u16(d + pos, be);
		size = ltrace_u16(d + pos + 2, be);
		pos += 4;
		has_size = true;
		if (size == 0xFFFF) {
			if (pos + 4 > c->end)
				return block_fault(c, hdr_off,
						   "event header past the end of its block");
			size = ltrace_u32(d + pos, be);
			pos += 4;
		}
		if (full_tsc) {
			pos += ltt_pad(pos - lc->block_off, min_align(a, 8));
			if (pos + 8 > c->end)
				return block_fault(c, hdr_off,
						   "event header past the end of its block");
			c->tsc = ltrace_u64(d + pos, be);
			pos += 8;
		} else {
			c->tsc = ltrace_tsc_extend(c->tsc, word & 0x07FFFFFFu, LV2_TSC_BITS);
		}
	} else {
		c->tsc = ltrace_tsc_extend(c->tsc, word & 0x07FFFFFFu, LV2_TSC_BITS);
	}
	if (g && id < g->nslots)
		slot = &g->slots[id];
	if (!slot || !slot->cls) {
		if (slot && slot->mk)
			snprintf(msg, sizeof(msg), "event id %u (marker %s) has no usable format",
				 id, slot->mk->name);
		else if (id < 2 && !(g && g->metadata))
			snprintf(msg, sizeof(msg), "core event id %u outside the metadata channel",
				 id);
		else
			snprintf(msg, sizeof(msg), "event id %u has no marker description", id);
		if (has_size)
			return skip_event(c, pos, size, hdr_off, msg);
		return block_fault(c, hdr_off, msg);
	}
	data = pos + ltt_pad(pos - lc->block_off, slot->align);
	if (data > c->end)
		return block_fault(c, hdr_off, "event payload past the end of its block");
	perr[0] = '\0';
	plan = slot_plan(slot, data - lc->block_off);
	n = plan ? ltt_plan_size(plan, c->end - data) : -1;
	/* (the payload starts aligned on its largest field: base 0 would do as well) */
	if (n < 0) /* no plan, or too short for it: the walk says why */
		n = ltt_payload_size(slot->cls->payload, &slot->cls->abi, d + data, c->end - data,
				     data - lc->block_off, perr, sizeof(perr));
	if (n < 0) {
		snprintf(msg, sizeof(msg), "%s: %s", slot->cls->name,
			 perr[0] ? perr : "payload does not decode");
		if (has_size)
			return skip_event(c, data, size, hdr_off, msg);
		if (!lc->unclosed)
			snprintf(msg, sizeof(msg), "%s: %s (event size overruns its block?)",
				 slot->cls->name, perr[0] ? perr : "payload does not decode");
		return block_fault(c, hdr_off, msg);
	}
	if (has_size && (uint64_t)n != size) {
		snprintf(msg, sizeof(msg), "%s: the header's size %u differs from the format's %ld",
			 slot->cls->name, size, n);
		return skip_event(c, data, size, hdr_off, msg);
	}
	ev->cls = slot->cls;
	ev->tsc = c->tsc;
	ev->ns = ltrace_tsc_ns(&c->t->info, c->tsc);
	ev->payload = d + data;
	ev->len = (size_t)n;
	ev->base = (size_t)(data - lc->block_off);
	ev->offset = hdr_off;
	ev->lost_before = 0;
	ev->size_unchecked = false;
	c->pos = data + (uint64_t)n;
	return EV_READ;
}

static int lv2_cursor_next(struct ltt_cursor *c, struct ltt_event *ev)
{
	struct lv2_cursor *lc = c->priv;
	int st;

	if (c->failed)
		return -1;
	for (;;) {
		if (!c->in_block) {
			if (c->block >= c->f->nblocks) {
				if (c->f->tail_error) {
					/* already "PATH: offset OFF: what" */
					snprintf(c->err, sizeof(c->err), "%s", c->f->tail_error);
					c->failed = true;
					return -1;
				}
				return 0;
			}
			enter_block(c);
		}
		st = read_event(c, ev);
		if (st == EV_READ) {
			ev->lost_before = lc->pending_lost;
			lc->pending_lost = 0;
			return 1;
		}
		if (st == EV_FAIL)
			return -1;
		if (st == EV_END) {
			c->in_block = false;
			c->block++;
		}
	}
}
