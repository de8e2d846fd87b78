/*
 * decode-stream.h - reading one stream file of a CTF trace: its packets
 * (packet header and context, sizes, packet counters) and the events of
 * each packet (header, contexts, payload, clock value).
 *
 * The file is mapped read-only; packets are read in file order, each event
 * once. Everything read is checked against the packet's bounds: a damaged
 * file gives a one-line error naming the file, the packet's byte offset and
 * the bit offset of the fault in the packet, after the events before the
 * fault were returned.
 *
 *	struct ctf_stream_reader *r = ctf_stream_open(trace, path, err, sizeof(err));
 *	int st;
 *	while ((st = ctf_stream_next(r)) > 0)
 *		if (st == CTF_STREAM_EVENT)
 *			use(&r->event);   (r->packet: the packet holding it)
 *	if (st < 0)
 *		report(r->error);
 *	ctf_stream_close(r);
 */
#ifndef TRAX_CTF_DECODE_STREAM_H
#define TRAX_CTF_DECODE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/ctf-ir.h"
#include "reader/ctf-value.h"
#include "reader/decode-field.h"
#include "reader/decode-jit.h"
#include "reader/decode-pool.h"
#include "reader/packet-index.h"

#define CTF_PACKET_MAGIC 0xC1FC1FC1u

/* What ctf_stream_next() found. */
enum ctf_stream_status {
	CTF_STREAM_ERROR = -1, /* r->error says what; every later call says the same */
	CTF_STREAM_END = 0,    /* no more packets */
	CTF_STREAM_PACKET = 1, /* a packet begins: r->packet is set */
	CTF_STREAM_EVENT = 2,  /* an event of r->packet: r->event is set */
};

/* The packet being read; its values stay valid until the next packet begins. */
struct ctf_packet {
	uint64_t index;	       /* 0 for the file's first packet */
	uint64_t offset;       /* bytes from the start of the file */
	uint64_t packet_size;  /* bits, from the packet context (else: to the end of the file) */
	uint64_t content_size; /* bits (packet_size when the context has none) */
	const struct ctf_stream_class *stream_class;
	/* The stream class's clock (NULL: its events have no time). */
	const struct ctf_clock *clock;
	/* Packet header and context fields readers consume (raw values): */
	bool has_stream_instance_id;
	uint64_t stream_instance_id;
	bool has_timestamp_begin;
	uint64_t timestamp_begin;
	bool has_timestamp_end;
	uint64_t timestamp_end;
	bool has_events_discarded;
	uint64_t events_discarded;
	bool has_packet_seq_num;
	uint64_t packet_seq_num;
	const struct ctf_value *header;	 /* trace.packet.header, NULL when not declared */
	const struct ctf_value *context; /* stream.packet.context, NULL when not declared */
};

/* The event just read; its values stay valid until the next call. */
struct ctf_event {
	const struct ctf_event_class *cls;
	/*
	 * The event's time: the stream's clock value (cycles) once its header
	 * is read, as Babeltrace 2 takes it. Fields of its contexts and payload
	 * mapped to the clock update the clock for the events after it, not
	 * this one's time. Meaningful when has_clock (the stream class has a
	 * clock, r->packet.clock).
	 */
	bool has_clock;
	uint64_t clock_value;
	uint64_t bit_offset; /* where it starts in its packet (before the header's alignment) */
	/* Each scope's root struct, NULL when not declared. */
	const struct ctf_value *header;
	const struct ctf_value *stream_context;
	const struct ctf_value *context;
	const struct ctf_value *payload;
};

struct ctf_stream_class_info;

struct ctf_stream_reader {
	/* Public, read-only: */
	const struct ctf_trace *trace;
	char *path;
	uint64_t file_size;
	struct ctf_packet packet;
	struct ctf_event event;
	char error[640]; /* "PATH: packet at byte N: bit B: what", when CTF_STREAM_ERROR */
	/*
	 * The LTTng packet index of the file (TRACE/index/NAME.idx) when it
	 * exists and describes the packets the reader finds; NULL otherwise
	 * (it is dropped as soon as a packet disagrees with it).
	 */
	struct ctf_packet_index_entry *index;
	size_t index_count;
	/*
	 * The program that decoded the event's body (its stream context,
	 * context and payload, which are that program's values) when it has
	 * a fixed layout: its leaves are then all the event's body holds
	 * (decode-prog-impl.h), for copies that skip the tree. NULL otherwise.
	 */
	const struct ctf_decode_prog *body_prog;
	/*
	 * Set before the first ctf_stream_next(): header and body are always
	 * decoded as two programs, never fused into one run (decode-stream.c,
	 * fuse_event()). The reference the tests check fused events against.
	 */
	bool no_fused_events;

