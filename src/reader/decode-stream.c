/*
 * decode-stream.c - the stream reader: packets of a mapped stream file and
 * the events in them (see decode-stream.h).
 */
#include "reader/decode-stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/decode-jit.h"
#include "reader/decode-prog-impl.h"

/*
 * The bytes ctf_stream_run() reads at a time (see there) unless tuned
 * (ctf_stream_tune()): 256 KiB, which the guest's L2 cache holds (256 KiB
 * reads were the fastest of 64 KiB-4 MiB).
 */
#define WINDOW_DEFAULT ((size_t)256 << 10)

enum reader_state {
	STATE_NEED_PACKET = 0,
	STATE_IN_PACKET,
	STATE_DONE,
	STATE_FAILED,
};

/* Bodies cached per event ID below this; classes with larger IDs go the generic way. */
#define BODY_CACHE_IDS 4096

/*
 * An event class's body: stream.event.context, event.context and
 * event.fields (those declared) compiled into one program (decode-prog.h).
 */
struct event_body {
	bool built;
	bool flat; /* the program is flat: the fast path runs it (read_event_fast) */
	struct ctf_decode_prog *fixed_prog; /* prog when flat with a fixed layout, else NULL */
	const struct ctf_event_class *cls;  /* NULL: no class has this ID */
	struct ctf_decode_prog *prog;	    /* NULL: decoded scope by scope */
	unsigned int nscopes;
	enum ctf_scope scopes[3];
	struct ctf_value *roots[3]; /* the program's value of each scope */
	/* the same by scope, for the event (NULL: the scope is not there) */
	struct ctf_value *stream_context, *context, *payload;
};

/* An event header's option and an event class's body, decoded as one fixed run. */
struct fused_event {
	struct fixed_run run;
	/*
	 * Bits it needs before the content's end, from its aligned start:
	 * run.bits and the 64 bits of slack of the wide loads. UINT64_MAX
	 * in the two markers below, so that one comparison rules them out.
	 */
	uint64_t need;
	/* run as machine code, when the header starts on a byte (decode-jit.h) */
	ctf_jit_fn jit;	   /* NULL: none */
	ctf_jit_fn decode; /* jit, else ctf_jit_interpret */
	struct event_body *body;
	uint32_t option;		/* the header variant's */
	struct ctf_value *option_value; /* its value */
};

/* The fused_event of a tag that cannot have one, and of one not tried yet. */
static struct fused_event not_fused = {.need = UINT64_MAX};
static struct fused_event not_tried = {.need = UINT64_MAX};

/* What the reader precomputes per stream class, to find event IDs fast. */
struct ctf_stream_class_info {
	const struct ctf_clock *clock; /* the stream class's (ctf_stream_class.clock) */
	int id_field;		       /* index of the header's top-level `id`, -1 */
	int v_field;		       /* index of the header's top-level variant `v`, -1 */
	int *v_option_id;	       /* per option of `v`: index of `id` in it, -1 */
	/* the event header's program (NULL: none, or the generic decoder) and its value */
	bool header_built;
	struct ctf_decode_prog *header_prog;
	struct ctf_value *header_root;
	/*
	 * The fast path (read_event_fast), for headers whose program is
	 * tagged or flat: where the event ID lands in the program's values,
	 * per option of the tagged program's variant (NULL: that option has
	 * no ID), or at [0] for a flat one. fast_header: 0 none, 1 tagged, 2 flat.
	 */
	int fast_header;
	const struct ctf_value **id_value;
	/*
	 * For a fixed tagged header whose tag is the event ID (LTTng's
	 * compact events): per tag below BODY_CACHE_IDS, the header and the
	 * body with a fixed layout as one run (fuse_event()); &not_tried: not
	 * tried yet, &not_fused: cannot be. NULL array: none made yet.
	 */
	struct fused_event **fused;
	/*
	 * By event ID, BODY_CACHE_IDS of them, allocated on use: mapped pages,
	 * of which only those of the IDs met are ever touched (384 KiB from the
	 * heap were cleared for every stream file, and read through on closing:
	 * 1.5 ms per file on a guest where a new page costs).
	 */
	struct event_body *bodies;
	uint16_t *built; /* the IDs whose bodies were built, in that order */
	unsigned int nbuilt, cap_built;
};

#define BODIES_SIZE (BODY_CACHE_IDS * sizeof(struct event_body))

static int field_index(const struct ctf_type *t, const char *name)
{
	const struct ctf_field *f = ctf_struct_field(t, name);

	return f ? (int)(f - t->u.structure.fields) : -1;
}

static bool is_id_type(const struct ctf_type *t)
{
	return t->kind == CTF_TYPE_INTEGER || t->kind == CTF_TYPE_ENUM;
}

static int init_info(struct ctf_stream_class_info *info, const struct ctf_stream_class *sc)
{
	const struct ctf_type *h = sc->event_header;
	unsigned int i;

	info->clock = sc->clock;
	info->id_field = info->v_field = -1;
	info->v_option_id = NULL;
	if (!h || h->kind != CTF_TYPE_STRUCT)
		return 0;
	info->id_field = field_index(h, "id");
	if (info->id_field >= 0 && !is_id_type(h->u.structure.fields[info->id_field].type))
		info->id_field = -1;
	info->v_field = field_index(h, "v");
	if (info->v_field >= 0) {
		const struct ctf_type *v = h->u.structure.fields[info->v_field].type;

		if (v->kind != CTF_TYPE_VARIANT) {
			info->v_field = -1;
			return 0;
		}
		info->v_option_id = malloc((v->u.variant.option_count + 1) * sizeof(int));
		if (!info->v_option_id)
			return -1;
		for (i = 0; i < v->u.variant.option_count; i++) {
			const struct ctf_type *o = v->u.variant.options[i].type;
			int k = o->kind == CTF_TYPE_STRUCT ? field_index(o, "id") : -1;

			if (k >= 0 && !is_id_type(o->u.structure.fields[k].type))
				k = -1;
			info->v_option_id[i] = k;
		}
	}
	return 0;
}

