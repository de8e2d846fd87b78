#!/bin/sh
# faults.sh - the tracer never changes what a traced program does, whatever
# goes wrong on the tracing side: unwritable TRAX_OUTPUT, full disk, NULL
# strings, sequences too large or with negative lengths, garbage settings in
# the environment, no TRAX_OUTPUT at all. Also checks TRAX_DEBUG /
# LTTNG_UST_DEBUG diagnostics and that stderr stays empty without them.
# Sources: tests/integration/data/faults/ (provider tp.h, app.c, waitst.c).
# Needs root (it mounts small tmpfs file systems).

. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/integration/data/faults
B=$TEST_TMP/bin
MNT_FULL=$TEST_TMP/mnt-full
MNT_RO=$TEST_TMP/mnt-ro
mkdir -p "$B" "$MNT_FULL" "$MNT_RO"

cleanup() {
	umount "$MNT_FULL" 2>/dev/null || :
	umount "$MNT_RO" 2>/dev/null || :
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed"

# ---- Build -------------------------------------------------------------
$CC $TRAX_CFLAGS -I"$D" -c "$D/tp.c" -o "$B/tp.o" || fail "cannot compile tp.c"
$CC $TRAX_CFLAGS -I"$D" "$D/app.c" "$B/tp.o" -o "$B/app" $TRAX_LDFLAGS -ltrax-ust -ldl ||
	fail "cannot build app"
$CC $TRAX_CFLAGS "$D/waitst.c" -o "$B/waitst" $TRAX_LDFLAGS || fail "cannot build waitst"

# Settings of the caller must not leak into the runs.
unset TRAX_OUTPUT TRAX_EVENTS TRAX_SUBBUF_SIZE TRAX_NUM_SUBBUF TRAX_OVERWRITE TRAX_CONTEXT \
	TRAX_DEBUG TRAX_ALLOW_BLOCKING TRAX_BLOCKING_TIMEOUT LTTNG_UST_DEBUG LTTNG_UST_OUTPUT \
	2>/dev/null || :

# run NAME [VAR=VALUE...] -- ARGS...: runs "waitst app ARGS" with the given
# environment; stdout (the program's, then "exited N" or "killed by signal N")
# goes to $TEST_TMP/NAME.out, stderr to $TEST_TMP/NAME.err.
run() {
	name=$1
	shift
	envs=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env $envs "$B/waitst" "$B/app" "$@" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err"
}

# field_values FILE EVENT FIELD: the values of an integer field, in order.
field_values() {
	sed -n "s/.* $2: .* $3 = \\([0-9-]*\\)[ ,].*/\\1/p" "$1" | tr '\n' ' '
}

# same_stdout NAME REF: the program's stdout and exit status match the reference run.
same_stdout() {
	cmp -s "$TEST_TMP/$1.out" "$TEST_TMP/$2.out" || {
		echo "--- $2 (untraced):" >&2
		cat "$TEST_TMP/$2.out" >&2
		echo "--- $1 (traced):" >&2
		cat "$TEST_TMP/$1.out" >&2
		echo "--- $1 (traced), stderr:" >&2
		head -c 3000 "$TEST_TMP/$1.err" >&2
		fail "$1: stdout or exit status differ from the untraced run"
	}
}

# ---- References: the programs without tracing ---------------------------
for st in 0 3; do
	run ref$st -- exit 20 "$st"
	expect_eq "$(tail -n 1 "$TEST_TMP/ref$st.out")" "exited $st" "untraced exit status"
	expect_contains "$TEST_TMP/ref$st.out" "line 2 of 20"
done

# ---- 1. Without TRAX_OUTPUT: nothing happens -----------------------------
mkdir -p "$TEST_TMP/cwd" "$TEST_TMP/home"
(
	cd "$TEST_TMP/cwd" || exit 1
	for st in 0 3; do
		HOME=$TEST_TMP/home run noout$st -- exit 20 "$st"
		HOME=$TEST_TMP/home run emptyout$st TRAX_OUTPUT= -- exit 20 "$st"
	done
)
for st in 0 3; do
	for r in noout emptyout; do
		same_stdout $r$st ref$st
		[ -s "$TEST_TMP/$r$st.err" ] && {
			cat "$TEST_TMP/$r$st.err" >&2
			fail "$r$st: something was printed on stderr"
		}
	done
done
expect_eq "$(ls -A "$TEST_TMP/cwd" "$TEST_TMP/home" | tr -d '\n')" \
	"$TEST_TMP/cwd:$TEST_TMP/home:" "files created without TRAX_OUTPUT"
ok "without TRAX_OUTPUT: no files, nothing on stderr, exit status and stdout unchanged"

# ---- 2. Debug output -----------------------------------------------------
for v in TRAX_DEBUG LTTNG_UST_DEBUG; do
	rm -rf "$TEST_TMP/dbg"
	run dbg-$v TRAX_OUTPUT="$TEST_TMP/dbg" $v=1 -- exit 20 3
	same_stdout dbg-$v ref3
	t=$(one_trace_dir "$TEST_TMP/dbg")
	pid=$(basename "$t" | cut -d- -f2)
	grep -q "^trax-ust\\[$pid\\]: " "$TEST_TMP/dbg-$v.err" ||
		fail "$v=1: no 'trax-ust[$pid]: ' line on stderr: $(cat "$TEST_TMP/dbg-$v.err")"
	bad=$(grep -cv "^trax-ust\\[$pid\\]: " "$TEST_TMP/dbg-$v.err" || :)
	expect_eq "$bad" 0 "$v=1: stderr lines not starting with trax-ust[$pid]"
	expect_contains "$TEST_TMP/dbg-$v.err" "$t"
done
rm -rf "$TEST_TMP/dbg"
run nodbg TRAX_OUTPUT="$TEST_TMP/dbg" -- exit 20 3
same_stdout nodbg ref3
[ -s "$TEST_TMP/nodbg.err" ] && fail "stderr not empty without TRAX_DEBUG: $(cat "$TEST_TMP/nodbg.err")"
tr_dir=$(one_trace_dir "$TEST_TMP/dbg")
bt2 "$tr_dir" >"$TEST_TMP/nodbg.bt"
expect_eq "$(field_values "$TEST_TMP/nodbg.bt" faults:num i)" \
	"$(seq 0 19 | tr '\n' ' ')" "events of the traced run"
ok "TRAX_DEBUG=1 and LTTNG_UST_DEBUG=1 print trax-ust[PID] lines; stderr empty without them"

# ---- 3. Unwritable TRAX_OUTPUT -------------------------------------------
: >"$TEST_TMP/regular"
mount -t tmpfs -o ro,size=64k tmpfs "$MNT_RO" ||
	fail "cannot mount a read-only tmpfs on $MNT_RO (the test must run as root)"
for out in "$TEST_TMP/regular/sub" "$TEST_TMP/regular" "$MNT_RO/out" "$MNT_RO"; do
	for st in 0 3; do
		run unw$st TRAX_OUTPUT="$out" -- exit 20 "$st"
		same_stdout unw$st ref$st
		[ -s "$TEST_TMP/unw$st.err" ] && fail "TRAX_OUTPUT=$out: stderr not empty without TRAX_DEBUG"
		run unwd$st TRAX_OUTPUT="$out" TRAX_DEBUG=1 -- exit 20 "$st"
		same_stdout unwd$st ref$st
		expect_contains "$TEST_TMP/unwd$st.err" "trax-ust["
		expect_contains "$TEST_TMP/unwd$st.err" "$out"
	done
done
expect_eq "$(ls -A "$MNT_RO")" "" "files in the read-only mount"
expect_eq "$(cat "$TEST_TMP/regular")" "" "the regular file used as TRAX_OUTPUT"
ok "unwritable TRAX_OUTPUT: exit status 0/3 and stdout unchanged, TRAX_DEBUG names the path"

# ---- 4. Full disk --------------------------------------------------------
mount -t tmpfs -o size=256k tmpfs "$MNT_FULL" ||
	fail "cannot mount a 256k tmpfs on $MNT_FULL (the test must run as root)"
run fillref -- fill 8000 3
expect_eq "$(cat "$TEST_TMP/fillref.out")" "fill done 8000
exited 3" "untraced fill run"
# About 1.8 MB of events for 256 kB of disk.
run fill TRAX_OUTPUT="$MNT_FULL" TRAX_SUBBUF_SIZE=4096 TRAX_DEBUG=1 -- fill 8000 3
same_stdout fill fillref
grep -qi "no space" "$TEST_TMP/fill.err" ||
	fail "full disk: TRAX_DEBUG did not say the disk is full: $(cat "$TEST_TMP/fill.err")"
t=$(one_trace_dir "$MNT_FULL")
[ -s "$t/metadata" ] || fail "full disk: no metadata in $t"
babeltrace2 "$t" >"$TEST_TMP/fill.bt" 2>"$TEST_TMP/fill.bt.err" || {
	ls -l "$t" >&2
	tail -n 5 "$TEST_TMP/fill.bt.err" >&2
	fail "full disk: babeltrace2 cannot read what was written before the disk filled"
}
vals=$(field_values "$TEST_TMP/fill.bt" faults:blob i)
count=$(echo "$vals" | wc -w)
[ "$count" -ge 300 ] || fail "full disk: only $count events readable"
expect_eq "$(echo "$vals" | cut -d' ' -f1)" 0 "full disk: first event"
echo "$vals" | tr ' ' '\n' | sed '/^$/d' | sort -n -u -c 2>/dev/null ||
	fail "full disk: events out of order"
umount "$MNT_FULL"
ok "full disk: exit status 3 and stdout unchanged, 'no space' reported, $count events readable"

# ---- 5. NULL string --------------------------------------------------------
rm -rf "$TEST_TMP/null"
run nullref -- null
expect_eq "$(cat "$TEST_TMP/nullref.out")" "null done
exited 0" "untraced null run"
run null TRAX_OUTPUT="$TEST_TMP/null" -- null
same_stdout null nullref
tr_dir=$(one_trace_dir "$TEST_TMP/null")
bt2 "$tr_dir" >"$TEST_TMP/null.bt"
expect_contains "$TEST_TMP/null.bt" 'faults:str: { cpu_id = '
expect_contains "$TEST_TMP/null.bt" '{ s = "(null)", i = 1 }'
expect_contains "$TEST_TMP/null.bt" '{ s = "after", i = 2 }'
expect_eq "$(field_values "$TEST_TMP/null.bt" faults:num i)" "3 " "event after the NULL string"
ok "NULL ctf_string recorded as \"(null)\""

# ---- 6. Sequences too large / negative length ------------------------------
run seqref -- seq
expect_eq "$(cat "$TEST_TMP/seqref.out")" "seq done
exited 0" "untraced seq run"
for sb in 4096 ""; do
	rm -rf "$TEST_TMP/seq"
	run seq TRAX_OUTPUT="$TEST_TMP/seq" TRAX_SUBBUF_SIZE=$sb -- seq
	same_stdout seq seqref
	[ -s "$TEST_TMP/seq.err" ] && fail "seq: stderr not empty without TRAX_DEBUG: $(cat "$TEST_TMP/seq.err")"
	tr_dir=$(one_trace_dir "$TEST_TMP/seq")
	bt2 "$tr_dir" >"$TEST_TMP/seq.bt"
	expect_eq "$(field_values "$TEST_TMP/seq.bt" faults:num i)" "2 4 6 9 " \
		"seq (TRAX_SUBBUF_SIZE=$sb): events around the dropped ones"
	expect_eq "$(grep -c 'faults:u\{0,1\}seq:' "$TEST_TMP/seq.bt")" 1 \
		"seq (TRAX_SUBBUF_SIZE=$sb): sequence events recorded"
	expect_contains "$TEST_TMP/seq.bt" "{ i = 7, _v_length = 3, v = [ [0] = 11, [1] = 22, [2] = 33 ] }"

	rm -rf "$TEST_TMP/seq"
	run seqd TRAX_OUTPUT="$TEST_TMP/seq" TRAX_SUBBUF_SIZE=$sb TRAX_DEBUG=1 -- seq
	same_stdout seqd seqref
	# One line for each of the four dropped events, naming it.
	expect_eq "$(grep -c 'trax-ust\[.*faults:seq.*\(not fit\|too large\|dropped\)' "$TEST_TMP/seqd.err")" 3 \
		"seq (TRAX_SUBBUF_SIZE=$sb): debug lines about dropped faults:seq"
	expect_eq "$(grep -c 'trax-ust\[.*faults:useq.*\(not fit\|too large\|dropped\)' "$TEST_TMP/seqd.err")" 1 \
		"seq (TRAX_SUBBUF_SIZE=$sb): debug lines about dropped faults:useq"
done
ok "sequences longer than a sub-buffer or with a negative length are dropped and reported, the program goes on"

# ---- 7. Garbage in the environment ------------------------------------------
# check_garbage NAME VAR=VALUE... : the program runs as without tracing;
# with TRAX_DEBUG, the library names each bad variable and its value; a trace,
# when one is produced, is readable and holds all the events.
check_garbage() {
	gname=$1
	shift
	rm -rf "$TEST_TMP/garb"
	run "$gname" TRAX_OUTPUT="$TEST_TMP/garb" "$@" -- exit 20 3
	same_stdout "$gname" ref3
	[ -s "$TEST_TMP/$gname.err" ] && fail "$gname: stderr not empty without TRAX_DEBUG: $(cat "$TEST_TMP/$gname.err")"
	if [ -d "$TEST_TMP/garb/ust" ]; then
		tr_dir=$(one_trace_dir "$TEST_TMP/garb")
		bt2 "$tr_dir" >"$TEST_TMP/$gname.bt"
		expect_eq "$(field_values "$TEST_TMP/$gname.bt" faults:num i)" \
			"$(seq 0 19 | tr '\n' ' ')" "$gname: events in the trace"
	fi
	rm -rf "$TEST_TMP/garb"
	run "$gname-d" TRAX_OUTPUT="$TEST_TMP/garb" TRAX_DEBUG=1 "$@" -- exit 20 3
	same_stdout "$gname-d" ref3
	for a in "$@"; do
		var=${a%%=*}
		val=${a#*=}
		[ -n "$val" ] || continue
		grep "^trax-ust\\[" "$TEST_TMP/$gname-d.err" | grep -F -- "${var#TRAX_}" | grep -qF -- "$val" ||
			fail "$gname: TRAX_DEBUG does not say that $var='$val' was ignored; stderr: $(cat "$TEST_TMP/$gname-d.err")"
	done
}
check_garbage garb-size TRAX_SUBBUF_SIZE=banana
[ -d "$TEST_TMP/garb/ust" ] || fail "TRAX_SUBBUF_SIZE=banana: no trace (the default size should be used)"
check_garbage garb-ctx TRAX_CONTEXT=nonsense
[ -d "$TEST_TMP/garb/ust" ] || fail "TRAX_CONTEXT=nonsense: no trace"
check_garbage garb-events TRAX_EVENTS=
[ -d "$TEST_TMP/garb/ust" ] || fail "TRAX_EVENTS='': no trace (all events should be recorded)"
check_garbage garb-num TRAX_NUM_SUBBUF=-5
check_garbage garb-all TRAX_SUBBUF_SIZE=banana TRAX_NUM_SUBBUF=-5 TRAX_CONTEXT=nonsense TRAX_EVENTS=
ok "garbage settings: program unchanged, bad values reported with TRAX_DEBUG, traces readable"
