/*
 * fake-traxd RUNDIR SCENARIO [OPTIONS] - a stand-in for traxd that talks
 * docs/daemon.md's application protocol (src/common/proto.h) to one traced
 * application at a time, and checks what libtrax-ust does with it.
 *
 * It listens on RUNDIR/app.sock, checks APP_HELLO and the event
 * descriptions, creates channels itself (bufset_create in a memfd), sends
 * APP_CHANNEL / APP_BIND / ..., sets the control page's `active` word, and
 * reads the ring buffers itself, decoding every record with the field
 * descriptions the application sent. Output on stdout, for the test to
 * compare; any failed check prints "fake-traxd: FAIL ..." and exits 1.
 *
 * Scenarios:
 * As traxd does, it answers APP_READY, and every APP_EVENTS after it, with
 * APP_REGISTERED events=N (N: the events described so far), once the
 * events it wants are bound.
 *
 * Scenarios:
 *   hello
 *       One run of examples/hello: prints the descriptions of my_provider's
 *       events ("event NAME loglevel=N", then its field= and enum=
 *       strings), binds them when described (ids below), and at the end
 *       prints every record the buffers hold.
 *   once
 *       A daemon that answers APP_READY with APP_REGISTERED without
 *       `events`, and later APP_EVENTS not at all: the application must
 *       describe the events it registers later all the same (plug:ev,
 *       printed like hello's), without waiting for an answer.
 *   mute
 *       Accepts one application and never answers; exits when it leaves.
 *   session
 *       The long run with tests/integration/data/fake-traxd-app.c (see
 *       app_register.sh, which lists the steps); prints "last=N", the last
 *       plug:ev value it saw.
 *   closefds
 *       Registers the application (fake-traxd-app closefds), which then
 *       closes the connection's descriptor; waits for it to register again
 *       and checks its records.
 *   reconnect --pid PID --after N
 *       Waits (5 s at most) for the application PID to register again,
 *       binds plug:ev, and checks its records go on past N.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "common/clock.h"
#include "common/proto.h"
#include "common/shm.h"
#include "writer/packet.h"
#include "ringbuf/bufset.h"
#include "ringbuf/consumer.h"

#define SUBBUF_SIZE 65536u
#define NUM_SUBBUF  8u

static const char *rundir;
static int app_fd = -1, listen_fd = -1;
static int app_pid;
static uint32_t next_seq = 1;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fake-traxd: FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- what the application described ---- */

struct field {
	char name[64];
	int kind, size, is_signed, base, network, text, float_bits, count, len_size, len_signed,
	    nowrite;
};

struct event {
	bool known;
	char name[128];
	int loglevel;
	char *text; /* its field= and enum= strings, one a line */
	struct field fields[64];
	int nfields;
};

#define MAX_EVENTS 4096
static struct event events[MAX_EVENTS];
static uint32_t nr_events; /* indexes seen: 0 .. nr_events-1, contiguous */
static int ready_count, registered_sent;

static int find_event(const char *name)
{
	for (uint32_t i = 0; i < nr_events; i++)
		if (!strcmp(events[i].name, name))
			return (int)i;
	return -1;
}

static void append_text(char **t, const char *line)
{
	size_t a = *t ? strlen(*t) : 0, b = strlen(line);

	*t = realloc(*t, a + b + 2);
	memcpy(*t + a, line, b);
	(*t)[a + b] = '\n';
	(*t)[a + b + 1] = 0;
}

static void parse_field(struct event *e, const char *v)
{
	struct field *f = &e->fields[e->nfields];
	char en[128] = "";
	int n = sscanf(v, "%d:%63[^:]:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%127s", &f->kind, f->name,
		       &f->size, &f->is_signed, &f->base, &f->network, &f->text, &f->float_bits,
		       &f->count, &f->len_size, &f->len_signed, &f->nowrite, en);

	if (n < 12 || e->nfields >= 64)
		fail("field=%s of %s does not parse", v, e->name);
	e->nfields++;
}

static void take_events(const struct trax_msg *m)
{
	struct event *e = NULL;

	for (const char *kv = trax_msg_first(m); kv; kv = trax_msg_next(m, kv)) {
		const char *v;

		if ((v = trax_kv_value(kv, "event"))) {
			uint32_t idx = (uint32_t)strtoul(v, NULL, 10);

			if (idx != nr_events || idx >= MAX_EVENTS)
				fail("event=%s: expected index %u (from 0, in order, no gap)", v,
				     nr_events);
			e = &events[nr_events++];
			/* (a new registration describes everything again) */
			free(e->text);
			memset(e, 0, sizeof(*e));
			e->known = true;
		} else if (!e) {
			fail("APP_EVENTS: %s before any event=", kv);
		} else if ((v = trax_kv_value(kv, "name"))) {
			snprintf(e->name, sizeof(e->name), "%s", v);
		} else if ((v = trax_kv_value(kv, "loglevel"))) {
			e->loglevel = atoi(v);
		} else if ((v = trax_kv_value(kv, "field"))) {
			append_text(&e->text, kv);
			parse_field(e, v);
		} else if (trax_kv_value(kv, "enum") || trax_kv_value(kv, "enum_auto") ||
			   trax_kv_value(kv, "enum_signed") || trax_kv_value(kv, "emf_uri")) {
			append_text(&e->text, kv);
		} else {
			fail("APP_EVENTS: unexpected %s", kv);
		}
	}
}

/* ---- messages ---- */

struct ack {
	uint32_t seq;
	char status[32];
};
static struct ack acks[256];
static int nr_acks;

