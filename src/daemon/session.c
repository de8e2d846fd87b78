/*
 * session.c - the requests of the `trax` command: sessions, channels,
 * event rules, contexts, trackers, start/stop, snapshots (docs/daemon.md,
 * "trax -> traxd"). Each request is checked whole before anything
 * changes, and answered with one reply.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/glob.h"
#include "daemon/traxd.h"
#include "filter/filter.h"
#include "writer/trace-env.h"

#define DEFAULT_SUBBUF_SIZE (512u * 1024u)
#define DEFAULT_NUM_SUBBUF  4u
#define MAX_SUBBUF_SIZE	    (1ull << 30)
#define MAX_NUM_SUBBUF	    65536u

/* ---- replies ---- */

static void reply_init(struct reply *r, uint32_t seq)
{
	trax_msg_init(&r->m, TRAX_MSG_REPLY);
	r->m.seq = seq;
	r->failed = false;
}

int reply_fail(struct reply *r, const char *status, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	trax_msg_free(&r->m);
	trax_msg_init(&r->m, TRAX_MSG_REPLY);
	trax_msg_add(&r->m, "status", "%s", status);
	trax_msg_add(&r->m, "error", "%s", line);
	r->failed = true;
	return -1;
}

#define fail reply_fail

/* ---- lookups and checks ---- */

struct session *session_find(const char *name)
{
	for (struct session *s = traxd.sessions; s && name; s = s->next)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

static bool name_ok(const char *n)
{
	size_t len = n ? strlen(n) : 0;

	if (len == 0 || len > TRAXD_NAME_MAX || n[0] == '.' || n[0] == '-')
		return false;
	for (; *n; n++)
		if ((unsigned char)*n < 0x21 || *n == '/' || *n == 0x7f)
			return false;
	return true;
}

static struct session *need_session(struct reply *r, const struct trax_msg *req)
{
	const char *name = trax_msg_get(req, "session");
	struct session *s;

	if (!name) {
		fail(r, "EINVAL", "no session given");
		return NULL;
	}
	s = session_find(name);
	if (!s)
		fail(r, "ENOENT", "session %s not found", name);
	return s;
}

static struct channel *channel_find(struct session *s, const char *name)
{
	for (unsigned int i = 0; i < s->nchannels; i++)
		if (!strcmp(s->channels[i].name, name))
			return &s->channels[i];
	return NULL;
}

static bool get_u64(struct reply *r, const struct trax_msg *req, const char *key, uint64_t *v,
		    uint64_t def)
{
	const char *s = trax_msg_get(req, key);

	*v = def;
	if (!s)
		return true;
	if (!trax_msg_get_u64(req, key, v)) {
		fail(r, "EINVAL", "invalid %s: %s", key, s);
		return false;
	}
	return true;
}

static uint64_t round_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* ---- sessions ---- */

static void now_string(char *buf, size_t len, const char *fmt)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, fmt, &tm);
}

static int do_create(struct reply *r, const struct trax_msg *req)
{
	const char *name = trax_msg_get(req, "name"), *out = trax_msg_get(req, "output");
	char autoname[64], stamp[32];
	struct session *s;
	uint64_t snap = 0, noout = 0;

	if (!get_u64(r, req, "snapshot", &snap, 0) || !get_u64(r, req, "no_output", &noout, 0))
		return -1;
	now_string(stamp, sizeof(stamp), "%Y%m%d-%H%M%S");
	if (!name) {
		snprintf(autoname, sizeof(autoname), "auto-%s", stamp);
		name = autoname;
	}
	if (!name_ok(name))
		return fail(r, "EINVAL", "invalid session name '%s'", name);
	if (session_find(name))
		return fail(r, "EEXIST", "session %s already exists", name);
	if (traxd.nsessions >= TRAXD_MAX_SESSIONS)
		return fail(r, "ENOSPC", "too many sessions");
	if (out && (out[0] != '/' || strlen(out) >= TRAXD_PATH_MAX - 512))
		return fail(r, "EINVAL", "output path must be absolute and shorter: %s", out);
	s = calloc(1, sizeof(*s));
	if (!s)
		return fail(r, "ENOMEM", "out of memory");
	snprintf(s->name, sizeof(s->name), "%s", name);
	if (noout) {
		s->output[0] = 0; /* nothing is written: snapshots need an output given */
	} else if (out) {
		snprintf(s->output, sizeof(s->output), "%s", out);
	} else {
		const char *home = getenv("TRAX_HOME");

		if (!home || !*home)
			home = getenv("HOME");
		if (!home || !*home)
			home = traxd.is_root ? "/root" : "/tmp";
		/* an automatic name holds the date already, as LTTng's do */
		if (name == autoname)
			snprintf(s->output, sizeof(s->output), "%s/trax-traces/%s", home, name);
		else
			snprintf(s->output, sizeof(s->output), "%s/trax-traces/%s-%s", home, name,
				 stamp);
	}
	/* no trailing slashes: trace paths are built under it */
	for (size_t n = strlen(s->output); n > 1 && s->output[n - 1] == '/'; n--)
		s->output[n - 1] = 0;
	s->snapshot = snap != 0;
	s->no_output = noout != 0;
	s->vpid.all = s->vuid.all = true;
	ctf_env_datetime(s->creation_time, sizeof(s->creation_time), (int64_t)time(NULL));
	s->next = traxd.sessions;
	traxd.sessions = s;
	traxd.nsessions++;
	trax_msg_add(&r->m, "record", "session");
	trax_msg_add(&r->m, "name", "%s", s->name);
	trax_msg_add(&r->m, "output", "%s", s->output);
	trax_msg_add(&r->m, "snapshot", "%d", s->snapshot);
	return 0;
}

