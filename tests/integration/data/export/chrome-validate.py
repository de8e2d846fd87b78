#!/usr/bin/env python3
"""chrome-validate.py FILE.json: checks a Chrome Trace Event file against
the format's rules (as Perfetto's JSON importer and chrome://tracing read
it), prints a summary as one JSON line on success, exits 1 with the
reasons otherwise.

Rules checked:
 - valid JSON (strict: no NaN), the object form {"traceEvents": [...],
   "displayTimeUnit": "ns"|"ms"} or the array form;
 - every event an object with a known "ph"; pid (and tid, but for M
   process_* and C) integers; ts a number; names strings; args objects;
 - the raw text's ts and dur are microseconds with exactly three decimals
   (nanoseconds kept);
 - per track (pid, tid), in file order: ts non-decreasing for B and E
   events (viewers pair them in this order; they sort X, i and C events by
   time); every E closes an open B, every B is closed; X has dur >= 0;
   slices (B/E pairs and X) nest: a slice that starts inside another ends
   inside it;
 - C events: args of numbers;
 - M events: thread_name/process_name with a string args.name; every
   (pid, tid) used has a thread_name before its first use, every pid a
   process_name.
"""
import json
import re
import sys
from decimal import Decimal

PHASES = set("BEXiICM")
errors = []


def err(msg):
    if len(errors) < 20:
        errors.append(msg)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def main():
    raw = open(sys.argv[1], "rb").read().decode("utf-8")

    def no_const(c):
        raise ValueError("not JSON: " + c)

    doc = json.loads(raw, parse_constant=no_const)
    if isinstance(doc, dict):
        evs = doc.get("traceEvents")
        if not isinstance(evs, list):
            err("no traceEvents list")
            evs = []
        if doc.get("displayTimeUnit", "ms") not in ("ns", "ms"):
            err("displayTimeUnit %r" % doc.get("displayTimeUnit"))
    elif isinstance(doc, list):
        evs = doc
    else:
        err("neither an object nor an array")
        evs = []

    # the texts of ts and dur: microseconds, three decimals
    for m in re.finditer(r'"(ts|dur)":(-?[0-9][0-9.eE+-]*)', raw):
        if m.group(1) == "ts" and m.group(2) == "0":
            continue  # metadata
        if not re.fullmatch(r"-?[0-9]+\.[0-9]{3}", m.group(2)):
            err("%s %s: not microseconds with three decimals" % (m.group(1), m.group(2)))
            break

    named_threads = {}  # (pid, tid) -> name (last)
    named_procs = {}
    used = set()
    used_pids = set()
    stacks = {}  # (pid, tid) -> [begin ts]
    last_ts = {}
    slices = {}  # (pid, tid) -> [(begin, end)]
    counts = {}
    for i, e in enumerate(evs):
        if not isinstance(e, dict):
            err("event %d: not an object" % i)
            continue
        ph = e.get("ph")
        if ph not in PHASES:
            err("event %d: ph %r" % (i, ph))
            continue
        counts[ph] = counts.get(ph, 0) + 1
        pid, tid = e.get("pid"), e.get("tid")
        if not is_int(pid):
            err("event %d: pid %r is not an integer" % (i, pid))
            continue
        needs_tid = ph in "BEXiI" or (ph == "M" and e.get("name", "").startswith("thread_"))
        if needs_tid and not is_int(tid):
            err("event %d: tid %r is not an integer" % (i, tid))
            continue
        if "tid" in e and not is_int(tid):
            err("event %d: tid %r" % (i, tid))
        if not is_num(e.get("ts")):
            err("event %d: ts %r" % (i, e.get("ts")))
            continue
        if "args" in e and not isinstance(e["args"], dict):
            err("event %d: args not an object" % i)
        if ph != "E" and not isinstance(e.get("name"), str):
            err("event %d: name %r" % (i, e.get("name")))
        ts = Decimal(repr(e["ts"])) if isinstance(e["ts"], float) else Decimal(e["ts"])
        if ph == "M":
            name = e.get("name")
            a = e.get("args") or {}
            if name == "thread_name":
                if not isinstance(a.get("name"), str) or not a["name"]:
                    err("event %d: thread_name without a name" % i)
                named_threads[(pid, tid)] = a.get("name")
            elif name == "process_name":
                if not isinstance(a.get("name"), str) or not a["name"]:
                    err("event %d: process_name without a name" % i)
                named_procs[pid] = a.get("name")
            continue
        if ph == "C":
            a = e.get("args")
            if not isinstance(a, dict) or not a or not all(is_num(v) for v in a.values()):
                err("event %d: counter args %r" % (i, a))
            used_pids.add(pid)
            if pid not in named_procs:
                err("event %d: pid %d used before its process_name" % (i, pid))
            continue
        track = (pid, tid)
        if track not in used:
            used.add(track)
            used_pids.add(pid)
            if track not in named_threads:
                err("event %d: (pid %d, tid %d) used before its thread_name" % (i, pid, tid))
            if pid not in named_procs:
                err("event %d: pid %d used before its process_name" % (i, pid))
        if ph in "BE":
            if ts < last_ts.get(track, ts):
                err("event %d (%s): ts %s before the track's previous B/E at %s" %
                    (i, ph, ts, last_ts[track]))
            last_ts[track] = ts
        if ph == "B":
            stacks.setdefault(track, []).append(ts)
        elif ph == "E":
            st = stacks.get(track)
            if not st:
                err("event %d: E without a B on (pid %d, tid %d)" % (i, pid, tid))
            else:
                slices.setdefault(track, []).append((st.pop(), ts))
        elif ph == "X":
            d = e.get("dur")
            if not is_num(d) or d < 0:
                err("event %d: X with dur %r" % (i, d))
            else:
                dd = Decimal(repr(d)) if isinstance(d, float) else Decimal(d)
                slices.setdefault(track, []).append((ts, ts + dd))
        elif ph in "iI":
            s = e.get("s", "t")
            if s not in ("t", "p", "g"):
                err("event %d: instant scope %r" % (i, s))
    for track, st in stacks.items():
        if st:
            err("(pid %d, tid %d): %d B without E" % (track[0], track[1], len(st)))
    for track, sl in slices.items():
        sl.sort(key=lambda s: (s[0], -s[1]))
        open_ = []
        for b, e in sl:
            while open_ and b >= open_[-1]:
                open_.pop()
            if open_ and e > open_[-1]:
                err("(pid %d, tid %d): slice [%s, %s] overlaps its parent ending %s" %
                    (track[0], track[1], b, e, open_[-1]))
                break
            open_.append(e)
    for pid in used_pids:
        if pid not in named_procs:
            err("pid %d has no process_name" % pid)
    if errors:
        for m in errors:
            print("chrome-validate: " + m)
        sys.exit(1)
    print(json.dumps({"events": len(evs), "phases": counts, "tracks": len(used),
                      "pids": len(used_pids), "slices": sum(len(s) for s in slices.values())},
                     sort_keys=True))


main()
