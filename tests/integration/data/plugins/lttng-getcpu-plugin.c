/* A getcpu plugin written for LTTng-UST (<lttng/ust-getcpu.h>): every
 * thread is "on" CPU 1. */
#include <stdio.h>
#include <lttng/ust-getcpu.h>

static int always_one(void)
{
	return 1;
}

void lttng_ust_getcpu_plugin_init(void);
void lttng_ust_getcpu_plugin_init(void)
{
	int ret = lttng_ust_getcpu_override(always_one);

	if (ret)
		fprintf(stderr, "plugin: lttng_ust_getcpu_override returned %d\n", ret);
}
