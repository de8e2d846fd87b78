/* opts_tp.c - the probes of daemon_options.sh's two providers. */
#define TRACEPOINT_CREATE_PROBES
#include "opts_tp.h"
#include "opts_other_tp.h"
