/*
 * syscall-rules.c - how LTTng-modules 2.13 records a system call's
 * arguments (x86-64), as rules over the call's name and its arguments'
 * names and C types (tracefs's format files give both), with the few
 * lists the rules cannot replace. The facts were read from LTTng-modules'
 * include/instrumentation/syscalls/ (the generated x86-64-syscalls_*.h and
 * the *_override.h files, and the generator script's rules); the code and
 * tables are trax's. docs/kernel.md, "System calls", has the rules in
 * prose and the deviations.
 *
 *  - Types: an argument is an integer of its C type's size and sign
 *    (int: int32, umode_t: uint16, size_t: uint64...); a pointer is an
 *    unsigned 64-bit integer, shown in decimal like LTTng's.
 *  - Strings: a `char *` argument whose name says it holds a name
 *    (name, file, path, root, put_old, type anywhere in it) is recorded
 *    as the string it points to, read from user memory.
 *  - Directions: an argument is in the entry event (in), the exit event
 *    (out), or both (inout). LTTng's in/out table lists the calls up to
 *    Linux 3.13; its generator makes every argument of a later call inout,
 *    and x86-64 numbers those from 314 up. For the listed calls,
 *    arguments are in but those below.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/syscall-table.h"

/* ---- C types ---- */

struct ctype_rule {
	const char *name;
	uint8_t bits;
	bool is_signed;
};

static const struct ctype_rule ctypes[] = {
    {"int", 32, true},
    {"__s32", 32, true},
    {"s32", 32, true},
    {"pid_t", 32, true},
    {"key_t", 32, true},
    {"mqd_t", 32, true},
    {"timer_t", 32, true},
    {"clockid_t", 32, true},
    {"rwf_t", 32, true},
    {"key_serial_t", 32, true},
    {"unsigned int", 32, false},
    {"unsigned", 32, false},
    {"u32", 32, false},
    {"__u32", 32, false},
    {"uid_t", 32, false},
    {"gid_t", 32, false},
    {"qid_t", 32, false},
    {"long", 64, true},
    {"loff_t", 64, true},
    {"off_t", 64, true},
    {"__s64", 64, true},
    {"s64", 64, true},
    {"unsigned long", 64, false},
    {"size_t", 64, false},
    {"u64", 64, false},
    {"__u64", 64, false},
    {"aio_context_t", 64, false},
    {"cap_user_header_t", 64, false}, /* pointer types */
    {"cap_user_data_t", 64, false},
    {"umode_t", 16, false},
    {"unsigned short", 16, false},
    {"u16", 16, false},
    {"short", 16, true},
};

/* type without qualifiers ("const", "volatile", "__user"), into buf. */
static void bare_type(const char *type, char *buf, size_t len)
{
	static const char *const quals[] = {"const", "volatile", "__user"};
	size_t n = 0;
	const char *p = type;

	while (*p) {
		const char *w;
		size_t wl, q;

		while (*p == ' ')
			p++;
		w = p;
		while (*p && *p != ' ' && *p != '*')
			p++;
		wl = (size_t)(p - w);
		if (!wl && *p == '*')
			wl = 1, p++;
		for (q = 0; q < sizeof(quals) / sizeof(quals[0]); q++)
			if (strlen(quals[q]) == wl && !memcmp(quals[q], w, wl))
				break;
		if (!wl || q < sizeof(quals) / sizeof(quals[0]))
			continue;
		if (n && n + 1 < len && !(w[0] == '*' && buf[n - 1] == '*'))
			buf[n++] = ' ';
		if (n + wl < len) {
			memcpy(buf + n, w, wl);
			n += wl;
		}
	}
	buf[n] = '\0';
}

struct sc_ctype sc_ctype_of(const char *type)
{
	char t[128];

	bare_type(type, t, sizeof(t));
	if (strchr(t, '*'))
		return (struct sc_ctype){64, false, true};
	if (!strncmp(t, "enum ", 5)) /* no negative values: unsigned int */
		return (struct sc_ctype){32, false, true};
	for (size_t i = 0; i < sizeof(ctypes) / sizeof(ctypes[0]); i++)
		if (!strcmp(ctypes[i].name, t))
			return (struct sc_ctype){ctypes[i].bits, ctypes[i].is_signed, true};
	return (struct sc_ctype){64, false, false};
}

bool sc_is_user_string(const char *type, const char *name)
{
	static const char *const words[] = {"name", "file", "path", "root", "put_old", "type"};
	char t[128];

	bare_type(type, t, sizeof(t));
	if (strcmp(t, "char *"))
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(name, words[i]))
			return true;
	return false;
}

/* ---- directions ---- */

/* The first x86-64 number LTTng's in/out table does not describe (sched_setattr, Linux 3.14). */
#define FIRST_UNDESCRIBED_NR 314

