/*
 * syscall-compat.c - the 32-bit system calls (int $0x80 and the ia32 entry
 * of a 64-bit kernel), named as LTTng-modules names them: by the function
 * a 32-bit x86 kernel runs for the number (sys_llseek for __NR__llseek,
 * sys_getuid16 for __NR_getuid, sys_getuid for __NR_getuid32), with the
 * prefix compat_syscall_entry_ / compat_syscall_exit_.
 *
 * Numbers come from <asm/unistd_32.h> at build time (syscall-nrs32.h,
 * made by bpf/gen-nrs.sh). A call's arguments are, in this order:
 *  - trax's list below, for the calls a 64-bit kernel has no function of
 *    that name for (socketcall, llseek, mmap_pgoff, stat64...) or whose
 *    32-bit arguments differ (a 64-bit offset split into two registers);
 *    names and C types are the 32-bit kernel's (facts read from
 *    LTTng-modules' x86-32 call list), the types as a 64-bit kernel sees
 *    them (old_sigset_t is unsigned long, __sighandler_t a pointer);
 *  - else those of the 64-bit call of the same name (tracefs's format);
 *  - else those of the call the name is a 16-bit-id or 32-bit-time
 *    variant of (setuid16: setuid, clock_gettime32: clock_gettime);
 *  - else none is known: the number stays compat_syscall_*_unknown (the
 *    calls a 64-bit kernel does not offer: vm86, the module calls without
 *    CONFIG_MODULES, the never implemented ones).
 * The rules of syscall-rules.c then give the events, as for 64-bit calls,
 * so a call both ABIs share has the same fields in both (as LTTng's
 * generated events, whose types are the C types a 64-bit kernel compiles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/syscall-table.h"

struct sc_nr32 {
	const char *name;
	int nr;
};

static const struct sc_nr32 from_headers[] = {
#define SC_NR32(name, nr) {#name, nr},
#include "syscall-nrs32.h"
#undef SC_NR32
};

/* The 32-bit kernel's function of an __NR_ name, where it is not that name. */
static const struct {
	const char *nr_name, *kernel;
} renamed[] = {
    /* the 16-bit id calls, and their 32-bit successors */
    {"lchown", "lchown16"},
    {"setuid", "setuid16"},
    {"getuid", "getuid16"},
    {"setgid", "setgid16"},
    {"getgid", "getgid16"},
    {"geteuid", "geteuid16"},
    {"getegid", "getegid16"},
    {"setreuid", "setreuid16"},
    {"setregid", "setregid16"},
    {"getgroups", "getgroups16"},
    {"setgroups", "setgroups16"},
    {"fchown", "fchown16"},
    {"setfsuid", "setfsuid16"},
    {"setfsgid", "setfsgid16"},
    {"setresuid", "setresuid16"},
    {"getresuid", "getresuid16"},
    {"setresgid", "setresgid16"},
    {"getresgid", "getresgid16"},
    {"chown", "chown16"},
    {"lchown32", "lchown"},
    {"getuid32", "getuid"},
    {"getgid32", "getgid"},
    {"geteuid32", "geteuid"},
    {"getegid32", "getegid"},
    {"setreuid32", "setreuid"},
    {"setregid32", "setregid"},
    {"getgroups32", "getgroups"},
    {"setgroups32", "setgroups"},
    {"fchown32", "fchown"},
    {"setresuid32", "setresuid"},
    {"getresuid32", "getresuid"},
    {"setresgid32", "setresgid"},
    {"getresgid32", "getresgid"},
    {"chown32", "chown"},
    {"setuid32", "setuid"},
    {"setgid32", "setgid"},
    {"setfsuid32", "setfsuid"},
    {"setfsgid32", "setfsgid"},
    /* the 32-bit time calls, and their 64-bit-time successors */
    {"time", "time32"},
    {"stime", "stime32"},
    {"utime", "utime32"},
    {"adjtimex", "adjtimex_time32"},
    {"sched_rr_get_interval", "sched_rr_get_interval_time32"},
    {"nanosleep", "nanosleep_time32"},
    {"rt_sigtimedwait", "rt_sigtimedwait_time32"},
    {"futex", "futex_time32"},
    {"io_getevents", "io_getevents_time32"},
    {"timer_settime", "timer_settime32"},
    {"timer_gettime", "timer_gettime32"},
    {"clock_settime", "clock_settime32"},
    {"clock_gettime", "clock_gettime32"},
    {"clock_getres", "clock_getres_time32"},
    {"clock_nanosleep", "clock_nanosleep_time32"},
    {"utimes", "utimes_time32"},
    {"mq_timedsend", "mq_timedsend_time32"},
    {"mq_timedreceive", "mq_timedreceive_time32"},
    {"futimesat", "futimesat_time32"},
    {"pselect6", "pselect6_time32"},
    {"ppoll", "ppoll_time32"},
    {"utimensat", "utimensat_time32"},
    {"timerfd_settime", "timerfd_settime32"},
    {"timerfd_gettime", "timerfd_gettime32"},
    {"recvmmsg", "recvmmsg_time32"},
    {"clock_adjtime", "clock_adjtime32"},
    {"io_pgetevents", "io_pgetevents_time32"},
    {"clock_gettime64", "clock_gettime"},
    {"clock_settime64", "clock_settime"},
    {"clock_adjtime64", "clock_adjtime"},
    {"clock_getres_time64", "clock_getres"},
    {"clock_nanosleep_time64", "clock_nanosleep"},
    {"timer_gettime64", "timer_gettime"},
    {"timer_settime64", "timer_settime"},
    {"timerfd_gettime64", "timerfd_gettime"},
    {"timerfd_settime64", "timerfd_settime"},
    {"utimensat_time64", "utimensat"},
    {"pselect6_time64", "pselect6"},
    {"ppoll_time64", "ppoll"},
    {"io_pgetevents_time64", "io_pgetevents"},
    {"recvmmsg_time64", "recvmmsg"},
    {"mq_timedsend_time64", "mq_timedsend"},
    {"mq_timedreceive_time64", "mq_timedreceive"},
    {"semtimedop_time64", "semtimedop"},
    {"rt_sigtimedwait_time64", "rt_sigtimedwait"},
    {"futex_time64", "futex"},
    {"sched_rr_get_interval_time64", "sched_rr_get_interval"},
    /* the old structures, and the calls that replaced them */
    {"oldstat", "stat"},
    {"oldfstat", "fstat"},
    {"oldlstat", "lstat"},
    {"stat", "newstat"},
    {"lstat", "newlstat"},
    {"fstat", "newfstat"},
    {"umount", "oldumount"},
    {"umount2", "umount"},
    {"oldolduname", "olduname"},
    {"olduname", "uname"},
    {"uname", "newuname"},
    {"getrlimit", "old_getrlimit"},
    {"ugetrlimit", "getrlimit"},
    {"select", "old_select"},
    {"_newselect", "select"},
    {"readdir", "old_readdir"},
    {"mmap", "old_mmap"},
    {"mmap2", "mmap_pgoff"},
    {"_llseek", "llseek"},
    /* 64-bit offsets in two registers */
    {"pread64", "ia32_pread64"},
    {"pwrite64", "ia32_pwrite64"},
    {"truncate64", "ia32_truncate64"},
    {"ftruncate64", "ia32_ftruncate64"},
    {"readahead", "ia32_readahead"},
    {"fadvise64", "ia32_fadvise64"},
    {"fadvise64_64", "ia32_fadvise64_64"},
    {"sync_file_range", "ia32_sync_file_range"},
    {"fallocate", "ia32_fallocate"},
};

