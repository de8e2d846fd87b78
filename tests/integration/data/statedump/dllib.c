/* dllib.c - libsddl.so, loaded with dlopen(3) by dlapp: call sites of the
 * program's provider, no provider of its own (dlclose(3) unloads it). */
#define TRACEPOINT_DEFINE
#include "tp.h"

__attribute__((noinline)) int sddl_work(int n)
{
	tracepoint(sdtest, where, "dlopened", n); /* DLLIB-TRACEPOINT-LINE */
	return n + 1;
}
