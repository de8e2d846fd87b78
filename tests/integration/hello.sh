#!/bin/sh
# hello.sh - the EXAMPLE of lttng-ust(3) (examples/hello), built as the man
# page says but against trax, run as `./app some arguments`.
#  1. Every value of the five events, as printed by babeltrace2, and the log
#     levels of the metadata (big_event 4, event_instance2 6, others 13).
#  2. The same program built against LTTng-UST and recorded by a private
#     lttng session: both metadata declare the same fields, and both traces
#     hold the same payloads. Babeltrace 2.0.4 refuses LTTng-UST's trace as
#     is, because the example's two sequence lengths are of type int and
#     LTTng-UST declares them signed (trax declares them unsigned, which is
#     the one accepted difference); so LTTng-UST's metadata is read back as
#     TSDL text, these two lengths are declared unsigned there (their values
#     are positive: same bits), and babeltrace2 then reads its events.
. "$TRAX_SRC/tests/integration/lib.sh"

EXAMPLE=$TRAX_SRC/examples/hello
. "$TRAX_SRC/tests/integration/data/fields/lttng.sh"

for f in tp.h tp.c app.c app.h; do
	[ -f "$EXAMPLE/$f" ] || fail "$EXAMPLE/$f is missing"
done

# payloads TRACE_TEXT: the lines of my_provider without what precedes the
# event name (time stamp, delta, host/process) nor the packet context.
payloads() {
	payload_lines "$1" | grep '^my_provider:'
}

# ---- 1. trax -----------------------------------------------------------------
# Built as the man page says, with trax's flags (build_hello, lib.sh).
build_hello "$TEST_TMP/trax-app"

