/*
 * analysis-trace.c - synthetic CTF traces for the analyses' unit tests
 * (see analysis-trace.h).
 */
#include "analysis-trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "check.h"
#include "common/strbuf.h"
#include "writer/metadata.h"
#include "writer/trace-env.h"

const struct ctfw_type at_char_type = {.kind = CTFW_TYPE_INTEGER,
				       .integer = {8, 8, true, 10, 0, CTFW_ENCODING_UTF8}};

const struct ctfw_field at_switch_fields[7] = {
    {"prev_comm", AT_COMM}, {"prev_tid", AT_I32}, {"prev_prio", AT_I32}, {"prev_state", AT_I64},
    {"next_comm", AT_COMM}, {"next_tid", AT_I32}, {"next_prio", AT_I32},
};

static int write_file(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "w");
	int ok = f && fwrite(buf, 1, len, f) == len;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

void at_metadata(const char *dir, const struct at_meta *m)
{
	struct ctfw_env_entry kenv[CTF_ENV_KERNEL_MAX];
	struct ctf_env_kernel_desc ed = {.hostname = "synth",
					 .sysname = "Linux",
					 .kernel_release = "6.18",
					 .kernel_version = "#1",
					 .trace_name = "synth",
					 .creation_datetime = "20231114T221320+0000"};
	struct ctfw_trace trace = {
	    .clock = {"monotonic", "Monotonic Clock", 1000000000, AT_T0_S, 0, ""},
	    .env = m->env,
	    .nr_env = m->nr_env,
	};
	const struct ctfw_stream stream0 = {.id = 0};
	const struct ctfw_stream *stream = m->stream ? m->stream : &stream0;
	struct strbuf sb;
	char path[4200];

	CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir %s", dir);
	memcpy(trace.uuid, m->uuid, 16);
	snprintf(trace.clock.uuid, sizeof(trace.clock.uuid), "%s", m->clock_uuid);
	if (!m->env) {
		trace.env = kenv;
		trace.nr_env = ctf_env_kernel(kenv, &ed);
	}
	strbuf_init(&sb);
	ctf_metadata_trace(&sb, &trace);
	ctf_metadata_stream(&sb, stream);
	for (uint32_t i = 0; i < m->nr_classes; i++)
		ctf_metadata_event(&sb, &m->classes[i], i, stream->id);
	CHECK(!sb.failed);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	CHECK(write_file(path, sb.buf, sb.len) == 0, "%s", path);
	strbuf_free(&sb);
}

void at_open_cpus(struct ctfw_stream_file *f, unsigned int n, const char *dir, const uint8_t *uuid,
		  uint64_t begin_hint)
{
	char name[32];

	for (unsigned int cpu = 0; cpu < n; cpu++) {
		snprintf(name, sizeof(name), "channel0_%u", cpu);
		CHECK_EQ(ctfw_stream_file_open(&f[cpu], dir, name, uuid, 0, cpu, 4 * 4096), 0);
		f[cpu].begin_hint = begin_hint;
	}
}

void at_close_cpus(struct ctfw_stream_file *f, unsigned int n, uint64_t end)
{
	for (unsigned int cpu = 0; cpu < n; cpu++)
		CHECK_EQ(ctfw_stream_file_close(&f[cpu], end), 0);
}

void at_put32(struct at_rec *r, int32_t v)
{
	memcpy(r->b + r->n, &v, 4);
	r->n += 4;
}

void at_put64(struct at_rec *r, int64_t v)
{
	memcpy(r->b + r->n, &v, 8);
	r->n += 8;
}

void at_putcomm(struct at_rec *r, const char *s)
{
	size_t len = strlen(s);

	memset(r->b + r->n, 0, 16);
	memcpy(r->b + r->n, s, len < 15 ? len : 15);
	r->n += 16;
}

void at_putstr(struct at_rec *r, const char *s)
{
	memcpy(r->b + r->n, s, strlen(s) + 1);
	r->n += strlen(s) + 1;
}

void at_emit(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, const struct at_rec *r)
{
	uint8_t *p = ctfw_stream_file_reserve(f, id, ts, r->n);

	CHECK(p != NULL, "reserve at %llu", (unsigned long long)ts);
	if (p)
		memcpy(p, r->b, r->n);
}

void at_emit32(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, int32_t v)
{
	struct at_rec r = {.n = 0};

	at_put32(&r, v);
	at_emit(f, id, ts, &r);
}

void at_switch(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, const char *prev_comm,
	       int prev_tid, int prev_prio, int64_t prev_state, const char *next_comm, int next_tid,
	       int next_prio)
{
	struct at_rec r = {.n = 0};

	at_putcomm(&r, prev_comm);
	at_put32(&r, prev_tid);
	at_put32(&r, prev_prio);
	at_put64(&r, prev_state);
	at_putcomm(&r, next_comm);
	at_put32(&r, next_tid);
	at_put32(&r, next_prio);
	at_emit(f, id, ts, &r);
}

int at_failures(void)
{
	return failures;
}

char *at_run(const char *name, struct an_options *o, const char *dir, int *status)
{
	char err[1024];
	const char *paths[1] = {dir};
	FILE *f = tmpfile();
	char *buf = NULL;
	long len;

	*status = -1;
	if (!f)
		return NULL;
	*status = an_run(name, o, paths, 1, f, err, sizeof(err));
	if (*status)
		fprintf(stderr, "%s: %s\n", name, err);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
	if (buf && len > 0 && fread(buf, 1, (size_t)len, f) != (size_t)len)
		buf[0] = 0;
	fclose(f);
	return buf;
}

int at_has(const char *text, const char *what)
{
	return text && strstr(text, what) != NULL;
}
