#!/bin/sh
# daemon_root.sh - root's daemon: its run directory is open to all (0755)
# but its control socket only to its group (0660); a member of that group
# (traxd --group, here the system group "users") lists and drives root's
# sessions, another user is refused by the socket's mode and, when the mode
# is opened up by mistake, by the daemon itself (SO_PEERCRED and
# SO_PEERGROUPS); the applications of every user register with root's
# daemon and are recorded in per-uid buffers, one directory per uid.
# Needs root.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "this test needs root (root's daemon, other users)"
command -v setpriv >/dev/null || fail "setpriv is missing (util-linux)"
GID=$(getent group users | cut -d: -f3)
[ -n "$GID" ] || fail "no group 'users' on this system"

DATA=$TRAX_SRC/tests/integration/data/daemon
UA=12345 # in the group
UB=12346 # not in it
chmod 755 "$TEST_TMP"
OUT=$TEST_TMP/out
$CC $TRAX_CFLAGS -I"$DATA" -o "$TEST_TMP/ticker" "$DATA/ticker.c" "$DATA/ticker_tp.c" \
	$TRAX_LDFLAGS -ltrax-ust -ldl
chmod 755 "$TEST_TMP/ticker"

# member CMD..., other CMD...: as user A (group users too) or B
member() { setpriv --reuid=$UA --regid=$UA --groups=$GID "$@"; }
other() { setpriv --reuid=$UB --regid=$UB --clear-groups "$@"; }

# a group that does not exist: refused, one line, exit 2, no daemon
st=0
"$TRAX_BUILD/traxd" --daemonize --group=no-such-group-here 2>"$TEST_TMP/nogroup.err" || st=$?
expect_eq "$st" 2 "exit status of traxd --group with an unknown group"
expect_eq "$(cat "$TEST_TMP/nogroup.err")" "traxd: --group: no group named 'no-such-group-here'" "its error"
[ -z "$(daemon_pid)" ] || fail "traxd started with an unknown group"

"$TRAX_BUILD/traxd" --daemonize --group=users || fail "traxd --daemonize --group=users"
expect_eq "$(stat -c %a "$TRAX_RUNDIR")" 755 "mode of root's run directory"
expect_eq "$(stat -c '%a %G' "$TRAX_RUNDIR/client.sock")" "660 users" "client.sock"
expect_eq "$(stat -c %a "$TRAX_RUNDIR/app.sock")" 666 "app.sock"

trax create sr --output="$OUT" >/dev/null || fail "root: trax create"
trax enable-event -u 'ticker:*' >/dev/null || fail "root: trax enable-event"
trax start sr >/dev/null || fail "root: trax start"

# The member drives root's session.
member trax list >m-list.out 2>&1 || fail "group member: trax list: $(cat m-list.out)"
expect_contains m-list.out "sr"
member trax stop sr >/dev/null 2>&1 || fail "group member: trax stop"
member trax start sr >/dev/null 2>&1 || fail "group member: trax start"

# The other user: refused by the socket's mode...
if other trax list >o-list.out 2>&1; then
	fail "a user outside the group listed root's sessions: $(cat o-list.out)"
fi
grep -q '\bsr\b' o-list.out && fail "a user outside the group saw root's session"
# ... and by the daemon when the mode is opened up
chmod 666 "$TRAX_RUNDIR/client.sock"
if other trax stop sr >o-stop.out 2>&1; then
	fail "a user outside the group stopped root's session"
fi
expect_contains o-stop.out "ermission denied"
trax list sr >r-list.out || fail "root: trax list sr"
expect_contains r-list.out "active"

# Applications of both users, and root's, are recorded by root's daemon,
# one buffer set per uid.
member "$TEST_TMP/ticker" 30 0 >/dev/null || fail "user A's application"
other "$TEST_TMP/ticker" 40 0 >/dev/null || fail "user B's application"
"$TEST_TMP/ticker" 50 0 >/dev/null || fail "root's application"
trax stop sr >/dev/null || fail "root: trax stop"
for u in $UA:30 $UB:40 0:50; do
	dir=$OUT/ust/uid/${u%%:*}/64-bit
	[ -f "$dir/metadata" ] || fail "no trace for uid ${u%%:*} ($dir)"
	n=$(bt2 "$dir" | grep -c 'ticker:tick')
	expect_eq "$n" "${u#*:}" "events of uid ${u%%:*}"
done
ok "root's daemon: its group drives it, others are refused, every user's applications are traced"
