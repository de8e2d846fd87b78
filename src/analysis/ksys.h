/*
 * ksys.h - the system call, file descriptor and block request state of
 * lttng-analyses' linux automaton (linuxautomaton/syscalls.py, io.py,
 * block.py and the fd parts of sched.py and statedump.py in 0.6.1;
 * docs/analyses-reference.md sections 3, 4 and 8), kept beside kstate:
 *  - per thread, the pending system call, entered on a CPU while the
 *    switches say the thread runs there (only then), completed by the
 *    next exit on that CPU whatever its name;
 *  - per process (the thread itself when its pid is unknown), the fds it
 *    has: state dump, opens, dups, sockets, fork copies, minus closes,
 *    dup2/dup3 targets and close-on-exec fds at exec; an fd an I/O call
 *    names at a successful exit is added first when unknown;
 *  - block requests issued and not completed, per (device, sector).
 * Fed every event after kstate (ksys_event); calls the analysis's hooks
 * while the period is open (kstate.notify), in lttng-analyses' order.
 *
 * Memory: one record per thread and per fd open, one per pending block
 * request, each distinct name once (strtab); nothing per event.
 */
#ifndef TRAX_ANALYSIS_KSYS_H
#define TRAX_ANALYSIS_KSYS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/idmap.h"
#include "analysis/kev.h"
#include "analysis/kstate.h"
#include "analysis/strtab.h"

/* What an I/O call is (lttng-analyses' IORequest operations). */
enum ksys_op {
	KSYS_OP_NONE = 0, /* not an I/O request (or fcntl other than F_DUPFD, splice...) */
	KSYS_OP_OPEN,
	KSYS_OP_READ,
	KSYS_OP_WRITE,
	KSYS_OP_CLOSE,
	KSYS_OP_SYNC,
};

#define KSYS_NO_NAME UINT32_MAX

/* A system call: pending, then completed (at its exit). */
struct ksys_call {
	uint32_t name; /* strtab id of the call's name (from the entry) */
	int64_t begin, end;
	int64_t ret; /* the exit's ret (0 when the exit has none) */
	/* the I/O request, op != KSYS_OP_NONE */
	enum ksys_op op;
	int has_fd;
	int64_t fd; /* the fd it acts on; for an open, the new fd (ret >= 0) */
	int has_size;
	int64_t size;	   /* a read's or write's: the exit's ret when >= 0 (lttng-analyses') */
	uint32_t filename; /* an open's file (strtab id) */
	int cloexec;
};

struct ksys_hooks {
	/* a system call completed by thread t on cpu (syscall_exit) */
	void (*syscall_exit)(void *ctx, struct kthread *t, const struct ksys_call *call,
			     int64_t cpu);
	/* an I/O request completed (io_rq_exit): t's, with its process parent */
	void (*io_exit)(void *ctx, struct kthread *t, struct kthread *parent,
			const struct ksys_call *call);
	/* owner got fd (filename: strtab id), closed it, or learnt its name (statedump) */
	void (*create_fd)(void *ctx, struct kthread *owner, int64_t fd, uint32_t filename,
			  int64_t ts);
	void (*close_fd)(void *ctx, struct kthread *owner, int64_t fd, int64_t ts);
	void (*update_fd)(void *ctx, struct kthread *owner, int64_t fd, uint32_t filename,
			  int64_t ts);
	/* the state dump said t belongs to process parent (create_parent_proc) */
	void (*parent_proc)(void *ctx, struct kthread *t, struct kthread *parent);
	/* a block request on dev completed after dur ns; diskname KSYS_NO_NAME: none known */
	void (*block_complete)(void *ctx, int64_t dev, uint32_t diskname, int64_t dur,
			       int64_t nr_sector, int64_t tid);
	/* the state dump named block device dev */
	void (*block_device)(void *ctx, int64_t dev, uint32_t diskname);
};

struct ksys_thread;
struct ksys_fd;
struct ksys_rq;
struct ksys_disk;

struct ksys {
	struct kstate *st;
	const struct ksys_hooks *hooks;
	void *ctx;
	struct strtab names; /* call names, file names, disk names */
	uint32_t id_unknown, id_socket;
	/* per event class id: what its system call is (0: not classified yet) */
	uint8_t *cls_kind;
	uint32_t *cls_name;
	size_t ncls;
	/* threads */
	struct an_idmap tids;
	struct ksys_thread *threads;
	size_t nthreads, tcap;
	/* fds: (owner tid, fd) -> entry */
	struct an_idmap fdmap;
	struct ksys_fd *fds;
	size_t nfds, fdcap;
	uint32_t fd_free;
	/* block requests: (dev, sector) -> entry; disks */
	struct an_idmap rqmap;
	struct ksys_rq *rqs;
	size_t nrqs, rqcap;
	uint32_t rq_free;
	struct ksys_disk *disks;
	size_t ndisks, dcap;
	int failed;
};

void ksys_init(struct ksys *s, struct kstate *st, const struct ksys_hooks *hooks, void *ctx);
void ksys_free(struct ksys *s);
/* Updates the state with ev (after kstate saw it): 0, or -1 when memory ran out. */
int ksys_event(struct ksys *s, const struct trax_event *ev, const struct kev_class *c, int64_t ts);
/* The string of a strtab id given to a hook. */
static inline const char *ksys_str(const struct ksys *s, uint32_t id)
{
	return strtab_str(&s->names, id);
}

#endif /* TRAX_ANALYSIS_KSYS_H */
