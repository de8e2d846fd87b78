/*
 * syscall-nr.c - the number of each x86-64 system call, by the name
 * tracefs gives it (the name of its SYSCALL_DEFINE, as LTTng-modules names
 * its events too).
 *
 * The numbers come from <asm/unistd_64.h> at build time (syscall-nrs.h,
 * made by bpf/gen-nrs.sh). Three things complete them:
 *  - six calls whose kernel name is not their __NR_ name (the kernel's
 *    syscall_64.tbl maps stat to sys_newstat, and so on);
 *  - calls newer than the headers trax may be built with: numbers are the
 *    kernel's ABI, so they are listed here once (each checked on a 6.18
 *    kernel: the call made with its number appeared as its tracefs event;
 *    but map_shadow_stack, which that kernel does not offer).
 */
#include <string.h>

#include "kernel/syscall-table.h"

struct sc_nr {
	const char *name;
	int nr;
};

static const struct sc_nr from_headers[] = {
#define SC_NR(name, nr) {#name, nr},
#include "syscall-nrs.h"
#undef SC_NR
};

/* The __NR_ name of calls whose kernel function has another name. */
static const struct {
	const char *kernel, *nr_name;
} renamed[] = {
    {"newstat", "stat"},   {"newfstat", "fstat"},      {"newlstat", "lstat"},
    {"newuname", "uname"}, {"sendfile64", "sendfile"}, {"umount", "umount2"},
};

/* Calls newer than the oldest headers trax builds with (Linux 6.1's). */
static const struct sc_nr newer[] = {
    {"uretprobe", 335},		{"uprobe", 336},
    {"cachestat", 451},		{"fchmodat2", 452},
    {"map_shadow_stack", 453},	{"futex_wake", 454},
    {"futex_wait", 455},	{"futex_requeue", 456},
    {"statmount", 457},		{"listmount", 458},
    {"lsm_get_self_attr", 459}, {"lsm_set_self_attr", 460},
    {"lsm_list_modules", 461},	{"mseal", 462},
    {"setxattrat", 463},	{"getxattrat", 464},
    {"listxattrat", 465},	{"removexattrat", 466},
    {"open_tree_attr", 467},	{"file_getattr", 468},
    {"file_setattr", 469},
};

static int lookup(const struct sc_nr *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return t[i].nr;
	return -1;
}

int sc_nr_of(const char *name)
{
	int nr;

	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (!strcmp(renamed[i].kernel, name)) {
			name = renamed[i].nr_name;
			break;
		}
	nr = lookup(from_headers, sizeof(from_headers) / sizeof(from_headers[0]), name);
	if (nr < 0)
		nr = lookup(newer, sizeof(newer) / sizeof(newer[0]), name);
	return nr;
}
