#!/bin/sh
# daemon_statedump.sh - the state dump in sessions, as LTTng 2.13 records it
# (checked with its session daemon: statedump_lttng.sh compares the two):
#
#  1. a program that registers while a session is started records
#     lttng_ust_statedump:start, procname, bin_info/build_id/debug_link,
#     end into it, once, before its own events; with the ip and vpid
#     contexts, babeltrace2 --debug-info resolves the program's and its
#     library's events to their function and source line;
#  2. a session that starts records the dump of the programs already
#     registered, into its own channels only (not into another session
#     already started, nor into a session whose rules do not enable the
#     state dump's events), and again at each start;
#  3. TRAX_WITHOUT_PROCNAME_STATEDUMP and LTTNG_UST_WITHOUT_BADDR_STATEDUMP
#     in the program's environment;
#  4. libtrax-ust-dl.so preloaded: lttng_ust_dl:dlopen/build_id/dlclose and
#     lttng_ust_lib:load/build_id/unload for the libraries the program
#     loads and unloads, with which --debug-info resolves an event of a
#     library loaded after the state dump (not resolved without it); only
#     where enabled;
#  5. two threads dlopen() and dlclose() a library in a loop while the
#     session is stopped and started (each start a state dump on the
#     daemon thread): the program ends normally, no deadlock;
#  6. a child of fork() registers anew and records its own state dump
#     (LTTng-UST's child does with liblttng-ust-fork.so), before its event.
# Sources: tests/integration/data/statedump/.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

D=$TRAX_SRC/tests/integration/data/statedump
B=$(cd "$TEST_TMP" && pwd -P)/bin
mkdir -p "$B"
cd "$TEST_TMP"
for tool in babeltrace2 objcopy timeout; do
	command -v $tool >/dev/null 2>&1 || fail "$tool is needed"
done
unset TRAX_WITHOUT_BADDR_STATEDUMP TRAX_WITHOUT_PROCNAME_STATEDUMP \
	LTTNG_UST_WITHOUT_BADDR_STATEDUMP LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP 2>/dev/null || :
# A preloaded library comes before the sanitizer's runtime.
export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"

# ---- Build ---------------------------------------------------------------
. "$D/build.sh"
# (-rdynamic: the dlopen()ed library's call sites refer to the program's
# provider, as with LTTng-UST)
$CC $TRAX_CFLAGS -rdynamic -Wl,--build-id -I"$D" "$D/dlapp.c" "$B/tp.o" -o "$B/dlapp" \
	$TRAX_LDFLAGS -ltrax-ust -ldl -lpthread || fail "cannot build dlapp"
$CC $TRAX_CFLAGS -fPIC -shared -Wl,--build-id -I"$D" "$D/dllib.c" -o "$B/libsddl.so" \
	$TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build libsddl.so"
$CC $TRAX_CFLAGS -fPIC -shared -Wl,--build-id "$D/plain.c" -o "$B/libsdplain.so" ||
	fail "cannot build libsdplain.so"
$CC $TRAX_CFLAGS -Wl,--build-id -I"$D" "$D/forkapp.c" "$B/tp.o" -o "$B/forkapp" \
	$TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build forkapp"
DL=$TRAX_BUILD/libtrax-ust-dl.so

APP_LINE=$(grep -n 'APP-TRACEPOINT-LINE' "$D/app.c" | cut -d: -f1)
LIB_LINE=$(grep -n 'LIB-TRACEPOINT-LINE' "$D/lib.c" | cut -d: -f1)
DLLIB_LINE=$(grep -n 'DLLIB-TRACEPOINT-LINE' "$D/dllib.c" | cut -d: -f1)

# session NAME ENABLE-EVENT-ARGS...: a session writing to $TEST_TMP/NAME,
# those events, the ip and vpid contexts.
session() {
	name=$1
	shift
	trax create "$name" --output="$TEST_TMP/$name" >/dev/null || fail "trax create $name"
	trax enable-event -u -s "$name" "$@" >/dev/null || fail "trax enable-event -s $name $*"
	trax add-context -u -s "$name" -t ip -t vpid >/dev/null || fail "trax add-context -s $name"
}

# text NAME [OPTIONS]: babeltrace2's text of session NAME's trace, in NAME.txt
# (NAME.di.txt with --debug-info).
text() {
	bt2 "$TEST_TMP/$1" >"$1.txt"
	bt2 --debug-info "$TEST_TMP/$1" >"$1.di.txt"
}

