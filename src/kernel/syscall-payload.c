/*
 * syscall-payload.c - an event's CTF payload (writer/desc.h's encoding:
 * byte-aligned integers in the machine's order, NUL-terminated strings,
 * a sequence's length just before it) from a record of the BPF probes.
 *
 * What could not be read from user memory is written as LTTng-modules
 * writes it: an empty string, zeros for integers, no address (socket
 * addresses are decoded only when the call's length covers them).
 */
#include <string.h>

#include "kernel/syscall-table.h"

#define AF_INET_  2 /* <sys/socket.h>'s values, without its namespace */
#define AF_INET6_ 10

struct out {
	uint8_t *p;
	size_t len, cap;
	bool full;
};

static void put(struct out *o, const void *v, size_t n)
{
	if (o->len + n > o->cap) {
		o->full = true;
		return;
	}
	memcpy(o->p + o->len, v, n);
	o->len += n;
}

/*
 * The low size bytes of v (a little-endian machine's integer of that
 * size). Every field of every call goes through here: with room for 8
 * bytes, one fixed-size store of all 8, the bytes past size being
 * overwritten by the next field or left past the payload's length.
 */
static inline void put_int(struct out *o, uint64_t v, unsigned int size)
{
	uint8_t b[8];

	if (size > 8)
		size = 8;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (o->len + 8 <= o->cap) {
		memcpy(o->p + o->len, &v, 8);
		o->len += size;
		return;
	}
#endif
	for (unsigned int i = 0; i < size; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put(o, b, size);
}

struct captures {
	const uint8_t *data[SC_MAX_ARGS];
	uint16_t len[SC_MAX_ARGS];
};

/* Where each captured argument's bytes are in the record; -1 when it is damaged. */
static int find_captures(const struct sc_event *ev, const uint8_t *rec, size_t size,
			 struct captures *c)
{
	size_t off = sizeof(struct sc_rec);

	memset(c, 0, sizeof(*c));
	for (unsigned int a = 0; a < SC_MAX_ARGS; a++) {
		uint16_t n;

		if (ev->cap[a] == SC_CAP_NONE)
			continue;
		if (off == size) /* the probe stopped copying: no room left */
			break;
		if (off + 2 > size)
			return -1;
		memcpy(&n, rec + off, 2);
		off += 2;
		if (n > size - off)
			return -1;
		c->data[a] = rec + off;
		c->len[a] = n;
		off += n;
	}
	return 0;
}

struct sockaddr_fields {
	uint16_t family;
	uint8_t port[2];
	uint8_t addr[16];
	uint32_t v4len, v6len;
};

static void sockaddr_decode(const struct sc_event *ev, const struct sc_rec *r,
			    const struct captures *c, unsigned int arg, struct sockaddr_fields *sa)
{
	uint8_t b[SC_SOCKADDR_MAX] = {0};
	int32_t salen = 0;

	memset(sa, 0, sizeof(*sa));
	if (arg >= SC_MAX_ARGS || ev->lenarg >= SC_MAX_ARGS)
		return;
	if (ev->lenptr) {
		if (c->len[ev->lenarg] == 4)
			memcpy(&salen, c->data[ev->lenarg], 4);
	} else {
		salen = (int32_t)r->args[ev->lenarg];
	}
	memcpy(b, c->data[arg] ? c->data[arg] : b,
	       c->len[arg] < sizeof(b) ? c->len[arg] : sizeof(b));
	if (salen < 2)
		return;
	memcpy(&sa->family, b, 2);
	if (sa->family == AF_INET_ && salen >= 16) {
		memcpy(sa->port, b + 2, 2);
		memcpy(sa->addr, b + 4, 4);
		sa->v4len = 4;
	} else if (sa->family == AF_INET6_ && salen >= 28) {
		memcpy(sa->port, b + 2, 2);
		memcpy(sa->addr, b + 8, 16);
		sa->v6len = 8;
	}
}

long sc_payload(const struct sc_event *ev, const struct sc_rec *rec, size_t len, uint8_t *out,
		size_t outlen)
{
	const uint8_t *bytes = (const uint8_t *)rec;
	struct out o = {out, 0, outlen, false};
	struct captures c;
	struct sockaddr_fields sa;
	bool sa_done = false;

	if (len < sizeof(*rec) || rec->size < sizeof(*rec) || rec->size > len)
		return -1;
	if (find_captures(ev, bytes, rec->size, &c))
		return -1;
	for (unsigned int i = 0; i < ev->nfields; i++) {
		const struct sc_fsrc *s = &ev->src[i];
		unsigned int a = s->arg < SC_MAX_ARGS ? s->arg : 0;
		static const uint8_t zeros[8];

		switch (s->src) {
		case SC_SRC_ARG:
			/*
			 * A 32-bit call's registers hold 32 bits: a signed
			 * 64-bit field (long, off_t) is the call's compat_long_t,
			 * sign-extended as the kernel's compat wrappers do.
			 */
			if (ev->compat && s->size == 8 && ev->fields[i].type.integer.is_signed)
				put_int(&o, (uint64_t)(int64_t)(int32_t)rec->args[a], 8);
			else
				put_int(&o, rec->args[a], s->size);
			break;
		case SC_SRC_RET:
			put_int(&o, (uint64_t)rec->ret, s->size);
			break;
		case SC_SRC_ID:
			put_int(&o, (uint64_t)(int64_t)rec->nr, s->size);
			break;
		case SC_SRC_ARGS:
			for (unsigned int k = 0; k < SC_MAX_ARGS; k++)
				put_int(&o, rec->args[k], 8);
			break;
		case SC_SRC_STR: {
			size_t n = c.data[a] ? strnlen((const char *)c.data[a], c.len[a]) : 0;

			put(&o, c.data[a] ? c.data[a] : zeros, n);
			put(&o, zeros, 1);
			break;
		}
		case SC_SRC_USER_INT:
			put(&o, c.len[a] == 4 ? c.data[a] : zeros, 4);
			break;
		case SC_SRC_USER_INT2:
			put(&o, c.len[a] == 8 ? c.data[a] : zeros, 8);
			break;
		case SC_SRC_SA_FAMILY:
		case SC_SRC_SA_PORT:
		case SC_SRC_SA_V4:
		case SC_SRC_SA_V6:
			if (!sa_done) {
				sockaddr_decode(ev, rec, &c, a, &sa);
				sa_done = true;
			}
			if (s->src == SC_SRC_SA_FAMILY) {
				put_int(&o, sa.family, 2);
			} else if (s->src == SC_SRC_SA_PORT) {
				put(&o, sa.port, 2);
			} else if (s->src == SC_SRC_SA_V4) {
				put_int(&o, sa.v4len, 4);
				put(&o, sa.addr, sa.v4len);
			} else {
				put_int(&o, sa.v6len, 4);
				put(&o, sa.addr, 2 * sa.v6len);
			}
			break;
		default:
			return -1;
		}
	}
	return o.full ? -1 : (long)o.len;
}
