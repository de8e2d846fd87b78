/*
 * lv0-core.c - the core facility of the LTTV format (facility id 0,
 * docs/legacy-formats.md 1.4): its event types, built here since no
 * eventdefs file describes it, and the facility_load payload.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy/lv0-impl.h"

#define U32(n)                                                                                     \
	{                                                                                          \
		.name = n, .type = &core_u32                                                       \
	}
/* (shared by every trace: their alignment cache set here, never written; checked in init) */
#define ALIGN(a) .align_key = LTT_ALIGN_ANY_ABI, .align_cached = a

static struct ltt_type core_u32 = {
    .kind = LTT_UNSIGNED, .size_ref = LTT_SIZE_FIXED, .size = 4, .base = 10, ALIGN(4)};
static struct ltt_type core_u64 = {
    .kind = LTT_UNSIGNED, .size_ref = LTT_SIZE_FIXED, .size = 8, .base = 10, ALIGN(8)};
static struct ltt_type core_string = {.kind = LTT_STRING, ALIGN(1)};

/* 0.4: checksum, id, long, pointer and size_t sizes, alignment (R070) */
static struct ltt_field load_04_fields[] = {
    {.name = "name", .type = &core_string},
    U32("checksum"),
    U32("id"),
    U32("long_size"),
    U32("pointer_size"),
    U32("size_t_size"),
    U32("alignment"),
};
/* 0.7: int_size too (P07) */
static struct ltt_field load_07_fields[] = {
    {.name = "name", .type = &core_string},
    U32("checksum"),
    U32("id"),
    U32("int_size"),
    U32("long_size"),
    U32("pointer_size"),
    U32("size_t_size"),
    U32("has_alignment"),
};
static struct ltt_field unload_fields[] = {U32("id")};
static struct ltt_field heartbeat_04_fields[] = {
    U32("seconds"),
    U32("nanoseconds"),
    {.name = "cycle_count", .type = &core_u64},
};
static struct ltt_field heartbeat_full_fields[] = {{.name = "tsc", .type = &core_u64}};

#define STRUCT_OF(f, a)                                                                            \
	{                                                                                          \
		.kind = LTT_STRUCT, .fields = f, .nfields = sizeof(f) / sizeof(f[0]), ALIGN(a)     \
	}
static struct ltt_type load_04 = STRUCT_OF(load_04_fields, 4);
static struct ltt_type load_07 = STRUCT_OF(load_07_fields, 4);
static struct ltt_type unload = STRUCT_OF(unload_fields, 4);
static struct ltt_type heartbeat_04 = STRUCT_OF(heartbeat_04_fields, 8);
static struct ltt_type heartbeat_07 = {.kind = LTT_STRUCT, ALIGN(1)};
static struct ltt_type heartbeat_full = STRUCT_OF(heartbeat_full_fields, 8);
static const struct ltt_type *const core_types[] = {&core_u32,	   &core_u64,	  &core_string,
						    &load_04,	   &load_07,	  &unload,
						    &heartbeat_04, &heartbeat_07, &heartbeat_full};

int lv0_core_init(struct ltt_trace *t, struct lv0_trace *lt, uint8_t minor,
		  const struct ltt_abi *abi)
{
	struct lv0_facility *core = &lt->fac[0];
	const struct ltt_type *load = minor >= 7 ? &load_07 : &load_04;
	struct {
		const char *name;
		const struct ltt_type *type;
	} ev[] = {
	    {"facility_load", load},
	    {"facility_unload", &unload},
	    {"time_heartbeat", minor >= 7 ? &heartbeat_07 : &heartbeat_04},
	    {"state_dump_facility_load", load},
	    {"state_dump_facility_load", load},
	};
	size_t n = sizeof(ev) / sizeof(ev[0]);

	for (size_t i = 0; i < sizeof(core_types) / sizeof(core_types[0]); i++)
		assert(core_types[i]->align_cached == ltt_type_alignment(core_types[i], abi));
	core->set = true;
	core->name = strdup("core");
	core->abi = *abi;
	core->classes = calloc(n, sizeof(*core->classes));
	if (!core->name || !core->classes)
		return -1;
	core->nevents = n;
	for (size_t i = 0; i < n; i++) {
		char name[64];
		snprintf(name, sizeof(name), "core.%s", ev[i].name);
		core->classes[i] =
		    ltrace_add_class(t, name, NULL, "core", 0, (uint32_t)i, ev[i].type, abi);
		if (!core->classes[i])
			return -1;
	}
	core->heartbeat_full = ltrace_add_class(t, "core.time_heartbeat_full", NULL, "core", 0, 3,
						&heartbeat_full, abi);
	return core->heartbeat_full ? 0 : -1;
}

bool lv0_core_is_heartbeat_full(uint8_t event, uint16_t size)
{
	return event == 3 && size == 8;
}

int lv0_parse_facility_load(const uint8_t *p, size_t size, uint8_t minor, bool be,
			    struct lv0_load *out, char *why, size_t whylen)
{
	unsigned n = minor >= 7 ? 7 : 6;
	const uint8_t *nul = memchr(p, '\0', size);
	size_t name_len, pad;
	uint32_t v[7];

	if (!nul) {
		snprintf(why, whylen, "facility load: the name has no end within %zu bytes", size);
		return -1;
	}
	name_len = (size_t)(nul - p);
	/* 1.4: the u32s follow the name, maybe padded to 4 by the writer */
	if (size < name_len + 1 + 4 * n || (pad = size - (name_len + 1) - 4 * n) > 3) {
		snprintf(why, whylen,
			 "facility load: size %zu does not fit a %zu-byte name and %u 32-bit "
			 "values",
			 size, name_len, n);
		return -1;
	}
	if (name_len >= sizeof(out->name)) {
		snprintf(why, whylen, "facility load: name of %zu bytes too long", name_len);
		return -1;
	}
	memcpy(out->name, p, name_len + 1);
	out->pad = (unsigned)pad;
	for (unsigned i = 0; i < n; i++)
		v[i] = ltrace_u32(p + name_len + 1 + pad + 4 * i, be);
	out->checksum = v[0];
	out->id = v[1];
	if (n == 7) {
		out->int_size = v[2];
		out->long_size = v[3];
		out->pointer_size = v[4];
		out->size_t_size = v[5];
		out->alignment = v[6];
	} else {
		out->int_size = 4; /* 0.4 loads carry no int size */
		out->long_size = v[2];
		out->pointer_size = v[3];
		out->size_t_size = v[4];
		out->alignment = v[5];
	}
	return 0;
}
