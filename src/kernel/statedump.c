/*
 * statedump.c - the kernel state dump (statedump.h) from /proc and /sys,
 * in LTTng-modules 2.13's order (src/lttng-statedump-impl.c): start; per
 * process, per thread its process_state and namespaces, the process's file
 * descriptors after its first thread; then interrupts, network
 * interfaces, block devices, CPUs (statedump-system.c); end.
 *
 * Processes come and go while /proc is read: a thread or a file that is
 * gone is left out, without a word; a record is never half made.
 *
 * Values that /proc cannot give are the closest it can (docs/kernel.md,
 * "State dump"):
 *   - file_table_address, the address of the process's table of files,
 *     is its tgid: every thread of the process shares it, as threads made
 *     with CLONE_FILES share the table;
 *   - fmode holds only FMODE_READ and FMODE_WRITE, from the access mode;
 *   - status: LTTng tells apart only zombies, dead tasks, sleeping ones
 *     (S, D, I) and runnable ones, and says WAIT_FORK for a runnable task
 *     unless it is on a real-time run queue (it tests rt.run_list), so
 *     trax says WAIT_CPU for runnable SCHED_FIFO and SCHED_RR tasks only;
 *   - type: LTTng calls a task without memory (p->mm) a kernel thread,
 *     which zombies are too;
 *   - lttng_statedump_vm_map, which LTTng 2.13 declares but never records
 *     (its code for it is disabled), is recorded here per process after its
 *     file descriptors, with the rwxs bits of vm_flags.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/proc-text.h"
#include "kernel/statedump-record.h"
#include "kernel/statedump.h"

/* LTTng's values (lttng-statedump-impl.c's enums). */
enum { SD_USER_THREAD = 0, SD_KERNEL_THREAD = 1 };
enum { SD_MODE_UNKNOWN = 5 };
enum { SD_SUBMODE_NONE = 0 };
enum {
	SD_UNNAMED = 0,
	SD_WAIT_FORK = 1,
	SD_WAIT_CPU = 2,
	SD_ZOMBIE = 4,
	SD_WAIT = 5,
	SD_DEAD = 7,
};

/* FMODE_READ and FMODE_WRITE (include/linux/fs.h). */
#define SD_FMODE_READ  0x1u
#define SD_FMODE_WRITE 0x2u

static int32_t lttng_status(const struct proc_stat *st, int policy)
{
	switch (st->state) {
	case 'Z':
		return SD_ZOMBIE;
	case 'X':
		return SD_DEAD;
	case 'R':
		return policy == 1 || policy == 2 ? SD_WAIT_CPU : SD_WAIT_FORK;
	case 'S': /* TASK_INTERRUPTIBLE */
	case 'D': /* TASK_UNINTERRUPTIBLE */
	case 'I': /* TASK_IDLE: uninterruptible, not counted in the load */
		return SD_WAIT;
	default: /* stopped, traced, parked... */
		return SD_UNNAMED;
	}
}

/* The scheduling policy, stat's field 41 (after the ')' of the name). */
static int stat_policy(const char *buf, size_t len)
{
	const char *close = NULL;
	int field = 2;

	for (const char *q = buf + len; q > buf;)
		if (*--q == ')') {
			close = q;
			break;
		}
	if (!close)
		return -1;
	for (const char *q = close + 1; q < buf + len; q++)
		if (*q == ' ' && ++field == 41)
			return atoi(q + 1);
	return -1;
}

static void note_irq_thread(struct sd_ctx *c, const char *comm, int32_t tid)
{
	char *end;
	unsigned long irq;

	if (strncmp(comm, "irq/", 4) || comm[4] < '0' || comm[4] > '9')
		return;
	irq = strtoul(comm + 4, &end, 10);
	if (*end != '-' || irq > UINT32_MAX)
		return;
	if (c->nr_irq_threads == c->cap_irq_threads) {
		size_t cap = c->cap_irq_threads ? c->cap_irq_threads * 2 : 32;
		struct sd_irq_thread *t = realloc(c->irq_threads, cap * sizeof(*t));

		if (!t)
			return;
		c->irq_threads = t;
		c->cap_irq_threads = cap;
	}
	struct sd_irq_thread *t = &c->irq_threads[c->nr_irq_threads++];

	t->irq = (uint32_t)irq;
	strncpy(t->action, end + 1, sizeof(t->action) - 1);
	t->action[sizeof(t->action) - 1] = '\0';
	t->tid = tid;
}

