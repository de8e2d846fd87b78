/*
 * syscall-table.h - the system calls of the running kernel as trax records
 * them (inside src/kernel; syscalls.h is the interface): for each call its
 * number, its arguments (names and C types from tracefs's
 * syscalls/sys_enter_NAME/format), and the two event classes LTTng-modules
 * 2.13 would give it, syscall_entry_NAME and syscall_exit_NAME, with for
 * each field where its value comes from in a probe's record. The rules
 * that decide the fields (types, strings, in and out arguments) and the
 * calls LTTng lays out by hand are in syscall-rules.c; docs/kernel.md,
 * "System calls", explains them.
 */
#ifndef TRAX_KERNEL_SYSCALL_TABLE_H
#define TRAX_KERNEL_SYSCALL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/bpf/syscalls-abi.h"
#include "kernel/kevent.h"

/* Where a field's value comes from. */
enum sc_src {
	SC_SRC_ARG = 1,	  /* argument `arg`, cast to the field's integer type */
	SC_SRC_RET,	  /* the return value */
	SC_SRC_ID,	  /* the call's number (the unknown-call events) */
	SC_SRC_ARGS,	  /* the six argument registers (likewise) */
	SC_SRC_STR,	  /* the string argument `arg` points to */
	SC_SRC_USER_INT,  /* the int argument `arg` points to */
	SC_SRC_USER_INT2, /* the two ints argument `arg` points to */
	SC_SRC_SA_FAMILY, /* of the socket address argument `arg` points to: its family, */
	SC_SRC_SA_PORT,	  /* port (network order), */
	SC_SRC_SA_V4,	  /* IPv4 address (a sequence of 4 bytes, or none), */
	SC_SRC_SA_V6,	  /* IPv6 address (a sequence of 8 big-endian u16, or none) */
};

struct sc_fsrc {
	uint8_t src;  /* enum sc_src */
	uint8_t arg;  /* argument index */
	uint8_t size; /* SC_SRC_ARG, SC_SRC_RET, SC_SRC_ID: bytes of the integer written */
};

/* One direction (entry or exit) of a call: an event class and how to fill it. */
struct sc_event {
	struct kevent_class kc; /* kc.cls.name, kc.cls.fields: those below */
	struct ctfw_field *fields;
	struct sc_fsrc *src; /* one per field */
	unsigned int nfields;
	uint8_t cap[SC_MAX_ARGS]; /* enum sc_cap: what the probe copies from user memory */
	uint8_t lenarg;		  /* socket address captures: the argument with its length */
	bool lenptr;		  /* that argument points to the length (accept) */
	char *name;		  /* "syscall_entry_openat" */
	bool compat; /* of a 32-bit call: its 64-bit signed arguments are sign-extended */
};

struct sc_call {
	char *name; /* "openat" (a 32-bit call: its kernel name, "llseek") */
	int nr;	    /* its number (in its ABI's table), -1 when trax's headers do not know it */
	unsigned int nargs;
	char *arg_name[SC_MAX_ARGS];
	char *arg_type[SC_MAX_ARGS]; /* as tracefs writes them: "const char *" */
	char *signature;	     /* "int dfd, const char * filename, ..." */
	struct sc_event ev[2];	     /* [0] entry, [1] exit */
	bool enabled[2];
	/* the probes' guards of each direction (syscalls.c: ksyscalls_set_guards) */
	uint8_t guards[2];		  /* SC_GUARDS_ALL, _SOME, _NONE */
	struct sc_guard_set guard_set[2]; /* SC_GUARDS_SOME: the set */
	uint16_t guard_slot[2];		  /* its index in the probes' array (0: none) */
};

/* The unknown-call events: [compat][exit]. */
struct sc_table {
	struct sc_call *calls;
	unsigned int ncalls;
	int by_nr[SC_NR_SLOTS]; /* index in calls, -1 */
	/* The 32-bit calls (int $0x80, the ia32 entry), named: syscall-compat.c. */
	struct sc_call *compat;
	unsigned int ncompat;
	int by_nr32[SC_NR_SLOTS]; /* index in compat, -1 */
	struct sc_event unknown[2][2];
	bool unknown_enabled[2];     /* [exit]: calls without a description, native or 32-bit */
	unsigned int fallback_types; /* arguments whose C type no rule knows (recorded as uint64) */
};

