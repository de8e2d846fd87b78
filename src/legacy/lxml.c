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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy/larena.h"
#include "legacy/lxml-lex.h"

/* The marker of an event payload wrapped around a single non-struct type. */
static const char lxml_wrapper[] = "";

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
	struct ltt_type *t = lx_alloc(P, sizeof(*t));

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
		lx_error(P, open->pos, "<%s>: size '%s' is not 1, 2, 4, 8, short, medium or long",
			 open->name, v);
		return -1;
	}
	if (is_float && t->size != 4 && t->size != 8) {
		lx_error(P, open->pos, "<float>: size '%s' is not 4 or 8", v);
		return -1;
	}
	return 0;
}

static bool is_network(const struct ltok *open)
{
	const char *bo = lx_attr(open, "byte_order");

	return lx_attr(open, "network") || (bo && !strcmp(bo, "network"));
}

static struct ltt_type *parse_integer(struct lparser *P, const struct ltok *open)
{
	const char *n = open->name;
	bool is_signed = n[0] != 'u' && strcmp(n, "pointer") && strcmp(n, "size_t");
	struct ltt_type *t = new_type(P, is_signed ? LTT_SIGNED : LTT_UNSIGNED);
	const char *size = lx_attr(open, "size");

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
			lx_error(P, open->pos, "<%s> without size", n);
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
	return lx_end_leaf(P, open) ? NULL : t;
}

static int add_label(struct lparser *P, struct ltt_type *t, size_t *cap, const char *name,
		     int64_t value)
{
	struct ltt_label l = {name, value};

	return lx_push(P, &t->labels, &t->nlabels, cap, sizeof(l), &l);
}

static int parse_label_value(struct lparser *P, const struct ltok *open, const char *v,
			     int64_t *out)
{
	char *end;
	long long x;

	x = strtoll(v, &end, 0);
	if (!*v || *end) {
		lx_error(P, open->pos, "<label>: value '%s' is not an integer", v);
		return -1;
	}
	*out = x;
	return 0;
}

static struct ltt_type *parse_enum(struct lparser *P, const struct ltok *open)
{
	struct ltt_type *t = new_type(P, LTT_ENUM);
	const char *size = lx_attr(open, "size");
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
		if (lx_next(P, &tok))
			return NULL;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, "enum"))
			return t;
		if (tok.kind == LTOK_TEXT) { /* seed grammar: "label1 label2 ..." */
			const char *s = tok.text;

			while (*s) {
				size_t n = 0;

				while (*s && lx_is_space(*s))
					s++;
				while (s[n] && !lx_is_space(s[n]))
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
			if (!lx_description(P, &tok))
				return NULL;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "label")) {
			const char *name = lx_attr(&tok, "name"), *v = lx_attr(&tok, "value");
			int64_t value = nextval;

			if (!name) {
				lx_error(P, tok.pos, "<label> without name");
				return NULL;
			}
			if (v && parse_label_value(P, &tok, v, &value))
				return NULL;
			if (add_label(P, t, &cap, name, value))
				return NULL;
			nextval = (int64_t)((uint64_t)value + 1); /* wraps, no overflow */
			if (!tok.empty) { /* <label ...> <description>..</description> [</label>] */
				struct ltok *n;

				if (lx_peek(P, &n))
					return NULL;
				if (n->kind == LTOK_OPEN && !strcmp(n->name, "description")) {
					struct ltok d = *n;

					P->has_peeked = false;
					if (!lx_description(P, &d))
						return NULL;
				}
				if (lx_end_leaf(P, &tok))
					return NULL;
			}
		} else {
			lx_unexpected(P, &tok, "enum");
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
		if (lx_next(P, &tok))
			return -1;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, open->name))
			return 0;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!lx_description(P, &tok))
				return -1;
		} else if (tok.kind == LTOK_OPEN && is_type_element(tok.name)) {
			if (*n == max) {
				lx_error(P, tok.pos, "<%s> holds more than %zu type%s", open->name,
					 max, max > 1 ? "s" : "");
				return -1;
			}
			if (!(types[(*n)++] = parse_type(P, &tok)))
				return -1;
		} else {
			lx_unexpected(P, &tok, open->name);
			return -1;
		}
	}
}

static int parse_count(struct lparser *P, const struct ltok *open, const char *v, uint64_t *out)
{
	char *end;
	unsigned long long x;

	if (!v || !*v || *v == '-') {
		lx_error(P, open->pos, "<%s> needs a size", open->name);
		return -1;
	}
	x = strtoull(v, &end, 0);
	if (*end) {
		lx_error(P, open->pos, "<%s>: size '%s' is not a number", open->name, v);
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
	const char *lengthsize = lx_attr(open, "lengthsize");
	size_t n, want = sequence && !lengthsize ? 2 : 1;

	if (!t)
		return NULL;
	if (!sequence && parse_count(P, open, lx_attr(open, "size"), &t->length))
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
		lx_error(P, open->pos, "<%s> needs %s", open->name,
			 want == 2 ? "a length type and an element type" : "an element type");
		return NULL;
	}
	if (want == 2) {
		if (!is_integer(kids[0])) {
			lx_error(P, open->pos, "<sequence>: its length type is not an integer");
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
		if (lx_next(P, &tok))
			return NULL;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, open->name))
			return t;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!lx_description(P, &tok))
				return NULL;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "field")) {
			struct ltt_field f = {lx_attr(&tok, "name"), NULL};
			size_t n;

			if (!f.name) {
				lx_error(P, tok.pos, "<field> without name");
				return NULL;
			}
			if (parse_type_children(P, &tok, &f.type, 1, &n))
				return NULL;
			if (!n) {
				lx_error(P, tok.pos, "field '%s' has no type", f.name);
				return NULL;
			}
			if (lx_push(P, &t->fields, &t->nfields, &cap, sizeof(f), &f))
				return NULL;
		} else {
			lx_unexpected(P, &tok, open->name);
			return NULL;
		}
	}
}