static uint32_t send_order(uint16_t type, const int *fds, unsigned int nfds, ...)
{
	struct trax_msg m;
	va_list ap;
	const char *k;

	trax_msg_init(&m, type);
	m.seq = next_seq++;
	va_start(ap, nfds);
	while ((k = va_arg(ap, const char *)))
		trax_msg_add(&m, k, "%s", va_arg(ap, const char *));
	va_end(ap);
	if (trax_msg_send(app_fd, &m, fds, nfds))
		fail("cannot send message type %u", type);
	trax_msg_free(&m);
	return m.seq;
}

/*
 * The parent of a process, from /proc; -1 when the process is gone already
 * (an application that does not wait for the daemon can exit before its
 * HELLO is read).
 */
static int parent_of(int pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int ppid = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f && errno == ENOENT)
		return -1;
	if (!f)
		fail("cannot read %s", path);
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		sscanf(p + 2, "%*c %d", &ppid);
	fclose(f);
	return ppid;
}

static void check_hello(const struct trax_msg *m)
{
	int pid, uid;
	uint64_t v;
	char buf[32];

	trax_sock_peer(app_fd, &pid, &uid, NULL);
	app_pid = pid;
	if (!trax_msg_get_u64(m, "pid", &v) || (int)v != pid)
		fail("APP_HELLO pid=%s, the peer is %d", trax_msg_get(m, "pid"), pid);
	if (!trax_msg_get_u64(m, "uid", &v) || (int)v != (int)getuid())
		fail("APP_HELLO uid=%s", trax_msg_get(m, "uid"));
	if (!trax_msg_get_u64(m, "gid", &v) || (int)v != (int)getgid())
		fail("APP_HELLO gid=%s", trax_msg_get(m, "gid"));
	int ppid = parent_of(pid);

	snprintf(buf, sizeof(buf), "%d", ppid);
	if (!trax_msg_get(m, "ppid") ||
	    (ppid >= 0 ? strcmp(trax_msg_get(m, "ppid"), buf) : !atoi(trax_msg_get(m, "ppid"))))
		fail("APP_HELLO ppid=%s, expected %s", trax_msg_get(m, "ppid"),
		     ppid >= 0 ? buf : "a pid (the application has exited)");
	if (!trax_msg_get(m, "bits") || strcmp(trax_msg_get(m, "bits"), "64"))
		fail("APP_HELLO bits=%s", trax_msg_get(m, "bits"));
	if (!trax_msg_get(m, "abi") || strcmp(trax_msg_get(m, "abi"), "1"))
		fail("APP_HELLO abi=%s", trax_msg_get(m, "abi"));
	if (!trax_msg_get(m, "version") || !*trax_msg_get(m, "version"))
		fail("APP_HELLO without version");
	if (!trax_msg_get(m, "procname") || !*trax_msg_get(m, "procname"))
		fail("APP_HELLO without procname");
	printf("hello procname=%s\n", trax_msg_get(m, "procname"));
}

/*
 * Receives one message within timeout_ms; 0, or -1 when the application
 * closed the connection. EVENTS, READY and ACK are recorded here.
 */
static int pump_one(struct trax_msg *m, int timeout_ms)
{
	int err = trax_msg_recv(app_fd, m, timeout_ms);

	if (err == -ECONNRESET)
		return -1;
	if (err)
		fail("receiving from the application: %s", strerror(-err));
	switch (m->type) {
	case TRAX_MSG_APP_EVENTS:
		take_events(m);
		break;
	case TRAX_MSG_APP_READY:
		if (++ready_count > 1)
			fail("a second APP_READY");
		break;
	case TRAX_MSG_APP_ACK: {
		const char *s = trax_msg_get(m, "status");
		uint64_t seq;

		if (!trax_msg_get_u64(m, "seq", &seq) || seq != m->seq || !s)
			fail("APP_ACK without seq or status");
		if (nr_acks < 256) {
			acks[nr_acks].seq = (uint32_t)seq;
			snprintf(acks[nr_acks].status, sizeof(acks[nr_acks].status), "%s", s);
			nr_acks++;
		}
		break;
	}
	default:
		fail("unexpected message type %u from the application", m->type);
	}
	return 0;
}

/* Waits for the acknowledgement of order seq; its status. */
static const char *wait_ack(uint32_t seq)
{
	int64_t deadline = trax_now_ms() + 5000;

	for (;;) {
		struct trax_msg m;

		for (int i = 0; i < nr_acks; i++)
			if (acks[i].seq == seq)
				return acks[i].status;
		if (trax_now_ms() > deadline)
			fail("no APP_ACK for order %u within 5 s", seq);
		if (pump_one(&m, 5000) < 0)
			fail("the application left before acknowledging order %u", seq);
		trax_msg_free(&m);
	}
}

static void expect_ack(uint32_t seq, const char *status, const char *what)
{
	const char *got = wait_ack(seq);

	if (strcmp(got, status))
		fail("%s: APP_ACK status=%s, expected %s", what, got, status);
	printf("ack %s: %s\n", what, got);
}

/*
 * Accepts one application within timeout_ms; checks its APP_HELLO. False
 * when it left before saying anything, which only `may_leave` accepts.
 */
static bool accept_app(int timeout_ms, bool may_leave)
{
	struct pollfd p = {.fd = listen_fd, .events = POLLIN};
	struct trax_msg m;
	int err;

	if (poll(&p, 1, timeout_ms) != 1)
		fail("no application connected within %d ms", timeout_ms);
	app_fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (app_fd < 0)
		fail("accept: %s", strerror(errno));
	err = trax_msg_recv(app_fd, &m, 5000);
	if (err == -ECONNRESET && may_leave)
		return false;
	if (err)
		fail("no APP_HELLO: %s", strerror(-err));
	if (m.type != TRAX_MSG_APP_HELLO)
		fail("first message of type %u, not APP_HELLO", m.type);
	check_hello(&m);
	trax_msg_free(&m);
	return true;
}

