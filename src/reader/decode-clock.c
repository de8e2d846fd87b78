/*
 * decode-clock.c - clock values to nanoseconds, the Babeltrace 2.0 way
 * (docs/text-format.md section 5): the printed times must match to the
 * nanosecond, rounding quirks included.
 */
#include "reader/decode-clock.h"

#include <stdbool.h>

#define NS_PER_S 1000000000ULL

/* Cycles to ns; false when it does not fit 64 bits. */
static bool cycles_ns(uint64_t freq, uint64_t c, uint64_t *ns)
{
	double d;

	if (freq == NS_PER_S) {
		*ns = c;
		return true;
	}
	d = 1e9 * (double)c / (double)freq;
	if (d >= 18446744073709551616.0)
		return false;
	*ns = (uint64_t)d;
	return true;
}

int ctf_clock_cycles_to_ns(const struct ctf_clock *clock, uint64_t cycles, int64_t *ns)
{
	uint64_t freq = clock->freq, off_ns, val_ns;
	int64_t off_s = clock->offset_s, off_c = clock->offset, whole, base;

	if (freq == 0)
		return -1;
	/*
	 * Babeltrace keeps the cycles offset below one second (its metadata
	 * reader moves whole seconds to offset_s); this changes the rounding
	 * of the double conversion, so do the same. A negative offset (which
	 * Babeltrace does not accept) is brought up to [0, freq) likewise.
	 */
	if (freq <= INT64_MAX) {
		whole = off_c / (int64_t)freq;
		off_c -= whole * (int64_t)freq;
		if (off_c < 0) {
			off_c += (int64_t)freq;
			whole--;
		}
		if (__builtin_add_overflow(off_s, whole, &off_s))
			return -1;
	}
	if (__builtin_mul_overflow(off_s, (int64_t)NS_PER_S, &base))
		return -1;
	if (!cycles_ns(freq, (uint64_t)off_c, &off_ns) || !cycles_ns(freq, cycles, &val_ns))
		return -1;
	if (off_ns > INT64_MAX || val_ns > INT64_MAX)
		return -1;
	if (__builtin_add_overflow(base, (int64_t)off_ns, &base) ||
	    __builtin_add_overflow(base, (int64_t)val_ns, &base))
		return -1;
	*ns = base;
	return 0;
}

void ctf_clock_conv_init(struct ctf_clock_conv *cv, const struct ctf_clock *clock)
{
	cv->clock = clock;
	/* at 1 GHz the value converts exactly: only the offset needs the general path */
	cv->fast =
	    clock && clock->freq == NS_PER_S && ctf_clock_cycles_to_ns(clock, 0, &cv->base) == 0;
}
