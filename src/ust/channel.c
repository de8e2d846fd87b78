/*
 * channel.c - a channel: a bufset (ringbuf/bufset.h) in memfd shared memory,
 * created here for the embedded mode or received from traxd, and the CTF
 * packet header each sub-buffer starts with.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/env.h"
#include "common/log.h"
#include "writer/packet.h"
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

	ctf_packet_open(subbuf, ch->trace_uuid, ch->stream_id, rb->cpu, ts, seq);
}

static void packet_close(struct ringbuf *rb __attribute__((unused)), void *subbuf, uint64_t ts_end,
			 uint64_t content, uint64_t discarded)
{
	ctf_packet_close(subbuf, ts_end, content, discarded);
}

/* The ring buffer geometry of a channel, with this library's packet hooks. */
static int channel_config(struct ringbuf_config *cfg, const char *name,
			  const struct trax_channel_attr *attr)
{
	int err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->subbuf_size = attr->subbuf_size;
	cfg->num_subbuf = attr->num_subbuf;
	cfg->mode = attr->overwrite ? RINGBUF_OVERWRITE : RINGBUF_DISCARD;
	cfg->header_size = sizeof(struct ctf_packet_header);
	cfg->ts_bits = CTF_COMPACT_TS_BITS;
	cfg->open = packet_open;
	cfg->close = packet_close;
	cfg->clock = NULL; /* trax_clock_read(), inlined */
	err = ringbuf_config_check(cfg);
	if (err)
		trax_debug("channel %s: invalid geometry (%llu x %u)", name,
			   (unsigned long long)attr->subbuf_size, attr->num_subbuf);
	return err;
}

/* What the active pointer of a channel without shared memory points to. */
static const uint32_t inactive_word;

/* What a channel knows before it has memory (inactive until then). */
static void channel_init(struct trax_channel *ch, const char *name, uint32_t stream_id,
			 const struct trax_channel_attr *attr, const uint8_t trace_uuid[16])
{
	unsigned int i;

	memset(ch, 0, sizeof(*ch));
	ch->active = &inactive_word;
	ch->shm.fd = -1;
	snprintf(ch->name, sizeof(ch->name), "%s", name);
	ch->stream_id = stream_id;
	ch->attr = *attr;
	memcpy(ch->trace_uuid, trace_uuid, 16);
	for (i = 0; i < attr->nr_contexts; i++)
		ch->context_size += ctf_context_size(attr->contexts[i]);
	ch->blocking = attr->blocking_timeout_us != 0 && trax_env_get("ALLOW_BLOCKING") != NULL;
	trax_clock_tsc_enable();
}

/* Points the channel at its mapped bufset (ch->shm), whose buffers are in rbs. */
static void channel_set_memory(struct trax_channel *ch, struct ringbuf *rbs, int nr_cpus)
{
	int cpu;

	ch->ctrl = bufset_ctrl(ch->shm.addr);
	ch->notify = &ch->ctrl->notify;
	ch->nr_cpus = nr_cpus;
	ch->bufs = rbs;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		rbs[cpu].owner = ch;
		rbs[cpu].cpu = cpu;
	}
	__atomic_store_n(&ch->active, &ch->ctrl->active, __ATOMIC_RELEASE);
}

int trax_channel_create(struct trax_channel *ch, const char *name, uint32_t stream_id,
			const struct trax_channel_attr *attr, const uint8_t trace_uuid[16])
{
	struct ringbuf_config cfg;
	struct ringbuf *rbs;
	unsigned int nr_cpus = (unsigned int)trax_cpu_count();
	size_t size;
	int err;

	channel_init(ch, name, stream_id, attr, trace_uuid);
	err = channel_config(&cfg, name, attr);
	if (err)
		return err;
	size = bufset_size(&cfg, nr_cpus);
	err = trax_shm_create(&ch->shm, "trax-channel", size);
	if (err) {
		trax_debug("channel %s: cannot create %zu bytes of shared memory: %s", name, size,
			   strerror(-err));
		return err;
	}
	rbs = calloc(nr_cpus, sizeof(*rbs));
	if (!rbs) {
		trax_shm_destroy(&ch->shm);
		return -ENOMEM;
	}
	err = bufset_create(ch->shm.addr, rbs, &cfg, nr_cpus);
	if (err) {
		free(rbs);
		trax_shm_destroy(&ch->shm);
		return err;
	}
	channel_set_memory(ch, rbs, (int)nr_cpus);
	return 0;
}

