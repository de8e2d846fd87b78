#!/bin/sh
# analyze_irq_lists.sh - `trax analyze irqstats --freq` and `--log` print
# what lttng-irqfreq and lttng-irqlog (Debian's python3-lttnganalyses
# 0.6.1) print, text byte for byte and JSON (their -mi forms) byte for
# byte, on the kernel trace trax recorded (tests/data/analyses/
# trax-kernel-trace): lttng-analyses run here on a copy whose soft IRQ
# events bear the names it looks for (softirq_*, see analyze_sched_irq.sh),
# trax on the trace itself: the distributions' bounds and counts, every
# handler run with its times, CPU, number, name and raise time, with
# --stats, --cpu, --min/--max, --irq/--softirq and a time range.
. "$TRAX_SRC/tests/integration/lib.sh"
K=$TRAX_SRC/tests/data/analyses/trax-kernel-trace/kernel
CMP=$TRAX_SRC/tests/integration/data/analyses/mi-compare.py
TRAX=$TRAX_BUILD/trax
for c in lttng-irqfreq lttng-irqfreq-mi lttng-irqlog lttng-irqlog-mi lttng-irqstats lttng-irqstats-mi python3; do
	command -v $c >/dev/null || fail "$c is needed (Debian's python3-lttnganalyses)"
done
cd "$TEST_TMP"
mkdir ren
cp -r "$K" ren/kernel
sed -i 's/name = "irq_softirq_/name = "softirq_/' ren/kernel/metadata
grep -q 'name = "softirq_entry"' ren/kernel/metadata || fail "the trace has no irq_softirq_entry to rename"

n=0
# check LTTNG-COMMAND "TRAX OPTIONS" ARGS...: the same text and JSON
check() {
	lt=$1 topts=$2
	shift 2
	"$lt-mi" "$@" ren/kernel >lt.json 2>lt.err || fail "$lt-mi $*: $(tail -n 3 lt.err)"
	"$lt" --no-progress "$@" ren/kernel 2>/dev/null | tail -n +2 >lt.txt
	# shellcheck disable=SC2086
	"$TRAX" analyze irqstats $topts --format=json "$@" "$K" >out.json 2>err.txt ||
		fail "trax analyze irqstats $topts $*: $(cat err.txt)"
	# shellcheck disable=SC2086
	"$TRAX" analyze irqstats $topts "$@" "$K" >out.txt 2>err.txt ||
		fail "trax analyze irqstats $topts $*: $(cat err.txt)"
	python3 "$CMP" lt.json out.json >diff.txt || fail "$lt $*: JSON differs: $(head -n 8 diff.txt)"
	cmp -s lt.json out.json || fail "$lt $*: JSON values equal but not the bytes"
	cmp -s lt.txt out.txt || fail "$lt $*: text differs: $(diff lt.txt out.txt | head -n 8)"
	[ "$(wc -l <out.txt)" -gt 3 ] || fail "$lt $*: almost nothing printed: the case tests nothing"
	n=$((n + 1))
}
B=07:00:17.100000000 EN=07:00:17.129000000
check lttng-irqfreq --freq
check lttng-irqfreq --freq --cpu 1 --min 5
check lttng-irqfreq --freq --softirq 1,7 --max 20
check lttng-irqfreq --freq --irq 36,42 --softirq 4
check lttng-irqfreq --freq --begin $B --end $EN
check lttng-irqstats "--stats --freq" --freq
check lttng-irqstats "--stats --freq" --freq --irq 42
check lttng-irqlog --log
check lttng-irqlog --log --begin $B --end $EN
check lttng-irqlog --log --irq 36
check lttng-irqlog --log --softirq 7 --cpu 0
check lttng-irqfreq "--freq --log" --log
check lttng-irqstats "--stats --log" --log
check lttng-irqstats "--stats --freq --log" --freq --log
grep -q "(raised at " out.txt || fail "no soft IRQ's raise time in the log"
grep -q "Handler duration frequency distribution virtio" out.txt || fail "no hard IRQ's distribution"
ok "$n cases: irqstats --freq/--log text and JSON as lttng-irqfreq/-irqlog (and -irqstats with them)"
