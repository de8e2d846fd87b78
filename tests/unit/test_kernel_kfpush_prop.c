/*
 * test_kernel_kfpush_prop.c - the kernel filters kfpush writes, checked
 * against the LTTng filter they stand for on many records: random
 * expressions over three events' fields (edge constants: widths, signs,
 * priorities, patterns, strings as long as their arrays), random kernel
 * records (edge values: INT_MIN, 2^63, names without their NUL...). For
 * each record, the LTTng filter runs as traxd runs it (kmap_convert, then
 * kfilter_run) and the kernel text is evaluated here as the kernel's
 * trace_events_filter.c evaluates it (its comparisons in the field's C
 * type, strncmp over the field's size, its prefix and glob matchers).
 * Whatever the LTTng filter accepts, the kernel filter must accept; when
 * the translation says it is exact, the two must agree on every record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filter/filter.h"
#include "kernel/kfilter.h"
#include "kernel/kfpush.h"
#include "kernel/kmap.h"
#include "kernel/tp-format.h"

#define COMMON                                                                                     \
	"name: %s\nID: %d\nformat:\n"                                                              \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define F(decl, off, size, sgn)                                                                    \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sgn ";\n"

struct event_def {
	const char *system, *name, *fmt;
	const char *int_fields[8];
	const char *str_fields[4];
};

static const struct event_def defs[] = {
    {"sched",
     "sched_switch",
     COMMON F("char prev_comm[16]", 8, 16, 0) F("pid_t prev_pid", 24, 4, 1)
	 F("int prev_prio", 28, 4, 1) F("long prev_state", 32, 8, 1)
	     F("char next_comm[16]", 40, 16, 0) F("pid_t next_pid", 56, 4, 1)
		 F("int next_prio", 60, 4, 1),
     {"prev_tid", "prev_prio", "prev_state", "next_tid", "next_prio", "$ctx.tid", "$ctx.cpu_id"},
     {"prev_comm", "next_comm", "$ctx.procname"}},
    {"kmem",
     "kmalloc",
     COMMON F("unsigned long call_site", 8, 8, 0) F("const void * ptr", 16, 8, 0)
	 F("size_t bytes_req", 24, 8, 0) F("size_t bytes_alloc", 32, 8, 0)
	     F("unsigned long gfp_flags", 40, 8, 0) F("int node", 48, 4, 1),
     {"call_site", "bytes_req", "gfp_flags", "node", "accounted", "ptr", "$ctx.cpu_id"},
     {"$ctx.procname"}},
    {"test",
     "gen",
     COMMON F("char tag[4]", 8, 4, 0) F("unsigned char small", 12, 1, 0)
	 F("signed char tiny", 13, 1, 1) F("__data_loc char[] label", 16, 4, 0)
	     F("unsigned int flags", 20, 4, 0) F("u64 big", 24, 8, 0) F("short half", 32, 2, 1),
     {"small", "tiny", "flags", "big", "half", "$ctx.cpu_id"},
     {"tag", "label", "$ctx.procname"}},
};
#define NR_DEFS (sizeof(defs) / sizeof(defs[0]))

static const char *const int_consts[] = {"0",
					 "1",
					 "-1",
					 "2",
					 "5",
					 "20",
					 "100",
					 "120",
					 "127",
					 "128",
					 "255",
					 "256",
					 "-128",
					 "-129",
					 "32767",
					 "-32768",
					 "65535",
					 "2147483647",
					 "-2147483648",
					 "2147483648",
					 "-2147483649",
					 "4294967295",
					 "4294967296",
					 "0x400000",
					 "0xffffffff81000000",
					 "9223372036854775807",
					 "-9223372036854775808",
					 "4096"};
static const char *const str_consts[] = {"\"bash\"",
					 "\"kfp-ping\"",
					 "\"kfp*\"",
					 "\"*sh\"",
					 "\"b*h\"",
					 "\"\"",
					 "\"*\"",
					 "\"0123456789abcdef\"",
					 "\"0123456789abcdefX\"",
					 "\"ab*\"",
					 "\"abcd\"",
					 "\"abcd*\"",
					 "\"a\\*b*\"",
					 "\"x'y\"",
					 "\"*?*\"",
					 "\"1*\"",
					 "\"!b*\""};
static const char *const cmps[] = {"==", "!=", "<", ">", "<=", ">="};

static const int64_t int_values[] = {0,
				     1,
				     -1,
				     2,
				     5,
				     20,
				     99,
				     100,
				     120,
				     127,
				     128,
				     255,
				     4096,
				     0x400000,
				     0x400010,
				     INT32_MAX,
				     INT32_MIN,
				     INT32_MIN + 50,
				     (int64_t)0xffffffff81000000ull,
				     INT64_MIN,
				     INT64_MAX,
				     0x100000000ll};
static const char *const str_values[] = {"bash", "kfp-ping", "sh",  "",	   "0123456789abcdef",
					 "abcd", "ab",	     "a*b", "x'y", "b?h",
					 "1x",	 "!bx",	     "kfp"};

static unsigned long long seed = 88172645463325252ull;

static unsigned int rnd(unsigned int n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned int)(seed % n);
}

#define PICK(a) (a[rnd(sizeof(a) / sizeof(a[0]))])

static int count(const char *const *a, unsigned int max)
{
	int n = 0;

	while (n < (int)max && a[n])
		n++;
	return n;
}

struct out {
	char buf[2048];
	size_t len;
};

static void put(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len + n < sizeof(o->buf)) {
		memcpy(o->buf + o->len, s, n + 1);
		o->len += n;
	}
}

static void leaf(struct out *o, const struct event_def *d)
{
	int ni = count(d->int_fields, 8), ns = count(d->str_fields, 4);
	const char *f;

	if (ns && rnd(3) == 0) {
		put(o, d->str_fields[rnd((unsigned int)ns)]);
		put(o, rnd(2) ? " == " : " != ");
		put(o, PICK(str_consts));
		return;
	}
	f = d->int_fields[rnd((unsigned int)ni)];
	switch (rnd(7)) {
	case 0: /* a mask */
		put(o, "(");
		put(o, f);
		put(o, " & ");
		put(o, PICK(int_consts));
		put(o, rnd(2) ? ") == " : ") != ");
		put(o, PICK(int_consts));
		return;
	case 1: /* truth */
		put(o, f);
		return;
	case 2: /* what does not translate */
		put(o, f);
		put(o, " == ");
		put(o, d->int_fields[rnd((unsigned int)ni)]);
		return;
	case 3: /* constant first */
		put(o, PICK(int_consts));
		put(o, " ");
		put(o, PICK(cmps));
		put(o, " ");
		put(o, f);
		return;
	default:
		put(o, f);
		put(o, " ");
		put(o, PICK(cmps));
		put(o, " ");
		put(o, PICK(int_consts));
		return;
	}
}

