/*
 * statedump.c - the LTTng-UST state dump (lttng-ust(3), "LTTng-UST state
 * dump"): lttng_ust_statedump:start, the process's name (procname), one
 * lttng_ust_statedump:bin_info event per loaded object followed by its
 * build_id and debug_link events when it has them, then :end. With the ip
 * and vpid contexts, Babeltrace 2's flt.lttng-utils.debug-info resolves the
 * addresses of events to functions and source lines with them.
 *
 * When it runs: with a session daemon, when the daemon says so (a session
 * starts, or the process joins a started one), on the thread that talks to
 * that daemon, and only into that session's channels; without one
 * (TRAX_OUTPUT), once when tracing starts.
 *
 * TRAX_WITHOUT_BADDR_STATEDUMP (or LTTNG_UST_WITHOUT_BADDR_STATEDUMP) leaves
 * the objects out, TRAX_WITHOUT_PROCNAME_STATEDUMP (or LTTNG_UST_...) the
 * name; with both there is no state dump at all (LTTng-UST 2.13 would still
 * record an empty start/end pair, and ignores the second variable).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "common/env.h"
#include "common/log.h"
#include "ust/call-site.h"
#include "ust/objects.h"
#include "ust/ust.h"

/*
 * The provider is part of the library. Its generated constructor registers
 * it, but only after init.c's priority constructor has enabled the events
 * and run the state dump: trax_statedump_register() registers it earlier
 * (registering a provider twice is harmless).
 */
#include "trax/probe.h"
#define TRACEPOINT_CREATE_PROBES
#include "ust/statedump-provider.h"

/* The call sites of the state dump, registered like any module's. */
enum { EV_START, EV_PROCNAME, EV_BIN_INFO, EV_BUILD_ID, EV_DEBUG_LINK, EV_END, NR_EVENTS };
static struct trax_tracepoint statedump_tp[NR_EVENTS] = {
    [EV_START] = {"lttng_ust_statedump:start", 0, 0, 0, 0},
    [EV_PROCNAME] = {"lttng_ust_statedump:procname", 0, 0, 0, 0},
    [EV_BIN_INFO] = {"lttng_ust_statedump:bin_info", 0, 0, 0, 0},
    [EV_BUILD_ID] = {"lttng_ust_statedump:build_id", 0, 0, 0, 0},
    [EV_DEBUG_LINK] = {"lttng_ust_statedump:debug_link", 0, 0, 0, 0},
    [EV_END] = {"lttng_ust_statedump:end", 0, 0, 0, 0},
};
static struct trax_tracepoint *const statedump_tps[NR_EVENTS] = {
    &statedump_tp[EV_START],	&statedump_tp[EV_PROCNAME],   &statedump_tp[EV_BIN_INFO],
    &statedump_tp[EV_BUILD_ID], &statedump_tp[EV_DEBUG_LINK], &statedump_tp[EV_END],
};

/* Read at start-up: getenv() is not safe on the daemon's thread, and the name is the start's. */
static int without_objects, without_procname;
static char start_procname[TRAX_STATEDUMP_PROCNAME_LEN];

/* The process's name (the main thread's), as the kernel keeps it: 15 bytes at most. */
static void read_procname(void)
{
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, start_procname, sizeof(start_procname) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		memset(start_procname, 0, sizeof(start_procname));
		prctl(PR_GET_NAME, start_procname, 0, 0, 0);
	} else {
		start_procname[n] = 0;
	}
	start_procname[strcspn(start_procname, "\n")] = 0;
}

void trax_statedump_register(void)
{
	without_objects = trax_env_get("WITHOUT_BADDR_STATEDUMP") != NULL;
	without_procname = trax_env_get("WITHOUT_PROCNAME_STATEDUMP") != NULL;
	read_procname();
	trax_provider_register(&__trax_provider_lttng_ust_statedump);
	trax_tracepoints_register(statedump_tps, NR_EVENTS);
	trax_objects_init();
}

/*
 * Where one state dump is recorded, per event: the event's own state (every
 * channel it is bound to), or a copy of the bindings into the channels the
 * daemon named (its session's), which the generated probe walks the same way.
 */
struct dump {
	struct dump_event {
		void *probe;
		void *data;
		struct trax_event_state filtered;
		struct trax_binding *copies;
	} ev[NR_EVENTS];
	unsigned int nr_recorded; /* events with somewhere to go */
};

static int channel_listed(const void *ch, struct trax_channel *const *only, size_t nr_only)
{
	for (size_t i = 0; i < nr_only; i++)
		if (only[i] == ch)
			return 1;
	return 0;
}

