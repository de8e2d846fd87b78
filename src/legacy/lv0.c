/*
 * lv0.c - the LTTV format (seed 000; trace versions 0.4 and 0.7,
 * docs/legacy-formats.md section 1): the probe, the tracefiles and their
 * block headers, the facility loads and their eventdefs XML, the classes.
 * The event walk is in lv0-walk.c, the cursors in lv0-cursor.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "legacy/lv0-impl.h"

/* The trace header's size after the magic (1.2): 0.4: 55, 0.7: 66. */
static unsigned trace_header_after_magic(uint8_t minor)
{
	return minor >= 7 ? 66 : 55;
}

static bool is_dir(const char *dir, const char *sub)
{
	char *p = NULL;
	struct stat st;
	bool r;

	if (asprintf(&p, "%s/%s", dir, sub) < 0)
		return false;
	r = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	free(p);
	return r;
}

struct probe_state {
	const char *dir;
	bool found;
};

static int probe_one(void *arg, const char *relpath, const char *group, int cpu)
{
	struct probe_state *ps = arg;
	uint8_t head[128];
	struct ltrace_magic m;
	char *path = NULL;
	long n;

	(void)group;
	(void)cpu;
	if (asprintf(&path, "%s/%s", ps->dir, relpath) < 0)
		return 0;
	n = ltrace_read_head(path, head, sizeof(head));
	free(path);
	if (n > 0 && ltrace_find_magic(head, (size_t)n, &m) == 0 && m.offset != 16 &&
	    m.major == 0) {
		ps->found = true;
		return 1;
	}
	return 0;
}

enum ltt_format lv0_probe(const char *dir)
{
	struct probe_state ps = {.dir = dir};
	char err[256];

	if (!is_dir(dir, "control") || !is_dir(dir, "eventdefs"))
		return LTT_FORMAT_NONE;
	if (ltrace_walk(dir, probe_one, &ps, err, sizeof(err)) < 0)
		return LTT_FORMAT_NONE;
	return ps.found ? LTT_FORMAT_LTTV : LTT_FORMAT_NONE;
}

/* The block header's fields (1.2), by where the magic is. */
struct block_hdr {
	uint64_t begin_tsc, end_tsc;
	uint32_t lost_size, buf_size;
};

static void read_block_hdr(const uint8_t *b, unsigned magic_off, bool be, struct block_hdr *h)
{
	switch (magic_off) {
	case 40: /* 0.7: no timevals */
		h->begin_tsc = ltrace_u64(b + 0, be);
		h->end_tsc = ltrace_u64(b + 16, be);
		h->lost_size = ltrace_u32(b + 32, be);
		h->buf_size = ltrace_u32(b + 36, be);
		break;
	case 56: /* 0.4: 8-byte timevals */
		h->begin_tsc = ltrace_u64(b + 8, be);
		h->end_tsc = ltrace_u64(b + 32, be);
		h->lost_size = ltrace_u32(b + 48, be);
		h->buf_size = ltrace_u32(b + 52, be);
		break;
	default: /* 72: 0.4 of a 64-bit writer, 16-byte timevals */
		h->begin_tsc = ltrace_u64(b + 16, be);
		h->end_tsc = ltrace_u64(b + 48, be);
		h->lost_size = ltrace_u32(b + 64, be);
		h->buf_size = ltrace_u32(b + 68, be);
		break;
	}
}

