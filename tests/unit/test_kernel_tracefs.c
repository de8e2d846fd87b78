/*
 * test_kernel_tracefs.c - src/kernel/tracefs*.c on this machine's tracefs
 * (root needed): an instance made and removed, each setting read back from
 * the kernel's files, events enabled and filtered, markers counted in the
 * per-CPU stats and found again in the raw pages, the events tracefs
 * offers and their formats, the top-level settings left as they were,
 * stale instances of dead owners removed and live ones kept.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "kernel/ring-page.h"
#include "kernel/tracefs.h"

static char root[256];

/* A file of the top level, for comparing before and after (the whole text). */
static void read_top(const char *file, char *buf, size_t size)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, file);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, size - 1);
	buf[n < 0 ? 0 : n] = 0;
	CHECK(n > 0, "cannot read %s", path);
	if (fd >= 0)
		close(fd);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The text of an instance's file, read through tracefs_read. */
static const char *text_of(struct tracefs_instance *in, const char *file)
{
	static char buf[4096];
	long n = tracefs_read(in, file, buf, sizeof(buf));

	CHECK(n >= 0, "reading %s: %s", file, strerror((int)-n));
	return n >= 0 ? buf : "";
}

static void test_settings(struct tracefs_instance *in)
{
	long kb;

	CHECK_EQ(tracefs_set_clock(in, "mono"), 0);
	CHECK(strstr(text_of(in, "trace_clock"), "[mono]"), "trace_clock: %s",
	      text_of(in, "trace_clock"));
	CHECK_EQ(tracefs_set_clock(in, "no-such-clock"), -EINVAL);
	CHECK(strstr(text_of(in, "trace_clock"), "[mono]"));

	/* the kernel rounds up to whole pages of 4080 bytes of data */
	CHECK_EQ(tracefs_set_buffer_kb(in, 256), 0);
	kb = strtol(text_of(in, "buffer_size_kb"), NULL, 10);
	CHECK(kb >= 256 && kb < 256 + 16, "buffer_size_kb %ld after asking 256", kb);

	CHECK_EQ(tracefs_set_overwrite(in, false), 0);
	CHECK(strcmp(text_of(in, "options/overwrite"), "0\n") == 0);
	CHECK_EQ(tracefs_set_overwrite(in, true), 0);
	CHECK(strcmp(text_of(in, "options/overwrite"), "1\n") == 0);

	CHECK_EQ(tracefs_set_tracing(in, false), 0);
	CHECK(strcmp(text_of(in, "tracing_on"), "0\n") == 0);
}

static void test_events(struct tracefs_instance *in)
{
	const char *en = "events/sched/sched_switch/enable", *filter;
	int pids[2] = {(int)getpid(), 1};
	char want[64];

	CHECK_EQ(tracefs_enable_event(in, "sched", "sched_switch", true), 0);
	CHECK(strcmp(text_of(in, en), "1\n") == 0, "%s: %s", en, text_of(in, en));
	CHECK_EQ(tracefs_enable_event(in, "sched", "sched_switch", false), 0);
	CHECK(strcmp(text_of(in, en), "0\n") == 0);
	CHECK_EQ(tracefs_enable_event(in, "sched", "no_such_event", true), -ENOENT);
	CHECK_EQ(tracefs_enable_event(in, "..", "sched", true), -EINVAL);
	CHECK_EQ(tracefs_enable_event(in, "sched/sched_switch", "..", true), -EINVAL);

	filter = "events/sched/sched_switch/filter";
	CHECK_EQ(
	    tracefs_set_filter(in, "sched", "sched_switch", "prev_pid == 1 && next_prio < 100"), 0);
	CHECK(strcmp(text_of(in, filter), "prev_pid == 1 && next_prio < 100\n") == 0, "filter: %s",
	      text_of(in, filter));
	CHECK_EQ(tracefs_set_filter(in, "sched", "sched_switch", "no_such_field == 1"), -EINVAL);
	CHECK_EQ(tracefs_set_filter(in, "sched", "sched_switch", "0"), 0);
	CHECK(strcmp(text_of(in, filter), "none\n") == 0, "filter: %s", text_of(in, filter));

	CHECK_EQ(tracefs_set_pids(in, pids, 2), 0);
	snprintf(want, sizeof(want), "%d\n", (int)getpid());
	/* the kernel lists them in the order of its pid bitmap */
	CHECK(strncmp(text_of(in, "set_event_pid"), "1\n", 2) == 0 &&
		  strcmp(text_of(in, "set_event_pid") + 2, want) == 0,
	      "set_event_pid: %s", text_of(in, "set_event_pid"));
	CHECK_EQ(tracefs_set_pids(in, pids, 1), 0); /* replaces, does not add */
	CHECK(strcmp(text_of(in, "set_event_pid"), want) == 0, "set_event_pid: %s",
	      text_of(in, "set_event_pid"));
	CHECK_EQ(tracefs_set_pids(in, NULL, 0), 0);
	CHECK(strcmp(text_of(in, "set_event_pid"), "") == 0, "set_event_pid: %s",
	      text_of(in, "set_event_pid"));
}

