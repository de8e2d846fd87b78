/*
 * test_decode_prog.c - the compiled decoder (decode-prog.h) against the
 * generic one (decode-field.h): both must read the same bytes the same way.
 *
 * For many metadata snippets (integers of every size at odd bit offsets in
 * both byte orders, enums, floats, strings, nested and empty structs with
 * align(), variants tagged in the same or an earlier scope with simple and
 * complex options, sequences, text and plain arrays, clock-mapped fields),
 * each in a little- and a big-endian trace, thousands of random buffers
 * (deterministic PRNG, random packet limits cutting fields anywhere, random
 * start bits and clock values) are decoded by both paths from the same
 * start, scope after scope and event after event, in four layouts:
 *
 *   single  one program per scope (what ctf_decode_prog_get() builds);
 *   stream  as decode-stream.c: packet header, packet context and event
 *           header alone, the event body (stream.event.context,
 *           event.context, event.fields) in one program;
 *   all     every scope of the chain in one program;
 *   scope   ctf_decode_scope() (the program cache and its fallback).
 *
 * Compared: the status (a program that succeeds where the generic decoder
 * fails, or fails where it succeeds, is a bug; one that gives up must leave
 * c->pos and c->clock as they were, and is then followed by the generic
 * decoder as the reader does), c->pos and c->clock after, and the whole
 * value trees (types, integers, float bits, string pointers and lengths,
 * variant options, list counts and items), or the error (position and
 * message) when both fail; not when a side hit the value pool's limit (the
 * program allocates fewer values). The programs are kept across buffers, as
 * the reader keeps them across events. For every snippet, every program
 * must build and decode some buffers itself, and must never give up where
 * the generic decoder succeeds: the test cannot pass by always giving up.
 * The disagreements found are replayed first as fixed cases (regressions[]).
 *
 * An argument sets the number of buffers per snippet and byte order (3000).
 *
 * tests/fuzz/fuzz_decode_prog.c includes this file with DP_FUZZ defined:
 * it uses the differential engine (everything before the snippets) on
 * fuzzer-made metadata and bytes, and aborts on any disagreement.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/decode-field.h"
#include "reader/decode-prog.h"
#include "reader/tsdl-parser.h"

#ifdef DP_FUZZ
#define CHECK_ABORT /* the fuzz target stops at the first disagreement */
#endif
#include "check.h"

/* ---- the differential engine ---- */

/* Values per side between buffers: bounds arrays of empty structs (and the time they take). */
#define DP_POOL_LIMIT ((uint64_t)1 << 16)

enum dp_layout { DP_SINGLE, DP_STREAM, DP_ALL, DP_SCOPE, DP_LAYOUTS };

static const char *const dp_layout_names[DP_LAYOUTS] = {"single", "stream", "all", "scope"};

/* Scopes decoded one after the other: by one program, or one by one. */
struct dp_group {
	unsigned int n;
	enum ctf_scope scopes[CTF_SCOPE_COUNT];
	const struct ctf_type *types[CTF_SCOPE_COUNT];
	struct ctf_decode_prog *prog; /* NULL: none built (always for DP_SCOPE) */
	unsigned long prog_ok;	      /* decodes the program did itself */
};

struct dp_stats {
	unsigned long buffers;	   /* buffers decoded */
	unsigned long groups;	   /* group decodes compared */
	unsigned long prog_ok;	   /* the program decoded the group */
	unsigned long giveup_ok;   /* it gave up, the generic decoder succeeded */
	unsigned long giveup_fail; /* it gave up, the generic decoder failed */
	unsigned long prog_err;	   /* it failed (-1) as the generic decoder did */
	unsigned long no_prog;	   /* no program: decoded generically on both sides */
	unsigned long skipped;	   /* a side hit the value pool's limit: not comparable */
	unsigned long events;	   /* event bodies both sides decoded (after the first) */
	unsigned long mismatches;
};

/* One way of decoding a chain of scope types (an event of a stream class). */
struct dp_plan {
	enum dp_layout layout;
	enum ctf_byte_order trace_bo;
	unsigned int ngroups;
	unsigned int first_event; /* groups from here on are decoded again per event */
	struct dp_group groups[CTF_SCOPE_COUNT];
	struct ctf_decode_progs *cache; /* DP_SCOPE: the programs ctf_decode_scope() built */
	struct dp_stats st;
};

/* What one buffer decode starts from (the bytes hold exactly ceil(limit / 8) bytes). */
struct dp_input {
	const char *what; /* snippet, for reports */
	const uint8_t *buf;
	uint64_t start, limit, clock;
	unsigned int max_events;
};

struct dp_side {
	struct ctf_decode_ctx c;
	struct ctf_value_pool pool;
};

static struct dp_side dp_gen, dp_prg; /* the generic decoder's side and the program's */
static bool dp_ready;
static unsigned long dp_reported; /* mismatch reports printed (capped) */

/* A disagreement, reported already: counted, or the end of a fuzz run. */
static void dp_fail(void)
{
	failures++;
	check_after_failure();
}

static bool dp_is_event_scope(enum ctf_scope s)
{
	return s >= CTF_SCOPE_EVENT_HEADER;
}

static void dp_group_add(struct dp_plan *plan, bool fresh, enum ctf_scope s,
			 const struct ctf_type *t)
{
	struct dp_group *g;

	if (fresh || plan->ngroups == 0)
		plan->ngroups++;
	g = &plan->groups[plan->ngroups - 1];
	g->scopes[g->n] = s;
	g->types[g->n] = t;
	g->n++;
}

/*
 * The plan of a chain (types[scope], NULL when the scope is absent) in a
 * layout, its programs built. False when some program could not be built.
 */
static bool dp_plan_init(struct dp_plan *plan, enum dp_layout layout,
			 const struct ctf_type *const types[CTF_SCOPE_COUNT],
			 enum ctf_byte_order trace_bo)
{
	bool all_built = true;

	memset(plan, 0, sizeof(*plan));
	plan->layout = layout;
	plan->trace_bo = trace_bo;
	for (unsigned int s = 0; s < CTF_SCOPE_COUNT; s++) {
		bool fresh;

		if (!types[s])
			continue;
		switch (layout) {
		case DP_STREAM:
			fresh = s <= CTF_SCOPE_EVENT_HEADER || plan->ngroups == 0 ||
				plan->groups[plan->ngroups - 1].scopes[0] <= CTF_SCOPE_EVENT_HEADER;
			break;
		case DP_ALL:
			fresh = false;
			break;
		default:
			fresh = true;
			break;
		}
		dp_group_add(plan, fresh, (enum ctf_scope)s, types[s]);
	}
	plan->first_event = plan->ngroups;
	for (unsigned int g = plan->ngroups; g-- > 0;) {
		const struct dp_group *grp = &plan->groups[g];

		if (dp_is_event_scope(grp->scopes[grp->n - 1]))
			plan->first_event = g;
	}
	if (layout == DP_SCOPE)
		return true;
	for (unsigned int g = 0; g < plan->ngroups; g++) {
		struct dp_group *grp = &plan->groups[g];

		grp->prog = ctf_decode_prog_build(grp->types, grp->scopes, grp->n, trace_bo);
		if (!grp->prog)
			all_built = false;
	}
	return all_built;
}

static void dp_plan_free(struct dp_plan *plan)
{
	struct ctf_decode_ctx c = {.progs = plan->cache};

	for (unsigned int g = 0; g < plan->ngroups; g++)
		ctf_decode_prog_free(plan->groups[g].prog);
	ctf_decode_ctx_release(&c);
	plan->cache = NULL;
}

