/* clang-format off */
/*
 * fuzz_client_orders.c - libFuzzer target for what a traced application
 * does with the orders of a session daemon (src/ust/daemon-client.c,
 * handle_message() and the order_* functions): whatever a broken or hostile
 * daemon sends, the application must not crash, leak a descriptor, or end
 * up with bindings that do not match what it acknowledged.
 *
 * FUZZ-SOURCES: src/common/proto.c src/common/env.c src/common/log.c src/common/shm.c src/common/clock.c src/common/cpu.c src/common/uuid.c src/common/strbuf.c src/ringbuf/ringbuf.c src/ringbuf/consumer.c src/ringbuf/bufset.c src/ust/channel.c src/ust/record.c src/ust/context.c src/ust/statedump.c src/ust/objects.c src/ust/elf-object.c src/ust/elf-debuglink.c src/ust/event-class.c src/writer/metadata.c src/writer/contexts.c src/ust/filter.c src/common/hex.c src/filter/[a-z]*.c
 * (one line: tools/fuzz.sh reads it; clang-format is off for this comment.)
 *
 * daemon-client.c has no entry point to call without its thread and a
 * daemon, so this file includes it (and registry.c, to release between
 * runs what the registry keeps for ever), as a test of static functions
 * would; init.c is left out (its constructor would start the library and
 * connect to daemons) and trax_ust_ensure_init() is defined here. The
 * library's own state dump provider and a provider of three events defined
 * below are registered once; "fuzz:hidden" is marked as an event whose
 * description did not fit in a message (never bound).
 *
 * Input: lines, one order each, fields separated by spaces:
 *
 *   ORDER KEY=VALUE... [fd=SPEC]... [poke=OFFSET:HEX]...
 *
 * ORDER is registered, channel, bind, unbind, del, flush, statedump (the
 * APP_* types) or a decimal type number. KEY=VALUE become the strings of
 * the message; the value "$" stands for the size of the last descriptor's
 * file. fd=SPEC adds a descriptor to the message:
 *   set:SUBBUF:NSUB:NCPU:OVERWRITE[:ADJUST]  a memfd holding a real bufset
 *       (src/ringbuf/bufset.h) of that geometry, active (the session is
 *       started), ADJUST bytes longer or shorter (negative) than
 *       bufset_size(), then sealed (F_SEAL_SHRINK, F_SEAL_GROW): its size
 *       can no longer change;
 *   uset:...   the same, not sealed (as traxd's memfds are today);
 *   mem:SIZE   a memfd of SIZE zero bytes;   pipe, null, dir   not files.
 * (memfds are at most 4 MiB.) poke=OFFSET:HEX writes bytes into the last
 * memfd before it is sent: a corrupted set.
 *
 * The message goes through trax_msg_send/trax_msg_recv over a socket pair,
 * as from a daemon, then to handle_message(); the acknowledgement is read
 * back and checked (type, sequence, status, error). Other lines:
 *   fire EVENT COUNT [LEN]  runs a tracepoint of this file COUNT times
 *       (EVENT 0: 4 bytes of payload, 1: LEN bytes, 2: the hidden event);
 *   consume    takes every complete sub-buffer of every channel, as the
 *       consumer would, and checks its packet header (unless the channel's
 *       memory was poked or scribbled);
 *   scribble HANDLE OFFSET:HEX...  writes into the shared memory of a
 *       channel in use, as another process sharing it could;
 *   shrink [SIZE]  truncates the last memfd sent (as the daemon, or another
 *       process it was given to, could) when it is not sealed;
 *   drop       the daemon is gone: disconnect() as the client thread does,
 *       then a new connection;
 *   # ...      a comment.
 * After each order: the channel list is consistent, and an order
 * acknowledged with status=0 did what it says (channel known, events bound
 * with the ids given, unbound, forgotten). At the end of the input:
 * disconnect(); nothing may stay bound, no descriptor may stay open, and
 * the retired channels, unlinked bindings and replaced filters (kept for good by the library,
 * since a probe may still use them) are freed here.
 *
 * An input costs at most 64 MiB of memfds, 32 MiB of records and 16 state
 * dumps (further ones are not sent): units stay fast.
 *
 * Built and run by tools/fuzz.sh: `tools/fuzz.sh 60 client_orders`; seeds
 * in tests/fuzz/corpus/client_orders/ (text: readable and editable).
 * crash-sigbus-unsealed-memfd there is the first bug this target found: an
 * unsealed memfd shrunk after APP_CHANNEL made the next record raise
 * SIGBUS; it crashes until trax_channel_attach refuses memfds that are not
 * sealed against shrinking (and traxd seals its own).
 */
