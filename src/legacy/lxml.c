/*
 * lxml.c - the facility description files of the LTTV format (seed 000):
 * one reader for both grammars of docs/legacy-formats.md 1.6, the seed's
 * (an event holds one type, enums list their labels as text, sequences
 * say lengthsize, unions typecodesize) and genevent's (an event holds its
 * fields, <label> elements, sequences with a length type and an element
 * type, unions without selector).
 *
 * Not a general XML parser: the files are loose (unquoted attribute
 * values, empty elements written without their "/", C comments), so the
 * reader knows which elements hold children and which are leaves; a
 * leaf's closing tag is optional. Type names are resolved once the whole
 * file is read (files refer forward); an undeclared name stays a typeref
 * with ref NULL, which only the decoding of an event using it refuses.
 */
#include "legacy/ltt-type.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy/larena.h"

#define LXML_MAX_DEPTH 64 /* nested types: hostile files end here, not in the stack */
#define LXML_MAX_ATTRS 16

enum ltok_kind { LTOK_EOF, LTOK_OPEN, LTOK_CLOSE, LTOK_TEXT };

struct lattr {
	const char *name;
	const char *value; /* "" for a bare attribute (per_tracefile) */
};

struct ltok {
	enum ltok_kind kind;
	size_t pos;	  /* where it starts, for messages */
	const char *name; /* OPEN, CLOSE */
	struct lattr attrs[LXML_MAX_ATTRS];
	unsigned nattrs;
	bool empty;	  /* OPEN written <x/> */
	const char *text; /* TEXT, trimmed */
};

/* A typeref to resolve once its facility is complete. */
struct lref {
	struct ltt_type *t;
	size_t facility;
	struct lref *next;
};

struct lparser {
	const char *s;
	size_t len, pos;
	const char *file;
	char *err;
	size_t errlen;
	bool failed;
	struct lxml_arena *a;
	struct ltok peeked;
	bool has_peeked;
	unsigned depth;
	struct lref *refs;
	struct ltt_facility *fac; /* being built */
	size_t nfac, capfac;
};

/* The marker of an event payload wrapped around a single non-struct type. */
static const char lxml_wrapper[] = "";

static void perr(struct lparser *P, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void perr(struct lparser *P, size_t pos, const char *fmt, ...)
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

static void *palloc(struct lparser *P, size_t size)
{
	void *p = larena_alloc(P->a, size);

	if (!p)
		perr(P, P->pos, "out of memory");
	return p;
}

/* Appends el to a growing arena array (the old copy stays in the arena). */
static int push(struct lparser *P, void *arrp, size_t *n, size_t *cap, size_t elsize,
		const void *el)
{
	char **arr = arrp;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		char *na = palloc(P, ncap * elsize);

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

static bool is_space(char c)
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
	char *d = palloc(P, n + 1);
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
	while (n && is_space(*s)) {
		s++;
		n--;
	}
	while (n && is_space(s[n - 1]))
		n--;
	return decode_text(P, s, n);
}

/* ---- tokens ---- */

/* Skips blanks and the three kinds of comments between tags. */
static int skip_blank(struct lparser *P)
{
	for (;;) {
		while (P->pos < P->len && is_space(P->s[P->pos]))
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
			perr(P, start, "unterminated comment");
			return -1;
		}
		P->pos = end + strlen(close);
	}
}

static const char *lex_name(struct lparser *P)
{
	size_t start = P->pos;

	if (P->pos >= P->len || !is_name_start(P->s[P->pos])) {
		perr(P, P->pos, "expected a name");
		return NULL;
	}
	while (P->pos < P->len && is_name_char(P->s[P->pos]))
		P->pos++;
	return larena_strndup(P->a, P->s + start, P->pos - start);
}

static void skip_spaces(struct lparser *P)
{
	while (P->pos < P->len && is_space(P->s[P->pos]))
		P->pos++;
}