static void rule_free(struct event_rule *e)
{
	free(e->filter);
	free(e->pattern);
	for (unsigned int i = 0; i < e->nexcludes; i++)
		free(e->excludes[i]);
	free(e->excludes);
}

static void session_stop(struct session *s)
{
	if (!s->active)
		return;
	s->active = false;
	kernel_session_stop(s);
	trace_set_active(s, false);
	trace_flush_session(s);
}

static void session_free(struct session *s)
{
	struct session **pp;

	session_stop(s);
	apps_forget_session(s);
	trace_destroy_session(s);
	kernel_session_free(s);
	for (pp = &traxd.sessions; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	traxd.nsessions--;
	for (unsigned int i = 0; i < s->nchannels; i++) {
		for (unsigned int k = 0; k < s->channels[i].nrules; k++)
			rule_free(&s->channels[i].rules[k]);
		free(s->channels[i].rules);
	}
	free(s->channels);
	free(s->vpid.values);
	free(s->vuid.values);
	free(s);
}

void session_destroy_all(void)
{
	while (traxd.sessions)
		session_free(traxd.sessions);
}

static int do_destroy(struct reply *r, const struct trax_msg *req)
{
	uint64_t all = 0;
	struct session *s;

	if (!get_u64(r, req, "all", &all, 0))
		return -1;
	if (all) {
		while ((s = traxd.sessions)) {
			trax_msg_add(&r->m, "record", "session");
			trax_msg_add(&r->m, "name", "%s", s->name);
			trax_msg_add(&r->m, "output", "%s", s->output);
			session_free(s);
		}
		return 0;
	}
	s = session_find(trax_msg_get(req, "name"));
	if (!s)
		return fail(r, "ENOENT", "session %s not found",
			    trax_msg_get(req, "name") ? trax_msg_get(req, "name") : "(none)");
	trax_msg_add(&r->m, "record", "session");
	trax_msg_add(&r->m, "name", "%s", s->name);
	trax_msg_add(&r->m, "output", "%s", s->output);
	session_free(s);
	return 0;
}

/* ---- listing ---- */

static void list_session_record(struct reply *r, const struct session *s)
{
	trax_msg_add(&r->m, "record", "session");
	trax_msg_add(&r->m, "name", "%s", s->name);
	trax_msg_add(&r->m, "output", "%s", s->output);
	trax_msg_add(&r->m, "state", "%s", s->active ? "active" : "inactive");
	trax_msg_add(&r->m, "snapshot", "%d", s->snapshot);
}

static void channel_stats(const struct session *s, const struct channel *c, uint64_t *discarded,
			  uint64_t *lost)
{
	*discarded = *lost = 0;
	for (const struct dtrace *t = s->traces; t; t = t->next)
		for (const struct dchan *dc = t->chans; dc; dc = dc->next) {
			if (dc->chan != c)
				continue;
			for (unsigned int i = 0; i < dc->nr_cpus; i++)
				*discarded += ringbuf_discarded(&dc->rbs[i]);
			*lost += dc->packets_dropped;
		}
}

static void list_session_detail(struct reply *r, const struct session *s)
{
	list_session_record(r, s);
	for (unsigned int i = 0; i < s->nchannels; i++) {
		const struct channel *c = &s->channels[i];
		uint64_t discarded, lost;

		channel_stats(s, c, &discarded, &lost);
		trax_msg_add(&r->m, "record", "channel");
		trax_msg_add(&r->m, "name", "%s", c->name);
		trax_msg_add(&r->m, "enabled", "%d", c->enabled);
		trax_msg_add_u64(&r->m, "subbuf_size", c->attr.subbuf_size);
		trax_msg_add_u64(&r->m, "num_subbuf", c->attr.num_subbuf);
		trax_msg_add(&r->m, "overwrite", "%d", c->attr.overwrite);
		trax_msg_add(&r->m, "buffers", "%s", c->attr.per_pid ? "pid" : "uid");
		trax_msg_add_u64(&r->m, "switch_timer", c->attr.switch_timer_us);
		trax_msg_add_u64(&r->m, "read_timer", c->attr.read_timer_us);
		trax_msg_add(&r->m, "blocking_timeout", "%lld",
			     (long long)c->attr.blocking_timeout_us);
		trax_msg_add_u64(&r->m, "tracefile_size", c->attr.tracefile_size);
		trax_msg_add_u64(&r->m, "tracefile_count", c->attr.tracefile_count);
		trax_msg_add_u64(&r->m, "discarded", discarded);
		trax_msg_add_u64(&r->m, "lost", lost);
		for (unsigned int k = 0; k < c->nrules; k++) {
			const struct event_rule *e = &c->rules[k];

			trax_msg_add(&r->m, "record", "event");
			trax_msg_add(&r->m, "name", "%s", e->pattern);
			trax_msg_add(&r->m, "channel", "%s", c->name);
			trax_msg_add(&r->m, "enabled", "%d", e->enabled);
			trax_msg_add(&r->m, "loglevel", "%d", e->loglevel);
			trax_msg_add(&r->m, "loglevel_only", "%d", e->loglevel_only);
			for (unsigned int x = 0; x < e->nexcludes; x++)
				trax_msg_add(&r->m, "exclude", "%s", e->excludes[x]);
			if (e->filter)
				trax_msg_add(&r->m, "filter", "%s",
					     filter_source(e->filter, e->filter_len));
		}
		for (unsigned int k = 0; k < c->ncontexts; k++) {
			trax_msg_add(&r->m, "record", "context");
			trax_msg_add(&r->m, "type", "%s", ctf_context_name(c->contexts[k]));
			trax_msg_add(&r->m, "channel", "%s", c->name);
		}
	}
	for (int k = 0; k < 2; k++) {
		const struct tracker *t = k ? &s->vuid : &s->vpid;

		trax_msg_add(&r->m, "record", "tracker");
		trax_msg_add(&r->m, "kind", "%s", k ? "vuid" : "vpid");
		trax_msg_add(&r->m, "all", "%d", t->all);
		for (unsigned int i = 0; i < t->nvalues; i++)
			trax_msg_add(&r->m, "value", "%d", t->values[i]);
	}
	kernel_session_describe(r, s);
}

static int do_list(struct reply *r, const struct trax_msg *req)
{
	const char *name = trax_msg_get(req, "name"), *domain = trax_msg_get(req, "domain");
	struct session *s;

	if (name) {
		s = session_find(name);
		if (!s)
			return fail(r, "ENOENT", "session %s not found", name);
		list_session_detail(r, s);
		return 0;
	}
	if (domain && !strcmp(domain, "kernel"))
		return kernel_list(r, req);
	if (domain) {
		if (strcmp(domain, "ust"))
			return fail(r, "EINVAL", "unknown domain %s", domain);
		for (const struct app *a = traxd.apps; a; a = a->next) {
			if (!a->ready)
				continue;
			trax_msg_add(&r->m, "record", "app");
			trax_msg_add(&r->m, "pid", "%d", a->pid);
			trax_msg_add(&r->m, "name", "%s", a->procname);
			trax_msg_add(&r->m, "uid", "%d", a->uid);
			for (uint32_t i = 0; i < a->nevents; i++) {
				const struct app_event *e = &a->events[i];
				trax_msg_add(&r->m, "record", "tracepoint");
				trax_msg_add(&r->m, "name", "%s", e->name);
				trax_msg_add(&r->m, "loglevel", "%d", e->loglevel);
				trax_msg_add(&r->m, "fields", "%s", app_event_field_text(e));
			}
		}
		return 0;
	}
	for (s = traxd.sessions; s; s = s->next)
		list_session_record(r, s);
	return 0;
}

/* ---- channels ---- */

static struct channel *channel_add(struct reply *r, struct session *s, const char *name)
{
	struct channel *n, *c;

	if (!name_ok(name) || strlen(name) > 200)
		return fail(r, "EINVAL", "invalid channel name '%s'", name), NULL;
	if (s->started_once)
		return fail(r, "EPERM",
			    "channel %s cannot be added: session %s has already been started", name,
			    s->name),
		       NULL;
	if (s->nchannels >= TRAXD_MAX_CHANNELS)
		return fail(r, "ENOSPC", "too many channels"), NULL;
	n = realloc(s->channels, (s->nchannels + 1) * sizeof(*n));
	if (!n)
		return fail(r, "ENOMEM", "out of memory"), NULL;
	s->channels = n;
	c = &s->channels[s->nchannels];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->enabled = true;
	c->stream_id = s->nchannels;
	c->attr.subbuf_size = DEFAULT_SUBBUF_SIZE;
	c->attr.num_subbuf = DEFAULT_NUM_SUBBUF;
	c->attr.overwrite = s->snapshot;
	c->attr.per_pid = s->nchannels ? s->channels[0].attr.per_pid : false;
	s->nchannels++;
	return c;
}

static int do_enable_channel(struct reply *r, const struct trax_msg *req)
{
	static const char *const attrs[] = {
	    "subbuf_size", "num_subbuf",       "overwrite",	 "buffers",	   "switch_timer",
	    "read_timer",  "blocking_timeout", "tracefile_size", "tracefile_count"};
	struct session *s = need_session(r, req);
	const char *name = trax_msg_get(req, "name"), *buffers, *bt;
	struct channel_attr at;
	uint64_t v, ow;
	struct channel *c;
	bool any = false;

	if (!s)
		return -1;
	if (!name)
		return fail(r, "EINVAL", "no channel name given");
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		any |= trax_msg_get(req, attrs[i]) != NULL;
	c = channel_find(s, name);
	if (c) {
		if (any)
			return fail(r, "EEXIST", "channel %s already exists in session %s", name,
				    s->name);
		c->enabled = true;
		apps_update_session(s);
		return 0;
	}
	memset(&at, 0, sizeof(at));
	if (!get_u64(r, req, "subbuf_size", &v, DEFAULT_SUBBUF_SIZE))
		return -1;
	if (v < 4096 || v > MAX_SUBBUF_SIZE)
		return fail(r, "EINVAL", "sub-buffer size %llu is out of range (4 KiB to 1 GiB)",
			    (unsigned long long)v);
	at.subbuf_size = round_pow2(v);
	if (!get_u64(r, req, "num_subbuf", &v, DEFAULT_NUM_SUBBUF))
		return -1;
	if (v < 2 || v > MAX_NUM_SUBBUF)
		return fail(r, "EINVAL", "sub-buffer count %llu is out of range (2 to %u)",
			    (unsigned long long)v, MAX_NUM_SUBBUF);
	at.num_subbuf = (uint32_t)round_pow2(v);
	if (!get_u64(r, req, "overwrite", &ow, s->snapshot))
		return -1;
	at.overwrite = ow != 0;
	buffers = trax_msg_get(req, "buffers");
	if (buffers && strcmp(buffers, "uid") && strcmp(buffers, "pid"))
		return fail(r, "EINVAL", "buffers must be uid or pid, not %s", buffers);
	at.per_pid = buffers ? !strcmp(buffers, "pid")
			     : (s->nchannels ? s->channels[0].attr.per_pid : false);
	if (s->nchannels && s->channels[0].attr.per_pid != at.per_pid)
		return fail(r, "EINVAL",
			    "the channels of a session share one buffering scheme (per %s here)",
			    s->channels[0].attr.per_pid ? "process" : "user");
	if (!get_u64(r, req, "switch_timer", &at.switch_timer_us, 0) ||
	    !get_u64(r, req, "read_timer", &at.read_timer_us, 0) ||
	    !get_u64(r, req, "tracefile_size", &at.tracefile_size, 0) ||
	    !get_u64(r, req, "tracefile_count", &v, 0))
		return -1;
	if (v > UINT32_MAX)
		return fail(r, "EINVAL", "too many trace files: %llu", (unsigned long long)v);
	at.tracefile_count = (uint32_t)v;
	if (at.tracefile_size && at.tracefile_size < at.subbuf_size)
		return fail(
		    r, "EINVAL", "trace file size %llu is smaller than the sub-buffer size %llu",
		    (unsigned long long)at.tracefile_size, (unsigned long long)at.subbuf_size);
	bt = trax_msg_get(req, "blocking_timeout");
	at.blocking_timeout_us = 0;
	if (bt) {
		char *end;
		long long x = strtoll(bt, &end, 10);

		if (*end || end == bt || x < -1)
			return fail(r, "EINVAL", "invalid blocking timeout: %s", bt);
		at.blocking_timeout_us = x;
	}
	c = channel_add(r, s, name);
	if (!c)
		return -1;
	c->attr = at;
	return 0;
}

static int do_disable_channel(struct reply *r, const struct trax_msg *req)
{
	struct session *s = need_session(r, req);
	const char *name = trax_msg_get(req, "name");
	struct channel *c;

	if (!s)
		return -1;
	c = name ? channel_find(s, name) : NULL;
	if (!c)
		return fail(r, "ENOENT", "channel %s not found in session %s",
			    name ? name : "(none)", s->name);
	c->enabled = false;
	apps_update_session(s);
	return 0;
}

/* The channel a request names (default channel0, created when missing). */
static struct channel *event_channel(struct reply *r, struct session *s, const struct trax_msg *req)
{
	const char *name = trax_msg_get(req, "channel");
	struct channel *c;

	c = channel_find(s, name ? name : "channel0");
	if (c || name)
		return c ? c
			 : (fail(r, "ENOENT", "channel %s not found in session %s", name, s->name),
			    NULL);
	return channel_add(r, s, "channel0");
}

static bool pattern_ok(const char *p)
{
	size_t n = strlen(p);

	if (n == 0 || n > TRAXD_NAME_MAX)
		return false;
	for (; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == '"' || *p == '\\')
			return false;
	return true;
}

/* Whether rule e excludes every name the request excludes (the counts are compared apart). */
static bool same_excludes(const struct event_rule *e, const struct trax_msg *req)
{
	const char *kv, *v;

	for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
		bool found = false;

		if (!(v = trax_kv_value(kv, "exclude")))
			continue;
		for (unsigned int i = 0; i < e->nexcludes && !found; i++)
			found = !strcmp(e->excludes[i], v);
		if (!found)
			return false;
	}
	return true;
}

