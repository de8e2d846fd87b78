#!/bin/sh
# daemon_faults.sh - faults in daemon mode (issue 4).
#
# 1. An application that crashes loses none of its committed events: with
#    per-user buffers and with --buffers-pid, a program emits N events and
#    dies by SIGKILL or abort() (no exit handler runs); after `trax stop`
#    the trace holds exactly its N events, in order, and the next program
#    of the same user, run on the same CPU into the same per-uid buffers
#    (the crashed one left a packet open there), has all of its events
#    recorded too. Babeltrace 2 reads the traces without a warning.
# 2. One misbehaving client cannot crash the daemon: random bytes, wrong
#    magic or version, payloads above 4 MiB, half a payload, strings
#    without NUL, malformed event descriptions after a valid APP_HELLO,
#    up to 250 descriptors, connections left idle, on client.sock and
#    app.sock (tests/integration/data/daemon/garbage-client.c); after
#    each, the daemon lives, has closed every descriptor it received, and
#    answers `trax list`; at the end a session records a normal
#    application correctly while garbage keeps coming.
# 3. What a misbehaving peer must not do either, though the daemon lives:
#    hold it up (idle client connections, application headers without
#    their payload, idle connections past its descriptor limit, one 4 MiB
#    description), or make the user's per-uid trace unreadable (an event
#    description no reader takes); and a crash in the middle of a record
#    (a fault while the probe copies an argument: the record stays
#    reserved, never committed) must lose neither the program's committed
#    events nor, in per-uid buffers, the next program's. These checks are
#    reported one by one, the others still run, and the test fails at the
#    end.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/daemon
N=20000
# sanitizer reports (this tree's daemon runs detached) in files, by pid
export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$TEST_TMP/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$TEST_TMP/sanitizer"
cd "$TEST_TMP"
ulimit -c 0 2>/dev/null || true # the crashes leave no core files
$CC $TRAX_CFLAGS -I"$DATA" -o crasher "$DATA/crasher.c" "$DATA/crasher_tp.c" "$DATA/ticker_tp.c" \
	$TRAX_LDFLAGS -ltrax-ust -ldl
$CC $TRAX_CFLAGS -I"$DATA" -o ticker "$DATA/ticker.c" "$DATA/ticker_tp.c" $TRAX_LDFLAGS \
	-ltrax-ust -ldl
$CC $TRAX_CFLAGS -o garbage-client "$DATA/garbage-client.c" $TRAX_LDFLAGS

# Every program on one CPU: the next one writes into the very buffer (and
# the open packet) the crashed one left.
PIN=
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	PIN="taskset -c 0"
fi

# The checks of a fault the daemon survives: reported now, failed at the end.
FAILED=$TEST_TMP/failed
: >"$FAILED"
fail_later() {
	echo "FAIL: $*" >&2
	echo "$*" >>"$FAILED"
}

# A second daemon (the descriptor check), stopped at the end too.
RUN2=$TEST_TMP/run2
daemon2_stop() {
	[ -f "$RUN2/traxd.lock" ] || return 0
	_p=$(head -n 1 "$RUN2/traxd.lock")
	[ -n "$_p" ] && kill -TERM "$_p" 2>/dev/null || return 0
	for _i in $(seq 50); do
		kill -0 "$_p" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$_p" 2>/dev/null || true
}
# The background clients this test starts, ended at exit whatever happens.
BG=
bg_stop() {
	for _p in $BG; do
		kill "$_p" 2>/dev/null || true
	done
}
trap 'bg_stop; daemon2_stop; daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM

# in_order TRACE_TEXT PROG COUNT: the ticker:tick events of PROG in
# babeltrace2's output are seq 0 .. COUNT-1, each once, in order; else
# prints what differs and returns 1.
in_order() {
	sed -n "s/.*ticker:tick: .*{ seq = \([0-9]*\), prog = $2 }\$/\1/p" "$1" |
		awk -v n="$3" 'NR == 1 { first = $1 } { last = $1; if ($1 != NR - 1) bad++ }
		END { if (NR != n || bad) {
			printf "%d events of %d, %d out of place (first seq %s, last %s)\n",
				NR, n, bad, first, last; exit 1 } }'
}

