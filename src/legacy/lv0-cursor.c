/*
 * lv0-cursor.c - the cursors of an LTTV trace: each raw event of the walk
 * gets its class from the facility table, its payload size (computed from
 * the description and checked against the header's, 1.3) and its time.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "legacy/lv0-impl.h"

int lv0_cursor_open(struct ltt_cursor *c)
{
	struct lv0_cursor *lc = calloc(1, sizeof(*lc));

	if (!lc || !(lc->said = calloc(LV0_NUM_FACILITIES * 256 / 8, 1))) {
		free(lc);
		snprintf(c->err, sizeof(c->err), "%s: out of memory", c->f->path);
		return -1;
	}
	c->priv = lc;
	return 0;
}

void lv0_cursor_close(struct ltt_cursor *c)
{
	struct lv0_cursor *lc = c->priv;

	if (lc)
		free(lc->said);
	free(lc);
	c->priv = NULL;
}

/* Whether (facility, event) was already reported; marks it. */
static bool said_before(struct lv0_cursor *lc, uint8_t fac, uint8_t ev)
{
	unsigned bit = (unsigned)fac << 8 | ev;
	bool r = lc->said[bit / 8] & (1u << (bit % 8));

	lc->said[bit / 8] |= (uint8_t)(1u << (bit % 8));
	return r;
}

static struct ltt_class *class_of(const struct lv0_trace *lt, const struct lv0_raw *r, char *why,
				  size_t whylen)
{
	const struct lv0_facility *fac = &lt->fac[r->facility];

	if (!fac->set) {
		snprintf(why, whylen, "unknown facility id %u (event id %u)", r->facility,
			 r->event);
		return NULL;
	}
	if (r->facility == 0 && lv0_core_is_heartbeat_full(r->event, r->size))
		return fac->heartbeat_full;
	if (!fac->desc && r->facility != 0) {
		snprintf(why, whylen, "facility %s (id %u) has no description: event id %u",
			 fac->name, r->facility, r->event);
		return NULL;
	}
	if (r->event >= fac->nevents) {
		snprintf(why, whylen, "unknown event id %u of facility %s (id %u)", r->event,
			 fac->name, r->facility);
		return NULL;
	}
	return fac->classes[r->event];
}

void lv0_plans_drop(struct lv0_trace *lt, size_t i)
{
	for (size_t k = 0; k < lt->nplans; k++) {
		if (i != SIZE_MAX && k != i)
			continue;
		for (unsigned j = 0; j < LV0_PLAN_KEYS; j++) {
			free(lt->plans[k].p[j]);
			lt->plans[k].p[j] = NULL;
		}
		lt->plans[k].planned = 0;
	}
}

/* cls's plan for a payload base bytes into its block; NULL: none (the walk sizes it). */
static const struct ltt_plan *class_plan(struct lv0_trace *lt, const struct ltt_trace *t,
					 const struct ltt_class *cls, uint64_t base)
{
	unsigned a = cls->abi.alignment, key;
	struct lv0_plans *p;

	if (a > LV0_PLAN_KEYS)
		return NULL;
	if (!lt->plans) {
		lt->nplans = ltt_trace_class_count(t);
		lt->plans = calloc(lt->nplans ? lt->nplans : 1, sizeof(*lt->plans));
		if (!lt->plans) {
			lt->nplans = 0;
			return NULL;
		}
	}
	if (cls->index >= lt->nplans)
		return NULL;
	p = &lt->plans[cls->index];
	key = a > 1 ? (unsigned)(base & (a - 1)) : 0;
	if (!(p->planned & 1u << key)) {
		p->planned |= (uint8_t)(1u << key);
		p->p[key] = ltt_payload_plan(cls->payload, &cls->abi, (size_t)base);
	}
	return p->p[key];
}

/*
 * The payload's size, 1.3: the computed one; when the header has one
 * (below 0xFFFF) they must agree, else the fallback of a realignment after
 * strings (then the class keeps that rule). -1 with why set when neither.
 * With trust (and a size in the header), a class without a plan is not
 * walked: the header's size, *unchecked set.
 */
