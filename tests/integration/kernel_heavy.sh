#!/bin/sh
# kernel_heavy.sh - a heavy workload in the kernel domain (issue 17): a
# loop of system calls on every CPU (data/kernel/storm.c, getppid) for
# TRAX_HEAVY_SECONDS (3 here; `make bench` runs 10) recorded with
# enable-event -k --syscall getppid and the channel's default sizes.
# Every call must be in the trace (an entry and an exit), or the
# difference must be exactly what the trace says was discarded
# (babeltrace2's "discarded N events" warnings): recorded + discarded =
# 2 x calls made (other processes calling getppid may add a few; none
# may be missing).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
secs=${TRAX_HEAVY_SECONDS:-3}
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O2 -pthread -o storm "$TRAX_SRC/tests/integration/data/kernel/storm.c" || fail "cannot build storm"

trax create heavy --output="$P/out" >/dev/null || fail "create"
trax enable-event -k --syscall getppid >/dev/null 2>&1 || fail "enable-event -k --syscall getppid"
trax start >/dev/null || fail "start"
calls=$(./storm "$secs") || fail "storm"
trax stop >/dev/null || fail "stop"
status=$(trax list heavy 2>&1)
trax destroy heavy >/dev/null

babeltrace2 "$P/out/kernel" 2>bt2.err | sed -n 's/.* \(syscall_[a-z]*_getppid\): .*/\1/p' | sort | uniq -c >counts.txt ||
	fail "babeltrace2 cannot read the trace"
entries=$(awk '$2 == "syscall_entry_getppid" { print $1 }' counts.txt)
exits=$(awk '$2 == "syscall_exit_getppid" { print $1 }' counts.txt)
discarded=$(sed -n 's/.*discarded \([0-9]*\) events.*/\1/p' bt2.err | awk '{ s += $1 } END { print s + 0 }')
recorded=$((${entries:-0} + ${exits:-0}))
want=$((2 * calls))
echo "calls $calls: recorded $recorded (entries ${entries:-0}, exits ${exits:-0}), discarded $discarded"
[ "$recorded" -gt 0 ] || fail "nothing recorded"
total=$((recorded + discarded))
[ "$total" -ge "$want" ] || fail "$((want - total)) events neither recorded nor counted discarded (calls $calls, recorded $recorded, discarded $discarded)"
# a few getppid calls of other processes at most
[ "$total" -le $((want + 1000)) ] || fail "recorded + discarded = $total, far more than 2 x $calls calls"
ok "kernel_heavy: $calls calls in ${secs}s, $recorded events recorded, $discarded discarded"
