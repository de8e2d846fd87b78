#!/usr/bin/env bash
# bench/run.sh BUILD_DIR
#
# Benchmarks trax against LTTng-UST with the same program (bench/loop.c) and
# the same tracepoint provider (bench/tp.h), built twice: once against
# LTTng-UST's headers and library, once against trax's (BUILD_DIR must hold
# libtrax-ust.so, e.g. `make` then `bench/run.sh build`; `make bench` does both).
#
# Measures, each REPS times (median reported):
#   - ns per enabled event, one thread, recording into 8 x 1 MiB sub-buffers
#     per stream (discard mode): LTTng through a private lttng-sessiond,
#     trax through its in-process consumer (TRAX_OUTPUT);
#   - events recorded in the trace vs emitted (babeltrace2), dropped events,
#     and stream bytes on disk (metadata and index files excluded) per event;
#   - throughput with two threads, and its ratio to one thread's;
#   - ns per disabled tracepoint (an event that no session enables), next to
#     the same loop without a tracepoint;
#   - ns per event, one thread, with a filter that rejects every event
#     (`thread < 0`) and one that accepts every event (`thread >= 0`): LTTng
#     with `lttng enable-event --filter`, trax with TRAX_FILTER.
#
# Knobs (environment): BENCH_N (events per thread, default 2000000),
# BENCH_N_DISABLED (iterations of the disabled/empty loops, default 1e9),
# BENCH_REPS (default 5), CC, BENCH_CFLAGS, BENCH_RESULTS (directory where
# the table and the raw log are kept, default bench/results), BENCH_KEEP=1
# (keep the temporary directory and every trace in it; by default each trace
# is deleted once counted).
#
# LTTng side: lttng-sessiond runs as root with its run directory fixed at
# /var/run/lttng whatever LTTNG_HOME says, so it could collide with a system
# session daemon.  When run as root this script therefore runs the LTTng
# side (session daemon, lttng commands and the traced program) as the
# unprivileged user "nobody" with LTTNG_HOME in a temporary directory: a
# per-user session daemon of its own that nothing else talks to.
#
# Exit status: 0 when every measurement ran (whether or not trax meets its
# targets, which the table reports), 1 when something could not be measured
# (for instance libtrax-ust.so is missing), 2 on usage errors.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: bench/run.sh BUILD_DIR" >&2
	exit 2
