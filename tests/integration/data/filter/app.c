/* app.c - records one flt:ev per row of rows.h, each followed by a
 * flt:other whose x is the row's number. */
#include <unistd.h>

#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "tp.h"

int main(void)
{
	for (size_t k = 0; k < FLT_NR_ROWS; k++) {
		tracepoint(flt, ev, &flt_rows[k]);
		tracepoint(flt, other, (int)k);
	}
	return 0;
}
