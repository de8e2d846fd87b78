# lttng/env.sh - sourced by tests that record with LTTng itself (after
# lib.sh, and after daemon/env.sh when the test uses traxd too): a private
# LTTng session daemon, stopped at the end whatever happens.
#
# Root's lttng-sessiond always uses /var/run/lttng, whatever LTTNG_HOME
# says, and could meet a system daemon there; as root, the LTTng side
# (session daemon, lttng commands, traced programs) therefore runs as
# "nobody", with a home of its own: a per-user daemon nothing else talks to.
#
#   lttng_start           starts the private session daemon (user space only)
#   as_lttng CMD...       runs CMD as the LTTng side (lttng, the traced programs)
#   lttng_stop            stops the daemon (also done at exit)
#   LTTNG_TRACES          a directory the LTTng side may write traces into

LTTNG_TEST_HOME=$TEST_TMP/lttng-home
LTTNG_TRACES=$LTTNG_TEST_HOME/traces
LTTNG_AS=""
LTTNG_SESSIOND_PID=""
for _t in lttng lttng-sessiond; do
	command -v "$_t" >/dev/null 2>&1 || fail "$_t is needed by this test (make check installs lttng-tools)"
done
mkdir -p "$LTTNG_TRACES"
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || fail "setpriv (util-linux) is needed to run LTTng as nobody"
	LTTNG_AS="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups --"
	chown -R nobody "$LTTNG_TEST_HOME"
	# the traced programs are built in the test's directory: let nobody in
	chmod 755 "$TEST_TMP"
fi

as_lttng() {
	# shellcheck disable=SC2086 # LTTNG_AS is a command prefix
	timeout 120 env LTTNG_HOME="$LTTNG_TEST_HOME" HOME="$LTTNG_TEST_HOME" $LTTNG_AS "$@"
}

lttng_start() {
	as_lttng lttng-sessiond --daemonize --no-kernel >"$TEST_TMP/lttng-sessiond.out" 2>&1 || {
		cat "$TEST_TMP/lttng-sessiond.out" >&2
		fail "cannot start a private lttng-sessiond"
	}
	LTTNG_SESSIOND_PID=$(cat "$LTTNG_TEST_HOME/.lttng/lttng-sessiond.pid")
}

lttng_stop() {
	[ -n "$LTTNG_SESSIOND_PID" ] || return 0
	kill -TERM "$LTTNG_SESSIOND_PID" 2>/dev/null || true
	for _i in $(seq 50); do
		kill -0 "$LTTNG_SESSIOND_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$LTTNG_SESSIOND_PID" 2>/dev/null || true
	LTTNG_SESSIOND_PID=""
}

# LTTng-UST leaves "wait" files in /dev/shm for the users it ran as; remove
# the ones this test created.
LTTNG_WAIT_SHM=""
for _f in /dev/shm/lttng-ust-wait-8 "/dev/shm/lttng-ust-wait-8-$(id -u nobody)" \
	"/dev/shm/lttng-ust-wait-8-$(id -u)"; do
	[ -e "$_f" ] || LTTNG_WAIT_SHM="$LTTNG_WAIT_SHM $_f"
done

lttng_cleanup() {
	lttng_stop
	# shellcheck disable=SC2086 # a list of paths without blanks
	[ -z "$LTTNG_WAIT_SHM" ] || rm -f $LTTNG_WAIT_SHM
	if command -v daemon_stop >/dev/null 2>&1; then daemon_stop; fi
	rm -rf "$TEST_TMP"
}
trap 'lttng_cleanup' EXIT INT TERM