static struct ltt_type *parse_type(struct lparser *P, const struct ltok *open)
{
	const char *n = open->name;
	struct ltt_type *t = NULL;

	if (++P->depth > LXML_MAX_DEPTH) {
		lx_error(P, open->pos, "types nested deeper than %d", LXML_MAX_DEPTH);
		return NULL;
	}
	if (!strcmp(n, "string")) {
		t = new_type(P, LTT_STRING);
		if (t && lx_end_leaf(P, open))
			t = NULL;
	} else if (!strcmp(n, "float")) {
		const char *size = lx_attr(open, "size");

		t = new_type(P, LTT_FLOAT);
		if (t && !size) {
			lx_error(P, open->pos, "<float> without size");
			t = NULL;
		} else if (t && (parse_size(P, open, size, true, t) || lx_end_leaf(P, open))) {
			t = NULL;
		}
	} else if (!strcmp(n, "typeref")) {
		const char *name = lx_attr(open, "name");
		struct lref *r = lx_alloc(P, sizeof(*r));

		if (!name)
			lx_error(P, open->pos, "<typeref> without name");
		else if (r && (t = new_type(P, LTT_TYPEREF))) {
			t->name = name;
			r->t = t;
			r->facility = P->nfac - 1;
			r->next = P->refs;
			P->refs = r;
			if (lx_end_leaf(P, open))
				t = NULL;
		}
	} else if (!strcmp(n, "enum")) {
		t = parse_enum(P, open);
	} else if (!strcmp(n, "array") || !strcmp(n, "sequence")) {
		t = parse_array(P, open, n[0] == 's');
	} else if (!strcmp(n, "struct") || !strcmp(n, "union")) {
		t = new_type(P, n[0] == 's' ? LTT_STRUCT : LTT_UNION);
		const char *tcs = lx_attr(open, "typecodesize");

		if (t && tcs) {
			struct ltt_type sz = {0};

			if (parse_size(P, open, tcs, false, &sz))
				t = NULL;
			else if (sz.size_ref != LTT_SIZE_FIXED) {
				lx_error(P, open->pos,
					 "<union>: typecodesize '%s' is not 1, 2, 4 or 8", tcs);
				t = NULL;
			} else {
				t->typecode_size = sz.size;
			}
		}
		if (t)
			t = parse_fields(P, open, t);
		if (t && t->typecode_size && !t->nfields) {
			lx_error(P, open->pos, "<union> with a selector has no fields");
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
	struct ltt_event_type ev = {lx_attr(open, "name"), NULL, NULL};
	struct ltt_type *payload = new_type(P, LTT_STRUCT), *single = NULL;
	size_t fcap = 0;
	struct ltok tok;

	if (!payload)
		return -1;
	if (!ev.name) {
		lx_error(P, open->pos, "<event> without name");
		return -1;
	}
	while (!open->empty) {
		if (lx_next(P, &tok))
			return -1;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, "event"))
			break;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!(ev.description = lx_description(P, &tok)))
				return -1;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "field") && !single) {
			struct ltt_field fl = {lx_attr(&tok, "name"), NULL};
			size_t n;

			if (!fl.name) {
				lx_error(P, tok.pos, "<field> without name");
				return -1;
			}
			if (parse_type_children(P, &tok, &fl.type, 1, &n))
				return -1;
			if (!n) {
				lx_error(P, tok.pos, "field '%s' has no type", fl.name);
				return -1;
			}
			if (lx_push(P, &payload->fields, &payload->nfields, &fcap, sizeof(fl), &fl))
				return -1;
		} else if (tok.kind == LTOK_OPEN && is_type_element(tok.name) && !single &&
			   !payload->nfields) {
			/* seed grammar: the event is one type, usually a struct */
			if (!(single = parse_type(P, &tok)))
				return -1;
		} else {
			if (tok.kind == LTOK_OPEN &&
			    (is_type_element(tok.name) || !strcmp(tok.name, "field")))
				lx_error(P, tok.pos, "event '%s': a second payload type <%s>",
					 ev.name, tok.name);
			else
				lx_unexpected(P, &tok, "event");
			return -1;
		}
	}
	if (single && single->kind == LTT_STRUCT) {
		payload = single;
	} else if (single) {
		struct ltt_field fl = {"value", single};

		payload->name = lxml_wrapper; /* a typeref to a struct: replaced once resolved */
		if (lx_push(P, &payload->fields, &payload->nfields, &fcap, sizeof(fl), &fl))
			return -1;
	}
	ev.payload = payload;
	return lx_push(P, &f->events, &f->nevents, cap, sizeof(ev), &ev);
}

