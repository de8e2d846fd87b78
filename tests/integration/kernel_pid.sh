#!/bin/sh
# kernel_pid.sh - trax track -k --pid, per session: two sessions record at
# the same time, each tracking another process; each trace has its own
# process's openat and exec (system calls: the BPF probes; tracepoints:
# set_event_pid), not the other's:
#  - trax list shows each session its own "Process IDs:" set (a session's
#    set was shared by every session once), both values when two are
#    tracked;
#  - untrack -k --pid --all tracks none ("none"; nothing of either
#    workload recorded), untracking a pid when all are tracked fails with
#    a line saying why; untracking the last one leaves "none".
# Needs root and tracefs (mounted if missing).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

need_kernel_tracefs
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
cd "$TEST_TMP"
P=$(pwd -P)
for w in a b c; do cp "$(command -v cat)" "$P/cat-$w"; done

# workload NAME: a process that waits on fifo NAME.go, then execs its copy
# of cat on /nonexistent/trax-pid-NAME; its pid in $pid
workload() {
	mkfifo "$1.go"
	sh -c "read x <$1.go; exec $P/cat-$1 /nonexistent/trax-pid-$1" 2>/dev/null &
	pid=$!
}

# session NAME: kernel events openat and sched_process_exec
session() {
	trax create "$1" --output="$P/$1" >/dev/null || fail "create $1"
	trax enable-event -k -s "$1" sched_process_exec >/dev/null 2>&1 || fail "enable-event -k $1"
	trax enable-event -k -s "$1" --syscall openat >/dev/null 2>&1 || fail "enable-event -k --syscall $1"
}

# pids_listed SESSION: its "Process IDs:" line's values
pids_listed() {
	trax list "$1" >list.txt 2>&1 || fail "list $1"
	sed -n 's/^  Process IDs: *//p' list.txt
}

workload a
pa=$pid
workload b
pb=$pid
workload c
pc=$pid
# a failure before the fifos are written must not leave them waiting
trap 'kill $pa $pb $pc 2>/dev/null || true; daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM
session s1
session s2
session s3
trax track -k -s s1 --pid="$pa" >/dev/null 2>&1 || fail "track -k --pid in s1"
trax track -k -s s2 --pid="$pb" >/dev/null 2>&1 || fail "track -k --pid in s2"
[ "$(pids_listed s1)" = "$pa" ] || check_fail "s1 lists pids '$(pids_listed s1)', expected $pa"
[ "$(pids_listed s2)" = "$pb" ] || check_fail "s2 lists pids '$(pids_listed s2)', expected $pb"
[ "$(pids_listed s3)" = "all" ] || check_fail "s3 lists pids '$(pids_listed s3)', expected all"
# s3: all tracked; untracking one pid says why it cannot, then --all: none
trax untrack -k -s s3 --pid="$pa" >err.txt 2>&1 && check_fail "untracking a pid when all are tracked succeeded"
grep -q 'every process is tracked' err.txt || check_fail "untrack when all are tracked: $(cat err.txt)"
trax untrack -k -s s3 --pid --all >/dev/null 2>&1 || fail "untrack -k --pid --all"
[ "$(pids_listed s3)" = "none" ] || check_fail "after untrack --all, s3 lists '$(pids_listed s3)'"
# s1: a second pid, listed with the first, and both recorded
trax track -k -s s1 --pid="$pc" >/dev/null 2>&1 || fail "track -k --pid $pc in s1"
[ "$(pids_listed s1)" = "$pa, $pc" ] || check_fail "s1 lists '$(pids_listed s1)', expected '$pa, $pc'"
[ "$(pids_listed s2)" = "$pb" ] || check_fail "after s1's change, s2 lists '$(pids_listed s2)'"

for s in s1 s2 s3; do trax start "$s" >/dev/null || fail "start $s"; done
for w in a b c; do echo go >"$w.go"; done
wait
sleep 0.3
for s in s1 s2 s3; do trax stop "$s" >/dev/null || fail "stop $s"; done

# has SESSION WORKLOAD yes|no
has() {
	got=no
	grep -q "syscall_entry_openat: .*filename = \"/nonexistent/trax-pid-$2\"" "$1.txt" && got=yes
	[ "$got" = "$3" ] || check_fail "$1: openat of workload $2 recorded: $got, expected $3"
	got=no
	grep -q "sched_process_exec: .*filename = \"$P/cat-$2\"" "$1.txt" && got=yes
	[ "$got" = "$3" ] || check_fail "$1: exec of workload $2 recorded: $got, expected $3"
}
for s in s1 s2 s3; do
	babeltrace2 "$P/$s/kernel" >"$s.txt" 2>"$s.err" || { cat "$s.err"; fail "babeltrace2 cannot read $s's trace"; }
	[ -s "$s.err" ] && check_fail "$s: babeltrace2 warned: $(head -3 "$s.err")"
done
has s1 a yes
has s1 c yes
has s1 b no
has s2 b yes
has s2 a no
has s2 c no
for w in a b c; do has s3 $w no; done
n=$(grep -c 'syscall_entry_openat' s3.txt || true)
[ "$n" = 0 ] || check_fail "s3 tracks no process and recorded $n openat"

# untracking the last ones leaves none
trax untrack -k -s s2 --pid="$pb" >/dev/null 2>&1 || fail "untrack -k --pid $pb in s2"
[ "$(pids_listed s2)" = "none" ] || check_fail "after untracking its pid, s2 lists '$(pids_listed s2)'"
trax untrack -k -s s2 --pid="$pb" >err.txt 2>&1 && check_fail "untracking a pid not tracked succeeded"
for s in s1 s2 s3; do trax destroy "$s" >/dev/null || fail "destroy $s"; done

[ "$errors" = 0 ] || fail "$errors check(s) failed"
ok "kernel_pid"