fi
case $1 in
/*) BUILD=$1 ;;
*) BUILD=$PWD/$1 ;;
esac
SRC=$(cd "$(dirname "$0")/.." && pwd)
BENCH_SRC=$SRC/bench

N=${BENCH_N:-2000000}
N_DISABLED=${BENCH_N_DISABLED:-1000000000}
REPS=${BENCH_REPS:-5}
CC=${CC:-cc}
# -falign-loops=64: the disabled/empty loops run at about one iteration per
# cycle, where the loop happens to land relative to a cache-line or
# fetch-block boundary moves the figure by a factor of two; aligning them
# makes runs and builds comparable.
BENCH_CFLAGS=${BENCH_CFLAGS:--O2 -g -falign-loops=64}
RESULTS=${BENCH_RESULTS:-$SRC/bench/results}
SUBBUF_SIZE=1048576
NUM_SUBBUF=8
RUN_TIMEOUT=300 # seconds, for any single command that could hang

for tool in "$CC" lttng lttng-sessiond babeltrace2 timeout; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench: '$tool' not found (tools/install-deps.sh bench installs what is needed)" >&2
		exit 1
	fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/trax-bench.XXXXXX")
chmod 755 "$TMP"
SESSIOND_PID=""
LTTNG_HOME_DIR=$TMP/lttng-home
FAILED=0 # set when a measurement could not be made
LOG=$TMP/log

# ---------------------------------------------------------------- helpers

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	stop_sessiond
	# shellcheck disable=SC2086 # a list of paths without blanks
	[ -z "${LTTNG_WAIT_SHM:-}" ] || rm -f $LTTNG_WAIT_SHM
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "bench: kept $TMP" >&2
	else
		rm -rf "$TMP"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

note() { printf '%s\n' "$*" | tee -a "$LOG" >&2; }

# Runs "$@" with its output in the log; on failure shows that output.
logged() {
	local rc=0
	printf '+ %s\n' "$*" >>"$LOG"
	"$@" >"$TMP/cmd.out" 2>&1 </dev/null || rc=$?
	cat "$TMP/cmd.out" >>"$LOG"
	if [ $rc -ne 0 ]; then
		echo "bench: command failed (status $rc): $*" >&2
		tail -n 20 "$TMP/cmd.out" >&2
	fi
	return $rc
}

# run_to FILE CMD...: runs CMD with its standard output in FILE (and in the
# log) and its standard error in the log; fails unless FILE then holds loop's
# "mode=..." line.
run_to() {
	local file=$1 rc=0
	shift
	printf '+ %s\n' "$*" >>"$LOG"
	"$@" >"$file" 2>"$TMP/cmd.err" </dev/null || rc=$?
	cat "$file" "$TMP/cmd.err" >>"$LOG"
	if [ $rc -eq 0 ] && ! grep '^mode=' "$file" >/dev/null; then
		rc=99
	fi
	if [ $rc -ne 0 ]; then
		echo "bench: command failed (status $rc): $*" >&2
		tail -n 20 "$TMP/cmd.err" >&2
		: >"$file"
	fi
	return $rc
}

# value KEY FILE: the value of KEY=value in loop's output line.
value() {
	awk -v k="$1" '{ for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$2"
}

median() {
	if [ $# -eq 0 ]; then
		echo NA
		return
	fi
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# calc EXPR: floating-point arithmetic (awk); NA when an operand is NA.
calc() {
	case " $* " in
	*NA*) echo NA ;;
	*) awk "BEGIN { printf \"%.6g\", $* }" ;;
	esac
}

# Events in the CTF trace(s) under DIR.
count_events() {
	local out
	out=$(timeout "$RUN_TIMEOUT" babeltrace2 -c sink.utils.counter -p 'step=+0' "$1" 2>>"$LOG") || {
		echo "bench: babeltrace2 could not read the trace in $1" >&2
		echo NA
		return
	}
	printf '%s\n' "$out" | awk '/ Event messages?$/ { n = $1 } END { print n + 0 }'
}

# Dropped events the tracer itself reports in the trace under DIR (the sum of
# babeltrace2's "Tracer discarded N events" warnings).  Formats every event
# as text, so only called when events are missing.
reported_drops() {
	timeout "$RUN_TIMEOUT" babeltrace2 "$1" 2>&1 >/dev/null |
		sed -n 's/.*[Tt]racer discarded \([0-9][0-9]*\) events.*/\1/p' |
		awk '{ n += $1 } END { print n + 0 }'
}

# Bytes of the stream files under DIR (not metadata, not the index files).
stream_bytes() {
	find "$1" -type f ! -name metadata ! -path '*/index/*' ! -name '*.idx' -printf '%s\n' |
		awk '{ n += $1 } END { print n + 0 }'
}

now_ns() { date +%s%N; }

# ------------------------------------------------------------------ build

LOADAVG=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$TMP/bin"
note "bench: sources $SRC, build $BUILD, scratch $TMP"
note "bench: N=$N events/thread, disabled loop N=$N_DISABLED, $REPS repetitions, CFLAGS=$BENCH_CFLAGS"

logged "$CC" $BENCH_CFLAGS -Wall -Wextra -I"$BENCH_SRC" -o "$TMP/bin/loop-lttng" \
	"$BENCH_SRC/loop.c" "$BENCH_SRC/tp.c" -llttng-ust -ldl -lpthread

HAVE_TRAX=1
TRAX_WHY=""
if [ ! -e "$BUILD/libtrax-ust.so" ]; then
	HAVE_TRAX=0
	TRAX_WHY="$BUILD/libtrax-ust.so does not exist: build trax first (make), or pass its build directory"
elif ! logged "$CC" $BENCH_CFLAGS -Wall -Wextra -I"$SRC/include" -I"$BENCH_SRC" \
	-o "$TMP/bin/loop-trax" "$BENCH_SRC/loop.c" "$BENCH_SRC/tp.c" \
	-L"$BUILD" -Wl,-rpath,"$BUILD" -ltrax-ust -ldl -lpthread; then
	HAVE_TRAX=0
	TRAX_WHY="bench/loop.c does not compile or link against trax (see above)"
fi
if [ $HAVE_TRAX = 1 ] && readelf -d "$TMP/bin/loop-trax" | grep 'NEEDED.*liblttng' >/dev/null; then
	HAVE_TRAX=0
	TRAX_WHY="the trax build of bench/loop.c links with LTTng-UST (an LTTng header leaked in?)"
