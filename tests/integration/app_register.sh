#!/bin/sh
# app_register.sh - libtrax-ust's side of the daemon protocol
# (docs/daemon.md), against a fake daemon (data/fake-traxd.c) that creates
# the channels itself, gives them to the application and reads the ring
# buffers back:
#  1. examples/hello registers: APP_HELLO, its events described field by
#     field (compared exactly below), APP_READY; its provider, registered
#     after the library, waits for APP_REGISTERED events=N: the daemon binds
#     its five events (two with ids past 30, the extended header) before
#     main() runs, and finds the five records with hello.sh's values.
#  2. A daemon whose APP_REGISTERED has no events=N (and that does not
#     answer APP_EVENTS) gets the later events all the same, and the
#     program does not wait for it.
#  3. Start-up: without a daemon, no wait; a daemon that accepts and never
#     answers delays it by TRAX_REGISTER_TIMEOUT once (or
#     LTTNG_UST_REGISTER_TIMEOUT; 0: no wait).
#  4. A long session with a looping program: records flow with the bound
#     id and the vpid/vtid contexts; the state dump; unbinding stops the
#     records and binding again resumes them; refused orders are answered
#     with their errno and leave no descriptor behind; a second channel and
#     its deletion; SIGUSR1 reaches the program's thread; a forked child
#     writes nothing into the buffers; when the daemon goes away, the records
#     stop, the program is never blocked, and it registers again with a new
#     daemon within a second or two.
#  5. A program that puts a file of its own on every descriptor number (the
#     library's too): the file holds what it wrote and nothing else, and the
#     library registers again on a new connection.
#  6. tests/unit/test_daemon_client.c under ThreadSanitizer.
. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/integration/data
cd "$TEST_TMP"

$CC $TRAX_CFLAGS -D_GNU_SOURCE -I"$TRAX_SRC/src" -o fake-traxd "$D/fake-traxd.c" \
	"$TRAX_SRC/src/common/proto.c" "$TRAX_SRC/src/common/shm.c" \
	"$TRAX_SRC/src/common/clock.c" "$TRAX_SRC/src/common/log.c" \
	"$TRAX_SRC/src/common/env.c" "$TRAX_SRC/src/common/uuid.c" \
	"$TRAX_SRC/src/ringbuf/ringbuf.c" "$TRAX_SRC/src/ringbuf/consumer.c" \
	"$TRAX_SRC/src/ringbuf/bufset.c" -lpthread
$CC $TRAX_CFLAGS -I"$D/plugins" -c "$D/plugins/tp.c" -o tp.o
$CC $TRAX_CFLAGS -I"$D/plugins" -c "$D/fake-traxd-app.c" -o app.o
$CC -o app app.o tp.o $TRAX_LDFLAGS -ltrax-ust -ldl
mkdir hello
cp "$TRAX_SRC"/examples/hello/tp.h "$TRAX_SRC"/examples/hello/tp.c \
	"$TRAX_SRC"/examples/hello/app.c "$TRAX_SRC"/examples/hello/app.h hello/
(cd hello && $CC $TRAX_CFLAGS -c -I. tp.c && $CC $TRAX_CFLAGS -c app.c &&
	$CC -o app tp.o app.o $TRAX_LDFLAGS -ltrax-ust -ldl)

# A failed check must not leave the looping program or a fake daemon behind.
APP=
DAEMON=
trap 'for p in $APP $DAEMON; do kill "$p" 2>/dev/null || true; done; rm -rf "$TEST_TMP"' EXIT INT TERM

RUN=$TEST_TMP/run
mkdir -m 700 "$RUN"
export TRAX_RUNDIR="$RUN"
unset TRAX_OUTPUT LTTNG_UST_OUTPUT TRAX_REGISTER_TIMEOUT LTTNG_UST_REGISTER_TIMEOUT || true

# start_daemon NAME ARGS...: fake-traxd in the background (NAME.out, NAME.err).
start_daemon() {
	name=$1
	shift
	./fake-traxd "$RUN" "$@" >"$name.out" 2>"$name.err" &
	DAEMON=$!
	n=0
	until grep -q '^listening$' "$name.out" 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 1000 ] || fail "fake-traxd $name did not start: $(cat "$name.err")"
		sleep 0.01
	done
}

