#!/bin/sh
# daemon_running.sh - an application started before any daemon or session
# exists is traced once a session starts (it registers with the daemon
# `trax create` starts), and `trax disable-event` in the middle of its run
# stops its events within a short bounded time while it keeps running;
# `enable-event` turns them back on.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/daemon
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$DATA" -o ticker "$DATA/ticker.c" "$DATA/ticker_tp.c" $TRAX_LDFLAGS \
	-ltrax-ust -ldl

now_ns() { date +%s%N; }

# one event per millisecond until the stop file appears
./ticker 0 1000 "$TEST_TMP/stop" >ticker.out &
APP=$!
sleep 0.5
kill -0 $APP || fail "the application did not keep running without a daemon"

trax create running >/dev/null || fail "trax create"
trax enable-event -u 'ticker:*' >/dev/null || fail "trax enable-event"
trax start >/dev/null || fail "trax start"
T_START=$(now_ns)
# the application finds the new daemon within its retry period (1 s)
sleep 2.5
T_DISABLE=$(now_ns)
trax disable-event -u 'ticker:*' >/dev/null || fail "trax disable-event"
T_DISABLED=$(now_ns)
sleep 1
T_ENABLE=$(now_ns)
trax enable-event -u 'ticker:*' >/dev/null || fail "trax enable-event again"
sleep 1
touch "$TEST_TMP/stop"
wait $APP || fail "the application exited with status $?"
trax stop >/dev/null || fail "trax stop"
EMITTED=$(cat ticker.out)

trax view --clock-seconds >view.txt || fail "trax view"
# "[SECONDS.NANOS] ... seq = N," -> "NS N"
sed -n 's/^\[\([0-9]*\)\.\([0-9]*\)\].*seq = \([0-9]*\),.*/\1\2 \3/p' view.txt >events
n=$(wc -l <events)
[ "$n" -ge 1000 ] || fail "only $n events recorded (emitted $EMITTED)"
# before the pause: contiguous, after the start; none while disabled
awk -v t0="$T_START" -v d0="$T_DISABLE" -v d1="$T_DISABLED" -v e0="$T_ENABLE" '
	{ ns = $1; seq = $2 }
	ns < t0 { print "event before trax start: " $0; bad = 1 }
	ns > d1 + 100000000 && ns < e0 { print "event while disabled: " $0; bad = 1 }
	ns <= d0 { if (before && seq != last + 1) { print "gap before disable at " $0; bad = 1 }
		   before++; last = seq }
	ns >= e0 { after++ }
	END { if (before < 500) { print "only " before " events before disable"; bad = 1 }
	      if (after < 300) { print "only " after " events after enable"; bad = 1 }
	      exit bad }' events >check.out || {
	cat check.out >&2
	fail "events do not follow the enable/disable timeline"
}
[ "$EMITTED" -gt "$(tail -n 1 events | cut -d' ' -f2)" ] || fail "the application's count"
ok "traced after start although started first; disable-event stops its events, enable-event resumes them ($n of $EMITTED events)"
