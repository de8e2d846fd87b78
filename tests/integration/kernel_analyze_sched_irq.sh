#!/bin/sh
# kernel_analyze_sched_irq.sh - `trax analyze schedlatency` and `irqstats`
# against Debian's lttng-schedstats and lttng-irqstats
# (python3-lttnganalyses) on a kernel trace recorded here and now by trax
# (the whole machine for about a second: sched_*, irq_* with the soft IRQs,
# the state dump, contexts tid/pid/procname), while kwake sleeps 1 ms 200
# times on CPU 0 (kept busy by a spinner of nice 19, so that the switches
# to kwake are recorded) and dd writes to the disk with fsync (block I/O:
# a device IRQ):
#  - schedlatency --total --per-tid --per-prio: the same JSON (value by
#    value) and text (but for lttng's first line), whole and with
#    --begin/--end; kwake's row counts at least half its 200 wakeups;
#    --top, --freq, --log as lttng-schedtop, -schedfreq, -schedlog;
#  - irqstats: the hard IRQs as lttng-irqstats' (soft IRQs dropped:
#    drop-soft.py), and everything, soft IRQs included, as lttng-irqstats
#    finds them in a copy of the trace whose soft IRQ events bear the
#    names it looks for; at least one hard IRQ and the timer soft IRQ.
#
# As kernel_analyze_cputop.sh: events of equal time on two CPUs come in
# Babeltrace 1's heap order in lttng-analyses, not in trax's; when the two
# disagree and such ties between sched_*/irq_* events exist, the recording
# is made again (three times at most).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
for c in lttng-schedstats lttng-schedstats-mi lttng-irqstats lttng-irqstats-mi python3 dd taskset; do
	command -v $c >/dev/null || fail "$c is needed (Debian's python3-lttnganalyses)"
done
CMP=$TRAX_SRC/tests/integration/data/analyses/mi-compare.py
DROP=$TRAX_SRC/tests/integration/data/analyses/drop-soft.py
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O1 -o kwake "$TRAX_SRC/tests/integration/data/kernel/kwake.c" || fail "cannot build kwake"
# kwake on CPU 0, kept from idling by a spinner of the lowest priority: on
# some CPUs this kernel records no sched_switch from the idle task
# (docs/kernel.md), and a wakeup counts at the switch to the thread
nice -n 19 taskset -c 0 sh -c 'while :; do :; done' &
spinner=$!
trap 'kill $spinner 2>/dev/null || true; daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM

record() {
	rm -rf "$P/out"
	trax create an --output="$P/out" >/dev/null || fail "create"
	trax enable-event -k 'sched_*,irq_*,lttng_statedump_*' >/dev/null 2>&1 || fail "enable-event -k"
	trax add-context -k -t tid -t pid -t procname >/dev/null 2>&1 || fail "add-context -k"
	rm -f go
	mkfifo go
	taskset -c 0 ./kwake "$P/kwake.txt" 200 1000 go &
	kpid=$!
	trax start >/dev/null || fail "start"
	echo go >go
	dd if=/dev/zero of="$P/dd.bin" bs=64k count=16 conv=fsync 2>/dev/null || fail "dd"
	wait "$kpid" || fail "kwake failed"
	sleep 0.1
	trax stop >/dev/null || fail "stop"
	trax destroy an >/dev/null
	read -r tid <kwake.txt
	K=$P/out/kernel
}

ties() {
	trax view --format=json "$K" 2>/dev/null | python3 -c '
import json, sys
seen = {}
n = 0
for line in sys.stdin:
    e = json.loads(line)
    if not (e["name"].startswith("sched_") or e["name"].startswith("irq_")):
        continue
    cpu = (e.get("packet_context") or {}).get("cpu_id")
    t = e["timestamp"]
    if t in seen and seen[t] != cpu:
        n += 1
    seen[t] = cpu
print(n)'
}

# differs WHAT EXPECTED.json ACTUAL.json EXPECTED.txt ACTUAL.txt: 0 when equal
differs() {
	if ! python3 "$CMP" "$2" "$3" >diff.txt; then
		echo "$1: JSON differs: $(head -n 6 diff.txt)"
		return 0
	fi
	if ! cmp -s "$4" "$5"; then
		echo "$1: text differs: $(diff "$4" "$5" | head -n 6)"
		return 0
	fi
	return 1
}

