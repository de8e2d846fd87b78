/*
 * lconvert.c - a legacy trace converted into a CTF trace (lconvert.h):
 * the metadata (trace, one stream class per channel, the event classes of
 * each channel) is written first, then each tracefile, streaming, into
 * its stream file. A class met in a file of another channel is described
 * there when first met.
 *
 * With threads (the reader's conversions), each thread converts whole
 * tracefiles through its own open of the legacy trace: the legacy readers'
 * caches (plans, alignments, a class's ABI fallback) are then never
 * shared. What is shared (the metadata file, class ids, statistics, the
 * caller's callbacks) is under conv.lock; a thread keeps the class ids it
 * has used. Classes are then described in the order the threads meet them.
 */
#include "legacy/lconvert.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "legacy/larena.h"
#include "common/uuid.h"
#include "legacy/lconvert-type.h"
#include "legacy/legacy.h"
#include "writer/desc.h"
#include "writer/metadata.h"
#include "writer/stream-file.h"

#define PACKET_SIZE (1u << 18)
#define NO_ID	    UINT32_MAX

struct conv {
	struct ltt_trace *t;
	const char *dir;
	struct ltt_convert_stats *st;
	uint8_t uuid[16];
	int metadata_fd;
	int write_error; /* the first: -errno */
	struct lconv_arena arena;
	size_t nclasses;
	struct ctfw_event_class *classes; /* per class index */
	const char **channels;		  /* stream class id → channel name */
	size_t nchannels;
	uint32_t **ids;	      /* [stream][class]: the id in that stream, NO_ID: not described */
	uint32_t *next_id;    /* [stream] */
	uint64_t done, total; /* progress: bytes of the files done, of all */
	/* threads: under lock, the state above that files change, and these */
	pthread_mutex_t lock;
	bool threaded;
	size_t next_file;   /* the next tracefile to convert */
	size_t err_file;    /* the first (by index) that stopped on an error */
	char err_msg[1024]; /* its message */
	uint64_t *reading;  /* [thread]: bytes into the file it converts */
	unsigned nthreads;
};

/* A converting thread's own state: its trace, buffers and caches. */
struct conv_worker {
	struct conv *c;
	unsigned index;
	struct ltt_trace *t;
	struct lconv_buf rec;
	struct class_plans *plans; /* per class index */
	uint32_t *ids;		   /* [stream * nclasses + class]: NO_ID until asked */
	uint64_t events, skipped, discarded;
};

/*
 * A class's fixed-layout plans (ltt_payload_plan), made when first needed:
 * one per start alignment of its payloads (base modulo the ABI's
 * alignment, up to 8), so that most payloads need no walk of their type.
 */
#define PLAN_KEYS 8

struct class_plans {
	struct ltt_plan *pl[PLAN_KEYS];
	size_t rec_len[PLAN_KEYS];
	uint8_t tried; /* a bit per key */
};

static const struct ltt_plan *class_plan(struct conv_worker *w, const struct ltt_class *cls,
					 size_t base, size_t *rec_len)
{
	unsigned a = cls->abi.alignment, key;
	struct class_plans *cp;

	if (!w->plans || cls->index >= w->c->nclasses || a > PLAN_KEYS)
		return NULL;
	key = a > 1 ? (unsigned)(base & (a - 1)) : 0;
	cp = &w->plans[cls->index];
	if (!(cp->tried & 1u << key)) {
		cp->tried |= (uint8_t)(1u << key);
		cp->pl[key] = ltt_payload_plan(cls->payload, &cls->abi, base);
		if (cp->pl[key])
			cp->rec_len[key] = lconv_plan_record_len(cp->pl[key]);
	}
	*rec_len = cp->rec_len[key];
	return cp->pl[key];
}

static void conv_lock(struct conv *c)
{
	if (c->threaded)
		pthread_mutex_lock(&c->lock);
}

static void conv_unlock(struct conv *c)
{
	if (c->threaded)
		pthread_mutex_unlock(&c->lock);
}