/* The generic decoder over the group's scopes, as ctf_decode_scope() does without a program. */
static int dp_generic(struct ctf_decode_ctx *c, const struct dp_group *grp)
{
	for (unsigned int i = 0; i < grp->n; i++) {
		struct ctf_value *root = ctf_value_pool_alloc(c->pool, 1);

		if (!root) {
			snprintf(c->err, sizeof(c->err), "out of memory (root)");
			c->err_pos = c->pos;
			return -1;
		}
		root->type = grp->types[i];
		root->u.list.items = NULL;
		root->u.list.count = 0;
		c->roots[grp->scopes[i]] = root;
		if (ctf_decode_field(c, grp->types[i], root))
			return -1;
	}
	return 0;
}

/* Errors of the value pool's limit: the sides allocate differently, so they may differ. */
static bool dp_pool_error(const struct ctf_decode_ctx *c)
{
	return strstr(c->err, "one event") || strstr(c->err, "out of memory");
}

static bool dp_in_buf(const struct dp_input *in, const char *p)
{
	const uint8_t *u = (const uint8_t *)p;

	return u >= in->buf && u <= in->buf + (in->limit + 7) / 8;
}

/*
 * Whether two value trees are the same; on a difference, why[] says where
 * (the path of field, option and element indexes from the root) and what.
 */
static bool dp_same(const struct ctf_value *a, const struct ctf_value *b, const struct dp_input *in,
		    char *path, size_t plen, char *why, size_t wlen)
{
	size_t used = strlen(path);
	const struct ctf_type *t = a->type;

	if (a->type != b->type) {
		snprintf(why, wlen, "%s: type %p (kind %d) vs %p (kind %d)", path, (void *)a->type,
			 a->type ? (int)a->type->kind : -1, (void *)b->type,
			 b->type ? (int)b->type->kind : -1);
		return false;
	}
	if (!t) {
		snprintf(why, wlen, "%s: no type", path);
		return false;
	}
	switch (t->kind) {
	case CTF_TYPE_INTEGER:
	case CTF_TYPE_ENUM:
		if (a->u.u != b->u.u) {
			snprintf(why, wlen, "%s: integer 0x%llx vs 0x%llx", path,
				 (unsigned long long)a->u.u, (unsigned long long)b->u.u);
			return false;
		}
		return true;
	case CTF_TYPE_FLOAT:
		if (memcmp(&a->u.d, &b->u.d, sizeof(double))) {
			snprintf(why, wlen, "%s: float %a vs %a", path, a->u.d, b->u.d);
			return false;
		}
		return true;
	case CTF_TYPE_STRING:
		if (a->u.str.ptr != b->u.str.ptr || a->u.str.len != b->u.str.len) {
			snprintf(why, wlen, "%s: string %p+%llu vs %p+%llu", path,
				 (const void *)a->u.str.ptr, (unsigned long long)a->u.str.len,
				 (const void *)b->u.str.ptr, (unsigned long long)b->u.str.len);
			return false;
		}
		return true;
	case CTF_TYPE_VARIANT:
		if (a->u.variant.option != b->u.variant.option || !a->u.variant.value ||
		    !b->u.variant.value) {
			snprintf(why, wlen, "%s: variant option %u (%p) vs %u (%p)", path,
				 a->u.variant.option, (void *)a->u.variant.value,
				 b->u.variant.option, (void *)b->u.variant.value);
			return false;
		}
		snprintf(path + used, plen - used, "/o%u", a->u.variant.option);
		if (!dp_same(a->u.variant.value, b->u.variant.value, in, path, plen, why, wlen))
			return false;
		path[used] = 0;
		return true;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE: {
		const struct ctf_type *elem =
		    t->kind == CTF_TYPE_ARRAY ? t->u.array.element : t->u.sequence.element;

		if (!ctf_type_is_text_element(elem))
			break;
		if (a->u.str.len != b->u.str.len ||
		    ((dp_in_buf(in, a->u.str.ptr) || dp_in_buf(in, b->u.str.ptr))
			 ? a->u.str.ptr != b->u.str.ptr
			 : a->u.str.len && memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len))) {
			snprintf(why, wlen, "%s: text %p+%llu vs %p+%llu", path,
				 (const void *)a->u.str.ptr, (unsigned long long)a->u.str.len,
				 (const void *)b->u.str.ptr, (unsigned long long)b->u.str.len);
			return false;
		}
		return true;
	}
	default:
		break;
	}
	/* structs, arrays and sequences of values */
	if (a->u.list.count != b->u.list.count ||
	    (t->kind == CTF_TYPE_STRUCT && a->u.list.count != t->u.structure.field_count) ||
	    (t->kind == CTF_TYPE_ARRAY && a->u.list.count != t->u.array.length)) {
		snprintf(why, wlen, "%s: count %llu vs %llu", path,
			 (unsigned long long)a->u.list.count, (unsigned long long)b->u.list.count);
		return false;
	}
	for (uint64_t i = 0; i < a->u.list.count; i++) {
		snprintf(path + used, plen - used, "/%llu", (unsigned long long)i);
		if (!dp_same(&a->u.list.items[i], &b->u.list.items[i], in, path, plen, why, wlen))
			return false;
	}
	path[used] = 0;
	return true;
}

static void dp_report(const struct dp_plan *plan, const struct dp_group *grp,
		      const struct dp_input *in, uint64_t pos0, uint64_t clock0, int sg, int sp,
		      const char *fmt, ...) __attribute__((format(printf, 8, 9)));

static void dp_report(const struct dp_plan *plan, const struct dp_group *grp,
		      const struct dp_input *in, uint64_t pos0, uint64_t clock0, int sg, int sp,
		      const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	uint64_t bytes = (in->limit + 7) / 8;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (++dp_reported > 8) {
		dp_fail();
		return;
	}
	fprintf(stderr, "FAIL decode-prog %s [%s, trace %s]: %s\n", in->what,
		dp_layout_names[plan->layout], plan->trace_bo == CTF_BYTE_ORDER_BE ? "be" : "le",
		msg);
	fprintf(stderr, "  group:");
	for (unsigned int i = 0; i < grp->n; i++)
		fprintf(stderr, " %s", ctf_scope_name(grp->scopes[i]));
	fprintf(stderr,
		"; group start bit %llu clock 0x%llx; buffer start bit %llu limit %llu clock "
		"0x%llx\n",
		(unsigned long long)pos0, (unsigned long long)clock0, (unsigned long long)in->start,
		(unsigned long long)in->limit, (unsigned long long)in->clock);
	fprintf(stderr,
		"  generic: %d pos %llu clock 0x%llx err \"%s\" @%llu\n"
		"  program: %d pos %llu clock 0x%llx err \"%s\" @%llu\n",
		sg, (unsigned long long)dp_gen.c.pos, (unsigned long long)dp_gen.c.clock,
		sg ? dp_gen.c.err : "", (unsigned long long)dp_gen.c.err_pos, sp,
		(unsigned long long)dp_prg.c.pos, (unsigned long long)dp_prg.c.clock,
		sp ? dp_prg.c.err : "", (unsigned long long)dp_prg.c.err_pos);
	fprintf(stderr, "  bytes (%llu):", (unsigned long long)bytes);
	for (uint64_t i = 0; i < bytes && i < 512; i++)
		fprintf(stderr, "%s%02x", i % 32 ? " " : "\n    ", in->buf[i]);
	fputc('\n', stderr);
	dp_fail();
}

/*
 * Decodes one group on both sides from the same state and compares; true
 * when both succeeded alike (the next group may follow).
 */
