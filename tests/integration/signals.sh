#!/bin/sh
# signals.sh - a traced program dies or ends the way it would untraced
# (same wait status, same output), and the events it committed before are in
# the trace: fatal signals raised by the program (SIGINT, SIGTERM, abort(),
# NULL pointer write) or sent from the shell while it sleeps (SIGINT, SIGTERM,
# SIGHUP), return from main, exit(5), SIGINT ignored by the parent, and
# SIGINT handlers of the application (installed in main after the tracer's,
# or in a constructor before it with the static library).
# Sources: tests/integration/data/faults/ (tp.h, sig.c, waitst.c).

. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/integration/data/faults
B=$TEST_TMP/bin
mkdir -p "$B"
command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed"
# shellcheck disable=SC3045
ulimit -c 0 2>/dev/null || : # no core files from abort() and SIGSEGV

unset TRAX_OUTPUT TRAX_EVENTS TRAX_SUBBUF_SIZE TRAX_NUM_SUBBUF TRAX_OVERWRITE TRAX_CONTEXT \
	TRAX_DEBUG TRAX_ALLOW_BLOCKING TRAX_BLOCKING_TIMEOUT LTTNG_UST_DEBUG LTTNG_UST_OUTPUT \
	2>/dev/null || :
# The sanitizers' own SIGSEGV handler would turn the crash into exit(1).
export ASAN_OPTIONS="$ASAN_OPTIONS:handle_segv=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}handle_segv=0"

# ---- Build -------------------------------------------------------------
$CC $TRAX_CFLAGS -I"$D" -c "$D/tp.c" -o "$B/tp.o" || fail "cannot compile tp.c"
$CC $TRAX_CFLAGS -I"$D" "$D/sig.c" "$B/tp.o" -o "$B/sig" $TRAX_LDFLAGS -ltrax-ust -ldl ||
	fail "cannot build sig"
$CC $TRAX_CFLAGS -I"$D" -DEARLY_HANDLER "$D/sig.c" "$B/tp.o" -o "$B/sig-ctor" \
	$TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build sig-ctor"
[ -f "$TRAX_BUILD/libtrax-ust.a" ] || fail "$TRAX_BUILD/libtrax-ust.a is missing"
$CC $TRAX_CFLAGS -I"$D" -DEARLY_HANDLER "$D/sig.c" "$B/tp.o" -o "$B/sig-static" \
	"$TRAX_BUILD/libtrax-ust.a" $TRAX_LDFLAGS -lpthread -ldl || fail "cannot build sig-static"
$CC $TRAX_CFLAGS "$D/waitst.c" -o "$B/waitst" $TRAX_LDFLAGS || fail "cannot build waitst"

# nums FILE: the i fields of the faults:num events, in trace order.
nums() {
	sed -n 's/.* faults:num: .*{ i = \([0-9]*\) }$/\1/p' "$1" | tr '\n' ' '
}

# range A B: "A A+1 ... B " (empty when B < A).
range() {
	[ "$2" -ge "$1" ] && seq "$1" "$2" | tr '\n' ' ' || :
}

# check NAME EXPECTED_OUT FIRST LAST [-i] PROG MODE N [VAR=VALUE...]: runs
# "waitst [-i] PROG MODE N" untraced and traced (with the variables given);
# both print EXPECTED_OUT (the program's stdout then its wait status) and the
# trace holds exactly faults:num i = FIRST..LAST, in order.
check() {
	cname=$1 want=$2 first=$3 last=$4
	shift 4
	wflag=
	if [ "$1" = -i ]; then
		wflag=-i
		shift
	fi
	prog=$1 mode=$2 count=$3
	shift 3
	"$B/waitst" $wflag "$B/$prog" "$mode" "$count" >"$TEST_TMP/$cname.ref" 2>"$TEST_TMP/$cname.ref.err"
	expect_eq "$(cat "$TEST_TMP/$cname.ref")" "$want" "$cname: untraced run"
	rm -rf "$TEST_TMP/out"
	env TRAX_OUTPUT="$TEST_TMP/out" "$@" "$B/waitst" $wflag "$B/$prog" "$mode" "$count" \
		>"$TEST_TMP/$cname.out" 2>"$TEST_TMP/$cname.err"
	expect_eq "$(cat "$TEST_TMP/$cname.out")" "$want" "$cname: traced run"
	tr_dir=$(one_trace_dir "$TEST_TMP/out" "$prog")
	bt2 "$tr_dir" >"$TEST_TMP/$cname.bt"
	got=$(nums "$TEST_TMP/$cname.bt")
	[ "$got" = "$(range "$first" "$last")" ] ||
		fail "$cname: expected events i = $first..$last in order, got $(echo "$got" | wc -w) events: $(echo "$got" | cut -c1-200)"
}

