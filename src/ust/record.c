/*
 * record.c - the fast path: reserve a record in the current CPU's buffer of
 * a channel, write the compact (or extended) event header and the context,
 * and later commit it.
 */
#include <errno.h>
#include <time.h>

#include "common/cpu.h"
#include "common/log.h"
#include "writer/packet.h"
#include "ust/ust.h"

/* Waits for room in blocking mode; returns the last reservation result. */
static int __attribute__((noinline))
reserve_blocking(struct trax_channel *ch, struct ringbuf *rb, struct ringbuf_slot *slot, size_t ls,
		 size_t ll)
{
	int64_t limit = ch->attr.blocking_timeout_us;
	struct timespec pause = {0, 20000}, start, now;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		nanosleep(&pause, NULL);
		ret = ringbuf_reserve(rb, slot, ls, ll);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (ret == -ENOBUFS &&
		 (limit < 0 ||
		  (now.tv_sec - start.tv_sec) * 1000000 + (now.tv_nsec - start.tv_nsec) / 1000 <
		      limit) &&
		 __atomic_load_n(__atomic_load_n(&ch->active, __ATOMIC_RELAXED), __ATOMIC_RELAXED));
	return ret;
}

static void __attribute__((noinline))
record_lost(struct trax_channel *ch, struct ringbuf *rb, const struct trax_binding *b, int err,
	    size_t payload)
{
	ringbuf_count_lost(rb, err == -E2BIG);
	if (err == -E2BIG && trax_debug_enabled) {
		const char *name = b->event_id < ch->nr_events && ch->events
				       ? ch->events[b->event_id].cls->name
				       : "?";

		if (payload >= ((size_t)-1 >> 4))
			trax_debug("event %s dropped: a sequence length is negative or larger than "
				   "%zu elements",
				   name, TRAX_MAX_SEQUENCE_LEN);
		else
			trax_debug("event %s dropped: %zu bytes of payload do not fit in a "
				   "sub-buffer of %llu bytes (channel %s)",
				   name, payload, (unsigned long long)ch->attr.subbuf_size,
				   ch->name);
	}
}

TRAX_EXPORT int trax_event_reserve(struct trax_ctx *ctx, const struct trax_binding *b,
				   size_t payload_len, const void *ip)
{
	struct trax_channel *ch = b->channel;
	struct ringbuf_slot slot;
	struct ringbuf *rb;
	size_t ls, ll;
	unsigned int cpu;
	uint32_t id = b->event_id;
	char *p;
	int ret;

	/* The control page's word, shared with the consumer and the other writers. */
	if (__builtin_expect(
		!__atomic_load_n(__atomic_load_n(&ch->active, __ATOMIC_RELAXED), __ATOMIC_RELAXED),
		0))
		return -1;
	cpu = (unsigned int)trax_getcpu();
	if (__builtin_expect(cpu >= (unsigned int)ch->nr_cpus, 0))
		cpu %= (unsigned int)ch->nr_cpus;
	rb = &ch->bufs[cpu];
	ll = CTF_EXTENDED_HEADER_SIZE + ch->context_size + payload_len;
	ls = (id <= CTF_COMPACT_ID_MAX ? CTF_COMPACT_HEADER_SIZE : CTF_EXTENDED_HEADER_SIZE) +
	     ch->context_size + payload_len;
	if (__builtin_expect(payload_len > ch->attr.subbuf_size, 0))
		ls = ll = (size_t)ch->attr.subbuf_size + 1; /* rejected as too large */
	ret = ringbuf_reserve(rb, &slot, ls, ll);
	if (__builtin_expect(ret != 0, 0)) {
		if (ret == -ENOBUFS && ch->blocking)
			ret = reserve_blocking(ch, rb, &slot, ls, ll);
		if (ret) {
			record_lost(ch, rb, b, ret, payload_len);
			return -1;
		}
	}
	p = slot.ptr;
	if (!slot.extended && id <= CTF_COMPACT_ID_MAX) {
		uint32_t h = id | (uint32_t)((slot.ts & ((1u << CTF_COMPACT_TS_BITS) - 1)) << 5);

		__builtin_memcpy(p, &h, 4);
		p += 4;
	} else {
		*p++ = (char)CTF_EXTENDED_ID;
		__builtin_memcpy(p, &id, 4);
		__builtin_memcpy(p + 4, &slot.ts, 8);
		p += 12;
	}
	if (ch->attr.nr_contexts) {
		trax_context_write(ch, p, ip);
		p += ch->context_size;
	}
	ctx->pos = p;
	ctx->buf = rb;
	ctx->offset = slot.pos;
	ctx->len = slot.len;
	return 0;
}

TRAX_EXPORT void trax_event_commit(struct trax_ctx *ctx)
{
	ringbuf_commit(ctx->buf, ctx->offset, ctx->len);
}