/* enable-event with its filter (bytecode checked, or NULL). */
static int enable_rules(struct reply *r, const struct trax_msg *req, const uint8_t *filter,
			size_t filter_len)
{
	struct session *s = need_session(r, req);
	struct channel *c;
	const char *kv, *v;
	uint64_t all = 0, only = 0;
	long long level = -1;
	unsigned int nnames = 0, nexcl = 0;

	if (!s)
		return -1;
	if (!get_u64(r, req, "all", &all, 0) || !get_u64(r, req, "loglevel_only", &only, 0))
		return -1;
	if ((v = trax_msg_get(req, "loglevel"))) {
		char *end;

		level = strtoll(v, &end, 10);
		if (*end || end == v || level < 0 || level > 14)
			return fail(r, "EINVAL", "invalid log level: %s", v);
	}
	for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
		if ((v = trax_kv_value(kv, "name"))) {
			if (!pattern_ok(v))
				return fail(r, "EINVAL", "invalid event name '%s'", v);
			nnames++;
		} else if ((v = trax_kv_value(kv, "exclude"))) {
			if (!pattern_ok(v))
				return fail(r, "EINVAL", "invalid exclusion '%s'", v);
			nexcl++;
		}
	}
	if (!nnames && !all)
		return fail(r, "EINVAL", "no event name given");
	c = event_channel(r, s, req);
	if (!c)
		return -1;
	if (c->nrules + nnames + 1 > TRAXD_MAX_RULES)
		return fail(r, "ENOSPC", "too many event rules in channel %s", c->name);
	for (kv = all ? NULL : trax_msg_first(req); all || kv; kv = trax_msg_next(req, kv)) {
		const char *pat = all ? "*" : trax_kv_value(kv, "name");
		struct event_rule *e = NULL, *n;

		if (!pat)
			continue;
		for (unsigned int i = 0; i < c->nrules; i++)
			if (!strcmp(c->rules[i].pattern, pat) && c->rules[i].loglevel == level &&
			    c->rules[i].loglevel_only == (only != 0) &&
			    c->rules[i].nexcludes == nexcl && same_excludes(&c->rules[i], req) &&
			    c->rules[i].filter_len == filter_len &&
			    (!filter || !memcmp(c->rules[i].filter, filter, filter_len)))
				e = &c->rules[i];
		if (!e) {
			n = realloc(c->rules, (c->nrules + 1) * sizeof(*n));
			if (!n)
				return fail(r, "ENOMEM", "out of memory");
			c->rules = n;
			e = &c->rules[c->nrules];
			memset(e, 0, sizeof(*e));
			e->pattern = strdup(pat);
			e->loglevel = (int)level;
			e->loglevel_only = only != 0;
			if (nexcl)
				e->excludes = calloc(nexcl, sizeof(char *));
			if (filter && (e->filter = malloc(filter_len))) {
				memcpy(e->filter, filter, filter_len);
				e->filter_len = filter_len;
			}
			if (!e->pattern || (nexcl && !e->excludes) || (filter && !e->filter)) {
				rule_free(e);
				return fail(r, "ENOMEM", "out of memory");
			}
			for (const char *x = trax_msg_first(req); x; x = trax_msg_next(req, x))
				if ((v = trax_kv_value(x, "exclude")) &&
				    (e->excludes[e->nexcludes] = strdup(v)))
					e->nexcludes++;
			c->nrules++;
		}
		e->enabled = true;
		trax_msg_add(&r->m, "record", "event");
		trax_msg_add(&r->m, "name", "%s", pat);
		trax_msg_add(&r->m, "channel", "%s", c->name);
		if (all)
			break;
	}
	apps_update_session(s);
	return 0;
}