/* Reads ROOT/events/syscalls/sys_enter_* and builds the table. 0, or -1 and err set. */
int sc_table_load(struct sc_table *t, const char *root, char *err, size_t errlen);
void sc_table_free(struct sc_table *t);

/*
 * Adds the 32-bit calls (syscall-compat.c) to a table whose native calls
 * are loaded: their names from <asm/unistd_32.h> and the 32-bit kernel's
 * function names, their arguments from the native call of the same name or
 * trax's list of the 32-bit-only ones, events compat_syscall_entry_NAME and
 * compat_syscall_exit_NAME. 0, or -1 (out of memory).
 */
int sc_compat_load(struct sc_table *t);
/* The kernel name of 32-bit call number nr ("llseek" for __NR__llseek), or NULL. */
const char *sc_compat_name_of(int nr);
/* Frees a call's names and events (syscall-table.c). */
void sc_call_free(struct sc_call *c);

/*
 * Builds a call's events from its arguments (the rules of syscall-rules.c).
 * 0, or -1 (out of memory).
 */
int sc_call_build(struct sc_call *c, unsigned int *fallback_types);

/* The number of a call named as tracefs names it ("newfstat"), or -1 (syscall-nr.c). */
int sc_nr_of(const char *name);

/* A C type as LTTng-modules records it: an integer of bits, signed or not (syscall-rules.c). */
struct sc_ctype {
	uint8_t bits;
	bool is_signed;
	bool known; /* false: no rule knows the type; uint64 */
};
struct sc_ctype sc_ctype_of(const char *type);
/* Whether LTTng-modules records the argument as the user string it points to. */
bool sc_is_user_string(const char *type, const char *name);

/* The direction of an argument: bit 0 in the entry event, bit 1 in the exit event. */
#define SC_IN	 1u
#define SC_OUT	 2u
#define SC_INOUT 3u
unsigned int sc_arg_dir(const char *call, int nr, const char *arg);
/*
 * Whether every argument the direction list names exists in the table's
 * calls (the kernel's names may change): 0, or -1 and err names one.
 */
int sc_dir_check(const struct sc_table *t, char *err, size_t errlen);

/*
 * The hand-made layout of a call LTTng-modules overrides (execve, clone,
 * connect...): sets both events and returns 1, 0 when the call has none,
 * -1 when out of memory.
 */
int sc_override_build(struct sc_call *c);

/*
 * An event's payload from a probe's record (syscall-payload.c): rec is
 * a whole record of len bytes (checked). Bytes written to out (at most
 * outlen), or -1 when the record is damaged.
 */
long sc_payload(const struct sc_event *ev, const struct sc_rec *rec, size_t len, uint8_t *out,
		size_t outlen);
/* The largest payload an event can have. */
#define SC_PAYLOAD_MAX (SC_MAX_ARGS * (8 + SC_STR_MAX) + 64)

/*
 * The guards the probes check before they record a record of ev, from the
 * rules enabling it (kfpush.h's struct kfpush_rule: a filter's bytecode,
 * or none, and whether it links to ev), in syscall-guard.c:
 * SC_GUARDS_ALL (record every call: no rules given, a rule without
 * filter, or nothing the probes can check), SC_GUARDS_NONE (no rule can
 * accept a record of it),
 * or SC_GUARDS_SOME and *out set. The guards may accept more than the
 * filters, never less.
 */
enum { SC_GUARDS_ALL, SC_GUARDS_SOME, SC_GUARDS_NONE };
struct kfpush_rule;
int sc_guard_derive(const struct sc_event *ev, const struct kfpush_rule *rules, unsigned int n,
		    struct sc_guard_set *out);

/* Sets an event's name ("syscall_entry_" + call) and its class. 0, or -1. */
int sc_event_init(struct sc_event *ev, const char *prefix, const char *call, unsigned int nfields);

#endif /* TRAX_KERNEL_SYSCALL_TABLE_H */
