/*
 * app.c - registered applications: their registration (hello, event
 * descriptions), and the orders that give them channels and bind their
 * events (docs/daemon.md, "Application -> traxd" and back).
 *
 * Nothing an application says is trusted: its identity comes from
 * SO_PEERCRED, every description is checked (kinds, sizes, names) before
 * it can reach a metadata file, and an application that breaks the
 * protocol is dropped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/hex.h"
#include "common/glob.h"
#include "daemon/traxd.h"

/* An application that does not read its orders within this is dropped. */
#define APP_SEND_TIMEOUT_S 2
/*
 * An application that owes the daemon something (the rest of a message it
 * began, or its registration: APP_HELLO ... APP_READY, which libtrax-ust
 * sends at once on connecting) and sent nothing for this long is dropped.
 */
#define APP_IDLE_TIMEOUT_MS 5000
/*
 * A header comes whole from a peer that sends whole messages (it is the
 * start of the first piece the kernel makes of one): part of one and
 * nothing more for this long is a broken peer.
 */
#define APP_HEADER_TIMEOUT_MS 1000

void app_accept(int listen_fd)
{
	struct epoll_event ev = {.events = EPOLLIN};
	struct timeval tv = {APP_SEND_TIMEOUT_S, 0};
	struct app *a;
	int fd, pid, uid, gid;

	fd = traxd_accept(listen_fd);
	if (fd < 0)
		return;
	if (trax_sock_peer(fd, &pid, &uid, &gid) < 0 ||
	    (!traxd.is_root && (uid_t)uid != traxd.uid && uid != 0) ||
	    traxd.napps >= TRAXD_MAX_APPS) {
		close(fd);
		return;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		close(fd);
		return;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	a->fd = fd;
	a->pid = pid;
	a->uid = uid;
	a->gid = gid;
	a->next_handle = 1;
	a->next_seq = 1;
	trax_rx_init(&a->rx);
	a->last_rx_ms = trax_now_ms();
	snprintf(a->procname, sizeof(a->procname), "pid%d", pid);
	ev.data.ptr = a;
	if (epoll_ctl(traxd.epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		free(a);
		return;
	}
	a->next = traxd.apps;
	traxd.apps = a;
	traxd.napps++;
	traxd_log("application %d (uid %d) connected", pid, uid);
}

void app_drop(struct app *a, const char *why)
{
	struct app **pp;

	traxd_log("application %d dropped: %s", a->pid, why);
	epoll_ctl(traxd.epoll_fd, EPOLL_CTL_DEL, a->fd, NULL);
	close(a->fd);
	trax_rx_free(&a->rx);
	for (struct session *s = traxd.sessions; s; s = s->next)
		trace_app_gone(s, a);
	for (pp = &traxd.apps; *pp; pp = &(*pp)->next)
		if (*pp == a) {
			*pp = a->next;
			break;
		}
	traxd.napps--;
	for (uint32_t i = 0; i < a->nevents; i++)
		app_event_free(&a->events[i]);
	for (uint32_t i = 0; i < a->nchans; i++)
		free(a->chans[i].bound);
	free(a->events);
	free(a->chans);
	free(a);
}

static bool handle_events(struct app *a, const struct trax_msg *m)
{
	const char *kv = trax_msg_first(m);

	while (kv) {
		struct app_event e;

		if (!app_event_parse(m, &kv, a->nevents, &e)) {
			traxd_log("application %d: invalid description of its event %u", a->pid,
				  a->nevents);
			return false;
		}
		if (a->nevents == a->cap_events) {
			uint32_t cap = a->cap_events ? a->cap_events * 2 : 64;
			struct app_event *n = realloc(a->events, cap * sizeof(*n));

			if (!n) {
				app_event_free(&e);
				return false;
			}
			a->events = n;
			a->cap_events = cap;
		}
		/* (fields, enums and names are allocations of their own: nothing points into the
		 * array) */
		a->events[a->nevents++] = e;
		/* grow each channel's bound flags with the events */
		for (uint32_t c = 0; c < a->nchans; c++) {
			uint64_t *b = realloc(a->chans[c].bound, a->cap_events * sizeof(*b));

			if (!b)
				return false;
			memset(b + a->nevents - 1, 0,
			       (a->cap_events - (a->nevents - 1)) * sizeof(*b));
			a->chans[c].bound = b;
		}
	}
	return true;
}

static void sanitize_name(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; src && *src && i + 1 < len; src++)
		dst[i++] = (*src >= 0x20 && *src < 0x7f && *src != '/') ? *src : '_';
	dst[i] = 0;
}

static int send_order(struct app *a, struct trax_msg *m, const int *fds, unsigned int nfds)
{
	int err;

	m->seq = a->next_seq++;
	err = trax_msg_send(a->fd, m, fds, nfds);
	trax_msg_free(m);
	return err;
}

/*
 * Reads what has come (never waiting: the rest of a message may come
 * later) and carries out the message once it is whole. One message per
 * call: the next stays in the socket, and epoll says so again.
 */
void app_readable(struct app *a)
{
	size_t before = trax_rx_bytes(&a->rx);
	struct trax_msg m;
	int err = trax_rx_recv(a->fd, &a->rx, &m);
	uint64_t v;

	if (err == -EAGAIN) {
		if (trax_rx_bytes(&a->rx) != before)
			a->last_rx_ms = trax_now_ms();
		return;
	}
	if (err) {
		app_drop(a, err == -ECONNRESET ? "exited" : "protocol error");
		return;
	}
	a->last_rx_ms = trax_now_ms();
	switch (m.type) {
	case TRAX_MSG_APP_HELLO:
		sanitize_name(a->procname, sizeof(a->procname), trax_msg_get(&m, "procname"));
		if (!a->procname[0])
			snprintf(a->procname, sizeof(a->procname), "pid%d", a->pid);
		a->ppid = trax_msg_get_u64(&m, "ppid", &v) && v < (1u << 30) ? (int)v : 0;
		a->bits = trax_msg_get_u64(&m, "bits", &v) && v == 32 ? 32 : 64;
		break;
	case TRAX_MSG_APP_EVENTS:
		if (!handle_events(a, &m)) {
			trax_msg_free(&m);
			app_drop(a, "invalid event description");
			return;
		}
		if (a->ready) {
			struct trax_msg r;

			app_configure(a);
			/*
			 * A provider loaded after start-up waits for this before its
			 * events can fire: its matching events are bound by now.
			 */
			trax_msg_init(&r, TRAX_MSG_APP_REGISTERED);
			trax_msg_add_u64(&r, "events", a->nevents);
			if (send_order(a, &r, NULL, 0) < 0) {
				trax_msg_free(&m);
				app_drop(a, "does not take orders");
				return;
			}
		}
		break;
	case TRAX_MSG_APP_READY:
		a->ready = true;
		app_configure(a);
		break;
	case TRAX_MSG_APP_ACK:
		break;
	default:
		break; /* a newer library's message */
	}
	trax_msg_free(&m);
}

void apps_tick(int64_t now)
{
	struct app *a, *next;

	for (a = traxd.apps; a; a = next) {
		bool in_header = a->rx.hdr_got > 0 && a->rx.hdr_got < TRAX_MSG_HEADER_SIZE;
		char c;
		ssize_t n;

		next = a->next;
		if ((a->ready && trax_rx_bytes(&a->rx) == 0) ||
		    now - a->last_rx_ms < (in_header ? APP_HEADER_TIMEOUT_MS : APP_IDLE_TIMEOUT_MS))
			continue;
		/* bytes it sent while the daemon was busy elsewhere count: read next time */
		n = recv(a->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
		if (n > 0) {
			a->last_rx_ms = now;
			continue;
		}
		app_drop(a, n == 0		    ? "exited"
			    : trax_rx_bytes(&a->rx) ? "sent part of a message, then nothing"
						    : "did not register in time");
	}
}

/* ---- orders ---- */

bool rule_matches(const struct event_rule *r, const char *name, int loglevel)
{
	if (!r->enabled || trax_glob_match(r->pattern, name) == false)
		return false;
	for (unsigned int i = 0; i < r->nexcludes; i++)
		if (trax_glob_match(r->excludes[i], name))
			return false;
	if (r->loglevel >= 0) {
		/* LTTng: levels are more severe when lower; unset counts as TRACE_DEBUG_LINE */
		int l = loglevel < 0 ? 13 : loglevel;

		if (r->loglevel_only ? l != r->loglevel : l > r->loglevel)
			return false;
	}
	return true;
}

bool tracker_allows(const struct tracker *t, int value)
{
	if (t->all)
		return true;
	for (unsigned int i = 0; i < t->nvalues; i++)
		if (t->values[i] == value)
			return true;
	return false;
}

static struct app_channel *app_channel_of(struct app *a, const struct dchan *dc)
{
	for (uint32_t i = 0; i < a->nchans; i++)
		if (a->chans[i].chan == dc)
			return &a->chans[i];
	return NULL;
}

static const char *context_list(const struct channel *c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned int i = 0; i < c->ncontexts; i++)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? "," : "",
				      ctf_context_name(c->contexts[i]));
	return buf;
}

