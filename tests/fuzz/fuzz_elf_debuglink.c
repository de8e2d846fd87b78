/*
 * fuzz_elf_debuglink.c - libFuzzer target: trax_elf_debug_link() on any
 * bytes (the state dump reads the ELF files of the loaded objects from disk,
 * and a file can be anything). Run by tools/fuzz.sh.
 *
 * FUZZ-SOURCES: src/ust/elf-debuglink.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ust/elf-debuglink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64], *name = NULL;
	uint32_t crc;

	if (fd < 0)
		fd = memfd_create("fuzz-elf", 0);
	if (fd < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (trax_elf_debug_link(path, &name, &crc) == 0)
		free(name);
	return 0;
}