# crash PROG HOW: runs crasher, which emits N events then dies HOW.
crash() {
	rc=0
	$PIN ./crasher "$N" "$2" "$1" "$TEST_TMP/exit-handler-ran" >"crash-$1.out" 2>"crash-$1.err" ||
		rc=$?
	[ "$rc" -ne 0 ] || fail "crasher $2 exited with status 0"
	[ ! -e "$TEST_TMP/exit-handler-ran" ] || fail "crasher $2: an exit handler ran"
	expect_eq "$(cat "crash-$1.out")" "$N" "events crasher $2 emitted before it died"
}

# session NAME [--buffers-pid]: a started session recording ticker:* and
# crasher:* in one channel of 32 sub-buffers of 64 KiB (the N events of a
# program span several packets and all fit, whatever the consumer does).
session() {
	trax create "$1" --output="$TEST_TMP/$1" >/dev/null || fail "trax create $1"
	trax enable-channel -u ${2:-} --subbuf-size=64k --num-subbuf=32 chan >/dev/null ||
		fail "trax enable-channel in $1"
	trax enable-event -u -c chan 'ticker:*,crasher:*' >/dev/null || fail "trax enable-event in $1"
	trax start >/dev/null || fail "trax start $1"
}

# read_trace NAME: babeltrace2's text of the session's trace in NAME.txt,
# which it must read without a warning.
read_trace() {
	bt2 "$TEST_TMP/$1" >"$1.txt"
	if [ -s "$TEST_TMP/bt2.err" ]; then
		cat "$TEST_TMP/bt2.err" >&2
		fail "babeltrace2 warned reading the trace of $1"
	fi
}

# soft_read NAME: babeltrace2's text of the trace in NAME.txt; a trace it
# cannot read (or that is not there) is reported, and counts as empty.
soft_read() {
	: >"$1.txt"
	if [ ! -d "$TEST_TMP/$1" ]; then
		fail_later "$1: no trace at all"
	elif ! babeltrace2 "$TEST_TMP/$1" >"$1.txt" 2>"$1.err"; then
		fail_later "$1: babeltrace2 cannot read the trace: $(grep -m 1 -i 'error' "$1.err")"
	fi
}

# ---- 1. crashes between two events ----

session crash-uid
session crash-pid --buffers-pid
crash 1 kill
crash 2 abort
$PIN ./ticker "$N" 0 "" 3 >ticker-3.out || fail "ticker exited with status $?"
trax stop crash-uid >/dev/null || fail "trax stop crash-uid"
trax stop crash-pid >/dev/null || fail "trax stop crash-pid"

read_trace crash-uid
for p in 1 2 3; do
	in_order crash-uid.txt $p "$N" >order.txt || fail "per-uid trace, program $p: $(cat order.txt)"
done
expect_eq "$(trax view --count "$TEST_TMP/crash-uid")" "$((3 * N)) events" "trax view --count, per-uid"
ok "per-uid buffers: SIGKILL and abort() lose none of the $N committed events; the next program's are all there"

read_trace crash-pid
expect_eq "$(ls "$TEST_TMP/crash-pid/ust/pid" | wc -l)" 3 "per-process traces"
for p in 1 2 3; do
	in_order crash-pid.txt $p "$N" >order.txt || fail "per-process trace, program $p: $(cat order.txt)"
done
expect_eq "$(trax view --count "$TEST_TMP/crash-pid")" "$((3 * N)) events" "trax view --count, per-process"
ok "per-process buffers: SIGKILL and abort() lose none of the $N committed events"
trax destroy --all >/dev/null || fail "trax destroy --all"

# ---- 2. misbehaving clients ----

DPID=$(daemon_pid)
[ -n "$DPID" ] || fail "no daemon"
nfds() { ls "/proc/$DPID/fd" | wc -l; }
FDS=$(nfds)

# lives WHAT: the daemon is still there (else its sanitizer report, if any);
# a zombie does not count (where nothing reaps orphans, kill -0 succeeds on one).
lives() {
	_st=$(cut -d ' ' -f 3 "/proc/$DPID/stat" 2>/dev/null || true)
	kill -0 "$DPID" 2>/dev/null && [ -n "$_st" ] && [ "$_st" != Z ] && [ "$_st" != X ] || {
		cat "$TEST_TMP/sanitizer.$DPID" >&2 2>/dev/null || true
		fail "the daemon died: $1"
	}
}