/* Gives a the channel's buffers if it does not have them yet. */
static struct app_channel *give_channel(struct app *a, struct dchan *dc)
{
	struct app_channel *ac = app_channel_of(a, dc), *n;
	char hex[33], ctx[128];
	struct trax_msg m;

	if (ac)
		return ac;
	n = realloc(a->chans, (a->nchans + 1) * sizeof(*n));
	if (!n)
		return NULL;
	a->chans = n;
	ac = &a->chans[a->nchans];
	memset(ac, 0, sizeof(*ac));
	ac->bound = calloc(a->cap_events ? a->cap_events : 1, sizeof(*ac->bound));
	if (!ac->bound)
		return NULL;
	ac->chan = dc;
	ac->handle = a->next_handle++;
	a->nchans++;
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", dc->trace->uuid[i]);
	trax_msg_init(&m, TRAX_MSG_APP_CHANNEL);
	trax_msg_add_u64(&m, "handle", ac->handle);
	trax_msg_add(&m, "name", "%s", dc->chan->name);
	trax_msg_add_u64(&m, "stream_id", dc->stream_id);
	trax_msg_add(&m, "uuid", "%s", hex);
	trax_msg_add_u64(&m, "subbuf_size", dc->cfg.subbuf_size);
	trax_msg_add_u64(&m, "num_subbuf", dc->cfg.num_subbuf);
	trax_msg_add_u64(&m, "nr_cpus", dc->nr_cpus);
	trax_msg_add_u64(&m, "overwrite", dc->cfg.mode == RINGBUF_OVERWRITE);
	trax_msg_add(&m, "blocking_timeout", "%lld", (long long)dc->chan->attr.blocking_timeout_us);
	trax_msg_add(&m, "contexts", "%s", context_list(dc->chan, ctx, sizeof(ctx)));
	trax_msg_add_u64(&m, "size", dc->shm.size);
	if (send_order(a, &m, &dc->shm.fd, 1) < 0)
		return NULL;
	return ac;
}