static void index_path(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (slash)
		snprintf(buf, size, "%.*s/index/%s.idx", (int)(slash - path), path, slash + 1);
	else
		snprintf(buf, size, "index/%s.idx", path);
}

struct ctf_stream_reader *ctf_stream_open(const struct ctf_trace *trace, const char *path,
					  char *err, size_t errlen)
{
	struct ctf_stream_reader *r = calloc(1, sizeof(*r));
	struct stat st;
	char idx[4096], idx_err[256];
	unsigned int i;
	int fd = -1;

	if (r)
		r->fd = -1;
	if (!r || !(r->path = strdup(path)))
		goto oom;
	r->trace = trace;
	ctf_value_pool_init(&r->packet_pool);
	ctf_value_pool_init(&r->event_pool);
	r->info = calloc(trace->stream_count + 1, sizeof(*r->info));
	if (!r->info)
		goto oom;
	for (i = 0; i < trace->stream_count; i++)
		if (init_info(&r->info[i], trace->streams[i]))
			goto oom;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		goto fail;
	}
	r->file_size = (uint64_t)st.st_size;
	if (r->file_size) {
		void *m = mmap(NULL, r->file_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			snprintf(err, errlen, "%s: cannot map: %s", path, strerror(errno));
			goto fail;
		}
		madvise(m, r->file_size, MADV_SEQUENTIAL);
		r->map = m;
		r->win_size = WINDOW_DEFAULT;
		r->win = r->win_size ? malloc(r->win_size) : NULL; /* (NULL: the mapping is read) */
	}
	r->fd = fd;
	fd = -1;
	index_path(path, idx, sizeof(idx));
	if (ctf_packet_index_read(idx, r->file_size, &r->index, &r->index_count, idx_err,
				  sizeof(idx_err))) {
		r->index = NULL; /* absent or unusable: the packets are found by scanning */
		r->index_count = 0;
	}
	r->ctx.trace_byte_order = trace->byte_order;
	r->end_offset = r->file_size;
	r->release_pos = UINT64_MAX;
	r->state = r->file_size ? STATE_NEED_PACKET : STATE_DONE;
	return r;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
fail:
	if (fd >= 0)
		close(fd);
	ctf_stream_close(r);
	return NULL;
}

int ctf_stream_set_packets(struct ctf_stream_reader *r, size_t first, size_t end)
{
	if (!r->index || r->state != (r->file_size ? STATE_NEED_PACKET : STATE_DONE) ||
	    r->packet.stream_class || first > end)
		return -1;
	if (end > r->index_count)
		end = r->index_count;
	if (first > end)
		first = end;
	r->first_packet = first;
	r->next_offset = first < r->index_count ? r->index[first].offset : r->file_size;
	r->end_offset = end < r->index_count ? r->index[end].offset : r->file_size;
	r->released = r->next_offset & ~(uint64_t)4095;
	r->release_pos = UINT64_MAX;
	r->limited = true;
	r->state = r->next_offset < r->end_offset ? STATE_NEED_PACKET : STATE_DONE;
	return 0;
}

int ctf_stream_tune(struct ctf_stream_reader *r, const struct ctf_read_tuning *t)
{
	size_t size = t->window == 0			  ? WINDOW_DEFAULT
		      : t->window == CTF_READ_WINDOW_NONE ? 0
							  : t->window;

	r->no_jit = t->no_jit;
	if (!r->map || size == r->win_size)
		return 0;
	free(r->win);
	r->win_size = size;
	r->win_off = r->win_len = 0;
	r->win = size ? malloc(size) : NULL;
	return size && !r->win ? -1 : 0;
}

void ctf_stream_close(struct ctf_stream_reader *r)
{
	unsigned int i;

	if (!r)
		return;
	if (r->map)
		munmap((void *)r->map, r->file_size);
	if (r->fd >= 0)
		close(r->fd);
	free(r->win);
	ctf_jit_arena_free(&r->jit);
	if (r->info)
		for (i = 0; i < r->trace->stream_count; i++) {
			free(r->info[i].v_option_id);
			free(r->info[i].id_value);
			if (r->info[i].fused) {
				for (unsigned int k = 0; k < BODY_CACHE_IDS; k++) {
					struct fused_event *fu = r->info[i].fused[k];

					if (fu != &not_fused && fu != &not_tried) {
						free(fu->run.fields);
						free(fu);
					}
				}
				free(r->info[i].fused);
			}
			ctf_decode_prog_free(r->info[i].header_prog);
			for (unsigned int k = 0; k < r->info[i].nbuilt; k++)
				ctf_decode_prog_free(r->info[i].bodies[r->info[i].built[k]].prog);
			if (r->info[i].bodies)
				munmap(r->info[i].bodies, BODIES_SIZE);
			free(r->info[i].built);
		}
	free(r->info);
	free(r->index);
	ctf_value_pool_free(&r->packet_pool);
	ctf_value_pool_free(&r->event_pool);
	ctf_decode_ctx_release(&r->ctx);
	free(r->path);
	free(r);
}

