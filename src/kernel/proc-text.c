/*
 * proc-text.c - parsers of the /proc and /sys text the kernel state dump
 * reads (proc-text.h). They work on (pointer, length) pairs: a file read
 * whole is not NUL-terminated here, and a process can put anything in its
 * name, so no parser relies on a terminator or on the name's content.
 */
#include <string.h>

#include "kernel/proc-text.h"

/* A cursor over bytes that are not NUL-terminated. */
struct cur {
	const char *p, *end;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static void skip_spaces(struct cur *c)
{
	while (c->p < c->end && is_space(*c->p))
		c->p++;
}

/* An unsigned number in base 8, 10 or 16 (no prefix); false when there is none or it overflows. */
static bool take_u64(struct cur *c, unsigned int base, uint64_t *out)
{
	uint64_t v = 0;
	const char *start = c->p;

	while (c->p < c->end) {
		char ch = *c->p;
		unsigned int d;

		if (ch >= '0' && ch <= '9')
			d = (unsigned int)(ch - '0');
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			d = (unsigned int)(ch - 'a' + 10);
		else if (base == 16 && ch >= 'A' && ch <= 'F')
			d = (unsigned int)(ch - 'A' + 10);
		else
			break;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
		c->p++;
	}
	*out = v;
	return c->p > start;
}

/* A decimal number, maybe negative, that fits an int32_t. */
static bool take_i32(struct cur *c, int32_t *out)
{
	bool neg = c->p < c->end && *c->p == '-';
	uint64_t v;

	if (neg)
		c->p++;
	if (!take_u64(c, 10, &v) || v > (neg ? 2147483648u : 2147483647u))
		return false;
	*out = neg ? (int32_t)(-(int64_t)v) : (int32_t)v;
	return true;
}

/* Skips one field of non-blank characters; false when there is none. */
static bool skip_field(struct cur *c)
{
	const char *start = c->p;

	while (c->p < c->end && !is_space(*c->p) && *c->p != '\n')
		c->p++;
	return c->p > start;
}

/* Copies up to cap-1 bytes (to a NUL, which no name holds), NUL-padding the rest of dst. */
static void copy_padded(char *dst, size_t cap, const char *src, size_t n)
{
	const char *nul = memchr(src, '\0', n);

	if (nul)
		n = (size_t)(nul - src);
	if (n > cap - 1)
		n = cap - 1;
	memcpy(dst, src, n);
	memset(dst + n, 0, cap - n);
}

int proc_stat_parse(const char *buf, size_t len, struct proc_stat *st)
{
	const char *open = memchr(buf, '(', len), *close = NULL;
	struct cur c;
	uint64_t flags;

	if (!open)
		return -1;
	/* the last ')': the name itself may hold some */
	for (const char *q = buf + len; q > open + 1;)
		if (*--q == ')') {
			close = q;
			break;
		}
	if (!close)
		return -1;
	size_t n = (size_t)(close - open - 1);

	copy_padded(st->comm, sizeof(st->comm), open + 1, n);
	st->comm_cut = n > PROC_COMM_LEN - 1;

	/* fields 3 (state) to 39 (processor), one space apart */
	c = (struct cur){close + 1, buf + len};
	skip_spaces(&c);
	if (c.p >= c.end || is_space(*c.p) || *c.p == '\n')
		return -1;
	st->state = *c.p++;
	skip_spaces(&c);
	if (!take_i32(&c, &st->ppid))
		return -1;
	for (int field = 5; field <= 39; field++) {
		skip_spaces(&c);
		if (field == 9) {
			if (!take_u64(&c, 10, &flags) || flags > UINT32_MAX)
				return -1;
			st->flags = (uint32_t)flags;
		} else if (field == 39) {
			if (!take_i32(&c, &st->processor))
				return -1;
		} else if (!skip_field(&c)) {
			return -1;
		}
	}
	return 0;
}

int proc_sched_comm(const char *buf, size_t len, char comm[PROC_COMM_LEN])
{
	const char *nl = memchr(buf, '\n', len);
	const char *end = nl ? nl : buf + len;
	const char *paren = NULL;

	/* the last " (" of the line: the name may hold one */
	for (const char *q = end; q - buf >= 2; q--)
		if (q[-2] == ' ' && q[-1] == '(') {
			paren = q - 2;
			break;
		}
	if (!paren)
		return -1;
	copy_padded(comm, PROC_COMM_LEN, buf, (size_t)(paren - buf));
	return 0;
}

/* The line of `key` ("Uid:"), starting at a line's beginning; false when missing. */
static bool find_line(const char *buf, size_t len, const char *key, struct cur *line)
{
	size_t klen = strlen(key);
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if ((size_t)(eol - p) >= klen && !memcmp(p, key, klen)) {
			*line = (struct cur){p + klen, eol};
			return true;
		}
		p = eol + 1;
	}
	return false;
}

