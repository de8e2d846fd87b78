/* Emits N numbered events as fast as it can; prints how long it took. */
#include <stdio.h>
#include <stdlib.h>
#include "tp.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, i;

	for (i = 0; i < n; i++)
		tracepoint(plug, ev, i);
	printf("emitted %d\n", n);
	return 0;
}