# Small sub-buffers: the consumer has written some packets when the program
# dies and the last one is still in memory. Then the default size: all in memory.
N=1500
SMALL="TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=4"
# Room for 2N events even if the consumer does not run meanwhile (discard mode).
SMALL2="TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=16"
LAST=$((N - 1))

# ---- 1. Fatal signals raised by the program itself --------------------------
for geom in small default; do
	if [ $geom = small ]; then n=$N env=$SMALL; else n=20 env=; fi
	l=$((n - 1))
	# shellcheck disable=SC2086
	{
		check int-$geom "killed by signal 2" 0 $l sig int $n $env
		check term-$geom "killed by signal 15" 0 $l sig term $n $env
		check abort-$geom "killed by signal 6" 0 $l sig abort $n $env
		check segv-$geom "killed by signal 11" 0 $l sig segv $n $env
	}
done
ok "raise(SIGINT), SIGTERM, abort(), NULL write: same wait status, all events before death in the trace"

# ---- 2. Signals sent from the shell while the program sleeps -------------------
# kill_when_ready OUT PROG MODE SIG [VAR=VALUE...]: runs "waitst PROG MODE N"
# in the background with the variables given (stdout to OUT), sends SIG once
# the program has said "ready PID" and sleeps, and waits for the end.
kill_when_ready() {
	kout=$1 kprog=$2 kmode=$3 ksig=$4
	shift 4
	env "$@" "$B/waitst" "$B/$kprog" "$kmode" $N >"$kout" 2>"$kout.err" &
	bg=$!
	tries=0
	until grep -q '^ready ' "$kout" 2>/dev/null; do
		tries=$((tries + 1))
		[ $tries -lt 200 ] || {
			kill $bg 2>/dev/null || :
			fail "$kprog $kmode: the program never said it was ready"
		}
		sleep 0.05
	done
	pid=$(sed -n 's/^ready //p' "$kout")
	# Blocked (in read() or pause()) before the signal is sent.
	tries=0
	until [ "$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)" = S ]; do
		tries=$((tries + 1))
		[ $tries -lt 200 ] || fail "$kprog $kmode: the program never blocked"
		sleep 0.02
	done
	kill -s "$ksig" "$pid"
	wait $bg || fail "$kprog $kmode: waitst failed"
	sed -i '/^ready /d' "$kout"
}

# shell_kill NAME SIG NUM: the program emits N events, says "ready PID" and
# sleeps; the shell sends SIG; it dies by signal NUM with all events recorded.
shell_kill() {
	kname=$1
	rm -rf "$TEST_TMP/out"
	# shellcheck disable=SC2086
	kill_when_ready "$TEST_TMP/$kname.out" sig sleep "$2" TRAX_OUTPUT="$TEST_TMP/out" $SMALL
	expect_eq "$(cat "$TEST_TMP/$kname.out")" "killed by signal $3" "$kname: wait status"
	tr_dir=$(one_trace_dir "$TEST_TMP/out" sig)
	bt2 "$tr_dir" >"$TEST_TMP/$kname.bt"
	got=$(nums "$TEST_TMP/$kname.bt")
	[ "$got" = "$(range 0 $LAST)" ] ||
		fail "$kname: expected events i = 0..$LAST, got $(echo "$got" | wc -w) events"
}
shell_kill kill-int INT 2
shell_kill kill-term TERM 15
shell_kill kill-hup HUP 1
ok "SIGINT, SIGTERM, SIGHUP from the shell: killed by the same signal, all events in the trace"

# ---- 3. Normal ends ------------------------------------------------------------
# shellcheck disable=SC2086
{
	check return "returning
exited 0" 0 $LAST sig return $N $SMALL
	check exit5 "exiting
exited 5" 0 $LAST sig exit5 $N $SMALL
}
ok "return from main and exit(5): exit status kept, all events in the trace"

# ---- 4. SIGINT ignored by the parent stays ignored -------------------------------
# shellcheck disable=SC2086
check ign "survived
exited 0" 0 $((2 * N - 1)) -i sig ign $N $SMALL2
ok "SIGINT ignored on entry stays ignored: the program goes on, all events in the trace"

