/*
 * registry.c - who provides what, who calls what, and what is recorded.
 *
 * Three lists, all under one mutex (registration is rare, never on the fast
 * path): the events of registered providers, the tracepoints of registered
 * modules (call sites), and the enablers (channel + name patterns). A
 * tracepoint is connected to the event of the same name; its state turns on
 * while the event has at least one binding to a channel. Providers and
 * modules may register in any order.
 */
#include <dlfcn.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "ust/ust.h"

struct event_entry {
	struct event_entry *next;
	struct trax_provider_desc *provider;
	const struct trax_event_desc *desc;
	struct trax_event_state state; /* what connected tracepoints point to */
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
};

static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct event_entry *events;
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
static int event_loglevel(const struct trax_provider_desc *p, const struct trax_event_desc *d)
{
	const struct trax_loglevel_entry *l;

	for (l = p->loglevels; l && l->event; l++)
		if (!strcmp(l->event, d->name))
			return l->level;
	return TRACE_DEBUG_LINE;
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

/* Binds e to ch (once), giving it the channel's next event id. */
static int bind_event(struct event_entry *e, struct trax_channel *ch)
{
	struct trax_binding *b;

	for (b = e->state.bindings; b; b = b->next)
		if (b->channel == ch)
			return 0;
	if (ch->nr_events == ch->cap_events) {
		uint32_t cap = ch->cap_events ? ch->cap_events * 2 : 32;
		struct trax_channel_event *n = realloc(ch->events, cap * sizeof(*n));

		if (!n)
			return -1;
		ch->events = n;
		ch->cap_events = cap;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return -1;
	b->channel = ch;
	b->event_id = ch->nr_events;
	ch->events[ch->nr_events].desc = e->desc;
	ch->events[ch->nr_events].id = b->event_id;
	ch->events[ch->nr_events].loglevel = event_loglevel(e->provider, e->desc);
	ch->nr_events++;
	__atomic_fetch_add(&ch->metadata_generation, 1, __ATOMIC_RELEASE);
	/* Publish: the probe may walk the list at any time. */
	b->next = e->state.bindings;
	__atomic_store_n(&e->state.bindings, b, __ATOMIC_RELEASE);
	update_tracepoints(e);
	return 0;
}

static void apply_enablers(struct event_entry *e)
{
	struct enabler *en;

	for (en = enablers; en; en = en->next)
		if (patterns_match(en->patterns, e->desc->name) && bind_event(e, en->channel))
			trax_debug("out of memory enabling %s", e->desc->name);
}

TRAX_API_EXPORT int trax_provider_register(struct trax_provider_desc *p)
{
	unsigned int i;

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
	for (i = 0; i < p->nr_events; i++) {
		const struct trax_event_desc *d = p->events[i];
		struct event_entry *e;

		if (find_event(d->name)) {
			trax_debug("event %s is defined twice; the second definition is ignored",
				   d->name);
			continue;
		}
		e = calloc(1, sizeof(*e));
		if (!e)
			break;
		e->provider = p;
		e->desc = d;
		e->state.desc = d;
		e->next = events;
		events = e;
		apply_enablers(e);
		update_tracepoints(e);
	}
	trax_registry_unlock();
	trax_debug("provider %s registered (%u events)", p->name, p->nr_events);
	return 0;
}

TRAX_API_EXPORT void trax_provider_unregister(struct trax_provider_desc *p)
{
	struct event_entry **pe;

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
		/*
		 * The entry is unlinked but not freed: a thread may still be in
		 * the probe (the provider is being unloaded by dlclose, which
		 * lttng-ust(3) documents as unsafe while tracing).
		 */
		*pe = e->next;
	}
	trax_registry_unlock();
}

TRAX_API_EXPORT int trax_tracepoints_register(struct trax_tracepoint *const *start, size_t count)
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

TRAX_API_EXPORT void trax_tracepoints_unregister(struct trax_tracepoint *const *start)
{
	struct tp_module **pm;

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
	struct enabler *en = calloc(1, sizeof(*en));
	struct event_entry *e;

	if (!en)
		return -1;
	en->patterns = strdup(patterns);
	if (!en->patterns) {
		free(en);
		return -1;
	}
	en->channel = ch;
	trax_registry_lock();
	en->next = enablers;
	enablers = en;
	for (e = events; e; e = e->next)
		if (patterns_match(patterns, e->desc->name) && bind_event(e, ch))
			trax_debug("out of memory enabling %s", e->desc->name);
	trax_registry_unlock();
	return 0;
}

void trax_registry_disable_channel(struct trax_channel *ch)
{
	__atomic_store_n(&ch->active, 0, __ATOMIC_RELEASE);
}
