#!/usr/bin/env bash
# bench/kernel.sh BUILD_DIR
#
# The kernel domain (issue 17) against the kernel's own tools: the same
# workloads (bench/kwork_bench.c) run untraced, under trax (traxd, kernel
# channel of 4 x 1 MiB per CPU, LTTng's default), under `trace-cmd record`
# (its own tracefs instance, -b 4096 KiB per CPU) and under `perf record -a`
# (-m 4M per CPU), each recording the same tracepoints system-wide:
#
#   (a) scheduler: two threads pinned to CPU 0 pass a byte through two
#       pipes BENCH_KERNEL_PINGPONG times; trax: enable-event -k
#       sched_switch,sched_waking,sched_wakeup; trace-cmd and perf:
#       sched:sched_switch, sched:sched_waking, sched:sched_wakeup;
#   (b) system calls: one thread per CPU, each BENCH_KERNEL_SYSCALLS times
#       getppid() then read() of 64 bytes from /dev/zero; trax:
#       enable-event -k --syscall getppid,read (LTTng's syscall_entry_/exit_
#       events, with their arguments); trace-cmd and perf: the kernel's
#       syscalls:sys_enter_getppid, sys_exit_getppid, sys_enter_read and
#       sys_exit_read.
#
# Measured, BENCH_KERNEL_REPS times each (median; the order of the four
# configurations turns at each repetition so they share the background load):
#   - the workload's own time (it times itself: the tracers' start and stop
#     are not in it): us per round trip, ns per system call, and the
#     slowdown against no tracing; for (b) the cost each tracer adds to one
#     system call;
#   - events recorded and lost as each tracer counts them: trax view --count
#     and the channel's "Discarded events" (trax list); trace-cmd's per-CPU
#     the lines of trace-cmd report and the kernel's loss counters stored in
#     trace.dat (overrun, commit overrun, dropped events); perf report
#     --stats (samples, LOST_SAMPLES);
#   - bytes per event on disk: trax's OUTPUT/kernel directory (metadata and
#     index included), trace.dat as trace-cmd writes it (compressed with zstd
#     by default since trace-cmd 3.0; the size it reports before compression
#     is shown too), perf.data; each divided by the events it holds;
#   - IRQ-work interrupts per 1000 events (x86's IWI line of
#     /proc/interrupts, across the workload): how often the tracer's buffers
#     wake their reader;
#   - (c) sustained rate: workload (b) paced (BENCH_KERNEL_RATE_SECONDS per
#     run), its event rate doubled from 125k events/s until a tracer loses
#     an event, falls below 95% of the pace, or records fewer events than
#     the workload made (one retry: the machine is shared), then bisected
#     BENCH_KERNEL_STEPS times; the highest rate that passed, per tracer.
#
# Targets (issue 17): overhead no higher than trace-cmd's for the same
# tracepoints; nothing lost at rates trace-cmd keeps up with; fewer bytes per
# event than trace-cmd's trace.dat.
#
# Needs root, tracefs, cc, trace-cmd and perf (tools/install-deps.sh bench
# installs trace-cmd). Other tracers on the machine (another traxd's system
# call probes, other tracefs instances) are reported before the table: they
# slow every system call or scheduler event, untraced runs included.
# trace-cmd records into its own instance (trax-test-bench-PID), never the
# top-level buffer; it is run with --no-filter -d because this kernel has no
# function tracer (without them trace-cmd 3.1 writes ftrace_enabled or
# set_ftrace_pid, which fail, and crashes).
#
# Knobs: BENCH_KERNEL_REPS (5), BENCH_KERNEL_PINGPONG (100000),
# BENCH_KERNEL_SYSCALLS (200000), BENCH_KERNEL_RATE_SECONDS (1),
# BENCH_KERNEL_RATE_MAX (16000000), BENCH_KERNEL_STEPS (2),
# BENCH_KERNEL_KEEP=1 (keep the temporary directory), BENCH_RESULTS
# (bench/results: the table and the log), CC. About 3 minutes.
# Exit status: 0 when everything was measured (the table says which targets
# are met), 1 when something could not be, 2 on usage errors.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: bench/kernel.sh BUILD_DIR" >&2
	exit 2