/* Copies the bindings of live into the channels listed; NULL when there is none. */
static struct trax_binding *copy_bindings(const struct trax_event_state *live,
					  struct trax_channel *const *only, size_t nr_only,
					  struct trax_binding **copies)
{
	struct trax_binding *b, *first = NULL, **tail = &first;
	size_t n = 0, cap = 0;

	for (b = __atomic_load_n(&live->bindings, __ATOMIC_ACQUIRE); b;
	     b = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE))
		cap += channel_listed(b->channel, only, nr_only);
	*copies = cap ? calloc(cap, sizeof(**copies)) : NULL;
	if (!*copies)
		return NULL;
	/* The list may change meanwhile (another daemon's orders): copy what fits. */
	for (b = __atomic_load_n(&live->bindings, __ATOMIC_ACQUIRE); b && n < cap;
	     b = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE)) {
		if (!channel_listed(b->channel, only, nr_only))
			continue;
		(*copies)[n] = *b;
		(*copies)[n].next = NULL;
		*tail = &(*copies)[n];
		tail = &(*copies)[n].next;
		n++;
	}
	return first;
}

/*
 * The channels listed stay mapped during the dump: only the thread that
 * takes the daemon's orders, which runs the dump, forgets them.
 */
static void dump_prepare(struct dump *d, struct trax_channel *const *only, size_t nr_only)
{
	memset(d, 0, sizeof(*d));
	for (int k = 0; k < NR_EVENTS; k++) {
		struct dump_event *e = &d->ev[k];
		struct trax_event_state *live;

		e->probe = trax_call_site_probe(&statedump_tp[k], &e->data);
		if (e->probe && only) {
			live = e->data;
			e->filtered.bindings = copy_bindings(live, only, nr_only, &e->copies);
			e->filtered.desc = live->desc;
			e->data = &e->filtered;
			if (!e->filtered.bindings)
				e->probe = NULL;
		}
		d->nr_recorded += e->probe != NULL;
	}
}

static void dump_release(struct dump *d)
{
	for (int k = 0; k < NR_EVENTS; k++)
		free(d->ev[k].copies);
}

static void emit_marker(struct dump *d, int k)
{
	void (*probe)(void *);

	*(void **)&probe = d->ev[k].probe;
	if (probe)
		probe(d->ev[k].data);
}

static void emit_procname(struct dump *d)
{
	void (*probe)(void *, const char *);

	*(void **)&probe = d->ev[EV_PROCNAME].probe;
	if (probe)
		probe(d->ev[EV_PROCNAME].data, start_procname);
}

/* bin_info, build_id, debug_link of one object (objects.c's visitor). */
static void emit_object(const struct trax_object *o, void *arg)
{
	struct dump *d = arg;
	void (*bin_info)(void *, uint64_t, uint64_t, const char *, uint8_t, uint8_t, uint8_t);
	void (*build_id)(void *, uint64_t, const uint8_t *, size_t);
	void (*debug_link)(void *, uint64_t, const char *, uint32_t);

	*(void **)&bin_info = d->ev[EV_BIN_INFO].probe;
	*(void **)&build_id = d->ev[EV_BUILD_ID].probe;
	*(void **)&debug_link = d->ev[EV_DEBUG_LINK].probe;
	if (bin_info)
		bin_info(d->ev[EV_BIN_INFO].data, o->baddr, o->memsz, o->path, o->is_pic,
			 o->build_id != NULL, o->debug_link != NULL);
	if (build_id && o->build_id)
		build_id(d->ev[EV_BUILD_ID].data, o->baddr, o->build_id, o->build_id_len);
	if (debug_link && o->debug_link)
		debug_link(d->ev[EV_DEBUG_LINK].data, o->baddr, o->debug_link, o->crc);
}

/* start and procname, before the objects. */
static void dump_begin(void *arg)
{
	struct dump *d = arg;

	emit_marker(d, EV_START);
	if (!without_procname)
		emit_procname(d);
}

static void dump_end(void *arg)
{
	emit_marker(arg, EV_END);
}

static const struct trax_objects_visitor dump_visitor = {dump_begin, emit_object, dump_end};

void trax_statedump_run(struct trax_channel *const *only, size_t nr_only)
{
	struct dump d;

	if (without_objects && without_procname)
		return;
	dump_prepare(&d, only, only ? nr_only : 0);
	if (without_objects) {
		dump_begin(&d);
		dump_end(&d);
	} else {
		/*
		 * The look records lttng_ust_lib events for what changed since the
		 * last one (where they are enabled), as LTTng-UST's does, but before
		 * start: Babeltrace 2's debug-info filter forgets the objects it
		 * knows at start, and aborts on the unload of one it does not know.
		 */
		trax_objects_update(__builtin_return_address(0),
				    d.nr_recorded ? &dump_visitor : NULL, &d);
	}
	dump_release(&d);
	trax_debug("state dump: %u of its events recorded", d.nr_recorded);
}