# wait_daemon NAME: fake-traxd ended without a failed check.
wait_daemon() {
	wait "$DAEMON" || {
		cat "$1.err" >&2
		DAEMON=
		fail "fake-traxd $1: a check failed (above)"
	}
	DAEMON=
}

# expect_file ACTUAL EXPECTED WHAT
expect_file() {
	cmp -s "$1" "$2" || {
		diff -u "$2" "$1" >&2 || true
		fail "$3 (diff above: - expected, + got)"
	}
}

# startup_ms [ENV...]: the least of three start-ups of ./app, in ms.
startup_ms() {
	best=
	for _ in 1 2 3; do
		t=$(env "$@" ./app startup "$(date +%s%N)" | sed -n 's/^startup_ms=//p')
		[ -n "$t" ] || fail "./app startup printed nothing"
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	echo "$best"
}

# ---- 1. examples/hello ----------------------------------------------------------
cat >hello.expected <<'EOF'
listening
hello procname=app
ack APP_CHANNEL: 0
ack APP_BIND: 0
ack APP_BIND: 0
ack APP_BIND: 0
ack APP_BIND: 0
ack APP_BIND: 0
event my_provider:simple_event loglevel=13
field=3:argc:0:0:0:0:0:0:0:0:0:0:
field=1:argv:32:1:10:0:0:0:0:0:0:0:
event my_provider:big_event loglevel=4
field=1:int_field1:32:1:10:0:0:0:0:0:0:0:
field=1:stream_pos:64:1:16:0:0:0:0:0:0:0:
field=2:float_field:0:0:0:0:0:64:0:0:0:0:
field=3:string_field:0:0:0:0:0:0:0:0:0:0:
field=4:array_field:32:1:10:0:0:0:7:0:0:0:
field=4:array_text_field:8:1:10:0:1:0:5:0:0:0:
field=5:seq_field:32:1:10:0:0:0:0:32:0:0:
field=5:seq_text_field:8:1:10:0:1:0:0:32:0:0:
field=6:enum_field:32:1:10:0:0:0:0:0:0:0:my_enum
enum=0:0:ZERO
enum_signed=1:1
enum=1:1:ONE
enum_signed=1:1
enum=2:2:TWO
enum_signed=1:1
enum=52:125:A RANGE
enum_signed=1:1
enum=1000:1000:ONE THOUSAND
enum_signed=1:1
event my_provider:event_instance1 loglevel=13
field=1:a:32:1:10:0:0:0:0:0:0:0:
field=1:b:64:0:10:0:0:0:0:0:0:0:
field=3:c:0:0:0:0:0:0:0:0:0:0:
event my_provider:event_instance2 loglevel=6
field=1:a:32:1:10:0:0:0:0:0:0:0:
field=1:b:64:0:10:0:0:0:0:0:0:0:
field=3:c:0:0:0:0:0:0:0:0:0:0:
event my_provider:event_instance3 loglevel=13
field=1:a:32:1:10:0:0:0:0:0:0:0:
field=1:b:64:0:10:0:0:0:0:0:0:0:
field=3:c:0:0:0:0:0:0:0:0:0:0:
ready=1 registered=2
id=3 my_provider:simple_event { argc = "./app", argv = 3 }
id=40 my_provider:big_event { int_field1 = 70, stream_pos = 0xa, float_field = -3.14, string_field = "hello tracepoint", array_field = [100 -35 1 23 14 -6 28], array_text_field = "d", seq_field = (3) [100 -35 1], seq_text_field = (7) "d", enum_field = -35 }
id=4 my_provider:event_instance1 { a = 23, b = 3, c = "[the string]" }
id=31 my_provider:event_instance2 { a = 17, b = 15, c = "[other string]" }
id=5 my_provider:event_instance3 { a = -52, b = 23, c = "nothing" }
EOF
start_daemon hello hello
# The example writes /tmp/app.txt; an earlier run as another user may own it.
rm -f /tmp/app.txt
(cd hello && ./app some arguments) || fail "examples/hello exited with status $?"
rm -f /tmp/app.txt
wait_daemon hello
expect_file hello.out hello.expected "examples/hello and the fake daemon"
ok "hello: HELLO, its events described field by field, READY; bound before main; its five records"

