#!/bin/sh
# kernel_perf.sh - perf counter contexts of kernel channels (issue 17:
# `add-context -k -t perf:cpu:NAME`):
#  1. `trax add-context -k --list` shows the software counters page-fault
#     and cpu-clock, and no counter the machine cannot open;
#  2. a session with sched_switch, the getpid system call and the state
#     dump, contexts perf:cpu:page-fault, perf:cpu:cpu-clock and tid; a
#     program on CPU 0 calls getpid, touches 300 new pages, calls getpid:
#     between its two getpid entries the page-fault counter grows by 300
#     to 364 and cpu-clock by their time apart (within 10%); on each CPU
#     both counters never decrease in time order (tracepoints through perf
#     and system calls through BPF read the same counters); sched_switch
#     and the state dump carry them too; the metadata declares the fields
#     as LTTng-modules does (perf_cpu_page_fault: 64-bit unsigned, base
#     10); babeltrace2 reads it without a warning and prints what trax view
#     prints; babeltrace 1 reads it; recording again after a stop, the
#     same for 200 pages;
#  3. the errors: an unknown counter, one line and a non-zero exit; a
#     counter this machine lacks, one line from traxd.
# Needs root and tracefs (mounted if missing).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

need_kernel_tracefs
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
cd "$TEST_TMP"
$CC -O1 -o perfprog "$TRAX_SRC/tests/integration/data/kernel/perfprog.c" || fail "cannot build perfprog"
P=$(pwd -P)

# ---- 1. the list ----
trax add-context -k --list >list.txt || fail "add-context -k --list"
grep -qx "perf:cpu:page-fault" list.txt || check_fail "perf:cpu:page-fault is not listed"
grep -qx "perf:cpu:cpu-clock" list.txt || check_fail "perf:cpu:cpu-clock is not listed"
grep -qx "tid" list.txt || check_fail "tid is not listed"
hw=none
[ -d /sys/bus/event_source/devices/cpu ] && hw=cpu
if [ $hw = none ]; then
	grep -q "^perf:cpu:cycles$" list.txt && check_fail "perf:cpu:cycles listed on a machine without a CPU PMU"
fi
ok "add-context -k --list: $(grep -c '^perf:' list.txt) counters"

# ---- 2. a session ----
trax create kp --output="$P/out" >/dev/null || fail "create"
trax enable-event -k sched_switch,'lttng_statedump_*' >en.txt 2>&1 ||
	{ cat en.txt; fail "enable-event -k"; }
trax enable-event -k --syscall getpid >/dev/null 2>&1 || fail "enable-event -k --syscall getpid"
trax add-context -k -t perf:cpu:page-fault -t perf:cpu:cpu-clock -t tid >add.txt 2>&1 ||
	{ cat add.txt; fail "add-context -k -t perf:cpu:page-fault -t perf:cpu:cpu-clock -t tid"; }
expect_contains add.txt "kernel context perf:cpu:page-fault added to all channels"
trax list kp >tl.txt 2>&1 || fail "list kp"
expect_contains tl.txt "perf:cpu:cpu-clock"
trax start >/dev/null || fail "start"
"$P/perfprog" "$P/tid.txt" 300 || fail "perfprog failed"
trax stop >/dev/null || fail "stop"
# recording again after a stop
trax start >/dev/null || fail "start again"
"$P/perfprog" "$P/tid2.txt" 200 || fail "perfprog failed (second run)"
trax stop >/dev/null || fail "stop again"
trax destroy kp >/dev/null || fail "destroy"
tid=$(cat tid.txt)
tid2=$(cat tid2.txt)
K=$P/out/kernel

babeltrace2 "$K" >bt2.txt 2>bt2.err || { cat bt2.err; fail "babeltrace2 cannot read the trace"; }
[ -s bt2.err ] && check_fail "babeltrace2 warned: $(head -3 bt2.err)"
trax view "$K" >view.txt 2>view.err || { cat view.err; fail "trax view cannot read the trace"; }
cmp -s bt2.txt view.txt || check_fail "trax view and babeltrace2 differ: $(diff bt2.txt view.txt | head -5)"
if command -v babeltrace >/dev/null; then
	babeltrace "$K" >bt1.txt 2>bt1.err || check_fail "babeltrace 1 cannot read the trace: $(head -3 bt1.err)"
	[ "$(wc -l <bt1.txt)" = "$(wc -l <bt2.txt)" ] || check_fail "babeltrace 1 reads $(wc -l <bt1.txt) events, babeltrace2 $(wc -l <bt2.txt)"
