/* Includes <lttng/ust-tracer.h> only, and uses what LTTng-UST's brings with it. */
#include <lttng/ust-tracer.h>

#if defined(EXPECT_TRAX) && !defined(TRAX_LTTNG_UST_TRACER_H)
#error "EXPECT_TRAX: this is not trax's <lttng/ust-tracer.h>"
#endif
#if defined(EXPECT_LTTNG) && !defined(_LTTNG_UST_TRACER_H)
#error "EXPECT_LTTNG: this is not LTTng-UST's <lttng/ust-tracer.h>"
#endif

int main(int argc, char **argv)
{
	char *p = (char *)malloc(8);

	assert(argc > 0);
	printf("%s %d.%d %u\n", argv[0], LTTNG_UST_MAJOR_VERSION, LTTNG_UST_MINOR_VERSION,
	       (unsigned)htole32(1));
	free(p);
	return 0;
}