/* The trace-wide facts of one block's trace header (info) and the file's. */
static int read_trace_hdr(const uint8_t *b, const struct ltrace_magic *m, const char *path,
			  struct ltt_trace_info *info, struct lv0_file *lf, char *err,
			  size_t errlen)
{
	const uint8_t *h = b + m->offset; /* the magic */
	bool be = m->big_endian;
	uint32_t fwo = ltrace_u32(h + 12, be);

	memset(info, 0, sizeof(*info));
	info->format = LTT_FORMAT_LTTV;
	info->major = h[17];
	info->minor = h[18];
	if (info->major != 0 || (info->minor != 4 && info->minor != 7)) {
		if (info->major != 0)
			snprintf(err, errlen,
				 "%s: trace version %u.%u (LTTng marker era) not supported", path,
				 info->major, info->minor);
		else
			snprintf(err, errlen,
				 "%s: trace version %u.%u not supported (0.4 and 0.7 are)", path,
				 info->major, info->minor);
		return -1;
	}
	info->arch_type = ltrace_u32(h + 4, be);
	info->arch_variant = ltrace_u32(h + 8, be);
	info->arch_size = h[16];
	info->big_endian = be;
	info->flight_recorder = h[19] != 0;
	info->has_heartbeat = h[20] != 0;
	info->alignment = h[21];
	info->freq_scale = 1;
	if (info->minor == 4) {
		if (h[22] == 0) {
			snprintf(err, errlen, "%s: has_tsc is 0: traces without TSC not supported",
				 path);
			return -1;
		}
		info->start_freq = ltrace_u64(h + 23, be);
		info->start_tsc = ltrace_u64(h + 31, be);
		info->start_time_sec = ltrace_u32(h + 47, be);
		info->start_time_usec = ltrace_u32(h + 51, be); /* R070: microseconds */
	} else {
		uint32_t fs = ltrace_u32(h + 22, be);
		info->freq_scale = fs ? fs : 1;
		info->start_freq = ltrace_u64(h + 26, be);
		info->start_tsc = ltrace_u64(h + 34, be);
		info->start_time_sec = ltrace_u64(h + 50, be);
		info->start_time_usec = ltrace_u64(h + 58, be);
	}
	/*
	 * Seed 000 calls it a flag ("trace alignment is activated"): 1 means
	 * aligned on the architecture size; the 2006 kernel wrote that size.
	 */
	if (info->alignment == 1 && (info->arch_size == 4 || info->arch_size == 8))
		info->alignment = info->arch_size;
	if (info->alignment != 0 && info->alignment != 4 && info->alignment != 8) {
		snprintf(err, errlen, "%s: has_alignment %u is not 0, 1, 4 or 8", path,
			 info->alignment);
		return -1;
	}
	if (fwo != 0 && fwo != 1234 && fwo != 4321) {
		snprintf(err, errlen, "%s: float_word_order %u is not 0, 1234 or 4321", path, fwo);
		return -1;
	}
	lf->magic_off = m->offset;
	lf->minor = info->minor;
	lf->hdr_size = m->offset + trace_header_after_magic(info->minor);
	lf->big_endian = be;
	lf->has_heartbeat = info->has_heartbeat;
	lf->alignment = info->alignment;
	lf->float_big_endian = fwo ? fwo == 4321 : be;
	return 0;
}

struct load_state {
	struct ltt_trace *t;
	char *err;
	size_t errlen;
	int rc;
};

/*
 * A tracefile: maps it and reads every block header. A file whose first
 * block has no magic is skipped (1.1); faults past block 0 become the
 * file's tail error (1.2.1).
 */
