/*
 * kdomain.c - a session's kernel domain (see kdomain.h): configuration
 * kept until the start, then per channel a tracefs instance, one reader
 * thread per CPU, the system call probes and their reader thread.
 *
 * Threads: the reader threads only read the kernel and write their own
 * stream sets (ktrace.h). What they share with the main thread: the table
 * of converters by tracefs id (entries published with release stores,
 * never changed or freed while recording), and the stop flag.
 */
#include "kernel/kdomain.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/assert.h"
#include "common/clock.h"
#include "common/glob.h"
#include "filter/filter.h"
#include "kernel/kfilter.h"
#include "kernel/kfpush.h"
#include "kernel/kmap.h"
#include "kernel/krecorder.h"
#include "kernel/kthreads.h"
#include "kernel/ktrace.h"
#include "kernel/ktrack.h"
#include "kernel/perf-record.h"
#include "kernel/ring-page.h"
#include "kernel/statedump.h"
#include "kernel/syscalls.h"
#include "kernel/tp-format.h"
#include "kernel/tracefs.h"

#define KDOMAIN_MAX_IDS	     65536u /* common_type is 16 bits */
#define KDOMAIN_MAX_CHANNELS 64u
#define KDOMAIN_STATEDUMP    "lttng_statedump_start"
/* The system call reader goes on at once after this many records, else naps. */
#define KDOMAIN_SYS_BATCH   4096
#define KDOMAIN_SYS_NAP_MS  10
#define KDOMAIN_READER_NICE (-10)

struct krule {
	char *pattern;
	bool syscall;
	bool enabled;
	uint8_t *filter; /* bytecode, NULL: none */
	size_t filter_len;
};

struct kchan;

struct kcpu {
	struct kchan *ch;
	int cpu;
	int fd;
	pthread_t thread;
	bool started;
	struct ktrace_streams *ss;
	struct kthreads *threads;    /* the filters' contexts (this reader's own cache) */
	uint64_t damaged;	     /* pages or records that could not be read */
	struct ktrack_cache *tcache; /* the uid/gid trackers' view of threads */
	uint64_t last_scan;	     /* CPU 0's reader: the trackers' last /proc scan */
};

struct kchan {
	struct kdomain *kd;
	char name[128];
	struct kdomain_channel_attr attr;
	uint8_t contexts[KCTX_MAX];
	unsigned int ncontexts;
	struct krule *rules;
	unsigned int nrules;
	/* while recording (and after, until freed) */
	struct tracefs_instance inst;
	bool have_inst;
	/* with perf:cpu: contexts, its tracepoints are recorded through perf (perf-record.h) */
	struct kperf *perf;
	struct ktrace_channel *tch;
	struct kmap_event **by_id; /* published entries are never changed */
	struct tp_event **formats; /* by id: what the converters point into */
	struct kcpu *cpus;
	unsigned int nr_cpus;
	struct ksyscalls *sys;
	bool sys_started;
	struct ktrace_streams *ss_sys;
	pthread_t sys_thread;
	bool sys_thread_started;
	/*
	 * Snapshot mode: the system calls' flight recorder (their BPF rings
	 * cannot overwrite), the probes' losses per CPU at the last snapshot,
	 * and the lock the reader thread and a snapshot take to consume.
	 */
	struct krecorder *sys_rec;
	uint64_t *sys_lost_taken;
	pthread_mutex_t sys_lock;
	struct kthreads *sys_threads; /* the system call filters' contexts (under sys_lock) */
	/* filter sets replaced while recording: freed with the channel */
	struct kfilter_set **retired;
	unsigned int nretired;
	struct kfpush *push; /* the filters given to the kernel (kfpush.h) */
};

struct kdomain {
	char session[256];
	char root[256];
	struct kchan *chans[KDOMAIN_MAX_CHANNELS];
	unsigned int nchans;
	int *pids;
	unsigned int npids;
	struct ktrack *track; /* the uid and gid trackers (and the pids, for them) */
	struct ktrace *trace; /* NULL in snapshot mode: each snapshot is a trace of its own */
	bool snapshot;	      /* flight recorder: nothing read until a snapshot */
	bool prepared;	      /* started once: the instances exist */
	bool active;
	bool stop; /* asks the reader threads to drain and end */
	long page_size;
	char hostname[65];			     /* the filters' $ctx.hostname */
	uint64_t written_stopped, discarded_stopped; /* totals kept when stopped */
};

static void filters_rebuild(struct kchan *ch);
static void class_filters(struct kchan *ch, struct kevent_class *cls, const char *full,
			  bool syscall);
static void filters_push(struct kchan *ch, uint32_t id, const char *full);

/*
 * Whether an event (its LTTng name, and tracefs's SYSTEM:NAME or NULL)
 * matches pattern: SYSTEM:NAME only for a pattern that names a system.
 */
static bool name_matches(const char *pattern, const char *lttng_name, const char *full)
{
	return trax_glob_match(pattern, lttng_name) ||
	       (full && strchr(pattern, ':') && trax_glob_match(pattern, full));
}

/* tracefs systems that are not tracepoints LTTng records as such */
static bool system_skipped(const char *system)
{
	return !strcmp(system, "syscalls") || !strcmp(system, "raw_syscalls") ||
	       !strcmp(system, "ftrace");
}

struct kdomain *kdomain_new(const char *session, char *err, size_t errlen)
{
	struct kdomain *kd;

	if (geteuid() != 0) {
		snprintf(err, errlen,
			 "kernel tracing needs root: traxd runs as uid %u (user-space tracing "
			 "still works)",
			 (unsigned int)geteuid());
		return NULL;
	}
	kd = calloc(1, sizeof(*kd));
	if (!kd) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (tracefs_find(kd->root, sizeof(kd->root), err, errlen) < 0) {
		free(kd);
		return NULL;
	}
	if (!(kd->track = ktrack_new("/proc"))) {
		snprintf(err, errlen, "out of memory");
		free(kd);
		return NULL;
	}
	kd->page_size = tracefs_page_size(kd->root);
	gethostname(kd->hostname, sizeof(kd->hostname) - 1);
	if (kd->page_size < 4096)
		kd->page_size = 4096;
	snprintf(kd->session, sizeof(kd->session), "%s", session);
	return kd;
}

static struct kchan *chan_find(const struct kdomain *kd, const char *name)
{
	for (unsigned int i = 0; i < kd->nchans; i++)
		if (!strcmp(kd->chans[i]->name, name))
			return kd->chans[i];
	return NULL;
}

bool kdomain_has_channel(const struct kdomain *kd, const char *name)
{
	return chan_find(kd, name) != NULL;
}

