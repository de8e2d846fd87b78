#!/usr/bin/env bash
# bench/analyses.sh BUILD_DIR [TRACE]
#
# `trax analyze NAME` against the same lttng-analyses command (Debian's
# python3-lttnganalyses, its -mi JSON form) on the same kernel trace of at
# least a million events, one run each: wall time, peak memory (GNU time's
# maximum resident set), events per second, the ratio, and whether the
# two JSON documents are equal (value by value, mi-compare.py; irqstats
# without its soft IRQs, which lttng-irqstats never finds in LTTng traces:
# drop-soft.py). Issue 18's target: at least 50 times faster.
#
# Without TRACE, records one (root): the whole machine with trax's kernel
# domain (sched_*, irq_*, the state dump, every system call, contexts
# tid/pid/procname) while dd pipes BENCH_AN_WRITES (250000) 16-byte blocks
# to another dd and writes 4 MiB with fsync: about 2 million events.
#
# The analyses measured are the ANALYSES list below (one line per
# analysis: trax's arguments, then lttng's command and arguments); add a
# line for each analysis that has lttng-analyses' twin. The lttng
# commands take a minute or more each on such a trace.
#
# Knobs: BENCH_AN_WRITES, BENCH_RESULTS (bench/results: the table),
# BENCH_AN_KEEP=1 (keep the temporary directory and the trace).
set -euo pipefail

ANALYSES=(
	"cputop --limit 0|lttng-cputop-mi --limit 0"
	"schedlatency --total --per-tid --per-prio|lttng-schedstats-mi --total --per-tid --per-prio"
	"irqstats|lttng-irqstats-mi"
	"syscallstats|lttng-syscallstats-mi"
	"iolatency|lttng-iolatencystats-mi"
)

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: bench/analyses.sh BUILD_DIR [TRACE]" >&2
	exit 2
fi
case $1 in
/*) BUILD=$1 ;;
*) BUILD=$PWD/$1 ;;
esac
SRC=$(cd "$(dirname "$0")/.." && pwd)
RESULTS=${BENCH_RESULTS:-$SRC/bench/results}
WRITES=${BENCH_AN_WRITES:-250000}
CMP=$SRC/tests/integration/data/analyses/mi-compare.py
DROP=$SRC/tests/integration/data/analyses/drop-soft.py
export LC_ALL=C TZ=UTC

die() {
	echo "bench/analyses: $*" >&2
	exit 1
}
for tool in /usr/bin/time python3 lttng-cputop-mi lttng-schedstats-mi lttng-irqstats-mi \
	lttng-syscallstats-mi lttng-iolatencystats-mi; do
	command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (apt-get install time python3-lttnganalyses)"
done
[ -x "$BUILD/trax" ] && [ -x "$BUILD/traxd" ] || die "build trax first (trax and traxd in $BUILD)"
TRAX=$BUILD/trax
TMP=$(mktemp -d "${TMPDIR:-/tmp}/trax-analyses-bench.XXXXXX")
export TRAX_RUNDIR=$TMP/trax-run TRAX_HOME=$TMP/trax-home TRAX_DAEMON_PATH=$BUILD/traxd
mkdir -p "$TRAX_HOME" "$RESULTS"

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[ -f "$TRAX_RUNDIR/traxd.lock" ] && kill -TERM "$(head -n 1 "$TRAX_RUNDIR/traxd.lock")" 2>/dev/null
	if [ "${BENCH_AN_KEEP:-0}" = 1 ]; then echo "bench/analyses: kept $TMP" >&2; else rm -rf "$TMP"; fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ $# = 2 ]; then
	K=$2
else
	[ "$(id -u)" = 0 ] || die "recording a kernel trace needs root (or give TRACE)"
	"$TRAX" create anbench --output="$TMP/out" >/dev/null || die "trax create failed"
	"$TRAX" enable-event -k 'sched_*,irq_*,lttng_statedump_*' >/dev/null 2>&1 || die "enable-event -k"
	"$TRAX" enable-event -k --syscall -a >/dev/null 2>&1 || die "enable-event -k --syscall -a"
	"$TRAX" add-context -k -t tid -t pid -t procname >/dev/null 2>&1 || die "add-context -k"
	"$TRAX" start >/dev/null || die "start"
	dd if=/dev/zero bs=16 count="$WRITES" 2>/dev/null | dd bs=16 of=/dev/null 2>/dev/null
	dd if=/dev/zero of="$TMP/dd.bin" bs=64k count=64 conv=fsync 2>/dev/null
	"$TRAX" stop >/dev/null || die "stop"
	"$TRAX" destroy anbench >/dev/null
	K=$TMP/out/kernel
fi
EVENTS=$("$TRAX" view --count "$K" | awk '{print $1}')
[ "$EVENTS" -ge 1000000 ] || echo "bench/analyses: only $EVENTS events (the target is measured on a million or more)" >&2

# measure LABEL OUT COMMAND...: "seconds kbytes" of one run, its stdout in OUT
measure() {
	local out=$2
	shift 2
	/usr/bin/time -f "%e %M" -o "$TMP/time" "$@" >"$out" 2>"$TMP/err" || die "$* failed: $(tail -n 3 "$TMP/err")"
	cat "$TMP/time"
}

TABLE=$RESULTS/analyses.md
{
	echo "Kernel trace: $EVENTS events, $(du -sh "$K" | cut -f1); $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "| analysis | trax s | trax MB | trax events/s | lttng s | lttng MB | times faster | same JSON |"
	echo "|---|---|---|---|---|---|---|---|"
} >"$TABLE"
for line in "${ANALYSES[@]}"; do
	tx=${line%%|*}
	lt=${line#*|}
	name=${tx%% *}
	# shellcheck disable=SC2086
	read -r ts tk < <(measure trax "$TMP/tx.json" "$TRAX" analyze $tx --format=json "$K")
	# shellcheck disable=SC2086
	read -r ls lk < <(measure lttng "$TMP/lt.json" $lt "$K")
	if [ "$name" = irqstats ]; then
		python3 "$DROP" "$TMP/tx.json" "$TMP/hard.json" && mv "$TMP/hard.json" "$TMP/tx.json"
	fi
	if python3 "$CMP" "$TMP/lt.json" "$TMP/tx.json" >"$TMP/diff"; then same=yes; else same="NO: $(head -n 1 "$TMP/diff")"; fi
	row=$(python3 -c "
ts, tk, ls, lk, ev = $ts, $tk, $ls, $lk, $EVENTS
print('| %s | %.2f | %.1f | %.2f M | %.1f | %.0f | %.0f | ' % ('$name', ts, tk / 1024, ev / max(ts, 0.01) / 1e6, ls, lk / 1024, ls / max(ts, 0.01)), end='')")
	echo "$row$same |" | tee -a "$TABLE"
done
echo "bench/analyses: table in $TABLE" >&2
