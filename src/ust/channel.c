/*
 * channel.c - a channel: one ring buffer per possible CPU in one memfd
 * region, and the CTF packet header each sub-buffer starts with.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/env.h"
#include "common/log.h"
#include "ctf/writer-packet.h"
#include "ust/ust.h"

#define DEFAULT_SUBBUF_SIZE (512u * 1024u)
#define DEFAULT_NUM_SUBBUF  4u

static uint64_t round_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v && p < ((uint64_t)1 << 40))
		p <<= 1;
	return p;
}

void trax_channel_attr_default(struct trax_channel_attr *attr)
{
	uint64_t sz = trax_env_size("SUBBUF_SIZE", DEFAULT_SUBBUF_SIZE);
	uint64_t n = trax_env_size("NUM_SUBBUF", DEFAULT_NUM_SUBBUF);
	const char *ow = trax_env_get("OVERWRITE");

	memset(attr, 0, sizeof(*attr));
	if (sz < 4096) {
		trax_debug("TRAX_SUBBUF_SIZE %llu is too small; using 4096",
			   (unsigned long long)sz);
		sz = 4096;
	}
	if (sz > ((uint64_t)1 << 32)) {
		trax_debug("TRAX_SUBBUF_SIZE %llu is too large; using 4G", (unsigned long long)sz);
		sz = (uint64_t)1 << 32;
	}
	if (n < 2) {
		trax_debug("TRAX_NUM_SUBBUF %llu is too few; using 2", (unsigned long long)n);
		n = 2;
	}
	if (n > 65536) {
		trax_debug("TRAX_NUM_SUBBUF %llu is too many; using 65536", (unsigned long long)n);
		n = 65536;
	}
	if (round_pow2(sz) != sz || round_pow2(n) != n)
		trax_debug("sub-buffer size and count are rounded up to powers of two");
	attr->subbuf_size = round_pow2(sz);
	attr->num_subbuf = (uint32_t)round_pow2(n);
	attr->overwrite = ow && *ow && strcmp(ow, "0");
	attr->blocking_timeout_us = trax_env_long("BLOCKING_TIMEOUT", 0) * 1000;
}

static void packet_open(struct ringbuf *rb, void *subbuf, uint64_t ts, uint64_t seq)
{
	struct trax_channel *ch = rb->owner;
	struct ctf_packet_header *h = subbuf;

	h->magic = CTF_MAGIC;
	memcpy(h->uuid, ch->trace_uuid, sizeof(h->uuid));
	h->stream_id = ch->stream_id;
	h->stream_instance_id = (uint64_t)rb->cpu;
	h->timestamp_begin = ts;
	h->packet_seq_num = seq;
	h->cpu_id = (uint32_t)rb->cpu;
}

static void packet_close(struct ringbuf *rb __attribute__((unused)), void *subbuf, uint64_t ts_end,
			 uint64_t content, uint64_t discarded)
{
	struct ctf_packet_header *h = subbuf;

	h->timestamp_end = ts_end;
	h->content_size = content * 8;
	/*
	 * The packet written to disk ends at the next 4 KiB boundary after the
	 * content, not at the end of the sub-buffer: whole blocks, so that the
	 * consumer can write with O_DIRECT, and no more padding than that.
	 */
	h->packet_size =
	    ((content + TRAX_PACKET_ALIGN - 1) & ~(uint64_t)(TRAX_PACKET_ALIGN - 1)) * 8;
	h->events_discarded = discarded;
}

int trax_channel_create(struct trax_channel *ch, const char *name, uint32_t stream_id,
			const struct trax_channel_attr *attr, const uint8_t trace_uuid[16])
{
	struct ringbuf_config cfg;
	size_t per_cpu, ctrl;
	unsigned int i;
	int err, cpu;

	memset(ch, 0, sizeof(*ch));
	ch->shm.fd = -1;
	snprintf(ch->name, sizeof(ch->name), "%s", name);
	ch->stream_id = stream_id;
	ch->attr = *attr;
	memcpy(ch->trace_uuid, trace_uuid, 16);
	for (i = 0; i < attr->nr_contexts; i++)
		ch->context_size += ctf_context_size(attr->contexts[i]);
	ch->blocking = attr->blocking_timeout_us != 0 && trax_env_get("ALLOW_BLOCKING") != NULL;

	memset(&cfg, 0, sizeof(cfg));
	cfg.subbuf_size = attr->subbuf_size;
	cfg.num_subbuf = attr->num_subbuf;
	cfg.mode = attr->overwrite ? RINGBUF_OVERWRITE : RINGBUF_DISCARD;
	cfg.header_size = sizeof(struct ctf_packet_header);
	cfg.ts_bits = CTF_COMPACT_TS_BITS;
	cfg.open = packet_open;
	cfg.close = packet_close;
	cfg.clock = NULL; /* trax_clock_read(), inlined */
	trax_clock_tsc_enable();
	err = ringbuf_config_check(&cfg);
	if (err) {
		trax_debug("channel %s: invalid geometry (%llu x %u)", name,
			   (unsigned long long)attr->subbuf_size, attr->num_subbuf);
		return err;
	}

	ch->nr_cpus = trax_cpu_count();
	per_cpu = (ringbuf_shm_size(&cfg) + 4095) & ~(size_t)4095;
	ctrl = 4096; /* the notify word, on its own page */
	err = trax_shm_create(&ch->shm, "trax-channel", ctrl + per_cpu * (size_t)ch->nr_cpus);
	if (err) {
		trax_debug("channel %s: cannot create %zu bytes of shared memory: %s", name,
			   ctrl + per_cpu * (size_t)ch->nr_cpus, strerror(-err));
		return err;
	}
	ch->notify = ch->shm.addr;
	cfg.notify = ch->notify;
	ch->bufs = calloc((size_t)ch->nr_cpus, sizeof(*ch->bufs));
	if (!ch->bufs) {
		trax_shm_destroy(&ch->shm);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < ch->nr_cpus; cpu++) {
		struct ringbuf *rb = &ch->bufs[cpu];

		ringbuf_create(rb, (char *)ch->shm.addr + ctrl + per_cpu * (size_t)cpu, &cfg);
		rb->owner = ch;
		rb->cpu = cpu;
	}
	return 0;
}

void trax_channel_destroy(struct trax_channel *ch)
{
	free(ch->bufs);
	ch->bufs = NULL;
	trax_shm_destroy(&ch->shm);
	free(ch->events);
	ch->events = NULL;
}