static int do_enable_event(struct reply *r, const struct trax_msg *req)
{
	const char *v = trax_msg_get(req, "filter");
	struct filter_error err;
	uint8_t *filter = NULL;
	size_t len = 0;
	int rc;

	/* compiled (and so validated) here, before anything changes */
	if (v && filter_compile(v, &filter, &len, &err)) {
		if (err.pos >= 0)
			return fail(r, "EINVAL", "Invalid filter '%s': column %d: %s", v,
				    err.pos + 1, err.msg);
		return fail(r, "EINVAL", "Invalid filter '%s': %s", v, err.msg);
	}
	rc = enable_rules(r, req, filter, len);
	free(filter);
	return rc;
}

static int do_disable_event(struct reply *r, const struct trax_msg *req)
{
	struct session *s = need_session(r, req);
	const char *name = trax_msg_get(req, "channel"), *kv, *v;
	struct channel *c;
	uint64_t all = 0;

	if (!s || !get_u64(r, req, "all", &all, 0))
		return -1;
	c = channel_find(s, name ? name : "channel0");
	if (!c)
		return fail(r, "ENOENT", "channel %s not found in session %s",
			    name ? name : "channel0", s->name);
	if (all) {
		for (unsigned int i = 0; i < c->nrules; i++)
			c->rules[i].enabled = false;
	} else {
		for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
			bool found = false;

			if (!(v = trax_kv_value(kv, "name")))
				continue;
			for (unsigned int i = 0; i < c->nrules; i++)
				if (!strcmp(c->rules[i].pattern, v)) {
					c->rules[i].enabled = false;
					found = true;
				}
			if (!found)
				return fail(r, "ENOENT", "event %s not found in channel %s", v,
					    c->name);
			trax_msg_add(&r->m, "record", "event");
			trax_msg_add(&r->m, "name", "%s", v);
			trax_msg_add(&r->m, "channel", "%s", c->name);
		}
	}
	apps_update_session(s);
	return 0;
}

