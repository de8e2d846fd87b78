#!/usr/bin/env bash
# bench/reader.sh BUILD_DIR
#
# Benchmarks the trace reader, `trax view` (BUILD_DIR/trax), against
# babeltrace2 on one LTTng-UST trace of BENCH_READER_RUNS x BENCH_READER_N
# events (default 5 x 2,000,000 = 10M events of bench/tp.h's bench_prov:ev,
# about 180 MB), recorded by bench/loop.c built against LTTng-UST through a
# private lttng-sessiond (as bench/run.sh: run as user "nobody" via setpriv
# when we are root, LTTNG_HOME in the temporary directory). Every run of the
# program goes into the same session, stopped (and so flushed) between runs,
# with per-CPU buffers larger than one run's events: nothing is discarded
# (checked: the trace must hold every event emitted).
#
# Then, in this order, on the same trace (page cache warmed first):
#   - decode: `trax view --count TRACE` vs  `babeltrace2 -o dummy TRACE`
#   - text:   `trax view TRACE > FILE`  vs  `babeltrace2 TRACE > FILE`
#   - text without the disk: `trax view TRACE > /dev/null` (two threads, the
#     default, and one: TRAX_VIEW_THREADS=1) vs `babeltrace2 TRACE > /dev/null`
#     (no target: it shows what the disk takes of the text figure)
# each measured for wall time (events/s) and peak RSS (/usr/bin/time -v),
# after a sync (no run pays for the write-back of the run before it).
# Each comparison runs trax BENCH_READER_REPS times (default 5) and
# babeltrace2 BENCH_READER_BT2_REPS times (default the same), alternately,
# and compares the medians: the machine's speed drifts within minutes, and
# both tools then see it alike. BENCH_READER_KEEP=1 keeps the temporary
# directory (trace and outputs). The last text files of each must be
# byte-identical (cmp).
#
# Prints a table with the ratios and the targets: text >= 20x babeltrace2's
# events/s, decoding alone >= 30x, trax's peak RSS < 64 MiB.
#
# Exit status: 0 when everything was measured (targets met or not: the table
# says), 1 when something could not be measured or the outputs differ,
# 2 on usage errors.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: bench/reader.sh BUILD_DIR" >&2
	exit 2
