/*
 * statedump-ns.c - a thread's namespaces, as LTTng-modules 2.13 dumps them
 * after its process_state: its PID namespace and each one above it (the
 * thread's ids there, from status's NSpid and NStgid, innermost first),
 * its user namespace and the reader's, then its cgroup, ipc, mnt, net, uts
 * and time namespaces. A namespace is known by its inode, the number in
 * /proc/PID/task/TID/ns/KIND's link.
 *
 * What /proc gives and LTTng's kernel structures do not (docs/kernel.md):
 * levels are counted from the reader's namespaces, taken as the initial
 * ones (ns_level 0); the inodes of PID namespaces between the reader's and
 * the thread's come from the NS_GET_PARENT ioctl (0 where it fails); a
 * user namespace's ids are mapped through the thread's uid_map and
 * gid_map, so only its own user namespace and the reader's are dumped,
 * not those between (nested containers).
 */
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/proc-text.h"
#include "kernel/statedump-record.h"

static uint32_t ns_inum_at(const char *path, const char *kind)
{
	char buf[64];
	long n = sd_readlink(path, buf, sizeof(buf));

	return n < 0 ? 0 : proc_ns_inum(buf, (size_t)n, kind);
}

static const char *ns_path(struct sd_ctx *c, int32_t pid, int32_t tid, const char *kind)
{
	return sd_path(c, "%s/%d/task/%d/ns/%s", c->proc, pid, tid, kind);
}

/*
 * The inodes of the namespaces above the one at path, nearest first, as
 * far as NS_GET_PARENT goes (it stops at the reader's own): how many.
 */
static unsigned int ns_parents(const char *path, uint32_t *inums, unsigned int max)
{
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	unsigned int n = 0;
	struct stat sb;

	while (fd >= 0 && n < max) {
		int parent = ioctl(fd, NS_GET_PARENT);

		close(fd);
		fd = parent;
		if (fd < 0 || fstat(fd, &sb))
			break;
		inums[n++] = (uint32_t)sb.st_ino;
	}
	if (fd >= 0)
		close(fd);
	return n;
}

void sd_read_self_ns(struct sd_ctx *c)
{
	c->self_pid_ns = ns_inum_at(sd_path(c, "%s/self/ns/pid", c->proc), "pid");
	c->self_user_ns = ns_inum_at(sd_path(c, "%s/self/ns/user", c->proc), "user");
}

static void dump_pid_ns(struct sd_ctx *c, int32_t pid, int32_t tid, int32_t ppid,
			struct proc_status *s)
{
	uint32_t inner = ns_inum_at(ns_path(c, pid, tid, "pid"), "pid");
	uint32_t parents[PROC_NS_LEVELS];
	unsigned int n = s->nr_levels, nparents = 0;
	struct proc_status ps = {.nr_levels = 0};

	if (!n) { /* no NSpid line: one namespace, the reader's */
		n = 1;
		s->nspid[0] = tid;
		s->nstgid[0] = pid;
	}
	if (n > 2)
		nparents = ns_parents(ns_path(c, pid, tid, "pid"), parents, n - 1);
	if (n > 1 && ppid > 0) { /* the parent's ids in the inner namespaces */
		long len = sd_read(c, sd_path(c, "%s/%d/status", c->proc, ppid));

		if (len < 0 || proc_status_parse(c->file, (size_t)len, &ps))
			ps.nr_levels = 0;
	}
	for (unsigned int k = n; k-- > 0 && !c->err;) {
		unsigned int up = n - 1 - k; /* levels above the thread's own */
		uint32_t inum = !up		 ? inner
				: !k		 ? c->self_pid_ns
				: up <= nparents ? parents[up - 1]
						 : 0;

		sd_begin(c);
		sd_put_i32(c, tid);
		sd_put_i32(c, s->nspid[k]);
		sd_put_i32(c, s->nstgid[k]);
		sd_put_i32(c, !k ? ppid : k < ps.nr_levels ? ps.nstgid[k] : 0);
		sd_put_i32(c, (int32_t)k);
		sd_put_u32(c, inum);
		sd_emit(c, &sd_class_process_pid_ns);
	}
}

