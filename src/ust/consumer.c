/*
 * consumer.c - the in-process consumer: a thread that writes complete
 * sub-buffers to one stream file per CPU and keeps the metadata file in step
 * with the events bound to the channel.
 *
 * It sleeps on the channel's notify word (woken when a sub-buffer closes, or
 * after a period) and never makes an application thread wait. Output errors
 * (unwritable directory, full disk) are reported once with TRAX_DEBUG and
 * then the data is dropped, so the application runs on unchanged.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/io.h"
#include "common/futex.h"
#include "common/log.h"
#include "common/strbuf.h"
#include "ringbuf/consumer.h"
#include "writer/metadata.h"
#include "writer/packet-index.h"
#include "writer/packet.h"
#include "ust/ust.h"

#define CONSUMER_PERIOD_NS (100u * 1000u * 1000u)

static void output_error(struct trax_session *s, const char *what, int err)
{
	if (!s->output_failed)
		trax_debug("cannot write %s in %s: %s; recording goes on, the data is dropped",
			   what, s->path, strerror(-err));
	s->output_failed = 1;
}

/*
 * Appends to a trace file; a write that fails half-way is cut back so the
 * file keeps only whole packets (or whole metadata blocks) and stays
 * readable.
 */
static int append(struct trax_session *s, int fd, const struct trax_file_id *id, off_t *size,
		  const void *buf, size_t len, const char *what)
{
	struct stat st;
	int err;

	/*
	 * The application may have closed our descriptor and opened a file of
	 * its own under the same number (daemons close every fd at start-up):
	 * write only to the file we opened.
	 */
	if (fstat(fd, &st) < 0 || st.st_dev != id->dev || st.st_ino != id->ino) {
		if (!s->output_failed)
			trax_debug("%s of %s was closed by the application; the trace stops here",
				   what, s->path);
		s->output_failed = 1;
		return -EBADF;
	}
	err = trax_write_all(fd, buf, len, false);

	if (err == -EINVAL && (fcntl(fd, F_GETFL) & O_DIRECT)) {
		/* Direct I/O refused after all: go on with ordinary writes. */
		if (ftruncate(fd, *size) == 0 && lseek(fd, *size, SEEK_SET) == *size &&
		    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_DIRECT) == 0)
			err = trax_write_all(fd, buf, len, false);
	}

	if (err) {
		if (ftruncate(fd, *size) < 0 || lseek(fd, *size, SEEK_SET) < 0)
			trax_debug("cannot cut back %s after a failed write", what);
		output_error(s, what, err);
		return err;
	}
	*size += (off_t)len;
	return 0;
}

/* Appends the events bound since the last call to the metadata file. */
static void write_metadata(struct trax_session *s)
{
	struct trax_channel *ch = &s->channel;
	struct strbuf sb;
	uint32_t i;

	if (__atomic_load_n(&ch->metadata_generation, __ATOMIC_ACQUIRE) ==
	    s->metadata_generation_written)
		return;
	strbuf_init(&sb);
	trax_registry_lock();
	s->metadata_generation_written = ch->metadata_generation;
	for (i = s->metadata_events_written; i < ch->nr_events; i++)
		ctf_metadata_event(&sb, ch->events[i].cls, ch->events[i].id, ch->stream_id);
	s->metadata_events_written = ch->nr_events;
	trax_registry_unlock();
	if (sb.failed)
		trax_debug("out of memory writing the metadata");
	else if (sb.len && s->metadata_fd >= 0 && !s->output_failed)
		append(s, s->metadata_fd, &s->metadata_id, &s->metadata_size, sb.buf, sb.len,
		       "the metadata");
	strbuf_free(&sb);
}

/*
 * Appends a packet's entry to the stream file's index, then the packet to
 * the stream file. The entry first: a SIGKILL of the application in the
 * (long) write of the packet lets that write complete, so the files end up
 * agreeing, which they seldom did the other way round.
 */
