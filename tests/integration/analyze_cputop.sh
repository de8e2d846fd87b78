#!/bin/sh
# analyze_cputop.sh - `trax analyze cputop` gives lttng-cputop's answers
# (Debian's python3-lttnganalyses 0.6.1), kept as fixtures in
# tests/data/analyses/expected (README.md there):
#  - on the trace trax recorded and on the conformance corpus's kernel
#    traces, whole, with --begin/--end, --tid, --procname, --cpu, --limit:
#    the JSON equals lttng-cputop-mi's value by value (mi-compare.py:
#    strings and integers equal, floats within the last printed digit)
#    and the text equals lttng-cputop's byte for byte, but for its first
#    line ("Checking the trace for lost events...", the babeltrace run
#    trax does not make);
#  - a trace whose streams do not overlap is refused as lttng-cputop
#    refuses it (text and the MI error document), and accepted with
#    --no-intersection;
#  - where lttng-cputop prints an empty result (traces without
#    sched_switch: user space only, or other kernel events), trax fails
#    instead with one line naming the missing events and the command
#    that records them;
#  - the synthetic trace of test_analysis_synth (known answers, checked
#    there) gives the same JSON and text as lttng-cputop run here, whole,
#    with a range and with --tid (when lttng-cputop is installed: it is
#    in the CI image; its absence fails).
. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/data/analyses
E=$D/expected
CMP=$TRAX_SRC/tests/integration/data/analyses/mi-compare.py
CONF=${TRAX_CONFORMANCE:-$TRAX_SRC/../shared/conformance}
SUCCEED=$CONF/ctf/succeed
[ -d "$SUCCEED" ] || fail "no conformance corpus at $CONF (set TRAX_CONFORMANCE)"
command -v python3 >/dev/null || fail "python3 is needed"
TRAX=$TRAX_BUILD/trax
cd "$TEST_TMP"

# check NAME TRACE [ARGS...]: text and JSON against E/NAME.txt, E/NAME.json
check() {
	name=$1 trace=$2
	shift 2
	"$TRAX" analyze cputop "$@" "$trace" >out.txt 2>err.txt ||
		fail "$name: trax analyze cputop $* failed: $(cat err.txt)"
	tail -n +2 "$E/$name.txt" >exp.txt
	cmp -s exp.txt out.txt || fail "$name: text differs from lttng-cputop's: $(diff exp.txt out.txt | head -n 8)"
	"$TRAX" analyze cputop --format=json "$@" "$trace" >out.json 2>err.txt ||
		fail "$name: trax analyze cputop --format=json $* failed: $(cat err.txt)"
	python3 "$CMP" "$E/$name.json" out.json >diff.txt ||
		fail "$name: JSON differs from lttng-cputop-mi's: $(head -n 8 diff.txt)"
	# and byte for byte, as it happens (Python's separators and float forms)
	cmp -s "$E/$name.json" out.json || fail "$name: JSON values equal but not the bytes"
	n=$((n + 1))
}

n=0
K=$D/trax-kernel-trace/kernel
B=07:00:17.100000000 EN=07:00:17.129000000
check trax-kernel/cputop "$K"
check trax-kernel/cputop-range "$K" --begin $B --end $EN
check trax-kernel/cputop-tidrange "$K" --tid 6913 --begin $B --end $EN
check trax-kernel/cputop-tid "$K" --tid 6904,6909,0
check trax-kernel/cputop-procname "$K" --procname traxd,kwork
check trax-kernel/cputop-cpu "$K" --cpu 1 --limit 3
R=$SUCCEED/lttng-tracefile-rotation/kernel
check tracefile-rotation/cputop "$R" --no-intersection
check tracefile-rotation/cputop-range "$R" --no-intersection --begin 21:36:36.000000000 --end 21:36:37.000000000
ok "$n fixtures: text and JSON as lttng-cputop's"

# no intersection: refused as lttng-cputop refuses it
st=0
"$TRAX" analyze cputop "$R" >out.txt 2>err.txt || st=$?
[ $st = 1 ] || fail "tracefile-rotation without --no-intersection: exit $st, not 1"
grep -qx "Error: Trace has no intersection. Use --no-intersection to override" err.txt ||
	fail "tracefile-rotation: $(cat err.txt)"
[ ! -s out.txt ] || fail "tracefile-rotation: text output on error: $(cat out.txt)"
st=0
"$TRAX" analyze cputop --format=json "$R" >out.json 2>/dev/null || st=$?
[ $st = 1 ] || fail "tracefile-rotation --format=json: exit $st"
cmp -s out.json "$E/tracefile-rotation/cputop-intersect.json" ||
	fail "tracefile-rotation: MI error $(cat out.json), lttng's $(cat "$E/tracefile-rotation/cputop-intersect.json")"
ok "a trace whose streams do not overlap: refused, as by lttng-cputop"

# no sched_switch: a clear error where lttng-cputop prints nothing
for t in multi-domains/kernel session-rotation; do
	st=0
	"$TRAX" analyze cputop "$SUCCEED/$t" >out.txt 2>err.txt || st=$?
	[ $st = 1 ] || fail "$t: exit $st, not 1"
	[ "$(wc -l <err.txt)" = 1 ] || fail "$t: not one line: $(cat err.txt)"
	grep -q "needs sched_switch events" err.txt && grep -q "trax enable-event -k sched_switch" err.txt ||
		fail "$t: $(cat err.txt)"
done
ok "traces without sched_switch: one line naming it and how to record it"

# the synthetic trace, against lttng-cputop run here
command -v lttng-cputop-mi >/dev/null && command -v lttng-cputop >/dev/null ||
	fail "lttng-cputop is needed (Debian's python3-lttnganalyses)"
"$TRAX_BUILD/tests/test_analysis_synth" "$TEST_TMP/synth" >/dev/null || fail "cannot write the synthetic trace"
S=$TEST_TMP/synth/kernel
for args in "" "--begin 22:13:20.005000000 --end 1700000000007000000" "--tid 101" "--cpu 0"; do
	# shellcheck disable=SC2086
	lttng-cputop-mi $args "$S" >lt.json 2>/dev/null || fail "lttng-cputop-mi $args failed"
	# shellcheck disable=SC2086
	"$TRAX" analyze cputop --format=json $args "$S" >out.json || fail "trax analyze cputop $args"
	python3 "$CMP" lt.json out.json >diff.txt || fail "synthetic $args: $(head -n 8 diff.txt)"
	# shellcheck disable=SC2086
	lttng-cputop --no-progress $args "$S" 2>/dev/null | tail -n +2 >lt.txt
	# shellcheck disable=SC2086
	"$TRAX" analyze cputop $args "$S" >out.txt
	cmp -s lt.txt out.txt || fail "synthetic $args: text: $(diff lt.txt out.txt | head -n 8)"
done
ok "synthetic trace: as lttng-cputop, whole, with a range, --tid and --cpu"
