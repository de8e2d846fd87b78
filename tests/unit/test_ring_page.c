/*
 * test_ring_page.c - the tracefs page reader (src/kernel/ring-page.c) on
 * pages built here by hand, every kind of record header: short and long
 * records, time extensions, absolute time stamps, padding with and without
 * a length, the lost-events flags; and damaged pages, refused.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernel/ring-page.h"

static uint8_t page[4096];
static uint32_t at;

static void put32(uint32_t v)
{
	memcpy(page + at, &v, 4);
	at += 4;
}

static void header(uint32_t type_len, uint32_t delta)
{
	put32(type_len | delta << 5);
}

static void begin(uint64_t ts)
{
	memset(page, 0, sizeof(page));
	memcpy(page, &ts, 8);
	at = RING_PAGE_HEADER;
}

static void finish(uint64_t flags)
{
	uint64_t commit = (at - RING_PAGE_HEADER) | flags;

	memcpy(page + 8, &commit, 8);
}

static void test_records(void)
{
	struct ring_page p;
	struct ring_record r;
	const char *err = NULL;
	uint8_t big[120];

	begin(1000);
	header(2, 5); /* 8 bytes at 1005 */
	memcpy(page + at, "AAAAAAAA", 8);
	at += 8;
	header(30, 7); /* time extension: + (2 << 27) | 7 */
	put32(2);
	header(0, 3); /* a long record: 120 bytes */
	put32(124);
	memset(big, 'B', sizeof(big));
	memcpy(page + at, big, sizeof(big));
	at += sizeof(big);
	header(29, 4); /* a discarded record of 12 bytes */
	put32(12);
	at += 4;
	header(31, 9); /* absolute: (1 << 27) | 9 */
	put32(1);
	header(1, 1); /* 4 bytes */
	memcpy(page + at, "CCCC", 4);
	at += 4;
	finish(0);
	header(29, 0); /* after the commit: nothing more is read */

	CHECK(ring_page_open(&p, page, sizeof(page), &err) == 0, "%s", err);
	CHECK(!p.missed && p.missed_count == -1);
	CHECK(ring_page_next(&p, &r, &err) == 1);
	CHECK(r.ts == 1005 && r.len == 8 && !memcmp(r.payload, "AAAAAAAA", 8), "ts %llu len %u",
	      (unsigned long long)r.ts, r.len);
	CHECK(ring_page_next(&p, &r, &err) == 1);
	uint64_t ts = 1005 + ((2ull << 27) | 7) + 3;
	CHECK(r.ts == ts && r.len == 120 && !memcmp(r.payload, big, 120), "ts %llu len %u",
	      (unsigned long long)r.ts, r.len);
	CHECK(ring_page_next(&p, &r, &err) == 1);
	CHECK(r.ts == ((1ull << 27) | 9) + 1 && r.len == 4 && !memcmp(r.payload, "CCCC", 4),
	      "ts %llu", (unsigned long long)r.ts);
	CHECK(ring_page_next(&p, &r, &err) == 0);
	CHECK(ring_page_next(&p, &r, &err) == 0);
}

static void test_padding_end_and_missed(void)
{
	struct ring_page p;
	struct ring_record r;
	const char *err = NULL;

	begin(50);
	header(1, 1);
	at += 4;
	header(29, 0); /* the rest of the page is empty */
	at += 100;
	finish((1ull << 31) | (1ull << 30) | 0xffffffff00000000ull); /* sign-extended flags */
	{
		uint64_t lost = 77;

		memcpy(page + at, &lost, 8);
	}
	CHECK(ring_page_open(&p, page, sizeof(page), &err) == 0, "%s", err);
	CHECK(p.missed && p.missed_count == 77, "missed %d count %lld", p.missed,
	      (long long)p.missed_count);
	CHECK(ring_page_next(&p, &r, &err) == 1 && r.ts == 51);
	CHECK(ring_page_next(&p, &r, &err) == 0);

	begin(50); /* lost events, count not stored */
	header(1, 1);
	at += 4;
	finish(1ull << 31);
	CHECK(ring_page_open(&p, page, sizeof(page), &err) == 0);
	CHECK(p.missed && p.missed_count == -1);
}

static void test_damaged(void)
{
	struct ring_page p;
	struct ring_record r;
	const char *err = NULL;

	CHECK(ring_page_open(&p, page, 8, &err) == -1 && err);
	begin(0);
	at = RING_PAGE_HEADER + 5000;
	finish(0);
	CHECK(ring_page_open(&p, page, sizeof(page), &err) == -1, "a commit past the page");
	begin(0);
	header(0, 1);
	put32(4000); /* longer than the commit */
	finish(0);
	CHECK(ring_page_open(&p, page, sizeof(page), &err) == 0);
	CHECK(ring_page_next(&p, &r, &err) == -1 && err);
	begin(0);
	header(28, 1); /* 112 bytes, but the commit holds 8 */
	at += 4;
	finish(0);
	CHECK(ring_page_open(&p, page, sizeof(page), &err) == 0);
	CHECK(ring_page_next(&p, &r, &err) == -1);
	begin(0);
	header(30, 1); /* a time extension cut by the commit */
	finish(0);
	CHECK(ring_page_open(&p, page, sizeof(page), &err) == 0);
	CHECK(ring_page_next(&p, &r, &err) == -1);
	begin(0);
	header(29, 3); /* padding of a length shorter than itself */
	put32(2);
	finish(0);
	CHECK(ring_page_open(&p, page, sizeof(page), &err) == 0);
	CHECK(ring_page_next(&p, &r, &err) == -1);
}

int main(void)
{
	test_records();
	test_padding_end_and_missed();
	test_damaged();
	return CHECK_RESULT();
}
