/*
 * test_daemon_client.c - what the daemon client builds on, below the
 * protocol (app_register.sh drives the protocol itself with a fake daemon):
 *
 *  - the registry's event indexes (registration order, duplicates not
 *    renumbered) and descriptions;
 *  - binding by index with the daemon's ids: tracepoint state, the binding
 *    lists the probes walk (an unlinked binding keeps pointing into the
 *    list; binding again to the same channel with the same id reuses it),
 *    unbinding one event or a whole channel;
 *  - probes running in two threads while bindings change 20000 times: no
 *    crash (ASan in the sanitizer tree), and every record of each channel
 *    carries that channel's id for the event;
 *  - channels over a bufset received from elsewhere (trax_channel_attach):
 *    every geometry or size that does not match the memory is refused and
 *    the descriptor is closed in every case;
 *  - a retired channel records nothing, and what a late writer stores lands
 *    in private memory, not in the shared set;
 *  - the `contexts` list of APP_CHANNEL, strictly parsed.
 *
 * It runs itself again with TRAX_RUNDIR pointing nowhere, so that the
 * library's start-up never registers the test with a daemon of the machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "writer/packet.h"
#include "ringbuf/bufset.h"
#include "ust/ust.h"

/* ---- a provider written by hand, as tracepoint-event.h would generate it ---- */

/* The generated probe: one record of a 4-byte payload per binding. */
static void probe_u32(void *data, uint32_t v)
{
	struct trax_event_state *st = data;
	struct trax_binding *b = __atomic_load_n(&st->bindings, __ATOMIC_ACQUIRE);

	for (; b; b = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE)) {
		struct trax_ctx c;

		if (trax_event_reserve(&c, b, sizeof(v), NULL) == 0) {
			trax_write(&c, &v, sizeof(v));
			trax_event_commit(&c);
		}
	}
}

static const struct trax_field_desc fields_u32[] = {
    {"v", TRAX_FIELD_INTEGER, 0, 0, {32, 0, 10, 0, 0}, {0, 0, 0, 0, 0}, 0, NULL}};
static struct trax_event_desc ev_b = {
    "utest:b", "utest:b", "uint32_t, v", (void (*)(void))probe_u32, fields_u32, 1, -1, NULL, NULL};
static struct trax_event_desc ev_a = {
    "utest:a",	   "utest:a", "uint32_t, v", (void (*)(void))probe_u32, fields_u32, 1,
    TRACE_WARNING, NULL,      &ev_b};
static struct trax_provider_desc utest_provider = {"utest", &ev_a, 2, TRAX_PROBE_ABI, NULL};

static struct trax_tracepoint tp_a = {"utest:a", 0, 0, 0, "uint32_t, v"};
static struct trax_tracepoint tp_b = {"utest:b", 0, 0, 0, "uint32_t, v"};
static struct trax_tracepoint *const utest_tps[] = {&tp_a, &tp_b};

static void fire(struct trax_tracepoint *tp, uint32_t v)
{
	if (__atomic_load_n(&tp->state, __ATOMIC_RELAXED)) {
		void (*p)(void *, uint32_t);

		*(void **)&p = __atomic_load_n(&tp->probe, __ATOMIC_ACQUIRE);
		if (p)
			p(__atomic_load_n(&tp->data, __ATOMIC_ACQUIRE), v);
	}
}

static struct trax_binding *bindings_of(struct trax_tracepoint *tp)
{
	struct trax_event_state *st = tp->data;

	return st ? st->bindings : NULL;
}

static int list_length(const struct trax_binding *b)
{
	int n = 0;

	for (; b; b = b->next)
		n++;
	return n;
}

static void new_channel(struct trax_channel *ch, const char *name)
{
	struct trax_channel_attr attr;
	uint8_t uuid[16] = {1, 2, 3};

	memset(&attr, 0, sizeof(attr));
	attr.subbuf_size = 4096;
	attr.num_subbuf = 64;
	if (trax_channel_create(ch, name, 0, &attr, uuid)) {
		fprintf(stderr, "cannot create channel %s\n", name);
		exit(1);
	}
	trax_channel_set_active(ch, 1);
}

/*
 * The end of a test's channel: the library keeps a retired channel's
 * buffers for good (a probe may still hold them); here nothing runs any more.
 */