/* The numbers of a status line ("NSpid:\t200\t1"): how many, at most max. */
static unsigned int take_i32_list(struct cur c, int32_t *out, unsigned int max, bool *bad)
{
	unsigned int n = 0;

	for (;;) {
		skip_spaces(&c);
		if (c.p >= c.end)
			return n;
		if (n == max || !take_i32(&c, &out[n])) {
			*bad = true;
			return n;
		}
		n++;
	}
}

/* The first number of a status line ("Uid:\t1000\t1000\t1000\t1000"), an id. */
static bool take_first_id(struct cur c, uint32_t *id)
{
	uint64_t v;

	skip_spaces(&c);
	if (!take_u64(&c, 10, &v) || v > UINT32_MAX)
		return false;
	*id = (uint32_t)v;
	return true;
}

int proc_status_parse(const char *buf, size_t len, struct proc_status *st)
{
	struct cur line;
	bool bad = false, found = false;

	memset(st, 0, sizeof(*st));
	if (find_line(buf, len, "Uid:", &line) && take_first_id(line, &st->uid) &&
	    find_line(buf, len, "Gid:", &line) && take_first_id(line, &st->gid)) {
		st->has_ids = true;
		found = true;
	}
	if (find_line(buf, len, "NSpid:", &line)) {
		unsigned int n = take_i32_list(line, st->nspid, PROC_NS_LEVELS, &bad);

		if (!bad && n && find_line(buf, len, "NStgid:", &line) &&
		    take_i32_list(line, st->nstgid, PROC_NS_LEVELS, &bad) == n && !bad) {
			st->nr_levels = n;
			found = true;
		}
	}
	return found ? 0 : -1;
}

int proc_fdinfo_flags(const char *buf, size_t len, uint32_t *flags)
{
	struct cur line;
	uint64_t v;

	if (!find_line(buf, len, "flags:", &line))
		return -1;
	skip_spaces(&line);
	if (!take_u64(&line, 8, &v) || v > UINT32_MAX)
		return -1;
	*flags = (uint32_t)v;
	return 0;
}

int proc_maps_line(const char *line, size_t len, struct proc_map *m)
{
	struct cur c = {line, line + len};
	static const struct {
		char on;
		uint64_t bit;
	} perms[4] = {
	    {'r', PROC_VM_READ}, {'w', PROC_VM_WRITE}, {'x', PROC_VM_EXEC}, {'s', PROC_VM_SHARED}};

	if (!take_u64(&c, 16, &m->start) || c.p >= c.end || *c.p++ != '-' ||
	    !take_u64(&c, 16, &m->end))
		return -1;
	skip_spaces(&c);
	if (c.end - c.p < 4)
		return -1;
	m->flags = 0;
	for (int i = 0; i < 4; i++) {
		char ch = c.p[i];

		if (ch == perms[i].on)
			m->flags |= perms[i].bit;
		else if (ch != '-' && !(i == 3 && ch == 'p'))
			return -1;
	}
	c.p += 4;
	skip_spaces(&c);
	if (!take_u64(&c, 16, &m->pgoff))
		return -1;
	skip_spaces(&c);
	if (!skip_field(&c)) /* the device, major:minor */
		return -1;
	skip_spaces(&c);
	return take_u64(&c, 10, &m->inode) ? 0 : -1;
}

uint32_t proc_idmap_inside(const char *buf, size_t len, uint32_t outside)
{
	struct cur c = {buf, buf + len};

	while (c.p < c.end) {
		uint64_t in, out, count;

		skip_spaces(&c);
		if (take_u64(&c, 10, &in) && (skip_spaces(&c), take_u64(&c, 10, &out)) &&
		    (skip_spaces(&c), take_u64(&c, 10, &count)) && outside >= out &&
		    outside - out < count && in + (outside - out) <= UINT32_MAX)
			return (uint32_t)(in + (outside - out));
		const char *nl = memchr(c.p, '\n', (size_t)(c.end - c.p));

		if (!nl)
			break;
		c.p = nl + 1;
	}
	return 65534;
}

uint32_t proc_ns_inum(const char *link, size_t len, const char *kind)
{
	size_t klen = strlen(kind);
	struct cur c;
	uint64_t v;

	if (len < klen + 3 || memcmp(link, kind, klen) || link[klen] != ':' ||
	    link[klen + 1] != '[')
		return 0;
	c = (struct cur){link + klen + 2, link + len};
	if (!take_u64(&c, 10, &v) || v > UINT32_MAX || c.p + 1 != c.end || *c.p != ']')
		return 0;
	return (uint32_t)v;
}

