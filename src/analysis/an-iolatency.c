#include "analysis/an-impl.h"
const struct an_def an_iolatency_def = {.name = "iolatency"};