static void drop_channel(struct trax_channel *ch)
{
	trax_channel_retire(ch);
	free(ch->bufs);
	ch->bufs = NULL;
}

/* ---- 1. indexes ---- */

static uint32_t index_a, index_b;

static void test_indexes(void)
{
	uint32_t before = trax_registry_nr_indexed();
	const struct trax_event_desc *d;
	int level;

	CHECK(trax_tracepoints_register(utest_tps, 2) == 0);
	CHECK(trax_provider_register(&utest_provider) == 0);
	CHECK_EQ(trax_registry_nr_indexed(), before + 2);
	/* The library's own providers come first (state dump, tracef, tracelog). */
	CHECK(before >= 21);
	index_a = before;
	index_b = before + 1;
	CHECK(trax_registry_event_info(index_a, &d, &level) == 0 && d == &ev_a);
	CHECK_EQ(level, TRACE_WARNING);
	CHECK(trax_registry_event_info(index_b, &d, &level) == 0 && d == &ev_b);
	CHECK_EQ(level, TRACE_DEBUG_LINE);
	CHECK_EQ(trax_registry_event_info(before + 2, &d, &level), -ENOENT);
	/* Registered again: the same indexes. */
	CHECK(trax_provider_register(&utest_provider) == 0);
	CHECK_EQ(trax_registry_nr_indexed(), before + 2);
	CHECK(tp_a.probe == (void *)probe_u32 && tp_a.state == 0);
}

/* ---- 2. binding by index ---- */

static void test_binding(void)
{
	struct trax_channel c1, c2;
	struct trax_binding *first, *b;

	new_channel(&c1, "c1");
	new_channel(&c2, "c2");
	CHECK_EQ(trax_registry_bind_index(index_a, &c1, 7), 0);
	CHECK_EQ(tp_a.state, 1);
	CHECK_EQ(tp_b.state, 0);
	first = bindings_of(&tp_a);
	CHECK(first && first->channel == &c1 && first->event_id == 7 && !first->next);
	/* Bound twice: one binding. */
	CHECK_EQ(trax_registry_bind_index(index_a, &c1, 7), 0);
	CHECK_EQ(list_length(bindings_of(&tp_a)), 1);
	CHECK_EQ(trax_registry_bind_index(index_a, &c2, 40), 0);
	CHECK_EQ(list_length(bindings_of(&tp_a)), 2);
	b = bindings_of(&tp_a);
	CHECK(b->channel == &c2 && b->event_id == 40 && b->next == first);

	/* Unlinked, the c2 binding still leads into the list (a probe may stand on it). */
	CHECK_EQ(trax_registry_unbind_index(index_a, &c2), 0);
	CHECK(bindings_of(&tp_a) == first);
	CHECK(b->next == first);
	CHECK_EQ(tp_a.state, 1);
	/* Bound again the same way: the same binding, at the head. */
	CHECK_EQ(trax_registry_bind_index(index_a, &c2, 40), 0);
	CHECK(bindings_of(&tp_a) == b && b->next == first);
	/* With another id: a new binding, the old id is gone from the list. */
	CHECK_EQ(trax_registry_bind_index(index_a, &c2, 41), 0);
	CHECK_EQ(list_length(bindings_of(&tp_a)), 2);
	CHECK_EQ(bindings_of(&tp_a)->event_id, 41);
	CHECK(bindings_of(&tp_a) != b);

	/* A whole channel. */
	CHECK_EQ(trax_registry_bind_index(index_b, &c1, 8), 0);
	CHECK_EQ(tp_b.state, 1);
	trax_registry_unbind_channel(&c1);
	CHECK_EQ(tp_b.state, 0);
	CHECK(bindings_of(&tp_b) == NULL);
	CHECK_EQ(list_length(bindings_of(&tp_a)), 1);
	CHECK(bindings_of(&tp_a)->channel == &c2);
	trax_registry_unbind_channel(&c2);
	CHECK_EQ(tp_a.state, 0);
	CHECK(bindings_of(&tp_a) == NULL);

	/* Indexes that do not exist. */
	CHECK_EQ(trax_registry_bind_index(1u << 30, &c1, 1), -ENOENT);
	CHECK_EQ(trax_registry_unbind_index(1u << 30, &c1), -ENOENT);
	drop_channel(&c1);
	drop_channel(&c2);
}

