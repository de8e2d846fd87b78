#!/bin/sh
# Integration test of tools/trax-gen-tp: generates a provider from
# tests/integration/data/sample.tp, checks the .h, .c and .o it makes, its
# -o selection and its errors, then links a program with the generated .o
# and libtrax-ust, runs it and reads the trace back with babeltrace2.
#
# Environment: TRAX_SRC (source tree), TRAX_BUILD (build tree),
# TRAX_SANITIZE (sanitizers the build uses, if any).

name=gen_tp
fail() {
	printf '%s: FAIL: %s\n' "$name" "$*" >&2
	exit 1
}
note() {
	printf '%s: %s\n' "$name" "$*"
}

here=$(cd "$(dirname "$0")" && pwd) || fail "cannot find the test's directory"
TRAX_SRC=${TRAX_SRC:-$(cd "$here/../.." && pwd)}
TRAX_BUILD=${TRAX_BUILD:-$TRAX_SRC/build}
GEN=$TRAX_SRC/tools/trax-gen-tp
DATA=$here/data
INC=$TRAX_SRC/include

[ -f "$GEN" ] || fail "$GEN does not exist"
[ -f "$DATA/sample.tp" ] || fail "$DATA/sample.tp does not exist"
command -v nm >/dev/null 2>&1 || fail "nm (binutils) is needed"
sh -n "$GEN" || fail "trax-gen-tp is not valid sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/trax-gen-tp-test.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

san_flags=
if [ -n "${TRAX_SANITIZE:-}" ]; then
	san_flags="-fsanitize=$TRAX_SANITIZE -fno-omit-frame-pointer"
fi
export CFLAGS="-O1 $san_flags"
unset TRAX_INCLUDE_DIR CPPFLAGS CC 2>/dev/null

gen() { # runs trax-gen-tp; its stderr goes to $tmp/err
	sh "$GEN" "$@" 2>"$tmp/err"
}
# expect_error WHAT PATTERN ARGS...: trax-gen-tp must fail, saying PATTERN.
expect_error() {
	what=$1 pattern=$2
	shift 2
	if sh "$GEN" "$@" >"$tmp/out" 2>"$tmp/err"; then
		fail "$what: trax-gen-tp $* succeeded, expected an error"
	fi
	grep -q "^trax-gen-tp: error: .*$pattern" "$tmp/err" ||
		fail "$what: no error message matching '$pattern'; stderr was: $(cat "$tmp/err")"
	note "ok: $what -> $(grep '^trax-gen-tp: error:' "$tmp/err" | head -n 1)"
}
has() { # has FILE FIXED-STRING
	grep -F -q -e "$2" "$1" || fail "$1 lacks: $2"
}
lacks() {
	if grep -F -q -e "$2" "$1"; then fail "$1 should not contain: $2"; fi
}
# defined_sym OBJ REGEX: OBJ defines a symbol whose name matches REGEX.
defined_sym() {
	nm "$1" | awk '$(NF-1) != "U" && NF >= 3 { print $NF }' | grep -q -e "$2" ||
		fail "$1 defines no symbol matching '$2'; nm says: $(nm "$1" | tr '\n' ' ')"
}

# ---------------------------------------------------------------- help
gen -h >"$tmp/help" || fail "-h exited non-zero: $(cat "$tmp/err")"
grep -q 'Usage: trax-gen-tp' "$tmp/help" || fail "-h prints no usage"
gen --help >/dev/null || fail "--help exited non-zero"

# ---------------------------------------------------------------- defaults
mkdir "$tmp/def" && cp "$DATA/sample.tp" "$tmp/def/" || fail "cannot set up $tmp/def"
(cd "$tmp/def" && sh "$GEN" sample.tp) 2>"$tmp/err" ||
	fail "generating from sample.tp failed: $(cat "$tmp/err")"
for f in sample.h sample.c sample.o; do
	[ -s "$tmp/def/$f" ] || fail "default output $f was not generated"
