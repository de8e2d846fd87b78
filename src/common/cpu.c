/* cpu.c - current CPU detection (see cpu.h). */
#include "common/cpu.h"

#include <dlfcn.h>
#include <sched.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "common/env.h"
#include "common/log.h"

int (*trax_getcpu_override)(void);
ptrdiff_t trax_rseq_offset;

/* glibc exports these when it registers rseq for every thread (2.35+). */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

int trax_getcpu_slow(void)
{
	int c;

	int (*over)(void) = __atomic_load_n(&trax_getcpu_override, __ATOMIC_ACQUIRE);

	if (over)
		return over();
	c = sched_getcpu();
	return c < 0 ? 0 : c;
}

void trax_cpu_init(void)
{
	const char *path = trax_env_get("GETCPU_PLUGIN");

	if (&__rseq_size && &__rseq_offset && __rseq_size >= 8)
		trax_rseq_offset = __rseq_offset;
	if (path && *path) {
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		void (*init)(int (**)(void));

		if (!h) {
			trax_debug("getcpu plugin %s: %s; ignored", path, dlerror());
			return;
		}
		*(void **)&init = dlsym(h, "trax_getcpu_plugin_init");
		if (init) {
			init(&trax_getcpu_override);
		} else {
			/* Written for LTTng-UST: it calls lttng_ust_getcpu_override(). */
			void (*lttng_init)(void);

			*(void **)&lttng_init = dlsym(h, "lttng_ust_getcpu_plugin_init");
			if (!lttng_init) {
				trax_debug(
				    "getcpu plugin %s: neither trax_getcpu_plugin_init() nor "
				    "lttng_ust_getcpu_plugin_init(); ignored",
				    path);
				return;
			}
			lttng_init();
		}
		trax_debug("getcpu plugin %s loaded", path);
	}
}

int trax_cpu_count(void)
{
	int n = get_nprocs_conf();

	return n > 0 ? n : 1;
}
