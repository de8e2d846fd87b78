/*
 * reader-impl.h - what the public reader (struct trax_reader, reader.c)
 * holds, for the parts of the API implemented in other files (print.c).
 */
#ifndef TRAX_READER_READER_IMPL_H
#define TRAX_READER_READER_IMPL_H

#include <stdbool.h>

#include "reader/stream-set.h"
#include "trax/reader.h"

struct trax_event {
	struct trax_reader *r;
	const struct ctf_ss_stream *s;
	const struct ctf_stream_reader *sr;
};

struct trax_reader {
	struct ctf_stream_set ss;
	struct trax_reader_options opt;
	char **paths; /* as given to trax_reader_open_with(): to open the traces again */
	size_t npaths;
	bool fresh;  /* nothing read since opened: the print and count may use threads */
	bool failed; /* the error is sticky until a seek */
	struct trax_event ev;
	struct field_chunk *chunks;
	/* trax_reader_stream_info()'s answers, read at its first call (stream-info.c) */
	struct trax_stream_info *streams;
	size_t nstreams_info;
	char error[1200];
	/* legacy traces converted to CTF (legacy-open.c) */
	char **legacy_dirs; /* the private directories they were converted in */
	size_t nlegacy_dirs;
	char **legacy_from; /* [i]: a legacy trace's path (given, or found below one) */
	char **legacy_to;   /* [i]: the CTF trace made of it (in a private directory) */
	size_t nlegacy_pairs;
	char **legacy_file_ctf;	 /* [i]: a stream file of a converted trace */
	char **legacy_file_orig; /* [i]: the legacy tracefile it was made of (absolute) */
	size_t nlegacy_files;
	char legacy_error[1024]; /* the conversion's error, given after the last event */
};

/* Sets r's error message (one line). */
void trax_reader_set_error(struct trax_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Loads r's traces into ss (zeroed), as r's own set was loaded, for
 * another thread to read them: 0, or -1 (ss->error). ctf_ss_open() follows.
 */
int trax_reader_load_again(const struct trax_reader *r, struct ctf_stream_set *ss);

/*
 * Converts the legacy traces among r->paths into private CTF copies, which
 * replace them in r->paths (those found below a given directory: their
 * private directory replaces it, or is added to r->paths when it holds
 * CTF traces too): 0, or -1 with open_err set (nothing could be
 * converted). A conversion that stopped on an error leaves it in
 * r->legacy_error.
 */
int trax_reader_legacy_convert(struct trax_reader *r, char *open_err, size_t errlen);
/* Removes the converted copies. */
void trax_reader_legacy_cleanup(struct trax_reader *r);
/*
 * The stream files of ss that were converted from legacy tracefiles get
 * the tracefile's path as the name warnings give them (abs_path).
 */
int trax_reader_legacy_names(const struct trax_reader *r, struct ctf_stream_set *ss);
/* The legacy path a trace directory was converted from, or dir itself. */
const char *trax_reader_legacy_origin(const struct trax_reader *r, const char *dir);
/*
 * At the end of the events: 0, or -1 with r's error set (sticky) when a
 * legacy trace's conversion stopped on an error.
 */
int trax_reader_at_end(struct trax_reader *r);

#endif /* TRAX_READER_READER_IMPL_H */
