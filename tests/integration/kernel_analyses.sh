#!/bin/sh
# kernel_analyses.sh - LTTng's own analyses (Debian's python3-lttnganalyses:
# lttng-cputop, lttng-syscallstats, lttng-iolatencystats, lttng-schedstats,
# lttng-irqstats, in their JSON form) read a kernel trace trax recorded of
# a known workload (data/kernel/kwork.c: 300 open/read/close of a file,
# then 600 ms on the CPU; its pid tracked, so that the trace holds its
# events and the switches to and from it, not the machine's other work),
# and report it as it was:
#  - every analysis runs to its end (no Python error);
#  - cputop gives the workload's thread the CPU time the trace's own
#    sched_switch events give it, as a share of the time range (within 2
#    points), and that is at least half what it measured itself
#    (getrusage; the kernel may leave switches out: docs/kernel.md);
#  - syscallstats counts, for that thread, exactly the open/read/close
#    calls trax view shows (an exit after its entry, after a switch to
#    the thread; at least 290 of each), their return values all successes;
#  - iolatencystats counts at least those opens and reads;
#  - irqstats and schedstats run to their end on it (with the pid tracked,
#    the interrupts and wakeups it holds are only those of the workload's
#    time on the CPU: there may be none).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

[ "$(id -u)" = 0 ] || fail "the kernel domain's tests run as root"
for c in lttng-cputop-mi lttng-syscallstats-mi lttng-iolatencystats-mi lttng-irqstats-mi lttng-schedstats-mi python3 taskset; do
	command -v $c >/dev/null || fail "$c is needed (Debian's python3-lttnganalyses)"
done
cd "$TEST_TMP"
P=$(pwd -P)
$CC -O1 -o kwork "$TRAX_SRC/tests/integration/data/kernel/kwork.c" || fail "cannot build kwork"
head -c 4096 /dev/urandom >data.bin

trax create an --output="$P/out" >/dev/null || fail "create"
# what lttng-analyses-record enables, as LTTng names it
trax enable-event -k 'sched_*,irq_*,timer_hrtimer_*,block_rq_*,lttng_statedump_*' >/dev/null 2>&1 ||
	fail "enable-event -k"
trax enable-event -k --syscall -a >/dev/null 2>&1 || fail "enable-event -k --syscall -a"
trax add-context -k -t tid -t pid -t procname >/dev/null 2>&1 || fail "add-context -k"
mkfifo go
# on CPU 0, kept from idling by a spinner of the lowest priority: on some
# CPUs this kernel records no sched_switch from the idle task
# (docs/kernel.md), and lttng-analyses gives system calls and CPU time to
# the thread its sched_switch events say runs on the CPU: switched in from
# idle, the workload would be nobody's until its first preemption
nice -n 19 taskset -c 0 sh -c 'while :; do :; done' &
spinner=$!
trap 'kill $spinner 2>/dev/null || true; daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM
taskset -c 0 ./kwork "$P/kwork.txt" "$P/data.bin" 300 600 go &
kpid=$!
trax track -k --pid="$kpid" >/dev/null 2>&1 || fail "track -k --pid=$kpid"
trax start >/dev/null || fail "start"
echo go >go
wait "$kpid" || fail "kwork failed"
trax stop >/dev/null || fail "stop"
kill $spinner
trax destroy an >/dev/null
read -r tid cpums <kwork.txt
K=$P/out/kernel
trax view "$K" >view.txt 2>/dev/null || fail "trax view cannot read the trace"
for c in cputop syscallstats iolatencystats irqstats schedstats; do
	# (cputop lists the top 10 threads unless told: the workload may not be among them)
	lim=; [ $c = cputop ] && lim="--limit 100000"
	timeout 300 lttng-$c-mi $lim "$K" >$c.json 2>$c.err || { tail -5 $c.err; fail "lttng-$c-mi failed"; }
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $c.json 2>/dev/null ||
		{ head -c 600 $c.json; fail "lttng-$c-mi printed no JSON document"; }
