#!/bin/sh
# analyze_flow.sh - `trax analyze flow` on the kernel trace trax recorded
# (tests/data/analyses/trax-kernel-trace: ~1 s of the whole machine,
# sched_*, irq_*, system calls, state dump):
#  - per thread, the intervals follow each other without gap or overlap
#    from the range's beginning (or the thread's fork) to its end (or
#    until it is freed), each one not empty;
#  - a CPU runs one thread at a time: the running intervals (running,
#    syscall, irq, softirq) of a CPU never overlap;
#  - at every sched_switch (read here with Babeltrace 1), the previous
#    thread's next interval is runnable (preempted) when prev_state says
#    so, blocked or exited otherwise, and the next thread's one runs on
#    the switch's CPU;
#  - --group (JSON and text) holds the same intervals as the streaming
#    output, and --tid keeps that thread's only;
#  - --begin/--end: the intervals are those of the whole run cut to the
#    range.
. "$TRAX_SRC/tests/integration/lib.sh"
PY=/usr/bin/python3
$PY -c 'import babeltrace' 2>/dev/null || fail "$PY with the babeltrace (1) module is needed (python3-babeltrace)"
K=$TRAX_SRC/tests/data/analyses/trax-kernel-trace/kernel
TRAX=$TRAX_BUILD/trax
cd "$TEST_TMP"

"$TRAX" analyze flow --format=json "$K" >flow.json 2>err.txt || fail "flow: $(cat err.txt)"
"$TRAX" analyze flow --group --format=json "$K" >group.json 2>err.txt || fail "flow --group: $(cat err.txt)"
"$TRAX" analyze flow --group --tid 6913 --format=json "$K" >tid.json 2>err.txt || fail "flow --tid: $(cat err.txt)"
"$TRAX" analyze flow --format=json --begin 07:00:17.100000000 --end 07:00:17.120000000 --gmt "$K" \
	>range.json 2>err.txt || fail "flow --begin/--end: $(cat err.txt)"
$PY - "$K" <<'PY' >check.txt 2>&1 || fail "$(cat check.txt)"
import json, sys
import babeltrace
RUN = {"running", "syscall", "irq", "softirq"}
flow = json.load(open("flow.json"))
group = json.load(open("group.json"))
tid = json.load(open("tid.json"))
rng = json.load(open("range.json"))
b, e = flow["time-range"]["begin"], flow["time-range"]["end"]
ivs = flow["intervals"]
if len(ivs) < 10000:
    sys.exit("only %d intervals" % len(ivs))
per = {}
for iv in ivs:
    if not iv["begin"] < iv["end"] or iv["begin"] < b or iv["end"] > e:
        sys.exit("interval out of the range or empty: %s" % iv)
    per.setdefault(iv["tid"], []).append(iv)
for t, l in per.items():
    l.sort(key=lambda iv: iv["begin"])
    if l[0]["begin"] != b and l[0].get("reason") != "forked":
        sys.exit("thread %d starts at %d, not at the range's start: %s" % (t, l[0]["begin"], l[0]))
    for x, y in zip(l, l[1:]):
        if x["end"] != y["begin"] and not (x["state"] == "exited" and y.get("reason") == "forked"):
            sys.exit("thread %d: %s then %s" % (t, x, y))
    if l[-1]["end"] != e and l[-1]["state"] != "exited":
        sys.exit("thread %d ends at %d in %s" % (t, l[-1]["end"], l[-1]))
# one thread at a time per CPU
cpus = {}
for iv in ivs:
    if iv["state"] in RUN:
        cpus.setdefault(iv["cpu"], []).append(iv)
for c, l in cpus.items():
    l.sort(key=lambda iv: iv["begin"])
    for x, y in zip(l, l[1:]):
        if y["begin"] < x["end"]:
            sys.exit("CPU %d runs two threads: %s and %s" % (c, x, y))
# sched_switch, as Babeltrace 1 reads it
starts = {(iv["tid"], iv["begin"]): iv for iv in ivs}
tc = babeltrace.TraceCollection()
tc.add_trace(sys.argv[1], "ctf")
n = 0
for ev in tc.events:
    if ev.name != "sched_switch":
        continue
    ts, cpu = ev.timestamp, ev["cpu_id"]
    p, nx, st = ev["prev_tid"], ev["next_tid"], ev["prev_state"]
    if p and ts < e:
        iv = starts.get((p, ts))
        want = "runnable" if st & 0xff == 0 else None
        if iv is None or iv["state"] in RUN or (want and iv["state"] not in (want, "exited")):
            sys.exit("switch at %d: prev %d (state %d) in %s" % (ts, p, st, iv))
    if nx and ts < e:
        iv = starts.get((nx, ts))
        if iv is None or iv["state"] not in RUN or iv["cpu"] != cpu:
            sys.exit("switch at %d on CPU %d: next %d in %s" % (ts, cpu, nx, iv))
    n += 1
if n < 170:
    sys.exit("only %d sched_switch (of 176)" % n)
# --group: the same intervals
g = sorted((iv["tid"], iv["begin"], iv["end"], iv["state"]) for t in group["threads"] for iv in t["intervals"])
f = sorted((iv["tid"], iv["begin"], iv["end"], iv["state"]) for iv in ivs)
if g != f:
    sys.exit("--group differs from the streaming output")
if [t["tid"] for t in tid["threads"]] != [6913] or len(tid["threads"][0]["intervals"]) != len(per[6913]):
    sys.exit("--tid 6913: %s" % [t["tid"] for t in tid["threads"]])
# --begin/--end: the whole run's intervals cut to the range
rb, re_ = rng["time-range"]["begin"], rng["time-range"]["end"]
cut = sorted((iv["tid"], max(iv["begin"], rb), min(iv["end"], re_), iv["state"]) for iv in ivs
             if iv["end"] > rb and iv["begin"] < re_)
got = sorted((iv["tid"], iv["begin"], iv["end"], iv["state"]) for iv in rng["intervals"])
# (the run's last intervals end at the range's end, where the whole run goes on)
if got != cut:
    sys.exit("--begin/--end: %d intervals, the whole run's cut: %d; first difference %s" %
             (len(got), len(cut), next((x, y) for x, y in zip(got, cut) if x != y)))
print("%d intervals of %d threads, %d switches checked" % (len(ivs), len(per), n))
PY
"$TRAX" analyze flow "$K" >flow.txt || fail "flow (text)"
[ "$(grep -c '^[0-9][0-9]:' flow.txt)" = "$($PY -c 'import json; print(len(json.load(open("flow.json"))["intervals"]))')" ] ||
	fail "the text has not a line per interval"
expect_contains flow.txt "Timerange: [2026-11-26 07:00:16.175197620, 2026-11-26 07:00:17.129537615]"
"$TRAX" analyze flow --group --tid 6913 "$K" >tid.txt || fail "flow --group --tid (text)"
expect_contains tid.txt "traxd (tid 6913, pid 6904): "
expect_contains tid.txt "  07:00:17.003586876 07:00:17.004479318        892.442  runnable forked"
ok "flow: $(cat check.txt)"