/* APP_REGISTERED, with events=N (the events described so far) unless `bare`. */
static void send_registered(bool bare)
{
	char n[16];

	snprintf(n, sizeof(n), "%u", nr_events);
	if (bare)
		send_order(TRAX_MSG_APP_REGISTERED, NULL, 0, NULL);
	else
		send_order(TRAX_MSG_APP_REGISTERED, NULL, 0, "events", n, NULL);
	registered_sent++;
}

/* Whether m is one that traxd answers with APP_REGISTERED. */
static bool to_answer(uint16_t type)
{
	return type == TRAX_MSG_APP_READY || (type == TRAX_MSG_APP_EVENTS && ready_count > 0);
}

/* ---- channels ---- */

struct chan {
	uint32_t handle;
	uint32_t stream_id;
	struct trax_shm shm;
	struct ringbuf_config cfg;
	struct ringbuf *rbs;
	unsigned int nr_cpus;
	uint8_t uuid[16];
	int nr_ctx;		  /* vpid, vtid */
	uint32_t ids[MAX_EVENTS]; /* id -> event index + 1 (ids are small here) */
};

static void fake_open(struct ringbuf *rb, void *sb, uint64_t ts, uint64_t seq)
{
	(void)rb, (void)sb, (void)ts, (void)seq;
	fail("the daemon never opens packets");
}

/* The daemon closes packets on flush, as the application's hook does. */
static void fake_close(struct ringbuf *rb, void *sb, uint64_t ts_end, uint64_t content,
		       uint64_t discarded)
{
	struct ctf_packet_header *h = sb;

	(void)rb;
	h->timestamp_end = ts_end;
	h->content_size = content * 8;
	h->packet_size = ((content + 4095) & ~(uint64_t)4095) * 8;
	h->events_discarded = discarded;
}

static void chan_config(struct ringbuf_config *cfg, unsigned int num_subbuf)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->subbuf_size = SUBBUF_SIZE;
	cfg->num_subbuf = num_subbuf;
	cfg->mode = RINGBUF_DISCARD;
	cfg->header_size = sizeof(struct ctf_packet_header);
	cfg->ts_bits = CTF_COMPACT_TS_BITS;
	cfg->open = fake_open;
	cfg->close = fake_close;
}

static void chan_create(struct chan *c, uint32_t handle, uint32_t stream_id)
{
	memset(c, 0, sizeof(*c));
	c->handle = handle;
	c->stream_id = stream_id;
	c->nr_cpus = (unsigned int)get_nprocs_conf();
	chan_config(&c->cfg, NUM_SUBBUF);
	if (trax_shm_create(&c->shm, "fake-traxd", bufset_size(&c->cfg, c->nr_cpus)))
		fail("cannot create the shared memory");
	c->rbs = calloc(c->nr_cpus, sizeof(*c->rbs));
	if (bufset_create(c->shm.addr, c->rbs, &c->cfg, c->nr_cpus))
		fail("bufset_create");
	for (int i = 0; i < 16; i++)
		c->uuid[i] = (uint8_t)(0xa0 + i);
	c->nr_ctx = 2;
}

/* Sends APP_CHANNEL for c, with optional key overrides (key, value, ..., NULL). */
static uint32_t chan_send(struct chan *c, const int *fds, unsigned int nfds, ...)
{
	char handle[16], sid[16], uuid[33], subbuf[16], nsub[16], ncpu[16], size[32];
	const char *keys[] = {"handle",		  "name",	"stream_id", "uuid",
			      "subbuf_size",	  "num_subbuf", "nr_cpus",   "overwrite",
			      "blocking_timeout", "contexts",	"size"};
	const char *vals[11];
	struct trax_msg m;
	va_list ap;
	const char *k;

	snprintf(handle, sizeof(handle), "%u", c->handle);
	snprintf(sid, sizeof(sid), "%u", c->stream_id);
	for (int i = 0; i < 16; i++)
		sprintf(uuid + 2 * i, "%02x", c->uuid[i]);
	snprintf(subbuf, sizeof(subbuf), "%u", SUBBUF_SIZE);
	snprintf(nsub, sizeof(nsub), "%u", NUM_SUBBUF);
	snprintf(ncpu, sizeof(ncpu), "%u", c->nr_cpus);
	snprintf(size, sizeof(size), "%zu", c->shm.size);
	vals[0] = handle, vals[1] = "chan", vals[2] = sid, vals[3] = uuid, vals[4] = subbuf;
	vals[5] = nsub, vals[6] = ncpu, vals[7] = "0", vals[8] = "0", vals[9] = "vpid,vtid";
	vals[10] = size;
	va_start(ap, nfds);
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);

		for (int i = 0; i < 11; i++)
			if (!strcmp(keys[i], k))
				vals[i] = v;
	}
	va_end(ap);
	trax_msg_init(&m, TRAX_MSG_APP_CHANNEL);
	m.seq = next_seq++;
	for (int i = 0; i < 11; i++)
		if (vals[i])
			trax_msg_add(&m, keys[i], "%s", vals[i]);
	if (trax_msg_send(app_fd, &m, fds, nfds))
		fail("cannot send APP_CHANNEL");
	trax_msg_free(&m);
	return m.seq;
}