static int do_add_context(struct reply *r, const struct trax_msg *req)
{
	struct session *s = need_session(r, req);
	const char *name, *kv, *v;
	int types[CTF_CTX_COUNT], ntypes = 0;

	if (!s)
		return -1;
	for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
		int t;

		if (!(v = trax_kv_value(kv, "type")))
			continue;
		t = ctf_context_from_name(v);
		if (t < 0)
			return fail(r, "EINVAL",
				    "unknown context type %s (known: vpid, vtid, procname, "
				    "pthread_id, ip)",
				    v);
		for (int i = 0; i < ntypes; i++)
			if (types[i] == t)
				t = -1;
		if (t >= 0)
			types[ntypes++] = t;
	}
	if (!ntypes)
		return fail(r, "EINVAL", "no context type given");
	if (s->started_once)
		return fail(r, "EPERM", "contexts cannot be added: session %s has been started",
			    s->name);
	name = trax_msg_get(req, "channel");
	if (name && !channel_find(s, name))
		return fail(r, "ENOENT", "channel %s not found in session %s", name, s->name);
	if (!s->nchannels && !channel_add(r, s, "channel0"))
		return -1;
	for (unsigned int i = 0; i < s->nchannels; i++) {
		struct channel *c = &s->channels[i];

		if (name && strcmp(c->name, name))
			continue;
		for (int k = 0; k < ntypes; k++) {
			bool dup = false;

			for (unsigned int j = 0; j < c->ncontexts; j++)
				dup |= c->contexts[j] == types[k];
			if (dup)
				return fail(r, "EEXIST", "context %s is already in channel %s",
					    ctf_context_name(types[k]), c->name);
		}
	}
	for (unsigned int i = 0; i < s->nchannels; i++) {
		struct channel *c = &s->channels[i];

		if (name && strcmp(c->name, name))
			continue;
		for (int k = 0; k < ntypes; k++)
			c->contexts[c->ncontexts++] = (uint8_t)types[k];
	}
	return 0;
}