# alive WHAT: the daemon lives, answers, and has closed what it received.
alive() {
	lives "$1"
	trax list >list.out 2>&1 || {
		cat list.out >&2
		fail "trax list failed after: $1"
	}
	_i=0
	while [ "$(nfds)" -ne "$FDS" ]; do
		_i=$((_i + 1))
		[ $_i -le 50 ] || fail "the daemon holds $(nfds) descriptors, $FDS before: $1"
		sleep 0.1
	done
}

# garbage CASE [ARG...]: runs the case; its report in CASE.out.
garbage() {
	_c=$1
	shift
	_rc=0
	./garbage-client "$TRAX_RUNDIR" "$_c" "$@" >"$_c.out" 2>"$_c.err" || _rc=$?
	if [ $_rc -ne 0 ]; then
		lives "during $_c"
		cat "$_c.err" >&2
		fail "garbage-client $_c exited with status $_rc"
	fi
}

# refused CASE SOCK: every message of the case was answered with an error
# (client.sock) or ended the connection.
refused() {
	[ -s "$1.out" ] || fail "$1: no report"
	if [ "$2" = client ]; then
		bad=$(grep -cv ': reply status=E[A-Z]*$\|: closed by the daemon$' "$1.out" || true)
	else
		bad=$(grep -cv ': closed by the daemon$' "$1.out" || true)
	fi
	[ "$bad" -eq 0 ] || {
		cat "$1.out" >&2
		fail "$1: $bad messages were not refused"
	}
}

for sock in client app; do
	for c in random magic huge nonul; do
		garbage $c-$sock
		refused $c-$sock $sock
		alive "$c-$sock"
	done
	garbage half-$sock
	alive "half-$sock"
	garbage fds-$sock
	alive "fds-$sock (descriptors)"
	# a valid message carrying up to 16 descriptors is served, more are refused
	expect_eq "$(grep -c 'valid message with descriptors: reply \(status=0\|events=0\)$' fds-$sock.out)" 2 \
		"fds-$sock: valid messages with 1 and 16 descriptors served"
	expect_eq "$(grep -c 'valid message with descriptors: \(reply status=EPROTO\|closed by the daemon\)$' \
		fds-$sock.out)" 3 "fds-$sock: messages with 17, 64, 250 descriptors refused"
	expect_eq "$(grep -c 'broken header with descriptors: \(reply status=EPROTO\|closed by the daemon\)$' \
		fds-$sock.out)" 5 "fds-$sock: broken headers with descriptors refused"
done
ok "random bytes, wrong magic and version, payloads above 4 MiB, half payloads, strings without NUL, 1 to 250 descriptors: refused, nothing leaked, the daemon answers"

garbage events
n=$(grep -c '^bad event description:' events.out)
[ "$n" -ge 40 ] || fail "events: only $n malformed descriptions reported"
expect_eq "$(grep -c '^bad event description: closed by the daemon$' events.out)" "$n" \
	"malformed event descriptions that ended the connection"
expect_contains events.out "valid event description: reply events=1"
alive "malformed APP_EVENTS"
ok "$n malformed event descriptions after a valid APP_HELLO each end their connection; a valid one is taken"

for c in big-enum big-events; do
	garbage $c 1000
	expect_contains $c.out "$c: reply events="
	alive "$c"
done
garbage big-fields 4
expect_contains big-fields.out "big-fields: reply events=4"
alive "big-fields"
ok "large valid descriptions (1000 events, 1000 enum mappings, 4 events of 1024 fields) are taken"

# held_answer CASE ARG LIMIT WHAT: while the case holds its connections,
# `trax list` must answer within LIMIT seconds; then they are released.
held_answer() {
	rm -f release
	GARBAGE_RELEASE=$TEST_TMP/release ./garbage-client "$TRAX_RUNDIR" "$1" "$2" >"$1.out" 2>&1 &
	_g=$!
	BG="$BG $_g"
	_i=0
	until grep -q 'idle connections' "$1.out"; do
		_i=$((_i + 1))
		[ $_i -le 100 ] || fail "$1: the connections were not opened"
		sleep 0.1
	done
	if ! timeout "$3" trax list >/dev/null 2>&1; then
		fail_later "$(cat "$1.out"): trax list got no answer within $3 s ($4)"
	fi
	touch release
	wait $_g || fail "garbage-client $1 exited with status $?"
	alive "$1 $2"
}
held_answer idle-app 200 5 "idle application connections"
ok "200 idle connections to app.sock: the daemon answers meanwhile"
held_answer idle-client 3 8 "each idle client connection holds the daemon's only thread for 5 s"