static int add_tracefile(void *arg, const char *relpath, const char *group, int cpu)
{
	struct load_state *ls = arg;
	struct ltt_trace *t = ls->t;
	struct ltrace_magic m;
	struct ltt_trace_info info;
	struct lv0_file lf = {0}, *pf;
	struct block_hdr bh;
	struct ltrace_file *f;
	const char *channel = group;

	f = ltrace_add_file(t, relpath, channel, cpu, ls->err, ls->errlen);
	if (!f)
		return ls->rc = -1;
	if (f->size < 128 || ltrace_find_magic(f->data, f->size, &m) < 0 || m.offset == 16) {
		/* not a tracefile of this format: skipped as LTTV did */
		ltrace_warn(t, "%s: no LTT magic in the first block: skipped", f->path);
		goto drop;
	}
	if (read_trace_hdr(f->data, &m, f->path, &info, &lf, ls->err, ls->errlen) < 0)
		return ls->rc = -1;
	read_block_hdr(f->data, m.offset, m.big_endian, &bh);
	lf.block_size = bh.buf_size;
	if (bh.buf_size < lf.hdr_size) {
		snprintf(ls->err, ls->errlen,
			 "%s: offset 0: block 0: buf_size %u is smaller than its headers (%u)",
			 f->path, bh.buf_size, lf.hdr_size);
		return ls->rc = -1;
	}
	pf = malloc(sizeof(*pf));
	if (!pf) {
		snprintf(ls->err, ls->errlen, "%s: out of memory", f->path);
		return ls->rc = -1;
	}
	*pf = lf;
	f->priv = pf;
	f->big_endian = lf.big_endian;
	f->info.block_size = bh.buf_size;
	for (uint64_t off = 0; off < f->size; off += bh.buf_size) {
		uint64_t nb = off / lf.block_size;
		struct ltrace_magic bm;
		struct ltrace_block *b;
		struct block_hdr h;

		if (f->size - off < lf.block_size) {
			ltrace_file_tail_error(
			    f,
			    "%s: offset %llu: block %llu truncated: %llu of its %u "
			    "bytes present",
			    f->path, (unsigned long long)off, (unsigned long long)nb,
			    (unsigned long long)(f->size - off), lf.block_size);
			break;
		}
		if (ltrace_find_magic(f->data + off, lf.hdr_size, &bm) < 0 ||
		    bm.offset != lf.magic_off || bm.big_endian != lf.big_endian ||
		    bm.minor != lf.minor) {
			ltrace_file_tail_error(f, "%s: offset %llu: block %llu: wrong magic number",
					       f->path, (unsigned long long)(off + lf.magic_off),
					       (unsigned long long)nb);
			break;
		}
		read_block_hdr(f->data + off, lf.magic_off, lf.big_endian, &h);
		if (h.buf_size != lf.block_size) {
			ltrace_file_tail_error(
			    f,
			    "%s: offset %llu: block %llu: buf_size %u differs from "
			    "block 0's %u",
			    f->path, (unsigned long long)off, (unsigned long long)nb, h.buf_size,
			    lf.block_size);
			break;
		}
		b = ltrace_add_block(f);
		if (!b) {
			snprintf(ls->err, ls->errlen, "%s: out of memory", f->path);
			return ls->rc = -1;
		}
		b->offset = off;
		b->begin_tsc = h.begin_tsc;
		b->end_tsc = h.end_tsc;
		b->lost_size = h.lost_size;
	}
	ltrace_blocks_sort(f);
	return 0;
drop:
	ltrace_drop_last_file(t);
	return 0;
}

/*
 * eventdefs/STEM.xml, parsed once (a missing file gives an empty entry;
 * its reason in *why when why is not NULL, else no warning).
 */
static struct lv0_xml *load_xml(struct ltt_trace *t, struct lv0_trace *lt, const char *stem,
				char *why, size_t whylen)
{
	struct lv0_xml *x;
	char *path = NULL, *text;
	char err[512];
	size_t len;

	for (size_t i = 0; i < lt->nxml; i++)
		if (!strcmp(lt->xml[i].name, stem))
			return &lt->xml[i];
	x = realloc(lt->xml, (lt->nxml + 1) * sizeof(*x));
	if (!x)
		return NULL;
	lt->xml = x;
	x = &lt->xml[lt->nxml];
	memset(x, 0, sizeof(*x));
	if (!(x->name = strdup(stem)))
		return NULL;
	lt->nxml++;
	/* a name with a '/' would leave eventdefs/: not a facility name */
	if (strchr(stem, '/') || asprintf(&path, "%s/eventdefs/%s.xml", t->dir, stem) < 0) {
		if (why)
			snprintf(why, whylen, "%s/eventdefs: \"%s\" cannot name a file", t->dir,
				 stem);
		return x;
	}
	text = ltrace_read_file(path, &len, err, sizeof(err));
	if (!text) {
		if (why)
			snprintf(why, whylen, "%s", err);
	} else if (lxml_parse(text, len, path, &x->facs, &x->n, err, sizeof(err)) < 0) {
		ltrace_warn(t, "%s", err);
		x->facs = NULL;
		x->n = 0;
	}
	free(text);
	free(path);
	return x;
}