fi
babeltrace2 --output-format=ctf-metadata "$K" >meta.txt 2>/dev/null
for f in perf_cpu_page_fault perf_cpu_cpu_clock; do
	grep -q "integer { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _$f;" meta.txt ||
		check_fail "$f is not declared a 64-bit unsigned decimal: $(grep "$f" meta.txt | head -2)"
done

# marks TID PAGES: the program's two getpid entries, on CPU 0 (the last
# two: it is pinned there by then): the counters between them
marks() {
	grep -n "syscall_entry_getpid: { cpu_id = 0 }, { perf_cpu_page_fault = [0-9]*, perf_cpu_cpu_clock = [0-9]*, tid = $1 }" bt2.txt |
		tail -n 2 >marks.n
	cut -d: -f2- marks.n >marks.txt
	# other threads on CPU 0 between the marks (a busy machine): their
	# faults count too (a CPU's counter), so only the lower bound holds
	others=$(sed -n "$(head -n 1 marks.n | cut -d: -f1),$(tail -n 1 marks.n | cut -d: -f1)p" bt2.txt |
		grep -c "sched_switch: { cpu_id = 0 }" || true)
	[ "$(wc -l <marks.txt)" = 2 ] || {
		check_fail "not two getpid entries of tid $1 on CPU 0: $(grep getpid bt2.txt | head -4)"
		return
	}
	# [hh:mm:ss.nnnnnnnnn] ... page fault, cpu clock
	sed 's/^\[\([0-9]*\):\([0-9]*\):\([0-9]*\)\.\([0-9]*\)\].*perf_cpu_page_fault = \([0-9]*\), perf_cpu_cpu_clock = \([0-9]*\),.*/\1 \2 \3 \4 \5 \6/' marks.txt >m.txt
	awk 'NR == 1 { t = (($1 * 60 + $2) * 60 + $3) * 1e9 + $4; pf = $5; ck = $6 }
	     NR == 2 { dt = (($1 * 60 + $2) * 60 + $3) * 1e9 + $4 - t; dpf = $5 - pf; dck = $6 - ck;
		       printf "%d %d %d\n", dpf, dck, dt }' m.txt >d.txt
	read -r dpf dck dt <d.txt
	[ "$dpf" -ge "$2" ] && { [ "$others" -gt 0 ] || [ "$dpf" -le $(($2 + 64)) ]; } ||
		check_fail "page faults between the marks: $dpf for $2 pages touched ($others switches on CPU 0 between)"
	awk -v c="$dck" -v t="$dt" 'BEGIN { d = c - t; if (d < 0) d = -d; exit !(d <= t / 10 + 20000) }' ||
		check_fail "cpu-clock grew $dck ns between marks $dt ns apart"
	ok "between the marks of tid $1: $dpf page faults ($2 pages; $others switches on CPU 0 between), cpu-clock +$dck ns in $dt ns"
}
marks "$tid" 300
marks "$tid2" 200

# per CPU, in time order: the counters never decrease, but where a system
# call probe (BPF on a faultable tracepoint: preemptible) was preempted
# between its time stamp and its counter reads, which makes its counters
# later than its time: a few such steps back, each less than 2 ms of
# cpu-clock and a few page faults, are that; more, or larger, are a fault
sed -n 's/.*{ cpu_id = \([0-9]*\) }, { perf_cpu_page_fault = \([0-9]*\), perf_cpu_cpu_clock = \([0-9]*\),.*/\1 \2 \3/p' bt2.txt >c.txt
[ "$(wc -l <c.txt)" = "$(wc -l <bt2.txt)" ] || check_fail "$(($(wc -l <bt2.txt) - $(wc -l <c.txt))) events without the counters"
awk '{ if (($1 in pf) && ($2 < pf[$1] || $3 < ck[$1])) {
	   back++; if (back < 4) print "CPU " $1 ": " pf[$1] "," ck[$1] " then " $2 "," $3 > "/dev/stderr"
	   if (pf[$1] - $2 > 8 || ck[$1] - $3 > 2000000) big++ }
       pf[$1] = $2; ck[$1] = $3 } END { exit (big > 0 || back > 3) }' c.txt 2>back.txt ||
	check_fail "counters decrease on a CPU: $(cat back.txt)"
n_sw=$(grep -c "sched_switch: { cpu_id = [0-9]* }, { perf_cpu_page_fault = [0-9]*, perf_cpu_cpu_clock = [1-9]" bt2.txt || true)
[ "$n_sw" -gt 0 ] || check_fail "no sched_switch with counters"
n_sd=$(grep -c "lttng_statedump_process_state: { cpu_id = [0-9]* }, { perf_cpu_page_fault = [0-9]*, perf_cpu_cpu_clock = [1-9]" bt2.txt || true)
[ "$n_sd" -gt 0 ] || check_fail "no state dump record with counters"
ok "$(wc -l <c.txt) events with the counters, $n_sw sched_switch, $n_sd processes in the state dump, never decreasing per CPU"

