/*
 * elf-object.h - what the state dump and the dynamic-linker events say of
 * one loaded object, read from the program headers that dl_iterate_phdr(3)
 * shows (the object's memory, never its file).
 */
#ifndef TRAX_ELF_OBJECT_H
#define TRAX_ELF_OBJECT_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

struct trax_elf_object {
	/*
	 * Where addresses in the file are relative to: the load bias of a
	 * position-independent object (ELF type ET_DYN, is_pic = 1), the
	 * lowest PT_LOAD address of one that is not (its addresses are
	 * absolute).
	 */
	uint64_t baddr;
	uint64_t memsz; /* span of the PT_LOAD segments from baddr (from 0 when pic) */
	uint8_t is_pic;
	uint8_t *build_id; /* malloc'ed NT_GNU_BUILD_ID bytes; NULL: none (or no memory) */
	size_t build_id_len;
	const void *ehdr; /* the ELF header in memory, NULL when no segment maps it */
};

/*
 * Describes the object of info (executable: the program, whose type is read
 * from its header when mapped). Safe inside a dl_iterate_phdr callback: it
 * only reads memory the loader mapped and allocates the build ID. 0, or -1
 * when the object maps nothing.
 */
int trax_elf_object_read(const struct dl_phdr_info *info, int executable,
			 struct trax_elf_object *o);

#endif /* TRAX_ELF_OBJECT_H */
