#!/bin/sh
# kernel_uid.sh - trax track -k --uid: a session tracking uid 65534 records
# the events of a workload running as 65534 (setpriv --reuid=65534
# --regid=65534 --clear-groups) and none of the same workload running as
# root, nor of traxd or the trax commands (root):
#  - system calls (filtered in the BPF probes): openat of
#    /nonexistent/trax-uid-nobody is there, of /nonexistent/trax-uid-root
#    is not, nor any openat of traxd's /proc scans;
#  - tracepoints (set_event_pid from traxd's scans of /proc, checked again
#    at conversion): sched_process_exec of the copy of cat the 65534
#    workload runs is there, of the root workload's copy is not;
#  - trax list shows "User IDs: 65534"; untracking it shows "none", and
#    --gid the same way; a second session tracking gid 65534 likewise
#    records only the 65534 workload.
# Needs root, tracefs (mounted if missing) and setpriv (util-linux).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

need_kernel_tracefs
command -v setpriv >/dev/null || fail "setpriv (util-linux) is needed"
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
cd "$TEST_TMP"
chmod 755 "$TEST_TMP" # the 65534 workload runs its copy of cat from here
P=$(pwd -P)
cp "$(command -v cat)" "$P/cat-nobody"
cp "$(command -v cat)" "$P/cat-root"

# Both workloads wait 0.5 s before their call: the threads of a user that
# starts to run as a tracked one are found by the next scan (docs/kernel.md).
workloads() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c "sleep 0.5; exec $P/cat-nobody /nonexistent/trax-uid-nobody" 2>/dev/null &
	sh -c "sleep 0.5; exec $P/cat-root /nonexistent/trax-uid-root" 2>/dev/null &
	wait
}

# $1: session, $2: kind (uid or gid), $3: list label
run() {
	trax create "$1" --output="$P/$1" >/dev/null || fail "create $1"
	trax enable-event -k -s "$1" sched_process_exec >/dev/null 2>&1 || fail "enable-event -k"
	trax enable-event -k -s "$1" --syscall openat >/dev/null 2>&1 || fail "enable-event -k --syscall"
	trax track -k -s "$1" --"$2"=65534 >track.txt 2>&1 || { cat track.txt; fail "track -k --$2"; }
	trax list "$1" >list.txt 2>&1 || fail "list $1"
	grep -q "^  $3 *65534\$" list.txt || check_fail "trax list $1: $(grep IDs list.txt)"
	trax start "$1" >/dev/null || fail "start $1"
	workloads
	sleep 0.2
	trax stop "$1" >/dev/null || fail "stop $1"
	babeltrace2 "$P/$1/kernel" >"$1.txt" 2>"$1.err" || { cat "$1.err"; fail "babeltrace2 cannot read $1's trace"; }
	grep -q 'syscall_entry_openat: .*filename = "/nonexistent/trax-uid-nobody"' "$1.txt" ||
		check_fail "$1: the 65534 workload's openat is missing ($(grep -c openat "$1.txt") openat events)"
	grep -q 'trax-uid-root' "$1.txt" && check_fail "$1: the root workload's openat was recorded"
	grep -q 'syscall_entry_openat: .*filename = "/proc/' "$1.txt" &&
		check_fail "$1: traxd's openat of /proc was recorded: $(grep -m1 'filename = "/proc/' "$1.txt")"
	grep -q "sched_process_exec: .*filename = \"$P/cat-nobody\"" "$1.txt" ||
		check_fail "$1: the 65534 workload's exec is missing: $(grep sched_process_exec "$1.txt" | head -3)"
	grep -q "sched_process_exec: .*filename = \"$P/cat-root\"" "$1.txt" &&
		check_fail "$1: the root workload's exec was recorded"
	# (no check on the exec of trax itself: the tests running beside this
	# one under ctest -j run the same $TRAX_BUILD/trax, some of them as
	# 65534, whose execs this session rightly records; the root workload's
	# uniquely named copy of cat above is the check)
	trax untrack -k -s "$1" --"$2"=65534 >/dev/null 2>&1 || fail "untrack -k --$2"
	trax list "$1" >list2.txt 2>&1 || fail "list $1"
	grep -q "^  $3 *none\$" list2.txt || check_fail "after untrack, trax list $1: $(grep IDs list2.txt)"
	trax untrack -k -s "$1" --"$2"=65534 >untrack.txt 2>&1 &&
		check_fail "untracking an id not tracked succeeded"
	trax destroy "$1" >/dev/null || fail "destroy $1"
}

run u uid "User IDs:"
run g gid "Group IDs:"

[ "$errors" = 0 ] || fail "$errors check(s) failed"
ok "kernel_uid"