int kdomain_channel_add(struct kdomain *kd, const char *name,
			const struct kdomain_channel_attr *attr, char *err, size_t errlen)
{
	struct kchan *ch;

	if (chan_find(kd, name)) {
		snprintf(err, errlen, "kernel channel %s already exists in session %s", name,
			 kd->session);
		return -EEXIST;
	}
	if (kd->prepared) {
		snprintf(err, errlen,
			 "kernel channel %s cannot be added: session %s has already been started",
			 name, kd->session);
		return -EPERM;
	}
	if (kd->nchans >= KDOMAIN_MAX_CHANNELS) {
		snprintf(err, errlen, "too many kernel channels");
		return -ENOSPC;
	}
	if (attr->subbuf_size < 4096 || attr->subbuf_size % 4096 || attr->num_subbuf < 2) {
		snprintf(err, errlen,
			 "kernel channel %s: sub-buffers must be whole pages (4 KiB at least), "
			 "two at least",
			 name);
		return -EINVAL;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ch->kd = kd;
	pthread_mutex_init(&ch->sys_lock, NULL);
	snprintf(ch->name, sizeof(ch->name), "%s", name);
	ch->attr = *attr;
	if (kd->snapshot)
		ch->attr.overwrite = true; /* a snapshot is of the latest events */
	kd->chans[kd->nchans++] = ch;
	return 0;
}

static struct kchan *chan_default(struct kdomain *kd, const char *name, char *err, size_t errlen)
{
	struct kdomain_channel_attr at = {
	    .subbuf_size = KDOMAIN_DEFAULT_SUBBUF_SIZE,
	    .num_subbuf = KDOMAIN_DEFAULT_NUM_SUBBUF,
	    .read_timer_us = KDOMAIN_DEFAULT_READ_TIMER_US,
	};
	struct kchan *ch = chan_find(kd, name ? name : "channel0");

	if (ch)
		return ch;
	if (name) {
		snprintf(err, errlen, "kernel channel %s not found in session %s", name,
			 kd->session);
		return NULL;
	}
	if (kdomain_channel_add(kd, "channel0", &at, err, errlen))
		return NULL;
	return chan_find(kd, "channel0");
}

/* ---- the converters of a channel's tracefs events ---- */

/* Makes (once) the converter of tracefs event system:name; its id, or -errno. */
static long event_prepare(struct kchan *ch, const char *system, const char *name, char *err,
			  size_t errlen)
{
	struct kmap_event *m;
	struct tp_event *ev;
	char *text = NULL, perr[256];
	long len;

	len = tracefs_read_format(ch->kd->root, system, name, &text);
	if (len < 0) {
		snprintf(err, errlen, "%s:%s: format: %s", system, name, strerror((int)-len));
		return len;
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev || tp_format_parse(ev, system, text, (size_t)len, perr, sizeof(perr))) {
		snprintf(err, errlen, "%s:%s: format: %s", system, name, ev ? perr : "no memory");
		free(text);
		free(ev);
		return -EINVAL;
	}
	free(text);
	if (ev->id >= KDOMAIN_MAX_IDS) {
		snprintf(err, errlen, "%s:%s: id %u out of range", system, name, ev->id);
		tp_event_free(ev);
		free(ev);
		return -ERANGE;
	}
	if (__atomic_load_n(&ch->by_id[ev->id], __ATOMIC_ACQUIRE)) {
		long id = ev->id;

		tp_event_free(ev);
		free(ev);
		return id;
	}
	m = kmap_event_new(ev, perr, sizeof(perr));
	if (!m) {
		snprintf(err, errlen, "%s:%s: %s", system, name, perr);
		tp_event_free(ev);
		free(ev);
		return -EINVAL;
	}
	ch->formats[ev->id] = ev;
	__atomic_store_n(&ch->by_id[ev->id], m, __ATOMIC_RELEASE);
	return ev->id;
}

/*
 * Enables in the running instance every tracepoint matching pattern.
 * Matches, or -errno.
 */
static long tracepoints_apply(struct kchan *ch, const char *pattern, bool on, char *err,
			      size_t errlen)
{
	struct tracefs_event *evs = NULL;
	long n = tracefs_list_events(ch->kd->root, &evs), matched = 0, r;
	char lname[256], full[256];

	if (n < 0) {
		snprintf(err, errlen, "cannot list the kernel's events: %s", strerror((int)-n));
		return n;
	}
	for (long i = 0; i < n; i++) {
		if (system_skipped(evs[i].system))
			continue;
		kmap_lttng_name(evs[i].system, evs[i].name, lname, sizeof(lname));
		snprintf(full, sizeof(full), "%s:%s", evs[i].system, evs[i].name);
		if (!name_matches(pattern, lname, full))
			continue;
		matched++;
		if (!ch->have_inst)
			continue;
		if (on || ch->perf) {
			r = event_prepare(ch, evs[i].system, evs[i].name, err, errlen);
			if (r < 0) {
				/* one event LTTng's layout cannot hold does not stop the others */
				if (strcmp(pattern, lname) && strcmp(pattern, full))
					continue;
				free(evs);
				return r;
			}
			/* its filters (the rules known), the kernel's too, before it records */
			class_filters(ch, kmap_event_class(ch->by_id[r]), full, false);
			filters_push(ch, (uint32_t)r, full);
		}
		if (ch->perf) {
			r = kperf_enable(ch->perf, (uint32_t)r, on, err, errlen);
			if (r < 0) { /* (err says why: no more room, or the kernel's refusal) */
				free(evs);
				return r;
			}
		} else {
			r = tracefs_enable_event(&ch->inst, evs[i].system, evs[i].name, on);
		}
		if (r < 0 && !strcmp(pattern, lname)) {
			snprintf(err, errlen, "%s: cannot %s it: %s", full,
				 on ? "enable" : "disable", strerror((int)-r));
			free(evs);
			return r;
		}
	}
	free(evs);
	return matched;
}

/* Whether the channel records the state dump (its events are enabled). */
static bool wants_statedump(const struct kchan *ch)
{
	for (unsigned int i = 0; i < ch->nrules; i++)
		if (ch->rules[i].enabled && !ch->rules[i].syscall &&
		    trax_glob_match(ch->rules[i].pattern, KDOMAIN_STATEDUMP))
			return true;
	return false;
}

static long rule_apply(struct kchan *ch, const struct krule *r, bool on, char *err, size_t errlen)
{
	long n;

	if (r->syscall) {
		if (!ch->sys)
			return 0;
		n = ksyscalls_enable(ch->sys, r->pattern, on, on);
		if (n < 0)
			snprintf(err, errlen, "system calls %s: %s", r->pattern, strerror((int)-n));
		return n;
	}
	n = tracepoints_apply(ch, r->pattern, on, err, errlen);
	if (n >= 0 && trax_glob_match(r->pattern, KDOMAIN_STATEDUMP))
		n++;
	return n;
}

long kdomain_enable(struct kdomain *kd, const char *channel, const char *pattern, bool syscall,
		    const uint8_t *filter, size_t filter_len, char *err, size_t errlen)
{
	struct kchan *ch = chan_default(kd, channel, err, errlen);
	struct krule *nr, r = {.syscall = syscall, .enabled = true};
	long n;

	if (!ch)
		return -ENOENT;
	if (syscall && !ch->sys && !ch->have_inst) {
		/* the system calls are known before the start, to check the pattern */
		ch->sys = ksyscalls_new(kd->root, err, errlen);
		if (!ch->sys)
			return -ENOTSUP;
	}
	r.pattern = (char *)pattern;
	if (syscall) {
		unsigned int m = 0;

		for (unsigned int i = 0; i < ksyscalls_count(ch->sys); i++)
			m += trax_glob_match(pattern, ksyscalls_name(ch->sys, i));
		/* a 32-bit-only call ("llseek") */
		for (unsigned int i = 0; !m && i < ksyscalls_compat_count(ch->sys); i++)
			m += trax_glob_match(pattern,
					     ksyscalls_name(ch->sys, ksyscalls_count(ch->sys) + i));
		n = m;
		if (m && (!kd->active || ch->sys_started))
			n = rule_apply(ch, &r, true, err, errlen);
	} else {
		n = tracepoints_apply(ch, pattern, true, err, errlen);
		if (n >= 0 && trax_glob_match(pattern, KDOMAIN_STATEDUMP))
			n++;
	}
	if (n < 0)
		return n;
	if (n == 0) {
		snprintf(err, errlen, "no kernel %s matches '%s'",
			 syscall ? "system call" : "tracepoint", pattern);
		return -ENOENT;
	}
	for (unsigned int i = 0; i < ch->nrules; i++)
		if (ch->rules[i].syscall == syscall && !strcmp(ch->rules[i].pattern, pattern) &&
		    ch->rules[i].filter_len == filter_len &&
		    (!filter || !memcmp(ch->rules[i].filter, filter, filter_len))) {
			ch->rules[i].enabled = true;
			if (ch->have_inst)
				filters_rebuild(ch);
			return n;
		}
	nr = realloc(ch->rules, (ch->nrules + 1) * sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	ch->rules = nr;
	r.pattern = strdup(pattern);
	if (filter) {
		r.filter = malloc(filter_len);
		if (r.filter) {
			memcpy(r.filter, filter, filter_len);
			r.filter_len = filter_len;
		}
	}
	if (!r.pattern || (filter && !r.filter)) {
		free(r.pattern);
		free(r.filter);
		return -ENOMEM;
	}
	ch->rules[ch->nrules++] = r;
	if (ch->have_inst)
		filters_rebuild(ch);
	return n;
}

long kdomain_disable(struct kdomain *kd, const char *channel, const char *pattern, bool syscall,
		     char *err, size_t errlen)
{
	struct kchan *ch = chan_find(kd, channel ? channel : "channel0");
	long n = 0;

	if (!ch) {
		snprintf(err, errlen, "kernel channel %s not found in session %s",
			 channel ? channel : "channel0", kd->session);
		return -ENOENT;
	}
	for (unsigned int i = 0; i < ch->nrules; i++) {
		struct krule *r = &ch->rules[i];

		if (r->syscall != syscall || !r->enabled ||
		    (strcmp(r->pattern, pattern) && strcmp(pattern, "*")))
			continue;
		r->enabled = false;
		n++;
		if (ch->have_inst) {
			long e = rule_apply(ch, r, false, err, errlen);

			if (e < 0)
				return e;
		}
	}
	if (!n) {
		snprintf(err, errlen, "kernel event %s not found in channel %s", pattern, ch->name);
		return -ENOENT;
	}
	if (ch->have_inst)
		filters_rebuild(ch); /* the rules left: their filters, in trax and in the kernel */
	return n;
}

/* How many perf:cpu: counter contexts a channel has. */
static unsigned int perf_contexts(const struct kchan *ch)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < ch->ncontexts; i++)
		n += kctx_is_perf(ch->contexts[i]);
	return n;
}

