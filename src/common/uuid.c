/* uuid.c - random UUIDs from getrandom(2), with a time-based fallback. */
#include "common/uuid.h"

#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

void trax_uuid_generate(uint8_t out[16])
{
	if (getrandom(out, 16, GRND_NONBLOCK) != 16) {
		/* No entropy yet (early boot): unique enough for a trace id. */
		struct timespec ts;
		uint64_t x;
		int i;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
		for (i = 0; i < 16; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			out[i] = (uint8_t)x;
		}
	}
	out[6] = (uint8_t)((out[6] & 0x0f) | 0x40);
	out[8] = (uint8_t)((out[8] & 0x3f) | 0x80);
}

void trax_uuid_format(const uint8_t u[16], char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
}

void trax_uuid_string(char out[37])
{
	uint8_t u[16];

	trax_uuid_generate(u);
	trax_uuid_format(u, out);
}
