/*
 * lxml-lex.c - the tokenizer of the facility XML files (lxml-lex.h). The
 * files are loose: attribute values quoted or not, C comments between
 * tags, empty elements without their "/"; the grammar's reader (lxml.c)
 * decides what a tag means.
 */
#include "legacy/lxml-lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy/larena.h"

void lx_error(struct lparser *P, size_t pos, const char *fmt, ...)
{
	unsigned line = 1, col = 1;
	va_list ap;
	int n;

	if (P->failed)
		return;
	P->failed = true;
	if (pos > P->len)
		pos = P->len;
	for (size_t i = 0; i < pos; i++) {
		if (P->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (!P->errlen)
		return;
	n = snprintf(P->err, P->errlen, "%s:%u:%u: ", P->file, line, col);
	if (n < 0 || (size_t)n >= P->errlen) {
		lmsg_one_line(P->err);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(P->err + n, P->errlen - n, fmt, ap);
	va_end(ap);
	lmsg_one_line(P->err);
}

void *lx_alloc(struct lparser *P, size_t size)
{
	void *p = larena_alloc(P->a, size);

	if (!p)
		lx_error(P, P->pos, "out of memory");
	return p;
}

/* Appends el to a growing arena array (the old copy stays in the arena). */
int lx_push(struct lparser *P, void *arrp, size_t *n, size_t *cap, size_t elsize, const void *el)
{
	char **arr = arrp;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		char *na = lx_alloc(P, ncap * elsize);

		if (!na)
			return -1;
		if (*n)
			memcpy(na, *arr, *n * elsize);
		*arr = na;
		*cap = ncap;
	}
	memcpy(*arr + *n * elsize, el, elsize);
	(*n)++;
	return 0;
}

/* ---- characters ---- */

bool lx_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':';
}

static bool at(const struct lparser *P, const char *lit)
{
	size_t n = strlen(lit);

	return P->len - P->pos >= n && !memcmp(P->s + P->pos, lit, n);
}

/* Finds lit from P->pos; its offset, or len when absent. */
static size_t find(const struct lparser *P, const char *lit)
{
	size_t n = strlen(lit);

	for (size_t i = P->pos; i + n <= P->len; i++)
		if (!memcmp(P->s + i, lit, n))
			return i;
	return P->len;
}

/* An arena copy of s[0..n) with the five XML entities replaced. */
static char *decode_text(struct lparser *P, const char *s, size_t n)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = {
	    {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
	char *d = lx_alloc(P, n + 1);
	size_t o = 0;

	if (!d)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k;

		for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
			size_t el = strlen(ents[k].ent);

			if (n - i >= el && !memcmp(s + i, ents[k].ent, el))
				break;
		}
		if (k < sizeof(ents) / sizeof(ents[0])) {
			d[o++] = ents[k].c;
			i += strlen(ents[k].ent);
		} else {
			d[o++] = s[i++];
		}
	}
	d[o] = 0;
	return d;
}

static char *decode_trimmed(struct lparser *P, const char *s, size_t n)
{
	while (n && lx_is_space(*s)) {
		s++;
		n--;
	}
	while (n && lx_is_space(s[n - 1]))
		n--;
	return decode_text(P, s, n);
}

/* ---- tokens ---- */

/* Skips blanks and the three kinds of comments between tags. */
static int skip_blank(struct lparser *P)
{
	for (;;) {
		while (P->pos < P->len && lx_is_space(P->s[P->pos]))
			P->pos++;
		const char *open = NULL, *close = NULL;

		if (at(P, "<!--"))
			open = "<!--", close = "-->";
		else if (at(P, "/*"))
			open = "/*", close = "*/";
		else if (at(P, "//"))
			open = "//", close = "\n";
		if (!open)
			return 0;
		size_t start = P->pos, end;

		P->pos += strlen(open);
		end = find(P, close);
		if (end == P->len) {
			if (close[0] == '\n') {
				P->pos = P->len;
				return 0;
			}
			lx_error(P, start, "unterminated comment");
			return -1;
		}
		P->pos = end + strlen(close);
	}
}

static const char *lex_name(struct lparser *P)
{
	size_t start = P->pos;

	if (P->pos >= P->len || !is_name_start(P->s[P->pos])) {
		lx_error(P, P->pos, "expected a name");
		return NULL;
	}
	while (P->pos < P->len && is_name_char(P->s[P->pos]))
		P->pos++;
	return larena_strndup(P->a, P->s + start, P->pos - start);
}

static void skip_spaces(struct lparser *P)
{
	while (P->pos < P->len && lx_is_space(P->s[P->pos]))
		P->pos++;
}

static int lex_attr_value(struct lparser *P, struct lattr *at_)
{
	size_t start = P->pos;

	if (P->pos < P->len && (P->s[P->pos] == '"' || P->s[P->pos] == '\'')) {
		char q = P->s[P->pos++];
		const char *end = memchr(P->s + P->pos, q, P->len - P->pos);

		if (!end) {
			lx_error(P, start, "unterminated attribute value");
			return -1;
		}
		at_->value = decode_text(P, P->s + P->pos, end - (P->s + P->pos));
		P->pos = end - P->s + 1;
	} else {
		while (P->pos < P->len && !lx_is_space(P->s[P->pos]) && P->s[P->pos] != '>' &&
		       P->s[P->pos] != '<' && !at(P, "/>"))
			P->pos++;
		if (P->pos == start) {
			lx_error(P, start, "expected an attribute value");
			return -1;
		}
		at_->value = decode_text(P, P->s + start, P->pos - start);
	}
	return at_->value ? 0 : -1;
}

