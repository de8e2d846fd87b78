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

# build_app DIR OUT [CFLAGS...]: the program DIR/app.c with its provider
# DIR/tp.c, linked with libtrax-ust, as OUT in the current directory.
build_app() {
	_d=$1 _out=$2
	shift 2
	$CC $TRAX_CFLAGS "$@" -I"$_d" -c "$_d/tp.c" -o tp.o
	$CC $TRAX_CFLAGS "$@" -I"$_d" -c "$_d/app.c" -o app.o
	$CC -o "$_out" app.o tp.o $TRAX_LDFLAGS -ltrax-ust -ldl -lpthread
}

# build_hello DIR: examples/hello copied to DIR and built there as the man
# page builds it (cc -c -I. tp.c; cc -c app.c; cc -o app tp.o app.o
# -llttng-ust -ldl), with trax's include directory and library instead
# (and the sanitizer flags of a sanitizer build): DIR/app. The current
# directory is then DIR.
build_hello() {
	mkdir "$1"
	cp "$TRAX_SRC/examples/hello/tp.h" "$TRAX_SRC/examples/hello/tp.c" \
		"$TRAX_SRC/examples/hello/app.c" "$TRAX_SRC/examples/hello/app.h" "$1/"
	cd "$1"
	$CC $TRAX_CFLAGS -c -I. tp.c
	$CC $TRAX_CFLAGS -c app.c
	$CC -o app tp.o app.o $TRAX_LDFLAGS -ltrax-ust -ldl
}

# payload_lines [FILE]: babeltrace2's text lines (FILE, or stdin) without
# what precedes the event name (time stamp, delta, host) and the cpu_id
# context: what two recordings of the same events print alike.
payload_lines() {
	sed -e 's/^\[[^]]*\] ([^)]*) [^ ]* //' -e 's/{ cpu_id = [0-9]* }, //' "$@"
}

# event_loglevels TSDL PROVIDER: "NAME LEVEL" per event of PROVIDER ("none"
# without a log level), in the metadata's order.
event_loglevels() {
	awk -v prov="$2:" '/^event \{/ { name = ""; level = "none" }
	     /^\tname = / { name = $3; gsub(/[";]/, "", name) }
	     /^\tloglevel = / { level = $3; sub(/;/, "", level) }
	     /^};/ && index(name, prov) == 1 { print name, level }' "$1"
}

# event_decls TSDL PROVIDER: the event blocks of PROVIDER without their ids
# (and without the comma LTTng-UST ends enumeration lists with).
event_decls() {
	awk -v prov="$2:" '/^event \{/ { keep = 0; block = "" }
	     /^\tname = "/ && index(substr($3, 2), prov) == 1 { keep = 1 }
	     /^\t(id|stream_id) = / { next }
	     { sub(/,$/, ""); block = block $0 "\n" }
	     /^};/ && keep { printf "%s", block; keep = 0 }' "$1"
}

# one_trace_dir DIR [PROG]: the one trace directory DIR/ust/pid/PROG-PID-DATE
# (PROG: app); fails the test when there are none or several.
one_trace_dir() {
	_n=0
	_t=
	for _d in "$1"/ust/pid/"${2:-app}"-*; do
		[ -d "$_d" ] || continue
		_n=$((_n + 1))
		_t=$_d
	done
	[ "$_n" = 1 ] || fail "expected one trace directory $1/ust/pid/${2:-app}-*, found $_n"
	echo "$_t"
}

# check_fail MESSAGE: a failure reported while the test goes on to its other
# checks; errors counts them (the test ends failing when it is not 0).
errors=0
# A kernel test's needs: root, and tracefs at $T (/sys/kernel/tracing,
# mounted when it is not).
need_kernel_tracefs() {
	[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
	T=/sys/kernel/tracing
	if ! [ -d "$T/instances" ]; then
		mount -t tracefs nodev "$T" 2>/dev/null || fail "tracefs is not mounted on $T and cannot be"
	fi
}

check_fail() {
	echo "FAIL: $*" >&2
	errors=$((errors + 1))
}

# expect_lines GOT EXPECTED WHAT: GOT holds EXPECTED's lines, line by line;
# each that differs is a check_fail naming it ("WHAT N"). n: lines compared.
expect_lines() {
	n=0
	while IFS= read -r _want; do
		n=$((n + 1))
		_got=$(sed -n "${n}p" "$1")
		[ "$_got" = "$_want" ] || check_fail "$3 $n:
   got:      $_got
   expected: $_want"
	done <"$2"
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}
