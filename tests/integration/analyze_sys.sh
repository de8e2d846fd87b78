#!/bin/sh
# analyze_sys.sh - `trax analyze syscallstats` and `trax analyze iolatency`
# (--stats, --freq, --top, --log) give lttng-analyses' answers (Debian's
# python3-lttnganalyses 0.6.1), kept as fixtures in
# tests/data/analyses/expected (README.md there):
#  - on the trace trax recorded, whole, with --begin/--end, and in the
#    window where lttng-analyses drops reads of an fd opened before
#    --begin: the JSON equals lttng-*-mi's value by value (mi-compare.py)
#    and byte for byte, the text equals the text command's but for its
#    first line ("Checking the trace for lost events...");
#  - where the tools print empty tables (traces without system calls),
#    trax fails with one line naming the missing events and the command
#    that records them;
#  - the synthetic trace of test_analysis_sys (known answers, checked
#    there) gives the same JSON and text as lttng-syscallstats,
#    -iolatencystats, -iolatencytop, -iolatencyfreq and lttng-iolog run
#    here, whole and with --begin after an open (their absence fails);
#  - on the trace trax recorded, lttng-iolatencystats run here with
#    --top --freq --log (every table, in its order) and with --min/--max.
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

# check NAME ANALYSIS TRACE [ARGS...]: text and JSON against E/NAME.txt, E/NAME.json
check() {
	name=$1 an=$2 trace=$3
	shift 3
	"$TRAX" analyze "$an" "$@" "$trace" >out.txt 2>err.txt ||
		fail "$name: trax analyze $an $* failed: $(cat err.txt)"
	tail -n +2 "$E/$name.txt" >exp.txt
	cmp -s exp.txt out.txt || fail "$name: text differs from lttng-analyses': $(diff exp.txt out.txt | head -n 8)"
	"$TRAX" analyze "$an" --format=json "$@" "$trace" >out.json 2>err.txt ||
		fail "$name: trax analyze $an --format=json $* failed: $(cat err.txt)"
	python3 "$CMP" "$E/$name.json" out.json >diff.txt ||
		fail "$name: JSON differs from lttng-analyses': $(head -n 8 diff.txt)"
	cmp -s "$E/$name.json" out.json || fail "$name: JSON values equal but not the bytes"
	n=$((n + 1))
}

n=0
K=$D/trax-kernel-trace/kernel
B=07:00:17.100000000 EN=07:00:17.129000000
FB=07:00:17.043800000 FE=07:00:17.046500000
check trax-kernel/syscallstats syscallstats "$K"
check trax-kernel/syscallstats-range syscallstats "$K" --begin $B --end $EN
check trax-kernel/iolatencystats iolatency "$K"
check trax-kernel/iolatencystats iolatency "$K" --stats
check trax-kernel/iolatencystats-range iolatency "$K" --begin $B --end $EN
check trax-kernel/iolatencystats-fdrange iolatency "$K" --begin $FB --end $FE
check trax-kernel/iolatencyfreq iolatency "$K" --freq
check trax-kernel/iolatencytop iolatency "$K" --top
check trax-kernel/iolatencytop-range iolatency "$K" --top --begin $B --end $EN
check trax-kernel/iolog-range iolatency "$K" --log --begin $B --end $EN
check trax-kernel/iolog-fdrange iolatency "$K" --log --begin $FB --end $FE
ok "$n fixtures: text and JSON as lttng-syscallstats, -iolatencystats, -iolatencyfreq, -iolatencytop, lttng-iolog"

# no system calls: a clear error where lttng-analyses prints empty tables
for t in lttng-tracefile-rotation/kernel multi-domains/kernel session-rotation; do
	for an in syscallstats iolatency; do
		st=0
		"$TRAX" analyze $an --no-intersection "$SUCCEED/$t" >out.txt 2>err.txt || st=$?
		[ $st = 1 ] || fail "$an $t: exit $st, not 1"
		[ "$(wc -l <err.txt)" = 1 ] || fail "$an $t: not one line: $(cat err.txt)"
		grep -q "needs syscall_entry_\*/syscall_exit_\* events" err.txt &&
			grep -q "trax enable-event -k --syscall -a" err.txt || fail "$an $t: $(cat err.txt)"
	done
done
ok "traces without system calls: one line naming them and how to record them"

# the synthetic trace, against lttng-analyses run here
for c in syscallstats iolatencystats iolatencytop iolatencyfreq iolog; do
	command -v lttng-$c-mi >/dev/null && command -v lttng-$c >/dev/null ||
		fail "lttng-$c is needed (Debian's python3-lttnganalyses)"
done
"$TRAX_BUILD/tests/test_analysis_sys" "$TEST_TMP/synth" >/dev/null || fail "cannot write the synthetic trace"
S=$TEST_TMP/synth/kernel
for spec in syscallstats:syscallstats: iolatencystats:iolatency: iolatencytop:iolatency:--top \
	iolatencyfreq:iolatency:--freq iolog:iolatency:--log; do
	tool=${spec%%:*} rest=${spec#*:}
	an=${rest%%:*} opt=${rest#*:}
	for args in "" "--begin 1700000000000065000"; do
		# shellcheck disable=SC2086
		TZ=UTC lttng-$tool-mi $args "$S" >lt.json 2>/dev/null || fail "lttng-$tool-mi $args failed"
		# shellcheck disable=SC2086
		TZ=UTC "$TRAX" analyze $an $opt --format=json $args "$S" >out.json || fail "trax analyze $an $opt $args"
		python3 "$CMP" lt.json out.json >diff.txt || fail "synthetic $tool $args: $(head -n 8 diff.txt)"
		# shellcheck disable=SC2086
		TZ=UTC lttng-$tool --no-progress $args "$S" 2>/dev/null | tail -n +2 >lt.txt
		# shellcheck disable=SC2086
		TZ=UTC "$TRAX" analyze $an $opt $args "$S" >out.txt
		cmp -s lt.txt out.txt || fail "synthetic $tool $args: text: $(diff lt.txt out.txt | head -n 8)"
	done
done
ok "synthetic trace: as lttng-syscallstats, -iolatencystats, -iolatencytop, -iolatencyfreq, lttng-iolog, whole and with --begin"

# options lttng-analyses combines, against the tool run here
for args in "--top --freq --log --begin $B --end $EN" "--min 1 --max 50"; do
	# shellcheck disable=SC2086
	TZ=UTC lttng-iolatencystats-mi $args "$K" >lt.json 2>/dev/null || fail "lttng-iolatencystats-mi $args failed"
	# shellcheck disable=SC2086
	TZ=UTC "$TRAX" analyze iolatency --stats $args --format=json "$K" >out.json || fail "trax analyze iolatency $args"
	cmp -s lt.json out.json || fail "iolatency $args: JSON: $(python3 "$CMP" lt.json out.json | head -n 8)"
	# shellcheck disable=SC2086
	TZ=UTC lttng-iolatencystats --no-progress $args "$K" 2>/dev/null | tail -n +2 >lt.txt
	# shellcheck disable=SC2086
	TZ=UTC "$TRAX" analyze iolatency --stats $args "$K" >out.txt
	cmp -s lt.txt out.txt || fail "iolatency $args: text: $(diff lt.txt out.txt | head -n 8)"
done
ok "iolatency --stats --top --freq --log, and --min/--max: as lttng-iolatencystats"
