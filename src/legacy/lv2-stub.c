/*
 * lv2-stub.c - TEMPORARY, branch lv0 only: stands in for the compact
 * format reader (lv2.c, branch lv2) so that the LTTV reader builds alone.
 * Delete when lv2.c is merged.
 */
#include <stdio.h>

#include "legacy/ltrace-impl.h"

enum ltt_format lv2_probe(const char *dir)
{
	(void)dir;
	return LTT_FORMAT_NONE;
}

int lv2_load(struct ltt_trace *t, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: the compact format reader is not built", t->dir);
	return -1;
}
