#!/bin/sh
# kernel_heavy.sh - a heavy workload in the kernel domain (issue 17): a
# loop of system calls on every CPU (data/kernel/storm.c, getppid) for
# TRAX_HEAVY_SECONDS (3 here; `make bench` runs 10) recorded with
# enable-event -k --syscall getppid and the channel's default sizes.
# Every call must be in the trace (an entry and an exit), or the
# difference must be exactly what the trace says was discarded
# ("discarded N events" warnings of trax view, as babeltrace2 prints them): recorded + discarded =
# 2 x calls made, counting the records of the workload's threads (the
# tid context): none may be missing, none may be made up.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
secs=${TRAX_HEAVY_SECONDS:-3}
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O2 -pthread -o storm "$TRAX_SRC/tests/integration/data/kernel/storm.c" || fail "cannot build storm"

trax create heavy --output="$P/out" >/dev/null || fail "create"
trax enable-event -k --syscall getppid >/dev/null 2>&1 || fail "enable-event -k --syscall getppid"
trax add-context -k -t tid >/dev/null 2>&1 || fail "add-context -k -t tid"
trax start >/dev/null || fail "start"
out=$(./storm "$secs") || fail "storm"
calls=${out%% *}
tids=${out#* }
trax stop >/dev/null || fail "stop"
status=$(trax list heavy 2>&1)
trax destroy heavy >/dev/null

# "[time] (+delta) host NAME: { cpu_id = N }, { tid = T }, { ... }": fields 4 and 13
trax view "$P/out/kernel" 2>bt2.err | awk -v tids="$tids" '
	BEGIN { n = split(tids, t, " "); for (i = 1; i <= n; i++) mine[t[i]] = 1 }
	($13 in mine) && ($4 == "syscall_entry_getppid:" || $4 == "syscall_exit_getppid:") {
		c[substr($4, 1, length($4) - 1)]++
	}
	END { for (k in c) print c[k], k }' >counts.txt || fail "trax view cannot read the trace"
entries=$(awk '$2 == "syscall_entry_getppid" { print $1 }' counts.txt)
exits=$(awk '$2 == "syscall_exit_getppid" { print $1 }' counts.txt)
discarded=$(sed -n 's/.*discarded \([0-9]*\) events.*/\1/p' bt2.err | awk '{ s += $1 } END { print s + 0 }')
recorded=$((${entries:-0} + ${exits:-0}))
want=$((2 * calls))
echo "calls $calls: recorded $recorded (entries ${entries:-0}, exits ${exits:-0}), discarded $discarded"
[ "$recorded" -gt 0 ] || fail "nothing recorded"
total=$((recorded + discarded))
[ "$total" -ge "$want" ] || fail "$((want - total)) events neither recorded nor counted discarded (calls $calls, recorded $recorded, discarded $discarded)"
[ "$recorded" -le "$want" ] || fail "$recorded records of the workload's threads, more than 2 x $calls calls"
ok "kernel_heavy: $calls calls in ${secs}s, $recorded events recorded, $discarded discarded"