/* Whether counter context c can be added: this machine has it, there is room. */
static int perf_context_check(struct kdomain *kd, const char *channel, int c, char *err,
			      size_t errlen)
{
	const struct perf_counter_def *d = perf_counter_at((unsigned int)(c - KCTX_PERF));
	int fd;

	if (kd->snapshot) {
		snprintf(err, errlen,
			 "perf counter contexts are not recorded in snapshot sessions yet (their "
			 "perf buffers are not flight recorders)");
		return -ENOTSUP;
	}
	for (unsigned int i = 0; i < kd->nchans; i++)
		if ((!channel || !strcmp(kd->chans[i]->name, channel)) &&
		    perf_contexts(kd->chans[i]) >= KPERF_MAX_COUNTERS) {
			snprintf(err, errlen,
				 "kernel channel %s has %u perf counter contexts already",
				 kd->chans[i]->name, KPERF_MAX_COUNTERS);
			return -ENOSPC;
		}
	fd = perf_counter_open(d, -1, 0);
	if (fd < 0) {
		snprintf(err, errlen, "perf counter %s cannot be opened on this machine: %s",
			 d->name, strerror(-fd));
		return fd == -ENOENT || fd == -EOPNOTSUPP ? -ENOTSUP : fd;
	}
	close(fd);
	return 0;
}

int kdomain_add_context(struct kdomain *kd, const char *channel, const char *name, char *err,
			size_t errlen)
{
	int c = kctx_from_name(name), e;
	struct kchan *ch;

	if (c < 0) {
		snprintf(err, errlen,
			 "unknown kernel context type %s (known: pid, tid, ppid, vpid, vtid, "
			 "procname, prio, nice, cpu_id, hostname, the perf:cpu: counters of "
			 "'trax add-context -k --list')",
			 name);
		return -EINVAL;
	}
	if (kctx_is_perf(c) && (e = perf_context_check(kd, channel, c, err, errlen)))
		return e;
	if (kd->prepared) {
		snprintf(err, errlen, "contexts cannot be added: session %s has been started",
			 kd->session);
		return -EPERM;
	}
	if (channel && !chan_find(kd, channel)) {
		snprintf(err, errlen, "kernel channel %s not found in session %s", channel,
			 kd->session);
		return -ENOENT;
	}
	if (!kd->nchans && !chan_default(kd, NULL, err, errlen))
		return -ENOMEM;
	for (unsigned int i = 0; i < kd->nchans; i++) {
		ch = kd->chans[i];
		if (channel && strcmp(ch->name, channel))
			continue;
		for (unsigned int j = 0; j < ch->ncontexts; j++)
			if (ch->contexts[j] == c) {
				snprintf(err, errlen, "context %s is already in kernel channel %s",
					 name, ch->name);
				return -EEXIST;
			}
		if (ch->ncontexts >= KCTX_MAX) {
			snprintf(err, errlen, "kernel channel %s has %u contexts already", ch->name,
				 KCTX_MAX);
			return -ENOSPC;
		}
	}
	for (unsigned int i = 0; i < kd->nchans; i++) {
		ch = kd->chans[i];
		if (channel && strcmp(ch->name, channel))
			continue;
		ch->contexts[ch->ncontexts++] = (uint8_t)c;
	}
	return 0;
}

static int pids_apply(struct kchan *ch, char *err, size_t errlen)
{
	const struct kdomain *kd = ch->kd;
	int e;

	if (ch->have_inst) {
		e = ktrack_apply(kd->track, &ch->inst, false);
		if (e < 0) {
			snprintf(err, errlen, "set_event_pid: %s", strerror(-e));
			return e;
		}
	}
	if (ch->perf && (e = kperf_set_pids(ch->perf, kd->pids, kd->npids)) < 0) {
		snprintf(err, errlen, "perf tracker: %s", strerror(-e));
		return e;
	}
	if (ch->sys) {
		e = ksyscalls_set_pids(ch->sys, kd->pids, kd->npids);
		for (int kind = KTRACK_UID; !e && kind <= KTRACK_GID; kind++) {
			int *ids;
			unsigned int n;
			bool on = ktrack_get(kd->track, kind, &ids, &n);

			/* (KSYSCALLS_UID, KSYSCALLS_GID are KTRACK_UID, KTRACK_GID) */
			e = ksyscalls_set_ids(ch->sys, kind, ids, n, !on);
			free(ids);
		}
		if (e < 0) {
			snprintf(err, errlen, "system call tracker: %s", strerror(-e));
			return e;
		}
	}
	return 0;
}

int kdomain_track_ids(struct kdomain *kd, int kind, bool add, const int *ids, unsigned int n,
		      bool all, char *err, size_t errlen)
{
	int bad = 0, e = ktrack_change(kd->track, kind, add, ids, n, all, &bad);

	if (e == -ENOENT)
		snprintf(err, errlen, "%s %d is not tracked", kind == KTRACK_GID ? "gid" : "uid",
			 bad);
	else if (e)
		snprintf(err, errlen, "%s", strerror(-e));
	for (unsigned int i = 0; !e && i < kd->nchans; i++)
		e = pids_apply(kd->chans[i], err, errlen);
	return e;
}

int kdomain_track_pids(struct kdomain *kd, const int *pids, unsigned int npids, char *err,
		       size_t errlen)
{
	int *n = NULL;

	if (npids) {
		n = malloc(npids * sizeof(int));
		if (!n)
			return -ENOMEM;
		memcpy(n, pids, npids * sizeof(int));
	}
	free(kd->pids);
	kd->pids = n;
	kd->npids = npids;
	if (ktrack_set_pids(kd->track, pids, npids))
		return -ENOMEM;
	for (unsigned int i = 0; i < kd->nchans; i++) {
		int e = pids_apply(kd->chans[i], err, errlen);

		if (e)
			return e;
	}
	return 0;
}

unsigned int kdomain_tracked_pids(const struct kdomain *kd, const int **pids)
{
	*pids = kd->pids;
	return kd->npids;
}

/* ---- filters ---- */

static bool rule_matches(const struct krule *r, const char *lttng_name, const char *full)
{
	return name_matches(r->pattern, lttng_name, full);
}

/* The name system call rules match for event class name: "openat" for
 * (compat_)syscall_entry_openat. */
static const char *syscall_rule_name(const char *name, char *buf, size_t len)
{
	const char *u;

	if (!strncmp(name, "compat_", 7))
		name += 7;
	u = strchr(name + strlen("syscall_"), '_');
	snprintf(buf, len, "%s", u ? u + 1 : name);
	return buf;
}

static void filter_set_free(struct kfilter_set *fs)
{
	if (!fs)
		return;
	for (unsigned int i = 0; i < fs->n; i++)
		kfilter_free(fs->programs[i]);
	free(fs->programs);
	free(fs);
}

/*
 * Gives cls the filters of the channel's enabled rules that match it; the
 * set it had is kept until the channel goes (a reader may still use it).
 */
