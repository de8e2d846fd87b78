/*
 * test_kernel_sc_guard.c - the guards the system call probes check before
 * recording (syscall-guard.c), against the LTTng filters they come from:
 * random expressions over a call's fields (integers of each width and
 * sign from registers, the return value, a string, $ctx.tid,
 * $ctx.pid and $ctx.procname; edge constants), one or two rules, on random records (edge
 * register values with high bits a 32-bit field drops, 32-bit calls whose
 * registers hold 32 bits). For each record the LTTng filter runs as traxd
 * runs it (sc_payload, then kfilter_run) and the guards as the probes
 * check them (syscalls-abi.h's sc_guard_cast and sc_guard_holds, the
 * source picked as syscalls.bpf.c picks it). Whatever the filter accepts
 * the guards must accept; a lone comparison of an integer field with a
 * constant must be exact; and the guards must reject a good part of what
 * the filters reject (they are worth their cost).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filter/filter.h"
#include "kernel/kfilter.h"
#include "kernel/kfpush.h"
#include "kernel/syscall-table.h"

static const char *const args[][2] = {
    {"int", "a"},  {"unsigned int", "b"}, {"size_t", "c"},
    {"long", "d"}, {"umode_t", "e"},	  {"const char *", "filename"},
};
#define NARGS 6

static const char *const int_consts[] = {"0",
					 "1",
					 "-1",
					 "2",
					 "100",
					 "127",
					 "128",
					 "-129",
					 "65535",
					 "65536",
					 "2147483647",
					 "-2147483648",
					 "2147483648",
					 "4294967295",
					 "4294967296",
					 "0x7fff",
					 "-9223372036854775808",
					 "9223372036854775807",
					 "-5",
					 "1000"};
#define NCONSTS (sizeof(int_consts) / sizeof(int_consts[0]))

static const int64_t edge_values[] = {0,
				      1,
				      -1,
				      2,
				      100,
				      127,
				      128,
				      -129,
				      65535,
				      65536,
				      2147483647,
				      -2147483648LL,
				      2147483648LL,
				      4294967295LL,
				      4294967296LL,
				      0x7fff,
				      INT64_MIN,
				      INT64_MAX,
				      -5,
				      1000,
				      0x100000005LL,
				      (int64_t)0xffffffff00000064ULL};
#define NEDGES (sizeof(edge_values) / sizeof(edge_values[0]))

static const char *const cmps[] = {"==", "!=", "<", ">", "<=", ">="};

static unsigned int rnd(unsigned int n)
{
	return (unsigned int)rand() % n;
}

struct out {
	char buf[2048];
	size_t len;
};

static void emit(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len + n < sizeof(o->buf)) {
		memcpy(o->buf + o->len, s, n + 1);
		o->len += n;
	}
}

/* An integer operand: a field of the event (or ret, which an entry lacks), or a context. */
static const char *int_operand(void)
{
	static const char *const names[] = {"a", "b", "c", "d", "e", "ret", "$ctx.tid", "$ctx.pid"};

	return names[rnd(sizeof(names) / sizeof(names[0]))];
}

static void atom(struct out *o)
{
	switch (rnd(11)) {
	case 0:
		emit(o, rnd(2) ? "filename == \"abc\"" : "filename != \"x*\"");
		return;
	case 9: { /* the thread's name */
		static const char *const names[] = {"$ctx.procname == \"abc\"",
						    "$ctx.procname == \"ab*\"",
						    "\"xyz\" != $ctx.procname",
						    "$ctx.procname == \"*c\"",
						    "$ctx.procname == \"0123456789abcde\"",
						    "$ctx.procname == \"0123456789abcdef*\"",
						    "$ctx.procname == \"\"",
						    "$ctx.procname == \"a\\\\*\""};

		emit(o, names[rnd(sizeof(names) / sizeof(names[0]))]);
		return;
	}
	case 1: /* an integer's truth */
		emit(o, int_operand());
		return;
	case 2: /* a constant first */
		emit(o, int_consts[rnd(NCONSTS)]);
		emit(o, " ");
		emit(o, cmps[rnd(6)]);
		emit(o, " ");
		emit(o, int_operand());
		return;
	case 3: /* what the probes cannot check */
		emit(o, rnd(2) ? "(a & 4) == 4" : "c == d");
		return;
	default:
		emit(o, int_operand());
		emit(o, " ");
		emit(o, cmps[rnd(6)]);
		emit(o, " ");
		emit(o, int_consts[rnd(NCONSTS)]);
		return;
	}
}

