/*
 * decode-jit.h - machine code for fixed runs (decode-prog-impl.h): the
 * fields of an event whose layout is fixed, decoded by straight-line code
 * made for that layout, with each field's offset, mask, sign extension and
 * destination as constants, instead of fixed_run_decode()'s loop over a
 * table of them (about 15 instructions a field against 3 to 5).
 *
 * The code computes exactly what fixed_run_decode() computes, for runs that
 * start on a byte boundary: the interpreter stays the reference (the
 * fuzzers and tests/reader/test_decode_jit.c compare both). x86-64 only;
 * elsewhere, or when executable memory cannot be had, ctf_jit_compile()
 * declines and the interpreter runs (as it does for a reader opened
 * without JIT: struct ctf_read_tuning).
 */
#ifndef TRAX_CTF_DECODE_JIT_H
#define TRAX_CTF_DECODE_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fixed_run;

/*
 * Decodes the run whose first byte is p, as
 * fixed_run_decode(fr, p - pos / 8, pos, &clock) with pos a multiple of 8,
 * and returns the clock it leaves (clock when the run has no clock field).
 * The code knows its run: fr is not read (it is there so that
 * ctf_jit_interpret() has the same type).
 */
typedef uint64_t (*ctf_jit_fn)(const uint8_t *p, uint64_t clock, const struct fixed_run *fr);

/* What a compiled run does, by the interpreter: for runs without code. */
uint64_t ctf_jit_interpret(const uint8_t *p, uint64_t clock, const struct fixed_run *fr);

/*
 * Where compiled runs live: a few mappings of 64 KiB, each holding many
 * functions, so that a reader of many stream files does not take one
 * mapping per event class (the process has a limit on mappings). A chunk
 * is writable only while code is added to it: an arena must be used by one
 * thread at a time (a stream reader's is). Zero-initialize.
 */
struct ctf_jit_arena {
	struct ctf_jit_chunk *chunks;
	size_t nchunks;
};

/*
 * Compiles fr (whose fields' destinations must outlive the code) into a,
 * valid until ctf_jit_arena_free(a): the function, or NULL when it cannot
 * be compiled here.
 */
ctf_jit_fn ctf_jit_compile(struct ctf_jit_arena *a, const struct fixed_run *fr);

/* Releases every function compiled in a. */
void ctf_jit_arena_free(struct ctf_jit_arena *a);

#endif /* TRAX_CTF_DECODE_JIT_H */
