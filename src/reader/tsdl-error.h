/*
 * tsdl-error.h - the one-line error the metadata reader reports:
 * "FILE:LINE:COL: message". LINE and COL (1-based, columns in bytes) point
 * into the metadata text; for packetized metadata, into the concatenation
 * of the packets' payloads. They are 0 when the error is not in the text
 * (a file that cannot be read, a bad packet header).
 */
#ifndef TRAX_TSDL_ERROR_H
#define TRAX_TSDL_ERROR_H

#include <stddef.h>

struct tsdl_error {
	char file[512];
	unsigned int line;
	unsigned int column;
	char message[512]; /* what was expected or what is wrong */
};

/* Fills err (if not NULL); file may be NULL ("metadata"). */
void tsdl_error_set(struct tsdl_error *err, const char *file, unsigned int line,
		    unsigned int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Writes "FILE:LINE:COL: message" (or "FILE: message" without a line) into buf. */
void tsdl_error_format(const struct tsdl_error *err, char *buf, size_t size);

#endif /* TRAX_TSDL_ERROR_H */