static void expr(struct out *o, int depth)
{
	if (!depth || rnd(3) == 0) {
		if (rnd(6) == 0)
			emit(o, "!");
		emit(o, "(");
		atom(o);
		emit(o, ")");
		return;
	}
	if (rnd(5) == 0) {
		emit(o, "!(");
		expr(o, depth - 1);
		emit(o, ")");
		return;
	}
	emit(o, "(");
	expr(o, depth - 1);
	emit(o, rnd(2) ? " && " : " || ");
	expr(o, depth - 1);
	emit(o, ")");
}

/* A record of ev (registers of 32 bits for a 32-bit call), its captures after it. */
static size_t make_record(const struct sc_event *ev, uint8_t *buf, size_t cap)
{
	struct sc_rec r;
	size_t off = sizeof(r);

	memset(&r, 0, sizeof(r));
	for (int i = 0; i < SC_MAX_ARGS; i++) {
		uint64_t v = (uint64_t)edge_values[rnd(NEDGES)];

		r.args[i] = ev->compat ? (uint32_t)v : v;
	}
	r.ret = edge_values[rnd(NEDGES)];
	/* a thread that makes calls: 1 to pid_max's limit (4194304) */
	r.tid = rnd(3) ? (uint32_t)(1 + rnd(200)) : rnd(2) ? 4194304u : 1u + rnd(4194304);
	r.tgid = rnd(3) ? (uint32_t)(1 + rnd(200)) : rnd(2) ? 1u : 1u + rnd(4194304);
	r.flags = (ev->compat ? SC_REC_COMPAT : 0) | SC_REC_COMM;
	{
		static const char *const comms[] = {"abc", "abcd",	     "ab", "xyz", "",
						    "a*",  "0123456789abcde"};

		/* a task's name, NUL-padded as the kernel keeps it */
		snprintf(r.comm, sizeof(r.comm), "%s",
			 comms[rnd(sizeof(comms) / sizeof(comms[0]))]);
	}
	memcpy(buf, &r, sizeof(r));
	for (int a = 0; a < SC_MAX_ARGS; a++) {
		static const char *const strs[] = {"abc", "xyz", ""};
		const char *s = strs[rnd(3)];
		uint16_t n = (uint16_t)(strlen(s) + 1);

		if (ev->cap[a] == SC_CAP_NONE)
			continue;
		if (off + 2 + n > cap)
			break;
		memcpy(buf + off, &n, 2);
		memcpy(buf + off + 2, s, n);
		off += 2u + n;
	}
	((struct sc_rec *)buf)->size = (uint16_t)off;
	return off;
}

/* The guards as the probes check them. */
static int guards_pass(int kind, const struct sc_guard_set *set, const struct sc_rec *r)
{
	if (kind == SC_GUARDS_ALL)
		return 1;
	if (kind == SC_GUARDS_NONE)
		return 0;
	for (unsigned int i = 0; i < set->n; i++) {
		const struct sc_guard *g = &set->g[i];
		uint64_t v;

		CHECK(g->nranges >= 1 && g->nranges <= SC_GUARD_RANGES, "guard with %u ranges",
		      g->nranges);
		if (g->src == SC_GUARD_COMM) {
			uint64_t w[2];

			memcpy(w, r->comm, 16);
			if ((w[0] & (uint64_t)g->hi[0]) != (uint64_t)g->lo[0] ||
			    (w[1] & (uint64_t)g->hi[1]) != (uint64_t)g->lo[1])
				return 0;
			continue;
		}
		switch (g->src) {
		case SC_GUARD_RET:
			v = (uint64_t)r->ret;
			break;
		case SC_GUARD_TID:
			v = r->tid;
			break;
		case SC_GUARD_TGID:
			v = r->tgid;
			break;
		default:
			CHECK(g->src < SC_MAX_ARGS, "guard source %u", g->src);
			v = r->args[g->src % SC_MAX_ARGS];
			break;
		}
		if (!sc_guard_holds(g, sc_guard_cast(g, v)))
			return 0;
	}
	return 1;
}

/* Whether text is one comparison of an integer field of the event with a constant. */
static bool lone_comparison(const char *text, const struct sc_event *ev)
{
	char f[32], op[4];
	long long k;
	int n = 0;

	if (!strcmp(text, "($ctx.procname == \"abc\")") ||
	    !strcmp(text, "($ctx.procname == \"ab*\")"))
		return true; /* a name, a prefix: exact too */
	if (sscanf(text, "(%31[a-z$.] %3[=!<>] %lli)%n", f, op, &k, &n) != 3 || text[n])
		return false;
	for (unsigned int i = 0; i < ev->nfields; i++)
		if (!strcmp(ev->fields[i].name, f) && ev->fields[i].type.kind == CTFW_TYPE_INTEGER)
			return true;
	return !strcmp(f, "$ctx.tid") || !strcmp(f, "$ctx.pid");
}

struct rule {
	uint8_t *code;
	size_t len;
	struct kfilter *kf;
	char text[2048];
};

