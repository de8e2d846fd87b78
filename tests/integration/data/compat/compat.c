/*
 * LTTng-UST 2.13 API that is neither a provider macro nor a field macro:
 * the version macros, tracepoint_disable_destructors(), the <lttng/ust-fork.h>
 * hooks, lttng_ust__tracef() and lttng_ust__vtracef() called directly, the
 * clock override API after start-up (its five getters too) and
 * lttng_ust_getcpu_override() called by the program. Compiles
 * against LTTng-UST 2.13 too (compat.sh checks); run with trax, it prints
 * what compat.sh checks and records linkprov:hello events.
 */
#include <lttng/tracef.h>
#include <lttng/ust-clock.h>
#include <lttng/ust-fork.h>
#include <lttng/ust-getcpu.h>
#include <signal.h>
#include <sys/wait.h>

/* Runs after the destructors of what tp.h defines (defined before them). */
static void late(void);
static void __attribute__((destructor)) late_destructor(void)
{
	late();
}

#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "tp.h"

static int last_cpu;

static int on_last_cpu(void)
{
	return last_cpu;
}

static uint64_t my_clock(void)
{
	return 1;
}

static void direct_vtracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lttng_ust__vtracef(fmt, ap);
	va_end(ap);
}

/* The default clock's UUID is the boot's (LTTng-UST's too). */
static int is_boot_id(const char *uuid)
{
	char boot[LTTNG_UST_UUID_STR_LEN] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (!f)
		return -1;
	if (!fgets(boot, sizeof(boot), f))
		boot[0] = 0;
	fclose(f);
	return strlen(uuid) == LTTNG_UST_UUID_STR_LEN - 1 && !strcmp(uuid, boot);
}

static int mask_has_usr1(void)
{
	sigset_t now;

	sigprocmask(SIG_SETMASK, NULL, &now);
	return sigismember(&now, SIGUSR1);
}

int main(void)
{
	lttng_ust_clock_name_function name = NULL;
	lttng_ust_clock_freq_function freq = NULL;
	lttng_ust_clock_read64_function read64 = NULL;
	lttng_ust_clock_uuid_function uuid = NULL;
	lttng_ust_clock_description_function description = NULL;
	char uuid_str[LTTNG_UST_UUID_STR_LEN] = "";
	uint64_t t0, t1;
	sigset_t usr1, saved;
	pid_t pid;
	int status;

	printf("version %d.%d.%d %s\n", LTTNG_UST_MAJOR_VERSION, LTTNG_UST_MINOR_VERSION,
	       LTTNG_UST_PATCHLEVEL_VERSION, LTTNG_UST_VERSION);
	printf("compat api 0: %d, 1: %d, name len max %d\n", LTTNG_UST_COMPAT_API(0) ? 1 : 0,
	       LTTNG_UST_COMPAT_API(1) ? 1 : 0, LTTNG_UST_TRACEPOINT_NAME_LEN_MAX);

	/* The fork hooks keep the signal mask the program had. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	lttng_ust_before_fork(&saved);
	pid = fork();
	if (pid == 0) {
		lttng_ust_after_fork_child(&saved);
		_exit(mask_has_usr1() ? 0 : 1);
	}
	lttng_ust_after_fork_parent(&saved);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || !mask_has_usr1())
		puts("fork hooks: signal mask lost");
	else
		puts("fork hooks: signal mask kept");
	lttng_ust_after_setns();
	lttng_ust_after_unshare();
	lttng_ust_after_setuid();
	lttng_ust_after_setgid();
	lttng_ust_after_seteuid();
	lttng_ust_after_setegid();
	lttng_ust_after_setreuid();
	lttng_ust_after_setregid();
	lttng_ust_after_setresuid();
	lttng_ust_after_setresgid();

	lttng_ust__tracef("direct %d", 1);
	direct_vtracef("vdirect %d", 2);

	/* The trace clock is fixed once the tracer runs (trax). */
	printf("set_read64_cb after start-up: %d\n", lttng_ust_trace_clock_set_read64_cb(my_clock));
	printf("enable after start-up: %d\n", lttng_ust_enable_trace_clock_override());
	lttng_ust_trace_clock_get_name_cb(&name);
	lttng_ust_trace_clock_get_freq_cb(&freq);
	printf("clock %s %llu\n", name(), (unsigned long long)freq());
	if (lttng_ust_trace_clock_get_read64_cb(&read64) || lttng_ust_trace_clock_get_uuid_cb(&uuid) ||
	    lttng_ust_trace_clock_get_description_cb(&description) || !read64 || !uuid ||
	    !description) {
		puts("clock getters failed");
	} else {
		t0 = read64();
		t1 = read64();
		status = uuid(uuid_str);
		printf("clock read64 %s, uuid %s (boot id: %d), description %s\n",
		       t0 > 0 && t1 >= t0 ? "counts" : "wrong", status ? "failed" : "given",
		       is_boot_id(uuid_str), description());
	}

	/* Events on the CPU the override says. */
	last_cpu = (int)sysconf(_SC_NPROCESSORS_CONF) - 1;
	printf("getcpu override: %d (cpu %d)\n", lttng_ust_getcpu_override(on_last_cpu), last_cpu);
	tracepoint(linkprov, hello, 2, "getcpu");
	lttng_ust_getcpu_override(NULL);

	tracepoint_disable_destructors();
	tracepoint(linkprov, hello, 1, "main");
	return 0;
}

static void late(void)
{
	tracepoint(linkprov, hello, 99, "destructor");
}
