#!/bin/sh
# A program written with LTTng-UST 2.13's API names (LTTNG_UST_TRACEPOINT_*,
# lttng_ust_field_*, lttng_ust_tracepoint(), lttng_ust_tracef(), ...)
# compiles unchanged against trax and records the same values; the same
# sources also compile against LTTng-UST's own headers (they are valid 2.13).
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/api213"
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$d" -c "$d/tp.c" -o tp.o
$CC $TRAX_CFLAGS -I"$d" -c "$d/app.c" -o app.o
$CC -o app213 app.o tp.o $TRAX_LDFLAGS -ltrax-ust -ldl
TRAX_OUTPUT="$TEST_TMP/t" ./app213 >out.txt
expect_contains out.txt done
bt2 "$TEST_TMP/t" | sed 's/^.*\] ([^)]*) [^ ]* //' >t.txt
cat >expected.txt <<'EXP'
new_prov:ev: { cpu_id = X }, { n = 0, h = 0x0, s = "abc", _bytes_length = 3, bytes = [ [0] = 97, [1] = 98, [2] = 99 ], color = ( "RED" : container = 0 ) }
new_prov:ev: { cpu_id = X }, { n = 5, h = 0x50, s = "xyz", _bytes_length = 3, bytes = [ [0] = 120, [1] = 121, [2] = 122 ], color = ( "OTHER" : container = 5 ) }
lttng_ust_tracef:event: { cpu_id = X }, { _msg_length = 9, msg = "tracef 42" }
lttng_ust_tracelog:TRACE_ERR: { cpu_id = X }, { line = 12, file = "DIR/app.c", func = "main", _msg_length = 12, msg = "tracelog err" }
EXP
sed -i "s|DIR|$d|" expected.txt
sed 's/cpu_id = [0-9]*/cpu_id = X/' t.txt >t2.txt
diff -u expected.txt t2.txt || fail "2.13-style program: unexpected trace"
grep -q 'loglevel = 5;' "$TEST_TMP"/t/ust/pid/*/metadata || fail "LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE not in the metadata"

# The sources are genuine LTTng-UST 2.13 code.
if echo "#include <lttng/tracepoint.h>" | $CC -E -x c - >/dev/null 2>&1; then
	$CC -c -I"$d" "$d/tp.c" -o lttng-tp.o || fail "tp.c does not compile against LTTng-UST"
	$CC -c -I"$d" "$d/app.c" -o lttng-app.o || fail "app.c does not compile against LTTng-UST"
else
	fail "LTTng-UST headers are missing (make deps installs liblttng-ust-dev)"
fi
ok "LTTng-UST 2.13 API names"