static bool dp_group_run(struct dp_plan *plan, struct dp_group *grp, const struct dp_input *in)
{
	struct ctf_decode_ctx *cg = &dp_gen.c, *cp = &dp_prg.c;
	uint64_t pos0 = cp->pos, clock0 = cp->clock;
	char path[512] = "", why[768];
	int sg, sp;
	bool ok = true;

	plan->st.groups++;
	cg->err[0] = cp->err[0] = 0;
	cg->err_pos = cp->err_pos = 0;
	sg = dp_generic(cg, grp);
	if (plan->layout == DP_SCOPE) {
		sp = 0;
		for (unsigned int i = 0; i < grp->n && sp == 0; i++) {
			struct ctf_value *v = NULL;

			sp = ctf_decode_scope(cp, grp->scopes[i], grp->types[i], &v) ? -1 : 0;
			if (sp == 0 && cp->roots[grp->scopes[i]] != v) {
				dp_report(plan, grp, in, pos0, clock0, sg, sp,
					  "ctf_decode_scope(): the root of %s is not the value",
					  ctf_scope_name(grp->scopes[i]));
				return false;
			}
		}
	} else if (!grp->prog) {
		plan->st.no_prog++;
		sp = dp_generic(cp, grp);
	} else {
		sp = ctf_decode_prog_run(grp->prog, cp);
		if (sp == 0) {
			plan->st.prog_ok++;
			grp->prog_ok++;
			for (unsigned int i = 0; i < grp->n; i++)
				if (cp->roots[grp->scopes[i]] !=
				    ctf_decode_prog_root(grp->prog, i)) {
					dp_report(plan, grp, in, pos0, clock0, sg, sp,
						  "the root of %s is not the program's",
						  ctf_scope_name(grp->scopes[i]));
					return false;
				}
		} else if (sp == 1) {
			if (cp->pos != pos0 || cp->clock != clock0) {
				dp_report(plan, grp, in, pos0, clock0, sg, sp,
					  "gave up without restoring pos (%llu) and clock (0x%llx)",
					  (unsigned long long)cp->pos,
					  (unsigned long long)cp->clock);
				return false;
			}
			if (sg == 0)
				plan->st.giveup_ok++;
			else
				plan->st.giveup_fail++;
			/* the reader's fallback: the generic decoder, from the same start */
			sp = dp_generic(cp, grp);
		} else if (sp == -1) {
			plan->st.prog_err++;
			if (!cp->err[0]) {
				dp_report(plan, grp, in, pos0, clock0, sg, sp,
					  "failed without an error message");
				return false;
			}
		} else {
			dp_report(plan, grp, in, pos0, clock0, sg, sp, "run returned %d", sp);
			return false;
		}
	}
	if ((sg && dp_pool_error(cg)) || (sp && dp_pool_error(cp))) {
		plan->st.skipped++;
		return false;
	}
	if (sg != sp) {
		dp_report(plan, grp, in, pos0, clock0, sg, sp,
			  sg ? "the program path succeeded where the generic decoder fails"
			     : "the program path failed where the generic decoder succeeds");
		ok = false;
	} else if (sg) {
		if (cg->err_pos != cp->err_pos || strcmp(cg->err, cp->err)) {
			dp_report(plan, grp, in, pos0, clock0, sg, sp, "different errors");
			ok = false;
		}
	} else if (cg->pos != cp->pos || cg->clock != cp->clock) {
		dp_report(plan, grp, in, pos0, clock0, sg, sp, "different pos or clock after");
		ok = false;
	} else {
		for (unsigned int i = 0; i < grp->n && ok; i++) {
			snprintf(path, sizeof(path), "%s", ctf_scope_name(grp->scopes[i]));
			if (!dp_same(cg->roots[grp->scopes[i]], cp->roots[grp->scopes[i]], in, path,
				     sizeof(path), why, sizeof(why))) {
				dp_report(plan, grp, in, pos0, clock0, sg, sp,
					  "different values: %s", why);
				ok = false;
			}
		}
	}
	if (!ok)
		plan->st.mismatches++;
	return ok && sg == 0;
}

/* Decodes a buffer's chain of scopes (then more events) with both sides, comparing. */
static void dp_run(struct dp_plan *plan, const struct dp_input *in)
{
	struct dp_side *sides[2] = {&dp_gen, &dp_prg};
	unsigned int g = 0, events = 0;
	uint64_t event_start = in->start;

	if (!dp_ready) {
		ctf_value_pool_init(&dp_gen.pool);
		ctf_value_pool_init(&dp_prg.pool);
		dp_gen.pool.limit = dp_prg.pool.limit = DP_POOL_LIMIT;
		dp_ready = true;
	}
	for (unsigned int i = 0; i < 2; i++) {
		struct dp_side *s = sides[i];

		ctf_value_pool_reset(&s->pool);
		memset(&s->c, 0, sizeof(s->c));
		s->c.buf = in->buf;
		s->c.pos = in->start;
		s->c.limit = in->limit;
		s->c.clock = in->clock;
		s->c.trace_byte_order = plan->trace_bo;
		s->c.pool = &s->pool;
	}
	dp_prg.c.progs = plan->cache;
	plan->st.buffers++;
	for (;;) {
		if (g == plan->ngroups) {
			/* the next event, from where this one ended, as the stream reader goes */
			if (plan->first_event == plan->ngroups || ++events >= in->max_events ||
			    dp_gen.c.pos >= in->limit || dp_gen.c.pos == event_start)
				break;
			plan->st.events++;
			event_start = dp_gen.c.pos;
			g = plan->first_event;
			for (unsigned int k = g; k < plan->ngroups; k++)
				for (unsigned int i = 0; i < plan->groups[k].n; i++)
					dp_gen.c.roots[plan->groups[k].scopes[i]] =
					    dp_prg.c.roots[plan->groups[k].scopes[i]] = NULL;
		}
		if (!dp_group_run(plan, &plan->groups[g], in))
			break;
		g++;
	}
	plan->cache = dp_prg.c.progs;
	dp_prg.c.progs = NULL;
}

/* The scope types of stream class sc's event class ev (NULL: none) into types[]. */
static void dp_chain(const struct ctf_trace *trace, const struct ctf_stream_class *sc,
		     const struct ctf_event_class *ev,
		     const struct ctf_type *types[CTF_SCOPE_COUNT])
{
	types[CTF_SCOPE_PACKET_HEADER] = trace->packet_header;
	types[CTF_SCOPE_PACKET_CONTEXT] = sc->packet_context;
	types[CTF_SCOPE_EVENT_HEADER] = sc->event_header;
	types[CTF_SCOPE_EVENT_COMMON_CONTEXT] = sc->event_context;
	types[CTF_SCOPE_EVENT_CONTEXT] = ev ? ev->context : NULL;
	types[CTF_SCOPE_EVENT_FIELDS] = ev ? ev->fields : NULL;
}

#ifndef DP_FUZZ

/* ---- the snippets ---- */

/* splitmix64 */
static uint64_t dp_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

#define SN_NO_PROG   1 /* some program may not build */
#define SN_GIVEUP_OK 2 /* give-ups where the generic decoder succeeds are tolerated */
#define SN_FEW	     4 /* large: a sixteenth of the buffers */

struct snippet {
	const char *name;
	const char *packet_header; /* trace.packet.header's struct, or NULL */
	const char *body;	   /* streams and events */
	unsigned int max_bytes;	   /* buffers are up to this long */
	unsigned int flags;
};