static void chan_give(struct chan *c)
{
	expect_ack(chan_send(c, &c->shm.fd, 1, NULL), "0", "APP_CHANNEL");
	__atomic_store_n(&bufset_ctrl(c->shm.addr)->active, 1, __ATOMIC_RELEASE);
}

static void chan_bind(struct chan *c, const char *event, uint32_t id)
{
	char handle[16], ref[32];
	int i = find_event(event);

	if (i < 0)
		fail("%s was not described", event);
	snprintf(handle, sizeof(handle), "%u", c->handle);
	snprintf(ref, sizeof(ref), "%d:%u", i, id);
	c->ids[id] = (uint32_t)i + 1;
	expect_ack(send_order(TRAX_MSG_APP_BIND, NULL, 0, "handle", handle, "event", ref, NULL),
		   "0", "APP_BIND");
}

/* ---- reading the buffers ---- */

struct record {
	uint64_t ts;
	uint32_t id;
	int32_t vpid, vtid;
	char text[1024]; /* "name { field = value, ... }" */
	int64_t n;	 /* plug:ev's n */
};

static struct record *records;
static size_t nr_records, cap_records;

static uint64_t get_uint(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	memcpy(&v, p, (size_t)bytes);
	return v;
}

static void print_int(char *out, size_t cap, const unsigned char *p, int bits, int is_signed,
		      int base)
{
	uint64_t v = get_uint(p, bits / 8);

	if (base == 16)
		snprintf(out, cap, "0x%" PRIx64, v);
	else if (is_signed && bits < 64 && (v >> (bits - 1)) & 1)
		snprintf(out, cap, "%" PRId64, (int64_t)(v | (~(uint64_t)0 << bits)));
	else if (is_signed)
		snprintf(out, cap, "%" PRId64, (int64_t)v);
	else
		snprintf(out, cap, "%" PRIu64, v);
}

/* Decodes one payload at p (end: its limit); returns its size. */
static size_t decode_payload(const struct event *e, const unsigned char *p,
			     const unsigned char *end, struct record *r)
{
	const unsigned char *q = p;
	size_t len = strlen(r->text);
	char *out = r->text;

	len += (size_t)snprintf(out + len, sizeof(r->text) - len, "%s {", e->name);
	for (int i = 0; i < e->nfields; i++) {
		const struct field *f = &e->fields[i];
		const char *name = f->name;
		char v[512] = "";

		if (f->nowrite)
			continue;
		switch (f->kind) {
		case 1:
		case 6:
			print_int(v, sizeof(v), q, f->size, f->is_signed, f->base);
			q += f->size / 8;
			break;
		case 2:
			if (f->float_bits == 32) {
				float x;
				memcpy(&x, q, 4);
				snprintf(v, sizeof(v), "%g", x);
			} else {
				double x;
				memcpy(&x, q, 8);
				snprintf(v, sizeof(v), "%g", x);
			}
			q += f->float_bits / 8;
			break;
		case 3: {
			size_t n = strnlen((const char *)q, (size_t)(end - q));

			if (q + n >= end)
				fail("%s: string past the end of the packet", e->name);
			snprintf(v, sizeof(v), "\"%s\"", q);
			q += n + 1;
			break;
		}
		case 4:
		case 5: {
			uint64_t count = (uint64_t)f->count;
			size_t vl = 0;

			if (f->kind == 5) {
				count = get_uint(q, f->len_size / 8);
				q += f->len_size / 8;
				vl += (size_t)snprintf(v, sizeof(v), "(%" PRIu64 ") ", count);
			}
			if (q + count * (uint64_t)(f->size / 8) > end)
				fail("%s: array past the end of the packet", e->name);
			if (f->text) {
				vl += (size_t)snprintf(v + vl, sizeof(v) - vl, "\"%.*s\"",
						       (int)strnlen((const char *)q, count), q);
			} else {
				vl += (size_t)snprintf(v + vl, sizeof(v) - vl, "[");
				for (uint64_t k = 0; k < count && vl < sizeof(v) - 32; k++) {
					char one[32];

					print_int(one, sizeof(one), q + k * (uint64_t)(f->size / 8),
						  f->size, f->is_signed, f->base);
					vl += (size_t)snprintf(v + vl, sizeof(v) - vl, "%s%s",
							       k ? " " : "", one);
				}
				snprintf(v + vl, sizeof(v) - vl, "]");
			}
			q += count * (uint64_t)(f->size / 8);
			break;
		}
		default:
			fail("%s: field kind %d", e->name, f->kind);
		}
		if (q > end)
			fail("%s: record past the end of the packet", e->name);
		if (!strcmp(e->name, "plug:ev") && !strcmp(name, "n"))
			r->n = strtoll(v, NULL, 10);
		len += (size_t)snprintf(out + len, sizeof(r->text) - len, "%s %s = %s",
					i ? "," : "", name, v);
	}
	snprintf(out + len, sizeof(r->text) - len, " }");
	return (size_t)(q - p);
}

