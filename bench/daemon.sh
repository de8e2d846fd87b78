#!/usr/bin/env bash
# bench/daemon.sh BUILD_DIR
#
# End-to-end benchmark of tracing sessions, trax (traxd + trax) against
# LTTng (lttng-sessiond + lttng), same program (bench/loop.c, two threads),
# same channel (BENCH_DAEMON_SUBBUF x BENCH_DAEMON_NUM_SUBBUF per CPU,
# discard mode, per-user buffers), the consumer writing to disk:
#
#   - sustained rate: the highest rate (events per second, both threads
#     together, paced by LOOP_RATE) at which a run of BENCH_DAEMON_SECONDS
#     records every event (nothing discarded) while the program keeps its
#     pace (within 5%): doubled from 1M until a run fails (and its one
#     retry), then bisected BENCH_DAEMON_STEPS times;
#   - start latency: with the program already running and registered
#     (100k events per second), the time from `start` being run to the
#     first event recorded (that event's timestamp, in the clock babeltrace
#     prints, minus the time the command was launched), median of
#     BENCH_DAEMON_REPS.
#
# Events are counted with `trax view --count` (tests check it against
# babeltrace2 on both tracers' traces). The LTTng side runs as "nobody" with
# its own LTTNG_HOME when we are root (a private session daemon, as in
# bench/run.sh); trax's with its own TRAX_RUNDIR and TRAX_HOME.
#
# Prints a table with the ratios; exit 0 when everything was measured, 1
# otherwise, 2 on usage errors.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: bench/daemon.sh BUILD_DIR" >&2
	exit 2
fi
case $1 in
/*) BUILD=$1 ;;
*) BUILD=$PWD/$1 ;;
esac
SRC=$(cd "$(dirname "$0")/.." && pwd)
SUBBUF=${BENCH_DAEMON_SUBBUF:-1048576}
NSUB=${BENCH_DAEMON_NUM_SUBBUF:-8}
SECONDS_RUN=${BENCH_DAEMON_SECONDS:-2}
STEPS=${BENCH_DAEMON_STEPS:-5}
REPS=${BENCH_DAEMON_REPS:-5}
CC=${CC:-cc}
T=300 # seconds: any single command
export LC_ALL=C TZ=UTC

for tool in "$CC" lttng lttng-sessiond timeout setpriv; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "bench/daemon: '$tool' not found (tools/install-deps.sh bench)" >&2
		exit 1
	}
done
[ -x "$BUILD/trax" ] && [ -x "$BUILD/traxd" ] && [ -e "$BUILD/libtrax-ust.so" ] || {
	echo "bench/daemon: build trax first (trax, traxd and libtrax-ust.so in $BUILD)" >&2
	exit 1
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/trax-daemon-bench.XXXXXX")
chmod 755 "$TMP"
LOG=$TMP/log
SESSIOND_PID=""
note() { printf '%s\n' "$*" | tee -a "$LOG" >&2; }

# ---- the two sides' environments

export TRAX_RUNDIR=$TMP/trax-run TRAX_HOME=$TMP/trax-home TRAX_DAEMON_PATH=$BUILD/traxd
mkdir -p "$TRAX_HOME"
TRAX=$BUILD/trax

LH=$TMP/lttng-home
mkdir -p "$LH"
AS=()
if [ "$(id -u)" = 0 ]; then
	AS=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups --)
	chown nobody "$LH"
fi
lt() { timeout $T env LTTNG_HOME="$LH" "${AS[@]}" "$@"; }

cleanup() {
	local rc=$?
	trap - EXIT
	[ -f "$TRAX_RUNDIR/traxd.lock" ] && kill -TERM "$(head -n 1 "$TRAX_RUNDIR/traxd.lock")" 2>/dev/null
	[ -n "$SESSIOND_PID" ] && kill -TERM "$SESSIOND_PID" 2>/dev/null
	sleep 0.5
	[ "${BENCH_DAEMON_KEEP:-0}" = 1 ] && echo "bench/daemon: kept $TMP" >&2 || rm -rf "$TMP"
	exit $rc
}
trap cleanup EXIT

# traces go where both sides may write (LTTng's runs as nobody)
OUT=$TMP/out
mkdir -p "$TMP/bin" "$OUT"
chmod 1777 "$OUT"
"$CC" -O2 -g -Wall -I"$SRC/bench" -o "$TMP/bin/loop-lttng" "$SRC/bench/loop.c" \
	"$SRC/bench/tp.c" -llttng-ust -ldl -lpthread
"$CC" -O2 -g -Wall -I"$SRC/include" -I"$SRC/bench" -o "$TMP/bin/loop-trax" "$SRC/bench/loop.c" \
	"$SRC/bench/tp.c" -L"$BUILD" -Wl,-rpath,"$BUILD" -ltrax-ust -ldl -lpthread
chmod -R a+rX "$TMP/bin"
lt lttng-sessiond --daemonize --no-kernel >>"$LOG" 2>&1
SESSIOND_PID=$(cat "$LH/.lttng/lttng-sessiond.pid")
"$TRAX" create warmup --output="$TMP/warmup" >>"$LOG" 2>&1 # starts traxd
"$TRAX" destroy warmup >>"$LOG" 2>&1

RUN=0
# session SIDE OUT: create a session recording bench_prov:ev into OUT
session() {
	RUN=$((RUN + 1))
	if [ "$1" = trax ]; then
		"$TRAX" create "b$RUN" --output="$2" &&
			"$TRAX" enable-channel -u --discard --subbuf-size="$SUBBUF" --num-subbuf="$NSUB" ch &&
			"$TRAX" enable-event -u -c ch bench_prov:ev
	else
		lt lttng create "b$RUN" --output="$2" &&
			lt lttng enable-channel -u --discard --subbuf-size="$SUBBUF" --num-subbuf="$NSUB" ch &&
			lt lttng enable-event -u -c ch bench_prov:ev
	fi >>"$LOG" 2>&1
}
ctl() { # ctl SIDE start|stop|destroy
	if [ "$1" = trax ]; then "$TRAX" "$2"; else lt lttng "$2"; fi >>"$LOG" 2>&1
}
loop() { # loop SIDE ARGS...: the program of that side
	local side=$1
	shift
	if [ "$side" = trax ]; then timeout $T "$TMP/bin/loop-trax" "$@"; else lt "$TMP/bin/loop-lttng" "$@"; fi
}

# trial SIDE RATE: 0 when a paced run at RATE events/s (two threads) loses nothing
trial() {
	local side=$1 rate=$2 per out n got
	per=$((rate * SECONDS_RUN / 2))
	out=$OUT/$side-$RUN
	session "$side" "$out" || return 2
	ctl "$side" start
	got=$(LOOP_RATE=$((rate / 2)) loop "$side" enabled "$per" 2 2>>"$LOG")
	echo "$got" >>"$LOG"
	ctl "$side" stop
	ctl "$side" destroy
	n=$("$TRAX" view --count "$out" 2>>"$LOG" | awk '{ print $1 }')
	rm -rf "$out"
	got=$(printf '%s\n' "$got" | sed -n 's/.*events_per_s=\([0-9.]*\).*/\1/p')
	note "  $side at $rate/s: ${n:-no} of $((per * 2)) events, paced at ${got:-?}/s"
	# valid only when the program kept its pace (a tracer that slows the
	# program down does not sustain the rate) and nothing was lost
	[ "$n" = $((per * 2)) ] && awk -v g="${got:-0}" -v r="$rate" 'BEGIN { exit !(g >= 0.95 * r) }'
}