/* clang-format on */
#include "ust/daemon-client.c"
#include "ust/registry.c"

#include <sys/mman.h>

#define CHECK_ABORT
#include "check.h"
#include "fds.h"
#include "common/clock.h"
#include "common/cpu.h"

#define MAX_TEXT    (64u << 10)
#define MAX_MEMFD   (4u << 20)
#define MAX_FIRE    4096u
#define MAX_BLOB    (64u << 10)
#define MAX_ORDERFD 20u
/* What one input may cost at most: a unit stays well under a second. */
#define BUDGET_MEMFD	 (64u << 20) /* bytes of memfds made */
#define BUDGET_FIRE	 (32u << 20) /* bytes of payload recorded */
#define BUDGET_STATEDUMP 16u	     /* state dumps (each reads every loaded object) */

static uint64_t spent_memfd, spent_fire;
static unsigned int spent_statedump;

/* What init.c does before anything registers (its constructor is left out). */
void trax_ust_ensure_init(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	trax_log_init();
	trax_cpu_init();
	trax_clock_init();
}

/* ---- a provider of three events, written as tracepoint-event.h would generate it ---- */

static uint8_t blob[MAX_BLOB];
static size_t blob_len;

static void probe_u32(void *data, uint32_t v)
{
	struct trax_event_state *st = data;
	struct trax_binding *b = __atomic_load_n(&st->bindings, __ATOMIC_ACQUIRE);

	struct trax_filter_arg args[1] = {{.u = v}};

	for (; b; b = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE)) {
		struct trax_ctx c;

		/* as generated probes do: the filters of the binding first */
		if ((b->flags & TRAX_BINDING_FILTERED) && !trax_event_filter(b, args, NULL))
			continue;
		if (trax_event_reserve(&c, b, sizeof(v), __builtin_return_address(0)) == 0) {
			trax_write(&c, &v, sizeof(v));
			trax_event_commit(&c);
		}
	}
}

static void probe_blob(void *data, uint32_t v)
{
	struct trax_event_state *st = data;
	struct trax_binding *b = __atomic_load_n(&st->bindings, __ATOMIC_ACQUIRE);

	struct trax_filter_arg args[2] = {{.u = v}, {.seq = {blob, blob_len}}};

	for (; b; b = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE)) {
		struct trax_ctx c;

		if ((b->flags & TRAX_BINDING_FILTERED) && !trax_event_filter(b, args, NULL))
			continue;
		if (trax_event_reserve(&c, b, sizeof(v) + blob_len, NULL) == 0) {
			trax_write(&c, &v, sizeof(v));
			trax_write(&c, blob, blob_len);
			trax_event_commit(&c);
		}
	}
}

static const struct trax_field_desc fields_u32[] = {
    {"v", TRAX_FIELD_INTEGER, 0, 0, {32, 0, 10, 0, 0}, {0, 0, 0, 0, 0}, 0, NULL}};
static const struct trax_field_desc fields_blob[] = {
    {"v", TRAX_FIELD_INTEGER, 0, 0, {32, 0, 10, 0, 0}, {0, 0, 0, 0, 0}, 0, NULL},
    {"data", TRAX_FIELD_SEQUENCE, 0, 0, {8, 0, 16, 0, 0}, {32, 0, 10, 0, 0}, 0, NULL}};
