/*
 * fuzz_tp_format.c - libFuzzer target for the tracefs format parser
 * (src/kernel/tp-format.c): any bytes as a format file. A refusal must say
 * which line; an accepted layout must hold what the parser promises
 * (fields inside the record, common_* first, sizes that agree with
 * kinds), and tp_field_dyn on the input's own bytes as a record must
 * stay inside them.
 *
 * FUZZ-SOURCES: src/kernel/tp-format.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "kernel/tp-format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of the exact size: reading past it is a report */
	char *text = malloc(size ? size : 1);
	struct tp_event ev;
	char err[128];

	memcpy(text, data, size);
	if (tp_format_parse(&ev, "fuzz", text, size, err, sizeof(err))) {
		CHECK(!strncmp(err, "line ", 5), "%s", err);
		CHECK(ev.fields == NULL && ev.name == NULL);
		free(text);
		return 0;
	}
	CHECK(ev.name && ev.system && !strcmp(ev.system, "fuzz"));
	for (unsigned int i = 0; i < ev.nr_fields; i++) {
		const struct tp_field *f = &ev.fields[i];
		const uint8_t *d;
		uint32_t len;

		CHECK(f->name && f->type && *f->name);
		CHECK((uint64_t)f->offset + f->size <= ev.size);
		CHECK(tp_event_field(&ev, f->name) != NULL);
		if (i < ev.nr_common)
			CHECK(!strncmp(f->name, "common_", 7));
		switch (f->kind) {
		case TP_FIELD_SCALAR:
			CHECK(f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
			break;
		case TP_FIELD_ARRAY:
			CHECK(f->array_len ? (uint64_t)f->array_len * f->elem_size == f->size
					   : f->size == 0);
			break;
		case TP_FIELD_DATA_LOC:
		case TP_FIELD_REL_LOC:
			CHECK(f->size == 4 && f->elem_size > 0);
			if (!tp_field_dyn(f, data, size, &d, &len))
				CHECK(d >= data && d + len <= data + size);
			break;
		case TP_FIELD_OTHER:
			break;
		default:
			CHECK(0, "kind %d", f->kind);
		}
	}
	if (ev.common_pid >= 0)
		CHECK(!strcmp(ev.fields[ev.common_pid].name, "common_pid"));
	tp_event_free(&ev);
	free(text);
	return 0;
}
