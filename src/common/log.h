/*
 * log.h - the tracer's own diagnostics: silent unless TRAX_DEBUG (or
 * LTTNG_UST_DEBUG) is set, then one line per message on stderr.
 */
#ifndef TRAX_LOG_H
#define TRAX_LOG_H

extern int trax_debug_enabled;

void trax_log_init(void);
void trax_log_write(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define trax_debug(...)                                                                            \
	do {                                                                                       \
		if (__builtin_expect(trax_debug_enabled, 0))                                       \
			trax_log_write(__VA_ARGS__);                                               \
	} while (0)

#endif /* TRAX_LOG_H */