static int lex_attr_value(struct lparser *P, struct lattr *at_)
{
	size_t start = P->pos;

	if (P->pos < P->len && (P->s[P->pos] == '"' || P->s[P->pos] == '\'')) {
		char q = P->s[P->pos++];
		const char *end = memchr(P->s + P->pos, q, P->len - P->pos);

		if (!end) {
			perr(P, start, "unterminated attribute value");
			return -1;
		}
		at_->value = decode_text(P, P->s + P->pos, end - (P->s + P->pos));
		P->pos = end - P->s + 1;
	} else {
		while (P->pos < P->len && !is_space(P->s[P->pos]) && P->s[P->pos] != '>' &&
		       P->s[P->pos] != '<' && !at(P, "/>"))
			P->pos++;
		if (P->pos == start) {
			perr(P, start, "expected an attribute value");
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
			perr(P, P->pos, "expected '>' to end </%s>", t->name);
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
			perr(P, t->pos, "unterminated <%s>", t->name);
			return -1;
		}
		if (t->nattrs == LXML_MAX_ATTRS) {
			perr(P, P->pos, "more than %d attributes", LXML_MAX_ATTRS);
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

static int next(struct lparser *P, struct ltok *t)
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
				perr(P, t->pos, "unterminated declaration");
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

static int peek(struct lparser *P, struct ltok **t)
{
	if (!P->has_peeked) {
		if (next(P, &P->peeked))
			return -1;
		P->has_peeked = true;
	}
	*t = &P->peeked;
	return 0;
}

static const char *attr(const struct ltok *t, const char *name)
{
	for (unsigned i = 0; i < t->nattrs; i++)
		if (!strcmp(t->attrs[i].name, name))
			return t->attrs[i].value;
	return NULL;
}

/* After a leaf element written without "/": its closing tag, if there. */
static int end_leaf(struct lparser *P, const struct ltok *open)
{
	struct ltok *n;

	if (open->empty)
		return 0;
	if (peek(P, &n))
		return -1;
	if (n->kind == LTOK_CLOSE && !strcmp(n->name, open->name))
		P->has_peeked = false;
	return 0;
}

/* The text of <description> (open), up to its closing tag, raw. */
static const char *read_description(struct lparser *P, const struct ltok *open)
{
	size_t end, close;

	if (open->empty)
		return "";
	if (P->has_peeked) { /* cannot happen: descriptions are read right after their tag */
		perr(P, open->pos, "internal: description after a peek");
		return NULL;
	}
	end = find(P, "</description");
	if (end == P->len) {
		perr(P, open->pos, "unterminated <description>");
		return NULL;
	}
	const char *d = decode_trimmed(P, P->s + P->pos, end - P->pos);

	P->pos = end;
	close = find(P, ">");
	if (close == P->len) {
		perr(P, end, "unterminated </description>");
		return NULL;
	}
	P->pos = close + 1;
	return d;
}

static void unexpected(struct lparser *P, const struct ltok *t, const char *where)
{
	switch (t->kind) {
	case LTOK_EOF:
		perr(P, t->pos, "end of file inside <%s>", where);
		break;
	case LTOK_OPEN:
		perr(P, t->pos, "unexpected <%s> in <%s>", t->name, where);
		break;
	case LTOK_CLOSE:
		perr(P, t->pos, "unexpected </%s> in <%s>", t->name, where);
		break;
	case LTOK_TEXT:
		perr(P, t->pos, "unexpected text in <%s>", where);
		break;
	}
}

/* ---- types ---- */

static struct ltt_type *parse_type(struct lparser *P, const struct ltok *open);

static const char *const type_elements[] = {
    "int",  "uint",  "int_fixed", "uint_fixed", "char",	   "uchar",   "short", "ushort",
    "long", "ulong", "pointer",	  "size_t",	"ssize_t", "off_t",   "float", "string",
    "enum", "array", "sequence",  "struct",	"union",   "typeref",
};

static bool is_type_element(const char *name)
{
	for (size_t i = 0; i < sizeof(type_elements) / sizeof(type_elements[0]); i++)
		if (!strcmp(name, type_elements[i]))
			return true;
	return false;
}

static struct ltt_type *new_type(struct lparser *P, enum ltt_kind kind)
{
	struct ltt_type *t = palloc(P, sizeof(*t));

	if (t) {
		t->kind = kind;
		t->base = 10;
	}
	return t;
}

/*
 * A size attribute: 1 2 4 8, or the seed's words (short: 2 bytes; medium:
 * the target int, 4 for floats; long: the target long, 8 for floats).
 */
static int parse_size(struct lparser *P, const struct ltok *open, const char *v, bool is_float,
		      struct ltt_type *t)
{
	t->size_ref = LTT_SIZE_FIXED;
	if (!strcmp(v, "1") || !strcmp(v, "2") || !strcmp(v, "4") || !strcmp(v, "8"))
		t->size = v[0] - '0';
	else if (!strcmp(v, "short"))
		t->size = 2;
	else if (!strcmp(v, "medium"))
		is_float ? (void)(t->size = 4) : (void)(t->size_ref = LTT_SIZE_INT);
	else if (!strcmp(v, "long"))
		is_float ? (void)(t->size = 8) : (void)(t->size_ref = LTT_SIZE_LONG);
	else {
		perr(P, open->pos, "<%s>: size '%s' is not 1, 2, 4, 8, short, medium or long",
		     open->name, v);
		return -1;
	}
	if (is_float && t->size != 4 && t->size != 8) {
		perr(P, open->pos, "<float>: size '%s' is not 4 or 8", v);
		return -1;
	}
	return 0;
}

static bool is_network(const struct ltok *open)
{
	const char *bo = attr(open, "byte_order");

	return attr(open, "network") || (bo && !strcmp(bo, "network"));
}

static struct ltt_type *parse_integer(struct lparser *P, const struct ltok *open)
{
	const char *n = open->name;
	bool is_signed = n[0] != 'u' && strcmp(n, "pointer") && strcmp(n, "size_t");
	struct ltt_type *t = new_type(P, is_signed ? LTT_SIGNED : LTT_UNSIGNED);
	const char *size = attr(open, "size");

	if (!t)
		return NULL;
	t->network = is_network(open);
	if (!strcmp(n, "int") || !strcmp(n, "uint")) {
		if (size) {
			if (parse_size(P, open, size, false, t))
				return NULL;
		} else {
			t->size_ref = LTT_SIZE_INT;
		}
	} else if (!strcmp(n, "int_fixed") || !strcmp(n, "uint_fixed")) {
		if (!size) {
			perr(P, open->pos, "<%s> without size", n);
			return NULL;
		}
		if (parse_size(P, open, size, false, t))
			return NULL;
	} else if (!strcmp(n, "char") || !strcmp(n, "uchar")) {
		t->size = 1;
		t->is_char = true;
	} else if (!strcmp(n, "short") || !strcmp(n, "ushort")) {
		t->size = 2;
	} else if (!strcmp(n, "long") || !strcmp(n, "ulong")) {
		t->size_ref = LTT_SIZE_LONG;
	} else if (!strcmp(n, "pointer")) {
		t->size_ref = LTT_SIZE_POINTER;
		t->base = 16;
	} else { /* size_t ssize_t off_t */
		t->size_ref = LTT_SIZE_SIZE_T;
	}
	return end_leaf(P, open) ? NULL : t;
}

static int add_label(struct lparser *P, struct ltt_type *t, size_t *cap, const char *name,
		     int64_t value)
{
	struct ltt_label l = {name, value};

	return push(P, &t->labels, &t->nlabels, cap, sizeof(l), &l);
}

static int parse_label_value(struct lparser *P, const struct ltok *open, const char *v,
			     int64_t *out)
{
	char *end;
	long long x;

	x = strtoll(v, &end, 0);
	if (!*v || *end) {
		perr(P, open->pos, "<label>: value '%s' is not an integer", v);
		return -1;
	}
	*out = x;
	return 0;
}

static struct ltt_type *parse_enum(struct lparser *P, const struct ltok *open)
{
	struct ltt_type *t = new_type(P, LTT_ENUM);
	const char *size = attr(open, "size");
	size_t cap = 0;
	int64_t nextval = 0;
	struct ltok tok;

	if (!t)
		return NULL;
	t->network = is_network(open);
	if (size) {
		if (parse_size(P, open, size, false, t))
			return NULL;
	} else {
		t->size_ref = LTT_SIZE_INT;
	}
	if (open->empty)
		return t;
	for (;;) {
		if (next(P, &tok))
			return NULL;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, "enum"))
			return t;
		if (tok.kind == LTOK_TEXT) { /* seed grammar: "label1 label2 ..." */
			const char *s = tok.text;

			while (*s) {
				size_t n = 0;

				while (*s && is_space(*s))
					s++;
				while (s[n] && !is_space(s[n]))
					n++;
				if (!n)
					break;
				const char *name = larena_strndup(P->a, s, n);

				if (!name || add_label(P, t, &cap, name, nextval))
					return NULL;
				nextval = (int64_t)((uint64_t)nextval + 1);
				s += n;
			}
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!read_description(P, &tok))
				return NULL;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "label")) {
			const char *name = attr(&tok, "name"), *v = attr(&tok, "value");
			int64_t value = nextval;

			if (!name) {
				perr(P, tok.pos, "<label> without name");
				return NULL;
			}
			if (v && parse_label_value(P, &tok, v, &value))
				return NULL;
			if (add_label(P, t, &cap, name, value))
				return NULL;
			nextval = (int64_t)((uint64_t)value + 1); /* wraps, no overflow */
			if (!tok.empty) { /* <label ...> <description>..</description> [</label>] */
				struct ltok *n;

				if (peek(P, &n))
					return NULL;
				if (n->kind == LTOK_OPEN && !strcmp(n->name, "description")) {
					struct ltok d = *n;

					P->has_peeked = false;
					if (!read_description(P, &d))
						return NULL;
				}
				if (end_leaf(P, &tok))
					return NULL;
			}
		} else {
			unexpected(P, &tok, "enum");
			return NULL;
		}
	}
}

