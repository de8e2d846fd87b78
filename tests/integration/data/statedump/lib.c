/* lib.c - libsdtest.so: a shared library with its own call site, built with a
 * build ID and given a separate debug file through a debug link. */
#define TRACEPOINT_DEFINE
#include "tp.h"

__attribute__((noinline)) int sdlib_work(int n)
{
	tracepoint(sdtest, where, "library", n); /* LIB-TRACEPOINT-LINE */
	return n + 1;
}
