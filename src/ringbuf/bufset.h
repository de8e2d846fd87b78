/*
 * bufset.h - the shared memory of one channel: a control page, then one
 * ring buffer per CPU. The consumer that owns it (traxd, or the in-process
 * consumer) creates it; applications map the same memory from the
 * descriptor they are given and write into it.
 *
 * The control page holds what every writer and the consumer share besides
 * the buffers: the word the consumer sleeps on (struct ringbuf_notify) and
 * the channel's "active" flag, which the consumer flips to start and stop
 * recording in every process at once, without a message to each.
 *
 *	offset 0            struct bufset_ctrl (one page)
 *	offset 4096         ring buffer of CPU 0 (bufset_stride() bytes)
 *	offset 4096+stride  ring buffer of CPU 1 ...
 */
#ifndef TRAX_RINGBUF_BUFSET_H
#define TRAX_RINGBUF_BUFSET_H

#include <stddef.h>
#include <stdint.h>

#include "ringbuf/ringbuf.h"

#define BUFSET_MAGIC	 0x7472617842554653ull /* "traxBUFS" */
#define BUFSET_CTRL_SIZE 4096u

struct bufset_ctrl {
	uint64_t magic;
	uint32_t nr_cpus;
	uint32_t active; /* records are taken while not 0 */
	struct ringbuf_notify notify __attribute__((aligned(64)));
};

/* Bytes each CPU's buffer takes (page-aligned). */
size_t bufset_stride(const struct ringbuf_config *cfg);
/* Bytes of shared memory a set of nr_cpus buffers needs. */
size_t bufset_size(const struct ringbuf_config *cfg, unsigned int nr_cpus);

/*
 * Initializes a new set in mem (zeroed, bufset_size() bytes): the control
 * page, then each buffer (ringbuf_create) into rbs[0..nr_cpus), whose
 * cfg.notify is pointed at the control page. 0 or -errno.
 */
int bufset_create(void *mem, struct ringbuf *rbs, const struct ringbuf_config *cfg,
		  unsigned int nr_cpus);

/*
 * Attaches to a set another process created in mem (size bytes, as
 * received): checks the control page and each buffer against cfg, and
 * that everything lies within size. 0 or -EINVAL.
 */
int bufset_attach(void *mem, size_t size, struct ringbuf *rbs, const struct ringbuf_config *cfg,
		  unsigned int nr_cpus);

static inline struct bufset_ctrl *bufset_ctrl(void *mem)
{
	return (struct bufset_ctrl *)mem;
}

#endif /* TRAX_RINGBUF_BUFSET_H */
