/* app.c - records one flt:ev per row of rows.h, after waiting a little for
 * the session daemons that trace it to register it. */
#include <unistd.h>

#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "tp.h"

int main(void)
{
	for (size_t k = 0; k < FLT_NR_ROWS; k++)
		tracepoint(flt, ev, &flt_rows[k]);
	return 0;
}
