/*
 * tsdl-parser.h - parsing CTF 1.8 TSDL metadata text into the reader's
 * model (ctf-ir.h): the whole language (typealias, typedef, integer,
 * floating_point, string, enum, struct, variant, arrays, sequences, the
 * trace, env, clock, stream, event and callsite blocks), checked, with every
 * sequence length and variant tag resolved to a field path.
 */
#ifndef TRAX_TSDL_PARSER_H
#define TRAX_TSDL_PARSER_H

#include <stddef.h>

#include "reader/ctf-ir.h"
#include "reader/tsdl-error.h"

/*
 * Parses len bytes of metadata text (no NUL needed at the end; a NUL byte
 * inside is an error). file names the text in error messages. Returns the
 * trace, to release with ctf_trace_free(), or NULL with err filled.
 */
struct ctf_trace *tsdl_parse(const char *text, size_t len, const char *file,
			     struct tsdl_error *err);

#endif /* TRAX_TSDL_PARSER_H */
