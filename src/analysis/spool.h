/*
 * spool.h - fixed-size records kept for the end of an analysis (the lists
 * and histograms of --log, --freq, flow --group) in bounded memory: up to
 * a cap they stay in memory; beyond it each full buffer is sorted and
 * written as a run to an unlinked temporary file ($TMPDIR, else /tmp),
 * and reading them back merges the runs (an external sort). Without a
 * comparator the records come back in the order they were added.
 *
 * Memory: the cap (an_spool_cap(): TRAX_ANALYZE_MEM bytes, with an
 * optional k, M or G suffix, else 32 MiB) plus, when reading a spilled
 * spool, a small buffer per run within the same cap.
 *
 * Errors (out of memory, disk full, I/O) are kept: an_spool_add() and
 * an_spool_rewind() return -1, an_spool_next() returns NULL, and
 * an_spool_error() says what went wrong.
 */
#ifndef TRAX_ANALYSIS_SPOOL_H
#define TRAX_ANALYSIS_SPOOL_H

#include <stddef.h>
#include <stdint.h>

/* <0, 0, >0 as qsort's; records that compare equal come back in the order they were added. */
typedef int (*an_spool_cmp)(const void *a, const void *b);

struct an_spool;

/* The memory cap of new spools, in bytes (TRAX_ANALYZE_MEM or the default, or the override). */
size_t an_spool_cap(void);
/* Tests: the cap of spools created from now on (0: back to TRAX_ANALYZE_MEM/the default). */
void an_spool_set_cap(size_t bytes);

/* A spool of records of recsize bytes, sorted by cmp (NULL: kept in order); NULL: no memory. */
struct an_spool *an_spool_new(size_t recsize, an_spool_cmp cmp);
void an_spool_free(struct an_spool *s);

/* Adds a copy of rec (not after an_spool_rewind()): 0, -1 on error. */
int an_spool_add(struct an_spool *s, const void *rec);
/* Records added. */
uint64_t an_spool_count(const struct an_spool *s);
/* Runs written to disk so far (0: all in memory). */
size_t an_spool_runs(const struct an_spool *s);

/*
 * Ends the adding and starts (or restarts: a second pass) reading the
 * records back: 0, -1 on error.
 */
int an_spool_rewind(struct an_spool *s);
/* The next record (valid until the next call), NULL at the end or on error. */
const void *an_spool_next(struct an_spool *s);
/* What failed ("" when nothing did). */
const char *an_spool_error(const struct an_spool *s);

#endif /* TRAX_ANALYSIS_SPOOL_H */
