/* log.c - diagnostics on stderr, written with one write(2) so lines stay whole. */
#include "common/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "common/env.h"

int trax_debug_enabled;

void trax_log_init(void)
{
	trax_debug_enabled = trax_env_get("DEBUG") != NULL;
}

void trax_log_write(const char *fmt, ...)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "trax-ust[%d]: ", (int)getpid());
	va_list ap;

	if (n < 0 || n >= (int)sizeof(line))
		return;
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
}