/* 1.1 DECISION: the element whose checksum matches, else the first of the name. */
static const struct ltt_facility *facility_in(const struct lv0_xml *x,
					      const struct lv0_facility *fac)
{
	const struct ltt_facility *first = NULL;

	for (size_t i = 0; i < x->n; i++) {
		if (strcmp(x->facs[i].name, fac->name) != 0)
			continue;
		if (x->facs[i].checksum && x->facs[i].checksum == fac->checksum)
			return &x->facs[i];
		if (!first)
			first = &x->facs[i];
	}
	return first;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A facility's description: eventdefs/NAME.xml as LTTV looked it up (1.1),
 * else any other eventdefs/ *.xml that holds a facility of that name (one
 * file may describe several). NULL with a warning when none does.
 */
static const struct ltt_facility *find_description(struct ltt_trace *t, struct lv0_trace *lt,
						   const struct lv0_facility *fac)
{
	char why[600] = "", *dpath = NULL;
	struct lv0_xml *x = load_xml(t, lt, fac->name, why, sizeof(why));
	const struct ltt_facility *d = x ? facility_in(x, fac) : NULL;
	DIR *dir;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	if (d || !x)
		goto found;
	if (asprintf(&dpath, "%s/eventdefs", t->dir) < 0 || !(dir = opendir(dpath)))
		goto found;
	while ((de = readdir(dir))) {
		size_t l = strlen(de->d_name);
		char **nn;
		if (de->d_name[0] == '.' || l < 5 || strcmp(de->d_name + l - 4, ".xml"))
			continue;
		if (!(nn = realloc(names, (n + 1) * sizeof(*nn))))
			break;
		names = nn;
		if (!(names[n] = strndup(de->d_name, l - 4)))
			break;
		n++;
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n && !d; i++) {
		struct lv0_xml *o = load_xml(t, lt, names[i], NULL, 0);
		if (o)
			d = facility_in(o, fac);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
found:
	free(dpath);
	if (!d)
		ltrace_warn(t,
			    "%s: no description of facility %s in %s/eventdefs (its events cannot "
			    "be decoded)",
			    why[0] ? why : "no such facility", fac->name, t->dir);
	else if (d->checksum && d->checksum != fac->checksum)
		ltrace_warn(t,
			    "%s/eventdefs: facility %s: checksum 0x%08x differs from the trace's "
			    "0x%08x",
			    t->dir, fac->name, d->checksum, fac->checksum);
	return d;
}

static void apply_load(struct ltt_trace *t, struct lv0_trace *lt, const struct lv0_load *ld,
		       const struct ltt_abi *trace_abi, const char *where)
{
	struct lv0_facility *fac;

	if (ld->id >= LV0_NUM_FACILITIES) {
		ltrace_warn(t, "%s: facility %s loaded with id %u (ids are below 256): ignored",
			    where, ld->name, ld->id);
		return;
	}
	fac = &lt->fac[ld->id];
	if (fac->set) /* 1.5: a later load of a set id is ignored */
		return;
	if (!(fac->name = strdup(ld->name)))
		return;
	fac->set = true;
	fac->checksum = ld->checksum;
	fac->abi = *trace_abi;
	fac->abi.int_size = (uint8_t)ld->int_size;
	fac->abi.long_size = (uint8_t)ld->long_size;
	fac->abi.pointer_size = (uint8_t)ld->pointer_size;
	fac->abi.size_t_size = (uint8_t)ld->size_t_size;
	if (ld->alignment != trace_abi->alignment)
		ltrace_warn(t,
			    "%s: facility %s was loaded with alignment %u, the trace header has "
			    "%u: using the header's",
			    where, ld->name, ld->alignment, trace_abi->alignment);
}

/*
 * 1.4: in an aligned trace, a load whose name leaves the u32s unaligned
 * tells whether this writer padded them; the core load classes then read
 * them as it wrote them (packed when it did not).
 */
static void note_load_padding(struct lv0_trace *lt, const struct lv0_load *ld,
			      const struct ltt_abi *abi)
{
	if (!abi->alignment || lt->loads_padded >= 0 || (strlen(ld->name) + 1) % 4 == 0)
		return;
	lt->loads_padded = ld->pad != 0;
	if (!lt->loads_padded)
		for (unsigned e = 0; e < lt->fac[0].nevents; e++)
			if (e != 1 && e != 2)
				lt->fac[0].classes[e]->abi.alignment = 0;
}

/* 1.5: every facility load of the control/facilities files, in CPU order. */
static int read_loads(struct ltt_trace *t, struct lv0_trace *lt, const struct ltt_abi *abi)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		struct ltt_cursor *c;
		struct lv0_raw r;

		if (strcmp(t->files[i].channel, "control/facilities") != 0)
			continue;
		c = ltt_cursor_open(t, i);
		if (!c)
			return -1;
		while (!c->failed && lv0_walk_next(c, &r) > 0) {
			const struct lv0_file *lf = c->f->priv;
			bool is_load = r.facility == 0 &&
				       (r.event == 0 || r.event == 4 ||
					(r.event == 3 && !lv0_core_is_heartbeat_full(3, r.size)));

			if (r.size == 0xFFFF)
				break; /* cannot be a load; the cursor will say why it stops */
			if (is_load) {
				struct lv0_load ld;
				char why[256], where[512];

				snprintf(where, sizeof(where), "%s: offset %llu", c->f->path,
					 (unsigned long long)r.offset);
				if (lv0_parse_facility_load(c->f->data + r.payload_off, r.size,
							    lf->minor, lf->big_endian, &ld, why,
							    sizeof(why)) < 0)
					ltrace_warn(t, "%s: %s", where, why);
				else
					apply_load(t, lt, &ld, abi, where);
				note_load_padding(lt, &ld, abi);
			}
			lv0_walk_skip(c, &r, r.size);
		}
		ltt_cursor_close(c);
	}
	return 0;
}

