#!/bin/sh
# regen.sh [CONFORMANCE_DIR] - regenerates the expected outputs of Debian's
# python3-lttnganalyses 0.6.1 (text and -mi JSON) kept under
# tests/data/analyses/expected/, from the kernel traces of the conformance
# corpus (CONFORMANCE_DIR/ctf/succeed/..., by default $TRAX_CONFORMANCE or
# ../shared/conformance beside the checkout) and from the trace trax
# recorded (tests/data/analyses/trax-kernel-trace). See README.md there.
# TZ=UTC: the text outputs print wall-clock times in the local zone.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd -P)
SRC=$(cd "$HERE/../../.." && pwd -P)
CONF=${1:-${TRAX_CONFORMANCE:-}}
if [ -z "$CONF" ]; then
	for c in "$SRC/../shared/conformance" /work/shared/conformance; do
		[ -d "$c/ctf/succeed" ] && { CONF=$c; break; }
	done
fi
[ -n "$CONF" ] && [ -d "$CONF/ctf/succeed" ] || { echo "$0: no conformance corpus (give its directory)" >&2; exit 1; }
for t in lttng-cputop lttng-syscallstats lttng-iolatencystats lttng-schedstats lttng-irqstats babeltrace; do
	[ -x "/usr/bin/$t" ] || { echo "$0: /usr/bin/$t missing (apt-get install python3-lttnganalyses babeltrace)" >&2; exit 1; }
done
export TZ=UTC LC_ALL=C.UTF-8
unset LTTNG_ANALYSES_DEBUG || true
OUT=$HERE/expected
SUCCEED=$CONF/ctf/succeed

# NAME TOOL [ARGS...]: one analysis in text and in JSON; stderr (babeltrace's
# warnings about discarded events) is kept apart; a non-zero exit is kept in
# NAME.status.
run() {
	name=$1 tool=$2
	shift 2
	/usr/bin/lttng-$tool --no-progress "$@" "$TRACE" >"$DIR/$name.txt" 2>"$DIR/$name.txt.err" ||
		echo "text exit $?" >>"$DIR/$name.status"
	/usr/bin/lttng-$tool-mi "$@" "$TRACE" >"$DIR/$name.json" 2>"$DIR/$name.json.err" ||
		echo "mi exit $?" >>"$DIR/$name.status"
	for f in "$DIR/$name.txt.err" "$DIR/$name.json.err"; do
		[ -s "$f" ] || rm -f "$f"
	done
}

# DIRNAME TRACE [ARGS...]: every analysis on one trace
all() {
	DIR=$OUT/$1 TRACE=$2
	shift 2
	rm -rf "$DIR"
	mkdir -p "$DIR"
	run cputop cputop "$@"
	run syscallstats syscallstats "$@"
	run iolatencystats iolatencystats "$@"
	run iolatencyfreq iolatencyfreq "$@"
	run iolatencytop iolatencytop "$@"
	run schedstats schedstats "$@"
	run schedstats-all schedstats --total --per-tid --per-prio "$@"
	run irqstats irqstats "$@"
}

all trax-kernel "$HERE/trax-kernel-trace/kernel"
# --begin/--end (hh:mm:ss.nnnnnnnnn, the trace's day, TZ above); the whole
# I/O log of this trace would be 1.5 MB
B=07:00:17.100000000 E=07:00:17.129000000
run iolog-range iolog --begin $B --end $E
run cputop-range cputop --begin $B --end $E
run cputop-tidrange cputop --tid 6913 --begin $B --end $E
run syscallstats-range syscallstats --begin $B --end $E
run iolatencystats-range iolatencystats --begin $B --end $E
run iolatencytop-range iolatencytop --begin $B --end $E
run schedstats-all-range schedstats --total --per-tid --per-prio --begin $B --end $E
run irqstats-range irqstats --begin $B --end $E
# cputop's filters (trax analyze cputop's tests)
run cputop-tid cputop --tid 6904,6909,0
run cputop-procname cputop --procname traxd,kwork
run cputop-cpu cputop --cpu 1 --limit 3
# --begin after traxd opened saved_tgids (fd 4): its 39 reads of it in the
# range are not counted (the analysis did not see the fd created)
B=07:00:17.043800000 E=07:00:17.046500000
run iolatencystats-fdrange iolatencystats --begin $B --end $E
run iolog-fdrange iolog --begin $B --end $E
# its streams do not overlap: the default (intersection) mode refuses it
all tracefile-rotation "$SUCCEED/lttng-tracefile-rotation/kernel" --no-intersection
DIR=$OUT/tracefile-rotation TRACE=$SUCCEED/lttng-tracefile-rotation/kernel
run cputop-intersect cputop
B=21:36:36.000000000 E=21:36:37.000000000
run cputop-range cputop --no-intersection --begin $B --end $E
run schedstats-all-range schedstats --no-intersection --total --per-tid --per-prio --begin $B --end $E
# only lttng_test_filter_event: every analysis is empty
all multi-domains-kernel "$SUCCEED/multi-domains/kernel"
# user space only (no kernel trace in it): the analyses run and find nothing
DIR=$OUT/session-rotation TRACE=$SUCCEED/session-rotation
rm -rf "$DIR"
mkdir -p "$DIR"
run cputop cputop
echo "$0: expected outputs written under $OUT"