/* How far below the reader's user namespace `inum` is: 0 for the same. */
static unsigned int userns_depth(struct sd_ctx *c, int32_t pid, int32_t tid, uint32_t inum)
{
	uint32_t parents[PROC_NS_LEVELS];
	unsigned int depth;

	if (!inum || inum == c->self_user_ns)
		return 0;
	for (unsigned int i = 0; i < c->nr_userns; i++)
		if (c->userns[i].inum == inum)
			return c->userns[i].depth;
	depth = ns_parents(ns_path(c, pid, tid, "user"), parents, PROC_NS_LEVELS);
	if (!depth) /* no ioctl (an old kernel, a copied tree): a child of the reader's */
		depth = 1;
	if (c->nr_userns < sizeof(c->userns) / sizeof(c->userns[0]))
		c->userns[c->nr_userns++] = (struct sd_userns){inum, depth};
	return depth;
}

static void put_user_ns(struct sd_ctx *c, int32_t tid, uint32_t uid, uint32_t gid,
			unsigned int level, uint32_t inum)
{
	sd_begin(c);
	sd_put_i32(c, tid);
	sd_put_u32(c, uid);
	sd_put_u32(c, gid);
	sd_put_i32(c, (int32_t)level);
	sd_put_u32(c, inum);
	sd_emit(c, &sd_class_process_user_ns);
}

static void dump_user_ns(struct sd_ctx *c, int32_t pid, int32_t tid, const struct proc_status *s)
{
	uint32_t inner = ns_inum_at(ns_path(c, pid, tid, "user"), "user");
	unsigned int depth = userns_depth(c, pid, tid, inner);

	if (depth) {
		long len = sd_read(c, sd_path(c, "%s/%d/task/%d/uid_map", c->proc, pid, tid));
		uint32_t uid = len < 0 ? 65534 : proc_idmap_inside(c->file, (size_t)len, s->uid);

		len = sd_read(c, sd_path(c, "%s/%d/task/%d/gid_map", c->proc, pid, tid));
		uint32_t gid = len < 0 ? 65534 : proc_idmap_inside(c->file, (size_t)len, s->gid);

		put_user_ns(c, tid, uid, gid, depth, inner);
	}
	put_user_ns(c, tid, s->uid, s->gid, 0, depth ? c->self_user_ns : inner);
}

void sd_dump_thread_ns(struct sd_ctx *c, int32_t pid, int32_t tid, int32_t ppid)
{
	static const struct {
		const char *kind;
		struct kevent_class *cls;
	} others[] = {
	    {"cgroup", &sd_class_process_cgroup_ns}, {"ipc", &sd_class_process_ipc_ns},
	    {"mnt", &sd_class_process_mnt_ns},	     {"net", &sd_class_process_net_ns},
	    {"uts", &sd_class_process_uts_ns},	     {"time", &sd_class_process_time_ns},
	};
	struct proc_status s;
	long len = sd_read(c, sd_path(c, "%s/%d/task/%d/status", c->proc, pid, tid));

	if (len < 0 || proc_status_parse(c->file, (size_t)len, &s))
		return; /* gone since its stat was read */
	dump_pid_ns(c, pid, tid, ppid, &s);
	if (s.has_ids)
		dump_user_ns(c, pid, tid, &s);
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]) && !c->err; i++) {
		uint32_t inum = ns_inum_at(ns_path(c, pid, tid, others[i].kind), others[i].kind);

		if (!inum) /* a zombie has none left (LTTng: no nsproxy) */
			continue;
		sd_begin(c);
		sd_put_i32(c, tid);
		sd_put_u32(c, inum);
		sd_emit(c, others[i].cls);
	}
}