static void class_filters(struct kchan *ch, struct kevent_class *cls, const char *full,
			  bool syscall)
{
	struct kfilter_set *fs = calloc(1, sizeof(*fs)), *old;
	const char *name = cls->cls.name;
	char sysname[256];

	if (!fs)
		return;
	if (syscall)
		name = syscall_rule_name(name, sysname, sizeof(sysname));
	for (unsigned int i = 0; i < ch->nrules; i++) {
		const struct krule *r = &ch->rules[i];
		struct kfilter **n;

		if (!r->enabled || r->syscall != syscall || !rule_matches(r, name, full))
			continue;
		if (!r->filter) {
			fs->unfiltered = true;
			continue;
		}
		n = realloc(fs->programs, (fs->n + 1) * sizeof(*n));
		if (!n)
			break;
		fs->programs = n;
		/* NULL: a field it names is missing here, the rule never matches */
		fs->programs[fs->n++] = kfilter_new(r->filter, r->filter_len, &cls->cls);
	}
	if (fs->unfiltered) {
		for (unsigned int i = 0; i < fs->n; i++)
			kfilter_free(fs->programs[i]);
		fs->n = 0;
	}
	old = (struct kfilter_set *)cls->filter;
	if (old) {
		struct kfilter_set **r = realloc(ch->retired, (ch->nretired + 1) * sizeof(*r));

		if (!r) {
			filter_set_free(fs);
			return;
		}
		ch->retired = r;
		ch->retired[ch->nretired++] = old;
	}
	__atomic_store_n(&cls->filter, fs, __ATOMIC_RELEASE);
}

/*
 * The channel's enabled rules of one kind (syscall) that match an event
 * (name: its LTTng name, or a system call's; full: tracefs's SYSTEM:NAME,
 * or NULL), as kfpush rules into pr (room for every rule), once
 * class_filters has linked them into fs (one program per filtered rule,
 * in the rules' order). How many; 0 when one of them has no filter, or
 * when the rules and fs cannot be told apart (out of memory).
 */
static unsigned int rules_linked(const struct kchan *ch, const char *name, const char *full,
				 bool syscall, const struct kfilter_set *fs, struct kfpush_rule *pr)
{
	unsigned int n = 0;

	for (unsigned int k = 0; fs && k < ch->nrules; k++) {
		const struct krule *r = &ch->rules[k];

		if (!r->enabled || r->syscall != syscall || !rule_matches(r, name, full))
			continue;
		if (!r->filter)
			return 0;
		pr[n] = (struct kfpush_rule){.code = r->filter,
					     .len = r->filter_len,
					     .linked = n < fs->n && fs->programs[n]};
		n++;
	}
	return fs && n == fs->n ? n : 0;
}

/*
 * Gives the kernel the filters of tracefs event id's rules (kfpush.h).
 * A channel recorded through perf gets none: a perf event's filter is set
 * once (then EEXIST), it cannot follow the rules; its LTTng filters run
 * after.
 */
static void filters_push(struct kchan *ch, uint32_t id, const char *full)
{
	struct kevent_class *cls = kmap_event_class(ch->by_id[id]);
	struct kfpush_rule *pr = calloc(ch->nrules + 1, sizeof(*pr));
	unsigned int n;

	if (!ch->push || ch->perf) {
		free(pr);
		return;
	}
	n = pr ? rules_linked(ch, cls->cls.name, full, false, cls->filter, pr) : 0;
	kfpush_event(ch->push, ch->formats[id], ch->by_id[id], pr, n);
	free(pr);
}

/*
 * Gives the system call probes the guards of call i's entry or exit
 * (ksyscalls_set_guards) from the rules enabling it.
 * TRAX_KERNEL_FILTER=after leaves them out too.
 */
static void guards_push(struct kchan *ch, unsigned int i, bool exit, const struct kevent_class *cls)
{
	struct kfpush_rule *pr = calloc(ch->nrules + 1, sizeof(*pr));
	unsigned int n = 0;
	char name[256];

	syscall_rule_name(cls->cls.name, name, sizeof(name));
	if (pr && kfpush_pushes(ch->push))
		n = rules_linked(ch, name, NULL, true, cls->filter, pr);
	ksyscalls_set_guards(ch->sys, i, exit, pr, n);
	free(pr);
}

/* Recomputes the filters of every class the channel records. */
/*
 * Whether the system call records must carry their thread's name: the
 * procname context, or a system call filter naming $ctx.procname (its
 * bytecode holds the name; a false match costs 16 bytes a record).
 */
static bool chan_wants_comm(const struct kchan *ch)
{
	for (unsigned int i = 0; i < ch->ncontexts; i++)
		if (ch->contexts[i] == KCTX_PROCNAME)
			return true;
	for (unsigned int i = 0; i < ch->nrules; i++) {
		const struct krule *r = &ch->rules[i];

		if (r->syscall && r->enabled && r->filter &&
		    memmem(r->filter, r->filter_len, "procname", 8))
			return true;
	}
	return false;
}

static void filters_rebuild(struct kchan *ch)
{
	char full[300];

	if (ch->sys)
		ksyscalls_want_comm(ch->sys, chan_wants_comm(ch));
	for (unsigned int id = 0; ch->by_id && id < KDOMAIN_MAX_IDS; id++) {
		if (!ch->by_id[id])
			continue;
		snprintf(full, sizeof(full), "%s:%s", ch->formats[id]->system,
			 ch->formats[id]->name);
		class_filters(ch, kmap_event_class(ch->by_id[id]), full, false);
		filters_push(ch, id, full);
	}
	if (ch->sys)
		for (unsigned int i = 0;
		     i < ksyscalls_count(ch->sys) + ksyscalls_compat_count(ch->sys); i++)
			for (int exit = 0; exit < 2; exit++) {
				struct kevent_class *c = ksyscalls_class(ch->sys, i, exit);

				if (c) {
					class_filters(ch, c, NULL, true);
					guards_push(ch, i, exit, c);
				}
			}
}

/*
 * Whether record r is written (its class's filters, once set); threads:
 * the calling reader's cache, for the contexts a filter names.
 */
static inline bool record_passes(const struct kchan *ch, const struct kevent_record *r,
				 struct kthreads *threads)
{
	const struct kfilter_set *fs = __atomic_load_n(&r->cls->filter, __ATOMIC_ACQUIRE);
	struct kfilter_env env;

	if (!fs || fs->unfiltered)
		return true;
	env = (struct kfilter_env){r->tid,  r->cpu,	      r->ts, r->pid, r->comm,
				   threads, ch->kd->hostname, NULL};
	return kfilter_set_pass(fs, r->payload, r->len, &env);
}

/* The system call reader's sink (arg: the channel, sys_lock held): the filters, then the trace. */
static int sys_sink(void *arg, const struct kevent_record *r)
{
	struct kchan *ch = arg;

	if (!record_passes(ch, r, ch->sys_threads))
		return 0;
	return ktrace_sink(ch->ss_sys, r);
}

/* In snapshot mode: the filters, then the flight recorder. */
static int sys_record_sink(void *arg, const struct kevent_record *r)
{
	struct kchan *ch = arg;

	if (!record_passes(ch, r, ch->sys_threads))
		return 0;
	return krecorder_sink(ch->sys_rec, r);
}

/* Moves what the probes wrote to the trace, or to the recorder in snapshot mode. */
static long sys_consume(struct kchan *ch)
{
	kevent_sink_fn sink = ch->sys_rec ? sys_record_sink : sys_sink;
	long n;

	pthread_mutex_lock(&ch->sys_lock);
	n = ksyscalls_consume(ch->sys, sink, ch);
	pthread_mutex_unlock(&ch->sys_lock);
	return n;
}

/* ---- recording ---- */

static void cpu_discarded(struct kcpu *c)
{
	struct tracefs_cpu_stats st;

	if (tracefs_cpu_stats(&c->ch->inst, c->cpu, &st) == 0)
		ktrace_streams_set_discarded(c->ss, c->cpu, st.overrun + st.dropped);
}

/*
 * Converts a tracepoint's record (from a tracefs page or a perf sample),
 * filters it and writes it. 0, or the sink's -errno.
 */
