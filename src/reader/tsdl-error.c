/* tsdl-error.c - filling and printing the metadata reader's errors. */
#include "reader/tsdl-error.h"

#include <stdarg.h>
#include <stdio.h>

void tsdl_error_set(struct tsdl_error *err, const char *file, unsigned int line,
		    unsigned int column, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "metadata");
	err->line = line;
	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

void tsdl_error_format(const struct tsdl_error *err, char *buf, size_t size)
{
	if (err->line)
		snprintf(buf, size, "%s:%u:%u: %s", err->file, err->line, err->column,
			 err->message);
	else
		snprintf(buf, size, "%s: %s", err->file, err->message);
}