# of FILE PID: the lines of FILE recorded by process PID.
of() {
	grep -E "vpid = $2[^0-9]" "$1" || :
}

# names FILE PID: the state dump events of PID, in order, repeated names once.
names() {
	of "$1" "$2" | grep -F 'lttng_ust_statedump:' |
		sed 's/.* lttng_ust_statedump:\([a-z_]*\): .*/\1/' | uniq | tr '\n' ' '
}

# count FILE PID STRING: lines of PID holding STRING.
count() {
	of "$1" "$2" | grep -cF -- "$3" || :
}

# wait_ok PID WHAT: the background command PID ended with status 0.
wait_ok() {
	wait "$1" || fail "$2 exited with status $?"
}

# ---- 1. Registration into a started session ------------------------------
session reg -a
trax start reg >/dev/null || fail "trax start reg"
"$B/app" >app.out 2>app.err &
PID=$!
wait_ok $PID "app"
trax stop reg >/dev/null || fail "trax stop reg"
text reg
expect_eq "$(count reg.txt $PID 'lttng_ust_statedump:start:')" 1 "state dumps of the program"
set -- $(names reg.txt $PID)
expect_eq "$1 $2" "start procname" "first state dump events"
eval "last=\${$#}"
expect_eq "$last" end "last state dump event"
of reg.txt $PID | grep -F 'lttng_ust_statedump:procname:' | grep -qF '{ procname = "app" }' ||
	fail "procname event: $(of reg.txt $PID | grep -F 'statedump:procname')"
for path in "$B/app" "$B/libsdtest.so"; do
	expect_eq "$(count reg.txt $PID "path = \"$path\",")" 1 "bin_info events of $path"
done
# The state dump comes before the program's events: it is done at registration.
first_own=$(of reg.txt $PID | grep -n 'sdtest:where:' | head -n 1 | cut -d: -f1)
end_at=$(of reg.txt $PID | grep -n 'lttng_ust_statedump:end:' | cut -d: -f1)
[ -n "$first_own" ] && [ "$end_at" -lt "$first_own" ] ||
	fail "the state dump does not precede the program's events (end at $end_at, first event at $first_own)"
ok "a program registering into a started session records its state dump first, once"

line=$(of reg.di.txt $PID | grep -F 'sdtest:where:' | grep -F 'from = "program"')
case $line in
*'debug_info = { bin = "app+0x'*'", func = "emit_from_program+0x'*'", src = "app.c:'"$APP_LINE"'" }'*) ;;
*) fail "program event not resolved to emit_from_program at app.c:$APP_LINE: $line" ;;
esac
line=$(of reg.di.txt $PID | grep -F 'sdtest:where:' | grep -F 'from = "library"')
case $line in
*'debug_info = { bin = "libsdtest.so+0x'*'", func = "sdlib_work+0x'*'", src = "lib.c:'"$LIB_LINE"'" }'*) ;;
*) fail "library event not resolved to sdlib_work at lib.c:$LIB_LINE: $line" ;;
esac
ok "babeltrace2 --debug-info: emit_from_program at app.c:$APP_LINE, sdlib_work at lib.c:$LIB_LINE"

# ---- 2. Sessions that start: their own channels, each start ----------------
session all -a
session dumponly 'lttng_ust_statedump:*'
session other 'sdtest:*'
trax start all >/dev/null || fail "trax start all"
"$B/dlapp" wait "$TEST_TMP/go" >wait.out 2>wait.err &
PID=$!
for _ in $(seq 300); do
	grep -q ready wait.out 2>/dev/null && break
	sleep 0.05
done
grep -q ready wait.out || fail "dlapp did not start: $(cat wait.err)"
trax start dumponly >/dev/null || fail "trax start dumponly"
trax start other >/dev/null || fail "trax start other"
# The programs record their state dump once their daemon thread has the
# order, which `trax start` does not wait for: give it time before stopping.
sleep 1
trax stop dumponly >/dev/null || fail "trax stop dumponly"
trax start dumponly >/dev/null || fail "trax start dumponly again"
sleep 1
touch "$TEST_TMP/go"
wait_ok $PID "dlapp wait"
for s in all dumponly other; do
	trax stop "$s" >/dev/null || fail "trax stop $s"
	text "$s"
done
expect_eq "$(names all.txt $PID | sed 's/bin_info.*end/.../')" "start procname ... " \
	"the state dump in the session started first"
