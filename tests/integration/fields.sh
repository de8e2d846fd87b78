#!/bin/sh
# fields.sh - every field macro and every log level of lttng-ust(3).
#
# The provider in data/fields/ uses every ctf_*() macro (integers of every
# width with their extremes, _hex, _network, _nowrite, floats, strings with a
# NULL pointer, all array and sequence variants, enumerations), an event
# class with instances, an event without arguments nor fields, an event with
# ten arguments, one event per log level, ctf_enum_auto() entries and
# TRACEPOINT_MODEL_EMF_URI.
#  1. Recorded with trax (TRAX_OUTPUT): babeltrace2 must print exactly the
#     expected value of every field, and no _nowrite field.
#  2. The metadata must give each event its log level (0..14, 13 by default)
#     and its model.emf.uri.
#  3. Differential: the same sources built against LTTng-UST and recorded by
#     a private lttng session must print the same payloads, event by event.
. "$TRAX_SRC/tests/integration/lib.sh"

DATA=$TRAX_SRC/tests/integration/data/fields
. "$DATA/lttng.sh"

# Failures are counted (check_fail) so that one run reports every broken field.
# payloads TRACE_TEXT: the lines of the fields provider without what precedes
# the event name (time stamp, delta, host/process) nor the packet context.
payloads() {
	payload_lines "$1" | grep '^fields:'
}

cd "$TEST_TMP"

# ---- 1. trax ---------------------------------------------------------------
$CC $TRAX_CFLAGS -I"$DATA" -c "$DATA/tp.c" -o tp.o
$CC $TRAX_CFLAGS -I"$DATA" -c "$DATA/app.c" -o app.o
$CC -o app-trax tp.o app.o $TRAX_LDFLAGS -ltrax-ust -ldl

