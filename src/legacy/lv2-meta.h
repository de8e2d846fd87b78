/*
 * lv2-meta.h - the marker descriptions of a compact-format trace (seed
 * 002, docs/legacy-formats.md 2.5): what the metadata channel's
 * set_marker_id (id 0) and set_marker_format (id 1) events say, gathered
 * while the loader reads the channel, then resolved into one entry per
 * (channel, event id) with its ABI and its parsed format.
 *
 * 2.1 traces have one id space (channel NULL everywhere); 2.3 traces have
 * one per channel, named in every metadata event.
 */
#ifndef TRAX_LEGACY_LV2_META_H
#define TRAX_LEGACY_LV2_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "legacy/ltt-type.h"

/* A marker id: (channel, id) -> name, ABI; its format once known. */
struct lv2_marker {
	char *channel; /* 2.3; NULL in 2.1 */
	char *name;
	uint16_t id;
	struct ltt_abi abi;
	const struct ltt_type *payload; /* NULL until a format was seen and parsed */
};

/* A marker format: (channel, name) -> format string and its type. */
struct lv2_format {
	char *channel;
	char *name;
	char *format;
	struct lmarker_type *type; /* NULL when the format did not parse */
};

struct lv2_meta {
	struct lv2_marker *ids;
	size_t nids, ids_cap;
	struct lv2_format *formats;
	size_t nformats, formats_cap;
};

/*
 * Records set_marker_id. The same (channel, id) given again with the same
 * name is ignored; with another name it is refused. 0, or -1 with err set.
 */
int lv2_meta_set_id(struct lv2_meta *m, const char *channel, const char *name, uint16_t id,
		    const struct ltt_abi *abi, char *err, size_t errlen);

/*
 * Records set_marker_format and parses it (lmarker_parse). A second,
 * different format for (channel, name) is the "format mismatch" error;
 * the same one again is ignored. A format that does not parse is kept
 * with type NULL (its events are skipped or stop their file) and gives 1
 * with err set (a warning). 0, 1, or -1 with err set.
 */
int lv2_meta_set_format(struct lv2_meta *m, const char *channel, const char *name,
			const char *format, char *err, size_t errlen);

/* Gives every id the type of its (channel, name)'s format. */
void lv2_meta_resolve(struct lv2_meta *m);

void lv2_meta_free(struct lv2_meta *m);

/*
 * The fixed layouts of the two core events (2.5). p: the payload (len
 * bytes) at block offset base; alignment: the trace's; with_channel: 2.3.
 * Returns the payload's size, or -1 with err set (what is missing, the
 * offset in the payload).
 */
struct lv2_set_id {
	const char *channel; /* NULL in 2.1 */
	const char *name;
	uint16_t id;
	uint8_t int_size, long_size, pointer_size, size_t_size, alignment;
};
long lv2_decode_set_id(const uint8_t *p, size_t len, size_t base, uint8_t alignment, bool be,
		       bool with_channel, struct lv2_set_id *out, char *err, size_t errlen);

struct lv2_set_format {
	const char *channel;
	const char *name;
	const char *format;
};
long lv2_decode_set_format(const uint8_t *p, size_t len, bool with_channel,
			   struct lv2_set_format *out, char *err, size_t errlen);

/*
 * The alignment a payload of type t starts on under abi (2.3 step 4): the
 * largest of its fields' (each min(abi alignment, its size), 1 for
 * strings); 1 when abi is packed.
 */
unsigned lv2_payload_align(const struct ltt_type *t, const struct ltt_abi *abi);

#endif /* TRAX_LEGACY_LV2_META_H */