/* One thread's process_state and namespaces: 0, or -1 when it is gone. */
static int dump_thread(struct sd_ctx *c, int32_t pid, int32_t tid, struct proc_stat *st)
{
	long len = sd_read(c, sd_path(c, "%s/%d/task/%d/stat", c->proc, pid, tid));
	int policy;

	if (len < 0 || proc_stat_parse(c->file, (size_t)len, st))
		return -1;
	policy = stat_policy(c->file, (size_t)len);
	/* a workqueue worker's stat name ends with its work's: sched has the task's own */
	if (st->flags & PROC_PF_WQ_WORKER) {
		len = sd_read(c, sd_path(c, "%s/%d/task/%d/sched", c->proc, pid, tid));
		if (len > 0)
			proc_sched_comm(c->file, (size_t)len, st->comm);
	}
	if (st->flags & PROC_PF_KTHREAD)
		note_irq_thread(c, st->comm, tid);

	bool no_mm = (st->flags & PROC_PF_KTHREAD) || st->state == 'Z' || st->state == 'X';

	sd_begin(c);
	sd_put_i32(c, tid);
	sd_put_i32(c, pid);
	sd_put_i32(c, st->ppid);
	sd_put(c, st->comm, sizeof(st->comm));
	sd_put_i32(c, no_mm ? SD_KERNEL_THREAD : SD_USER_THREAD);
	sd_put_i32(c, SD_MODE_UNKNOWN);
	sd_put_i32(c, SD_SUBMODE_NONE);
	sd_put_i32(c, lttng_status(st, policy));
	sd_put_u32(c, (uint32_t)st->processor);
	sd_put_u64(c, (uint64_t)pid);
	sd_emit(c, &sd_class_process_state);
	sd_dump_thread_ns(c, pid, tid, st->ppid);
	return 0;
}

static void dump_fds(struct sd_ctx *c, int32_t pid)
{
	size_t n;
	int32_t *fds = sd_numeric_entries(sd_path(c, "%s/%d/fd", c->proc, pid), &n);
	char target[PATH_MAX];

	for (size_t i = 0; i < n && !c->err; i++) {
		uint32_t flags, fmode = 0;
		long len;

		if (sd_readlink(sd_path(c, "%s/%d/fd/%d", c->proc, pid, fds[i]), target,
				sizeof(target)) < 0)
			continue; /* closed meanwhile */
		len = sd_read(c, sd_path(c, "%s/%d/fdinfo/%d", c->proc, pid, fds[i]));
		if (len < 0 || proc_fdinfo_flags(c->file, (size_t)len, &flags))
			continue;
		switch (flags & O_ACCMODE) {
		case O_RDONLY:
			fmode = SD_FMODE_READ;
			break;
		case O_WRONLY:
			fmode = SD_FMODE_WRITE;
			break;
		case O_RDWR:
			fmode = SD_FMODE_READ | SD_FMODE_WRITE;
			break;
		}
		sd_begin(c);
		sd_put_u64(c, (uint64_t)pid);
		sd_put_i32(c, fds[i]);
		sd_put_u32(c, flags);
		sd_put_u32(c, fmode);
		sd_put_str(c, target);
		sd_emit(c, &sd_class_file_descriptor);
	}
	free(fds);
}

static void dump_maps(struct sd_ctx *c, int32_t pid)
{
	long len = sd_read(c, sd_path(c, "%s/%d/maps", c->proc, pid));
	const char *p = c->file, *end;

	if (len <= 0)
		return;
	end = c->file + len;
	while (p < end && !c->err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct proc_map m;

		if (!proc_maps_line(p, (size_t)(eol - p), &m)) {
			sd_begin(c);
			sd_put_i32(c, pid);
			sd_put_u64(c, m.start);
			sd_put_u64(c, m.end);
			sd_put_u64(c, m.flags);
			sd_put_u64(c, m.inode);
			sd_put_u64(c, m.pgoff);
			sd_emit(c, &sd_class_vm_map);
		}
		p = eol + 1;
	}
}

static void dump_process(struct sd_ctx *c, int32_t pid)
{
	size_t n;
	int32_t *tids = sd_numeric_entries(sd_path(c, "%s/%d/task", c->proc, pid), &n);
	bool files_done = false;

	for (size_t i = 0; i < n && !c->err; i++) {
		struct proc_stat st;

		if (dump_thread(c, pid, tids[i], &st))
			continue;
		/* the process's table, once, after its first thread (LTTng skips a repeated table)
		 */
		if (!files_done) {
			files_done = true;
			if (!(st.flags & PROC_PF_KTHREAD)) {
				dump_fds(c, pid);
				dump_maps(c, pid);
			}
		}
	}
	free(tids);
}

int kstatedump_run(kevent_sink_fn sink, void *arg, int cpu, const char *proc, const char *sys)
{
	struct sd_ctx *c = calloc(1, sizeof(*c));
	size_t n;
	int32_t *pids;
	int err;

	if (!c)
		return -ENOMEM;
	c->sink = sink;
	c->arg = arg;
	c->cpu = cpu;
	c->tid = (int32_t)gettid();
	c->proc = proc ? proc : "/proc";
	c->sys = sys ? sys : "/sys";
	sd_read_self_ns(c);

	sd_begin(c);
	sd_emit(c, &sd_class_start);
	pids = sd_numeric_entries(c->proc, &n);
	for (size_t i = 0; i < n && !c->err; i++)
		dump_process(c, pids[i]);
	free(pids);
	sd_dump_interrupts(c);
	sd_dump_network(c);
	sd_dump_block_devices(c);
	sd_dump_cpus(c);
	sd_begin(c);
	sd_emit(c, &sd_class_end);

	err = c->err;
	free(c->irq_threads);
	free(c->file);
	free(c);
	return err;
}
