# lib.sh - shared helpers for the integration tests (POSIX sh). Source it:
#   . "$TRAX_SRC/tests/integration/lib.sh"
# The test runner sets TRAX_BUILD (build tree), TRAX_SRC (source tree) and
# TRAX_SANITIZE (sanitizers of this build, may be empty).

set -eu

: "${TRAX_BUILD:?TRAX_BUILD must point at the build tree}"
: "${TRAX_SRC:?TRAX_SRC must point at the source tree}"
TRAX_SANITIZE=${TRAX_SANITIZE:-}

CC=${CC:-cc}
CXX=${CXX:-c++}
# Flags for programs built against trax, matching the library's sanitizers.
TRAX_CFLAGS="-g -O1 -Wall -Wextra -I$TRAX_SRC/include"
TRAX_LDFLAGS="-L$TRAX_BUILD -Wl,-rpath,$TRAX_BUILD"
if [ -n "$TRAX_SANITIZE" ]; then
	TRAX_CFLAGS="$TRAX_CFLAGS -fsanitize=$TRAX_SANITIZE -fno-omit-frame-pointer"
	TRAX_LDFLAGS="$TRAX_LDFLAGS -fsanitize=$TRAX_SANITIZE"
fi
export LD_LIBRARY_PATH="$TRAX_BUILD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Leak reports from the test programs themselves are not what these tests check.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export TZ=UTC LC_ALL=C
# The state dump (lttng_ust_statedump:*) would add events to every trace;
# statedump.sh and daemon_statedump.sh turn it back on.
export TRAX_WITHOUT_BADDR_STATEDUMP=1 TRAX_WITHOUT_PROCNAME_STATEDUMP=1

# A fresh scratch directory, removed at exit.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/trax-test.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

ok() {
	echo "ok: $*"
}

# Runs babeltrace2 on a trace; fails the test if it cannot read it.
bt2() {
	babeltrace2 "$@" 2>"$TEST_TMP/bt2.err" || {
		cat "$TEST_TMP/bt2.err" >&2
		fail "babeltrace2 could not read $*"
	}
}

# expect_contains FILE STRING: the file holds the exact string.
expect_contains() {
	grep -qF -- "$2" "$1" || {
		echo "--- $1:" >&2
		head -c 4000 "$1" >&2
		fail "expected to find: $2"
	}
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}