/* Starts of any session so far: each start asks every application for a state dump. */
static uint64_t start_count;

static int do_start(struct reply *r, const struct trax_msg *req)
{
	struct session *s = need_session(r, req);

	if (!s)
		return -1;
	if (s->active)
		return fail(r, "EALREADY", "tracing already started for session %s", s->name);
	if (kernel_session_start(r, s))
		return -1;
	s->started_once = true;
	s->active = true;
	s->start_seq = ++start_count;
	/* Active before the applications hear of it: their state dumps must be recorded. */
	trace_set_active(s, true);
	apps_update_session(s);
	trax_msg_add(&r->m, "record", "session");
	trax_msg_add(&r->m, "name", "%s", s->name);
	return 0;
}

/*
 * `trax regenerate statedump`: every application of the started session s
 * records its state dump again, as at a start (app.c, request_statedump()).
 */
static int do_regenerate_statedump(struct reply *r, const struct trax_msg *req)
{
	struct session *s = need_session(r, req);

	if (!s)
		return -1;
	if (!s->active)
		return fail(
		    r, "EINVAL",
		    "session %s is not started: the state dump is regenerated while tracing",
		    s->name);
	s->start_seq = ++start_count;
	apps_update_session(s);
	trax_msg_add(&r->m, "record", "session");
	trax_msg_add(&r->m, "name", "%s", s->name);
	return 0;
}

