/*
 * embedded.c - tracing without a daemon: TRAX_OUTPUT=DIR ./app.
 *
 * At start-up the library creates one session with one channel (channel0),
 * enables the events named by TRAX_EVENTS (default: all), starts the
 * in-process consumer, and leaves a complete trace in
 * DIR/ust/pid/PROCNAME-PID-DATE/ when the program ends: by exit(), by
 * returning from main, or on a fatal signal (the committed events are
 * written before the signal takes its course).
 *
 * Settings: TRAX_SUBBUF_SIZE, TRAX_NUM_SUBBUF, TRAX_OVERWRITE=1,
 * TRAX_CONTEXT=vpid,vtid,procname,pthread_id,ip, TRAX_BLOCKING_TIMEOUT (ms,
 * with TRAX_ALLOW_BLOCKING).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/env.h"
#include "common/log.h"
#include "common/strbuf.h"
#include "common/uuid.h"
#include "writer/metadata.h"
#include "writer/packet-index.h"
#include "ust/ust.h"

static void enable_events(struct trax_session *s, const char *patterns);

struct trax_session *trax_embedded_session;
static struct trax_session session_storage;

/* mkdir -p */
static int make_dirs(const char *path)
{
	char tmp[4096];
	size_t i, n = strlen(path);

	if (n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (tmp[i] == '/' || tmp[i] == 0) {
			char c = tmp[i];

			tmp[i] = 0;
			if (mkdir(tmp, 0770) < 0 && errno != EEXIST)
				return -errno;
			tmp[i] = c;
		}
	}
	return 0;
}

/*
 * The env of an LTTng per-process trace. With no session, the trace is
 * named after the output directory, as a session is after its own.
 */
static void make_env(struct trax_session *s, const char *dir, time_t now)
{
	struct ctf_env_ust_desc d = {0};
	size_t n = strlen(dir);
	const char *base;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (base = dir + n; base > dir && base[-1] != '/'; base--)
		;
	snprintf(s->trace_name, sizeof(s->trace_name), "%.*s", (int)(dir + n - base), base);
	ctf_env_datetime(s->env_datetime, sizeof(s->env_datetime), (int64_t)now);
	d.per_pid = true;
	d.buffering_id = getpid();
	d.bits = sizeof(void *) * 8;
	d.trace_name = s->trace_name;
	d.creation_datetime = s->env_datetime;
	d.hostname = s->hostname;
	d.procname = s->procname;
	d.vpid_datetime = s->env_datetime;
	s->nr_env = ctf_env_ust(s->env, &d);
}

static int remember_file(int fd, struct trax_file_id *id)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return 0;
}

/* Closes the trace's files (the stream, index and metadata files). */
static void close_files(struct trax_session *s)
{
	int cpu;

	for (cpu = 0; s->stream_fds && cpu < s->channel.nr_cpus; cpu++)
		if (s->stream_fds[cpu] >= 0)
			close(s->stream_fds[cpu]);
	for (cpu = 0; s->index_fds && cpu < s->channel.nr_cpus; cpu++)
		if (s->index_fds[cpu] >= 0)
			close(s->index_fds[cpu]);
	if (s->metadata_fd >= 0)
		close(s->metadata_fd);
	s->metadata_fd = -1;
}

/* Undoes what open_output did, after a failure. */
static void close_output(struct trax_session *s)
{
	close_files(s);
	free(s->stream_fds);
	free(s->stream_sizes);
	free(s->stream_ids);
	free(s->index_fds);
	free(s->index_ids);
	free(s->index_sizes);
	s->index_fds = NULL;
	s->index_ids = NULL;
	s->index_sizes = NULL;
	free(s->overwrite_written);
	s->overwrite_written = NULL;
	s->stream_fds = NULL;
	s->stream_sizes = NULL;
	s->stream_ids = NULL;
}

