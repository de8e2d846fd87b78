/*
 * trace.c - the traces a session writes: one per uid (or per process),
 * each with one bufset per channel (docs/daemon.md, "Buffers and the
 * consumer"), the metadata that describes them, and the event ids handed
 * out to applications.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/io.h"
#include "common/clock.h"
#include "common/cpu.h"
#include "common/strbuf.h"
#include "common/uuid.h"
#include "ringbuf/consumer.h"
#include "writer/metadata.h"
#include "writer/trace-env.h"
#include "writer/packet.h"
#include "daemon/traxd.h"

/* The same packet header fields libtrax-ust writes (src/ust/channel.c). */
static void packet_open(struct ringbuf *rb, void *subbuf, uint64_t ts, uint64_t seq)
{
	struct dchan *dc = rb->owner;

	ctf_packet_open(subbuf, dc->trace->uuid, dc->stream_id, rb->cpu, ts, seq);
}

static void packet_close(struct ringbuf *rb __attribute__((unused)), void *subbuf, uint64_t ts_end,
			 uint64_t content, uint64_t discarded)
{
	ctf_packet_close(subbuf, ts_end, content, discarded);
}

static void metadata_append(struct dtrace *t, const struct strbuf *piece)
{
	if (t->metadata_fd >= 0 &&
	    trax_write_all(t->metadata_fd, piece->buf, piece->len, false) < 0)
		traxd_log("%s/metadata: %s", t->path, strerror(errno));
}

static void metadata_header(struct dtrace *t, struct strbuf *sb)
{
	struct ctfw_env_entry env[CTF_ENV_UST_MAX];
	struct ctf_env_ust_desc d = {0};
	struct ctfw_trace td;

	d.per_pid = t->per_pid;
	d.buffering_id = t->key;
	d.bits = t->bits;
	d.trace_name = t->session->name;
	d.creation_datetime = t->session->creation_time;
	d.hostname = traxd.hostname;
	d.procname = t->procname;
	d.vpid_datetime = t->vpid_datetime;
	memset(&td, 0, sizeof(td));
	memcpy(td.uuid, t->uuid, 16);
	trax_clock_describe(&td.clock);
	td.env = env;
	td.nr_env = ctf_env_ust(env, &d);
	ctf_metadata_trace(sb, &td);
}

static struct dtrace *trace_get(struct session *s, const struct app *a, bool per_pid)
{
	int key = per_pid ? a->pid : a->uid;
	struct dtrace *t;
	char dt[32];
	time_t now = time(NULL);
	struct tm tm;
	struct strbuf sb;
	int err;

	for (t = s->traces; t; t = t->next)
		if (t->per_pid == per_pid && t->key == key && !t->app_gone)
			return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->session = s;
	t->per_pid = per_pid;
	t->key = key;
	t->metadata_fd = -1;
	snprintf(t->procname, sizeof(t->procname), "%s", a->procname);
	t->bits = a->bits;
	ctf_env_datetime(t->vpid_datetime, sizeof(t->vpid_datetime), (int64_t)now);
	pthread_mutex_init(&t->lock, NULL);
	trax_uuid_generate(t->uuid);
	localtime_r(&now, &tm);
	strftime(dt, sizeof(dt), "%Y%m%d-%H%M%S", &tm);
	if (per_pid)
		snprintf(t->path, sizeof(t->path), "%s/ust/pid/%s-%d-%s", s->output, a->procname,
			 a->pid, dt);
	else
		snprintf(t->path, sizeof(t->path), "%s/ust/uid/%d/%d-bit", s->output, a->uid,
			 a->bits);
	if (!s->snapshot && !s->no_output) {
		char path[TRAXD_PATH_MAX + 256];

		err = trax_mkdirs(t->path, 0770);
		snprintf(path, sizeof(path), "%s/metadata", t->path);
		if (!err) {
			t->metadata_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
			if (t->metadata_fd < 0)
				err = -errno;
		}
		if (err) {
			traxd_log("%s: %s", t->path, strerror(-err));
			pthread_mutex_destroy(&t->lock);
			free(t);
			return NULL;
		}
	}
	strbuf_init(&sb);
	metadata_header(t, &sb);
	t->meta = malloc(sizeof(*t->meta));
	if (!t->meta || sb.failed) {
		strbuf_free(&sb);
		if (t->metadata_fd >= 0)
			close(t->metadata_fd);
		free(t->meta);
		free(t);
		return NULL;
	}
	metadata_append(t, &sb);
	t->meta->sb = sb;
	t->next = s->traces;
	s->traces = t;
	return t;
}

