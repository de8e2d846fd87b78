#!/bin/sh
# daemon_flow.sh - the EXAMPLE of lttng-ust(3), word for word with trax for
# lttng: `trax create my-session`, `trax enable-event --userspace
# 'my_provider:*'`, `trax start`, `./app some arguments`, `trax stop`,
# `trax view` prints the example's five events with all their values, and
# babeltrace2 prints the same from the same directory. Then destroy leaves
# no session and the daemon running.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

build_hello "$TEST_TMP/app"

trax create my-session >create.out || fail "trax create exited with $?"
expect_contains create.out "Session my-session created."
expect_contains create.out "Traces will be output to $TRAX_HOME/trax-traces/my-session-"
[ -n "$(daemon_pid)" ] || fail "trax create did not start a daemon"
trax enable-event --userspace 'my_provider:*' >enable.out || fail "trax enable-event exited with $?"
expect_contains enable.out "ust event my_provider:* created in channel channel0"
trax start >start.out || fail "trax start exited with $?"
expect_contains start.out "Tracing started for session my-session"
rm -f /tmp/app.txt
./app some arguments || fail "./app exited with status $?"
trax stop >stop.out || fail "trax stop exited with $?"
expect_contains stop.out "Tracing stopped for session my-session"

trax view >view.txt 2>view.err || {
	cat view.err >&2
	fail "trax view exited with $?"
}
expect_eq "$(wc -l <view.txt)" 5 "events printed by trax view"
sed -e 's/^\[[^]]*\] ([^)]*) [^ ]* //' -e 's/{ cpu_id = [0-9]* }, //' view.txt >payloads
cat >expected <<'EOF'
my_provider:simple_event: { argc = "./app", argv = 3 }
my_provider:big_event: { int_field1 = 70, stream_pos = 0xA, float_field = -3.14, string_field = "hello tracepoint", array_field = [ [0] = 100, [1] = -35, [2] = 1, [3] = 23, [4] = 14, [5] = -6, [6] = 28 ], array_text_field = "d", _seq_field_length = 3, seq_field = [ [0] = 100, [1] = -35, [2] = 1 ], _seq_text_field_length = 7, seq_text_field = "d", enum_field = ( <unknown> : container = -35 ) }
my_provider:event_instance1: { a = 23, b = 3, c = "[the string]" }
my_provider:event_instance2: { a = 17, b = 15, c = "[other string]" }
my_provider:event_instance3: { a = -52, b = 23, c = "nothing" }
EOF
diff expected payloads >&2 || fail "the five events differ from the example's"
ok "trax view prints the example's five events"

# the session's output, as `trax create` announced it
OUT=$(sed -n 's/^Traces will be output to //p' create.out)
[ -d "$OUT" ] || fail "no trace directory $OUT"
set -- "$OUT"/ust/uid/*/64-bit/metadata
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one per-uid trace under $OUT, found: $*"
bt2 "$OUT" >bt2.txt
[ -s "$TEST_TMP/bt2.err" ] && {
	cat "$TEST_TMP/bt2.err" >&2
	fail "babeltrace2 warned"
}
cmp bt2.txt view.txt || fail "trax view and babeltrace2 differ"
ok "babeltrace2 reads the same directory and prints the same lines"

trax destroy >destroy.out || fail "trax destroy exited with $?"
expect_contains destroy.out "Session my-session destroyed"
trax list >list.out || fail "trax list exited with $?"
expect_contains list.out "Currently no available recording session"
kill -0 "$(daemon_pid)" || fail "the daemon died"
# a name used twice, a session that does not exist: one error line, exit 1
trax create dup >/dev/null || fail "trax create dup"
if trax create dup >dup.out 2>dup.err; then fail "a second 'trax create dup' succeeded"; fi
expect_contains dup.err "dup"
if trax start -s nosuch 2>nosuch.err; then fail "trax start of a missing session succeeded"; fi
expect_eq "$(grep -c . nosuch.err)" 1 "error lines for a missing session"
ok "destroy, list, and clear errors for a name used twice and a missing session"

# no name: an automatic one, auto-YYYYmmdd-HHMMSS, whose trace directory
# under ~/trax-traces is the name itself (the date once), as with LTTng
trax create >auto.out || fail "trax create without a name exited with $?"
name=$(sed -n 's/^Session \(auto-[0-9]\{8\}-[0-9]\{6\}\) created\.$/\1/p' auto.out)
[ -n "$name" ] || fail "trax create without a name: $(cat auto.out)"
expect_eq "$(sed -n 's/^Traces will be output to //p' auto.out)" "$TRAX_HOME/trax-traces/$name" \
	"the automatic session's output"
trax destroy "$name" >/dev/null || fail "trax destroy $name"
ok "trax create without a name: $name, output under ~/trax-traces/$name"
