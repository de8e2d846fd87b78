/*
 * legacy-fake.h - a test-only implementation of src/legacy/legacy.h and of
 * the payload walk of ltt-type.h, serving one trace built in memory
 * (legacy_fake_trace()): every field type, three tracefiles of two
 * channels, a lost-events count and a tracefile that stops on an error. It
 * lets the converter (lconvert.c) be tested without the real readers.
 *
 * Payloads are packed, in the host's byte order. ltt_probe_dir() says
 * LTT_FORMAT_LTTV for a directory holding a file named "fake-legacy".
 */
#ifndef TRAX_TESTS_LEGACY_FAKE_H
#define TRAX_TESTS_LEGACY_FAKE_H

#include "legacy/legacy.h"

/* The error line of the tracefile that fails (cpu_1, after its first event). */
#define LEGACY_FAKE_ERROR "fake/cpu_1: block at byte 4096: event size 9999 overruns the block"

/* Makes dir a fake legacy trace (the marker file): 0 or -1. */
int legacy_fake_make_dir(const char *dir);

#endif /* TRAX_TESTS_LEGACY_FAKE_H */
