#!/bin/sh
# daemon_kill.sh - `kill -9` of traxd while an application emits events at
# full speed: the application is neither blocked nor slowed (it ends with
# status 0, no later than when it is traced the whole way); a running
# application registers again with the next daemon, which starts cleanly
# over the dead one's run directory and traces it.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/daemon
N=${DAEMON_KILL_EVENTS:-10000000}
[ -z "$TRAX_SANITIZE" ] || N=2000000
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$DATA" -o ticker "$DATA/ticker.c" "$DATA/ticker_tp.c" $TRAX_LDFLAGS \
	-ltrax-ust -ldl

now_ms() { echo $(($(date +%s%N) / 1000000)); }

trax create full --output="$TEST_TMP/full" >/dev/null || fail "trax create"
trax enable-event -u 'ticker:*' >/dev/null || fail "trax enable-event"
trax start >/dev/null || fail "trax start"

# reference: traced from start to end
t0=$(now_ms)
./ticker "$N" 0 >/dev/null || fail "the traced application exited with status $?"
T_TRACED=$(($(now_ms) - t0))

# the same with the daemon killed after a fifth of that time
t0=$(now_ms)
./ticker "$N" 0 >killed.out &
APP=$!
sleep "$(awk -v t="$T_TRACED" 'BEGIN { printf "%.3f", t / 5000 }')"
OLD=$(daemon_pid)
kill -KILL "$OLD"
wait $APP || fail "the application exited with status $? after the daemon was killed"
T_KILLED=$(($(now_ms) - t0))
expect_eq "$(cat killed.out)" "$N" "events the application emitted"
[ "$T_KILLED" -le $((T_TRACED + T_TRACED / 2 + 500)) ] ||
	fail "slower after the daemon died: ${T_KILLED} ms against ${T_TRACED} ms traced throughout"
ok "kill -9 of traxd: the application ended normally in ${T_KILLED} ms (traced throughout: ${T_TRACED} ms)"

# an application that outlives its daemon registers with the next one
./ticker 0 1000 "$TEST_TMP/stop" >long.out &
APP=$!
sleep 1
trax create again --output="$TEST_TMP/again" >/dev/null || fail "trax create (new daemon)"
kill -KILL "$(daemon_pid)"
sleep 0.5
kill -0 $APP || fail "the application died with its daemon"
trax create again2 --output="$TEST_TMP/again2" >/dev/null || fail "trax create after kill -9 (stale run directory?)"
NEW=$(daemon_pid)
[ -n "$NEW" ] && [ "$NEW" != "$OLD" ] || fail "no new daemon"
trax enable-event -u 'ticker:*' >/dev/null || fail "trax enable-event"
trax start >/dev/null || fail "trax start"
sleep 2.5
trax stop >/dev/null || fail "trax stop"
touch "$TEST_TMP/stop"
wait $APP || fail "the long-running application exited with status $?"
n=$(bt2 "$TEST_TMP/again2" | grep -c 'ticker:tick')
[ "$n" -ge 500 ] || fail "only $n events from the application after it registered again"
ok "a running application registered again with a new daemon ($n events)"
