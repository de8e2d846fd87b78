#!/bin/sh
# analyze_stats.sh - `trax analyze stats` (LTTV's statistics view) counts
# what other readers count, on every trace of the conformance corpus that
# Babeltrace 1 reads, user space and kernel, and on the trace trax
# recorded (tests/data/analyses):
#  - events in all, per event name and per CPU (the packet context's
#    cpu_id) equal to Babeltrace 1's (its Python bindings, as
#    lttng-analyses reads traces: stats-check.py), over the whole traces
#    (--no-intersection), and the total equal to `trax view --count`'s;
#  - discarded events and lost packets equal to the sums of babeltrace2's
#    "Tracer discarded N events/packets" warnings (two traces with losses:
#    multi-domains, 728; ev-disc-no-ts-begin-end, 17).
. "$TRAX_SRC/tests/integration/lib.sh"

CONF=${TRAX_CONFORMANCE:-$TRAX_SRC/../shared/conformance}
SUCCEED=$CONF/ctf/succeed
[ -d "$SUCCEED" ] || fail "no conformance corpus at $CONF (set TRAX_CONFORMANCE)"
PY=/usr/bin/python3
$PY -c 'import babeltrace' 2>/dev/null || fail "$PY with the babeltrace (1) module is needed (python3-babeltrace)"
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
CHECK=$TRAX_SRC/tests/integration/data/analyses/stats-check.py
TRAX=$TRAX_BUILD/trax
cd "$TEST_TMP"

n=0 losses=0
for t in "$SUCCEED"/* "$TRAX_SRC/tests/data/analyses/trax-kernel-trace"; do
	name=$(basename "$t")
	"$TRAX" analyze stats --no-intersection --format=json "$t" >stats.json 2>err.txt ||
		fail "$name: trax analyze stats failed: $(cat err.txt)"
	$PY "$CHECK" "$t" stats.json >check.txt 2>/dev/null || fail "$name: $(cat check.txt)"
	count=$(tail -n 1 check.txt)
	view=$("$TRAX" view --count "$t" 2>/dev/null) || fail "$name: trax view --count failed"
	[ "$view" = "$count events" ] || fail "$name: stats counts $count events, trax view --count $view"
	"$TRAX" analyze stats --no-intersection "$t" >stats.txt || fail "$name: text"
	got=$(sed -n 's/^Discarded events: \([0-9]*\), lost packets: \([0-9]*\)$/\1 \2/p' stats.txt)
	babeltrace2 "$t" 2>bt2.err >/dev/null || :
	de=$(grep -o 'discarded [0-9]* events' bt2.err | awk '{ s += $2 } END { print s + 0 }')
	dp=$(grep -o 'discarded [0-9]* packets' bt2.err | awk '{ s += $2 } END { print s + 0 }')
	if [ "$count" = 0 ]; then
		grep -qx "No event in the time range." stats.txt || fail "$name: no events: $(cat stats.txt)"
	else
		[ "$got" = "$de $dp" ] || fail "$name: discarded/lost '$got', babeltrace2's warnings '$de $dp'"
	fi
	[ "$de" = 0 ] || losses=$((losses + 1))
	n=$((n + 1))
done
[ $n -ge 25 ] || fail "only $n traces"
[ $losses -ge 2 ] || fail "only $losses traces with discarded events: the check saw none"
ok "$n traces: events per name and CPU as Babeltrace 1, totals as trax view --count, losses as babeltrace2 ($losses with losses)"