static const char prelude[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n";

static const char clocks[] =
    "clock { name = c; freq = 1000000000; };\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := ts27;\n"
    "typealias integer { size = 32; align = 8; signed = false; map = clock.c.value; } := ts32;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;\n";

static const struct snippet fixed_snippets[] = {
    {"enums", NULL,
     "event { name = e; fields := struct {\n"
     "	enum : integer { size = 3; align = 1; signed = true; } { NEG = -4 ... -1, Z = 0, P = 1 ... "
     "3 } a;\n"
     "	enum : uint8_t { A = 0, B = 1 ... 10, C = 200 ... 255 } b;\n"
     "	enum : integer { size = 64; align = 8; signed = false; byte_order = be; }\n"
     "		{ BIG = 0xFFFFFFFFFFFFFFF0 ... 0xFFFFFFFFFFFFFFFF, SMALL = 0 } c;\n"
     "	enum : integer { size = 33; align = 1; signed = true; byte_order = le; } { X = -5 } d;\n"
     "	enum : integer { size = 64; align = 1; signed = true; } { M = -1 } e;\n"
     "	enum : integer { size = 11; align = 2; signed = false; byte_order = be; } { Q = 7 } f;\n"
     "	uint32_t g:7;\n"
     "	enum : uint16_t { R = 1 } h:9;\n"
     "	integer { size = 12; align = 1; signed = true; byte_order = network; } i;\n"
     "	integer { size = 12; align = 1; signed = true; byte_order = native; } j;\n"
     "	integer { size = 16; align = 8; signed = false; byte_order = network; } k;\n"
     "}; };\n",
     48, 0},
    {"floats", NULL,
     "event { name = e; fields := struct {\n"
     "	integer { size = 3; align = 1; signed = false; } pad;\n"
     "	floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f32;\n"
     "	floating_point { exp_dig = 11; mant_dig = 53; align = 64; } f64;\n"
     "	floating_point { exp_dig = 8; mant_dig = 24; align = 8; byte_order = be; } f32be;\n"
     "	floating_point { exp_dig = 11; mant_dig = 53; align = 8; byte_order = be; } f64be;\n"
     "	floating_point { exp_dig = 8; mant_dig = 24; align = 1; byte_order = le; } f32a1;\n"
     "	integer { size = 5; align = 1; signed = false; } pad2;\n"
     "	floating_point { exp_dig = 11; mant_dig = 53; align = 1; byte_order = le; } f64a1;\n"
     "	floating_point { exp_dig = 11; mant_dig = 53; align = 1; byte_order = be; } f64a1be;\n"
     "	floating_point { exp_dig = 8; mant_dig = 24; align = 1; byte_order = be; } f32a1be;\n"
     "	floating_point { exp_dig = 8; mant_dig = 24; align = 8; } f32n;\n"
     "	floating_point { exp_dig = 11; mant_dig = 53; align = 8; byte_order = le; } f64le;\n"
     "}; };\n",
     80, 0},
    {"strings", NULL,
     "event { name = e; fields := struct {\n"
     "	string a;\n"
     "	integer { size = 1; align = 1; signed = false; } bit;\n"
     "	string b;\n"
     "	uint8_t x;\n"
     "	string c;\n"
     "	string { encoding = ASCII; } d;\n"
     "	integer { size = 4; align = 1; signed = false; } nib;\n"
     "}; };\n",
     24, 0},
    {"nested-align", NULL,
     "event { name = e; fields := struct {\n"
     "	integer { size = 3; align = 1; signed = false; } a;\n"
     "	struct { integer { size = 5; align = 1; signed = false; } x; uint16_t y; } align(32) "
     "s1;\n"
     "	integer { size = 7; align = 1; signed = true; } b;\n"
     "	struct { struct { integer { size = 2; align = 1; signed = false; } z; } align(64) in;\n"
     "		integer { size = 9; align = 1; signed = false; } w; } s2;\n"
     "	struct { uint8_t q; } align(128) big;\n"
     "	integer { size = 1; align = 1; signed = false; } c;\n"
     "	struct { integer { size = 1; align = 1; signed = false; } p;\n"
     "		struct { integer { size = 6; align = 1; signed = true; } r; } align(2) t; } s3;\n"
     "	integer { size = 61; align = 1; signed = true; } d;\n"
     "}; };\n",
     64, 0},
    {"empty-structs", NULL,
     "event { name = e; id = 0; fields := struct {\n"
     "	integer { size = 3; align = 1; signed = false; } a;\n"
     "	struct { } e1;\n"
     "	struct { } align(16) e2;\n"
     "	integer { size = 3; align = 1; signed = false; } b;\n"
     "	struct { struct { } x; struct { } align(32) y; } e3;\n"
     "	integer { size = 2; align = 1; signed = false; } c;\n"
     "	struct { } align(64) tail;\n"
     "}; };\n"
     "event { name = empty; id = 1; fields := struct { }; };\n"
     "event { name = empty_aligned; id = 2; fields := struct { } align(32); };\n"
     "event { name = only_empties; id = 3; context := struct { struct { } align(8) x; };\n"
     "	fields := struct { struct { } align(128) y; }; };\n",
     24, 0},
    {"variant-simple", NULL,
     "event { name = e; fields := struct {\n"
     "	enum : integer { size = 2; align = 1; signed = false; } { A = 0, B = 1, C = 2, D = 3 } "
     "tag;\n"
     "	variant <tag> {\n"
     "		integer { size = 5; align = 1; signed = true; } A;\n"
     "		struct { uint16_t x; integer { size = 3; align = 1; signed = false; } y; } B;\n"
     "		struct { } C;\n"
     "	} v;\n"
     "	uint8_t after;\n"
     "	variant <tag> { struct { } align(16) A; uint8_t B; uint64_t C; uint32_t D; } w;\n"
     "	integer { size = 3; align = 1; signed = false; } end;\n"
     "}; };\n",
     24, 0},
    {"variant-ranges", NULL,
     "event { name = e; fields := struct {\n"
     "	enum : uint8_t { A = 0 ... 10, B = 5 ... 15, C = 5, D = 20 ... 30, A = 40, Z = 50 } t;\n"
     "	variant <t> { uint16_t B; integer { size = 4; align = 1; signed = false; } A;\n"
     "		string C; uint32_t D; } v;\n"
     "	enum : integer { size = 4; align = 1; signed = true; } { N = -8 ... -2, M = -1, P = 0 ... "
     "7 } s;\n"
     "	variant <s> { uint8_t P; integer { size = 13; align = 1; signed = true; } N; } w;\n"
     "	enum : integer { size = 5; align = 1; signed = true; } { W = -3 ... 2, L = -16 ... -4,\n"
     "		H = 3 ... 15 } z;\n"
     "	variant <z> { uint8_t W; uint16_t L; string H; } zv;\n"
     "	enum : integer { size = 64; align = 8; signed = true; } { NEG = -9223372036854775808 "
     "... -1,\n"
     "		POS = 0 ... 9223372036854775807 } big;\n"
     "	variant <big> { uint8_t NEG; integer { size = 3; align = 1; signed = false; } POS; } "
     "bv;\n"
     "	variant <t> { uint8_t A; uint16_t B; } x;\n"
     "}; };\n",
     24, 0},
    {"variant-complex", NULL,
     "event { name = e; fields := struct {\n"
     "	enum : uint8_t { S = 0, V = 1, N = 2 ... 3, E = 4, R = 5 } t1;\n"
     "	enum : integer { size = 4; align = 1; signed = true; } { M = -8 ... -1, Z = 0, P = 1 ... "
     "7 } t2;\n"
     "	variant <t1> {\n"
     "		string S;\n"
     "		struct { uint8_t pad; variant <t2> { string M; uint32_t Z;\n"
     "			struct { uint8_t a; string b; } P; } inner; } V;\n"
     "		variant <t2> { integer { size = 3; align = 1; signed = false; } M; struct { } Z;\n"
     "			floating_point { exp_dig = 8; mant_dig = 24; align = 32; } P; } N;\n"
     "		struct { enum : uint8_t { X = 0, Y = 1 } t3;\n"
     "			variant <t3> { uint8_t X; string Y; } w; } E;\n"
     "		struct { uint8_t n; uint16_t seq[n]; variant <t2> { uint8_t M; string Z; "
     "uint16_t P; } q; } R;\n"
     "	} v;\n"
     "	uint8_t tail;\n"
     "	variant <t2> { struct { variant <t1> { uint8_t S; string V; } x; } M;\n"
     "		struct { uint8_t a; } align(64) Z; string P; } u;\n"
     "}; };\n",
     40, 0},
    {"lttng-header", NULL,
     "stream {\n"
     "	packet.context := struct { ts64 timestamp_begin; ts64 timestamp_end;\n"
     "		uint64_t content_size; uint64_t packet_size; uint32_t cpu_id; };\n"
     "	event.header := struct {\n"
     "		enum : integer { size = 5; align = 1; signed = false; } { compact = 0 ... 30, "
     "extended = 31 } id;\n"
     "		variant <id> { struct { ts27 timestamp; } compact;\n"
     "			struct { uint32_t id; ts64 timestamp; } extended; } v;\n"
     "	} align(8);\n"
     "	event.context := struct { ts32 t32; integer { size = 3; align = 1; signed = true; } "
     "s3; };\n"
     "};\n"
     "event { name = e; id = 1; context := struct { uint8_t k; }; fields := struct {\n"
     "	variant <stream.event.header.id> { struct { uint8_t a; } compact;\n"
     "		struct { string s; } extended; } hv;\n"
     "	uint8_t n;\n"
     "	uint16_t seq[n];\n"
     "	uint8_t cseq[event.context.k];\n"
     "	variant <id> { uint8_t compact; uint16_t extended; } rel;\n"
     "}; };\n"
     "event { name = f; id = 2; fields := struct { ts27 t; uint8_t x; }; };\n",
     64, 0},
    {"lttng-large-header", NULL,
     "stream {\n"
     "	event.header := struct {\n"
     "		enum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
     "		variant <id> { struct { ts32 timestamp; } compact;\n"
     "			struct { uint32_t id; ts64 timestamp; } extended; } v;\n"
     "	} align(8);\n"
     "};\n"
     "event { name = e; id = 0; fields := struct { int8_t x; }; };\n",
     48, 0},
    {"tags-earlier-scopes", NULL,
     "stream {\n"
     "	packet.context := struct { enum : uint8_t { A = 0, B = 1 } ptag; uint8_t plen; };\n"
     "	event.header := struct { enum : integer { size = 3; align = 1; signed = false; }\n"
     "		{ X = 0, Y = 1 ... 2, Z = 3 } htag; uint8_t id; };\n"
     "	event.context := struct { enum : uint8_t { P = 0, Q = 1 } ctag; };\n"
     "};\n"
     "event { name = e; id = 0; context := struct { variant <stream.event.context.ctag>\n"
     "		{ uint8_t P; string Q; } cv; enum : uint8_t { K = 0, L = 1 } etag; };\n"
     "	fields := struct {\n"
     "		variant <stream.packet.context.ptag> { uint8_t A; uint16_t B; } a;\n"
     "		variant <htag> { integer { size = 3; align = 1; signed = false; } X;\n"
     "			string Y; struct { } Z; } b;\n"
     "		variant <ctag> { uint32_t P; struct { uint8_t q; string r; } Q; } c;\n"
     "		variant <event.context.etag> { uint8_t K; integer { size = 12; align = 1; "
     "signed = true; } L; } d;\n"
     "		uint8_t s1[stream.packet.context.plen];\n"
     "		uint8_t s2[plen];\n"
     "	};\n"
     "};\n",
     48, 0},
    {"sequences", NULL,
     "stream { event.context := struct { integer { size = 3; align = 1; signed = false; } clen; "
     "}; };\n"
     "event { name = e; context := struct { integer { size = 4; align = 1; signed = false; } "
     "elen; };\n"
     "	fields := struct {\n"
     "		integer { size = 2; align = 1; signed = false; } n;\n"
     "		integer { size = 3; align = 1; signed = true; } s1[n];\n"
     "		uint16_t s2[event.context.elen];\n"
     "		uint8_t s3[stream.event.context.clen];\n"
     "		integer { size = 8; align = 8; signed = false; encoding = UTF8; } txt[n];\n"
     "		integer { size = 1; align = 1; signed = false; } bit;\n"
     "		integer { size = 8; align = 1; signed = false; encoding = ASCII; } utxt[n];\n"
     "		struct { uint8_t len; integer { size = 12; align = 1; signed = false; } "
     "items[len]; } nested[n];\n"
     "		struct { enum : uint8_t { A = 0, B = 1 } t; variant <t> { uint8_t A; string B; "
     "} v; } elems[n];\n"
     "		enum : uint8_t { A = 0, B = 1 } tag;\n"
     "		variant <tag> { uint8_t A; integer { size = 5; align = 1; signed = false; } B; } "
     "vs[n];\n"
     "		enum : integer { size = 2; align = 1; signed = false; } { L = 0 ... 3 } elen2;\n"
     "		string strs[elen2];\n"
     "		struct { } empties[elen2];\n"
     "	};\n"
     "};\n",
     48, 0},
    {"arrays", NULL,
     "event { name = e; fields := struct {\n"
     "	integer { size = 1; align = 1; signed = false; } bit;\n"
     "	integer { size = 8; align = 1; signed = false; encoding = ASCII; } ta[4];\n"
     "	integer { size = 8; align = 8; signed = false; encoding = UTF8; } tb[3];\n"
     "	uint16_t na[3];\n"
     "	integer { size = 5; align = 1; signed = true; } bits[7];\n"
     "	struct { uint8_t a; string s; } sa[2];\n"
     "	struct { } ea[5];\n"
     "	uint8_t m[2][3];\n"
     "	integer { size = 8; align = 8; signed = false; encoding = UTF8; } t0[0];\n"
     "	enum : uint8_t { A = 0, B = 1 } tag;\n"
     "	variant <tag> { uint8_t A[2]; string B[2]; } va;\n"
     "	struct { enum : uint8_t { X = 0, Y = 1 } t; variant <t> { uint8_t X; uint16_t Y; } v; "
     "} ev[3];\n"
     "	floating_point { exp_dig = 8; mant_dig = 24; align = 32; } fa[2];\n"
     "}; };\n",
     72, 0},
    {"clocks", NULL,
     "event { name = e; fields := struct {\n"
     "	ts27 a;\n"
     "	ts32 b;\n"
     "	integer { size = 27; align = 1; signed = false; byte_order = be; map = clock.c.value; } "
     "c;\n"
     "	ts64 d;\n"
     "	integer { size = 13; align = 1; signed = true; map = clock.c.value; } e;\n"
     "	ts27 f;\n"
     "	integer { size = 32; align = 1; signed = false; byte_order = le; map = clock.c.value; } "
     "g;\n"
     "	integer { size = 64; align = 1; signed = false; byte_order = be; map = clock.c.value; } "
     "h;\n"
     "	integer { size = 1; align = 1; signed = false; map = clock.c.value; } i;\n"
     "	integer { size = 64; align = 8; signed = true; byte_order = le; map = clock.c.value; } "
     "j;\n"
     "	enum : integer { size = 7; align = 1; signed = false; map = clock.c.value; } { A = 0 } "
     "k;\n"
     "	integer { size = 63; align = 1; signed = false; byte_order = le; map = clock.c.value; } "
     "l;\n"
     "	integer { size = 2; align = 1; signed = false; } n;\n"
     "	ts27 ta[2];\n"
     "	ts32 ts[n];\n"
     "	struct { ts27 a; integer { size = 5; align = 1; signed = false; map = clock.c.value; } "
     "b; } sa[n];\n"
     "	enum : uint8_t { A = 0, B = 1 } tag;\n"
     "	variant <tag> { ts27 A[1]; struct { ts32 x; ts64 y; } B; } v;\n"
     "	ts27 last;\n"
     "}; };\n",
     80, 0},
    {"full-chain",
     "struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id;\n"
     "	enum : uint8_t { small = 0, big = 1 } kind; }",
     "stream { id = 0;\n"
     "	packet.context := struct { ts64 timestamp_begin; uint64_t content_size;\n"
     "		integer { size = 4; align = 1; signed = false; } nib;\n"
     "		variant <trace.packet.header.kind> { uint8_t small; uint64_t big; } pv; };\n"
     "	event.header := struct { uint8_t id; ts27 timestamp; } align(32);\n"
     "	event.context := struct { integer { size = 3; align = 1; signed = false; } cn;\n"
     "		string name; };\n"
     "};\n"
     "stream { id = 1; event.header := struct { uint16_t id; }; };\n"
     "event { name = a; id = 0; stream_id = 0; context := struct { uint8_t k; };\n"
     "	fields := struct { uint8_t x[cn]; uint8_t y[k];\n"
     "		variant <kind> { uint16_t small; string big; } v; }; };\n"
     "event { name = b; id = 1; stream_id = 0; fields := struct { ts32 t; }; };\n"
     "event { name = c; id = 0; stream_id = 1; fields := struct { uint32_t v; }; };\n",
     96, 0},
    {"blocks", NULL,
     "typealias integer { size = 7; align = 1; signed = false; byte_order = le; } := u7;\n"
     "typealias integer { size = 7; align = 1; signed = true; byte_order = le; } := s7;\n"
     "typealias struct { u7 a; s7 b; uint8_t c; } := trio;\n"
     "event { name = e; fields := struct {\n"
     "	u7 f0; s7 f1; u7 f2; s7 f3; u7 f4; s7 f5; u7 f6; s7 f7; u7 f8; s7 f9;\n"
     "	u7 f10; s7 f11; u7 f12; s7 f13; u7 f14; s7 f15; u7 f16; s7 f17; u7 f18; s7 f19;\n"
     "	integer { size = 57; align = 1; signed = true; byte_order = le; } g57;\n"
     "	integer { size = 58; align = 1; signed = true; byte_order = le; } g58;\n"
     "	integer { size = 64; align = 1; signed = false; byte_order = le; } g64;\n"
     "	trio t1; trio t2;\n"
     "	integer { size = 16; align = 16; signed = true; byte_order = le; } h16;\n"
     "	integer { size = 64; align = 32; signed = false; byte_order = le; } h64;\n"
     "	integer { size = 1; align = 64; signed = false; byte_order = le; } h1;\n"
     "	integer { size = 63; align = 1; signed = true; byte_order = le; } h63;\n"
     "}; };\n",
     96, 0},
    {"payload-only-scopes", NULL,
     "stream { event.header := struct { }; event.context := struct { } align(16); };\n"
     "event { name = e; context := struct { integer { size = 1; align = 1; signed = false; } b; "
     "};\n"
     "	fields := struct { integer { size = 9; align = 1; signed = false; } x; } align(8); };\n",
     16, 0},
    /*
     * Arrays and sequences (decoded by the generic decoder from within a
     * program) where alignment is pending: first in a struct aligned more
     * than they are, after an aligned empty struct, first in an option.
     */
    {"generic-first-aligned", NULL,
     "stream { event.header := struct { integer { size = 5; align = 1; signed = false; } h; }; "
     "};\n"
     "event { name = e; fields := struct {\n"
     "	uint8_t a[1];\n"
     "	integer { size = 32; align = 32; signed = false; } x;\n"
     "}; };\n",
     16, 0},
    {"generic-after-align", NULL,
     "event { name = e; fields := struct {\n"
     "	integer { size = 3; align = 1; signed = false; } n;\n"
     "	struct { uint16_t s[n]; integer { size = 64; align = 64; signed = false; } y; } inner;\n"
     "	struct { } align(64) e;\n"
     "	uint8_t t[2];\n"
     "	enum : integer { size = 2; align = 1; signed = false; } { A = 0, B = 1, C = 2 ... 3 } "
     "tag;\n"
     "	variant <tag> { struct { uint8_t arr[2]; } align(32) A;\n"
     "		struct { string s[1]; } align(16) B;\n"
     "		struct { struct { } align(128) e; uint8_t q[n]; } C; } v;\n"
     "	struct { } align(32) e2;\n"
     "	string strs[n];\n"
     "}; };\n",
     64, 0},
    /* one type in several scopes: programs are cached per type and scope */
    {"shared-scope-types",
     "struct { enum : uint8_t { A = 0, B = 1 } t; variant <trace.packet.header.t> "
     "{ uint8_t A; string B; } v; }",
     "typealias struct { integer { size = 5; align = 1; signed = false; } a; uint16_t b; } := "
     "pair;\n"
     "stream { packet.context := pair; event.header := pair; event.context := pair; };\n"
     "event { name = e; context := pair; fields := pair; };\n",
     32, 0},
    /* more slots than a program may have (PROG_MAX_SLOTS): no program, the generic decoder */
    {"too-large", NULL,
     "typealias integer { size = 1; align = 1; signed = false; } := b1;\n"
     "typealias struct { b1 a; b1 b; b1 c; b1 d; b1 e; b1 f; b1 g; b1 h; } := s8;\n"
     "typealias struct { s8 a; s8 b; s8 c; s8 d; s8 e; s8 f; s8 g; s8 h; } := s64;\n"
     "typealias struct { s64 a; s64 b; s64 c; s64 d; s64 e; s64 f; s64 g; s64 h; } := s512;\n"
     "event { name = e; fields := struct { s512 a; s512 b; s512 c; s512 d; s512 e; s512 f;\n"
     "	s512 g; s512 h; string s; }; };\n",
     520, SN_NO_PROG | SN_FEW},
};

/* Metadata texts made by code (integers of every size); kept for the run. */
static char gen_bodies[16][16384];
static char gen_names[16][64];
static struct snippet gen_snippets[16];
static unsigned int gen_count;

static void gen_append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void gen_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + used, size - used, fmt, ap);
	va_end(ap);
}