# ---- 2. a daemon that does not answer APP_EVENTS ---------------------------------
cat >once.expected <<'EOF'
listening
hello procname=app
event plug:ev loglevel=13
field=1:n:32:1:10:0:0:0:0:0:0:0:
ready=1 registered=1
EOF
start_daemon once once
./app loop "$(date +%s%N)" >once-app.out 2>once-app.err &
APP=$!
wait_daemon once
kill -TERM "$APP"
wait "$APP" || fail "the looping program exited with status $?: $(cat once-app.err)"
APP=
expect_file once.out once.expected "a daemon without events=N"
t=$(sed -n 's/^startup_ms=//p' once-app.out)
[ "$t" -lt 1000 ] || fail "a daemon without events=N: the program waited $t ms for it"
ok "a daemon without events=N: later events described all the same, no wait (start-up $t ms)"

# ---- 3. start-up delays -----------------------------------------------------------
base=$(startup_ms TRAX_REGISTER_TIMEOUT=0)
none=$(startup_ms)
limit=100
[ -z "$TRAX_SANITIZE" ] || limit=$((base + 100))
[ "$none" -lt "$limit" ] || fail "no daemon: start-up took $none ms (limit $limit ms; $base ms without any wait)"
ok "no daemon: the program starts in $none ms ($base ms with TRAX_REGISTER_TIMEOUT=0)"