# ---- 5. The application's own SIGINT handler --------------------------------------
# Installed in main (after the tracer's constructor): it replaces the tracer's.
# shellcheck disable=SC2086
check handler-main "handler ran
flag 2
exited 7" 0 $((2 * N - 1)) sig handler $N $SMALL2
# Installed by a constructor of the program, linked with the shared library:
# the library's constructor ran first, yet the program sees what it would see
# untraced (no handler before its own): sigaction() reports its own view.
# shellcheck disable=SC2086
check handler-ctor "handler ran
flag 2
exited 7" 0 $((2 * N - 1)) sig-ctor handler $N $SMALL2
expect_contains "$TEST_TMP/handler-ctor.err" "early: first handler"
# Linked with libtrax-ust.a: the program's constructor (priority 101, first
# in the link) installs its handler before the tracer; the tracer keeps it and
# calls it after writing the trace.
# shellcheck disable=SC2086
check handler-static "handler ran
flag 2
exited 7" 0 $((2 * N - 1)) sig-static handler $N $SMALL2
expect_contains "$TEST_TMP/handler-static.err" "early: first handler"
# The handler puts SIG_DFL back and raises SIGINT again: the tracer's handler
# ran first, then the application's; it dies by SIGINT with every event kept.
# shellcheck disable=SC2086
check reraise-static "handler ran
killed by signal 2" 0 $LAST sig-static reraise $N $SMALL2
expect_contains "$TEST_TMP/reraise-static.err" "early: first handler"
ok "application SIGINT handlers run as untraced (flag set, exit 7 / death by SIGINT), events before and after kept"

# Handler installed in main, then SIG_DFL and raise: the application's
# sigaction()/signal() calls go through the tracer, which stays in front:
# the program behaves as untraced and every event is written.
# shellcheck disable=SC2086
for p in sig sig-ctor; do
	"$B/waitst" "$B/$p" reraise $N >"$TEST_TMP/rr.ref" 2>/dev/null
	rm -rf "$TEST_TMP/out"
	env TRAX_OUTPUT="$TEST_TMP/out" $SMALL "$B/waitst" "$B/$p" reraise $N >"$TEST_TMP/rr.out" 2>/dev/null
	expect_eq "$(cat "$TEST_TMP/rr.out")" "$(cat "$TEST_TMP/rr.ref")" "$p reraise: traced run"
	expect_eq "$(tail -n 1 "$TEST_TMP/rr.out")" "killed by signal 2" "$p reraise: wait status"
	tr_dir=$(one_trace_dir "$TEST_TMP/out" "$p")
	bt2 "$tr_dir" >"$TEST_TMP/rr.bt"
	got=$(nums "$TEST_TMP/rr.bt")
	[ "$got" = "$(range 0 $LAST)" ] ||
		fail "$p reraise: expected events i = 0..$LAST, got $(echo "$got" | wc -w) events"
done
ok "application handler installed later, re-raising with SIG_DFL: same behaviour, every event kept"

# ---- 6. A handler without SA_RESTART: a blocking read() fails with EINTR -----------
# SIGINT from the shell while the program blocks in read(): untraced, the
# application's handler runs and read() returns -1 (EINTR). Traced, the same
# must happen, whether the handler was installed in main (sig) or before the
# tracer, by a constructor, with the static library (sig-static).
for p in sig sig-static; do
	kill_when_ready "$TEST_TMP/eintr.ref" $p eintr INT
	expect_eq "$(cat "$TEST_TMP/eintr.ref")" "handler ran
read -1 Interrupted system call
exited 0" "$p eintr: untraced run"
	rm -rf "$TEST_TMP/out"
	# shellcheck disable=SC2086
	kill_when_ready "$TEST_TMP/eintr.out" $p eintr INT TRAX_OUTPUT="$TEST_TMP/out" $SMALL2
	[ "$(cat "$TEST_TMP/eintr.out")" = "$(cat "$TEST_TMP/eintr.ref")" ] ||
		fail "$p eintr: traced run: got '$(cat "$TEST_TMP/eintr.out")', expected '$(cat "$TEST_TMP/eintr.ref")' (the tracer's SIGINT handler must keep the application's sa_flags: no SA_RESTART)"
	tr_dir=$(one_trace_dir "$TEST_TMP/out" $p)
	bt2 "$tr_dir" >"$TEST_TMP/eintr.bt"
	got=$(nums "$TEST_TMP/eintr.bt")
	[ "$got" = "$(range 0 $((2 * N - 1)))" ] ||
		fail "$p eintr: expected events i = 0..$((2 * N - 1)), got $(echo "$got" | wc -w) events"
done
ok "SIGINT handler without SA_RESTART: read() interrupted (EINTR) as untraced, events kept"
