#!/bin/sh
# kernel_snapshot_recorder.sh - the system calls' flight recorder of a
# snapshot session (issue 17) when it overflows: a kernel channel of 4
# sub-buffers of 4 KiB holds 16 KiB of system call records per CPU in
# traxd's memory; a program on CPU 0 makes 2000 close(1000000 + i) calls
# (recorded by a filter on fd, entries only: the exits have no fd), far
# more than that holds. The snapshot must hold exactly the newest ones
# that fit (a record costs 24 bytes + its payload rounded up to 8: 32
# bytes for close's fd, so 512 of them), in order, with their tid, and
# babeltrace2 must report the others as discarded events of CPU 0's
# system call stream: kept + discarded = calls made.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O1 -o kcloses "$TRAX_SRC/tests/integration/data/kernel/kcloses.c" || fail "cannot build kcloses"
calls=3000
fits=$((4 * 8192 / 32))

trax create kr --snapshot --output="$P/snaps" >/dev/null || fail "create --snapshot"
trax enable-channel -k --subbuf-size=8192 --num-subbuf=4 small >/dev/null 2>&1 || fail "enable-channel -k small"
trax enable-event -k -c small --syscall close --filter 'fd >= 1000000' >err.txt 2>&1 ||
	{ cat err.txt; fail "enable-event -k --syscall close --filter"; }
trax add-context -k -t tid >/dev/null 2>&1 || fail "add-context -k -t tid"
./kcloses "$P/tid.txt" $calls 20 10 "$P/go" &
kpid=$!
i=0
while [ ! -s tid.txt ]; do
	i=$((i + 1))
	[ $i -lt 1000 ] || fail "kcloses did not start"
	sleep 0.01
done
trax track -k --pid=$kpid >/dev/null 2>&1 || fail "track -k --pid=$kpid"
trax start >/dev/null || fail "start"
touch go
wait $kpid || fail "kcloses"
trax snapshot record >snap.txt 2>&1 || { cat snap.txt; fail "snapshot record"; }
trax destroy kr >/dev/null
tid=$(cat tid.txt)
set -- "$P"/snaps/snapshot-*
[ $# = 1 ] || fail "expected one snapshot in $P/snaps: $(ls "$P/snaps")"
babeltrace2 "$1/kernel" >bt.txt 2>bt.err || { cat bt.err; fail "babeltrace2 cannot read $1/kernel"; }
trax view "$1/kernel" >view.txt 2>view.err || fail "trax view cannot read $1/kernel"

# the fds of the calls kept, in the trace's order
awk -v tid="$tid" 'index($0, "{ tid = " tid " }") && /syscall_entry_close:/ {
	match($0, /fd = [0-9]+/); print substr($0, RSTART + 5, RLENGTH - 5) - 1000000 }' bt.txt >kept.txt
kept=$(wc -l <kept.txt)
grep -q "syscall_exit_close" bt.txt && check_fail "exits recorded (the filter names fd, which they lack)"
grep -v "{ tid = $tid }" bt.txt | grep -q "syscall_entry_close:" && check_fail "close calls of other threads recorded"
grep -q "{ cpu_id = 0 }, { tid = $tid }" bt.txt || check_fail "kcloses's calls not on CPU 0"
[ "$kept" = "$fits" ] || check_fail "$kept calls kept, not the $fits that fit in 16 KiB"
# the newest, in order: calls-kept .. calls-1
awk -v first=$((calls - kept)) '$1 != first + NR - 1 { print "call " $1 " at " NR; bad = 1 } END { exit bad }' kept.txt ||
	check_fail "the calls kept are not the newest $kept in order"
# babeltrace2: "WARNING: Tracer discarded N events between [...] and [...] in trace ... (CPU 0 ... )"
discarded=$(sed -n 's/.*[Dd]iscarded \([0-9]*\) events.*/\1/p' bt.err | awk '{ s += $1 } END { print s + 0 }')
vdiscarded=$(sed -n 's/.*discarded \([0-9]*\) events.*/\1/p' view.err | awk '{ s += $1 } END { print s + 0 }')
echo "calls $calls: kept $kept, discarded $discarded (trax view: $vdiscarded)"
[ $((kept + discarded)) = $calls ] || { cat bt.err; check_fail "kept $kept + discarded $discarded is not $calls"; }
[ "$vdiscarded" = "$discarded" ] || check_fail "trax view says $vdiscarded discarded, babeltrace2 $discarded"
[ "$errors" = 0 ] || fail "$errors check(s) failed"
ok "kernel_snapshot_recorder: $calls calls, the newest $kept kept, $discarded discarded"
