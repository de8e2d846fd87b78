#!/bin/sh
# kernel_analyze_sys.sh - `trax analyze syscallstats` and `iolatency`
# against Debian's lttng-syscallstats and lttng-iolatencystats,
# -iolatencytop, -iolatencyfreq, lttng-iolog (python3-lttnganalyses) on a
# kernel trace recorded here and now by trax (the whole machine for about
# a second: every system call, sched_*, block_rq_*, the state dump,
# contexts tid/pid/procname; kwork opening, reading and closing a file 50
# times, then spinning 200 ms): the same JSON, value by value
# (mi-compare.py), and the same text but for the tools' first line; over
# the whole trace and a window in the middle (--begin/--end in
# nanoseconds), syscallstats also with --tid (kwork's thread).
#
# lttng-analyses takes events of equal time on two CPUs in Babeltrace 1's
# heap order, which is not trax's: when the two disagree and such ties
# exist, the recording is made again (five times at most); a
# disagreement on a trace without ties fails at once. lttng-iolatency*
# also fail on some traces with their own error ("Cannot run analysis:
# 'NoneType' object has no attribute 'filename'": a thread created during
# the trace, then named by the state dump, shares an fd its process has
# closed, io.py's _assign_fds_to_parent); such a recording is made again
# too (five at most, then the test fails: other processes starting on a
# busy machine make it likelier).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
spinner=
trap '[ -z "$spinner" ] || kill $spinner 2>/dev/null; daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM
for c in lttng-syscallstats lttng-syscallstats-mi lttng-iolatencystats lttng-iolatencystats-mi \
	lttng-iolatencytop lttng-iolatencytop-mi lttng-iolatencyfreq lttng-iolatencyfreq-mi \
	lttng-iolog lttng-iolog-mi python3 taskset; do
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
	trax enable-event -k 'sched_*,block_rq_*,lttng_statedump_*' >/dev/null 2>&1 || fail "enable-event -k"
	trax enable-event -k --syscall -a >/dev/null 2>&1 || fail "enable-event -k --syscall -a"
	trax add-context -k -t tid -t pid -t procname >/dev/null 2>&1 || fail "add-context -k"
	rm -f go
	mkfifo go
	# on CPU 0, kept from idling by a spinner of the lowest priority: on
	# some CPUs this kernel records no sched_switch from the idle task
	# (docs/kernel.md), and lttng-analyses gives system calls to the thread
	# its sched_switch events say runs on the CPU (kernel_analyses.sh)
	nice -n 19 taskset -c 0 sh -c 'while :; do :; done' &
	spinner=$!
	taskset -c 0 ./kwork "$P/kwork.txt" "$P/data.bin" 50 200 go &
	kpid=$!
	trax start >/dev/null || fail "start"
	echo go >go
	wait "$kpid" || fail "kwork failed"
	kill $spinner
	spinner=
	sleep 0.2
	trax stop >/dev/null || fail "stop"
	trax destroy an >/dev/null
	read -r tid cpums <kwork.txt
	K=$P/out/kernel
}

# ties: events of equal times on different CPUs
ties() {
	trax view --format=json "$K" 2>/dev/null | python3 -c '
import json, sys
seen = {}
n = 0
for line in sys.stdin:
    e = json.loads(line)
    cpu = (e.get("packet_context") or {}).get("cpu_id")
    t = e["timestamp"]
    if t in seen and seen[t] != cpu:
        n += 1
    seen[t] = cpu
print(n)'
}

# compare TOOL ANALYSIS [TRAX-OPTION] -- ARGS...: 0 when trax and lttng-TOOL agree
compare() {
	tool=$1 an=$2 opt=
	shift 2
	[ "$1" = -- ] || { opt=$1; shift; }
	shift
	if ! "lttng-$tool-mi" "$@" "$K" >lt.json 2>lt.err; then
		if grep -q '"Error: Cannot run analysis: ' lt.json; then
			echo "lttng-$tool-mi $*: $(head -c 300 lt.json)"
			return 2
		fi
		fail "lttng-$tool-mi $* failed: $(head -c 400 lt.json) $(tail -3 lt.err)"
	fi
	# shellcheck disable=SC2086
	trax analyze "$an" $opt --format=json "$@" "$K" >tx.json 2>tx.err || fail "trax analyze $an $opt $*: $(cat tx.err)"
	if ! python3 "$CMP" lt.json tx.json >diff.txt; then
		echo "$tool $*: JSON differs: $(head -n 6 diff.txt)"
		return 1
	fi
	"lttng-$tool" --no-progress "$@" "$K" 2>/dev/null | tail -n +2 >lt.txt
	# shellcheck disable=SC2086
	trax analyze "$an" $opt "$@" "$K" >tx.txt || fail "trax analyze $an $opt $* (text)"
	if ! cmp -s lt.txt tx.txt; then
		echo "$tool $*: text differs: $(diff lt.txt tx.txt | head -n 6)"
		return 1
	fi
	return 0
}

# check ARGS...: compare ARGS, noting a disagreement (bad) or lttng-analyses' own failure (crash)
check() {
	st=0
	compare "$@" || st=$?
	[ $st = 0 ] || { [ $st = 2 ] && crash=1 || bad=1; }
}

for attempt in 1 2 3 4 5; do
	record
	# a window in the middle of the system calls (the kernel domain's
	# system call channel may start after its sched_* events)
	set -- $(trax view --format=json "$K" 2>/dev/null | python3 -c "
import json, sys
ts = [json.loads(l)['timestamp'] for l in sys.stdin if '\"syscall_' in l]
b, e = min(ts), max(ts)
print(b + (e - b) // 4, b + 3 * (e - b) // 4)")
	b=$1 e=$2
	bad=0 crash=0
	check syscallstats syscallstats --
	check syscallstats syscallstats -- --begin "$b" --end "$e"
	check syscallstats syscallstats -- --tid "$tid"
	check iolatencystats iolatency --
	check iolatencystats iolatency -- --begin "$b" --end "$e"
	check iolatencytop iolatency --top --
	check iolatencyfreq iolatency --freq --
	check iolog iolatency --log -- --begin "$b" --end "$e"
	if [ $crash = 1 ]; then
		echo "attempt $attempt: lttng-analyses failed on this trace (its own error): recording again"
		continue
	fi
	if [ $bad = 0 ]; then
		trax analyze syscallstats --tid "$tid" "$K" >tx.txt
		grep -q "^kwork ([0-9]*, TID: $tid)" tx.txt || fail "kwork ($tid) not in syscallstats --tid $tid: $(cat tx.txt)"
		grep -q '^ - openat  *[0-9]' tx.txt || fail "kwork's openat calls not counted: $(cat tx.txt)"
		trax analyze iolatency --log "$K" >tx.txt
		if ! grep -q "kwork  *$tid .*data.bin (fd=" tx.txt; then
			# (lttng-analyses agreed: the recording gave kwork's openat
			# to another thread, as this kernel's missing switches can)
			echo "attempt $attempt: kwork's reads of data.bin have no file name in this recording: recording again"
			continue
		fi
		ok "a trace of $(trax view --count "$K"): syscallstats and iolatency (stats, top, freq, log) as lttng-analyses (whole, [$b, $e], --tid $tid)"
		exit 0
	fi
	n=$(ties)
	[ "$n" -gt 0 ] || fail "trax and lttng-analyses disagree on a trace without ties (kept in $K)"
	echo "attempt $attempt: $n ties between CPUs: recording again"
done
fail "five recordings with ties on which trax and lttng-analyses disagree, on which lttng-analyses fails, or without kwork's file name"
