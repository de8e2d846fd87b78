# lttng.sh - records a program with LTTng-UST, for the differential parts of
# fields.sh and hello.sh. Source it after lib.sh.
#
# A root session daemon ignores LTTNG_HOME and uses the machine-wide
# /var/run/lttng, which parallel tests (and the two build trees) would share.
# So when the test runs as root, the session daemon, the lttng commands and
# the traced program run as the unprivileged user nobody (uid 65534), each
# test with its own LTTNG_HOME: a private session daemon per test.
#
#   lttng_start                    starts the private session daemon
#   lttng_record OUTDIR CMD ARG... creates a session writing to OUTDIR (a
#                                  directory under $LTTNG_TEST_HOME), enables
#                                  all user space events, runs CMD, stops and
#                                  destroys the session
#   lttng_stop                     kills the session daemon (also done at exit)

command -v lttng-sessiond >/dev/null 2>&1 || fail "lttng-sessiond not found (lttng-tools is needed for the differential test)"
command -v lttng >/dev/null 2>&1 || fail "lttng not found (lttng-tools is needed for the differential test)"
echo '#include <lttng/tracepoint.h>' | ${CC:-cc} -E -x c - >/dev/null 2>&1 ||
	fail "the system <lttng/tracepoint.h> is missing (liblttng-ust-dev is needed)"

LTTNG_TEST_HOME=$TEST_TMP/lttng-home
LTTNG_SESSIOND_PID=
mkdir -p "$LTTNG_TEST_HOME"
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || fail "setpriv not found (needed to run LTTng as nobody)"
	# nobody must reach the programs built in $TEST_TMP and own its home.
	chmod 755 "$TEST_TMP"
	chown 65534:65534 "$LTTNG_TEST_HOME"
	lttng_as_user() {
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env HOME="$LTTNG_TEST_HOME" LTTNG_HOME="$LTTNG_TEST_HOME" "$@"
	}
else
	lttng_as_user() {
		env HOME="$LTTNG_TEST_HOME" LTTNG_HOME="$LTTNG_TEST_HOME" "$@"
	}
fi

lttng_stop() {
	[ -n "$LTTNG_SESSIOND_PID" ] || return 0
	kill "$LTTNG_SESSIOND_PID" 2>/dev/null || true
	i=0
	while kill -0 "$LTTNG_SESSIOND_PID" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	LTTNG_SESSIOND_PID=
}

trap 'lttng_stop; rm -rf "$TEST_TMP"' EXIT
trap 'exit 1' INT TERM

lttng_start() {
	lttng_as_user lttng-sessiond --daemonize >"$TEST_TMP/sessiond.log" 2>&1 || {
		cat "$TEST_TMP/sessiond.log" >&2
		fail "lttng-sessiond could not start (as $(id -un)/nobody, LTTNG_HOME=$LTTNG_TEST_HOME), see above"
	}
	[ -s "$LTTNG_TEST_HOME/.lttng/lttng-sessiond.pid" ] ||
		fail "lttng-sessiond started but wrote no $LTTNG_TEST_HOME/.lttng/lttng-sessiond.pid"
	LTTNG_SESSIOND_PID=$(cat "$LTTNG_TEST_HOME/.lttng/lttng-sessiond.pid")
}

lttng_cmd() {
	lttng_as_user lttng "$@" >>"$TEST_TMP/lttng.log" 2>&1 || {
		cat "$TEST_TMP/lttng.log" >&2
		fail "lttng $* failed"
	}
}

lttng_record() {
	_out=$1
	shift
	lttng_cmd create trax-diff --output="$_out"
	lttng_cmd enable-event -u -a
	lttng_cmd start
	lttng_as_user "$@" || fail "$* (traced by LTTng-UST) exited with status $?"
	lttng_cmd stop
	lttng_cmd destroy
}