fi
case $1 in
/*) BUILD=$1 ;;
*) BUILD=$PWD/$1 ;;
esac
SRC=$(cd "$(dirname "$0")/.." && pwd)
BENCH_SRC=$SRC/bench
TRAX=$BUILD/trax

N=${BENCH_READER_N:-2000000}
RUNS=${BENCH_READER_RUNS:-5}
REPS=${BENCH_READER_REPS:-5}
BT2_REPS=${BENCH_READER_BT2_REPS:-$REPS}
CC=${CC:-cc}
SUBBUF_SIZE=$((8 * 1048576))
NUM_SUBBUF=8
RUN_TIMEOUT=900
export TZ=UTC LC_ALL=C

if [ ! -x "$TRAX" ]; then
	echo "bench/reader: $TRAX not found: build trax first" >&2
	exit 1
fi
if [ ! -x /usr/bin/time ]; then
	echo "bench/reader: installing GNU time (apt-get install time)" >&2
	apt-get install -y time >/dev/null 2>&1 || {
		echo "bench/reader: /usr/bin/time is missing and could not be installed" >&2
		exit 1
	}
fi
for tool in "$CC" lttng lttng-sessiond babeltrace2 timeout cmp; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench/reader: '$tool' not found (tools/install-deps.sh bench installs what is needed)" >&2
		exit 1
	fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/trax-reader-bench.XXXXXX")
chmod 755 "$TMP"
LTTNG_HOME_DIR=$TMP/lttng-home
SESSIOND_PID=""
LOG=$TMP/log
LTTNG_WAIT_SHM=""

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

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	stop_sessiond
	# shellcheck disable=SC2086 # a list of paths without blanks
	[ -z "$LTTNG_WAIT_SHM" ] || rm -f $LTTNG_WAIT_SHM
	if [ "${BENCH_READER_KEEP:-0}" = 1 ]; then
		echo "bench/reader: kept $TMP" >&2
	else
		rm -rf "$TMP"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

note() { printf '%s\n' "$*" | tee -a "$LOG" >&2; }

logged() {
	local rc=0
	printf '+ %s\n' "$*" >>"$LOG"
	"$@" >"$TMP/cmd.out" 2>&1 </dev/null || rc=$?
	cat "$TMP/cmd.out" >>"$LOG"
	if [ $rc -ne 0 ]; then
		echo "bench/reader: command failed (status $rc): $*" >&2
		tail -n 20 "$TMP/cmd.out" >&2
	fi
	return $rc
}

now_ns() { date +%s%N; }

calc() { awk "BEGIN { printf \"%.6g\", $* }"; }

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ---------------------------------------------------------------- record

mkdir -p "$TMP/bin"
note "bench/reader: build $BUILD, scratch $TMP, $RUNS x $N events"
logged "$CC" -O2 -g -Wall -Wextra -I"$BENCH_SRC" -o "$TMP/bin/loop-lttng" \
	"$BENCH_SRC/loop.c" "$BENCH_SRC/tp.c" -llttng-ust -ldl -lpthread
chmod -R a+rX "$TMP/bin"

AS=()
NOBODY_UID=""
mkdir -p "$LTTNG_HOME_DIR"
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || {
		echo "bench/reader: setpriv (util-linux) is needed to run LTTng as nobody" >&2
		exit 1
	}
	NOBODY_UID=$(id -u nobody)
	NOBODY_GID=$(id -g nobody)
	AS=(setpriv --reuid="$NOBODY_UID" --regid="$NOBODY_GID" --clear-groups --)
	chown "$NOBODY_UID:$NOBODY_GID" "$LTTNG_HOME_DIR"
fi
for f in /dev/shm/lttng-ust-wait-8 "/dev/shm/lttng-ust-wait-8-$(id -u)" \
	${NOBODY_UID:+"/dev/shm/lttng-ust-wait-8-$NOBODY_UID"}; do
	[ -e "$f" ] || LTTNG_WAIT_SHM="$LTTNG_WAIT_SHM $f"
done

as_lttng() {
	timeout "$RUN_TIMEOUT" env LTTNG_HOME="$LTTNG_HOME_DIR" "${AS[@]}" "$@"
}

logged as_lttng lttng-sessiond --daemonize --no-kernel
SESSIOND_PID=$(cat "$LTTNG_HOME_DIR/.lttng/lttng-sessiond.pid")
note "bench/reader: private lttng-sessiond pid $SESSIOND_PID"

TRACE=$LTTNG_HOME_DIR/traces/reader
logged as_lttng lttng create reader --output="$TRACE"
logged as_lttng lttng enable-channel -u -s reader --discard \
	--subbuf-size="$SUBBUF_SIZE" --num-subbuf="$NUM_SUBBUF" ch
logged as_lttng lttng enable-event -u -s reader -c ch bench_prov:ev
for r in $(seq "$RUNS"); do
	logged as_lttng lttng start reader
	logged as_lttng "$TMP/bin/loop-lttng" enabled "$N" 1
	logged as_lttng lttng stop reader # waits until the buffers are flushed
done
as_lttng lttng list reader >"$TMP/list" 2>&1 </dev/null || true
DISCARDED=$(sed -n 's/.*Discarded events: *\([0-9][0-9]*\).*/\1/p' "$TMP/list" | awk '{ n += $1 } END { print n + 0 }')
logged as_lttng lttng destroy reader
stop_sessiond

EMITTED=$((N * RUNS))
BYTES=$(find "$TRACE" -type f ! -name metadata ! -path '*/index/*' -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }')
note "bench/reader: trace $TRACE: $BYTES bytes of streams, $DISCARDED events discarded (lttng list)"

# ----------------------------------------------------------------- measure

# measure TAG CMD...: runs CMD (stdout to $TMP/TAG.stdout, stderr to
# $TMP/TAG.stderr) under /usr/bin/time -v; leaves "wall_ns rss_kib" in $TMP/TAG.m.
measure() {
	local tag=$1 t0 t1 rc=0 rss
	shift
	printf '+ %s\n' "$*" >>"$LOG"
	# Nothing left to write back from the run before (Babeltrace leaves
	# its gigabyte of text in the page cache): the kernel would write it
	# during this run, on the same disk. Not timed.
	sync
	t0=$(now_ns)
	timeout "$RUN_TIMEOUT" /usr/bin/time -v -o "$TMP/$tag.time" "$@" \
		>"${MEASURE_STDOUT:-$TMP/$tag.stdout}" 2>"$TMP/$tag.stderr" </dev/null || rc=$?
	t1=$(now_ns)
	if [ $rc -ne 0 ]; then
		echo "bench/reader: command failed (status $rc): $*" >&2
		tail -n 20 "$TMP/$tag.stderr" >&2
		exit 1
	fi
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$TMP/$tag.time")
	echo "$((t1 - t0)) $rss" >"$TMP/$tag.m"
	note "  $tag: $(awk '{ printf "%.3f s, peak RSS %d KiB", $1 / 1e9, $2 }' "$TMP/$tag.m")"
}

