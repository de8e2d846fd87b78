/*
 * LTTng-UST 2.10 names that 2.13 dropped: the fork hooks of <lttng/ust.h>,
 * _lttng_ust_tracef()/_lttng_ust_vtracef() called directly, and vtracef()
 * and vtracelog() (2.13 only has lttng_ust_vtracef/lttng_ust_vtracelog).
 * Built against trax only (no LTTng-UST 2.10 here).
 */
#include <lttng/tracef.h>
#include <lttng/tracelog.h>
#include <lttng/ust.h>
#include <sys/wait.h>

static void v(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_lttng_ust_vtracef(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vtracef(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vtracelog(TRACE_WARNING, fmt, ap);
	va_end(ap);
}

int main(void)
{
	sigset_t saved;
	pid_t pid;

	ust_before_fork(&saved);
	pid = fork();
	if (pid == 0) {
		ust_after_fork_child(&saved);
		_exit(0);
	}
	ust_after_fork_parent(&saved);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	_lttng_ust_tracef("2.10 direct %d", 1);
	v("2.10 v %d", 2);
	puts("done");
	return 0;
}
