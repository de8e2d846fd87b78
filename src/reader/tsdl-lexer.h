/*
 * tsdl-lexer.h - tokens of TSDL, the CTF 1.8 metadata language (C99-like:
 * comments, identifiers, integer and character constants, string literals
 * with C escapes, punctuators).
 */
#ifndef TRAX_TSDL_LEXER_H
#define TRAX_TSDL_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/ctf-arena.h"
#include "reader/tsdl-error.h"

enum tsdl_token_kind {
	TSDL_TOK_EOF = 0,
	TSDL_TOK_IDENT,	  /* identifiers and keywords: text */
	TSDL_TOK_INTEGER, /* integer constant: value (never negative: '-' is a token) */
	TSDL_TOK_CHAR,	  /* character constant: value */
	TSDL_TOK_STRING,  /* string literal: text decoded, length in len */
	TSDL_TOK_LBRACKET,
	TSDL_TOK_RBRACKET,
	TSDL_TOK_LPAREN,
	TSDL_TOK_RPAREN,
	TSDL_TOK_LBRACE,
	TSDL_TOK_RBRACE,
	TSDL_TOK_DOT,
	TSDL_TOK_ARROW,
	TSDL_TOK_STAR,
	TSDL_TOK_PLUS,
	TSDL_TOK_MINUS,
	TSDL_TOK_LT,
	TSDL_TOK_GT,
	TSDL_TOK_COLON,
	TSDL_TOK_SEMICOLON,
	TSDL_TOK_ELLIPSIS,
	TSDL_TOK_ASSIGN,      /* = */
	TSDL_TOK_TYPE_ASSIGN, /* := */
	TSDL_TOK_COMMA,
};

struct tsdl_token {
	enum tsdl_token_kind kind;
	unsigned int line;
	unsigned int column;
	const char *text; /* NUL-terminated, in the arena (IDENT, STRING) */
	size_t len;	  /* bytes in text */
	uint64_t value;	  /* INTEGER, CHAR */
};

struct tsdl_lexer {
	const char *src;
	size_t len;
	size_t pos;
	unsigned int line;
	unsigned int column;
	struct ctf_arena *arena; /* where token texts go */
	const char *file;	 /* for errors */
	struct tsdl_error *err;
};

void tsdl_lexer_init(struct tsdl_lexer *lx, const char *src, size_t len, struct ctf_arena *arena,
		     const char *file, struct tsdl_error *err);
/* The next token; -1 on a lexical error (err filled), 0 otherwise. */
int tsdl_lexer_next(struct tsdl_lexer *lx, struct tsdl_token *tok);

/* Whether tok is the identifier or keyword word. */
bool tsdl_token_is(const struct tsdl_token *tok, const char *word);
/* Whether s is one of TSDL's reserved keywords (not usable as a field name). */
bool tsdl_is_keyword(const char *s);
/* A short description of a token for error messages ("'struct'", "end of file"). */
const char *tsdl_token_describe(const struct tsdl_token *tok, char *buf, size_t size);

#endif /* TRAX_TSDL_LEXER_H */