done
h=$tmp/def/sample.h
has "$h" '#undef TRACEPOINT_PROVIDER'
has "$h" '#define TRACEPOINT_PROVIDER sample_prov'
has "$h" '#undef TRACEPOINT_INCLUDE'
has "$h" '#define TRACEPOINT_INCLUDE "./sample.h"'
has "$h" '#if !defined(SAMPLE_H) || defined(TRACEPOINT_HEADER_MULTI_READ)'
has "$h" '#define SAMPLE_H'
has "$h" '#include <lttng/tracepoint.h>'
has "$h" '#endif /* SAMPLE_H */'
has "$h" ' * Sample tracepoint provider template'   # C comments are kept
has "$h" '// provider name'
has "$h" '#include <stddef.h>'                    # as are #include lines
has "$h" 'ctf_enum(sample_prov, color_enum, int, color, color)'
lacks "$h" 'shell-style comment'                  # "# ..." lines are dropped
[ "$(tail -n 1 "$h")" = '#include <lttng/tracepoint-event.h>' ] ||
	fail "sample.h does not end with #include <lttng/tracepoint-event.h>"
# The provider part comes first, then the guard, then tracepoint.h.
awk '/#define TRACEPOINT_PROVIDER/ { p = NR } /^#if !defined\(SAMPLE_H\)/ { g = NR }
     /#include <lttng\/tracepoint.h>/ { t = NR } /TRACEPOINT_ENUM\(/ { b = NR }
     END { exit !(p && p < g && g < t && t < b) }' "$h" ||
	fail "sample.h parts are not in the provider/guard/tracepoint.h/body order"
c=$tmp/def/sample.c
has "$c" '#define TRACEPOINT_CREATE_PROBES'
has "$c" '#define TRACEPOINT_DEFINE'
has "$c" '#include "sample.h"'
o=$tmp/def/sample.o
defined_sym "$o" 'sample_prov.*sample_event'
defined_sym "$o" 'sample_prov.*sample_value'
note "ok: default outputs (sample.h, sample.c, sample.o with its symbols)"

# Running again from another directory, template given by path.
(cd "$tmp" && sh "$GEN" def/sample.tp) 2>"$tmp/err" ||
	fail "generating from def/sample.tp failed: $(cat "$tmp/err")"
has "$h" '#define TRACEPOINT_INCLUDE "./sample.h"'
has "$c" '#include "sample.h"'

# ---------------------------------------------------------------- -o
mkdir "$tmp/sel" || fail "mkdir failed"
cd "$tmp/sel" || fail "cd failed"
gen -o only.h "$DATA/sample.tp" || fail "-o only.h failed: $(cat "$tmp/err")"
[ -f only.h ] || fail "-o only.h did not generate only.h"
[ "$(ls)" = only.h ] || fail "-o only.h generated more than only.h: $(ls | tr '\n' ' ')"
has only.h '#define TRACEPOINT_INCLUDE "./only.h"'
has only.h '#if !defined(ONLY_H) || defined(TRACEPOINT_HEADER_MULTI_READ)'

gen --output=prov.c "$DATA/sample.tp" || fail "--output=prov.c failed: $(cat "$tmp/err")"
[ -f prov.c ] && [ ! -e prov.h ] && [ ! -e prov.o ] ||
	fail "--output=prov.c should generate prov.c only"
has prov.c '#include "prov.h"'

# A lone .o: built from private copies of the .h and .c.
gen -o lone.o "$DATA/sample.tp" || fail "-o lone.o failed: $(cat "$tmp/err")"
[ -s lone.o ] && [ ! -e lone.h ] && [ ! -e lone.c ] ||
	fail "-o lone.o should generate lone.o only"
defined_sym lone.o 'sample_prov.*sample_event'

# All three, in a sub-directory, with -o repeated and -oFILE spelling.
mkdir out || fail "mkdir failed"
gen -o out/p.h -oout/p.c --output out/p.o "$DATA/sample.tp" ||
	fail "-o out/p.{h,c,o} failed: $(cat "$tmp/err")"
for f in out/p.h out/p.c out/p.o; do [ -s "$f" ] || fail "$f was not generated"; done
has out/p.c '#include "p.h"'
has out/p.h '#define TRACEPOINT_INCLUDE "./p.h"'
defined_sym out/p.o 'sample_prov.*sample_value'
note "ok: -o selects the outputs by extension"

