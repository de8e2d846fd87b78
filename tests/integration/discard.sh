#!/bin/sh
# Discard mode with a consumer that cannot keep up: tiny buffers (2 x 4 kB per
# CPU) and a burst of 1,000,000 events from one thread. The program is never
# blocked (it ends, with its own exit status), events are lost, babeltrace2
# warns about them, and the events read plus the events it says were
# discarded add up to the events emitted (the packets' discarded counters are
# exact). The events read are in emission order.
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/threads"
cd "$TEST_TMP"
build_app "$d" app

n=1000000
status=0
TRAX_EVENTS='thr:*' TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=2 TRAX_OUTPUT="$TEST_TMP/t" \
	timeout 60 ./app 1 $n >app.out 2>app.err || status=$?
[ "$status" = 124 ] && fail "the program did not finish in 60 s: blocked by a full buffer?"
expect_eq "$status" 7 "exit status of the traced program"
expect_eq "$(cat app.out)" "emitted $n" "program output"

babeltrace2 --names=none --no-delta "$TEST_TMP/t" >t.txt 2>bt.err || {
	head -c 2000 bt.err >&2
	fail "babeltrace2 cannot read the trace"
}
read_n=$(awk -v n=$n '
	$3 != "thr:ev:" { next }
	{
		s = $9 + 0
		if ($8 != "0," || s >= n || (c && s <= last)) { print "bad or out of order: " $0; exit 1 }
		last = s; c++
	}
	END { print c + 0 }' t.txt) || fail "$read_n"
expect_contains bt.err "WARNING: Tracer discarded "
# "WARNING: Tracer discarded 1038 events between [...]" ("1 event" when alone)
discarded=$(grep -o 'Tracer discarded [0-9]* event' bt.err | awk '{ s += $3 } END { print s + 0 }')
[ "$read_n" -gt 0 ] || fail "no event at all in the trace"
[ "$read_n" -lt $n ] || fail "nothing was discarded ($read_n events read)"
expect_eq "$((read_n + discarded))" $n "events read ($read_n) + discarded ($discarded)"
ok "discard mode: $read_n read + $discarded discarded = $n, program not blocked"