fi
if [ $HAVE_TRAX = 0 ]; then
	note "bench: *** trax side skipped: $TRAX_WHY"
	FAILED=1
fi
chmod -R a+rX "$TMP/bin"

# --------------------------------------------------------------- LTTng-UST

# The LTTng side runs as "nobody" when we are root (see the header).
AS=()
NOBODY_UID=""
if [ "$(id -u)" = 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		echo "bench: setpriv (util-linux) is needed to run the LTTng side as nobody" >&2
		exit 1
	fi
	NOBODY_UID=$(id -u nobody)
	NOBODY_GID=$(id -g nobody)
	AS=(setpriv --reuid="$NOBODY_UID" --regid="$NOBODY_GID" --clear-groups --)
	mkdir -p "$LTTNG_HOME_DIR"
	chown "$NOBODY_UID:$NOBODY_GID" "$LTTNG_HOME_DIR"
else
	mkdir -p "$LTTNG_HOME_DIR"
fi
# LTTng-UST applications leave "wait" shm files in /dev/shm (one shared by
# root's applications, one per user); the ones this run creates are removed
# at the end.
LTTNG_WAIT_SHM=""
for f in /dev/shm/lttng-ust-wait-8 "/dev/shm/lttng-ust-wait-8-$(id -u)" \
	${NOBODY_UID:+"/dev/shm/lttng-ust-wait-8-$NOBODY_UID"}; do
	[ -e "$f" ] || LTTNG_WAIT_SHM="$LTTNG_WAIT_SHM $f"
done

as_lttng() {
	timeout "$RUN_TIMEOUT" env LTTNG_HOME="$LTTNG_HOME_DIR" "${AS[@]}" "$@"
}

start_sessiond() {
	logged as_lttng lttng-sessiond --daemonize --no-kernel
	SESSIOND_PID=$(cat "$LTTNG_HOME_DIR/.lttng/lttng-sessiond.pid")
	note "bench: private lttng-sessiond pid $SESSIOND_PID (LTTNG_HOME=$LTTNG_HOME_DIR)"
}

stop_sessiond() {
	if [ -n "$SESSIOND_PID" ] && kill -0 "$SESSIOND_PID" 2>/dev/null; then
		kill -TERM "$SESSIOND_PID" 2>/dev/null || true
		for _ in $(seq 50); do
			kill -0 "$SESSIOND_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$SESSIOND_PID" 2>/dev/null || true
	fi
	SESSIOND_PID=""
}

RUN_NO=0

# lttng_enabled THREADS TAG [FILTER]: one traced run; leaves TAG.out
# (loop's line) and TAG.stats in $TMP.
lttng_enabled() {
	local threads=$1 tag=$2 filter=${3:-} sess out t0 t1 emitted recorded bytes drops reported
	RUN_NO=$((RUN_NO + 1))
	sess=bench$RUN_NO
	out=$LTTNG_HOME_DIR/traces/$tag
	logged as_lttng lttng create "$sess" --output="$out"
	logged as_lttng lttng enable-channel -u -s "$sess" --discard \
		--subbuf-size="$SUBBUF_SIZE" --num-subbuf="$NUM_SUBBUF" ch
	logged as_lttng lttng enable-event -u -s "$sess" -c ch bench_prov:ev ${filter:+--filter "$filter"}
	logged as_lttng lttng start "$sess"
	t0=$(now_ns)
	run_to "$TMP/$tag.out" as_lttng "$TMP/bin/loop-lttng" enabled "$N" "$threads"
	t1=$(now_ns)
	logged as_lttng lttng stop "$sess"
	as_lttng lttng list "$sess" >"$TMP/$tag.list" 2>&1 </dev/null || true
	logged as_lttng lttng destroy "$sess"
	emitted=$((N * threads))
	recorded=$(count_events "$out")
	bytes=$(stream_bytes "$out")
	drops=$(sed -n 's/.*Discarded events: *\([0-9][0-9]*\).*/\1/p' "$TMP/$tag.list" | awk '{ n += $1 } END { print n + 0 }')
	reported=$drops
	echo "emitted=$emitted recorded=$recorded dropped_reported=$reported bytes=$bytes process_ns=$((t1 - t0))" >"$TMP/$tag.stats"
	note "  lttng $tag: $(cat "$TMP/$tag.out")"
	note "  lttng $tag: $(cat "$TMP/$tag.stats")"
	[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$out"
}

# trax_enabled THREADS TAG [FILTER]: same with trax.
trax_enabled() {
	local threads=$1 tag=$2 filter=${3:-} out t0 t1 emitted recorded bytes reported rc=0
	out=$TMP/trax-traces/$tag
	mkdir -p "$TMP/trax-traces"
	t0=$(now_ns)
	run_to "$TMP/$tag.out" timeout "$RUN_TIMEOUT" env TRAX_OUTPUT="$out" \
		TRAX_EVENTS='bench_prov:ev' TRAX_SUBBUF_SIZE="$SUBBUF_SIZE" \
		TRAX_NUM_SUBBUF="$NUM_SUBBUF" LD_LIBRARY_PATH="$BUILD" ${filter:+TRAX_FILTER="$filter"} \
		"$TMP/bin/loop-trax" enabled "$N" "$threads" || rc=$?
	t1=$(now_ns)
	if [ $rc -ne 0 ]; then
		note "  trax $tag: FAILED (status $rc)"
		FAILED=1
		return 0
	fi
	emitted=$((N * threads))
	if [ -d "$out" ]; then
		recorded=$(count_events "$out")
		bytes=$(stream_bytes "$out")
	else
		note "  trax $tag: no trace directory $out after the run"
		recorded=0
		bytes=0
		FAILED=1
	fi
	reported=0
	if [ "$recorded" != NA ] && [ "$recorded" -lt "$emitted" ]; then
		reported=$(reported_drops "$out")
	fi
	echo "emitted=$emitted recorded=$recorded dropped_reported=$reported bytes=$bytes process_ns=$((t1 - t0))" >"$TMP/$tag.stats"
	note "  trax $tag: $(cat "$TMP/$tag.out")"
	note "  trax $tag: $(cat "$TMP/$tag.stats")"
	[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$out"
}

# plain_run IMPL MODE TAG: the disabled / empty loop, no tracing session.
plain_run() {
	local impl=$1 m=$2 tag=$3 rc=0
	if [ "$impl" = lttng ]; then
		# No session daemon listens under this LTTNG_HOME.
		mkdir -p "$TMP/empty-home"
		run_to "$TMP/$tag.out" timeout "$RUN_TIMEOUT" env LTTNG_HOME="$TMP/empty-home" \
			LTTNG_UST_REGISTER_TIMEOUT=0 "$TMP/bin/loop-lttng" "$m" "$N_DISABLED" 1 || rc=$?
	else
		run_to "$TMP/$tag.out" timeout "$RUN_TIMEOUT" env -u TRAX_OUTPUT -u TRAX_EVENTS \
			LD_LIBRARY_PATH="$BUILD" "$TMP/bin/loop-trax" "$m" "$N_DISABLED" 1 || rc=$?
	fi
	if [ $rc -ne 0 ]; then
		note "  $impl $tag: FAILED (status $rc)"
		FAILED=1
		return 0
	fi
	note "  $impl $tag: $(cat "$TMP/$tag.out")"
}

# ------------------------------------------------------------------- runs

IMPLS=lttng
[ $HAVE_TRAX = 1 ] && IMPLS="lttng trax"

note "bench: disabled tracepoints and empty loop"
for r in $(seq "$REPS"); do
	for impl in $IMPLS; do
		plain_run "$impl" none "$impl-none-$r"
		plain_run "$impl" disabled "$impl-disabled-$r"
	done
done

# The machine's own ceiling for two threads: the empty loop (no tracer at
# all) with one and with two threads. Two vCPUs of a shared virtual machine
# may give much less than twice one thread's work; the tracer's scaling is
# to be read against this.
note "bench: the machine's two-thread ceiling (empty loop, no tracer)"
for r in $(seq "$REPS"); do
	for t in 1 2; do
		rc=0
		run_to "$TMP/ceil-t$t-$r.out" timeout "$RUN_TIMEOUT" env -u TRAX_OUTPUT \
			LD_LIBRARY_PATH="$BUILD" "$TMP/bin/loop-lttng" none "$N_DISABLED" "$t" || rc=$?
		[ $rc -eq 0 ] || { note "  ceiling t$t: FAILED (status $rc)"; FAILED=1; }
		note "  ceiling t$t-$r: $(cat "$TMP/ceil-t$t-$r.out")"
	done
done

# Enabled runs: LTTng-UST and trax take turns (which goes first alternates
# from one repetition to the next), so that both see the same conditions
# when something else loads the machine.  The private session daemon stays
# up throughout; trax's program never talks to it.
note "bench: enabled tracepoints, LTTng-UST and trax in turn"
start_sessiond
for r in $(seq "$REPS"); do
	for t in 1 2; do
		if [ $HAVE_TRAX = 1 ] && [ $((r % 2)) = 0 ]; then
			trax_enabled "$t" "trax-t$t-$r"
			lttng_enabled "$t" "lttng-t$t-$r"
		else
			lttng_enabled "$t" "lttng-t$t-$r"
			if [ $HAVE_TRAX = 1 ]; then
				trax_enabled "$t" "trax-t$t-$r"
			fi
		fi
	done
done
note "bench: filtered events (rejected: thread < 0, accepted: thread >= 0), in turn"
for r in $(seq "$REPS"); do
	for f in rej acc; do
		expr='thread < 0'
		[ $f = acc ] && expr='thread >= 0'
		lttng_enabled 1 "lttng-$f-$r" "$expr"
		[ $HAVE_TRAX = 0 ] || trax_enabled 1 "trax-$f-$r" "$expr"
	done
done
stop_sessiond

# ---------------------------------------------------------------- summary

# med IMPL-KIND KEY FILE-SUFFIX: median of KEY over the repetitions.
med() {
	local prefix=$1 key=$2 suffix=$3 r f v vals=()
	for r in $(seq "$REPS"); do
		f=$TMP/$prefix-$r.$suffix
		[ -s "$f" ] || continue
		v=$(value "$key" "$f")
		[ -n "$v" ] && [ "$v" != NA ] && vals+=("$v")
	done
	median "${vals[@]+"${vals[@]}"}"
}

# tot IMPL-KIND KEY: sum of KEY over the repetitions (stats files).
tot() {
	local prefix=$1 key=$2 r f v sum=0 any=0
	for r in $(seq "$REPS"); do
		f=$TMP/$prefix-$r.stats
		[ -s "$f" ] || continue
		v=$(value "$key" "$f")
		[ -n "$v" ] && [ "$v" != NA ] || continue
		sum=$((sum + v))
		any=1
	done
	[ $any = 1 ] && echo "$sum" || echo NA
}

declare -A F
for impl in lttng trax; do
	F[$impl.none]=$(med "$impl-none" ns_per_event out)
	F[$impl.dis]=$(med "$impl-disabled" ns_per_event out)
	F[$impl.dis_net]=$(calc "${F[$impl.dis]} - ${F[$impl.none]}")
	for t in 1 2; do
		F[$impl.ns$t]=$(med "$impl-t$t" ns_per_event out)
		F[$impl.eps$t]=$(med "$impl-t$t" events_per_s out)
		F[$impl.proc$t]=$(calc "$(med "$impl-t$t" process_ns stats) / 1e9")
		F[$impl.emit$t]=$(tot "$impl-t$t" emitted)
		F[$impl.rec$t]=$(tot "$impl-t$t" recorded)
		F[$impl.drop$t]=$(tot "$impl-t$t" dropped_reported)
		F[$impl.bytes$t]=$(tot "$impl-t$t" bytes)
		F[$impl.bpe$t]=$(calc "${F[$impl.bytes$t]} / ${F[$impl.rec$t]}")
	done
	F[$impl.scale]=$(calc "${F[$impl.eps2]} / ${F[$impl.eps1]}")
	F[$impl.rej]=$(med "$impl-rej" ns_per_event out)
	F[$impl.acc]=$(med "$impl-acc" ns_per_event out)
	F[$impl.acc_cost]=$(calc "${F[$impl.acc]} - ${F[$impl.ns1]}")
	F[$impl.rec_rej]=$(tot "$impl-rej" recorded)
	F[$impl.rec_acc]=$(tot "$impl-acc" recorded)
done
F[ceil]=$(calc "$(med ceil-t2 events_per_s out) / $(med ceil-t1 events_per_s out)")

ratio() { calc "$1 / $2"; }
# verdict VALUE OP LIMIT
verdict() {
	case "$1 $3" in
	*NA*) echo "n/a" ;;
	*) awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN {
		ok = (op == "<=") ? (v <= l) : (op == "<") ? (v < l) : (v >= l)
		print ok ? "MET" : "MISSED" }' ;;
	esac
}

R_NS=$(ratio "${F[trax.ns1]}" "${F[lttng.ns1]}")
R_NS2=$(ratio "${F[trax.ns2]}" "${F[lttng.ns2]}")
R_EPS1=$(ratio "${F[trax.eps1]}" "${F[lttng.eps1]}")
R_EPS2=$(ratio "${F[trax.eps2]}" "${F[lttng.eps2]}")
R_DIS=$(ratio "${F[trax.dis]}" "${F[lttng.dis]}")
R_BPE=$(ratio "${F[trax.bpe1]}" "${F[lttng.bpe1]}")
R_REJ=$(ratio "${F[trax.rej]}" "${F[lttng.rej]}")
R_ACC=$(ratio "${F[trax.acc]}" "${F[lttng.acc]}")
LIMIT_NS=$(calc "${F[lttng.ns1]} / 3")
LIMIT_BPE=${F[lttng.bpe1]}

fmt() { # fmt VALUE DECIMALS
	case $1 in
	NA | "") echo "n/a" ;;
	*) awk -v v="$1" -v d="$2" 'BEGIN { printf "%.*f", d, v }' ;;
	esac
}
fmt_events() { # recorded/emitted
	if [ "$1" = NA ] || [ "$2" = NA ]; then echo "n/a"; else echo "$1/$2"; fi
}