expect_eq "$(count all.txt $PID 'lttng_ust_statedump:start:')" 1 \
	"state dumps in the session started first (others started later)"
expect_eq "$(count dumponly.txt $PID 'lttng_ust_statedump:start:')" 2 \
	"state dumps in the session started twice"
expect_eq "$(count dumponly.txt $PID 'lttng_ust_statedump:end:')" 2 \
	"state dump ends in the session started twice"
expect_eq "$(count dumponly.txt $PID 'lttng_ust_statedump:procname:')" 2 \
	"procname events in the session started twice"
expect_eq "$(count dumponly.txt $PID 'sdtest:')" 0 "sdtest events where only the state dump is enabled"
expect_eq "$(count other.txt $PID 'lttng_ust_statedump:')" 0 \
	"state dump events in a session that does not enable them"
expect_eq "$(count other.txt $PID 'sdtest:where:')" 1 "sdtest events in that session"
ok "each start records the state dump of the registered program, into that session only"

# ---- 3. The variables ----------------------------------------------------
session vars -a
trax start vars >/dev/null || fail "trax start vars"
TRAX_WITHOUT_PROCNAME_STATEDUMP=1 "$B/app" >/dev/null &
P1=$!
wait_ok $P1 "app without procname"
LTTNG_UST_WITHOUT_BADDR_STATEDUMP=1 "$B/app" >/dev/null &
P2=$!
wait_ok $P2 "app without objects"
LTTNG_UST_WITHOUT_BADDR_STATEDUMP=1 TRAX_WITHOUT_PROCNAME_STATEDUMP=1 "$B/app" >/dev/null &
P3=$!
wait_ok $P3 "app without state dump"
trax stop vars >/dev/null || fail "trax stop vars"
text vars
set -- $(names vars.txt $P1)
expect_eq "$1" start "first event without procname"
expect_eq "$(count vars.txt $P1 'lttng_ust_statedump:procname:')" 0 "procname events with TRAX_WITHOUT_PROCNAME_STATEDUMP"
[ "$(count vars.txt $P1 'lttng_ust_statedump:bin_info:')" -gt 2 ] || fail "no objects without procname"
expect_eq "$(names vars.txt $P2)" "start procname end " "state dump with LTTNG_UST_WITHOUT_BADDR_STATEDUMP"
expect_eq "$(count vars.txt $P3 'lttng_ust_statedump:')" 0 "state dump events with both"
expect_eq "$(count vars.txt $P3 'sdtest:where:')" 2 "program events with both"
ok "TRAX_WITHOUT_PROCNAME_STATEDUMP, LTTNG_UST_WITHOUT_BADDR_STATEDUMP, both"

# ---- 4. libtrax-ust-dl.so -------------------------------------------------
[ -f "$DL" ] || fail "no $DL"
session dl -a
session dlnone 'sdtest:*'
trax start dl >/dev/null || fail "trax start dl"
trax start dlnone >/dev/null || fail "trax start dlnone"
LD_PRELOAD=$DL "$B/dlapp" dlopen "$B/libsddl.so" "$B/libsdplain.so" >/dev/null 2>dl.err &
PID=$!
wait_ok $PID "dlapp dlopen (preloaded)"
"$B/dlapp" dlopen "$B/libsddl.so" "$B/libsdplain.so" >/dev/null 2>nodl.err &
NOPRE=$!
wait_ok $NOPRE "dlapp dlopen"
for s in dl dlnone; do
	trax stop "$s" >/dev/null || fail "trax stop $s"
	text "$s"
done

