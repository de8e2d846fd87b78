/* Includes <lttng/tracef.h> only. */
#include <lttng/tracef.h>
#include "uses.h"

int main(int argc, char **argv)
{
	tracef("argc %d", argc);
	return uses_std_names(argc, argv);
}
