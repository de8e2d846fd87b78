#!/bin/sh
# kernel_analyze_flow.sh - `trax analyze flow` on a kernel trace recorded
# here and now by trax (sched_*, irq_*, the state dump, the system calls
# clock_nanosleep and exit_group, contexts tid/pid/procname) while ksleep
# sleeps 3 x 30 ms then spins 100 ms and exits. Its thread's intervals:
#  - three blocked intervals "in clock_nanosleep" of at least 30 ms (a
#    sleep never ends early) and less than 30 + 25 ms (they end at the
#    wakeup: the timer's slack and the IRQ's latency, not the scheduler's
#    delay, which is the runnable interval after);
#  - each one preceded by the call running on a CPU (syscall
#    clock_nanosleep), followed by runnable (woken) and the call again;
#  - then the spin: at least 100 ms running (or in an IRQ) or preempted,
#    never blocked, until exit_group;
#  - its last interval exited (sched_process_exit, then the switch out);
#  - the intervals follow each other without gap from its fork.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O1 -o ksleep "$TRAX_SRC/tests/integration/data/kernel/ksleep.c" || fail "cannot build ksleep"

trax create fl --output="$P/out" >/dev/null || fail "create"
trax enable-event -k 'sched_*,irq_*,lttng_statedump_*' >/dev/null 2>&1 || fail "enable-event -k"
trax enable-event -k --syscall clock_nanosleep,exit_group >/dev/null 2>&1 || fail "enable-event -k --syscall"
trax add-context -k -t tid -t pid -t procname >/dev/null 2>&1 || fail "add-context -k"
mkfifo go
trax start >/dev/null || fail "start"
./ksleep "$P/tid.txt" go 3 30 100 &
kpid=$!
echo go >go
wait "$kpid" || fail "ksleep failed"
sleep 0.2
trax stop >/dev/null || fail "stop"
trax destroy fl >/dev/null
read -r tid <tid.txt
K=$P/out/kernel

trax analyze flow --group --tid "$tid" --format=json "$K" >flow.json 2>err.txt || fail "flow: $(cat err.txt)"
trax view --format=json "$K" 2>/dev/null | grep '"syscall_exit_clock_nanosleep"' >exits.json || true
python3 - "$tid" <<'PY' >check.txt 2>&1 || { trax analyze flow --group --tid "$tid" "$K" | head -n 60 >&2; fail "$(cat check.txt)"; }
import json, sys
tid = int(sys.argv[1])
d = json.load(open("flow.json"))
th = [t for t in d["threads"] if t["tid"] == tid]
if len(th) != 1:
    sys.exit("thread %d not in the flow" % tid)
ivs = th[0]["intervals"]
exit_ts = set()
for line in open("exits.json"):
    e = json.loads(line.rstrip().rstrip(","))
    if e["context"]["tid"] == tid:
        exit_ts.add(e["timestamp"])
if len(exit_ts) != 3:
    sys.exit("%d returns from clock_nanosleep, expected 3" % len(exit_ts))
for x, y in zip(ivs, ivs[1:]):
    if x["end"] != y["begin"]:
        sys.exit("a gap or overlap: %s then %s" % (x, y))
if ivs[0].get("reason") != "forked":
    sys.exit("its first interval is not its fork: %s" % ivs[0])
sleeps = [i for i, iv in enumerate(ivs) if iv["state"] == "blocked" and iv.get("syscall") == "clock_nanosleep"]
if len(sleeps) != 3:
    sys.exit("%d blocked intervals in clock_nanosleep, expected 3: %s" % (len(sleeps), [ivs[i] for i in sleeps]))
for i in sleeps:
    iv = ivs[i]
    d_ms = (iv["end"] - iv["begin"]) / 1e6
    if not 30 <= d_ms < 55:
        sys.exit("a sleep of 30 ms blocked %.3f ms: %s" % (d_ms, iv))
    if ivs[i - 1]["state"] != "syscall" or ivs[i - 1].get("syscall") != "clock_nanosleep":
        sys.exit("before the sleep: %s" % ivs[i - 1])
    if ivs[i + 1]["state"] != "runnable" or ivs[i + 1].get("reason") != "woken":
        sys.exit("after the sleep: %s" % ivs[i + 1])
    # back in the call: after running, interrupts and preemptions (a busy
    # machine's softirqs may come between any number of times); or, when
    # the kernel recorded no switch into the thread (this VM's kernel never
    # shows CPU 1's idle task switching out: tracefs alone, without trax,
    # records none), running from the call's exit, which ends the call
    j = i + 2
    while j < len(ivs) and ivs[j]["state"] in ("running", "irq", "softirq") or (
            j < len(ivs) and ivs[j]["state"] == "runnable" and ivs[j].get("reason") == "preempted"):
        if ivs[j]["state"] == "running" and j == i + 2 and ivs[j]["begin"] in exit_ts:
            break
        j += 1
    if j < len(ivs) and ivs[j]["state"] == "running" and ivs[j]["begin"] in exit_ts:
        continue
    if j == len(ivs) or ivs[j]["state"] != "syscall" or ivs[j].get("syscall") != "clock_nanosleep":
        sys.exit("no return from clock_nanosleep after the sleep: %s" % ivs[i + 1:j + 1][:12])
# the spin: on a CPU or waiting for one (the machine may be busy), never blocked, 100 ms at least
spin = ivs[sleeps[-1] + 2:]
spin = spin[:next(i for i, iv in enumerate(spin) if iv.get("syscall") == "exit_group")]
bad = [iv for iv in spin if iv["state"] not in ("running", "syscall", "irq", "softirq", "runnable")
       or (iv["state"] == "runnable" and iv.get("reason") != "preempted")]
if bad:
    sys.exit("the spin was not only on a CPU or preempted: %s" % bad[:3])
on_cpu = sum(iv["end"] - iv["begin"] for iv in spin if iv["state"] != "runnable")
wall = spin[-1]["end"] - spin[0]["begin"]
if wall < 100e6:
    sys.exit("the spin lasted %.3f ms, expected at least 100" % (wall / 1e6))
if ivs[-1]["state"] != "exited":
    sys.exit("its last interval: %s" % ivs[-1])
print("3 sleeps of %s ms, a spin of %.1f ms (%.1f on a CPU), then exited" %
      (", ".join("%.3f" % ((ivs[i]["end"] - ivs[i]["begin"]) / 1e6) for i in sleeps), wall / 1e6, on_cpu / 1e6))
PY
ok "flow of ksleep ($tid): $(cat check.txt)"
