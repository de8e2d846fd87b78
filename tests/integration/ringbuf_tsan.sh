#!/bin/sh
# ThreadSanitizer run of the ring buffer's unit test (tests/unit/test_ringbuf.c),
# whose multi-threaded part has 4 producers x 200,000 records and a consumer
# draining concurrently (then a lossy run and an overwrite run). The test and
# src/ringbuf/ringbuf.c (with the src/common pieces the trace clock needs)
# are built with -fsanitize=thread; TSan must report nothing.
#
# First a deliberately racy program must be caught, so that "no report" means
# something. TSan needs a memory layout it knows: on kernels where it aborts
# ("unexpected memory mapping", high mmap entropy), the runs are retried with
# ASLR off (setarch -R).
. "$TRAX_SRC/tests/integration/lib.sh"
cd "$TEST_TMP"
src="$TRAX_SRC/src"
# Its own flags: the build's sanitizers (address, undefined) cannot be mixed with thread.
TSAN_CFLAGS="-fsanitize=thread -O1 -g -Wno-tsan -D_GNU_SOURCE -DTRAX_VERSION=\"tsan\" -I$TRAX_SRC/include -I$src"

cat >race.c <<'EOC'
#include <pthread.h>
static int x;
static void *f(void *a) { x++; return a; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); x++; pthread_join(t, 0); return x == 2 ? 0 : 3; }
EOC
$CC $TSAN_CFLAGS race.c -o race -lpthread 2>cc.err || { cat cc.err >&2; fail "cannot build with -fsanitize=thread"; }
$CC $TSAN_CFLAGS "$TRAX_SRC/tests/unit/test_ringbuf.c" "$src/ringbuf/ringbuf.c" \
	"$src/common/clock.c" "$src/common/env.c" "$src/common/log.c" "$src/common/uuid.c" \
	-o test_ringbuf_tsan -lpthread -ldl 2>cc.err || { cat cc.err >&2; fail "cannot build the TSan unit test"; }

export TSAN_OPTIONS="halt_on_error=1:exitcode=66"
run="" # or "setarch ARCH -R"
status=0
./race >race.out 2>&1 || status=$?
if [ "$status" != 66 ] && grep -q "FATAL: ThreadSanitizer" race.out; then
	command -v setarch >/dev/null || fail "TSan cannot run here and setarch is missing: $(head -3 race.out)"
	run="setarch $(uname -m) -R"
	status=0
	$run ./race >race.out 2>&1 || status=$?
fi
if [ "$status" != 66 ] || ! grep -q "WARNING: ThreadSanitizer: data race" race.out; then
	cat race.out >&2
	fail "TSan does not catch a plain data race here (status $status)"
fi

status=0
$run ./test_ringbuf_tsan >tsan.out 2>&1 || status=$?
if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan.out; then
	head -c 6000 tsan.out >&2
	fail "test_ringbuf under TSan: status $status"
fi
expect_contains tsan.out "test_ringbuf: all checks passed"
expect_contains tsan.out "discard: 800000 records read, 0 lost"
ok "ring buffer unit test clean under ThreadSanitizer${run:+ (with $run)}"
