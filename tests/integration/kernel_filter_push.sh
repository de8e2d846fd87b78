#!/bin/sh
# kernel_filter_push.sh - kernel channel filters evaluated by the kernel
# before it records (src/kernel/kfpush*.c), checked against the same
# filter run only after recording:
#  1. two sessions record sched_switch at once with the same filter on
#     LTTng's fields (a pattern on the names, a priority minus 100, a tid,
#     the thread's name):
#     in one it translates (the kernel's filter file of its instance shows
#     the translation while recording), in the other "|| prev_tid !=
#     prev_tid" (always false, never translated) keeps it out of the
#     kernel (its file says "none"). A workload of two pairs of threads
#     passing bytes, one pair the filter keeps and one it rejects: both
#     traces hold exactly the same events (every field, each CPU), no
#     event is lost, and the kernel's own counts (per_cpu/cpuN/stats:
#     entries + read events) show that the first instance recorded only
#     the events of its trace, the second at least the rejected pair's
#     switches more;
#  2. filters changing while recording: a second filtered rule ORs into
#     the kernel filter, a rule without filter clears it, disabling that
#     rule brings the OR back.
# Needs root and tracefs (mounted if missing).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

need_kernel_tracefs
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
cd "$TEST_TMP"
$CC -O1 -pthread -o work "$TRAX_SRC/tests/integration/data/kernel/kfpush-work.c" ||
	fail "cannot build the workload"
P=$(pwd -P)
ROUNDS=${KFPUSH_ROUNDS:-5000}

filter_of() { # SESSION: its instance's sched_switch filter file
	cat "$T/instances/trax-$(daemon_pid)-$1-channel0/events/sched/sched_switch/filter"
}

recorded() { # SESSION: events the kernel recorded in its instance (all CPUs)
	cat "$T"/instances/trax-"$(daemon_pid)"-"$1"-channel0/per_cpu/cpu*/stats |
		awk '/^entries:/ { n += $2 } /^read events:/ { n += $3 } END { print n + 0 }'
}

lost() { # SESSION: the kernel's overrun and dropped events (all CPUs)
	cat "$T"/instances/trax-"$(daemon_pid)"-"$1"-channel0/per_cpu/cpu*/stats |
		awk '/^overrun:/ { n += $2 } /^dropped events:/ { n += $3 } END { print n + 0 }'
}

# ---- 1. the same filter, pushed and not ----
# ($ctx.procname: the kernel's COMM, the current task's name: prev's in a switch)
F='(prev_comm == "kfp-p*" && prev_prio == 20 && $ctx.procname == "kfp-p*") || (next_comm == "kfp-p*" && next_tid != 0)'
WANT='prev_comm ~ "\kfp-p*" && prev_prio == 120 && COMM ~ "\kfp-p*" || next_comm ~ "\kfp-p*" && next_pid != 0'
trax create kfa --output="$P/a" >/dev/null || fail "create kfa"
trax enable-event -k sched_switch -s kfa --filter "$F" >/dev/null 2>&1 || fail "enable-event kfa"
trax create kfb --output="$P/b" >/dev/null || fail "create kfb"
trax enable-event -k sched_switch -s kfb --filter "$F || prev_tid != prev_tid" >/dev/null 2>&1 ||
	fail "enable-event kfb"
trax start kfa >/dev/null || fail "start kfa"
trax start kfb >/dev/null || fail "start kfb"
expect_eq "$(filter_of kfa)" "$WANT" "the kernel filter of the translated rule, while recording"
expect_eq "$(filter_of kfb)" "none" "the kernel filter of the rule that does not translate"
./work "$ROUNDS" || fail "the workload failed"
trax stop kfa >/dev/null || fail "stop kfa"
trax stop kfb >/dev/null || fail "stop kfb"
rec_a=$(recorded kfa)
rec_b=$(recorded kfb)
[ "$(lost kfa)" = 0 ] && [ "$(lost kfb)" = 0 ] ||
	check_fail "events lost in the kernel: $(lost kfa) and $(lost kfb): the comparison means nothing"

for s in a b; do
	babeltrace2 "$P/$s/kernel" >"bt-$s.txt" 2>"bt-$s.err" || { cat "bt-$s.err"; fail "babeltrace2 cannot read $s"; }
	[ -s "bt-$s.err" ] && check_fail "babeltrace2 warned on $s: $(head -3 "bt-$s.err")"
	# every field and the CPU, without the time (each instance stamps its own copy)
	sed 's/^\[[^]]*\] ([^)]*) [^ ]* //' "bt-$s.txt" | sort >"ev-$s.txt"
done
n_a=$(wc -l <ev-a.txt)
n_b=$(wc -l <ev-b.txt)
cmp -s ev-a.txt ev-b.txt || check_fail "the traces differ ($n_a and $n_b events): $(diff ev-a.txt ev-b.txt | head -6)"
n_kfp=$(grep -c 'kfp-p' ev-a.txt || true)
[ "$n_kfp" -ge $((2 * ROUNDS)) ] || check_fail "only $n_kfp switches of kfp-ping/pong (expected $((2 * ROUNDS)) at least)"
grep -q 'noise-' ev-a.txt && grep -v 'kfp-p' ev-a.txt | grep -q 'noise-' &&
	check_fail "a switch between the noise threads passed: $(grep -v 'kfp-p' ev-a.txt | grep 'noise-' | head -2)"
# the kernel recorded what the trace holds, and nothing of what the filter rejects
[ "$rec_a" = "$n_a" ] || check_fail "the filtered instance recorded $rec_a events, its trace holds $n_a"
[ "$rec_b" -ge $((n_b + 2 * ROUNDS)) ] ||
	check_fail "the unfiltered instance recorded $rec_b events, expected its $n_b and the $((2 * ROUNDS)) noise switches at least"
ok "pushed filter: $n_a events in both traces; the kernel recorded $rec_a with the filter, $rec_b without"
trax destroy kfa >/dev/null
trax destroy kfb >/dev/null

# ---- 2. rules changing while recording ----
trax create kfc --output="$P/c" >/dev/null || fail "create kfc"
trax enable-event -k sched_switch -s kfc --filter 'prev_tid == 1' >/dev/null 2>&1 || fail "enable kfc 1"
trax start kfc >/dev/null || fail "start kfc"
expect_eq "$(filter_of kfc)" "prev_pid == 1" "one rule"
trax enable-event -k sched_switch -s kfc --filter 'next_tid == 2 && next_prio == 20' >/dev/null 2>&1 ||
	fail "enable kfc 2"
expect_eq "$(filter_of kfc)" "prev_pid == 1 || next_pid == 2 && next_prio == 120" "two rules"
trax enable-event -k 'sched_switc*' -s kfc >/dev/null 2>&1 || fail "enable kfc 3"
expect_eq "$(filter_of kfc)" "none" "and a rule without filter"
trax disable-event -k 'sched_switc*' -s kfc >/dev/null 2>&1 || fail "disable kfc 3"
expect_eq "$(filter_of kfc)" "prev_pid == 1 || next_pid == 2 && next_prio == 120" "that rule disabled"
trax stop kfc >/dev/null || fail "stop kfc"
trax destroy kfc >/dev/null
ok "filters changed while recording"

[ "$errors" = 0 ] || fail "$errors check(s) failed"
