/*
 * ksys.c - system calls, fds and block requests as lttng-analyses'
 * automaton tracks them (ksys.h).
 */
#include "analysis/ksys.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/grow.h"

#define TOMB	     (AN_IDMAP_NONE - 1) /* a map value: the key's entry was removed */
#define NONE	     AN_IDMAP_NONE
#define PY_O_CLOEXEC 02000000 /* os.O_CLOEXEC on Linux */

struct ksys_thread {
	int64_t tid;
	int pending;
	struct ksys_call call;
	uint32_t fd_head; /* its fds (as a process), a list through ksys_fd.next */
};

struct ksys_fd {
	int64_t owner, fd;
	uint32_t filename;
	int cloexec;
	uint32_t prev, next; /* the owner's list; next: the free list when unused */
};

struct ksys_rq {
	int64_t dev, sector, nr_sector, tid, issued;
	uint32_t next_free;
};

struct ksys_disk {
	int64_t dev;
	uint32_t name; /* KSYS_NO_NAME: none known */
};

/* The system calls lttng-analyses treats as I/O (sv.SyscallConsts), and what it reads of them. */
enum io_kind {
	IO_UNSET = 0,
	IO_NOT,	  /* not an I/O call */
	IO_NOREQ, /* an I/O name without a request: splice, sendfile64 */
	IO_OPEN,
	IO_SOCKET,
	IO_DUP,
	IO_DUP2,
	IO_DUP3,
	IO_FCNTL,
	IO_CLOSE,
	IO_READ,
	IO_WRITE,
	IO_SYNC,
	IO_FSYNC,
	IO_SYNC_RANGE,
};

static const struct {
	const char *name;
	uint8_t kind;
	int8_t size_role; /* -1: the size is the exit's ret */
} io_calls[] = {
    {"open", IO_OPEN, -1},
    {"openat", IO_OPEN, -1},
    {"socket", IO_SOCKET, -1},
    {"dup", IO_DUP, -1},
    {"dup2", IO_DUP2, -1},
    {"dup3", IO_DUP3, -1},
    {"fcntl", IO_FCNTL, -1},
    {"close", IO_CLOSE, -1},
    {"read", IO_READ, KR_COUNT},
    {"recvmsg", IO_READ, -1},
    {"recvfrom", IO_READ, KR_SIZE},
    {"readv", IO_READ, KR_VLEN},
    {"pread", IO_READ, KR_COUNT},
    {"pread64", IO_READ, KR_COUNT},
    {"preadv", IO_READ, KR_VLEN},
    {"write", IO_WRITE, KR_COUNT},
    {"sendmsg", IO_WRITE, -1},
    {"sendto", IO_WRITE, KR_LEN},
    {"writev", IO_WRITE, KR_VLEN},
    {"pwrite", IO_WRITE, KR_COUNT},
    {"pwrite64", IO_WRITE, KR_COUNT},
    {"pwritev", IO_WRITE, KR_VLEN},
    {"sync", IO_SYNC, -1},
    {"fsync", IO_FSYNC, -1},
    {"fdatasync", IO_FSYNC, -1},
    {"sync_file_range", IO_SYNC_RANGE, KR_NBYTES},
    {"splice", IO_NOREQ, -1},
    {"sendfile64", IO_NOREQ, -1},
};

void ksys_init(struct ksys *s, struct kstate *st, const struct ksys_hooks *hooks, void *ctx)
{
	static const struct ksys_hooks none;

	memset(s, 0, sizeof(*s));
	s->st = st;
	s->hooks = hooks ? hooks : &none;
	s->ctx = ctx;
	strtab_init(&s->names);
	an_idmap_init(&s->tids);
	an_idmap_init(&s->fdmap);
	an_idmap_init(&s->rqmap);
	s->fd_free = s->rq_free = NONE;
	s->id_unknown = strtab_id(&s->names, "unknown");
	s->id_socket = strtab_id(&s->names, "socket");
	if (s->id_unknown == NONE || s->id_socket == NONE)
		s->failed = 1;
}

void ksys_free(struct ksys *s)
{
	strtab_free(&s->names);
	free(s->cls_kind);
	free(s->cls_name);
	an_idmap_free(&s->tids);
	free(s->threads);
	an_idmap_free(&s->fdmap);
	free(s->fds);
	an_idmap_free(&s->rqmap);
	free(s->rqs);
	free(s->disks);
	memset(s, 0, sizeof(*s));
}

