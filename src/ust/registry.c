/*
 * registry.c - who provides what, who calls what, and what is recorded.
 *
 * Three lists, all under one mutex (registration is rare, never on the fast
 * path): the events of registered providers, the tracepoints of registered
 * modules (call sites), and the enablers (channel + name patterns). A
 * tracepoint is connected to the event of the same name; its state turns on
 * while the event has at least one binding to a channel. Providers and
 * modules may register in any order.
 *
 * Bindings are what the probes walk, without a lock, while they change:
 * each event's list has one writer (under the mutex), which publishes a new
 * head, or a new `next` of a binding still in the list, with one release
 * store. A binding taken out of the list is never freed and keeps its
 * `next`, so a probe standing on it walks on into the list; it is reused
 * only when the same event is bound again to the same channel with the same
 * id (all a probe reads of it but `next` is then what it was). The daemon
 * numbers the events by index (registration order, never reused) and binds
 * them with its own ids; the embedded mode binds by name patterns.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/log.h"
#include "ust/ust.h"

/* A binding and what only the registry knows of it. */
struct binding_node {
	struct trax_binding b;		    /* what the probes see: first */
	struct binding_node *unlinked_next; /* in the event's list of unlinked bindings */
};

struct event_entry {
	struct event_entry *next;
	struct trax_provider_desc *provider;
	const struct trax_event_desc *desc;
	const struct ctfw_event_class *cls;   /* desc as the metadata writer takes it */
	struct trax_event_state state;	      /* what connected tracepoints point to */
	int unregistered;		      /* its provider is gone: nothing binds it again */
	struct binding_node *unlinked;	      /* bindings out of the list, kept for reuse */
	struct trax_filters *retired_filters; /* replaced on a binding, never freed */
};

struct tp_module {
	struct tp_module *next;
	struct trax_tracepoint *const *start;
	size_t count;
};

struct enabler {
	struct enabler *next;
	struct trax_channel *channel;
	char *patterns;
	struct trax_bytecode filter; /* code NULL: none */
};

static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;
/* tracepoint_disable_destructors(): nothing is unregistered any more. */
static int keep_at_exit;
static struct event_entry *events;
/* Every event ever registered, by index (entries are never freed). */
static struct event_entry **by_index;
static uint32_t nr_indexed, cap_indexed;
static struct tp_module *modules;
static struct enabler *enablers;

void trax_registry_lock(void)
{
	pthread_mutex_lock(&registry_mutex);
}

void trax_registry_unlock(void)
{
	pthread_mutex_unlock(&registry_mutex);
}

static struct event_entry *find_event(const char *name)
{
	struct event_entry *e;

	for (e = events; e; e = e->next)
		if (!strcmp(e->desc->name, name))
			return e;
	return NULL;
}

/*
 * Keeps the shared object holding a provider loaded for good: channels,
 * the metadata writer and the probes of running threads keep pointers to its
 * descriptions and code, so a dlclose() must not unmap it (lttng-ust(3)
 * calls dlclose of a provider unsafe; here it is merely a no-op).
 */
