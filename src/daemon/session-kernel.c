/*
 * session-kernel.c - the `trax` requests of the kernel domain (domain=kernel
 * in the request: docs/daemon.md, "Kernel domain"), given to the
 * session's kdomain (src/kernel/kdomain.h), and the session's hooks that
 * start, stop and free it with the user-space domain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/io.h"
#include "filter/filter.h"
#include "kernel/kdomain.h"
#include "daemon/traxd.h"

#define KERNEL_MAX_PIDS 4096

/* The session's kernel domain, made on first use. */
static struct kdomain *need_kdomain(struct reply *r, struct session *s)
{
	char err[512];

	if (s->kernel)
		return s->kernel;
	if (s->no_output) {
		reply_fail(r, "EOPNOTSUPP",
			   "session %s: kernel channels are recorded to a trace directory or in "
			   "snapshots (no-output sessions are not supported for the kernel domain)",
			   s->name);
		return NULL;
	}
	s->kernel = kdomain_new(s->name, err, sizeof(err));
	if (!s->kernel)
		reply_fail(r, geteuid() ? "EPERM" : "ENOTSUP", "%s", err);
	else if (s->snapshot)
		kdomain_set_snapshot(s->kernel);
	return s->kernel;
}

static bool get_num(struct reply *r, const struct trax_msg *req, const char *key, uint64_t *v,
		    uint64_t dflt)
{
	const char *s = trax_msg_get(req, key);

	*v = dflt;
	if (s && !trax_parse_u64(s, UINT64_MAX, v)) {
		reply_fail(r, "EINVAL", "invalid %s: %s", key, s);
		return false;
	}
	return true;
}

static void fail_errno(struct reply *r, long e, const char *err)
{
	reply_fail(r,
		   e == -ENOENT	   ? "ENOENT"
		   : e == -EEXIST  ? "EEXIST"
		   : e == -EPERM   ? "EPERM"
		   : e == -ENOTSUP ? "ENOTSUP"
		   : e == -ENOMEM  ? "ENOMEM"
				   : "EINVAL",
		   "%s", err);
}

static void enable_channel(struct reply *r, struct session *s, const struct trax_msg *req)
{
	static const char *const refused[] = {"buffers", "blocking_timeout", "tracefile_size",
					      "tracefile_count"};
	struct kdomain_channel_attr at = {0};
	const char *name = trax_msg_get(req, "name");
	struct kdomain *kd;
	char err[512];
	uint64_t ow;
	int e;

	if (!name)
		return (void)reply_fail(r, "EINVAL", "no channel name given");
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (trax_msg_get(req, refused[i]))
			return (void)reply_fail(
			    r, "EINVAL", "%s is not an attribute of kernel channels", refused[i]);
	if (!(kd = need_kdomain(r, s)))
		return;
	if (!get_num(r, req, "subbuf_size", &at.subbuf_size, KDOMAIN_DEFAULT_SUBBUF_SIZE) ||
	    !get_num(r, req, "overwrite", &ow, 0) ||
	    !get_num(r, req, "switch_timer", &at.switch_timer_us, 0) ||
	    !get_num(r, req, "read_timer", &at.read_timer_us, KDOMAIN_DEFAULT_READ_TIMER_US))
		return;
	uint64_t n;

	if (!get_num(r, req, "num_subbuf", &n, KDOMAIN_DEFAULT_NUM_SUBBUF))
		return;
	if (n < 2 || n > 65536)
		return (void)reply_fail(r, "EINVAL",
					"sub-buffer count %llu is out of range (2 to 65536)",
					(unsigned long long)n);
	if (at.subbuf_size < 4096 || at.subbuf_size > (1ull << 30))
		return (void)reply_fail(r, "EINVAL",
					"sub-buffer size %llu is out of range (4 KiB to 1 GiB)",
					(unsigned long long)at.subbuf_size);
	/* whole pages, a power of two as LTTng rounds it */
	while (at.subbuf_size & (at.subbuf_size - 1))
		at.subbuf_size += at.subbuf_size & -at.subbuf_size;
	at.num_subbuf = (uint32_t)n;
	at.overwrite = ow != 0;
	if (kdomain_has_channel(kd, name) && !trax_msg_get(req, "subbuf_size") &&
	    !trax_msg_get(req, "num_subbuf") && !trax_msg_get(req, "overwrite"))
		return; /* enabling an existing channel again */
	e = kdomain_channel_add(kd, name, &at, err, sizeof(err));
	if (e)
		fail_errno(r, e, err);
}