/* Decodes one packet (sub-buffer) of c. */
static void read_packet(struct chan *c, int cpu, const unsigned char *sb)
{
	const struct ctf_packet_header *h = (const void *)sb;
	const unsigned char *p = sb + sizeof(*h), *end;
	uint64_t ts;

	if (h->magic != CTF_MAGIC || h->stream_id != c->stream_id || memcmp(h->uuid, c->uuid, 16) ||
	    h->cpu_id != (uint32_t)cpu || h->stream_instance_id != (uint64_t)cpu)
		fail("packet header of CPU %d: magic %#x stream %u cpu %u", cpu, h->magic,
		     h->stream_id, h->cpu_id);
	if (h->content_size / 8 > SUBBUF_SIZE || h->content_size / 8 < sizeof(*h))
		fail("packet of CPU %d: content_size %" PRIu64, cpu, h->content_size);
	end = sb + h->content_size / 8;
	ts = h->timestamp_begin;
	while (p < end) {
		struct record *r;
		uint32_t id, word;
		uint64_t t;

		if (nr_records == cap_records) {
			cap_records = cap_records ? cap_records * 2 : 1024;
			records = realloc(records, cap_records * sizeof(*records));
		}
		r = &records[nr_records];
		memset(r, 0, sizeof(*r));
		memcpy(&word, p, 4);
		if ((word & 31) != CTF_EXTENDED_ID) {
			id = word & 31;
			t = (ts & ~(uint64_t)((1u << 27) - 1)) | (word >> 5);
			if (t < ts)
				t += 1u << 27;
			p += 4;
		} else {
			memcpy(&id, p + 1, 4);
			memcpy(&t, p + 5, 8);
			p += 13;
		}
		ts = t;
		r->ts = t;
		r->id = id;
		if (c->nr_ctx) {
			memcpy(&r->vpid, p, 4);
			memcpy(&r->vtid, p + 4, 4);
			p += 8;
		}
		if (id >= MAX_EVENTS || !c->ids[id])
			fail("a record with id %u, which the daemon did not give", id);
		p += decode_payload(&events[c->ids[id] - 1], p, end, r);
		if (c->nr_ctx && r->vpid != app_pid)
			fail("%s: vpid %d, the application is %d", r->text, r->vpid, app_pid);
		nr_records++;
	}
}

static int cmp_records(const void *a, const void *b)
{
	const struct record *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Where drain() delivers one CPU's packets. */
struct packet_sink {
	struct chan *c;
	int cpu;
};

static int sink_packet(void *arg, const void *sb)
{
	struct packet_sink *k = arg;

	read_packet(k->c, k->cpu, sb);
	return 0;
}

/* Closes the open packets of c and reads every complete one; the records, in time order. */
static size_t drain(struct chan *c)
{
	nr_records = 0;
	for (unsigned int cpu = 0; cpu < c->nr_cpus; cpu++) {
		struct ringbuf *rb = &c->rbs[cpu];
		struct packet_sink k = {c, (int)cpu};
		struct ringbuf_drain_stats st = {0};

		ringbuf_flush(rb);
		/* Every packet before the flush point; the application may be opening the next. */
		if (ringbuf_settle(rb, 1, 1000000))
			fail("CPU %u: a packet stays incomplete (a record never committed)", cpu);
		ringbuf_drain(rb, sink_packet, &k, &st);
	}
	qsort(records, nr_records, sizeof(*records), cmp_records);
	return nr_records;
}

/* ---- scenarios ---- */

static void listen_on(void)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/app.sock", rundir);
	listen_fd = trax_sock_listen(path, 0600);
	if (listen_fd < 0)
		fail("cannot listen on %s: %s", path, strerror(-listen_fd));
	/* Tells the test it may start the application. */
	printf("listening\n");
	fflush(stdout);
}

static void print_descriptions(const char *prefix)
{
	for (uint32_t i = 0; i < nr_events; i++)
		if (!strncmp(events[i].name, prefix, strlen(prefix)))
			printf("event %s loglevel=%d\n%s", events[i].name, events[i].loglevel,
			       events[i].text ? events[i].text : "");
}

static void scenario_hello(void)
{
	static const struct {
		const char *name;
		uint32_t id;
	} ids[] = {{"my_provider:simple_event", 3},
		   {"my_provider:big_event", 40}, /* past 30: the extended event header */
		   {"my_provider:event_instance1", 4},
		   {"my_provider:event_instance2", 31},
		   {"my_provider:event_instance3", 5}};
	struct chan c;
	bool configured = false;
	struct trax_msg m;

	listen_on();
	accept_app(10000, false);
	chan_create(&c, 1, 0);
	while (pump_one(&m, 10000) == 0) {
		uint16_t type = m.type;

		trax_msg_free(&m);
		if (!to_answer(type))
			continue;
		if (!configured && find_event("my_provider:simple_event") >= 0) {
			chan_give(&c);
			for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
				chan_bind(&c, ids[i].name, ids[i].id);
			configured = true;
		}
		send_registered(false);
	}
	print_descriptions("my_provider:");
	printf("ready=%d registered=%d\n", ready_count, registered_sent);
	if (!configured)
		return;
	drain(&c);
	for (size_t i = 0; i < nr_records; i++)
		printf("id=%u %s\n", records[i].id, records[i].text);
}

static void scenario_once(void)
{
	struct trax_msg m;
	int64_t described = -1;

	listen_on();
	accept_app(10000, false);
	/* Until plug:ev is described, and 300 ms more. */
	for (;;) {
		uint16_t type;

		if (described >= 0) {
			struct pollfd p = {.fd = app_fd, .events = POLLIN};
			int64_t left = described + 300 - trax_now_ms();

			if (left <= 0 || poll(&p, 1, (int)left) != 1)
				break;
		}
		if (pump_one(&m, 10000) < 0)
			fail("the application left");
		type = m.type;
		trax_msg_free(&m);
		if (type == TRAX_MSG_APP_READY)
			send_registered(true);
		if (described < 0 && find_event("plug:ev") >= 0)
			described = trax_now_ms();
	}
	print_descriptions("plug:");
	printf("ready=%d registered=%d\n", ready_count, registered_sent);
}