static struct trax_event_desc ev_hidden = {
    "fuzz:hidden", "fuzz:hidden", "uint32_t, v", (void (*)(void))probe_u32, fields_u32, 1, -1,
    NULL,	   NULL};
static struct trax_event_desc ev_blob = {
    "fuzz:blob", "fuzz:blob", "uint32_t, v", (void (*)(void))probe_blob, fields_blob, 2,
    -1,		 NULL,	      &ev_hidden};
static struct trax_event_desc ev_u32 = {
    "fuzz:u32",	   "fuzz:u32", "uint32_t, v", (void (*)(void))probe_u32, fields_u32, 1,
    TRACE_WARNING, NULL,       &ev_blob};
static struct trax_provider_desc fuzz_provider = {"fuzz", &ev_u32, 3, TRAX_PROBE_ABI, NULL};

static struct trax_tracepoint tp_u32 = {"fuzz:u32", 0, 0, 0, "uint32_t, v"};
static struct trax_tracepoint tp_blob = {"fuzz:blob", 0, 0, 0, "uint32_t, v"};
static struct trax_tracepoint tp_hidden = {"fuzz:hidden", 0, 0, 0, "uint32_t, v"};
static struct trax_tracepoint *const fuzz_tps[] = {&tp_u32, &tp_blob, &tp_hidden};

static void fire(struct trax_tracepoint *tp, uint32_t v)
{
	if (__atomic_load_n(&tp->state, __ATOMIC_RELAXED)) {
		void (*p)(void *, uint32_t);

		*(void **)&p = __atomic_load_n(&tp->probe, __ATOMIC_ACQUIRE);
		if (p)
			p(__atomic_load_n(&tp->data, __ATOMIC_ACQUIRE), v);
	}
}

/* ---- the connection: this process is the application and the daemon ---- */

static int app_fd = -1, daemon_fd = -1;

static void connection_open(void)
{
	struct client *c = &clients[0];
	struct fd_id id;
	int sv[2];

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	app_fd = sv[0];
	daemon_fd = sv[1];
	CHECK(fd_id_of(app_fd, &id));
	/* What serve() sets up, once HELLO, EVENTS and READY are sent. */
	pthread_mutex_lock(&state_lock);
	c->sock_id = id;
	c->fd = app_fd;
	c->conn_gen++;
	c->registered = 0;
	c->counts_events = 0;
	c->events_known = 0;
	c->stalled = 0;
	c->events_sent = trax_registry_nr_indexed();
	pthread_mutex_unlock(&state_lock);
	c->events_ready = c->events_sent;
	c->seq = 0;
}

static void connection_drop(void)
{
	disconnect(&clients[0], app_fd); /* closes app_fd */
	CHECK(fcntl(app_fd, F_GETFD) < 0);
	close(daemon_fd);
	app_fd = daemon_fd = -1;
	/* Everything the daemon gave is gone. */
	CHECK(clients[0].channels == NULL && clients[0].nr_channels == 0);
	for (uint32_t i = 0; i < nr_indexed; i++)
		CHECK(by_index[i]->state.bindings == NULL);
	for (unsigned int i = 0; i < 3; i++)
		CHECK(fuzz_tps[i]->state == 0);
}

/* Frees what the library keeps for good (nothing else runs here). */
static void release_retired(void)
{
	struct retired_block *b;

	for (unsigned int i = 0; i < nr_retired; i++) {
		struct trax_channel *ch = retired[i];

		if (ch->shm.addr)
			munmap(ch->shm.addr, ch->shm.size);
		free(ch->bufs);
		free(ch->events);
		free(ch);
	}
	nr_retired = 0;
	while ((b = retired_more)) {
		retired_more = b->next;
		if (b->ch->shm.addr)
			munmap(b->ch->shm.addr, b->ch->shm.size);
		free(b->ch->bufs);
		free(b->ch->events);
		free(b->ch);
		free(b);
	}
	for (uint32_t i = 0; i < nr_indexed; i++) {
		struct binding_node *n;

		struct trax_filters *f;

		while ((n = by_index[i]->unlinked)) {
			by_index[i]->unlinked = n->unlinked_next;
			trax_filters_free((struct trax_filters *)n->b.filters);
			free(n);
		}
		while ((f = by_index[i]->retired_filters)) {
			by_index[i]->retired_filters = f->retired_next;
			trax_filters_free(f);
		}
	}
}