static void enable_event(struct reply *r, struct session *s, const struct trax_msg *req,
			 bool enable)
{
	const char *channel = trax_msg_get(req, "channel"), *kv, *v;
	uint64_t all = 0, syscall = 0;
	struct kdomain *kd;
	char err[512];
	long n;

	if (!get_num(r, req, "all", &all, 0) || !get_num(r, req, "syscall", &syscall, 0))
		return;
	uint8_t *filter = NULL;
	size_t flen = 0;
	struct filter_error ferr;
	const char *ftext = trax_msg_get(req, "filter");

	/* compiled (and so validated) here, before anything changes */
	if (ftext && enable && filter_compile(ftext, &filter, &flen, &ferr)) {
		if (ferr.pos >= 0)
			return (void)reply_fail(r, "EINVAL", "Invalid filter '%s': column %d: %s",
						ftext, ferr.pos + 1, ferr.msg);
		return (void)reply_fail(r, "EINVAL", "Invalid filter '%s': %s", ftext, ferr.msg);
	}
	if (trax_msg_get(req, "loglevel") || trax_msg_get(req, "exclude"))
		return (void)(free(filter),
			      reply_fail(r, "EINVAL",
					 "log levels and exclusions are for user-space events"));
	if (!(kd = need_kdomain(r, s)))
		return free(filter);
	if (all) {
		n = enable
			? kdomain_enable(kd, channel, "*", syscall, filter, flen, err, sizeof(err))
			: kdomain_disable(kd, channel, "*", syscall, err, sizeof(err));
		free(filter);
		if (n < 0)
			return fail_errno(r, n, err);
		trax_msg_add(&r->m, "record", "event");
		trax_msg_add(&r->m, "name", "*");
		trax_msg_add(&r->m, "channel", "%s", channel ? channel : "channel0");
		trax_msg_add(&r->m, "matched", "%ld", n);
		return;
	}
	for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
		if (!(v = trax_kv_value(kv, "name")))
			continue;
		n = enable ? kdomain_enable(kd, channel, v, syscall, filter, flen, err, sizeof(err))
			   : kdomain_disable(kd, channel, v, syscall, err, sizeof(err));
		if (n < 0) {
			free(filter);
			return fail_errno(r, n, err);
		}
		trax_msg_add(&r->m, "record", "event");
		trax_msg_add(&r->m, "name", "%s", v);
		trax_msg_add(&r->m, "channel", "%s", channel ? channel : "channel0");
		trax_msg_add(&r->m, "matched", "%ld", n);
	}
	free(filter);
}

static void add_context(struct reply *r, struct session *s, const struct trax_msg *req)
{
	const char *channel = trax_msg_get(req, "channel"), *kv, *v;
	struct kdomain *kd;
	char err[512];
	bool any = false;
	int e;

	if (!(kd = need_kdomain(r, s)))
		return;
	for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
		if (!(v = trax_kv_value(kv, "type")))
			continue;
		any = true;
		e = kdomain_add_context(kd, channel, v, err, sizeof(err));
		if (e)
			return fail_errno(r, e, err);
	}
	if (!any)
		reply_fail(r, "EINVAL", "no context type given");
}

/* The uid or gid tracker (kind=uid|gid, value=...). */
static void track_ids(struct reply *r, struct session *s, const struct trax_msg *req, int kind,
		      bool on, bool all)
{
	int ids[KERNEL_MAX_PIDS];
	unsigned int n = 0;
	const char *kv, *v;
	struct kdomain *kd;
	char err[512];
	uint64_t x;
	int e;

	for (kv = trax_msg_first(req); !all && kv; kv = trax_msg_next(req, kv)) {
		if (!(v = trax_kv_value(kv, "value")))
			continue;
		if (!trax_parse_u64(v, UINT32_MAX - 1, &x))
			return (void)reply_fail(r, "EINVAL", "invalid id: %s", v);
		if (n == KERNEL_MAX_PIDS)
			return (void)reply_fail(r, "ENOSPC", "too many ids");
		ids[n++] = (int)(uint32_t)x;
	}
	if (!all && !n)
		return (void)reply_fail(r, "EINVAL", "no id given");
	if (!(kd = need_kdomain(r, s)))
		return;
	e = kdomain_track_ids(kd, kind, on, ids, n, all, err, sizeof(err));
	if (e)
		fail_errno(r, e, err);
}

