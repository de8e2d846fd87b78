/*
 * A clock plugin written for LTTng-UST (<lttng/ust-clock.h>): a counter
 * that advances by 1000 cycles per read, at a nominal 1 MHz, named
 * "lttng_counter", with its own UUID. It also checks the API's answers and
 * prints what is wrong on stderr ("plugin: ...").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <lttng/ust-clock.h>

static uint64_t counter = 7000000;

static uint64_t read_counter(void)
{
	return __atomic_add_fetch(&counter, 1000, __ATOMIC_RELAXED);
}

static uint64_t freq(void)
{
	return 1000000;
}

static int uuid(char *out)
{
	memcpy(out, "2c6f1a38-8d5e-4b3a-9a7c-0e5d4c3b2a19", LTTNG_UST_UUID_STR_LEN);
	return 0;
}

static const char *name(void)
{
	return "lttng_counter";
}

static const char *description(void)
{
	return "LTTng-style test counter";
}

static void check(int got, int want, const char *what)
{
	if (got != want)
		fprintf(stderr, "plugin: %s returned %d, expected %d\n", what, got, want);
}

void lttng_ust_clock_plugin_init(void);
void lttng_ust_clock_plugin_init(void)
{
	lttng_ust_clock_name_function n = NULL;
	lttng_ust_clock_freq_function f = NULL;

	/* Before the enabling, the getters give the default clock. */
	check(lttng_ust_trace_clock_get_freq_cb(&f), 0, "get_freq_cb");
	if (!f || f() != 1000000000u)
		fprintf(stderr, "plugin: the default clock's frequency is not 1 GHz\n");
	/* Missing callbacks: refused. */
	check(lttng_ust_enable_trace_clock_override(), -EINVAL, "enabling without callbacks");
	check(lttng_ust_trace_clock_set_read64_cb(read_counter), 0, "set_read64_cb");
	check(lttng_ust_trace_clock_set_freq_cb(freq), 0, "set_freq_cb");
	check(lttng_ust_trace_clock_set_uuid_cb(uuid), 0, "set_uuid_cb");
	check(lttng_ust_trace_clock_set_name_cb(name), 0, "set_name_cb");
	check(lttng_ust_enable_trace_clock_override(), -EINVAL, "enabling without a description");
	check(lttng_ust_trace_clock_set_description_cb(description), 0, "set_description_cb");
	check(lttng_ust_enable_trace_clock_override(), 0, "enabling");
	/* Once enabled: the getters give the plugin's, the setters are refused. */
	check(lttng_ust_trace_clock_get_name_cb(&n), 0, "get_name_cb");
	if (!n || strcmp(n(), "lttng_counter"))
		fprintf(stderr, "plugin: get_name_cb does not give the plugin's name\n");
	check(lttng_ust_trace_clock_set_read64_cb(read_counter), -EBUSY, "set_read64_cb once enabled");
	check(lttng_ust_enable_trace_clock_override(), -EBUSY, "enabling twice");
}
