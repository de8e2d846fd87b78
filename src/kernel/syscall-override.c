/*
 * syscall-override.c - the calls LTTng-modules 2.13 lays out by hand on
 * x86-64 instead of from their arguments (its syscalls_*_override.h):
 * their field names, types (hex pointers, a user array, the socket
 * address decoded into family, port and address), and directions. The
 * ones trax does not reproduce (select, poll, epoll's, whose fd sets and
 * event arrays LTTng copies; the enumerations of mmap, fcntl) keep the
 * generic layout: docs/kernel.md lists them.
 */
#include <string.h>

#include "kernel/syscall-table.h"

enum ofkind {
	OF_I32 = 1, /* int */
	OF_XI32,    /* int, shown in hex */
	OF_XU32,    /* unsigned int, hex */
	OF_U16,	    /* unsigned short */
	OF_NU16,    /* uint16 in network order */
	OF_I64,	    /* long */
	OF_U64,	    /* size_t */
	OF_X64,	    /* a pointer or flags, hex */
	OF_STR,	    /* a user string */
	OF_INT2,    /* int[2] read from user memory */
	OF_V4,	    /* sequence of 4 bytes, network order */
	OF_V6,	    /* sequence of 8 uint16, network order */
};

struct ofield {
	const char *name;
	uint8_t src; /* enum sc_src */
	uint8_t arg;
	uint8_t kind;
};

struct override {
	const char *call;
	const struct ofield *entry, *exit;
	unsigned int nentry, nexit;
	uint8_t lenarg; /* socket address: the argument with its length, */
	bool lenptr;	/* or pointing to it */
};

#define RET                                                                                        \
	{                                                                                          \
		"ret", SC_SRC_RET, 0, OF_I64                                                       \
	}
#define ARG(n, a, k)                                                                               \
	{                                                                                          \
		n, SC_SRC_ARG, a, k                                                                \
	}
#define N(a) (unsigned int)(sizeof(a) / sizeof(a[0]))
#define SOCKADDR(arg, p)                                                                           \
	{"family", SC_SRC_SA_FAMILY, arg, OF_U16}, {p, SC_SRC_SA_PORT, arg, OF_NU16},              \
	    {"v4addr", SC_SRC_SA_V4, arg, OF_V4},                                                  \
	{                                                                                          \
		"v6addr", SC_SRC_SA_V6, arg, OF_V6                                                 \
	}

static const struct ofield ret_only[] = {RET};

static const struct ofield execve_in[] = {
    {"filename", SC_SRC_STR, 0, OF_STR}, ARG("argv", 1, OF_X64), ARG("envp", 2, OF_X64)};

static const struct ofield clone_in[] = {ARG("flags", 0, OF_X64), ARG("newsp", 1, OF_X64),
					 ARG("parent_tid", 2, OF_X64), ARG("child_tid", 3, OF_X64)};

static const struct ofield getcpu_in[] = {ARG("tcache", 2, OF_X64)};
static const struct ofield getcpu_out[] = {RET, ARG("cpup", 0, OF_X64), ARG("nodep", 1, OF_X64),
					   ARG("tcache", 2, OF_X64)};

static const struct ofield pipe_out[] = {RET, {"fildes", SC_SRC_USER_INT2, 0, OF_INT2}};
static const struct ofield pipe2_in[] = {ARG("flags", 1, OF_I32)};

static const struct ofield socketpair_in[] = {ARG("family", 0, OF_I32), ARG("type", 1, OF_I32),
					      ARG("protocol", 2, OF_I32)};
static const struct ofield socketpair_out[] = {RET, {"socket", SC_SRC_USER_INT2, 3, OF_INT2}};

static const struct ofield connect_in[] = {ARG("fd", 0, OF_I32), ARG("uservaddr", 1, OF_X64),
					   ARG("addrlen", 2, OF_XI32), SOCKADDR(1, "dport")};

static const struct ofield accept_in[] = {ARG("fd", 0, OF_I32),
					  ARG("upeer_sockaddr", 1, OF_X64),
					  {"upeer_addrlen", SC_SRC_USER_INT, 2, OF_I32}};
static const struct ofield accept4_in[] = {ARG("fd", 0, OF_I32),
					   ARG("upeer_sockaddr", 1, OF_X64),
					   {"upeer_addrlen", SC_SRC_USER_INT, 2, OF_I32},
					   ARG("flags", 3, OF_XI32)};
static const struct ofield accept_out[] = {
    RET, {"upeer_addrlen", SC_SRC_USER_INT, 2, OF_I32}, SOCKADDR(1, "sport")};

static const struct ofield mmap_in[] = {ARG("addr", 0, OF_X64), ARG("len", 1, OF_U64),
					ARG("prot", 2, OF_I32), ARG("flags", 3, OF_XU32),
					ARG("fd", 4, OF_I32),	ARG("offset", 5, OF_I64)};
static const struct ofield mmap_out[] = {{"ret", SC_SRC_RET, 0, OF_X64}};

