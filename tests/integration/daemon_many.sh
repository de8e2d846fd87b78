#!/bin/sh
# daemon_many.sh - 200 short-lived processes of two different programs
# (ticker, and the lttng-ust(3) example with its other provider), traced
# per user into one session: every event of every process is in the trace,
# the trace has one metadata file (per-uid buffers: the processes share
# the channel's buffers and its event ids), and babeltrace2 reads it
# without a warning, printing what trax view prints.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/daemon
EXAMPLE=$TRAX_SRC/examples/hello
PER_PROG=100
TICKS=50
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$DATA" -o ticker "$DATA/ticker.c" "$DATA/ticker_tp.c" $TRAX_LDFLAGS \
	-ltrax-ust -ldl
cp "$EXAMPLE/tp.h" "$EXAMPLE/tp.c" "$EXAMPLE/app.c" "$EXAMPLE/app.h" .
$CC $TRAX_CFLAGS -c -I. tp.c
$CC $TRAX_CFLAGS -c app.c
$CC -o app tp.o app.o $TRAX_LDFLAGS -ltrax-ust -ldl

trax create many --output="$TEST_TMP/out" >/dev/null || fail "trax create"
trax enable-event -u 'ticker:*,my_provider:*' >/dev/null || fail "trax enable-event"
trax add-context -u -t vpid >/dev/null || fail "trax add-context"
trax start >/dev/null || fail "trax start"

# ten at a time, the two programs interleaved
i=0
while [ $i -lt $PER_PROG ]; do
	pids=""
	for k in 0 1 2 3 4; do
		./ticker $TICKS 0 "" 1 >/dev/null &
		pids="$pids $!"
		./app a b >/dev/null &
		pids="$pids $!"
	done
	for p in $pids; do
		wait "$p" || fail "a traced process exited with status $?"
	done
	i=$((i + 5))
done
trax stop >/dev/null || fail "trax stop"

n=$(find "$TEST_TMP/out" -name metadata | wc -l)
expect_eq "$n" 1 "metadata files in the session's output"
bt2 "$TEST_TMP/out" >bt2.txt
if [ -s "$TEST_TMP/bt2.err" ]; then
	cat "$TEST_TMP/bt2.err" >&2
	fail "babeltrace2 warned"
fi
trax view "$TEST_TMP/out" >view.txt || fail "trax view"
cmp bt2.txt view.txt || fail "trax view and babeltrace2 differ"

# ticker: TICKS events per process, seq 0..TICKS-1 each, from PER_PROG processes
sed -n 's/.*{ vpid = \([0-9]*\) }, { seq = \([0-9]*\), prog = 1 }$/\1 \2/p' bt2.txt >ticks
expect_eq "$(wc -l <ticks)" $((PER_PROG * TICKS)) "ticker:tick events"
awk -v n=$TICKS '{ c[$1]++; s[$1] += $2 }
	END { for (p in c) if (c[p] != n || s[p] != n * (n - 1) / 2) { print p, c[p], s[p]; bad = 1 }
	      print length(c); exit bad }' ticks >per-process || {
	cat per-process >&2
	fail "some ticker process lost events"
}
expect_eq "$(tail -n 1 per-process)" $PER_PROG "ticker processes in the trace"
# the example: its five events from each of PER_PROG processes
for ev in simple_event big_event event_instance1 event_instance2 event_instance3; do
	expect_eq "$(grep -c "my_provider:$ev:" bt2.txt)" $PER_PROG "my_provider:$ev events"
done
expect_eq "$(grep 'my_provider:' bt2.txt | sed 's/.*{ vpid = \([0-9]*\) }.*/\1/' | sort -u | wc -l)" \
	$PER_PROG "example processes in the trace"
ok "$((2 * PER_PROG)) processes of two programs: every event, one metadata, babeltrace2 reads it"
