/* tsdl-lexer.c - splitting TSDL metadata text into tokens. */
#include "common/hex.h"
#include "reader/tsdl-lexer.h"

#include <stdio.h>
#include <string.h>

static const char *const keywords[] = {
    "align",   "callsite", "const",	     "char",   "clock",	  "double",   "enum",
    "env",     "event",	   "floating_point", "float",  "integer", "int",      "long",
    "short",   "signed",   "stream",	     "string", "struct",  "trace",    "typealias",
    "typedef", "unsigned", "variant",	     "void",   "_Bool",	  "_Complex", "_Imaginary",
};

bool tsdl_is_keyword(const char *s)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strcmp(s, keywords[i]) == 0)
			return true;
	return false;
}

bool tsdl_token_is(const struct tsdl_token *tok, const char *word)
{
	return tok->kind == TSDL_TOK_IDENT && strcmp(tok->text, word) == 0;
}

void tsdl_lexer_init(struct tsdl_lexer *lx, const char *src, size_t len, struct ctf_arena *arena,
		     const char *file, struct tsdl_error *err)
{
	lx->src = src;
	lx->len = len;
	lx->pos = 0;
	lx->line = 1;
	lx->column = 1;
	lx->arena = arena;
	lx->file = file;
	lx->err = err;
}

static int peek_at(const struct tsdl_lexer *lx, size_t ahead)
{
	return lx->pos + ahead < lx->len ? (unsigned char)lx->src[lx->pos + ahead] : -1;
}

static void advance(struct tsdl_lexer *lx)
{
	if (lx->src[lx->pos] == '\n') {
		lx->line++;
		lx->column = 1;
	} else {
		lx->column++;
	}
	lx->pos++;
}

static int fail_at(struct tsdl_lexer *lx, unsigned int line, unsigned int column, const char *msg)
{
	tsdl_error_set(lx->err, lx->file, line, column, "%s", msg);
	return -1;
}

static bool is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Skips blanks and comments; -1 on an unterminated comment or a NUL byte. */
static int skip_space(struct tsdl_lexer *lx)
{
	for (;;) {
		int c = peek_at(lx, 0);

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(lx);
		} else if (c == '/' && peek_at(lx, 1) == '*') {
			unsigned int line = lx->line, column = lx->column;

			advance(lx);
			advance(lx);
			for (;;) {
				c = peek_at(lx, 0);
				if (c < 0)
					return fail_at(lx, line, column, "unterminated comment");
				if (c == 0)
					return fail_at(lx, lx->line, lx->column,
						       "NUL byte in the metadata text");
				if (c == '*' && peek_at(lx, 1) == '/') {
					advance(lx);
					advance(lx);
					break;
				}
				advance(lx);
			}
		} else if (c == '/' && peek_at(lx, 1) == '/') {
			while ((c = peek_at(lx, 0)) >= 0 && c != '\n') {
				if (c == 0)
					return fail_at(lx, lx->line, lx->column,
						       "NUL byte in the metadata text");
				advance(lx);
			}
		} else {
			return 0;
		}
	}
}

static int lex_integer(struct tsdl_lexer *lx, struct tsdl_token *tok)
{
	unsigned int base = 10;
	uint64_t value = 0;
	unsigned int digits = 0;
	int c;

	if (peek_at(lx, 0) == '0' && (peek_at(lx, 1) == 'x' || peek_at(lx, 1) == 'X')) {
		base = 16;
		advance(lx);
		advance(lx);
	} else if (peek_at(lx, 0) == '0') {
		base = 8;
	}
	while ((c = peek_at(lx, 0)) >= 0) {
		int d = trax_hex_digit(c);

		if (d < 0 || (base == 10 && d > 9) || (base == 8 && d > 9))
			break;
		if (base == 8 && d > 7)
			return fail_at(lx, lx->line, lx->column, "invalid digit in octal constant");
		if (value > (UINT64_MAX - (uint64_t)d) / base)
			return fail_at(lx, tok->line, tok->column,
				       "integer constant out of range (more than 64 bits)");
		value = value * base + (uint64_t)d;
		digits++;
		advance(lx);
	}
	if (base == 16 && digits == 0)
		return fail_at(lx, tok->line, tok->column, "hexadecimal constant without digits");
	/* C suffixes: u, l, ll in either order and case; they change nothing here. */
	for (int n = 0; n < 3 && ((c = peek_at(lx, 0)) == 'u' || c == 'U' || c == 'l' || c == 'L');
	     n++)
		advance(lx);
	if (is_ident_char(peek_at(lx, 0)))
		return fail_at(lx, lx->line, lx->column, "invalid suffix on integer constant");
	tok->kind = TSDL_TOK_INTEGER;
	tok->value = value;
	return 0;
}