/* The tracked pids (kind=pid, value=...: as the user-space trackers' requests). */
static void track(struct reply *r, struct session *s, const struct trax_msg *req, bool on)
{
	int pids[KERNEL_MAX_PIDS];
	unsigned int npids = 0;
	const int *cur;
	const char *kind = trax_msg_get(req, "kind"), *kv, *v;
	struct kdomain *kd;
	uint64_t all = 0, x;
	char err[512];
	int e;

	if (!get_num(r, req, "all", &all, 0))
		return;
	if (kind && (!strcmp(kind, "uid") || !strcmp(kind, "gid")))
		return track_ids(r, s, req, !strcmp(kind, "gid") ? KDOMAIN_GID : KDOMAIN_UID, on,
				 all != 0);
	if (kind && strcmp(kind, "pid") && strcmp(kind, "vpid"))
		return (void)reply_fail(r, "EINVAL",
					"the kernel domain tracks process, user and group ids "
					"(--pid, --uid, --gid)");
	if (!(kd = need_kdomain(r, s)))
		return;
	if (all && !on) {
		pids[npids++] = -1; /* untrack --all: nothing is recorded, as LTTng does */
	} else if (!all) {
		/* this session's set, as its domain holds it ({-1}: none) */
		npids = kdomain_tracked_pids(kd, &cur);
		if (!on && !npids)
			return (void)reply_fail(r, "ENOENT",
						"every process is tracked: untrack --pid --all "
						"first, then track the ones to record");
		if (npids > KERNEL_MAX_PIDS)
			npids = KERNEL_MAX_PIDS;
		if (npids)
			memcpy(pids, cur, npids * sizeof(int));
		if (npids == 1 && pids[0] == -1)
			npids = 0;
		if (!on && !npids)
			return (void)reply_fail(r, "ENOENT", "no process is tracked");
		for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
			unsigned int i;

			if (!(v = trax_kv_value(kv, "value")) && !(v = trax_kv_value(kv, "pid")))
				continue;
			if (!trax_parse_u64(v, INT32_MAX, &x))
				return (void)reply_fail(r, "EINVAL", "invalid pid: %s", v);
			for (i = 0; i < npids && pids[i] != (int)x; i++)
				;
			if (on && i == npids) {
				if (npids == KERNEL_MAX_PIDS)
					return (void)reply_fail(r, "ENOSPC", "too many pids");
				pids[npids++] = (int)x;
			} else if (!on) {
				if (i == npids)
					return (void)reply_fail(r, "ENOENT",
								"pid %llu is not tracked",
								(unsigned long long)x);
				pids[i] = pids[--npids];
			}
		}
		if (!on && !npids)
			/* untracking the last one: nothing is recorded, as LTTng does */
			pids[npids++] = -1;
	}
	e = kdomain_track_pids(kd, pids, npids, err, sizeof(err));
	if (e)
		fail_errno(r, e, err);
}

bool kernel_request(struct reply *r, struct session *s, const struct trax_msg *req)
{
	const char *domain = trax_msg_get(req, "domain");

	if (!domain || strcmp(domain, "kernel"))
		return false;
	if (!s) {
		const char *name = trax_msg_get(req, "session");

		s = session_find(name);
		if (!s) {
			reply_fail(r, name ? "ENOENT" : "EINVAL",
				   name ? "session %s not found" : "no session given%s",
				   name ? name : "");
			return true;
		}
	}
	switch (req->type) {
	case TRAX_MSG_ENABLE_CHANNEL:
		enable_channel(r, s, req);
		break;
	case TRAX_MSG_ENABLE_EVENT:
		enable_event(r, s, req, true);
		break;
	case TRAX_MSG_DISABLE_EVENT:
		enable_event(r, s, req, false);
		break;
	case TRAX_MSG_ADD_CONTEXT:
		add_context(r, s, req);
		break;
	case TRAX_MSG_TRACK:
		track(r, s, req, true);
		break;
	case TRAX_MSG_UNTRACK:
		track(r, s, req, false);
		break;
	default:
		reply_fail(r, "EOPNOTSUPP", "this request has no kernel domain");
		break;
	}
	return true;
}

struct list_ctx {
	struct reply *r;
};

static void list_one(void *arg, const char *name, const char *fields, const char *bits)
{
	struct list_ctx *l = arg;

	trax_msg_add(&l->r->m, "record", "tracepoint");
	trax_msg_add(&l->r->m, "name", "%s", name);
	trax_msg_add(&l->r->m, "fields", "%s", fields ? fields : "");
	if (bits)
		trax_msg_add(&l->r->m, "bits", "%s", bits);
}

