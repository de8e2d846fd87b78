#!/usr/bin/env python3
"""chrome-check.py VIEW.jsonl EXPORT.json [--span B,E]... [--counter N.F]... [--env-pid N --env-name S]

Checks the values of `trax export --format=chrome` (EXPORT.json) against
the events as `trax view --format=json` prints them (VIEW.jsonl), computed
here independently:
 - system calls: per thread, each syscall_entry_X followed by its exit
   (a second entry before an exit: the first is dropped) is one slice
   named X on that thread's track, its begin and end the events' times to
   the nanosecond (ts - otherData.time_origin_ns);
 - scheduling: per CPU, each interval between two sched_switch (or from
   the CPU's first event to its first switch) where a thread other than
   the idle task ran is one X slice on the CPU's track, with that tid and
   prev_comm as its name;
 - spans: per thread, BEGIN ... END pairs (innermost first) as slices;
 - counters: the values of N.F in order;
 - every event is in the export once: instants + B + E (not closing an
   unfinished slice) + sched_switch events = the events;
 - thread names: each tid's names are names the trace gives it (procname
   context, sched_switch comms, state dump, fork).
The thread of an event: its tid/vtid context, else the tid sched_switch
put on its CPU, else the trace's vpid (--env-pid: the env's vpid, whose name may be the
env's procname, --env-name). Prints a summary line.
"""
import json
import sys
from decimal import Decimal

CPU_PID = 1000000000


def fail(msg):
    print("chrome-check: " + msg)
    sys.exit(1)


args = sys.argv[1:]
spans, counters = [], []
env_pid = env_name = None
pos = []
i = 0
while i < len(args):
    if args[i] == "--span":
        spans.append(tuple(args[i + 1].split(",")))
        i += 2
    elif args[i] == "--env-name":
        env_name = args[i + 1]
        i += 2
    elif args[i] == "--env-pid":
        env_pid = int(args[i + 1])
        i += 2
    elif args[i] == "--counter":
        counters.append(args[i + 1])
        i += 2
    else:
        pos.append(args[i])
        i += 1
view_path, export_path = pos

doc = json.load(open(export_path), parse_float=Decimal)
origin = doc["otherData"]["time_origin_ns"]
evs = doc["traceEvents"]


def ns(ts):
    v = Decimal(ts) * 1000
    if v != int(v):
        fail("ts %s is not a whole number of ns" % ts)
    return int(v) + origin


# ---- the export ----
ex_sys, ex_span, ex_run, ex_ctr = [], [], [], {}
names = {}  # tid -> [names]
counts = {"i": 0, "B": 0, "Ereal": 0}
stacks = {}
for e in evs:
    ph = e["ph"]
    if ph == "M":
        if e["name"] == "thread_name" and e["pid"] != CPU_PID:
            names.setdefault(e["tid"], []).append(e["args"]["name"])
        continue
    if ph == "C":
        ex_ctr.setdefault(e["name"], []).append(e["args"]["value"])
        continue
    if ph == "i":
        counts["i"] += 1
    elif ph == "B":
        counts["B"] += 1
        stacks.setdefault((e["pid"], e["tid"]), []).append(e)
    elif ph == "E":
        b = stacks[(e["pid"], e["tid"])].pop()
        if (e.get("args") or {}).get("unfinished"):
            continue
        counts["Ereal"] += 1
        s = (e["tid"], b["name"], ns(b["ts"]), ns(e["ts"]))
        (ex_sys if b.get("cat") == "syscall" else ex_span).append(s)
    elif ph == "X":
        if (e.get("args") or {}).get("unfinished"):
            continue
        ex_run.append((e["tid"] - CPU_PID - 1, ns(e["ts"]), ns(e["ts"]) + int(Decimal(e["dur"]) * 1000),
                       e["args"]["tid"], e["name"]))

# ---- the view ----
cur = {}  # cpu -> tid current
cpu_first, cpu_run, switched = {}, {}, set()
open_sys, open_span = {}, {}
v_sys, v_span, v_run, v_ctr = [], [], [], {}
given = {}  # tid -> names the trace gives
if env_pid is not None and env_name is not None:
    given[env_pid] = {env_name}
nevents = nswitch = 0
span_b = {b: k for k, (b, _) in enumerate(spans)}
span_e = {e: k for k, (_, e) in enumerate(spans)}
ctr = {}
for c in counters:
    n, f = c.rsplit(".", 1)
    ctr.setdefault(n, []).append((c, f))
