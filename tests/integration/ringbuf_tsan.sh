#!/bin/sh
# ThreadSanitizer run of the ring buffer's unit tests: tests/unit/test_ringbuf.c,
# whose multi-threaded part has 4 producers x 200,000 records and a consumer
# draining concurrently (then a lossy run and an overwrite run), and
# tests/unit/test_ringbuf_consumer.c, the consumer API (a writer thread and
# ringbuf_drain/ringbuf_settle/ringbuf_pending concurrently). The tests and
# src/ringbuf (with the src/common pieces the trace clock needs) are built
# with -fsanitize=thread; TSan must report nothing.
#
# The TSan set-up (and its check that TSan catches a race): data/tsan.sh.
. "$TRAX_SRC/tests/integration/lib.sh"
cd "$TEST_TMP"
. "$TRAX_SRC/tests/integration/data/tsan.sh"
$CC $TSAN_CFLAGS -DTRAX_RINGBUF_INTERNAL "$TRAX_SRC/tests/unit/test_ringbuf.c" \
	"$src/ringbuf/ringbuf.c" "$src/ringbuf/consumer.c" "$src/common/clock.c" "$src/common/env.c" "$src/common/log.c" "$src/common/uuid.c" \
	-o test_ringbuf_tsan -lpthread -ldl 2>cc.err || { cat cc.err >&2; fail "cannot build the TSan unit test"; }

status=0
$TSAN_RUN ./test_ringbuf_tsan >tsan.out 2>&1 || status=$?
if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan.out; then
	head -c 6000 tsan.out >&2
	fail "test_ringbuf under TSan: status $status"
fi
expect_contains tsan.out "test_ringbuf: all checks passed"
expect_contains tsan.out "discard: 800000 records read, 0 lost"

# The consumer API. Its overwrite race is left out (argument 0): copying a
# sub-buffer that a writer may be reusing is what overwrite mode does, the
# copy being checked after, which TSan reports as a race.
$CC $TSAN_CFLAGS -I"$TRAX_SRC/tests" "$TRAX_SRC/tests/unit/test_ringbuf_consumer.c" \
	"$src/ringbuf/ringbuf.c" "$src/ringbuf/consumer.c" "$src/common/clock.c" \
	"$src/common/env.c" "$src/common/log.c" "$src/common/uuid.c" \
	-o test_ringbuf_consumer_tsan -lpthread -ldl 2>cc.err || { cat cc.err >&2; fail "cannot build the TSan consumer test"; }
status=0
$TSAN_RUN ./test_ringbuf_consumer_tsan 0 >tsan2.out 2>&1 || status=$?
if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan2.out; then
	head -c 6000 tsan2.out >&2
	fail "test_ringbuf_consumer under TSan: status $status"
fi
expect_contains tsan2.out "test_ringbuf_consumer: all checks passed"
expect_contains tsan2.out "discard race: "
ok "ring buffer unit tests clean under ThreadSanitizer${TSAN_RUN:+ (with $TSAN_RUN)}"