int trax_channel_attach(struct trax_channel *ch, const char *name, uint32_t stream_id,
			const struct trax_channel_attr *attr, const uint8_t trace_uuid[16],
			unsigned int nr_cpus, int fd, uint64_t size)
{
	struct ringbuf_config cfg;
	struct ringbuf *rbs = NULL;
	size_t need;
	int err;

	channel_init(ch, name, stream_id, attr, trace_uuid);
	err = channel_config(&cfg, name, attr);
	if (err)
		goto out;
	err = -EINVAL;
	if (nr_cpus == 0 || nr_cpus > TRAX_CHANNEL_MAX_CPUS)
		goto out;
	need = bufset_size(&cfg, nr_cpus);
	/*
	 * The memory must hold the whole set, and the file must hold the
	 * whole mapping for good (sealed against shrinking): a page past its
	 * end would raise SIGBUS in whichever thread touched it first.
	 */
	if (size < need || size > SIZE_MAX || trax_shm_check(fd, (size_t)size) < 0) {
		trax_debug("channel %s: %llu bytes of shared memory do not hold %u buffers of "
			   "%llu x %u bytes",
			   name, (unsigned long long)size, nr_cpus,
			   (unsigned long long)attr->subbuf_size, attr->num_subbuf);
		goto out;
	}
	err = -ENOMEM;
	rbs = calloc(nr_cpus, sizeof(*rbs));
	if (!rbs)
		goto out;
	/* what the set needs, not what the daemon says: it cannot make us populate more */
	err = trax_shm_map(&ch->shm, fd, need);
	if (err)
		goto out;
	err = bufset_attach(ch->shm.addr, need, rbs, &cfg, nr_cpus);
	if (err) {
		trax_debug("channel %s: the shared memory is not a buffer set of this geometry",
			   name);
		trax_shm_destroy(&ch->shm); /* closes fd */
		fd = -1;
		goto out;
	}
	/* The mapping is all this process needs: no descriptor to leak into children. */
	close(fd);
	ch->shm.fd = -1;
	channel_set_memory(ch, rbs, (int)nr_cpus);
	return 0;
out:
	free(rbs);
	if (fd >= 0)
		close(fd);
	ch->shm.fd = -1;
	return err;
}

void trax_channel_destroy(struct trax_channel *ch)
{
	free(ch->bufs);
	ch->bufs = NULL;
	trax_shm_destroy(&ch->shm);
	free(ch->events);
	ch->events = NULL;
}

void trax_channel_retire(struct trax_channel *ch)
{
	__atomic_store_n(&ch->active, &inactive_word, __ATOMIC_RELEASE);
	if (ch->shm.addr) {
		/*
		 * MAP_FIXED replaces the mapping in one step (never a hole): a
		 * thread that was past the active check goes on writing into
		 * private pages that cost nothing until touched, and the shared
		 * pages are given back.
		 */
		void *p = mmap(ch->shm.addr, ch->shm.size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);

		if (p == MAP_FAILED)
			trax_debug("channel %s: cannot release its shared memory: %s", ch->name,
				   strerror(errno));
	}
	if (ch->shm.fd >= 0)
		close(ch->shm.fd);
	ch->shm.fd = -1;
}

void trax_channel_set_active(struct trax_channel *ch, int active)
{
	if (ch->ctrl && __atomic_load_n(&ch->active, __ATOMIC_RELAXED) == &ch->ctrl->active)
		__atomic_store_n(&ch->ctrl->active, active ? 1u : 0u, __ATOMIC_RELEASE);
}

int trax_channel_parse_contexts(struct trax_channel_attr *attr, const char *list, int strict)
{
	const char *p = list;

	while (p && *p) {
		char name[32];
		size_t n = strcspn(p, ",");
		int c = -1;

		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = 0;
			c = ctf_context_from_name(name);
		}
		if (c < 0) {
			if (strict)
				return -EINVAL;
			if (n)
				trax_debug(
				    "TRAX_CONTEXT: unknown context '%.*s' (known: vpid, vtid, "
				    "procname, pthread_id, ip)",
				    (int)n, p);
		} else {
			unsigned int i, dup = 0;

			for (i = 0; i < attr->nr_contexts; i++)
				dup |= attr->contexts[i] == c;
			if (dup && strict)
				return -EINVAL;
			if (!dup && attr->nr_contexts < CTF_CTX_COUNT)
				attr->contexts[attr->nr_contexts++] = (uint8_t)c;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}