# application connections that sent a header and not its payload: a new
# application still registers in time (it waits 3 s at most, then runs
# untraced) and its events are recorded
session stalled
rm -f release
GARBAGE_RELEASE=$TEST_TMP/release ./garbage-client "$TRAX_RUNDIR" stall-app 3 >stall-app.out 2>&1 &
g=$!
BG="$BG $g"
i=0
until grep -q 'idle connections' stall-app.out; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "stall-app: the connections were not opened"
	sleep 0.1
done
sleep 0.5
$PIN ./ticker 1000 0 "" 7 >/dev/null || fail "ticker exited with status $?"
touch release
wait $g || fail "garbage-client stall-app exited with status $?"
trax stop >/dev/null || fail "trax stop stalled"
soft_read stalled
in_order stalled.txt 7 1000 >order.txt ||
	fail_later "an application started while 3 application connections had sent a header without its payload: $(cat order.txt) (each such header holds the daemon's only thread for 5 s, longer than the 3 s an application waits to register)"
trax destroy >/dev/null || fail "trax destroy stalled"
alive "stall-app 3"

# idle connections beyond the daemon's descriptors: the user's commands still get through
(ulimit -n 64 && exec "$TRAX_BUILD/traxd" --daemonize --rundir="$RUN2") || fail "a second traxd"
rm -f release
GARBAGE_RELEASE=$TEST_TMP/release ./garbage-client "$RUN2" idle-app 100 >exhaust.out 2>&1 &
g=$!
BG="$BG $g"
i=0
until grep -q 'idle connections' exhaust.out; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "the idle connections to the second daemon were not opened"
	sleep 0.1
done
if ! TRAX_RUNDIR=$RUN2 TRAX_NO_AUTOSTART=1 timeout 5 trax list >/dev/null 2>&1; then
	fail_later "$(cat exhaust.out) of a daemon limited to 64 descriptors: trax list got no answer within 5 s (descriptors exhausted: accept fails, and the daemon spins on its listening socket)"
fi
touch release
wait $g || fail "garbage-client idle-app (second daemon) exited with status $?"
TRAX_RUNDIR=$RUN2 TRAX_NO_AUTOSTART=1 timeout 10 trax list >/dev/null 2>&1 ||
	fail "the second daemon does not answer once the idle connections are closed"
daemon2_stop

# One 4 MiB description (1024 enum fields of 65535 mappings at most, as
# many as fit) is bounded in size: the work on it must be too. (Not under
# the sanitizers: their realloc() copies every time.)
if [ -z "$TRAX_SANITIZE" ]; then
	./garbage-client "$TRAX_RUNDIR" big-enums 1024 >big-enums.out 2>&1 &
	g=$!
	BG="$BG $g"
	sleep 0.5
	if ! timeout 5 trax list >/dev/null 2>&1; then
		fail_later "one 4 MiB APP_EVENTS of enum mappings kept the daemon from answering for more than 5 s"
	fi
	wait $g || fail "garbage-client big-enums exited with status $?"
	alive "a 4 MiB description"
fi

# poison NAME KV...: an application describing an event so must not make
# the per-uid trace of the user's other applications unreadable.
poison() {
	_name=$1
	shift
	trax create "poison-$_name" --output="$TEST_TMP/poison-$_name" >/dev/null || fail "trax create"
	trax enable-event -u -a >/dev/null || fail "trax enable-event -a"
	trax start >/dev/null || fail "trax start"
	garbage register event=0 "name=garbage:$_name" "$@"
	$PIN ./ticker 100 0 "" 9 >/dev/null || fail "ticker exited with status $?"
	trax stop >/dev/null || fail "trax stop"
	trax destroy >/dev/null || fail "trax destroy"
	if babeltrace2 "$TEST_TMP/poison-$_name" >poison.txt 2>poison.err; then
		in_order poison.txt 9 100 >order.txt ||
			fail_later "after an application described $*: $(cat order.txt)"
	else
		fail_later "after an application described $*, babeltrace2 cannot read the per-uid trace of the user's applications: $(grep -v 'precondition not satisfied\|Aborting' poison.err | sed -n '1s/.*@[^ ]* //p')"
	fi
	alive "poison $_name"
}
poison dup_fields "field=1:a:32:1:10:0:0:0:0:0:0:0:" "field=1:a:64:1:10:0:0:0:0:0:0:0:"
poison enum_range "field=6:e:32:1:10:0:0:0:0:0:0:0:en" "enum=5:1:X"