fi
case $1 in
/*) BUILD=$1 ;;
*) BUILD=$PWD/$1 ;;
esac
SRC=$(cd "$(dirname "$0")/.." && pwd)
REPS=${BENCH_KERNEL_REPS:-5}
N_PP=${BENCH_KERNEL_PINGPONG:-100000}
N_SC=${BENCH_KERNEL_SYSCALLS:-200000}
RATE_SECONDS=${BENCH_KERNEL_RATE_SECONDS:-1}
RATE_MAX=${BENCH_KERNEL_RATE_MAX:-16000000}
STEPS=${BENCH_KERNEL_STEPS:-2}
RESULTS=${BENCH_RESULTS:-$SRC/bench/results}
CC=${CC:-cc}
T=120 # seconds: any single command
TRACEFS=/sys/kernel/tracing
export LC_ALL=C TZ=UTC

die() {
	echo "bench/kernel: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "the kernel domain needs root"
for tool in "$CC" trace-cmd perf timeout stdbuf; do
	command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (tools/install-deps.sh bench)"
done
[ -x "$BUILD/trax" ] && [ -x "$BUILD/traxd" ] || die "build trax first (trax and traxd in $BUILD)"
if ! [ -d "$TRACEFS/instances" ]; then
	mount -t tracefs nodev "$TRACEFS" 2>/dev/null || die "tracefs is not mounted on $TRACEFS and cannot be"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/trax-kernel-bench.XXXXXX")
LOG=$TMP/log
INST=trax-test-bench-$$ # trace-cmd's tracefs instance
TC_PID="" PERF_PID=""
note() { printf '%s\n' "$*" | tee -a "$LOG" >&2; }

export TRAX_RUNDIR=$TMP/trax-run TRAX_HOME=$TMP/trax-home TRAX_DAEMON_PATH=$BUILD/traxd
mkdir -p "$TRAX_HOME"
TRAX=$BUILD/trax

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[ -n "$TC_PID" ] && kill -INT "$TC_PID" 2>/dev/null && wait "$TC_PID" 2>/dev/null
	[ -n "$PERF_PID" ] && kill -INT "$PERF_PID" 2>/dev/null && wait "$PERF_PID" 2>/dev/null
	[ -d "$TRACEFS/instances/$INST" ] && rmdir "$TRACEFS/instances/$INST" 2>/dev/null
	[ -f "$TRAX_RUNDIR/traxd.lock" ] && kill -TERM "$(head -n 1 "$TRAX_RUNDIR/traxd.lock")" 2>/dev/null
	sleep 0.3
	if [ "${BENCH_KERNEL_KEEP:-0}" = 1 ]; then echo "bench/kernel: kept $TMP" >&2; else rm -rf "$TMP"; fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM

KWORK=$TMP/kwork_bench
"$CC" -O2 -g -Wall -pthread -o "$KWORK" "$SRC/bench/kwork_bench.c" || die "cannot build bench/kwork_bench.c"
"$TRAX" create warmup --output="$TMP/warmup" >>"$LOG" 2>&1 || die "trax create failed (traxd: $BUILD/traxd)"
"$TRAX" destroy warmup >>"$LOG" 2>&1

# ---- what each configuration records

TRAX_SCHED=sched_switch,sched_waking,sched_wakeup
TRAX_SYSCALLS=getppid,read
TP_SCHED=(sched:sched_switch sched:sched_waking sched:sched_wakeup)
TP_SYSCALLS=(syscalls:sys_enter_getppid syscalls:sys_exit_getppid
	syscalls:sys_enter_read syscalls:sys_exit_read)
NCPU=$(nproc)

iwi() { awk '$1 == "IWI:" { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s; f = 1 } END { if (!f) print 0 }' /proc/interrupts; }
now() { date +%s%N; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; } # field NAME < "k=v k=v"

# One run's results (run sets them): the workload's line, events recorded
# and lost, bytes on disk: the whole trace, its event data alone, that data
# before compression; nanoseconds to stop, IRQ-work interrupts.
R_LINE="" R_EVENTS=0 R_LOST=0 R_BYTES=0 R_DATA=0 R_RAW=0 R_STOP=0 R_IWI=0
RUN=0

# work WORKLOAD [RATE]: the workload, its line in R_LINE, IWIs in R_IWI
work() {
	local i0
	i0=$(iwi)
	if [ "$1" = sched ]; then
		R_LINE=$(timeout $T "$KWORK" pingpong "$N_PP" 0)
	else
		R_LINE=$(timeout $T "$KWORK" syscalls "${N_RUN:-$N_SC}" ${2:+"$2"})
	fi
	R_IWI=$(($(iwi) - i0))
	echo "  $R_LINE" >>"$LOG"
}

tp_args() { # tp_args WORKLOAD: -e TP... for trace-cmd and perf
	local tp
	if [ "$1" = sched ]; then set -- "${TP_SCHED[@]}"; else set -- "${TP_SYSCALLS[@]}"; fi
	for tp; do printf -- '-e\n%s\n' "$tp"; done
}

filebytes() { find "$@" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; } # filebytes DIR [TESTS]

run_trax() { # run_trax WORKLOAD DIR [RATE]
	local s=k$RUN t0
	"$TRAX" create "$s" --output="$2/out" >>"$LOG" 2>&1 || return 1
	if [ "$1" = sched ]; then
		"$TRAX" enable-event -s "$s" -k "$TRAX_SCHED"
	else
		"$TRAX" enable-event -s "$s" -k --syscall "$TRAX_SYSCALLS"
	fi >>"$LOG" 2>&1 || return 1
	"$TRAX" start "$s" >>"$LOG" 2>&1 || return 1
	work "$1" ${3:+"$3"} || return 1
	t0=$(now)
	"$TRAX" stop "$s" >>"$LOG" 2>&1 || return 1
	R_STOP=$(($(now) - t0))
	R_LOST=$("$TRAX" list "$s" 2>>"$LOG" | awk '/Discarded events:/ { s += $3 } END { print s + 0 }')
	"$TRAX" destroy "$s" >>"$LOG" 2>&1 || return 1
	R_EVENTS=$("$TRAX" view --count "$2/out/kernel" 2>>"$LOG" | awk '{ print $1 }')
	R_BYTES=$(filebytes "$2/out/kernel")
	# the stream files: what is left without metadata and index/
	R_DATA=$(filebytes "$2/out/kernel" -maxdepth 1 ! -name metadata)
	R_RAW=$R_DATA
	[ -n "$R_EVENTS" ]
}

run_tracecmd() { # run_tracecmd WORKLOAD DIR [RATE]
	local t0 i stats
	mapfile -t tps < <(tp_args "$1")
	# its per-CPU files and "(null).cpuN" go to the working directory
	(cd "$2" && exec stdbuf -oL trace-cmd record --no-filter -d -B "$INST" -b 4096 "${tps[@]}" \
		-o "$2/trace.dat" >"$2/record.out" 2>&1) &
	TC_PID=$!
	for i in $(seq 200); do
		grep -q 'Hit Ctrl' "$2/record.out" 2>/dev/null && break
		kill -0 "$TC_PID" 2>/dev/null || break
		sleep 0.05
	done
	grep -q 'Hit Ctrl' "$2/record.out" || {
		cat "$2/record.out" >>"$LOG"
		return 1
	}
	work "$1" ${3:+"$3"} || return 1
	t0=$(now)
	kill -INT "$TC_PID"
	# trace-cmd 3.1 fails at the very end (it resets set_ftrace_filter,
	# which this kernel does not have) and leaves its instance: the trace
	# is complete by then, and the instance is removed here
	wait "$TC_PID" || true
	TC_PID=""
	R_STOP=$(($(now) - t0))
	rmdir "$TRACEFS/instances/$INST" 2>/dev/null || true
	cat "$2/record.out" >>"$LOG"
	[ -s "$2/trace.dat" ] || return 1
	# the kernel's loss counters, as trace-cmd stored them at the stop (its
	# "entries" and "read events" are taken before its last read: not used)
	stats=$(trace-cmd report --stat -i "$2/trace.dat" 2>>"$LOG")
	R_LOST=$(printf '%s\n' "$stats" | awk '/^(overrun|commit overrun|dropped events):/ { s += $NF } END { print s + 0 }')
	# the events in the file: one line each, "COMM-PID [CPU] TIME: EVENT: ..."
	R_EVENTS=$(trace-cmd report -i "$2/trace.dat" 2>>"$LOG" | grep -c ' \[[0-9]*\] *[0-9]*\.[0-9]*: ' || true)
	R_BYTES=$(filebytes "$2/trace.dat")
	# its per-CPU event sections ("N bytes in size (M uncompressed)"); the
	# rest of the file is fixed: formats, kallsyms, printk formats, names
	R_DATA=$(awk '/bytes in size/ { c += $1 } END { print c + 0 }' "$2/record.out")
	R_RAW=$(awk '/bytes in size/ { u += substr($5, 2) } END { print u + 0 }' "$2/record.out")
}

run_perf() { # run_perf WORKLOAD DIR [RATE]
	local t0 a stats
	mapfile -t tps < <(tp_args "$1")
	mkfifo "$2/ctl" "$2/ack"
	# started with its events off; on once set up (it acknowledges "enable")
	perf record -q -a -m 4M -D -1 --control "fifo:$2/ctl,$2/ack" "${tps[@]}" -o "$2/perf.data" \
		>"$2/record.out" 2>&1 &
	PERF_PID=$!
	exec 8<>"$2/ctl" 9<>"$2/ack"
	echo enable >&8
	a=""
	read -r -t 30 -u 9 a || true
	exec 8>&- 9>&-
	[ "$a" = ack ] || {
		cat "$2/record.out" >>"$LOG"
		return 1
	}
	work "$1" ${3:+"$3"} || return 1
	t0=$(now)
	kill -INT "$PERF_PID"
	wait "$PERF_PID" || true
	PERF_PID=""
	R_STOP=$(($(now) - t0))
	[ -s "$2/perf.data" ] || return 1
	stats=$(perf report -i "$2/perf.data" --stats 2>>"$LOG")
	# the counts under the enabled tracepoints' own headings
	R_EVENTS=$(printf '%s\n' "$stats" | awk '/^(sched|syscalls):[a-z_]+ stats:$/ { on = 1; next } / stats:$/ { on = 0 } on && /SAMPLE events:/ { s += $3 } END { print s + 0 }')
	R_LOST=$(printf '%s\n' "$stats" | awk '/^(sched|syscalls):[a-z_]+ stats:$/ { on = 1; next } / stats:$/ { on = 0 } on && /LOST_SAMPLES events:/ { s += $3 } END { print s + 0 }')
	R_BYTES=$(filebytes "$2/perf.data")
	R_DATA=NA R_RAW=NA
}

# run TRACER WORKLOAD [RATE]: one run; appends its figures to $TMP/runs
run() {
	local tracer=$1 wl=$2 rate=${3:-} dir ok=0
	RUN=$((RUN + 1))
	dir=$TMP/r$RUN
	mkdir "$dir"
	R_LINE="" R_EVENTS=0 R_LOST=0 R_BYTES=0 R_DATA=0 R_RAW=0 R_STOP=0 R_IWI=0
	echo "run $RUN: $tracer $wl ${rate:+rate $rate}" >>"$LOG"
	case $tracer in
	none) work "$wl" $rate || ok=1 ;;
	trax) run_trax "$wl" "$dir" $rate || ok=1 ;;
	trace-cmd) run_tracecmd "$wl" "$dir" $rate || ok=1 ;;
	perf) run_perf "$wl" "$dir" $rate || ok=1 ;;
	esac
	rm -rf "$dir"
	if [ $ok != 0 ] || [ -z "$R_LINE" ]; then
		note "  run $RUN ($tracer, $wl) failed (log: $LOG)"
		return 1
	fi
	printf '%s %s %s %s %s %s %s %s %s %s %s\n' "$wl" "$tracer" \
		"$(echo "$R_LINE" | field ns_per_op)" "$R_EVENTS" "$R_LOST" "$R_BYTES" "$R_DATA" "$R_RAW" \
		"$R_STOP" "$R_IWI" "$(echo "$R_LINE" | field ops_per_s)" >>"$TMP/runs"
}

# ---- the state of the machine

LOADAVG=$(cut -d' ' -f1-3 /proc/loadavg)
OTHERS=""
if command -v bpftool >/dev/null 2>&1; then
	n=$(bpftool link list 2>/dev/null | grep -c "tp 'sys_enter'" || true)
	[ "$n" = 0 ] || OTHERS="$n BPF program(s) on sys_enter (another tracer's system call probes)"
fi
busy=0
for d in "$TRACEFS"/instances/*/; do
	[ -f "$d/tracing_on" ] && [ "$(cat "$d/tracing_on")" = 1 ] && [ -n "$(grep -v '^$' "$d/set_event" 2>/dev/null)" ] &&
		busy=$((busy + 1))