/* Adds a piece to the trace's metadata, in memory and in its file. */
static void metadata_add(struct dtrace *t, const struct strbuf *piece)
{
	pthread_mutex_lock(&t->lock);
	metadata_append(t, piece);
	strbuf_add(&t->meta->sb, piece->buf, piece->len);
	pthread_mutex_unlock(&t->lock);
}

struct dchan *trace_channel_get(struct session *s, const struct channel *c, const struct app *a)
{
	struct dtrace *t = trace_get(s, a, c->attr.per_pid);
	struct ctfw_field context[CTF_CTX_COUNT];
	struct ctfw_stream sd;
	struct strbuf sb;
	struct dchan *dc;
	int err;

	if (!t)
		return NULL;
	for (dc = t->chans; dc; dc = dc->next)
		if (dc->chan == c)
			return dc;
	dc = calloc(1, sizeof(*dc));
	if (!dc)
		return NULL;
	dc->trace = t;
	dc->chan = c;
	dc->stream_id = c->stream_id;
	dc->shm.fd = -1;
	dc->nr_cpus = (unsigned int)trax_cpu_count();
	dc->cfg.subbuf_size = c->attr.subbuf_size;
	dc->cfg.num_subbuf = c->attr.num_subbuf;
	dc->cfg.mode = c->attr.overwrite ? RINGBUF_OVERWRITE : RINGBUF_DISCARD;
	dc->cfg.header_size = sizeof(struct ctf_packet_header);
	dc->cfg.ts_bits = CTF_COMPACT_TS_BITS;
	dc->cfg.open = packet_open;
	dc->cfg.close = packet_close;
	dc->rbs = calloc(dc->nr_cpus, sizeof(*dc->rbs));
	err = dc->rbs
		  ? trax_shm_create(&dc->shm, "traxd-channel", bufset_size(&dc->cfg, dc->nr_cpus))
		  : -ENOMEM;
	if (!err)
		err = bufset_create(dc->shm.addr, dc->rbs, &dc->cfg, dc->nr_cpus);
	if (err) {
		traxd_log("channel %s: cannot create its buffers: %s", c->name, strerror(-err));
		if (dc->shm.fd >= 0)
			trax_shm_destroy(&dc->shm);
		free(dc->rbs);
		free(dc);
		return NULL;
	}
	for (unsigned int i = 0; i < dc->nr_cpus; i++) {
		dc->rbs[i].owner = dc;
		dc->rbs[i].cpu = (int)i;
	}
	bufset_ctrl(dc->shm.addr)->active = s->active;
	memset(&sd, 0, sizeof(sd));
	sd.id = dc->stream_id;
	sd.event_context = context;
	sd.nr_event_context = ctf_context_fields(context, c->contexts, c->ncontexts);
	strbuf_init(&sb);
	ctf_metadata_stream(&sb, &sd);
	metadata_add(t, &sb);
	strbuf_free(&sb);
	if (!s->snapshot && !s->no_output && (consumer_open_files(dc) || consumer_start(dc))) {
		traxd_log("channel %s: cannot write %s", c->name, t->path);
		/* the buffers still work: events are counted as lost when they fill */
	}
	dc->next = t->chans;
	t->chans = dc;
	return dc;
}

