/*
 * consumer.c - moving complete packets from a channel's shared buffers to
 * its stream files: one thread per channel buffer set, asleep on the
 * bufset's notify word until a producer closes a sub-buffer (or the read
 * timer fires), and closing partial packets itself on the switch timer.
 *
 * Applications write the shared memory: every packet header is checked
 * before it decides how many bytes are written (docs/daemon.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/assert.h"
#include "common/io.h"
#include "common/futex.h"
#include "ringbuf/consumer.h"
#include "writer/packet-index.h"
#include "writer/packet.h"
#include "daemon/traxd.h"

/* A sub-buffer unchanged this long after a writer died is repaired. */
#define STALL_US 1000000

/* Without a read timer, the consumer looks at least this often anyway. */
#define DEFAULT_PERIOD_US 200000

/* Opens cpu's stream file (the current one, with tracefile rotation) and its index. */
static int open_stream(struct dchan *dc, unsigned int cpu)
{
	const struct channel_attr *at = &dc->chan->attr;
	char name[TRAXD_NAME_MAX + 64], path[TRAXD_PATH_MAX + 512];

	if (at->tracefile_size)
		snprintf(name, sizeof(name), "%s_%u_%u", dc->chan->name, cpu, dc->file_index[cpu]);
	else
		snprintf(name, sizeof(name), "%s_%u", dc->chan->name, cpu);
	snprintf(path, sizeof(path), "%s/%s", dc->trace->path, name);
	if (dc->fds[cpu] >= 0)
		close(dc->fds[cpu]);
	if (dc->index_fds[cpu] >= 0)
		close(dc->index_fds[cpu]);
	dc->index_fds[cpu] = -1;
	/*
	 * Direct I/O: packets are whole 4 KiB blocks at page-aligned places of
	 * the shared memory, so the device reads them from there, which costs
	 * the CPUs the applications run on far less than copying them into the
	 * page cache. Ordinary writes where the file system refuses it.
	 */
	dc->fds[cpu] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_DIRECT, 0660);
	if (dc->fds[cpu] < 0 && errno == EINVAL)
		dc->fds[cpu] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
	dc->file_size[cpu] = 0;
	if (dc->fds[cpu] < 0)
		return -errno;
	dc->index_fds[cpu] = ctf_index_create(dc->trace->path, name, 0770, 0660);
	if (dc->index_fds[cpu] < 0) {
		int err = dc->index_fds[cpu];

		traxd_log("%s/index/%s.idx: %s", dc->trace->path, name, strerror(-err));
		close(dc->fds[cpu]);
		dc->fds[cpu] = -1;
		return err;
	}
	return 0;
}

int consumer_open_files(struct dchan *dc)
{
	dc->fds = malloc(dc->nr_cpus * sizeof(int));
	dc->index_fds = malloc(dc->nr_cpus * sizeof(int));
	dc->file_size = calloc(dc->nr_cpus, sizeof(uint64_t));
	dc->file_index = calloc(dc->nr_cpus, sizeof(uint32_t));
	dc->ow_written = calloc(dc->nr_cpus, sizeof(uint64_t));
	if (!dc->fds || !dc->index_fds || !dc->file_size || !dc->file_index || !dc->ow_written)
		return -ENOMEM;
	for (unsigned int i = 0; i < dc->nr_cpus; i++)
		dc->fds[i] = dc->index_fds[i] = -1;
	for (unsigned int i = 0; i < dc->nr_cpus; i++) {
		int err = open_stream(dc, i);

		if (err)
			return err;
	}
	return 0;
}

/*
 * Cuts a trace file back to `size` bytes after a write that failed part of
 * the way (a full disk), so that it holds whole packets (or entries) only.
 */
static void cut_back(struct dchan *dc, unsigned int cpu, int fd, uint64_t size)
{
	if (ftruncate(fd, (off_t)size) < 0 || lseek(fd, (off_t)size, SEEK_SET) != (off_t)size)
		traxd_log("%s: channel %s, CPU %u: cannot cut a file back after a failed write: %s",
			  dc->trace->path, dc->chan->name, cpu, strerror(errno));
}

bool consumer_packet_valid(const struct dchan *dc, const struct ctf_packet_header *h)
{
	uint64_t bytes = h->packet_size / 8;

	return h->magic == CTF_MAGIC && h->packet_size % 8 == 0 && bytes != 0 &&
	       bytes <= dc->cfg.subbuf_size && h->content_size <= h->packet_size &&
	       h->content_size >= sizeof(*h) * 8;
}

