#!/bin/sh
# daemon_snapshot.sh - a session created with --snapshot records in
# overwrite mode (a flight recorder: nothing written until asked);
# `trax snapshot record`, twice, gives two readable traces, each holding the
# newest events at its time: the older ones were overwritten, the newest are
# all there, and the first snapshot stays as it was.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/daemon
N=200000
HALF=$((N / 2))
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$DATA" -o ticker "$DATA/ticker.c" "$DATA/ticker_tp.c" $TRAX_LDFLAGS \
	-ltrax-ust -ldl

trax create snap --snapshot --output="$TEST_TMP/snapshots" >create.out || fail "trax create --snapshot"
trax enable-channel -u --subbuf-size=16k --num-subbuf=4 small >/dev/null || fail "trax enable-channel"
trax enable-event -u -c small 'ticker:*' >/dev/null || fail "trax enable-event"
trax list snap >list.out || fail "trax list"
trax start >/dev/null || fail "trax start"

TICKER_PAUSE=$TEST_TMP/go ./ticker $N 0 >ticker.out &
APP=$!
for _ in $(seq 300); do
	[ -f "$TEST_TMP/go.reached" ] && break
	sleep 0.1
done
[ -f "$TEST_TMP/go.reached" ] || fail "the application did not reach its pause"

# snapshot_check OUT LAST: the snapshot named in OUT is readable and holds
# the newest events up to seq LAST (the last 200 of them at least), and not
# every event since the start (older ones were overwritten).
snapshot_check() {
	path=$(sed -n 's/^Snapshot written at: //p' "$1")
	[ -n "$path" ] && [ -d "$path" ] || fail "no snapshot directory in: $(cat "$1")"
	bt2 "$path" >"$1.txt"
	[ -s "$TEST_TMP/bt2.err" ] && {
		cat "$TEST_TMP/bt2.err" >&2
		fail "babeltrace2 warned on $path"
	}
	sed -n 's/.*{ seq = \([0-9]*\), prog = 0 }$/\1/p' "$1.txt" | sort >"$1.seqs"
	n=$(wc -l <"$1.seqs")
	expect_eq "$(sort -n "$1.seqs" | tail -n 1)" "$2" "newest event of $path"
	[ "$n" -lt "$(($2 + 1))" ] || fail "$path holds all $n events: nothing was overwritten"
	seq $(($2 - 199)) "$2" | sort >"$1.want"
	comm -13 "$1.seqs" "$1.want" >"$1.missing"
	[ ! -s "$1.missing" ] || fail "$path lacks newest events: $(head -n 5 "$1.missing" | tr '\n' ' ')"
	trax view "$path" >"$1.view" || fail "trax view $path"
	cmp "$1.txt" "$1.view" || fail "trax view and babeltrace2 differ on $path"
}

trax snapshot record >snap1.out || fail "first trax snapshot record"
expect_contains snap1.out "Snapshot recorded successfully for session snap"
snapshot_check snap1.out $((HALF - 1))
touch "$TEST_TMP/go"
wait $APP || fail "the application exited with status $?"
trax snapshot record >snap2.out || fail "second trax snapshot record"
snapshot_check snap2.out $((N - 1))
[ "$(sed -n 's/^Snapshot written at: //p' snap1.out)" != "$(sed -n 's/^Snapshot written at: //p' snap2.out)" ] ||
	fail "both snapshots went to the same directory"
# the first snapshot is as it was
bt2 "$(sed -n 's/^Snapshot written at: //p' snap1.out)" >again.txt
cmp snap1.out.txt again.txt || fail "the first snapshot changed"
ok "two snapshots of an overwrite-mode session, each with the newest events"
trax stop >/dev/null || fail "trax stop"

# trax view without a path reads the session's newest snapshot, not all of them
trax view >noarg.view || fail "trax view without a path"
cmp snap2.out.view noarg.view || fail "trax view without a path: not the second snapshot"
# ... and says so when the session has none yet
trax create snap0 --snapshot --output="$TEST_TMP/snapshots0" >/dev/null || fail "trax create snap0"
rc=0
trax view >none.view 2>none.err || rc=$?
expect_eq "$rc" 2 "trax view without a path, no snapshot yet: exit status (as without a session)"
expect_contains none.err "has no snapshot in $TEST_TMP/snapshots0 yet"
[ ! -s none.view ] || fail "trax view printed something without a snapshot"
ok "trax view without a path: the newest snapshot, or an error when there is none"
