/*
 * objects.c - the loaded objects and the lttng_ust_lib events (see
 * objects.h).
 *
 * Each look copies what the loader shows (names, addresses, program
 * headers, build IDs) inside dl_iterate_phdr, then compares it with the
 * list outside: an object is the same when its name, load address and size
 * are. The files are only read (canonical path, debug link) for objects
 * that are new, and not before they are needed: the first look, at
 * start-up, costs no file access.
 *
 * The values are LTTng-UST's: the program's path comes from
 * /proc/self/exe, other paths are canonical (realpath(3)); an object whose
 * file cannot be found (the vDSO, "linux-vdso.so.1") is named "[NAME]" and
 * has no size, no build ID, no debug link and is_pic 0.
 */
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "common/assert.h"
#include "common/env.h"
#include "common/log.h"
#include "ust/call-site.h"
#include "ust/elf-debuglink.h"
#include "ust/elf-object.h"
#include "ust/objects.h"
#include "ust/ust.h"

#include "trax/probe.h"
#define TRACEPOINT_CREATE_PROBES
#include "ust/lib-provider.h"

static struct trax_tracepoint tp_load = {"lttng_ust_lib:load", 0, 0, 0, 0};
static struct trax_tracepoint tp_build_id = {"lttng_ust_lib:build_id", 0, 0, 0, 0};
static struct trax_tracepoint tp_debug_link = {"lttng_ust_lib:debug_link", 0, 0, 0, 0};
static struct trax_tracepoint tp_unload = {"lttng_ust_lib:unload", 0, 0, 0, 0};
static struct trax_tracepoint *const lib_tps[] = {&tp_load, &tp_build_id, &tp_debug_link,
						  &tp_unload};

enum object_kind {
	OBJECT_PROGRAM, /* the executable: its path is /proc/self/exe */
	OBJECT_FILE,	/* a shared object with a file name */
	OBJECT_NO_FILE, /* the vDSO, or a name realpath() does not find */
};

struct object {
	struct object *next;
	char *name;    /* as the loader gives it: "" for the program */
	uint64_t addr; /* dlpi_addr */
	struct trax_elf_object elf;
	enum object_kind kind;
	int resolved; /* path and debug link looked up */
	int skipped;  /* its file cannot be named: left out */
	int fresh;    /* new in the look being taken */
	int has_file; /* resolved to a file (else: "[NAME]", nothing read) */
	char *path;
	char *debug_link;
	uint32_t crc;
};

static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;
static struct object *objects; /* in the loader's order, the program first */
static int looked;	       /* the first look was taken */

static void object_free(struct object *o)
{
	free(o->name);
	free(o->elf.build_id);
	free(o->path);
	free(o->debug_link);
	free(o);
}

/* ---- Looking at the loader's list ---- */

struct look {
	struct object *first, **tail;
	unsigned int index; /* of the object the callback sees */
	uintptr_t vdso;	    /* ELF header of the vDSO, 0 if none */
	int failed;
};

/* Inside dl_iterate_phdr (the loader's lock held): memory only. */
static int look_at(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct look *l = arg;
	int program = l->index++ == 0;
	struct object *o = calloc(1, sizeof(*o));

	(void)size;
	if (!o) {
		l->failed = 1;
		return 1;
	}
	if (trax_elf_object_read(info, program, &o->elf) < 0) {
		free(o);
		return 0; /* maps nothing */
	}
	o->name = strdup(info->dlpi_name ? info->dlpi_name : "");
	if (!o->name) {
		free(o->elf.build_id);
		free(o);
		l->failed = 1;
		return 1;
	}
	o->addr = info->dlpi_addr;
	if (program)
		o->kind = OBJECT_PROGRAM;
	else if (!o->name[0] || (l->vdso && (uintptr_t)o->elf.ehdr == l->vdso))
		o->kind = OBJECT_NO_FILE;
	else
		o->kind = OBJECT_FILE;
	*l->tail = o;
	l->tail = &o->next;
	return 0;
}

static void look_free(struct object *o)
{
	while (o) {
		struct object *next = o->next;

		object_free(o);
		o = next;
	}
}

static int same_object(const struct object *a, const struct object *b)
{
	return a->addr == b->addr && a->elf.memsz == b->elf.memsz && a->kind == b->kind &&
	       !strcmp(a->name, b->name);
}

/* Names the object's file and reads its debug link, once (outside the loader's lock). */
static void resolve(struct object *o)
{
	char buf[PATH_MAX];
	ssize_t n;

	if (o->resolved)
		return;
	o->resolved = 1;
	if (o->kind == OBJECT_PROGRAM) {
		n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
		if (n <= 0) {
			o->skipped = 1; /* as LTTng-UST does */
			return;
		}
		buf[n] = 0;
		o->path = realpath(buf, NULL);
		if (!o->path)
			o->path = strdup(buf);
		o->has_file = o->path != NULL;
	} else if (o->kind == OBJECT_FILE) {
		o->path = realpath(o->name, NULL);
		o->has_file = o->path != NULL;
	}
	if (!o->has_file) {
		const char *name = o->name[0] ? o->name : "vdso";
		size_t len = strlen(name) + 3;

		free(o->path);
		o->path = malloc(len);
		if (o->path)
			snprintf(o->path, len, "[%s]", name);
	}
	if (!o->path) {
		o->skipped = 1;
		return;
	}
	if (o->has_file && trax_elf_debug_link(o->path, &o->debug_link, &o->crc) < 0)
		o->debug_link = NULL;
}