int trace_event_id(struct dchan *dc, const struct app_event *e, uint32_t *id)
{
	struct strbuf sb;

	for (uint32_t i = 0; i < dc->nevents; i++)
		if (!strcmp(dc->events[i].name, e->name) &&
		    !strcmp(dc->events[i].signature, e->signature)) {
			*id = dc->events[i].id;
			return 0;
		}
	if (dc->nevents == dc->cap_events) {
		uint32_t cap = dc->cap_events ? dc->cap_events * 2 : 32;
		struct dchan_event *n = realloc(dc->events, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		dc->events = n;
		dc->cap_events = cap;
	}
	dc->events[dc->nevents].name = strdup(e->name);
	dc->events[dc->nevents].signature = strdup(e->signature);
	if (!dc->events[dc->nevents].name || !dc->events[dc->nevents].signature) {
		free(dc->events[dc->nevents].name);
		free(dc->events[dc->nevents].signature);
		return -ENOMEM;
	}
	*id = dc->events[dc->nevents].id = dc->nevents;
	dc->events[dc->nevents].described = true;
	dc->nevents++;
	/* described before any application can record it */
	strbuf_init(&sb);
	ctf_metadata_event(&sb, &e->cls, *id, dc->stream_id);
	metadata_add(dc->trace, &sb);
	strbuf_free(&sb);
	return 0;
}

void trace_set_active(struct session *s, bool active)
{
	for (struct dtrace *t = s->traces; t; t = t->next)
		for (struct dchan *dc = t->chans; dc; dc = dc->next)
			__atomic_store_n(&bufset_ctrl(dc->shm.addr)->active, active ? 1u : 0u,
					 __ATOMIC_RELEASE);
}

/*
 * Bounded wait for the records reserved before a flush: an application
 * that died in the middle of one never commits it.
 */
#define SETTLE_US 200000

static void flush_chan(struct dchan *dc)
{
	for (unsigned int i = 0; i < dc->nr_cpus; i++)
		ringbuf_flush(&dc->rbs[i]);
	ringbuf_settle(dc->rbs, dc->nr_cpus, SETTLE_US);
}

/* Whether process pid has ended (a zombie has: it writes nothing any more). */
static bool process_ended(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool ended = false;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ')
		ended = p[2] == 'Z' || p[2] == 'X';
	fclose(f);
	return ended;
}

/*
 * Whether the writers of trace t have all ended (per process), and notes
 * in its channels the deaths of its applications that the daemon has not
 * read from their sockets yet: `stop` may come first, and what those
 * applications left stalled must be repaired before stop returns.
 */
static bool note_deaths(struct dtrace *t)
{
	bool any = false, all_gone = t->per_pid && t->app_gone;

	for (struct app *a = traxd.apps; a; a = a->next) {
		if (t->per_pid ? a->pid != t->key : a->uid != t->key)
			continue;
		if (process_ended(a->pid)) {
			any = true;
			if (t->per_pid)
				all_gone = true;
		}
	}
	if (any) {
		uint64_t now = trax_clock_read();

		for (struct dchan *dc = t->chans; dc; dc = dc->next)
			__atomic_store_n(&dc->last_death_ts, now, __ATOMIC_RELEASE);
	}
	return all_gone;
}

int trace_flush_session(struct session *s)
{
	for (struct dtrace *t = s->traces; t; t = t->next) {
		bool ended;

		if (s->snapshot)
			continue;
		ended = note_deaths(t);
		for (struct dchan *dc = t->chans; dc; dc = dc->next) {
			flush_chan(dc);
			pthread_mutex_lock(&t->lock);
			consumer_drain(dc, true);
			/* flush_chan waited for pending records: what stays stalled is dead */
			consumer_repair(dc, 0, ended);
			pthread_mutex_unlock(&t->lock);
		}
	}
	return 0;
}

void trace_app_gone(struct session *s, const struct app *a)
{
	uint64_t now = trax_clock_read();

	for (struct dtrace *t = s->traces; t; t = t->next) {
		if (!t->per_pid) {
			/*
			 * Its user's buffers: if it died in the middle of a record, the
			 * consumer repairs that packet once nothing moves in it
			 * (consumer_repair); the other processes go on writing.
			 */
			if (t->key == (int)a->uid)
				for (struct dchan *dc = t->chans; dc; dc = dc->next)
					__atomic_store_n(&dc->last_death_ts, now, __ATOMIC_RELEASE);
			continue;
		}
		if (t->key != a->pid || t->app_gone)
			continue;
		for (struct dchan *dc = t->chans; dc; dc = dc->next) {
			consumer_stop(dc);
			if (!s->snapshot) {
				flush_chan(dc);
				pthread_mutex_lock(&t->lock);
				consumer_drain(dc, true);
				/* its own buffers: every writer is gone */
				consumer_repair(dc, 0, true);
				pthread_mutex_unlock(&t->lock);
			}
		}
		t->app_gone = true;
	}
}

static void chan_free(struct dchan *dc)
{
	consumer_stop(dc);
	for (unsigned int i = 0; dc->fds && i < dc->nr_cpus; i++)
		if (dc->fds[i] >= 0)
			close(dc->fds[i]);
	for (unsigned int i = 0; dc->index_fds && i < dc->nr_cpus; i++)
		if (dc->index_fds[i] >= 0)
			close(dc->index_fds[i]);
	for (uint32_t i = 0; i < dc->nevents; i++) {
		free(dc->events[i].name);
		free(dc->events[i].signature);
	}
	free(dc->events);
	free(dc->fds);
	free(dc->index_fds);
	free(dc->file_size);
	free(dc->file_index);
	free(dc->ow_written);
	free(dc->bounce);
	free(dc->stalls);
	trax_shm_destroy(&dc->shm);
	free(dc->rbs);
	free(dc);
}

void trace_destroy_session(struct session *s)
{
	struct dtrace *t = s->traces, *tn;

	for (; t; t = tn) {
		struct dchan *dc = t->chans, *dn;

		tn = t->next;
		for (; dc; dc = dn) {
			dn = dc->next;
			chan_free(dc);
		}
		if (t->metadata_fd >= 0)
			close(t->metadata_fd);
		strbuf_free(&t->meta->sb);
		free(t->meta);
		pthread_mutex_destroy(&t->lock);
		free(t);
	}
	s->traces = NULL;
}

/* ---- snapshots ---- */

/* Where a snapshot writes one CPU's packets. */
struct snapshot_sink {
	int fd;
	const struct dchan *dc;
};

/* Appends a packet to the snapshot's stream file: 0, or -errno (which ends the snapshot). */
static int snapshot_packet(void *arg, const void *subbuf)
{
	const struct snapshot_sink *k = arg;
	const struct ctf_packet_header *h = subbuf;

	if (!consumer_packet_valid(k->dc, h))
		return 0; /* not a packet (the shared memory is the applications'): left out */
	return trax_write_all(k->fd, subbuf, h->packet_size / 8, false);
}

/* Writes the complete sub-buffers of dc still in memory, oldest first, to dir. */
static int snapshot_chan(struct dchan *dc, const char *dir, void *bounce)
{
	for (unsigned int cpu = 0; cpu < dc->nr_cpus; cpu++) {
		struct snapshot_sink k = {-1, dc};
		struct ringbuf_drain_stats st = {0};
		char path[2 * TRAXD_PATH_MAX];
		int err;

		snprintf(path, sizeof(path), "%s/%s_%u", dir, dc->chan->name, cpu);
		k.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
		if (k.fd < 0)
			return -errno;
		err = ringbuf_snapshot(&dc->rbs[cpu], bounce, snapshot_packet, &k, &st);
		close(k.fd);
		if (err)
			return err;
	}
	return 0;
}

int trace_snapshot(struct session *s, const char *output, char *path, size_t pathlen)
{
	char dt[32];
	time_t now = time(NULL);
	struct tm tm;
	int err = 0;

	localtime_r(&now, &tm);
	strftime(dt, sizeof(dt), "%Y%m%d-%H%M%S", &tm);
	if ((size_t)snprintf(path, pathlen, "%s/snapshot-%u-%s-%u", output ? output : s->output,
			     s->snapshot_count + 1, dt, s->snapshot_count) >= pathlen)
		return -ENAMETOOLONG;
	for (struct dtrace *t = s->traces; t && !err; t = t->next) {
		char dir[TRAXD_PATH_MAX + 256], mpath[TRAXD_PATH_MAX + 300];
		const char *rel = t->path + strlen(s->output);
		void *bounce = NULL;
		int fd;

		snprintf(dir, sizeof(dir), "%s%s", path, rel);
		err = trax_mkdirs(dir, 0770);
		if (err)
			break;
		for (struct dchan *dc = t->chans; dc && !err; dc = dc->next) {
			flush_chan(dc);
			bounce = realloc(bounce, dc->cfg.subbuf_size);
			err = bounce ? snapshot_chan(dc, dir, bounce) : -ENOMEM;
		}
		free(bounce);
		snprintf(mpath, sizeof(mpath), "%s/metadata", dir);
		fd = open(mpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
		if (fd < 0) {
			err = -errno;
			break;
		}
		pthread_mutex_lock(&t->lock);
		if (!err)
			err = trax_write_all(fd, t->meta->sb.buf, t->meta->sb.len, false);
		pthread_mutex_unlock(&t->lock);
		close(fd);
	}
	if (!err)
		s->snapshot_count++;
	return err;
}
