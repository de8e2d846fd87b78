/*
 * lv0-impl.h - inside the LTTV format reader (seed 000, trace versions 0.4
 * and 0.7, docs/legacy-formats.md section 1): the per-tracefile header
 * facts, the facility table, the raw event walk shared by the load (which
 * reads the facility loads) and the cursors, and the core facility.
 */
#ifndef TRAX_LEGACY_LV0_IMPL_H
#define TRAX_LEGACY_LV0_IMPL_H

#include "legacy/ltrace-impl.h"

#define LV0_NUM_FACILITIES 256
#define LV0_LOST_UNCLOSED  0xFFFFFFFFu

/* One tracefile's header facts (block 0; every block must agree). */
struct lv0_file {
	unsigned magic_off; /* 56 or 72 (0.4), 40 (0.7) */
	unsigned hdr_size;  /* where the block's events start (before alignment) */
	uint8_t minor;	    /* 4 or 7 */
	bool big_endian;    /* the file's byte order */
	bool has_heartbeat; /* 32-bit event TSCs */
	uint8_t alignment;  /* 0, 4 or 8 */
	bool float_big_endian;
	uint32_t block_size; /* buf_size of block 0 */
};

/* A facility slot (1.5): set by the first load of its id. */
struct lv0_facility {
	bool set;
	char *name;
	uint32_t checksum;
	struct ltt_abi abi;
	const struct ltt_facility *desc; /* NULL: no description found */
	struct ltt_class **classes;	 /* per event id; NULL entries: none */
	size_t nevents;
	/* core only: id 3 when its event_size is 8 (1.4 DECISION) */
	struct ltt_class *heartbeat_full;
};

/* A parsed eventdefs file, kept for its types. */
struct lv0_xml {
	char *name; /* the file's name without .xml */
	struct ltt_facility *facs;
	size_t n;
};

struct lv0_trace {
	struct lv0_facility fac[LV0_NUM_FACILITIES];
	/*
	 * 1.4: whether this trace's writer padded the facility_load u32s in an
	 * aligned trace (-1: not seen yet, 0: no, 1: yes)
	 */
	int loads_padded;
	struct lv0_xml *xml;
	size_t nxml;
	/*
	 * Per class (by its index), its fixed-layout plans (ltt_payload_plan)
	 * by the payload's offset in its block modulo the alignment, made when
	 * first needed: a payload is then sized without a walk.
	 */
	struct lv0_plans *plans;
	size_t nplans;
};

#define LV0_PLAN_KEYS 8

struct lv0_plans {
	struct ltt_plan *p[LV0_PLAN_KEYS];
	uint8_t planned; /* a bit per key */
};

/* Frees the plans of class index i (its ABI changed), or every class's (i SIZE_MAX). */
void lv0_plans_drop(struct lv0_trace *lt, size_t i);

/* The raw event the walk yields, before its class is looked up. */
struct lv0_raw {
	uint64_t offset;      /* of the event header */
	uint64_t payload_off; /* of the payload in the file */
	uint64_t avail;	      /* bytes from the payload to the block's events' end */
	uint32_t base;	      /* the payload's offset in its block */
	uint8_t facility, event;
	uint16_t size; /* event_size */
	uint64_t tsc;  /* extended */
};

/* The walk's state beyond the common cursor fields. */
struct lv0_cursor {
	bool unclosed;	     /* the current block was never closed */
	bool warned_tsc;     /* "TSC past the block's end" said for this block */
	uint8_t *said;	     /* 256 x 256 bits: (facility, event) already reported */
	uint64_t prev_tsc;   /* for the unclosed blocks' sanity check */
	uint64_t lost_total; /* events lost before the next event (0: none) */
	bool trust_sizes;    /* ltt_cursor_trust_sizes() */
	struct lv0_raw last; /* the last event returned unchecked */
};

/*
 * The next raw event of c's tracefile: 1, 0 at the end, -1 (c's error
 * set). Block changes (alignment, TSC reset, unclosed blocks) are handled
 * here; the caller decides whether the event is valid and calls
 * lv0_walk_skip() to go past its payload of len bytes.
 */
int lv0_walk_next(struct ltt_cursor *c, struct lv0_raw *r);
void lv0_walk_skip(struct ltt_cursor *c, const struct lv0_raw *r, uint64_t len);
/* Ends the current (unclosed) block: its remaining bytes are lost. */
void lv0_walk_abandon_block(struct ltt_cursor *c, const struct lv0_raw *r, const char *why);

/* The core facility (1.4): its classes in slot 0, for the trace's minor. */
int lv0_core_init(struct ltt_trace *t, struct lv0_trace *lt, uint8_t minor,
		  const struct ltt_abi *abi);

/*
 * A facility_load payload (ids 0, 3/4): name, checksum, id and sizes
 * (1.4's pad DECISION); 0, or -1 with why set.
 */
struct lv0_load {
	char name[256];
	uint32_t checksum, id;
	uint32_t int_size, long_size, pointer_size, size_t_size, alignment;
	unsigned pad; /* bytes between the name's NUL and the checksum */
};
int lv0_parse_facility_load(const uint8_t *p, size_t size, uint8_t minor, bool be,
			    struct lv0_load *out, char *why, size_t whylen);

/* Which class core id 3 is, by its size. */
bool lv0_core_is_heartbeat_full(uint8_t event, uint16_t size);

/* The cursor ops (lv0-cursor.c). */
int lv0_cursor_open(struct ltt_cursor *c);
int lv0_cursor_next(struct ltt_cursor *c, struct ltt_event *ev);
void lv0_cursor_trust_sizes(struct ltt_cursor *c);
long lv0_cursor_check_size(struct ltt_cursor *c, const struct ltt_event *ev);
void lv0_cursor_close(struct ltt_cursor *c);

extern const struct ltrace_ops lv0_ops;

#endif /* TRAX_LEGACY_LV0_IMPL_H */