/*
 * The children of a compound up to </closer>: descriptions skipped, each
 * type element appended to types (at most max of them).
 */
static int parse_type_children(struct lparser *P, const struct ltok *open, struct ltt_type **types,
			       size_t max, size_t *n)
{
	struct ltok tok;

	*n = 0;
	if (open->empty)
		return 0;
	for (;;) {
		if (next(P, &tok))
			return -1;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, open->name))
			return 0;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!read_description(P, &tok))
				return -1;
		} else if (tok.kind == LTOK_OPEN && is_type_element(tok.name)) {
			if (*n == max) {
				perr(P, tok.pos, "<%s> holds more than %zu type%s", open->name, max,
				     max > 1 ? "s" : "");
				return -1;
			}
			if (!(types[(*n)++] = parse_type(P, &tok)))
				return -1;
		} else {
			unexpected(P, &tok, open->name);
			return -1;
		}
	}
}

static int parse_count(struct lparser *P, const struct ltok *open, const char *v, uint64_t *out)
{
	char *end;
	unsigned long long x;

	if (!v || !*v || *v == '-') {
		perr(P, open->pos, "<%s> needs a size", open->name);
		return -1;
	}
	x = strtoull(v, &end, 0);
	if (*end) {
		perr(P, open->pos, "<%s>: size '%s' is not a number", open->name, v);
		return -1;
	}
	*out = x;
	return 0;
}