/* Print records (trace_marker's event) of id in the CPU's raw pages, each checked for text. */
static int markers_in_pages(struct tracefs_instance *in, int cpu, int id, long page_size,
			    int *pages_with_data)
{
	uint8_t *buf = malloc((size_t)page_size);
	int fd = tracefs_open_raw(in, cpu, false), count = 0;
	ssize_t n;

	CHECK(fd >= 0, "open raw cpu%d: %s", cpu, strerror(-fd));
	if (fd < 0 || !buf) {
		free(buf);
		return 0;
	}
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	while ((n = read(fd, buf, (size_t)page_size)) > 0) {
		struct ring_page p;
		struct ring_record r;
		const char *err;

		CHECK_EQ(n, page_size);
		if (ring_page_open(&p, buf, (size_t)n, &err) != 0) {
			CHECK(0, "cpu%d page: %s", cpu, err);
			break;
		}
		if (p.commit > 0)
			(*pages_with_data)++;
		while (ring_page_next(&p, &r, &err) > 0) {
			uint16_t type;

			memcpy(&type, r.payload, 2);
			if (type == id && memmem(r.payload, r.len, "trax-tracefs-marker", 19))
				count++;
		}
	}
	CHECK(n < 0 && errno == EAGAIN, "cpu%d: the raw pages end with %zd (%s)", cpu, n,
	      strerror(errno));
	close(fd);
	free(buf);
	return count;
}

static int print_event_id(void)
{
	char *fmt = NULL, *id;
	long n = tracefs_read_format(root, "ftrace", "print", &fmt);
	int v = -1;

	CHECK(n > 0, "format of ftrace:print: %ld", n);
	if (n > 0 && (id = strstr(fmt, "\nID: ")))
		v = atoi(id + 5);
	free(fmt);
	return v;
}

static void test_stats_and_pages(struct tracefs_instance *in)
{
	enum { N = 50 };
	struct tracefs_cpu_stats st;
	uint64_t entries = 0, bytes = 0;
	long page_size = tracefs_page_size(root);
	int i, found = 0, pages = 0, id = print_event_id();
	char marker[64];

	CHECK_EQ(page_size, strtol(text_of(in, "buffer_subbuf_size_kb"), NULL, 10) * 1024);
	for (i = 0; i < in->nr_cpus; i++) {
		CHECK_EQ(tracefs_cpu_stats(in, i, &st), 0);
		CHECK_EQ(st.entries, 0);
		CHECK_EQ(st.read, 0);
	}
	CHECK_EQ(tracefs_set_tracing(in, true), 0);
	for (i = 0; i < N; i++) {
		snprintf(marker, sizeof(marker), "trax-tracefs-marker-%d", i);
		CHECK_EQ(tracefs_write(in, "trace_marker", marker), 0);
	}
	CHECK_EQ(tracefs_set_tracing(in, false), 0);
	for (i = 0; i < in->nr_cpus; i++) {
		CHECK_EQ(tracefs_cpu_stats(in, i, &st), 0);
		entries += st.entries;
		bytes += st.bytes;
		CHECK_EQ(st.overrun, 0);
		CHECK_EQ(st.dropped, 0);
	}
	CHECK(entries >= N, "entries %llu after %d markers", (unsigned long long)entries, N);
	CHECK(bytes >= N * 20, "bytes %llu after %d markers", (unsigned long long)bytes, N);
	CHECK_EQ(tracefs_cpu_stats(in, in->nr_cpus, &st), -EINVAL);

	for (i = 0; i < in->nr_cpus; i++)
		found += markers_in_pages(in, i, id, page_size, &pages);
	CHECK(pages >= 1, "no page with commit > 0");
	CHECK_EQ(found, N);
	/* what was read is counted as read */
	for (i = 0, entries = 0; i < in->nr_cpus; i++) {
		CHECK_EQ(tracefs_cpu_stats(in, i, &st), 0);
		entries += st.read;
	}
	CHECK(entries >= N, "read events %llu after reading %d markers",
	      (unsigned long long)entries, N);

	CHECK_EQ(tracefs_open_raw(in, -1, false), -EINVAL);
	i = tracefs_open_raw(in, 0,
			     true); /* snapshot_raw exists only with CONFIG_TRACER_SNAPSHOT */
	CHECK(i >= 0 || i == -ENOENT, "snapshot_raw: %d", i);
	if (i >= 0)
		close(i);
}