static void pin_module(const struct trax_provider_desc *p)
{
	Dl_info info;

	if (dladdr(p, &info) && info.dli_fname && info.dli_fname[0])
		dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

static int provider_known(const struct trax_provider_desc *p)
{
	struct event_entry *e;

	for (e = events; e; e = e->next)
		if (e->provider == p)
			return 1;
	return 0;
}

/* The level TRACEPOINT_LOGLEVEL gave the event, else TRACE_DEBUG_LINE. */
static int event_loglevel(const struct trax_event_desc *d)
{
	return d->loglevel >= 0 ? d->loglevel : TRACE_DEBUG_LINE;
}

/* Points a call site at its event, or disconnects it (e NULL). */
static void tracepoint_connect(struct trax_tracepoint *tp, struct event_entry *e)
{
	if (!e) {
		__atomic_store_n(&tp->state, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&tp->probe, NULL, __ATOMIC_RELEASE);
		return;
	}
	if (tp->signature && e->desc->signature && strcmp(tp->signature, e->desc->signature)) {
		trax_debug("tracepoint %s: call site arguments (%s) differ from the provider's "
			   "(%s); not connected",
			   tp->name, tp->signature, e->desc->signature);
		return;
	}
	__atomic_store_n(&tp->data, &e->state, __ATOMIC_RELEASE);
	__atomic_store_n(&tp->probe, (void *)e->desc->probe, __ATOMIC_RELEASE);
	__atomic_store_n(&tp->state, __atomic_load_n(&e->state.bindings, __ATOMIC_RELAXED) != NULL,
			 __ATOMIC_RELEASE);
}

/* Applies a change of e's bindings to every call site of e. */
static void update_tracepoints(struct event_entry *e)
{
	struct tp_module *m;
	size_t i;

	TRAX_ASSERT_LOCKED(&registry_mutex);
	for (m = modules; m; m = m->next)
		for (i = 0; i < m->count; i++) {
			struct trax_tracepoint *tp = m->start[i];

			if (tp && tp->name && !strcmp(tp->name, e->desc->name))
				tracepoint_connect(tp, e);
		}
}

static int patterns_match(const char *patterns, const char *name)
{
	const char *p = patterns;

	while (*p) {
		char one[256];
		size_t n = strcspn(p, ",");

		if (n && n < sizeof(one)) {
			memcpy(one, p, n);
			one[n] = 0;
			if (!fnmatch(one, name, 0))
				return 1;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The binding of e in ch, or NULL. */
static struct binding_node *find_binding(struct event_entry *e, const struct trax_channel *ch,
					 struct binding_node **prev)
{
	struct binding_node *p = NULL, *n;

	for (n = (struct binding_node *)e->state.bindings; n;
	     p = n, n = (struct binding_node *)n->b.next)
		if (n->b.channel == ch) {
			if (prev)
				*prev = p;
			return n;
		}
	return NULL;
}

/*
 * Gives n its filters (NULL: none). The probes test the flag, then read
 * the filters: the filters are in place before the flag goes up, and a
 * probe that still sees the flag after they are gone records.
 */
static void set_filters(struct event_entry *e, struct binding_node *n, struct trax_filters *f)
{
	struct trax_filters *old = (struct trax_filters *)n->b.filters;

	TRAX_ASSERT_LOCKED(&registry_mutex);
	/* a probe may still be reading the filters replaced: kept, as bindings are */
	if (old) {
		old->retired_next = e->retired_filters;
		e->retired_filters = old;
	}
	if (f) {
		__atomic_store_n(&n->b.filters, f, __ATOMIC_RELEASE);
		__atomic_fetch_or(&n->b.flags, TRAX_BINDING_FILTERED, __ATOMIC_RELEASE);
	} else {
		__atomic_fetch_and(&n->b.flags, ~TRAX_BINDING_FILTERED, __ATOMIC_RELEASE);
		__atomic_store_n(&n->b.filters, NULL, __ATOMIC_RELEASE);
	}
}

/* Puts a binding of e to ch with id and filters f at the head of e's list. */
static int link_binding(struct event_entry *e, struct trax_channel *ch, uint32_t id,
			struct trax_filters *f)
{
	struct binding_node *n, **pu;

	TRAX_ASSERT_LOCKED(&registry_mutex); /* the lists change under it */
	for (pu = &e->unlinked; *pu; pu = &(*pu)->unlinked_next)
		if ((*pu)->b.channel == ch && (*pu)->b.event_id == id)
			break;
	if (*pu) {
		n = *pu;
		*pu = n->unlinked_next;
		n->unlinked_next = NULL;
	} else {
		n = calloc(1, sizeof(*n));
		if (!n)
			return -ENOMEM;
		n->b.channel = ch;
		n->b.event_id = id;
	}
	set_filters(e, n, f);
	/* Publish: the probe may walk the list at any time. */
	__atomic_store_n(&n->b.next, e->state.bindings, __ATOMIC_RELAXED);
	__atomic_store_n(&e->state.bindings, &n->b, __ATOMIC_RELEASE);
	if (!e->unregistered)
		update_tracepoints(e);
	return 0;
}

/* Takes n (after prev, NULL: the head) out of e's list; n keeps its next. */
static void unlink_binding(struct event_entry *e, struct binding_node *n, struct binding_node *prev)
{
	struct trax_binding *after = __atomic_load_n(&n->b.next, __ATOMIC_RELAXED);

	TRAX_ASSERT_LOCKED(&registry_mutex);
	if (prev)
		__atomic_store_n(&prev->b.next, after, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&e->state.bindings, after, __ATOMIC_RELEASE);
	n->unlinked_next = e->unlinked;
	e->unlinked = n;
	/* The call sites of a provider that is gone belong to no entry any more. */
	if (!e->unregistered)
		update_tracepoints(e);
}

/*
 * Binds e to ch (once), giving it the channel's next event id and the
 * filter (NULL: none) of the first enabler that matches it (embedded mode).
 */
static int bind_event(struct event_entry *e, struct trax_channel *ch,
		      const struct trax_bytecode *filter)
{
	struct trax_filters *f = NULL;

	if (find_binding(e, ch, NULL))
		return 0;
	if (filter && trax_filters_link(e->desc, filter, 1, &f))
		return -1;
	if (ch->nr_events == ch->cap_events) {
		uint32_t cap = ch->cap_events ? ch->cap_events * 2 : 32;
		struct trax_channel_event *n = realloc(ch->events, cap * sizeof(*n));

		if (!n)
			return -1;
		ch->events = n;
		ch->cap_events = cap;
	}
	ch->events[ch->nr_events].cls = e->cls;
	ch->events[ch->nr_events].id = ch->nr_events;
	/* The metadata describes the event before a record of it can exist. */
	ch->nr_events++;
	__atomic_fetch_add(&ch->metadata_generation, 1, __ATOMIC_RELEASE);
	if (link_binding(e, ch, ch->nr_events - 1, f)) {
		ch->nr_events--;
		return -1;
	}
	return 0;
}

static void apply_enablers(struct event_entry *e)
{
	struct enabler *en;

	for (en = enablers; en; en = en->next)
		if (patterns_match(en->patterns, e->desc->name) &&
		    bind_event(e, en->channel, en->filter.code ? &en->filter : NULL))
			trax_debug("out of memory enabling %s", e->desc->name);
}

TRAX_EXPORT int trax_provider_register(struct trax_provider_desc *p)
{
	uint32_t indexed_before, added;
	const struct trax_event_desc *d;

	trax_ust_ensure_init();
	if (p)
		pin_module(p);
	if (!p || p->abi != TRAX_PROBE_ABI) {
		trax_debug("provider %s: probe ABI %u, library expects %u; ignored",
			   p && p->name ? p->name : "?", p ? p->abi : 0, TRAX_PROBE_ABI);
		return -1;
	}
	trax_registry_lock();
	if (provider_known(p)) {
		/* Already registered (the library registers its own early). */
		trax_registry_unlock();
		return 0;
	}
	/* Generated providers list their events on the first registration. */
	if (!p->events && p->link)
		p->link(p);
	indexed_before = nr_indexed;
	for (d = p->events; d; d = d->next) {
		struct event_entry *e;

		if (find_event(d->name)) {
			trax_debug("event %s is defined twice; the second definition is ignored",
				   d->name);
			continue;
		}
		e = calloc(1, sizeof(*e));
		if (e)
			e->cls = trax_event_class_new(d, event_loglevel(d));
		if (!e || !e->cls) {
			free(e);
			break;
		}
		if (nr_indexed == cap_indexed) {
			uint32_t cap = cap_indexed ? cap_indexed * 2 : 64;
			struct event_entry **t = realloc(by_index, cap * sizeof(*t));

			if (!t) {
				free((void *)e->cls);
				free(e);
				break;
			}
			by_index = t;
			cap_indexed = cap;
		}
		e->provider = p;
		e->desc = d;
		e->state.desc = d;
		by_index[nr_indexed++] = e;
		e->next = events;
		events = e;
		apply_enablers(e);
		update_tracepoints(e);
	}
	added = nr_indexed - indexed_before;
	trax_registry_unlock();
	trax_debug("provider %s registered (%u events)", p->name, p->nr_events);
	/* Outside the lock: the daemons' threads read the registry to describe them. */
	if (added)
		trax_daemon_client_events_added();
	return 0;
}

TRAX_EXPORT void trax_disable_destructors(void)
{
	__atomic_store_n(&keep_at_exit, 1, __ATOMIC_RELAXED);
}

TRAX_EXPORT void trax_provider_unregister(struct trax_provider_desc *p)
{
	struct event_entry **pe;

	if (__atomic_load_n(&keep_at_exit, __ATOMIC_RELAXED))
		return;
	trax_registry_lock();
	for (pe = &events; *pe;) {
		struct event_entry *e = *pe;
		struct tp_module *m;
		size_t i;

		if (e->provider != p) {
			pe = &e->next;
			continue;
		}
		for (m = modules; m; m = m->next)
			for (i = 0; i < m->count; i++)
				if (m->start[i] && m->start[i]->data == &e->state)
					tracepoint_connect(m->start[i], NULL);
		e->unregistered = 1;
		/*
		 * The entry is unlinked but not freed: a thread may still be in
		 * the probe (the provider is being unloaded by dlclose, which
		 * lttng-ust(3) documents as unsafe while tracing).
		 */
		*pe = e->next;
	}
	trax_registry_unlock();
}

TRAX_EXPORT int trax_tracepoints_register(struct trax_tracepoint *const *start, size_t count)
{
	struct tp_module *m;
	size_t i;

	trax_ust_ensure_init();
	m = calloc(1, sizeof(*m));
	if (!m)
		return -1;
	m->start = start;
	m->count = count;
	trax_registry_lock();
	m->next = modules;
	modules = m;
	for (i = 0; i < count; i++) {
		struct trax_tracepoint *tp = start[i];
		struct event_entry *e;

		if (!tp || !tp->name)
			continue;
		e = find_event(tp->name);
		if (e)
			tracepoint_connect(tp, e);
	}
	trax_registry_unlock();
	return 0;
}

TRAX_EXPORT void trax_tracepoints_unregister(struct trax_tracepoint *const *start)
{
	struct tp_module **pm;

	if (__atomic_load_n(&keep_at_exit, __ATOMIC_RELAXED))
		return;
	trax_registry_lock();
	for (pm = &modules; *pm; pm = &(*pm)->next) {
		if ((*pm)->start == start) {
			struct tp_module *m = *pm;

			*pm = m->next;
			free(m);
			break;
		}
	}
	trax_registry_unlock();
}

int trax_registry_enable(struct trax_channel *ch, const char *patterns)
{
	return trax_registry_enable_filtered(ch, patterns, NULL);
}

int trax_registry_enable_filtered(struct trax_channel *ch, const char *patterns,
				  const struct trax_bytecode *filter)
{
	struct enabler *en = calloc(1, sizeof(*en));
	struct event_entry *e;
	uint8_t *code = NULL;

	if (!en)
		return -1;
	en->patterns = strdup(patterns);
	if (filter && (code = malloc(filter->len)))
		memcpy(code, filter->code, filter->len);
	if (!en->patterns || (filter && !code)) {
		free(en->patterns);
		free(code);
		free(en);
		return -1;
	}
	en->filter.code = code;
	en->filter.len = filter ? filter->len : 0;
	en->channel = ch;
	trax_registry_lock();
	en->next = enablers;
	enablers = en;
	for (e = events; e; e = e->next)
		if (patterns_match(patterns, e->desc->name) &&
		    bind_event(e, ch, filter ? &en->filter : NULL))
			trax_debug("out of memory enabling %s", e->desc->name);
	trax_registry_unlock();
	return 0;
}

uint32_t trax_registry_nr_indexed(void)
{
	uint32_t n;

	trax_registry_lock();
	n = nr_indexed;
	trax_registry_unlock();
	return n;
}

int trax_registry_event_info(uint32_t index, const struct trax_event_desc **desc, int *loglevel)
{
	int err = -ENOENT;

	trax_registry_lock();
	if (index < nr_indexed) {
		*desc = by_index[index]->desc;
		*loglevel = event_loglevel(by_index[index]->desc);
		err = 0;
	}
	trax_registry_unlock();
	return err;
}

int trax_registry_bind_index(uint32_t index, struct trax_channel *ch, uint32_t id)
{
	return trax_registry_bind_index_filtered(index, ch, id, NULL, 0);
}

int trax_registry_bind_index_filtered(uint32_t index, struct trax_channel *ch, uint32_t id,
				      const struct trax_bytecode *filters, unsigned int nr_filters)
{
	struct binding_node *n, *prev;
	struct trax_filters *f = NULL;
	struct event_entry *e;
	int err = 0;

	trax_registry_lock();
	if (index >= nr_indexed || by_index[index]->unregistered) {
		trax_registry_unlock();
		return -ENOENT;
	}
	e = by_index[index];
	if (nr_filters && (err = trax_filters_link(e->desc, filters, nr_filters, &f))) {
		trax_registry_unlock();
		return err;
	}
	n = find_binding(e, ch, &prev);
	if (n && n->b.event_id != id) {
		/* Renumbered: the old id must not be used again. */
		unlink_binding(e, n, prev);
		n = NULL;
	}
	if (!n)
		err = link_binding(e, ch, id, f);
	else
		set_filters(e, n, f);
	trax_registry_unlock();
	return err;
}

TRAX_EXPORT int trax_event_filter(const struct trax_binding *b, const struct trax_filter_arg *args,
				  const void *ip)
{
	/* b may be a copy (the state dump's): the filters travel in it */
	const struct trax_filters *f = __atomic_load_n(&b->filters, __ATOMIC_ACQUIRE);

	return !f || trax_filters_pass(f, args, ip);
}

int trax_registry_unbind_index(uint32_t index, struct trax_channel *ch)
{
	struct binding_node *n, *prev;

	trax_registry_lock();
	if (index >= nr_indexed) {
		trax_registry_unlock();
		return -ENOENT;
	}
	n = find_binding(by_index[index], ch, &prev);
	if (n)
		unlink_binding(by_index[index], n, prev);
	trax_registry_unlock();
	return 0;
}

void trax_registry_unbind_channel(struct trax_channel *ch)
{
	uint32_t i;

	trax_registry_lock();
	for (i = 0; i < nr_indexed; i++) {
		struct binding_node *n, *prev;

		n = find_binding(by_index[i], ch, &prev);
		if (n)
			unlink_binding(by_index[i], n, prev);
	}
	trax_registry_unlock();
}
