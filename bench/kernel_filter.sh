#!/usr/bin/env bash
# bench/kernel_filter.sh BUILD_DIR
#
# What evaluating a kernel channel's filter before the event is recorded
# saves. BENCH_KFILTER_KIND picks the events:
#
#   switch (default): two threads pinned to CPU 0 pass a byte through two
#     pipes BENCH_KFILTER_ROUNDS times (bench/kwork_bench.c pingpong: 2
#     sched_switch per round trip); trax records sched_switch with a filter
#     that rejects every event ('prev_tid == -5'), pushed into the kernel's
#     own event filter (src/kernel/kfpush*.c: prev_pid == -5);
#   syscalls: one thread per CPU, each BENCH_KFILTER_ROUNDS times getppid()
#     then read() of 64 bytes (kwork_bench syscalls: 4 events per round);
#     trax records `--syscall read --filter 'fd == 12345'` and `--syscall
#     getppid --filter '$ctx.tid == -5'`, which reject every call, checked
#     by the BPF probes' guards (src/kernel/syscall-guard.c: fd, the
#     thread id; read's exit has no fd: never recorded).
#
# Configurations:
#   untraced   no session;
#   after      the filter run by traxd only, after the kernel recorded
#              each event (TRAX_KERNEL_FILTER=after in traxd's environment:
#              what trax did before);
#   pushed     the filter evaluated before recording (kernel filter, guards);
#   unfiltered the same events recorded and written, for scale.
#
# Measured, BENCH_KFILTER_REPS times each (median; the configurations take
# turns): the workload's own time per round trip (us; syscalls: per call,
# ns), and traxd's CPU time (its threads' /proc/PID/task/*/schedstat) from
# start to stop, per event of the workload (ns), taken 0.6 s after the
# workload ends and before the stop (which ends the reader threads): the
# reading and converting of the records. Needs root and tracefs (and BPF
# for syscalls).
set -euo pipefail

BUILD=$(cd "${1:?usage: bench/kernel_filter.sh BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${BENCH_KFILTER_ROUNDS:-100000}
KIND=${BENCH_KFILTER_KIND:-switch}
case $KIND in
switch) MODE=pingpong EVENTS=$((2 * ROUNDS)) UNIT=us ;;
syscalls) MODE=syscalls EVENTS=$((2 * 4 * ROUNDS)) UNIT=ns ;; # 2 threads
*)
	echo "kernel_filter.sh: BENCH_KFILTER_KIND is switch or syscalls" >&2
	exit 2
	;;
esac
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
	local div=1000
	[ "$UNIT" = ns ] && div=1
	[ "$cfg" = untraced ] && {
		out=$("$TMP/kwork" "$MODE" "$ROUNDS")
		awk -v l="$out" -v d="$div" 'BEGIN { match(l, /ns_per_op=[0-9.]+/); printf "%.2f -\n", substr(l, RSTART + 10, RLENGTH - 10) / d }'
		return
	}
	stop_daemon
	if [ "$cfg" = after ]; then export TRAX_KERNEL_FILTER=after; else unset TRAX_KERNEL_FILTER; fi
	rm -rf "$TMP/out"
	"$TRAX" create b --output="$TMP/out" >/dev/null
	if [ "$KIND" = syscalls ]; then
		if [ "$cfg" = unfiltered ]; then
			"$TRAX" enable-event -k --syscall read,getppid >/dev/null
		else
			"$TRAX" enable-event -k --syscall read --filter 'fd == 12345' >/dev/null
			"$TRAX" enable-event -k --syscall getppid --filter '$ctx.tid == -5' >/dev/null
		fi
	elif [ "$cfg" = unfiltered ]; then
		"$TRAX" enable-event -k sched_switch >/dev/null
	else
		"$TRAX" enable-event -k sched_switch --filter 'prev_tid == -5' >/dev/null
	fi
	"$TRAX" start >/dev/null
	t0=$(cpu_ns)
	out=$("$TMP/kwork" "$MODE" "$ROUNDS")
	sleep 0.6 # the readers wake (200 ms) and take what the kernel holds; measured before
	t1=$(cpu_ns) # the stop ends them (an exited thread's time is not in task/)
	"$TRAX" stop >/dev/null
	"$TRAX" destroy b >/dev/null
	ns=$(((t1 - t0) / EVENTS))
	awk -v l="$out" -v ns="$ns" -v d="$div" 'BEGIN { match(l, /ns_per_op=[0-9.]+/); printf "%.2f %d\n", substr(l, RSTART + 10, RLENGTH - 10) / d, ns }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

CONFIGS="untraced after pushed unfiltered"
for r in $(seq "$REPS"); do
	for cfg in $CONFIGS; do
		run "$cfg" >>"$TMP/$cfg.txt"
	done
	CONFIGS="${CONFIGS#* } ${CONFIGS%% *}" # the next one starts first
done
if [ "$KIND" = syscalls ]; then
	printf "%-11s %16s %26s\n" config "ns/system call" "traxd CPU ns/event"
else
	printf "%-11s %16s %26s\n" config "us/round trip" "traxd CPU ns/sched_switch"
fi
for cfg in untraced after pushed unfiltered; do
	cpu=-
	[ "$cfg" = untraced ] || cpu=$(cut -d' ' -f2 "$TMP/$cfg.txt" | median)
	printf "%-11s %16s %26s\n" "$cfg" "$(cut -d' ' -f1 "$TMP/$cfg.txt" | median)" "$cpu"
done
if [ "$KIND" = syscalls ]; then
	echo "(2 threads x $ROUNDS x getppid and read, $EVENTS events, median of $REPS; filters 'fd == 12345', '\$ctx.tid == -5')"
else
	echo "($ROUNDS round trips, 2 sched_switch each, median of $REPS; filter 'prev_tid == -5')"
fi
