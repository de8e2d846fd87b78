/*
 * ltrace-impl.h - inside the pre-CTF trace readers (legacy.h): what the
 * common layer (ltrace.c) keeps of a trace and gives both format readers
 * (lv0.c: the LTTV format, seed 000; lv2.c: the compact format, seed
 * 002): the tracefiles and their blocks, the event classes, the warnings,
 * byte-order reads, the TSC extension and the TSC -> ns arithmetic of
 * docs/legacy-formats.md 1.7 / 2.4, the block order of 1.8 and the magic
 * probe of 1.2.1.
 *
 * ltt_trace_open() probes the directory and calls the format's loader
 * (lv0_load or lv2_load) on an empty trace whose dir is set; the loader
 * finds and maps the tracefiles (ltrace_walk, ltrace_add_file), reads
 * their block headers into f->blocks (ltrace_blocks_sort orders them),
 * fills t->info, loads the descriptions, adds the classes
 * (ltrace_add_class) and sets t->ops, whose functions the cursors call.
 */
#ifndef TRAX_LEGACY_LTRACE_IMPL_H
#define TRAX_LEGACY_LTRACE_IMPL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "legacy/legacy.h"

#define LTRACE_MAGIC 0x00D6B7EDu

/* One block (sub-buffer) of a tracefile, from its header. */
struct ltrace_block {
	uint64_t offset;    /* of the block in the file */
	uint64_t begin_tsc; /* the header's begin cycle count */
	uint64_t end_tsc;   /* its end cycle count */
	uint32_t lost_size; /* bytes unused at the end; 0xFFFFFFFF: never closed */
	uint32_t number;    /* its position in the file (messages) */
	/* 2.3's running totals (0 in other versions) */
	uint32_t events_lost, subbuf_corrupt;
};

/* A tracefile: the public info, its bytes, its blocks in time order. */
struct ltrace_file {
	struct ltt_file_info info; /* path and channel point into this struct's strings */
	char *path;		   /* dir/relpath */
	char *relpath;		   /* as found under dir: "control/facilities_0" */
	char *channel;
	bool big_endian;     /* from its magic */
	const uint8_t *data; /* the whole file (mmap), NULL when empty */
	size_t size;
	struct ltrace_block *blocks; /* after ltrace_blocks_sort: by begin_tsc */
	size_t nblocks;
	/*
	 * A fault the loader found past the blocks it kept (a trailing partial
	 * block, a block whose buf_size differs): the cursor returns it as its
	 * error after the last event. NULL when none.
	 */
	char *tail_error;
	void *priv; /* the format's */
};

struct ltt_cursor;

/* What a format reader does for the cursors and at close. */
struct ltrace_ops {
	/* c->t, c->f, c->file are set, the rest zero: 0, or -1 with c->err set */
	int (*cursor_open)(struct ltt_cursor *c);
	/* ltt_cursor_next()'s contract; ltrace_cursor_fail() sets the error */
	int (*cursor_next)(struct ltt_cursor *c, struct ltt_event *ev);
	void (*cursor_close)(struct ltt_cursor *c); /* frees c->priv; may be NULL */
	/* ltt_cursor_trust_sizes(), ltt_cursor_check_size(); NULL: sizes always checked */
	void (*cursor_trust_sizes)(struct ltt_cursor *c);
	long (*cursor_check_size)(struct ltt_cursor *c, const struct ltt_event *ev);
	void (*trace_free)(struct ltt_trace *t); /* frees t->priv, f->priv; may be NULL */
};

struct ltt_trace {
	char *dir;
	struct ltt_trace_info info;
	struct ltrace_file *files; /* in the order ltrace_sort_files() leaves them */
	size_t nfiles, files_cap;
	struct ltt_class **classes; /* index i has index i */
	size_t nclasses, classes_cap;
	char **warnings;
	size_t nwarnings, warnings_cap;
	const struct ltrace_ops *ops;
	void *priv; /* the format's (facility table, markers) */
};

struct ltt_cursor {
	struct ltt_trace *t;
	struct ltrace_file *f;
	size_t file;
	/* where the walk is; the format reader owns these */
	size_t block;  /* index into f->blocks of the current block */
	bool in_block; /* block's header was read, events pending */
	uint64_t pos;  /* file offset of the next event header */
	uint64_t end;  /* file offset where the current block's events end */
	uint64_t tsc;  /* the current extended TSC */
	bool failed;   /* the error was set: next returns -1 */
	char err[512]; /* "" when none */
	char *warn;    /* pending warnings, '\n'-separated, NULL when none */
	size_t warn_len;
	char *warn_out; /* what ltt_cursor_warning last returned */
	void *priv;
};

/* The two format readers. */
enum ltt_format lv0_probe(const char *dir);
int lv0_load(struct ltt_trace *t, char *err, size_t errlen);
enum ltt_format lv2_probe(const char *dir);
int lv2_load(struct ltt_trace *t, char *err, size_t errlen);

