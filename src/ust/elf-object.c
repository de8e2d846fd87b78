/* elf-object.c - a loaded object's addresses and build ID (see elf-object.h). */
#include "ust/elf-object.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

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

/* The NT_GNU_BUILD_ID note of the object, copied from its mapped PT_NOTE segments. */
static void find_build_id(const struct dl_phdr_info *info, struct trax_elf_object *o)
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
				o->build_id = malloc(nh.n_descsz);
				if (o->build_id) {
					memcpy(o->build_id, notes + desc_off, nh.n_descsz);
					o->build_id_len = nh.n_descsz;
				}
				return;
			}
			if (next <= off)
				break;
			off = next;
		}
	}
}

int trax_elf_object_read(const struct dl_phdr_info *info, int executable, struct trax_elf_object *o)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	const ElfW(Ehdr) *ehdr = NULL;
	int i;

	memset(o, 0, sizeof(*o));
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
		return -1; /* nothing mapped */
	if (ehdr && memcmp(ehdr->e_ident, ELFMAG, SELFMAG) == 0)
		o->is_pic = ehdr->e_type == ET_DYN;
	else
		o->is_pic = !executable || info->dlpi_addr != 0;
	o->ehdr = ehdr;
	if (o->is_pic) {
		o->baddr = info->dlpi_addr;
		o->memsz = hi;
	} else {
		o->baddr = info->dlpi_addr + lo;
		o->memsz = hi - lo;
	}
	find_build_id(info, o);
	return 0;
}
