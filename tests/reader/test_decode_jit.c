/*
 * test_decode_jit.c - the machine code of decode-jit.h against the
 * interpreter it replaces, fixed_run_decode(): random runs (integers of
 * every size from 1 to 64 bits at every bit offset, signed or not, clock
 * fields of several sizes one after another, 32- and 64-bit floats) over
 * random bytes and random clocks, including the clock values that make the
 * clock turn over; each value, and the clock, must be the same bits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "reader/decode-jit.h"
#include "reader/decode-prog-impl.h"

#include "check.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#define MAX_FIELDS 24
#define BUF_BYTES  512

/* One random field of kind k at bit offset *off (moved past it). */
static void random_field(struct fixed_field *f, uint8_t k, uint32_t *off)
{
	unsigned size, shift;

	memset(f, 0, sizeof(*f));
	f->kind = k;
	if (k == BLOCK_F32 || k == BLOCK_F64) {
		size = k == BLOCK_F32 ? 32 : 64;
		*off = (*off + 7) & ~7u; /* floats are at least byte-aligned */
		if (k == BLOCK_F32 && rnd() % 2)
			*off = (*off + 31) & ~31u;
	} else {
		/* every size, and the sizes movzx/movsx load, often */
		static const unsigned common[] = {8, 16, 32, 64, 27, 5};

		size = rnd() % 3 ? 1 + (unsigned)(rnd() % 64) : common[rnd() % 6];
		if (rnd() % 2)
			*off = (*off + 7) & ~7u;
	}
	shift = *off % 8;
	if (shift + size > 64) /* what one 8-byte load holds, as the program builder ensures */
		*off = (*off + 7) & ~7u;
	f->off = *off;
	f->size = (uint8_t)size;
	f->mask = size == 64 ? UINT64_MAX : ((uint64_t)1 << size) - 1;
	if (k == BLOCK_INTEGER || k == BLOCK_CLOCK)
		f->sext = rnd() % 2 ? (uint8_t)(64 - size) : 0;
	*off += size + (unsigned)(rnd() % 3 == 0 ? rnd() % 9 : 0);
}

int main(void)
{
	static struct ctf_value interp[MAX_FIELDS], jitted[MAX_FIELDS];
	struct fixed_field fa[MAX_FIELDS], fb[MAX_FIELDS];
	uint8_t buf[BUF_BYTES + 64];
	unsigned compiled = 0, runs = 0;
	struct ctf_jit_arena arena = {0};
	/*
	 * Destinations far (terabytes) from the others, for every fourth run:
	 * the code then cannot reach them all from one base register.
	 */
	struct ctf_value *far = mmap((void *)0x300000000000ull, sizeof(jitted),
				     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (far == MAP_FAILED) {
		perror("mmap");
		return 1;
	}

	for (unsigned iter = 0; iter < 3000; iter++) {
		struct fixed_run ra = {0}, rb;
		ctf_jit_fn fn;
		uint32_t off = 0, n = 1 + (uint32_t)(rnd() % MAX_FIELDS), ni, nc;

		/* the run's order: integers, clock values, floats */
		ni = (uint32_t)(rnd() % (n + 1));
		nc = (uint32_t)(rnd() % (n - ni + 1));
		for (uint32_t k = 0; k < n; k++) {
			uint8_t kind = k < ni	     ? BLOCK_INTEGER
				       : k < ni + nc ? BLOCK_CLOCK
				       : rnd() % 2   ? BLOCK_F32
						     : BLOCK_F64;

			random_field(&fa[k], kind, &off);
			fa[k].dst = &interp[k];
			fb[k] = fa[k];
			fb[k].dst = iter % 4 == 0 && k % 2 ? &far[k] : &jitted[k];
		}
		ra.nints = ni;
		ra.nclocks = nc;
		ra.nfields = n;
		ra.bits = off;
		ra.fields = fa;
		rb = ra;
		rb.fields = fb;
		if (off / 8 + 8 > BUF_BYTES)
			continue;
		if (!(fn = ctf_jit_compile(&arena, &rb))) {
#if defined(__x86_64__)
			CHECK(getenv("TRAX_NO_JIT"), "run %u (%u fields) not compiled", iter, n);
#endif
			continue;
		}
		compiled++;
		for (unsigned t = 0; t < 40; t++) {
			uint64_t ca, cb;
			uint32_t byte = (uint32_t)(rnd() % (BUF_BYTES - off / 8 - 8 + 1));

			for (size_t i = 0; i < sizeof(buf); i++)
				buf[i] = (uint8_t)rnd();
			/* clocks near a turn of their low bits, near 2^64, or anywhere */
			ca = rnd();
			if (t % 3 == 0)
				ca |= 0x7FFFFFF;
			if (t % 7 == 0)
				ca = UINT64_MAX - (rnd() % 1000);
			cb = ca;
			memset(interp, 0xA5, sizeof(interp));
			memset(jitted, 0x5A, sizeof(jitted));
			memset(far, 0x5A, sizeof(jitted));
			for (uint32_t k = 0; k < n; k++)
				interp[k].u.u = fb[k].dst->u.u = 0;
			fixed_run_decode(&ra, buf, (uint64_t)byte * 8, &ca);
			cb = fn(buf + byte, cb, NULL);
			runs++;
			CHECK(ca == cb, "run %u: clock %#llx interpreted, %#llx compiled", iter,
			      (unsigned long long)ca, (unsigned long long)cb);
			for (uint32_t k = 0; k < n; k++)
				CHECK(interp[k].u.u == fb[k].dst->u.u,
				      "run %u field %u (kind %u, off %u, size %u, sext %u): %#llx "
				      "interpreted, %#llx compiled",
				      iter, k, fa[k].kind, fa[k].off, fa[k].size, fa[k].sext,
				      (unsigned long long)interp[k].u.u,
				      (unsigned long long)fb[k].dst->u.u);
			if (failures > 20) /* enough to see what is wrong */
				return CHECK_RESULT();
		}
		/* a fresh arena now and then: functions share chunks, and chunks fill up */
		if (iter % 500 == 499)
			ctf_jit_arena_free(&arena);
	}
#if defined(__x86_64__)
	CHECK(getenv("TRAX_NO_JIT") || compiled > 2000, "only %u runs compiled", compiled);
#endif
	ctf_jit_arena_free(&arena);
	if (!failures)
		printf("test_decode_jit: %u runs compiled, %u decodings alike\n", compiled, runs);
	return CHECK_RESULT();
}
