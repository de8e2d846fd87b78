#!/bin/sh
# analyze_sched_irq.sh - `trax analyze schedlatency` gives lttng-schedstats'
# answers and `trax analyze irqstats` lttng-irqstats' (Debian's
# python3-lttnganalyses 0.6.1), kept as fixtures in tests/data/analyses/expected
# (README.md there):
#  - schedlatency on the trace trax recorded and on the conformance
#    corpus's kernel trace, per-TID (the default), --total --per-tid
#    --per-prio, with --begin/--end: the JSON equals lttng-schedstats-mi's
#    value by value (mi-compare.py) and byte for byte, the text equals
#    lttng-schedstats' but for its first line ("Checking the trace...");
#  - irqstats: the hard IRQs are lttng-irqstats' (JSON and text, whole
#    and with a range); trax also shows the soft IRQs, which lttng-irqstats
#    never finds on LTTng traces (it looks for softirq_* events, LTTng
#    writes irq_softirq_*): compared without them (drop-soft.py), and, in
#    full, against lttng-irqstats run here on a copy of the trace whose
#    metadata names the soft IRQ events as it expects;
#  - traces without the events (no IRQ, no wakeup, no sched_switch): one
#    line naming them and the command that records them;
#  - the synthetic trace of test_analysis_sched (known answers, checked
#    there): trax and lttng-schedstats / lttng-irqstats run here agree,
#    whole, with a range and with filters;
#  - schedlatency --top N, --log, --freq (and --stats with them) as
#    lttng-schedtop, lttng-schedlog, lttng-schedfreq run here, on the
#    synthetic trace and the trace trax recorded.
. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/data/analyses
E=$D/expected
CMP=$TRAX_SRC/tests/integration/data/analyses/mi-compare.py
DROP=$TRAX_SRC/tests/integration/data/analyses/drop-soft.py
CONF=${TRAX_CONFORMANCE:-$TRAX_SRC/../shared/conformance}
SUCCEED=$CONF/ctf/succeed
[ -d "$SUCCEED" ] || fail "no conformance corpus at $CONF (set TRAX_CONFORMANCE)"
command -v python3 >/dev/null || fail "python3 is needed"
for c in lttng-schedstats lttng-schedstats-mi lttng-irqstats lttng-irqstats-mi; do
	command -v $c >/dev/null || fail "$c is needed (Debian's python3-lttnganalyses)"
done
TRAX=$TRAX_BUILD/trax
cd "$TEST_TMP"

# same NAME EXPECTED.json ACTUAL.json EXPECTED.txt ACTUAL.txt
same() {
	python3 "$CMP" "$2" "$3" >diff.txt || fail "$1: JSON differs from lttng-analyses': $(head -n 8 diff.txt)"
	cmp -s "$2" "$3" || fail "$1: JSON values equal but not the bytes"
	cmp -s "$4" "$5" || fail "$1: text differs from lttng-analyses': $(diff "$4" "$5" | head -n 8)"
}

# fixture ANALYSIS NAME TRACE [ARGS...]: text and JSON against E/NAME.*
fixture() {
	an=$1 name=$2 trace=$3
	shift 3
	"$TRAX" analyze "$an" "$@" "$trace" >out.txt 2>err.txt ||
		fail "$name: trax analyze $an $* failed: $(cat err.txt)"
	"$TRAX" analyze "$an" --format=json "$@" "$trace" >out.json 2>err.txt ||
		fail "$name: trax analyze $an --format=json $* failed: $(cat err.txt)"
	if [ "$an" = irqstats ]; then
		python3 "$DROP" out.json hard.json && mv hard.json out.json
		python3 "$DROP" --text out.txt hard.txt && mv hard.txt out.txt
	fi
	tail -n +2 "$E/$name.txt" >exp.txt
	same "$name" "$E/$name.json" out.json exp.txt out.txt
	n=$((n + 1))
}

n=0
K=$D/trax-kernel-trace/kernel
R=$SUCCEED/lttng-tracefile-rotation/kernel
B=07:00:17.100000000 EN=07:00:17.129000000
fixture schedlatency trax-kernel/schedstats "$K"
fixture schedlatency trax-kernel/schedstats-all "$K" --total --per-tid --per-prio
fixture schedlatency trax-kernel/schedstats-all-range "$K" --total --per-tid --per-prio --begin $B --end $EN
fixture schedlatency tracefile-rotation/schedstats "$R" --no-intersection
fixture schedlatency tracefile-rotation/schedstats-all "$R" --no-intersection --total --per-tid --per-prio
fixture schedlatency tracefile-rotation/schedstats-all-range "$R" --no-intersection --total --per-tid --per-prio \
	--begin 21:36:36.000000000 --end 21:36:37.000000000
fixture irqstats trax-kernel/irqstats "$K"
fixture irqstats trax-kernel/irqstats-range "$K" --begin $B --end $EN
ok "$n fixtures: text and JSON as lttng-schedstats' and lttng-irqstats' (hard IRQs)"