static int record_convert(struct kcpu *c, const uint8_t *rec, size_t reclen, uint64_t ts,
			  const uint64_t *counters, uint8_t *scratch, size_t cap)
{
	const struct kmap_event *m;
	struct kevent_record kr = {0};
	uint16_t id;
	int32_t tid;
	size_t len;

	if (reclen < 8)
		return 0;
	memcpy(&id, rec, 2);
	m = __atomic_load_n(&c->ch->by_id[id], __ATOMIC_ACQUIRE);
	if (!m)
		return 0;
	memcpy(&tid, rec + 4, 4);
	if (!ktrack_pass(c->ch->kd->track, &c->tcache, tid, ts))
		return 0;
	len = kmap_convert(m, rec, reclen, scratch, cap);
	kr.cls = kmap_event_class((struct kmap_event *)m);
	if (!len && kr.cls->cls.nr_fields) {
		c->damaged++;
		return 0;
	}
	kr.ts = ts;
	kr.cpu = c->cpu;
	kr.tid = tid;
	kr.payload = scratch;
	kr.len = len;
	kr.counters = counters;
	if (!record_passes(c->ch, &kr, c->threads))
		return 0;
	return ktrace_sink(c->ss, &kr) < 0 ? -EIO : 0;
}

static void page_convert(struct kcpu *c, const uint8_t *page, size_t n, uint8_t *scratch,
			 size_t cap)
{
	struct ring_record rec;
	struct ring_page p;
	const char *why;
	int r;

	if (ring_page_open(&p, page, n, &why)) {
		c->damaged++;
		return;
	}
	while ((r = ring_page_next(&p, &rec, &why)) == 1)
		if (record_convert(c, rec.payload, rec.len, rec.ts, NULL, scratch, cap) < 0)
			return;
	if (r < 0)
		c->damaged++;
}

/* A CPU's reader of a channel recorded through perf: its scratch. */
struct perf_reader {
	struct kcpu *c;
	uint8_t *scratch;
	size_t cap;
};

static int perf_sample(void *arg, int cpu, uint64_t ts, int32_t tid, const uint8_t *raw, size_t len,
		       const uint64_t *counters)
{
	struct perf_reader *pr = arg;

	(void)cpu;
	(void)tid; /* (the record's common_pid is the same thread) */
	return record_convert(pr->c, raw, len, ts, counters, pr->scratch, pr->cap);
}

/* cpu_thread for a channel recorded through perf (perf-record.h). */
static void perf_cpu_run(struct kcpu *c, uint8_t *scratch, size_t cap, int timeout)
{
	struct kchan *ch = c->ch;
	struct perf_reader pr = {c, scratch, cap};
	struct pollfd pfd = {.fd = kperf_fd(ch->perf, c->cpu), .events = POLLIN};
	uint64_t last_switch = trax_clock_monotonic();

	for (;;) {
		bool stop = __atomic_load_n(&ch->kd->stop, __ATOMIC_ACQUIRE);

		/* (after the stop: what the rings still hold) */
		if (kperf_consume(ch->perf, c->cpu, perf_sample, &pr) < 0)
			break;
		ktrace_streams_set_discarded(c->ss, c->cpu, kperf_lost(ch->perf, c->cpu));
		if (stop)
			break;
		if (ch->attr.switch_timer_us &&
		    trax_clock_monotonic() - last_switch >= ch->attr.switch_timer_us * 1000) {
			last_switch = trax_clock_monotonic();
			ktrace_streams_flush(c->ss, last_switch);
		}
		poll(&pfd, 1, timeout);
	}
}

/*
 * Raises the calling reader thread's priority (nice KDOMAIN_READER_NICE):
 * a default system call ring holds some 40 ms of a machine making calls
 * on every CPU, and a reader of normal priority sharing the CPUs with the
 * traced threads was at times kept off them longer (unpaced loops of
 * system calls on both CPUs, the queues made at the start: events lost in
 * 7 runs of 25 at normal priority, in none of 45 at nice -10). It takes
 * the same CPU time, sooner. (The tracefs readers at nice -10 too: 3 runs
 * of 15 lost events again; they stay at normal priority.)
 * Refused (not root, RLIMIT_NICE): it keeps its priority.
 */
static void reader_priority(void)
{
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), KDOMAIN_READER_NICE);
}

static void *cpu_thread(void *arg)
{
	struct kcpu *c = arg;
	struct kchan *ch = c->ch;
	size_t psize = (size_t)ch->kd->page_size, cap = 2 * psize + 4096;
	uint8_t *page = malloc(psize), *scratch = malloc(cap);
	int timeout = (int)((ch->attr.read_timer_us ? ch->attr.read_timer_us
						    : KDOMAIN_DEFAULT_READ_TIMER_US) /
			    1000);
	uint64_t last_switch = trax_clock_monotonic();

	if (!page || !scratch)
		goto out;
	if (timeout < 1)
		timeout = 1;
	if (ch->perf) {
		perf_cpu_run(c, scratch, cap, timeout);
		goto out_perf;
	}
	for (;;) {
		ssize_t n;

		if (c->cpu == 0 && ktrack_active(ch->kd->track) &&
		    trax_clock_monotonic() - c->last_scan >= KTRACK_SCAN_NS) {
			/* the threads that began to run as a tracked user */
			c->last_scan = trax_clock_monotonic();
			ktrack_apply(ch->kd->track, &ch->inst, true);
		}
		n = read(c->fd, page, psize);

		if (n > 0) {
			page_convert(c, page, (size_t)n, scratch, cap);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			break;
		/* nothing to read */
		cpu_discarded(c);
		if (ch->attr.switch_timer_us &&
		    trax_clock_monotonic() - last_switch >= ch->attr.switch_timer_us * 1000) {
			last_switch = trax_clock_monotonic();
			ktrace_streams_flush(c->ss, last_switch);
		}
		if (__atomic_load_n(&ch->kd->stop, __ATOMIC_ACQUIRE))
			break;
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};

		poll(&pfd, 1, timeout);
	}
out:
	cpu_discarded(c);
out_perf:
	ktrace_streams_flush(c->ss, trax_clock_monotonic());
	free(page);
	free(scratch);
	return NULL;
}

