/*
 * kfpush-str.c - string comparisons in the kernel's syntax.
 *
 * The kernel compares a string field with `==` / `!=` as strncmp over
 * the field's size (char[N]) or the string's length with its NUL
 * (__data_loc): for a literal of at most N bytes that is LTTng's
 * equality of the text up to its first NUL; a longer literal never
 * equals a char[N] in LTTng, and the kernel would compare only its first
 * N bytes, so that case is written as the constant it is.
 *
 * Patterns use `~`. The kernel picks its matcher from the pattern's
 * shape: "abc*" compares the first bytes (exact on any char[N]),
 * "*abc" and "*abc*" use matchers that are wrong for char[N] fields (the
 * end is taken at N, the search runs past the NUL), anything with `?`,
 * `[` or `\` uses glob_match(), which reads up to the NUL. LTTng's
 * patterns have `*` and the escapes `\*`, `\\`; written with every
 * literal `*`, `?`, `[`, `\` escaped and the first literal character
 * escaped too, they always go to glob_match(), where they mean what they
 * mean in LTTng, for strings that end with a NUL: __data_loc strings and
 * task names. Other char[N] fields take only "abc*".
 *
 * The kernel's literal has no escapes of its own: it runs to the next
 * quote of the kind that opened it, and must be shorter than 256 bytes.
 */
#include <string.h>

#include "common/strbuf.h"
#include "kernel/kfpush-internal.h"

#define KERNEL_MAX_LITERAL 255 /* MAX_FILTER_STR_VAL - 1 */

/* One character of an LTTng pattern: a star, or a literal byte. */
struct pat_char {
	bool star;
	char c;
};

/* The pattern's characters (escapes resolved); count. */
static size_t pattern_chars(const char *p, size_t len, struct pat_char *out)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (p[i] == '\\' && i + 1 < len) {
			out[n++] = (struct pat_char){false, p[++i]};
		} else if (p[i] == '*') {
			if (!n || !out[n - 1].star) /* "**" is "*" */
				out[n++] = (struct pat_char){true, 0};
		} else {
			out[n++] = (struct pat_char){false, p[i]};
		}
	}
	return n;
}

/* The quote to write s in ('"', '\''), or 0 when it holds both. */
static char quote_for(const char *s, size_t len)
{
	if (!memchr(s, '"', len))
		return '"';
	if (!memchr(s, '\'', len))
		return '\'';
	return 0;
}

static struct kfp_res predicate(const char *name, bool negate, const char *op, const char *lit,
				size_t len)
{
	char q = quote_for(lit, len);
	struct strbuf sb;
	struct kfp_res r;

	if (!q || len > KERNEL_MAX_LITERAL || memchr(lit, 0, len))
		return kfp_true(false);
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s%s %s %c", negate ? "!" : "", name, op, q);
	strbuf_add(&sb, lit, len);
	strbuf_printf(&sb, "%c", q);
	r = sb.failed ? kfp_true(false) : kfp_text(sb.buf, KFP_ATOM, true);
	strbuf_free(&sb);
	return r;
}

/* Whether "" matches the pattern: only stars. */
static bool matches_empty(const struct pat_char *pc, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!pc[i].star)
			return false;
	return true;
}

static struct kfp_res glob_cmp(const struct kfp_field *f, const char *lit, size_t len, bool ne)
{
	struct pat_char pc[KERNEL_MAX_LITERAL + 1];
	char text[2 * (KERNEL_MAX_LITERAL + 1)];
	size_t n, t = 0;
	bool first = true;

	if (len > KERNEL_MAX_LITERAL)
		return kfp_true(false);
	n = pattern_chars(lit, len, pc);
	if (f->kind == KFP_FIELD_EMPTY)
		return matches_empty(pc, n) != ne ? kfp_true(true) : kfp_false();
	if (n == 1 && pc[0].star)
		return ne ? kfp_false() : kfp_true(true); /* "*": anything */
	if (!f->nul_terminated) {
		/* "abc*" only: the kernel's prefix match, for any char[N] */
		size_t lits = n - 1;

		if (!pc[n - 1].star)
			return kfp_true(false);
		for (size_t i = 0; i < lits; i++) {
			if (pc[i].star || strchr("*?[\\", pc[i].c) || !pc[i].c)
				return kfp_true(false);
			text[t++] = pc[i].c;
		}
		if (text[0] == '!' || (text[0] >= '0' && text[0] <= '9'))
			return kfp_true(false); /* the kernel reads those as "not" and an index */
		if (f->size && lits > f->size)	/* longer than the field: never */
			return ne ? kfp_true(true) : kfp_false();
		text[t++] = '*';
		return predicate(f->name, ne, "~", text, t);
	}
	for (size_t i = 0; i < n; i++) {
		if (pc[i].star) {
			text[t++] = '*';
			continue;
		}
		if (first || strchr("*?[\\", pc[i].c))
			text[t++] = '\\'; /* the first one: so that glob_match() reads it */
		text[t++] = pc[i].c;
		first = false;
	}
	return predicate(f->name, ne, "~", text, t);
}

struct kfp_res kfp_str_cmp(const struct kfp_field *f, const char *lit, size_t len, bool glob,
			   bool ne)
{
	if (f->kind != KFP_FIELD_STR && f->kind != KFP_FIELD_EMPTY)
		return kfp_true(false);
	if (glob)
		return glob_cmp(f, lit, len, ne);
	if (f->kind == KFP_FIELD_EMPTY)
		return (len == 0) != ne ? kfp_true(true) : kfp_false();
	if (f->size && len > f->size) /* LTTng's text is at most N bytes */
		return ne ? kfp_true(true) : kfp_false();
	return predicate(f->name, false, ne ? "!=" : "==", lit, len);
}
