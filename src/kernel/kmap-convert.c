/*
 * kmap-convert.c - a kernel record into its LTTng payload: the program
 * kmap.c built, run once per record. This is the hot path of kernel
 * tracing (millions of records a second): fixed-size copies at offsets
 * known in advance, one length check for the fixed part of the record,
 * one per variable field (a __data_loc's locator must point inside the
 * record), and one per field written against the output's end.
 */
#include <string.h>

#include "kernel/kmap-internal.h"

/* LTTng-modules' block request flags (instrumentation/events/block.h). */
enum {
	RWBS_WRITE = 1 << 0,
	RWBS_DISCARD = 1 << 1,
	RWBS_READ = 1 << 2,
	RWBS_RAHEAD = 1 << 3,
	RWBS_SYNC = 1 << 5,
	RWBS_META = 1 << 6,
	RWBS_SECURE = 1 << 7,
	RWBS_FLUSH = 1 << 8,
	RWBS_FUA = 1 << 9,
	RWBS_PREFLUSH = 1 << 10,
};

static inline uint64_t get_int(const uint8_t *p, unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
}

static inline void put_int(uint8_t *o, uint64_t v, unsigned int size, bool be)
{
	if (be) {
		for (unsigned int i = 0; i < size; i++)
			o[i] = (uint8_t)(v >> (8 * (size - 1 - i)));
		return;
	}
	switch (size) {
	case 1:
		o[0] = (uint8_t)v;
		break;
	case 2: {
		uint16_t x = (uint16_t)v;

		memcpy(o, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;

		memcpy(o, &x, 4);
		break;
	}
	default:
		memcpy(o, &v, 8);
		break;
	}
}

/* The bytes a locator at op->src points to; false when outside the record. */
static inline bool dyn(const struct kmap_op *op, const uint8_t *rec, size_t rec_len,
		       const uint8_t **p, uint32_t *len)
{
	uint32_t loc;
	size_t off;

	memcpy(&loc, rec + op->src, 4); /* inside: op->src + 4 <= min_len */
	off = loc & 0xffff;
	if (op->flags & KOP_REL)
		off += (size_t)op->src + 4;
	*len = loc >> 16;
	if (off > rec_len || *len > rec_len - off)
		return false;
	*p = rec + off;
	return true;
}

/* blk_fill_rwbs()'s text ("FWFS", "RA", "DE") as LTTng's flags. */
static uint32_t rwbs_flags(const uint8_t *s, uint32_t n)
{
	uint32_t flags = 0, i = 0;

	if (n >= 2 && s[0] == 'F' && s[1] && strchr("WDFRN", s[1]))
		flags |= RWBS_PREFLUSH, i = 1;
	if (i < n) {
		switch (s[i++]) {
		case 'W':
			flags |= RWBS_WRITE;
			break;
		case 'D':
			flags |= RWBS_DISCARD;
			if (i < n && s[i] == 'E')
				flags |= RWBS_SECURE, i++;
			break;
		case 'F':
			flags |= RWBS_FLUSH;
			break;
		case 'R':
			flags |= RWBS_READ;
			break;
		default:
			break;
		}
	}
	for (; i < n && s[i]; i++) {
		switch (s[i]) {
		case 'F':
			flags |= RWBS_FUA;
			break;
		case 'A':
			flags |= RWBS_RAHEAD;
			break;
		case 'S':
			flags |= RWBS_SYNC;
			break;
		case 'M':
			flags |= RWBS_META;
			break;
		default:
			break;
		}
	}
	return flags;
}

/* A kernel address as text: "0x" and 16 hexadecimal digits. */
static void put_kaddr(uint8_t *o, uint64_t a)
{
	static const char digits[] = "0123456789abcdef";

	o[0] = '0';
	o[1] = 'x';
	for (int i = 0; i < 16; i++)
		o[2 + i] = (uint8_t)digits[(a >> (60 - 4 * i)) & 15];
	o[KMAP_KADDR_TEXT] = 0;
}

#define ROOM(n)                                                                                    \
	do {                                                                                       \
		if ((size_t)(end - o) < (size_t)(n))                                               \
			return 0;                                                                  \
	} while (0)

size_t kmap_convert(const struct kmap_event *m, const uint8_t *rec, size_t rec_len, uint8_t *out,
		    size_t cap)
{
	uint8_t *o = out, *end;
	const struct kmap_op *op = m->ops, *last;
	struct kmap_task task;
	int64_t task_tid = INT64_MIN; /* whose task is loaded */

	if (rec_len < m->min_len || !rec || !m->cls.cls.nr_fields || !out)
		return 0;
	end = out + cap;
	last = m->ops + m->cls.cls.nr_fields;
	for (; op < last; op++) {
		const uint8_t *p;
		uint32_t len, n;
		uint64_t v;

		switch (op->code) {
		case KOP_INT:
			ROOM(op->dsize);
			v = get_int(rec + op->src, op->ssize, op->flags & KOP_SIGNED) +
			    (uint64_t)op->k;
			put_int(o, v, op->dsize, op->flags & KOP_BE);
			o += op->dsize;
			break;
		case KOP_BIT:
			ROOM(op->dsize);
			v = get_int(rec + op->src, op->ssize, false) >> op->n & 1;
			put_int(o, v, op->dsize, false);
			o += op->dsize;
			break;
		case KOP_CONST:
			ROOM(op->dsize);
			put_int(o, (uint64_t)op->k, op->dsize, op->flags & KOP_BE);
			o += op->dsize;
			break;
		case KOP_TEXT_ARR:
			ROOM(op->n);
			n = op->slen < op->n ? op->slen : op->n;
			memcpy(o, rec + op->src, n);
			memset(o + n, 0, op->n - n);
			o += op->n;
			break;
		case KOP_TEXT_DYN:
			if (!dyn(op, rec, rec_len, &p, &len))
				return 0;
			ROOM(op->n);
			n = len < op->n ? len : op->n;
			memcpy(o, p, n);
			memset(o + n, 0, op->n - n);
			o += op->n;
			break;
		case KOP_STR_ARR:
			p = rec + op->src;
			len = op->slen;
			goto string;
		case KOP_STR_FLEX:
			p = rec + op->src;
			len = (uint32_t)(rec_len - op->src);
			goto string;
		case KOP_STR_DYN:
			if (!dyn(op, rec, rec_len, &p, &len))
				return 0;
		string:
			n = (uint32_t)strnlen((const char *)p, len);
			ROOM((size_t)n + 1);
			memcpy(o, p, n);
			o[n] = 0;
			o += n + 1;
			break;
		case KOP_STR_KADDR: {
			const char *s;

			v = get_int(rec + op->src, op->ssize, false);
			s = m->env.kstrings ? kmap_kstrings_find(m->env.kstrings, v) : NULL;
			if (s) {
				n = (uint32_t)strlen(s);
				ROOM((size_t)n + 1);
				memcpy(o, s, (size_t)n + 1);
				o += n + 1;
			} else {
				ROOM(KMAP_KADDR_TEXT + 1);
				put_kaddr(o, v);
				o += KMAP_KADDR_TEXT + 1;
			}
			break;
		}
		case KOP_TSEQ_DYN:
			if (!dyn(op, rec, rec_len, &p, &len))
				return 0;
			n = (uint32_t)strnlen((const char *)p, len);
			ROOM((size_t)op->dsize + n);
			put_int(o, n, op->dsize, false);
			memcpy(o + op->dsize, p, n);
			o += op->dsize + n;
			break;
		case KOP_SEQ_DYN:
			if (!dyn(op, rec, rec_len, &p, &len))
				return 0;
			goto sequence;
		case KOP_SEQ_FLEX:
			p = rec + op->src;
			len = (uint32_t)(rec_len - op->src);
		sequence:
			n = len / op->n;
			ROOM(4 + (size_t)n * op->n);
			put_int(o, n, 4, false);
			memcpy(o + 4, p, (size_t)n * op->n);
			o += 4 + (size_t)n * op->n;
			break;
		case KOP_RAW:
			ROOM(op->slen);
			memcpy(o, rec + op->src, op->slen);
			o += op->slen;
			break;
		case KOP_RWBS:
			ROOM(4);
			put_int(o, rwbs_flags(rec + op->src, op->slen), 4, false);
			o += 4;
			break;
		case KOP_TGID:
		case KOP_NS_INUM:
		case KOP_VTIDS: {
			int32_t tid = (int32_t)get_int(rec + op->src, 4, true);

			if (tid != task_tid) {
				memset(&task, 0, sizeof(task));
				task.tgid = -1;
				m->env.task(m->env.task_arg, tid, &task);
				if (task.nr_vtids > KMAP_MAX_NS_LEVEL)
					task.nr_vtids = KMAP_MAX_NS_LEVEL;
				task_tid = tid;
			}
			if (op->code == KOP_VTIDS) {
				/* unknown: the thread as seen from the outermost namespace */
				n = task.nr_vtids ? task.nr_vtids : 1;
				ROOM(1 + 4 * (size_t)n);
				*o++ = (uint8_t)n;
				if (task.nr_vtids)
					memcpy(o, task.vtids, 4 * (size_t)n);
				else
					memcpy(o, &tid, 4);
				o += 4 * (size_t)n;
				break;
			}
			ROOM(4);
			/* an unknown process id: the thread taken for its process's leader */
			v = op->code == KOP_TGID ? (uint32_t)(task.tgid >= 0 ? task.tgid : tid)
						 : task.pid_ns_inum;
			put_int(o, v, 4, false);
			o += 4;
			break;
		}
		default:
			return 0;
		}
	}
	return (size_t)(o - out);
}

size_t kmap_payload_max(const struct kmap_event *m, size_t rec_len)
{
	return m->fixed + m->nr_var * (rec_len + 8);
}
