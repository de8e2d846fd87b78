/*
 * lexer.c - tokens of the filter language (see lexer.h).
 */
#include "filter/lexer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_ident(char c)
{
	return is_ident_start(c) || is_digit(c);
}

static void error_at(struct filter_token *t, int pos, const char *what)
{
	t->kind = FT_ERROR;
	t->pos = pos;
	t->error = what;
}

/*
 * A context's name: letters, digits, '_', ':' (perf counters and $app
 * names have them), and '-' inside names that have a ':' (perf:cpu:...).
 */
static size_t ctx_name_len(const char *s)
{
	size_t n = 0;
	int colon = 0;

	while (is_ident(s[n]) || s[n] == ':' || (colon && s[n] == '-' && is_ident(s[n + 1]))) {
		colon |= s[n] == ':';
		n++;
	}
	return n;
}

static void lex_number(const char *expr, int *pos, struct filter_token *t)
{
	const char *s = expr + *pos;
	size_t n = 0;
	int is_float = 0;

	if (s[0] == '0' && s[1] == 'x') { /* 0X is not LTTng's */
		n = 2;
		while (is_digit(s[n]) || (s[n] >= 'a' && s[n] <= 'f') ||
		       (s[n] >= 'A' && s[n] <= 'F'))
			n++;
		if (n == 2)
			return error_at(t, *pos, "hexadecimal constant without digits");
	} else {
		while (is_digit(s[n]))
			n++;
		if (s[n] == '.') {
			is_float = 1;
			n++;
			while (is_digit(s[n]))
				n++;
		}
		if ((s[n] == 'e' || s[n] == 'E') &&
		    (is_digit(s[n + 1]) ||
		     ((s[n + 1] == '+' || s[n + 1] == '-') && is_digit(s[n + 2])))) {
			is_float = 1;
			n += 2;
			while (is_digit(s[n]))
				n++;
		}
	}
	char buf[64];

	if (n >= sizeof(buf))
		return error_at(t, *pos, "numeric constant too long");
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	if (is_float) {
		t->kind = FT_FLOAT;
		t->d = strtod(buf, NULL);
		while (s[n] == 'f' || s[n] == 'F' || s[n] == 'l' || s[n] == 'L')
			n++;
	} else {
		char *end;
		int base = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') ? 16
			   : buf[0] == '0'				     ? 8
									     : 10;

		t->kind = FT_INT;
		t->i = strtoull(buf, &end, base);
		if (*end)
			return error_at(t, *pos, "invalid digit in octal constant");
		if (errno == ERANGE)
			return error_at(t, *pos, "integer constant larger than 64 bits");
		while (s[n] == 'u' || s[n] == 'U' || s[n] == 'l' || s[n] == 'L')
			n++;
	}
	if (is_ident(s[n]) || s[n] == '.')
		return error_at(t, *pos + (int)n, "invalid suffix on numeric constant");
	t->pos = *pos;
	*pos += (int)n;
}

void filter_lex(const char *expr, int *pos, struct filter_token *t)
{
	const char *s;

	memset(t, 0, sizeof(*t));
	while (expr[*pos] == ' ' || expr[*pos] == '\t' || expr[*pos] == '\n' || expr[*pos] == '\r')
		(*pos)++;
	s = expr + *pos;
	t->pos = *pos;
	if (!*s) {
		t->kind = FT_END;
		return;
	}
	if (is_digit(*s) || (*s == '.' && is_digit(s[1])))
		return lex_number(expr, pos, t);
	if (is_ident_start(*s)) {
		size_t n = 1;

		while (is_ident(s[n]))
			n++;
		t->kind = FT_IDENT;
		t->text = s;
		t->len = n;
		*pos += (int)n;
		return;
	}
	if (*s == '$') {
		int app = !strncmp(s, "$app.", 5);

		if (!app && strncmp(s, "$ctx.", 5))
			return error_at(t, *pos, "expected $ctx.NAME or $app.PROVIDER:NAME");
		size_t n = ctx_name_len(s + 5);

		if (!n || (app && (!memchr(s + 5, ':', n) || s[5] == ':' || s[5 + n - 1] == ':')))
			return error_at(t, *pos + 5,
					app ? "expected PROVIDER:NAME after $app."
					    : "expected a context name after $ctx.");
		t->kind = app ? FT_APP : FT_CTX;
		t->text = s + 5;
		t->len = n;
		*pos += 5 + (int)n;
		return;
	}
	if (*s == '"' || *s == '\'') { /* LTTng takes 'text' as a string too */
		size_t n = 1;

		while (s[n] && s[n] != *s) {
			if (s[n] == '\\' && s[n + 1])
				n++;
			n++;
		}
		if (!s[n])
			return error_at(t, *pos, "unterminated string");
		t->kind = FT_STRING;
		t->text = s + 1;
		t->len = n - 1;
		*pos += (int)n + 1;
		return;
	}
	static const struct {
		const char *text;
		enum filter_tok kind;
	} punct[] = {
	    {"<<", FT_LSHIFT}, {">>", FT_RSHIFT}, {"<=", FT_LE},      {">=", FT_GE},
	    {"==", FT_EQ},     {"!=", FT_NE},	  {"&&", FT_ANDAND},  {"||", FT_OROR},
	    {"(", FT_LPAREN},  {")", FT_RPAREN},  {"[", FT_LBRACKET}, {"]", FT_RBRACKET},
	    {"!", FT_NOT},     {"~", FT_TILDE},	  {"-", FT_MINUS},    {"+", FT_PLUS},
	    {"*", FT_STAR},    {"/", FT_SLASH},	  {"%", FT_PERCENT},  {"<", FT_LT},
	    {">", FT_GT},      {"&", FT_AMP},	  {"^", FT_CARET},    {"|", FT_PIPE},
	};
	for (size_t i = 0; i < sizeof(punct) / sizeof(punct[0]); i++) {
		size_t n = strlen(punct[i].text);

		if (!strncmp(s, punct[i].text, n)) {
			t->kind = punct[i].kind;
			*pos += (int)n;
			return;
		}
	}
	error_at(t, *pos, "unexpected character");
}

const char *filter_tok_name(enum filter_tok kind)
{
	static const char *const names[] = {
	    [FT_END] = "end of expression",
	    [FT_INT] = "integer",
	    [FT_FLOAT] = "float",
	    [FT_STRING] = "string",
	    [FT_IDENT] = "field name",
	    [FT_CTX] = "$ctx field",
	    [FT_APP] = "$app field",
	    [FT_LPAREN] = "'('",
	    [FT_RPAREN] = "')'",
	    [FT_LBRACKET] = "'['",
	    [FT_RBRACKET] = "']'",
	    [FT_NOT] = "'!'",
	    [FT_TILDE] = "'~'",
	    [FT_MINUS] = "'-'",
	    [FT_PLUS] = "'+'",
	    [FT_STAR] = "'*'",
	    [FT_SLASH] = "'/'",
	    [FT_PERCENT] = "'%'",
	    [FT_LSHIFT] = "'<<'",
	    [FT_RSHIFT] = "'>>'",
	    [FT_LT] = "'<'",
	    [FT_GT] = "'>'",
	    [FT_LE] = "'<='",
	    [FT_GE] = "'>='",
	    [FT_EQ] = "'=='",
	    [FT_NE] = "'!='",
	    [FT_AMP] = "'&'",
	    [FT_CARET] = "'^'",
	    [FT_PIPE] = "'|'",
	    [FT_ANDAND] = "'&&'",
	    [FT_OROR] = "'||'",
	    [FT_ERROR] = "invalid token",
	};
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "token";
}
