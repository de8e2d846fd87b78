/*
 * ring-page.c - records of a tracefs ring buffer page (see ring-page.h).
 */
#include "kernel/ring-page.h"

#include <string.h>

#define TYPE_PADDING	 29u
#define TYPE_TIME_EXTEND 30u
#define TYPE_TIME_STAMP	 31u
#define COMMIT_MASK	 ((1u << 27) - 1)
#define MISSED_EVENTS	 (1u << 31)
#define MISSED_STORED	 (1u << 30)

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int ring_page_open(struct ring_page *p, const void *data, size_t size, const char **err)
{
	uint64_t commit;

	memset(p, 0, sizeof(*p));
	if (!data || size < RING_PAGE_HEADER) {
		*err = "page shorter than its header";
		return -1;
	}
	p->data = data;
	p->size = size;
	p->ts = get_u64(p->data);
	/* a signed local_t: the flags sign-extend into the high half, which means nothing */
	commit = get_u64(p->data + 8);
	p->commit = (uint32_t)commit & COMMIT_MASK;
	p->missed = !!((uint32_t)commit & MISSED_EVENTS);
	p->missed_count = -1;
	if (RING_PAGE_HEADER + (uint64_t)p->commit > size) {
		*err = "page commit past the bytes read";
		return -1;
	}
	if (((uint32_t)commit & MISSED_STORED) &&
	    RING_PAGE_HEADER + (uint64_t)p->commit + 8 <= size)
		p->missed_count = (int64_t)get_u64(p->data + RING_PAGE_HEADER + p->commit);
	p->pos = RING_PAGE_HEADER;
	return 0;
}

int ring_page_next(struct ring_page *p, struct ring_record *r, const char **err)
{
	uint32_t end = RING_PAGE_HEADER + p->commit;

	while (p->pos < end) {
		uint32_t h, type_len, delta, len;

		if (end - p->pos < 4)
			goto truncated;
		h = get_u32(p->data + p->pos);
		type_len = h & 31;
		delta = h >> 5;
		switch (type_len) {
		case TYPE_PADDING:
			if (!delta) /* the rest of the page is empty */
				return 0;
			if (end - p->pos < 8)
				goto truncated;
			len = get_u32(p->data + p->pos + 4);
			if (len < 8 || len > end - p->pos) {
				*err = "padding longer than the page";
				return -1;
			}
			p->ts += delta;
			p->pos += len;
			continue;
		case TYPE_TIME_EXTEND:
		case TYPE_TIME_STAMP:
			if (end - p->pos < 8)
				goto truncated;
			if (type_len == TYPE_TIME_EXTEND)
				p->ts += ((uint64_t)get_u32(p->data + p->pos + 4) << 27) | delta;
			else /* absolute: the low 59 bits, the rest from the page's time */
				p->ts = (p->ts & ~((1ull << 59) - 1)) |
					(((uint64_t)get_u32(p->data + p->pos + 4) << 27) | delta);
			p->pos += 8;
			continue;
		case 0:
			if (end - p->pos < 8)
				goto truncated;
			len = get_u32(p->data + p->pos + 4); /* with the length word itself */
			if (len < 4 || len - 4 > end - p->pos - 8) {
				*err = "record longer than the page";
				return -1;
			}
			r->payload = p->data + p->pos + 8;
			r->len = len - 4;
			p->pos += 8 + ((len - 4 + 3) & ~3u);
			break;
		default:
			len = type_len * 4;
			if (len > end - p->pos - 4) {
				*err = "record longer than the page";
				return -1;
			}
			r->payload = p->data + p->pos + 4;
			r->len = len;
			p->pos += 4 + len;
			break;
		}
		p->ts += delta;
		r->ts = p->ts;
		return 1;
	}
	return 0;
truncated:
	*err = "record header cut by the end of the page";
	return -1;
}