static int64_t get_int(const struct trax_event *ev, const struct kev_class *c, enum kev_role r,
		       int64_t dflt)
{
	int64_t v;

	return kev_int(ev, c, r, &v) ? dflt : v;
}

static uint32_t intern(struct ksys *s, const char *str)
{
	uint32_t id = strtab_id(&s->names, str ? str : "");

	if (id == NONE)
		s->failed = 1;
	return id;
}

/* The record of thread tid (created when new), NULL when memory ran out. */
static struct ksys_thread *trec(struct ksys *s, int64_t tid)
{
	uint32_t i = an_idmap_get(&s->tids, (uint64_t)tid);
	struct ksys_thread *t;

	if (i != NONE)
		return &s->threads[i];
	if (an_grow_in((void **)&s->threads, &s->tcap, s->nthreads + 1, sizeof(*s->threads)) ||
	    an_idmap_put(&s->tids, (uint64_t)tid, (uint32_t)s->nthreads)) {
		s->failed = 1;
		return NULL;
	}
	t = &s->threads[s->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->fd_head = NONE;
	return t;
}

static uint64_t fd_key(int64_t owner, int64_t fd)
{
	return ((uint64_t)owner << 32) ^ (uint32_t)fd;
}

static uint32_t fd_find(struct ksys *s, int64_t owner, int64_t fd)
{
	uint32_t i = an_idmap_get(&s->fdmap, fd_key(owner, fd));

	if (i == NONE || i == TOMB || s->fds[i].owner != owner || s->fds[i].fd != fd)
		return NONE;
	return i;
}

static uint32_t fd_add(struct ksys *s, int64_t owner, int64_t fd, uint32_t filename, int cloexec)
{
	struct ksys_thread *o = trec(s, owner);
	struct ksys_fd *f;
	uint32_t i;

	if (!o)
		return NONE;
	if (s->fd_free != NONE) {
		i = s->fd_free;
		s->fd_free = s->fds[i].next;
	} else {
		if (an_grow_in((void **)&s->fds, &s->fdcap, s->nfds + 1, sizeof(*s->fds))) {
			s->failed = 1;
			return NONE;
		}
		i = (uint32_t)s->nfds++;
	}
	if (an_idmap_put(&s->fdmap, fd_key(owner, fd), i)) {
		s->failed = 1;
		return NONE;
	}
	f = &s->fds[i];
	f->owner = owner;
	f->fd = fd;
	f->filename = filename;
	f->cloexec = cloexec;
	f->prev = NONE;
	f->next = o->fd_head;
	if (o->fd_head != NONE)
		s->fds[o->fd_head].prev = i;
	o->fd_head = i;
	return i;
}

static void fd_del(struct ksys *s, uint32_t i)
{
	struct ksys_fd *f = &s->fds[i];
	struct ksys_thread *o = trec(s, f->owner);

	if (!o)
		return;
	an_idmap_put(&s->fdmap, fd_key(f->owner, f->fd), TOMB);
	if (f->prev != NONE)
		s->fds[f->prev].next = f->next;
	else
		o->fd_head = f->next;
	if (f->next != NONE)
		s->fds[f->next].prev = f->prev;
	f->next = s->fd_free;
	s->fd_free = i;
}

/* A new sv.Process for tid: no pending call, no fd (silently: lttng-analyses replaces it). */
static void trec_reset(struct ksys *s, int64_t tid)
{
	struct ksys_thread *t = trec(s, tid);

	if (!t)
		return;
	t->pending = 0;
	while (t->fd_head != NONE)
		fd_del(s, t->fd_head);
}

static int notify(const struct ksys *s)
{
	return s->st->notify;
}

/* _get_parent_proc(): the process of t (t itself when its pid is unknown or its own). */
static struct kthread *parent_of(struct ksys *s, struct kthread *t)
{
	struct kthread *p;

