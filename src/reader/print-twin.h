/*
 * print-twin.h - trax_reader_print()'s text output on two threads that share no
 * event: each reads the whole trace through its own stream set (the same
 * traces, opened twice) and formats every other chunk of items, passing
 * over the others, whose decoding costs a fraction of their formatting.
 * Chunks go to the output in order, each as one copy of its text.
 *
 * Handing events from a reading thread to a formatting one costs a cache
 * line or more per event between cores, more than the event's decoding on
 * some machines (docs/benchmarks.md); reading twice costs no transfer.
 */
#ifndef TRAX_READER_PRINT_TWIN_H
#define TRAX_READER_PRINT_TWIN_H

#include <stdint.h>
#include <stdio.h>

#include "reader/stream-set.h"
#include "reader/text-buf.h"

/*
 * Formats item s of a side (ctx: that side's) into out, its warnings into
 * err; with out NULL, passes over it: notes what the lines after it depend
 * on (the time of the last event, whether a warning was given) and prints
 * nothing.
 */
typedef void (*print_twin_fn)(void *ctx, struct ctf_ss_stream *s, struct ctf_text_buf *out,
			      FILE *err);

/*
 * Runs both sides (ss[k], ctx[k]) to the end, their chunks written to out
 * in order, the warnings to stderr in their places (out is flushed before
 * those of discarded items). 0, or -1 on error: ss[0]->error says what,
 * after everything before it was written. -2 when the second thread could
 * not be started (nothing was read: the caller reads on one thread).
 * Chunks are of chunk_items items (0: 4096; small ones are for tests).
 */
int print_twin_run(struct ctf_stream_set *ss[2], void *ctx[2], print_twin_fn fn,
		   struct ctf_text_buf *out, uint64_t chunk_items);

#endif /* TRAX_READER_PRINT_TWIN_H */