/* ---- 3. probes while bindings change ---- */

static volatile int stop_firing;
static uint32_t progress[2]; /* per firing thread: the number it fires next */

/* Thread k fires (k << 28 | i) for i = 0, 1, 2, ... */
static void *firing(void *arg)
{
	uint32_t k = (uint32_t)(uintptr_t)arg, i = 0;

	while (!__atomic_load_n(&stop_firing, __ATOMIC_RELAXED)) {
		__atomic_store_n(&progress[k], i, __ATOMIC_RELEASE);
		fire(&tp_a, k << 28 | i++);
		__atomic_store_n(&progress[k], i, __ATOMIC_RELEASE);
		fire(&tp_b, k << 28 | i++);
	}
	return NULL;
}

/*
 * Every record of ch: counts per id (compact header, ids < 32), and the
 * largest number of each firing thread.
 */
static unsigned long read_ids(struct trax_channel *ch, unsigned long counts[32], uint32_t max_i[2])
{
	unsigned long total = 0;

	memset(counts, 0, 32 * sizeof(counts[0]));
	for (int cpu = 0; cpu < ch->nr_cpus; cpu++) {
		struct ringbuf *rb = &ch->bufs[cpu];
		uint64_t pos;
		void *sb;

		ringbuf_flush(rb);
		while (ringbuf_get_subbuf(rb, &pos, &sb) == 0) {
			const struct ctf_packet_header *h = sb;
			const unsigned char *p = (const unsigned char *)sb + sizeof(*h);
			const unsigned char *end = (const unsigned char *)sb + h->content_size / 8;
			uint32_t word, v;

			for (; p + 8 <= end; p += 8) {
				memcpy(&word, p, 4);
				memcpy(&v, p + 4, 4);
				counts[word & 31]++;
				if (max_i && (v >> 28) < 2 && (v & 0x0fffffff) > max_i[v >> 28])
					max_i[v >> 28] = v & 0x0fffffff;
				total++;
			}
			CHECK(p == end);
			ringbuf_put_subbuf(rb, pos);
		}
	}
	return total;
}

/* Waits (5 s at most) until a firing thread has gone `delta` numbers past from[]. */
static bool wait_progress(const uint32_t from[2], uint32_t delta)
{
	for (int i = 0; i < 5000; i++) {
		for (int k = 0; k < 2; k++)
			if (__atomic_load_n(&progress[k], __ATOMIC_ACQUIRE) >= from[k] + delta)
				return true;
		usleep(1000);
	}
	return false;
}

static void test_concurrent(void)
{
	struct trax_channel c1, c2;
	unsigned long counts[32];
	uint32_t snap[2], max_i[2] = {0, 0};
	pthread_t t[2];

	new_channel(&c1, "c1");
	new_channel(&c2, "c2");
	/* Discard mode: full buffers only drop records; the reader drains them as it goes. */
	__atomic_store_n(&stop_firing, 0, __ATOMIC_RELAXED);
	for (uintptr_t k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, firing, (void *)k);
	for (int round = 0; round < 20000; round++) {
		switch (round % 5) {
		case 0:
			trax_registry_bind_index(index_a, &c1, 3);
			trax_registry_bind_index(index_b, &c2, 4);
			break;
		case 1:
			trax_registry_bind_index(index_a, &c2, 5);
			trax_registry_bind_index(index_b, &c1, 6);
			break;
		case 2:
			trax_registry_unbind_index(index_a, &c1);
			break;
		case 3:
			trax_registry_unbind_channel(&c2);
			break;
		case 4:
			trax_registry_unbind_index(index_b, &c1);
			break;
		}
		if (round % 1000 == 999) {
			/* Each channel holds only its own ids for the events. */
			read_ids(&c1, counts, NULL);
			CHECK_EQ(counts[4] + counts[5], 0);
			read_ids(&c2, counts, NULL);
			CHECK_EQ(counts[3] + counts[6], 0);
		}
	}
	/* The threads do record (once the reader has made room, after the churn). */
	trax_registry_bind_index(index_a, &c1, 3);
	{
		int tries = 0;

		while (read_ids(&c1, counts, NULL) == 0 && ++tries < 5000)
			usleep(1000);
		CHECK(tries < 5000);
	}
	trax_registry_unbind_channel(&c1);
	trax_registry_unbind_channel(&c2);
	CHECK_EQ(tp_a.state, 0);
	CHECK_EQ(tp_b.state, 0);
	/*
	 * Once unbound, no call that starts records anything: only the calls
	 * already inside the probe (a thread may be preempted there) may
	 * still commit, with numbers up to what the threads had reached.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	snap[0] = __atomic_load_n(&progress[0], __ATOMIC_ACQUIRE);
	snap[1] = __atomic_load_n(&progress[1], __ATOMIC_ACQUIRE);
	CHECK(wait_progress(snap, 1000)); /* they go on calling */
	read_ids(&c1, counts, max_i);
	read_ids(&c2, counts, max_i);
	__atomic_store_n(&stop_firing, 1, __ATOMIC_RELAXED);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	read_ids(&c1, counts, max_i);
	read_ids(&c2, counts, max_i);
	CHECK(max_i[0] <= snap[0] + 1);
	CHECK(max_i[1] <= snap[1] + 1);
	drop_channel(&c1);
	drop_channel(&c2);
}