# Several templates at once (no -o): each gets its own outputs.
cp "$DATA/sample.tp" one.tp && cp "$DATA/sample.tp" two.tp || fail "cp failed"
gen one.tp two.tp || fail "two templates failed: $(cat "$tmp/err")"
for f in one.h one.c one.o two.h two.c two.o; do [ -s "$f" ] || fail "$f was not generated"; done
note "ok: several templates"

# ---------------------------------------------------------------- errors
expect_error "no template" "no template" -o x.h
expect_error "missing template" "not found" "$tmp/does-not-exist.tp"
mkdir "$tmp/dir.tp" || fail "mkdir failed"
expect_error "template is a directory" "not a regular file" "$tmp/dir.tp"
cp "$DATA/sample.tp" "$tmp/locked.tp" && chmod 000 "$tmp/locked.tp" || fail "chmod failed"
if [ "$(id -u)" != 0 ]; then
	expect_error "unreadable template" "not readable" "$tmp/locked.tp"
elif command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "sh -n '$GEN'" 2>/dev/null; then
	# root reads any file: run trax-gen-tp as nobody for this case.
	chmod 755 "$tmp" || fail "chmod failed"
	if setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh "$GEN" -o "$tmp/locked.h" "$tmp/locked.tp" 2>"$tmp/err"; then
		fail "unreadable template: trax-gen-tp succeeded, expected an error"
	fi
	grep -q '^trax-gen-tp: error: .*not readable' "$tmp/err" ||
		fail "unreadable template: unexpected message: $(cat "$tmp/err")"
	note "ok: unreadable template (as nobody) -> $(cat "$tmp/err")"
	chmod 700 "$tmp" || fail "chmod failed"
else
	note "note: running as root without setpriv: the unreadable-template case is not run"
fi
cat >"$tmp/noprov.tp" <<'EOF'
/* Only a comment mentions TRACEPOINT_EVENT(foo, bar, ...) here. */
// TRACEPOINT_EVENT(foo, bar, TP_ARGS(), TP_FIELDS())
# TRACEPOINT_EVENT(foo, bar, TP_ARGS(), TP_FIELDS())
static const char *s = "TRACEPOINT_EVENT(foo, bar";
EOF
expect_error "no provider" "no provider" "$tmp/noprov.tp"
[ ! -e "$tmp/noprov.h" ] || fail "a .h was written for a template without provider"
expect_error "unknown output extension" "unknown output file extension" -o "$tmp/sel/x.txt" "$DATA/sample.tp"
[ ! -e "$tmp/sel/x.txt" ] || fail "x.txt was written"
cat >"$tmp/twoprov.tp" <<'EOF'
TRACEPOINT_EVENT(prov_a, ev, TP_ARGS(int, v), TP_FIELDS(ctf_integer(int, v, v)))
TRACEPOINT_EVENT(prov_b, ev, TP_ARGS(int, v), TP_FIELDS(ctf_integer(int, v, v)))
EOF
expect_error "two providers" "differs" "$tmp/twoprov.tp"
expect_error "unknown option" "unknown option" --frobnicate "$DATA/sample.tp"
expect_error "output directory missing" "cannot write" -o "$tmp/no/such/dir/x.h" "$DATA/sample.tp"
TRAX_INCLUDE_DIR=$tmp/no-such-include expect_error "bad TRAX_INCLUDE_DIR" "TRAX_INCLUDE_DIR" \
	-o "$tmp/sel/bad.o" "$DATA/sample.tp"

# Compiler failure; CFLAGS reach the compiler (NEED_FLAG set by CFLAGS only).
cat >"$tmp/flag.tp" <<'EOF'
#ifndef NEED_FLAG
#error NEED_FLAG is not defined: CFLAGS did not reach the compiler
#endif
TRACEPOINT_EVENT(flag_prov, flag_event, TP_ARGS(int, v), TP_FIELDS(ctf_integer(int, v, v)))
EOF
expect_error "compiler failure" "failed" -o "$tmp/flag.o" "$tmp/flag.tp"
[ ! -e "$tmp/flag.o" ] || fail "a .o was left behind after a compiler failure"
grep -q 'NEED_FLAG is not defined' "$tmp/err" || fail "the compiler's own message was not shown"
CFLAGS="$CFLAGS -DNEED_FLAG" gen -o "$tmp/flag.o" "$tmp/flag.tp" ||
	fail "CFLAGS=-DNEED_FLAG did not reach the compiler: $(cat "$tmp/err")"