# field VALUE-NAME LINE: the value of one field of an event line.
field() {
	echo "$2" | sed -n "s/.*[{ ]$1 = \\([^,}]*\\).*/\\1/p"
}
for lib in libsddl.so libsdplain.so; do
	open=$(of dl.txt $PID | grep -F 'lttng_ust_dl:dlopen:' | grep -F "path = \"$B/$lib\",")
	[ -n "$open" ] || fail "no lttng_ust_dl:dlopen event for $lib"
	case $open in
	*', flags = 0x2, path = "'"$B/$lib"'", has_build_id = 1, has_debug_link = 0 }') ;;
	*) fail "lttng_ust_dl:dlopen of $lib: $open" ;;
	esac
	baddr=$(field baddr "$open")
	load=$(of dl.txt $PID | grep -F 'lttng_ust_lib:load:' | grep -F "path = \"$B/$lib\",")
	expect_eq "$(field baddr "$load")" "$baddr" "lttng_ust_lib:load baddr of $lib"
	expect_eq "$(field memsz "$load")" "$(field memsz "$open")" "lttng_ust_lib:load memsz of $lib"
	expect_eq "$(of dl.txt $PID | grep -F 'lttng_ust_dl:build_id:' | grep -cF "baddr = $baddr,")" 1 \
		"lttng_ust_dl:build_id events of $lib"
	expect_eq "$(of dl.txt $PID | grep -F 'lttng_ust_lib:build_id:' | grep -cF "baddr = $baddr,")" 1 \
		"lttng_ust_lib:build_id events of $lib"
	expect_eq "$(of dl.txt $PID | grep -F 'lttng_ust_dl:dlclose:' | grep -cF "{ baddr = $baddr }")" 1 \
		"lttng_ust_dl:dlclose events of $lib"
	# The dlopen event's ip is the program's call.
	line=$(of dl.di.txt $PID | grep -F 'lttng_ust_dl:dlopen:' | grep -F "path = \"$B/$lib\",")
	case $line in
	*'func = "open_and_call+0x'*) ;;
	*) fail "lttng_ust_dl:dlopen of $lib not located in open_and_call: $line" ;;
	esac
done
# libsdplain.so has no provider: dlclose unloads it.
plain_baddr=$(field baddr "$(of dl.txt $PID | grep -F 'lttng_ust_lib:load:' | grep -F 'libsdplain.so')")
expect_eq "$(of dl.txt $PID | grep -F 'lttng_ust_lib:unload:' | grep -cF "{ baddr = $plain_baddr }")" 1 \
	"lttng_ust_lib:unload events of libsdplain.so"
ok "lttng_ust_dl:dlopen/build_id/dlclose and lttng_ust_lib:load/build_id/unload, located at the caller"

line=$(of dl.di.txt $PID | grep -F 'sdtest:where:' | grep -F 'from = "dlopened"')
case $line in
*'debug_info = { bin = "libsddl.so+0x'*'", func = "sddl_work+0x'*'", src = "dllib.c:'"$DLLIB_LINE"'" }'*) ;;
*) fail "event of the dlopen()ed library not resolved to sddl_work at dllib.c:$DLLIB_LINE: $line" ;;
esac
line=$(of dl.di.txt $NOPRE | grep -F 'sdtest:where:' | grep -F 'from = "dlopened"')
case $line in
*'debug_info = { bin = "", func = "", src = "" }'*) ;;
*) fail "without libtrax-ust-dl.so the library loaded after the state dump should not resolve: $line" ;;
esac
expect_eq "$(count dl.txt $NOPRE 'lttng_ust_dl:') $(count dl.txt $NOPRE 'lttng_ust_lib:')" "0 0" \
	"lttng_ust_dl and lttng_ust_lib events without the preload"
expect_eq "$(grep -c 'lttng_ust_' dlnone.txt || :)" 0 "lttng_ust_ events where only sdtest:* is enabled"
expect_eq "$(count dlnone.txt $PID 'sdtest:where:')" 2 "sdtest events where only sdtest:* is enabled"
ok "--debug-info resolves sddl_work at dllib.c:$DLLIB_LINE with the preload only; nothing where not enabled"

# ---- 5. dlopen/dlclose in a loop while state dumps run --------------------
session loop -a
trax start loop >/dev/null || fail "trax start loop"
timeout 120 env LD_PRELOAD="$DL" "$B/dlapp" stress "$B/libsddl.so" "$TEST_TMP/stop" \
	>loop.out 2>loop.err &
RUN=$!
for _ in $(seq 300); do
	grep -q ready loop.out 2>/dev/null && break
	sleep 0.05
done
grep -q ready loop.out || fail "dlapp stress did not start: $(cat loop.err)"
PID=$(sed -n 's/^ready //p' loop.out)
for _ in 1 2 3 4 5; do
	sleep 0.2
	trax stop loop >/dev/null || fail "trax stop loop"
	trax start loop >/dev/null || fail "trax start loop"
