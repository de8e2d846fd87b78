#!/bin/sh
# Blocking mode: with TRAX_ALLOW_BLOCKING and a blocking timeout, a full
# buffer makes the application wait for the consumer instead of dropping:
# tiny buffers, a burst of events, and every event is in the trace. Without
# TRAX_ALLOW_BLOCKING the same run drops events (the application opts in).
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/plugins"
cd "$TEST_TMP"
build_app "$d" app
n=200000

TRAX_ALLOW_BLOCKING=1 TRAX_BLOCKING_TIMEOUT=-1 TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=2 \
	TRAX_OUTPUT="$TEST_TMP/b" ./app $n >/dev/null
babeltrace2 "$TEST_TMP/b" >b.txt 2>b.err || fail "babeltrace2 cannot read the blocking trace"
grep -q WARNING b.err && fail "blocking mode discarded events: $(cat b.err)"
[ "$(wc -l <b.txt)" = $n ] || fail "blocking mode: $(wc -l <b.txt) events, expected $n"
awk -v n=$n '{ match($0, /n = [0-9]+/); v = substr($0, RSTART + 4, RLENGTH - 4) + 0
	if (seen[v]++) { print "duplicate " v; exit 1 } }
	END { for (i = 0; i < n; i++) if (!(i in seen)) { print "missing " i; exit 1 } }' b.txt ||
	fail "blocking mode: events missing or duplicated"

# The environment variable alone is not enough: the channel needs a timeout.
TRAX_ALLOW_BLOCKING=1 TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=2 \
	TRAX_OUTPUT="$TEST_TMP/d" ./app $n >/dev/null
babeltrace2 "$TEST_TMP/d" >d.txt 2>d.err || fail "babeltrace2 cannot read the discard trace"
[ "$(wc -l <d.txt)" -lt $n ] || fail "without a blocking timeout nothing was dropped: blocking by default?"
expect_contains d.err "discarded"
ok "blocking mode loses nothing; discard mode is the default"