static void check_channels(void)
{
	struct client *c = &clients[0];
	unsigned int n = 0;

	for (struct dchannel *d = c->channels; d; d = d->next) {
		CHECK(channel_find(c, d->handle) == d); /* handles are unique */
		CHECK(d->ch && d->ch->nr_cpus > 0 && d->ch->bufs);
		n++;
	}
	CHECK(n == c->nr_channels && n <= MAX_CHANNELS);
	CHECK(c->events_known <= c->events_sent);
}

/* ---- descriptors made from fd=SPEC ---- */

static int last_memfd = -1;
static uint64_t last_size;
static bool last_poked;

/* Channels whose shared memory was written here: their packets may be anything. */
static const struct trax_channel *poked[64];
static unsigned int nr_poked;

static bool is_poked(const struct trax_channel *ch)
{
	for (unsigned int i = 0; i < nr_poked; i++)
		if (poked[i] == ch)
			return true;
	return nr_poked == sizeof(poked) / sizeof(poked[0]);
}

static void mark_poked(const struct trax_channel *ch)
{
	if (!is_poked(ch))
		poked[nr_poked++] = ch;
}

static void noop_open(struct ringbuf *rb, void *subbuf, uint64_t ts, uint64_t seq)
{
	(void)rb, (void)subbuf, (void)ts, (void)seq;
}

static void noop_close(struct ringbuf *rb, void *subbuf, uint64_t ts, uint64_t content,
		       uint64_t discarded)
{
	(void)rb, (void)subbuf, (void)ts, (void)content, (void)discarded;
}

/* The memfds sent, kept as traxd keeps its own (for "shrink"); closed at the end of a run. */
static int kept[64];
static unsigned int nr_kept;

static void keep(int fd)
{
	int k = nr_kept < sizeof(kept) / sizeof(kept[0]) ? dup(fd) : -1;

	if (k >= 0)
		kept[nr_kept++] = k;
}