	if (t->pid < 0 || t->pid == t->tid)
		return t;
	if (!(p = kstate_thread_get(s->st, t->pid, t->pid, "")))
		s->failed = 1;
	return p ? p : t;
}

static void close_fd(struct ksys *s, struct kthread *owner, int64_t fd, int64_t ts)
{
	uint32_t i = fd_find(s, owner->tid, fd);

	if (i == NONE)
		return;
	if (notify(s) && s->hooks->close_fd)
		s->hooks->close_fd(s->ctx, owner, fd, ts);
	fd_del(s, i);
}

static void create_fd(struct ksys *s, struct kthread *owner, int64_t fd, uint32_t name, int cloexec,
		      int64_t ts)
{
	if (fd_add(s, owner->tid, fd, name, cloexec) == NONE)
		return;
	if (notify(s) && s->hooks->create_fd)
		s->hooks->create_fd(s->ctx, owner, fd, name, ts);
}

/* What the system call of entry class c is (classified at its first event). */
static uint8_t classify(struct ksys *s, const struct kev_class *c, int8_t *size_role)
{
	if (c->id >= s->ncls) {
		size_t n = ((size_t)c->id + 1) * 2;
		uint8_t *k = realloc(s->cls_kind, n);
		uint32_t *nm;

		if (k)
			s->cls_kind = k;
		nm = k ? realloc(s->cls_name, n * sizeof(*nm)) : NULL;
		if (!nm) {
			s->failed = 1;
			*size_role = -1;
			return IO_NOT;
		}
		s->cls_name = nm;
		memset(k + s->ncls, 0, n - s->ncls);
		s->ncls = n;
	}
	if (!s->cls_kind[c->id]) {
		s->cls_kind[c->id] = IO_NOT;
		s->cls_name[c->id] = intern(s, c->syscall);
		for (size_t i = 0; i < sizeof(io_calls) / sizeof(io_calls[0]); i++)
			if (c->syscall && !strcmp(c->syscall, io_calls[i].name))
				s->cls_kind[c->id] = (uint8_t)(i + IO_NOT + 1);
	}
	if (s->cls_kind[c->id] == IO_NOT) {
		*size_role = -1;
		return IO_NOT;
	}
	*size_role = io_calls[s->cls_kind[c->id] - IO_NOT - 1].size_role;
	return io_calls[s->cls_kind[c->id] - IO_NOT - 1].kind;
}

/*
 * _fix_context_pid(): a pid in the stream event context (and none in the
 * payload) gives t its pid when unknown; the process record is then
 * replaced by a new one (lttng-analyses' own way: pending call, fds,
 * wakeup of that process forgotten).
 */
static void fix_context_pid(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
			    struct kthread *t)
{
	struct kthread *p;
	int64_t pid;