done
[ $busy = 0 ] || OTHERS="${OTHERS:+$OTHERS; }$busy other tracefs instance(s) recording"

FAILED=0
TRACERS=(none trax trace-cmd perf)
note "bench/kernel: $REPS repetitions of (a) $N_PP round trips and (b) $N_SC x 2 system calls per thread"
for rep in $(seq "$REPS"); do
	# the order turns at each repetition
	k=$(((rep - 1) % ${#TRACERS[@]}))
	order=("${TRACERS[@]:$k}" "${TRACERS[@]:0:$k}")
	for wl in sched syscalls; do
		for tr in "${order[@]}"; do
			run "$tr" "$wl" || FAILED=1
		done
	done
	note "  repetition $rep done"
done

# ---- (c) the sustained rate: (b) paced, doubled until a tracer fails

# trial TRACER EVENTS_PER_S: 0 when nothing was lost at that pace
trial() {
	local tracer=$1 eps=$2 rate n want got lost pace
	rate=$((eps / 4 / NCPU)) # iterations per second per thread: 4 events each
	n=$((rate * RATE_SECONDS))
	want=$((n * 4 * NCPU))
	N_RUN=$n run "$tracer" syscalls "$rate" || {
		WHY="the run failed"
		return 2
	}
	read -r _ _ _ got lost _ _ _ _ _ pace < <(tail -n 1 "$TMP/runs")
	sed -i '$d' "$TMP/runs" # not one of the repetitions
	pace=$(awk -v p="$pace" 'BEGIN { printf "%.0f", p * 2 }') # events per second
	note "  $tracer at $eps events/s: $got recorded (workload $want), $lost lost, paced at $pace/s events"
	if [ "$lost" != 0 ]; then
		WHY="$lost lost"
	elif [ "$got" -lt "$want" ]; then
		WHY="$got of $want recorded"
	elif awk -v p="$pace" -v w="$want" -v t="$RATE_SECONDS" 'BEGIN { exit !(p < 0.95 * w / t) }'; then
		WHY="slowed to $(awk -v p="$pace" 'BEGIN { printf "%.2fM", p / 1e6 }')/s"
	else
		return 0
	fi
	return 1
}

declare -A SUSTAINED FAILED_AT FAIL_WHY
WHY=""
note "bench/kernel: sustained rate, (b) paced, ${RATE_SECONDS} s runs"
for tr in trax trace-cmd perf; do
	SUSTAINED[$tr]=0
	FAILED_AT[$tr]=""
done
eps=125000
while [ "$eps" -le "$RATE_MAX" ]; do
	left=0
	for tr in trax trace-cmd perf; do
		[ -z "${FAILED_AT[$tr]}" ] || continue
		if trial "$tr" "$eps" || trial "$tr" "$eps"; then
			SUSTAINED[$tr]=$eps
			left=1
		else
			FAILED_AT[$tr]=$eps
			FAIL_WHY[$tr]=$WHY
		fi
	done
	[ $left = 1 ] || break
	eps=$((eps * 2))
done
# then halfway between the last rate that passed and the first that failed
for tr in trax trace-cmd perf; do
	for _ in $(seq "$STEPS"); do
		[ -n "${FAILED_AT[$tr]}" ] && [ "${SUSTAINED[$tr]}" -gt 0 ] || break
		mid=$(((SUSTAINED[$tr] + FAILED_AT[$tr]) / 2))
		if trial "$tr" "$mid" || trial "$tr" "$mid"; then
			SUSTAINED[$tr]=$mid
		else
			FAILED_AT[$tr]=$mid
			FAIL_WHY[$tr]=$WHY
		fi
	done
done

# ---- the table

# med WORKLOAD TRACER COLUMN: the median of a column over the repetitions
med() {
	awk -v w="$1" -v t="$2" -v c="$3" '$1 == w && $2 == t { print $c }' "$TMP/runs" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "NA" }'
}
# tot WORKLOAD TRACER COLUMN: the sum over the repetitions
tot() { awk -v w="$1" -v t="$2" -v c="$3" '$1 == w && $2 == t { s += $c } END { print s + 0 }' "$TMP/runs"; }
# per-event figures over all repetitions: sum(COLUMN) / sum(events)
perev() {
	awk -v w="$1" -v t="$2" -v c="$3" -v k="${4:-1}" '$1 == w && $2 == t { if ($c == "NA") na = 1; s += $c; e += $4 } END { if (e && !na) printf "%.1f", k * s / e; else print "-" }' "$TMP/runs"
}
div() { awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { if (a == "NA" || b == "NA" || b == 0) print "NA"; else printf f, a / b }'; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA") print "NA"; else printf "%.0f", a - b }'; }
verdict() { awk -v a="$1" -v b="$2" -v op="$3" 'BEGIN { if (a == "NA" || b == "NA") print "NA"; else if (op == "le" ? a <= b : op == "lt" ? a < b : a >= b) print "met"; else print "MISSED" }'; }
row() { printf '| %-40s | %10s | %10s | %10s | %10s | %-22s |\n' "$@"; }

TABLE=$TMP/table
{
	echo "trax kernel domain vs trace-cmd and perf, $(date -u '+%Y-%m-%d %H:%M') UTC, $NCPU CPUs, $(uname -r)"
	echo "load average before the run: $LOADAVG"
	[ -z "$OTHERS" ] || echo "WARNING: other tracers were active: $OTHERS: expect slower system calls for every configuration"
	echo "$(trace-cmd --version 2>&1 | grep -m1 version | sed 's/^ *//'); $(perf --version)"
	echo "buffers per CPU: trax 4 x 1 MiB (discard), trace-cmd -b 4096, perf -m 4M; medians of $REPS runs"
	for wl in sched syscalls; do
		echo
		if [ "$wl" = sched ]; then
			echo "(a) scheduler: $N_PP pipe round trips, two threads on CPU 0; sched_switch, sched_waking, sched_wakeup"
			unit="us per round trip"
		else
			echo "(b) system calls: $NCPU threads x $N_SC x (getppid + read of /dev/zero); entry and exit of both"
			unit="ns per system call"
		fi
		row "" none trax trace-cmd perf "trax/trace-cmd, target"
		row "----------------------------------------" ---------- ---------- ---------- ---------- "----------------------"
		declare -A NS SLOW
		for tr in none trax trace-cmd perf; do
			NS[$tr]=$(med "$wl" "$tr" 3)
			SLOW[$tr]=$(div "${NS[$tr]}" "${NS[none]}")
		done
		k=1
		[ "$wl" = sched ] && k=1000
		row "$unit" "$(div "${NS[none]}" $k %.2f)" "$(div "${NS[trax]}" $k %.2f)" "$(div "${NS[trace-cmd]}" $k %.2f)" \
			"$(div "${NS[perf]}" $k %.2f)" ""
		row "slowdown (traced / untraced time)" 1.00 "${SLOW[trax]}" "${SLOW[trace-cmd]}" "${SLOW[perf]}" \
			"$(div "${SLOW[trax]}" "${SLOW[trace-cmd]}") <= 1: $(verdict "${SLOW[trax]}" "${SLOW[trace-cmd]}" le)"
		if [ "$wl" = syscalls ]; then
			row "ns added per system call" 0 "$(sub "${NS[trax]}" "${NS[none]}")" \
				"$(sub "${NS[trace-cmd]}" "${NS[none]}")" "$(sub "${NS[perf]}" "${NS[none]}")" ""
		fi
		row "events recorded per run (median)" - "$(med "$wl" trax 4)" "$(med "$wl" trace-cmd 4)" "$(med "$wl" perf 4)" ""
		row "events lost, all runs (as reported)" - "$(tot "$wl" trax 5)" "$(tot "$wl" trace-cmd 5)" "$(tot "$wl" perf 5)" ""
		BT=$(perev "$wl" trax 6)
		BC=$(perev "$wl" trace-cmd 6)
		row "bytes/event on disk" - "$BT" "$BC" "$(perev "$wl" perf 6)" \
			"$(div "$BT" "$BC") < 1: $(verdict "$BT" "$BC" lt)"
		DT=$(perev "$wl" trax 7)
		DC=$(perev "$wl" trace-cmd 7)
		row "  event data only" - "$DT" "$DC" - "$(div "$DT" "$DC")"
		row "  event data, uncompressed" - "$(perev "$wl" trax 8)" "$(perev "$wl" trace-cmd 8)" - \
			"$(div "$(perev "$wl" trax 8)" "$(perev "$wl" trace-cmd 8)")"
		row "IRQ-work interrupts per 1000 events" - "$(perev "$wl" trax 10 1000)" \
			"$(perev "$wl" trace-cmd 10 1000)" "$(perev "$wl" perf 10 1000)" ""
		row "stop, ms (trace complete on disk)" - "$(div "$(med "$wl" trax 9)" 1e6 %.0f)" \
			"$(div "$(med "$wl" trace-cmd 9)" 1e6 %.0f)" "$(div "$(med "$wl" perf 9)" 1e6 %.0f)" ""
	done
	echo
	echo "(c) sustained: (b) paced for ${RATE_SECONDS} s, doubled from 125k events/s (up to $RATE_MAX), then bisected $STEPS times"
	row "" "" trax trace-cmd perf "trax/trace-cmd, target"
	row "----------------------------------------" ---------- ---------- ---------- ---------- "----------------------"
	row "events/s with nothing lost" "" "${SUSTAINED[trax]}" "${SUSTAINED[trace-cmd]}" "${SUSTAINED[perf]}" \
		"$(div "${SUSTAINED[trax]}" "${SUSTAINED[trace-cmd]}") >= 1: $(verdict "${SUSTAINED[trax]}" "${SUSTAINED[trace-cmd]}" ge)"
	row "first rate that failed" "" "${FAILED_AT[trax]:-none}" "${FAILED_AT[trace-cmd]:-none}" "${FAILED_AT[perf]:-none}" ""
	row "  why (its retry)" "" "${FAIL_WHY[trax]:--}" "${FAIL_WHY[trace-cmd]:--}" "${FAIL_WHY[perf]:--}" ""
	echo
	echo "runs (workload tracer ns_per_op events lost bytes data_bytes data_uncompressed stop_ns iwi ops_per_s):"
	sed 's/^/  /' "$TMP/runs"
} >"$TABLE"
cat "$TABLE"
grep "  .* at [0-9]* events/s" "$LOG" >>"$TABLE" || true
if mkdir -p "$RESULTS" 2>/dev/null && cp "$TABLE" "$RESULTS/kernel-last-run.txt" 2>/dev/null &&
	cp "$LOG" "$RESULTS/kernel-last-run.log" 2>/dev/null; then
	echo "(table and log saved in $RESULTS/kernel-last-run.txt and kernel-last-run.log)"
fi
[ $FAILED = 0 ] || {
	echo "bench/kernel: some runs failed (see the log)" >&2
	exit 1
}
exit 0