/*
 * The arguments of the calls only the 32-bit ABI has, or whose 32-bit
 * arguments are not the 64-bit call's, as "type name, type name".
 */
static const struct {
	const char *kernel, *signature;
} own_args[] = {
    {"waitpid", "pid_t pid, int * stat_addr, int options"},
    {"stat", "const char * filename, struct __old_kernel_stat * statbuf"},
    {"lstat", "const char * filename, struct __old_kernel_stat * statbuf"},
    {"fstat", "unsigned int fd, struct __old_kernel_stat * statbuf"},
    {"oldumount", "char * name"},
    {"stime32", "old_time32_t * tptr"},
    {"nice", "int increment"},
    {"signal", "int sig, unsigned long handler"},
    {"olduname", "struct oldold_utsname * name"},
    {"uname", "struct old_utsname * name"},
    {"sigaction", "int sig, const struct old_sigaction * act, struct old_sigaction * oact"},
    {"sgetmask", ""},
    {"ssetmask", "int newmask"},
    {"sigsuspend", "int unused1, int unused2, unsigned long mask"},
    {"sigpending", "unsigned long * uset"},
    {"sigprocmask", "int how, unsigned long * nset, unsigned long * oset"},
    {"sigreturn", ""},
    {"old_getrlimit", "unsigned int resource, struct rlimit * rlim"},
    {"old_select", "struct sel_arg_struct * arg"},
    {"uselib", "const char * library"},
    {"old_readdir", "unsigned int fd, struct old_linux_dirent * dirent, unsigned int count"},
    {"old_mmap", "struct mmap_arg_struct * arg"},
    {"socketcall", "int call, unsigned long * args"},
    {"ipc", "unsigned int call, int first, unsigned long second, unsigned long third, "
	    "void * ptr, long fifth"},
    {"llseek", "unsigned int fd, unsigned long offset_high, unsigned long offset_low, "
	       "loff_t * result, unsigned int whence"},
    {"sendfile", "int out_fd, int in_fd, off_t * offset, size_t count"},
    {"mmap_pgoff", "unsigned long addr, unsigned long len, unsigned long prot, "
		   "unsigned long flags, unsigned long fd, unsigned long pgoff"},
    {"stat64", "const char * filename, struct stat64 * statbuf"},
    {"lstat64", "const char * filename, struct stat64 * statbuf"},
    {"fstat64", "unsigned long fd, struct stat64 * statbuf"},
    {"fstatat64", "int dfd, const char * filename, struct stat64 * statbuf, int flag"},
    {"fcntl64", "unsigned int fd, unsigned int cmd, unsigned long arg"},
    {"statfs64", "const char * pathname, size_t sz, struct statfs64 * buf"},
    {"fstatfs64", "unsigned int fd, size_t sz, struct statfs64 * buf"},
    {"set_thread_area", "struct user_desc * u_info"},
    {"get_thread_area", "struct user_desc * u_info"},
    {"clone", "unsigned long clone_flags, unsigned long newsp, int * parent_tidptr, "
	      "unsigned long tls, int * child_tidptr"},
    {"ia32_pread64", "unsigned int fd, char * ubuf, u32 count, u32 poslo, u32 poshi"},
    {"ia32_pwrite64", "unsigned int fd, const char * ubuf, u32 count, u32 poslo, u32 poshi"},
    {"ia32_truncate64",
     "const char * filename, unsigned long offset_low, unsigned long offset_high"},
    {"ia32_ftruncate64", "unsigned int fd, unsigned long offset_low, unsigned long offset_high"},
    {"ia32_readahead", "int fd, unsigned int off_lo, unsigned int off_hi, size_t count"},
    {"ia32_fadvise64",
     "int fd, unsigned int offset_lo, unsigned int offset_hi, size_t len, int advice"},
    {"ia32_fadvise64_64", "int fd, __u32 offset_low, __u32 offset_high, __u32 len_low, "
			  "__u32 len_high, int advice"},
    {"ia32_sync_file_range", "int fd, unsigned int off_low, unsigned int off_hi, "
			     "unsigned int n_low, unsigned int n_hi, int flags"},
    {"ia32_fallocate", "int fd, int mode, unsigned int offset_lo, unsigned int offset_hi, "
		       "unsigned int len_lo, unsigned int len_hi"},
    {"fanotify_mark", "int fanotify_fd, unsigned int flags, u32 mask_lo, u32 mask_hi, int dfd, "
		      "const char * pathname"},
};

