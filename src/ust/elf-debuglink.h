/*
 * elf-debuglink.h - the .gnu_debuglink of an ELF file (the name of the file
 * holding its debugging information, and that file's CRC-32), read from
 * the section headers on disk. The file may be anything: every size and
 * offset is checked before use.
 */
#ifndef TRAX_ELF_DEBUGLINK_H
#define TRAX_ELF_DEBUGLINK_H

#include <stdint.h>

/*
 * Returns 0 with *filename (malloc'ed) and *crc when the file at path is an
 * ELF file of this machine's class and byte order with a well-formed
 * .gnu_debuglink section; -1 otherwise (no such section, or any
 * inconsistency).
 */
int trax_elf_debug_link(const char *path, char **filename, uint32_t *crc);

#endif /* TRAX_ELF_DEBUGLINK_H */