static void scenario_mute(void)
{
	struct trax_msg m;

	listen_on();
	/* Not waiting at all (TRAX_REGISTER_TIMEOUT=0), it may end before its APP_HELLO. */
	if (accept_app(10000, true))
		while (pump_one(&m, 30000) == 0)
			trax_msg_free(&m);
	printf("ready=%d\n", ready_count);
}

/* Registers the application, with plug:ev bound to c (id) once it is described. */
static void register_with(struct chan *c, uint32_t id)
{
	struct trax_msg m;
	bool bound = false;

	while (!bound) {
		if (pump_one(&m, 10000) < 0)
			fail("the application left during its registration");
		if (to_answer(m.type)) {
			if (find_event("plug:ev") >= 0) {
				chan_give(c);
				chan_bind(c, "plug:ev", id);
				bound = true;
			}
			send_registered(false);
		}
		trax_msg_free(&m);
	}
}

/* plug:ev records of the last drain: count, and checks they are numbered without gaps. */
static size_t plug_records(struct chan *c, uint32_t id, int64_t *first, int64_t *last,
			   const char *what)
{
	size_t n = 0;

	for (size_t i = 0; i < nr_records; i++) {
		struct record *r = &records[i];

		if (r->id != id)
			continue;
		if (c->nr_ctx && r->vtid != app_pid)
			fail("%s: vtid %d, the main thread is %d", what, r->vtid, app_pid);
		if (r->n >= 1000000)
			fail("%s: n=%" PRId64 ": an event of the forked child is in the parent's "
			     "buffers",
			     what, r->n);
		if (n && r->n != *last + 1)
			fail("%s: n=%" PRId64 " after %" PRId64 " (events lost or repeated)", what,
			     r->n, *last);
		if (!n)
			*first = r->n;
		*last = r->n;
		n++;
	}
	return n;
}

static int count_fds(int pid)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		fail("cannot open %s", path);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Events stop in c: what was in flight is absorbed, then nothing comes. */
static void expect_silence(struct chan *c, const char *what)
{
	trax_sleep_ms(50);
	drain(c);
	trax_sleep_ms(300);
	if (drain(c))
		fail("%s: %zu records after it (first: %s)", what, nr_records, records[0].text);
	printf("%s: no more records\n", what);
}

/*
 * A child the application forks registers on a connection of its own: its
 * APP_HELLO names it and the application as its parent; it describes the
 * same events and is answered (its fork returns then), gets no channel,
 * and leaves.
 */
static void serve_forked_child(void)
{
	struct pollfd p = {.fd = listen_fd, .events = POLLIN};
	struct trax_msg m, r;
	unsigned int described = 0;
	int fd, pid = 0;
	uint64_t v;

	if (poll(&p, 1, 5000) != 1)
		fail("the forked child did not connect within 5 s");
	fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		fail("accept: %s", strerror(errno));
	if (trax_msg_recv(fd, &m, 5000) || m.type != TRAX_MSG_APP_HELLO)
		fail("the forked child: no APP_HELLO");
	trax_sock_peer(fd, &pid, NULL, NULL);
	if (!trax_msg_get_u64(&m, "pid", &v) || (int)v != pid || pid == app_pid)
		fail("the forked child's APP_HELLO: pid=%s (peer %d, parent %d)",
		     trax_msg_get(&m, "pid"), pid, app_pid);
	if (!trax_msg_get_u64(&m, "ppid", &v) || (int)v != app_pid)
		fail("the forked child's APP_HELLO: ppid=%s, expected %d", trax_msg_get(&m, "ppid"),
		     app_pid);
	trax_msg_free(&m);
	for (;;) {
		if (trax_msg_recv(fd, &m, 5000))
			fail("the forked child left before APP_READY");
		if (m.type == TRAX_MSG_APP_READY) {
			trax_msg_free(&m);
			break;
		}
		if (m.type != TRAX_MSG_APP_EVENTS)
			fail("the forked child sent a message of type %u", m.type);
		for (const char *kv = trax_msg_first(&m); kv; kv = trax_msg_next(&m, kv))
			if (trax_kv_value(kv, "event"))
				described++;
		trax_msg_free(&m);
	}
	if (described != nr_events)
		fail("the forked child described %u events, its parent %u", described, nr_events);
	trax_msg_init(&r, TRAX_MSG_APP_REGISTERED);
	r.seq = next_seq++;
	trax_msg_add(&r, "events", "%u", described);
	if (trax_msg_send(fd, &r, NULL, 0))
		fail("cannot answer the forked child");
	trax_msg_free(&r);
	/* it emits (into no channel) and exits */
	while (trax_msg_recv(fd, &m, 5000) == 0)
		trax_msg_free(&m);
	close(fd);
	printf("fork: the child registered as a process of its own\n");
}

