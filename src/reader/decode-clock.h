/*
 * decode-clock.h - clock values of a stream: rebuilding the full value from
 * the narrow timestamp fields that carry only its low bits, and converting
 * it to nanoseconds from the clock's origin as Babeltrace 2 does.
 */
#ifndef TRAX_CTF_DECODE_CLOCK_H
#define TRAX_CTF_DECODE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/ctf-ir.h"

/*
 * The stream's clock value after a field of `size` bits mapped to its clock
 * holds `value` (CTF 1.8 section 8): a 64-bit field replaces it; a narrower
 * one replaces its low bits, and counts one wrap (adds 2^size) when the new
 * low bits are smaller than the previous ones.
 */
static inline uint64_t ctf_clock_update(uint64_t current, uint64_t value, unsigned size)
{
	uint64_t mask, low;

	if (size >= 64)
		return value;
	mask = ((uint64_t)1 << size) - 1;
	low = current & mask;
	value &= mask;
	current = (current & ~mask) | value;
	if (value < low)
		current += (uint64_t)1 << size;
	return current;
}

/*
 * Nanoseconds from the Unix epoch (the clock's origin, for the absolute
 * clocks LTTng writes) of clock value `cycles`, computed as Babeltrace 2.0
 * does: the offset normalized so that 0 <= offset < freq (whole seconds
 * moved to offset_s), then offset_s * 10^9 + ns(offset) + ns(cycles), where
 * ns(c) = c at 1 GHz, else (uint64_t)(1e9 * (double)c / (double)freq) — in
 * double precision and truncated, separately for the offset and the value.
 * Returns 0, or -1 when the result does not fit an int64_t (Babeltrace then
 * fails) or the clock's frequency is 0.
 */
int ctf_clock_cycles_to_ns(const struct ctf_clock *clock, uint64_t cycles, int64_t *ns);

/*
 * The same conversion with its per-clock part (the offset) done once: for
 * the millions of events of one clock. Same results, same failures.
 */
struct ctf_clock_conv {
	const struct ctf_clock *clock;
	bool fast;    /* a 1 GHz clock whose offset converts: base + cycles */
	int64_t base; /* ns of the offset */
};

void ctf_clock_conv_init(struct ctf_clock_conv *cv, const struct ctf_clock *clock);

static inline int ctf_clock_conv_ns(const struct ctf_clock_conv *cv, uint64_t cycles, int64_t *ns)
{
	if (__builtin_expect(cv->fast, 1)) {
		if (cycles > INT64_MAX || __builtin_add_overflow(cv->base, (int64_t)cycles, ns))
			return -1;
		return 0;
	}
	return ctf_clock_cycles_to_ns(cv->clock, cycles, ns);
}

#endif /* TRAX_CTF_DECODE_CLOCK_H */
