/*
 * dl.c - libtrax-ust-dl.so, trax's liblttng-ust-dl (lttng-ust-dl(3)):
 * preloaded (LD_PRELOAD=libtrax-ust-dl.so), it wraps dlopen(3), dlmopen(3)
 * and dlclose(3) of the program and of its libraries:
 *
 *   - each call that succeeds records lttng_ust_dl:dlopen or :dlmopen
 *     (then :build_id and :debug_link of the object), dlclose records
 *     lttng_ust_dl:dlclose before the object goes;
 *   - after each call, libtrax-ust looks at the loaded objects again and
 *     records lttng_ust_lib:load / :unload (and :build_id, :debug_link)
 *     for those that came or went, the dependencies of a library too:
 *     Babeltrace 2's debug-info filter resolves the addresses in a library
 *     loaded after the state dump with these.
 *
 * The events' ip context is the caller's return address, as LTTng-UST's.
 * The library's own calls (libtrax-ust keeping a provider loaded) are not
 * the program's: they are passed through untraced.
 *
 * Locks: the wrappers run with the dynamic loader's lock held when a
 * library's constructor calls them (inside an outer dlopen). After the real
 * call returns, they only read memory and files, and take libtrax-ust's lock
 * of the object list (see objects.h), which nests inside the loader's.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/export.h"
#include "ust/elf-debuglink.h"
#include "ust/elf-object.h"
#include "ust/objects.h"

#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "ust-dl/dl-provider.h"

static void *real_dlopen, *real_dlmopen, *real_dlclose;

/* The definition after this library's (the C library's), found once. */
static void *real(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (!f) {
		f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, f, __ATOMIC_RELEASE);
	}
	return f;
}

/* ---- libtrax-ust's own calls ---- */

/* Addresses [lo, hi) of libtrax-ust's mapped segments; hi 0 while unknown. */
static uintptr_t tracer_lo, tracer_hi;

static int find_tracer(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t probe = (uintptr_t)arg, lo = UINTPTR_MAX, hi = 0;
	int i, inside = 0;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (start < lo)
			lo = start;
		if (start + ph->p_memsz > hi)
			hi = start + ph->p_memsz;
		if (probe >= start && probe - start < ph->p_memsz)
			inside = 1;
	}
	if (!inside)
		return 0;
	__atomic_store_n(&tracer_lo, lo, __ATOMIC_RELAXED);
	__atomic_store_n(&tracer_hi, hi, __ATOMIC_RELEASE);
	return 1;
}

static int called_by_tracer(const void *caller)
{
	uintptr_t ip = (uintptr_t)caller;

	if (!__atomic_load_n(&tracer_hi, __ATOMIC_ACQUIRE))
		dl_iterate_phdr(find_tracer, (void *)(uintptr_t)trax_ust_dl_update);
	return ip >= __atomic_load_n(&tracer_lo, __ATOMIC_RELAXED) &&
	       ip < __atomic_load_n(&tracer_hi, __ATOMIC_ACQUIRE);
}

/* ---- The object behind a handle ---- */

struct handle_object {
	struct link_map *map;
	int found;
	struct trax_elf_object elf;
};

static int find_map(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct handle_object *h = arg;
	const char *name = info->dlpi_name ? info->dlpi_name : "";

	(void)size;
	if (info->dlpi_addr != h->map->l_addr || strcmp(name, h->map->l_name ? h->map->l_name : ""))
		return 0;
	h->found = trax_elf_object_read(info, !name[0], &h->elf) == 0;
	return 1;
}

/*
 * The object a handle stands for, from its program headers in memory:
 * dlinfo(RTLD_DI_PHDR) (glibc 2.36) finds them in any namespace,
 * dl_iterate_phdr() only in this library's.
 */