# The example writes /tmp/app.txt; an earlier run as another user may own it.
rm -f /tmp/app.txt
TRAX_OUTPUT=$TEST_TMP/trax ./app some arguments || fail "./app some arguments exited with status $?"
expect_eq "$(cat /tmp/app.txt)" 0123456789 "content of /tmp/app.txt written by the example"
set -- "$TEST_TMP"/trax/ust/pid/*/
[ $# -eq 1 ] && [ -f "$1/metadata" ] || fail "expected one trace under $TEST_TMP/trax/ust/pid, found: $*"
TRACE=$1

bt2 "$TRACE" >trax.txt
expect_eq "$(wc -l <trax.txt)" 5 "number of events in the trax trace"
payloads trax.txt >trax.payload

cat >expected.payload <<'EOF'
my_provider:simple_event: { argc = "./app", argv = 3 }
my_provider:big_event: { int_field1 = 70, stream_pos = 0xA, float_field = -3.14, string_field = "hello tracepoint", array_field = [ [0] = 100, [1] = -35, [2] = 1, [3] = 23, [4] = 14, [5] = -6, [6] = 28 ], array_text_field = "d", _seq_field_length = 3, seq_field = [ [0] = 100, [1] = -35, [2] = 1 ], _seq_text_field_length = 7, seq_text_field = "d", enum_field = ( <unknown> : container = -35 ) }
my_provider:event_instance1: { a = 23, b = 3, c = "[the string]" }
my_provider:event_instance2: { a = 17, b = 15, c = "[other string]" }
my_provider:event_instance3: { a = -52, b = 23, c = "nothing" }
EOF
expect_lines trax.payload expected.payload "trax event"
[ $errors -eq 0 ] && ok "trax: the five events of the example and all their values"

# Log levels, from the TSDL: "NAME LOGLEVEL" for each my_provider event.
loglevels() {
	event_loglevels "$1" my_provider
}
bt2 --output-format=ctf-metadata "$TRACE" >trax.tsdl
loglevels trax.tsdl | sort >trax.levels
sort >expected.levels <<'EOF'
my_provider:simple_event 13
my_provider:big_event 4
my_provider:event_instance1 13
my_provider:event_instance2 6
my_provider:event_instance3 13
EOF
if cmp -s expected.levels trax.levels; then
	ok "trax metadata: big_event 4 (TRACE_WARNING), event_instance2 6 (TRACE_INFO), others 13"
else
	diff -u expected.levels trax.levels >&2 || true
	check_fail "log levels in the trax metadata (diff above: - expected, + trax)"
fi
# The declarations the man page's TP_FIELDS() imply.
for decl in \
	'string _argc;' \
	'integer { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _argv;' \
	'integer { size = 64; align = 8; signed = 1; encoding = none; base = 16; } _stream_pos;' \
	'floating_point { exp_dig = 11; mant_dig = 53; align = 8; } _float_field;' \
	'integer { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _array_field[7];' \
	'integer { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _array_text_field[5];' \
	'_seq_field[ __seq_field_length ];' \
	'_seq_text_field[ __seq_text_field_length ];' \
	'"A RANGE" = 52 ... 125' \
	'integer { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _b;'; do
	grep -qF -- "$decl" trax.tsdl || check_fail "trax metadata lacks: $decl"
done

# ---- 2. differential: LTTng-UST -------------------------------------------------
# Exactly the man page's commands, against the system LTTng-UST.
mkdir "$TEST_TMP/lttng-app"
cp "$EXAMPLE/tp.h" "$EXAMPLE/tp.c" "$EXAMPLE/app.c" "$EXAMPLE/app.h" "$TEST_TMP/lttng-app/"
cd "$TEST_TMP/lttng-app"
cc -c -I. tp.c
cc -c app.c
cc -o app tp.o app.o -llttng-ust -ldl

lttng_start
rm -f /tmp/app.txt
lttng_record "$LTTNG_TEST_HOME/trace" ./app some arguments
lttng_stop
rm -f /tmp/app.txt
cd "$TEST_TMP/trax-app"

set -- "$LTTNG_TEST_HOME"/trace/ust/uid/*/64-bit
[ $# -eq 1 ] && [ -d "$1" ] || fail "expected one LTTng-UST trace under $LTTNG_TEST_HOME/trace/ust/uid, found: $*"
LTTNG_TRACE=$1
bt2 --output-format=ctf-metadata "$LTTNG_TRACE" >lttng.tsdl

loglevels lttng.tsdl | sort >lttng.levels
cmp -s expected.levels lttng.levels || {
	diff -u expected.levels lttng.levels >&2 || true
	check_fail "LTTng-UST's log levels differ from the expected ones (diff above)"
}

# Field declarations of my_provider's events: event ids differ, LTTng-UST
# ends enumeration mapping lists with a comma, and declares the int
# sequence lengths signed (see the top of this file).
decls() {
	event_decls "$1" my_provider |
		sed -E 's/signed = [01];( encoding = none; base = 10; \} __[A-Za-z0-9_]*_length;)/signed = L;\1/'
}
decls trax.tsdl >trax.decls
decls lttng.tsdl >lttng.decls
[ "$(grep -c '^event {' trax.decls)" = 5 ] || check_fail "expected 5 my_provider event declarations in the trax metadata"
if diff -u lttng.decls trax.decls >decls.diff; then
	ok "trax and LTTng-UST metadata declare the same fields (names, sizes, signedness, bases, encodings, enum mappings)"
else
	cat decls.diff >&2
	check_fail "field declarations differ (diff above: - LTTng-UST, + trax)"
fi

# LTTng-UST's trace with the two lengths declared unsigned, as plain-text
# metadata next to its stream files.
mkdir "$TEST_TMP/lttng-patched"
cp "$LTTNG_TRACE"/channel0_* "$TEST_TMP/lttng-patched/"
sed -E 's/signed = 1;( encoding = none; base = 10; \} __seq(_text)?_field_length;)/signed = 0;\1/' \
	lttng.tsdl >"$TEST_TMP/lttng-patched/metadata"
expect_eq "$(grep -c 'signed = 0; encoding = none; base = 10; } __seq\(_text\)\{0,1\}_field_length;' "$TEST_TMP/lttng-patched/metadata")" 2 \
	"sequence lengths redeclared unsigned in LTTng-UST's metadata"
bt2 "$TEST_TMP/lttng-patched" >lttng.txt
payloads lttng.txt >lttng.payload
cmp -s lttng.payload expected.payload || {
	diff -u expected.payload lttng.payload >&2 || true
	check_fail "LTTng-UST's payloads differ from the expected ones (diff above)"
}
if cmp -s lttng.payload trax.payload; then
	ok "trax and LTTng-UST record the same five payloads"
else
	diff -u lttng.payload trax.payload >&2 || true
	check_fail "trax and LTTng-UST payloads differ (diff above: - LTTng-UST, + trax)"
fi

[ $errors -eq 0 ] || fail "$errors check(s) failed"
