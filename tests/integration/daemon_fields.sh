#!/bin/sh
# daemon_fields.sh - what a provider describes reaches the metadata intact
# through traxd (APP_EVENTS, docs/daemon.md): the provider of fields.sh
# (every field macro, enumerations with ctf_enum_auto() entries, log levels,
# TRACEPOINT_MODEL_EMF_URI) recorded by a session gives the same event
# declarations and payloads as the in-process consumer (TRAX_OUTPUT), whose
# metadata fields.sh compares with LTTng-UST's.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/fields
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$DATA" -c "$DATA/tp.c" -o tp.o
$CC $TRAX_CFLAGS -I"$DATA" -c "$DATA/app.c" -o app.o
$CC -o app tp.o app.o $TRAX_LDFLAGS -ltrax-ust -ldl

# The in-process consumer's trace (no daemon is contacted with TRAX_OUTPUT).
TRAX_OUTPUT=$TEST_TMP/embedded ./app || fail "./app (TRAX_OUTPUT) exited with status $?"

trax create fields --output="$TEST_TMP/session" >/dev/null || fail "trax create exited with $?"
trax enable-event --userspace 'fields:*' >/dev/null || fail "trax enable-event exited with $?"
trax start >/dev/null || fail "trax start exited with $?"
./app || fail "./app (traced by traxd) exited with status $?"
trax stop >/dev/null || fail "trax stop exited with $?"
trax destroy >/dev/null || fail "trax destroy exited with $?"

# decls TSDL: the fields:* event blocks without their ids.
decls() {
	event_decls "$1" fields
}
bt2 --output-format=ctf-metadata "$TEST_TMP"/embedded/ust/pid/*/ >embedded.tsdl
bt2 --output-format=ctf-metadata "$TEST_TMP"/session/ust/uid/*/64-bit >session.tsdl
decls embedded.tsdl >embedded.decls
decls session.tsdl >session.decls
[ -s embedded.decls ] || fail "no fields:* event in the TRAX_OUTPUT metadata"
diff -u embedded.decls session.decls >&2 || fail "traxd's metadata declares the events differently (diff above: - TRAX_OUTPUT, + traxd)"
# What the comparison must have covered.
expect_contains session.tsdl '	model.emf.uri = "http://example.com/model.emf#enums_auto";'
expect_contains session.tsdl '	model.emf.uri = "file:///models/pair.emf";'
expect_contains session.tsdl '			"TWENTY_ONE",'
expect_contains session.tsdl '			"TEN_TO_TWENTY" = 10 ... 20,'
ok "traxd's metadata: the same event declarations (EMF URIs, auto-numbered enumeration entries, log levels)"

payloads() {
	bt2 "$1" | payload_lines | grep '^fields:'
}
payloads "$TEST_TMP/embedded" >embedded.txt
payloads "$TEST_TMP/session" >session.txt
expect_eq "$(wc -l <session.txt)" "$(wc -l <embedded.txt)" "events of the fields provider recorded by traxd"
diff -u embedded.txt session.txt >&2 || fail "traxd's trace prints differently (diff above)"
expect_contains session.txt 'fields:enums_auto: { a_first = ( "FIRST" : container = 0 ), a_two = ( "TWO" : container = 2 ), a_twenty_one = ( "TWENTY_ONE" : container = 21 ),'
ok "traxd's trace: the same $(wc -l <session.txt) events and payloads as TRAX_OUTPUT's"
