/*
 * an-iolatency.c - `trax analyze iolatency`: the latency of I/O system
 * calls (open, read, write, sync families) and of block requests, as
 * lttng-iolatencystats 0.6.1 computes and prints it (default, --stats),
 * with lttng-iolatencyfreq's histograms (--freq), lttng-iolatencytop's
 * slowest calls (--top) and lttng-iolog's list (--log):
 * docs/analyses-reference.md sections 4 and 8. The calls and fds are
 * ksys.h's; this file keeps what lttng-analyses' I/O analysis keeps of
 * its own: per thread the requests it accepted, per process the fds it
 * saw created in the period (a successful read or write on an fd it did
 * not see is dropped) and their names over time (for the file names of
 * --top and --log, looked up as lttng-analyses does, oddities included).
 *
 * Memory: constant per call for --stats; --freq keeps the durations and
 * --log the requests in spools (spool.h: bounded memory, the rest on
 * disk), --top the --limit + 1 slowest requests of each kind (topk.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/durstats.h"
#include "analysis/grow.h"
#include "analysis/ksys.h"
#include "analysis/pyfmt.h"
#include "analysis/spool.h"
#include "analysis/table.h"
#include "analysis/topk.h"

/* The sample standard deviation (count >= 2), as Python's statistics.stdev. */
static double stdev_of(const struct an_durstats *d)
{
	double v = 0;

	an_durstats_stdev(d, &v);
	return v;
}

#define NONE	     AN_IDMAP_NONE
#define TOMB	     (AN_IDMAP_NONE - 1)
#define FREQ_BUCKETS 20	   /* --freq-resolution's default */
#define TOPK_MAX     65536 /* --limit beyond: the top calls sorted in a spool */

enum { CAT_OPEN, CAT_READ, CAT_WRITE, CAT_SYNC, NCAT };

static const char *const cat_row[NCAT] = {"Open", "Read", "Write", "Sync"};
static const char *const cat_sub[NCAT] = {"open", "read", "write", "sync"};

/* A duration kept for --freq: of a kind of call (< NCAT) or of disk group - NCAT. */
struct io_dur {
	int64_t dur;
	uint64_t group;
};

/* What lttng-analyses' IoAnalysis keeps of a thread or process (ProcessIOStats). */
struct io_rec {
	int64_t tid, pid;
	char comm[KSTATE_COMM_MAX];
	int64_t *fds; /* the fds it has FDStats lists for */
	size_t nfds, fdcap;
};

/* An FDStats: one lifetime of an fd of a process. */
struct io_fdstat {
	int64_t open_ts, close_ts; /* close_ts -1: open */
	uint32_t filename;
};

/* The FDStats of one fd of one process, in order (lttng-analyses' fds[fd] list). */
struct io_chain {
	uint32_t *v;
	size_t n, cap;
};

struct io_req {
	int64_t begin, end, size, fd;
	uint32_t name, rec;
	uint8_t op, has_size, has_fd;
	uint64_t seq;
};

struct io_disk {
	int64_t dev;
	uint32_t name;
	struct an_durstats d;
};

struct iolat {
	struct an_run *run;
	struct ksys sys;
	struct an_idmap recmap; /* tid -> recs */
	struct io_rec *recs;
	size_t nrecs, rcap;
	struct an_idmap fdmap; /* (tid, fd) -> its chain */
	struct io_chain *chains;
	size_t nchains, chcap;
	struct io_fdstat *fdstats;
	size_t nfdstats, fscap;
	struct an_durstats cat[NCAT];
	struct an_spool *durs; /* --freq, --html: io_dur */
	struct an_spool *log;  /* --log: io_req, by begin */
	struct an_topk top[NCAT];
	struct an_spool *topall[NCAT]; /* --top, --limit 0 or >= TOPK_MAX: by duration */
	uint64_t seq;
	struct io_disk *disks;
	size_t ndisks, dcap;
	int keep_durs, keep_reqs;
	int failed;
};

/* Adds rec to sp; a failure (memory, disk) fails the run, saying why. */
static void spool_add(struct iolat *io, struct an_spool *sp, const void *rec)
{
	if (!an_spool_add(sp, rec))
		return;
	io->failed = 1;
	snprintf(io->run->err, io->run->errlen, "%s", an_spool_error(sp));
}

static void durs_add(struct iolat *io, uint64_t group, int64_t v)
{
	struct io_dur x = {v, group};

	spool_add(io, io->durs, &x);
}

/* period_data.tids[t]: created as ProcessIOStats.new_from_process(t) when new. */
static struct io_rec *rec_get(struct iolat *io, const struct kthread *t)
{
	uint32_t i = an_idmap_get(&io->recmap, (uint64_t)t->tid);
	struct io_rec *r;

	if (i != NONE)
		return &io->recs[i];
	if (an_grow_in((void **)&io->recs, &io->rcap, io->nrecs + 1, sizeof(*r)) ||
	    an_idmap_put(&io->recmap, (uint64_t)t->tid, (uint32_t)io->nrecs)) {
		io->failed = 1;
		return NULL;
	}
	r = &io->recs[io->nrecs++];
	memset(r, 0, sizeof(*r));
	r->tid = t->tid;
	r->pid = t->pid;
	memcpy(r->comm, t->comm, sizeof(r->comm));
	return r;
}

