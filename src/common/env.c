/* env.c - reading the library's environment variables. */
#include "common/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

const char *trax_env_get(const char *name)
{
	char key[64];
	const char *v;

	snprintf(key, sizeof(key), "TRAX_%s", name);
	v = getenv(key);
	if (v)
		return v;
	snprintf(key, sizeof(key), "LTTNG_UST_%s", name);
	return getenv(key);
}

uint64_t trax_env_size(const char *name, uint64_t def)
{
	const char *v = trax_env_get(name);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return def;
	while (*v == ' ')
		v++;
	if (*v == '-') {
		trax_debug("TRAX_%s: '%s' is negative; ignored, using %llu", name, v,
			   (unsigned long long)def);
		return def;
	}
	n = strtoull(v, &end, 0);
	switch (*end) {
	case 'k':
	case 'K':
		n <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		n <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		n <<= 30;
		end++;
		break;
	}
	if (*end) {
		trax_debug("TRAX_%s: '%s' is not a size; ignored, using %llu", name, v,
			   (unsigned long long)def);
		return def;
	}
	return n;
}

long trax_env_long(const char *name, long def)
{
	const char *v = trax_env_get(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	n = strtol(v, &end, 0);
	if (*end) {
		trax_debug("TRAX_%s: '%s' is not a number; ignored, using %ld", name, v, def);
		return def;
	}
	return n;
}