/* What the events say of o (resolved): an object without a file has no size, no build ID. */
static void view(const struct object *o, struct trax_object *v)
{
	int file = o->has_file;

	v->baddr = o->elf.baddr;
	v->memsz = file ? o->elf.memsz : 0;
	v->path = o->path;
	v->is_pic = file ? o->elf.is_pic : 0;
	v->build_id = file ? o->elf.build_id : NULL;
	v->build_id_len = file ? o->elf.build_id_len : 0;
	v->debug_link = o->debug_link;
	v->crc = o->crc;
}

/* ---- The lttng_ust_lib events ---- */

static void record_load(const struct trax_object *v, const void *ip)
{
	void (*load)(void *, const void *, uint64_t, uint64_t, const char *, uint8_t, uint8_t);
	void (*build_id)(void *, const void *, uint64_t, const uint8_t *, size_t);
	void (*debug_link)(void *, const void *, uint64_t, const char *, uint32_t);
	void *data;

	*(void **)&load = trax_call_site_probe(&tp_load, &data);
	if (load)
		load(data, ip, v->baddr, v->memsz, v->path, v->build_id != NULL,
		     v->debug_link != NULL);
	*(void **)&build_id = trax_call_site_probe(&tp_build_id, &data);
	if (build_id && v->build_id)
		build_id(data, ip, v->baddr, v->build_id, v->build_id_len);
	*(void **)&debug_link = trax_call_site_probe(&tp_debug_link, &data);
	if (debug_link && v->debug_link)
		debug_link(data, ip, v->baddr, v->debug_link, v->crc);
}

static void record_unload(const struct object *o, const void *ip)
{
	void (*unload)(void *, const void *, uint64_t);
	void *data;

	*(void **)&unload = trax_call_site_probe(&tp_unload, &data);
	if (unload)
		unload(data, ip, o->elf.baddr);
}

/* ---- Updates ---- */

/* Replaces the list by what the loader shows; records the changes. */
static void take_look(const void *ip, int record)
{
	struct look l;
	struct object *now = NULL, **tail = &now, *o, *next;

	TRAX_ASSERT_LOCKED(&objects_lock);
	memset(&l, 0, sizeof(l));
	l.tail = &l.first;
	l.vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	dl_iterate_phdr(look_at, &l);
	if (l.failed) {
		/* Half a look would make the missing objects look unloaded. */
		trax_debug("loaded objects: out of memory, the list is not updated");
		look_free(l.first);
		return;
	}
	for (o = l.first; o; o = next) {
		struct object **pk;

		next = o->next;
		o->fresh = 1;
		for (pk = &objects; *pk; pk = &(*pk)->next)
			if (same_object(*pk, o)) {
				struct object *kept = *pk;

				*pk = kept->next;
				object_free(o);
				o = kept;
				o->fresh = 0;
				break;
			}
		o->next = NULL;
		*tail = o;
		tail = &o->next;
	}
	/* What is left of the old list is gone. */
	for (o = objects; o; o = next) {
		next = o->next;
		if (record && !o->skipped)
			record_unload(o, ip);
		object_free(o);
	}
	objects = now;
	for (o = objects; o; o = o->next) {
		if (o->fresh && record) {
			struct trax_object v;

			resolve(o);
			if (!o->skipped) {
				view(o, &v);
				record_load(&v, ip);
			}
		}
		o->fresh = 0;
	}
	looked = 1;
}

void trax_objects_update(const void *ip, const struct trax_objects_visitor *visitor, void *arg)
{
	struct trax_object v;
	struct object *o;

	pthread_mutex_lock(&objects_lock);
	/* The first look only learns what is there (at start-up, nothing is recorded yet). */
	take_look(ip, looked);
	if (visitor) {
		visitor->begin(arg);
		for (o = objects; o; o = o->next) {
			resolve(o);
			if (o->skipped)
				continue;
			view(o, &v);
			visitor->object(&v, arg);
		}
		visitor->end(arg);
	}
	pthread_mutex_unlock(&objects_lock);
}

static void objects_lock_take(void)
{
	pthread_mutex_lock(&objects_lock);
}

static void objects_lock_release(void)
{
	pthread_mutex_unlock(&objects_lock);
}

/* TRAX_WITHOUT_BADDR_STATEDUMP: no look at all (read once: getenv is not thread-safe). */
static int looks_disabled(void)
{
	static int disabled = -1;
	int d = __atomic_load_n(&disabled, __ATOMIC_RELAXED);

	if (d < 0) {
		d = trax_env_get("WITHOUT_BADDR_STATEDUMP") != NULL;
		__atomic_store_n(&disabled, d, __ATOMIC_RELAXED);
	}
	return d;
}

void trax_objects_init(void)
{
	trax_provider_register(&__trax_provider_lttng_ust_lib);
	trax_tracepoints_register(lib_tps, sizeof(lib_tps) / sizeof(lib_tps[0]));
	/* A child of fork() must find the lock free. */
	pthread_atfork(objects_lock_take, objects_lock_release, objects_lock_release);
	if (!looks_disabled())
		trax_objects_update(NULL, NULL, NULL);
}

TRAX_EXPORT void trax_ust_dl_update(const void *ip)
{
	if (!looks_disabled())
		trax_objects_update(ip, NULL, NULL);
}