	if (!kev_has(c, KR_SEC_PID) ||
	    (kev_has(c, KR_PID) && c->ref[KR_PID].scope == TRAX_SCOPE_PAYLOAD) || t->pid >= 0 ||
	    kev_int(ev, c, KR_SEC_PID, &pid))
		return;
	t->pid = pid;
	if (pid == t->tid)
		return;
	if (!(p = kstate_thread_get(s->st, pid, pid, t->comm))) {
		s->failed = 1;
		return;
	}
	p->tid = pid;
	p->pid = pid;
	if (p != t)
		memcpy(p->comm, t->comm, sizeof(p->comm));
	p->has_prio = t->has_prio;
	p->prio = t->prio;
	p->has_wakeup = 0;
	p->last_waker = -1;
	trec_reset(s, pid);
}

static void on_entry(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
		     int64_t ts)
{
	int64_t cur = kstate_current(s->st, get_int(ev, c, KR_CPU_ID, 0)), oldfd = 0, newfd;
	struct kthread *t, *parent;
	struct ksys_thread *r;
	struct ksys_call *call;
	int8_t size_role;
	uint8_t kind;
	uint32_t i;

	if (cur < 0 || !(t = kstate_thread(s->st, cur)) || !(r = trec(s, cur)))
		return;
	kind = classify(s, c, &size_role);
	call = &r->call;
	memset(call, 0, sizeof(*call));
	call->name = s->cls_name[c->id];
	call->begin = ts;
	call->filename = NONE;
	r->pending = 1;
	if (kind == IO_NOT)
		return;
	fix_context_pid(s, ev, c, t);
	/* (a reset of the pid's record may have been this thread's: it is still pending) */
	r = trec(s, cur);
	if (!r)
		return;
	r->pending = 1;
	call = &r->call;
	switch (kind) {
	case IO_OPEN:
		call->op = KSYS_OP_OPEN;
		call->filename = intern(s, kev_str(ev, c, KR_FILENAME));
		call->cloexec = (get_int(ev, c, KR_FLAGS, 0) & PY_O_CLOEXEC) != 0;
		break;
	case IO_SOCKET:
		call->op = KSYS_OP_OPEN;
		call->filename = s->id_socket;
		break;
	case IO_DUP:
	case IO_DUP2:
	case IO_DUP3:
	case IO_FCNTL:
		parent = parent_of(s, t);
		if (kind == IO_DUP) {
			oldfd = get_int(ev, c, KR_FILDES, 0);
		} else if (kind == IO_FCNTL) {
			if (get_int(ev, c, KR_CMD, 0) != 0) /* F_DUPFD only */
				return;
			oldfd = get_int(ev, c, KR_FD, 0);
		} else {
			oldfd = get_int(ev, c, KR_OLDFD, 0);
			newfd = get_int(ev, c, KR_NEWFD, 0);
			close_fd(s, parent, newfd, ts);
		}
		call->op = KSYS_OP_OPEN;
		i = fd_find(s, parent->tid, oldfd);
		call->filename = i == NONE ? s->id_unknown : s->fds[i].filename;
		if (kind == IO_DUP3)
			call->cloexec = (get_int(ev, c, KR_FLAGS, 0) & PY_O_CLOEXEC) != 0;
		break;
	case IO_CLOSE:
		call->op = KSYS_OP_CLOSE;
		call->has_fd = 1;
		call->fd = get_int(ev, c, KR_FD, 0);
		break;
	case IO_READ:
	case IO_WRITE:
		call->op = kind == IO_READ ? KSYS_OP_READ : KSYS_OP_WRITE;
		call->has_fd = 1;
		call->fd = get_int(ev, c, KR_FD, 0);
		/*
		 * (the size asked for, size_role, is not what lttng-analyses
		 * keeps: its SyscallIORequest drops it, the exit's ret is the size)
		 */
		(void)size_role;
		break;
	case IO_SYNC:
	case IO_FSYNC:
	case IO_SYNC_RANGE:
		call->op = KSYS_OP_SYNC;
		if (kind != IO_SYNC) {
			call->has_fd = 1;
			call->fd = get_int(ev, c, KR_FD, 0);
		}
		break;
	default:
		break;
	}
}

/* _track_io_rq_exit() */
static void io_exit(struct ksys *s, struct kthread *t, struct ksys_call *call)
{
	struct kthread *parent;

	if (call->ret >= 0) {
		if (call->op == KSYS_OP_OPEN) {
			call->has_fd = 1;
			call->fd = call->ret;
		}
		if (call->op == KSYS_OP_READ || call->op == KSYS_OP_WRITE) {
			call->has_size = 1;
			call->size = call->ret;
		}
		parent = parent_of(s, t);
		if (call->has_fd && fd_find(s, parent->tid, call->fd) == NONE)
			create_fd(s, parent, call->fd,
				  call->op == KSYS_OP_OPEN ? call->filename : s->id_unknown,
				  call->op == KSYS_OP_OPEN && call->cloexec, call->end);
	}
	parent = parent_of(s, t);
	if (notify(s) && s->hooks->io_exit)
		s->hooks->io_exit(s->ctx, t, parent, call);
	if (call->op == KSYS_OP_CLOSE && call->ret == 0)
		close_fd(s, parent_of(s, t), call->fd, call->end);
}

static void on_exit_(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
		     int64_t ts)
{
	int64_t cpu = get_int(ev, c, KR_CPU_ID, 0), cur = kstate_current(s->st, cpu);
	struct ksys_thread *r;
	struct ksys_call call;
	struct kthread *t;
	uint32_t ri;

	if (cur < 0 || !(t = kstate_thread(s->st, cur)))
		return;
	ri = an_idmap_get(&s->tids, (uint64_t)cur);
	if (ri == NONE || !s->threads[ri].pending)
		return;
	r = &s->threads[ri];
	r->pending = 0;
	call = r->call;
	call.end = ts;
	call.ret = get_int(ev, c, KR_RET, 0);
	if (notify(s) && s->hooks->syscall_exit)
		s->hooks->syscall_exit(s->ctx, t, &call, cpu);
	if (call.op != KSYS_OP_NONE)
		io_exit(s, t, &call);
}

static void on_fork(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
		    int64_t ts)
{
	int64_t ppid = get_int(ev, c, KR_PARENT_PID, 0), ctid = get_int(ev, c, KR_CHILD_TID, 0);
	struct kthread *child = kstate_thread(s->st, ctid);
	struct ksys_thread *p;
	uint32_t i;

	if (!child || ctid == ppid)
		return;
	trec_reset(s, ctid);
	if (!(p = trec(s, ppid)))
		return;
	/* the child gets a copy of the parent process's fds (fd_add keeps indexes valid) */
	for (i = p->fd_head; i != NONE; i = s->fds[i].next) {
		struct ksys_fd f = s->fds[i];

		create_fd(s, child, f.fd, f.filename, f.cloexec, ts);
		if (s->failed)
			return;
	}
}

static void on_exec(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
		    int64_t ts)
{
	int64_t tid = get_int(ev, c, KR_TID, 0);
	struct kthread *t = kstate_thread(s->st, tid);
	struct ksys_thread *r = trec(s, tid);
	uint32_t i, next;

	if (!t || !r)
		return;
	for (i = r->fd_head; i != NONE; i = next) {
		next = s->fds[i].next;
		if (s->fds[i].cloexec)
			close_fd(s, t, s->fds[i].fd, ts);
	}
}

static void on_statedump_process(struct ksys *s, const struct trax_event *ev,
				 const struct kev_class *c)
{
	int64_t tid = get_int(ev, c, KR_TID, 0), pid = get_int(ev, c, KR_PID, -1);
	struct kthread *t = kstate_thread(s->st, tid), *parent = kstate_thread(s->st, pid);
	struct ksys_thread *r;
	uint32_t i, next, j;

	if (pid == tid || !t || !parent || !(r = trec(s, tid)) || !trec(s, pid))
		return;
	/* the thread's fds become its process's */
	for (i = r->fd_head; i != NONE; i = next) {
		struct ksys_fd f = s->fds[i];

		next = f.next;
		j = fd_find(s, pid, f.fd);
		if (j == NONE)
			fd_add(s, pid, f.fd, f.filename, f.cloexec);
		else if (!*ksys_str(s, s->fds[j].filename))
			s->fds[j].filename = f.filename;
		fd_del(s, i);
	}
	if (notify(s) && s->hooks->parent_proc)
		s->hooks->parent_proc(s->ctx, t, parent);
}

static void on_statedump_fd(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
			    int64_t ts)
{
	int64_t pid = get_int(ev, c, KR_PID, 0), fd = get_int(ev, c, KR_FD, 0);
	uint32_t name = intern(s, kev_str(ev, c, KR_FILENAME)), i;
	int cloexec = (get_int(ev, c, KR_FLAGS, 0) & PY_O_CLOEXEC) != 0;
	struct kthread *p = kstate_thread_get(s->st, pid, pid, "");

	if (!p || name == NONE) {
		s->failed = 1;
		return;
	}
	i = fd_find(s, pid, fd);
	if (i == NONE) {
		create_fd(s, p, fd, name, cloexec, ts);
		return;
	}
	s->fds[i].filename = name;
	if (notify(s) && s->hooks->update_fd)
		s->hooks->update_fd(s->ctx, p, fd, name, ts);
}

static struct ksys_disk *disk_get(struct ksys *s, int64_t dev)
{
	for (size_t i = 0; i < s->ndisks; i++)
		if (s->disks[i].dev == dev)
			return &s->disks[i];
	if (an_grow_in((void **)&s->disks, &s->dcap, s->ndisks + 1, sizeof(*s->disks))) {
		s->failed = 1;
		return NULL;
	}
	s->disks[s->ndisks] = (struct ksys_disk){dev, KSYS_NO_NAME};
	return &s->disks[s->ndisks++];
}

static void on_block_device(struct ksys *s, const struct trax_event *ev, const struct kev_class *c)
{
	int64_t dev = get_int(ev, c, KR_DEV, 0);
	uint32_t name = intern(s, kev_str(ev, c, KR_DISKNAME));
	struct ksys_disk *d = disk_get(s, dev);

	if (!d || name == NONE)
		return;
	if (d->name == KSYS_NO_NAME)
		d->name = name;
	if (notify(s) && s->hooks->block_device)
		s->hooks->block_device(s->ctx, dev, name);
}

static uint64_t rq_hash(int64_t dev, int64_t sector)
{
	return ((uint64_t)dev * 0x9E3779B97F4A7C15ULL) ^ (uint64_t)sector;
}

/* The pending request (dev, sector): its index, and in *slot the key that holds it (or a free one).
 */
static uint32_t rq_find(struct ksys *s, int64_t dev, int64_t sector, uint64_t *slot)
{
	uint64_t h = rq_hash(dev, sector), free_key = 0;
	int has_free = 0;
	uint32_t i;

	for (;; h++) {
		i = an_idmap_get(&s->rqmap, h);
		if (i == NONE)
			break;
		if (i == TOMB) {
			if (!has_free) {
				has_free = 1;
				free_key = h;
			}
			continue;
		}
		if (s->rqs[i].dev == dev && s->rqs[i].sector == sector) {
			*slot = h;
			return i;
		}
	}
	*slot = has_free ? free_key : h;
	return NONE;
}

static void on_rq_issue(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
			int64_t ts)
{
	int64_t dev = get_int(ev, c, KR_DEV, 0), sector = get_int(ev, c, KR_SECTOR, 0);
	int64_t nr = get_int(ev, c, KR_NR_SECTOR, 0);
	uint64_t slot;
	uint32_t i;

	if (nr == 0 || !disk_get(s, dev))
		return;
	i = rq_find(s, dev, sector, &slot);
	if (i == NONE) {
		if (s->rq_free != NONE) {
			i = s->rq_free;
			s->rq_free = s->rqs[i].next_free;
		} else {
			if (an_grow_in((void **)&s->rqs, &s->rqcap, s->nrqs + 1, sizeof(*s->rqs))) {
				s->failed = 1;
				return;
			}
			i = (uint32_t)s->nrqs++;
		}
		if (an_idmap_put(&s->rqmap, slot, i)) {
			s->failed = 1;
			return;
		}
	}
	s->rqs[i] = (struct ksys_rq){dev, sector, nr, get_int(ev, c, KR_TID, -1), ts, NONE};
}

static void on_rq_complete(struct ksys *s, const struct trax_event *ev, const struct kev_class *c,
			   int64_t ts)
{
	int64_t dev = get_int(ev, c, KR_DEV, 0), sector = get_int(ev, c, KR_SECTOR, 0);
	int64_t nr = get_int(ev, c, KR_NR_SECTOR, 0);
	struct ksys_disk *d;
	struct ksys_rq rq;
	uint64_t slot;
	uint32_t i;

	if (nr == 0 || !(d = disk_get(s, dev)))
		return;
	i = rq_find(s, dev, sector, &slot);
	if (i == NONE || s->rqs[i].nr_sector != nr)
		return;
	rq = s->rqs[i];
	an_idmap_put(&s->rqmap, slot, TOMB);
	s->rqs[i].next_free = s->rq_free;
	s->rq_free = i;
	if (notify(s) && s->hooks->block_complete)
		s->hooks->block_complete(s->ctx, dev, d->name, ts - rq.issued, nr, rq.tid);
}

int ksys_event(struct ksys *s, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	switch (c->kind) {
	case KEV_SYSCALL_ENTRY:
		on_entry(s, ev, c, ts);
		break;
	case KEV_SYSCALL_EXIT:
		on_exit_(s, ev, c, ts);
		break;
	case KEV_SCHED_FORK:
		on_fork(s, ev, c, ts);
		break;
	case KEV_SCHED_EXEC:
		on_exec(s, ev, c, ts);
		break;
	case KEV_STATEDUMP_PROCESS:
		on_statedump_process(s, ev, c);
		break;
	case KEV_STATEDUMP_FD:
		on_statedump_fd(s, ev, c, ts);
		break;
	case KEV_STATEDUMP_BLOCK:
		on_block_device(s, ev, c);
		break;
	case KEV_BLOCK_RQ_ISSUE:
		on_rq_issue(s, ev, c, ts);
		break;
	case KEV_BLOCK_RQ_COMPLETE:
		on_rq_complete(s, ev, c, ts);
		break;
	default:
		break;
	}
	return s->failed || s->st->failed ? -1 : 0;
}
