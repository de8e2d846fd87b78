/*
 * fuzz_syscall_payload.c - libFuzzer target for the decoding of the BPF
 * system call probes' records (src/kernel/syscall-payload.c): the first
 * byte picks an event (connect's entry and its decoded socket address,
 * accept4's entry and exit, pipe2's exit, execve's entry, mount's three
 * strings, the unknown-call exit), the rest is the record, of exactly
 * that size. A record must be refused, or give a payload that fits the
 * output and, for fixed layouts, has their size.
 *
 * (tools/fuzz.sh reads one line of sources: payload, override, rules, table)
 * FUZZ-SOURCES: src/kernel/syscall-[coprt]*.c src/kernel/tp-format.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "kernel/syscall-table.h"

/* (the table's numbers are not needed: no table is loaded) */
int sc_nr_of(const char *name)
{
	(void)name;
	return -1;
}

static struct sc_call calls[6];
static struct sc_event unknown_exit;
static unsigned int ncalls;

static void add(const char *name, int nr, unsigned int nargs, const char *const *types,
		const char *const *names)
{
	struct sc_call *c = &calls[ncalls++];
	unsigned int fallback = 0;

	c->name = strdup(name);
	c->nr = nr;
	c->nargs = nargs;
	for (unsigned int a = 0; a < nargs; a++) {
		c->arg_type[a] = strdup(types[a]);
		c->arg_name[a] = strdup(names[a]);
	}
	if (sc_call_build(c, &fallback))
		abort();
}

static void setup(void)
{
	static const char *const sock_t[] = {"int", "struct sockaddr *", "int *", "int"};
	static const char *const connect_n[] = {"fd", "uservaddr", "addrlen"};
	static const char *const accept_n[] = {"fd", "upeer_sockaddr", "upeer_addrlen", "flags"};
	static const char *const pipe_t[] = {"int *", "int"};
	static const char *const pipe_n[] = {"fildes", "flags"};
	static const char *const exec_t[] = {"const char *", "const char *const *",
					     "const char *const *"};
	static const char *const exec_n[] = {"filename", "argv", "envp"};
	static const char *const mount_t[] = {"char *", "char *", "char *", "unsigned long",
					      "void *"};
	static const char *const mount_n[] = {"dev_name", "dir_name", "type", "flags", "data"};

	add("connect", 42, 3, (const char *const[]){"int", "struct sockaddr *", "int"}, connect_n);
	add("accept4", 288, 4, sock_t, accept_n);
	add("pipe2", 293, 2, pipe_t, pipe_n);
	add("execve", 59, 3, exec_t, exec_n);
	add("mount", 165, 5, mount_t, mount_n);
	if (sc_event_init(&unknown_exit, "syscall_", "exit_unknown", 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[SC_PAYLOAD_MAX];
	const struct sc_event *ev;
	struct sc_rec *rec;
	unsigned int pick;
	long n;

	if (!ncalls)
		setup();
	if (size < 1)
		return 0;
	pick = data[0] % (2 * ncalls);
	ev = &calls[pick / 2].ev[pick % 2];
	/* a copy of the exact size, 8-byte aligned as the reader keeps records */
	rec = malloc(size - 1 ? size - 1 : 1);
	memcpy(rec, data + 1, size - 1);
	n = sc_payload(ev, rec, size - 1, out, sizeof(out));
	CHECK(n >= -1 && n <= (long)sizeof(out));
	if (n >= 0) {
		CHECK(size - 1 >= sizeof(*rec) && rec->size <= size - 1);
		/* connect: fd, uservaddr, addrlen, family, dport, then two
		   sequences' lengths and at most one address (4 or 16 bytes) */
		if (ev == &calls[0].ev[0])
			CHECK(n == 28 || n == 32 || n == 44, "connect payload %ld", n);
		if (ev == &calls[2].ev[1]) /* pipe2's exit: ret, int[2] */
			CHECK_EQ(n, 16);
	}
	free(rec);
	(void)unknown_exit;
	return 0;
}