static void scenario_session(void)
{
	struct chan a, b;
	int64_t first, last = -1, prev_last;
	char ha[16], idx[16], ref[32];
	size_t n;
	int fds_before;

	listen_on();
	accept_app(10000, false);
	chan_create(&a, 1, 0);
	register_with(&a, 7);
	snprintf(ha, sizeof(ha), "%u", a.handle);

	/* 1. records flow, with the bound id and both contexts */
	trax_sleep_ms(300);
	drain(&a);
	n = plug_records(&a, 7, &first, &last, "recording");
	if (n < 20)
		fail("only %zu plug:ev records in 300 ms", n);
	printf("recording: plug:ev records with id 7, vpid and vtid of the application\n");

	/* 2. the state dump, into the same channel */
	chan_bind(&a, "lttng_ust_statedump:start", 0);
	chan_bind(&a, "lttng_ust_statedump:end", 1);
	expect_ack(send_order(TRAX_MSG_APP_STATEDUMP, NULL, 0, NULL), "0", "APP_STATEDUMP");
	drain(&a);
	{
		int starts = 0, ends = 0;

		for (size_t i = 0; i < nr_records; i++) {
			starts += records[i].id == 0;
			ends += records[i].id == 1;
		}
		if (starts != 1 || ends != 1)
			fail("state dump: %d start and %d end records, expected 1 and 1", starts,
			     ends);
	}
	plug_records(&a, 7, &first, &last, "state dump");
	printf("statedump: one lttng_ust_statedump:start, one :end\n");

	/* 3. unbind: plug:ev stops; bind again: it goes on */
	snprintf(idx, sizeof(idx), "%d", find_event("plug:ev"));
	expect_ack(send_order(TRAX_MSG_APP_UNBIND, NULL, 0, "handle", ha, "event", idx, NULL), "0",
		   "APP_UNBIND");
	expect_silence(&a, "unbind");
	prev_last = last;
	chan_bind(&a, "plug:ev", 7);
	trax_sleep_ms(300);
	drain(&a);
	if (plug_records(&a, 7, &first, &last, "bound again") < 20 || first <= prev_last)
		fail("bound again: records do not go on after n=%" PRId64, prev_last);
	printf("bound again: records go on\n");

	/* 4. orders that must be refused, each with its reason; nothing leaks */
	fds_before = count_fds(app_pid);
	snprintf(ref, sizeof(ref), "%s:7", idx);
	expect_ack(send_order(TRAX_MSG_APP_BIND, NULL, 0, "handle", "999", "event", ref, NULL),
		   "ENOENT", "APP_BIND unknown handle");
	expect_ack(send_order(TRAX_MSG_APP_BIND, NULL, 0, "handle", ha, "event", "999999:1", NULL),
		   "ENOENT", "APP_BIND unknown event index");
	expect_ack(send_order(TRAX_MSG_APP_BIND, NULL, 0, "handle", ha, "event", "3", NULL),
		   "EINVAL", "APP_BIND event without id");
	expect_ack(
	    send_order(TRAX_MSG_APP_BIND, NULL, 0, "handle", ha, "event", "1:99999999999", NULL),
	    "EINVAL", "APP_BIND id past 32 bits");
	expect_ack(send_order(TRAX_MSG_APP_BIND, NULL, 0, "event", ref, NULL), "EINVAL",
		   "APP_BIND without handle");
	expect_ack(send_order(TRAX_MSG_APP_UNBIND, NULL, 0, "handle", ha, "all", "2", NULL),
		   "EINVAL", "APP_UNBIND all=2");
	expect_ack(send_order(TRAX_MSG_APP_CHANNEL_DEL, NULL, 0, "handle", "12345", NULL), "ENOENT",
		   "APP_CHANNEL_DEL unknown handle");
	expect_ack(send_order(200, NULL, 0, NULL), "ENOSYS", "unknown message type");
	{
		struct chan bad;
		char small[32], badsize[32];
		int two[2];

		chan_create(&bad, 5, 1);
		expect_ack(chan_send(&a, &bad.shm.fd, 1, NULL), "EEXIST",
			   "APP_CHANNEL handle in use");
		expect_ack(chan_send(&bad, NULL, 0, NULL), "EINVAL", "APP_CHANNEL without memory");
		two[0] = two[1] = bad.shm.fd;
		expect_ack(chan_send(&bad, two, 2, NULL), "EINVAL",
			   "APP_CHANNEL with two descriptors");
		snprintf(small, sizeof(small), "%zu", bad.shm.size - 4096);
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "size", small, NULL), "EINVAL",
			   "APP_CHANNEL size too small for its buffers");
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "num_subbuf", "4", NULL), "EINVAL",
			   "APP_CHANNEL geometry unlike the memory");
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "num_subbuf", "3", NULL), "EINVAL",
			   "APP_CHANNEL num_subbuf not a power of two");
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "uuid", "xyz", NULL), "EINVAL",
			   "APP_CHANNEL bad uuid");
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "contexts", "vpid,bogus", NULL),
			   "EINVAL", "APP_CHANNEL unknown context");
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "nr_cpus", "0", NULL), "EINVAL",
			   "APP_CHANNEL nr_cpus=0");
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "blocking_timeout", "-2", NULL),
			   "EINVAL", "APP_CHANNEL blocking_timeout=-2");
		/* A file shorter than the size announced: mapping it would mean SIGBUS. */
		snprintf(badsize, sizeof(badsize), "%zu", bad.shm.size + 65536);
		expect_ack(chan_send(&bad, &bad.shm.fd, 1, "size", badsize, NULL), "EINVAL",
			   "APP_CHANNEL size past the end of the memory");
		/* Ours cannot shrink (sealed); memory that could is refused, even whole. */
		if (ftruncate(bad.shm.fd, 4096) == 0)
			fail("a channel's memory could be truncated after it was made");
		{
			int open_fd = memfd_create("unsealed", MFD_CLOEXEC);

			if (open_fd < 0 || ftruncate(open_fd, (off_t)bad.shm.size) < 0)
				fail("memfd_create");
			expect_ack(chan_send(&bad, &open_fd, 1, NULL), "EINVAL",
				   "APP_CHANNEL memory that could shrink");
			close(open_fd);
		}
	}
	if (count_fds(app_pid) != fds_before)
		fail("the application holds %d descriptors after the refused orders, %d before",
		     count_fds(app_pid), fds_before);
	printf("refused orders: no descriptor kept\n");
	/* (the orders can take less than the application's pause between events) */
	trax_sleep_ms(100);
	drain(&a);
	if (plug_records(&a, 7, &first, &last, "after the refused orders") < 1)
		fail("no records after the refused orders");

	/* 5. a second channel, then deleted: only it stops, no descriptor stays */
	fds_before = count_fds(app_pid);
	chan_create(&b, 2, 1);
	b.nr_ctx = 0;
	expect_ack(chan_send(&b, &b.shm.fd, 1, "contexts", "", NULL), "0", "APP_CHANNEL second");
	__atomic_store_n(&bufset_ctrl(b.shm.addr)->active, 1, __ATOMIC_RELEASE);
	chan_bind(&b, "plug:ev", 3);
	trax_sleep_ms(300);
	drain(&b);
	{
		int64_t f2, l2;

		if (plug_records(&b, 3, &f2, &l2, "second channel") < 20)
			fail("the second channel records too little");
	}
	drain(&a);
	plug_records(&a, 7, &first, &last, "first channel, with the second");
	{
		char hb[16];

		snprintf(hb, sizeof(hb), "%u", b.handle);
		expect_ack(send_order(TRAX_MSG_APP_CHANNEL_DEL, NULL, 0, "handle", hb, NULL), "0",
			   "APP_CHANNEL_DEL");
	}
	expect_silence(&b, "channel deleted");
	if (count_fds(app_pid) != fds_before)
		fail(
		    "the application holds %d descriptors after a channel came and went, %d before",
		    count_fds(app_pid), fds_before);
	drain(&a);
	if (plug_records(&a, 7, &first, &last, "first channel, second deleted") < 20)
		fail("the first channel stopped with the second");

	/*
	 * 6. signals go to the application; a forked child registers as a
	 * process of its own and writes nothing in its parent's buffers
	 */
	kill(app_pid, SIGUSR1);
	kill(app_pid, SIGUSR2); /* the application forks a child that traces */
	serve_forked_child();
	trax_sleep_ms(100);
	drain(&a);
	plug_records(&a, 7, &first, &last, "after fork");
	printf("fork: no record of the child\n");

	/* 7. the daemon goes away: the application unbinds, maps nothing of ours */
	{
		char path[4200];

		snprintf(path, sizeof(path), "%s/app.sock", rundir);
		unlink(path);
		close(listen_fd);
		shutdown(app_fd, SHUT_RDWR);
		close(app_fd);
	}
	trax_sleep_ms(100);
	drain(&a);
	plug_records(&a, 7, &first, &last, "disconnection");
	expect_silence(&a, "disconnected");
	printf("last=%" PRId64 "\n", last);
}