for line in open(view_path):
    ev = json.loads(line)
    nevents += 1
    name, ts = ev["name"], ev["timestamp"]
    f = ev.get("fields") or {}
    ctx = ev.get("context") or {}
    cpu = (ev.get("packet_context") or {}).get("cpu_id")
    if cpu is not None and cpu not in cpu_first:
        cpu_first[cpu] = ts
    tid = ctx.get("tid", ctx.get("vtid"))
    if tid is None and cpu is not None:
        tid = cur.get(cpu)
        if tid == 0:
            tid = None  # the idle task: the CPU's track
    if tid is None:
        tid = ctx.get("vpid", env_pid)
    if tid is not None and "procname" in ctx:
        given.setdefault(tid, set()).add(ctx["procname"])
    if name == "sched_switch":
        nswitch += 1
        prev, nxt = f["prev_tid"], f["next_tid"]
        given.setdefault(prev, set()).add(f["prev_comm"])
        given.setdefault(nxt, set()).add(f["next_comm"])
        if cpu in cpu_run:
            b, t = cpu_run[cpu]
            v_run.append((cpu, b, ts, t, f["prev_comm"] if t == prev else None))
        elif cpu not in switched and prev != 0 and ts > cpu_first[cpu]:
            v_run.append((cpu, cpu_first[cpu], ts, prev, f["prev_comm"]))
        switched.add(cpu)
        cpu_run.pop(cpu, None)
        if nxt != 0:
            cpu_run[cpu] = (ts, nxt)
        cur[cpu] = nxt
    elif name == "lttng_statedump_process_state":
        given.setdefault(f["tid"], set()).add(f["name"])
    elif name == "lttng_ust_statedump:procname" and tid is not None:
        given.setdefault(tid, set()).add(f["procname"])
    elif name == "sched_process_fork":
        given.setdefault(f["child_tid"], set()).add(f["child_comm"])
    elif name.startswith("syscall_entry_") and tid is not None:
        open_sys[tid] = (name[len("syscall_entry_"):], ts)
    elif name.startswith("syscall_exit_") and tid is not None and tid in open_sys:
        n, b = open_sys.pop(tid)
        v_sys.append((tid, n, b, ts))
    if name in span_b and tid is not None:
        open_span.setdefault((tid, span_b[name]), []).append(ts)
    elif name in span_e and tid is not None and open_span.get((tid, span_e[name])):
        v_span.append((tid, spans[span_e[name]][0], open_span[(tid, span_e[name])].pop(), ts))
    for c, fld in ctr.get(name, []):
        v = f.get(fld, ctx.get(fld))
        if v is not None:
            v_ctr.setdefault(c, []).append(v)


def compare(what, got, want):
    if sorted(got) != sorted(want):
        g, w = set(got), set(want)
        fail("%s: %d in the export, %d from the events; export only: %s; events only: %s" %
             (what, len(got), len(want), sorted(g - w)[:3], sorted(w - g)[:3]))


compare("system calls", ex_sys, v_sys)
compare("spans", ex_span, v_span)
ex_run_cmp = [(c, b, e, t) for c, b, e, t, _ in ex_run]
compare("running slices", ex_run_cmp, [(c, b, e, t) for c, b, e, t, _ in v_run])
want_names = {(c, b): n for c, b, e, t, n in v_run if n is not None}
for c, b, e, t, n in ex_run:
    if (c, b) in want_names and want_names[(c, b)] != n:
        fail("running slice on CPU %d at %d: named %r, prev_comm %r" % (c, b, n, want_names[(c, b)]))
for c in counters:
    if [Decimal(str(v)) for v in ex_ctr.get(c, [])] != [Decimal(str(v)) for v in v_ctr.get(c, [])]:
        fail("counter %s: %d values in the export, %d events" % (c, len(ex_ctr.get(c, [])), len(v_ctr.get(c, []))))
total = counts["i"] + counts["B"] + counts["Ereal"] + nswitch
if total != nevents:
    fail("%d events, the export has %d (instants %d, B %d, E %d, sched_switch %d)" %
         (nevents, total, counts["i"], counts["B"], counts["Ereal"], nswitch))
for tid, ns_ in names.items():
    bad = [n for n in ns_ if n not in given.get(tid, set()) and n != "tid %d" % tid and
           not (tid == 0 and n == "swapper")]
    if bad:
        fail("tid %d named %s, the trace gives it %s" % (tid, bad, sorted(given.get(tid, []))))
print(json.dumps({"events": nevents, "syscalls": len(v_sys), "spans": len(v_span),
                  "running": len(v_run), "threads_named": len(names),
                  "counters": {c: len(v) for c, v in v_ctr.items()}}, sort_keys=True))