static void write_packet(struct trax_session *s, int cpu, const void *subbuf)
{
	const struct ctf_packet_header *h = subbuf;
	const off_t at = s->stream_sizes[cpu];
	uint8_t entry[CTF_INDEX_ENTRY_LEN];
	off_t index_at;

	if (s->output_failed || s->stream_fds[cpu] < 0)
		return;
	index_at = s->index_sizes[cpu];
	ctf_index_entry(entry, (uint64_t)at, h);
	if (append(s, s->index_fds[cpu], &s->index_ids[cpu], &s->index_sizes[cpu], entry,
		   sizeof(entry), "an index file"))
		return;
	if (append(s, s->stream_fds[cpu], &s->stream_ids[cpu], &s->stream_sizes[cpu], subbuf,
		   (size_t)(h->packet_size / 8), "a stream file")) {
		/* no entry without its packet: the files keep agreeing */
		if (ftruncate(s->index_fds[cpu], index_at) == 0 &&
		    lseek(s->index_fds[cpu], index_at, SEEK_SET) == index_at)
			s->index_sizes[cpu] = index_at;
	}
}

/* Where ringbuf_drain and ringbuf_drain_overwrite deliver one CPU's packets. */
struct packet_sink {
	struct trax_session *s;
	int cpu;
};

static int sink_packet(void *arg, const void *subbuf)
{
	const struct packet_sink *k = arg;
	const struct ctf_packet_header *h = subbuf;

	if (h->packet_size / 8 <= k->s->channel.attr.subbuf_size)
		write_packet(k->s, k->cpu, subbuf);
	return 0;
}

/* Writes every complete sub-buffer (discard mode); returns how many. */
static unsigned int drain(struct trax_session *s)
{
	struct trax_channel *ch = &s->channel;
	struct ringbuf_drain_stats st = {0};
	struct packet_sink k = {s, 0};

	if (ch->attr.overwrite)
		return 0; /* a flight recorder keeps its data until the end */
	/* Metadata first: it must describe every event the packets hold. */
	write_metadata(s);
	for (k.cpu = 0; k.cpu < ch->nr_cpus; k.cpu++)
		ringbuf_drain(&ch->bufs[k.cpu], sink_packet, &k, &st);
	return (unsigned int)st.packets;
}

/*
 * Overwrite mode, at a flush (settled): the complete sub-buffers still in
 * memory, oldest first, each written once (a later flush resumes after the
 * last one written), by the rule of src/ringbuf/consumer.h.
 */
static void drain_overwrite(struct trax_session *s)
{
	struct trax_channel *ch = &s->channel;
	struct ringbuf_drain_stats st = {0};
	struct packet_sink k = {s, 0};

	write_metadata(s);
	if (!s->bounce && posix_memalign(&s->bounce, TRAX_PACKET_ALIGN, ch->attr.subbuf_size))
		s->bounce = NULL;
	if (!s->bounce) {
		output_error(s, "a stream file", -ENOMEM);
		return;
	}
	for (k.cpu = 0; k.cpu < ch->nr_cpus; k.cpu++)
		ringbuf_drain_overwrite(&ch->bufs[k.cpu], &s->overwrite_written[k.cpu], s->bounce,
					RINGBUF_DRAIN_SETTLED, sink_packet, &k, &st);
}

static void flush_all(struct trax_session *s)
{
	struct trax_channel *ch = &s->channel;
	int cpu;

	for (cpu = 0; cpu < ch->nr_cpus; cpu++)
		ringbuf_flush(&ch->bufs[cpu]);
}

static void report_discarded(struct trax_session *s)
{
	struct trax_channel *ch = &s->channel;
	uint64_t total = 0, too_large = 0;
	int cpu;

	for (cpu = 0; cpu < ch->nr_cpus; cpu++) {
		total += ringbuf_discarded(&ch->bufs[cpu]);
		too_large += ringbuf_too_large(&ch->bufs[cpu]);
	}
	if (total != s->discarded_reported) {
		if (total > too_large)
			trax_debug(
			    "channel %s: %llu events discarded so far: %llu found the buffers "
			    "full%s, %llu were too large",
			    ch->name, (unsigned long long)total,
			    (unsigned long long)(total - too_large),
			    ch->attr.overwrite ? "" : " (larger or more sub-buffers keep them)",
			    (unsigned long long)too_large);
		else
			trax_debug("channel %s: %llu events discarded so far, all too large for a "
				   "sub-buffer",
				   ch->name, (unsigned long long)total);
		s->discarded_reported = total;
	}
}

