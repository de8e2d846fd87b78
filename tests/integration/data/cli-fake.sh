# tests/integration/data/cli-fake.sh - sourced by the tests of the `trax`
# command (cli.sh, cli_kernel.sh) after lib.sh: a private run directory and
# home with no daemon autostart, the fake daemon (data/fake-traxd-client.c,
# which logs every request and answers from a script) built and ready to
# start, and the helpers that run `trax` and check what it printed and
# sent. The current directory is then $TEST_TMP/work.

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"

# Never a real daemon: a private run directory, home, and no autostart.
export TRAX_RUNDIR="$TEST_TMP/run"
export TRAX_HOME="$TEST_TMP/home"
export TRAX_NO_AUTOSTART=1
unset TRAX_DAEMON_PATH
mkdir -p "$TRAX_HOME" "$TEST_TMP/work"
cd "$TEST_TMP/work"

OUT="$TEST_TMP/out"
ERR="$TEST_TMP/err"
LOG="$TEST_TMP/requests"
SCRIPT="$TEST_TMP/script"
RC="$TRAX_HOME/.traxrc"
export FAKE_TRAXD_LOG="$LOG" FAKE_TRAXD_SCRIPT="$SCRIPT"
: >"$LOG"
: >"$SCRIPT"

FAKE_PID=
FAKE_PIDFILE="$TEST_TMP/fake.pid"
cleanup() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	[ -s "$FAKE_PIDFILE" ] && kill "$(cat "$FAKE_PIDFILE")" 2>/dev/null
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT INT TERM

# --- the fake daemon ---
FAKE="$TEST_TMP/fake-traxd"
$CC $TRAX_CFLAGS -D_GNU_SOURCE -I"$TRAX_SRC/src" \
	"$TRAX_SRC/tests/integration/data/fake-traxd-client.c" "$TRAX_SRC/src/common/proto.c" \
	-o "$FAKE" $TRAX_LDFLAGS || fail "cannot build the fake daemon"

# t STATUS ARGS...: runs trax ARGS with an empty request log; checks the exit status.
t() {
	want=$1
	shift
	LAST="trax $*"
	: >"$LOG"
	rc=0
	"$TRAX" "$@" >"$OUT" 2>"$ERR" || rc=$?
	[ "$rc" = "$want" ] || {
		cat "$OUT" "$ERR" >&2
		fail "$LAST: exit status $rc, expected $want"
	}
}

# expect_file FILE WHAT LINE...: FILE holds exactly these lines.
expect_file() {
	f=$1
	what=$2
	shift 2
	if [ $# = 0 ]; then
		: >"$TEST_TMP/expected"
	else
		printf '%s\n' "$@" >"$TEST_TMP/expected"
	fi
	diff -u "$TEST_TMP/expected" "$f" >&2 || fail "$LAST: $what"
}
expect_log() { expect_file "$LOG" "requests sent" "$@"; }
expect_out() { expect_file "$OUT" "standard output" "$@"; }
expect_err() { expect_file "$ERR" "standard error" "$@"; }

# expect_one_error: stderr is one "Error: " line, stdout is empty.
expect_one_error() {
	[ "$(wc -l <"$ERR")" = 1 ] && grep -q '^Error: ' "$ERR" || {
		cat "$ERR" >&2
		fail "$LAST: expected one 'Error:' line on stderr"
	}
	[ -s "$OUT" ] && {
		cat "$OUT" >&2
		fail "$LAST: printed on stdout"
	}
	return 0
}

# reply TYPE KEY=VALUE...: the fake daemon's answer to TYPE (replaces the script).
reply() {
	type=$1
	shift
	line=$type
	for kv in "$@"; do
		line="$line	$kv"
	done
	printf '%s\n' "$line" >"$SCRIPT"
}

start_fake() {
	"$FAKE" &
	FAKE_PID=$!
	i=0
	while [ ! -S "$TRAX_RUNDIR/client.sock" ]; do
		i=$((i + 1))
		[ $i -lt 250 ] || fail "the fake daemon does not listen"
		sleep 0.02
	done
}

stop_fake() {
	kill "$FAKE_PID" 2>/dev/null || true
	wait "$FAKE_PID" 2>/dev/null || true
	FAKE_PID=
	rm -f "$TRAX_RUNDIR/client.sock"
}