# a real session records a normal application while garbage keeps coming
trax create after --output="$TEST_TMP/after" >/dev/null || fail "trax create after"
trax enable-event -u 'ticker:*' >/dev/null || fail "trax enable-event"
trax start >/dev/null || fail "trax start"
./garbage-client "$TRAX_RUNDIR" events >/dev/null 2>&1 &
g1=$!
./garbage-client "$TRAX_RUNDIR" random-app >/dev/null 2>&1 &
g2=$!
BG="$BG $g1 $g2"
$PIN ./ticker "$N" 0 "" 8 >/dev/null || fail "ticker exited with status $?"
wait $g1 $g2 || true
trax stop >/dev/null || fail "trax stop after"
read_trace after
in_order after.txt 8 "$N" >order.txt || fail "the normal application among garbage: $(cat order.txt)"
trax destroy >/dev/null || fail "trax destroy after"
alive "the garbage around a session"
ok "after all that, a session records a normal application's $N events, in order"

# ---- 3. a crash in the middle of a record ----

# per-uid: the program's committed events, and the next program's
session record-uid
crash 4 record
$PIN ./ticker "$N" 0 "" 5 >/dev/null || fail "ticker exited with status $?"
timeout 20 trax stop >/dev/null || fail "trax stop record-uid"
soft_read record-uid
in_order record-uid.txt 4 "$N" >order.txt ||
	fail_later "per-uid buffers, crash in the middle of a record: the program's committed events: $(cat order.txt)"
in_order record-uid.txt 5 "$N" >order.txt ||
	fail_later "per-uid buffers, crash in the middle of a record: the NEXT program's events (same CPU): $(cat order.txt)"
trax destroy >/dev/null || fail "trax destroy record-uid"

# per-process
session record-pid --buffers-pid
crash 6 record
timeout 20 trax stop >/dev/null || fail "trax stop record-pid"
soft_read record-pid
in_order record-pid.txt 6 "$N" >order.txt ||
	fail_later "per-process buffers, crash in the middle of a record: the program's committed events: $(cat order.txt)"
trax destroy >/dev/null || fail "trax destroy record-pid"

# overwrite mode, per-uid: the packet the crash left incomplete can never
# complete (overwrite mode has no repair) and is lost, with the next
# program's first events in it; at stop (flushed and settled) the packets
# after it are written all the same: the next program's events end with
# its last one, without a gap
session record-ow --overwrite
crash 7 record
$PIN ./ticker "$N" 0 "" 8 >/dev/null || fail "ticker exited with status $?"
timeout 20 trax stop >/dev/null || fail "trax stop record-ow"
soft_read record-ow
sed -n 's/.*ticker:tick: .*{ seq = \([0-9]*\), prog = 8 }$/\1/p' record-ow.txt |
	awk -v n="$N" 'NR == 1 { first = $1 } { if ($1 != first + NR - 1) bad++; last = $1 }
		END { if (!NR || bad || last != n - 1) {
			printf "%d events, %d out of place, last seq %s\n", NR, bad, last; exit 1 } }' \
	>order.txt ||
	fail_later "overwrite mode, crash in the middle of a record: the NEXT program's events: $(cat order.txt)"
trax destroy >/dev/null || fail "trax destroy record-ow"
alive "crashes in the middle of a record"

if [ -s "$FAILED" ]; then
	echo "--- $(wc -l <"$FAILED") check(s) failed:" >&2
	cat "$FAILED" >&2
	exit 1
fi
ok "a crash in the middle of a record spoils nothing; idle and stalled connections, descriptor exhaustion and large descriptions do not hold the daemon up; no description spoils a shared trace"
