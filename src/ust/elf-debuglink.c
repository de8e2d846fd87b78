/* elf-debuglink.c - reading an ELF file's .gnu_debuglink (see elf-debuglink.h). */
#include "ust/elf-debuglink.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SECTIONS  65536
#define MAX_SHSTRTAB  (4u << 20)
#define MAX_DEBUGLINK 4096

static int read_at(int fd, void *buf, uint64_t len, uint64_t off, uint64_t file_size)
{
	char *p = buf;

	if (off > file_size || len > file_size - off)
		return -1;
	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n <= 0)
			return -1;
		p += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

int trax_elf_debug_link(const char *path, char **filename, uint32_t *crc)
{
	static const char section_name[] = ".gnu_debuglink";
	ElfW(Ehdr) eh;
	ElfW(Shdr) *sh = NULL;
	char *strtab = NULL, *link = NULL;
	uint64_t shnum, shstrndx, file_size, i;
	struct stat st;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	file_size = (uint64_t)st.st_size;
	if (read_at(fd, &eh, sizeof(eh), 0, file_size) < 0)
		goto out;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh.e_ident[EI_DATA] !=
		(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		goto out;
	if (!eh.e_shoff || eh.e_shentsize != sizeof(ElfW(Shdr)))
		goto out;
	shnum = eh.e_shnum;
	shstrndx = eh.e_shstrndx;
	if (shnum == 0 || shstrndx == SHN_XINDEX) {
		/* Extended numbering: the real values are in section header 0. */
		ElfW(Shdr) first;

		if (read_at(fd, &first, sizeof(first), eh.e_shoff, file_size) < 0)
			goto out;
		if (shnum == 0)
			shnum = first.sh_size;
		if (shstrndx == SHN_XINDEX)
			shstrndx = first.sh_link;
	}
	if (shnum == 0 || shnum > MAX_SECTIONS || shstrndx >= shnum)
		goto out;
	sh = malloc(shnum * sizeof(*sh));
	if (!sh || read_at(fd, sh, shnum * sizeof(*sh), eh.e_shoff, file_size) < 0)
		goto out;
	if (sh[shstrndx].sh_type == SHT_NOBITS || sh[shstrndx].sh_size == 0 ||
	    sh[shstrndx].sh_size > MAX_SHSTRTAB)
		goto out;
	strtab = malloc(sh[shstrndx].sh_size);
	if (!strtab ||
	    read_at(fd, strtab, sh[shstrndx].sh_size, sh[shstrndx].sh_offset, file_size) < 0)
		goto out;
	for (i = 0; i < shnum; i++) {
		uint64_t size = sh[i].sh_size, name = sh[i].sh_name, len, crc_off;

		if (name >= sh[shstrndx].sh_size ||
		    sh[shstrndx].sh_size - name < sizeof(section_name) ||
		    memcmp(strtab + name, section_name, sizeof(section_name)) != 0)
			continue;
		/* A file name, NUL, padding to 4 bytes, then the CRC-32 of the file. */
		if (sh[i].sh_type == SHT_NOBITS || size < 2 + 4 || size > MAX_DEBUGLINK)
			break;
		link = malloc(size);
		if (!link || read_at(fd, link, size, sh[i].sh_offset, file_size) < 0)
			break;
		len = strnlen(link, size);
		if (len == 0 || len == size)
			break;
		crc_off = (len + 1 + 3) & ~(uint64_t)3;
		if (crc_off > size || size - crc_off < 4)
			break;
		memcpy(crc, link + crc_off, 4);
		*filename = link;
		link = NULL;
		ret = 0;
		break;
	}
out:
	free(link);
	free(strtab);
	free(sh);
	close(fd);
	return ret;
}
