/*
 * text-writer.h - the background writer of a ctf_text_buf (text-buf.h).
 *
 * Writing hundreds of megabytes of text through the page cache costs as much
 * as formatting it, so for a regular file:
 * - a writer thread writes full buffers while the formatter fills the next
 *   one (a few buffers in turn);
 * - the 4096-aligned blocks are written with O_DIRECT, through a second
 *   open file description (the caller's, shared with the shell and later
 *   writers, is never changed); the few unaligned bytes before the first
 *   aligned offset and after the last one at a flush go through the caller's
 *   descriptor. The tail of a full buffer is carried over to the start of the
 *   next one, so that every buffer after the first starts on a block.
 * Both start with the second buffer: a text that fits in one is written with
 * one write(2) at the flush, as before. The result (contents, size, the
 * descriptor's offset after a flush) is what write(2) would give; when
 * O_DIRECT is refused, plain writes. Terminals, pipes and /dev/null get
 * plain write(2) of each full buffer: a thread did not make them faster.
 */
#ifndef TRAX_CTF_TEXT_WRITER_H
#define TRAX_CTF_TEXT_WRITER_H

#include <stdbool.h>
#include <stddef.h>

struct ctf_text_buf;

/*
 * Sets up a writer for b->fd when one pays off (a regular file), with
 * buffers of at least cap bytes, and points b->data/len/cap at the first one.
 * 0, or -1 when plain synchronous writes are better (terminal, pipe,
 * /dev/null) or nothing could be set up: b is left alone.
 */
int ctf_text_writer_start(struct ctf_text_buf *b, size_t cap);
/*
 * Hands b's bytes over and gives b an empty buffer (possibly starting with
 * bytes carried over, which are still to be written). With sync, returns once
 * everything handed over is written. b->error gets the first write error seen.
 */
void ctf_text_writer_submit(struct ctf_text_buf *b, bool sync);
/* Grows b's current buffer to hold n more bytes (exits when out of memory). */
void ctf_text_writer_grow(struct ctf_text_buf *b, size_t n);
/* Waits for the writes handed over, stops the thread, frees the buffers. */
void ctf_text_writer_stop(struct ctf_text_buf *b);

#endif /* TRAX_CTF_TEXT_WRITER_H */