/* (the callers of the threads' warnings hold the lock) */
static void warn(struct conv *c, const char *line)
{
	if (c->st->warn && line && *line)
		c->st->warn(c->st->arg, line);
}

static void worker_warn(struct conv_worker *w, const char *line)
{
	if (line && *line) {
		conv_lock(w->c);
		warn(w->c, line);
		conv_unlock(w->c);
	}
}

static void metadata_put(struct conv *c, const struct strbuf *sb)
{
	size_t off = 0;

	if (sb->failed && !c->write_error)
		c->write_error = -ENOMEM;
	while (!c->write_error && off < sb->len) {
		ssize_t n = write(c->metadata_fd, sb->buf + off, sb->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			c->write_error = n < 0 ? -errno : -EIO;
		else
			off += (size_t)n;
	}
}

static size_t channel_index(struct conv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nchannels; i++)
		if (!strcmp(c->channels[i], name))
			return i;
	return i;
}

/* Adds channel name when new; -1 on no memory. */
static int channel_add(struct conv *c, const char *name)
{
	const char **v;
	uint32_t **ids;
	uint32_t *next;

	if (channel_index(c, name) < c->nchannels)
		return 0;
	v = realloc(c->channels, (c->nchannels + 1) * sizeof(*v));
	if (v)
		c->channels = v;
	ids = realloc(c->ids, (c->nchannels + 1) * sizeof(*ids));
	if (ids)
		c->ids = ids;
	next = realloc(c->next_id, (c->nchannels + 1) * sizeof(*next));
	if (next)
		c->next_id = next;
	if (!v || !ids || !next)
		return -1;
	c->ids[c->nchannels] = malloc((c->nclasses ? c->nclasses : 1) * sizeof(uint32_t));
	if (!c->ids[c->nchannels])
		return -1;
	for (size_t i = 0; i < c->nclasses; i++)
		c->ids[c->nchannels][i] = NO_ID;
	c->next_id[c->nchannels] = 0;
	c->channels[c->nchannels++] = name;
	return 0;
}

/* Class k's id in stream s, described there first when it is not yet (c locked). */
static uint32_t class_id(struct conv *c, size_t s, size_t k)
{
	struct strbuf sb;
	uint32_t id = c->ids[s][k];

	if (id != NO_ID)
		return id;
	id = c->ids[s][k] = c->next_id[s]++;
	strbuf_init(&sb);
	ctf_metadata_event(&sb, &c->classes[k], id, (uint32_t)s);
	metadata_put(c, &sb);
	strbuf_free(&sb);
	c->st->classes++;
	return id;
}

/* class_id for a thread: its own copy first. */
static uint32_t worker_class_id(struct conv_worker *w, size_t s, size_t k)
{
	uint32_t *slot = &w->ids[s * w->c->nclasses + k];

	if (*slot == NO_ID) {
		conv_lock(w->c);
		*slot = class_id(w->c, s, k);
		conv_unlock(w->c);
	}
	return *slot;
}

static const char *format_name(enum ltt_format f)
{
	return f == LTT_FORMAT_LTTV ? "lttv" : f == LTT_FORMAT_COMPACT ? "compact" : "unknown";
}