static int open_output(struct trax_session *s, const char *dir)
{
	struct trax_channel *ch = &s->channel;
	struct ctfw_field context[CTF_CTX_COUNT];
	struct ctfw_trace trace;
	struct ctfw_stream stream;
	struct strbuf sb;
	char path[4200];
	int cpu, err, fd;
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(s->datetime, sizeof(s->datetime), "%Y%m%d-%H%M%S", &tm);
	make_env(s, dir, now);
	if ((size_t)snprintf(s->path, sizeof(s->path), "%s/ust/pid/%s-%d-%s", dir, s->procname,
			     (int)getpid(), s->datetime) >= sizeof(s->path))
		return -ENAMETOOLONG;
	err = make_dirs(s->path);
	if (err)
		return err;

	s->stream_fds = malloc(sizeof(int) * (size_t)ch->nr_cpus);
	s->stream_sizes = calloc((size_t)ch->nr_cpus, sizeof(off_t));
	s->stream_ids = calloc((size_t)ch->nr_cpus, sizeof(*s->stream_ids));
	s->overwrite_written = calloc((size_t)ch->nr_cpus, sizeof(uint64_t));
	s->index_fds = malloc(sizeof(int) * (size_t)ch->nr_cpus);
	s->index_ids = calloc((size_t)ch->nr_cpus, sizeof(*s->index_ids));
	s->index_sizes = calloc((size_t)ch->nr_cpus, sizeof(off_t));
	if (!s->stream_fds || !s->stream_sizes || !s->stream_ids || !s->overwrite_written ||
	    !s->index_fds || !s->index_ids || !s->index_sizes)
		return -ENOMEM;
	for (cpu = 0; cpu < ch->nr_cpus; cpu++)
		s->stream_fds[cpu] = s->index_fds[cpu] = -1;
	for (cpu = 0; cpu < ch->nr_cpus; cpu++) {
		snprintf(path, sizeof(path), "%s/%s_%d", s->path, ch->name, cpu);
		/*
		 * Direct I/O: the device reads the sub-buffers itself, which costs
		 * the consumer (and the application's CPUs) far less than copying
		 * them into the page cache. Where the file system refuses it
		 * (tmpfs), ordinary writes.
		 */
		s->stream_fds[cpu] = open(path,
					  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
					      (trax_env_long("DIRECT_IO", 1) ? O_DIRECT : 0),
					  0660);
		if (s->stream_fds[cpu] < 0 && errno == EINVAL)
			s->stream_fds[cpu] =
			    open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
		if (s->stream_fds[cpu] < 0 ||
		    remember_file(s->stream_fds[cpu], &s->stream_ids[cpu]))
			return -errno;
		snprintf(path, sizeof(path), "%s_%d", ch->name, cpu);
		s->index_fds[cpu] = ctf_index_create(s->path, path, 0770, 0660);
		if (s->index_fds[cpu] < 0)
			return s->index_fds[cpu];
		if (remember_file(s->index_fds[cpu], &s->index_ids[cpu]))
			return -errno;
		s->index_sizes[cpu] = CTF_INDEX_HEADER_LEN;
	}
	snprintf(path, sizeof(path), "%s/metadata", s->path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
	if (fd < 0)
		return -errno;
	s->metadata_fd = fd;
	if (remember_file(fd, &s->metadata_id))
		return -errno;

	memset(&trace, 0, sizeof(trace));
	memcpy(trace.uuid, ch->trace_uuid, 16);
	trax_clock_describe(&trace.clock);
	trace.env = s->env;
	trace.nr_env = s->nr_env;
	memset(&stream, 0, sizeof(stream));
	stream.id = ch->stream_id;
	stream.event_context = context;
	stream.nr_event_context =
	    ctf_context_fields(context, ch->attr.contexts, ch->attr.nr_contexts);
	strbuf_init(&sb);
	ctf_metadata_trace(&sb, &trace);
	ctf_metadata_stream(&sb, &stream);
	err = sb.failed ? -ENOMEM : 0;
	if (!err && write(fd, sb.buf, sb.len) != (ssize_t)sb.len)
		err = errno ? -errno : -EIO;
	s->metadata_size = (off_t)sb.len;
	strbuf_free(&sb);
	return err;
}

static void after_fork_child(void)
{
	/*
	 * The buffers are shared with the parent: a child of a traced process
	 * must not write into them. It runs untraced (exec starts afresh).
	 */
	trax_context_reset_after_fork();
	if (trax_embedded_session) {
		/* Not the shared word: the parent goes on recording. */
		trax_channel_retire(&trax_embedded_session->channel);
		trax_embedded_session->thread_started = 0;
		trax_embedded_session = NULL;
	}
}

static void after_fork_child_unlock(void)
{
	trax_registry_unlock();
	after_fork_child();
}

void trax_embedded_init(void)
{
	const char *dir = trax_env_get("OUTPUT");
	const char *events = trax_env_get("EVENTS");
	struct trax_session *s = &session_storage;
	struct trax_channel_attr attr;
	uint8_t uuid[16];
	int err;

	/* No fork while the registry lock is held: the child could never take it. */
	pthread_atfork(trax_registry_lock, trax_registry_unlock, after_fork_child_unlock);
	if (!dir || !*dir)
		return;

	memset(s, 0, sizeof(*s));
	s->metadata_fd = -1;
	gethostname(s->hostname, sizeof(s->hostname) - 1);
	prctl(PR_GET_NAME, s->procname, 0, 0, 0);
	if (!s->procname[0])
		strcpy(s->procname, "app");

	trax_channel_attr_default(&attr);
	trax_channel_parse_contexts(&attr, trax_env_get("CONTEXT"), 0);
	trax_uuid_generate(uuid);
	err = trax_channel_create(&s->channel, "channel0", 0, &attr, uuid);
	if (err) {
		trax_debug("tracing disabled: cannot create the channel");
		return;
	}
	err = open_output(s, dir);
	if (err) {
		trax_debug("tracing disabled: cannot write the trace in %s: %s", dir,
			   strerror(-err));
		close_output(s);
		trax_channel_destroy(&s->channel);
		return;
	}
	trax_embedded_session = s;
	if (trax_consumer_start(s)) {
		trax_embedded_session = NULL;
		close_output(s);
		trax_channel_destroy(&s->channel);
		return;
	}
	trax_signals_install();
	trax_channel_set_active(&s->channel, 1);
	if (events && !*events)
		trax_debug("TRAX_EVENTS is empty: recording every event");
	enable_events(s, events && *events ? events : "*");
	trax_statedump_run(NULL, 0);
	trax_debug("tracing to %s (%llu x %u bytes per CPU, %s mode)", s->path,
		   (unsigned long long)attr.num_subbuf, (unsigned int)attr.subbuf_size,
		   attr.overwrite ? "overwrite" : "discard");
}

/*
 * Records the events the patterns name, only where TRAX_FILTER (LTTng's
 * filter language) accepts them when it is set. A filter that does not
 * compile is reported on stderr, whatever TRAX_DEBUG says, and nothing
 * is recorded: recording everything is not what was asked.
 */
static void enable_events(struct trax_session *s, const char *patterns)
{
	const char *expr = trax_env_get("FILTER");
	struct filter_error err;
	struct trax_bytecode bc;
	uint8_t *code;

	if (!expr) {
		trax_registry_enable(&s->channel, patterns);
		return;
	}
	if (filter_compile(expr, &code, &bc.len, &err)) {
		if (err.pos >= 0)
			fprintf(stderr, "trax: TRAX_FILTER: column %d: %s; no event recorded\n",
				err.pos + 1, err.msg);
		else
			fprintf(stderr, "trax: TRAX_FILTER: %s; no event recorded\n", err.msg);
		return;
	}
	bc.code = code;
	trax_registry_enable_filtered(&s->channel, patterns, &bc);
	free(code);
}

void trax_embedded_fini(void)
{
	struct trax_session *s = trax_embedded_session;

	if (!s || s->stopped)
		return;
	s->stopped = 1;
	trax_consumer_flush(s, 1);
	trax_channel_set_active(&s->channel, 0);
	close_files(s);
	if (s->output_failed)
		trax_debug("the trace in %s is incomplete: writing it failed (see above)", s->path);
	else
		trax_debug("trace written to %s", s->path);
	/* Buffers stay mapped: threads still running may record (and drop) events. */
}