static const struct override overrides[] = {
    {"execve", execve_in, ret_only, N(execve_in), N(ret_only), 0, false},
    {"clone", clone_in, ret_only, N(clone_in), N(ret_only), 0, false},
    {"getcpu", getcpu_in, getcpu_out, N(getcpu_in), N(getcpu_out), 0, false},
    {"pipe", NULL, pipe_out, 0, N(pipe_out), 0, false},
    {"pipe2", pipe2_in, pipe_out, N(pipe2_in), N(pipe_out), 0, false},
    {"socketpair", socketpair_in, socketpair_out, N(socketpair_in), N(socketpair_out), 0, false},
    {"connect", connect_in, ret_only, N(connect_in), N(ret_only), 2, false},
    {"accept", accept_in, accept_out, N(accept_in), N(accept_out), 2, true},
    {"accept4", accept4_in, accept_out, N(accept4_in), N(accept_out), 2, true},
    {"mmap", mmap_in, mmap_out, N(mmap_in), N(mmap_out), 0, false},
};

/* Big-endian (network order) integers of 8 and 16 bits. */
#define BE_INT(bits)                                                                               \
	{                                                                                          \
		(bits), 8, false, 10, CTFW_BYTE_ORDER_BE, 0                                        \
	}
static const struct ctfw_integer u16_be = BE_INT(16);
static const struct ctfw_type u8_be_type = {.kind = CTFW_TYPE_INTEGER, .integer = BE_INT(8)};
static const struct ctfw_type u16_be_type = {.kind = CTFW_TYPE_INTEGER, .integer = BE_INT(16)};
static const struct ctfw_type i32_type = {.kind = CTFW_TYPE_INTEGER,
					  .integer = {32, 8, true, 10, 0, 0}};

static struct ctfw_type int_type(unsigned int bits, bool is_signed, unsigned int base)
{
	return (struct ctfw_type){.kind = CTFW_TYPE_INTEGER,
				  .integer = ctfw_integer(bits, is_signed, base)};
}

/* The field's type, and how its value is written. */
static void field_of(const struct ofield *of, struct ctfw_field *f, struct sc_fsrc *s)
{
	f->name = of->name;
	s->src = of->src;
	s->arg = of->arg;
	s->size = 0;
	switch (of->kind) {
	case OF_I32:
		f->type = int_type(32, true, 10);
		s->size = 4;
		break;
	case OF_XI32:
		f->type = int_type(32, true, 16);
		s->size = 4;
		break;
	case OF_XU32:
		f->type = int_type(32, false, 16);
		s->size = 4;
		break;
	case OF_U16:
		f->type = int_type(16, false, 10);
		s->size = 2;
		break;
	case OF_NU16:
		f->type = (struct ctfw_type){.kind = CTFW_TYPE_INTEGER, .integer = u16_be};
		s->size = 2;
		break;
	case OF_I64:
		f->type = int_type(64, true, 10);
		s->size = 8;
		break;
	case OF_U64:
		f->type = int_type(64, false, 10);
		s->size = 8;
		break;
	case OF_X64:
		f->type = int_type(64, false, 16);
		s->size = 8;
		break;
	case OF_STR:
		f->type = (struct ctfw_type){.kind = CTFW_TYPE_STRING};
		break;
	case OF_INT2:
		f->type = (struct ctfw_type){.kind = CTFW_TYPE_ARRAY,
					     .array = {.elem = &i32_type, .length = 2}};
		break;
	case OF_V4:
	case OF_V6:
		f->type = (struct ctfw_type){
		    .kind = CTFW_TYPE_SEQUENCE,
		    .sequence = {.elem = of->kind == OF_V4 ? &u8_be_type : &u16_be_type,
				 .length = ctfw_integer(32, false, 10)}};
		break;
	}
}

/* What the probe must copy for a field read from user memory. */
static uint8_t capture_of(const struct ofield *of, bool lenptr)
{
	switch (of->src) {
	case SC_SRC_STR:
		return SC_CAP_STR;
	case SC_SRC_USER_INT:
		return SC_CAP_U32;
	case SC_SRC_USER_INT2:
		return SC_CAP_INT2;
	case SC_SRC_SA_FAMILY:
	case SC_SRC_SA_PORT:
	case SC_SRC_SA_V4:
	case SC_SRC_SA_V6:
		return lenptr ? SC_CAP_SOCKADDR_LENPTR : SC_CAP_SOCKADDR_LENARG;
	}
	return SC_CAP_NONE;
}

static int build_event(struct sc_event *ev, const char *prefix, const char *call,
		       const struct override *o, const struct ofield *fields, unsigned int n)
{
	if (sc_event_init(ev, prefix, call, n))
		return -1;
	ev->lenarg = o->lenarg ? o->lenarg : SC_MAX_ARGS;
	ev->lenptr = o->lenptr;
	for (unsigned int i = 0; i < n; i++) {
		uint8_t cap = capture_of(&fields[i], o->lenptr);

		field_of(&fields[i], &ev->fields[i], &ev->src[i]);
		if (cap != SC_CAP_NONE && fields[i].arg < SC_MAX_ARGS)
			ev->cap[fields[i].arg] = cap;
	}
	return 0;
}

int sc_override_build(struct sc_call *c)
{
	for (size_t i = 0; i < sizeof(overrides) / sizeof(overrides[0]); i++) {
		const struct override *o = &overrides[i];

		if (strcmp(o->call, c->name))
			continue;
		if (build_event(&c->ev[0], "syscall_entry_", c->name, o, o->entry, o->nentry) ||
		    build_event(&c->ev[1], "syscall_exit_", c->name, o, o->exit, o->nexit))
			return -1;
		return 1;
	}
	return 0;
}
