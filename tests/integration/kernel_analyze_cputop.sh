#!/bin/sh
# kernel_analyze_cputop.sh - `trax analyze cputop` and Debian's
# lttng-cputop (python3-lttnganalyses) on a kernel trace recorded here and
# now by trax (the whole machine for about a second: sched_*, irq_*, the
# state dump, contexts tid/pid/procname; kwork spinning 200 ms): the same JSON, value by value
# (mi-compare.py), and the same text, but for lttng-cputop's first line;
# over the whole trace, with --begin/--end (a window in the middle, in
# nanoseconds) and with --tid (kwork's thread); --limit 0 (every row).
#
# lttng-analyses takes events of equal time on two CPUs in Babeltrace 1's
# heap order, which is not trax's: when the two disagree and such ties
# between sched_* events exist, the recording is made again (three times
# at most); a disagreement on a trace without ties fails at once.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
for c in lttng-cputop lttng-cputop-mi python3; do
	command -v $c >/dev/null || fail "$c is needed (Debian's python3-lttnganalyses)"
done
CMP=$TRAX_SRC/tests/integration/data/analyses/mi-compare.py
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O1 -o kwork "$TRAX_SRC/tests/integration/data/kernel/kwork.c" || fail "cannot build kwork"
head -c 4096 /dev/urandom >data.bin

record() {
	rm -rf "$P/out"
	trax create an --output="$P/out" >/dev/null || fail "create"
	trax enable-event -k 'sched_*,irq_*,lttng_statedump_*' >/dev/null 2>&1 || fail "enable-event -k"
	# (lttng-analyses wants the pid context: lttng-analyses-record adds these)
	trax add-context -k -t tid -t pid -t procname >/dev/null 2>&1 || fail "add-context -k"
	rm -f go
	mkfifo go
	./kwork "$P/kwork.txt" "$P/data.bin" 20 200 go &
	kpid=$!
	trax start >/dev/null || fail "start"
	echo go >go
	wait "$kpid" || fail "kwork failed"
	sleep 0.2
	trax stop >/dev/null || fail "stop"
	trax destroy an >/dev/null
	read -r tid cpums <kwork.txt
	K=$P/out/kernel
}

# ties: sched_* events of equal times on different CPUs
ties() {
	trax view --format=json "$K" 2>/dev/null | python3 -c '
import json, sys
seen = {}
n = 0
for line in sys.stdin:
    e = json.loads(line)
    if not e["name"].startswith("sched_"):
        continue
    cpu = (e.get("packet_context") or {}).get("cpu_id")
    t = e["timestamp"]
    if t in seen and seen[t] != cpu:
        n += 1
    seen[t] = cpu
print(n)'
}

# compare WHAT ARGS...: 0 when trax and lttng-cputop agree
compare() {
	what=$1
	shift
	lttng-cputop-mi "$@" "$K" >lt.json 2>lt.err || fail "lttng-cputop-mi $* failed: $(head -c 400 lt.json) $(tail -3 lt.err)"
	trax analyze cputop --format=json "$@" "$K" >tx.json 2>tx.err || fail "trax analyze cputop $*: $(cat tx.err)"
	if ! python3 "$CMP" lt.json tx.json >diff.txt; then
		echo "$what: JSON differs: $(head -n 6 diff.txt)"
		return 1
	fi
	lttng-cputop --no-progress "$@" "$K" 2>/dev/null | tail -n +2 >lt.txt
	trax analyze cputop "$@" "$K" >tx.txt || fail "trax analyze cputop $* (text)"
	if ! cmp -s lt.txt tx.txt; then
		echo "$what: text differs: $(diff lt.txt tx.txt | head -n 6)"
		return 1
	fi
	return 0
}

for attempt in 1 2 3; do
	record
	begin=$(python3 -c "import json; d = json.load(open('/dev/stdin'))['results'][0]['time-range']; b, e = d['begin']['value'], d['end']['value']; print(b + (e - b) // 4, b + 3 * (e - b) // 4)" <<EOF2
$(trax analyze cputop --format=json "$K")
EOF2
)
	set -- $begin
	b=$1 e=$2
	bad=0
	compare whole --limit 0 || bad=1
	compare range --begin "$b" --end "$e" || bad=1
	compare tid --tid "$tid" --limit 0 || bad=1
	if [ $bad = 0 ]; then
		grep -q "kwork ($tid)" tx.txt || fail "kwork ($tid) is not in cputop --tid $tid: $(cat tx.txt)"
		ok "a trace of $(trax view --count "$K"): cputop as lttng-cputop (whole, [$b, $e], --tid $tid)"
		exit 0
	fi
	n=$(ties)
	[ "$n" -gt 0 ] || fail "trax and lttng-cputop disagree on a trace without ties (kept in $K)"
	echo "attempt $attempt: $n ties between CPUs: recording again"
done
fail "three recordings with ties on which trax and lttng-cputop disagree"
