/*
 * tp-format.h - the layout of a kernel tracepoint's records, as tracefs
 * describes it in events/SYSTEM/NAME/format:
 *
 *	name: sched_switch
 *	ID: 372
 *	format:
 *		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *		...
 *		field:char prev_comm[16];	offset:8;	size:16;	signed:0;
 *		field:__data_loc char[] name;	offset:8;	size:4;	signed:1;
 *
 *	print fmt: "..."
 *
 * Event ids and layouts differ from one kernel build to the next: they
 * are only known from these files, at run time. The text comes from the
 * kernel but is parsed as untrusted input (fuzz_tp_format).
 */
#ifndef TRAX_KERNEL_TP_FORMAT_H
#define TRAX_KERNEL_TP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tp_field_kind {
	TP_FIELD_SCALAR = 1, /* an integer (or a pointer) of size 1, 2, 4 or 8 */
	TP_FIELD_ARRAY,	     /* TYPE name[N]: N elements of size / N bytes; TYPE name[]
				(size 0, array_len 0): the rest of the record */
	TP_FIELD_DATA_LOC,   /* __data_loc TYPE[] name: u32 (len << 16) | offset in the record */
	TP_FIELD_REL_LOC,    /* __rel_loc TYPE[] name: likewise, offset from the field's end */
	TP_FIELD_OTHER,	     /* anything else (a structure...): size bytes, kept raw */
};

struct tp_field {
	char *name; /* "prev_comm" */
	char *type; /* the C type without the array part: "char", "pid_t", "const char *";
		       for DATA_LOC/REL_LOC the element's ("char" of "__data_loc char[]") */
	enum tp_field_kind kind;
	uint32_t offset;    /* in the record (common fields included) */
	uint32_t size;	    /* bytes in the record (for DATA_LOC/REL_LOC: 4, the locator) */
	uint32_t elem_size; /* bytes per element (1 for char; 1 when the type is unknown);
			       SCALAR: size */
	uint32_t array_len; /* ARRAY: N */
	bool is_signed;	    /* the element's, for arrays and dynamic fields */
	bool is_pointer;    /* the type ends in '*' */
	bool is_char;	    /* the element type is char (text) */
};

struct tp_event {
	char *system; /* "sched" (set by the caller of tp_format_parse) */
	char *name;   /* "sched_switch" */
	uint32_t id;  /* the records' common_type */
	/* every field, common_* first, in record order */
	struct tp_field *fields;
	unsigned int nr_fields;
	unsigned int nr_common; /* how many leading fields are common_* */
	uint32_t size;		/* bytes up to the end of the last field */
	int common_pid;		/* index of common_pid in fields, -1 when absent */
};

/*
 * Parses a format file's text (len bytes, not necessarily NUL-terminated)
 * of an event of `system`. 0, or -1 with err set to one line saying what
 * is wrong and where ("line 5: ...").
 */
int tp_format_parse(struct tp_event *ev, const char *system, const char *text, size_t len,
		    char *err, size_t errlen);
void tp_event_free(struct tp_event *ev);

/* The field called name, or NULL. */
const struct tp_field *tp_event_field(const struct tp_event *ev, const char *name);

/*
 * The bytes a DATA_LOC or REL_LOC field points to in a record of rec_len
 * bytes: 0 and *data, *len set, or -1 when the locator points outside.
 */
int tp_field_dyn(const struct tp_field *f, const uint8_t *rec, size_t rec_len, const uint8_t **data,
		 uint32_t *len);

#endif /* TRAX_KERNEL_TP_FORMAT_H */