static void test_root_files(void)
{
	struct tracefs_event *evs = NULL;
	long n = tracefs_list_events(root, &evs), i;
	int sched_switch = 0, openat = 0;
	char *fmt = NULL;

	CHECK(n > 1000, "%ld events", n);
	for (i = 0; i < n; i++) {
		if (!strcmp(evs[i].system, "sched") && !strcmp(evs[i].name, "sched_switch"))
			sched_switch++;
		if (!strcmp(evs[i].system, "syscalls") && !strcmp(evs[i].name, "sys_enter_openat"))
			openat++;
		CHECK(evs[i].system[0] && evs[i].name[0] && !strchr(evs[i].system, ':'));
	}
	CHECK_EQ(sched_switch, 1);
	CHECK_EQ(openat, 1);
	free(evs);

	n = tracefs_read_format(root, "sched", "sched_switch", &fmt);
	CHECK(n > 0 && (long)strlen(fmt) == n, "format length %ld", n);
	CHECK(n > 0 && strncmp(fmt, "name: sched_switch\n", 19) == 0);
	CHECK(n > 0 && strstr(fmt, "field:char prev_comm[16];"), "format: %s", n > 0 ? fmt : "");
	free(fmt);
	CHECK_EQ(tracefs_read_format(root, "sched", "no_such_event", &fmt), -ENOENT);
	CHECK_EQ(tracefs_read_format(root, "..", "x", &fmt), -EINVAL);
}

static void test_stale(void)
{
	char dead[512], alive[512];
	pid_t child = fork();
	int n;

	if (child == 0)
		_exit(0);
	CHECK(child > 0 && waitpid(child, NULL, 0) == child);
	snprintf(dead, sizeof(dead), "%s/instances/trax-%d-x", root, (int)child);
	snprintf(alive, sizeof(alive), "%s/instances/trax-%d-y", root, (int)getpid());
	CHECK(mkdir(dead, 0750) == 0, "mkdir %s: %s", dead, strerror(errno));
	CHECK(mkdir(alive, 0750) == 0, "mkdir %s: %s", alive, strerror(errno));
	n = tracefs_remove_stale(root);
	CHECK(n >= 1, "removed %d", n);
	CHECK(!exists(dead), "%s is still there", dead);
	CHECK(exists(alive), "%s was removed", alive);
	rmdir(dead);
	CHECK(rmdir(alive) == 0);
}

/*
 * In a mount namespace of a child's own (the machine's mount stays): with
 * tracefs unmounted, tracefs_find mounts it again; as an unprivileged
 * user it cannot, and says so in one line. Exit status: failed checks.
 */
static int mount_child(void)
{
	char path[256], err[256];
	int r;

	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    umount2("/sys/kernel/tracing", MNT_DETACH) != 0) {
		fprintf(stderr, "FAIL: cannot unmount tracefs in a mount namespace: %s\n",
			strerror(errno));
		return 1;
	}
	/* (and the copy debugfs shows, mounted by trace-cmd or perf: found before mounting) */
	umount2("/sys/kernel/debug/tracing", MNT_DETACH);
	umount2("/sys/kernel/debug", MNT_DETACH);
	r = tracefs_find(path, sizeof(path), err, sizeof(err));
	CHECK(r == 0 && strcmp(path, "/sys/kernel/tracing") == 0, "%d %s", r, r ? err : path);
	CHECK(access("/sys/kernel/tracing/instances", F_OK) == 0, "tracefs not mounted again");
	CHECK(umount2("/sys/kernel/tracing", MNT_DETACH) == 0);
	CHECK(setresgid(65534, 65534, 65534) == 0 && setresuid(65534, 65534, 65534) == 0);
	r = tracefs_find(path, sizeof(path), err, sizeof(err));
	CHECK_EQ(r, -EPERM);
	CHECK(strcmp(err, "tracefs is not mounted and cannot be mounted at /sys/kernel/tracing: "
			  "EPERM (Operation not permitted)") == 0,
	      "%s", err);
	return failures;
}

