/*
 * ringbuf.c - lock-free ring buffer of sub-buffers: creation and the
 * producer's side (the consumer's: consumer.c). See ringbuf.h for the
 * accounting; the comments here explain the orderings.
 */
#define TRAX_RINGBUF_INTERNAL
#include "ringbuf/ringbuf.h"

#include <errno.h>
#include <string.h>

#include "common/clock.h"
#include "common/futex.h"

#define RINGBUF_MAGIC 0x676e697278617274ull /* "traxring" */

static unsigned int log2_u64(uint64_t v)
{
	return 63u - (unsigned int)__builtin_clzll(v);
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static size_t control_size(unsigned int num_subbuf)
{
	size_t sz = sizeof(struct ringbuf_shm) + num_subbuf * sizeof(struct ringbuf_commit);

	return (sz + 4095) & ~(size_t)4095;
}

int ringbuf_config_check(const struct ringbuf_config *cfg)
{
	if (!is_pow2(cfg->subbuf_size) || cfg->subbuf_size < 256)
		return -EINVAL;
	if (!is_pow2(cfg->num_subbuf) || cfg->num_subbuf < 2)
		return -EINVAL;
	if (cfg->header_size >= cfg->subbuf_size / 2)
		return -EINVAL;
	if (cfg->ts_bits == 0 || cfg->ts_bits > 63 || !cfg->open || !cfg->close)
		return -EINVAL;
	if (cfg->subbuf_size > ((uint64_t)1 << 40) / cfg->num_subbuf)
		return -EINVAL;
	return 0;
}

size_t ringbuf_shm_size(const struct ringbuf_config *cfg)
{
	return control_size(cfg->num_subbuf) + cfg->subbuf_size * cfg->num_subbuf;
}

static void setup(struct ringbuf *rb, void *mem, const struct ringbuf_config *cfg)
{
	memset(rb, 0, sizeof(*rb));
	rb->shm = mem;
	rb->commit = (struct ringbuf_commit *)(rb->shm + 1);
	rb->data = (char *)mem + control_size(cfg->num_subbuf);
	rb->cfg = *cfg;
	rb->subbuf_mask = cfg->subbuf_size - 1;
	rb->subbuf_shift = log2_u64(cfg->subbuf_size);
	rb->ts_limit = (uint64_t)1 << cfg->ts_bits;
}

int ringbuf_create(struct ringbuf *rb, void *mem, const struct ringbuf_config *cfg)
{
	int ret = ringbuf_config_check(cfg);

	if (ret)
		return ret;
	setup(rb, mem, cfg);
	rb->shm->subbuf_size = cfg->subbuf_size;
	rb->shm->num_subbuf = cfg->num_subbuf;
	rb->shm->mode = cfg->mode;
	__atomic_store_n(&rb->shm->magic, RINGBUF_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

int ringbuf_attach(struct ringbuf *rb, void *mem, const struct ringbuf_config *cfg)
{
	const struct ringbuf_shm *shm = mem;
	int ret = ringbuf_config_check(cfg);

	if (ret)
		return ret;
	if (__atomic_load_n(&shm->magic, __ATOMIC_ACQUIRE) != RINGBUF_MAGIC ||
	    shm->subbuf_size != cfg->subbuf_size || shm->num_subbuf != cfg->num_subbuf ||
	    shm->mode != (uint64_t)cfg->mode)
		return -EINVAL;
	setup(rb, mem, cfg);
	return 0;
}

/* Adds to the commit counter of the sub-buffer at pos, never past its lap's total. */
static inline void commit_add(struct ringbuf *rb, uint64_t pos, uint64_t n)
{
	uint64_t before = __atomic_fetch_add(ringbuf_commit_word(rb, pos), n, __ATOMIC_RELEASE);

	TRAX_ASSERT(before + n <= ringbuf_complete_count(rb, pos));
	(void)before;
}

/*
 * Finishes the sub-buffer in which the content ends at end_pos. `discarded`
 * was read before the CAS that closed it: a later packet's close reads it
 * after that CAS, so the counts in successive packets never go down (a
 * preempted closer would otherwise report a newer count than the next
 * packet's).
 */
static void close_subbuf(struct ringbuf *rb, uint64_t end_pos, uint64_t ts, uint64_t discarded)
{
	uint64_t sb = end_pos & ~rb->subbuf_mask;
	uint64_t content = end_pos - sb;

	rb->cfg.close(rb, ringbuf_subbuf_addr(rb, sb), ts, content, discarded);
	/* Release: the header's end fields are visible before completion. */
	commit_add(rb, sb, rb->cfg.subbuf_size - content + 1);
	if (rb->cfg.notify) {
		struct ringbuf_notify *n = rb->cfg.notify;

		__atomic_fetch_add(&n->seq, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&n->waiting, __ATOMIC_SEQ_CST))
			trax_futex_wake(&n->seq);
	}
}

void ringbuf_count_lost(struct ringbuf *rb, int too_large)
{
	__atomic_fetch_add(&rb->shm->discarded, 1, __ATOMIC_RELAXED);
	if (too_large)
		__atomic_fetch_add(&rb->shm->too_large, 1, __ATOMIC_RELAXED);
}

/* Swaps the head if it still equals *old; else loads it into *old. */
static inline int head_cas(struct ringbuf_head *h, struct ringbuf_head *old, uint64_t pos,
			   uint64_t ts)
{
#if defined(__x86_64__)
	unsigned char ok;

	__asm__ __volatile__("lock cmpxchg16b %1\n\tsete %0"
			     : "=q"(ok), "+m"(*h), "+a"(old->write_pos), "+d"(old->last_ts)
			     : "b"(pos), "c"(ts)
			     : "memory", "cc");
	return ok;
#else
	/*
	 * Elsewhere: the position alone is swapped and last_ts stored after;
	 * a racing reader may see an older last_ts, which only makes it pick
	 * the long header, and may clamp against it less tightly.
	 */
	if (!__atomic_compare_exchange_n(&h->write_pos, &old->write_pos, pos, 1, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED)) {
		old->last_ts = __atomic_load_n(&h->last_ts, __ATOMIC_RELAXED);
		return 0;
	}
	__atomic_store_n(&h->last_ts, ts, __ATOMIC_RELAXED);
	return 1;
#endif
}

static inline uint64_t read_clock(struct ringbuf *rb)
{
	return rb->cfg.clock ? rb->cfg.clock() : trax_clock_read();
}

int ringbuf_reserve(struct ringbuf *rb, struct ringbuf_slot *slot, size_t len_short,
		    size_t len_long)
{
	struct ringbuf_shm *shm = rb->shm;
	const uint64_t S = rb->cfg.subbuf_size;
	const uint64_t mask = rb->subbuf_mask;
	const uint64_t H = rb->cfg.header_size;
	const uint64_t span = S * rb->cfg.num_subbuf;
	struct ringbuf_head old;
	uint64_t begin, ts, len, discarded = 0;
	int open, close, ext;

	if (len_short > S || len_long > S)
		return -E2BIG;
	/* A torn read is harmless: the CAS fails and returns the real head. */
	old.write_pos = __atomic_load_n(&shm->head.write_pos, __ATOMIC_RELAXED);
	old.last_ts = __atomic_load_n(&shm->head.last_ts, __ATOMIC_RELAXED);
	for (;;) {
		uint64_t rel = old.write_pos & mask;

		ts = read_clock(rb);
		if ((int64_t)(ts - old.last_ts) < 0)
			ts = old.last_ts;
		open = close = ext = 0;
		if (rel == 0) {
			open = 1;
			begin = old.write_pos + H;
			len = len_short; /* first record: its packet starts at ts */
		} else {
			ext = !(ts - old.last_ts < rb->ts_limit);
			len = ext ? len_long : len_short;
			begin = old.write_pos;
			if (rel + len >= S) {
				/* Does not fit: close this sub-buffer, open the next. */
				open = close = 1;
				ext = 0;
				len = len_short;
				begin = (old.write_pos | mask) + 1 + H;
			}
		}
		if (open) {
			uint64_t sb = begin - H;

			if (H + len >= S)
				return -E2BIG;
			if (rb->cfg.mode == RINGBUF_DISCARD) {
				/* The consumer has not released this sub-buffer's last lap. */
				if (sb - __atomic_load_n(&shm->read_pos, __ATOMIC_ACQUIRE) >= span)
					return -ENOBUFS;
			} else if (sb >= span) {
				/* A late writer may still be filling the previous lap. */
				uint64_t prev = ringbuf_complete_count(rb, sb - span);

				if (__atomic_load_n(ringbuf_commit_word(rb, sb),
						    __ATOMIC_ACQUIRE) != prev)
					return -ENOBUFS;
			}
		}
		if (close)
			discarded = __atomic_load_n(&shm->discarded, __ATOMIC_ACQUIRE);
		if (head_cas(&shm->head, &old, begin + len, ts))
			break;
	}
	/* Positions only go forward. */
	TRAX_ASSERT(begin + len > old.write_pos);

	if (open) {
		uint64_t sb = begin - H;

		if (rb->cfg.mode == RINGBUF_OVERWRITE) {
			/* Push the reader past the sub-buffer this lap reuses. */
			uint64_t r = __atomic_load_n(&shm->read_pos, __ATOMIC_RELAXED);

			while (sb - r >= span &&
			       !__atomic_compare_exchange_n(&shm->read_pos, &r, sb - span + S, 1,
							    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
				;
		}
		rb->cfg.open(rb, ringbuf_subbuf_addr(rb, sb), ts, sb >> rb->subbuf_shift);
		commit_add(rb, sb, H);
	}
	if (close)
		close_subbuf(rb, old.write_pos, ts, discarded);

	slot->ptr = ringbuf_subbuf_addr(rb, begin) + (begin & mask);
	slot->pos = begin;
	slot->ts = ts;
	slot->len = (uint32_t)len;
	slot->extended = ext;
	return 0;
}

void ringbuf_flush(struct ringbuf *rb)
{
	struct ringbuf_shm *shm = rb->shm;
	struct ringbuf_head old;
	uint64_t ts, discarded;

	old.write_pos = __atomic_load_n(&shm->head.write_pos, __ATOMIC_RELAXED);
	old.last_ts = __atomic_load_n(&shm->head.last_ts, __ATOMIC_RELAXED);
	for (;;) {
		if ((old.write_pos & rb->subbuf_mask) == 0)
			return; /* nothing open */
		/* The packet ends at ts; the next one cannot begin earlier. */
		ts = read_clock(rb);
		if ((int64_t)(ts - old.last_ts) < 0)
			ts = old.last_ts;
		discarded = __atomic_load_n(&shm->discarded, __ATOMIC_ACQUIRE);
		if (head_cas(&shm->head, &old, (old.write_pos | rb->subbuf_mask) + 1, ts))
			break;
	}
	close_subbuf(rb, old.write_pos, ts, discarded);
}