static void *sys_thread(void *arg)
{
	struct kchan *ch = arg;
	int fds[256];
	struct pollfd pfd[256];
	unsigned int nfds = ksyscalls_fds(ch->sys, fds, 256);
	int timeout = (int)((ch->attr.read_timer_us ? ch->attr.read_timer_us
						    : KDOMAIN_DEFAULT_READ_TIMER_US) /
			    1000);

	if (timeout < 1)
		timeout = 1;
	reader_priority();
	for (unsigned int i = 0; i < nfds; i++)
		pfd[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	for (;;) {
		long n = sys_consume(ch);

		for (unsigned int cpu = 0; ch->ss_sys && cpu < ch->nr_cpus; cpu++)
			ktrace_streams_set_discarded(ch->ss_sys, (int)cpu,
						     ksyscalls_lost(ch->sys, (int)cpu));
		if (n < 0)
			break;
		if (n >= KDOMAIN_SYS_BATCH || ksyscalls_pending(ch->sys))
			continue;
		if (__atomic_load_n(&ch->kd->stop, __ATOMIC_ACQUIRE))
			break;
		if (n > 0) {
			/*
			 * A few records: the buffers wake their reader for each
			 * one, and this thread's own system calls are recorded
			 * too; a nap lets records gather (the buffers hold far
			 * more than KDOMAIN_SYS_NAP_MS of them).
			 */
			struct timespec nap = {0, KDOMAIN_SYS_NAP_MS * 1000000L};

			/* many records: a shorter nap keeps the rings far from full */
			if (n >= KDOMAIN_SYS_BATCH / 8)
				nap.tv_nsec = 1000000L;

			nanosleep(&nap, NULL);
			continue;
		}
		poll(pfd, nfds, timeout);
	}
	while (sys_consume(ch) >= 0 && ksyscalls_pending(ch->sys))
		; /* (all of it, in steps) */
	if (ch->ss_sys)
		ktrace_streams_flush(ch->ss_sys, trax_clock_monotonic());
	return NULL;
}

/* Undoes what chan_start did (threads must be stopped). */
static void chan_release(struct kchan *ch)
{
	if (ch->cpus) {
		for (unsigned int i = 0; i < ch->nr_cpus; i++) {
			if (ch->cpus[i].fd >= 0)
				close(ch->cpus[i].fd);
			kthreads_free(ch->cpus[i].threads);
			ktrack_cache_free(ch->cpus[i].tcache);
		}
		free(ch->cpus);
		ch->cpus = NULL;
	}
	if (ch->sys_started) {
		ksyscalls_stop(ch->sys);
		ch->sys_started = false;
	}
	kperf_free(ch->perf);
	ch->perf = NULL;
	krecorder_free(ch->sys_rec);
	ch->sys_rec = NULL;
	kthreads_free(ch->sys_threads);
	ch->sys_threads = NULL;
	free(ch->sys_lost_taken);
	ch->sys_lost_taken = NULL;
	if (ch->have_inst) {
		tracefs_instance_destroy(&ch->inst);
		ch->have_inst = false;
	}
	kfpush_free(ch->push);
	ch->push = NULL;
	if (ch->by_id) {
		for (unsigned int id = 0; id < KDOMAIN_MAX_IDS; id++) {
			if (ch->by_id[id]) {
				filter_set_free(
				    (struct kfilter_set *)kmap_event_class(ch->by_id[id])->filter);
				kmap_event_free(ch->by_id[id]);
			}
			if (ch->formats[id]) {
				tp_event_free(ch->formats[id]);
				free(ch->formats[id]);
			}
		}
		free(ch->by_id);
		free(ch->formats);
		ch->by_id = NULL;
		ch->formats = NULL;
	}
}

/* The perf groups of a channel with counter contexts, in their order. 0, or -errno. */
static int perf_make(struct kchan *ch, char *err, size_t errlen)
{
	const struct perf_counter_def *defs[KPERF_MAX_COUNTERS];
	unsigned int n = 0;
	int e;

	for (unsigned int i = 0; i < ch->ncontexts && n < KPERF_MAX_COUNTERS; i++)
		if (kctx_is_perf(ch->contexts[i]))
			defs[n++] = perf_counter_at((unsigned int)(ch->contexts[i] - KCTX_PERF));
	ch->perf = kperf_new(defs, n, ch->nr_cpus, ch->attr.subbuf_size * ch->attr.num_subbuf, err,
			     errlen);
	if (!ch->perf)
		return -EIO;
	e = kperf_set_pids(ch->perf, ch->kd->pids, ch->kd->npids);
	if (e)
		snprintf(err, errlen, "perf tracker: %s", strerror(-e));
	return e;
}

/* The system call probes read the counters the perf groups hold. 0, or -errno. */
static int perf_to_syscalls(struct kchan *ch)
{
	unsigned int n = kperf_ncounters(ch->perf);
	int *fds = malloc((size_t)ch->nr_cpus * n * sizeof(int));
	int e;

	if (!fds)
		return -ENOMEM;
	for (unsigned int c = 0; c < ch->nr_cpus; c++)
		for (unsigned int j = 0; j < n; j++)
			fds[c * n + j] = kperf_counter_fd(ch->perf, (int)c, j);
	e = ksyscalls_set_counters(ch->sys, fds, ch->nr_cpus, n);
	free(fds);
	return e;
}

static int chan_start(struct kchan *ch, char *err, size_t errlen)
{
	struct kdomain *kd = ch->kd;
	struct ktrace_channel_config cc = {0};
	char iname[400];
	bool any_syscall = false;
	uint64_t kb;
	int e;

	ch->by_id = calloc(KDOMAIN_MAX_IDS, sizeof(*ch->by_id));
	ch->formats = calloc(KDOMAIN_MAX_IDS, sizeof(*ch->formats));
	if (!ch->by_id || !ch->formats) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(iname, sizeof(iname), "%s-%s", kd->session, ch->name);
	e = tracefs_instance_create(&ch->inst, kd->root, iname);
	if (e) {
		snprintf(err, errlen, "tracefs instance for %s: %s", iname, strerror(-e));
		return e;
	}
	ch->have_inst = true;
	ch->push = kfpush_new(&ch->inst);
	ch->nr_cpus = (unsigned int)ch->inst.nr_cpus;
	kb = ch->attr.subbuf_size * ch->attr.num_subbuf / 1024;
	if ((e = tracefs_set_clock(&ch->inst, "mono")) ||
	    (e = tracefs_set_buffer_kb(&ch->inst, kb)) ||
	    (e = tracefs_set_overwrite(&ch->inst, ch->attr.overwrite)) ||
	    (e = ktrack_apply(kd->track, &ch->inst, false))) {
		snprintf(err, errlen, "tracefs instance %s: settings refused: %s", ch->inst.name,
			 strerror(-e));
		return e;
	}
	/* the kernel keeps the process of each thread it records (contexts of exited ones) */
	tracefs_write(&ch->inst, "options/record-tgid", "1");
	cc.name = ch->name;
	cc.nr_cpus = ch->nr_cpus;
	cc.packet_size = ch->attr.subbuf_size;
	cc.contexts = ch->contexts;
	cc.ncontexts = ch->ncontexts;
	if (kd->trace) {
		ch->tch = ktrace_channel_add(kd->trace, &cc, err, errlen);
		if (!ch->tch)
			return -EIO;
	}
	if (perf_contexts(ch) && (e = perf_make(ch, err, errlen)))
		return e;
	for (unsigned int i = 0; i < ch->nrules; i++) {
		long n;

		if (!ch->rules[i].enabled)
			continue;
		if (ch->rules[i].syscall) {
			any_syscall = true;
			continue;
		}
		n = rule_apply(ch, &ch->rules[i], true, err, errlen);
		if (n < 0)
			return (int)n;
	}
	ch->cpus = calloc(ch->nr_cpus, sizeof(*ch->cpus));
	if (!ch->cpus) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < ch->nr_cpus; i++) {
		struct kcpu *c = &ch->cpus[i];

		c->ch = ch;
		c->cpu = (int)i;
		/* (without it a filter's $ctx.pid... reads as unknown) */
		c->threads = kthreads_new("/proc", kd->root);
		c->fd = tracefs_open_raw(&ch->inst, (int)i, false);
		if (c->fd < 0) {
			snprintf(err, errlen, "%s: per_cpu/cpu%u/trace_pipe_raw: %s", ch->inst.path,
				 i, strerror(-c->fd));
			return c->fd;
		}
		if (!ch->tch)
			continue; /* snapshot mode: read at each snapshot */
		c->ss = ktrace_streams_add(ch->tch, "", err, errlen);
		if (!c->ss)
			return -EIO;
	}
	if (any_syscall) {
		if (!ch->sys) {
			ch->sys = ksyscalls_new(kd->root, err, errlen);
			if (!ch->sys)
				return -ENOTSUP;
		}
		for (unsigned int i = 0; i < ch->nrules; i++)
			if (ch->rules[i].enabled && ch->rules[i].syscall &&
			    rule_apply(ch, &ch->rules[i], true, err, errlen) < 0)
				return -EINVAL;
		if ((e = pids_apply(ch, err, errlen)) < 0)
			return e;
		if (ch->perf && (e = perf_to_syscalls(ch)) < 0) {
			snprintf(err, errlen, "perf counters for the system calls: %s",
				 strerror(-e));
			return e;
		}
		e = ksyscalls_start(ch->sys, ch->attr.subbuf_size * ch->attr.num_subbuf, err,
				    errlen);
		if (e)
			return e;
		ch->sys_started = true;
		ch->sys_threads = kthreads_new("/proc", kd->root);
		if (kd->snapshot) {
			/* kept in memory, the newest first, until a snapshot takes them */
			ch->sys_rec =
			    krecorder_new(ch->nr_cpus, ch->attr.subbuf_size * ch->attr.num_subbuf);
			ch->sys_lost_taken = calloc(ch->nr_cpus, sizeof(*ch->sys_lost_taken));
			if (!ch->sys_rec || !ch->sys_lost_taken) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
		} else {
			ch->ss_sys = ktrace_streams_add(ch->tch, "_syscalls", err, errlen);
			if (!ch->ss_sys)
				return -EIO;
		}
	}
	filters_rebuild(ch);
	return 0;
}

static void threads_stop(struct kdomain *kd)
{
	__atomic_store_n(&kd->stop, true, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < kd->nchans; i++) {
		struct kchan *ch = kd->chans[i];

		for (unsigned int c = 0; ch->cpus && c < ch->nr_cpus; c++)
			if (ch->cpus[c].started) {
				pthread_join(ch->cpus[c].thread, NULL);
				ch->cpus[c].started = false;
			}
		if (ch->sys_thread_started) {
			pthread_join(ch->sys_thread, NULL);
			ch->sys_thread_started = false;
		}
	}
	__atomic_store_n(&kd->stop, false, __ATOMIC_RELEASE);
}

/* The state dump of a channel with counter contexts: their values when each record is made. */
struct perf_dump {
	struct ktrace_streams *ss;
	const struct kperf *perf;
};

