/*
 * kmap-internal.h - what kmap.c (building), kmap-convert.c (the per-record
 * program) and kmap-table.c (LTTng's events) share.
 *
 * A kmap_event is an event class plus a program: one kmap_op per payload
 * field (two for a sequence's length and elements are one op), run in
 * order over each record. Ops read at fixed record offsets decided when
 * the class is built, so converting a record is a loop over a few
 * fixed-size copies: no allocation, no name lookup, no text parsing.
 */
#ifndef TRAX_KERNEL_KMAP_INTERNAL_H
#define TRAX_KERNEL_KMAP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kmap.h"

enum kmap_opcode {
	KOP_INT = 1,   /* integer of ssize bytes at src (+ k) into dsize bytes */
	KOP_BIT,       /* bit n of the integer at src, into dsize bytes */
	KOP_CONST,     /* k into dsize bytes */
	KOP_TEXT_ARR,  /* char[slen] at src into a text array of n bytes (zero-filled) */
	KOP_TEXT_DYN,  /* a __data_loc char[] into a text array of n bytes */
	KOP_STR_ARR,   /* char[slen] at src into a NUL-terminated string */
	KOP_STR_DYN,   /* a __data_loc char[] into a string */
	KOP_STR_FLEX,  /* char[] from src to the record's end into a string */
	KOP_STR_KADDR, /* a kernel string's address (ssize bytes at src) into a string */
	KOP_TSEQ_DYN,  /* a __data_loc char[] into a text sequence (dsize-byte length, no NUL) */
	KOP_SEQ_DYN,   /* a __data_loc array of n-byte elements into a sequence (u32 length) */
	KOP_SEQ_FLEX,  /* n-byte elements from src to the record's end into a sequence */
	KOP_RAW,       /* slen bytes at src as they are (arrays of integers) */
	KOP_RWBS,      /* the block layer's rwbs text (char[slen]) into LTTng's u32 flags */
	KOP_TGID,      /* the process id of the thread whose id is at src (i32) */
	KOP_NS_INUM,   /* the pid namespace inode of that thread (u32) */
	KOP_VTIDS,     /* that thread's ids in nested pid namespaces (u8 length, i32 each) */
};

#define KOP_SIGNED 0x1 /* the source integer is signed */
#define KOP_REL	   0x2 /* the locator is a __rel_loc */
#define KOP_BE	   0x4 /* written big-endian */

struct kmap_op {
	uint32_t src;  /* offset in the record */
	uint32_t slen; /* bytes of the source (the array's, or the integer's size) */
	uint32_t n;    /* text array length, bit number, or element size */
	uint8_t code;  /* enum kmap_opcode */
	uint8_t ssize; /* integer sources: 1, 2, 4 or 8 */
	uint8_t dsize; /* integers written: 1, 2, 4 or 8 */
	uint8_t flags; /* KOP_* */
	int64_t k;     /* KOP_INT: added; KOP_CONST: the value */
};

struct kmap_event {
	struct kevent_class cls;
	const struct tp_event *ev;
	struct kmap_env env;
	bool mapped;		 /* by LTTng's table */
	struct kmap_op *ops;	 /* one per field of cls */
	struct ctfw_type *elems; /* element types of arrays and sequences, one per field */
	char **strings;		 /* names this event owns */
	unsigned int nr_strings;
	uint32_t min_len;   /* records shorter than this are malformed */
	uint32_t fixed;	    /* payload bytes of the fixed-size fields */
	uint32_t nr_var;    /* fields whose size follows the record's */
	uint32_t var_extra; /* bytes the variable fields may add beyond rec_len each */
	bool has_task;	    /* uses the task resolver */
};

/*
 * LTTng's description of tracefs event SYSTEM:NAME, or NULL when it does
 * not instrument it:
 *	"LTTNG_NAME FIELD=TYPE(SOURCE) FIELD=TYPE ..."
 * (kmap-table.c says the language).
 */
const char *kmap_table_find(const char *system, const char *name);
/* Every entry ("SYSTEM:NAME>LTTNG_NAME ..."), for tests and docs. */
unsigned int kmap_table_count(void);
const char *kmap_table_entry(unsigned int i);

/* A kernel string's address written when its text is not known: "0x" and 16 digits. */
#define KMAP_KADDR_TEXT 18
/* The longest string of k. */
size_t kmap_kstrings_maxlen(const struct kmap_kstrings *k);

/* The enumerations some LTTng fields have. */
struct kmap_enum {
	const char *name; /* in the table: "hrtimer_mode" */
	const struct ctfw_enum_mapping *mappings;
	unsigned int nr_mappings;
	uint8_t bits;
};
const struct kmap_enum *kmap_enum_find(const char *name, size_t len);

#endif /* TRAX_KERNEL_KMAP_INTERNAL_H */
