/* app.c ARG: ARG (default 1000) tracef() events of some 60 bytes, to fill packets (index*.sh). */
#include <lttng/tracef.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;

	for (int i = 0; i < n; i++)
		tracef("event %d of %d, with some text to fill the packets", i, n);
	return 0;
}