int proc_partitions_line(const char *line, size_t len, struct proc_partition *p)
{
	struct cur c = {line, line + len};
	uint64_t major, minor;
	const char *name;

	skip_spaces(&c);
	if (!take_u64(&c, 10, &major) || major > 0xfff)
		return -1;
	skip_spaces(&c);
	if (!take_u64(&c, 10, &minor) || minor > 0xfffff)
		return -1;
	skip_spaces(&c);
	if (!take_u64(&c, 10, &p->blocks))
		return -1;
	skip_spaces(&c);
	name = c.p;
	if (!skip_field(&c) || (size_t)(c.p - name) >= sizeof(p->name) ||
	    memchr(name, '\0', (size_t)(c.p - name)))
		return -1;
	skip_spaces(&c);
	if (c.p < c.end && *c.p != '\n')
		return -1;
	p->major = (uint32_t)major;
	p->minor = (uint32_t)minor;
	copy_padded(p->name, sizeof(p->name), name, (size_t)(c.p - name));
	return 0;
}

/*
 * A cpuinfo line "key<tabs>: value": false when the line is not one; key
 * and value have no blanks around them.
 */
static bool cpuinfo_pair(struct cur line, struct cur *key, struct cur *val)
{
	const char *colon = memchr(line.p, ':', (size_t)(line.end - line.p));
	const char *kend;

	if (!colon)
		return false;
	kend = colon;
	while (kend > line.p && is_space(kend[-1]))
		kend--;
	*key = (struct cur){line.p, kend};
	*val = (struct cur){colon + 1, line.end};
	skip_spaces(val);
	while (val->end > val->p && is_space(val->end[-1]))
		val->end--;
	return true;
}

static bool key_is(struct cur key, const char *name)
{
	size_t n = strlen(name);

	return (size_t)(key.end - key.p) == n && !memcmp(key.p, name, n);
}

static void take_text(struct cur val, char *dst, size_t cap)
{
	copy_padded(dst, cap, val.p, (size_t)(val.end - val.p));
}

static void take_int(struct cur val, int32_t *dst)
{
	int32_t v;

	if (take_i32(&val, &v) && val.p == val.end)
		*dst = v;
}

int proc_cpuinfo_next(const char *buf, size_t len, size_t *pos, struct proc_cpu *cpu)
{
	const char *p = buf + *pos, *end = buf + len;
	bool in_block = false;

	if (*pos > len)
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct cur line = {p, nl ? nl : end}, key, val;

		p = nl ? nl + 1 : end;
		if (!cpuinfo_pair(line, &key, &val)) {
			if (in_block) /* a blank line ends the block */
				break;
			continue;
		}
		if (key_is(key, "processor")) {
			if (in_block) { /* no blank line between blocks: this one starts the next */
				p = line.p;
				break;
			}
			memset(cpu, 0, sizeof(*cpu));
			cpu->processor = -1;
			take_int(val, &cpu->processor);
			in_block = cpu->processor >= 0;
		} else if (!in_block) {
			continue;
		} else if (key_is(key, "vendor_id")) {
			take_text(val, cpu->vendor, sizeof(cpu->vendor));
		} else if (key_is(key, "cpu family")) {
			take_int(val, &cpu->family);
		} else if (key_is(key, "model")) {
			take_int(val, &cpu->model);
		} else if (key_is(key, "model name")) {
			take_text(val, cpu->model_name, sizeof(cpu->model_name));
		} else if (key_is(key, "physical id")) {
			take_int(val, &cpu->physical_id);
		} else if (key_is(key, "core id")) {
			take_int(val, &cpu->core_id);
		} else if (key_is(key, "cpu cores")) {
			take_int(val, &cpu->cores);
		}
	}
	*pos = (size_t)(p - buf);
	return in_block;
}

unsigned int proc_interrupts_ncpus(const char *line, size_t len)
{
	struct cur c = {line, line + len};
	unsigned int n = 0;

	for (;;) {
		skip_spaces(&c);
		if (c.end - c.p < 4 || memcmp(c.p, "CPU", 3))
			return n;
		c.p += 3;
		uint64_t id;

		if (!take_u64(&c, 10, &id))
			return n;
		n++;
	}
}

int proc_interrupts_line(const char *line, size_t len, unsigned int ncpus,
			 struct proc_irq_line *irq)
{
	struct cur c = {line, line + len};
	uint64_t v;
	const char *chip;

	if (c.end > c.p && c.end[-1] == '\n')
		c.end--;
	skip_spaces(&c);
	if (!take_u64(&c, 10, &v) || v > UINT32_MAX || c.p >= c.end || *c.p++ != ':')
		return -1;
	irq->irq = (uint32_t)v;
	for (unsigned int i = 0; i < ncpus; i++) {
		skip_spaces(&c);
		if (!take_u64(&c, 10, &v))
			return -1;
	}
	skip_spaces(&c);
	chip = c.p;
	if (!skip_field(&c))
		return -1;
	copy_padded(irq->chip, sizeof(irq->chip), chip, (size_t)(c.p - chip));
	/* the hardware irq number and the flow's name ("4-edge"), when shown */
	skip_spaces(&c);
	if (c.p < c.end && ((*c.p >= '0' && *c.p <= '9') || *c.p == '-'))
		skip_field(&c);
	skip_spaces(&c);
	irq->actions = c.p;
	irq->actions_len = (size_t)(c.end - c.p);
	return 0;
}