/*
 * Bounded wait for the records reserved before a flush: an application
 * thread that stopped in the middle of one must not hold up its exit.
 */
#define SETTLE_US 10000

static void final_flush(struct trax_session *s)
{
	flush_all(s);
	ringbuf_settle(s->channel.bufs, (unsigned int)s->channel.nr_cpus, SETTLE_US);
	if (s->channel.attr.overwrite)
		drain_overwrite(s);
	else
		drain(s);
	write_metadata(s);
	report_discarded(s);
}

static void *consumer_thread(void *arg)
{
	struct trax_session *s = arg;
	struct ringbuf_notify *nt = s->channel.notify;
	sigset_t all;

	/* Signals go to the application's threads, never here. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_setname_np(pthread_self(), "trax-consumer");

	while (!__atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE)) {
		uint32_t seq, req;

		__atomic_store_n(&nt->waiting, 1, __ATOMIC_SEQ_CST);
		seq = __atomic_load_n(&nt->seq, __ATOMIC_SEQ_CST);
		req = __atomic_load_n(&s->request, __ATOMIC_ACQUIRE);
		if (req != __atomic_load_n(&s->request_done, __ATOMIC_RELAXED)) {
			final_flush(s);
			__atomic_store_n(&s->request_done, req, __ATOMIC_RELEASE);
			continue;
		}
		if (drain(s) == 0) {
			write_metadata(s);
			trax_futex_wait(&nt->seq, seq, CONSUMER_PERIOD_NS);
		}
		__atomic_store_n(&nt->waiting, 0, __ATOMIC_RELAXED);
		if (trax_debug_enabled)
			report_discarded(s);
	}
	final_flush(s);
	return NULL;
}

int trax_consumer_start(struct trax_session *s)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&s->thread, NULL, consumer_thread, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		trax_debug("cannot start the consumer thread: %s", strerror(err));
		return -err;
	}
	s->thread_started = 1;
	return 0;
}

void trax_consumer_flush(struct trax_session *s, int final)
{
	if (!s->thread_started) {
		final_flush(s);
		return;
	}
	if (!final) {
		trax_consumer_flush_from_signal(s);
		return;
	}
	__atomic_store_n(&s->stopping, 1, __ATOMIC_RELEASE);
	__atomic_fetch_add(&s->channel.notify->seq, 1, __ATOMIC_SEQ_CST);
	trax_futex_wake(&s->channel.notify->seq);
	{
		/* Bounded: a consumer stuck on a hung file system must not hang exit. */
		struct timespec deadline;

		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += 10;
		if (pthread_timedjoin_np(s->thread, NULL, &deadline))
			trax_debug("the consumer did not finish within 10 s; exiting without it");
	}
	s->thread_started = 0;
}

void trax_consumer_flush_from_signal(struct trax_session *s)
{
	uint32_t req = __atomic_add_fetch(&s->request, 1, __ATOMIC_ACQ_REL);
	struct timespec pause = {0, 1000000};
	int waited;

	if (!s->thread_started || __atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE))
		return;
	__atomic_fetch_add(&s->channel.notify->seq, 1, __ATOMIC_SEQ_CST);
	trax_futex_wake(&s->channel.notify->seq);
	/* Bounded: a stuck consumer must not hang a dying application. */
	for (waited = 0; waited < 3000; waited++) {
		if ((int32_t)(__atomic_load_n(&s->request_done, __ATOMIC_ACQUIRE) - req) >= 0)
			return;
		nanosleep(&pause, NULL);
	}
}