static int do_stop(struct reply *r, const struct trax_msg *req)
{
	struct session *s = need_session(r, req);

	if (!s)
		return -1;
	if (!s->active)
		return fail(r, "EALREADY", "tracing already stopped for session %s", s->name);
	session_stop(s);
	trax_msg_add(&r->m, "record", "session");
	trax_msg_add(&r->m, "name", "%s", s->name);
	trax_msg_add(&r->m, "output", "%s", s->output);
	return 0;
}

static int do_snapshot(struct reply *r, const struct trax_msg *req)
{
	struct session *s = need_session(r, req);
	const char *out = trax_msg_get(req, "output");
	char path[TRAXD_PATH_MAX];
	int err;

	if (!s)
		return -1;
	if (!s->snapshot)
		return fail(r, "EINVAL", "session %s was not created in snapshot mode", s->name);
	if (out && (out[0] != '/' || strlen(out) >= TRAXD_PATH_MAX - 512))
		return fail(r, "EINVAL", "output path must be absolute and shorter: %s", out);
	if (!out && !s->output[0])
		return fail(r, "EINVAL", "session %s has no output: give the snapshot one",
			    s->name);
	if (!s->started_once)
		return fail(r, "EINVAL", "session %s has not been started", s->name);
	err = trace_snapshot(s, out, path, sizeof(path));
	if (err)
		return fail(r, "EIO", "snapshot of session %s: %s", s->name, strerror(-err));
	if (kernel_session_snapshot(r, s, path))
		return -1;
	trax_msg_add(&r->m, "record", "snapshot");
	trax_msg_add(&r->m, "path", "%s", path);
	return 0;
}