done
grep -q Traceback ./*.err && fail "a Python error in an analysis: $(grep -l Traceback ./*.err)"
# what lttng-analyses reads the trace with: Babeltrace 1, without a complaint
babeltrace "$K" >/dev/null 2>bt1.err || fail "babeltrace (1) cannot read the trace: $(head -3 bt1.err)"
grep -v -i "discarded\|lost" bt1.err | grep -q . && echo "babeltrace 1 says: $(head -5 bt1.err)"

# the calls lttng-analyses can count: an exit after an entry of its
# thread, both while the trace's sched_switch events say the thread runs
# on the event's CPU (the analyses give a call to the thread the switches
# say runs there: one already running when the trace began is nobody's
# until a switch puts it on; and this kernel leaves out the switches away
# from some threads of the VM's own (docs/kernel.md), after which the
# workload is nobody's until its next switch in)
grep -F -e "{ tid = $tid, " -e "next_tid = $tid, " -e "prev_tid = $tid, " view.txt | awk -v tid="$tid" '
	{ name = $4; sub(/:$/, "", name); cpu = $0; sub(/.*cpu_id = /, "", cpu); sub(/ .*/, "", cpu) }
	name == "sched_switch" { on[cpu] = index($0, "next_tid = " tid ",") > 0; next }
	!on[cpu] { next }
	name ~ /^syscall_entry_/ { sc = substr(name, 15); pending[sc] = 1 }
	name ~ /^syscall_exit_/ { sc = substr(name, 14); if (pending[sc]) { n[sc]++; pending[sc] = 0 } }
	END { print "openat", n["openat"] + 0; print "read", n["read"] + 0; print "close", n["close"] + 0 }' >want.txt
python3 - "$tid" "$cpums" want.txt <<'PY' || fail "the analyses disagree with the workload (syscallstats said: $(head -c 600 syscallstats.err))"
import json, sys
tid, cpums = int(sys.argv[1]), float(sys.argv[2])
want = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[3]))
bad = []

cputop = json.load(open("cputop.json"))["results"]
per_tid = [r for r in cputop if r["class"] == "per-thread" or r["class"] == "per-process"][0]
rng = per_tid["time-range"]
span_ms = (rng["end"]["value"] - rng["begin"]["value"]) / 1e6
usage = {row[0]["tid"]: row[-1]["value"] for row in per_tid["data"]}
# what the trace's own sched_switch events give the thread (switch in to
# switch out, per CPU): lttng-analyses must say the same; the workload's
# getrusage is printed beside it (the kernel may leave switches out:
# docs/kernel.md)
def ns(stamp):
    h, m, sec = stamp.split(":")
    whole, frac = sec.split(".")
    return ((int(h) * 60 + int(m)) * 60 + int(whole)) * 10**9 + int(frac)
ran, since = 0, {}
for line in open("view.txt"):
    if " sched_switch: " not in line:
        continue
    t = ns(line[1:line.index("]")])
    cpu = line.split("cpu_id = ", 1)[1].split(" ", 1)[0]
    prev = int(line.split("prev_tid = ", 1)[1].split(",", 1)[0])
    nxt = int(line.split("next_tid = ", 1)[1].split(",", 1)[0])
    if prev == tid and cpu in since:
        ran += t - since.pop(cpu)
    if nxt == tid:
        since[cpu] = t
expected = ran / 1e6 / span_ms
got = usage.get(tid)
print(f"cputop: tid {tid} {got} of {span_ms:.1f} ms; its switches give {ran / 1e6:.1f} ms ({expected:.3f}); it measured {cpums:.1f} ms")
if got is None or abs(got - expected) > 0.02:
    bad.append(f"cputop: tid {tid} usage {got}, its switches give {expected:.3f}")
if ran / 1e6 < 0.5 * cpums:
    bad.append(f"the trace's switches give tid {tid} {ran / 1e6:.1f} ms, it measured {cpums:.1f} ms")

stats = json.load(open("syscallstats.json"))["results"]
mine = [r for r in stats if isinstance(r["class"], dict) and f"TID: {tid})" in r["class"].get("title", "")]
if not mine:
    bad.append(f"syscallstats: no table for tid {tid}")
else:
    rows = {row[0]["name"]: row for row in mine[0]["data"]}
    for sc, n in want.items():
        row = rows.get(sc)
        count = row[1]["value"] if row else 0
        print(f"syscallstats: {sc} {count} (trax view: {n})")
        if count != n or n < 290:
            bad.append(f"syscallstats: {sc} counted {count}, trax view shows {n} (290 at least)")
        if row and "success" not in row[-1]["value"]:
            bad.append(f"syscallstats: {sc} returns {row[-1]['value']}")

io = json.load(open("iolatencystats.json"))["results"]
text = json.dumps(io)
for kind in ("Open", "Read"):
    rows = [row for r in io for row in r.get("data", []) if isinstance(row, list) and row and
            isinstance(row[0], dict) and row[0].get("value") == kind]
    count = rows[0][1]["value"] if rows else 0
    print(f"iolatencystats: {kind} {count}")
    if count < 300:
        bad.append(f"iolatencystats: {kind} {count} < 300")

for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
ok "kernel_analyses: lttng-analyses read trax's kernel trace of kwork (tid $tid)"
