/*
 * statedump.c - the LTTng-UST state dump (lttng-ust(3), "LTTng-UST state
 * dump"): when tracing starts, one lttng_ust_statedump:bin_info event per
 * executable and shared object loaded in the process, followed by its
 * lttng_ust_statedump:build_id and lttng_ust_statedump:debug_link events
 * when it has them, all between lttng_ust_statedump:start and :end. With the
 * ip and vpid contexts, Babeltrace 2's flt.lttng-utils.debug-info resolves
 * the addresses of events to functions and source lines with them.
 *
 * TRAX_WITHOUT_BADDR_STATEDUMP (or LTTNG_UST_WITHOUT_BADDR_STATEDUMP) set in
 * the environment disables the state dump.
 *
 * The loaded objects are listed with dl_iterate_phdr(3), which holds the
 * dynamic loader's lock: the callback only copies what it needs from memory
 * (addresses, build ID); the files are read (debug link) and the events
 * recorded once the lock is released.
 *
 * Values, as LTTng-UST records them: baddr is the load bias (dlpi_addr) of a
 * position-independent object (ELF type ET_DYN, is_pic = 1) and the lowest
 * PT_LOAD address of an executable that is not; memsz spans its PT_LOAD
 * segments from there; path is the canonical path of the file (the program's
 * comes from /proc/self/exe). The vDSO and objects without a file are left
 * out. The build ID is the NT_GNU_BUILD_ID note of the mapped PT_NOTE
 * segments; the debug link (file name and CRC-32) is read from the file's
 * .gnu_debuglink section, and a file that does not parse is skipped.
 */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/env.h"
#include "common/log.h"
#include "ust/elf-debuglink.h"
#include "ust/ust.h"

/*
 * The provider is part of the library. Its generated constructor registers
 * it, but only after init.c's priority constructor has enabled the events
 * and run the state dump: trax_statedump_register() registers it earlier
 * (registering a provider twice is harmless).
 */
#include "trax/probe.h"
#define TRACEPOINT_CREATE_PROBES
#include "ust/statedump-provider.h"

/* The call sites of the state dump, registered like any module's. */
static struct trax_tracepoint tp_start = {"lttng_ust_statedump:start", 0, 0, 0, 0};
static struct trax_tracepoint tp_bin_info = {"lttng_ust_statedump:bin_info", 0, 0, 0, 0};
static struct trax_tracepoint tp_build_id = {"lttng_ust_statedump:build_id", 0, 0, 0, 0};
static struct trax_tracepoint tp_debug_link = {"lttng_ust_statedump:debug_link", 0, 0, 0, 0};
static struct trax_tracepoint tp_end = {"lttng_ust_statedump:end", 0, 0, 0, 0};
static struct trax_tracepoint *const statedump_tps[] = {&tp_start, &tp_bin_info, &tp_build_id,
							&tp_debug_link, &tp_end};

void trax_statedump_register(void)
{
	trax_provider_register(&__trax_provider_lttng_ust_statedump);
	trax_tracepoints_register(statedump_tps, sizeof(statedump_tps) / sizeof(statedump_tps[0]));
}

/* The probe of a tracepoint when the event is recorded, else NULL. */
static void *tp_probe(struct trax_tracepoint *tp, void **data)
{
	void *probe = __atomic_load_n(&tp->probe, __ATOMIC_ACQUIRE);

	if (!probe || !__atomic_load_n(&tp->state, __ATOMIC_RELAXED))
		return NULL;
	*data = __atomic_load_n(&tp->data, __ATOMIC_ACQUIRE);
	return probe;
}

static int tp_on(struct trax_tracepoint *tp)
{
	void *data;

	return tp_probe(tp, &data) != NULL;
}

static void emit_marker(struct trax_tracepoint *tp)
{
	void (*probe)(void *);
	void *data;

	*(void **)&probe = tp_probe(tp, &data);
	if (probe)
		probe(data);
}

static void emit_bin_info(uint64_t baddr, uint64_t memsz, const char *path, uint8_t is_pic,
			  uint8_t has_build_id, uint8_t has_debug_link)
{
	void (*probe)(void *, uint64_t, uint64_t, const char *, uint8_t, uint8_t, uint8_t);
	void *data;

	*(void **)&probe = tp_probe(&tp_bin_info, &data);
	if (probe)
		probe(data, baddr, memsz, path, is_pic, has_build_id, has_debug_link);
}

static void emit_build_id(uint64_t baddr, const uint8_t *id, size_t len)
{
	void (*probe)(void *, uint64_t, const uint8_t *, size_t);
	void *data;

	*(void **)&probe = tp_probe(&tp_build_id, &data);
	if (probe)
		probe(data, baddr, id, len);
}

static void emit_debug_link(uint64_t baddr, const char *filename, uint32_t crc)
{
	void (*probe)(void *, uint64_t, const char *, uint32_t);
	void *data;

	*(void **)&probe = tp_probe(&tp_debug_link, &data);
	if (probe)
		probe(data, baddr, filename, crc);
}

/* ---- Walking the loaded objects ---- */

struct bin {
	uint64_t baddr;
	uint64_t memsz;
	char *path;
	uint8_t is_pic;
	uint8_t *build_id;
	size_t build_id_len;
};

struct walk {
	struct bin *bins;
	size_t nr, cap;
	unsigned int index; /* of the object the callback sees */
	uintptr_t vdso;	    /* ELF header of the vDSO, 0 if none */
	int failed;
};

#define MAX_BUILD_ID 256 /* bytes; GNU tools make 20 (SHA-1) or 16 (MD5) */

