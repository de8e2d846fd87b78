/* pyround.c - Python's round(x, 3) (pyround.h). */
#include "analysis/pyround.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double an_py_round3(double x)
{
	char buf[400];

	if (!isfinite(x))
		return x;
	/* glibc prints the exact binary value correctly rounded, as Python's dtoa */
	snprintf(buf, sizeof(buf), "%.3f", x);
	return strtod(buf, NULL);
}