static void test_mount(void)
{
	pid_t child;
	int status = -1;

	if (strcmp(root, "/sys/kernel/tracing") != 0)
		return; /* mounted elsewhere: tracefs_find never mounts */
	fflush(stderr);
	child = fork();
	if (child == 0)
		_exit(mount_child());
	CHECK(child > 0 && waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the mount checks failed (status %d)",
	      status);
}

int main(void)
{
	char err[256], clock0[256], on0[16], kb0[32], clock1[256], on1[16], kb1[32], path[1024];
	struct tracefs_instance in, again;
	int fd;

	if (tracefs_find(root, sizeof(root), err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL: tracefs is unusable here (root needed): %s\n", err);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/instances", root);
	if (!exists(path) || access(path, W_OK) != 0) {
		fprintf(stderr, "FAIL: %s cannot be written (root needed)\n", path);
		return 1;
	}
	read_top("trace_clock", clock0, sizeof(clock0));
	read_top("tracing_on", on0, sizeof(on0));
	read_top("buffer_size_kb", kb0, sizeof(kb0));

	CHECK_EQ(tracefs_instance_create(&in, root, "unit test/1"), 0);
	snprintf(path, sizeof(path), "trax-%d-unit_test_1", (int)getpid());
	CHECK(strcmp(in.name, path) == 0, "name %s", in.name);
	CHECK(strcmp(in.root, root) == 0);
	CHECK(exists(in.path), "%s", in.path);
	CHECK(in.nr_cpus >= sysconf(_SC_NPROCESSORS_ONLN), "nr_cpus %d", in.nr_cpus);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", in.path, in.nr_cpus - 1);
	CHECK(exists(path), "%s", path);
	CHECK_EQ(tracefs_instance_create(&again, root, "unit test/1"), -EEXIST);
	CHECK(again.path[0] == 0);

	test_settings(&in);
	test_events(&in);
	test_stats_and_pages(&in);
	test_root_files();

	/* an open raw buffer keeps the instance: EBUSY, and it stays whole */
	CHECK_EQ(tracefs_enable_event(&in, "sched", "sched_switch", true), 0);
	CHECK_EQ(tracefs_set_tracing(&in, true), 0);
	fd = tracefs_open_raw(&in, 0, false);
	CHECK(fd >= 0);
	snprintf(path, sizeof(path), "%s", in.path);
	CHECK_EQ(tracefs_instance_destroy(&in), -EBUSY);
	CHECK(exists(path) && in.path[0]);
	CHECK(strcmp(text_of(&in, "tracing_on"), "0\n") == 0);
	CHECK(strcmp(text_of(&in, "events/sched/sched_switch/enable"), "0\n") == 0);
	close(fd);
	CHECK_EQ(tracefs_instance_destroy(&in), 0);
	CHECK(!exists(path), "%s is still there", path);
	CHECK_EQ(tracefs_instance_destroy(&in), 0);

	read_top("trace_clock", clock1, sizeof(clock1));
	read_top("tracing_on", on1, sizeof(on1));
	read_top("buffer_size_kb", kb1, sizeof(kb1));
	CHECK(strcmp(clock0, clock1) == 0, "top-level trace_clock %s became %s", clock0, clock1);
	CHECK(strcmp(on0, on1) == 0, "top-level tracing_on %s became %s", on0, on1);
	CHECK(strcmp(kb0, kb1) == 0, "top-level buffer_size_kb %s became %s", kb0, kb1);

	test_stale();
	test_mount();
	snprintf(path, sizeof(path), "%s/instances", root);
	CHECK(exists(path), "tracefs gone outside the child");
	return CHECK_RESULT();
}
