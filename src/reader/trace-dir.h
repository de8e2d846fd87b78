/*
 * trace-dir.h - finding CTF traces on disk: a directory holding a file
 * named `metadata` is a trace, its other regular files (but hidden ones)
 * are its data streams; any other directory is searched for traces, to any
 * depth (an LTTng session holds ust/uid/..., ust/pid/... and kernel/).
 */
#ifndef TRAX_CTF_TRACE_DIR_H
#define TRAX_CTF_TRACE_DIR_H

#include <stddef.h>

struct ctf_stream_file {
	char *path; /* directory/name */
	char *name; /* the file's name */
};

struct ctf_trace_dir {
	char *path;			 /* the trace's directory */
	char *metadata_path;		 /* path/metadata */
	struct ctf_stream_file *streams; /* sorted by name */
	size_t nr_streams;
};

struct ctf_trace_set {
	struct ctf_trace_dir *traces; /* sorted by path */
	size_t nr_traces;
};

/*
 * Adds the traces found at path (a trace directory or a tree holding
 * traces) to set. Returns 0, or -1 with a one-line message in err.
 */
int ctf_trace_set_add(struct ctf_trace_set *set, const char *path, char *err, size_t errlen);
void ctf_trace_set_free(struct ctf_trace_set *set);

/*
 * path prefixed with the working directory unless it starts with '/'
 * (not resolved: as the user named it), malloc'd; NULL when out of memory.
 * The names warnings give stream files, and legacy traces' origins.
 */
char *ctf_path_absolute(const char *path);

#endif /* TRAX_CTF_TRACE_DIR_H */