/* Appends the UTF-8 encoding of code point cp to out; returns the byte count. */
static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/*
 * One character or escape sequence of a literal, after the opening quote:
 * its bytes go to out (at most 4), their count to *n.
 */
static int lex_char_or_escape(struct tsdl_lexer *lx, char *out, size_t *n)
{
	unsigned int line = lx->line, column = lx->column;
	int c = peek_at(lx, 0);
	uint32_t value = 0;

	if (c != '\\') {
		out[0] = (char)c;
		*n = 1;
		advance(lx);
		return 0;
	}
	advance(lx);
	c = peek_at(lx, 0);
	switch (c) {
	case '\'':
	case '"':
	case '?':
	case '\\':
		value = (uint32_t)c;
		break;
	case 'a':
		value = '\a';
		break;
	case 'b':
		value = '\b';
		break;
	case 'f':
		value = '\f';
		break;
	case 'n':
		value = '\n';
		break;
	case 'r':
		value = '\r';
		break;
	case 't':
		value = '\t';
		break;
	case 'v':
		value = '\v';
		break;
	case 'x': {
		unsigned int digits = 0;

		advance(lx);
		while (trax_hex_digit(peek_at(lx, 0)) >= 0) {
			value = value * 16 + (uint32_t)trax_hex_digit(peek_at(lx, 0));
			if (value > 0xFF)
				return fail_at(lx, line, column, "hexadecimal escape out of range");
			advance(lx);
			digits++;
		}
		if (!digits)
			return fail_at(lx, line, column, "\\x escape without hexadecimal digits");
		out[0] = (char)value;
		*n = 1;
		return 0;
	}
	case 'u':
	case 'U': {
		unsigned int want = c == 'u' ? 4 : 8;

		advance(lx);
		for (unsigned int i = 0; i < want; i++) {
			int d = trax_hex_digit(peek_at(lx, 0));

			if (d < 0)
				return fail_at(lx, line, column,
					       "universal character name needs hexadecimal digits");
			value = value * 16 + (uint32_t)d;
			advance(lx);
		}
		if (value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
			return fail_at(lx, line, column, "invalid universal character name");
		*n = put_utf8(out, value);
		return 0;
	}
	default:
		if (c >= '0' && c <= '7') {
			for (int i = 0; i < 3 && (c = peek_at(lx, 0)) >= '0' && c <= '7'; i++) {
				value = value * 8 + (uint32_t)(c - '0');
				advance(lx);
			}
			if (value > 0xFF)
				return fail_at(lx, line, column, "octal escape out of range");
			out[0] = (char)value;
			*n = 1;
			return 0;
		}
		return fail_at(lx, line, column, "unknown escape sequence");
	}
	advance(lx);
	out[0] = (char)value;
	*n = 1;
	return 0;
}

/* A string literal or character constant; quote is '"' or '\''. */
static int lex_quoted(struct tsdl_lexer *lx, struct tsdl_token *tok, char quote)
{
	size_t start = lx->pos;
	size_t cap, len = 0;
	char *buf;

	advance(lx); /* the opening quote */
	/* Decoded text is never longer than the source (escapes shrink, \u is at most 4 of 6). */
	while (lx->pos < lx->len && lx->src[lx->pos] != quote) {
		if (lx->src[lx->pos] == '\\' && lx->pos + 1 < lx->len)
			lx->pos++;
		lx->pos++;
	}
	cap = lx->pos - start + 8;
	lx->pos = start + 1;
	buf = ctf_arena_alloc(lx->arena, cap);
	if (!buf)
		return fail_at(lx, tok->line, tok->column, "out of memory");
	for (;;) {
		int c = peek_at(lx, 0);
		size_t n;

		if (c < 0 || c == '\n')
			return fail_at(lx, tok->line, tok->column,
				       quote == '"' ? "unterminated string literal"
						    : "unterminated character constant");
		if (c == 0)
			return fail_at(lx, lx->line, lx->column, "NUL byte in the metadata text");
		if (c == quote)
			break;
		if (len + 4 > cap)
			return fail_at(lx, tok->line, tok->column, "literal too long");
		if (lex_char_or_escape(lx, buf + len, &n))
			return -1;
		len += n;
	}
	advance(lx); /* the closing quote */
	if (quote == '\'') {
		if (len != 1)
			return fail_at(lx, tok->line, tok->column,
				       "character constant must hold one character");
		tok->kind = TSDL_TOK_CHAR;
		tok->value = (unsigned char)buf[0];
		return 0;
	}
	tok->kind = TSDL_TOK_STRING;
	tok->text = buf;
	tok->len = len;
	return 0;
}

struct punctuator {
	const char *text;
	enum tsdl_token_kind kind;
};

/* Longest first, so that "..." wins over "." and ":=" over ":". */
static const struct punctuator punctuators[] = {
    {"...", TSDL_TOK_ELLIPSIS}, {":=", TSDL_TOK_TYPE_ASSIGN}, {"->", TSDL_TOK_ARROW},
    {"[", TSDL_TOK_LBRACKET},	{"]", TSDL_TOK_RBRACKET},     {"(", TSDL_TOK_LPAREN},
    {")", TSDL_TOK_RPAREN},	{"{", TSDL_TOK_LBRACE},	      {"}", TSDL_TOK_RBRACE},
    {".", TSDL_TOK_DOT},	{"*", TSDL_TOK_STAR},	      {"+", TSDL_TOK_PLUS},
    {"-", TSDL_TOK_MINUS},	{"<", TSDL_TOK_LT},	      {">", TSDL_TOK_GT},
    {":", TSDL_TOK_COLON},	{";", TSDL_TOK_SEMICOLON},    {"=", TSDL_TOK_ASSIGN},
    {",", TSDL_TOK_COMMA},
};

int tsdl_lexer_next(struct tsdl_lexer *lx, struct tsdl_token *tok)
{
	int c;

	memset(tok, 0, sizeof(*tok));
	if (skip_space(lx))
		return -1;
	tok->line = lx->line;
	tok->column = lx->column;
	c = peek_at(lx, 0);
	if (c < 0) {
		tok->kind = TSDL_TOK_EOF;
		return 0;
	}
	if (c == 'L' && (peek_at(lx, 1) == '"' || peek_at(lx, 1) == '\'')) {
		advance(lx); /* wide literals: same text for us */
		c = peek_at(lx, 0);
	}
	if (c == '"' || c == '\'')
		return lex_quoted(lx, tok, (char)c);
	if (is_ident_start(c)) {
		size_t start = lx->pos;

		while (is_ident_char(peek_at(lx, 0)))
			advance(lx);
		tok->kind = TSDL_TOK_IDENT;
		tok->len = lx->pos - start;
		tok->text = ctf_arena_strndup(lx->arena, lx->src + start, tok->len);
		if (!tok->text)
			return fail_at(lx, tok->line, tok->column, "out of memory");
		return 0;
	}
	if (c >= '0' && c <= '9')
		return lex_integer(lx, tok);
	for (size_t i = 0; i < sizeof(punctuators) / sizeof(punctuators[0]); i++) {
		size_t n = strlen(punctuators[i].text);

		if (lx->len - lx->pos >= n &&
		    memcmp(lx->src + lx->pos, punctuators[i].text, n) == 0) {
			for (size_t k = 0; k < n; k++)
				advance(lx);
			tok->kind = punctuators[i].kind;
			return 0;
		}
	}
	if (c == 0)
		return fail_at(lx, tok->line, tok->column, "NUL byte in the metadata text");
	{
		char msg[64];

		if (c >= 0x20 && c < 0x7F)
			snprintf(msg, sizeof(msg), "unexpected character '%c'", c);
		else
			snprintf(msg, sizeof(msg), "unexpected byte 0x%02x", (unsigned int)c);
		return fail_at(lx, tok->line, tok->column, msg);
	}
}

const char *tsdl_token_describe(const struct tsdl_token *tok, char *buf, size_t size)
{
	static const char *const names[] = {
	    [TSDL_TOK_LBRACKET] = "[",	 [TSDL_TOK_RBRACKET] = "]", [TSDL_TOK_LPAREN] = "(",
	    [TSDL_TOK_RPAREN] = ")",	 [TSDL_TOK_LBRACE] = "{",   [TSDL_TOK_RBRACE] = "}",
	    [TSDL_TOK_DOT] = ".",	 [TSDL_TOK_ARROW] = "->",   [TSDL_TOK_STAR] = "*",
	    [TSDL_TOK_PLUS] = "+",	 [TSDL_TOK_MINUS] = "-",    [TSDL_TOK_LT] = "<",
	    [TSDL_TOK_GT] = ">",	 [TSDL_TOK_COLON] = ":",    [TSDL_TOK_SEMICOLON] = ";",
	    [TSDL_TOK_ELLIPSIS] = "...", [TSDL_TOK_ASSIGN] = "=",   [TSDL_TOK_TYPE_ASSIGN] = ":=",
	    [TSDL_TOK_COMMA] = ",",
	};

	switch (tok->kind) {
	case TSDL_TOK_EOF:
		snprintf(buf, size, "end of metadata");
		break;
	case TSDL_TOK_IDENT:
		snprintf(buf, size, "'%.64s'", tok->text);
		break;
	case TSDL_TOK_INTEGER:
		snprintf(buf, size, "integer %llu", (unsigned long long)tok->value);
		break;
	case TSDL_TOK_CHAR:
		snprintf(buf, size, "character constant");
		break;
	case TSDL_TOK_STRING:
		snprintf(buf, size, "string \"%.64s\"", tok->text);
		break;
	default:
		snprintf(buf, size, "'%s'", names[tok->kind]);
		break;
	}
	return buf;
}