static int fail_at(struct ctf_stream_reader *r, uint64_t bit, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records the error of the current packet (bit: from its start) and stops the reader. */
static int fail_at(struct ctf_stream_reader *r, uint64_t bit, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->error, sizeof(r->error), "%s: packet at byte %llu: bit %llu: %s", r->path,
		 (unsigned long long)r->packet.offset, (unsigned long long)bit, msg);
	r->state = STATE_FAILED;
	return CTF_STREAM_ERROR;
}

static int fail_decode(struct ctf_stream_reader *r)
{
	return fail_at(r, r->ctx.err_pos, "%s", r->ctx.err);
}

/* The unsigned integer field `name` of a struct value; false when absent or not an integer. */
static bool get_uint(const struct ctf_value *s, const char *name, uint64_t *out)
{
	const struct ctf_value *v = ctf_value_field(s, name);

	if (!v || v->type->kind != CTF_TYPE_INTEGER)
		return false;
	*out = v->u.u;
	return true;
}

static int check_header(struct ctf_stream_reader *r, const struct ctf_value *h,
			const struct ctf_stream_class **sc)
{
	const struct ctf_trace *t = r->trace;
	const struct ctf_value *uuid = ctf_value_field(h, "uuid");
	uint64_t v;

	if (get_uint(h, "magic", &v) && v != CTF_PACKET_MAGIC)
		return fail_at(r, 0, "bad packet magic 0x%08llX (expected 0x%08X)",
			       (unsigned long long)v, CTF_PACKET_MAGIC);
	/*
	 * A uuid that is not the trace's is read all the same, as Babeltrace 2
	 * reads it (it only checks that the field is 16 bytes).
	 */
	if (uuid && (uuid->type->kind == CTF_TYPE_ARRAY || uuid->type->kind == CTF_TYPE_SEQUENCE)) {
		bool text = uuid->type->kind == CTF_TYPE_ARRAY
				? ctf_type_is_text_element(uuid->type->u.array.element)
				: ctf_type_is_text_element(uuid->type->u.sequence.element);

		if ((text ? uuid->u.str.len : uuid->u.list.count) != 16)
			return fail_at(r, 0, "the packet header's uuid is not 16 bytes");
	}
	if (get_uint(h, "stream_id", &v)) {
		*sc = ctf_trace_stream(t, v);
		if (!*sc)
			return fail_at(r, 0, "no stream class with id %llu", (unsigned long long)v);
	}
	r->packet.has_stream_instance_id =
	    get_uint(h, "stream_instance_id", &r->packet.stream_instance_id);
	return 0;
}

static struct ctf_stream_class_info *info_of(struct ctf_stream_reader *r,
					     const struct ctf_stream_class *sc)
{
	unsigned int i;

	for (i = 0; i < r->trace->stream_count; i++)
		if (r->trace->streams[i] == sc)
			return &r->info[i];
	return &r->info[r->trace->stream_count]; /* not reached: zeroed, no clock */
}

/*
 * Gives back the pages of the mapping read already (the file stays in the
 * page cache): memory stays bounded whatever the size of the trace and of
 * its packets. At packet boundaries, and within a packet larger than the
 * step as its events are read. A page given back and read again (a string
 * of the packet's context can be) is read from the file again: the mapping
 * is private and never written. In steps of 1 MiB or more: one madvise()
 * per step (4 MiB before: the same time, 8-14 MiB more peak RSS for `trax
 * view` with its two readers of a two-stream trace).
 */
#define RELEASE_STEP ((uint64_t)1 << 20)

static void release_read_pages_upto(struct ctf_stream_reader *r, uint64_t end)
{
	uint64_t upto = end & ~(uint64_t)4095;

	if (!r->map || upto < r->released + RELEASE_STEP)
		return;
	madvise((void *)(r->map + r->released), upto - r->released, MADV_DONTNEED);
	r->released = upto;
}

static void release_read_pages(struct ctf_stream_reader *r)
{
	release_read_pages_upto(r, r->next_offset);
}

/* Where in the current packet (bits) the next release within it is due. */
static void arm_release(struct ctf_stream_reader *r)
{
	const uint64_t at = r->released + RELEASE_STEP + 4096;

	r->release_pos = r->map && at > r->packet.offset && at < r->next_offset
			     ? (at - r->packet.offset) * 8
			     : UINT64_MAX;
}

/* A packet larger than the step: the pages before the current event go back. */
static __attribute__((noinline)) void release_in_packet(struct ctf_stream_reader *r)
{
	if (r->state == STATE_IN_PACKET)
		release_read_pages_upto(r, r->packet.offset + r->ctx.pos / 8);
	arm_release(r);
}

