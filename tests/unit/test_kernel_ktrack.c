/*
 * test_kernel_ktrack.c - the uid and gid trackers on tracepoints
 * (src/kernel/ktrack.c) against a made-up /proc and instance directory:
 *  - track/untrack as LTTng's: every id by default; tracking ids makes a
 *    set; untracking one not in it is -ENOENT; untracking the last leaves
 *    none; --all both ways;
 *  - the scan writes set_event_pid with the threads (of every process's
 *    task/) whose real uid and gid pass, and 0; the periodic scan appends;
 *    with a pid tracker, only its processes' threads; with no uid or gid
 *    tracker, the pid tracker's list and event-fork off;
 *  - the check at conversion: a thread of a tracked uid passes, of
 *    another uid not, a thread /proc does not have passes, tid 0 is root,
 *    a thread's ids are read again after KTRACK_SCAN_NS (a setuid seen).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kernel/ktrack.h"

static char dir[256];

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "%s", path);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A thread tid of process pid with real uid and gid (and other effective ids). */
static void thread(int pid, int tid, unsigned int uid, unsigned int gid)
{
	char path[512], text[256];

	snprintf(text, sizeof(text),
		 "Name:\tx\nTgid:\t%d\nPid:\t%d\nUid:\t%u\t1\t1\t1\nGid:\t%u\t2\t2\t2\n", pid, tid,
		 uid, gid);
	snprintf(path, sizeof(path), "%s/proc/%d", dir, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/task", dir, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", dir, pid, tid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/status", dir, pid, tid);
	put_file(path, text);
	/* /proc/TID/status exists for every thread (not listed for non-leaders) */
	snprintf(path, sizeof(path), "%s/proc/%d", dir, tid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/status", dir, tid);
	put_file(path, text);
}

static const char *read_back(const char *name)
{
	static char buf[1024];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/inst/%s", dir, name);
	f = fopen(path, "r");
	buf[0] = '\0';
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The pids of set_event_pid sorted, as one line. */
static const char *pid_list(void)
{
	static char out[1024];
	int v[64], n = 0;
	const char *p = read_back("set_event_pid");

	while (*p && n < 64) {
		char *end;
		long x = strtol(p, &end, 10);

		if (end == p) {
			p++;
			continue;
		}
		v[n++] = (int)x;
		p = end;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%d", i ? " " : "", v[i]);
	return out;
}

static void test_change(void)
{
	struct ktrack *t;
	int *ids, bad = 0;
	unsigned int n;

	check_part = "change";
	t = ktrack_new("/nonexistent");
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(!ktrack_active(t));
	CHECK(!ktrack_get(t, KTRACK_UID, &ids, &n));
	CHECK_EQ(ktrack_change(t, KTRACK_UID, true, (int[]){65534, 1000}, 2, false, NULL), 0);
	CHECK(ktrack_active(t));
	CHECK(ktrack_get(t, KTRACK_UID, &ids, &n) && n == 2 && ids[0] == 65534 && ids[1] == 1000);
	free(ids);
	CHECK(!ktrack_get(t, KTRACK_GID, &ids, &n)); /* the other tracker: every id */
	CHECK_EQ(ktrack_change(t, KTRACK_UID, true, (int[]){1000}, 1, false, NULL), 0); /* again */
	CHECK(ktrack_get(t, KTRACK_UID, &ids, &n) && n == 2);
	free(ids);
	CHECK_EQ(ktrack_change(t, KTRACK_UID, false, (int[]){7}, 1, false, &bad), -ENOENT);
	CHECK_EQ(bad, 7);
	CHECK_EQ(ktrack_change(t, KTRACK_UID, false, (int[]){65534, 1000}, 2, false, NULL), 0);
	/* the last one untracked: none, not every one */
	CHECK(ktrack_get(t, KTRACK_UID, &ids, &n) && n == 0 && ids == NULL);
	CHECK(ktrack_active(t));
	CHECK_EQ(ktrack_change(t, KTRACK_UID, true, NULL, 0, true, NULL), 0);
	CHECK(!ktrack_get(t, KTRACK_UID, &ids, &n) && !ktrack_active(t));
	CHECK_EQ(ktrack_change(t, KTRACK_GID, false, NULL, 0, true, NULL), 0); /* none */
	CHECK(ktrack_get(t, KTRACK_GID, &ids, &n) && n == 0 && ktrack_active(t));
	CHECK_EQ(ktrack_change(t, KTRACK_GID, false, (int[]){3}, 1, false, &bad), -ENOENT);
	ktrack_free(t);
}

static void test_scan_and_pass(void)
{
	struct tracefs_instance in;
	struct ktrack_cache *cache = NULL;
	struct ktrack *t;
	char proc[300], path[512];

	check_part = "scan";
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	mkdir(proc, 0755);
	snprintf(path, sizeof(path), "%s/inst", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/inst/options", dir);
	mkdir(path, 0755);
	put_file(strcat(strcpy(path, dir), "/inst/set_event_pid"), "");
	put_file(strcat(strcpy(path, dir), "/inst/options/event-fork"), "");
	memset(&in, 0, sizeof(in));
	snprintf(in.path, sizeof(in.path), "%s/inst", dir);
	thread(100, 100, 65534, 65534);
	thread(100, 101, 65534, 65534);
	thread(200, 200, 0, 0);
	thread(300, 300, 65534, 0);

	t = ktrack_new(proc);
	CHECK(t != NULL);
	if (!t)
		return;
	/* no uid or gid tracker: the pid tracker's list, event-fork off */
	CHECK_EQ(ktrack_set_pids(t, (int[]){200}, 1), 0);
	CHECK_EQ(ktrack_apply(t, &in, false), 0);
	CHECK(!strcmp(pid_list(), "200"), "%s", pid_list());
	CHECK(!strcmp(read_back("options/event-fork"), "0"));
	CHECK(ktrack_pass(t, &cache, 200, 1000)); /* no tracker: all pass */
	CHECK_EQ(ktrack_set_pids(t, NULL, 0), 0);

	CHECK_EQ(ktrack_change(t, KTRACK_UID, true, (int[]){65534}, 1, false, NULL), 0);
	CHECK_EQ(ktrack_apply(t, &in, false), 0);
	CHECK(!strcmp(pid_list(), "0 100 101 300"), "uid 65534: %s", pid_list());
	CHECK(!strcmp(read_back("options/event-fork"), "1"));
	CHECK_EQ(ktrack_change(t, KTRACK_GID, true, (int[]){65534}, 1, false, NULL), 0);
	CHECK_EQ(ktrack_apply(t, &in, false), 0);
	CHECK(!strcmp(pid_list(), "0 100 101"), "uid and gid 65534: %s", pid_list());
	/* a pid tracker too: only its processes */
	CHECK_EQ(ktrack_set_pids(t, (int[]){200, 300}, 2), 0);
	CHECK_EQ(ktrack_apply(t, &in, false), 0);
	CHECK(!strcmp(pid_list(), "0"), "with pids 200, 300: %s", pid_list());
	CHECK_EQ(ktrack_set_pids(t, NULL, 0), 0);
	/* the periodic scan appends (a regular file here shows it) */
	CHECK_EQ(ktrack_apply(t, &in, true), 0);
	CHECK(!strcmp(pid_list(), "0 0 100 101"), "appended: %s", pid_list());

	check_part = "pass";
	CHECK(ktrack_pass(t, &cache, 101, 1000));
	CHECK(!ktrack_pass(t, &cache, 200, 1000));
	CHECK(!ktrack_pass(t, &cache, 300, 1000)); /* uid passes, gid not */
	CHECK(ktrack_pass(t, &cache, 4242, 1000)); /* gone: the kernel recorded it */
	CHECK(!ktrack_pass(t, &cache, 0, 1000));   /* idle: root */
	/* 200 becomes 65534: seen once its ids are older than a scan's period */
	thread(200, 200, 65534, 65534);
	CHECK(!ktrack_pass(t, &cache, 200, 1000 + KTRACK_SCAN_NS / 2));
	CHECK(ktrack_pass(t, &cache, 200, 1000 + KTRACK_SCAN_NS));
	ktrack_cache_free(cache);
	ktrack_free(t);
}

int main(void)
{
	char cmd[300];

	snprintf(dir, sizeof(dir), "/tmp/test_kernel_ktrack.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_change();
	test_scan_and_pass();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return CHECK_RESULT();
}
