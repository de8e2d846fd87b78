/*
 * tsdl-parser.c - TSDL declarations and types: typealias, typedef, type
 * specifiers (integer, floating_point, string, enum, struct, variant, names),
 * declarators (pointers, arrays, sequences, bitfields), plus the parser's
 * token stream and values. The blocks are in tsdl-blocks.c.
 */
#include "reader/tsdl-parser.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "reader/tsdl-parser-impl.h"

/* Array and sequence brackets after one declarator. */
#define MAX_DIMENSIONS 16
/* Bytes of a multi-word type name ("unsigned long long", "void *"). */
#define MAX_TYPE_NAME 256

void tsdl_fail(struct tsdl_parser *p, unsigned int line, unsigned int column, const char *fmt, ...)
{
	char msg[sizeof(((struct tsdl_error *)0)->message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tsdl_error_set(p->build->err, p->build->file, line, column, "%s", msg);
	longjmp(p->fail, 1);
}

void *tsdl_alloc(struct tsdl_parser *p, size_t size)
{
	void *mem = ctf_arena_alloc(p->arena, size);

	if (!mem)
		tsdl_fail(p, p->lexer.line, p->lexer.column, "out of memory (metadata too large)");
	return mem;
}

void *tsdl_grow(struct tsdl_parser *p, void *old, unsigned int count, unsigned int *cap,
		size_t elem_size)
{
	void *mem;

	if (count < *cap)
		return old;
	if (*cap > (1u << 24))
		tsdl_fail(p, p->lexer.line, p->lexer.column, "too many entries");
	*cap = *cap ? *cap * 2 : 8;
	mem = ctf_arena_grow(p->arena, old, count, *cap, elem_size);
	if (!mem)
		tsdl_fail(p, p->lexer.line, p->lexer.column, "out of memory (metadata too large)");
	return mem;
}

/* ---- token stream ---- */

const struct tsdl_token *tsdl_peek(struct tsdl_parser *p, unsigned int ahead)
{
	while (p->lookahead_count <= ahead) {
		if (tsdl_lexer_next(&p->lexer, &p->lookahead[p->lookahead_count]))
			longjmp(p->fail, 1); /* the lexer filled the error */
		p->lookahead_count++;
	}
	return &p->lookahead[ahead];
}

struct tsdl_token tsdl_next(struct tsdl_parser *p)
{
	struct tsdl_token tok = *tsdl_peek(p, 0);

	memmove(&p->lookahead[0], &p->lookahead[1], (p->lookahead_count - 1) * sizeof(tok));
	p->lookahead_count--;
	return tok;
}

struct tsdl_token tsdl_expect(struct tsdl_parser *p, enum tsdl_token_kind kind, const char *what)
{
	const struct tsdl_token *tok = tsdl_peek(p, 0);
	char found[96];

	if (tok->kind != kind)
		tsdl_fail(p, tok->line, tok->column, "expected %s, found %s", what,
			  tsdl_token_describe(tok, found, sizeof(found)));
	return tsdl_next(p);
}

static bool at(struct tsdl_parser *p, unsigned int ahead, enum tsdl_token_kind kind)
{
	return tsdl_peek(p, ahead)->kind == kind;
}

static bool at_word(struct tsdl_parser *p, unsigned int ahead, const char *word)
{
	return tsdl_token_is(tsdl_peek(p, ahead), word);
}

static __attribute__((noreturn)) void fail_unexpected(struct tsdl_parser *p, const char *expected)
{
	const struct tsdl_token *tok = tsdl_peek(p, 0);
	char found[96];

	tsdl_fail(p, tok->line, tok->column, "expected %s, found %s", expected,
		  tsdl_token_describe(tok, found, sizeof(found)));
}

void tsdl_enter(struct tsdl_parser *p, const struct tsdl_token *at_tok)
{
	if (++p->nesting > TSDL_MAX_NESTING)
		tsdl_fail(p, at_tok->line, at_tok->column, "nesting deeper than %d levels",
			  TSDL_MAX_NESTING);
}

void tsdl_leave(struct tsdl_parser *p)
{
	p->nesting--;
}

void tsdl_push_scope(struct tsdl_parser *p)
{
	struct tsdl_scope *scope = tsdl_scope_push(p->arena, p->scope);

	if (!scope)
		tsdl_fail(p, p->lexer.line, p->lexer.column, "out of memory");
	p->scope = scope;
}

void tsdl_pop_scope(struct tsdl_parser *p)
{
	p->scope = tsdl_scope_parent(p->scope);
}

/* ---- values ---- */

void tsdl_parse_value(struct tsdl_parser *p, struct tsdl_value *v)
{
	const struct tsdl_token *tok = tsdl_peek(p, 0);
	bool negative = false;

	memset(v, 0, sizeof(*v));
	v->line = tok->line;
	v->column = tok->column;
	if (tok->kind == TSDL_TOK_LPAREN) {
		struct tsdl_token open = tsdl_next(p);

		tsdl_enter(p, &open);
		tsdl_parse_value(p, v);
		tsdl_leave(p);
		tsdl_expect(p, TSDL_TOK_RPAREN, "')'");
		return;
	}
	while (tok->kind == TSDL_TOK_PLUS || tok->kind == TSDL_TOK_MINUS) {
		if (tok->kind == TSDL_TOK_MINUS)
			negative = !negative;
		tsdl_next(p);
		tok = tsdl_peek(p, 0);
		if (tok->kind != TSDL_TOK_INTEGER && tok->kind != TSDL_TOK_CHAR &&
		    tok->kind != TSDL_TOK_PLUS && tok->kind != TSDL_TOK_MINUS)
			fail_unexpected(p, "an integer after the sign");
	}
	switch (tok->kind) {
	case TSDL_TOK_INTEGER:
	case TSDL_TOK_CHAR:
		v->kind = TSDL_VALUE_INTEGER;
		v->negative = negative && tok->value != 0;
		v->magnitude = tok->value;
		tsdl_next(p);
		return;
	case TSDL_TOK_STRING:
		v->kind = TSDL_VALUE_STRING;
		v->text = tok->text;
		tsdl_next(p);
		return;
	case TSDL_TOK_IDENT:
		v->kind = TSDL_VALUE_NAME;
		v->text = tsdl_parse_dotted_name(p, "a value");
		return;
	default:
		fail_unexpected(p, "a value (integer, string or identifier)");
	}
}

const char *tsdl_parse_dotted_name(struct tsdl_parser *p, const char *what)
{
	struct tsdl_token part;
	size_t len, cap;
	char *name;

	if (!at(p, 0, TSDL_TOK_IDENT))
		fail_unexpected(p, what);
	part = tsdl_next(p);
	if (!at(p, 0, TSDL_TOK_DOT))
		return part.text; /* the common case: one identifier, already in the arena */
	len = part.len;
	cap = 2 * len + 64;
	name = tsdl_alloc(p, cap);
	memcpy(name, part.text, len);
	while (at(p, 0, TSDL_TOK_DOT)) {
		tsdl_next(p);
		part = tsdl_expect(p, TSDL_TOK_IDENT, "an identifier after '.'");
		if (len + 1 + part.len + 1 > cap) {
			/* Doubling keeps long dotted chains linear. */
			char *bigger;

			cap = 2 * (len + 1 + part.len + 1);
			bigger = tsdl_alloc(p, cap);
			memcpy(bigger, name, len);
			name = bigger;
		}
		name[len] = '.';
		memcpy(name + len + 1, part.text, part.len);
		len += 1 + part.len;
		name[len] = '\0';
	}
	return name;
}

uint64_t tsdl_value_uint(struct tsdl_parser *p, const struct tsdl_value *v, const char *what)
{
	if (v->kind != TSDL_VALUE_INTEGER || v->negative)
		tsdl_fail(p, v->line, v->column, "%s must be an unsigned integer", what);
	return v->magnitude;
}

int64_t tsdl_value_int(struct tsdl_parser *p, const struct tsdl_value *v, const char *what)
{
	if (v->kind != TSDL_VALUE_INTEGER)
		tsdl_fail(p, v->line, v->column, "%s must be an integer", what);
	if (v->negative) {
		if (v->magnitude > (uint64_t)INT64_MAX + 1)
			tsdl_fail(p, v->line, v->column, "%s is out of the 64-bit signed range",
				  what);
		return v->magnitude == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v->magnitude;
	}
	if (v->magnitude > (uint64_t)INT64_MAX)
		tsdl_fail(p, v->line, v->column, "%s is out of the 64-bit signed range", what);
	return (int64_t)v->magnitude;
}

bool tsdl_value_bool(struct tsdl_parser *p, const struct tsdl_value *v, const char *what)
{
	if (v->kind == TSDL_VALUE_INTEGER && !v->negative && v->magnitude <= 1)
		return v->magnitude == 1;
	if (v->kind == TSDL_VALUE_NAME) {
		if (strcmp(v->text, "true") == 0 || strcmp(v->text, "TRUE") == 0)
			return true;
		if (strcmp(v->text, "false") == 0 || strcmp(v->text, "FALSE") == 0)
			return false;
	}
	tsdl_fail(p, v->line, v->column, "%s must be true, TRUE, 1, false, FALSE or 0", what);
}

/* ---- type nodes ---- */

static struct ctf_type *new_type(struct tsdl_parser *p, enum ctf_type_kind kind,
				 const struct tsdl_token *at_tok)
{
	struct ctf_type *t = tsdl_alloc(p, sizeof(*t));

	t->kind = kind;
	t->align = 8;
	t->depth = 1;
	t->line = at_tok->line;
	t->column = at_tok->column;
	return t;
}

static struct ctf_type *copy_type(struct tsdl_parser *p, const struct ctf_type *src)
{
	struct ctf_type *t = tsdl_alloc(p, sizeof(*t));

	*t = *src;
	return t;
}

/* Records that t contains child, checking the nesting depth. */
static void add_child_depth(struct tsdl_parser *p, struct ctf_type *t, const struct ctf_type *child)
{
	if (child->depth + 1 > t->depth)
		t->depth = child->depth + 1;
	if (t->depth > TSDL_MAX_TYPE_DEPTH)
		tsdl_fail(p, t->line, t->column, "type nested deeper than %d levels",
			  TSDL_MAX_TYPE_DEPTH);
	if (child->has_paths)
		t->has_paths = true;
}

/* Integers (and enums over them) mapped to a clock get the clock once all clocks are known. */
static void note_clock_mapping(struct tsdl_parser *p, struct ctf_type *t)
{
	struct tsdl_build *b = p->build;
	const char *clock = t->kind == CTF_TYPE_ENUM ? t->u.enumeration.container.clock_name
						     : t->u.integer.clock_name;

	if (!clock)
		return;
	b->mapped = tsdl_grow(p, b->mapped, b->mapped_count, &b->mapped_cap, sizeof(*b->mapped));
	b->mapped[b->mapped_count++] = t;
}

static bool is_power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

static enum ctf_byte_order parse_byte_order(struct tsdl_parser *p, const struct tsdl_value *v)
{
	if (v->kind == TSDL_VALUE_NAME) {
		if (strcmp(v->text, "le") == 0)
			return CTF_BYTE_ORDER_LE;
		if (strcmp(v->text, "be") == 0 || strcmp(v->text, "network") == 0)
			return CTF_BYTE_ORDER_BE;
		if (strcmp(v->text, "native") == 0)
			return p->native;
	}
	tsdl_fail(p, v->line, v->column, "byte_order must be native, network, be or le");
}

static enum ctf_encoding parse_encoding(struct tsdl_parser *p, const struct tsdl_value *v)
{
	if (v->kind == TSDL_VALUE_NAME) {
		if (strcasecmp(v->text, "none") == 0)
			return CTF_ENCODING_NONE;
		if (strcasecmp(v->text, "UTF8") == 0)
			return CTF_ENCODING_UTF8;
		if (strcasecmp(v->text, "ASCII") == 0)
			return CTF_ENCODING_ASCII;
	}
	tsdl_fail(p, v->line, v->column, "encoding must be none, UTF8 or ASCII");
}

static unsigned int parse_base(struct tsdl_parser *p, const struct tsdl_value *v)
{
	static const struct {
		const char *name;
		unsigned int base;
	} names[] = {
	    {"decimal", 10},	 {"dec", 10}, {"d", 10}, {"i", 10},	{"u", 10},
	    {"hexadecimal", 16}, {"hex", 16}, {"x", 16}, {"X", 16},	{"p", 16},
	    {"octal", 8},	 {"oct", 8},  {"o", 8},	 {"binary", 2}, {"b", 2},
	};

	if (v->kind == TSDL_VALUE_INTEGER && !v->negative &&
	    (v->magnitude == 2 || v->magnitude == 8 || v->magnitude == 10 || v->magnitude == 16))
		return (unsigned int)v->magnitude;
	if (v->kind == TSDL_VALUE_NAME)
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(v->text, names[i].name) == 0)
				return names[i].base;
	tsdl_fail(p, v->line, v->column, "base must be 2, 8, 10, 16 or one of their names");
}

/* "name = value;" pairs of integer, floating_point and string bodies, after '{'. */
static bool next_attribute(struct tsdl_parser *p, const char **key, struct tsdl_value *v)
{
	if (at(p, 0, TSDL_TOK_RBRACE)) {
		tsdl_next(p);
		return false;
	}
	*key = tsdl_parse_dotted_name(p, "an attribute name or '}'");
	tsdl_expect(p, TSDL_TOK_ASSIGN, "'='");
	tsdl_parse_value(p, v);
	tsdl_expect(p, TSDL_TOK_SEMICOLON, "';'");
	return true;
}

static struct ctf_type *parse_integer_body(struct tsdl_parser *p, const struct tsdl_token *kw)
{
	struct ctf_type *t = new_type(p, CTF_TYPE_INTEGER, kw);
	struct ctf_integer_type *in = &t->u.integer;
	bool has_size = false, has_align = false;
	struct tsdl_value v;
	const char *key;

	in->byte_order = p->native;
	in->base = 10;
	tsdl_expect(p, TSDL_TOK_LBRACE, "'{' after 'integer'");
	while (next_attribute(p, &key, &v)) {
		if (strcmp(key, "size") == 0) {
			uint64_t size = tsdl_value_uint(p, &v, "integer size");

			if (size < 1 || size > 64)
				tsdl_fail(p, v.line, v.column,
					  "integer size must be between 1 and 64 bits, not %llu",
					  (unsigned long long)size);
			in->size = (unsigned int)size;
			has_size = true;
		} else if (strcmp(key, "align") == 0) {
			uint64_t align = tsdl_value_uint(p, &v, "integer alignment");

			if (!is_power_of_two(align) || align > (1u << 30))
				tsdl_fail(p, v.line, v.column,
					  "alignment must be a power of two (bits)");
			t->align = (unsigned int)align;
			has_align = true;
		} else if (strcmp(key, "signed") == 0) {
			in->is_signed = tsdl_value_bool(p, &v, "signed");
		} else if (strcmp(key, "byte_order") == 0) {
			in->byte_order = parse_byte_order(p, &v);
		} else if (strcmp(key, "base") == 0) {
			in->base = parse_base(p, &v);
		} else if (strcmp(key, "encoding") == 0) {
			in->encoding = parse_encoding(p, &v);
		} else if (strcmp(key, "map") == 0) {
			const char *name = v.kind == TSDL_VALUE_NAME ? v.text : "";
			size_t len = strlen(name);

			if (strncmp(name, "clock.", 6) != 0 || len <= 12 ||
			    strcmp(name + len - 6, ".value") != 0 ||
			    memchr(name + 6, '.', len - 12))
				tsdl_fail(p, v.line, v.column, "map must be clock.NAME.value");
			in->clock_name = ctf_arena_strndup(p->arena, name + 6, len - 12);
			if (!in->clock_name)
				tsdl_fail(p, v.line, v.column, "out of memory");
		}
		/* other attributes: extensions, ignored */
	}
	if (!has_size)
		tsdl_fail(p, kw->line, kw->column, "integer without a size");
	if (!has_align)
		t->align = in->size % 8 ? 1 : 8;
	note_clock_mapping(p, t);
	return t;
}

static struct ctf_type *parse_float_body(struct tsdl_parser *p, const struct tsdl_token *kw)
{
	struct ctf_type *t = new_type(p, CTF_TYPE_FLOAT, kw);
	struct ctf_float_type *fl = &t->u.floating;
	bool has_align = false;
	struct tsdl_value v;
	const char *key;

	fl->byte_order = p->native;
	tsdl_expect(p, TSDL_TOK_LBRACE, "'{' after 'floating_point'");
	while (next_attribute(p, &key, &v)) {
		if (strcmp(key, "exp_dig") == 0) {
			fl->exp_dig = (unsigned int)(tsdl_value_uint(p, &v, "exp_dig") & 0xFFFF);
		} else if (strcmp(key, "mant_dig") == 0) {
			fl->mant_dig = (unsigned int)(tsdl_value_uint(p, &v, "mant_dig") & 0xFFFF);
		} else if (strcmp(key, "byte_order") == 0) {
			fl->byte_order = parse_byte_order(p, &v);
		} else if (strcmp(key, "align") == 0) {
			uint64_t align = tsdl_value_uint(p, &v, "floating point alignment");

			if (!is_power_of_two(align) || align > (1u << 30))
				tsdl_fail(p, v.line, v.column,
					  "alignment must be a power of two (bits)");
			t->align = (unsigned int)align;
			has_align = true;
		}
	}
	if (!((fl->exp_dig == 8 && fl->mant_dig == 24) ||
	      (fl->exp_dig == 11 && fl->mant_dig == 53)))
		tsdl_fail(p, kw->line, kw->column,
			  "floating point must be 32-bit (exp_dig 8, mant_dig 24) or 64-bit "
			  "(exp_dig 11, mant_dig 53)");
	if (!has_align)
		t->align = (fl->exp_dig + fl->mant_dig) % 8 ? 1 : 8;
	return t;
}

static struct ctf_type *parse_string_type(struct tsdl_parser *p, const struct tsdl_token *kw)
{
	struct ctf_type *t = new_type(p, CTF_TYPE_STRING, kw);
	struct tsdl_value v;
	const char *key;

	t->u.string.encoding = CTF_ENCODING_UTF8;
	if (!at(p, 0, TSDL_TOK_LBRACE))
		return t;
	tsdl_next(p);
	while (next_attribute(p, &key, &v))
		if (strcmp(key, "encoding") == 0)
			t->u.string.encoding = parse_encoding(p, &v);
	return t;
}

/* ---- specifiers and declarators ---- */

struct specifiers {
	const struct ctf_type *type; /* from a body or a struct/variant/enum name */
	char words[MAX_TYPE_NAME];   /* otherwise: the type's name, words joined by spaces */
	unsigned int line;
	unsigned int column;
};

struct dimension {
	bool is_sequence;
	uint64_t length;
	const char *length_name;
	unsigned int line;
	unsigned int column;
};

struct declarator {
	const char *name; /* NULL for an abstract declarator */
	unsigned int line;
	unsigned int column;
	unsigned int pointers;
	unsigned int dimension_count;
	struct dimension dimensions[MAX_DIMENSIONS];
	bool is_bitfield;
	uint64_t bits;
};

static void parse_specifiers(struct tsdl_parser *p, struct specifiers *s);

static void append_word(struct tsdl_parser *p, struct specifiers *s, const struct tsdl_token *tok)
{
	size_t len = strlen(s->words);

	if (len + 1 + tok->len + 1 > sizeof(s->words))
		tsdl_fail(p, tok->line, tok->column, "type name too long");
	if (len)
		s->words[len++] = ' ';
	memcpy(s->words + len, tok->text, tok->len + 1);
}

static bool is_simple_type_word(const char *w)
{
	static const char *const words[] = {
	    "void",   "char",	"short",    "int",   "long",	 "float",
	    "double", "signed", "unsigned", "_Bool", "_Complex", "_Imaginary",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

/* The type the specifiers name, with that many '*' after them. */
static const struct ctf_type *resolve_specifiers(struct tsdl_parser *p, const struct specifiers *s,
						 unsigned int pointers)
{
	char name[MAX_TYPE_NAME + 64];
	const struct ctf_type *t;

	if (s->type) {
		if (pointers)
			tsdl_fail(p, s->line, s->column, "pointer to a type body");
		return s->type;
	}
	if (pointers > 32)
		tsdl_fail(p, s->line, s->column, "too many '*'");
	snprintf(name, sizeof(name), "%s%s%.*s", s->words, pointers ? " " : "", (int)pointers,
		 "********************************");
	t = tsdl_scope_lookup(p->scope, name);
	if (!t)
		tsdl_fail(p, s->line, s->column, "unknown type '%s'", name);
	return t;
}

static void register_type(struct tsdl_parser *p, const char *name, const struct ctf_type *t,
			  unsigned int line, unsigned int column)
{
	int ret = tsdl_scope_add(p->arena, p->scope, name, t);

	if (ret == -1)
		tsdl_fail(p, line, column, "type '%s' is already declared in this scope", name);
	if (ret)
		tsdl_fail(p, line, column, "out of memory");
}

static const char *tag_name(struct tsdl_parser *p, const char *kind, const char *name)
{
	size_t len = strlen(kind) + 1 + strlen(name) + 1;
	char *s = tsdl_alloc(p, len);

	snprintf(s, len, "%s %s", kind, name);
	return s;
}

/* An optional identifier naming a struct, variant or enum. */
static const struct tsdl_token *optional_type_name(struct tsdl_parser *p, struct tsdl_token *out)
{
	const struct tsdl_token *tok = tsdl_peek(p, 0);

	if (tok->kind != TSDL_TOK_IDENT || tsdl_is_keyword(tok->text))
		return NULL;
	*out = tsdl_next(p);
	return out;
}

static void add_field(struct tsdl_parser *p, struct tsdl_field_list *list, const char *name,
		      const struct ctf_type *type, unsigned int line, unsigned int column)
{
	struct ctf_field *f;

	for (unsigned int i = 0; i < list->count; i++)
		if (strcmp(list->fields[i].name, name) == 0)
			tsdl_fail(p, line, column, "duplicate field name '%s'", name);
	list->fields = tsdl_grow(p, list->fields, list->count, &list->cap, sizeof(*list->fields));
	f = &list->fields[list->count++];
	f->name = name;
	f->display_name = name[0] == '_' ? name + 1 : name;
	f->type = type;
}

/* '{' declarations '}' of a struct or variant, in a scope of its own. */
static void parse_compound_body(struct tsdl_parser *p, struct tsdl_field_list *list)
{
	struct tsdl_token open = tsdl_expect(p, TSDL_TOK_LBRACE, "'{'");

	tsdl_enter(p, &open);
	tsdl_push_scope(p);
	while (!at(p, 0, TSDL_TOK_RBRACE)) {
		if (at(p, 0, TSDL_TOK_EOF))
			fail_unexpected(p, "'}'");
		tsdl_parse_declaration(p, list);
	}
	tsdl_next(p);
	tsdl_pop_scope(p);
	tsdl_leave(p);
}

static unsigned int parse_align_attribute(struct tsdl_parser *p)
{
	struct tsdl_value v;
	uint64_t align;

	tsdl_next(p); /* align */
	tsdl_expect(p, TSDL_TOK_LPAREN, "'(' after 'align'");
	tsdl_parse_value(p, &v);
	tsdl_expect(p, TSDL_TOK_RPAREN, "')'");
	align = tsdl_value_uint(p, &v, "alignment");
	if (!is_power_of_two(align) || align > (1u << 30))
		tsdl_fail(p, v.line, v.column, "alignment must be a power of two (bits)");
	return (unsigned int)align;
}

static void compute_struct_align(struct ctf_type *t)
{
	unsigned int align = t->u.structure.min_align;

	for (unsigned int i = 0; i < t->u.structure.field_count; i++)
		if (t->u.structure.fields[i].type->align > align)
			align = t->u.structure.fields[i].type->align;
	t->align = align;
}

static const struct ctf_type *parse_struct(struct tsdl_parser *p, const struct tsdl_token *kw)
{
	struct tsdl_token name_tok;
	const struct tsdl_token *name = optional_type_name(p, &name_tok);
	struct ctf_type *t;

	if (at(p, 0, TSDL_TOK_LBRACE)) {
		struct tsdl_field_list list = {0};

		t = new_type(p, CTF_TYPE_STRUCT, kw);
		parse_compound_body(p, &list);
		t->u.structure.fields = list.fields;
		t->u.structure.field_count = list.count;
		t->u.structure.min_align = 1;
		for (unsigned int i = 0; i < list.count; i++)
			add_child_depth(p, t, list.fields[i].type);
		if (at_word(p, 0, "align"))
			t->u.structure.min_align = parse_align_attribute(p);
		compute_struct_align(t);
		if (name)
			register_type(p, tag_name(p, "struct", name->text), t, name->line,
				      name->column);
		return t;
	}
	if (!name)
		fail_unexpected(p, "a struct name or '{'");
	{
		const struct ctf_type *found =
		    tsdl_scope_lookup(p->scope, tag_name(p, "struct", name->text));

		if (!found)
			tsdl_fail(p, name->line, name->column, "unknown struct '%s'", name->text);
		if (!at_word(p, 0, "align"))
			return found;
		t = copy_type(p, found);
		t->u.structure.min_align = parse_align_attribute(p);
		compute_struct_align(t);
		return t;
	}
}

/* A field path between < > or [ ]: identifiers joined by dots, keywords allowed. */
static const char *parse_path(struct tsdl_parser *p)
{
	return tsdl_parse_dotted_name(p, "a field name");
}

static const struct ctf_type *parse_variant(struct tsdl_parser *p, const struct tsdl_token *kw)
{
	struct tsdl_token name_tok;
	const struct tsdl_token *name = optional_type_name(p, &name_tok);
	const char *tag = NULL;
	struct ctf_type *t;

	if (at(p, 0, TSDL_TOK_LT)) {
		tsdl_next(p);
		tag = parse_path(p);
		tsdl_expect(p, TSDL_TOK_GT, "'>' after the variant tag");
	}
	if (at(p, 0, TSDL_TOK_LBRACE)) {
		struct tsdl_field_list list = {0};

		t = new_type(p, CTF_TYPE_VARIANT, kw);
		parse_compound_body(p, &list);
		if (!list.count)
			tsdl_fail(p, kw->line, kw->column, "variant without options");
		t->u.variant.options = list.fields;
		t->u.variant.option_count = list.count;
		t->u.variant.tag_name = tag;
		t->align = 1;
		t->has_paths = true;
		for (unsigned int i = 0; i < list.count; i++)
			add_child_depth(p, t, list.fields[i].type);
		if (name)
			register_type(p, tag_name(p, "variant", name->text), t, name->line,
				      name->column);
		return t;
	}
	if (!name)
		fail_unexpected(p, "a variant name or '{'");
	{
		const struct ctf_type *found =
		    tsdl_scope_lookup(p->scope, tag_name(p, "variant", name->text));

		if (!found)
			tsdl_fail(p, name->line, name->column, "unknown variant '%s'", name->text);
		if (!tag)
			return found;
		t = copy_type(p, found);
		t->u.variant.tag_name = tag;
		t->line = kw->line;
		t->column = kw->column;
		return t;
	}
}

/*
 * An enumeration value: any 64-bit integer, signed or not, whose bits the
 * container reads as it reads its own, as Babeltrace 2 does (LTTng-UST
 * writes a negative range of an unsigned enumeration as -10 ... -5, which
 * is 2^64 - 10 to 2^64 - 5, and an unsigned value past INT64_MAX of a
 * signed one as it is).
 */
static uint64_t parse_enum_value(struct tsdl_parser *p)
{
	struct tsdl_value v;

	tsdl_parse_value(p, &v);
	if (v.kind == TSDL_VALUE_INTEGER && v.negative)
		return (uint64_t)tsdl_value_int(p, &v, "enumeration value");
	return tsdl_value_uint(p, &v, "enumeration value");
}

static bool enum_less(uint64_t a, uint64_t b, bool is_signed)
{
	return is_signed ? (int64_t)a < (int64_t)b : a < b;
}

static void parse_enum_body(struct tsdl_parser *p, struct ctf_type *t)
{
	struct ctf_enum_type *en = &t->u.enumeration;
	bool is_signed = en->container.is_signed;
	struct ctf_enum_mapping *mappings = NULL;
	unsigned int count = 0, cap = 0;
	uint64_t next_value = 0;
	bool next_overflows = false;
	struct tsdl_token open = tsdl_expect(p, TSDL_TOK_LBRACE, "'{'");

	tsdl_enter(p, &open);
	for (;;) {
		struct tsdl_token label;
		struct ctf_enum_mapping *m;

		if (at(p, 0, TSDL_TOK_RBRACE) && count)
			break;
		label = tsdl_next(p);
		if (label.kind != TSDL_TOK_IDENT && label.kind != TSDL_TOK_STRING) {
			char found[96];

			tsdl_fail(p, label.line, label.column,
				  "expected an enumeration label, found %s",
				  tsdl_token_describe(&label, found, sizeof(found)));
		}
		mappings = tsdl_grow(p, mappings, count, &cap, sizeof(*mappings));
		m = &mappings[count++];
		m->label = label.text;
		if (at(p, 0, TSDL_TOK_ASSIGN)) {
			tsdl_next(p);
			m->start = parse_enum_value(p);
			m->end = m->start;
			if (at(p, 0, TSDL_TOK_ELLIPSIS)) {
				tsdl_next(p);
				m->end = parse_enum_value(p);
			}
			if (enum_less(m->end, m->start, is_signed)) {
				uint64_t swap = m->start;

				m->start = m->end;
				m->end = swap;
			}
		} else {
			if (next_overflows)
				tsdl_fail(p, label.line, label.column,
					  "implicit enumeration value out of range");
			m->start = m->end = next_value;
		}
		next_overflows = m->end == (is_signed ? (uint64_t)INT64_MAX : UINT64_MAX);
		next_value = m->end + 1;
		if (at(p, 0, TSDL_TOK_COMMA)) {
			tsdl_next(p);
			continue;
		}
		if (!at(p, 0, TSDL_TOK_RBRACE))
			fail_unexpected(p, "',' or '}' in the enumeration");
	}
	tsdl_next(p);
	tsdl_leave(p);
	en->mappings = mappings;
	en->mapping_count = count;
}

static const struct ctf_type *parse_enum(struct tsdl_parser *p, const struct tsdl_token *kw)
{
	struct tsdl_token name_tok;
	const struct tsdl_token *name = optional_type_name(p, &name_tok);
	const struct ctf_type *container = NULL;
	struct ctf_type *t;

	if (at(p, 0, TSDL_TOK_COLON)) {
		struct specifiers cs;

		tsdl_next(p);
		parse_specifiers(p, &cs);
		container = resolve_specifiers(p, &cs, 0);
		if (container->kind != CTF_TYPE_INTEGER)
			tsdl_fail(p, cs.line, cs.column,
				  "the container of an enumeration must be an integer type");
		if (!at(p, 0, TSDL_TOK_LBRACE))
			fail_unexpected(p, "'{' after the enumeration's container type");
	} else if (at(p, 0, TSDL_TOK_LBRACE)) {
		container = tsdl_scope_lookup(p->scope, "int");
		if (!container || container->kind != CTF_TYPE_INTEGER)
			tsdl_fail(p, kw->line, kw->column,
				  "enumeration without a container type needs an integer type "
				  "named 'int'");
	}
	if (container) {
		t = new_type(p, CTF_TYPE_ENUM, kw);
		t->u.enumeration.container = container->u.integer;
		t->align = container->align;
		note_clock_mapping(p, t);
		parse_enum_body(p, t);
		if (name)
			register_type(p, tag_name(p, "enum", name->text), t, name->line,
				      name->column);
		return t;
	}
	if (!name)
		fail_unexpected(p, "an enumeration name, ':' or '{'");
	{
		const struct ctf_type *found =
		    tsdl_scope_lookup(p->scope, tag_name(p, "enum", name->text));

		if (!found)
			tsdl_fail(p, name->line, name->column, "unknown enum '%s'", name->text);
		return found;
	}
}

static void parse_specifiers(struct tsdl_parser *p, struct specifiers *s)
{
	const struct tsdl_token *first = tsdl_peek(p, 0);

	memset(s, 0, sizeof(*s));
	s->line = first->line;
	s->column = first->column;
	for (;;) {
		const struct tsdl_token *tok = tsdl_peek(p, 0);
		struct tsdl_token kw;

		if (tok->kind != TSDL_TOK_IDENT)
			break;
		if (tsdl_token_is(tok, "const")) {
			tsdl_next(p);
			continue;
		}
		if (s->type)
			break;
		if (tsdl_token_is(tok, "struct") || tsdl_token_is(tok, "variant") ||
		    tsdl_token_is(tok, "enum") || tsdl_token_is(tok, "integer") ||
		    tsdl_token_is(tok, "floating_point") || tsdl_token_is(tok, "string")) {
			if (s->words[0])
				break; /* a misplaced keyword: the declarator reports it */
			kw = tsdl_next(p);
			tsdl_enter(p, &kw);
			if (tsdl_token_is(&kw, "struct"))
				s->type = parse_struct(p, &kw);
			else if (tsdl_token_is(&kw, "variant"))
				s->type = parse_variant(p, &kw);
			else if (tsdl_token_is(&kw, "enum"))
				s->type = parse_enum(p, &kw);
			else if (tsdl_token_is(&kw, "integer"))
				s->type = parse_integer_body(p, &kw);
			else if (tsdl_token_is(&kw, "floating_point"))
				s->type = parse_float_body(p, &kw);
			else
				s->type = parse_string_type(p, &kw);
			tsdl_leave(p);
			continue;
		}
		if (is_simple_type_word(tok->text)) {
			append_word(p, s, tok);
			tsdl_next(p);
			continue;
		}
		if (tsdl_is_keyword(tok->text) || s->words[0])
			break;		/* the declarator, or what follows the declaration */
		append_word(p, s, tok); /* a type name */
		tsdl_next(p);
	}
	if (!s->type && !s->words[0])
		fail_unexpected(p, "a type");
}

static void parse_dimension(struct tsdl_parser *p, struct declarator *d)
{
	struct tsdl_token open = tsdl_next(p); /* [ */
	struct dimension *dim;

	if (d->dimension_count == MAX_DIMENSIONS)
		tsdl_fail(p, open.line, open.column, "more than %d array dimensions",
			  MAX_DIMENSIONS);
	dim = &d->dimensions[d->dimension_count++];
	dim->line = open.line;
	dim->column = open.column;
	if (at(p, 0, TSDL_TOK_IDENT)) {
		dim->is_sequence = true;
		dim->length_name = parse_path(p);
	} else {
		struct tsdl_value v;

		tsdl_parse_value(p, &v);
		dim->length = tsdl_value_uint(p, &v, "array length");
	}
	tsdl_expect(p, TSDL_TOK_RBRACKET, "']'");
}

/* A declarator; abstract ones may have no name (typealias's left-hand side). */
static void parse_declarator(struct tsdl_parser *p, struct declarator *d, bool abstract)
{
	const struct tsdl_token *tok;

	memset(d, 0, sizeof(*d));
	while (at(p, 0, TSDL_TOK_STAR)) {
		tsdl_next(p);
		d->pointers++;
		while (at_word(p, 0, "const"))
			tsdl_next(p);
	}
	tok = tsdl_peek(p, 0);
	d->line = tok->line;
	d->column = tok->column;
	if (tok->kind == TSDL_TOK_IDENT) {
		if (tsdl_is_keyword(tok->text))
			tsdl_fail(p, tok->line, tok->column,
				  "'%s' is a reserved keyword, not a valid name", tok->text);
		d->name = tsdl_next(p).text;
	} else if (!abstract) {
		fail_unexpected(p, "a name");
	}
	while (at(p, 0, TSDL_TOK_LBRACKET))
		parse_dimension(p, d);
	if (!abstract && at(p, 0, TSDL_TOK_COLON)) {
		struct tsdl_value v;

		tsdl_next(p);
		tsdl_parse_value(p, &v);
		d->bits = tsdl_value_uint(p, &v, "bitfield size");
		d->is_bitfield = true;
		if (d->bits < 1 || d->bits > 64)
			tsdl_fail(p, v.line, v.column, "bitfield size must be between 1 and 64");
	}
}

/* The type of a declarator: base, cut to a bitfield, wrapped in its arrays. */
static const struct ctf_type *apply_declarator(struct tsdl_parser *p, const struct ctf_type *base,
					       const struct declarator *d)
{
	const struct ctf_type *t = base;

	if (d->is_bitfield) {
		struct ctf_type *bf;

		if (base->kind != CTF_TYPE_INTEGER && base->kind != CTF_TYPE_ENUM)
			tsdl_fail(p, d->line, d->column,
				  "bitfield of a type that is not an integer");
		bf = copy_type(p, base);
		if (bf->kind == CTF_TYPE_INTEGER)
			bf->u.integer.size = (unsigned int)d->bits;
		else
			bf->u.enumeration.container.size = (unsigned int)d->bits;
		bf->align = 1;
		note_clock_mapping(p, bf);
		t = bf;
	}
	/* C order: in x[2][3] the first bracket is the outer array. */
	for (unsigned int i = d->dimension_count; i-- > 0;) {
		const struct dimension *dim = &d->dimensions[i];
		struct tsdl_token where = {.line = dim->line, .column = dim->column};
		struct ctf_type *a;

		if (dim->is_sequence) {
			a = new_type(p, CTF_TYPE_SEQUENCE, &where);
			a->u.sequence.element = t;
			a->u.sequence.length_name = dim->length_name;
			a->has_paths = true;
		} else {
			a = new_type(p, CTF_TYPE_ARRAY, &where);
			a->u.array.element = t;
			a->u.array.length = dim->length;
		}
		a->align = t->align;
		add_child_depth(p, a, t);
		t = a;
	}
	return t;
}

/* The right-hand side of typealias: words and '*' ("unsigned long", "void *"). */
static const char *parse_alias_name(struct tsdl_parser *p)
{
	struct specifiers s;
	unsigned int pointers = 0;
	char *name;

	memset(&s, 0, sizeof(s));
	while (at(p, 0, TSDL_TOK_IDENT) || at(p, 0, TSDL_TOK_STAR)) {
		struct tsdl_token tok = tsdl_next(p);

		if (tok.kind == TSDL_TOK_STAR) {
			if (!s.words[0] || ++pointers > 32)
				tsdl_fail(p, tok.line, tok.column, "misplaced '*' in type name");
			continue;
		}
		if (pointers)
			tsdl_fail(p, tok.line, tok.column, "misplaced '%s' after '*'", tok.text);
		append_word(p, &s, &tok);
	}
	if (!s.words[0])
		fail_unexpected(p, "the new type name after ':='");
	name = tsdl_alloc(p, strlen(s.words) + 2 + pointers);
	sprintf(name, "%s%s%.*s", s.words, pointers ? " " : "", (int)pointers,
		"********************************");
	return name;
}

static void parse_typealias(struct tsdl_parser *p)
{
	struct specifiers s;
	struct declarator d;
	const struct ctf_type *t;
	const struct tsdl_token *at_name;
	unsigned int line, column;

	tsdl_next(p); /* typealias */
	parse_specifiers(p, &s);
	parse_declarator(p, &d, true);
	if (d.name)
		tsdl_fail(p, d.line, d.column, "unexpected name '%s' before ':='", d.name);
	t = apply_declarator(p, resolve_specifiers(p, &s, d.pointers), &d);
	tsdl_expect(p, TSDL_TOK_TYPE_ASSIGN, "':=' in typealias");
	at_name = tsdl_peek(p, 0);
	line = at_name->line;
	column = at_name->column;
	register_type(p, parse_alias_name(p), t, line, column);
}

static void parse_typedef(struct tsdl_parser *p)
{
	struct specifiers s;

	tsdl_next(p); /* typedef */
	parse_specifiers(p, &s);
	for (;;) {
		struct declarator d;
		const struct ctf_type *t;

		parse_declarator(p, &d, false);
		if (d.is_bitfield)
			tsdl_fail(p, d.line, d.column, "bitfield in a typedef");
		t = apply_declarator(p, resolve_specifiers(p, &s, d.pointers), &d);
		register_type(p, d.name, t, d.line, d.column);
		if (!at(p, 0, TSDL_TOK_COMMA))
			break;
		tsdl_next(p);
	}
}

void tsdl_parse_declaration(struct tsdl_parser *p, struct tsdl_field_list *fields)
{
	struct specifiers s;

	if (at_word(p, 0, "typealias")) {
		parse_typealias(p);
	} else if (at_word(p, 0, "typedef")) {
		parse_typedef(p);
	} else {
		parse_specifiers(p, &s);
		while (!at(p, 0, TSDL_TOK_SEMICOLON)) {
			struct declarator d;
			const struct ctf_type *t;

			parse_declarator(p, &d, false);
			if (!fields)
				tsdl_fail(p, d.line, d.column,
					  "field '%s' outside a struct or variant", d.name);
			t = apply_declarator(p, resolve_specifiers(p, &s, d.pointers), &d);
			add_field(p, fields, d.name, t, d.line, d.column);
			if (!at(p, 0, TSDL_TOK_COMMA))
				break;
			tsdl_next(p);
		}
	}
	tsdl_expect(p, TSDL_TOK_SEMICOLON, "';'");
}

bool tsdl_at_declaration(struct tsdl_parser *p)
{
	const struct tsdl_token *tok = tsdl_peek(p, 0);
	enum tsdl_token_kind after;

	if (tok->kind != TSDL_TOK_IDENT)
		return false;
	if (tsdl_token_is(tok, "typealias") || tsdl_token_is(tok, "typedef"))
		return true;
	if (!tsdl_token_is(tok, "struct") && !tsdl_token_is(tok, "variant") &&
	    !tsdl_token_is(tok, "enum") && !tsdl_token_is(tok, "integer") &&
	    !tsdl_token_is(tok, "floating_point") && !tsdl_token_is(tok, "const"))
		return false;
	after = tsdl_peek(p, 1)->kind;
	return after != TSDL_TOK_DOT && after != TSDL_TOK_ASSIGN && after != TSDL_TOK_TYPE_ASSIGN;
}

const struct ctf_type *tsdl_parse_type(struct tsdl_parser *p)
{
	struct specifiers s;

	parse_specifiers(p, &s);
	return resolve_specifiers(p, &s, 0);
}

/*
 * Finds the trace's byte_order before parsing, as `native` types may come
 * before the trace block. Lexical errors are left to the real parse.
 */
static enum ctf_byte_order prescan_byte_order(const char *text, size_t len)
{
	enum ctf_byte_order found = CTF_BYTE_ORDER_UNSET;
	struct tsdl_token window[4] = {0};
	struct ctf_arena arena;
	struct tsdl_lexer lx;
	unsigned int depth = 0, trace_depth = 0;

	ctf_arena_init(&arena);
	tsdl_lexer_init(&lx, text, len, &arena, NULL, NULL);
	for (;;) {
		struct tsdl_token tok;

		if (tsdl_lexer_next(&lx, &tok) || tok.kind == TSDL_TOK_EOF)
			break;
		memmove(&window[0], &window[1], 3 * sizeof(tok));
		window[3] = tok;
		if (tok.kind == TSDL_TOK_LBRACE) {
			depth++;
			if (depth == 1 && tsdl_token_is(&window[2], "trace"))
				trace_depth = 1;
		} else if (tok.kind == TSDL_TOK_RBRACE) {
			if (depth == 1)
				trace_depth = 0;
			if (depth)
				depth--;
		} else if (tok.kind == TSDL_TOK_IDENT && trace_depth && depth == 1 &&
			   window[2].kind == TSDL_TOK_ASSIGN &&
			   tsdl_token_is(&window[1], "byte_order") &&
			   window[0].kind != TSDL_TOK_DOT) {
			if (strcmp(tok.text, "le") == 0)
				found = CTF_BYTE_ORDER_LE;
			else if (strcmp(tok.text, "be") == 0 || strcmp(tok.text, "network") == 0)
				found = CTF_BYTE_ORDER_BE;
		}
		/* Token texts are not needed past the window: keep the arena small. */
		if (arena.used > ((size_t)16 << 20)) {
			ctf_arena_release(&arena);
			memset(window, 0, sizeof(window));
		}
	}
	ctf_arena_release(&arena);
	return found;
}

static void parse_root(struct tsdl_parser *p)
{
	while (!at(p, 0, TSDL_TOK_EOF)) {
		if (tsdl_at_block(p))
			tsdl_parse_block(p);
		else
			tsdl_parse_declaration(p, NULL);
	}
}

struct ctf_trace *tsdl_parse(const char *text, size_t len, const char *file, struct tsdl_error *err)
{
	struct ctf_arena arena;
	struct ctf_trace *trace;
	struct tsdl_build build;
	struct tsdl_parser p;

	ctf_arena_init(&arena);
	trace = ctf_arena_alloc(&arena, sizeof(*trace));
	if (!trace) {
		tsdl_error_set(err, file, 0, 0, "out of memory");
		return NULL;
	}
	memset(&build, 0, sizeof(build));
	build.trace = trace;
	build.file = file;
	build.err = err;
	memset(&p, 0, sizeof(p));
	p.build = &build;
	/* The arena moves into the trace; allocations go through trace->arena from now on. */
	trace->arena = arena;
	p.arena = &trace->arena;
	tsdl_lexer_init(&p.lexer, text, len, p.arena, file, err);
	p.native = prescan_byte_order(text, len);
	if (setjmp(p.fail)) {
		ctf_trace_free(trace);
		return NULL;
	}
	p.scope = tsdl_scope_push(p.arena, NULL);
	if (!p.scope)
		tsdl_fail(&p, 0, 0, "out of memory");
	parse_root(&p);
	if (tsdl_build_finish(&build)) {
		ctf_trace_free(trace);
		return NULL;
	}
	return trace;
}