/* ---- 4. attaching to a set made elsewhere ---- */

static bool fd_closed(int fd)
{
	return fcntl(fd, F_GETFD) < 0 && errno == EBADF;
}

static void test_attach(void)
{
	struct trax_channel owner, ch;
	struct trax_channel_attr attr;
	uint8_t uuid[16] = {9};
	size_t size;
	int fd, pipefd[2];

	new_channel(&owner, "owner");
	attr = owner.attr;
	size = owner.shm.size;

	fd = dup(owner.shm.fd);
	CHECK_EQ(
	    trax_channel_attach(&ch, "ok", 3, &attr, uuid, (unsigned int)owner.nr_cpus, fd, size),
	    0);
	CHECK(fd_closed(fd));
	CHECK_EQ(ch.nr_cpus, owner.nr_cpus);
	CHECK_EQ(ch.stream_id, 3);
	CHECK(ch.active == &ch.ctrl->active);
	/* The same memory: the owner's active word is the one the attached channel reads. */
	CHECK_EQ(*ch.active, 1);
	trax_channel_set_active(&owner, 0);
	CHECK_EQ(*ch.active, 0);
	trax_channel_set_active(&owner, 1);
	drop_channel(&ch);

	attr.num_subbuf = 32;
	fd = dup(owner.shm.fd);
	CHECK_EQ(trax_channel_attach(&ch, "geometry", 0, &attr, uuid, (unsigned int)owner.nr_cpus,
				     fd, size),
		 -EINVAL);
	CHECK(fd_closed(fd));
	attr = owner.attr;
	attr.overwrite = 1;
	fd = dup(owner.shm.fd);
	CHECK_EQ(
	    trax_channel_attach(&ch, "mode", 0, &attr, uuid, (unsigned int)owner.nr_cpus, fd, size),
	    -EINVAL);
	CHECK(fd_closed(fd));
	attr = owner.attr;
	fd = dup(owner.shm.fd);
	CHECK_EQ(trax_channel_attach(&ch, "more cpus", 0, &attr, uuid,
				     (unsigned int)owner.nr_cpus + 1, fd, size),
		 -EINVAL);
	CHECK(fd_closed(fd));
	fd = dup(owner.shm.fd);
	CHECK_EQ(trax_channel_attach(&ch, "small", 0, &attr, uuid, (unsigned int)owner.nr_cpus, fd,
				     size - 4096),
		 -EINVAL);
	CHECK(fd_closed(fd));
	fd = dup(owner.shm.fd);
	CHECK_EQ(trax_channel_attach(&ch, "past the file", 0, &attr, uuid,
				     (unsigned int)owner.nr_cpus, fd, size + 4096),
		 -EINVAL);
	CHECK(fd_closed(fd));
	fd = dup(owner.shm.fd);
	CHECK_EQ(trax_channel_attach(&ch, "no cpu", 0, &attr, uuid, 0, fd, size), -EINVAL);
	CHECK(fd_closed(fd));
	CHECK(pipe(pipefd) == 0);
	CHECK_EQ(trax_channel_attach(&ch, "pipe", 0, &attr, uuid, 1, pipefd[0], size), -EINVAL);
	CHECK(fd_closed(pipefd[0]));
	close(pipefd[1]);
	/* Zeroes where a set should be (no magic). */
	{
		struct trax_shm blank;

		CHECK(trax_shm_create(&blank, "blank", size) == 0);
		CHECK_EQ(trax_channel_attach(&ch, "blank", 0, &attr, uuid,
					     (unsigned int)owner.nr_cpus, blank.fd, size),
			 -EINVAL);
		CHECK(fd_closed(blank.fd));
		blank.fd = -1;
		trax_shm_destroy(&blank);
	}
	drop_channel(&owner);
}