defined_sym "$tmp/flag.o" 'flag_prov.*flag_event'
CC="$tmp/no-such-cc" expect_error "missing compiler" "not found" -o "$tmp/cc.o" "$tmp/flag.tp"
note "ok: error cases"

# TRAX_INCLUDE_DIR and CC are honoured.
TRAX_INCLUDE_DIR=$INC CC="${CC:-cc}" gen -v -o "$tmp/sel/inc.o" "$DATA/sample.tp" ||
	fail "TRAX_INCLUDE_DIR=$INC failed: $(cat "$tmp/err")"
grep -q "trax headers: $INC" "$tmp/err" || fail "TRAX_INCLUDE_DIR was not used: $(cat "$tmp/err")"

# The copy in the build tree finds the source tree's headers.
if [ -f "$TRAX_BUILD/bin/trax-gen-tp" ]; then
	sh "$TRAX_BUILD/bin/trax-gen-tp" -v -o "$tmp/sel/build.o" "$DATA/sample.tp" 2>"$tmp/err" ||
		fail "the build tree's trax-gen-tp failed: $(cat "$tmp/err")"
	grep -q 'trax headers: .*/include' "$tmp/err" ||
		fail "the build tree's trax-gen-tp did not find trax's headers: $(cat "$tmp/err")"
	note "ok: $TRAX_BUILD/bin/trax-gen-tp finds the headers"
fi

# ---------------------------------------------------------------- tracing
lib=$TRAX_BUILD/libtrax-ust.so
[ -f "$lib" ] || fail "$lib does not exist (build trax first: make): cannot run the generated provider"
command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed to read the trace"

cd "$tmp/def" || fail "cd failed"
cat >app.c <<'EOF'
#include "sample.h"

int main(void)
{
	tracepoint(sample_prov, sample_event, 42, "hello-gen-tp", 2);
	tracepoint(sample_prov, sample_value, 123456789L);
	return 0;
}
EOF
# shellcheck disable=SC2086
${CC:-cc} $CFLAGS -I . -I "$INC" -o app app.c sample.o \
	-L "$TRAX_BUILD" -Wl,-rpath,"$TRAX_BUILD" -ltrax-ust -ldl -lpthread 2>"$tmp/err" ||
	fail "cannot build a program with the generated sample.o: $(cat "$tmp/err")"
TRAX_OUTPUT=$tmp/trace ./app 2>"$tmp/err" || fail "the program failed: $(cat "$tmp/err")"
[ -d "$tmp/trace" ] || fail "no trace written to TRAX_OUTPUT=$tmp/trace"
babeltrace2 "$tmp/trace" >"$tmp/bt" 2>"$tmp/err" ||
	fail "babeltrace2 cannot read the trace: $(cat "$tmp/err")"
grep 'sample_prov:sample_event' "$tmp/bt" >"$tmp/ev" ||
	fail "the trace has no sample_prov:sample_event; babeltrace2 shows: $(cat "$tmp/bt")"
[ "$(wc -l <"$tmp/ev")" -eq 1 ] || fail "expected 1 sample_event, got: $(cat "$tmp/ev")"
has "$tmp/ev" 'count = 42'
has "$tmp/ev" 'label = "hello-gen-tp"'
has "$tmp/ev" 'BLUE'
grep 'sample_prov:sample_value' "$tmp/bt" >"$tmp/ev" ||
	fail "the trace has no sample_prov:sample_value; babeltrace2 shows: $(cat "$tmp/bt")"
has "$tmp/ev" 'value = 123456789'
note "ok: a program linked with the generated .o records its events"
note "PASS"
exit 0
