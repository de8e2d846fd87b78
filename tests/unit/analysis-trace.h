/*
 * analysis-trace.h - writes small synthetic CTF traces for the analyses'
 * unit tests (test_analysis_*), with trax's writer (src/writer): a trace
 * directory and its metadata, one stream file per CPU, records built
 * field by field. The traces' answers are known, so the tests can check
 * every printed value.
 *
 * Use:
 *   at_metadata(dir, &(struct at_meta){.uuid = u, .clock_uuid = "...",
 *               .classes = cl, .nr_classes = n});
 *   at_open_cpus(files, 2, dir, u, 1000);
 *   struct at_rec r = {.n = 0};  at_put32(&r, 7);  at_emit(&files[1], ID, ts, &r);
 *   at_close_cpus(files, 2, end);
 * The helper checks with check.h's CHECK, whose count is its own (the
 * count is static to each file): a test ends writing a trace with
 * CHECK_EQ(at_failures(), 0) so that they fail it.
 */
#ifndef TRAX_TESTS_ANALYSIS_TRACE_H
#define TRAX_TESTS_ANALYSIS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "writer/desc.h"
#include "writer/stream-file.h"

/* The clock's offset: its zero is 2023-11-14 22:13:20 UTC. */
#define AT_T0_S 1700000000LL

/* Field types of the kernel's events: signed decimal integers, comm arrays, strings. */
extern const struct ctfw_type at_char_type;
#define AT_I32                                                                                     \
	{                                                                                          \
		.kind = CTFW_TYPE_INTEGER, .integer = { 32, 8, true, 10, 0, 0 }                    \
	}
#define AT_I64                                                                                     \
	{                                                                                          \
		.kind = CTFW_TYPE_INTEGER, .integer = { 64, 8, true, 10, 0, 0 }                    \
	}
#define AT_COMM                                                                                    \
	{                                                                                          \
		.kind = CTFW_TYPE_ARRAY, .array = { &at_char_type, 16 }                            \
	}
#define AT_STR                                                                                     \
	{                                                                                          \
		.kind = CTFW_TYPE_STRING                                                           \
	}

/* sched_switch's fields (7), as the kernel's tracepoint has them. */
extern const struct ctfw_field at_switch_fields[7];

/* What at_metadata writes; zero fields take the defaults said. */
struct at_meta {
	const uint8_t *uuid;	/* the trace's, 16 bytes */
	const char *clock_uuid; /* the clock's, text */
	/* environment; NULL: a kernel trace's (hostname and trace name "synth") */
	const struct ctfw_env_entry *env;
	unsigned int nr_env;
	const struct ctfw_stream *stream; /* NULL: stream 0 without event context */
	const struct ctfw_event_class *classes; /* class i gets id i, in the stream */
	size_t nr_classes;
};

/* Creates dir (may exist) and writes its metadata file. */
void at_metadata(const char *dir, const struct at_meta *m);

/*
 * Opens n stream files dir/channel0_CPU (CPU 0..n-1, stream 0, 4 pages
 * per packet) of the trace with uuid; each starts at begin_hint.
 */
void at_open_cpus(struct ctfw_stream_file *f, unsigned int n, const char *dir,
		  const uint8_t *uuid, uint64_t begin_hint);
/* Closes the n stream files at end. */
void at_close_cpus(struct ctfw_stream_file *f, unsigned int n, uint64_t end);

/* One record's payload, little-endian as the writer's native order on x86. */
struct at_rec {
	uint8_t b[128];
	size_t n;
};

void at_put32(struct at_rec *r, int32_t v);
void at_put64(struct at_rec *r, int64_t v);
/* A 16-byte comm: s cut to 15 bytes, NUL-padded. */
void at_putcomm(struct at_rec *r, const char *s);
/* A NUL-terminated string. */
void at_putstr(struct at_rec *r, const char *s);

/* Appends r as event class id at ts to f. */
void at_emit(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, const struct at_rec *r);
/* Appends an event whose only field is the 32-bit v. */
void at_emit32(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, int32_t v);
/* Appends a sched_switch (fields at_switch_fields) as class id. */
void at_switch(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, const char *prev_comm,
	       int prev_tid, int prev_prio, int64_t prev_state, const char *next_comm,
	       int next_tid, int next_prio);

/* How many of the helper's checks failed so far. */
int at_failures(void);

struct an_options;
/*
 * Runs analysis name with o on the trace in dir: its output (NUL-terminated,
 * free()), *status an_run()'s (its error printed on stderr).
 */
char *at_run(const char *name, struct an_options *o, const char *dir, int *status);
/* Whether text (NULL: none) holds what. */
int at_has(const char *text, const char *what);

#endif