TRAX_OUTPUT=$TEST_TMP/trax ./app-trax || fail "app-trax exited with status $?"
set -- "$TEST_TMP"/trax/ust/pid/*/
[ $# -eq 1 ] && [ -f "$1/metadata" ] || fail "expected one trace under $TEST_TMP/trax/ust/pid, found: $*"
TRACE=$1

bt2 "$TRACE" >trax.txt
payloads trax.txt >trax.payload

cat >expected.payload <<'EOF'
fields:integers: { i8_min = -128, i8_max = 127, u8_max = 255, i16_min = -32768, i16_max = 32767, u16_max = 65535, i32_min = -2147483648, i32_max = 2147483647, u32_max = 4294967295, i64_min = -9223372036854775808, i64_max = 9223372036854775807, u64_max = 18446744073709551615, minus_one = -1, long_minus_one = -1, zero = 0, short_val = -1234, uchar_val = 200, size_val = 123456789 }
fields:integers_special: { hex_u8 = 0xAB, hex_i8_m1 = 0xFF, hex_u16 = 0xBEEF, hex_i32 = 0x12345678, hex_u64_max = 0xFFFFFFFFFFFFFFFF, hex_i64_min = 0x8000000000000000, net_u16 = 4660, net_i16 = -2, net_u32 = 3735928559, net_i32_min = -2147483648, net_i64 = -1234567890123, net_u64 = 4822678189205111, net_u8 = 7, nethex_u16 = 0xCAFE, nethex_u32 = 0x1020304, nethex_u64 = 0x102030405060708, nethex_i32 = 0xFFFFFFFE, after_special = 42 }
fields:floats: { f_arg = 1.5, f_neg = -0.25, f_large = 3e+38, f_small = 1.5e-38, f_zero = 0, d_arg = 2.71828, d_neg = -3.14, d_large = 1e+300, d_small = -2.5e-300, d_third = 0.333333, after_floats = 7 }
fields:strings: { s_arg = "hello world", s_empty = "", s_utf8 = "héllo wörld ✓", s_quote = "tab\there \"quoted\"", after_strings = 5 }
fields:null_string: { s_null = "(null)", after_null = 1 }
fields:arrays: { a_i32 = [ [0] = -1, [1] = 0, [2] = 2147483647, [3] = -2147483648 ], a_u64 = [ [0] = 0, [1] = 18446744073709551615 ], a_i8 = [ [0] = -128, [1] = 0, [2] = 127 ], a_hex_u8 = [ [0] = 0x0, [1] = 0xF, [2] = 0xA0, [3] = 0xFF ], a_hex_i16 = [ [0] = 0xFFFF, [1] = 0x1234 ], a_net_u16 = [ [0] = 258, [1] = 65534, [2] = 255 ], a_net_i32 = [ [0] = -1, [1] = 16909060, [2] = 2147483647, [3] = -2147483648 ], a_nethex_u32 = [ [0] = 0xDEADBEEF, [1] = 0x1 ], a_nethex_u64 = [ [0] = 0x102030405060708, [1] = 0xFFFFFFFFFFFFFFFE ], a_text = "abcdef", a_text_nul = "hi", after_arrays = 3 }
fields:sequences: { _s_i32_length = 3, s_i32 = [ [0] = -1, [1] = 0, [2] = 2147483647 ], _s_u64_length = 2, s_u64 = [ [0] = 0, [1] = 18446744073709551615 ], _s_hex_u8_length = 4, s_hex_u8 = [ [0] = 0x0, [1] = 0xF, [2] = 0xA0, [3] = 0xFF ], _s_net_u16_length = 3, s_net_u16 = [ [0] = 258, [1] = 65534, [2] = 255 ], _s_nethex_u32_length = 2, s_nethex_u32 = [ [0] = 0xDEADBEEF, [1] = 0x1 ], _s_text_length = 5, s_text = "abcde", _s_empty_length = 0, s_empty = [ ], _s_empty_text_length = 0, s_empty_text = "", after_sequences = 4 }
fields:enums: { e_zero = ( "ZERO" : container = 0 ), e_minus_one = ( "MINUS_ONE" : container = -1 ), e_neg_range = ( "NEGATIVES" : container = -50 ), e_hundreds = ( "HUNDREDS" : container = 150 ), e_big = ( "BIG" : container = 100000 ), e_unmapped = ( <unknown> : container = -5 ), e_range_end = ( "NEGATIVES" : container = -10 ), u_blue = ( "BLUE" : container = 2 ), u_high = ( "HIGH" : container = 220 ), u_unmapped = ( <unknown> : container = 251 ), u_range_start = ( "HIGH" : container = 200 ), m_seven = ( "SEVEN" : container = 7 ), m_top = ( "TOP" : container = 18446744073709551600 ), after_enums = 6 }
fields:enums_auto: { a_first = ( "FIRST" : container = 0 ), a_two = ( "TWO" : container = 2 ), a_twenty_one = ( "TWENTY_ONE" : container = 21 ), a_range = ( "TEN_TO_TWENTY" : container = 15 ), a_minus_four = ( "MINUS_FOUR" : container = -4 ), a_minus_three = ( "MINUS_THREE" : container = -3 ), a_unmapped = ( <unknown> : container = 3 ), u_b = ( "B" : container = 1 ), u_d = ( "D" : container = 10 ) }
fields:pair_first: { x = 10, x_times_two = 20, label = "first" }
fields:pair_second: { x = -20, x_times_two = -40, label = "second" }
fields:empty: { }
fields:ten_args: { a1 = -8, a2 = 65535, a3 = -123456, a4 = 18446744073709551614, a5 = 0.5, a6 = -1e-10, a7 = "tenth", a8 = 90, a9 = -9, a10 = [ [0] = -7, [1] = 8 ] }
fields:lvl_emerg: { level = 0 }
fields:lvl_alert: { level = 1 }
fields:lvl_crit: { level = 2 }
fields:lvl_err: { level = 3 }
fields:lvl_warning: { level = 4 }
fields:lvl_notice: { level = 5 }
fields:lvl_info: { level = 6 }
fields:lvl_debug_system: { level = 7 }
fields:lvl_debug_program: { level = 8 }
fields:lvl_debug_process: { level = 9 }
fields:lvl_debug_module: { level = 10 }
fields:lvl_debug_unit: { level = 11 }
fields:lvl_debug_function: { level = 12 }
fields:lvl_debug_line: { level = 13 }
fields:lvl_debug: { level = 14 }
fields:lvl_default: { level = 13 }
EOF

expect_eq "$(wc -l <trax.payload)" "$(wc -l <expected.payload)" "number of fields: events in the trax trace"
# Event by event, so that a failure names the event and shows both lines.
expect_lines trax.payload expected.payload "trax event"
[ $errors -eq 0 ] && ok "trax: every field value of the $n events"

# The _nowrite fields are neither recorded nor declared.
if grep -q hidden trax.txt; then check_fail "a _nowrite field is in the trax trace: $(grep -o '[a-z_]*hidden[a-z_]*' trax.txt | sort -u | tr '\n' ' ')"; fi
bt2 --output-format=ctf-metadata "$TRACE" >trax.tsdl
if grep -q hidden trax.tsdl; then check_fail "a _nowrite field is declared in the trax metadata: $(grep -o '[a-z_]*hidden[a-z_]*' trax.tsdl | sort -u | tr '\n' ' ')"; fi
grep -qF 'integer { size = 16; align = 8; signed = 0; encoding = none; base = 10; byte_order = be; } _net_u16;' trax.tsdl ||
	check_fail "net_u16 is not declared as a big-endian unsigned 16-bit integer in the metadata: $(grep '_net_u16;' trax.tsdl)"

# ---- 2. log levels in the metadata -------------------------------------------
# "NAME LOGLEVEL" for each event of the provider, from the TSDL.
loglevels() {
	event_loglevels "$1" fields
}
cat >expected.levels <<'EOF'
fields:integers 13
fields:integers_special 13
fields:floats 13
fields:strings 13
fields:null_string 13
fields:arrays 13
fields:sequences 13
fields:enums 13
fields:enums_auto 13
fields:pair_first 13
fields:pair_second 6
fields:empty 13
fields:ten_args 13
fields:lvl_emerg 0
fields:lvl_alert 1
fields:lvl_crit 2
fields:lvl_err 3
fields:lvl_warning 4
fields:lvl_notice 5
fields:lvl_info 6
fields:lvl_debug_system 7
fields:lvl_debug_program 8
fields:lvl_debug_process 9
fields:lvl_debug_module 10
fields:lvl_debug_unit 11
fields:lvl_debug_function 12
fields:lvl_debug_line 13
fields:lvl_debug 14
fields:lvl_default 13
EOF
loglevels trax.tsdl | sort >trax.levels
sort expected.levels >expected.levels.sorted
if diff -u expected.levels.sorted trax.levels >levels.diff; then
	ok "trax metadata: log levels 0..14 and 13 (TRACE_DEBUG_LINE) by default"
else
	cat levels.diff >&2
	check_fail "log levels in the trax metadata (diff above: - expected, + trax)"
fi
# Babeltrace's own reading of them.
bt2 -c sink.text.details -p with-data=no "$TRACE" >trax.details
for pair in "lvl_emerg:Emergency" "lvl_alert:Alert" "lvl_crit:Critical" "lvl_err:Error" \
	"lvl_warning:Warning" "lvl_notice:Notice" "lvl_info:Info" \
	"lvl_debug_system:Debug (system)" "lvl_debug_program:Debug (program)" \
	"lvl_debug_process:Debug (process)" "lvl_debug_module:Debug (module)" \
	"lvl_debug_unit:Debug (unit)" "lvl_debug_function:Debug (function)" \
	"lvl_debug_line:Debug (line)" "lvl_debug:Debug" "lvl_default:Debug (line)" \
	"integers:Debug (line)"; do
	ev=${pair%%:*}
	want=${pair#*:}
	got=$(grep -A1 "Event class \`fields:$ev\` " trax.details | sed -n 's/^ *Log level: //p')
	[ "$got" = "$want" ] || check_fail "babeltrace2 reads the log level of fields:$ev as '$got', expected '$want'"
done

# TRACEPOINT_MODEL_EMF_URI, as Babeltrace reads it (on an event and on an
# instance of a class); none on the others.
for pair in "enums_auto:http://example.com/model.emf#enums_auto" "pair_second:file:///models/pair.emf" \
	"pair_first:" "integers:"; do
	ev=${pair%%:*}
	want=${pair#*:}
	got=$(sed -n "/Event class \`fields:$ev\` /,/Payload field class/p" trax.details | sed -n 's/^ *EMF URI: //p')
	[ "$got" = "$want" ] || check_fail "babeltrace2 reads the EMF URI of fields:$ev as '$got', expected '$want'"
done

# ---- 3. differential: LTTng-UST ----------------------------------------------
# The same sources against /usr/include/lttng (no trax include directory, no
# sanitizer: only trax is under test).
$CC -g -O1 -Wall -I"$DATA" -c "$DATA/tp.c" -o tp-lttng.o
$CC -g -O1 -Wall -I"$DATA" -c "$DATA/app.c" -o app-lttng.o
$CC -o app-lttng tp-lttng.o app-lttng.o -llttng-ust -ldl

lttng_start
lttng_record "$LTTNG_TEST_HOME/trace" "$TEST_TMP/app-lttng"
lttng_stop

bt2 "$LTTNG_TEST_HOME/trace" >lttng.txt
# LTTng-UST also records a NULL string as "(null)", so every event of the
# provider is comparable; the lttng_ust_statedump:* events are filtered out.
payloads lttng.txt >lttng.payload
expect_eq "$(wc -l <lttng.payload)" "$(wc -l <expected.payload)" "number of fields: events in the LTTng-UST trace"
n=0
while IFS= read -r want; do
	n=$((n + 1))
	got=$(sed -n "${n}p" trax.payload)
	[ "$got" = "$want" ] || check_fail "trax and LTTng-UST differ at event $n:
   trax:      $got
   LTTng-UST: $want"
done <lttng.payload
# And the recorded LTTng-UST payloads are the documented ones (guards the
# expected values above against a mistake of this test).
cmp -s lttng.payload expected.payload || {
	diff -u expected.payload lttng.payload >&2 || true
	check_fail "LTTng-UST's payloads differ from the expected ones (diff above)"
}
bt2 --output-format=ctf-metadata "$LTTNG_TEST_HOME"/trace/ust/uid/*/64-bit >lttng.tsdl
loglevels lttng.tsdl | sort >lttng.levels
cmp -s lttng.levels expected.levels.sorted || {
	diff -u expected.levels.sorted lttng.levels >&2 || true
	check_fail "LTTng-UST's log levels differ from the expected ones (diff above)"
}