int kernel_list(struct reply *r, const struct trax_msg *req)
{
	struct list_ctx l = {r};
	uint64_t syscall = 0;
	char err[512];
	long n;

	if (!get_num(r, req, "syscall", &syscall, 0))
		return -1;
	if (geteuid() != 0)
		return reply_fail(r, "EPERM",
				  "listing the kernel's events needs root: traxd runs as uid %u",
				  (unsigned int)geteuid());
	n = kdomain_list(syscall, list_one, &l, err, sizeof(err));
	if (n < 0)
		return reply_fail(r, "ENOTSUP", "%s", err);
	return 0;
}

int kernel_session_start(struct reply *r, struct session *s)
{
	char dir[TRAXD_PATH_MAX + 16], err[512];
	int e;

	if (!s->kernel)
		return 0;
	snprintf(dir, sizeof(dir), "%s/kernel", s->output);
	e = kdomain_start(s->kernel, dir, s->creation_time, err, sizeof(err));
	if (e)
		return reply_fail(r, "EIO", "kernel domain of session %s: %s", s->name, err);
	return 0;
}

int kernel_session_snapshot(struct reply *r, struct session *s, const char *path)
{
	char dir[TRAXD_PATH_MAX + 600], err[512] = "";
	int e;

	if (!s->kernel)
		return 0;
	snprintf(dir, sizeof(dir), "%s/kernel", path);
	e = kdomain_snapshot(s->kernel, dir, s->creation_time, err, sizeof(err));
	if (e)
		return reply_fail(r, "EIO", "kernel snapshot of session %s: %s", s->name, err);
	return 0;
}

void kernel_session_stop(struct session *s)
{
	if (s->kernel && kdomain_active(s->kernel))
		kdomain_stop(s->kernel);
}

void kernel_session_free(struct session *s)
{
	kdomain_free(s->kernel);
	s->kernel = NULL;
}

static void describe_one(void *arg, const struct kdomain_item *it)
{
	struct reply *r = arg;

	if (!strcmp(it->kind, "channel")) {
		trax_msg_add(&r->m, "record", "kchannel");
		trax_msg_add(&r->m, "name", "%s", it->name);
		trax_msg_add(&r->m, "enabled", "1");
		trax_msg_add_u64(&r->m, "subbuf_size", it->attr->subbuf_size);
		trax_msg_add_u64(&r->m, "num_subbuf", it->attr->num_subbuf);
		trax_msg_add(&r->m, "overwrite", "%d", it->attr->overwrite);
		trax_msg_add_u64(&r->m, "switch_timer", it->attr->switch_timer_us);
		trax_msg_add_u64(&r->m, "read_timer", it->attr->read_timer_us);
		trax_msg_add_u64(&r->m, "tracefile_size", 0);
		trax_msg_add_u64(&r->m, "tracefile_count", 0);
		trax_msg_add_u64(&r->m, "discarded", it->discarded);
		trax_msg_add_u64(&r->m, "lost", 0);
	} else if (!strcmp(it->kind, "context")) {
		trax_msg_add(&r->m, "record", "kcontext");
		trax_msg_add(&r->m, "type", "%s", it->name);
		trax_msg_add(&r->m, "channel", "%s", it->channel);
	} else if (!strcmp(it->kind, "pid") || !strcmp(it->kind, "uid") ||
		   !strcmp(it->kind, "gid")) {
		/* one record: its values are the set (none: no value) */
		trax_msg_add(&r->m, "record", "ktracker");
		trax_msg_add(&r->m, "kind", "%s", it->kind);
		for (unsigned int i = 0; i < it->nids; i++)
			trax_msg_add(&r->m, "value", "%u", (unsigned int)it->ids[i]);
	} else {
		trax_msg_add(&r->m, "record", "kevent");
		trax_msg_add(&r->m, "channel", "%s", it->channel);
		trax_msg_add(&r->m, "kind", "%s", it->kind);
		trax_msg_add(&r->m, "name", "%s", it->name);
		if (it->filter)
			trax_msg_add(&r->m, "filter", "%s", it->filter);
	}
}

void kernel_session_describe(struct reply *r, const struct session *s)
{
	if (!s->kernel)
		return;
	kdomain_describe(s->kernel, describe_one, r);
}