static struct ltt_type *unsigned_of_size(struct lparser *P, const struct ltok *open, const char *v)
{
	struct ltt_type *t = new_type(P, LTT_UNSIGNED);

	if (!t || parse_size(P, open, v, false, t))
		return NULL;
	return t;
}

static bool is_integer(const struct ltt_type *t)
{
	return t->kind == LTT_SIGNED || t->kind == LTT_UNSIGNED;
}

static struct ltt_type *parse_array(struct lparser *P, const struct ltok *open, bool sequence)
{
	struct ltt_type *t = new_type(P, sequence ? LTT_SEQUENCE : LTT_ARRAY);
	struct ltt_type *kids[2];
	const char *lengthsize = attr(open, "lengthsize");
	size_t n, want = sequence && !lengthsize ? 2 : 1;

	if (!t)
		return NULL;
	if (!sequence && parse_count(P, open, attr(open, "size"), &t->length))
		return NULL;
	if (lengthsize && !(t->length_type = unsigned_of_size(P, open, lengthsize)))
		return NULL;
	/*
	 * An array or sequence needs its children: a "/" on its tag is a
	 * slip (poly/stack_arch_i386.xml: <sequence custom_write/> then the
	 * two types and </sequence>), the children are read all the same.
	 */
	struct ltok o = *open;

