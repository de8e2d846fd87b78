#!/bin/sh
# daemon_users.sh - two users, each with the daemon `trax create` starts for
# them: the second cannot list, stop or read the first one's sessions and
# traces (run directory and traces only their owner can enter), and the
# first one's daemon refuses them even when its directory is opened up (it
# checks who connects). Needs root, to run as two other users (setpriv).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "this test needs root (it runs commands as two other users)"
command -v setpriv >/dev/null || fail "setpriv is missing (util-linux)"

DATA=$TRAX_SRC/tests/integration/data/daemon
UA=12345
UB=12346
BASE=$TEST_TMP/users
mkdir -p "$BASE/a" "$BASE/b"
chmod 755 "$TEST_TMP" "$BASE"
chown $UA:$UA "$BASE/a"
chown $UB:$UB "$BASE/b"
chmod 700 "$BASE/a" "$BASE/b"
$CC $TRAX_CFLAGS -I"$DATA" -o "$BASE/ticker" "$DATA/ticker.c" "$DATA/ticker_tp.c" \
	$TRAX_LDFLAGS -ltrax-ust -ldl
chmod 755 "$BASE/ticker"

# as_user UID HOME CMD...: CMD as that user, with that home, without the
# test's own run directory
as_user() {
	_u=$1
	_h=$2
	shift 2
	env -u TRAX_RUNDIR HOME="$_h" TRAX_HOME="$_h" \
		setpriv --reuid="$_u" --regid="$_u" --clear-groups "$@"
}
a() { as_user $UA "$BASE/a" "$@"; }
b() { as_user $UB "$BASE/b" "$@"; }
a_pid() { head -n 1 "$BASE/a/.trax/run/traxd.lock" 2>/dev/null || true; }
b_pid() { head -n 1 "$BASE/b/.trax/run/traxd.lock" 2>/dev/null || true; }
stop_users() {
	for p in $(a_pid) $(b_pid); do kill -TERM "$p" 2>/dev/null || true; done
	sleep 0.3
}
trap 'stop_users; daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM

a trax create sa --output="$BASE/a/out" >/dev/null || fail "user A: trax create"
a trax enable-event -u 'ticker:*' >/dev/null || fail "user A: trax enable-event"
a trax start >/dev/null || fail "user A: trax start"
a "$BASE/ticker" 100 0 >/dev/null || fail "user A: the application"
a trax stop >/dev/null || fail "user A: trax stop"
a trax start >/dev/null || fail "user A: trax start again"
expect_eq "$(stat -c %a "$BASE/a/.trax/run")" 700 "mode of A's run directory"

# B, pointed at A's daemon: refused by the file system
if b env TRAX_RUNDIR="$BASE/a/.trax/run" trax list >b-list.out 2>b-list.err; then
	fail "user B listed user A's sessions: $(cat b-list.out)"
fi
grep -q sa b-list.out && fail "user B saw A's session"
if b env TRAX_RUNDIR="$BASE/a/.trax/run" trax stop sa >/dev/null 2>b-stop0.err; then
	fail "user B stopped user A's session"
fi
expect_contains b-stop0.err "Error:"
grep -q "nknown option\|sage" b-stop0.err && fail "trax stop sa: not a permission error: $(cat b-stop0.err)"
if b trax view "$BASE/a/out" >b-view.out 2>&1; then
	fail "user B read user A's trace"
fi
if b cat "$(find "$BASE/a/out" -name 'channel0_*' | head -n 1)" >/dev/null 2>&1; then
	fail "user B read a stream file of user A's trace"
fi
# B's own daemon knows nothing of A's sessions
b trax create sb --output="$BASE/b/out" >/dev/null || fail "user B: trax create"
b trax list >b-own.out || fail "user B: trax list"
grep -q '\bsb\b' b-own.out || fail "user B does not see its own session"
grep -q '\bsa\b' b-own.out && fail "user B's daemon shows A's session"
[ "$(a_pid)" != "$(b_pid)" ] || fail "the two users share a daemon"

# A's directory opened up by mistake: A's daemon still refuses B
chmod 755 "$BASE/a" "$BASE/a/.trax" "$BASE/a/.trax/run"
chmod 666 "$BASE/a/.trax/run/client.sock" "$BASE/a/.trax/run/app.sock"
if b env TRAX_RUNDIR="$BASE/a/.trax/run" trax stop sa >b-stop.out 2>b-stop.err; then
	fail "user B stopped A's session through an opened directory"
fi
expect_contains b-stop.err "ermission denied"
if b env TRAX_RUNDIR="$BASE/a/.trax/run" trax list >b-list2.out 2>&1; then
	fail "user B listed A's sessions through an opened directory"
fi
# ... and does not trace B's applications
b env TRAX_RUNDIR="$BASE/a/.trax/run" "$BASE/ticker" 100 0 >/dev/null || fail "user B: application"
a trax list sa >a-list.out || fail "user A: trax list"
expect_contains a-list.out "sa"
a trax stop >/dev/null || fail "user A: trax stop at the end (B changed its state?)"
n=$(bt2 "$BASE/a/out" | grep -c 'ticker:tick')
expect_eq "$n" 100 "events in A's trace (A's application only)"
ok "user B can neither list, stop nor read user A's sessions and traces"