/* Suffixes of the variants whose arguments are those of the call without it. */
static const char *const variant_suffix[] = {"_time32", "32", "16"};

/* LTTng's in/out table describes the calls below this 32-bit number (sched_setattr's). */
#define FIRST_UNDESCRIBED_NR32 351
/* ... as syscall-rules.c's is for the 64-bit numbers. */
#define FIRST_UNDESCRIBED_NR 314

const char *sc_compat_name_of(int nr)
{
	for (size_t i = 0; i < sizeof(from_headers) / sizeof(from_headers[0]); i++) {
		if (from_headers[i].nr != nr)
			continue;
		for (size_t k = 0; k < sizeof(renamed) / sizeof(renamed[0]); k++)
			if (!strcmp(renamed[k].nr_name, from_headers[i].name))
				return renamed[k].kernel;
		return from_headers[i].name;
	}
	return NULL;
}

static const struct sc_call *native(const struct sc_table *t, const char *name)
{
	for (unsigned int i = 0; i < t->ncalls; i++)
		if (!strcmp(t->calls[i].name, name))
			return &t->calls[i];
	return NULL;
}

/* The native call whose arguments a variant has ("setuid" for "setuid16"), or NULL. */
static const struct sc_call *variant_of(const struct sc_table *t, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(variant_suffix) / sizeof(variant_suffix[0]); i++) {
		size_t sl = strlen(variant_suffix[i]);
		char base[64];

		if (len <= sl || len - sl >= sizeof(base) ||
		    strcmp(name + len - sl, variant_suffix[i]))
			continue;
		memcpy(base, name, len - sl);
		base[len - sl] = '\0';
		return native(t, base);
	}
	return NULL;
}

