#!/bin/sh
# ThreadSanitizer run of `trax view`, whose text output is made by two
# threads (src/reader/print-twin.c: two readers formatting every other
# chunk, their chunks and warnings handed to the output in turn) and whose
# --count reads two halves of the packets at once (src/reader/count.c). The
# command is built from its sources with -fsanitize=thread and run on two
# recordings read together, one of 200,000 events, one with small buffers
# (many packets, discarded-events warnings): TSan must report nothing, and
# stdout and stderr must be the regular build's, byte for byte.
# The TSan set-up (and its check that TSan catches a race): data/tsan.sh.
. "$TRAX_SRC/tests/integration/lib.sh"
cd "$TEST_TMP"
. "$TRAX_SRC/tests/integration/data/tsan.sh"
# shellcheck disable=SC2086 # TSAN_CFLAGS is a list of flags
# (the command includes the analyses, whose pages are made by the build, and
# the legacy readers and their converter, which use the writer)
$CC $TSAN_CFLAGS "$src"/cli/*.c "$src"/reader/*.c "$src"/common/*.c "$src"/filter/*.c \
	"$src"/analysis/*.c "$TRAX_BUILD"/src/analysis/timeline-page.c \
	"$TRAX_BUILD"/src/analysis/html-page.c "$src"/legacy/*.c "$src"/writer/*.c \
	-o trax_tsan -lpthread -ldl -lm 2>cc.err || { cat cc.err >&2; fail "cannot build trax with TSan"; }

d="$TRAX_SRC/tests/integration/data/threads"
build_app "$d" app
# Two recordings read together: one with room for every event (hundreds of
# batches whatever the machine's load), one with tiny buffers (discarded
# events, warnings between the lines).
status=0
TRAX_EVENTS='thr:*' TRAX_SUBBUF_SIZE=1M TRAX_NUM_SUBBUF=16 TRAX_OUTPUT="$TEST_TMP/t" \
	./app 2 100000 >app.out 2>app.err || status=$?
expect_eq "$status" 7 "exit status of the traced program"
status=0
TRAX_EVENTS='thr:*' TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=2 TRAX_OUTPUT="$TEST_TMP/d" \
	./app 1 300000 >app.out 2>app.err || status=$?
expect_eq "$status" 7 "exit status of the traced program (discard)"

"$TRAX_BUILD/trax" view "$TEST_TMP/t" "$TEST_TMP/d" >ref.txt 2>ref.err ||
	fail "trax view: exit status $?"
grep -q '^WARNING: Tracer discarded' ref.err || fail "no discarded events: not the trace the test needs"
lines=$(wc -l <ref.txt)
[ "$lines" -gt 100000 ] || fail "only $lines events read: fewer than 25 batches"

status=0
$TSAN_RUN ./trax_tsan view "$TEST_TMP/t" "$TEST_TMP/d" >tsan.txt 2>tsan.err || status=$?
if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan.err; then
	head -c 6000 tsan.err >&2
	fail "trax view under TSan: status $status"
fi
cmp -s ref.txt tsan.txt || fail "trax view under TSan: standard output differs"
cmp -s ref.err tsan.err || fail "trax view under TSan: standard error differs"
ok "trax view clean under ThreadSanitizer ($lines events, $(grep -c '^WARNING' ref.err) warnings)${TSAN_RUN:+ (with $TSAN_RUN)}"

# Two readers in chunks of 7 items (print-twin.h), then with windows of 300
# bytes and the interpreter.
for mode in chunk7 window-nojit; do
	status=0
	case $mode in
	chunk7) set -- env TRAX_VIEW_CHUNK=7 ;;
	window-nojit) set -- env TRAX_READ_WINDOW=300 TRAX_NO_JIT=1 ;;
	esac
	"$@" $TSAN_RUN ./trax_tsan view "$TEST_TMP/t" "$TEST_TMP/d" >tsan.txt 2>tsan.err || status=$?
	if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan.err; then
		head -c 6000 tsan.err >&2
		fail "trax view under TSan ($mode): status $status"
	fi
	cmp -s ref.txt tsan.txt || fail "trax view under TSan ($mode): standard output differs"
	cmp -s ref.err tsan.err || fail "trax view under TSan ($mode): standard error differs"
done
ok "clean under ThreadSanitizer: two readers in chunks of 7, small windows without JIT"

# --count: two halves of the packets read at once (the recordings have
# packet indexes), the same count as the regular build's.
"$TRAX_BUILD/trax" view --count "$TEST_TMP/t" "$TEST_TMP/d" >ref.txt 2>ref.err ||
	fail "trax view --count: exit status $?"
status=0
$TSAN_RUN ./trax_tsan view --count "$TEST_TMP/t" "$TEST_TMP/d" >tsan.txt 2>tsan.err || status=$?
if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan.err; then
	head -c 6000 tsan.err >&2
	fail "trax view --count under TSan: status $status"
fi
cmp -s ref.txt tsan.txt || fail "trax view --count under TSan: $(cat tsan.txt), not $(cat ref.txt)"
ok "--count clean under ThreadSanitizer: $(cat ref.txt)"

# A pre-CTF trace of each format (bench/legacy_big.py: two CPU tracefiles),
# converted by two threads, each through its own open of the trace
# (src/legacy/lconvert.c), then printed: the regular build's events.
for fmt in v0 v2; do
	python3 "$TRAX_SRC/bench/legacy_big.py" "$TEST_TMP/leg-$fmt" 20000 "$fmt" >/dev/null ||
		fail "cannot write the $fmt legacy trace"
	"$TRAX_BUILD/trax" view "$TEST_TMP/leg-$fmt" >ref.txt 2>ref.err ||
		fail "trax view (legacy $fmt): exit status $?"
	[ "$(wc -l <ref.txt)" -ge 20000 ] || fail "legacy $fmt: $(wc -l <ref.txt) events"
	status=0
	$TSAN_RUN ./trax_tsan view "$TEST_TMP/leg-$fmt" >tsan.txt 2>tsan.err || status=$?
	if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan.err; then
		head -c 6000 tsan.err >&2
		fail "trax view of a legacy $fmt trace under TSan: status $status"
	fi
	cmp -s ref.txt tsan.txt || fail "legacy $fmt under TSan: standard output differs"
	TRAX_VIEW_THREADS=1 "$TRAX_BUILD/trax" view "$TEST_TMP/leg-$fmt" >one.txt 2>/dev/null
	cmp -s ref.txt one.txt || fail "legacy $fmt: converted by one thread and by two, the events differ"
done
ok "legacy traces converted by two threads: clean under ThreadSanitizer, the same events as one thread"
