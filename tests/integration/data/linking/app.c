/* Emits linkprov:hello three times; the string field is argv[1]. */
#include <stdio.h>
#include "tp.h"

int main(int argc, char *argv[])
{
	const char *tag = argc > 1 ? argv[1] : "none";
	int i;

	for (i = 0; i < 3; i++)
		tracepoint(linkprov, hello, i, tag);
	puts("done");
	return 0;
}
