#!/bin/sh
# kernel_snapshot.sh - snapshots of kernel channels (issue 17): a snapshot
# session's kernel channels are flight recorders (tracefs overwrite mode,
# nothing read while recording; the system calls in a recorder in traxd's
# memory); `trax snapshot record` writes what they hold as an LTTng kernel
# trace in the snapshot's kernel/ directory, which babeltrace2 reads, with
# the program run before it (its sched_switch events, by tid; its openat
# and close calls with their file names and return values) and the state
# dump where enabled; a second snapshot holds what was recorded after the
# first, and nothing of it; a third, after `trax stop`, what was recorded
# from the second until the stop.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O1 -o kprog "$TRAX_SRC/tests/integration/data/kernel/kprog.c" || fail "cannot build kprog"
for n in 1 2 3; do echo "hello, kernel" >exists$n.txt; done

trax create ks --snapshot --output="$P/snaps" >/dev/null || fail "create --snapshot"
trax enable-event -k sched_switch,sched_process_exec,'lttng_statedump_*' >/dev/null 2>&1 || fail "enable-event -k"
trax enable-event -k --syscall openat,close >err.txt 2>&1 || { cat err.txt; fail "enable-event -k --syscall in a snapshot session"; }
trax add-context -k -t tid >/dev/null 2>&1 || fail "add-context -k -t tid"
trax start >/dev/null || fail "start"
./kprog "$P/tid1.txt" "$P/exists1.txt" || fail "kprog 1"
trax snapshot record >snap1.txt 2>&1 || { cat snap1.txt; fail "snapshot record 1"; }
./kprog "$P/tid2.txt" "$P/exists2.txt" || fail "kprog 2"
trax snapshot record >snap2.txt 2>&1 || { cat snap2.txt; fail "snapshot record 2"; }
# a snapshot after the stop has what was recorded until the stop
./kprog "$P/tid3.txt" "$P/exists3.txt" || fail "kprog 3"
trax stop >/dev/null || fail "stop"
trax snapshot record >snap3.txt 2>&1 || { cat snap3.txt; fail "snapshot record 3 (after stop)"; }
trax destroy ks >/dev/null
tid1=$(cat tid1.txt) tid2=$(cat tid2.txt) tid3=$(cat tid3.txt)
set -- "$P"/snaps/snapshot-*
[ $# = 3 ] || fail "expected three snapshots in $P/snaps: $(ls "$P/snaps")"
n=0
for s in "$@"; do
	n=$((n + 1))
	[ -f "$s/kernel/metadata" ] || fail "no kernel trace in $s"
	babeltrace2 "$s/kernel" >bt$n.txt 2>bt$n.err || { cat bt$n.err; fail "babeltrace2 cannot read $s/kernel"; }
	trax view "$s/kernel" >view$n.txt 2>/dev/null || fail "trax view cannot read $s/kernel"
	grep -q "lttng_statedump_process_state" view$n.txt || check_fail "snapshot $n has no state dump"
done
grep -q "prev_tid = $tid1, " bt1.txt || check_fail "snapshot 1 lacks kprog 1 (tid $tid1)"
grep -q "prev_tid = $tid2, " bt2.txt || check_fail "snapshot 2 lacks kprog 2 (tid $tid2)"
grep -q "prev_tid = $tid2, " bt1.txt && check_fail "snapshot 1 holds kprog 2, run after it"
grep -q "sched_process_exec: .*tid = $tid2, " bt2.txt || check_fail "snapshot 2 lacks kprog 2's exec"

# kprog's calls, by its tid (the context): openat of its file -> fd F,
# openat of a missing file -> -2, close(F) -> 0, in this order
calls() { # FILE TID: "name arg ret" lines of the tid's openat and close calls
	awk -v tid="$2" '
	index($0, "{ tid = " tid " }") == 0 { next }
	/syscall_entry_openat:/ { match($0, /filename = "[^"]*"/); f = substr($0, RSTART + 12, RLENGTH - 13) }
	/syscall_exit_openat:/ { match($0, /ret = -?[0-9]+/); print "openat", f, substr($0, RSTART + 6, RLENGTH - 6) }
	/syscall_entry_close:/ { match($0, /fd = -?[0-9]+/); f = substr($0, RSTART + 5, RLENGTH - 5) }
	/syscall_exit_close:/ { match($0, /ret = -?[0-9]+/); print "close", f, substr($0, RSTART + 6, RLENGTH - 6) }' "$1"
}
for n in 1 2 3; do
	eval tid=\$tid$n
	calls bt$n.txt "$tid" >calls$n.txt
	awk -v want="$P/exists$n.txt" '
		$1 == "openat" && $2 == want && $3 >= 0 { fd = $3; s = 1; next }
		s == 1 && $1 == "openat" && $2 == "/nonexistent/trax-kernel-test" && $3 == -2 { s = 2; next }
		s == 2 && $1 == "close" && $2 == fd && $3 == 0 { s = 3 }
		END { exit s != 3 }' calls$n.txt ||
		{ cat calls$n.txt; check_fail "snapshot $n: kprog $n's openat(exists$n.txt) = F, openat(missing) = -2, close(F) = 0 not found in order"; }
	for o in 1 2 3; do
		[ $o != $n ] || continue
		eval other=\$tid$o
		grep -q "{ tid = $other }" bt$n.txt && check_fail "snapshot $n holds events of kprog $o (tid $other)"
		grep -q "exists$o.txt" bt$n.txt && check_fail "snapshot $n holds kprog $o's openat of exists$o.txt"
	done
	grep -q "syscall_entry_openat: .*filename = \"/nonexistent/trax-kernel-test\"" view$n.txt ||
		check_fail "trax view of snapshot $n lacks the openat of the missing file"
done
[ "$errors" = 0 ] || fail "$errors check(s) failed"
ok "kernel_snapshot: two snapshots of kernel channels, tracepoints and system calls"