/* The metadata's preamble: the trace (its env from the legacy header), the streams. */
static void describe_trace(struct conv *c)
{
	const struct ltt_trace_info *in = ltt_trace_info(c->t);
	char version[16], arch[48];
	struct ctfw_env_entry env[16];
	struct ctfw_trace td;
	struct strbuf sb;
	unsigned n = 0;

	snprintf(version, sizeof(version), "%u.%u", in->major, in->minor);
	snprintf(arch, sizeof(arch), "%" PRIu32 ".%" PRIu32, in->arch_type, in->arch_variant);
	env[n++] = (struct ctfw_env_entry){.key = "tracer_name", .str = "lttng-0.x"};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_format", .str = format_name(in->format)};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_version", .str = version};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_arch", .str = arch};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_arch_size", .num = in->arch_size};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_byte_order",
					   .str = in->big_endian ? "be" : "le"};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_alignment", .num = in->alignment};
	env[n++] =
	    (struct ctfw_env_entry){.key = "legacy_flight_recorder", .num = in->flight_recorder};
	env[n++] =
	    (struct ctfw_env_entry){.key = "legacy_start_freq", .num = (int64_t)in->start_freq};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_freq_scale", .num = in->freq_scale};
	env[n++] =
	    (struct ctfw_env_entry){.key = "legacy_start_tsc", .num = (int64_t)in->start_tsc};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_start_time_sec",
					   .num = (int64_t)in->start_time_sec};
	env[n++] = (struct ctfw_env_entry){.key = "legacy_start_time_usec",
					   .num = (int64_t)in->start_time_usec};
	env[n++] = (struct ctfw_env_entry){.key = "domain", .str = "kernel"};

	memset(&td, 0, sizeof(td));
	memcpy(td.uuid, c->uuid, 16);
	td.clock.name = "legacy";
	td.clock.description = "the legacy trace's time: ns from its start time and TSC";
	td.clock.freq = 1000000000;
	td.clock.absolute = true; /* ns since the epoch, from the trace's gettimeofday */
	trax_uuid_string(td.clock.uuid);
	td.env = env;
	td.nr_env = n;
	strbuf_init(&sb);
	ctf_metadata_trace(&sb, &td);
	for (size_t s = 0; s < c->nchannels; s++) {
		struct ctfw_stream cs = {.id = (uint32_t)s};

		ctf_metadata_stream(&sb, &cs);
	}
	metadata_put(c, &sb);
	strbuf_free(&sb);
}

/* Every class's CTF description; the channels of files and classes. */
static int prepare(struct conv *c)
{
	c->nclasses = ltt_trace_class_count(c->t);
	c->classes = calloc(c->nclasses ? c->nclasses : 1, sizeof(*c->classes));
	if (!c->classes)
		return -1;
	for (size_t k = 0; k < c->nclasses; k++) {
		const struct ltt_class *cls = ltt_trace_class(c->t, k);
		struct ctfw_event_class *ec = &c->classes[k];

		ec->name = cls->name ? cls->name : "unnamed";
		ec->loglevel = -1;
		if (lconv_payload_fields(&c->arena, cls->payload, &cls->abi, &ec->fields,
					 &ec->nr_fields))
			return -1;
	}
	for (size_t i = 0; i < ltt_trace_file_count(c->t); i++)
		if (channel_add(c, ltt_trace_file(c->t, i)->channel))
			return -1;
	for (size_t k = 0; k < c->nclasses; k++) {
		const struct ltt_class *cls = ltt_trace_class(c->t, k);

		if (cls->channel && channel_add(c, cls->channel))
			return -1;
	}
	return 0;
}

/* Stream file name: the channel's, '/' as '_', then _CPU. */
static void stream_name(char *out, size_t size, const struct ltt_file_info *fi)
{
	size_t n = (size_t)snprintf(out, size, "%s_%d", fi->channel, fi->cpu);

	for (size_t i = 0; i < n && i < size; i++)
		if (out[i] == '/')
			out[i] = '_';
}

/* Progress for a thread bytes into its file (from time to time). */
static void worker_progress(struct conv_worker *w, uint64_t at)
{
	struct conv *c = w->c;
	uint64_t sum;

	conv_lock(c);
	c->reading[w->index] = at;
	sum = c->done;
	for (unsigned k = 0; k < c->nthreads; k++)
		sum += c->reading[k];
	c->st->progress(c->st->arg, sum, c->total);
	conv_unlock(c);
}

/*
 * Tracefile i into its stream file: 0, 1 when the cursor stopped on an
 * error (msg set), -1 on a write error (c->write_error).
 */
