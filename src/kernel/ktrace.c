/*
 * ktrace.c - the kernel trace directory (see ktrace.h): metadata, stream
 * classes per channel, per-source stream files, contexts.
 *
 * Lock rule: t->lock guards the metadata (file and the ids given out);
 * everything in a ktrace_streams belongs to the one thread writing it.
 * A class's id is read without the lock (acquire) and written under it
 * (release), after its event block is in the metadata.
 */
#include "kernel/ktrace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/assert.h"
#include "common/clock.h"
#include "common/io.h"
#include "common/perf-counter.h"
#include "common/strbuf.h"
#include "common/uuid.h"
#include "kernel/kthreads.h"
#include "writer/metadata.h"
#include "writer/stream-file.h"
#include "writer/trace-env.h"

#define KTRACE_HOSTNAME_LEN 65 /* LTTng's hostname context: the UTS name and a NUL */

struct ktrace_streams {
	struct ktrace_channel *ch;
	struct ctfw_stream_file *files; /* one per CPU */
	struct kthreads *threads;	/* contexts' cache, NULL when none needs it */
	uint64_t written, dropped;
	char suffix[64];
	unsigned int index; /* among the channel's sets: their streams' instance ids */
	int open_error;	    /* a stream file could not be made: -errno */
	struct ktrace_streams *next;
};

struct ktrace_channel {
	struct ktrace *t;
	char name[128];
	uint32_t stream_id;
	uint32_t next_id; /* under t->lock */
	/* ids of classes another channel owns (kevent.h): under t->lock */
	struct class_id {
		const struct kevent_class *cls;
		uint32_t id;
	} * other_ids;
	unsigned int nother, cap_other;
	/* the classes it owns (kevent.h): given up when it goes */
	struct kevent_class **owned;
	unsigned int nowned, cap_owned;
	unsigned int nr_cpus;
	size_t packet_size;
	uint8_t contexts[KCTX_MAX];
	unsigned int ncontexts;
	size_t context_size;
	char perf_names[KCTX_MAX][64]; /* the counters' field names */
	struct ktrace_streams *streams;
	unsigned int nsets; /* under t->lock */
	struct ktrace_channel *next;
};

struct ktrace {
	char dir[4096];
	uint8_t uuid[16];
	int metadata_fd;
	pthread_mutex_t lock;
	uint32_t nr_channels;
	struct ktrace_channel *channels;
	char hostname[KTRACE_HOSTNAME_LEN];
	char tracefs[256];
	uint64_t start_ts; /* when it was opened: where every stream begins */
	int error;	   /* the first metadata write error */
};

/* ---- contexts ---- */

static const struct ctfw_type ctx_char = {
    .kind = CTFW_TYPE_INTEGER,
    .integer =
	{.size = 8, .align = 8, .is_signed = true, .base = 10, .encoding = CTFW_ENCODING_UTF8},
};

#define CTX_INT32(n)                                                                               \
	{                                                                                          \
		.name = (n), .type = {                                                             \
			.kind = CTFW_TYPE_INTEGER,                                                 \
			.integer = {.size = 32, .align = 8, .is_signed = true, .base = 10},        \
		}                                                                                  \
	}
#define CTX_TEXT(n, len)                                                                           \
	{                                                                                          \
		.name = (n), .type = {                                                             \
			.kind = CTFW_TYPE_ARRAY,                                                   \
			.array = {.elem = &ctx_char, .length = (len)}                              \
		}                                                                                  \
	}

/* LTTng-modules 2.13's context fields, names and types */
static const struct ctfw_field kctx_fields[KCTX_COUNT] = {
    [KCTX_PID] = CTX_INT32("pid"),
    [KCTX_TID] = CTX_INT32("tid"),
    [KCTX_PPID] = CTX_INT32("ppid"),
    [KCTX_VPID] = CTX_INT32("vpid"),
    [KCTX_VTID] = CTX_INT32("vtid"),
    [KCTX_PROCNAME] = CTX_TEXT("procname", 16),
    [KCTX_PRIO] = CTX_INT32("prio"),
    [KCTX_NICE] = CTX_INT32("nice"),
    [KCTX_CPU_ID] = CTX_INT32("cpu_id"),
    [KCTX_HOSTNAME] = CTX_TEXT("hostname", KTRACE_HOSTNAME_LEN),
};

