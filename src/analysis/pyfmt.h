/*
 * pyfmt.h - Python's str.format() for the string fields lttng-analyses
 * prints its tables with: "{:<14} {:>14}  {}" and its string arguments,
 * so that a row reads as the format it copies.
 */
#ifndef TRAX_ANALYSIS_PYFMT_H
#define TRAX_ANALYSIS_PYFMT_H

#include <stdio.h>

#include "common/strbuf.h"

/*
 * Appends fmt to sb with each field replaced by the next const char *
 * argument: "{}" as is, "{:<N}" padded on the right to N columns, "{:>N}"
 * on the left (a longer value is not cut, as in Python).
 */
void an_pyfmt(struct strbuf *sb, const char *fmt, ...);
/* The same, as one line (a newline added) written to f. */
void an_pyfmt_line(FILE *f, const char *fmt, ...);

#endif /* TRAX_ANALYSIS_PYFMT_H */