/* Byte-order reads of unaligned fields. */
static inline uint16_t ltrace_u16(const uint8_t *p, bool be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t ltrace_u32(const uint8_t *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline uint64_t ltrace_u64(const uint8_t *p, bool be)
{
	uint64_t hi = ltrace_u32(be ? p : p + 4, be), lo = ltrace_u32(be ? p + 4 : p, be);
	return hi << 32 | lo;
}

/*
 * The magic of 1.2.1: where a block's trace header is. offset is the
 * magic's (16: compact format, 40: 0.5-0.7 or the marker era, 56/72:
 * 0.3-0.4), major/minor read at the place that layout puts them.
 */
struct ltrace_magic {
	unsigned offset;
	bool big_endian;
	uint8_t major, minor;
};

/*
 * Looks for the magic in the first len bytes of a block at 16, 40, 56,
 * 72; the first hit whose version agrees with its offset wins. 0, or -1
 * when none (not an LTT tracefile).
 */
int ltrace_find_magic(const uint8_t *blk, size_t len, struct ltrace_magic *m);

/* Reads up to len bytes from the start of path: the count, or -1. */
long ltrace_read_head(const char *path, uint8_t *buf, size_t len);

/* A whole small file (XML) in malloc memory, NUL-terminated; NULL with err set. */
char *ltrace_read_file(const char *path, size_t *len, char *err, size_t errlen);

/*
 * The tree walk of 1.1: every regular file under dir whose name ends in
 * _<digits>, recursively, skipping names that start with '.' and the
 * top-level eventdefs/; fn gets its path under dir ("control/facilities_0"),
 * its group (the path up to the last '_': "control/facilities") and the
 * number. Names in sorted order, so the walk is the same on every machine.
 * fn returns non-zero to stop the walk (its value is returned); -1 with err
 * set when a directory cannot be read.
 */
typedef int (*ltrace_walk_fn)(void *arg, const char *relpath, const char *group, int cpu);
int ltrace_walk(const char *dir, ltrace_walk_fn fn, void *arg, char *err, size_t errlen);

/*
 * Adds and maps the tracefile dir/relpath of group channel: the new file
 * (its index is nfiles - 1; the pointer is valid until the next add), or
 * NULL with err set.
 */
struct ltrace_file *ltrace_add_file(struct ltt_trace *t, const char *relpath, const char *channel,
				    int cpu, char *err, size_t errlen);

/* Removes the last file added (not a tracefile after all). */
void ltrace_drop_last_file(struct ltt_trace *t);

/* Orders t->files by channel then cpu (ltt_trace_file's order). */
void ltrace_sort_files(struct ltt_trace *t);

/*
 * Adds a block to f (file order): the new block, or NULL on memory. The
 * loader fills it; ltrace_blocks_sort then orders them.
 */
struct ltrace_block *ltrace_add_block(struct ltrace_file *f);

/* 1.8: sorts f's blocks by begin_tsc, stable on the file position. */
void ltrace_blocks_sort(struct ltrace_file *f);

/* Sets f->tail_error (one line; the first one set wins). */
void ltrace_file_tail_error(struct ltrace_file *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Adds a class (names copied; channel and facility may be NULL) with the
 * next index: the class, or NULL on memory. payload is not copied (its
 * arena must outlive the trace: the format's priv owns it).
 */
struct ltt_class *ltrace_add_class(struct ltt_trace *t, const char *name, const char *channel,
				   const char *facility, uint32_t facility_id, uint32_t event_id,
				   const struct ltt_type *payload, const struct ltt_abi *abi);

/* A trace-wide warning line (ltt_trace_warning). */
void ltrace_warn(struct ltt_trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The cursor's error: "PATH: offset OFF: what" (one line); next returns -1
 * from then on. Returns -1 for `return ltrace_cursor_fail(...)`.
 */
int ltrace_cursor_fail(struct ltt_cursor *c, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A cursor warning, "PATH: offset OFF: what", queued for ltt_cursor_warning. */
void ltrace_cursor_warn(struct ltt_cursor *c, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * The extension of a bits-wide TSC t (32: seed 000 heartbeats, 27: seed
 * 002) against the current full TSC: a t below cur's low bits has
 * wrapped (1.7, 2.4).
 */
static inline uint64_t ltrace_tsc_extend(uint64_t cur, uint64_t t, unsigned bits)
{
	uint64_t mask = ((uint64_t)1 << bits) - 1;
	uint64_t high = cur & ~mask;

	if (t < (cur & mask))
		high += mask + 1;
	return high | t;
}

/*
 * 1.7 / 2.4: ns = start_time_sec * 1e9 + start_time_usec * 1e3 +
 * floor((tsc - start_tsc) * unit * freq_scale / start_freq), exact (128
 * bits; a tsc before start_tsc subtracts the floor of the magnitude, as
 * 1.7 says); unit is 1e6 for
 * the LTTV format (kHz) and 1e9 for the compact one (Hz). start_freq 0
 * gives the start time. Saturates at INT64_MIN/MAX.
 */
int64_t ltrace_tsc_ns(const struct ltt_trace_info *info, uint64_t tsc);

#endif /* TRAX_LEGACY_LTRACE_IMPL_H */
