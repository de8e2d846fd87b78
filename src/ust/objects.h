/*
 * objects.h - the executable, shared objects and vDSO loaded in the process,
 * as LTTng-UST describes them in its state dump and in its shared library
 * load/unload events (lttng-ust(3)).
 *
 * The list is kept up to date by looking at the dynamic loader's
 * (dl_iterate_phdr(3)) at start-up, at each state dump, and after each
 * dlopen(3) and dlclose(3) that libtrax-ust-dl.so wraps; each look that
 * finds objects gone or new records lttng_ust_lib:unload, then
 * lttng_ust_lib:load (with build_id and debug_link) where those events are
 * enabled.
 */
#ifndef TRAX_OBJECTS_H
#define TRAX_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

#include "common/export.h"

/* One object, as the lttng_ust_statedump:bin_info event and its followers say. */
struct trax_object {
	uint64_t baddr;
	uint64_t memsz;	  /* 0 for an object without a file (the vDSO) */
	const char *path; /* canonical path; "[NAME]" for an object without a file */
	uint8_t is_pic;
	const uint8_t *build_id; /* NULL: none */
	size_t build_id_len;
	const char *debug_link; /* .gnu_debuglink file name; NULL: none */
	uint32_t crc;		/* of the debug link's file */
};

/*
 * At start-up: registers the lttng_ust_lib events and takes the first look,
 * recording nothing (what is loaded then is the state dump's business).
 * Nothing at all with TRAX_WITHOUT_BADDR_STATEDUMP.
 */
void trax_objects_init(void);

/* What trax_objects_update() calls once it has looked, in this order. */
struct trax_objects_visitor {
	void (*begin)(void *arg);
	void (*object)(const struct trax_object *o, void *arg); /* in load order, program first */
	void (*end)(void *arg);
};

/*
 * Looks at the loaded objects again and records the changes (ip: the
 * events' ip context); then, when visitor is not NULL, calls it, the list
 * locked all along: no lttng_ust_lib event of another thread comes in
 * between (Babeltrace 2's debug-info filter forgets a process's objects at
 * lttng_ust_statedump:start, and aborts on an unload it does not know).
 * The lock nests inside the dynamic loader's (dlopen runs constructors with
 * it held) and outside the one dl_iterate_phdr takes: the visitor must not
 * call dlopen, dlclose, dladdr or dlsym.
 */
void trax_objects_update(const void *ip, const struct trax_objects_visitor *visitor, void *arg);

/*
 * The same without visitor, for libtrax-ust-dl.so after each dlopen, dlmopen
 * and dlclose (LTTng-UST's liblttng-ust-dl does the same with its
 * library): part of libtrax-ust's ABI, not of its API.
 */
void trax_ust_dl_update(const void *ip) TRAX_EXPORT;

#endif /* TRAX_OBJECTS_H */
