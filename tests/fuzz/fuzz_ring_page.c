/*
 * fuzz_ring_page.c - libFuzzer target for the tracefs page reader
 * (src/kernel/ring-page.c): any bytes as a page. Every record returned
 * must lie inside the page's commit, time may only go forward but for an
 * absolute time stamp, and the walk must end (0 or -1 with a reason).
 *
 * FUZZ-SOURCES: src/kernel/ring-page.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "kernel/ring-page.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of the exact size: reading past it is a report */
	uint8_t *page = malloc(size ? size : 1);
	struct ring_page p;
	struct ring_record r;
	const char *err = NULL;
	unsigned int n = 0;
	int st;

	memcpy(page, data, size);
	if (ring_page_open(&p, page, size, &err)) {
		CHECK(err && *err);
		free(page);
		return 0;
	}
	while ((st = ring_page_next(&p, &r, &err)) > 0) {
		CHECK(r.payload >= page + RING_PAGE_HEADER &&
		      r.payload + r.len <= page + RING_PAGE_HEADER + p.commit);
		CHECK(++n <= size / 4, "more records than words");
	}
	CHECK(st == 0 || (err && *err));
	free(page);
	return 0;
}