# holds SIDE RATE: a trial at RATE succeeds, or its retry does (these
# machines are shared: one run disturbed by another job must not end the
# search; both sides get the same second chance)
holds() { trial "$1" "$2" || trial "$1" "$2"; }

# sustained SIDE: the highest rate without loss
sustained() {
	local side=$1 lo=0 hi=1000000 mid
	while holds "$side" $hi; do
		lo=$hi
		hi=$((hi * 2))
		[ $hi -le 256000000 ] || break
	done
	for _ in $(seq "$STEPS"); do
		mid=$(((lo + hi) / 2))
		if holds "$side" $mid; then lo=$mid; else hi=$mid; fi
	done
	echo $lo
}

# latency SIDE: ms from `start` to the first event of a running program
latency() {
	local side=$1 out t0 first pid
	out=$OUT/lat-$side-$RUN
	LOOP_RATE=50000 loop "$side" enabled 100000000 2 >/dev/null 2>&1 &
	pid=$!
	sleep 1.5 # registered with its daemon by now (trax retries every second)
	session "$side" "$out"
	t0=$(date +%s%N)
	ctl "$side" start
	sleep 0.5
	ctl "$side" stop
	ctl "$side" destroy
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	first=$("$TRAX" view --clock-seconds "$out" 2>>"$LOG" | head -n 1 | sed 's/^\[\([0-9]*\)\.\([0-9]*\)\].*/\1\2/')
	rm -rf "$out"
	[ -n "$first" ] || {
		echo NA
		return
	}
	awk -v a="$first" -v b="$t0" 'BEGIN { printf "%.2f", (a - b) / 1e6 }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

note "bench/daemon: sustained rates (${SECONDS_RUN} s runs, ${SUBBUF} x ${NSUB} per CPU)"
S_TRAX=$(sustained trax)
S_LTTNG=$(sustained lttng)
note "bench/daemon: start latency ($REPS runs each)"
L_TRAX=()
L_LTTNG=()
for _ in $(seq "$REPS"); do
	L_TRAX+=("$(latency trax)")
	L_LTTNG+=("$(latency lttng)")
done
LT=$(median "${L_TRAX[@]}")
LL=$(median "${L_LTTNG[@]}")
RATIO=$(awk -v a="$S_TRAX" -v b="$S_LTTNG" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
VERDICT=$(awk -v r="$RATIO" 'BEGIN { print (r >= 3 ? "met" : "MISSED") }')

cat <<EOF
Daemon benchmark: $(nproc) CPUs, $(uname -r), $(lttng --version | head -n 1)
channel: $SUBBUF x $NSUB per CPU, discard, per-user buffers; two threads; ${SECONDS_RUN} s runs

|                                   |        trax |       LTTng |   ratio | target        |
|-----------------------------------|-------------|-------------|---------|---------------|
| sustained, Mevents/s, no loss     | $(printf '%11.2f' "$(awk -v a="$S_TRAX" 'BEGIN { print a / 1e6 }')") | $(printf '%11.2f' "$(awk -v a="$S_LTTNG" 'BEGIN { print a / 1e6 }')") | $(printf '%6.2fx' "$RATIO") | >= 3x: $VERDICT |
| start to first event, ms (median) | $(printf '%11s' "$LT") | $(printf '%11s' "$LL") |         |               |

start latencies, trax: ${L_TRAX[*]}; LTTng: ${L_LTTNG[*]}
EOF
