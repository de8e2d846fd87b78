/*
 * lexer.h - the tokens of LTTng's filter language (internal to src/filter).
 *
 * Identifiers name fields; `$ctx.NAME` and `$app.PROVIDER:NAME` name
 * contexts; integers are decimal, octal (leading 0) or hexadecimal (0x),
 * with optional u/l suffixes, up to 2^64 - 1; floats are C's decimal
 * floating constants; strings are double-quoted, their backslashes kept
 * for the compiler (a backslash escapes the next character).
 */
#ifndef TRAX_FILTER_LEXER_H
#define TRAX_FILTER_LEXER_H

#include <stddef.h>
#include <stdint.h>

enum filter_tok {
	FT_END = 0,
	FT_INT,
	FT_FLOAT,
	FT_STRING, /* text: between the quotes, as written */
	FT_IDENT,
	FT_CTX, /* text: the name after "$ctx." */
	FT_APP, /* text: "PROVIDER:NAME" after "$app." */
	FT_LPAREN,
	FT_RPAREN,
	FT_LBRACKET,
	FT_RBRACKET,
	FT_NOT,	    /* ! */
	FT_TILDE,   /* ~ */
	FT_MINUS,   /* - */
	FT_PLUS,    /* + */
	FT_STAR,    /* * */
	FT_SLASH,   /* / */
	FT_PERCENT, /* % */
	FT_LSHIFT,
	FT_RSHIFT,
	FT_LT,
	FT_GT,
	FT_LE,
	FT_GE,
	FT_EQ,
	FT_NE,
	FT_AMP,
	FT_CARET,
	FT_PIPE,
	FT_ANDAND,
	FT_OROR,
	FT_ERROR, /* text: what is wrong */
};

struct filter_token {
	enum filter_tok kind;
	int pos;	  /* byte offset in the expression */
	const char *text; /* FT_STRING, FT_IDENT, FT_CTX, FT_APP: into the expression */
	size_t len;
	uint64_t i;	   /* FT_INT */
	double d;	   /* FT_FLOAT */
	const char *error; /* FT_ERROR */
};

/* The token at *pos in expr; *pos moves past it. */
void filter_lex(const char *expr, int *pos, struct filter_token *t);

/* How a token reads in a message ("')'", "end of expression", ...). */
const char *filter_tok_name(enum filter_tok kind);

#endif /* TRAX_FILTER_LEXER_H */