/* ---- 5. retiring ---- */

static void test_retire(void)
{
	struct trax_channel ch;
	struct trax_ctx c;
	struct trax_binding b = {NULL, &ch, 1, 0, NULL};
	unsigned char *shared, *old;
	int fd;

	new_channel(&ch, "retired");
	fd = dup(ch.shm.fd);
	shared = mmap(NULL, ch.shm.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(shared != MAP_FAILED);
	CHECK_EQ(trax_event_reserve(&c, &b, 4, NULL), 0);
	trax_event_commit(&c);
	old = ch.shm.addr;
	trax_channel_retire(&ch);
	CHECK(ch.active != &ch.ctrl->active);
	CHECK_EQ(*ch.active, 0);
	CHECK_EQ(trax_event_reserve(&c, &b, 4, NULL), -1);
	/* The set stays active for the others; this process's view of it is gone. */
	CHECK_EQ(bufset_ctrl(shared)->active, 1);
	CHECK_EQ(bufset_ctrl(shared)->magic, BUFSET_MAGIC);
	CHECK_EQ(bufset_ctrl(old)->magic, 0);
	/* A late writer's stores land in private pages. */
	memset(old + BUFSET_CTRL_SIZE, 0x5a, 64);
	CHECK(shared[BUFSET_CTRL_SIZE] != 0x5a);
	munmap(shared, ch.shm.size);
	close(fd);
	free(ch.bufs);
}

/* ---- 6. contexts ---- */

static void test_contexts(void)
{
	struct trax_channel_attr a;

	memset(&a, 0, sizeof(a));
	CHECK_EQ(trax_channel_parse_contexts(&a, "vtid,vpid,ip", 1), 0);
	CHECK_EQ(a.nr_contexts, 3);
	CHECK(a.contexts[0] == CTF_CTX_VTID && a.contexts[1] == CTF_CTX_VPID &&
	      a.contexts[2] == CTF_CTX_IP);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(trax_channel_parse_contexts(&a, "", 1), 0);
	CHECK_EQ(a.nr_contexts, 0);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(trax_channel_parse_contexts(&a, "vpid,vpid", 1), -EINVAL);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(trax_channel_parse_contexts(&a, "vpid,,vtid", 1), -EINVAL);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(trax_channel_parse_contexts(&a, "procname,cpu_id", 1), -EINVAL);
	/* TRAX_CONTEXT (not strict): unknown names are skipped. */
	memset(&a, 0, sizeof(a));
	CHECK_EQ(trax_channel_parse_contexts(&a, "procname,cpu_id,procname,pthread_id", 0), 0);
	CHECK_EQ(a.nr_contexts, 2);
	CHECK(a.contexts[0] == CTF_CTX_PROCNAME && a.contexts[1] == CTF_CTX_PTHREAD_ID);
}

int main(int argc, char **argv)
{
	(void)argc;
	if (!getenv("TRAX_TEST_REEXEC")) {
		setenv("TRAX_TEST_REEXEC", "1", 1);
		setenv("TRAX_RUNDIR", "/nonexistent/trax-unit-test", 1);
		unsetenv("TRAX_OUTPUT");
		unsetenv("LTTNG_UST_OUTPUT");
		execv("/proc/self/exe", argv);
		perror("execv /proc/self/exe");
		return 1;
	}
	test_indexes();
	test_binding();
	test_concurrent();
	test_attach();
	test_retire();
	test_contexts();
	if (!failures)
		puts("test_daemon_client: all checks passed");
	return CHECK_RESULT();
}
