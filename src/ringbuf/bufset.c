/*
 * bufset.c - a channel's shared memory: control page and per-CPU buffers
 * (see bufset.h).
 */
#include "ringbuf/bufset.h"

#include <errno.h>
#include <string.h>

size_t bufset_stride(const struct ringbuf_config *cfg)
{
	return (ringbuf_shm_size(cfg) + 4095) & ~(size_t)4095;
}

size_t bufset_size(const struct ringbuf_config *cfg, unsigned int nr_cpus)
{
	return BUFSET_CTRL_SIZE + bufset_stride(cfg) * nr_cpus;
}

int bufset_create(void *mem, struct ringbuf *rbs, const struct ringbuf_config *cfg,
		  unsigned int nr_cpus)
{
	struct bufset_ctrl *ctrl = bufset_ctrl(mem);
	struct ringbuf_config c = *cfg;
	size_t stride = bufset_stride(cfg);
	int err = ringbuf_config_check(cfg);

	if (err)
		return err;
	if (nr_cpus == 0)
		return -EINVAL;
	ctrl->nr_cpus = nr_cpus;
	c.notify = &ctrl->notify;
	for (unsigned int i = 0; i < nr_cpus; i++) {
		err = ringbuf_create(&rbs[i], (char *)mem + BUFSET_CTRL_SIZE + stride * i, &c);
		if (err)
			return err;
	}
	/* published last: a set is attachable only once every buffer is */
	__atomic_store_n(&ctrl->magic, BUFSET_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

int bufset_attach(void *mem, size_t size, struct ringbuf *rbs, const struct ringbuf_config *cfg,
		  unsigned int nr_cpus)
{
	struct bufset_ctrl *ctrl = bufset_ctrl(mem);
	struct ringbuf_config c = *cfg;
	size_t stride;
	int err = ringbuf_config_check(cfg);

	if (err)
		return err;
	stride = bufset_stride(cfg);
	if (nr_cpus == 0 || size < BUFSET_CTRL_SIZE || (size - BUFSET_CTRL_SIZE) / stride < nr_cpus)
		return -EINVAL;
	if (__atomic_load_n(&ctrl->magic, __ATOMIC_ACQUIRE) != BUFSET_MAGIC ||
	    ctrl->nr_cpus != nr_cpus)
		return -EINVAL;
	c.notify = &ctrl->notify;
	for (unsigned int i = 0; i < nr_cpus; i++) {
		err = ringbuf_attach(&rbs[i], (char *)mem + BUFSET_CTRL_SIZE + stride * i, &c);
		if (err)
			return err;
	}
	return 0;
}