# Warm the page cache so that every reader starts from the same state.
find "$TRACE" -type f -exec cat {} + >/dev/null

# trax's runs and Babeltrace's alternate, so that both see the machine in
# the same state (its speed drifts by a third within minutes).
ROUNDS=$((REPS > BT2_REPS ? REPS : BT2_REPS))

note "bench/reader: trax view --count ($REPS runs) and babeltrace2 -o dummy ($BT2_REPS runs), alternated"
for r in $(seq "$ROUNDS"); do
	[ "$r" -gt "$REPS" ] || measure "trax-count-$r" "$TRAX" view --count "$TRACE"
	[ "$r" -gt "$BT2_REPS" ] || measure "bt2-count-$r" babeltrace2 -o dummy "$TRACE"
done
COUNT=$(awk '{ print $1 }' "$TMP/trax-count-1.stdout")
note "bench/reader: trax counts $COUNT events (emitted $EMITTED)"
note "bench/reader: trax view > file ($REPS runs) and babeltrace2 > file ($BT2_REPS runs), alternated"
for r in $(seq "$ROUNDS"); do
	# only the last output of each is kept (for cmp): a gigabyte each
	if [ "$r" -le "$REPS" ]; then
		rm -f "$TMP/trax-text-$((r - 1)).stdout"
		measure "trax-text-$r" "$TRAX" view "$TRACE"
	fi
	if [ "$r" -le "$BT2_REPS" ]; then
		rm -f "$TMP/bt2-text-$((r - 1)).stdout"
		measure "bt2-text-$r" babeltrace2 "$TRACE"
	fi
done
# The same without the disk: what the readers and formatters alone do.
# trax on two threads (the default) and on one (TRAX_VIEW_THREADS=1).
note "bench/reader: trax view > /dev/null, two threads and one ($REPS runs each), babeltrace2 > /dev/null ($BT2_REPS runs), alternated"
for r in $(seq "$ROUNDS"); do
	if [ "$r" -le "$REPS" ]; then
		MEASURE_STDOUT=/dev/null measure "trax-null-$r" "$TRAX" view "$TRACE"
		MEASURE_STDOUT=/dev/null measure "trax-null1-$r" env TRAX_VIEW_THREADS=1 "$TRAX" view "$TRACE"
	fi
	[ "$r" -gt "$BT2_REPS" ] || MEASURE_STDOUT=/dev/null measure "bt2-null-$r" babeltrace2 "$TRACE"
done

IDENTICAL=yes
if ! cmp "$TMP/trax-text-$REPS.stdout" "$TMP/bt2-text-$BT2_REPS.stdout" >"$TMP/cmp.out" 2>&1; then
	IDENTICAL="NO ($(head -c 200 "$TMP/cmp.out"))"
fi
if ! cmp -s "$TMP/trax-text-$REPS.stderr" "$TMP/bt2-text-$BT2_REPS.stderr"; then
	note "bench/reader: note: the standard error outputs differ"
fi
TEXT_LINES=$(wc -l <"$TMP/bt2-text-$BT2_REPS.stdout")
TEXT_BYTES=$(wc -c <"$TMP/bt2-text-$BT2_REPS.stdout")

# ------------------------------------------------------------------ table

wall() { awk '{ print $1 }' "$TMP/$1.m"; }
rss() { awk '{ print $2 }' "$TMP/$1.m"; }
runs() { # runs TOOL: how many runs of each kind TOOL made
	if [ "$1" = trax ]; then echo "$REPS"; else echo "$BT2_REPS"; fi
}
med() { # med TOOL KIND: the median wall time of TOOL's runs of KIND
	local r vals=()
	for r in $(seq "$(runs "$1")"); do vals+=("$(wall "$1-$2-$r")"); done
	median "${vals[@]}"
}
maxrss() { # maxrss TOOL KIND
	local r m=0 v
	for r in $(seq "$(runs "$1")"); do
		v=$(rss "$1-$2-$r")
		[ "$v" -gt "$m" ] && m=$v
	done
	echo "$m"
}