static int add_classes(struct ltt_trace *t, struct lv0_trace *lt)
{
	for (unsigned id = 1; id < LV0_NUM_FACILITIES; id++) {
		struct lv0_facility *fac = &lt->fac[id];

		if (!fac->set)
			continue;
		fac->desc = find_description(t, lt, fac);
		if (!fac->desc)
			continue;
		fac->classes =
		    calloc(fac->desc->nevents ? fac->desc->nevents : 1, sizeof(*fac->classes));
		if (!fac->classes)
			return -1;
		fac->nevents = fac->desc->nevents;
		for (size_t e = 0; e < fac->desc->nevents; e++) {
			const struct ltt_event_type *et = &fac->desc->events[e];
			char *name = NULL;

			if (asprintf(&name, "%s.%s", fac->name, et->name) < 0)
				return -1;
			fac->classes[e] = ltrace_add_class(t, name, NULL, fac->name, id,
							   (uint32_t)e, et->payload, &fac->abi);
			free(name);
			if (!fac->classes[e])
				return -1;
		}
	}
	return 0;
}

static void lv0_free(struct ltt_trace *t)
{
	struct lv0_trace *lt = t->priv;

	for (size_t i = 0; i < t->nfiles; i++) {
		free(t->files[i].priv);
		t->files[i].priv = NULL;
	}
	if (!lt)
		return;
	for (unsigned i = 0; i < LV0_NUM_FACILITIES; i++) {
		free(lt->fac[i].name);
		free(lt->fac[i].classes);
	}
	for (size_t i = 0; i < lt->nxml; i++) {
		if (lt->xml[i].facs)
			lxml_free(lt->xml[i].facs, lt->xml[i].n);
		free(lt->xml[i].name);
	}
	free(lt->xml);
	lv0_plans_drop(lt, SIZE_MAX);
	free(lt->plans);
	free(lt);
	t->priv = NULL;
}