	/* Private: */
	const uint8_t *map;
	int state;
	uint64_t next_offset; /* bytes: where the next packet starts */
	uint64_t released;    /* bytes of the mapping given back (read already) */
	uint64_t release_pos; /* bits into the packet: from there on, give back more of it */
	uint64_t end_offset;  /* bytes: where reading stops (the file's size unless limited) */
	/*
	 * ctf_stream_run()'s copy of the file: bytes [win_off, win_off +
	 * win_len) in win (NULL when it could not be had: the mapping is read).
	 */
	int fd;
	uint8_t *win;
	size_t win_size;
	uint64_t win_off, win_len;
	size_t first_packet; /* the index's entry of the first packet read */
	bool limited;	     /* ctf_stream_set_packets() was called */
	struct ctf_decode_ctx ctx;
	struct ctf_value_pool packet_pool;
	struct ctf_value_pool event_pool;
	struct ctf_stream_class_info *info;	/* per stream class of the trace */
	struct ctf_stream_class_info *cur_info; /* the current packet's */
	struct ctf_jit_arena jit;		/* the fused events' code */
	bool no_jit;				/* ctf_stream_tune() */
};

/*
 * Opens the stream file at path of trace (which must outlive the reader).
 * NULL with a one-line message in err when the file cannot be opened or
 * mapped, or when memory runs out.
 */
struct ctf_stream_reader *ctf_stream_open(const struct ctf_trace *trace, const char *path,
					  char *err, size_t errlen);
void ctf_stream_close(struct ctf_stream_reader *r);

/* How a stream reader reads (trax_reader_options); all zero: the defaults. */
struct ctf_read_tuning {
	/*
	 * Bytes ctf_stream_run() reads at a time: 0 the default (256 KiB),
	 * CTF_READ_WINDOW_NONE none (the mapping is read); the tests take
	 * small ones, to move the window often.
	 */
	size_t window;
	bool no_jit; /* fused events decoded by the interpreter, not compiled (decode-jit.h) */
};
#define CTF_READ_WINDOW_NONE SIZE_MAX

/* Applies t to a reader just opened: 0, or -1 when memory runs out. */
int ctf_stream_tune(struct ctf_stream_reader *r, const struct ctf_read_tuning *t);

/*
 * Limits a reader just opened to the packets [first, end) of its index
 * (end is clamped to the number of entries): so that two readers can share
 * a file's packets between them, one reading [0, k), the other [k, end).
 * The first fails where a packet crosses its end (the index placed the
 * part's end elsewhere than between two packets: then the second part
 * does not start on a packet either); the caller then reads the file
 * whole, to learn what is wrong. 0, or -1 when the file has no index, was
 * read already, or first > end.
 */
int ctf_stream_set_packets(struct ctf_stream_reader *r, size_t first, size_t end);

/* Reads the next packet beginning or event: an enum ctf_stream_status. */
int ctf_stream_next(struct ctf_stream_reader *r);

struct ctf_ss_stream;

/* What ctf_stream_run() does with the events it reads, and where it stopped. */
struct ctf_stream_run {
	int64_t base;	 /* an event's time: base + its clock value (ns) */
	int64_t bound;	 /* an event at or after it ends the run (CTF_RUN_EVENT) */
	int64_t last_ns; /* the time of the event before */
	int64_t *ns_out; /* where each event's time is stored before it is visited */
	/* called for each event taken (r->event set): 0 to go on */
	int (*visit)(void *ctx, struct ctf_ss_stream *item);
	void *ctx;
	struct ctf_ss_stream *item;
	int visit_status; /* visit's nonzero return, with CTF_RUN_VISITOR */
};

/* How ctf_stream_run() ended. */
enum ctf_stream_run_status {
	/* before an event it does not take: ctf_stream_next() reads it */
	CTF_RUN_STOPPED = 0,
	/*
	 * After reading an event it did not visit (r->event holds it, as from
	 * ctf_stream_next()): its time is at or after bound, before last_ns,
	 * or not representable.
	 */
	CTF_RUN_EVENT = 1,
	/* visit returned nonzero (visit_status) for the last event read */
	CTF_RUN_VISITOR = 2,
};

/*
 * Reads the events that follow in the current packet as long as they are
 * LTTng compact events with a fixed layout already met (decode-stream.c,
 * fused events) whose times are in [last_ns, bound), calling visit after
 * each: the same events, values and positions as ctf_stream_next() would
 * give, in a tighter loop. It takes nothing else (packets, other events,
 * the packet's last bytes, errors): those end the run with CTF_RUN_STOPPED
 * and ctf_stream_next() goes on from there. Only for packets with a clock.
 */
int ctf_stream_run(struct ctf_stream_reader *r, struct ctf_stream_run *run);

/*
 * Passes over the events left in the current packet without decoding them:
 * the next call reads the next packet. For seeking past packets that end
 * before the time sought; only where each packet sets the clock at its start
 * (timestamp_begin), since the events passed over do not update it.
 */
void ctf_stream_skip_packet(struct ctf_stream_reader *r);

/*
 * With the file's index: passes over the packets from the one after the
 * current packet up to entry k of the index (excluded) without reading
 * them, nor the rest of the current one: the next call reads packet k.
 * Returns 0, or -1 (nothing changed) without an index, before the first
 * packet, when k is not after the current packet or not among the
 * packets to read. For seeking, as ctf_stream_skip_packet().
 */
int ctf_stream_skip_to_packet(struct ctf_stream_reader *r, size_t k);

#endif /* TRAX_CTF_DECODE_STREAM_H */