/* Arguments of described calls that are not in only: space-separated names. */
static const struct {
	const char *call, *out, *inout;
} dirs[] = {
    {"adjtimex", "", "txc_p"},
    {"clock_adjtime", "", "utx"},
    {"clock_getres", "tp", ""},
    {"clock_gettime", "tp", ""},
    {"clock_nanosleep", "rmtp", ""},
    {"epoll_pwait", "events", ""},
    {"epoll_wait", "events", ""},
    {"fcntl", "", "arg"},
    {"fgetxattr", "value", ""},
    {"flistxattr", "list", ""},
    {"fstatfs", "buf", ""},
    {"futex", "", "uaddr uaddr2"},
    {"get_mempolicy", "policy nmask", ""},
    {"get_robust_list", "head_ptr len_ptr", ""},
    {"getcwd", "buf", ""},
    {"getdents", "dirent", ""},
    {"getdents64", "dirent", ""},
    {"getgroups", "grouplist", ""},
    {"getitimer", "value", ""},
    {"getpeername", "usockaddr", "usockaddr_len"},
    {"getresgid", "rgidp egidp sgidp", ""},
    {"getresuid", "ruidp euidp suidp", ""},
    {"getrlimit", "rlim", ""},
    {"getrusage", "ru", ""},
    {"getsockname", "usockaddr", "usockaddr_len"},
    {"getsockopt", "optval", "optlen"},
    {"gettimeofday", "tv tz", ""},
    {"getxattr", "value", ""},
    {"io_cancel", "result", ""},
    {"io_getevents", "events", "timeout"},
    {"ioctl", "", "arg"},
    {"keyctl", "", "arg2 arg3 arg4 arg5"},
    {"lgetxattr", "value", ""},
    {"listxattr", "list", ""},
    {"llistxattr", "list", ""},
    {"mincore", "vec", ""},
    {"mq_getsetattr", "u_omqstat", ""},
    {"mq_timedreceive", "u_msg_ptr u_msg_prio", ""},
    {"msgctl", "", "buf"},
    {"msgrcv", "msgp", ""},
    {"name_to_handle_at", "mnt_id", "handle"},
    {"nanosleep", "rmtp", ""},
    {"newfstat", "statbuf", ""},
    {"newfstatat", "statbuf", ""},
    {"newlstat", "statbuf", ""},
    {"newstat", "statbuf", ""},
    {"newuname", "name", ""},
    {"poll", "", "ufds"},
    {"ppoll", "", "ufds"},
    {"prctl", "", "arg2"},
    {"pread64", "buf", ""},
    {"preadv", "vec", ""},
    {"process_vm_readv", "lvec", ""},
    {"pselect6", "", "inp outp exp tsp"},
    {"ptrace", "", "addr data"},
    {"quotactl", "", "addr"},
    {"read", "buf", ""},
    {"readlink", "buf", ""},
    {"readlinkat", "buf", ""},
    {"readv", "", "vec"},
    {"recvfrom", "ubuf addr", "addr_len"},
    {"recvmmsg", "mmsg", "timeout"},
    {"recvmsg", "", "msg"},
    {"rt_sigaction", "oact", ""},
    {"rt_sigpending", "uset", ""},
    {"rt_sigprocmask", "oset", ""},
    {"rt_sigtimedwait", "uthese uinfo", ""},
    {"sched_getaffinity", "user_mask_ptr", ""},
    {"sched_getparam", "param", ""},
    {"sched_rr_get_interval", "interval", ""},
    {"select", "", "inp outp exp tvp"},
    {"semctl", "", "arg"},
    {"semtimedop", "", "timeout"},
    {"sendfile64", "", "offset"},
    {"setitimer", "ovalue", ""},
    {"shmctl", "", "buf"},
    {"sigaltstack", "", "uoss"},
    {"statfs", "buf", ""},
    {"syslog", "buf", ""},
    {"sysinfo", "info", ""},
    {"time", "tloc", ""},
    {"timer_create", "created_timer_id", ""},
    {"timer_gettime", "setting", ""},
    {"timer_settime", "old_setting", ""},
    {"timerfd_gettime", "otmr", ""},
    {"times", "tbuf", ""},
    {"ustat", "ubuf", ""},
    {"wait4", "stat_addr ru", ""},
    {"waitid", "infop ru", ""},
    {"writev", "", "vec"},
};

/* Whether the space-separated list names word. */
static bool listed(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p;) {
		const char *e = strchr(p, ' ');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == n && !memcmp(p, word, n))
			return true;
		p += l;
		while (*p == ' ')
			p++;
	}
	return false;
}

unsigned int sc_arg_dir(const char *call, int nr, const char *arg)
{
	if (nr >= FIRST_UNDESCRIBED_NR)
		return SC_INOUT;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strcmp(dirs[i].call, call)) {
			if (listed(dirs[i].out, arg))
				return SC_OUT;
			if (listed(dirs[i].inout, arg))
				return SC_INOUT;
			break;
		}
	return SC_IN;
}

/* Whether c has an argument called name. */
static bool has_arg(const struct sc_call *c, const char *name)
{
	for (unsigned int a = 0; a < c->nargs; a++)
		if (!strcmp(c->arg_name[a], name))
			return true;
	return false;
}

int sc_dir_check(const struct sc_table *t, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		for (unsigned int c = 0; c < t->ncalls; c++) {
			const struct sc_call *call = &t->calls[c];

			if (strcmp(call->name, dirs[i].call))
				continue;
			for (int k = 0; k < 2; k++)
				for (const char *p = k ? dirs[i].inout : dirs[i].out; *p;) {
					char word[64];
					size_t l = strcspn(p, " ");

					if (l >= sizeof(word))
						l = sizeof(word) - 1;
					memcpy(word, p, l);
					word[l] = '\0';
					if (!has_arg(call, word)) {
						snprintf(err, errlen, "%s has no argument %s",
							 call->name, word);
						return -1;
					}
					p += l;
					p += strspn(p, " ");
				}
		}
	return 0;
}
