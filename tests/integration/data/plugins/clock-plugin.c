/* A clock plugin: a counter that advances by 1000 cycles per read, at a
 * nominal 1 MHz, named "counter". */
#include <stdint.h>

struct trax_clock_plugin {
	uint64_t (*read)(void);
	uint64_t freq;
	const char *name;
	const char *description;
};

static uint64_t counter = 5000000;

static uint64_t read_counter(void)
{
	return __atomic_add_fetch(&counter, 1000, __ATOMIC_RELAXED);
}

void trax_clock_plugin_init(struct trax_clock_plugin *p)
{
	p->read = read_counter;
	p->freq = 1000000;
	p->name = "counter";
	p->description = "Test counter";
}
