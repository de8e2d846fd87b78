/*
 * tracefs.c - the tracing file system's mount point and the files of its
 * root that are the same for every instance: the events the kernel offers,
 * their formats, the ring buffer's page layout (see tracefs.h). An
 * instance and its settings are in tracefs-instance.c.
 */
#include "kernel/tracefs.h"
#include "kernel/tracefs-path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRACEFS_DEFAULT "/sys/kernel/tracing"

/* A field of /proc/mounts, whose blanks and backslashes are octal escapes ("\040"). */
static void unescape_mount_field(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = 0;
}

/*
 * The mount point of tracefs in /proc/mounts: the usual one when it is
 * there (debugfs automounts a second one at /sys/kernel/debug/tracing),
 * else the first. 1 found, 0 not mounted, -errno.
 */
static int find_mounted(char *path, size_t size)
{
	FILE *f = fopen("/proc/mounts", "re");
	char line[4096];
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *save, *dev, *dir, *type;

		dev = strtok_r(line, " ", &save);
		dir = dev ? strtok_r(NULL, " ", &save) : NULL;
		type = dir ? strtok_r(NULL, " ", &save) : NULL;
		if (!type || strcmp(type, "tracefs") != 0)
			continue;
		unescape_mount_field(dir);
		if (strlen(dir) >= size)
			continue;
		if (!found || strcmp(dir, TRACEFS_DEFAULT) == 0)
			snprintf(path, size, "%s", dir);
		found = 1;
		if (strcmp(dir, TRACEFS_DEFAULT) == 0)
			break;
	}
	fclose(f);
	return found;
}

/* "EPERM" for EPERM: the name is what a user searches for */
static const char *errno_name(int e)
{
	const char *name = strerrorname_np(e);

	return name ? name : "unknown error";
}

int tracefs_find(char *path, size_t size, char *err, size_t errlen)
{
	int r = find_mounted(path, size);

	if (r < 0) {
		snprintf(err, errlen, "cannot read /proc/mounts to find tracefs: %s (%s)",
			 errno_name(-r), strerror(-r));
		return r;
	}
	if (r > 0)
		return 0;
	if (size <= strlen(TRACEFS_DEFAULT)) {
		snprintf(err, errlen, "no room for the tracefs mount point");
		return -ENAMETOOLONG;
	}
	if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL) != 0) {
		r = -errno;
		snprintf(err, errlen,
			 "tracefs is not mounted and cannot be mounted at " TRACEFS_DEFAULT
			 ": %s (%s)",
			 errno_name(-r), strerror(-r));
		return r;
	}
	snprintf(path, size, "%s", TRACEFS_DEFAULT);
	return 0;
}

/* Reads a whole file of root into *out (malloc'ed, NUL-terminated). Length, or -errno. */
static long read_root_file(const char *root, const char *file, char **out)
{
	char path[1024];
	size_t len = 0, cap = 16384;
	char *buf;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, file) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	/* tracefs files have no size (st_size is 0): read until the end */
	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	*out = buf;
	return (long)len;
}

long tracefs_read_format(const char *root, const char *system, const char *name, char **out)
{
	char file[512];
	int r = tracefs_event_path(file, sizeof(file), system, name, "format");

	if (r < 0)
		return r;
	return read_root_file(root, file, out);
}

/* events/SYSTEM/NAME/format exists: available_events also lists a few without one. */
static bool has_format(const char *root, const struct tracefs_event *ev)
{
	char path[1024];

	if ((size_t)snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, ev->system,
			     ev->name) >= sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

long tracefs_list_events(const char *root, struct tracefs_event **out)
{
	struct tracefs_event *evs = NULL;
	size_t n = 0, cap = 0;
	char *text, *line, *save;
	long r = read_root_file(root, "available_events", &text);

	if (r < 0)
		return r;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct tracefs_event ev;
		char *colon = strchr(line, ':');

		/* "system:name"; a name too long for the struct cannot be enabled through it */
		if (!colon || colon == line || !colon[1] ||
		    (size_t)(colon - line) >= sizeof(ev.system) ||
		    strlen(colon + 1) >= sizeof(ev.name))
			continue;
		memcpy(ev.system, line, (size_t)(colon - line));
		ev.system[colon - line] = 0;
		snprintf(ev.name, sizeof(ev.name), "%s", colon + 1);
		if (!tracefs_name_is_safe(ev.system) || !tracefs_name_is_safe(ev.name) ||
		    !has_format(root, &ev))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			struct tracefs_event *bigger = realloc(evs, ncap * sizeof(*evs));

			if (!bigger) {
				free(evs);
				free(text);
				return -ENOMEM;
			}
			evs = bigger;
			cap = ncap;
		}
		evs[n++] = ev;
	}
	free(text);
	*out = evs;
	return (long)n;
}

/* Bytes after "key:" in a header_page line (" offset:16;"), or -1. */
static long header_value(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	char *end;
	long v;

	if (!p)
		return -1;
	p += strlen(key);
	errno = 0;
	v = strtol(p, &end, 10);
	if (errno || end == p || v < 0)
		return -1;
	return v;
}

long tracefs_page_size(const char *root)
{
	char *text, *line, *save;
	long r = read_root_file(root, "events/header_page", &text), size = -EPROTO;

	if (r < 0)
		return r;
	/* the data field runs to the page's end: "field: char data;	offset:16; size:4080;" */
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long off, len;

		if (!strstr(line, " data;"))
			continue;
		off = header_value(line, "offset:");
		len = header_value(line, "size:");
		if (off > 0 && len > 0)
			size = off + len;
		break;
	}
	free(text);
	return size;
}