for setting in TRAX_REGISTER_TIMEOUT=700 LTTNG_UST_REGISTER_TIMEOUT=300 TRAX_REGISTER_TIMEOUT=0; do
	want=${setting#*=}
	start_daemon mute mute
	t=$(env "$setting" ./app startup "$(date +%s%N)" | sed -n 's/^startup_ms=//p')
	wait_daemon mute
	[ "$want" = 0 ] || expect_eq "$(sed -n 's/^ready=//p' mute.out)" 1 \
		"APP_READY sent to a daemon that never answers ($setting)"
	# One wait, not one per provider: the plug provider registers after the library.
	[ "$t" -ge "$want" ] && [ "$t" -lt $((want + base + 300)) ] ||
		fail "a daemon that never answers, $setting: start-up took $t ms"
	ok "a daemon that never answers, $setting: start-up took $t ms"
done

# ---- 4. a long session, then a new daemon ---------------------------------------------
cat >session.expected <<'EOF'
listening
hello procname=app
ack APP_CHANNEL: 0
ack APP_BIND: 0
recording: plug:ev records with id 7, vpid and vtid of the application
ack APP_BIND: 0
ack APP_BIND: 0
ack APP_STATEDUMP: 0
statedump: one lttng_ust_statedump:start, one :end
ack APP_UNBIND: 0
unbind: no more records
ack APP_BIND: 0
bound again: records go on
ack APP_BIND unknown handle: ENOENT
ack APP_BIND unknown event index: ENOENT
ack APP_BIND event without id: EINVAL
ack APP_BIND id past 32 bits: EINVAL
ack APP_BIND without handle: EINVAL
ack APP_UNBIND all=2: EINVAL
ack APP_CHANNEL_DEL unknown handle: ENOENT
ack unknown message type: ENOSYS
ack APP_CHANNEL handle in use: EEXIST
ack APP_CHANNEL without memory: EINVAL
ack APP_CHANNEL with two descriptors: EINVAL
ack APP_CHANNEL size too small for its buffers: EINVAL
ack APP_CHANNEL geometry unlike the memory: EINVAL
ack APP_CHANNEL num_subbuf not a power of two: EINVAL
ack APP_CHANNEL bad uuid: EINVAL
ack APP_CHANNEL unknown context: EINVAL
ack APP_CHANNEL nr_cpus=0: EINVAL
ack APP_CHANNEL blocking_timeout=-2: EINVAL
ack APP_CHANNEL size past the end of the memory: EINVAL
ack APP_CHANNEL memory that could shrink: EINVAL
refused orders: no descriptor kept
ack APP_CHANNEL second: 0
ack APP_BIND: 0
ack APP_CHANNEL_DEL: 0
channel deleted: no more records
fork: the child registered as a process of its own
fork: no record of the child
disconnected: no more records
EOF
start_daemon session session
env -u TRAX_WITHOUT_BADDR_STATEDUMP ./app loop >loop.out 2>loop.err &
APP=$!
wait_daemon session
last=$(sed -n 's/^last=//p' session.out)
sed -i '/^last=/d' session.out
expect_file session.out session.expected "the session with the looping program"
kill -0 "$APP" 2>/dev/null || fail "the program died when its daemon went away: $(cat loop.err)"
start_daemon reconnect reconnect --pid "$APP" --after "$last"
wait_daemon reconnect
expect_eq "$(sed -n 's/^reconnected within 2.5 s: //p' reconnect.out)" yes "registering again with a new daemon"
expect_eq "$(sed -n 's/^new daemon: //p' reconnect.out)" "records go on" "records with the new daemon"
kill -TERM "$APP"
wait "$APP" || fail "the looping program exited with status $?: $(cat loop.err)"
APP=
expect_eq "$(sed 's/ max_gap_ms=[0-9]*//; s/^emitted=[0-9]* //' loop.out)" "usr1=main child=ok" \
	"the program's own signal and its forked child"
gap=$(sed -n 's/.* max_gap_ms=\([0-9]*\).*/\1/p' loop.out)
[ "$gap" -lt 100 ] || fail "the program stalled $gap ms between two events"
ok "session: bind, state dump, unbind, refused orders, second channel, fork, signals"
ok "daemon gone: records stop, the program runs on (longest pause ${gap} ms), registers again"

# ---- 5. a program that closes the library's descriptors ------------------------------
$CC $TRAX_CFLAGS -fpic -I"$D/robust" -c "$D/robust/tp-probes.c" -o tp-probes.o
$CC -shared -Wl,--no-as-needed -o libprov.so tp-probes.o $TRAX_LDFLAGS -ltrax-ust
start_daemon closefds closefds
./app closefds "$TEST_TMP/file" "$TEST_TMP/libprov.so" >closefds-app.out 2>closefds-app.err &
APP=$!
wait_daemon closefds
kill -TERM "$APP"
wait "$APP" || fail "the fd-closing program exited with status $?: $(cat closefds-app.err)"
APP=
expect_eq "$(sed -n 's/^registered again within 2.5 s: //p' closefds.out)" yes \
	"registering again after the descriptors were closed"
expect_eq "$(sed -n 's/^files=//p' closefds-app.out)" ok "the program's own writes"
seq 3 63 >file.expected
cmp -s file file.expected || fail "the program's file holds other bytes than its own: $(od -c file | head -5)"
ok "descriptors closed by the program: its files untouched, registered again"

# ---- 6. the binding lists under ThreadSanitizer ---------------------------------------
# tests/unit/test_daemon_client.c fires probes in two threads while the bindings
# change 20000 times; built with -fsanitize=thread (not mixable with the
# build's own sanitizers), TSan must report nothing. The TSan set-up, as
# ringbuf_tsan.sh's: data/tsan.sh.
. "$TRAX_SRC/tests/integration/data/tsan.sh"
$CC $TSAN_CFLAGS -o test_daemon_client_tsan \
	"$TRAX_SRC/tests/unit/test_daemon_client.c" "$src"/ust/*.c "$src"/common/*.c \
	"$src"/ringbuf/*.c "$src"/writer/*.c "$src"/filter/*.c -lpthread -ldl 2>tsan-cc.err ||
	fail "cannot build test_daemon_client with -fsanitize=thread: $(head -5 tsan-cc.err)"
status=0
$TSAN_RUN ./test_daemon_client_tsan >tsan.out 2>&1 || status=$?
if [ "$status" != 0 ] || grep -q "ThreadSanitizer" tsan.out; then
	head -c 6000 tsan.out >&2
	fail "test_daemon_client under TSan: status $status"
fi
expect_contains tsan.out "test_daemon_client: all checks passed"
ok "bindings changing under running probes: clean under ThreadSanitizer${TSAN_RUN:+ (with $TSAN_RUN)}"