/*
 * Writes one packet of cpu's buffer, then its index entry; false when it
 * is not a valid packet. A packet whose write or entry fails is cut out
 * again: the stream file and its index keep agreeing.
 */
static bool write_packet(struct dchan *dc, unsigned int cpu, const void *sb)
{
	const struct channel_attr *at = &dc->chan->attr;
	struct ctf_packet_header copy;
	const struct ctf_packet_header *h = &copy;
	uint64_t bytes;
	uint8_t entry[CTF_INDEX_ENTRY_LEN];
	off_t index_at;
	int err;

	/* (checked, and indexed, from a copy: an application may write the shared one) */
	memcpy(&copy, sb, sizeof(copy));
	if (!consumer_packet_valid(dc, h))
		return false;
	bytes = h->packet_size / 8;
	if (!dc->fds || dc->fds[cpu] < 0)
		return true; /* no output (it failed): the packet is consumed all the same */
	/* tracefile rotation: a new file when this one would grow past the limit */
	if (at->tracefile_size && dc->file_size[cpu] &&
	    dc->file_size[cpu] + bytes > at->tracefile_size) {
		dc->file_index[cpu]++;
		if (at->tracefile_count)
			dc->file_index[cpu] %= at->tracefile_count;
		if (open_stream(dc, cpu) < 0)
			return true;
	}
	/*
	 * The entry first: a SIGKILL of the daemon in the (long) write of the
	 * packet lets that write complete, so the files end up agreeing.
	 */
	index_at = lseek(dc->index_fds[cpu], 0, SEEK_CUR);
	ctf_index_entry(entry, dc->file_size[cpu], h);
	err = trax_write_all(dc->index_fds[cpu], entry, sizeof(entry), false);
	if (!err)
		err = trax_write_all(dc->fds[cpu], sb, bytes, true);
	if (err) {
		traxd_log("%s: channel %s, CPU %u: %s", dc->trace->path, dc->chan->name, cpu,
			  strerror(-err));
		if (index_at >= 0)
			cut_back(dc, cpu, dc->index_fds[cpu], (uint64_t)index_at);
		cut_back(dc, cpu, dc->fds[cpu], dc->file_size[cpu]);
		return true;
	}
	dc->file_size[cpu] += bytes;
	return true;
}

/* Where the drains deliver one CPU's packets. */
struct packet_sink {
	struct dchan *dc;
	unsigned int cpu;
};

static int sink_packet(void *arg, const void *subbuf)
{
	const struct packet_sink *k = arg;

	if (write_packet(k->dc, k->cpu, subbuf))
		k->dc->packets_written++;
	else
		k->dc->packets_dropped++;
	return 0;
}

/*
 * Discard mode: every complete packet, released once written. Overwrite
 * mode: producers never wait for the consumer, so each complete packet not
 * written yet is copied first (src/ringbuf/consumer.h has the rule); those
 * overwritten before they could be read are counted as dropped. Snapshot
 * sessions have no files: nothing to drain.
 */
