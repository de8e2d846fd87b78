/* pyround.h - Python's round(x, 3), as lttng-syscallstats prints its durations. */
#ifndef TRAX_ANALYSIS_PYROUND_H
#define TRAX_ANALYSIS_PYROUND_H

/* round(x, 3): x correctly rounded to 3 decimals (half to even), back to a double. */
double an_py_round3(double x);

#endif /* TRAX_ANALYSIS_PYROUND_H */