/*
 * A payload of 64 integers, of sizes 1 to 64 in the order `order`,
 * alignment, signedness and byte order given per field (bo: "le", "be" or
 * NULL for the trace's), clock-mapped when map[i].
 */
struct gen_int {
	unsigned int size, align;
	bool is_signed, map;
	const char *bo;
};

static void gen_ints(const char *name, const struct gen_int *f, unsigned int n)
{
	char *b = gen_bodies[gen_count];

	if (name != gen_names[gen_count])
		snprintf(gen_names[gen_count], sizeof(gen_names[0]), "%s", name);
	b[0] = 0;
	gen_append(b, sizeof(gen_bodies[0]), "event { name = ints; fields := struct {\n");
	for (unsigned int i = 0; i < n; i++) {
		gen_append(b, sizeof(gen_bodies[0]),
			   "\tinteger { size = %u; align = %u; signed = %s;", f[i].size, f[i].align,
			   f[i].is_signed ? "true" : "false");
		if (f[i].bo)
			gen_append(b, sizeof(gen_bodies[0]), " byte_order = %s;", f[i].bo);
		if (f[i].map)
			gen_append(b, sizeof(gen_bodies[0]), " map = clock.c.value;");
		gen_append(b, sizeof(gen_bodies[0]), " } f%u;\n", i);
	}
	gen_append(b, sizeof(gen_bodies[0]), "}; };\n");
	gen_snippets[gen_count] =
	    (struct snippet){.name = gen_names[gen_count], .body = b, .max_bytes = 400, .flags = 0};
	gen_count++;
}