void consumer_drain(struct dchan *dc, bool settled)
{
	struct ringbuf_drain_stats st = {0};
	struct packet_sink k = {dc, 0};

	TRAX_ASSERT_LOCKED(&dc->trace->lock);
	if (dc->cfg.mode == RINGBUF_OVERWRITE) {
		if (!dc->ow_written ||
		    (!dc->bounce && !(dc->bounce = aligned_alloc(4096, dc->cfg.subbuf_size))))
			return;
		for (k.cpu = 0; k.cpu < dc->nr_cpus; k.cpu++)
			ringbuf_drain_overwrite(&dc->rbs[k.cpu], &dc->ow_written[k.cpu], dc->bounce,
						settled ? RINGBUF_DRAIN_SETTLED : 0, sink_packet,
						&k, &st);
		dc->packets_dropped += st.lost;
		return;
	}
	for (k.cpu = 0; k.cpu < dc->nr_cpus; k.cpu++)
		ringbuf_drain(&dc->rbs[k.cpu], sink_packet, &k, &st);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Sub-buffers a dead writer left incomplete (see consumer_repair in traxd.h). */
void consumer_repair(struct dchan *dc, uint64_t quiet_us, bool writers_dead)
{
	uint64_t S = dc->cfg.subbuf_size, now = now_us();
	uint64_t death = __atomic_load_n(&dc->last_death_ts, __ATOMIC_ACQUIRE);

	TRAX_ASSERT_LOCKED(&dc->trace->lock);
	if (dc->cfg.mode != RINGBUF_DISCARD || (!writers_dead && !death))
		return;
	if (!dc->stalls && !(dc->stalls = calloc(dc->nr_cpus, sizeof(*dc->stalls))))
		return;
	for (unsigned int cpu = 0; cpu < dc->nr_cpus; cpu++) {
		struct ringbuf *rb = &dc->rbs[cpu];
		struct dchan_stall *st = &dc->stalls[cpu];
		struct ringbuf_stall stall;
		const struct ctf_packet_header *h;
		uint64_t missing, pos;
		bool repaired;
		void *sb;

		if (!ringbuf_stalled(rb, &stall))
			continue;
		if (st->pos != stall.pos || st->count != stall.count || !st->since_us) {
			st->pos = stall.pos;
			st->count = stall.count;
			st->since_us = now;
		}
		h = stall.subbuf;
		if (!writers_dead && (now - st->since_us < quiet_us || h->timestamp_begin > death))
			continue; /* a live writer may still be in it */
		missing = ringbuf_force_complete(rb, stall.pos, stall.count);
		if (!missing || ringbuf_get_subbuf(rb, &pos, &sb) || pos != stall.pos)
			continue;
		/* the committed records are kept, the dead one cut out */
		repaired = packet_repair(dc, sb, missing) && write_packet(dc, cpu, sb);
		if (repaired)
			dc->packets_written++;
		else
			dc->packets_dropped++;
		traxd_log("channel %s, CPU %u: packet %llu left incomplete by an application that "
			  "died (%llu bytes never committed): %s",
			  dc->chan->name, cpu, (unsigned long long)(pos / S),
			  (unsigned long long)missing, repaired ? "repaired" : "dropped");
		ringbuf_put_subbuf(rb, pos);
		st->since_us = 0;
	}
	consumer_drain(dc, false);
}

static void *consumer_thread(void *arg)
{
	struct dchan *dc = arg;
	struct ringbuf_notify *nt = &bufset_ctrl(dc->shm.addr)->notify;
	const struct channel_attr *at = &dc->chan->attr;
	uint64_t period = at->read_timer_us ? at->read_timer_us : DEFAULT_PERIOD_US;
	uint64_t next_switch = at->switch_timer_us ? now_us() + at->switch_timer_us : 0;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_setname_np(pthread_self(), "traxd-consumer");
	if (at->switch_timer_us && at->switch_timer_us < period)
		period = at->switch_timer_us;
	while (!__atomic_load_n(&dc->stop_thread, __ATOMIC_ACQUIRE)) {
		uint32_t seq;

		__atomic_store_n(&nt->waiting, 1, __ATOMIC_SEQ_CST);
		seq = __atomic_load_n(&nt->seq, __ATOMIC_SEQ_CST);
		pthread_mutex_lock(&dc->trace->lock);
		consumer_drain(dc, false);
		consumer_repair(dc, STALL_US, false);
		pthread_mutex_unlock(&dc->trace->lock);
		if (next_switch && now_us() >= next_switch) {
			/* partial packets out now: the data becomes readable */
			for (unsigned int i = 0; i < dc->nr_cpus; i++)
				ringbuf_flush(&dc->rbs[i]);
			next_switch = now_us() + at->switch_timer_us;
			continue;
		}
		trax_futex_wait(&nt->seq, seq, period * 1000u);
	}
	__atomic_store_n(&nt->waiting, 0, __ATOMIC_RELAXED);
	return NULL;
}

int consumer_start(struct dchan *dc)
{
	int err;

	dc->stop_thread = false;
	err = pthread_create(&dc->thread, NULL, consumer_thread, dc);
	if (err)
		return -err;
	dc->thread_started = true;
	return 0;
}

void consumer_stop(struct dchan *dc)
{
	struct ringbuf_notify *nt;

	if (!dc->thread_started)
		return;
	nt = &bufset_ctrl(dc->shm.addr)->notify;
	__atomic_store_n(&dc->stop_thread, true, __ATOMIC_RELEASE);
	__atomic_fetch_add(&nt->seq, 1, __ATOMIC_SEQ_CST);
	trax_futex_wake(&nt->seq);
	pthread_join(dc->thread, NULL);
	dc->thread_started = false;
}