static int rule_new(struct rule *r, const struct sc_event *ev)
{
	struct out o = {.len = 0};
	struct filter_error fe;

	o.buf[0] = 0;
	expr(&o, 3);
	snprintf(r->text, sizeof(r->text), "%s", o.buf);
	if (filter_compile(o.buf, &r->code, &r->len, &fe)) {
		CHECK(0, "cannot compile [%s]: %s", o.buf, fe.msg);
		return -1;
	}
	r->kf = kfilter_new(r->code, r->len, &ev->kc.cls);
	return 0;
}

static void rule_free(struct rule *r)
{
	kfilter_free(r->kf);
	free(r->code);
}

int main(void)
{
	unsigned int exprs = 0, some = 0, none = 0, records = 0, rejected = 0, guard_rejected = 0;
	struct sc_call c;
	unsigned int fallback = 0;

	srand(17);
	memset(&c, 0, sizeof(c));
	c.name = strdup("trax_guard_test");
	c.nr = 400; /* past LTTng's in/out table: every argument in both events */
	c.nargs = NARGS;
	for (int i = 0; i < NARGS; i++) {
		c.arg_type[i] = strdup(args[i][0]);
		c.arg_name[i] = strdup(args[i][1]);
	}
	CHECK_EQ(sc_call_build(&c, &fallback), 0);
	CHECK_EQ(fallback, 0);

	for (int compat = 0; compat < 2; compat++)
		for (int dir = 0; dir < 2; dir++) {
			struct sc_event *ev = &c.ev[dir];

			ev->compat = compat;
			for (int i = 0; i < 1500; i++) {
				struct rule rules[2];
				struct kfpush_rule kr[2];
				struct sc_guard_set set;
				unsigned int n = rnd(4) ? 1 : 2;
				bool lone;
				int kind;

				for (unsigned int k = 0; k < n; k++) {
					if (rule_new(&rules[k], ev))
						return CHECK_RESULT();
					kr[k] = (struct kfpush_rule){rules[k].code, rules[k].len,
								     rules[k].kf != NULL};
				}
				lone = n == 1 && lone_comparison(rules[0].text, ev);
				kind = sc_guard_derive(ev, kr, n, &set);
				exprs++;
				some += kind == SC_GUARDS_SOME;
				none += kind == SC_GUARDS_NONE;
				for (int j = 0; j < 40; j++) {
					uint8_t rec[512], pay[SC_PAYLOAD_MAX];
					size_t rl = make_record(ev, rec, sizeof(rec));
					const struct sc_rec *r = (const struct sc_rec *)rec;
					long pl = sc_payload(ev, r, rl, pay, sizeof(pay));
					int lttng = 0, guard;

					CHECK(pl >= 0, "%s: no payload", ev->name);
					for (unsigned int k = 0; k < n; k++) {
						struct kfilter_env env = {.tid = (int32_t)r->tid,
									  .pid = (int32_t)r->tgid,
									  .comm = r->comm};

						lttng |=
						    rules[k].kf &&
						    kfilter_run(rules[k].kf, pay, (size_t)pl, &env);
					}
					guard = guards_pass(kind, &set, r);
					records++;
					rejected += !lttng;
					guard_rejected += !guard;
					CHECK(!lttng || guard,
					      "%s%s: the guards reject a record [%s]%s%s accepts "
					      "(a=%llx ret=%lld tid=%u)",
					      compat ? "compat " : "", ev->name, rules[0].text,
					      n > 1 ? " || " : "", n > 1 ? rules[1].text : "",
					      (unsigned long long)r->args[0], (long long)r->ret,
					      r->tid);
					if (lone)
						CHECK(
						    lttng == guard,
						    "%s%s: [%s] alone, yet the guards say %d, the "
						    "filter %d (a=%llx b=%llx c=%llx d=%llx "
						    "e=%llx)",
						    compat ? "compat " : "", ev->name,
						    rules[0].text, guard, lttng,
						    (unsigned long long)r->args[0],
						    (unsigned long long)r->args[1],
						    (unsigned long long)r->args[2],
						    (unsigned long long)r->args[3],
						    (unsigned long long)r->args[4]);
					if (failures > 20)
						return CHECK_RESULT();
				}
				for (unsigned int k = 0; k < n; k++)
					rule_free(&rules[k]);
			}
		}
	printf("%u expressions: %u with guards, %u never recorded; %u records, %u rejected by "
	       "the filters, %u by the guards\n",
	       exprs, some, none, records, rejected, guard_rejected);
	CHECK(some > exprs / 4, "only %u of %u expressions have guards", some, exprs);
	CHECK(guard_rejected > rejected / 3,
	      "the guards reject %u of the %u records the filters do", guard_rejected, rejected);
	sc_call_free(&c);
	return CHECK_RESULT();
}
