#!/bin/sh
# check-model.sh [CONFORMANCE_DIR] - runs model.py (the reference's model of
# lttng-analyses) against every expected output it covers; exit 1 if any
# differs. Needs /usr/bin/python3 with Debian's python3-babeltrace.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd -P)
CONF=${1:-${TRAX_CONFORMANCE:-}}
if [ -z "$CONF" ]; then
	for c in "$HERE/../../../../shared/conformance" /work/shared/conformance; do
		[ -d "$c/ctf/succeed" ] && { CONF=$c; break; }
	done
fi
[ -n "$CONF" ] && [ -d "$CONF/ctf/succeed" ] || { echo "$0: no conformance corpus (give its directory)" >&2; exit 1; }
S=$CONF/ctf/succeed
cd "$HERE"
rc=0
m() { echo "model.py $*"; /usr/bin/python3 model.py "$@" || rc=1; }
m trax-kernel-trace/kernel expected/trax-kernel
m trax-kernel-trace/kernel expected/trax-kernel --begin 07:00:17.100000000 --end 07:00:17.129000000 --suffix -range
m trax-kernel-trace/kernel expected/trax-kernel --begin 07:00:17.043800000 --end 07:00:17.046500000 --suffix -fdrange
m "$S/lttng-tracefile-rotation/kernel" expected/tracefile-rotation --no-intersection
m "$S/lttng-tracefile-rotation/kernel" expected/tracefile-rotation --no-intersection --begin 21:36:36.000000000 --end 21:36:37.000000000 --suffix -range
m "$S/multi-domains/kernel" expected/multi-domains-kernel
exit $rc