static int make_memfd(uint64_t size)
{
	int fd = memfd_create("fuzz-orders", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (size > MAX_MEMFD)
		size = MAX_MEMFD;
	if (spent_memfd + size > BUDGET_MEMFD)
		size = 0;
	spent_memfd += size;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	last_memfd = fd;
	last_size = size;
	return fd;
}

/*
 * A memfd holding a bufset as traxd makes it (header of a CTF packet,
 * compact timestamps); sealed: its size can no longer change.
 */
static int make_set(const char *spec, bool sealed)
{
	unsigned long long sub = 0, nsub = 0, ncpu = 0, ow = 0;
	long long adjust = 0;
	struct ringbuf_config cfg;
	struct ringbuf *rbs;
	uint64_t size;
	void *mem;
	int fd;

	if (sscanf(spec, "%llu:%llu:%llu:%llu:%lld", &sub, &nsub, &ncpu, &ow, &adjust) < 3)
		return make_memfd(0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.subbuf_size = sub;
	cfg.num_subbuf = (unsigned int)nsub;
	cfg.mode = ow ? RINGBUF_OVERWRITE : RINGBUF_DISCARD;
	cfg.header_size = sizeof(struct ctf_packet_header);
	cfg.ts_bits = CTF_COMPACT_TS_BITS;
	cfg.open = noop_open;
	cfg.close = noop_close;
	if (nsub > UINT32_MAX || ncpu == 0 || ncpu > 64 || ringbuf_config_check(&cfg) ||
	    bufset_size(&cfg, (unsigned int)ncpu) > MAX_MEMFD ||
	    spent_memfd + bufset_size(&cfg, (unsigned int)ncpu) > BUDGET_MEMFD)
		return make_memfd(4096);
	size = bufset_size(&cfg, (unsigned int)ncpu);
	fd = make_memfd(size);
	if (fd < 0)
		return -1;
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	rbs = calloc(ncpu, sizeof(*rbs));
	if (mem != MAP_FAILED && rbs) {
		CHECK(bufset_create(mem, rbs, &cfg, (unsigned int)ncpu) == 0);
		/* started: what `trax start` does to the set */
		bufset_ctrl(mem)->active = 1;
	}
	if (mem != MAP_FAILED)
		munmap(mem, size);
	free(rbs);
	if (adjust) {
		/* (the magnitude in unsigned arithmetic: -LLONG_MIN does not exist) */
		if (adjust < 0 && (uint64_t)0 - (uint64_t)adjust > size)
			adjust = -(long long)size;
		size += (uint64_t)adjust;
		if (size > MAX_MEMFD)
			size = MAX_MEMFD;
		if (ftruncate(fd, (off_t)size) == 0)
			last_size = size;
	}
	if (sealed)
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	return fd;
}

static int make_fd(const char *spec)
{
	if (!strncmp(spec, "set:", 4))
		return make_set(spec + 4, true);
	if (!strncmp(spec, "uset:", 5))
		return make_set(spec + 5, false);
	if (!strncmp(spec, "mem:", 4))
		return make_memfd(strtoull(spec + 4, NULL, 10));
	if (!strcmp(spec, "pipe")) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		close(p[1]);
		return p[0];
	}
	if (!strcmp(spec, "dir"))
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return open("/dev/null", O_RDWR | O_CLOEXEC);
}

/* "OFFSET:HEX": the offset and up to 64 bytes; 0 when it does not parse. */
static size_t parse_poke(const char *spec, uint64_t *off, uint8_t bytes[64])
{
	char *end;
	size_t n = 0;

	*off = strtoull(spec, &end, 10);
	if (*end != ':')
		return 0;
	for (end++; end[0] && end[1] && n < 64; end += 2) {
		unsigned int x;

		if (sscanf(end, "%2x", &x) != 1)
			break;
		bytes[n++] = (uint8_t)x;
	}
	return n;
}

/* Writes into the last memfd before it is sent. */
static void poke(const char *spec)
{
	uint8_t bytes[64];
	uint64_t off;
	size_t n = parse_poke(spec, &off, bytes);

	if (last_memfd < 0 || !n || off >= last_size)
		return;
	if (pwrite(last_memfd, bytes, off + n > last_size ? last_size - off : n, (off_t)off) > 0)
		last_poked = true;
}

/* Writes into the shared memory of a channel in use, as another writer of it could. */
static void scribble(const char *handle, const char *spec)
{
	struct dchannel *d = channel_find(&clients[0], (uint32_t)strtoul(handle, NULL, 10));
	uint8_t bytes[64];
	uint64_t off;
	size_t n = parse_poke(spec, &off, bytes);

	if (!d || !n || off >= d->ch->shm.size)
		return;
	memcpy((char *)d->ch->shm.addr + off, bytes,
	       off + n > d->ch->shm.size ? d->ch->shm.size - off : n);
	mark_poked(d->ch);
}

/* ---- one order ---- */

static const struct {
	const char *name;
	uint16_t type;
} order_names[] = {
    {"registered", TRAX_MSG_APP_REGISTERED},
    {"channel", TRAX_MSG_APP_CHANNEL},
    {"bind", TRAX_MSG_APP_BIND},
    {"unbind", TRAX_MSG_APP_UNBIND},
    {"del", TRAX_MSG_APP_CHANNEL_DEL},
    {"flush", TRAX_MSG_APP_FLUSH},
    {"statedump", TRAX_MSG_APP_STATEDUMP},
};

static bool bound(uint32_t index, const struct trax_channel *ch, uint32_t *id)
{
	struct binding_node *n = find_binding(by_index[index], ch, NULL);

	if (n && id)
		*id = n->b.event_id;
	return n != NULL;
}

/* What an order acknowledged with status=0 must have done. */
static void check_done(struct trax_msg *m, struct trax_channel *target)
{
	struct client *c = &clients[0];
	uint64_t handle = 0;
	const char *kv, *v;
	bool has_handle = get_u64(m, "handle", UINT32_MAX, &handle);
	struct dchannel *d = has_handle ? channel_find(c, (uint32_t)handle) : NULL;

	switch (m->type) {
	case TRAX_MSG_APP_CHANNEL:
		CHECK(d && d->ch->nr_cpus > 0);
		break;
	case TRAX_MSG_APP_CHANNEL_DEL:
		CHECK(has_handle && !d && target);
		for (uint32_t i = 0; i < nr_indexed; i++)
			CHECK(!bound(i, target, NULL));
		break;
	case TRAX_MSG_APP_BIND:
		CHECK(d);
		/* each event is bound with the id its last mention gives */
		for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv)) {
			uint32_t index, id, got;
			const char *later;

			if (!(v = trax_kv_value(kv, "event")))
				continue;
			CHECK(parse_event_ref(v, true, &index, &id) && index < nr_indexed);
			for (later = trax_msg_next(m, kv); later; later = trax_msg_next(m, later)) {
				const char *lv = trax_kv_value(later, "event");
				uint32_t li, lid;

				if (lv && parse_event_ref(lv, true, &li, &lid) && li == index)
					break;
			}
			if (!later)
				CHECK(bound(index, d->ch, &got) && got == id);
		}
		break;
	case TRAX_MSG_APP_UNBIND:
		CHECK(d);
		for (uint32_t i = 0; i < nr_indexed; i++) {
			bool listed = trax_msg_get(m, "all") != NULL;

			for (kv = trax_msg_first(m); kv && !listed; kv = trax_msg_next(m, kv)) {
				uint32_t index, id;

				listed = (v = trax_kv_value(kv, "event")) &&
					 parse_event_ref(v, false, &index, &id) && index == i;
			}
			if (listed)
				CHECK(!bound(i, d->ch, NULL));
		}
		break;
	case TRAX_MSG_APP_FLUSH:
		CHECK(d);
		break;
	case TRAX_MSG_APP_STATEDUMP:
		/* into channels of this connection only */
		for (kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv))
			if ((v = trax_kv_value(kv, "handle")))
				CHECK(trax_parse_u64(v, UINT32_MAX, &handle) &&
				      channel_find(c, (uint32_t)handle));
		break;
	default:
		break;
	}
	/* a call site runs its probe exactly while its event is bound somewhere */
	for (unsigned int i = 0; i < 3; i++) {
		struct trax_event_state *st = fuzz_tps[i]->data;

		CHECK(!!fuzz_tps[i]->state == (st && st->bindings));
	}
}

