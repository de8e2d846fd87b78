/*
 * stream-info.c - trax_reader_stream_count() and trax_reader_stream_info():
 * what each stream file's packets say about it (time bounds, discarded
 * events, lost packets), read from their headers and contexts only, by a
 * stream reader of its own so that the reader's position is not changed.
 */
#include <stdlib.h>
#include <string.h>

#include "reader/decode-clock.h"
#include "reader/reader-impl.h"
#include "trax/reader.h"

#include "common/export.h"

static int scan_file(struct trax_reader *r, const struct ctf_ss_file *f,
		     struct trax_stream_info *info)
{
	char err[1200];
	struct ctf_stream_reader *sr;
	const struct ctf_clock *clock = NULL;
	bool has_begin = false, has_end = false, first = true;
	uint64_t begin = 0, end = 0, prev_seq = 0;
	int st;

	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->trace = f->t->index;
	info->path = f->path;
	sr = ctf_stream_open(f->t->trace, f->path, err, sizeof(err));
	if (!sr) {
		trax_reader_set_error(r, "%s", err);
		return -1;
	}
	while ((st = ctf_stream_next(sr)) == CTF_STREAM_PACKET) {
		const struct ctf_packet *p = &sr->packet;

		if (first) {
			const struct ctf_value *cpu =
			    p->context ? ctf_value_field(p->context, "cpu_id") : NULL;

			info->stream_class_id = p->stream_class->id;
			info->has_instance = p->has_stream_instance_id;
			info->instance_id = p->stream_instance_id;
			if (cpu && (cpu->type->kind == CTF_TYPE_INTEGER ||
				    cpu->type->kind == CTF_TYPE_ENUM)) {
				info->has_cpu_id = 1;
				info->cpu_id = cpu->u.u;
			}
			clock = p->clock;
			has_begin = p->has_timestamp_begin;
			begin = p->timestamp_begin;
		} else if (info->has_seq && p->has_packet_seq_num && p->packet_seq_num > prev_seq)
			info->packets_lost += p->packet_seq_num - prev_seq - 1;
		info->has_seq = p->has_packet_seq_num;
		prev_seq = p->packet_seq_num;
		info->has_discarded = p->has_events_discarded;
		info->events_discarded = p->events_discarded;
		has_end = p->has_timestamp_end;
		end = p->timestamp_end;
		info->packets++;
		first = false;
		ctf_stream_skip_packet(sr);
	}
	if (st < 0) {
		trax_reader_set_error(r, "%s", sr->error);
		ctf_stream_close(sr);
		return -1;
	}
	ctf_stream_close(sr);
	info->has_bounds = clock && has_begin && has_end &&
			   ctf_clock_cycles_to_ns(clock, begin, &info->begin_ns) == 0 &&
			   ctf_clock_cycles_to_ns(clock, end, &info->end_ns) == 0;
	return 0;
}

TRAX_EXPORT size_t trax_reader_stream_count(struct trax_reader *r)
{
	if (!r)
		return (size_t)-1;
	if (r->streams)
		return r->nstreams_info;
	r->streams = calloc(r->ss.nfiles ? r->ss.nfiles : 1, sizeof(*r->streams));
	if (!r->streams) {
		trax_reader_set_error(r, "out of memory");
		return (size_t)-1;
	}
	for (size_t i = 0; i < r->ss.nfiles; i++)
		if (scan_file(r, &r->ss.files[i], &r->streams[i])) {
			free(r->streams);
			r->streams = NULL;
			return (size_t)-1;
		}
	r->nstreams_info = r->ss.nfiles;
	return r->nstreams_info;
}

TRAX_EXPORT int trax_reader_stream_info(struct trax_reader *r, size_t i,
					struct trax_stream_info *info)
{
	size_t n = trax_reader_stream_count(r), sz;

	if (n == (size_t)-1 || i >= n || !info || info->size == 0)
		return -1;
	sz = info->size < sizeof(*info) ? info->size : sizeof(*info);
	memcpy(info, &r->streams[i], sz);
	info->size = sz;
	return 0;
}
