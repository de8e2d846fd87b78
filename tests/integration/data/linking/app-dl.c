/*
 * Application of the dynamic loading method: linked without libtrax-ust.
 * Emits linkprov:hello(0, "before"), then, with argument "dlopen PATH",
 * loads the provider shared object PATH, then emits hello(1, "after") and
 * hello(2, "after").
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "tp.h"

int main(int argc, char *argv[])
{
	tracepoint(linkprov, hello, 0, "before");
	if (argc > 2 && strcmp(argv[1], "dlopen") == 0) {
		if (!dlopen(argv[2], RTLD_NOW)) {
			fprintf(stderr, "dlopen: %s\n", dlerror());
			return 2;
		}
		puts("loaded");
	}
	tracepoint(linkprov, hello, 1, "after");
	tracepoint(linkprov, hello, 2, "after");
	puts("done");
	return 0;
}