static void gen_int_snippets(void)
{
	static const unsigned int aligns[] = {1, 1, 1, 1, 2, 4, 8, 8, 16, 32, 64};
	static const char *const bos[] = {"le", "be", NULL};
	struct gen_int f[64];
	uint64_t rng = 0x5eed;

	for (unsigned int v = 0; v < 4; v++) {
		for (unsigned int i = 0; i < 64; i++)
			f[i] = (struct gen_int){
			    .size = v == 3 ? 64 - i : i + 1,
			    .align = 1,
			    .is_signed = v >= 2,
			    .bo = v == 0   ? "le"
				  : v == 1 ? "be"
				  : v == 2 ? NULL
					   : "le",
			};
		gen_ints(v == 0	  ? "ints-le-a1"
			 : v == 1 ? "ints-be-a1"
			 : v == 2 ? "ints-trace-order-signed"
				  : "ints-descending-signed",
			 f, 64);
	}
	/* natural alignments: byte multiples on bytes */
	for (unsigned int i = 0; i < 64; i++)
		f[i] = (struct gen_int){.size = i + 1,
					.align = (i + 1) % 8 ? 1 : 8,
					.is_signed = i % 2,
					.bo = bos[i % 3]};
	gen_ints("ints-natural", f, 64);
	for (unsigned int v = 0; v < 8; v++) {
		for (unsigned int i = 0; i < 64; i++)
			f[i].size = i + 1;
		for (unsigned int i = 63; i > 0; i--) {
			unsigned int j = (unsigned int)(dp_rand(&rng) % (i + 1)), s = f[i].size;

			f[i].size = f[j].size;
			f[j].size = s;
		}
		for (unsigned int i = 0; i < 64; i++) {
			uint64_t r = dp_rand(&rng);

			f[i].align = aligns[r % (sizeof(aligns) / sizeof(aligns[0]))];
			f[i].is_signed = (r >> 8) & 1;
			f[i].bo = bos[(r >> 16) % 3];
			f[i].map = (r >> 24) % 8 == 0;
		}
		snprintf(gen_names[gen_count], sizeof(gen_names[0]), "ints-mixed-%u", v);
		gen_ints(gen_names[gen_count], f, 64);
	}
}

