/*
 * lttng/ust.h - LTTng-UST 2.10's fork hooks (2.13 renamed them, see
 * <lttng/ust-fork.h>): ust_before_fork() saves the signal mask into
 * *save_sigset, the after_fork ones restore it; libtrax-ust handles fork(2)
 * by itself otherwise.
 */
#ifndef TRAX_LTTNG_UST_H
#define TRAX_LTTNG_UST_H

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

void ust_before_fork(sigset_t *save_sigset);
void ust_after_fork_parent(sigset_t *restore_sigset);
void ust_after_fork_child(sigset_t *restore_sigset);

#ifdef __cplusplus
}
#endif

#endif /* TRAX_LTTNG_UST_H */
