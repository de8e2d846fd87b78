#!/bin/sh
# A program written with LTTng-UST 2.13's API names (LTTNG_UST_TRACEPOINT_*,
# every lttng_ust_field_*() macro, the 5-argument
# LTTNG_UST_TRACEPOINT_EVENT_INSTANCE, LTTNG_UST_TRACEPOINT_LOGLEVEL_*,
# LTTNG_UST_TRACEPOINT_MODEL_EMF_URI, lttng_ust_tracepoint(),
# lttng_ust_tracef(), lttng_ust_vtracelog(), ...) compiles unchanged against
# trax and records what LTTng-UST 2.13 records from the same sources
# (payloads, log levels, field declarations: a private session daemon);
# LTTNG_UST_TP_IP_PARAM (data/api213/ipapp.c) gives the same ip context.
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/api213"
. "$TRAX_SRC/tests/integration/data/fields/lttng.sh"
cd "$TEST_TMP"
# Built with LTTNG_UST_COMPAT_API_VERSION=1: LTTng-UST then defines none of
# its pre-2.13 names, so the sources surely use only 2.13's.
NEW_ONLY=-DLTTNG_UST_COMPAT_API_VERSION=1
build_app "$d" app213 $NEW_ONLY
$CC $TRAX_CFLAGS $NEW_ONLY -I"$d" "$d/ipapp.c" -o ipapp $TRAX_LDFLAGS -ltrax-ust -ldl
TRAX_OUTPUT="$TEST_TMP/t" ./app213 >out.txt
expect_contains out.txt done

# "provider:event: { payload }" lines, LTTng-UST 2.13's tracelog event names
# (lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_xxx) given trax's (TRACE_xxx).
payloads() {
	bt2 "$1" | payload_lines |
		sed -e 's/^lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_/lttng_ust_tracelog:TRACE_/' |
		grep -E '^(new_prov|lttng_ust_tracef|lttng_ust_tracelog):'
}
# The new_prov:* event declarations without ids (LTTng-UST ends enumeration
# lists with a comma), log levels as trax names them.
decls() {
	bt2 --output-format=ctf-metadata "$(dirname "$(find "$1" -name metadata | head -n 1)")" |
		event_decls - new_prov
}
payloads "$TEST_TMP/t" >trax.txt
decls "$TEST_TMP/t" >trax.decls

# A few values by hand (the comparison below is with LTTng-UST).
cat >expected.txt <<EXP
new_prov:ev: { n = 0, h = 0x0, s = "abc", _bytes_length = 3, bytes = [ [0] = 97, [1] = 98, [2] = 99 ], color = ( "RED" : container = 0 ) }
new_prov:ev: { n = 5, h = 0x50, s = "xyz", _bytes_length = 3, bytes = [ [0] = 120, [1] = 121, [2] = 122 ], color = ( "OTHER" : container = 5 ) }
new_prov:ev: { n = 10, h = 0xA0, s = "ten", _bytes_length = 3, bytes = [ [0] = 116, [1] = 101, [2] = 110 ], color = ( "TEN" : container = 10 ) }
EXP
head -n 3 trax.txt | diff -u expected.txt - >&2 || fail "2.13-style program: unexpected new_prov:ev events"
expect_contains trax.txt 'lttng_ust_tracef:event: { _msg_length = 9, msg = "tracef 42" }'
expect_contains trax.txt "lttng_ust_tracelog:TRACE_ERR: { line = $(grep -n '"tracelog %s"' "$d/app.c" | cut -d: -f1), file = \"$d/app.c\", func = \"main\""
expect_contains trax.decls '	loglevel = 11;'
expect_contains trax.decls '	model.emf.uri = "http://example.com/new_prov.emf";'
if grep -q hidden trax.decls; then fail "a lttng_ust_field_*_nowrite field is declared in the metadata"; fi

# The same sources recorded by LTTng-UST 2.13.
$CC -g -O1 -Wall $NEW_ONLY -I"$d" -c "$d/tp.c" -o lttng-tp.o || fail "tp.c does not compile against LTTng-UST"
$CC -g -O1 -Wall $NEW_ONLY -I"$d" -c "$d/app.c" -o lttng-app.o || fail "app.c does not compile against LTTng-UST"
$CC -o app213-lttng lttng-app.o lttng-tp.o -llttng-ust -ldl
$CC -g -O1 -Wall $NEW_ONLY -I"$d" "$d/ipapp.c" -o ipapp-lttng -llttng-ust -ldl ||
	fail "ipapp.c does not build against LTTng-UST"
lttng_start
lttng_record "$LTTNG_TEST_HOME/trace" "$TEST_TMP/app213-lttng"
lttng_cmd create trax-ip --output="$LTTNG_TEST_HOME/ip"
lttng_cmd enable-event -u 'ip_prov:*'
lttng_cmd add-context -u -t ip
lttng_cmd start
lttng_as_user "$TEST_TMP/ipapp-lttng" || fail "ipapp (traced by LTTng-UST) exited with status $?"
lttng_cmd stop
lttng_cmd destroy
lttng_stop
payloads "$LTTNG_TEST_HOME/trace" >lttng.txt
decls "$LTTNG_TEST_HOME/trace" >lttng.decls
expect_eq "$(grep -c . trax.txt)" 23 "events recorded by trax"
diff -u lttng.txt trax.txt >&2 || fail "trax and LTTng-UST record different payloads (diff above: - LTTng-UST, + trax)"
diff -u lttng.decls trax.decls >&2 || fail "trax and LTTng-UST declare the events differently (diff above: - LTTng-UST, + trax)"
ok "LTTng-UST 2.13 API names: the same $(grep -c . trax.txt) events, payloads and declarations as LTTng-UST 2.13"

# LTTNG_UST_TP_IP_PARAM: the ip context is the argument it names.
TRAX_OUTPUT="$TEST_TMP/ip" TRAX_CONTEXT=ip ./ipapp || fail "ipapp exited with status $?"
# ips TRACE: "IP N" of each ip_prov:call event.
ips() {
	bt2 "$1" | grep -F 'ip_prov:call:' | sed -n 's/.*{ ip = \([0-9]*\) }, { n = \([0-9]*\) }$/\1 \2/p' | tr '\n' ' '
}
expect_eq "$(ips "$LTTNG_TEST_HOME/ip")" "1193046 1 139642253672448 2 " "ip contexts recorded by LTTng-UST"
expect_eq "$(ips "$TEST_TMP/ip")" "$(ips "$LTTNG_TEST_HOME/ip")" "ip contexts with LTTNG_UST_TP_IP_PARAM (trax, LTTng-UST)"
ok "LTTNG_UST_TP_IP_PARAM: the ip context is the named argument, as with LTTng-UST 2.13"