	o.empty = false;
	if (parse_type_children(P, &o, kids, want, &n))
		return NULL;
	if (n != want) {
		perr(P, open->pos, "<%s> needs %s", open->name,
		     want == 2 ? "a length type and an element type" : "an element type");
		return NULL;
	}
	if (want == 2) {
		if (!is_integer(kids[0])) {
			perr(P, open->pos, "<sequence>: its length type is not an integer");
			return NULL;
		}
		t->length_type = kids[0];
	}
	t->elem = kids[want - 1];
	t->is_char = t->elem->is_char;
	return t;
}

static struct ltt_type *parse_fields(struct lparser *P, const struct ltok *open, struct ltt_type *t)
{
	size_t cap = 0;
	struct ltok tok;

	if (open->empty)
		return t;
	for (;;) {
		if (next(P, &tok))
			return NULL;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, open->name))
			return t;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!read_description(P, &tok))
				return NULL;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "field")) {
			struct ltt_field f = {attr(&tok, "name"), NULL};
			size_t n;

			if (!f.name) {
				perr(P, tok.pos, "<field> without name");
				return NULL;
			}
			if (parse_type_children(P, &tok, &f.type, 1, &n))
				return NULL;
			if (!n) {
				perr(P, tok.pos, "field '%s' has no type", f.name);
				return NULL;
			}
			if (push(P, &t->fields, &t->nfields, &cap, sizeof(f), &f))
				return NULL;
		} else {
			unexpected(P, &tok, open->name);
			return NULL;
		}
	}
}

static struct ltt_type *parse_type(struct lparser *P, const struct ltok *open)
{
	const char *n = open->name;
	struct ltt_type *t = NULL;

	if (++P->depth > LXML_MAX_DEPTH) {
		perr(P, open->pos, "types nested deeper than %d", LXML_MAX_DEPTH);
		return NULL;
	}
	if (!strcmp(n, "string")) {
		t = new_type(P, LTT_STRING);
		if (t && end_leaf(P, open))
			t = NULL;
	} else if (!strcmp(n, "float")) {
		const char *size = attr(open, "size");

		t = new_type(P, LTT_FLOAT);
		if (t && !size) {
			perr(P, open->pos, "<float> without size");
			t = NULL;
		} else if (t && (parse_size(P, open, size, true, t) || end_leaf(P, open))) {
			t = NULL;
		}
	} else if (!strcmp(n, "typeref")) {
		const char *name = attr(open, "name");
		struct lref *r = palloc(P, sizeof(*r));

		if (!name)
			perr(P, open->pos, "<typeref> without name");
		else if (r && (t = new_type(P, LTT_TYPEREF))) {
			t->name = name;
			r->t = t;
			r->facility = P->nfac - 1;
			r->next = P->refs;
			P->refs = r;
			if (end_leaf(P, open))
				t = NULL;
		}
	} else if (!strcmp(n, "enum")) {
		t = parse_enum(P, open);
	} else if (!strcmp(n, "array") || !strcmp(n, "sequence")) {
		t = parse_array(P, open, n[0] == 's');
	} else if (!strcmp(n, "struct") || !strcmp(n, "union")) {
		t = new_type(P, n[0] == 's' ? LTT_STRUCT : LTT_UNION);
		const char *tcs = attr(open, "typecodesize");

		if (t && tcs) {
			struct ltt_type sz = {0};

			if (parse_size(P, open, tcs, false, &sz))
				t = NULL;
			else if (sz.size_ref != LTT_SIZE_FIXED) {
				perr(P, open->pos, "<union>: typecodesize '%s' is not 1, 2, 4 or 8",
				     tcs);
				t = NULL;
			} else {
				t->typecode_size = sz.size;
			}
		}
		if (t)
			t = parse_fields(P, open, t);
		if (t && t->typecode_size && !t->nfields) {
			perr(P, open->pos, "<union> with a selector has no fields");
			t = NULL;
		}
	} else {
		t = parse_integer(P, open);
	}
	P->depth--;
	return t;
}

