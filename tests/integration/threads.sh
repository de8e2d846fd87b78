#!/bin/sh
# Two threads each emit 5,000,000 numbered events (thread index, sequence
# number) as fast as they can; with buffers that can hold the whole run, the
# trace holds every event exactly once, in increasing order per thread, and
# babeltrace2 reports no discarded events.
#
# Buffer size: each event is 16 bytes (4-byte compact header, 4-byte index,
# 8-byte sequence number), so the run produces 80 MB per thread. On 2 cores
# the two producers leave the consumer thread little CPU: measured with
# TRAX_SUBBUF_SIZE=4M TRAX_NUM_SUBBUF=8 (32 MB per CPU), ~2.4-3 million events
# were discarded in about one run out of three when another test ran at the
# same time (none when alone); 16M x 8 lost nothing in 8 loaded runs. We use
# 32M x 8 = 256 MB per CPU: more than the 160 MB of the whole run, so nothing
# can be lost even if the consumer never runs before the end and both threads
# share one CPU (only the pages written are ever allocated).
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/threads"
cd "$TEST_TMP"
build_app "$d" app

n=5000000
# The sanitizer build runs the same check on 500,000 events per thread (the
# full run and reading 10 million events back take too long there).
[ -n "$TRAX_SANITIZE" ] && n=500000

status=0
TRAX_EVENTS='thr:*' TRAX_SUBBUF_SIZE=32M TRAX_NUM_SUBBUF=8 TRAX_OUTPUT="$TEST_TMP/t" \
	./app 2 $n >app.out 2>app.err || status=$?
expect_eq "$status" 7 "exit status of the traced program"
expect_eq "$(cat app.out)" "emitted $((2 * n))" "program output"

# Stream the text through awk: "[time] host:proc:(pid) thr:ev: { cpu }, { idx, seq }".
{
	babeltrace2 --names=none --no-delta "$TEST_TMP/t" 2>bt.err
	echo $? >bt.rc
} | awk -v n=$n '
	$3 != "thr:ev:" { other++; next }
	{
		t = $8 + 0; s = $9 + 0
		if ($8 != t "," || (t != 0 && t != 1)) { print "bad line: " $0; bad = 1; exit }
		if (s != want[t] + 0) {
			print "thread " t ": sequence " s " where " want[t] + 0 " was expected"
			bad = 1; exit
		}
		want[t] = s + 1
	}
	END {
		if (bad) exit 1
		for (t = 0; t < 2; t++)
			if (want[t] + 0 != n) { print "thread " t ": " want[t] + 0 " events, expected " n; exit 1 }
		print "per thread: " want[0] " " want[1] "; other events: " other + 0
	}' >check.out || {
	cat check.out >&2
	head -c 2000 bt.err >&2
	fail "events missing, duplicated or out of order"
}
expect_eq "$(cat bt.rc)" 0 "babeltrace2 exit status"
if grep -q WARNING bt.err; then
	head -c 2000 bt.err >&2
	fail "babeltrace2 reports discarded events"
fi
expect_contains check.out "per thread: $n $n"
ok "2 threads x $n events: each exactly once, in order, nothing discarded"
