/*
 * filter.h - LTTng's event filter language, compiled to bytecode that is
 * validated before it runs (docs/filter.md).
 *
 * The life of a filter:
 *
 *   text --filter_compile()--> bytecode (generic: fields by name, operators
 *        untyped; what `trax` or traxd sends to applications)
 *   bytecode + an event's field layout --filter_link()--> program (fields
 *        resolved to argument slots, every operator specialized to its
 *        operand types, validated again)
 *   program + the event's argument values --filter_run()--> record or not
 *
 * Bytecode that comes from elsewhere is untrusted: filter_link() runs the
 * validator on it (every jump forward and inside the program, the stack
 * within bounds, every string inside the string table, types that match)
 * and refuses what fails; filter_run() trusts only what was proved.
 *
 * Nothing here allocates on the run path, locks or makes a system call.
 */
#ifndef TRAX_FILTER_FILTER_H
#define TRAX_FILTER_FILTER_H

#include <stddef.h>
#include <stdint.h>

/* Why compiling or linking failed: what, and where in the expression. */
struct filter_error {
	int pos;       /* byte offset in the expression text, -1 when unknown */
	char msg[160]; /* one line, no trailing newline */
};

/* ---- compiling ---- */

/*
 * Compiles expr into generic bytecode: *out (malloc'd, *out_len bytes,
 * free()d by the caller). Refuses syntax errors, unsupported operators and
 * comparisons whose types are known to mismatch (literals). 0, or -1 with
 * *err filled.
 */
int filter_compile(const char *expr, uint8_t **out, size_t *out_len, struct filter_error *err);

/*
 * Checks bytecode as filter_link() would before knowing any layout (fields
 * and contexts of unknown type): what the daemon does with bytecode a
 * client sends. 0, or -1 with *err filled.
 */
int filter_check(const uint8_t *code, size_t len, struct filter_error *err);

/* ---- the event the filter runs on ---- */

/* What a field holds, as the filter sees it. */
enum filter_field_type {
	FILTER_FIELD_INT = 1, /* integer or enumeration: filter_arg.u (sign-extended if signed) */
	FILTER_FIELD_FLOAT,   /* filter_arg.d */
	FILTER_FIELD_STRING,  /* NUL-terminated: filter_arg.str.ptr */
	FILTER_FIELD_TEXT,    /* text array or sequence: filter_arg.seq (bytes, up to a NUL) */
	FILTER_FIELD_ARRAY,   /* integer array or sequence: filter_arg.seq, elements */
};

/* An element of a FILTER_FIELD_ARRAY (or TEXT): its size and representation. */
#define FILTER_ELEM_SIGNED 0x10u
#define FILTER_ELEM_BE	   0x20u /* big endian (ctf_*_network) */
/* low 4 bits: size in bytes (1, 2, 4 or 8) */

struct filter_field {
	const char *name;
	uint8_t type; /* enum filter_field_type */
	uint8_t elem; /* FILTER_FIELD_ARRAY/TEXT: size | FILTER_ELEM_* */
};

/* A field's value for one event, filled by the probe before the filter runs. */
struct filter_arg {
	union {
		uint64_t u; /* FILTER_FIELD_INT (signed values sign-extended) */
		double d;
		const char *str; /* FILTER_FIELD_STRING ("(null)" for NULL, as LTTng) */
		struct {
			const void *ptr;
			size_t count; /* elements (bytes for TEXT) */
		} seq;
	};
};

/*
 * A context the filter can name as $ctx.NAME (or $app.PROVIDER:NAME with
 * name "PROVIDER:NAME" and is_app set): its type (INT, FLOAT or STRING)
 * and how to read it for the current event.
 */
struct filter_ctx_field {
	const char *name;
	uint8_t type;
	uint8_t is_app;
	void (*get)(struct filter_arg *out, void *priv);
};

struct filter_layout {
	const struct filter_field *fields;
	unsigned int nr_fields;
	const struct filter_ctx_field *ctx;
	unsigned int nr_ctx;
};

/* ---- linking and running ---- */

struct filter_program;

/*
 * Validates bytecode, resolves its fields and contexts against the layout
 * and specializes its operators. Returns the program (filter_free()), or
 * NULL with *err filled: bad bytecode, or a field or context the event
 * lacks, or operand types that do not fit (the filter is then false for
 * this event, as LTTng-UST makes it).
 */
struct filter_program *filter_link(const uint8_t *code, size_t len,
				   const struct filter_layout *layout, struct filter_error *err);

/*
 * The start of every linked program: what filter_run() reads inline, so
 * that the common filter, one comparison of an integer field with a
 * constant, costs no call (filled by filter_link(), read-only after).
 */
struct filter_program_head {
	uint8_t one_cmp;  /* 1: the program is `field CMP constant` */
	uint8_t cmp;	  /* 0 ==, 1 !=, 2 <, 3 >, 4 <=, 5 >= */
	uint32_t cmp_arg; /* the field's index in the layout */
	int64_t cmp_imm;  /* the constant */
};

/* The interpreter (filter_run() for other programs). */
int filter_interpret(const struct filter_program *p, const struct filter_arg *args, void *priv);

/* a CMP b, CMP as in filter_program_head.cmp */
static inline int filter_compare_int(unsigned int cmp, int64_t a, int64_t b)
{
	switch (cmp) {
	case 0:
		return a == b;
	case 1:
		return a != b;
	case 2:
		return a < b;
	case 3:
		return a > b;
	case 4:
		return a <= b;
	default:
		return a >= b;
	}
}

/*
 * 1 when the event passes (record it), 0 when not. args: one per field of
 * the layout, in order; priv is handed to the context getters. A run that
 * meets an error (an index past an array's end, a shift by 64 or more or
 * by a negative count) gives 0, as LTTng-UST does.
 */
static inline int filter_run(const struct filter_program *p, const struct filter_arg *args,
			     void *priv)
{
	const struct filter_program_head *h = (const struct filter_program_head *)p;

	if (h->one_cmp)
		return filter_compare_int(h->cmp, (int64_t)args[h->cmp_arg].u, h->cmp_imm);
	return filter_interpret(p, args, priv);
}

void filter_free(struct filter_program *p);

/* The expression text a bytecode was compiled from (kept in it, for `trax list`). */
const char *filter_source(const uint8_t *code, size_t len);

#endif /* TRAX_FILTER_FILTER_H */
