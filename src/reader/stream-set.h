/*
 * stream-set.h - the streams of one or several CTF traces, merged in time
 * order: the one implementation shared by the public reader
 * (src/reader/reader.c) and its printing (src/reader/print.c), so that both find,
 * group and order events identically (docs/text-format.md section 9).
 *
 * Traces are found under the given paths (trace-dir.h) and their metadata
 * loaded; stream files are grouped into streams as Babeltrace does (same
 * trace UUID, stream class and stream_instance_id: the files of a rotated
 * stream, the chunks of a rotated session); a heap keyed by the time of
 * each stream's next item merges them, ties broken by trace rank, stream
 * class, stream id and opening order.
 *
 * Besides events, the set yields the notifications behind Babeltrace's
 * "discarded events" / "discarded packets" warnings, computed from the
 * packet counters; callers not interested in them skip those items.
 */
#ifndef TRAX_CTF_STREAM_SET_H
#define TRAX_CTF_STREAM_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/decode-clock.h"
#include "reader/decode-stream.h"
#include "reader/merge.h"
#include "reader/metadata-read.h"
#include "reader/trace-dir.h"

struct ctf_ss_trace {
	struct ctf_trace *trace;
	const struct ctf_trace_dir *dir;
	/* Babeltrace's trace name: hostname, then the directory relative to the path given */
	char *name;
	size_t index; /* in the order found */
	int rank;     /* tie order between traces (equal for one UUID) */
};

struct ctf_ss_file {
	struct ctf_ss_trace *t;
	const char *path;
	char *abs_path; /* as warnings name the stream */
	struct ctf_stream_reader *sr;
	bool pending; /* its first packet is read, not yet handled */
	bool has_first_ns;
	int64_t first_ns;
	uint64_t sc_id;
	bool has_instance;
	uint64_t instance;
	size_t order;
	struct ctf_clock_conv conv; /* of the current packet's clock */
	bool fast_ns;		    /* its events' times are conv.base + cycles */
};

enum ctf_ss_discard_kind {
	CTF_SS_DISCARDED_EVENTS,
	CTF_SS_DISCARDED_PACKETS,
};

/* What Babeltrace's discarded-items message carries. */
struct ctf_ss_discard {
	enum ctf_ss_discard_kind kind;
	bool has_count;
	uint64_t count;
	bool has_range; /* begin/end: ns, the range where items were lost */
	int64_t begin, end;
};

enum ctf_ss_item_kind {
	CTF_SS_EVENT,
	CTF_SS_DISCARD,
};

struct ctf_ss_stream {
	struct ctf_ss_trace *t; /* the first file's trace */
	struct ctf_ss_file **files;
	size_t nfiles, cur;
	uint64_t sc_id, stream_id;
	size_t ordinal;
	/* the current item: */
	enum ctf_ss_item_kind kind;
	int64_t key;			      /* merge key: its time, or the previous item's */
	int64_t event_ns;		      /* an event's time, 0 without a clock */
	struct ctf_ss_file *item_file;	      /* its file: item_file->sr holds the event */
	const struct ctf_ss_discard *discard; /* a CTF_SS_DISCARD's */
	/* private: */
	struct ctf_ss_discard warns[2];
	int nwarn, iwarn;
	bool seen_disc, seen_seq; /* counters of the previous packet */
	uint64_t prev_disc, prev_seq;
	bool prev_has_end;
	int64_t prev_end;
	int64_t last_key;
};

/* How traces without a UUID are ranked: by trace name (as view) or directory path. */
enum ctf_ss_rank {
	CTF_SS_RANK_BY_NAME,
	CTF_SS_RANK_BY_PATH,
};

/* Zero-initialize, then ctf_ss_load(); ctf_ss_free() in every case. */
struct ctf_stream_set {
	struct ctf_trace_set *sets;
	size_t nsets;
	struct ctf_ss_trace *traces;
	size_t ntraces;
	struct ctf_ss_file *files;
	size_t nfiles;
	struct ctf_ss_stream *streams;
	size_t nstreams;
	struct ctf_merge_heap heap;
	bool heap_ready;
	struct ctf_ss_stream *advance; /* the stream whose item was returned last */
	/*
	 * The time of the last event returned (INT64_MIN before the first):
	 * an event before it is an error, as in Babeltrace 2's muxer.
	 */
	int64_t last_event_ns;
	/*
	 * Set before ctf_ss_open() to read a part of the packets
	 * (ctf_ss_split_packets()): with part 1, file i's packets [0,
	 * part_cut[i]); with part 2, those from part_cut[i] on. 0: all.
	 */
	int part;
	const size_t *part_cut;
	/* Set before ctf_ss_open(): how the stream files are read (decode-stream.h). */
	struct ctf_read_tuning tuning;
	char error[1200]; /* the last error, one line */
};

/* Finds the traces under paths, loads their metadata and ranks them: 0, or -1 (error). */
int ctf_ss_load(struct ctf_stream_set *ss, const char *const *paths, size_t count,
		enum ctf_ss_rank rank);

/*
 * Opens every stream file, checks that their clocks can be correlated,
 * groups the files into streams and reads each one's first item. With
 * skip, events before min_ns (and discard notifications met meanwhile)
 * are passed over. 0, or -1 (error).
 */
int ctf_ss_open(struct ctf_stream_set *ss, bool skip, int64_t min_ns);

/* Closes the stream files (ctf_ss_open() may follow, to rewind). */
void ctf_ss_close(struct ctf_stream_set *ss);

/* Releases everything. */
void ctf_ss_free(struct ctf_stream_set *ss);

/*
 * The next item in time order: 1 with *s the stream holding it (s->kind,
 * s->item_file, s->discard), valid until the next call; 0 at the end; -1
 * on error (error).
 */
int ctf_ss_next(struct ctf_stream_set *ss, struct ctf_ss_stream **s);

/*
 * Visits every item left, in the order ctf_ss_next() returns them, with
 * the same stream state, but faster: runs of events of one stream that
 * come before every other stream's next item are read in a tight loop
 * (ctf_stream_run()). visit returns 0 to go on, or a positive value to
 * stop, which is returned. 0 at the end, -1 on error (error).
 */
int ctf_ss_each(struct ctf_stream_set *ss, int (*visit)(void *ctx, struct ctf_ss_stream *s),
		void *ctx);

/*
 * Splits the packets of an open set in two parts of about as many bytes,
 * from the packet indexes (LTTng's TRACE/index/): the packets that begin
 * before a time, and the others. cut (ss->nfiles entries) receives, for
 * each file, how many of its packets are in the first part: reading each
 * part through a set of its own (part, part_cut) yields every event once.
 * 0, or -1 when the parts are not known: a stream file without an index or
 * a clock, packets out of time order, or too few packets.
 */
int ctf_ss_split_packets(const struct ctf_stream_set *ss, size_t *cut);

#endif /* TRAX_CTF_STREAM_SET_H */