# The field declarations (names, sizes, signedness, base, encoding, byte
# order, enumeration mappings) of both metadata agree; event ids differ,
# LTTng-UST ends enumeration mapping lists with a comma and writes an empty
# structure on two lines: those are normalized.
decls() {
	event_decls "$1" fields | sed -e ':a' -e 'N' -e '$!ba' -e 's/struct {\n\t};/struct { };/g'
}
decls trax.tsdl >trax.decls
decls lttng.tsdl >lttng.decls
[ -s trax.decls ] || check_fail "no fields:* event declaration found in the trax metadata"
if diff -u lttng.decls trax.decls >decls.diff; then
	ok "trax and LTTng-UST metadata declare the same fields"
else
	cat decls.diff >&2
	check_fail "field declarations differ (diff above: - LTTng-UST, + trax)"
fi

# ---- 4. the reader: trax view prints what babeltrace2 prints ----------------
# On both traces of this every-field-type program: LTTng-UST's (recorded
# here, just above) and trax's.
for tr in "$LTTNG_TEST_HOME/trace" "$TEST_TMP/trax"; do
	for opts in "" "--clock-seconds --no-delta" "--names=all --fields=all" "--clock-cycles" \
		"--clock-date" "--clock-date --clock-gmt"; do
		# shellcheck disable=SC2086
		babeltrace2 $opts "$tr" >view.bt2 2>view.bt2.err || check_fail "babeltrace2 $opts $tr failed"
		# shellcheck disable=SC2086
		"$TRAX_BUILD/trax" view $opts "$tr" >view.trax 2>view.trax.err ||
			check_fail "trax view $opts $tr failed: $(cat view.trax.err)"
		cmp -s view.bt2 view.trax || {
			diff view.bt2 view.trax | head -n 10 >&2
			check_fail "trax view $opts and babeltrace2 differ on $tr (diff above)"
		}
		cmp -s view.bt2.err view.trax.err || {
			diff view.bt2.err view.trax.err | head -n 10 >&2
			check_fail "trax view $opts and babeltrace2 warn differently on $tr (diff above)"
		}
	done
done
[ $errors -eq 0 ] && ok "trax view prints what babeltrace2 prints, on LTTng-UST's and trax's traces of this program"

[ $errors -eq 0 ] || fail "$errors check(s) failed"
ok "trax and LTTng-UST record the same $n payloads and log levels"