/* Decodes the header and context of the packet at r->next_offset. */
static int read_packet(struct ctf_stream_reader *r)
{
	struct ctf_packet *p = &r->packet;
	struct ctf_decode_ctx *c = &r->ctx;
	const struct ctf_trace *t = r->trace;
	const struct ctf_stream_class *sc = NULL;
	const struct ctf_packet_index_entry *ie = NULL;
	uint64_t avail, ps, cs, index = p->stream_class ? p->index + 1 : r->first_packet;
	bool has_ps, has_cs;
	struct ctf_value *v;
	unsigned int i;

	release_read_pages(r);
	memset(p, 0, sizeof(*p));
	p->index = index;
	p->offset = r->next_offset;
	avail = (r->file_size - p->offset) * 8;
	ctf_value_pool_reset(&r->packet_pool);
	c->buf = r->map + p->offset;
	c->pos = 0;
	c->limit = avail;
	c->pool = &r->packet_pool;
	for (i = 0; i < CTF_SCOPE_COUNT; i++)
		c->roots[i] = NULL;
	if (t->packet_header) {
		if (ctf_decode_scope(c, CTF_SCOPE_PACKET_HEADER, t->packet_header, &v))
			return fail_decode(r);
		p->header = v;
		if (check_header(r, v, &sc))
			return CTF_STREAM_ERROR;
	}
	if (!sc) {
		if (t->stream_count != 1)
			return fail_at(r, c->pos,
				       "no stream_id in the packet header and %u stream classes",
				       t->stream_count);
		sc = t->streams[0];
	}
	p->stream_class = sc;
	r->cur_info = info_of(r, sc);
	p->clock = r->cur_info->clock;
	if (sc->packet_context) {
		if (ctf_decode_scope(c, CTF_SCOPE_PACKET_CONTEXT, sc->packet_context, &v))
			return fail_decode(r);
		p->context = v;
	}
	has_ps = get_uint(p->context, "packet_size", &ps);
	has_cs = get_uint(p->context, "content_size", &cs);
	p->has_timestamp_begin = get_uint(p->context, "timestamp_begin", &p->timestamp_begin);
	p->has_timestamp_end = get_uint(p->context, "timestamp_end", &p->timestamp_end);
	p->has_events_discarded = get_uint(p->context, "events_discarded", &p->events_discarded);
	p->has_packet_seq_num = get_uint(p->context, "packet_seq_num", &p->packet_seq_num);
	if (r->index && index < r->index_count)
		ie = &r->index[index];
	if (!has_ps) {
		if (has_cs)
			ps = (cs + 7) / 8 * 8;
		else if (ie && ie->offset == p->offset)
			ps = ie->packet_size; /* the index knows where the packet ends */
		else
			ps = avail;
	}
	if (!has_cs)
		cs = ps;
	if (ps == 0)
		return fail_at(r, c->pos, "packet size is 0");
	if (ps % 8)
		return fail_at(r, c->pos, "packet size %llu bits is not a whole number of bytes",
			       (unsigned long long)ps);
	if (ps > avail)
		return fail_at(
		    r, c->pos,
		    "packet size %llu bits is larger than the %llu bits left in the file",
		    (unsigned long long)ps, (unsigned long long)avail);
	if (cs > ps)
		return fail_at(r, c->pos, "content size %llu bits is larger than packet size %llu",
			       (unsigned long long)cs, (unsigned long long)ps);
	if (c->pos > cs)
		return fail_at(r, c->pos,
			       "the packet header and context (%llu bits) exceed the content size "
			       "%llu bits",
			       (unsigned long long)c->pos, (unsigned long long)cs);
	p->packet_size = ps;
	p->content_size = cs;
	/* An index that disagrees with the packets is not trusted any further. */
	if (r->index &&
	    (!ie || ie->offset != p->offset || ie->packet_size != ps || ie->content_size != cs)) {
		free(r->index);
		r->index = NULL;
		r->index_count = 0;
	}
	/* Mapped fields of the context updated the clock; the packet starts at its beginning. */
	if (p->has_timestamp_begin)
		c->clock = p->timestamp_begin;
	c->limit = cs;
	r->next_offset = p->offset + ps / 8;
	/* (so the part ends where the next one starts, whatever the index says) */
	if (r->next_offset > r->end_offset)
		return fail_at(r, 0,
			       "the packet crosses the end of the packets to read (byte %llu)",
			       (unsigned long long)r->end_offset);
	r->state = STATE_IN_PACKET;
	arm_release(r);
	return CTF_STREAM_PACKET;
}

/* The event class ID in a decoded event header, false when it has none. */
static bool event_id(const struct ctf_stream_class_info *info, const struct ctf_value *h,
		     uint64_t *id)
{
	bool found = false;

	if (info->id_field >= 0) {
		*id = h->u.list.items[info->id_field].u.u;
		found = true;
	}
	/* LTTng's compact and extended headers: the ID in the variant `v` wins. */
	if (info->v_field >= 0) {
		const struct ctf_value *v = &h->u.list.items[info->v_field];
		int k = info->v_option_id[v->u.variant.option];

		if (k >= 0) {
			*id = v->u.variant.value->u.list.items[k].u.u;
			found = true;
		}
	}
	return found;
}