/*
 * How event e is to be bound in channel c: 0 not at all, BIND_UNFILTERED
 * without a filter (some rule that matches it has none), else a hash of
 * the filters of the rules that match it, in rule order: when it changes,
 * the application gets the new filters (an event passes one of them).
 */
#define BIND_UNFILTERED 1u

static uint64_t bind_sig(const struct channel *c, const struct app_event *e)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	bool any = false;

	for (unsigned int r = 0; c->enabled && r < c->nrules; r++) {
		const struct event_rule *rule = &c->rules[r];

		if (!rule_matches(rule, e->name, e->loglevel))
			continue;
		if (!rule->filter)
			return BIND_UNFILTERED;
		any = true;
		for (size_t k = 0; k < rule->filter_len; k++)
			h = (h ^ rule->filter[k]) * 0x100000001b3ull;
		h = (h ^ 0xff) * 0x100000001b3ull; /* between two filters */
	}
	return any ? h | 2 : 0; /* never 0 nor BIND_UNFILTERED */
}

/* The filter=INDEX:HEX entries of event i (index in the app's list) for bind. */
static int add_filters(struct trax_msg *bind, const struct channel *c, const struct app_event *e,
		       uint32_t i)
{
	for (unsigned int r = 0; r < c->nrules; r++) {
		const struct event_rule *rule = &c->rules[r];
		char *hex;

		if (!rule->filter || !rule_matches(rule, e->name, e->loglevel))
			continue;
		hex = malloc(2 * rule->filter_len + 1);
		if (!hex)
			return -ENOMEM;
		trax_hex_encode(rule->filter, rule->filter_len, hex);
		trax_msg_add(bind, "filter", "%u:%s", i, hex);
		free(hex);
	}
	return 0;
}

