/*
 * lmissing.c - what legacy.h and ltt-type.h declare, when the tree does not
 * hold their implementations yet (the readers of issue 19 are written at
 * the same time as the converter): no directory is a legacy trace, and
 * opening one says so. CMake builds this file only when no other file of
 * src/legacy defines ltt_trace_open(); delete it once they all exist.
 */
#include <stdio.h>

#include "legacy/legacy.h"

enum ltt_format ltt_probe_dir(const char *dir)
{
	(void)dir;
	return LTT_FORMAT_NONE;
}

struct ltt_trace *ltt_trace_open(const char *dir, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: this trax is built without the legacy trace readers", dir);
	return NULL;
}

void ltt_trace_close(struct ltt_trace *t)
{
	(void)t;
}

const struct ltt_trace_info *ltt_trace_info(const struct ltt_trace *t)
{
	(void)t;
	return NULL;
}

size_t ltt_trace_file_count(const struct ltt_trace *t)
{
	(void)t;
	return 0;
}

const struct ltt_file_info *ltt_trace_file(const struct ltt_trace *t, size_t i)
{
	(void)t;
	(void)i;
	return NULL;
}

size_t ltt_trace_class_count(const struct ltt_trace *t)
{
	(void)t;
	return 0;
}

const struct ltt_class *ltt_trace_class(const struct ltt_trace *t, size_t i)
{
	(void)t;
	(void)i;
	return NULL;
}

const char *ltt_trace_warning(const struct ltt_trace *t, size_t i)
{
	(void)t;
	(void)i;
	return NULL;
}

struct ltt_cursor *ltt_cursor_open(struct ltt_trace *t, size_t i)
{
	(void)t;
	(void)i;
	return NULL;
}

int ltt_cursor_next(struct ltt_cursor *c, struct ltt_event *ev)
{
	(void)c;
	(void)ev;
	return -1;
}

const char *ltt_cursor_error(const struct ltt_cursor *c)
{
	(void)c;
	return "";
}

const char *ltt_cursor_warning(struct ltt_cursor *c)
{
	(void)c;
	return "";
}

void ltt_cursor_close(struct ltt_cursor *c)
{
	(void)c;
}

unsigned ltt_type_scalar_size(const struct ltt_type *t, const struct ltt_abi *abi)
{
	(void)t;
	(void)abi;
	return 0;
}

const struct ltt_type *ltt_type_resolve(const struct ltt_type *t)
{
	return t;
}

long ltt_payload_decode(const struct ltt_type *t, const struct ltt_abi *abi, const uint8_t *p,
			size_t len, size_t base, const struct ltt_payload_sink *sink, void *arg,
			char *err, size_t errlen)
{
	(void)t, (void)abi, (void)p, (void)len, (void)base, (void)sink, (void)arg;
	snprintf(err, errlen, "no payload reader");
	return -1;
}
