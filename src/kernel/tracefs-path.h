/*
 * tracefs-path.h - the relative path of one event's file in tracefs
 * ("events/sched/sched_switch/enable"), private to tracefs.c and
 * tracefs-instance.c. System and event names come from callers (session
 * rules, the user): one that would lead out of events/ is refused.
 */
#ifndef TRAX_KERNEL_TRACEFS_PATH_H
#define TRAX_KERNEL_TRACEFS_PATH_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static inline bool tracefs_name_is_safe(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

/* events/SYSTEM/NAME/FILE into buf: 0, -EINVAL (a name with '/' or a dot name), -ENAMETOOLONG. */
static inline int tracefs_event_path(char *buf, size_t size, const char *system, const char *name,
				     const char *file)
{
	if (!tracefs_name_is_safe(system) || !tracefs_name_is_safe(name))
		return -EINVAL;
	if ((size_t)snprintf(buf, size, "events/%s/%s/%s", system, name, file) >= size)
		return -ENAMETOOLONG;
	return 0;
}

#endif /* TRAX_KERNEL_TRACEFS_PATH_H */