# ---- 2b. losses: a small buffer overflowed ----
trax create kl --output="$P/outl" >/dev/null || fail "create kl"
trax enable-channel -k --subbuf-size 4096 --num-subbuf 2 small >/dev/null 2>&1 || fail "enable-channel -k small"
trax enable-event -k -c small signal_generate >/dev/null 2>&1 || fail "enable-event -k signal_generate"
trax add-context -k -c small -t perf:cpu:page-fault >/dev/null 2>&1 || fail "add-context -k -c small"
trax start >/dev/null || fail "start kl"
"$P/perfprog" "$P/tid3.txt" 10 50000 || fail "perfprog failed (signals)"
trax stop >/dev/null || fail "stop kl"
trax list kl >kl.txt 2>&1
trax destroy kl >/dev/null
tid3=$(cat tid3.txt)
babeltrace2 "$P/outl/kernel" >bl.txt 2>bl.err || fail "babeltrace2 cannot read the trace with losses"
mine=$(grep -c "signal_generate: .*sig = 23, .*pid = $tid3," bl.txt || true)
disc=$(sed -n 's/.*Discarded events: *\([0-9]*\).*/\1/p' kl.txt | head -n 1)
[ -n "$disc" ] && [ "$disc" -gt 0 ] || check_fail "no events discarded: $(cat kl.txt)"
grep -q "discarded" bl.err || check_fail "babeltrace2 reports no discarded events: $(head -3 bl.err)"
# (other processes' signals in the channel may be among the discarded)
[ $((mine + disc)) -ge 50000 ] && [ $((mine + disc)) -le 51000 ] ||
	check_fail "signals: $mine recorded + $disc discarded, 50000 sent"
ok "losses: $mine of 50000 signals recorded, $disc discarded"

# ---- 2b. a tracepoint whose perf count is a value: one record per event ----
# (sched_stat_runtime counts its runtime in ns: without PERF_SAMPLE_PERIOD
# perf made a sample per nanosecond, throttled the group, lost the switches)
trax create kr --output="$P/outr" >/dev/null || fail "create kr"
trax enable-event -k sched_switch,sched_stat_runtime >/dev/null 2>&1 || fail "enable-event kr"
trax add-context -k -t perf:cpu:cpu-clock >/dev/null 2>&1 || fail "add-context kr"
trax start >/dev/null || fail "start kr"
"$P/perfprog" "$P/tid4.txt" 10 2000 || fail "perfprog failed (kr)"
sleep 0.3
trax stop >/dev/null || fail "stop kr"
trax destroy kr >/dev/null
trax view "$P/outr/kernel" >kr.txt 2>/dev/null || fail "trax view (kr)"
n_sw=$(grep -c " sched_switch: " kr.txt || true)
n_rt=$(grep -c " sched_stat_runtime: " kr.txt || true)
# the kernel emits at most a few runtime updates per switch (and one per tick)
[ "$n_sw" -gt 20 ] && [ "$n_rt" -le $((4 * n_sw + 2000)) ] ||
	check_fail "sched_stat_runtime through perf: $n_rt records for $n_sw switches"
ok "perf-recorded sched_stat_runtime: $n_rt records, $n_sw switches"

# ---- 3. errors ----
trax create ke --output="$P/oute" >/dev/null || fail "create ke"
trax add-context -k -t perf:cpu:no-such-counter >err1.txt 2>&1 && check_fail "an unknown counter was accepted"
[ "$(wc -l <err1.txt)" = 1 ] || check_fail "unknown counter: not one line: $(cat err1.txt)"
expect_contains err1.txt "perf:cpu:no-such-counter"
if ! grep -qx "perf:cpu:instructions" list.txt; then
	trax add-context -k -t perf:cpu:instructions >err2.txt 2>&1 && check_fail "a counter the machine lacks was accepted"
	[ "$(wc -l <err2.txt)" = 1 ] || check_fail "missing counter: not one line: $(cat err2.txt)"
	expect_contains err2.txt "perf counter perf:cpu:instructions cannot be opened on this machine"
fi
trax destroy ke >/dev/null
ok "errors: $(cat err1.txt)"
[ "$errors" = 0 ] || fail "$errors check(s) failed"
ok "kernel_perf"