# sched [--top|--log|--freq] ARGS...: trax analyze schedlatency and lttng-schedstats
# (or lttng-schedtop, -schedlog, -schedfreq) with ARGS
sched() {
	tool=schedstats
	case $1 in
	--top) tool=schedtop ;;
	--log) tool=schedlog ;;
	--freq) tool=schedfreq ;;
	esac
	lt=$tool
	[ $tool = schedstats ] || shift
	lttng-$lt-mi "$@" "$K" >lt.json 2>lt.err || fail "lttng-$lt-mi $*: $(tail -3 lt.err)"
	lttng-$lt --no-progress "$@" "$K" 2>/dev/null | tail -n +2 >lt.txt
	[ $tool = schedstats ] || set -- "--${tool#sched}" "$@"
	# (lttng-schedtop's --limit N is trax's --top N)
	[ $tool = schedtop ] && [ "$2" = --limit ] && set -- --top "$3"
	trax analyze schedlatency --format=json "$@" "$K" >tx.json 2>tx.err || fail "trax analyze schedlatency $*: $(cat tx.err)"
	trax analyze schedlatency "$@" "$K" >tx.txt || fail "trax analyze schedlatency $* (text)"
	! differs "schedlatency $*" lt.json tx.json lt.txt tx.txt
}

irq() {
	lttng-irqstats-mi "$@" "$K" >lt.json 2>lt.err || fail "lttng-irqstats-mi $*: $(tail -3 lt.err)"
	lttng-irqstats --no-progress "$@" "$K" 2>/dev/null | tail -n +2 >lt.txt
	trax analyze irqstats --format=json "$@" "$K" >tx.json 2>tx.err || fail "trax analyze irqstats $*: $(cat tx.err)"
	trax analyze irqstats "$@" "$K" >tx.txt || fail "trax analyze irqstats $* (text)"
	python3 "$DROP" tx.json hard.json
	python3 "$DROP" --text tx.txt hard.txt
	differs "irqstats $* (hard)" lt.json hard.json lt.txt hard.txt && return 1
	rm -rf ren
	mkdir ren
	cp -r "$K" ren/kernel
	sed -i 's/name = "irq_softirq_/name = "softirq_/' ren/kernel/metadata
	# (lttng-irqstats fails on a soft IRQ exit whose raise it never saw,
	# which a recording may begin with: then the test records again)
	if ! lttng-irqstats-mi "$@" ren/kernel >lt.json 2>lt.err; then
		echo "lttng-irqstats-mi $* failed on the renamed copy: $(tail -3 lt.err) $(head -c 300 lt.json)"
		lt_failed=1
		return 1
	fi
	lttng-irqstats --no-progress "$@" ren/kernel 2>/dev/null | tail -n +2 >lt.txt
	! differs "irqstats $* (soft IRQs renamed)" lt.json tx.json lt.txt tx.txt
}

for attempt in 1 2 3; do
	record
	set -- $(trax analyze schedlatency --total --format=json "$K" | python3 -c "
import json, sys
d = json.load(sys.stdin)['results'][0]['time-range']
b, e = d['begin']['value'], d['end']['value']
print(b + (e - b) // 4, b + 3 * (e - b) // 4)")
	b=$1 e=$2
	bad=0 lt_failed=0
	sched --total --per-tid --per-prio || bad=1
	grep -q "^kwake ($tid) " tx.txt || fail "no kwake ($tid) row: $(cat tx.txt)"
	count=$(grep "^kwake ($tid) " tx.txt | awk '{print $3}')
	[ "$count" -ge 100 ] || fail "kwake ($tid): $count wakeups counted of 200"
	sched --total --per-prio --begin "$b" --end "$e" || bad=1
	sched --top --limit 20 || bad=1
	sched --freq --total --per-prio || bad=1
	sched --log --begin "$b" --end "$e" || bad=1
	irq || bad=1
	grep -q '"hard": true' tx.json || fail "no hard IRQ in the trace: $(cat tx.txt)"
	grep -q 'TIMER_SOFTIRQ' tx.txt || fail "no timer soft IRQ: $(cat tx.txt)"
	irq --begin "$b" --end "$e" || bad=1
	if [ $bad = 0 ]; then
		ok "a trace of $(trax view --count "$K"): schedlatency (kwake: $count wakeups) and irqstats as lttng-analyses' (whole and [$b, $e])"
		exit 0
	fi
	if [ $lt_failed = 1 ]; then
		echo "attempt $attempt: lttng-irqstats failed on the trace: recording again"
		continue
	fi
	n=$(ties)
	[ "$n" -gt 0 ] || fail "trax and lttng-analyses disagree on a trace without ties (kept in $K)"
	echo "attempt $attempt: $n ties between CPUs: recording again"
done
fail "three recordings with ties on which trax and lttng-analyses disagree (or lttng-irqstats failed)"