static void scenario_closefds(void)
{
	struct chan a, b;
	struct trax_msg m;
	int64_t first, last, t0;
	int pid;

	listen_on();
	accept_app(10000, false);
	pid = app_pid;
	chan_create(&a, 1, 0);
	register_with(&a, 7);
	/* The application closes every descriptor: the connection ends. */
	t0 = trax_now_ms();
	while (pump_one(&m, 10000) == 0)
		trax_msg_free(&m);
	close(app_fd);
	printf("connection closed by the application\n");
	/* It registers again, with a new connection. */
	nr_events = 0;
	ready_count = 0;
	accept_app(5000, false);
	if (app_pid != pid)
		fail("application %d connected, expected %d", app_pid, pid);
	printf("registered again within 2.5 s: %s\n", trax_now_ms() - t0 <= 2500 ? "yes" : "no");
	chan_create(&b, 1, 0);
	register_with(&b, 7);
	trax_sleep_ms(300);
	drain(&b);
	if (plug_records(&b, 7, &first, &last, "registered again") < 20)
		fail("registered again: too few records");
	if (find_event("robust:ev") < 0)
		fail("the provider loaded after the descriptors were closed was not described");
	printf("registered again: records go on, robust:ev described\n");
}

static void scenario_reconnect(int pid, int64_t after)
{
	struct chan c;
	int64_t t0 = trax_now_ms(), first, last;

	listen_on();
	accept_app(5000, false);
	if (app_pid != pid)
		fail("application %d connected, expected %d", app_pid, pid);
	printf("reconnected within 2.5 s: %s\n", trax_now_ms() - t0 <= 2500 ? "yes" : "no");
	chan_create(&c, 1, 0);
	register_with(&c, 9);
	trax_sleep_ms(300);
	drain(&c);
	if (plug_records(&c, 9, &first, &last, "new daemon") < 20 || first <= after)
		fail("new daemon: records do not go on after n=%" PRId64, after);
	printf("new daemon: records go on\n");
}

int main(int argc, char **argv)
{
	const char *scenario;

	if (argc < 3) {
		fprintf(stderr, "usage: fake-traxd RUNDIR hello|mute|session|reconnect ...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(60); /* a stuck test fails instead of hanging */
	trax_clock_init();
	rundir = argv[1];
	scenario = argv[2];
	if (!strcmp(scenario, "hello"))
		scenario_hello();
	else if (!strcmp(scenario, "once"))
		scenario_once();
	else if (!strcmp(scenario, "mute"))
		scenario_mute();
	else if (!strcmp(scenario, "session"))
		scenario_session();
	else if (!strcmp(scenario, "closefds"))
		scenario_closefds();
	else if (!strcmp(scenario, "reconnect") && argc == 7)
		scenario_reconnect(atoi(argv[4]), strtoll(argv[6], NULL, 10));
	else
		fail("unknown scenario %s", scenario);
	fflush(stdout);
	return 0;
}