done
sleep 0.2
touch "$TEST_TMP/stop"
wait "$RUN" || fail "dlapp stress exited with status $? (124: hung): $(cat loop.err)"
trax stop loop >/dev/null || fail "trax stop loop"
# (Not --debug-info: a library loaded while the session was stopped and
# unloaded after it started again has an unload without a load, on which
# Babeltrace 2.0's filter aborts, with LTTng's traces as with these.)
bt2 "$TEST_TMP/loop" >loop.txt
dumps=$(count loop.txt $PID 'lttng_ust_statedump:end:')
[ "$dumps" -ge 2 ] || fail "$dumps state dumps during the loop, expected one per start"
loads=$(count loop.txt $PID 'lttng_ust_lib:load:')
[ "$loads" -ge 10 ] || fail "$loads lttng_ust_lib:load events during the loop"
ok "two threads in a dlopen/dlclose loop through 6 starts: no hang, $dumps state dumps, $loads loads"

# ---- 6. A child of fork() -------------------------------------------------
session fork -a
trax start fork >/dev/null || fail "trax start fork"
"$B/forkapp" >fork.out 2>fork.err &
PID=$!
wait_ok $PID "forkapp"
CHILD=$(sed -n 's/^child //p' fork.out)
[ -n "$CHILD" ] || fail "forkapp did not print its child's pid: $(cat fork.err)"
trax stop fork >/dev/null || fail "trax stop fork"
text fork
for p in $PID $CHILD; do
	expect_eq "$(count fork.txt $p 'lttng_ust_statedump:start:')" 1 "state dumps of process $p"
	set -- $(names fork.txt $p)
	expect_eq "$1 $2" "start procname" "first state dump events of process $p"
	of fork.txt $p | grep -F 'lttng_ust_statedump:procname:' | grep -qF '{ procname = "forkapp" }' ||
		fail "procname of process $p: $(of fork.txt $p | grep -F 'statedump:procname')"
	expect_eq "$(count fork.txt $p "path = \"$B/forkapp\",")" 1 "bin_info events of forkapp in process $p"
done
end_at=$(of fork.txt $CHILD | grep -n 'lttng_ust_statedump:end:' | cut -d: -f1)
own_at=$(of fork.txt $CHILD | grep -n 'from = "child"' | cut -d: -f1)
[ -n "$own_at" ] && [ -n "$end_at" ] && [ "$end_at" -lt "$own_at" ] ||
	fail "the child's state dump does not precede its event (end at $end_at, event at $own_at)"
ok "a child of fork() records its own state dump (procname, objects) before its event"

# ---- 7. trax regenerate statedump -----------------------------------------
# As `lttng regenerate statedump`: every application of the started session
# records its state dump again; refused, with one line, when the session is
# not started or does not exist.
session regen -a
if trax regenerate statedump -s regen >regen.out 2>regen.err; then
	fail "trax regenerate statedump succeeded on a session never started"
fi
[ "$(wc -l <regen.err)" = 1 ] && grep -q 'regen is not started' regen.err ||
	fail "regenerate before start: $(cat regen.err)"
if trax regenerate statedump -s nosuch >regen.out 2>regen.err; then
	fail "trax regenerate statedump succeeded on a session that does not exist"
fi
grep -q 'nosuch' regen.err || fail "regenerate of a missing session: $(cat regen.err)"
if trax regenerate metadata -s regen >regen.out 2>regen.err; then
	fail "trax regenerate metadata claimed success"
fi
trax start regen >/dev/null || fail "trax start regen"
rm -f "$TEST_TMP/go"
"$B/dlapp" wait "$TEST_TMP/go" >wait.out 2>wait.err &
PID=$!
for _ in $(seq 300); do
	grep -q ready wait.out 2>/dev/null && break
	sleep 0.05
done
grep -q ready wait.out || fail "dlapp did not start: $(cat wait.err)"
trax regenerate statedump -s regen >regen.out || fail "trax regenerate statedump failed"
expect_eq "$(cat regen.out)" "State dump successfully regenerated for session regen" "regenerate's message"
# (the program records it once its daemon thread has the order)
sleep 1
touch "$TEST_TMP/go"
wait_ok $PID "dlapp wait"
trax stop regen >/dev/null || fail "trax stop regen"
text regen
expect_eq "$(count regen.txt $PID 'lttng_ust_statedump:start:')" 2 "state dumps after a regenerate"
expect_eq "$(count regen.txt $PID 'lttng_ust_statedump:end:')" 2 "state dump ends after a regenerate"
expect_eq "$(count regen.txt $PID "path = \"$B/dlapp\",")" 2 "bin_info events of dlapp after a regenerate"
ok "trax regenerate statedump: a second state dump of the running program; refused before start"