static void run_order(uint16_t type, char **fields, unsigned int nfields)
{
	static uint32_t seq;
	struct client *c = &clients[0];
	struct trax_msg m, r, ack;
	int fds[MAX_ORDERFD];
	unsigned int nfds = 0;
	struct trax_channel *target = NULL;
	const char *status, *v;
	uint64_t n, handle;

	trax_msg_init(&m, type);
	m.seq = ++seq;
	last_memfd = -1;
	last_size = 0;
	last_poked = false;
	/* descriptors first: "$" is the size of the last one */
	for (unsigned int pass = 0; pass < 2; pass++)
		for (unsigned int i = 0; i < nfields; i++) {
			char *f = fields[i], *eq = strchr(f, '=');
			bool special;

			if (!eq || eq == f)
				continue;
			*eq = 0;
			special = !strcmp(f, "fd") || !strcmp(f, "poke");
			if (pass == 0 && !strcmp(f, "fd")) {
				int fd = nfds < MAX_ORDERFD ? make_fd(eq + 1) : -1;

				if (fd >= 0)
					fds[nfds++] = fd;
				if (fd >= 0 && fd == last_memfd)
					keep(fd);
			} else if (pass == 0 && !strcmp(f, "poke")) {
				poke(eq + 1);
			} else if (pass == 1 && !special && !strcmp(eq + 1, "$")) {
				trax_msg_add_u64(&m, f, last_size);
			} else if (pass == 1 && !special) {
				trax_msg_add(&m, f, "%s", eq + 1);
			}
			*eq = '=';
		}
	if (m.oom || nfds > TRAX_MSG_MAX_FDS) {
		/* trax_msg_send refuses it: the daemon could not send it either */
		CHECK(trax_msg_send(daemon_fd, &m, fds, nfds) < 0);
		goto out;
	}
	CHECK(trax_msg_send(daemon_fd, &m, fds, nfds) == 0);
	CHECK(trax_msg_recv(app_fd, &r, 1000) == 0);
	CHECK(r.type == type && r.seq == m.seq && r.nfds == nfds);
	if (get_u64(&r, "handle", UINT32_MAX, &handle) && channel_find(c, (uint32_t)handle))
		target = channel_find(c, (uint32_t)handle)->ch;

	/* what serve() does with it */
	CHECK(handle_message(c, app_fd, &r));

	/* the acknowledgement */
	CHECK(trax_msg_recv(daemon_fd, &ack, 1000) == 0);
	CHECK(ack.type == TRAX_MSG_APP_ACK && ack.seq == m.seq && ack.nfds == 0);
	CHECK(get_u64(&ack, "seq", UINT32_MAX, &n) && n == m.seq);
	status = trax_msg_get(&ack, "status");
	CHECK(status);
	if (!strcmp(status, "0")) {
		CHECK(!trax_msg_get(&ack, "error"));
		check_done(&r, target);
		if (type == TRAX_MSG_APP_CHANNEL && last_poked)
			mark_poked(channel_find(c, (uint32_t)handle)->ch);
	} else {
		CHECK((v = trax_msg_get(&ack, "error")) && *v);
		/* only orders are carried out */
		if (type < TRAX_MSG_APP_REGISTERED || type > TRAX_MSG_APP_STATEDUMP)
			CHECK(!strcmp(status, "ENOSYS"));
	}
	trax_msg_free(&ack);
	trax_msg_free(&r);
	check_channels();
out:
	for (unsigned int i = 0; i < nfds; i++)
		close(fds[i]);
	trax_msg_free(&m);
}