/* ---- running a snippet ---- */

static char *make_metadata(const struct snippet *sn, const char *bo)
{
	size_t size = strlen(prelude) + strlen(clocks) + strlen(sn->body) + 4096 +
		      (sn->packet_header ? strlen(sn->packet_header) : 0);
	char *text = malloc(size);

	if (!text)
		abort();
	snprintf(text, size, "%strace { major = 1; minor = 8; byte_order = %s;%s%s%s };\n%s%s",
		 prelude, bo, sn->packet_header ? " packet.header := " : "",
		 sn->packet_header ? sn->packet_header : "", sn->packet_header ? ";" : "", clocks,
		 sn->body);
	return text;
}

/* Random bytes biased towards what makes tags, lengths and strings meaningful. */
static void fill_bytes(uint8_t *b, size_t n, uint64_t *rng)
{
	unsigned int mode = (unsigned int)(dp_rand(rng) % 6);

	for (size_t i = 0; i < n; i++) {
		uint64_t r = dp_rand(rng);

		switch (mode) {
		case 0:
			b[i] = (uint8_t)r;
			break;
		case 1: /* small values */
			b[i] = (uint8_t)((r >> 8) % 4 ? r % 4 : r >> 16);
			break;
		case 2: /* mostly zeros */
			b[i] = (uint8_t)((r >> 8) % 8 ? 0 : r >> 16);
			break;
		case 3: /* mostly ones */
			b[i] = (uint8_t)((r >> 8) % 4 ? 0xff : r >> 16);
			break;
		default: /* a mix */
			switch ((r >> 8) % 10) {
			case 0:
			case 1:
			case 2:
				b[i] = 0;
				break;
			case 3:
			case 4:
			case 5:
				b[i] = (uint8_t)(1 + (r >> 16) % 3);
				break;
			case 6:
				b[i] = 0xff;
				break;
			default:
				b[i] = (uint8_t)(r >> 16);
				break;
			}
		}
	}
}

struct combo {
	const struct ctf_type *types[CTF_SCOPE_COUNT];
	struct dp_plan plans[DP_LAYOUTS];
	char what[128];
};

static unsigned long total_buffers, total_groups, total_prog_ok, total_giveup_ok;