static struct io_rec *rec_of_tid(struct iolat *io, int64_t tid)
{
	uint32_t i = an_idmap_get(&io->recmap, (uint64_t)tid);

	return i == NONE ? NULL : &io->recs[i];
}

static uint64_t fd_key(int64_t tid, int64_t fd)
{
	return ((uint64_t)tid << 32) ^ (uint32_t)fd;
}

/* The chain of r's fd, NULL when none. */
static struct io_chain *fd_chain(struct iolat *io, const struct io_rec *r, int64_t fd)
{
	uint32_t i = an_idmap_get(&io->fdmap, fd_key(r->tid, fd));

	return i == NONE || i == TOMB ? NULL : &io->chains[i];
}

/* The last FDStats of r's fd, NONE when none. */
static uint32_t fd_last(struct iolat *io, const struct io_rec *r, int64_t fd)
{
	struct io_chain *c = fd_chain(io, r, fd);

	return c && c->n ? c->v[c->n - 1] : NONE;
}

/* get_fd(fd): the current FDStats (the last, if not closed). */
static uint32_t fd_current(struct iolat *io, const struct io_rec *r, int64_t fd)
{
	uint32_t i = fd_last(io, r, fd);

	return i != NONE && io->fdstats[i].close_ts < 0 ? i : NONE;
}

static void fd_set_chain(struct iolat *io, struct io_rec *r, int64_t fd, uint32_t chain)
{
	if (an_idmap_put(&io->fdmap, fd_key(r->tid, fd), chain))
		io->failed = 1;
}

/* Appends an FDStats to r's list of fd. */
static void fd_append(struct iolat *io, struct io_rec *r, int64_t fd, uint32_t filename, int64_t ts)
{
	struct io_chain *c = fd_chain(io, r, fd);
	struct io_fdstat *f;

	if (!c) {
		if (an_grow_in((void **)&r->fds, &r->fdcap, r->nfds + 1, sizeof(*r->fds)) ||
		    an_grow_in((void **)&io->chains, &io->chcap, io->nchains + 1, sizeof(*c))) {
			io->failed = 1;
			return;
		}
		r->fds[r->nfds++] = fd;
		c = &io->chains[io->nchains];
		memset(c, 0, sizeof(*c));
		fd_set_chain(io, r, fd, (uint32_t)io->nchains++);
	}
	if (an_grow_in((void **)&io->fdstats, &io->fscap, io->nfdstats + 1, sizeof(*f)) ||
	    an_grow_in((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v))) {
		io->failed = 1;
		return;
	}
	f = &io->fdstats[io->nfdstats];
	f->open_ts = ts;
	f->close_ts = -1;
	f->filename = filename;
	c->v[c->n++] = (uint32_t)io->nfdstats++;
}

static void on_create_fd(void *ctx, struct kthread *owner, int64_t fd, uint32_t filename,
			 int64_t ts)
{
	struct iolat *io = ctx;
	struct io_rec *r = rec_get(io, owner);

	if (r)
		fd_append(io, r, fd, filename, ts);
}

static void on_close_fd(void *ctx, struct kthread *owner, int64_t fd, int64_t ts)
{
	struct iolat *io = ctx;
	struct io_rec *r = rec_of_tid(io, owner->tid);
	uint32_t i;

	if (r && (i = fd_current(io, r, fd)) != NONE)
		io->fdstats[i].close_ts = ts;
}

static void on_update_fd(void *ctx, struct kthread *owner, int64_t fd, uint32_t filename,
			 int64_t ts)
{
	struct iolat *io = ctx;
	struct io_rec *r = rec_get(io, owner);
	uint32_t i;

	if (!r)
		return;
	if (fd_last(io, r, fd) == NONE)
		fd_append(io, r, fd, filename, ts);
	if ((i = fd_last(io, r, fd)) != NONE)
		io->fdstats[i].filename = filename;
}

/* _assign_fds_to_parent(): t's fd lists become its process's. */
static void on_parent_proc(void *ctx, struct kthread *t, struct kthread *parent)
{
	struct iolat *io = ctx;
	struct io_rec *r, *p;
	int64_t ptid = parent->tid, tid = t->tid;

	if (!rec_get(io, t) || !rec_get(io, parent))
		return;
	r = rec_of_tid(io, tid);
	p = rec_of_tid(io, ptid);
	r->pid = p->tid;
	if (r == p)
		return;
	for (size_t k = 0; k < r->nfds; k++) {
		int64_t fd = r->fds[k];
		struct io_chain *mine = fd_chain(io, r, fd), *theirs = fd_chain(io, p, fd);

		if (!mine)
			continue;
		if (!theirs) {
			if (an_grow_in((void **)&p->fds, &p->fdcap, p->nfds + 1, sizeof(*p->fds))) {
				io->failed = 1;
				return;
			}
			p->fds[p->nfds++] = fd;
			fd_set_chain(io, p, fd, (uint32_t)(mine - io->chains));
		} else {
			uint32_t pc = fd_current(io, p, fd), mc = fd_current(io, r, fd);

			if (pc != NONE && mc != NONE &&
			    !*ksys_str(&io->sys, io->fdstats[pc].filename))
				io->fdstats[pc].filename = io->fdstats[mc].filename;
		}
		fd_set_chain(io, r, fd, TOMB);
	}
	r->nfds = 0;
}