EV=$COUNT
eps() { calc "$EV / ($1 / 1e9)"; } # events/s of a run of $1 ns
T_TEXT=$(med trax text)
T_COUNT=$(med trax count)
T_NULL=$(med trax null)
T_NULL1=$(med trax null1)
B_TEXT=$(med bt2 text)
B_COUNT=$(med bt2 count)
B_NULL=$(med bt2 null)
EPS_T_TEXT=$(eps "$T_TEXT")
EPS_T_COUNT=$(eps "$T_COUNT")
EPS_T_NULL=$(eps "$T_NULL")
EPS_T_NULL1=$(eps "$T_NULL1")
EPS_B_TEXT=$(eps "$B_TEXT")
EPS_B_COUNT=$(eps "$B_COUNT")
EPS_B_NULL=$(eps "$B_NULL")
R_TEXT=$(calc "$EPS_T_TEXT / $EPS_B_TEXT")
R_COUNT=$(calc "$EPS_T_COUNT / $EPS_B_COUNT")
R_NULL=$(calc "$EPS_T_NULL / $EPS_B_NULL")
R_NULL1=$(calc "$EPS_T_NULL1 / $EPS_B_NULL")
RSS_T_TEXT=$(maxrss trax text)
RSS_T_COUNT=$(maxrss trax count)
RSS_B_TEXT=$(maxrss bt2 text)
RSS_B_COUNT=$(maxrss bt2 count)

verdict() { if awk "BEGIN { exit !($1) }"; then echo met; else echo MISSED; fi; }
V_TEXT=$(verdict "$R_TEXT >= 20")
V_COUNT=$(verdict "$R_COUNT >= 30")
V_RSS=$(verdict "$RSS_T_TEXT < 65536 && $RSS_T_COUNT < 65536")

mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
meps() { awk -v e="$1" 'BEGIN { printf "%.2f", e / 1e6 }'; }
secs() { awk -v n="$1" 'BEGIN { printf "%.2f", n / 1e9 }'; }

{
	echo "Reader benchmark: $(nproc) CPUs, $(uname -r), $(babeltrace2 --version | head -n 1)"
	echo "trace: $EV events ($EMITTED emitted, $DISCARDED discarded), $BYTES bytes of streams;"
	echo "text output: $TEXT_LINES lines, $TEXT_BYTES bytes; medians of $REPS runs of trax and $BT2_REPS of babeltrace2, alternated"
	echo
	printf '| %-28s | %11s | %11s | %9s | %-14s |\n' "" "trax" "babeltrace2" "ratio" "target"
	printf '|%s|%s|%s|%s|%s|\n' "------------------------------" "-------------" "-------------" "-----------" "----------------"
	printf '| %-28s | %11s | %11s | %8sx | %-14s |\n' "text to a file, Mevents/s" \
		"$(meps "$EPS_T_TEXT")" "$(meps "$EPS_B_TEXT")" "$(printf '%.1f' "$R_TEXT")" ">= 20x: $V_TEXT"
	printf '| %-28s | %11s | %11s | %9s | %-14s |\n' "text to a file, seconds" \
		"$(secs "$T_TEXT")" "$(secs "$B_TEXT")" "" ""
	printf '| %-28s | %11s | %11s | %8sx | %-14s |\n' "text to /dev/null, Mevents/s" \
		"$(meps "$EPS_T_NULL")" "$(meps "$EPS_B_NULL")" "$(printf '%.1f' "$R_NULL")" "(no disk)"
	printf '| %-28s | %11s | %11s | %8sx | %-14s |\n' "same, trax on one thread" \
		"$(meps "$EPS_T_NULL1")" "$(meps "$EPS_B_NULL")" "$(printf '%.1f' "$R_NULL1")" ""
	printf '| %-28s | %11s | %11s | %8sx | %-14s |\n' "decoding alone, Mevents/s" \
		"$(meps "$EPS_T_COUNT")" "$(meps "$EPS_B_COUNT")" "$(printf '%.1f' "$R_COUNT")" ">= 30x: $V_COUNT"
	printf '| %-28s | %11s | %11s | %9s | %-14s |\n' "decoding alone, seconds" \
		"$(secs "$T_COUNT")" "$(secs "$B_COUNT")" "" ""
	printf '| %-28s | %11s | %11s | %9s | %-14s |\n' "peak RSS, text (MiB)" \
		"$(mib "$RSS_T_TEXT")" "$(mib "$RSS_B_TEXT")" "" "< 64: $V_RSS"
	printf '| %-28s | %11s | %11s | %9s | %-14s |\n' "peak RSS, decoding (MiB)" \
		"$(mib "$RSS_T_COUNT")" "$(mib "$RSS_B_COUNT")" "" ""
	echo
	echo "text outputs byte-identical (cmp): $IDENTICAL"
} >"$TMP/table"
cat "$TMP/table"

STATUS=0
if [ "$COUNT" != "$EMITTED" ]; then
	echo "bench/reader: the trace holds $COUNT events, $EMITTED were emitted" >&2
	STATUS=1
fi
[ "$IDENTICAL" = yes ] || STATUS=1
exit $STATUS