static void run_snippet(const struct snippet *sn, enum ctf_byte_order bo, unsigned int nbuf)
{
	const char *bo_name = bo == CTF_BYTE_ORDER_BE ? "be" : "le";
	char *text = make_metadata(sn, bo_name);
	struct tsdl_error err;
	struct ctf_trace *trace = tsdl_parse(text, strlen(text), sn->name, &err);
	struct combo *combos = NULL;
	unsigned int ncombos = 0;
	uint64_t rng = 0x1234567ull ^ ((uint64_t)bo << 40);
	struct dp_stats sum = {0};
	uint8_t *bytes;

	for (const char *p = sn->name; *p; p++)
		rng = rng * 131 + (uint8_t)*p;
	if (!trace) {
		char msg[1200];

		tsdl_error_format(&err, msg, sizeof(msg));
		CHECK(0, "%s (%s): metadata does not parse: %s", sn->name, bo_name, msg);
		free(text);
		return;
	}
	for (unsigned int s = 0; s < trace->stream_count; s++) {
		const struct ctf_stream_class *sc = trace->streams[s];

		for (unsigned int e = 0; e < (sc->event_count ? sc->event_count : 1); e++) {
			struct combo *c;

			combos = realloc(combos, (ncombos + 1) * sizeof(*combos));
			if (!combos)
				abort();
			c = &combos[ncombos++];
			dp_chain(trace, sc, sc->event_count ? sc->events[e] : NULL, c->types);
			snprintf(c->what, sizeof(c->what), "%s (stream %llu, event %s)", sn->name,
				 (unsigned long long)sc->id,
				 sc->event_count && sc->events[e]->name ? sc->events[e]->name
									: "-");
			for (unsigned int l = 0; l < DP_LAYOUTS; l++) {
				bool built = dp_plan_init(&c->plans[l], (enum dp_layout)l, c->types,
							  trace->byte_order);

				CHECK(built || (sn->flags & SN_NO_PROG),
				      "%s [%s, trace %s]: a program was not built", c->what,
				      dp_layout_names[l], bo_name);
			}
		}
	}
	if (sn->flags & SN_FEW)
		nbuf = nbuf / 16 + 1;
	for (unsigned int i = 0; i < nbuf; i++) {
		struct combo *c = &combos[i % ncombos];
		size_t n = dp_rand(&rng) % 2 ? sn->max_bytes
					     : (size_t)(dp_rand(&rng) % (sn->max_bytes + 1));
		uint8_t tmp[4096];
		uint64_t r = dp_rand(&rng), limit, start = 0, clock;
		struct dp_input in;

		fill_bytes(tmp, n, &rng);
		switch (r % 10) {
		case 0:
		case 1: /* anywhere */
			limit = n ? dp_rand(&rng) % (n * 8 + 1) : 0;
			break;
		case 2: /* tiny */
			limit = dp_rand(&rng) % 25;
			if (limit > n * 8)
				limit = n * 8;
			break;
		case 3:
		case 4: /* a few bits short */
			limit = n * 8 - (n * 8 < 16 ? n * 8 : dp_rand(&rng) % 17);
			break;
		default:
			limit = n * 8;
			break;
		}
		if ((r >> 8) % 4 == 0)
			start = dp_rand(&rng) % ((limit < 70 ? limit : 70) + 1);
		clock = dp_rand(&rng);
		switch ((r >> 16) % 4) {
		case 0: /* about to wrap 27 or 32 bits */
			clock |= (r >> 24) & 1 ? 0x7fffff0 : 0xfffffff0;
			break;
		case 1:
			clock = (r >> 24) % 3;
			break;
		default:
			break;
		}
		/* exactly the bytes of the content: the sanitizers see any read past them */
		bytes = malloc((limit + 7) / 8);
		if (!bytes && limit)
			abort();
		if (limit)
			memcpy(bytes, tmp, (limit + 7) / 8);
		in = (struct dp_input){.what = c->what,
				       .buf = bytes,
				       .start = start,
				       .limit = limit,
				       .clock = clock,
				       .max_events = 4};
		for (unsigned int l = 0; l < DP_LAYOUTS; l++)
			dp_run(&c->plans[l], &in);
		free(bytes);
	}
	for (unsigned int k = 0; k < ncombos; k++) {
		for (unsigned int l = 0; l < DP_LAYOUTS; l++) {
			struct dp_plan *plan = &combos[k].plans[l];
			const struct dp_stats *st = &plan->st;

			if (l != DP_SCOPE && !(sn->flags & SN_NO_PROG))
				for (unsigned int g = 0; g < plan->ngroups; g++)
					CHECK(plan->groups[g].prog_ok > 0,
					      "%s [%s, trace %s]: the program of group %u never "
					      "decoded a buffer itself",
					      combos[k].what, dp_layout_names[l], bo_name, g);
			if (l != DP_SCOPE && !(sn->flags & SN_GIVEUP_OK))
				CHECK(st->giveup_ok == 0,
				      "%s [%s, trace %s]: the program gave up %lu times where the "
				      "generic decoder succeeded",
				      combos[k].what, dp_layout_names[l], bo_name, st->giveup_ok);
			sum.buffers += st->buffers;
			sum.groups += st->groups;
			sum.prog_ok += st->prog_ok;
			sum.giveup_ok += st->giveup_ok;
			sum.giveup_fail += st->giveup_fail;
			sum.prog_err += st->prog_err;
			sum.no_prog += st->no_prog;
			sum.skipped += st->skipped;
			sum.events += st->events;
			sum.mismatches += st->mismatches;
			dp_plan_free(plan);
		}
	}
	printf("%-24s %s: %lu decodes, %lu groups: program %lu, gave up %lu (generic ok %lu), "
	       "failed %lu, no program %lu, skipped %lu, later events %lu, mismatches %lu\n",
	       sn->name, bo_name, sum.buffers, sum.groups, sum.prog_ok,
	       sum.giveup_ok + sum.giveup_fail, sum.giveup_ok, sum.prog_err, sum.no_prog,
	       sum.skipped, sum.events, sum.mismatches);
	total_buffers += sum.buffers;
	total_groups += sum.groups;
	total_prog_ok += sum.prog_ok;
	total_giveup_ok += sum.giveup_ok;
	free(combos);
	ctf_trace_free(trace);
	free(text);
}

/* ---- disagreements found, as fixed cases ---- */

struct regression {
	const char *name;
	const char *body; /* as in snippets, in a little-endian trace */
	uint8_t bytes[64];
	uint64_t start, limit, clock;
};

static const struct regression regressions[] = {
    /*
     * A struct aligned on 32 bits (by x) whose first field is an array: the
     * generic decoder aligns the struct (bit 8 -> 32) before the array, so
     * a = 0x55 and x = 0xccbbaa99, ending at bit 96. The program passes the
     * struct's alignment to the array's OP_GENERIC operation, which does not
     * apply it (the generic decoder only aligns the array to its own 8
     * bits): a = 0x22, x = 0x88776655, ending at bit 64. Found by
     * fuzz_decode_prog.
     */
    {"array first in a struct aligned more",
     "event { name = e; fields := struct { uint8_t a[1];\n"
     "	integer { size = 32; align = 32; signed = false; } x; }; };\n",
     {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc},
     8,
     96,
     0},
    /* the same after an aligned empty struct: the sequence starts at bit 64, not 8 */
    {"sequence after an aligned empty struct",
     "event { name = e; fields := struct { uint8_t n; struct { } align(64) e; uint8_t s[n]; }; "
     "};\n",
     {0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99},
     0,
     80,
     0},
};

static void test_regressions(void)
{
	for (unsigned int i = 0; i < sizeof(regressions) / sizeof(regressions[0]); i++) {
		const struct regression *r = &regressions[i];
		struct snippet sn = {.name = r->name, .body = r->body};
		char *text = make_metadata(&sn, "le");
		struct tsdl_error err;
		struct ctf_trace *trace = tsdl_parse(text, strlen(text), r->name, &err);
		const struct ctf_type *types[CTF_SCOPE_COUNT];
		struct dp_input in = {.what = r->name,
				      .start = r->start,
				      .limit = r->limit,
				      .clock = r->clock,
				      .max_events = 1};
		uint8_t *bytes = malloc((r->limit + 7) / 8);

		CHECK(trace, "%s: metadata does not parse", r->name);
		if (!trace || !bytes) {
			free(bytes);
			free(text);
			continue;
		}
		memcpy(bytes, r->bytes, (r->limit + 7) / 8);
		in.buf = bytes;
		dp_chain(trace, trace->streams[0], trace->streams[0]->events[0], types);
		for (unsigned int l = 0; l < DP_LAYOUTS; l++) {
			struct dp_plan plan;

			CHECK(dp_plan_init(&plan, (enum dp_layout)l, types, trace->byte_order),
			      "%s: no program", r->name);
			dp_run(&plan, &in);
			CHECK(plan.st.mismatches == 0, "%s [%s]: the decoders disagree", r->name,
			      dp_layout_names[l]);
			dp_plan_free(&plan);
		}
		free(bytes);
		ctf_trace_free(trace);
		free(text);
	}
}

int main(int argc, char **argv)
{
	/* buffers per snippet and trace byte order; more with an argument */
	unsigned int nbuf = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 3000;
	unsigned int nsnippets = 0;

	test_regressions();
	gen_int_snippets();
	for (unsigned int i = 0; i < gen_count; i++, nsnippets++) {
		run_snippet(&gen_snippets[i], CTF_BYTE_ORDER_LE, nbuf);
		run_snippet(&gen_snippets[i], CTF_BYTE_ORDER_BE, nbuf);
	}
	for (unsigned int i = 0; i < sizeof(fixed_snippets) / sizeof(fixed_snippets[0]);
	     i++, nsnippets++) {
		run_snippet(&fixed_snippets[i], CTF_BYTE_ORDER_LE, nbuf);
		run_snippet(&fixed_snippets[i], CTF_BYTE_ORDER_BE, nbuf);
	}
	ctf_value_pool_free(&dp_gen.pool);
	ctf_value_pool_free(&dp_prg.pool);
	printf("%u snippets x 2 byte orders, %lu buffer decodes, %lu group decodes compared, "
	       "%lu by programs, %lu give-ups where the generic decoder succeeded\n",
	       nsnippets, total_buffers, total_groups, total_prog_ok, total_giveup_ok);
	if (!failures)
		printf("test_decode_prog: all passed\n");
	return CHECK_RESULT();
}

#endif /* DP_FUZZ */
