# daemon/env.sh - sourced by the tests of traxd (after lib.sh): a private
# run directory and home for this test, so that nothing talks to a daemon
# outside it, and a daemon stopped at the end whatever happens.
#
#   daemon_pid            the pid of the test's traxd (from its lock file)
#   daemon_stop           SIGTERM, then waits for it to go
#   trax ...              the trax command of this build tree

export TRAX_RUNDIR="$TEST_TMP/run"
export TRAX_HOME="$TEST_TMP/home"
export TRAX_DAEMON_PATH="$TRAX_BUILD/traxd"
mkdir -p "$TRAX_HOME"
PATH="$TRAX_BUILD:$PATH"
export PATH

daemon_pid() {
	[ -f "$TRAX_RUNDIR/traxd.lock" ] && head -n 1 "$TRAX_RUNDIR/traxd.lock" || true
}

daemon_stop() {
	_p=$(daemon_pid)
	[ -n "$_p" ] || return 0
	kill -TERM "$_p" 2>/dev/null || return 0
	for _i in $(seq 100); do
		kill -0 "$_p" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$_p" 2>/dev/null || true
}

trap 'daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM
