/*
 * dlapp.c - program of the session state dump tests (daemon_statedump.sh,
 * statedump_lttng.sh), built against trax's headers or LTTng-UST's:
 *
 *   dlapp wait FILE           registers, says "ready PID", waits (20 s at most)
 *                             for FILE to exist, emits sdtest:where
 *   dlapp dlopen LIB PLAIN    dlopen()s LIB (call sites of sdtest) and calls
 *                             its sddl_work(), dlopen()s PLAIN (no tracing
 *                             at all) and calls plain_add(), dlopen()s NULL
 *                             (the program), closes the three, then emits
 *                             sdtest:where itself
 *   dlapp dlmopen PLAIN       dlmopen()s PLAIN in a new namespace, calls
 *                             plain_add(), closes it
 *   dlapp stress LIB FILE     says "ready PID", then two threads dlopen() and
 *                             dlclose() LIB in a loop, calling sddl_work(),
 *                             while the main thread emits sdtest:where every
 *                             millisecond, until FILE exists (60 s at most)
 */
#define _GNU_SOURCE
#define TRACEPOINT_DEFINE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp.h"

__attribute__((noinline)) static void emit_from_dlapp(int n)
{
	tracepoint(sdtest, where, "program", n); /* DLAPP-TRACEPOINT-LINE */
}

/* dlopen()s path, calls fn(n) in it, leaves it open; NULL on failure. */
__attribute__((noinline)) static void *open_and_call(const char *path, const char *fn, int n)
{
	void *h = dlopen(path, RTLD_NOW); /* DLAPP-DLOPEN-LINE */
	int (*f)(int);

	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		return NULL;
	}
	*(void **)&f = dlsym(h, fn);
	if (!f) {
		fprintf(stderr, "dlsym %s: %s\n", fn, dlerror());
		dlclose(h);
		return NULL;
	}
	f(n);
	return h;
}

static const char *stress_lib;
static int stress_done;

static void *stress_thread(void *arg)
{
	(void)arg;
	for (int i = 0; !__atomic_load_n(&stress_done, __ATOMIC_RELAXED); i++) {
		void *h = open_and_call(stress_lib, "sddl_work", i);

		if (!h || dlclose(h) != 0)
			exit(3);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "wait")) {
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		for (int i = 0; i < 2000 && access(argv[2], F_OK) != 0; i++)
			usleep(10000);
		emit_from_dlapp(1);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "dlopen")) {
		void *lib = open_and_call(argv[2], "sddl_work", 7);
		void *plain = open_and_call(argv[3], "plain_add", 8);

		void *self = dlopen(NULL, RTLD_NOW); /* the program itself */

		if (!lib || !plain || !self)
			return 1;
		if (dlclose(plain) != 0 || dlclose(lib) != 0 || dlclose(self) != 0)
			return 1;
		emit_from_dlapp(2);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "dlmopen")) {
		void *h = dlmopen(LM_ID_NEWLM, argv[2], RTLD_NOW);
		int (*f)(int);

		if (!h) {
			fprintf(stderr, "dlmopen %s: %s\n", argv[2], dlerror());
			return 1;
		}
		*(void **)&f = dlsym(h, "plain_add");
		if (!f || f(1) != 2 || dlclose(h) != 0)
			return 1;
		emit_from_dlapp(3);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "stress")) {
		pthread_t t[2];

		stress_lib = argv[2];
		for (int i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, stress_thread, NULL))
				return 1;
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		for (int i = 0; i < 60000 && access(argv[3], F_OK) != 0; i++) {
			emit_from_dlapp(i);
			usleep(1000);
		}
		__atomic_store_n(&stress_done, 1, __ATOMIC_RELAXED);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	fprintf(stderr, "usage: dlapp wait FILE | dlopen LIB PLAIN | dlmopen PLAIN | stress LIB FILE\n");
	return 2;
}