/* A random LTTng expression over d's fields. */
static void expr(struct out *o, const struct event_def *d, int depth)
{
	unsigned int k = depth > 0 ? rnd(5) : 0;

	switch (k) {
	case 0:
	case 1:
		leaf(o, d);
		return;
	case 2:
		put(o, "!(");
		expr(o, d, depth - 1);
		put(o, ")");
		return;
	default:
		put(o, "(");
		expr(o, d, depth - 1);
		put(o, k == 3 ? ") && (" : ") || (");
		expr(o, d, depth - 1);
		put(o, ")");
		return;
	}
}

/* ---- a random kernel record ---- */

static size_t make_record(const struct tp_event *ev, uint8_t *rec, size_t cap)
{
	size_t end = ev->size;

	memset(rec, 0, cap);
	memcpy(rec, &(uint16_t){(uint16_t)ev->id}, 2);
	for (unsigned int i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (i < ev->nr_common && (int)i != ev->common_pid)
			continue;
		if (f->kind == TP_FIELD_SCALAR) {
			int64_t v = PICK(int_values);

			memcpy(rec + f->offset, &v, f->size); /* little-endian: the low bytes */
		} else if (f->kind == TP_FIELD_ARRAY && f->is_char) {
			const char *s = PICK(str_values);
			size_t n = strlen(s), nl = strlen(f->name);
			/* task names end with their NUL; other arrays may be full */
			size_t room =
			    nl >= 4 && !strcmp(f->name + nl - 4, "comm") ? f->size - 1 : f->size;

			memcpy(rec + f->offset, s, n < room ? n : room);
		} else if (f->kind == TP_FIELD_DATA_LOC) {
			const char *s = PICK(str_values);
			uint32_t n = (uint32_t)strlen(s) + 1, loc = (n << 16) | (uint32_t)end;

			memcpy(rec + end, s, n);
			memcpy(rec + f->offset, &loc, 4);
			end += n;
		}
	}
	return end;
}

/* ---- the kernel's evaluation of its filter text ---- */

struct kparse {
	const char *p;
	const struct tp_event *ev;
	const uint8_t *rec;
	const char *comm; /* the kernel's COMM: the current task's name (16 bytes) */
	int32_t cpu;	  /* its common_cpu */
	int error;
};

