/* Two providers in one program. */
#include <stdio.h>
#include "tp.h"
#include "tp2.h"

int main(void)
{
	tracepoint(linkprov, hello, 5, "first");
	tracepoint(otherprov, ping, 0xbeefUL, 0.5);
	tracepoint(linkprov, counted, 6);
	tracepoint(otherprov, ping, 0x10UL, -2.25);
	puts("done");
	return 0;
}
