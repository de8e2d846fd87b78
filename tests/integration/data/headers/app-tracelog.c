/* Includes <lttng/tracelog.h> only. */
#include <lttng/tracelog.h>
#include "uses.h"

int main(int argc, char **argv)
{
	/* (LTTng-UST 2.13 pastes the level's token: its own name for it.) */
	tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING, "argc %d", argc);
	return uses_std_names(argc, argv);
}