/* LTTng-modules' counter context: the value, a uint64 in base 10 */
static const struct ctfw_type kctx_perf_type = {
    .kind = CTFW_TYPE_INTEGER,
    .integer = {.size = 64, .align = 8, .is_signed = false, .base = 10},
};

int kctx_from_name(const char *name)
{
	int c;

	for (int i = 0; i < KCTX_COUNT; i++)
		if (!strcmp(name, kctx_fields[i].name))
			return i;
	c = perf_counter_find(name);
	return c < 0 ? -1 : KCTX_PERF + c;
}

const char *kctx_name(int ctx)
{
	if (kctx_is_perf(ctx) && perf_counter_at((unsigned int)(ctx - KCTX_PERF)))
		return perf_counter_at((unsigned int)(ctx - KCTX_PERF))->name;
	return ctx >= 0 && ctx < KCTX_COUNT ? kctx_fields[ctx].name : "?";
}

static size_t kctx_size(int ctx)
{
	const struct ctfw_type *ty;

	if (kctx_is_perf(ctx))
		return 8;
	ty = &kctx_fields[ctx].type;

	return ty->kind == CTFW_TYPE_ARRAY ? ty->array.length : ty->integer.size / 8u;
}

static uint8_t *put_i32(uint8_t *p, int32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

static void contexts_write(struct ktrace_streams *ss, const struct kevent_record *r, uint8_t *p)
{
	const struct ktrace_channel *ch = ss->ch;
	const struct kthread_info *ti = NULL;
	unsigned int counter = 0;

	for (unsigned int i = 0; i < ch->ncontexts; i++) {
		int c = ch->contexts[i];

		if (kctx_is_perf(c)) {
			uint64_t v = r->counters ? r->counters[counter] : 0;

			counter++;
			memcpy(p, &v, 8);
			p += 8;
			continue;
		}
		if (c != KCTX_TID && c != KCTX_CPU_ID && c != KCTX_HOSTNAME && !ti)
			ti = kthreads_get(ss->threads, r->tid, r->ts);
		switch (c) {
		case KCTX_PID:
			p = put_i32(p, r->pid > 0 ? r->pid : ti->pid);
			break;
		case KCTX_TID:
			p = put_i32(p, r->tid);
			break;
		case KCTX_PPID:
			p = put_i32(p, ti->ppid);
			break;
		case KCTX_VPID:
			p = put_i32(p, ti->vpid);
			break;
		case KCTX_VTID:
			p = put_i32(p, ti->vtid);
			break;
		case KCTX_PROCNAME:
			memcpy(p, r->comm ? r->comm : ti->comm, 16);
			p += 16;
			break;
		case KCTX_PRIO:
			p = put_i32(p, ti->prio);
			break;
		case KCTX_NICE:
			p = put_i32(p, ti->nice);
			break;
		case KCTX_CPU_ID:
			p = put_i32(p, r->cpu);
			break;
		case KCTX_HOSTNAME:
			memcpy(p, ch->t->hostname, KTRACE_HOSTNAME_LEN);
			p += KTRACE_HOSTNAME_LEN;
			break;
		}
	}
}

/* ---- metadata ---- */

/* Appends a piece to the metadata file. Lock held. */
static void metadata_write(struct ktrace *t, const struct strbuf *sb)
{
	int err;

	TRAX_ASSERT_LOCKED(&t->lock);
	if (sb->failed) {
		if (!t->error)
			t->error = -ENOMEM;
		return;
	}
	err = trax_write_all(t->metadata_fd, sb->buf, sb->len, false);
	if (err && !t->error)
		t->error = err;
}

struct ktrace *ktrace_open(const struct ktrace_config *cfg, char *err, size_t errlen)
{
	struct ctfw_env_entry env[CTF_ENV_KERNEL_MAX];
	struct ctf_env_kernel_desc d = {0};
	struct ctfw_trace td;
	struct utsname u;
	struct strbuf sb;
	struct ktrace *t;
	char path[4200];
	char dt[32];

	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(t->dir, sizeof(t->dir), "%s", cfg->dir);
	int e = trax_mkdirs(t->dir, 0770);

	if (e < 0) {
		snprintf(err, errlen, "%s: %s", t->dir, strerror(-e));
		free(t);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/metadata", t->dir);
	t->metadata_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
	if (t->metadata_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(t);
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	trax_uuid_generate(t->uuid);
	snprintf(t->tracefs, sizeof(t->tracefs), "%s", cfg->tracefs ? cfg->tracefs : "");
	t->start_ts = trax_clock_monotonic();
	if (cfg->hostname)
		snprintf(t->hostname, sizeof(t->hostname), "%s", cfg->hostname);
	else
		gethostname(t->hostname, sizeof(t->hostname) - 1);
	memset(&u, 0, sizeof(u));
	uname(&u);
	if (!cfg->creation_datetime)
		ctf_env_datetime(dt, sizeof(dt), (int64_t)time(NULL));
	d.hostname = t->hostname;
	d.sysname = u.sysname;
	d.kernel_release = u.release;
	d.kernel_version = u.version;
	d.trace_name = cfg->trace_name ? cfg->trace_name : "";
	d.creation_datetime = cfg->creation_datetime ? cfg->creation_datetime : dt;
	memset(&td, 0, sizeof(td));
	memcpy(td.uuid, t->uuid, 16);
	trax_clock_describe(&td.clock);
	td.env = env;
	td.nr_env = ctf_env_kernel(env, &d);
	strbuf_init(&sb);
	ctf_metadata_trace(&sb, &td);
	pthread_mutex_lock(&t->lock);
	metadata_write(t, &sb);
	pthread_mutex_unlock(&t->lock);
	strbuf_free(&sb);
	if (t->error) {
		snprintf(err, errlen, "%s: %s", path, strerror(-t->error));
		ktrace_close(t);
		return NULL;
	}
	return t;
}

struct ktrace_channel *ktrace_channel_add(struct ktrace *t, const struct ktrace_channel_config *cfg,
					  char *err, size_t errlen)
{
	struct ctfw_field fields[KCTX_MAX];
	struct ctfw_stream st;
	struct ktrace_channel *ch;
	struct strbuf sb;

	if (cfg->ncontexts > KCTX_MAX || !cfg->nr_cpus || cfg->packet_size < 4096 ||
	    cfg->packet_size % 4096) {
		snprintf(err, errlen, "channel %s: invalid configuration", cfg->name);
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ch->t = t;
	snprintf(ch->name, sizeof(ch->name), "%s", cfg->name);
	ch->nr_cpus = cfg->nr_cpus;
	ch->packet_size = cfg->packet_size;
	for (unsigned int i = 0; i < cfg->ncontexts; i++) {
		int c = cfg->contexts[i];

		if (kctx_is_perf(c) && perf_counter_at((unsigned int)(c - KCTX_PERF))) {
			perf_counter_field_name(
			    perf_counter_at((unsigned int)(c - KCTX_PERF))->name, ch->perf_names[i],
			    sizeof(ch->perf_names[i]));
			fields[i] =
			    (struct ctfw_field){.name = ch->perf_names[i], .type = kctx_perf_type};
		} else if (c < KCTX_COUNT) {
			fields[i] = kctx_fields[c];
		} else {
			snprintf(err, errlen, "channel %s: unknown context %u", cfg->name,
				 cfg->contexts[i]);
			free(ch);
			return NULL;
		}
		ch->contexts[i] = cfg->contexts[i];
		ch->context_size += kctx_size(cfg->contexts[i]);
	}
	ch->ncontexts = cfg->ncontexts;
	strbuf_init(&sb);
	pthread_mutex_lock(&t->lock);
	ch->stream_id = t->nr_channels++;
	st.id = ch->stream_id;
	st.event_context = ch->ncontexts ? fields : NULL;
	st.nr_event_context = ch->ncontexts;
	ctf_metadata_stream(&sb, &st);
	metadata_write(t, &sb);
	ch->next = t->channels;
	t->channels = ch;
	pthread_mutex_unlock(&t->lock);
	strbuf_free(&sb);
	return ch;
}

struct ktrace_streams *ktrace_streams_add(struct ktrace_channel *ch, const char *suffix, char *err,
					  size_t errlen)
{
	struct ktrace_streams *ss = calloc(1, sizeof(*ss));
	unsigned int cpu;

	if (!ss) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ss->ch = ch;
	ss->files = calloc(ch->nr_cpus, sizeof(*ss->files));
	if (!ss->files)
		goto oom;
	for (cpu = 0; cpu < ch->nr_cpus; cpu++)
		ss->files[cpu].fd = ss->files[cpu].index_fd = -1;
	for (unsigned int i = 0; i < ch->ncontexts; i++) {
		int c = ch->contexts[i];

		if (!kctx_is_perf(c) && c != KCTX_TID && c != KCTX_CPU_ID && c != KCTX_HOSTNAME &&
		    !ss->threads) {
			ss->threads =
			    kthreads_new("/proc", ch->t->tracefs[0] ? ch->t->tracefs : NULL);
			if (!ss->threads)
				goto oom;
		}
	}
	snprintf(ss->suffix, sizeof(ss->suffix), "%s", suffix);
	pthread_mutex_lock(&ch->t->lock);
	ss->index = ch->nsets++;
	ss->next = ch->streams;
	ch->streams = ss;
	pthread_mutex_unlock(&ch->t->lock);
	return ss;
oom:
	snprintf(err, errlen, "out of memory");
	kthreads_free(ss->threads);
	free(ss->files);
	free(ss);
	return NULL;
}

/*
 * Makes cpu's stream file on its first record: a source writes only the
 * CPUs it records on, and a file without packets would be an empty stream.
 */
static int stream_open(struct ktrace_streams *ss, int cpu)
{
	struct ktrace_channel *ch = ss->ch;
	char name[300];
	int e;

	if (ss->open_error)
		return ss->open_error;
	snprintf(name, sizeof(name), "%s%s_%d", ch->name, ss->suffix, cpu);
	e = ctfw_stream_file_open(&ss->files[cpu], ch->t->dir, name, ch->t->uuid, ch->stream_id,
				  cpu, ch->packet_size);
	if (e) {
		ss->open_error = e;
		ss->files[cpu].buf = NULL;
		return e;
	}
	/* one stream per set and CPU (the cpu_id in the packets stays the CPU) */
	ss->files[cpu].instance_id = (uint64_t)ss->index * ch->nr_cpus + (uint64_t)cpu;
	ss->files[cpu].begin_hint = ch->t->start_ts;
	return 0;
}

/*
 * Who owns which class, across traces (classes can be shared by all, like
 * the state dump's): taken before a trace's lock, on first records only.
 */
static pthread_mutex_t classes_lock = PTHREAD_MUTEX_INITIALIZER;

static bool grow(void **arr, unsigned int *cap, unsigned int n, size_t elem)
{
	unsigned int c;
	void *p;

	if (n < *cap)
		return true;
	c = *cap ? 2 * *cap : 64;
	p = realloc(*arr, c * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = c;
	return true;
}

/* Describes cls in ch's metadata under a new id. Lock held. */
static uint32_t class_describe(struct ktrace_channel *ch, const struct kevent_class *cls)
{
	uint32_t id = ch->next_id++;
	struct strbuf sb;

	TRAX_ASSERT_LOCKED(&ch->t->lock);
	strbuf_init(&sb);
	ctf_metadata_event(&sb, &cls->cls, id, ch->stream_id);
	metadata_write(ch->t, &sb);
	strbuf_free(&sb);
	return id;
}

/* Gives cls its id in ch and describes it, once. */
static uint32_t class_id(struct ktrace_channel *ch, struct kevent_class *cls)
{
	uint32_t id = KEVENT_ID_NONE;
	unsigned int i;

	if (__builtin_expect(__atomic_load_n(&cls->owner, __ATOMIC_ACQUIRE) == ch, 1))
		return cls->id;
	pthread_mutex_lock(&classes_lock);
	pthread_mutex_lock(&ch->t->lock);
	if (!cls->owner) {
		/* the first channel to write it owns the fast path */
		if (grow((void **)&ch->owned, &ch->cap_owned, ch->nowned, sizeof(*ch->owned))) {
			cls->id = id = class_describe(ch, cls);
			ch->owned[ch->nowned++] = cls;
			__atomic_store_n(&cls->owner, ch, __ATOMIC_RELEASE);
		}
	} else if (cls->owner == ch) {
		id = cls->id;
	} else {
		for (i = 0; i < ch->nother && ch->other_ids[i].cls != cls; i++)
			;
		if (i < ch->nother) {
			id = ch->other_ids[i].id;
		} else if (grow((void **)&ch->other_ids, &ch->cap_other, ch->nother,
				sizeof(*ch->other_ids))) {
			id = class_describe(ch, cls);
			ch->other_ids[ch->nother++] = (struct class_id){cls, id};
		}
	}
	pthread_mutex_unlock(&ch->t->lock);
	pthread_mutex_unlock(&classes_lock);
	return id;
}

int ktrace_sink(void *arg, const struct kevent_record *r)
{
	struct ktrace_streams *ss = arg;
	struct ktrace_channel *ch = ss->ch;
	struct ctfw_stream_file *f;
	uint32_t id;
	uint8_t *p;

	if (__builtin_expect(r->cpu < 0 || (unsigned int)r->cpu >= ch->nr_cpus, 0)) {
		ss->dropped++;
		return 0;
	}
	f = &ss->files[r->cpu];
	if (__builtin_expect(!f->buf, 0) && stream_open(ss, r->cpu))
		return ss->open_error;
	id = class_id(ch, r->cls);
	if (__builtin_expect(id == KEVENT_ID_NONE, 0)) {
		ss->dropped++;
		return 0;
	}
	p = ctfw_stream_file_reserve(f, id, r->ts, ch->context_size + r->len);
	if (__builtin_expect(!p, 0)) {
		ss->dropped++;
		return f->error;
	}
	if (ch->ncontexts)
		contexts_write(ss, r, p);
	memcpy(p + ch->context_size, r->payload, r->len);
	ss->written++;
	return 0;
}

void ktrace_streams_set_discarded(struct ktrace_streams *ss, int cpu, uint64_t total)
{
	if (cpu >= 0 && (unsigned int)cpu < ss->ch->nr_cpus)
		ctfw_stream_file_set_discarded(&ss->files[cpu], total);
}

int ktrace_streams_flush(struct ktrace_streams *ss, uint64_t ts_end)
{
	int err = 0, e;

	for (unsigned int cpu = 0; cpu < ss->ch->nr_cpus; cpu++) {
		if (!ss->files[cpu].buf)
			continue;
		e = ctfw_stream_file_flush(&ss->files[cpu], ts_end);
		if (e && !err)
			err = e;
	}
	return err;
}

uint64_t ktrace_streams_written(const struct ktrace_streams *ss)
{
	return ss->written;
}

int ktrace_close(struct ktrace *t)
{
	struct ktrace_channel *ch, *nch;
	struct ktrace_streams *ss, *nss;
	uint64_t now = trax_clock_monotonic();
	int err = t->error, e;

	for (ch = t->channels; ch; ch = nch) {
		nch = ch->next;
		for (ss = ch->streams; ss; ss = nss) {
			nss = ss->next;
			for (unsigned int cpu = 0; cpu < ch->nr_cpus; cpu++) {
				if (!ss->files[cpu].buf)
					continue;
				e = ctfw_stream_file_close(&ss->files[cpu], now);
				if (e && !err)
					err = e;
			}
			kthreads_free(ss->threads);
			free(ss->files);
			free(ss);
		}
		/* the classes it owns may outlive it (the state dump's): they forget it */
		pthread_mutex_lock(&classes_lock);
		for (unsigned int i = 0; i < ch->nowned; i++)
			__atomic_store_n(&ch->owned[i]->owner, NULL, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&classes_lock);
		free(ch->owned);
		free(ch->other_ids);
		free(ch);
	}
	if (t->metadata_fd >= 0 && close(t->metadata_fd) < 0 && !err)
		err = -errno;
	pthread_mutex_destroy(&t->lock);
	free(t);
	return err;
}
