#!/usr/bin/env bash
# bench/kernel_filter.sh BUILD_DIR
#
# What pushing a kernel channel's filter into the kernel (src/kernel/
# kfpush*.c) saves: two threads pinned to CPU 0 pass a byte through two
# pipes BENCH_KFILTER_ROUNDS times (bench/kwork_bench.c pingpong: 2
# sched_switch per round trip), while trax records sched_switch with a
# filter that rejects every event ('prev_tid == -5'):
#
#   untraced   no session;
#   after      the filter run by traxd only, after the kernel recorded
#              each event (TRAX_KERNEL_FILTER=after in traxd's environment:
#              what trax did before);
#   pushed     the filter translated into the instance's kernel filter
#              (prev_pid == -5): the kernel evaluates it and records nothing;
#   unfiltered sched_switch recorded and written, for scale.
#
# Measured, BENCH_KFILTER_REPS times each (median; the configurations take
# turns): the workload's own time per round trip (us), and traxd's CPU time
# (its threads' /proc/PID/task/*/schedstat) from start to stop, per
# sched_switch of the workload (ns), taken 0.6 s after the workload ends
# and before the stop (which ends the reader threads): the reading and
# converting the kernel's records cost. Needs root and tracefs.
set -euo pipefail

BUILD=$(cd "${1:?usage: bench/kernel_filter.sh BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${BENCH_KFILTER_ROUNDS:-100000}
REPS=${BENCH_KFILTER_REPS:-5}
CC=${CC:-cc}
die() {
	echo "kernel_filter.sh: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "needs root"
[ -x "$BUILD/trax" ] && [ -x "$BUILD/traxd" ] || die "build trax first"
TMP=$(mktemp -d /tmp/trax-bench-kfilter.XXXXXX)
stop_daemon() {
	[ -f "$TMP/run/traxd.lock" ] || return 0
	local p
	p=$(head -n 1 "$TMP/run/traxd.lock")
	kill -TERM "$p" 2>/dev/null || return 0
	for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
	rm -f "$TMP/run/traxd.lock"
}
trap 'stop_daemon; rm -rf "$TMP"' EXIT
export TRAX_RUNDIR=$TMP/run TRAX_HOME=$TMP/home TRAX_DAEMON_PATH=$BUILD/traxd
mkdir -p "$TRAX_HOME"
TRAX=$BUILD/trax
"$CC" -O2 -Wall -pthread -o "$TMP/kwork" "$SRC/bench/kwork_bench.c" || die "cannot build kwork_bench"

cpu_ns() { # the CPU time of traxd's threads (ns: schedstat's first field)
	cat /proc/"$(head -n 1 "$TMP/run/traxd.lock")"/task/*/schedstat | awk '{ n += $1 } END { printf "%d\n", n }'
}

# run CONFIG: one measurement, "us_per_round ns_cpu_per_switch"
run() {
	local cfg=$1 out t0 t1 ns
	[ "$cfg" = untraced ] && {
		out=$("$TMP/kwork" pingpong "$ROUNDS")
		awk -v l="$out" 'BEGIN { match(l, /ns_per_op=[0-9.]+/); printf "%.2f -\n", substr(l, RSTART + 10, RLENGTH - 10) / 1000 }'
		return
	}
	stop_daemon
	if [ "$cfg" = after ]; then export TRAX_KERNEL_FILTER=after; else unset TRAX_KERNEL_FILTER; fi
	rm -rf "$TMP/out"
	"$TRAX" create b --output="$TMP/out" >/dev/null
	if [ "$cfg" = unfiltered ]; then
		"$TRAX" enable-event -k sched_switch >/dev/null
	else
		"$TRAX" enable-event -k sched_switch --filter 'prev_tid == -5' >/dev/null
	fi
	"$TRAX" start >/dev/null
	t0=$(cpu_ns)
	out=$("$TMP/kwork" pingpong "$ROUNDS")
	sleep 0.6 # the readers wake (200 ms) and take what the kernel holds; measured before
	t1=$(cpu_ns) # the stop ends them (an exited thread's time is not in task/)
	"$TRAX" stop >/dev/null
	"$TRAX" destroy b >/dev/null
	ns=$(((t1 - t0) / (2 * ROUNDS)))
	awk -v l="$out" -v ns="$ns" 'BEGIN { match(l, /ns_per_op=[0-9.]+/); printf "%.2f %d\n", substr(l, RSTART + 10, RLENGTH - 10) / 1000, ns }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

CONFIGS="untraced after pushed unfiltered"
for r in $(seq "$REPS"); do
	for cfg in $CONFIGS; do
		run "$cfg" >>"$TMP/$cfg.txt"
	done
	CONFIGS="${CONFIGS#* } ${CONFIGS%% *}" # the next one starts first
done
printf "%-11s %16s %26s\n" config "us/round trip" "traxd CPU ns/sched_switch"
for cfg in untraced after pushed unfiltered; do
	cpu=-
	[ "$cfg" = untraced ] || cpu=$(cut -d' ' -f2 "$TMP/$cfg.txt" | median)
	printf "%-11s %16s %26s\n" "$cfg" "$(cut -d' ' -f1 "$TMP/$cfg.txt" | median)" "$cpu"
done
echo "($ROUNDS round trips, 2 sched_switch each, median of $REPS; filter 'prev_tid == -5')"