static int handle_object(void *handle, struct handle_object *h)
{
	memset(h, 0, sizeof(*h));
	if (!handle || dlinfo(handle, RTLD_DI_LINKMAP, &h->map) != 0 || !h->map)
		return -1;
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 36) /* RTLD_DI_PHDR, an enum */
	{
		const ElfW(Phdr) *phdr = NULL;
		int n = dlinfo(handle, RTLD_DI_PHDR, &phdr);

		if (n > 0 && phdr) {
			struct dl_phdr_info info;

			memset(&info, 0, sizeof(info));
			info.dlpi_addr = h->map->l_addr;
			info.dlpi_name = h->map->l_name ? h->map->l_name : "";
			info.dlpi_phdr = phdr;
			info.dlpi_phnum = (ElfW(Half))n;
			return trax_elf_object_read(&info, !info.dlpi_name[0], &h->elf);
		}
	}
#endif
	dl_iterate_phdr(find_map, h);
	return h->found ? 0 : -1;
}

/* lttng_ust_dl:dlopen or :dlmopen, :build_id and :debug_link of a handle just opened. */
static void record_open(void *handle, const void *ip, int flags, int with_nsid, Lmid_t nsid)
{
	struct handle_object h;
	char *path, *link = NULL;
	uint32_t crc = 0;

	if (!tracepoint_enabled(lttng_ust_dl, dlopen) &&
	    !tracepoint_enabled(lttng_ust_dl, dlmopen) &&
	    !tracepoint_enabled(lttng_ust_dl, build_id) &&
	    !tracepoint_enabled(lttng_ust_dl, debug_link))
		return;
	if (handle_object(handle, &h) < 0)
		return;
	/* dlopen(NULL): the program itself, which LTTng-UST records no dlopen of */
	if (!h.map->l_name || !h.map->l_name[0]) {
		free(h.elf.build_id);
		return;
	}
	path = realpath(h.map->l_name, NULL);
	if (path && trax_elf_debug_link(path, &link, &crc) < 0)
		link = NULL;
	if (with_nsid)
		tracepoint(lttng_ust_dl, dlmopen, ip, h.elf.baddr, h.elf.memsz, nsid, flags,
			   path ? path : h.map->l_name, h.elf.build_id != NULL, link != NULL);
	else
		tracepoint(lttng_ust_dl, dlopen, ip, h.elf.baddr, h.elf.memsz, flags,
			   path ? path : h.map->l_name, h.elf.build_id != NULL, link != NULL);
	if (h.elf.build_id)
		tracepoint(lttng_ust_dl, build_id, ip, h.elf.baddr, h.elf.build_id,
			   h.elf.build_id_len);
	if (link)
		tracepoint(lttng_ust_dl, debug_link, ip, h.elf.baddr, link, crc);
	free(link);
	free(path);
	free(h.elf.build_id);
}

TRAX_EXPORT void *dlopen(const char *file, int flags)
{
	const void *ip = __builtin_return_address(0);
	void *(*call)(const char *, int);
	void *handle;

	*(void **)&call = real(&real_dlopen, "dlopen");
	if (!call)
		return NULL;
	handle = call(file, flags);
	if (called_by_tracer(ip))
		return handle;
	if (handle)
		record_open(handle, ip, flags, 0, 0);
	trax_ust_dl_update(ip);
	return handle;
}

TRAX_EXPORT void *dlmopen(Lmid_t nsid, const char *file, int flags)
{
	const void *ip = __builtin_return_address(0);
	void *(*call)(Lmid_t, const char *, int);
	void *handle;

	*(void **)&call = real(&real_dlmopen, "dlmopen");
	if (!call)
		return NULL;
	handle = call(nsid, file, flags);
	if (called_by_tracer(ip))
		return handle;
	if (handle)
		record_open(handle, ip, flags, 1, nsid);
	trax_ust_dl_update(ip);
	return handle;
}

TRAX_EXPORT int dlclose(void *handle)
{
	const void *ip = __builtin_return_address(0);
	int (*call)(void *);
	struct handle_object h;
	int ret;

	*(void **)&call = real(&real_dlclose, "dlclose");
	if (!call)
		return -1;
	if (called_by_tracer(ip))
		return call(handle);
	/* Before the object may go: after, its handle means nothing. */
	if (tracepoint_enabled(lttng_ust_dl, dlclose) && handle_object(handle, &h) == 0) {
		tracepoint(lttng_ust_dl, dlclose, ip, h.elf.baddr);
		free(h.elf.build_id);
	}
	ret = call(handle);
	trax_ust_dl_update(ip);
	return ret;
}