static int perf_dump_sink(void *arg, const struct kevent_record *r)
{
	const struct perf_dump *pd = arg;
	uint64_t values[KPERF_MAX_COUNTERS];
	struct kevent_record kr = *r;

	if (!kperf_read(pd->perf, r->cpu, values))
		kr.counters = values;
	return ktrace_sink(pd->ss, &kr);
}

/* The state dump into the channels that enable it (tchs: their trace channels, NULL: ch->tch). */
static void statedump(struct kdomain *kd, struct ktrace_channel **tchs, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < kd->nchans; i++) {
		struct kchan *ch = kd->chans[i];
		struct ktrace_streams *ss;
		int cpu = sched_getcpu();

		if (!wants_statedump(ch))
			continue;
		ss = ktrace_streams_add(tchs ? tchs[i] : ch->tch, "_statedump", err, errlen);
		if (!ss)
			return;
		if (cpu < 0 || (unsigned int)cpu >= ch->nr_cpus)
			cpu = 0;
		if (ch->perf) {
			struct perf_dump pd = {ss, ch->perf};

			kstatedump_run(perf_dump_sink, &pd, cpu, "/proc", "/sys");
		} else {
			kstatedump_run(ktrace_sink, ss, cpu, "/proc", "/sys");
		}
		ktrace_streams_flush(ss, trax_clock_monotonic());
	}
}

int kdomain_start(struct kdomain *kd, const char *dir, const char *creation_datetime, char *err,
		  size_t errlen)
{
	struct ktrace_config tc = {0};
	int e = 0;

	if (kd->active) {
		snprintf(err, errlen, "kernel tracing already started for session %s", kd->session);
		return -EALREADY;
	}
	if (kd->prepared) {
		/* started before: the instances are kept, tracing resumes */
		for (unsigned int i = 0; i < kd->nchans; i++) {
			struct kchan *ch = kd->chans[i];

			for (unsigned int c = 0; !kd->snapshot && c < ch->nr_cpus; c++)
				if (!pthread_create(&ch->cpus[c].thread, NULL, cpu_thread,
						    &ch->cpus[c]))
					ch->cpus[c].started = true;
			if (ch->sys && !ch->sys_started &&
			    !ksyscalls_start(ch->sys, ch->attr.subbuf_size * ch->attr.num_subbuf,
					     err, errlen))
				ch->sys_started = true;
			if (ch->sys_started && (ch->ss_sys || ch->sys_rec) &&
			    !pthread_create(&ch->sys_thread, NULL, sys_thread, ch))
				ch->sys_thread_started = true;
			tracefs_set_tracing(&ch->inst, true);
			if (ch->perf)
				kperf_start(ch->perf);
		}
		kd->active = true;
		return 0;
	}
	if (!kd->nchans) {
		snprintf(err, errlen, "session %s has no kernel event enabled", kd->session);
		return -ENOENT;
	}
	tc.dir = dir;
	tc.trace_name = kd->session;
	tc.tracefs = kd->root;
	tc.creation_datetime = creation_datetime;
	if (!kd->snapshot) {
		kd->trace = ktrace_open(&tc, err, errlen);
		if (!kd->trace)
			return -EIO;
	}
	for (unsigned int i = 0; i < kd->nchans && !e; i++)
		e = chan_start(kd->chans[i], err, errlen);
	for (unsigned int i = 0; i < kd->nchans && !e; i++) {
		struct kchan *ch = kd->chans[i];

		/* snapshot mode: the kernel's buffers are read at each snapshot only */
		for (unsigned int c = 0; c < ch->nr_cpus && !e && !kd->snapshot; c++) {
			e = -pthread_create(&ch->cpus[c].thread, NULL, cpu_thread, &ch->cpus[c]);
			ch->cpus[c].started = !e;
		}
		if (!e && ch->sys_started) {
			e = -pthread_create(&ch->sys_thread, NULL, sys_thread, ch);
			ch->sys_thread_started = !e;
		}
		if (e)
			snprintf(err, errlen, "cannot start a thread: %s", strerror(-e));
	}
	for (unsigned int i = 0; i < kd->nchans && !e; i++) {
		e = tracefs_set_tracing(&kd->chans[i]->inst, true);
		if (e)
			snprintf(err, errlen, "%s: tracing_on: %s", kd->chans[i]->inst.path,
				 strerror(-e));
		if (!e && kd->chans[i]->perf && (e = kperf_start(kd->chans[i]->perf)))
			snprintf(err, errlen, "starting the perf counters: %s", strerror(-e));
	}
	if (e) {
		threads_stop(kd);
		if (kd->trace)
			ktrace_close(kd->trace); /* before the classes it wrote go */
		kd->trace = NULL;
		for (unsigned int i = 0; i < kd->nchans; i++)
			chan_release(kd->chans[i]);
		return e;
	}
	kd->active = true;
	kd->prepared = true;
	if (!kd->snapshot)
		statedump(kd, NULL, err, errlen);
	return 0;
}

int kdomain_stop(struct kdomain *kd)
{
	if (!kd->active)
		return -EALREADY;
	for (unsigned int i = 0; i < kd->nchans; i++) {
		struct kchan *ch = kd->chans[i];

		tracefs_set_tracing(&ch->inst, false);
		if (ch->perf)
			kperf_stop(ch->perf);
		if (ch->sys_started) {
			ksyscalls_stop(ch->sys);
			ch->sys_started = false;
		}
	}
	threads_stop(kd);
	kd->active = false;
	return 0;
}

void kdomain_set_snapshot(struct kdomain *kd)
{
	if (!kd->prepared)
		kd->snapshot = true;
}

/*
 * A snapshot of the system calls: what the probes wrote until now, then
 * what the flight recorder holds, into tch's CHANNEL_syscalls_CPU
 * streams, which then say how many records of the CPU were lost since
 * the last snapshot (the recorder's oldest, dropped to make room, and
 * what the probes' rings could not take). The recorder is left empty.
 */
static int sys_snapshot(struct kchan *ch, struct ktrace_channel *tch, char *err, size_t errlen)
{
	struct ktrace_streams *ss = ktrace_streams_add(tch, "_syscalls", err, errlen);
	long n = 0;

	if (!ss)
		return -EIO;
	pthread_mutex_lock(&ch->sys_lock);
	n = ksyscalls_consume_now(ch->sys, sys_record_sink, ch);
	for (unsigned int cpu = 0; n >= 0 && cpu < ch->nr_cpus; cpu++) {
		uint64_t dropped = 0, lost = ksyscalls_lost(ch->sys, (int)cpu);

		n = krecorder_take(ch->sys_rec, (int)cpu, ktrace_sink, ss, &dropped);
		ktrace_streams_set_discarded(ss, (int)cpu,
					     dropped + lost - ch->sys_lost_taken[cpu]);
		ch->sys_lost_taken[cpu] = lost;
	}
	pthread_mutex_unlock(&ch->sys_lock);
	if (n < 0)
		snprintf(err, errlen, "system calls of channel %s: %s", ch->name,
			 strerror((int)-n));
	return n < 0 ? (int)n : 0;
}