/* Binds and unbinds a's events in channel c of session s as the rules say. */
static int update_channel(struct app *a, struct session *s, struct channel *c)
{
	struct trax_msg bind, unbind;
	struct app_channel *ac;
	struct dchan *dc;
	unsigned int nb = 0, nu = 0;
	int err = 0;

	dc = trace_channel_get(s, c, a);
	if (!dc)
		return -ENOMEM;
	ac = give_channel(a, dc);
	if (!ac)
		return -EIO;
	trax_msg_init(&bind, TRAX_MSG_APP_BIND);
	trax_msg_init(&unbind, TRAX_MSG_APP_UNBIND);
	trax_msg_add_u64(&bind, "handle", ac->handle);
	trax_msg_add_u64(&unbind, "handle", ac->handle);
	for (uint32_t i = 0; i < a->nevents; i++) {
		const struct app_event *e = &a->events[i];
		uint64_t sig = bind_sig(c, e);
		uint32_t id;

		if (sig == ac->bound[i])
			continue;
		if (sig) {
			if (trace_event_id(dc, e, &id) < 0)
				continue;
			trax_msg_add(&bind, "event", "%u:%u", i, id);
			if (sig != BIND_UNFILTERED && add_filters(&bind, c, e, i) < 0) {
				trax_msg_free(&bind);
				trax_msg_free(&unbind);
				return -ENOMEM;
			}
			nb++;
		} else {
			trax_msg_add(&unbind, "event", "%u", i);
			nu++;
		}
		ac->bound[i] = sig;
	}
	if (nb)
		err = send_order(a, &bind, NULL, 0);
	else
		trax_msg_free(&bind);
	if (nu && !err)
		err = send_order(a, &unbind, NULL, 0);
	else
		trax_msg_free(&unbind);
	return err;
}

/* Whether a records, in channel ac, an event of the state dump or of its lttng_ust_lib look. */
static bool records_statedump(const struct app *a, const struct app_channel *ac)
{
	static const char sd[] = "lttng_ust_statedump:", lib[] = "lttng_ust_lib:";

	for (uint32_t i = 0; i < a->nevents; i++)
		if (ac->bound[i] && (!strncmp(a->events[i].name, sd, sizeof(sd) - 1) ||
				     !strncmp(a->events[i].name, lib, sizeof(lib) - 1)))
			return true;
	return false;
}

/*
 * As LTTng-UST does, an application records its state dump into a session
 * each time the session starts while it is registered, and when it
 * registers (or is tracked) while the session is started: once per start
 * of s, into the channels of s that record some of its events (the others
 * are spared the work). The order comes after the bindings, in the
 * application's order queue, and before its APP_REGISTERED at
 * registration. -EPIPE when a does not take orders.
 */