static void skip_ws(struct kparse *k)
{
	while (*k->p == ' ')
		k->p++;
}

/* glob_match() of lib/glob.c as far as kfpush uses it: '*', and '\' escapes. */
static int glob(const char *pat, const char *str)
{
	if (!*pat)
		return !*str;
	if (*pat == '*') {
		for (const char *s = str;; s++) {
			if (glob(pat + 1, s))
				return 1;
			if (!*s)
				return 0;
		}
	}
	if (*pat == '\\')
		pat++;
	return *str && *str == *pat && glob(pat + 1, str + 1);
}

static int pred(struct kparse *k)
{
	char name[64], lit[600];
	size_t n = 0;
	const struct tp_field *f;
	char op[3] = {0};

	struct tp_field special;
	const uint8_t *base = k->rec;

	skip_ws(k);
	while ((*k->p >= 'a' && *k->p <= 'z') || (*k->p >= 'A' && *k->p <= 'Z') ||
	       (*k->p >= '0' && *k->p <= '9') || *k->p == '_')
		name[n++] = *k->p++;
	name[n] = 0;
	f = tp_event_field(k->ev, name);
	/* the kernel's generic fields, after the event's own (none of these three has one) */
	if (!f && !strcmp(name, "COMM")) {
		special = (struct tp_field){.kind = TP_FIELD_ARRAY, .is_char = true, .size = 16};
		f = &special;
		base = (const uint8_t *)k->comm;
	} else if (!f && !strcmp(name, "common_cpu")) {
		special = (struct tp_field){.kind = TP_FIELD_SCALAR, .size = 4, .is_signed = true};
		f = &special;
		base = (const uint8_t *)&k->cpu;
	}
	if (!f) {
		k->error = 1;
		return 0;
	}
	skip_ws(k);
	op[0] = *k->p++;
	if (*k->p == '=')
		op[1] = *k->p++;
	skip_ws(k);
	if (*k->p == '"' || *k->p == '\'') {
		char q = *k->p++;
		const char *s = k->p;
		const uint8_t *str;
		uint32_t len;

		while (*k->p && *k->p != q)
			k->p++;
		memcpy(lit, s, (size_t)(k->p - s));
		lit[k->p - s] = 0;
		k->p++;
		if (f->kind == TP_FIELD_DATA_LOC) {
			if (tp_field_dyn(f, k->rec, 256, &str, &len)) {
				k->error = 1;
				return 0;
			}
		} else {
			str = base + f->offset;
			len = f->size;
		}
		if (!strcmp(op, "~")) {
			if (!strpbrk(lit, "\\?[")) { /* "abc*": the prefix matcher */
				size_t pl = strlen(lit) - 1;

				if (lit[pl] != '*' || strchr(lit, '*') != lit + pl) {
					k->error = 1;
					return 0;
				}
				if (len && len < pl)
					return 0;
				return strncmp((const char *)str, lit, pl) == 0;
			}
			return glob(lit, (const char *)str);
		}
		n = strncmp((const char *)str, lit, len) == 0;
		return !strcmp(op, "==") ? (int)n : !n;
	}
	{
		char *end;
		int64_t sv;
		uint64_t uv, raw = 0;

		memcpy(&raw, base + f->offset, f->size);
		if (f->is_signed) {
			sv = strtoll(k->p, &end, 0);
			uv = (uint64_t)sv;
		} else {
			uv = strtoull(k->p, &end, 0);
		}
		k->p = end;
		/* in the field's type, the constant cast to it */
		unsigned int bits = f->size * 8;
		uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
		uint64_t a = raw & mask, b = uv & mask;
		int lt, eq = a == b;

		if (!strcmp(op, "&"))
			return (a & b) != 0;
		if (f->is_signed) {
			int64_t as = (int64_t)(a << (64 - bits)) >> (64 - bits);
			int64_t bs = (int64_t)(b << (64 - bits)) >> (64 - bits);

			lt = as < bs;
		} else {
			lt = a < b;
		}
		if (!strcmp(op, "=="))
			return eq;
		if (!strcmp(op, "!="))
			return !eq;
		if (!strcmp(op, "<"))
			return lt;
		if (!strcmp(op, "<="))
			return lt || eq;
		if (!strcmp(op, ">"))
			return !lt && !eq;
		if (!strcmp(op, ">="))
			return !lt;
		k->error = 1;
		return 0;
	}
}

static int kor(struct kparse *k);

