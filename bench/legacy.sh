#!/usr/bin/env bash
# bench/legacy.sh BUILD_DIR
#
# `trax view` on a pre-CTF trace (converted on the fly: src/legacy/lconvert.c,
# then read as CTF) against `trax view` on the CTF trace `trax convert` made
# of it (the same events, in about the same bytes), and `trax convert` alone.
# The trace: BENCH_LEGACY_N events (default 1,000,000) of the compact format
# (2.3) written by bench/legacy_big.py (the test tree's writer; slow: ~2 min
# per million events, kept in BENCH_LEGACY_DIR if set; BENCH_LEGACY_FORMAT=v0
# for an LTTV 0.7 trace instead). Each is run
# BENCH_LEGACY_REPS times (default 5), alternately; medians of the wall time.
# Target (issue 19): the legacy view within 2x of the CTF view.
set -euo pipefail
BUILD=${1:?usage: bench/legacy.sh BUILD_DIR}
TRAX="$BUILD/trax"
N=${BENCH_LEGACY_N:-1000000}
FORMAT=${BENCH_LEGACY_FORMAT:-v2} # v2: compact 2.3; v0: LTTV 0.7
REPS=${BENCH_LEGACY_REPS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/trax-bench-legacy.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
LEG=${BENCH_LEGACY_DIR:-$WORK/legacy}
if [ ! -e "$LEG/metadata_0" ] && [ ! -d "$LEG/eventdefs" ]; then
	echo "writing a legacy trace of $N events in $LEG..."
	python3 "$HERE/legacy_big.py" "$LEG" "$N" "$FORMAT"
fi
"$TRAX" convert "$LEG" -o "$WORK/ctf" 2>/dev/null

secs() { # secs CMD...: wall seconds of one run
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: >"$WORK/leg.t"
: >"$WORK/ctf.t"
: >"$WORK/conv.t"
for _ in $(seq "$REPS"); do
	secs "$TRAX" view "$LEG" >>"$WORK/leg.t"
	secs "$TRAX" view "$WORK/ctf" >>"$WORK/ctf.t"
	rm -rf "$WORK/c2"
	secs "$TRAX" convert "$LEG" -o "$WORK/c2" >>"$WORK/conv.t"
done
events=$("$TRAX" view "$LEG" | wc -l)
"$TRAX" view "$LEG" | cmp -s - <("$TRAX" view "$WORK/ctf") || echo "WARNING: the two views differ"
leg=$(median <"$WORK/leg.t")
ctf=$(median <"$WORK/ctf.t")
conv=$(median <"$WORK/conv.t")
printf '%-34s %10s %14s\n' "legacy trace ($events events)" "seconds" "events/s"
printf '%-34s %10.3f %14.0f\n' "trax view LEGACY" "$leg" "$(echo "$events / $leg" | bc -l)"
printf '%-34s %10.3f %14.0f\n' "trax view CTF (its conversion)" "$ctf" "$(echo "$events / $ctf" | bc -l)"
printf '%-34s %10.3f %14.0f\n' "trax convert" "$conv" "$(echo "$events / $conv" | bc -l)"
printf 'legacy / CTF: %.2fx (target: <= 2x)\n' "$(echo "$leg / $ctf" | bc -l)"
