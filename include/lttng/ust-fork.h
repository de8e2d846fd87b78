/*
 * lttng/ust-fork.h - LTTng-UST 2.13's hooks for programs that fork or
 * change namespaces and credentials without the C library's wrappers
 * (what LTTng-UST's liblttng-ust-fork.so preloads). libtrax-ust needs none
 * of them: it handles fork(2) itself (pthread_atfork) and records no
 * namespace or credential context. They are kept so that such programs
 * build and run unchanged: lttng_ust_before_fork() saves the signal mask
 * into *save_sigset, the after_fork ones restore it from *restore_sigset,
 * the others do nothing.
 */
#ifndef TRAX_LTTNG_UST_FORK_H
#define TRAX_LTTNG_UST_FORK_H

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

void lttng_ust_before_fork(sigset_t *save_sigset);
void lttng_ust_after_fork_parent(sigset_t *restore_sigset);
void lttng_ust_after_fork_child(sigset_t *restore_sigset);
void lttng_ust_after_setns(void);
void lttng_ust_after_unshare(void);
void lttng_ust_after_setuid(void);
void lttng_ust_after_setgid(void);
void lttng_ust_after_seteuid(void);
void lttng_ust_after_setegid(void);
void lttng_ust_after_setreuid(void);
void lttng_ust_after_setregid(void);
void lttng_ust_after_setresuid(void);
void lttng_ust_after_setresgid(void);

#ifdef __cplusplus
}
#endif

#endif /* TRAX_LTTNG_UST_FORK_H */