static int do_track(struct reply *r, const struct trax_msg *req, bool track)
{
	struct session *s = need_session(r, req);
	const char *kind = trax_msg_get(req, "kind"), *kv, *v;
	struct tracker *t;
	uint64_t all = 0;

	if (!s || !get_u64(r, req, "all", &all, 0))
		return -1;
	if (!kind || (strcmp(kind, "vpid") && strcmp(kind, "vuid")))
		return fail(r, "EINVAL", "tracker kind must be vpid or vuid");
	t = !strcmp(kind, "vpid") ? &s->vpid : &s->vuid;
	if (all) {
		t->all = track;
		t->nvalues = 0;
		apps_update_session(s);
		return 0;
	}
	for (kv = trax_msg_first(req); kv; kv = trax_msg_next(req, kv)) {
		char *end;
		long long x;
		unsigned int i;

		if (!(v = trax_kv_value(kv, "value")))
			continue;
		x = strtoll(v, &end, 10);
		if (*end || end == v || x < 0 || x > INT32_MAX)
			return fail(r, "EINVAL", "invalid %s: %s", kind, v);
		for (i = 0; i < t->nvalues && t->values[i] != (int)x; i++)
			;
		if (track) {
			int *n;

			if (t->all) { /* from "everything" to this list */
				t->all = false;
				t->nvalues = 0;
				i = 0;
			}
			if (i < t->nvalues)
				continue;
			n = realloc(t->values, (t->nvalues + 1) * sizeof(*n));
			if (!n)
				return fail(r, "ENOMEM", "out of memory");
			t->values = n;
			t->values[t->nvalues++] = (int)x;
		} else {
			if (t->all)
				return fail(r, "EINVAL",
					    "every %s is tracked: untrack --all first, then track "
					    "the ones wanted",
					    kind);
			if (i == t->nvalues)
				return fail(r, "ENOENT", "%s %lld is not tracked", kind, x);
			t->values[i] = t->values[--t->nvalues];
		}
	}
	apps_update_session(s);
	return 0;
}

void traxd_client_request(int fd, struct trax_msg *req)
{
	struct reply r;

	reply_init(&r, req->seq);
	trax_msg_add(&r.m, "status", "0");
	if (req->type != TRAX_MSG_LIST && kernel_request(&r, NULL, req))
		goto send;
	switch (req->type) {
	case TRAX_MSG_CREATE:
		do_create(&r, req);
		break;
	case TRAX_MSG_DESTROY:
		do_destroy(&r, req);
		break;
	case TRAX_MSG_LIST:
		do_list(&r, req);
		break;
	case TRAX_MSG_STATUS: {
		struct session *s = need_session(&r, req);

		if (s)
			list_session_detail(&r, s);
		break;
	}
	case TRAX_MSG_ENABLE_CHANNEL:
		do_enable_channel(&r, req);
		break;
	case TRAX_MSG_DISABLE_CHANNEL:
		do_disable_channel(&r, req);
		break;
	case TRAX_MSG_ENABLE_EVENT:
		do_enable_event(&r, req);
		break;
	case TRAX_MSG_DISABLE_EVENT:
		do_disable_event(&r, req);
		break;
	case TRAX_MSG_ADD_CONTEXT:
		do_add_context(&r, req);
		break;
	case TRAX_MSG_START:
		do_start(&r, req);
		break;
	case TRAX_MSG_STOP:
		do_stop(&r, req);
		break;
	case TRAX_MSG_REGENERATE_STATEDUMP:
		do_regenerate_statedump(&r, req);
		break;
	case TRAX_MSG_SNAPSHOT_RECORD:
		do_snapshot(&r, req);
		break;
	case TRAX_MSG_TRACK:
		do_track(&r, req, true);
		break;
	case TRAX_MSG_UNTRACK:
		do_track(&r, req, false);
		break;
	default:
		fail(&r, "EOPNOTSUPP", "unknown request %u", req->type);
		break;
	}
send:
	r.m.seq = req->seq;
	trax_msg_send(fd, &r.m, NULL, 0);
	trax_msg_free(&r.m);
}
