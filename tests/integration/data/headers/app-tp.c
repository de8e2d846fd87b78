/* Includes a provider header only: its events and the system names. */
#include "tp.h"
#include "uses.h"

int main(int argc, char **argv)
{
	tracepoint(hdrprov, ev, argc);
	return uses_std_names(argc, argv);
}