/* ---- facilities ---- */

static int parse_event(struct lparser *P, const struct ltok *open, struct ltt_facility *f,
		       size_t *cap)
{
	struct ltt_event_type ev = {attr(open, "name"), NULL, NULL};
	struct ltt_type *payload = new_type(P, LTT_STRUCT), *single = NULL;
	size_t fcap = 0;
	struct ltok tok;

	if (!payload)
		return -1;
	if (!ev.name) {
		perr(P, open->pos, "<event> without name");
		return -1;
	}
	while (!open->empty) {
		if (next(P, &tok))
			return -1;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, "event"))
			break;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!(ev.description = read_description(P, &tok)))
				return -1;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "field") && !single) {
			struct ltt_field fl = {attr(&tok, "name"), NULL};
			size_t n;

			if (!fl.name) {
				perr(P, tok.pos, "<field> without name");
				return -1;
			}
			if (parse_type_children(P, &tok, &fl.type, 1, &n))
				return -1;
			if (!n) {
				perr(P, tok.pos, "field '%s' has no type", fl.name);
				return -1;
			}
			if (push(P, &payload->fields, &payload->nfields, &fcap, sizeof(fl), &fl))
				return -1;
		} else if (tok.kind == LTOK_OPEN && is_type_element(tok.name) && !single &&
			   !payload->nfields) {
			/* seed grammar: the event is one type, usually a struct */
			if (!(single = parse_type(P, &tok)))
				return -1;
		} else {
			if (tok.kind == LTOK_OPEN &&
			    (is_type_element(tok.name) || !strcmp(tok.name, "field")))
				perr(P, tok.pos, "event '%s': a second payload type <%s>", ev.name,
				     tok.name);
			else
				unexpected(P, &tok, "event");
			return -1;
		}
	}
	if (single && single->kind == LTT_STRUCT) {
		payload = single;
	} else if (single) {
		struct ltt_field fl = {"value", single};

		payload->name = lxml_wrapper; /* a typeref to a struct: replaced once resolved */
		if (push(P, &payload->fields, &payload->nfields, &fcap, sizeof(fl), &fl))
			return -1;
	}
	ev.payload = payload;
	return push(P, &f->events, &f->nevents, cap, sizeof(ev), &ev);
}

static int parse_named_type(struct lparser *P, const struct ltok *open, struct ltt_facility *f,
			    size_t *cap)
{
	const char *name = attr(open, "name");
	struct ltt_type *t;
	size_t n;

	if (!name) {
		perr(P, open->pos, "<type> without name");
		return -1;
	}
	for (size_t i = 0; i < f->nnamed; i++) {
		if (!strcmp(f->named[i]->name, name)) {
			perr(P, open->pos, "type '%s' declared twice", name);
			return -1;
		}
	}
	if (parse_type_children(P, open, &t, 1, &n))
		return -1;
	if (!n) {
		perr(P, open->pos, "type '%s' has no definition", name);
		return -1;
	}
	if (t->kind == LTT_TYPEREF) { /* an alias: a struct of one field keeps both names */
		perr(P, open->pos, "type '%s' is only a typeref to '%s'", name, t->name);
		return -1;
	}
	t->name = name;
	return push(P, &f->named, &f->nnamed, cap, sizeof(t), &t);
}