static int convert_file(struct conv_worker *w, size_t i, char *msg, size_t msglen)
{
	struct conv *c = w->c;
	const struct ltt_file_info *fi = ltt_trace_file(w->t, i);
	size_t s = channel_index(c, fi->channel);
	struct ctfw_stream_file f;
	struct ltt_cursor *cur;
	struct ltt_event ev;
	uint64_t lost = 0, last_ns = 0;
	char name[256], derr[300];
	int st, e, ret = 0;

	stream_name(name, sizeof(name), fi);
	e = ctfw_stream_file_open(&f, c->dir, name, c->uuid, (uint32_t)s, fi->cpu < 0 ? 0 : fi->cpu,
				  PACKET_SIZE);
	conv_lock(c);
	if (e)
		c->write_error = c->write_error ? c->write_error : e;
	else
		c->st->files++;
	if (!e && c->st->file)
		c->st->file(c->st->arg, fi->path, name);
	conv_unlock(c);
	if (e)
		return -1;
	cur = ltt_cursor_open(w->t, i);
	if (!cur) {
		snprintf(msg, msglen, "%s: out of memory", fi->path);
		ctfw_stream_file_close(&f, 0);
		return 1;
	}
	ltt_cursor_trust_sizes(cur); /* the walk below is the payload's only one */
	while ((st = ltt_cursor_next(cur, &ev)) > 0) {
		struct lconv_sink_ctx sc = {.out = &w->rec, .abi = &ev.cls->abi};
		const struct ltt_plan *pl;
		size_t rec_len = 0;
		uint32_t id;
		void *p;
		long n;

		worker_warn(w, ltt_cursor_warning(cur));
		if (ev.lost_before) {
			/*
			 * The loss is placed where it happened: the packet so
			 * far ends at the previous event, an empty one carries
			 * the count up to this event's time.
			 */
			lost += ev.lost_before;
			w->discarded += ev.lost_before;
			ctfw_stream_file_flush(&f, last_ns);
			ctfw_stream_file_set_discarded(&f, lost);
			ctfw_stream_file_flush(&f, ev.ns > 0 ? (uint64_t)ev.ns : 0);
		}
		pl = class_plan(w, ev.cls, ev.base, &rec_len);
		if (pl && (ev.size_unchecked ? ltt_plan_size(pl, ev.len) != (long)ev.len
					     : ltt_plan_size(pl, ev.len) < 0))
			pl = NULL; /* too short (or not the header's size): the walk says why */
		w->rec.len = 0;
		n = pl ? 0
		       : ltt_payload_decode(ev.cls->payload, &ev.cls->abi, ev.payload, ev.len,
					    ev.base, &lconv_sink, &sc, derr, sizeof(derr));
		if (!pl && ev.size_unchecked && n != -2 && n != (long)ev.len) {
			/* the cursor's check, left to this walk: skip, or walk again */
			if (ltt_cursor_check_size(cur, &ev) < 0)
				continue; /* (its warning is taken at the next event) */
			w->rec.len = 0;
			n = ltt_payload_decode(ev.cls->payload, &ev.cls->abi, ev.payload, ev.len,
					       ev.base, &lconv_sink, &sc, derr, sizeof(derr));
		}
		if (n < 0 || w->rec.failed) {
			char line[700];

			snprintf(line, sizeof(line), "%s: event at byte %" PRIu64 " (%s): %s",
				 fi->path, ev.offset, ev.cls->name,
				 w->rec.failed ? "out of memory" : derr);
			lmsg_one_line(line); /* the class name comes from the trace */
			worker_warn(w, line);
			w->skipped++;
			w->rec.failed = 0;
			continue;
		}
		id = worker_class_id(w, s, ev.cls->index);
		last_ns = ev.ns > 0 ? (uint64_t)ev.ns : 0;
		p = ctfw_stream_file_reserve(&f, id, last_ns, pl ? rec_len : w->rec.len);
		if (!p) {
			if (f.error)
				break;
			w->skipped++;
			continue;
		}
		if (pl)
			lconv_plan_write(pl, ev.payload, p);
		else if (w->rec.len) /* (an event without fields: no buffer yet) */
			memcpy(p, w->rec.p, w->rec.len);
		w->events++;
		if (c->st->progress && (w->events & 0xffff) == 0)
			worker_progress(w, ev.offset);
	}
	worker_warn(w, ltt_cursor_warning(cur));
	if (st < 0) {
		snprintf(msg, msglen, "%s", ltt_cursor_error(cur));
		ret = 1;
	}
	ltt_cursor_close(cur);
	e = ctfw_stream_file_close(&f, last_ns);
	conv_lock(c);
	if ((e || f.error) && !c->write_error)
		c->write_error = e ? e : f.error;
	c->done += (uint64_t)fi->blocks * fi->block_size;
	c->reading[w->index] = 0;
	conv_unlock(c);
	return e || f.error ? -1 : ret;
}