static int request_statedump(struct app *a, struct session *s)
{
	struct trax_msg m;
	unsigned int n = 0;
	bool mine = false;

	for (uint32_t i = 0; i < a->nchans; i++) {
		struct app_channel *ac = &a->chans[i];

		if (!ac->chan || ac->chan->trace->session != s)
			continue;
		if (ac->statedump_start == s->start_seq)
			return 0; /* asked for this start already */
		mine = true;
	}
	if (!mine)
		return 0;
	trax_msg_init(&m, TRAX_MSG_APP_STATEDUMP);
	for (uint32_t i = 0; i < a->nchans; i++) {
		struct app_channel *ac = &a->chans[i];

		if (!ac->chan || ac->chan->trace->session != s)
			continue;
		ac->statedump_start = s->start_seq;
		if (records_statedump(a, ac)) {
			trax_msg_add_u64(&m, "handle", ac->handle);
			n++;
		}
	}
	if (!n) {
		trax_msg_free(&m);
		return 0;
	}
	return send_order(a, &m, NULL, 0);
}

/* Channels of s for a; false when a must be dropped (it does not take orders). */
static bool configure_session(struct app *a, struct session *s)
{
	if (!s->started_once || !tracker_allows(&s->vpid, a->pid) ||
	    !tracker_allows(&s->vuid, a->uid))
		return true;
	for (unsigned int i = 0; i < s->nchannels; i++)
		if (update_channel(a, s, &s->channels[i]) == -EPIPE)
			return false;
	return !s->active || request_statedump(a, s) != -EPIPE;
}

void app_configure(struct app *a)
{
	struct trax_msg m;

	if (!a->ready)
		return;
	for (struct session *s = traxd.sessions; s; s = s->next)
		if (!configure_session(a, s)) {
			app_drop(a, "does not take orders");
			return;
		}
	if (!a->registered) {
		a->registered = true;
		trax_msg_init(&m, TRAX_MSG_APP_REGISTERED);
		trax_msg_add_u64(&m, "events", a->nevents);
		if (send_order(a, &m, NULL, 0) < 0)
			app_drop(a, "gone before registration ended");
	}
}

void apps_update_session(struct session *s)
{
	struct app *a = traxd.apps, *next;

	for (; a; a = next) {
		next = a->next;
		if (!a->ready)
			continue;
		if (!tracker_allows(&s->vpid, a->pid) || !tracker_allows(&s->vuid, a->uid)) {
			/* untracked now: unbind whatever it had of this session */
			for (uint32_t i = 0; i < a->nchans; i++) {
				struct trax_msg m;

				if (!a->chans[i].chan || a->chans[i].chan->trace->session != s)
					continue;
				trax_msg_init(&m, TRAX_MSG_APP_UNBIND);
				trax_msg_add_u64(&m, "handle", a->chans[i].handle);
				trax_msg_add(&m, "all", "1");
				memset(a->chans[i].bound, 0,
				       (a->cap_events ? a->cap_events : 1) *
					   sizeof(*a->chans[i].bound));
				send_order(a, &m, NULL, 0);
			}
			continue;
		}
		if (!configure_session(a, s))
			app_drop(a, "does not take orders");
	}
}

void apps_forget_session(struct session *s)
{
	for (struct app *a = traxd.apps; a; a = a->next) {
		uint32_t k = 0;

		for (uint32_t i = 0; i < a->nchans; i++) {
			struct trax_msg m;

			if (a->chans[i].chan && a->chans[i].chan->trace->session == s) {
				trax_msg_init(&m, TRAX_MSG_APP_CHANNEL_DEL);
				trax_msg_add_u64(&m, "handle", a->chans[i].handle);
				send_order(a, &m, NULL, 0);
				free(a->chans[i].bound);
				continue;
			}
			a->chans[k++] = a->chans[i];
		}
		a->nchans = k;
	}
}
