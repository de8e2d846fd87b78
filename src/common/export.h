/*
 * export.h - the one way a trax library makes a symbol part of its ABI.
 * Every module is compiled with -fvisibility=hidden; what an application,
 * a provider or a reader program may call or interpose is marked
 * TRAX_EXPORT where it is defined (and in the internal header that
 * declares it, if any).
 */
#ifndef TRAX_COMMON_EXPORT_H
#define TRAX_COMMON_EXPORT_H

#define TRAX_EXPORT __attribute__((visibility("default")))

#endif /* TRAX_COMMON_EXPORT_H */