static int parse_named_type(struct lparser *P, const struct ltok *open, struct ltt_facility *f,
			    size_t *cap)
{
	const char *name = lx_attr(open, "name");
	struct ltt_type *t;
	size_t n;

	if (!name) {
		lx_error(P, open->pos, "<type> without name");
		return -1;
	}
	if (parse_type_children(P, open, &t, 1, &n))
		return -1;
	if (!n) {
		lx_error(P, open->pos, "type '%s' has no definition", name);
		return -1;
	}
	if (t->kind == LTT_TYPEREF) { /* an alias: no node of its own to carry its name */
		lx_error(P, open->pos, "type '%s' is only a typeref to '%s'", name, t->name);
		return -1;
	}
	t->name = name;
	struct lnamed d = {P->nfac - 1, name, t, open->pos};

	if (lx_push(P, &P->named, &P->nnamed, &P->capnamed, sizeof(d), &d))
		return -1;
	return lx_push(P, &f->named, &f->nnamed, cap, sizeof(t), &t);
}

static int parse_facility(struct lparser *P, const struct ltok *open)
{
	struct ltt_facility f = {0};
	size_t cap_events = 0, cap_named = 0;
	struct ltok tok;

	if (!(f.name = lx_attr(open, "name"))) {
		lx_error(P, open->pos, "<facility> without name");
		return -1;
	}
	f.arena = P->a;
	/* in the list now: typerefs name their facility by index */
	if (lx_push(P, &P->fac, &P->nfac, &P->capfac, sizeof(f), &f))
		return -1;
	while (!open->empty) {
		struct ltt_facility *fp = &P->fac[P->nfac - 1];

		if (lx_next(P, &tok))
			return -1;
		if (tok.kind == LTOK_CLOSE && !strcmp(tok.name, "facility"))
			break;
		if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "description")) {
			if (!(fp->description = lx_description(P, &tok)))
				return -1;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "event")) {
			if (parse_event(P, &tok, fp, &cap_events))
				return -1;
		} else if (tok.kind == LTOK_OPEN && !strcmp(tok.name, "type")) {
			if (parse_named_type(P, &tok, fp, &cap_named))
				return -1;
		} else {
			lx_unexpected(P, &tok, "facility");
			return -1;
		}
	}
	return 0;
}

static int named_cmp(const void *a, const void *b)
{
	const struct lnamed *x = a, *y = b;
	int c;

	if (x->facility != y->facility)
		return x->facility < y->facility ? -1 : 1;
	if ((c = strcmp(x->name, y->name)))
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Names to types, per facility (sorted, so that hostile files of many
 * names stay n log n); then events that were one typeref to a struct
 * become it. A name declared twice in a facility is an error.
 */
static int resolve(struct lparser *P)
{
	if (P->nnamed)
		qsort(P->named, P->nnamed, sizeof(*P->named), named_cmp);
	for (size_t i = 1; i < P->nnamed; i++) {
		if (P->named[i].facility == P->named[i - 1].facility &&
		    !strcmp(P->named[i].name, P->named[i - 1].name)) {
			lx_error(P, P->named[i].pos, "type '%s' declared twice", P->named[i].name);
			return -1;
		}
	}
	for (struct lref *r = P->refs; r; r = r->next) {
		struct lnamed key = {r->facility, r->t->name, NULL, 0}, *hit;

		/* a lower bound: the key's pos 0 sorts before every declaration of its name */
		size_t lo = 0, hi = P->nnamed;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (named_cmp(&P->named[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		hit = lo < P->nnamed ? &P->named[lo] : NULL;
		if (hit && hit->facility == key.facility && !strcmp(hit->name, key.name))
			r->t->ref = hit->t;
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
	return 0;
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
		lx_error(&P, 0, "out of memory");
		return -1;
	}
	for (;;) {
		if (lx_next(&P, &tok))
			goto fail;
		if (tok.kind == LTOK_EOF)
			break;
		if (tok.kind != LTOK_OPEN || strcmp(tok.name, "facility")) {
			lx_error(&P, tok.pos, "expected <facility>");
			goto fail;
		}
		if (parse_facility(&P, &tok))
			goto fail;
	}
	if (!P.nfac) {
		lx_error(&P, P.len, "no <facility> in the file");
		goto fail;
	}
	if (resolve(&P))
		goto fail;
	/* the caller's copy: P.fac lives in the arena, lxml_free frees both */
	*out = malloc(P.nfac * sizeof(**out));
	if (!*out) {
		lx_error(&P, 0, "out of memory");
		goto fail;
	}
	memcpy(*out, P.fac, P.nfac * sizeof(**out));
	*n = P.nfac;
	return 0;
fail:
	if (!P.failed)
		lx_error(&P, P.pos, "out of memory");
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