/* c's arguments from "type name, type name". 0, or -1 (out of memory or too many). */
static int args_parse(struct sc_call *c, const char *sig)
{
	const char *p = sig;

	while (*p) {
		const char *end = strstr(p, ", "), *sp;
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (c->nargs == SC_MAX_ARGS)
			return -1;
		for (sp = p + len; sp > p && sp[-1] != ' '; sp--)
			;
		if (sp == p)
			return -1;
		c->arg_type[c->nargs] = strndup(p, (size_t)(sp - 1 - p));
		c->arg_name[c->nargs] = strndup(sp, (size_t)(p + len - sp));
		if (!c->arg_type[c->nargs] || !c->arg_name[c->nargs])
			return -1;
		c->nargs++;
		p += len;
		if (*p)
			p += 2;
	}
	return 0;
}

static int args_copy(struct sc_call *c, const struct sc_call *from)
{
	for (unsigned int a = 0; a < from->nargs; a++) {
		c->arg_type[a] = strdup(from->arg_type[a]);
		c->arg_name[a] = strdup(from->arg_name[a]);
		c->nargs = a + 1;
		if (!c->arg_type[a] || !c->arg_name[a])
			return -1;
	}
	return 0;
}

static int signature_make(struct sc_call *c)
{
	size_t len = 1;

	for (unsigned int a = 0; a < c->nargs; a++)
		len += strlen(c->arg_type[a]) + strlen(c->arg_name[a]) + 3;
	c->signature = malloc(len);
	if (!c->signature)
		return -1;
	c->signature[0] = '\0';
	for (unsigned int a = 0; a < c->nargs; a++) {
		if (a)
			strcat(c->signature, ", ");
		strcat(c->signature, c->arg_type[a]);
		strcat(c->signature, " ");
		strcat(c->signature, c->arg_name[a]);
	}
	return 0;
}

/* Renames an event "syscall_..." to "compat_syscall_...". */
static int event_compat(struct sc_event *ev)
{
	size_t len = strlen(ev->name) + sizeof("compat_");
	char *name = malloc(len);

	if (!name)
		return -1;
	snprintf(name, len, "compat_%s", ev->name);
	free(ev->name);
	ev->name = name;
	ev->kc.cls.name = name;
	ev->compat = true;
	return 0;
}

/*
 * The 32-bit clone passes tls before child_tidptr (CONFIG_CLONE_BACKWARDS):
 * LTTng's clone layout (syscall-override.c) reads child_tid from the 64-bit
 * call's fourth argument; here it is the fifth.
 */
static void clone_fix(struct sc_call *c)
{
	for (int e = 0; e < 2; e++)
		for (unsigned int i = 0; i < c->ev[e].nfields; i++)
			if (!strcmp(c->ev[e].fields[i].name, "child_tid") &&
			    c->ev[e].src[i].src == SC_SRC_ARG)
				c->ev[e].src[i].arg = 4;
}

/* Builds 32-bit call c, named, numbered nr32, with its arguments set. 0, or -1. */
static int compat_build(struct sc_call *c, int nr32, unsigned int *fallback_types)
{
	int r;

	/* sc_call_build decides directions by the 64-bit numbering */
	c->nr = nr32 >= FIRST_UNDESCRIBED_NR32 ? FIRST_UNDESCRIBED_NR : 0;
	r = sc_call_build(c, fallback_types);
	c->nr = nr32;
	if (r || signature_make(c) || event_compat(&c->ev[0]) || event_compat(&c->ev[1]))
		return -1;
	if (!strcmp(c->name, "clone"))
		clone_fix(c);
	return 0;
}

int sc_compat_load(struct sc_table *t)
{
	size_t n = sizeof(from_headers) / sizeof(from_headers[0]);

	t->compat = calloc(n ? n : 1, sizeof(*t->compat));
	if (!t->compat)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int nr = from_headers[i].nr;
		const char *name = sc_compat_name_of(nr), *sig = NULL;
		const struct sc_call *from = NULL;
		struct sc_call *c = &t->compat[t->ncompat];

		if (!name || nr < 0 || nr >= SC_NR_SLOTS || t->by_nr32[nr] >= 0)
			continue;
		for (size_t k = 0; k < sizeof(own_args) / sizeof(own_args[0]); k++)
			if (!strcmp(own_args[k].kernel, name))
				sig = own_args[k].signature;
		if (!sig && !(from = native(t, name)) && !(from = variant_of(t, name)))
			continue; /* a call this kernel does not have: unknown */
		memset(c, 0, sizeof(*c));
		t->ncompat++;
		c->name = strdup(name);
		if (!c->name || (sig ? args_parse(c, sig) : args_copy(c, from)) ||
		    compat_build(c, nr, &t->fallback_types))
			return -1;
		t->by_nr32[nr] = (int)(t->ncompat - 1);
	}
	return 0;
}
