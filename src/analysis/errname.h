/* errname.h - errno names as Python's errno.errorcode gives them (lttng-syscallstats). */
#ifndef TRAX_ANALYSIS_ERRNAME_H
#define TRAX_ANALYSIS_ERRNAME_H

#include <stdint.h>

/* The name of errno value e ("ENOENT"), NULL when Python has none. */
const char *an_errno_name(int64_t e);

#endif /* TRAX_ANALYSIS_ERRNAME_H */