/* The file whose block 0 gives the trace's parameters: control/facilities_0 (1.2). */
static const struct ltrace_file *info_file(const struct ltt_trace *t)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (!strcmp(t->files[i].channel, "control/facilities") && t->files[i].priv)
			return &t->files[i];
	for (size_t i = 0; i < t->nfiles; i++)
		if (t->files[i].priv)
			return &t->files[i];
	return NULL;
}

int lv0_load(struct ltt_trace *t, char *err, size_t errlen)
{
	struct load_state ls = {.t = t, .err = err, .errlen = errlen};
	const struct ltrace_file *f0;
	const struct lv0_file *lf0;
	struct ltrace_magic m;
	struct lv0_file scratch;
	struct lv0_trace *lt;
	struct ltt_abi abi = {0};

	/* set first, so that ltt_trace_close frees what a failed load left */
	t->ops = &lv0_ops;
	if (!is_dir(t->dir, "control") || !is_dir(t->dir, "eventdefs")) {
		snprintf(err, errlen, "%s: an LTTV trace needs control/ and eventdefs/", t->dir);
		return -1;
	}
	if (!(lt = calloc(1, sizeof(*lt)))) {
		snprintf(err, errlen, "%s: out of memory", t->dir);
		return -1;
	}
	t->priv = lt;
	lt->loads_padded = -1;
	if (ltrace_walk(t->dir, add_tracefile, &ls, err, errlen) != 0 || ls.rc < 0)
		return -1;
	ltrace_sort_files(t);
	f0 = info_file(t);
	if (!f0) {
		snprintf(err, errlen, "%s: no tracefile", t->dir);
		return -1;
	}
	ltrace_find_magic(f0->data, f0->size, &m);
	if (read_trace_hdr(f0->data, &m, f0->path, &t->info, &scratch, err, errlen) < 0)
		return -1;
	lf0 = f0->priv;
	abi.int_size = 4;
	abi.long_size = abi.pointer_size = abi.size_t_size = t->info.arch_size;
	abi.alignment = t->info.alignment;
	abi.big_endian = t->info.big_endian;
	abi.float_big_endian = lf0->float_big_endian;
	if (lv0_core_init(t, lt, t->info.minor, &abi) < 0 || read_loads(t, lt, &abi) < 0 ||
	    add_classes(t, lt) < 0) {
		snprintf(err, errlen, "%s: out of memory", t->dir);
		return -1;
	}
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct lv0_file *lf = t->files[i].priv;
		if (lf->minor != lf0->minor || lf->big_endian != lf0->big_endian)
			ltrace_warn(t, "%s: trace version 0.%u %s-endian, %s says 0.%u %s-endian",
				    t->files[i].path, lf->minor, lf->big_endian ? "big" : "little",
				    f0->path, lf0->minor, lf0->big_endian ? "big" : "little");
	}
	return 0;
}

const struct ltrace_ops lv0_ops = {
    .cursor_open = lv0_cursor_open,
    .cursor_next = lv0_cursor_next,
    .cursor_close = lv0_cursor_close,
    .cursor_trust_sizes = lv0_cursor_trust_sizes,
    .cursor_check_size = lv0_cursor_check_size,
    .trace_free = lv0_free,
};