static int kunary(struct kparse *k)
{
	skip_ws(k);
	if (*k->p == '!') {
		k->p++;
		return !kunary(k);
	}
	if (*k->p == '(') {
		int v;

		k->p++;
		v = kor(k);
		skip_ws(k);
		if (*k->p++ != ')')
			k->error = 1;
		return v;
	}
	return pred(k);
}

static int kand(struct kparse *k)
{
	int v = kunary(k);

	for (;;) {
		skip_ws(k);
		if (k->p[0] != '&' || k->p[1] != '&')
			return v;
		k->p += 2;
		v = kunary(k) && v; /* no short cut: the whole text is parsed */
	}
}

static int kor(struct kparse *k)
{
	int v = kand(k);

	for (;;) {
		skip_ws(k);
		if (k->p[0] != '|' || k->p[1] != '|')
			return v;
		k->p += 2;
		v = kand(k) || v;
	}
}

static int kernel_eval(const char *text, const struct tp_event *ev, const uint8_t *rec,
		       const char *comm, int32_t cpu)
{
	struct kparse k = {.p = text, .ev = ev, .rec = rec, .comm = comm, .cpu = cpu};
	int v = kor(&k);

	CHECK(!k.error && !*k.p, "the kernel would not read [%s] (at [%s])", text, k.p);
	return v;
}

int main(void)
{
	unsigned int exprs = 0, exact = 0, pushed = 0, records = 0;

	for (unsigned int di = 0; di < NR_DEFS; di++) {
		const struct event_def *d = &defs[di];
		struct tp_event ev;
		struct kmap_event *m;
		char text[4096], err[200];
		int n = snprintf(text, sizeof(text), d->fmt, d->name, 100 + (int)di);

		if (tp_format_parse(&ev, d->system, text, (size_t)n, err, sizeof(err)) ||
		    !(m = kmap_event_new(&ev, err, sizeof(err)))) {
			CHECK(0, "%s: %s", d->name, err);
			continue;
		}
		for (int i = 0; i < 1500; i++) {
			struct out o = {.len = 0};
			struct filter_error fe;
			struct kfpush_rule r;
			uint8_t *code;
			size_t len;
			struct kfilter *kf;
			char kt[KFPUSH_MAX_TEXT];
			bool ex;

			o.buf[0] = 0;
			expr(&o, d, 3);
			if (filter_compile(o.buf, &code, &len, &fe)) {
				CHECK(0, "cannot compile [%s]: %s", o.buf, fe.msg);
				continue;
			}
			kf = kfilter_new(code, len, &kmap_event_class(m)->cls);
			r = (struct kfpush_rule){code, len, kf != NULL};
			exprs++;
			if (kfpush_translate(m, &r, 1, kt, sizeof(kt), &ex) == 1) {
				pushed++;
				exact += ex;
				for (int j = 0; j < 60; j++) {
					uint8_t rec[256], pay[1024];
					size_t rl = make_record(&ev, rec, sizeof(rec));
					size_t pl = kmap_convert(m, rec, rl, pay, sizeof(pay));
					int32_t tid;
					struct kfilter_env env = {.cpu = 0};
					char comm[16] = {0};
					const char *name = PICK(str_values);
					int lttng;

					/* $ctx.tid: the record's thread; its name and CPU */
					memcpy(&tid, rec + 4, 4);
					env.tid = tid;
					memcpy(comm, name,
					       strnlen(name, 15)); /* (a task name keeps its NUL) */
					env.comm = comm;
					env.cpu = (int32_t)rnd(3);
					lttng = kf && kfilter_run(kf, pay, pl, &env);
					int kernel = kernel_eval(kt, &ev, rec, comm, env.cpu);

					records++;
					CHECK(!lttng || kernel,
					      "%s: the kernel rejects a record LTTng's [%s] "
					      "accepts: [%s]",
					      d->name, o.buf, kt);
					if (ex)
						CHECK(lttng == kernel,
						      "%s: exact [%s] for [%s], but LTTng %d, "
						      "kernel %d",
						      d->name, kt, o.buf, lttng, kernel);
					if (failures > 20)
						return CHECK_RESULT();
				}
			}
			kfilter_free(kf);
			free(code);
		}
		kmap_event_free(m);
		tp_event_free(&ev);
	}
	printf("%u expressions, %u pushed (%u exact), %u records compared\n", exprs, pushed, exact,
	       records);
	CHECK(pushed > exprs / 3, "only %u of %u expressions pushed", pushed, exprs);
	return CHECK_RESULT();
}