/* Converts the tracefiles not yet taken, one at a time, until none is left. */
static void *worker_run(void *arg)
{
	struct conv_worker *w = arg;
	struct conv *c = w->c;
	char msg[1024];

	for (;;) {
		size_t i;

		conv_lock(c);
		i = c->write_error ? SIZE_MAX : c->next_file++;
		conv_unlock(c);
		if (i >= ltt_trace_file_count(w->t))
			break;
		msg[0] = 0;
		if (convert_file(w, i, msg, sizeof(msg)) > 0) {
			conv_lock(c);
			if (i < c->err_file) { /* the first file's error, as one thread says it */
				c->err_file = i;
				snprintf(c->err_msg, sizeof(c->err_msg), "%s", msg);
			}
			conv_unlock(c);
		}
	}
	return NULL;
}

static void worker_free(struct conv_worker *w)
{
	for (size_t k = 0; w->plans && k < w->c->nclasses; k++)
		for (unsigned j = 0; j < PLAN_KEYS; j++)
			free(w->plans[k].pl[j]);
	free(w->plans);
	free(w->ids);
	free(w->rec.p);
	if (w->t && w->t != w->c->t)
		ltt_trace_close(w->t);
}

/*
 * Worker k's state, k > 0 with its own open of legacy_dir: 0, -1 when it
 * cannot have one (memory; a trace that does not open the same twice).
 */
static int worker_init(struct conv_worker *w, struct conv *c, unsigned k, const char *legacy_dir)
{
	char err[512];

	memset(w, 0, sizeof(*w));
	w->c = c;
	w->index = k;
	w->t = k ? ltt_trace_open(legacy_dir, err, sizeof(err)) : c->t;
	if (!w->t)
		return -1;
	if (ltt_trace_class_count(w->t) != c->nclasses ||
	    ltt_trace_file_count(w->t) != ltt_trace_file_count(c->t))
		return -1;
	w->plans = calloc(c->nclasses ? c->nclasses : 1, sizeof(*w->plans)); /* NULL: walk all */
	w->ids = malloc((c->nchannels * c->nclasses + 1) * sizeof(*w->ids));
	if (!w->ids)
		return -1;
	for (size_t j = 0; j < c->nchannels * c->nclasses; j++)
		w->ids[j] = NO_ID;
	return 0;
}