/*
 * Takes the complete sub-buffers as the consumer would: a packet of a
 * channel nobody else wrote into is a packet this process wrote well.
 */
static void consume(void)
{
	for (struct dchannel *d = clients[0].channels; d; d = d->next)
		for (int cpu = 0; cpu < d->ch->nr_cpus; cpu++) {
			struct ringbuf *rb = &d->ch->bufs[cpu];
			uint64_t pos;
			void *sb;

			for (int k = 0; k < 64 && ringbuf_get_subbuf(rb, &pos, &sb) == 0; k++) {
				const struct ctf_packet_header *h = sb;

				if (!is_poked(d->ch)) {
					CHECK(h->magic == CTF_MAGIC);
					CHECK(h->stream_id == d->ch->stream_id);
					CHECK(h->cpu_id == (uint32_t)cpu);
					CHECK(!memcmp(h->uuid, d->ch->trace_uuid, 16));
					CHECK(h->content_size % 8 == 0 &&
					      h->content_size / 8 >= sizeof(*h) &&
					      h->content_size / 8 <= d->ch->attr.subbuf_size);
					CHECK(h->timestamp_end >= h->timestamp_begin);
				}
				ringbuf_put_subbuf(rb, pos);
			}
		}
}

static void run_line(char *line)
{
	char *fields[256];
	unsigned int nfields = 0;
	char *save = NULL, *f;

	for (f = strtok_r(line, " ", &save); f && nfields < 256; f = strtok_r(NULL, " ", &save))
		fields[nfields++] = f;
	if (!nfields || fields[0][0] == '#')
		return;
	if (!strcmp(fields[0], "fire")) {
		unsigned long ev = nfields > 1 ? strtoul(fields[1], NULL, 10) % 3 : 0;
		unsigned long count = nfields > 2 ? strtoul(fields[2], NULL, 10) : 1;

		blob_len = nfields > 3 ? strtoul(fields[3], NULL, 10) % (MAX_BLOB + 1) : 0;
		for (unsigned long i = 0; i < count && i < MAX_FIRE && spent_fire < BUDGET_FIRE;
		     i++) {
			fire(fuzz_tps[ev], (uint32_t)i);
			spent_fire += 4 + (ev == 1 ? blob_len : 0);
		}
		return;
	}
	if (!strcmp(fields[0], "consume")) {
		consume();
		return;
	}
	if (!strcmp(fields[0], "shrink")) {
		/* fails on a sealed memfd */
		if (nr_kept &&
		    ftruncate(kept[nr_kept - 1],
			      nfields > 1 ? (off_t)(strtoull(fields[1], NULL, 10) % (MAX_MEMFD + 1))
					  : 0) == 0)
			fprintf(stderr, "shrink: the last memfd sent has a new size\n");
		return;
	}
	if (!strcmp(fields[0], "scribble")) {
		for (unsigned int i = 2; i < nfields; i++)
			scribble(fields[1], fields[i]);
		return;
	}
	if (!strcmp(fields[0], "drop")) {
		connection_drop();
		release_retired();
		connection_open();
		return;
	}
	if (!strcmp(fields[0], "statedump") ||
	    strtoul(fields[0], NULL, 10) == TRAX_MSG_APP_STATEDUMP) {
		if (spent_statedump >= BUDGET_STATEDUMP)
			return; /* not sent */
		spent_statedump++;
	}
	for (unsigned int i = 0; i < sizeof(order_names) / sizeof(order_names[0]); i++)
		if (!strcmp(fields[0], order_names[i].name)) {
			run_order(order_names[i].type, fields + 1, nfields - 1);
			return;
		}
	if (fields[0][0] >= '0' && fields[0][0] <= '9')
		run_order((uint16_t)strtoul(fields[0], NULL, 10), fields + 1, nfields - 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const struct trax_event_desc *d;
	int level;

	(void)argc, (void)argv;
	/* blocking would wait for a consumer that is not there */
	unsetenv("TRAX_ALLOW_BLOCKING");
	unsetenv("LTTNG_UST_ALLOW_BLOCKING");
	unsetenv("TRAX_WITHOUT_BADDR_STATEDUMP");
	unsetenv("LTTNG_UST_WITHOUT_BADDR_STATEDUMP");
	unsetenv("TRAX_WITHOUT_PROCNAME_STATEDUMP");
	unsetenv("LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP");
	trax_ust_ensure_init();
	trax_statedump_register();
	CHECK(trax_provider_register(&fuzz_provider) == 0);
	CHECK(trax_tracepoints_register(fuzz_tps, 3) == 0);
	snprintf(clients[0].path, sizeof(clients[0].path), "fuzz");
	clients[0].fd = clients[0].wake_rd = clients[0].wake_wr = clients[0].first_fd = -1;
	nr_clients = 1;
	for (uint32_t i = 0; i < trax_registry_nr_indexed(); i++)
		if (trax_registry_event_info(i, &d, &level) == 0 && d == &ev_hidden)
			mark_undescribed(i);
	CHECK(nr_undescribed == 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[MAX_TEXT + 1];
	char *line, *save = NULL;
	int before;

	if (size > MAX_TEXT)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	before = count_open_fds();
	connection_open();
	nr_poked = 0;
	spent_memfd = spent_fire = 0;
	spent_statedump = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		run_line(line);
	connection_drop();
	release_retired();
	while (nr_kept)
		close(kept[--nr_kept]);
	/* every descriptor received was mapped and closed, or closed */
	CHECK(count_open_fds() == before);
	return 0;
}
