/*
 * env.h - the library's environment variables: TRAX_NAME, with LTTng-UST's
 * spelling LTTNG_UST_NAME accepted too (TRAX_ wins when both are set).
 */
#ifndef TRAX_ENV_H
#define TRAX_ENV_H

#include <stdint.h>

/* The value of TRAX_<name> or LTTNG_UST_<name>, or NULL. */
const char *trax_env_get(const char *name);
/* Parses a size with an optional k/M/G suffix; returns def when unset or bad. */
uint64_t trax_env_size(const char *name, uint64_t def);
/* Parses an integer; returns def when unset or bad. */
long trax_env_long(const char *name, long def);

#endif /* TRAX_ENV_H */