static int make_dir(const char *dir)
{
	char path[4096];

	if (mkdir(dir, 0775) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/index", dir);
	if (mkdir(path, 0775) && errno != EEXIST)
		return -errno;
	return 0;
}

static void conv_free(struct conv *c)
{
	for (size_t s = 0; s < c->nchannels; s++)
		free(c->ids[s]);
	free(c->ids);
	free(c->next_id);
	free(c->channels);
	free(c->classes);
	lconv_arena_free(&c->arena);
	if (c->metadata_fd >= 0)
		close(c->metadata_fd);
	if (c->t)
		ltt_trace_close(c->t);
}

/*
 * The tracefiles converted by st->threads threads (at most one per file;
 * fewer when a thread cannot have its own open of the trace), the calling
 * thread one of them; their counts added into st.
 */
static void run_workers(struct conv *c, const char *legacy_dir)
{
	unsigned want = c->st->threads ? c->st->threads : 1, n = 0;
	struct conv_worker w[LCONV_MAX_THREADS];
	pthread_t tid[LCONV_MAX_THREADS];
	uint64_t reading[LCONV_MAX_THREADS] = {0};
	unsigned started = 1;

	if (want > LCONV_MAX_THREADS)
		want = LCONV_MAX_THREADS;
	if (want > ltt_trace_file_count(c->t))
		want = (unsigned)ltt_trace_file_count(c->t);
	c->reading = reading;
	c->err_file = SIZE_MAX;
	for (n = 0; n < (want ? want : 1); n++) {
		if (worker_init(&w[n], c, n, legacy_dir)) {
			worker_free(&w[n]);
			if (n == 0)
				c->write_error = -ENOMEM;
			break;
		}
	}
	if (n == 0)
		return;
	c->nthreads = n;
	c->threaded = n > 1;
	if (c->threaded)
		pthread_mutex_init(&c->lock, NULL);
	for (; started < n; started++)
		if (pthread_create(&tid[started], NULL, worker_run, &w[started]))
			break;
	worker_run(&w[0]);
	for (unsigned k = 1; k < started; k++)
		pthread_join(tid[k], NULL);
	for (unsigned k = 0; k < n; k++) {
		c->st->events += w[k].events;
		c->st->skipped += w[k].skipped;
		c->st->discarded += w[k].discarded;
		worker_free(&w[k]);
	}
	if (c->threaded)
		pthread_mutex_destroy(&c->lock);
	c->threaded = false;
	c->reading = NULL;
}

int ltt_convert(const char *legacy_dir, const char *ctf_dir, struct ltt_convert_stats *st,
		char *err, size_t errlen)
{
	struct ltt_convert_stats dummy;
	struct conv c;
	char path[4096];
	const char *w;
	int ret = 0, e;

	if (!st) {
		memset(&dummy, 0, sizeof(dummy));
		st = &dummy;
	}
	st->events = st->discarded = st->skipped = 0;
	st->files = st->classes = 0;
	memset(&c, 0, sizeof(c));
	c.metadata_fd = -1;
	c.dir = ctf_dir;
	c.st = st;
	c.t = ltt_trace_open(legacy_dir, err, errlen);
	if (!c.t)
		return -2;
	for (size_t i = 0; (w = ltt_trace_warning(c.t, i)); i++)
		warn(&c, w);
	for (size_t i = 0; i < ltt_trace_file_count(c.t); i++) {
		const struct ltt_file_info *fi = ltt_trace_file(c.t, i);

		c.total += (uint64_t)fi->blocks * fi->block_size;
	}
	if (prepare(&c)) {
		snprintf(err, errlen, "%s: out of memory", legacy_dir);
		conv_free(&c);
		return -2;
	}
	e = make_dir(ctf_dir);
	snprintf(path, sizeof(path), "%s/metadata", ctf_dir);
	if (!e) {
		c.metadata_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0664);
		e = c.metadata_fd < 0 ? -errno : 0;
	}
	if (e) {
		snprintf(err, errlen, "%s: %s", path, strerror(-e));
		conv_free(&c);
		return -2;
	}
	trax_uuid_generate(c.uuid);
	describe_trace(&c);
	/* each channel's classes described up front, in class order */
	for (size_t k = 0; k < c.nclasses; k++) {
		const struct ltt_class *cls = ltt_trace_class(c.t, k);

		if (cls->channel)
			class_id(&c, channel_index(&c, cls->channel), k);
	}
	run_workers(&c, legacy_dir);
	if (c.err_file != SIZE_MAX) {
		snprintf(err, errlen, "%s", c.err_msg);
		ret = -1;
	}
	if (c.write_error) {
		snprintf(err, errlen, "%s: %s", ctf_dir, strerror(-c.write_error));
		ret = -2;
	}
	if (st->progress)
		st->progress(st->arg, c.total, c.total);
	conv_free(&c);
	return ret;
}
