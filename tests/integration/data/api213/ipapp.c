/* ip_prov:call with the ip its caller gives (LTTNG_UST_TP_IP_PARAM). */
#define LTTNG_UST_TP_IP_PARAM ip
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ipprov.h"

int main(void)
{
	lttng_ust_tracepoint(ip_prov, call, (void *)0x123456, 1);
	lttng_ust_tracepoint(ip_prov, call, (void *)0x7f00feed0000, 2);
	return 0;
}