{
	echo
	echo "trax vs LTTng-UST, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $(uname -r)"
	echo "load average before the run: $LOADAVG"
	if awk -v l="${LOADAVG%% *}" 'BEGIN { exit !(l >= 0.5) }'; then
		echo "WARNING: the machine was not idle when the run started (load $LOADAVG): expect noisy figures"
	fi
	echo "$(lttng --version 2>/dev/null | sed -n 1p); loop built with: $CC $BENCH_CFLAGS"
	echo "N = $N events per thread, sub-buffers $NUM_SUBBUF x $SUBBUF_SIZE bytes (discard mode), medians of $REPS runs;"
	echo "disabled/empty loops: $N_DISABLED iterations. Event counts are totals over the $REPS runs."
	echo
	printf '%-40s %14s %14s %10s   %s\n' "" trax LTTng-UST trax/LTTng "target"
	printf '%-40s %14s %14s %10s   %s\n' "ns/event, enabled, 1 thread" \
		"$(fmt "${F[trax.ns1]}" 1)" "$(fmt "${F[lttng.ns1]}" 1)" "$(fmt "$R_NS" 3)" \
		"trax <= 1/3 LTTng (<= $(fmt "$LIMIT_NS" 1) ns): $(verdict "$R_NS" '<=' 0.333333)"
	printf '%-40s %14s %14s %10s\n' "ns/event per thread, enabled, 2 threads" \
		"$(fmt "${F[trax.ns2]}" 1)" "$(fmt "${F[lttng.ns2]}" 1)" "$(fmt "$R_NS2" 3)"
	printf '%-40s %14s %14s %10s   %s\n' "ns/event, disabled tracepoint" \
		"$(fmt "${F[trax.dis]}" 3)" "$(fmt "${F[lttng.dis]}" 3)" "$(fmt "$R_DIS" 3)" \
		"trax < 1 ns: $(verdict "${F[trax.dis]}" '<' 1)"
	printf '%-40s %14s %14s\n' "  ns/iteration, same loop, no tracepoint" \
		"$(fmt "${F[trax.none]}" 3)" "$(fmt "${F[lttng.none]}" 3)"
	printf '%-40s %14s %14s\n' "  disabled minus empty loop" \
		"$(fmt "${F[trax.dis_net]}" 3)" "$(fmt "${F[lttng.dis_net]}" 3)"
	printf '%-40s %14s %14s %10s\n' "events/s, 1 thread" \
		"$(fmt "${F[trax.eps1]}" 0)" "$(fmt "${F[lttng.eps1]}" 0)" "$(fmt "$R_EPS1" 3)"
	printf '%-40s %14s %14s %10s\n' "events/s, 2 threads" \
		"$(fmt "${F[trax.eps2]}" 0)" "$(fmt "${F[lttng.eps2]}" 0)" "$(fmt "$R_EPS2" 3)"
	printf '%-40s %14s %14s %10s   %s\n' "2 threads / 1 thread throughput" \
		"$(fmt "${F[trax.scale]}" 2)" "$(fmt "${F[lttng.scale]}" 2)" "" \
		"trax >= 2: $(verdict "${F[trax.scale]}" '>=' 2)"
	printf '%-40s %14s\n' "  the machine's own (empty loop, no tracer)" "$(fmt "${F[ceil]}" 2)"
	printf '%-40s %14s %14s %10s   %s\n' "stream bytes/event recorded, 1 thread" \
		"$(fmt "${F[trax.bpe1]}" 2)" "$(fmt "${F[lttng.bpe1]}" 2)" "$(fmt "$R_BPE" 3)" \
		"trax <= LTTng: $(verdict "${F[trax.bpe1]}" '<=' "$LIMIT_BPE")"
	printf '%-40s %14s %14s\n' "stream bytes/event recorded, 2 threads" \
		"$(fmt "${F[trax.bpe2]}" 2)" "$(fmt "${F[lttng.bpe2]}" 2)"
	for t in 1 2; do
		printf '%-40s %14s %14s\n' "events recorded/emitted, $t thread(s)" \
			"$(fmt_events "${F[trax.rec$t]}" "${F[trax.emit$t]}")" \
			"$(fmt_events "${F[lttng.rec$t]}" "${F[lttng.emit$t]}")"
		printf '%-40s %14s %14s\n' "  dropped, as the tracer reports it" \
			"$(fmt "${F[trax.drop$t]}" 0)" "$(fmt "${F[lttng.drop$t]}" 0)"
	done
	printf '%-40s %14s %14s %10s   %s\n' "ns/event, filter rejects (thread < 0)" \
		"$(fmt "${F[trax.rej]}" 1)" "$(fmt "${F[lttng.rej]}" 1)" "$(fmt "$R_REJ" 3)" \
		"trax <= 1/3 LTTng: $(verdict "$R_REJ" '<=' 0.333333)"
	printf '%-40s %14s %14s %10s\n' "ns/event, filter accepts (thread >= 0)" \
		"$(fmt "${F[trax.acc]}" 1)" "$(fmt "${F[lttng.acc]}" 1)" "$(fmt "$R_ACC" 3)"
	printf '%-40s %14s %14s %10s   %s\n' "  accepting filter minus no filter" \
		"$(fmt "${F[trax.acc_cost]}" 1)" "$(fmt "${F[lttng.acc_cost]}" 1)" "" \
		"trax <= 5 ns: $(verdict "${F[trax.acc_cost]}" '<=' 5)"
	printf '%-40s %14s %14s\n' "  events recorded, rejecting / accepting" \
		"${F[trax.rec_rej]}/${F[trax.rec_acc]}" "${F[lttng.rec_rej]}/${F[lttng.rec_acc]}"
	printf '%-40s %14s %14s\n' "process wall time (s), 1 thread" \
		"$(fmt "${F[trax.proc1]}" 3)" "$(fmt "${F[lttng.proc1]}" 3)"
	echo
	echo "ns/event = loop wall time / N per thread; events/s = all threads' events / wall time."
	echo "Process wall time: start to exit of the traced program (trax writes its trace before"
	echo "exiting; LTTng's consumer daemon writes it outside the program)."
	if [ $HAVE_TRAX = 0 ]; then
		echo
		echo "trax NOT measured: $TRAX_WHY"
	fi
	# Check the trace accounting: every emitted event is either recorded or
	# reported as dropped.
	for impl in $IMPLS; do
		for t in 1 2; do
			e=${F[$impl.emit$t]} rc=${F[$impl.rec$t]} d=${F[$impl.drop$t]}
			case "$e $rc $d" in *NA*) continue ;; esac
			if [ $((rc + d)) -ne "$e" ]; then
				echo "NOTE: $impl, $t thread(s): recorded ($rc) + reported dropped ($d) != emitted ($e)"
			fi
		done
	done
} >"$TMP/table"

cat "$TMP/table"
if mkdir -p "$RESULTS" 2>/dev/null && cp "$TMP/table" "$RESULTS/last-run.txt" 2>/dev/null &&
	cp "$LOG" "$RESULTS/last-run.log" 2>/dev/null; then
	echo "(table and raw log saved in $RESULTS/last-run.txt and last-run.log)"
else
	echo "(could not save the table in $RESULTS)" >&2
fi

if [ $FAILED != 0 ]; then
	echo "bench: some measurements could not be made (see above)" >&2
	exit 1
fi
exit 0
