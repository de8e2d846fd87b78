/*
 * ring-page.h - the pages the kernel's ring buffer hands out through
 * tracefs (per_cpu/cpuN/trace_pipe_raw): reading their records without the
 * kernel's text formatter. docs/kernel.md, "Raw ring-buffer page layout".
 *
 *	offset 0   u64 timestamp     the time of the page's first record
 *	offset 8   u64 commit        bytes of records (low 27 bits), and flags:
 *	                             bit 31 events were lost before this page,
 *	                             bit 30 their count follows the records
 *	offset 16  records, each a little-endian u32 header
 *	           type_len (5 bits) | time_delta (27 bits) << 5, then:
 *	             1..28  a record of type_len * 4 bytes
 *	             0      its length (u32, itself included) and the record
 *	             29     padding (time_delta 0: the rest of the page;
 *	                    else the length of a discarded record follows)
 *	             30     a time extension: (u32 << 27) | time_delta
 *	             31     an absolute time stamp, likewise
 *
 * The page comes from the kernel, but a reader must not trust it further
 * than its own bounds: every length is checked against the page.
 */
#ifndef TRAX_KERNEL_RING_PAGE_H
#define TRAX_KERNEL_RING_PAGE_H

#include <stddef.h>
#include <stdint.h>

#define RING_PAGE_HEADER 16u

struct ring_page {
	const uint8_t *data;  /* the page */
	size_t size;	      /* bytes read (a whole page) */
	uint64_t ts;	      /* time of the record returned last (or the page's) */
	uint32_t commit;      /* bytes of records after the header */
	uint32_t pos;	      /* offset of the next header, from the page's start */
	int missed;	      /* events were lost before this page */
	int64_t missed_count; /* how many, -1 when the page does not say */
};

/* A record: its time and payload (the event, starting with common_type). */
struct ring_record {
	uint64_t ts;
	const uint8_t *payload;
	uint32_t len;
};

/*
 * Starts reading a page of size bytes. 0, or -1 when it cannot be a page
 * (shorter than its header, or a commit past its end): *err says why.
 */
int ring_page_open(struct ring_page *p, const void *data, size_t size, const char **err);

/*
 * The next record: 1 with *r filled, 0 at the end of the page, -1 when the
 * page is damaged (a length past the commit, an unknown header): *err says
 * why, at p->pos.
 */
int ring_page_next(struct ring_page *p, struct ring_record *r, const char **err);

#endif /* TRAX_KERNEL_RING_PAGE_H */