/* --min, --max (microseconds, as lttng-analyses: times 1000, compared in floating point) */
static int latency_passes(const struct iolat *io, int64_t dur)
{
	const struct an_options *o = io->run->o;

	if (o->has_max && (double)dur > o->max_us * 1000)
		return 0;
	if (o->has_min && (double)dur < o->min_us * 1000)
		return 0;
	return 1;
}

static int cat_of(int op)
{
	switch (op) {
	case KSYS_OP_OPEN:
		return CAT_OPEN;
	case KSYS_OP_READ:
		return CAT_READ;
	case KSYS_OP_WRITE:
		return CAT_WRITE;
	case KSYS_OP_SYNC:
		return CAT_SYNC;
	default:
		return -1;
	}
}

/* --top's order: the longest first; ties by thread, then in order of exit */
static int cmp_duration(const void *a, const void *b)
{
	const struct io_req *x = a, *y = b;
	int64_t dx = x->end - x->begin, dy = y->end - y->begin;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (x->rec != y->rec)
		return x->rec < y->rec ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* --log's order: by entry; ties by thread, then in order of exit */
static int cmp_begin(const void *a, const void *b)
{
	const struct io_req *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->rec != y->rec)
		return x->rec < y->rec ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The spools and top lists the options ask for: 0, -1 when out of memory. */
static int make_lists(struct iolat *io)
{
	const struct an_options *o = io->run->o;

	if ((o->freq || o->html) && !(io->durs = an_spool_new(sizeof(struct io_dur), NULL)))
		return -1;
	if (o->log && !(io->log = an_spool_new(sizeof(struct io_req), cmp_begin)))
		return -1;
	if (!o->top_list)
		return 0;
	for (int c = 0; c < NCAT; c++) {
		/* lttng-iolatencytop prints --limit + 1 rows: kept in a heap, unless many */
		if (o->limit > 0 && o->limit < TOPK_MAX) {
			if (an_topk_init(&io->top[c], sizeof(struct io_req), (size_t)o->limit + 1,
					 cmp_duration))
				return -1;
		} else if (!(io->topall[c] = an_spool_new(sizeof(struct io_req), cmp_duration)))
			return -1;
	}
	return 0;
}

static void keep_req(struct iolat *io, const struct io_req *q)
{
	int cat = cat_of(q->op);

	if (io->log)
		spool_add(io, io->log, q);
	if (cat < 0 || !io->run->o->top_list)
		return;
	if (io->topall[cat])
		spool_add(io, io->topall[cat], q);
	else
		an_topk_add(&io->top[cat], q);
}

static void on_io_exit(void *ctx, struct kthread *t, struct kthread *parent,
		       const struct ksys_call *call)
{
	struct iolat *io = ctx;
	struct io_rec *r, *p;
	int64_t dur = call->end - call->begin;
	int cat = cat_of(call->op);
	uint32_t ri;

	if (!rec_get(io, t) || !rec_get(io, parent))
		return;
	r = rec_of_tid(io, t->tid);
	p = rec_of_tid(io, parent->tid);
	ri = (uint32_t)(r - io->recs);
	/* a successful read or write on an fd this period did not see open is dropped */
	if (call->ret >= 0 && (call->op == KSYS_OP_READ || call->op == KSYS_OP_WRITE) &&
	    fd_current(io, p, call->fd) == NONE)
		return;
	if (!latency_passes(io, dur))
		goto comm;
	if (cat >= 0) {
		an_durstats_add(&io->cat[cat], dur);
		if (io->keep_durs)
			durs_add(io, (uint64_t)cat, dur);
	}
	if (io->keep_reqs) {
		struct io_req q;

		memset(&q, 0, sizeof(q));
		q.begin = call->begin;
		q.end = call->end;
		q.size = call->size;
		q.fd = call->fd;
		q.name = call->name;
		q.rec = ri;
		q.op = (uint8_t)call->op;
		q.has_size = (uint8_t)call->has_size;
		q.has_fd = (uint8_t)call->has_fd;
		q.seq = io->seq++;
		keep_req(io, &q);
	}
comm:
	memcpy(r->comm, t->comm, sizeof(r->comm));
	memcpy(p->comm, parent->comm, sizeof(p->comm));
}

static struct io_disk *disk_get(struct iolat *io, int64_t dev, uint32_t name)
{
	for (size_t i = 0; i < io->ndisks; i++)
		if (io->disks[i].dev == dev)
			return &io->disks[i];
	if (an_grow_in((void **)&io->disks, &io->dcap, io->ndisks + 1, sizeof(*io->disks))) {
		io->failed = 1;
		return NULL;
	}
	memset(&io->disks[io->ndisks], 0, sizeof(io->disks[0]));
	io->disks[io->ndisks].dev = dev;
	io->disks[io->ndisks].name = name;
	an_durstats_init(&io->disks[io->ndisks].d);
	return &io->disks[io->ndisks++];
}

static void on_block_complete(void *ctx, int64_t dev, uint32_t diskname, int64_t dur,
			      int64_t nr_sector, int64_t tid)
{
	struct iolat *io = ctx;
	struct io_disk *d = disk_get(io, dev, diskname);

	(void)nr_sector;
	(void)tid;
	if (!d || !latency_passes(io, dur))
		return;
	an_durstats_add(&d->d, dur);
	if (io->keep_durs)
		durs_add(io, NCAT + (uint64_t)(d - io->disks), dur);
}

static void on_block_device(void *ctx, int64_t dev, uint32_t diskname)
{
	struct iolat *io = ctx;
	struct io_disk *d = disk_get(io, dev, diskname);

	if (d)
		d->name = diskname;
}

static const struct ksys_hooks sys_hooks = {
    .io_exit = on_io_exit,
    .create_fd = on_create_fd,
    .close_fd = on_close_fd,
    .update_fd = on_update_fd,
    .parent_proc = on_parent_proc,
    .block_complete = on_block_complete,
    .block_device = on_block_device,
};

static void destroy(void *an)
{
	struct iolat *io = an;

	for (size_t i = 0; i < io->nrecs; i++)
		free(io->recs[i].fds);
	free(io->recs);
	free(io->fdstats);
	for (size_t i = 0; i < io->nchains; i++)
		free(io->chains[i].v);
	free(io->chains);
	an_spool_free(io->durs);
	an_spool_free(io->log);
	for (int c = 0; c < NCAT; c++) {
		an_topk_free(&io->top[c]);
		an_spool_free(io->topall[c]);
	}
	free(io->disks);
	an_idmap_free(&io->recmap);
	an_idmap_free(&io->fdmap);
	ksys_free(&io->sys);
	free(io);
}

static void *create(struct an_run *run)
{
	struct iolat *io = calloc(1, sizeof(*io));

	if (!io)
		return NULL;
	io->run = run;
	an_idmap_init(&io->recmap);
	an_idmap_init(&io->fdmap);
	for (int c = 0; c < NCAT; c++)
		an_durstats_init(&io->cat[c]);
	io->keep_durs = run->o->freq || run->o->html;
	io->keep_reqs = run->o->top_list || run->o->log;
	ksys_init(&io->sys, &run->st, &sys_hooks, io);
	if (make_lists(io)) {
		destroy(io);
		return NULL;
	}
	return io;
}

static int state_event(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	struct iolat *io = an;

	return ksys_event(&io->sys, ev, c, ts) || io->failed ? -1 : 0;
}

/* ---- output ---- */

static void disk_name(const struct iolat *io, const struct io_disk *d, char *buf, size_t len)
{
	if (d->name != KSYS_NO_NAME)
		snprintf(buf, len, "%s", ksys_str(&io->sys, d->name));
	else /* (major,minor) as the kernel's kdev_t */
		snprintf(buf, len, "(%lld,%lld)", (long long)(d->dev >> 20),
			 (long long)(d->dev & ((1 << 20) - 1)));
}

static void us3(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%0.03f", ns / 1000);
}

static void stats_line(FILE *f, const char *a, const char *b, const char *c, const char *d,
		       const char *e, const char *g)
{
	an_pyfmt_line(f, "{:<14} {:>14} {:>14} {:>14} {:>14} {:>14}", a, b, c, d, e, g);
}

static void stats_row(struct iolat *io, struct an_mi *mi, const char *obj, int is_disk,
		      const struct an_durstats *d)
{
	FILE *f = io->run->out;
	double avg = an_durstats_avg(d);
	int has_sd = d->count >= 2;
	double sd = has_sd ? stdev_of(d) : 0;

	if (io->run->o->json) {
		an_mi_row(mi);
		if (is_disk)
			an_mi_named(mi, "disk", "name", obj);
		else
			an_mi_string(mi, obj);
		an_mi_number(mi, "number", (int64_t)d->count);
		an_mi_number(mi, "duration", d->count ? d->min : 0);
		if (d->count)
			an_mi_float(mi, "duration", avg);
		else
			an_mi_number(mi, "duration", 0);
		an_mi_number(mi, "duration", d->count ? d->max : 0);
		if (has_sd)
			an_mi_float(mi, "duration", sd);
		else
			an_mi_unknown(mi);
		an_mi_row_end(mi);
	} else {
		char cnt[32], mn[48], av[48], mx[48], s[48];

		snprintf(cnt, sizeof(cnt), "%llu", (unsigned long long)d->count);
		us3(mn, sizeof(mn), d->count ? (double)d->min : 0);
		us3(av, sizeof(av), avg);
		us3(mx, sizeof(mx), d->count ? (double)d->max : 0);
		if (has_sd)
			us3(s, sizeof(s), sd);
		else
			snprintf(s, sizeof(s), "?");
		stats_line(f, obj, cnt, mn, av, mx, s);
	}
}

static const char separator[] = "-----------------------------------------------------------------"
				"------------------------";

static void report_stats(struct iolat *io, struct an_mi *mi, int64_t begin, int64_t end)
{
	FILE *f = io->run->out;
	int json = io->run->o->json;
	size_t rows = 0;
	char name[256];

	if (json)
		an_mi_table(mi, "syscall-latency-stats", NULL, begin, end);
	else {
		fputs("\nSyscalls latency statistics (usec):\n", f);
		stats_line(f, "Type", "Count", "Min", "Average", "Max", "Stdev");
		fprintf(f, "%.89s\n", separator);
	}
	for (int c = 0; c < NCAT; c++)
		stats_row(io, mi, cat_row[c], 0, &io->cat[c]);
	if (json)
		an_mi_table_end(mi);
	if (!io->ndisks)
		return;
	for (size_t i = 0; i < io->ndisks; i++)
		rows += io->disks[i].d.count > 0;
	if (json)
		an_mi_table(mi, "disk-latency-stats", NULL, begin, end);
	else if (rows) {
		fputs("\nDisk latency statistics (usec):\n", f);
		stats_line(f, "Name", "Count", "Min", "Average", "Max", "Stdev");
		fprintf(f, "%.89s\n", separator);
	}
	for (size_t i = 0; i < io->ndisks; i++) {
		if (!io->disks[i].d.count)
			continue;
		disk_name(io, &io->disks[i], name, sizeof(name));
		stats_row(io, mi, name, 1, &io->disks[i].d);
	}
	if (json)
		an_mi_table_end(mi);
}

/*
 * lttng-iolatencyfreq's histogram of a sequence of durations: FREQ_BUCKETS
 * buckets from their minimum to their maximum, in µs, in doubles (the
 * maximum goes in the last bucket).
 */
struct io_freq {
	double mn, step;
	uint64_t counts[FREQ_BUCKETS];
};

/* Empty buckets for durations from lo to hi: 0, -1 when lo == hi (no histogram). */
static int freq_init(struct io_freq *h, int64_t lo, int64_t hi)
{
	memset(h, 0, sizeof(*h));
	h->mn = (double)lo / 1000;
	h->step = ((double)hi / 1000 - h->mn) / FREQ_BUCKETS;
	return h->step == 0 ? -1 : 0;
}

static void freq_add(struct io_freq *h, int64_t dur)
{
	double x = ((double)dur / 1000 - h->mn) / h->step;
	int64_t k = (int64_t)x;

	if (k > FREQ_BUCKETS - 1)
		k = FREQ_BUCKETS - 1;
	h->counts[k]++;
}

/* One histogram as lttng-iolatencyfreq prints it. */
static void report_one_freq(struct iolat *io, struct an_mi *mi, const char *sub,
			    const struct io_freq *h, int64_t begin, int64_t end)
{
	FILE *f = io->run->out;
	const uint64_t *counts = h->counts;
	double mn = h->mn, step = h->step;
	uint64_t maxc = 0;
	struct strbuf title;
	char cs[32];
	int w = 0;

	for (int k = 0; k < FREQ_BUCKETS; k++) {
		if (counts[k] > maxc)
			maxc = counts[k];
		snprintf(cs, sizeof(cs), "%llu", (unsigned long long)counts[k]);
		if ((int)strlen(cs) > w)
			w = (int)strlen(cs);
	}
	strbuf_init(&title);
	strbuf_printf(&title, "I/O request latency distribution %s%s%s",
		      io->run->o->json ? "[" : "", sub, io->run->o->json ? "]" : "");
	if (io->run->o->json)
		an_mi_table(mi, "freq", title.buf ? title.buf : "", begin, end);
	else
		fprintf(f, "%s (\xc2\xb5s)\n%.80s\n", title.buf ? title.buf : "",
			"##########################################################################"
			"######");
	for (int k = 0; k < FREQ_BUCKETS; k++) {
		double lower = ((double)k * step + mn) * 1000,
		       upper = ((double)(k + 1) * step + mn) * 1000;

		if (io->run->o->json) {
			an_mi_row(mi);
			an_mi_float(mi, "duration", lower);
			an_mi_float(mi, "duration", upper);
			an_mi_number(mi, "number", (int64_t)counts[k]);
			an_mi_row_end(mi);
		} else {
			int bar = maxc ? (int)(72 * counts[k] / maxc) : 0;

			fprintf(f, "%7.3f ", lower / 1000);
			for (int b = 0; b < bar; b++)
				fputs("\xe2\x96\x88", f);
			fprintf(f, "%*s %*llu\n", 72 - bar, "", w, (unsigned long long)counts[k]);
		}
	}
	if (io->run->o->json)
		an_mi_table_end(mi);
	else
		fputs("\n", f);
	strbuf_free(&title);
}

/*
 * The histograms of the kinds of calls, then of the disks (NCAT + ndisks),
 * from one pass over the durations (the bounds are the statistics'), for
 * --freq and --html; ok[g]: it has one (durations not all equal). NULL on
 * error (*okp then NULL too).
 */
static struct io_freq *count_freqs(struct iolat *io, char **okp)
{
	size_t n = NCAT + io->ndisks;
	struct io_freq *h = calloc(n, sizeof(*h));
	char *ok = calloc(n, 1);
	const struct io_dur *x;

	*okp = NULL;
	if (!h || !ok || an_spool_rewind(io->durs))
		goto fail;
	for (size_t g = 0; g < n; g++) {
		const struct an_durstats *d = g < NCAT ? &io->cat[g] : &io->disks[g - NCAT].d;

		ok[g] = d->count && !freq_init(&h[g], d->min, d->max);
	}
	while ((x = an_spool_next(io->durs)))
		if (x->group < n && ok[x->group])
			freq_add(&h[x->group], x->dur);
	if (*an_spool_error(io->durs))
		goto fail;
	*okp = ok;
	return h;
fail:
	free(h);
	free(ok);
	return NULL;
}

/* The histograms (kinds of calls, then disks): 0, -1 on error. */
static int report_freq(struct iolat *io, struct an_mi *mi, int64_t begin, int64_t end)
{
	char *ok, sub[300], name[256];
	struct io_freq *h = count_freqs(io, &ok);

	if (!h)
		return -1;
	for (size_t g = 0; g < NCAT + io->ndisks; g++) {
		if (!ok[g])
			continue;
		if (g < NCAT) {
			report_one_freq(io, mi, cat_sub[g], &h[g], begin, end);
			continue;
		}
		disk_name(io, &io->disks[g - NCAT], name, sizeof(name));
		snprintf(sub, sizeof(sub), "disk: %s", name);
		report_one_freq(io, mi, sub, &h[g], begin, end);
	}
	free(h);
	free(ok);
	return 0;
}

/* _get_fd_by_timestamp(): lttng-analyses' search, which misses when it meets the open one late */
static uint32_t fd_at(const struct iolat *io, const uint32_t *list, size_t n, int64_t ts)
{
	while (n) {
		size_t mid = n / 2;
		const struct io_fdstat *f = &io->fdstats[list[mid]];

		if (f->close_ts < 0)
			return ts >= f->open_ts ? list[mid] : NONE;
		if (f->open_ts <= ts && ts <= f->close_ts)
			return list[mid];
		if (ts < f->open_ts) {
			n = mid;
		} else {
			list += mid + 1;
			n -= mid + 1;
		}
	}
	return NONE;
}

/* The path of q's fd at its end, as io.py's _append_log_row(): NULL for unknown. */
static const char *req_path(struct iolat *io, const struct io_req *q)
{
	const struct io_rec *r = &io->recs[q->rec], *p = r;
	struct io_chain *c;
	uint32_t hit;

	if (r->pid >= 0 && !(p = rec_of_tid(io, r->pid)))
		p = r;
	if (!(c = fd_chain(io, p, q->fd)))
		return NULL;
	hit = fd_at(io, c->v, c->n, q->end);
	return hit == NONE ? NULL : ksys_str(&io->sys, io->fdstats[hit].filename);
}

/* format_size(): "310   B", "1.37 KiB" */
static void format_size(char *buf, size_t len, int64_t size)
{
	static const char *const units[] = {"  B", "KiB", "MiB", "GiB", "TiB",
					    "PiB", "EiB", "ZiB", "YiB"};
	int e = 0;
	double v = (double)size;

	if (size > 0) {
		e = (int)(log((double)size) / log(1024.0));
		if (e > 8)
			e = 8;
		v = (double)size / pow(1024.0, e);
	}
	if (e == 0)
		snprintf(buf, len, "%.0f %s", v, units[0]);
	else
		snprintf(buf, len, "%.2f %s", v, units[e]);
}

/* The out-of-range flag as Python's `a and b or c and d` gives it: 1, 0, or -1 (None). */
static int out_of_range(const struct an_run *run, const struct io_req *q)
{
	if (run->has_begin && q->begin < run->begin)
		return 1;
	if (run->has_end)
		return q->end > run->end;
	return -1;
}

static void log_row(struct iolat *io, struct an_mi *mi, const struct io_req *q, int *starred)
{
	struct an_run *run = io->run;
	const struct io_rec *r = &io->recs[q->rec];
	const char *path = q->has_fd ? req_path(io, q) : NULL;
	int oor = out_of_range(run, q);
	char buf[512];

	if (run->o->json) {
		struct strbuf sb;

		strbuf_init(&sb);
		an_mi_row(mi);
		snprintf(buf, sizeof(buf),
			 "{\"class\": \"time-range\", \"begin\": {\"class\": \"timestamp\", "
			 "\"value\": %lld}, \"end\": {\"class\": \"timestamp\", \"value\": %lld}}",
			 (long long)q->begin, (long long)q->end);
		an_mi_raw(mi, buf);
		an_mi_raw(mi, oor < 0 ? "{\"class\": \"bool\", \"value\": null}"
			      : oor   ? "{\"class\": \"bool\", \"value\": true}"
				      : "{\"class\": \"bool\", \"value\": false}");
		an_mi_number(mi, "duration", q->end - q->begin);
		an_mi_named(mi, "syscall", "name", ksys_str(&io->sys, q->name));
		if (q->has_size)
			an_mi_number(mi, "size", q->size);
		else
			an_mi_raw(mi, "null");
		an_mi_process(mi, r->comm, -1, r->tid);
		if (!q->has_fd) {
			an_mi_raw(mi, "null");
			an_mi_raw(mi, "null");
		} else {
			if (path)
				an_mi_named(mi, "path", "path", path);
			else
				an_mi_unknown(mi);
			snprintf(buf, sizeof(buf), "{\"class\": \"fd\", \"fd\": %lld}",
				 (long long)q->fd);
			an_mi_raw(mi, buf);
		}
		an_mi_row_end(mi);
		strbuf_free(&sb);
	} else {
		char b[64], e[64], range[160], dur[48], size[48], tid[32];
		int md = an_multi_day(run);

		snprintf(range, sizeof(range), "[%s, %s]%s",
			 an_format_time(b, sizeof(b), q->begin, md, run->o->gmt),
			 an_format_time(e, sizeof(e), q->end, md, run->o->gmt),
			 oor > 0 ? "*" : " ");
		snprintf(dur, sizeof(dur), "%0.03f%s", (double)(q->end - q->begin) / 1000,
			 oor > 0 ? "*" : " ");
		if (q->has_size)
			format_size(size, sizeof(size), q->size);
		else
			snprintf(size, sizeof(size), "N/A");
		if (!q->has_fd)
			snprintf(buf, sizeof(buf), "N/A");
		else
			snprintf(buf, sizeof(buf), "%s (fd=%lld)", path ? path : "unknown",
				 (long long)q->fd);
		snprintf(tid, sizeof(tid), "%lld", (long long)r->tid);
		if (oor > 0)
			*starred = 1;
		an_pyfmt_line(run->out, "{:<40} {:<16} {:>16} {:>11}  {:<24} {:<8} {:<14}", range,
			      ksys_str(&io->sys, q->name), dur, size, r->comm, tid, buf);
	}
}

/*
 * A list of requests (top: by duration; log: by entry), as _print_log()
 * prints it, from a top list (t) or a spool (sp, read from its start):
 * 0, -1 when the spool could not be read back.
 */
static int report_list(struct iolat *io, struct an_mi *mi, const char *sub, int top,
		       struct an_topk *t, struct an_spool *sp, int64_t begin, int64_t end)
{
	struct an_run *run = io->run;
	size_t n = t ? t->n : (size_t)an_spool_count(sp);
	const struct io_req *q;
	int starred = 0;

	if (!n)
		return 0;
	if (t)
		an_topk_sort(t);
	else if (an_spool_rewind(sp))
		return -1;
	/* lttng-iolatencytop prints --limit + 1 rows */
	if (top && run->o->limit > 0 && (size_t)run->o->limit + 1 < n)
		n = (size_t)run->o->limit + 1;
	if (run->o->json) {
		char title[128];

		if (top) {
			snprintf(title, sizeof(title), "Top system call latencies [%s]", sub);
			an_mi_table(mi, "top-syscall", title, begin, end);
		} else
			an_mi_table(mi, "log", NULL, begin, end);
	} else {
		fprintf(run->out, "\n%s %s (usec)\n",
			top ? "Top system call latencies" : "I/O operations log",
			top ? sub : "None");
		an_pyfmt_line(run->out, "{:<20} {:<20} {:<16} {:<23} {:<5} {:<24} {:<8} {:<14}",
			      "Begin", "End", "Name", "Duration (usec)", "Size", "Proc", "PID",
			      "Filename");
	}
	for (size_t i = 0; i < n && (t || (q = an_spool_next(sp)) != NULL); i++) {
		if (t)
			q = (const struct io_req *)(t->v + i * t->sz);
		log_row(io, mi, q, &starred);
	}
	if (run->o->json)
		an_mi_table_end(mi);
	else if (starred)
		fputs("*: Syscalls started and/or completed outside of the range specified\n",
		      run->out);
	return sp && *an_spool_error(sp) ? -1 : 0;
}

/* --stats, or none of --top, --log, --freq */
static int want_stats(const struct an_options *o)
{
	return o->stats || !(o->top_list || o->log || o->freq);
}

/* The top tables (top) or the log: 0, or -1 on error. */
static int report_lists(struct iolat *io, struct an_mi *mi, int top, int64_t begin, int64_t end)
{
	if (!top)
		return report_list(io, mi, NULL, 0, NULL, io->log, begin, end);
	for (int c = 0; c < NCAT; c++)
		if (report_list(io, mi, cat_sub[c], 1, io->topall[c] ? NULL : &io->top[c],
				io->topall[c], begin, end))
			return -1;
	return 0;
}

/* What failed: a spool's error, else memory. */
static const char *failure(const struct iolat *io)
{
	struct an_spool *sp[2 + NCAT] = {io->durs, io->log};

	for (int c = 0; c < NCAT; c++)
		sp[2 + c] = io->topall[c];
	for (int i = 0; i < 2 + NCAT; i++)
		if (sp[i] && *an_spool_error(sp[i]))
			return an_spool_error(sp[i]);
	return "out of memory";
}

static int report(void *an)
{
	struct iolat *io = an;
	struct an_run *run = io->run;
	int64_t begin = run->period_begin, end = run->last_ts;
	struct an_mi mi;
	int json = run->o->json;

	if (io->failed || io->sys.failed) {
		snprintf(run->err, run->errlen, "%s", failure(io));
		return AN_FAIL;
	}
	if (!run->started) {
		if (json)
			fputs("{\"results\": []}\n", run->out);
		return AN_OK;
	}
	if (json)
		an_mi_begin(&mi, run->out);
	else
		an_print_timerange(run, begin, end);
	if (json) {
		/* lttng-analyses' MI order: the log, the statistics, the top calls, the histograms
		 */
		if (run->o->log && report_lists(io, &mi, 0, begin, end))
			goto oom;
		if (want_stats(run->o))
			report_stats(io, &mi, begin, end);
		if (run->o->top_list && report_lists(io, &mi, 1, begin, end))
			goto oom;
		if (run->o->freq && report_freq(io, &mi, begin, end))
			goto oom;
	} else {
		/* and its text order: statistics, top calls, histograms, log */
		if (want_stats(run->o))
			report_stats(io, &mi, begin, end);
		if (run->o->top_list && report_lists(io, &mi, 1, begin, end))
			goto oom;
		if (run->o->freq && report_freq(io, &mi, begin, end))
			goto oom;
		if (run->o->log && report_lists(io, &mi, 0, begin, end))
			goto oom;
	}
	if (json && an_mi_end(&mi))
		goto fail;
	return AN_OK;
oom:
	if (json)
		an_mi_end(&mi);
fail:
	snprintf(run->err, run->errlen, "%s", failure(io));
	return AN_FAIL;
}

/* --html: one histogram as --freq's (a single bin when all durations are equal: !ok). */
static void html_hist(struct an_html *page, const char *key, const struct an_durstats *d,
		      const struct io_freq *h, int ok)
{
	struct an_html_bin bins[FREQ_BUCKETS];
	char title[320];

	if (!d->count)
		return;
	snprintf(title, sizeof(title), "I/O request latency distribution [%s]", key);
	if (!ok) {
		bins[0] = (struct an_html_bin){(double)d->min, (double)d->max, d->count};
		an_html_hist(page, title, key, bins, 1, NULL, 0);
		return;
	}
	for (int k = 0; k < FREQ_BUCKETS; k++)
		bins[k] =
		    (struct an_html_bin){((double)k * h->step + h->mn) * 1000,
					 ((double)(k + 1) * h->step + h->mn) * 1000, h->counts[k]};
	an_html_hist(page, title, key, bins, FREQ_BUCKETS, NULL, 0);
}

static void html_stat(struct an_html_stat *r, const char *label, const struct an_durstats *d)
{
	*r = (struct an_html_stat){.label = label,
				   .count = d->count,
				   .min = (double)d->min,
				   .avg = an_durstats_avg(d),
				   .max = (double)d->max,
				   .has_stdev = d->count >= 2};
	if (r->has_stdev)
		r->stdev = stdev_of(d);
}

/* --html: the statistics tables, then the histograms of --freq. */
static int html(void *an, struct an_html *page)
{
	struct iolat *io = an;
	struct an_html_stat rows[NCAT], *drows;
	char(*names)[256], *ok;
	struct io_freq *h = count_freqs(io, &ok);
	size_t nd = 0;

	if (!h)
		return -1;

	for (int c = 0; c < NCAT; c++)
		html_stat(&rows[c], cat_row[c], &io->cat[c]);
	an_html_stats(page, "Syscalls latency statistics", "Type", rows, NCAT);
	drows = malloc((io->ndisks + 1) * sizeof(*drows));
	names = malloc((io->ndisks + 1) * sizeof(*names));
	if (!drows || !names) {
		free(drows);
		free(names);
		free(h);
		free(ok);
		return -1;
	}
	for (size_t i = 0; i < io->ndisks; i++) {
		if (!io->disks[i].d.count)
			continue;
		disk_name(io, &io->disks[i], names[nd], sizeof(names[nd]));
		html_stat(&drows[nd], names[nd], &io->disks[i].d);
		nd++;
	}
	if (nd)
		an_html_stats(page, "Disk latency statistics", "Name", drows, nd);
	for (int c = 0; c < NCAT; c++)
		html_hist(page, cat_sub[c], &io->cat[c], &h[c], ok[c]);
	for (size_t i = 0; i < io->ndisks; i++) {
		char key[300];

		disk_name(io, &io->disks[i], names[0], sizeof(names[0]));
		snprintf(key, sizeof(key), "disk: %s", names[0]);
		html_hist(page, key, &io->disks[i].d, &h[NCAT + i], ok[NCAT + i]);
	}
	free(drows);
	free(names);
	free(h);
	free(ok);
	return 0;
}

const struct an_def an_iolatency_def = {
    .name = "iolatency",
    .summary = "I/O call and block request latency (as lttng-iolatencystats, -freq, -top, iolog)",
    .needs = 1u << KEV_SYSCALL_EXIT,
    .needs_names = "syscall_entry_*/syscall_exit_*",
    .record_hint = "trax enable-event -k --syscall -a && trax enable-event -k "
		   "sched_switch,sched_process_fork,sched_process_exec,lttng_statedump_*,"
		   "block_rq_issue,block_rq_complete",
    .create = create,
    .destroy = destroy,
    .state_event = state_event,
    .report = report,
    .html = html,
};