static long payload_len(struct ltt_class *cls, const struct ltt_cursor *c, const struct lv0_raw *r,
			bool trust, bool *unchecked, char *why, size_t whylen)
{
	const uint8_t *p = c->f->data + r->payload_off;
	struct lv0_trace *lt = c->t->priv;
	const struct ltt_plan *plan = class_plan(lt, c->t, cls, r->base);
	char err[256] = "";
	long n = plan ? ltt_plan_size(plan, r->avail) : -1;

	*unchecked = false;
	if (!plan && trust && r->size != 0xFFFF) {
		*unchecked = true; /* (lv0_walk_next checked it fits the block) */
		return r->size;
	}
	if (n < 0) /* no plan, or too short for it: the walk says why */
		n = ltt_payload_size(cls->payload, &cls->abi, p, r->avail, r->base, err,
				     sizeof(err));

	if (r->size == 0xFFFF) {
		if (n < 0)
			snprintf(why, whylen, "%s: %s", cls->name, err);
		return n;
	}
	if (n == r->size)
		return n;
	if (cls->abi.alignment && !cls->abi.realign_after_string) {
		struct ltt_abi a = cls->abi;
		char err2[256];

		a.realign_after_string = true;
		if (ltt_payload_size(cls->payload, &a, p, r->avail, r->base, err2, sizeof(err2)) ==
		    r->size) {
			cls->abi = a;
			lv0_plans_drop(lt, cls->index); /* made under the ABI before */
			return r->size;
		}
	}
	if (n < 0)
		snprintf(why, whylen, "%s: %s", cls->name, err);
	else
		snprintf(why, whylen, "%s: event size %u differs from the computed %ld", cls->name,
			 r->size, n);
	return -1;
}

int lv0_cursor_next(struct ltt_cursor *c, struct ltt_event *ev)
{
	struct lv0_trace *lt = c->t->priv;
	struct lv0_cursor *lc = c->priv;
	struct lv0_raw r;
	int rc;

	while ((rc = lv0_walk_next(c, &r)) > 0) {
		char why[384];
		struct ltt_class *cls = class_of(lt, &r, why, sizeof(why));
		bool unchecked = false;
		/* (an unclosed block's garbage is found by the check: never trusted) */
		long len = cls ? payload_len(cls, c, &r, lc->trust_sizes && !lc->unclosed,
					     &unchecked, why, sizeof(why))
			       : -1;

		if (len < 0) {
			/* an unclosed block's garbage ends the block */
			if (lc->unclosed) {
				lv0_walk_abandon_block(c, &r, why);
				continue;
			}
			if (r.size == 0xFFFF)
				return ltrace_cursor_fail(c, r.offset,
							  "%s; its size is not in its header: "
							  "cannot go on",
							  why);
			/* 1.5 DECISION: said once per (facility, event), skipped */
			if (!cls ? !said_before(lc, r.facility, r.event) : true)
				ltrace_cursor_warn(c, r.offset, "%s: skipped", why);
			lv0_walk_skip(c, &r, r.size);
			continue;
		}
		ev->cls = cls;
		ev->tsc = r.tsc;
		ev->ns = ltrace_tsc_ns(&c->t->info, r.tsc);
		ev->payload = c->f->data + r.payload_off;
		ev->len = (size_t)len;
		ev->base = r.base;
		ev->offset = r.offset;
		ev->lost_before = 0;
		ev->size_unchecked = unchecked;
		if (unchecked)
			lc->last = r;
		lv0_walk_skip(c, &r, (uint64_t)len);
		return 1;
	}
	return rc;
}

void lv0_cursor_trust_sizes(struct ltt_cursor *c)
{
	struct lv0_cursor *lc = c->priv;

	lc->trust_sizes = true;
}

long lv0_cursor_check_size(struct ltt_cursor *c, const struct ltt_event *ev)
{
	struct lv0_cursor *lc = c->priv;
	struct ltt_class *cls = (struct ltt_class *)ev->cls; /* (the trace's: its ABI may change) */
	char why[384];
	bool unchecked;
	long len;

	assert(ev->offset == lc->last.offset && lc->last.size != 0xFFFF);
	len = payload_len(cls, c, &lc->last, false, &unchecked, why, sizeof(why));
	if (len < 0) /* as lv0_cursor_next says it of a checked event (the cursor is past it) */
		ltrace_cursor_warn(c, lc->last.offset, "%s: skipped", why);
	return len;
}
