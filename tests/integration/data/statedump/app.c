/*
 * app.c - program of the statedump test. Prints where the program and
 * libsdtest.so are loaded (dladdr(3)) so that the test can compare with the
 * base addresses of the state dump, then emits sdtest:where from a function
 * of its own and from the library.
 */
#define _GNU_SOURCE
#define TRACEPOINT_DEFINE
#include <dlfcn.h>
#include <stdio.h>

#include "tp.h"

int sdlib_work(int n);

__attribute__((noinline)) static int emit_from_program(int n)
{
	tracepoint(sdtest, where, "program", n); /* APP-TRACEPOINT-LINE */
	return n * 2;
}

int main(void)
{
	Dl_info app, lib;

	if (!dladdr((void *)emit_from_program, &app) || !dladdr((void *)sdlib_work, &lib)) {
		fprintf(stderr, "dladdr failed\n");
		return 1;
	}
	printf("app_base=%p\nlib_base=%p\n", app.dli_fbase, lib.dli_fbase);
	fflush(stdout);
	return emit_from_program(20) + sdlib_work(1) == 42 ? 0 : 2;
}