int kdomain_snapshot(struct kdomain *kd, const char *dir, const char *creation_datetime, char *err,
		     size_t errlen)
{
	struct ktrace_channel *tchs[KDOMAIN_MAX_CHANNELS] = {0};
	struct ktrace_config tc = {0};
	struct ktrace *t;
	int e = 0;

	if (!kd->snapshot || !kd->prepared) {
		snprintf(err, errlen, "session %s: its kernel channels are not snapshot channels",
			 kd->session);
		return -EINVAL;
	}
	tc.dir = dir;
	tc.trace_name = kd->session;
	tc.tracefs = kd->root;
	tc.creation_datetime = creation_datetime;
	t = ktrace_open(&tc, err, errlen);
	if (!t)
		return -EIO;
	for (unsigned int i = 0; i < kd->nchans && !e; i++) {
		struct kchan *ch = kd->chans[i];
		size_t psize = (size_t)kd->page_size, cap = 2 * psize + 4096;
		uint8_t *page = malloc(psize), *scratch = malloc(cap);
		struct ktrace_channel_config cc = {0};

		cc.name = ch->name;
		cc.nr_cpus = ch->nr_cpus;
		cc.packet_size = ch->attr.subbuf_size;
		cc.contexts = ch->contexts;
		cc.ncontexts = ch->ncontexts;
		tchs[i] = ktrace_channel_add(t, &cc, err, errlen);
		if (!tchs[i] || !page || !scratch)
			e = -EIO;
		for (unsigned int c = 0; !e && c < ch->nr_cpus; c++) {
			/* what the kernel holds now: the reading takes it (the next snapshot has
			 * what follows) */
			struct kcpu kc = {.ch = ch, .cpu = (int)c, .fd = ch->cpus[c].fd};
			ssize_t n;

			kc.ss = ktrace_streams_add(tchs[i], "", err, errlen);
			if (!kc.ss) {
				e = -EIO;
				break;
			}
			while ((n = read(kc.fd, page, psize)) > 0 || (n < 0 && errno == EINTR))
				if (n > 0)
					page_convert(&kc, page, (size_t)n, scratch, cap);
			cpu_discarded(&kc);
		}
		free(page);
		free(scratch);
		if (!e && ch->sys_rec)
			e = sys_snapshot(ch, tchs[i], err, errlen);
	}
	if (!e)
		statedump(kd, tchs, err, errlen);
	e = ktrace_close(t) ? (e ? e : -EIO) : e;
	if (e && !err[0])
		snprintf(err, errlen, "%s: %s", dir, strerror(-e));
	return e;
}

bool kdomain_active(const struct kdomain *kd)
{
	return kd->active;
}

void kdomain_stats(const struct kdomain *kd, uint64_t *written, uint64_t *discarded)
{
	*written = 0;
	*discarded = 0;
	for (unsigned int i = 0; i < kd->nchans; i++) {
		struct kchan *ch = kd->chans[i];

		for (unsigned int c = 0; ch->cpus && c < ch->nr_cpus; c++) {
			struct tracefs_cpu_stats st;

			if (ch->cpus[c].ss)
				*written += ktrace_streams_written(ch->cpus[c].ss);
			if (ch->have_inst && !tracefs_cpu_stats(&ch->inst, (int)c, &st))
				*discarded += st.overrun + st.dropped;
			if (ch->perf)
				*discarded += kperf_lost(ch->perf, (int)c);
			if (ch->sys)
				*discarded += ksyscalls_lost(ch->sys, (int)c);
			if (ch->sys_rec)
				*discarded += krecorder_dropped(ch->sys_rec, (int)c);
		}
		if (ch->ss_sys)
			*written += ktrace_streams_written(ch->ss_sys);
	}
}

void kdomain_describe(const struct kdomain *kd,
		      void (*fn)(void *arg, const struct kdomain_item *item), void *arg)
{
	for (unsigned int i = 0; i < kd->nchans; i++) {
		const struct kchan *ch = kd->chans[i];
		struct kdomain_item it = {.kind = "channel", .channel = ch->name, .name = ch->name};

		it.attr = &ch->attr;
		for (unsigned int c = 0; ch->cpus && c < ch->nr_cpus; c++) {
			struct tracefs_cpu_stats st;

			if (ch->have_inst && !tracefs_cpu_stats(&ch->inst, (int)c, &st))
				it.discarded += st.overrun + st.dropped;
			if (ch->perf)
				it.discarded += kperf_lost(ch->perf, (int)c);
			if (ch->sys)
				it.discarded += ksyscalls_lost(ch->sys, (int)c);
			if (ch->sys_rec)
				it.discarded += krecorder_dropped(ch->sys_rec, (int)c);
		}
		fn(arg, &it);
		for (unsigned int r = 0; r < ch->nrules; r++) {
			const struct krule *kr = &ch->rules[r];

			if (!kr->enabled)
				continue;
			it = (struct kdomain_item){.kind = kr->syscall ? "syscall" : "tracepoint",
						   .channel = ch->name,
						   .name = kr->pattern};
			if (kr->filter)
				it.filter = filter_source(kr->filter, kr->filter_len);
			fn(arg, &it);
		}
		for (unsigned int c = 0; c < ch->ncontexts; c++) {
			it = (struct kdomain_item){.kind = "context",
						   .channel = ch->name,
						   .name = kctx_name(ch->contexts[c])};
			fn(arg, &it);
		}
	}
	if (kd->npids) {
		/* {-1} is "none": given as an empty set */
		bool none = kd->npids == 1 && kd->pids[0] == -1;
		struct kdomain_item it = {
		    .kind = "pid", .ids = kd->pids, .nids = none ? 0 : kd->npids};

		fn(arg, &it);
	}
	for (int kind = KTRACK_UID; kind <= KTRACK_GID; kind++) {
		struct kdomain_item it = {.kind = kind == KTRACK_UID ? "uid" : "gid"};
		int *ids;

		if (!ktrack_get(kd->track, kind, &ids, &it.nids))
			continue; /* every id */
		it.ids = ids;
		fn(arg, &it);
		free(ids);
	}
}

void kdomain_free(struct kdomain *kd)
{
	if (!kd)
		return;
	if (kd->active)
		kdomain_stop(kd);
	if (kd->trace)
		ktrace_close(kd->trace); /* before the classes it wrote go */
	kd->trace = NULL;
	for (unsigned int i = 0; i < kd->nchans; i++) {
		struct kchan *ch = kd->chans[i];

		chan_release(ch);
		for (unsigned int i = 0;
		     ch->sys && i < ksyscalls_count(ch->sys) + ksyscalls_compat_count(ch->sys); i++)
			for (int exit = 0; exit < 2; exit++) {
				struct kevent_class *c = ksyscalls_class(ch->sys, i, exit);

				if (c)
					filter_set_free((struct kfilter_set *)c->filter);
			}
		ksyscalls_free(ch->sys);
		for (unsigned int r = 0; r < ch->nrules; r++) {
			free(ch->rules[r].pattern);
			free(ch->rules[r].filter);
		}
		for (unsigned int r = 0; r < ch->nretired; r++)
			filter_set_free(ch->retired[r]);
		free(ch->retired);
		free(ch->rules);
		pthread_mutex_destroy(&ch->sys_lock);
		free(ch);
	}
	free(kd->pids);
	ktrack_free(kd->track);
	free(kd);
}

long kdomain_list(bool syscalls,
		  void (*fn)(void *arg, const char *name, const char *fields, const char *bits),
		  void *arg, char *err, size_t errlen)
{
	char root[256], lname[256];
	struct tracefs_event *evs = NULL;
	long n, count = 0;

	if (tracefs_find(root, sizeof(root), err, errlen) < 0)
		return -ENOENT;
	if (syscalls) {
		struct ksyscalls *s = ksyscalls_new(root, err, errlen);

		if (!s)
			return -ENOTSUP;
		unsigned int nat = ksyscalls_count(s), all = nat + ksyscalls_compat_count(s);
		const char *word = sizeof(long) == 8 ? "64" : "32";

		/* as lttng list -k --syscall: a call of both ABIs once, "32/64" */
		for (unsigned int i = 0; i < all; i++) {
			const char *name = ksyscalls_name(s, i), *bits = i < nat ? word : "32";
			bool both = false;

			for (unsigned int j = i < nat ? nat : 0; j < (i < nat ? all : nat) && !both;
			     j++)
				both = !strcmp(name, ksyscalls_name(s, j));
			if (both && i >= nat)
				continue; /* listed with its 64-bit twin */
			fn(arg, name, ksyscalls_signature(s, i), both ? "32/64" : bits);
			count++;
		}
		ksyscalls_free(s);
		return count;
	}
	n = tracefs_list_events(root, &evs);
	if (n < 0) {
		snprintf(err, errlen, "cannot list the kernel's events: %s", strerror((int)-n));
		return n;
	}
	for (long i = 0; i < n; i++) {
		if (system_skipped(evs[i].system))
			continue;
		kmap_lttng_name(evs[i].system, evs[i].name, lname, sizeof(lname));
		fn(arg, lname, "", NULL);
		count++;
	}
	free(evs);
	fn(arg, "lttng_statedump_*", "", NULL);
	return count + 1;
}

int kdomain_cleanup_stale(void)
{
	char root[256], err[256];

	if (geteuid() != 0 || tracefs_find(root, sizeof(root), err, sizeof(err)) < 0)
		return 0;
	return tracefs_remove_stale(root);
}
