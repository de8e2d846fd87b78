/*
 * lttng/ust-api-compat.h - LTTng-UST 2.13's switch for its pre-2.13 names:
 * a program defines LTTNG_UST_COMPAT_API_VERSION to N to say it needs the
 * compatibility names of API versions N and later only (0: the 2.12 and
 * earlier names, the default). LTTNG_UST_COMPAT_API(major) tells whether
 * those of version `major` are wanted. trax defines its names whatever the
 * setting: hiding them changes nothing for a program that does not use them.
 */
#ifndef TRAX_LTTNG_UST_API_COMPAT_H
#define TRAX_LTTNG_UST_API_COMPAT_H

#ifndef LTTNG_UST_COMPAT_API_VERSION
#define LTTNG_UST_COMPAT_API_VERSION 0
#endif

#define LTTNG_UST_COMPAT_API(major) (LTTNG_UST_COMPAT_API_VERSION <= (major))

#endif /* TRAX_LTTNG_UST_API_COMPAT_H */