/* Whether [vaddr, vaddr + len) lies in the file-backed part of a PT_LOAD. */
static int mapped(const struct dl_phdr_info *info, uint64_t vaddr, uint64_t len)
{
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr && len <= ph->p_filesz &&
		    vaddr - ph->p_vaddr <= ph->p_filesz - len)
			return 1;
	}
	return 0;
}

/* The NT_GNU_BUILD_ID note of the object, copied from its PT_NOTE segments. */
static void find_build_id(const struct dl_phdr_info *info, struct bin *b)
{
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *notes;
		uint64_t off = 0, size, align;

		if (ph->p_type != PT_NOTE || !mapped(info, ph->p_vaddr, ph->p_filesz))
			continue;
		notes = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		size = ph->p_filesz;
		align = ph->p_align == 8 ? 8 : 4;
		while (size - off >= sizeof(ElfW(Nhdr))) {
			ElfW(Nhdr) nh;
			uint64_t name_off, desc_off, next;

			memcpy(&nh, notes + off, sizeof(nh));
			name_off = off + sizeof(nh);
			desc_off = name_off + (((uint64_t)nh.n_namesz + align - 1) & ~(align - 1));
			next = desc_off + (((uint64_t)nh.n_descsz + align - 1) & ~(align - 1));
			if (desc_off > size || next > size || nh.n_descsz > size - desc_off)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp(notes + name_off, "GNU", 4) == 0 && nh.n_descsz > 0 &&
			    nh.n_descsz <= MAX_BUILD_ID) {
				b->build_id = malloc(nh.n_descsz);
				if (b->build_id) {
					memcpy(b->build_id, notes + desc_off, nh.n_descsz);
					b->build_id_len = nh.n_descsz;
				}
				return;
			}
			if (next <= off)
				break;
			off = next;
		}
	}
}

static int walk_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;
	int main_program = w->index++ == 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	const ElfW(Ehdr) *ehdr = NULL;
	char exe[PATH_MAX];
	const char *path = info->dlpi_name;
	struct bin b;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_vaddr < lo)
			lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > hi)
			hi = ph->p_vaddr + ph->p_memsz;
		if (ph->p_offset == 0 && ph->p_filesz >= sizeof(ElfW(Ehdr)))
			ehdr = (const ElfW(Ehdr) *)(info->dlpi_addr + ph->p_vaddr);
	}
	if (hi <= lo)
		return 0; /* nothing mapped */
	if (w->vdso && (uintptr_t)ehdr == w->vdso)
		return 0;
	if (main_program) {
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (n <= 0)
			return 0;
		exe[n] = 0;
		path = exe;
	}
	if (!path || !*path)
		return 0; /* no file behind it */

	memset(&b, 0, sizeof(b));
	if (ehdr && memcmp(ehdr->e_ident, ELFMAG, SELFMAG) == 0)
		b.is_pic = ehdr->e_type == ET_DYN;
	else
		b.is_pic = !main_program || info->dlpi_addr != 0;
	/*
	 * Position-independent: addresses in the file are relative to the load
	 * bias (dlpi_addr); otherwise they are absolute, and the object starts
	 * at its lowest segment.
	 */
	if (b.is_pic) {
		b.baddr = info->dlpi_addr;
		b.memsz = hi;
	} else {
		b.baddr = info->dlpi_addr + lo;
		b.memsz = hi - lo;
	}
	b.path = strdup(path);
	if (!b.path) {
		w->failed = 1;
		return 1;
	}
	find_build_id(info, &b);
	if (w->nr == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct bin *bins = realloc(w->bins, cap * sizeof(*bins));

		if (!bins) {
			free(b.path);
			free(b.build_id);
			w->failed = 1;
			return 1;
		}
		w->bins = bins;
		w->cap = cap;
	}
	w->bins[w->nr++] = b;
	return 0;
}

void trax_statedump_run(void)
{
	struct walk w;
	size_t i;

	if (trax_env_get("WITHOUT_BADDR_STATEDUMP"))
		return;
	if (!tp_on(&tp_start) && !tp_on(&tp_bin_info) && !tp_on(&tp_build_id) &&
	    !tp_on(&tp_debug_link) && !tp_on(&tp_end))
		return; /* nobody records these events */

	memset(&w, 0, sizeof(w));
	w.vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	dl_iterate_phdr(walk_object, &w);
	if (w.failed)
		trax_debug("state dump: out of memory, some objects are left out");

	emit_marker(&tp_start);
	for (i = 0; i < w.nr; i++) {
		struct bin *b = &w.bins[i];
		char *link = NULL, *real;
		uint32_t crc = 0;
		int has_link = 0;

		/* The file itself, not a symbolic link that may change (like LTTng-UST). */
		real = realpath(b->path, NULL);
		if (real) {
			free(b->path);
			b->path = real;
		}
		if (tp_on(&tp_bin_info) || tp_on(&tp_debug_link))
			has_link = trax_elf_debug_link(b->path, &link, &crc) == 0;
		emit_bin_info(b->baddr, b->memsz, b->path, b->is_pic, b->build_id != NULL,
			      (uint8_t)has_link);
		if (b->build_id)
			emit_build_id(b->baddr, b->build_id, b->build_id_len);
		if (has_link)
			emit_debug_link(b->baddr, link, crc);
		free(link);
		free(b->path);
		free(b->build_id);
	}
	emit_marker(&tp_end);
	free(w.bins);
	trax_debug("state dump: %zu objects", w.nr);
}