/* The body of event class ID id of the packet's stream class, NULL when not cached. */
static struct event_body *body_of(struct ctf_stream_reader *r, struct ctf_stream_class_info *info,
				  uint64_t id)
{
	const struct ctf_stream_class *sc = r->packet.stream_class;
	const struct ctf_type *types[3];
	struct event_body *b;

	if (id >= BODY_CACHE_IDS)
		return NULL;
	if (!info->bodies) {
		void *m = mmap(NULL, BODIES_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return NULL;
		info->bodies = m;
	}
	b = &info->bodies[id];
	if (b->built)
		return b;
	if (info->nbuilt == info->cap_built) {
		unsigned int cap = info->cap_built ? 2 * info->cap_built : 16;
		uint16_t *n = realloc(info->built, cap * sizeof(*n));

		if (!n)
			return NULL;
		info->built = n;
		info->cap_built = cap;
	}
	info->built[info->nbuilt++] = (uint16_t)id;
	b->built = true;
	b->cls = ctf_stream_event(sc, id);
	if (!b->cls)
		return b;
	if (sc->event_context) {
		types[b->nscopes] = sc->event_context;
		b->scopes[b->nscopes++] = CTF_SCOPE_EVENT_COMMON_CONTEXT;
	}
	if (b->cls->context) {
		types[b->nscopes] = b->cls->context;
		b->scopes[b->nscopes++] = CTF_SCOPE_EVENT_CONTEXT;
	}
	if (b->cls->fields) {
		types[b->nscopes] = b->cls->fields;
		b->scopes[b->nscopes++] = CTF_SCOPE_EVENT_FIELDS;
	}
	if (b->nscopes)
		b->prog =
		    ctf_decode_prog_build(types, b->scopes, b->nscopes, r->ctx.trace_byte_order);
	b->flat = b->prog && b->prog->flat;
	b->fixed_prog = b->flat && b->prog->fixed ? b->prog : NULL;
	for (unsigned int i = 0; b->prog && i < b->nscopes; i++) {
		b->roots[i] = ctf_decode_prog_root(b->prog, i);
		if (b->scopes[i] == CTF_SCOPE_EVENT_COMMON_CONTEXT)
			b->stream_context = b->roots[i];
		else if (b->scopes[i] == CTF_SCOPE_EVENT_CONTEXT)
			b->context = b->roots[i];
		else
			b->payload = b->roots[i];
	}
	return b;
}

/*
 * Compiles the stream class's event header, and finds where its program
 * leaves the event ID for the fast path (see fast_header).
 */
static void build_header(struct ctf_stream_class_info *info, const struct ctf_stream_class *sc,
			 enum ctf_byte_order trace_bo)
{
	const enum ctf_scope hs = CTF_SCOPE_EVENT_HEADER;
	struct ctf_decode_prog *p;
	struct ctf_value *h;

	info->header_built = true;
	p = info->header_prog = ctf_decode_prog_build(&sc->event_header, &hs, 1, trace_bo);
	if (!p)
		return;
	h = info->header_root = ctf_decode_prog_root(p, 0);
	if (p->tagged && info->v_field >= 0 &&
	    &h->u.list.items[info->v_field] == &p->slots[p->ops[1].slot]) {
		unsigned int n = p->variants[p->ops[1].aux].vt->option_count;

		info->id_value = calloc(n, sizeof(*info->id_value));
		if (!info->id_value)
			return;
		/* as event_id(): the ID in the option wins over a top-level one */
		for (unsigned int k = 0; k < n; k++)
			if (info->v_option_id[k] >= 0)
				info->id_value[k] =
				    &p->tagged_options[k].value->u.list.items[info->v_option_id[k]];
			else if (info->id_field >= 0)
				info->id_value[k] = &h->u.list.items[info->id_field];
		info->fast_header = 1;
	} else if (p->flat && info->v_field < 0 && info->id_field >= 0) {
		info->id_value = calloc(1, sizeof(*info->id_value));
		if (!info->id_value)
			return;
		info->id_value[0] = &h->u.list.items[info->id_field];
		info->fast_header = 2;
	}
}

/* The body's scopes one by one, the generic way. */
static int read_body(struct ctf_stream_reader *r)
{
	struct ctf_decode_ctx *c = &r->ctx;
	struct ctf_event *e = &r->event;
	const struct ctf_stream_class *sc = r->packet.stream_class;
	struct ctf_value *v;

	if (sc->event_context) {
		if (ctf_decode_scope(c, CTF_SCOPE_EVENT_COMMON_CONTEXT, sc->event_context, &v))
			return fail_decode(r);
		e->stream_context = v;
	}
	if (e->cls->context) {
		if (ctf_decode_scope(c, CTF_SCOPE_EVENT_CONTEXT, e->cls->context, &v))
			return fail_decode(r);
		e->context = v;
	}
	if (e->cls->fields) {
		if (ctf_decode_scope(c, CTF_SCOPE_EVENT_FIELDS, e->cls->fields, &v))
			return fail_decode(r);
		e->payload = v;
	}
	return 0;
}

static int read_event(struct ctf_stream_reader *r)
{
	struct ctf_decode_ctx *c = &r->ctx;
	struct ctf_event *e = &r->event;
	const struct ctf_stream_class *sc = r->packet.stream_class;
	struct ctf_stream_class_info *info = r->cur_info;
	uint64_t start = c->pos, id = 0, header_clock;
	struct event_body *body = NULL;
	struct ctf_value *v;
	int st;

	r->body_prog = NULL;
	e->cls = NULL;
	e->bit_offset = start;
	e->header = e->stream_context = e->context = e->payload = NULL;
	ctf_value_pool_reset(&r->event_pool);
	c->pool = &r->event_pool;
	c->roots[CTF_SCOPE_EVENT_HEADER] = NULL;
	c->roots[CTF_SCOPE_EVENT_COMMON_CONTEXT] = NULL;
	c->roots[CTF_SCOPE_EVENT_CONTEXT] = NULL;
	c->roots[CTF_SCOPE_EVENT_FIELDS] = NULL;
	if (sc->event_header) {
		if (!info->header_built)
			build_header(info, sc, c->trace_byte_order);
		st = info->header_prog ? ctf_decode_prog_run(info->header_prog, c) : 1;
		if (st < 0)
			return fail_decode(r);
		if (st == 0)
			e->header = info->header_root;
		else if (ctf_decode_scope(c, CTF_SCOPE_EVENT_HEADER, sc->event_header, &v))
			return fail_decode(r);
		else
			e->header = v;
	}
	header_clock = c->clock; /* the event's time (decode-stream.h, clock_value) */
	if (!e->header || !event_id(info, e->header, &id)) {
		if (sc->event_count != 1)
			return fail_at(r, start, "event without an id among %u event classes",
				       sc->event_count);
		e->cls = sc->events[0];
		id = e->cls->id;
	} else {
		body = id < BODY_CACHE_IDS && info->bodies && info->bodies[id].built
			   ? &info->bodies[id]
			   : body_of(r, info, id);
		e->cls = body ? body->cls : ctf_stream_event(sc, id);
		if (!e->cls)
			return fail_at(r, start, "no event class with id %llu in stream class %llu",
				       (unsigned long long)id, (unsigned long long)sc->id);
	}
	if (!body && id < BODY_CACHE_IDS && e->cls->id == id)
		body = body_of(r, info, id);
	st = 1;
	if (body && body->prog) {
		st = ctf_decode_prog_run(body->prog, c);
		if (st < 0)
			return fail_decode(r);
		if (st == 0) {
			e->stream_context = body->stream_context;
			e->context = body->context;
			e->payload = body->payload;
		}
	}
	/* no program, or it gave up: the generic decoder (which names any fault) */
	if (st > 0 && read_body(r))
		return CTF_STREAM_ERROR;
	/* An event of no bits would be read again forever. */
	if (c->pos == start)
		return fail_at(r, start, "event \"%s\" takes no bits: the packet cannot be read",
			       e->cls->name ? e->cls->name : "?");
	e->has_clock = r->packet.clock != NULL;
	e->clock_value = header_clock;
	return CTF_STREAM_EVENT;
}

/*
 * Tries to make the fused event of tag `tag` (option o of the fixed tagged
 * header, the body with a fixed layout): not_fused when it cannot be.
 */
static __attribute__((noinline)) void fuse_event(struct ctf_stream_class_info *info,
						 struct ctf_jit_arena *jit, uint32_t o,
						 uint64_t tag, struct event_body *body)
{
	const struct ctf_decode_prog *hp = info->header_prog;
	struct fused_event *fu;

	if (!info->fused) {
		info->fused = malloc(BODY_CACHE_IDS * sizeof(*info->fused));
		if (!info->fused)
			return;
		for (unsigned int k = 0; k < BODY_CACHE_IDS; k++)
			info->fused[k] = &not_tried;
	}
	fu = calloc(1, sizeof(*fu));
	if (!fu || !ctf_prog_fuse_run(hp, o, body->fixed_prog, &fu->run)) {
		if (fu)
			free(fu->run.fields);
		free(fu);
		info->fused[tag] = &not_fused;
		return;
	}
	fu->need = (uint64_t)fu->run.bits + 64;
	if (jit && hp->fixed_align_mask >= 7)
		fu->jit = ctf_jit_compile(jit, &fu->run);
	fu->decode = fu->jit ? fu->jit : ctf_jit_interpret;
	fu->body = body;
	fu->option = o;
	fu->option_value = hp->tagged_options[o].value;
	info->fused[tag] = fu;
}

/*
 * The common event, straight: a tagged or flat header program, the ID from
 * it, a flat body program already built, far enough from the content's end
 * for the programs' wide loads. 0 when the event is not one of those (or
 * is damaged): nothing was consumed and read_event() takes it from the
 * start, naming any fault. Reads no pool and resets nothing per event: the
 * programs' values are the event's.
 */
static inline __attribute__((always_inline)) int read_event_fast(struct ctf_stream_reader *r)
{
	struct ctf_decode_ctx *c = &r->ctx;
	struct ctf_stream_class_info *info = r->cur_info;
	struct ctf_decode_prog *hp = info->header_prog;
	struct ctf_event *e = &r->event;
	const uint64_t start = c->pos, start_clock = c->clock;
	const struct ctf_value *idv;
	struct event_body *body;
	uint64_t id, header_clock;

	int option = 0;

	c->roots[CTF_SCOPE_EVENT_HEADER] = info->header_root;
	if (info->fused) {
		/* the tag, then header and body as one run when they were fused */
		const uint64_t limit = c->limit, pos = (start + hp->fixed_align_mask) &
						       ~(uint64_t)hp->fixed_align_mask;

		if (pos <= limit && limit - pos >= (uint64_t)hp->fixed_bits + 64) {
			const struct fixed_field *tf = &hp->run.fields[0];
			const struct fused_event *fu;
			uint64_t at = pos + tf->off, w, tag, clock = start_clock;

			memcpy(&w, c->buf + at / 8, sizeof(w));
			tag = (w >> (at % 8)) & tf->mask;
			if (tag < BODY_CACHE_IDS && limit - pos >= (fu = info->fused[tag])->need) {
				if (fu->jit)
					clock = fu->jit(c->buf + pos / 8, clock, &fu->run);
				else
					fixed_run_decode(&fu->run, c->buf, pos, &clock);
				hp->tag_value->u.u = tag;
				hp->variant_value->u.variant.option = fu->option;
				hp->variant_value->u.variant.value = fu->option_value;
				c->pos = pos + fu->run.bits;
				c->clock = header_clock = clock; /* (the body maps nothing to it) */
				body = fu->body;
				goto decoded;
			}
		}
	}
	if (hp->fixed) {
		if (ctf_prog_run_fixed(hp, c, &option))
			return 0;
	} else if (info->fast_header == 1) {
		if ((option = ctf_prog_run_tagged(hp, c)) < 0)
			return 0;
	} else if (ctf_prog_run_flat(hp, c)) {
		return 0;
	}
	header_clock = c->clock;
	idv = info->id_value[option];
	if (!idv || (id = idv->u.u) >= BODY_CACHE_IDS || !info->bodies)
		goto give_up;
	body = &info->bodies[id];
	if (__builtin_expect(body->fixed_prog != NULL, 1)) {
		if (ctf_prog_run_fixed(body->fixed_prog, c, &option))
			goto give_up;
	} else if (!body->flat || ctf_prog_run_flat(body->prog, c)) {
		goto give_up;
	}
	if (c->pos == start)
		goto give_up;
	/* a compact event: header and body as one run from the next one on */
	if (idv == hp->tag_value && hp->fixed && body->fixed_prog && !r->no_fused_events &&
	    (!info->fused || info->fused[id] == &not_tried))
		fuse_event(info, r->no_jit ? NULL : &r->jit, (uint32_t)option, id, body);
decoded:
	r->body_prog = body->fixed_prog;
	e->cls = body->cls;
	e->bit_offset = start;
	e->header = info->header_root;
	e->stream_context = body->stream_context;
	e->context = body->context;
	e->payload = body->payload;
	e->has_clock = r->packet.clock != NULL;
	e->clock_value = header_clock;
	return CTF_STREAM_EVENT;
give_up:
	c->pos = start;
	c->clock = start_clock;
	return 0;
}

/*
 * Fills the window from file byte `from` on (rounded down to a cache
 * line): false when that brings no byte past `end`, the window's end
 * before (a file shorter than its packets said, or a failed read).
 */
static bool window_fill(struct ctf_stream_reader *r, uint64_t from, uint64_t end)
{
	const uint64_t at = from & ~(uint64_t)63;
	ssize_t n = pread(r->fd, r->win, r->win_size, (off_t)at);

	if (n <= 0 || at + (uint64_t)n <= end)
		return false;
	r->win_off = at;
	r->win_len = (uint64_t)n;
	return true;
}

/* Where the run reads: wb[k] is the packet's byte bias + k, up to limit (bits). */
struct run_window {
	const uint8_t *wb;
	int64_t bias, limit;
};

static inline void run_window_set(struct run_window *w, const struct ctf_stream_reader *r)
{
	const int64_t plimit = (int64_t)r->ctx.limit;

	if (!r->win) {
		w->wb = r->ctx.buf;
		w->bias = 0;
		w->limit = plimit;
		return;
	}
	w->wb = r->win;
	w->bias = (int64_t)r->win_off - (int64_t)r->packet.offset;
	w->limit = (w->bias + (int64_t)r->win_len) * 8;
	if (w->limit > plimit)
		w->limit = plimit;
}

/*
 * The fused events that follow, in a loop that keeps the reader's position
 * and clock in registers and sets the event's presentation (class, scopes,
 * the header's variant) only when the class changes: what
 * read_event_fast() does for one fused event, without the calls and
 * reloads around each one. Anything else ends the run before the event it
 * cannot take, which ctf_stream_next() then reads from the same place.
 *
 * The loop reads the file through its window, a copy made by pread(), not
 * through the mapping: a page of the mapping costs a page fault, and on
 * guests whose page tables the host shadows that fault costs more than
 * copying the page (the benchmark's 180 MB trace: 72-90 ms of faults
 * against 21 ms of copies, in 256 KiB reads, on such a guest). The rest of
 * the reader (packet headers, unusual events) reads the mapping, which
 * holds the same bytes.
 */
int ctf_stream_run(struct ctf_stream_reader *r, struct ctf_stream_run *run)
{
	struct ctf_decode_ctx *c = &r->ctx;
	struct ctf_stream_class_info *info = r->cur_info;

	if (__builtin_expect(c->pos >= r->release_pos, 0))
		release_in_packet(r);
	/* (headers that start on a byte: fu->decode takes the byte) */
	if (r->state != STATE_IN_PACKET || !info || !info->fused || !r->packet.clock ||
	    info->header_prog->fixed_align_mask < 7)
		return CTF_RUN_STOPPED;

	struct ctf_decode_prog *hp = info->header_prog;
	struct fused_event *const *const fused = info->fused;
	const int64_t plimit = (int64_t)c->limit, need = (int64_t)hp->fixed_bits + 64;
	const uint64_t amask = hp->fixed_align_mask;
	const uint64_t toff = hp->run.fields[0].off, tmask = hp->run.fields[0].mask;
	const int64_t base = run->base;
	int (*const visit)(void *, struct ctf_ss_stream *) = run->visit;
	void *const ctx = run->ctx;
	struct ctf_ss_stream *const item = run->item;
	int64_t *const ns_out = run->ns_out;
	struct ctf_event *e = &r->event;
	/* the class of the event before, and what the loop needs of it */
	const struct fused_event *prev = NULL;
	uint64_t run_need = UINT64_MAX, run_bits = 0;
	ctf_jit_fn decode = ctf_jit_interpret;
	const struct fixed_run *frun = NULL;
	uint64_t pos = c->pos, clock = c->clock, lo, hi;
	struct run_window w;
	int ret = CTF_RUN_STOPPED;

	/*
	 * An event is taken when its time, base + clock, is in [last_ns,
	 * bound) and fits an int64_t: when its clock value is in [lo, hi),
	 * computed once here. Its clock then becomes lo, the next event's
	 * time being at least this one's.
	 */
	{
		__int128 l = (__int128)run->last_ns - base, h = (__int128)run->bound - base;

		if (h > (__int128)INT64_MAX - base + 1)
			h = (__int128)INT64_MAX - base + 1;
		if (h > (__int128)INT64_MAX + 1)
			h = (__int128)INT64_MAX + 1;
		lo = l < 0 ? 0 : (uint64_t)l;
		hi = h < (__int128)lo ? lo : (uint64_t)h;
	}
	run_window_set(&w, r);
	if (r->win && (int64_t)(pos / 8) < w.bias) {
		/* (a window ahead of the event: read it again from here) */
		r->win_len = 0;
		run_window_set(&w, r);
	}
	c->roots[CTF_SCOPE_EVENT_HEADER] = info->header_root;
	for (;;) {
		const uint64_t start = pos, at0 = (pos + amask) & ~amask, at = at0 + toff;
		const uint8_t *ev;
		const struct fused_event *fu;
		uint64_t w64, tag, room;

		if (w.limit - (int64_t)at0 < need)
			goto refill;
		room = (uint64_t)(w.limit - (int64_t)at0);
		ev = w.wb + ((int64_t)(at0 / 8) - w.bias);
		memcpy(&w64, ev + toff / 8, sizeof(w64));
		tag = (w64 >> (at % 8)) & tmask;
		if (tag >= BODY_CACHE_IDS)
			break;
		fu = fused[tag];
		/*
		 * The class of the event before (most events): its size and code
		 * are in registers, so the next event's position does not wait
		 * for this one's tag and class to load (the branch is predicted).
		 */
		if (__builtin_expect(fu != prev, 0)) {
			/*
			 * A class decoded outside runs (need UINT64_MAX) stops
			 * the run: a refill would not make it fit, and once cost
			 * a window's pread per such event in packets larger than
			 * the window (30 times slower on 1 MiB packets).
			 */
			if (fu->need == UINT64_MAX)
				break;
			if (room < fu->need)
				goto refill;
			hp->tag_value->u.u = tag;
			hp->variant_value->u.variant.option = fu->option;
			hp->variant_value->u.variant.value = fu->option_value;
			r->body_prog = fu->body->fixed_prog;
			e->cls = fu->body->cls;
			e->header = info->header_root;
			e->stream_context = fu->body->stream_context;
			e->context = fu->body->context;
			e->payload = fu->body->payload;
			e->has_clock = true;
			prev = fu;
			run_need = fu->need;
			run_bits = fu->run.bits;
			decode = fu->decode;
			frun = &fu->run;
		} else if (room < run_need) {
			goto refill;
		}
		/* (the header's alignment puts at0 on a byte; the body maps nothing to the clock)
		 */
		clock = decode(ev, clock, frun);
		pos = at0 + run_bits;
		e->bit_offset = start;
		e->clock_value = clock;
		if (__builtin_expect(clock - lo >= hi - lo, 0)) {
			ret = CTF_RUN_EVENT;
			break;
		}
		lo = clock;
		*ns_out = base + (int64_t)clock;
		if (__builtin_expect((run->visit_status = visit(ctx, item)) != 0, 0)) {
			ret = CTF_RUN_VISITOR;
			break;
		}
		continue;
	refill:
		/* the window's end, not the packet's: the window moves to this event */
		if (!r->win || w.limit >= plimit ||
		    !window_fill(r, r->packet.offset + at0 / 8, r->win_off + r->win_len))
			break;
		run_window_set(&w, r);
	}
	c->pos = pos;
	c->clock = clock;
	return ret;
}

void ctf_stream_skip_packet(struct ctf_stream_reader *r)
{
	if (r->state == STATE_IN_PACKET)
		r->ctx.pos = r->ctx.limit;
}

int ctf_stream_skip_to_packet(struct ctf_stream_reader *r, size_t k)
{
	struct ctf_packet *p = &r->packet;

	if (!r->index || !p->stream_class || k >= r->index_count || k <= p->index ||
	    (r->state != STATE_IN_PACKET && r->state != STATE_NEED_PACKET) ||
	    r->index[k].offset < r->next_offset || r->index[k].offset >= r->end_offset)
		return -1;
	p->index = k - 1; /* (read_packet() numbers the next one k) */
	r->next_offset = r->index[k].offset;
	r->ctx.pos = r->ctx.limit;
	r->state = STATE_NEED_PACKET;
	return 0;
}

/* Everything but the common event: packets, the end, errors, unusual events. */
static __attribute__((noinline)) int stream_next_slow(struct ctf_stream_reader *r)
{
	for (;;) {
		switch (r->state) {
		case STATE_FAILED:
			return CTF_STREAM_ERROR;
		case STATE_DONE:
			return CTF_STREAM_END;
		case STATE_NEED_PACKET:
			if (r->next_offset >= r->end_offset) {
				r->state = STATE_DONE;
				return CTF_STREAM_END;
			}
			return read_packet(r);
		case STATE_IN_PACKET:
			if (r->ctx.pos < r->ctx.limit)
				return read_event(r);
			r->state = STATE_NEED_PACKET;
			break;
		}
	}
}

int ctf_stream_next(struct ctf_stream_reader *r)
{
	if (__builtin_expect(r->ctx.pos >= r->release_pos, 0))
		release_in_packet(r);
	if (__builtin_expect(r->state == STATE_IN_PACKET && r->ctx.pos < r->ctx.limit &&
				 r->cur_info->fast_header,
			     1)) {
		int st = read_event_fast(r);

		if (st)
			return st;
	}
	return stream_next_slow(r);
}