static int parse_facility(struct lparser *P, const struct ltok *open)
{
	struct ltt_facility f = {0};
	size_t cap_events = 0, cap_named = 0;
	struct ltok tok;

	if (!(f.name = attr(open, "name"))) {
		perr(P, open->pos, "<facility> without name");
		return -1;
	}
	f.arena = P->a;
	/* in the list now: typerefs name their facility by index */
	if (push(P, &P->fac, &P->nfac, &P->capfac, sizeof(f), &f))
		return -1;
	while (!open->empty) {
		struct ltt_facility *fp = &P->fac[P->nfac - 1];

		if (next(P, &tok))
			return -1;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, "facility"))
			break;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!(fp->description = read_description(P, &tok)))
				return -1;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "event")) {
			if (parse_event(P, &tok, fp, &cap_events))
				return -1;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "type")) {
			if (parse_named_type(P, &tok, fp, &cap_named))
				return -1;
		} else {
			unexpected(P, &tok, "facility");
			return -1;
		}
	}
	return 0;
}

/* Names to types, per facility; then events that were one typeref to a struct become it. */
static void resolve(struct lparser *P)
{
	for (struct lref *r = P->refs; r; r = r->next) {
		const struct ltt_facility *f = &P->fac[r->facility];

		for (size_t i = 0; i < f->nnamed && !r->t->ref; i++)
			if (!strcmp(f->named[i]->name, r->t->name))
				r->t->ref = f->named[i];
	}
	for (size_t i = 0; i < P->nfac; i++) {
		for (size_t e = 0; e < P->fac[i].nevents; e++) {
			struct ltt_event_type *ev = &P->fac[i].events[e];
			const struct ltt_type *in;

			if (ev->payload->name != lxml_wrapper)
				continue;
			ev->payload->name = NULL;
			in = ltt_type_resolve(ev->payload->fields[0].type);
			if (in && in->kind == LTT_STRUCT)
				ev->payload = (struct ltt_type *)in;
		}
	}
}

int lxml_parse(const char *text, size_t len, const char *file, struct ltt_facility **out, size_t *n,
	       char *err, size_t errlen)
{
	struct lparser P = {
	    .s = text, .len = len, .file = file ? file : "<xml>", .err = err, .errlen = errlen};
	struct ltok tok;

	*out = NULL;
	*n = 0;
	if (errlen)
		err[0] = 0;
	if (!(P.a = larena_new())) {
		perr(&P, 0, "out of memory");
		return -1;
	}
	for (;;) {
		if (next(&P, &tok))
			goto fail;
		if (tok.kind == LTOK_EOF)
			break;
		if (tok.kind != LTOK_OPEN || strcmp(tok.name, "facility")) {
			perr(&P, tok.pos, "expected <facility>");
			goto fail;
		}
		if (parse_facility(&P, &tok))
			goto fail;
	}
	if (!P.nfac) {
		perr(&P, P.len, "no <facility> in the file");
		goto fail;
	}
	resolve(&P);
	/* the caller's copy: P.fac lives in the arena, lxml_free frees both */
	*out = malloc(P.nfac * sizeof(**out));
	if (!*out) {
		perr(&P, 0, "out of memory");
		goto fail;
	}
	memcpy(*out, P.fac, P.nfac * sizeof(**out));
	*n = P.nfac;
	return 0;
fail:
	if (!P.failed)
		perr(&P, P.pos, "out of memory");
	larena_free(P.a);
	return -1;
}

void lxml_free(struct ltt_facility *f, size_t n)
{
	if (!f)
		return;
	if (n)
		larena_free(f[0].arena); /* one arena for the whole file */
	free(f);
}