# the soft IRQs trax shows are those lttng-irqstats finds under the names it expects
grep -q 'name = "irq_softirq_entry"' "$K/metadata" || fail "the trax trace has no irq_softirq_entry"
softnames() {
	rm -rf "$2"
	cp -r "$1" "$2"
	sed -i 's/name = "irq_softirq_/name = "softirq_/' "$2/metadata"
}
# renamed SRC ARGS...: trax on SRC, lttng-irqstats on its renamed copy
renamed() {
	src=$1
	shift
	softnames "$src" "$TEST_TMP/ren/kernel"
	lttng-irqstats-mi "$@" "$TEST_TMP/ren/kernel" >lt.json 2>lt.err || fail "lttng-irqstats-mi $*: $(tail -n 3 lt.err)"
	lttng-irqstats --no-progress "$@" "$TEST_TMP/ren/kernel" 2>/dev/null | tail -n +2 >lt.txt
	"$TRAX" analyze irqstats --format=json "$@" "$src" >out.json || fail "trax analyze irqstats --format=json $*"
	"$TRAX" analyze irqstats "$@" "$src" >out.txt || fail "trax analyze irqstats $*"
	same "irqstats $* (soft IRQs renamed for lttng-irqstats)" lt.json out.json lt.txt out.txt
}
mkdir -p ren
renamed "$K"
renamed "$K" --begin $B --end $EN
renamed "$K" --cpu 1 --min 5
"$TRAX" analyze irqstats --format=json "$K" | grep -q '"class": "soft-stats"' || fail "no soft IRQ table"
ok "soft IRQs: as lttng-irqstats counts them when the events bear the names it looks for"

# traces without the events: one line naming them and how to record them
# need ANALYSIS WHAT TRACE [ARGS...]
need() {
	an=$1 what=$2 trace=$3
	shift 3
	st=0
	"$TRAX" analyze "$an" "$@" "$trace" >out.txt 2>err.txt || st=$?
	[ $st = 1 ] || fail "$an on $trace: exit $st, not 1"
	[ "$(wc -l <err.txt)" = 1 ] || fail "$an on $trace: not one line: $(cat err.txt)"
	grep -q "needs $what" err.txt && grep -q "trax enable-event -k" err.txt ||
		fail "$an on $trace: $(cat err.txt)"
}
need irqstats irq_handler_entry "$SUCCEED/multi-domains/kernel"
need irqstats irq_handler_entry "$R" --no-intersection
need schedlatency sched_switch "$SUCCEED/multi-domains/kernel"
# a trace with sched_switch and no wakeup
mkdir -p nowake
"$TRAX_BUILD/tests/test_analysis_synth" "$TEST_TMP/nowake" >/dev/null || fail "cannot write test_analysis_synth's trace"
need schedlatency "sched_waking or sched_wakeup" "$TEST_TMP/nowake/kernel"
ok "traces without IRQ or scheduling events: one line naming them and how to record them"

# the synthetic trace, against lttng-analyses run here
"$TRAX_BUILD/tests/test_analysis_sched" "$TEST_TMP/synth" >/dev/null || fail "cannot write the synthetic trace"
S=$TEST_TMP/synth/kernel
for args in "" "--total --per-tid --per-prio" "--total --begin 22:13:20.000016000 --end 1700000000000027000" \
	"--per-prio --cpu 1" "--total --min 4.5 --max 7" "--tid 200,300 --per-tid --total"; do
	# shellcheck disable=SC2086
	lttng-schedstats-mi $args "$S" >lt.json 2>/dev/null || fail "lttng-schedstats-mi $args failed"
	# shellcheck disable=SC2086
	lttng-schedstats --no-progress $args "$S" 2>/dev/null | tail -n +2 >lt.txt
	# shellcheck disable=SC2086
	"$TRAX" analyze schedlatency --format=json $args "$S" >out.json || fail "trax analyze schedlatency $args"
	# shellcheck disable=SC2086
	"$TRAX" analyze schedlatency $args "$S" >out.txt
	same "synthetic schedlatency $args" lt.json out.json lt.txt out.txt
done
# the lists: lttng-schedtop, -schedlog, -schedfreq (trax: --top, --log, --freq)
# lists TRACE: the same lists from lttng-TOOL ARGS and trax analyze schedlatency ARGS
# (lttng-schedtop --limit N is trax's --top N)
lists() {
	trace=$1
	for c in "schedtop||--top 10" "schedtop|--limit 3|--top 3" "schedlog||--log" "schedfreq||--freq" \
		"schedfreq|--total --per-tid --per-prio|--freq --total --per-tid --per-prio" \
		"schedstats|--top --log --freq --total --per-prio --min 3 --max 9000 --limit 4|--stats --top 4 --log --freq --total --per-prio --min 3 --max 9000"; do
		tool=${c%%|*}
		rest=${c#*|}
		lt=${rest%%|*}
		tx=${rest#*|}
		# shellcheck disable=SC2086
		lttng-$tool-mi $lt "$trace" >lt.json 2>/dev/null || fail "lttng-$tool-mi $lt failed"
		# shellcheck disable=SC2086
		lttng-$tool --no-progress $lt "$trace" 2>/dev/null | tail -n +2 >lt.txt
		# shellcheck disable=SC2086
		"$TRAX" analyze schedlatency --format=json $tx "$trace" >out.json || fail "trax analyze schedlatency $tx"
		# shellcheck disable=SC2086
		"$TRAX" analyze schedlatency $tx "$trace" >out.txt
		same "schedlatency $tx on $trace (lttng-$tool $lt)" lt.json out.json lt.txt out.txt
	done
}
lists "$S"
lists "$K"
renamed "$S"
renamed "$S" --begin 1700000000000016500
renamed "$S" --irq 10 --cpu 0
renamed "$S" --softirq 3,1 --min 0.7
ok "synthetic trace: as lttng-schedstats and lttng-irqstats, whole, with a range and filters"