static int lex_tag(struct lparser *P, struct ltok *t)
{
	P->pos++; /* '<' */
	if (P->pos < P->len && P->s[P->pos] == '/') {
		P->pos++;
		t->kind = LTOK_CLOSE;
		if (!(t->name = lex_name(P)))
			return -1;
		skip_spaces(P);
		if (!at(P, ">")) {
			lx_error(P, P->pos, "expected '>' to end </%s>", t->name);
			return -1;
		}
		P->pos++;
		return 0;
	}
	t->kind = LTOK_OPEN;
	if (!(t->name = lex_name(P)))
		return -1;
	for (;;) {
		skip_spaces(P);
		if (at(P, "/>")) {
			P->pos += 2;
			t->empty = true;
			return 0;
		}
		if (at(P, ">")) {
			P->pos++;
			return 0;
		}
		if (P->pos >= P->len) {
			lx_error(P, t->pos, "unterminated <%s>", t->name);
			return -1;
		}
		if (t->nattrs == LXML_MAX_ATTRS) {
			lx_error(P, P->pos, "more than %d attributes", LXML_MAX_ATTRS);
			return -1;
		}
		struct lattr *a = &t->attrs[t->nattrs++];

		if (!(a->name = lex_name(P)))
			return -1;
		skip_spaces(P);
		if (at(P, "=")) {
			P->pos++;
			skip_spaces(P);
			if (lex_attr_value(P, a))
				return -1;
		} else {
			a->value = "";
		}
	}
}

int lx_next(struct lparser *P, struct ltok *t)
{
	if (P->has_peeked) {
		*t = P->peeked;
		P->has_peeked = false;
		return 0;
	}
	for (;;) {
		memset(t, 0, sizeof(*t));
		if (skip_blank(P))
			return -1;
		t->pos = P->pos;
		if (P->pos >= P->len) {
			t->kind = LTOK_EOF;
			return 0;
		}
		if (at(P, "<?") || (at(P, "<!") && !at(P, "<!--"))) {
			/* the XML declaration, a DOCTYPE: nothing to read */
			size_t end = find(P, at(P, "<?") ? "?>" : ">");

			if (end == P->len) {
				lx_error(P, t->pos, "unterminated declaration");
				return -1;
			}
			P->pos = end + (P->s[end] == '?' ? 2 : 1);
			continue;
		}
		if (P->s[P->pos] == '<')
			return lex_tag(P, t);
		/* text up to the next tag or comment */
		size_t start = P->pos;

		while (P->pos < P->len && P->s[P->pos] != '<' && !at(P, "/*") && !at(P, "//"))
			P->pos++;
		t->kind = LTOK_TEXT;
		t->text = decode_trimmed(P, P->s + start, P->pos - start);
		return t->text ? 0 : -1;
	}
}

int lx_peek(struct lparser *P, struct ltok **t)
{
	if (!P->has_peeked) {
		if (lx_next(P, &P->peeked))
			return -1;
		P->has_peeked = true;
	}
	*t = &P->peeked;
	return 0;
}

const char *lx_attr(const struct ltok *t, const char *name)
{
	for (unsigned i = 0; i < t->nattrs; i++)
		if (!strcmp(t->attrs[i].name, name))
			return t->attrs[i].value;
	return NULL;
}

/* After a leaf element written without "/": its closing tag, if there. */
int lx_end_leaf(struct lparser *P, const struct ltok *open)
{
	struct ltok *n;

	if (open->empty)
		return 0;
	if (lx_peek(P, &n))
		return -1;
	if (n->kind == LTOK_CLOSE && !strcmp(n->name, open->name))
		P->has_peeked = false;
	return 0;
}

/* The text of <description> (open), up to its closing tag, raw. */
const char *lx_description(struct lparser *P, const struct ltok *open)
{
	size_t end, close;

	if (open->empty)
		return "";
	if (P->has_peeked) { /* cannot happen: descriptions are read right after their tag */
		lx_error(P, open->pos, "internal: description after a peek");
		return NULL;
	}
	end = find(P, "</description");
	if (end == P->len) {
		lx_error(P, open->pos, "unterminated <description>");
		return NULL;
	}
	const char *d = decode_trimmed(P, P->s + P->pos, end - P->pos);

	P->pos = end;
	close = find(P, ">");
	if (close == P->len) {
		lx_error(P, end, "unterminated </description>");
		return NULL;
	}
	P->pos = close + 1;
	return d;
}

void lx_unexpected(struct lparser *P, const struct ltok *t, const char *where)
{
	switch (t->kind) {
	case LTOK_EOF:
		lx_error(P, t->pos, "end of file inside <%s>", where);
		break;
	case LTOK_OPEN:
		lx_error(P, t->pos, "unexpected <%s> in <%s>", t->name, where);
		break;
	case LTOK_CLOSE:
		lx_error(P, t->pos, "unexpected </%s> in <%s>", t->name, where);
		break;
	case LTOK_TEXT:
		lx_error(P, t->pos, "unexpected text in <%s>", where);
		break;
	}
}
