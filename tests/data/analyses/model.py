#!/usr/bin/python3
"""model.py TRACE EXPECTED_DIR [--no-intersection] - an independent model
of what lttng-analyses 0.6.1 computes for cputop (per-TID and per-CPU
usage, total) and syscallstats (per-TID counts, min/avg/max/stdev), as
docs/analyses-reference.md describes it, checked against the -mi JSON
outputs in EXPECTED_DIR (cputop.json, syscallstats.json). Reads the trace
with the Babeltrace 1 Python bindings, as lttng-analyses does, so that the
event order and the time range are the same. Prints what differs; exit 1
if anything does. Whole trace only (no --begin/--end)."""
import json
import statistics
import sys
from babeltrace import TraceCollection

trace, expdir = sys.argv[1], sys.argv[2]
intersect = '--no-intersection' not in sys.argv[3:]
tc = TraceCollection(intersect_mode=intersect)
tc.add_traces_recursive(trace, 'ctf')

cpu_cur = {}        # cpu -> running tid, None for idle (tid 0) or unknown
cpus_seen = set()   # every CPU the state knows (switch, wakeup, irq, ...)
comm = {}           # tid -> last known name
pid_of = {}         # tid -> pid (state dump, fork, pid context)
first = last = None
# cputop
since = {}          # tid -> switch-in time (or range start)
cpu_time = {}       # tid -> ns, in first-seen order
tid_comm = {}       # the name when the tid entered the table
migrations = {}
cpu_busy, cpu_start = {}, {}
# syscallstats
pending = {}        # tid -> (name, entry ts)
calls = {}          # tid -> {name: [durations]} in first-exit order
proc_info = {}      # tid -> (comm, pid) at its first exit

for ev in tc.events:
    ts = ev.timestamp
    if first is None:
        first = ts
    last = ts
    name = ev.name
    cpu = ev['cpu_id']
    if name == 'sched_switch':
        cpus_seen.add(cpu)
        prev, nxt = ev['prev_tid'], ev['next_tid']
        comm[nxt] = ev['next_comm']
        # per CPU: busy from the range start until the first switch
        if cpu not in cpu_busy:
            cpu_busy[cpu], cpu_start[cpu] = 0, first
        if cpu_start[cpu] is not None:
            cpu_busy[cpu] += ts - cpu_start[cpu]
        cpu_start[cpu] = ts if nxt != 0 else None
        # per thread: a thread first seen switching out ran since the start
        if prev not in cpu_time:
            cpu_time[prev], since[prev] = 0, first
            tid_comm[prev] = ev['prev_comm']
        if since.get(prev) is not None:
            cpu_time[prev] += ts - since[prev]
            since[prev] = None
        if nxt != 0:
            if nxt not in cpu_time:
                cpu_time[nxt] = 0
                tid_comm[nxt] = ev['next_comm']
            since[nxt] = ts
        cpu_cur[cpu] = nxt if nxt != 0 else None
    elif name == 'sched_migrate_task':
        tid = ev['tid']
        if tid not in comm:
            comm[tid] = ev['comm']
        if tid != 0:
            # enters the table without a start: if its first switch is a
            # switch out, the time before it is not counted
            if tid not in cpu_time:
                cpu_time[tid], since[tid] = 0, None
                tid_comm[tid] = comm[tid]
            migrations[tid] = migrations.get(tid, 0) + 1
    elif name in ('sched_wakeup', 'sched_waking', 'sched_wakeup_new'):
        if ev['tid'] not in comm:
            comm[ev['tid']] = ''  # the state knows the thread, not its name
        cpus_seen.add(cpu)
        cpus_seen.add(ev['target_cpu'])
    elif name.startswith('irq_handler_') or name in ('softirq_entry', 'softirq_exit', 'softirq_raise'):
        cpus_seen.add(cpu)
    elif name == 'lttng_statedump_process_state':
        pid_of[ev['tid']] = ev['pid']
        comm[ev['tid']] = ev['name']
    elif name == 'sched_process_fork':
        pid_of[ev['child_tid']] = ev['child_pid']
        comm[ev['child_tid']] = ev['child_comm']
    elif name == 'sched_process_exec' and 'procname' in ev:
        comm[ev['tid']] = ev['procname']
    elif name.startswith('syscall_entry_'):
        tid = cpu_cur.get(cpu)
        if tid is not None:
            pending[tid] = (name[len('syscall_entry_'):], ts)
            if pid_of.get(tid) is None and 'pid' in ev.field_list_with_scope(3):
                pid_of[tid] = ev['pid']  # pid context, if pid unknown
    elif name.startswith('syscall_exit_'):
        tid = cpu_cur.get(cpu)
        if tid is not None and tid in pending:
            sc, t0 = pending.pop(tid)
            if tid not in calls:
                calls[tid] = {}
                proc_info[tid] = (comm.get(tid, ''), pid_of.get(tid))
            calls[tid].setdefault(sc, []).append(ts - t0)

bad = []
span = last - first
for tid in since:
    if since[tid] is not None:
        cpu_time[tid] += last - since[tid]
for cpu in cpu_start:
    if cpu_start[cpu] is not None:
        cpu_busy[cpu] += last - cpu_start[cpu]

def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)

res = json.load(open(expdir + '/cputop.json'))['results']
for table in res:
    if table['class'] == 'per-process':
        order = sorted(cpu_time, key=lambda t: cpu_time[t], reverse=True)[:10]
        got = [(r[0]['tid'], r[3]['value'], r[0]['name'], r[1]['value']) for r in table['data']]
        want = [(t, cpu_time[t] / span, tid_comm[t], migrations.get(t, 0)) for t in order]
        if [g[0] for g in got] != [w[0] for w in want] or not all(close(g[1], w[1]) and g[2:] == w[2:] for g, w in zip(got, want)):
            bad.append('cputop per-tid: %s != %s' % (got[:4], want[:4]))
    elif table['class'] == 'per-cpu':
        for r in table['data']:
            c = r[0]['id']
            if not close(r[1]['value'], cpu_busy[c] / span):
                bad.append('cputop cpu %d: %s != %s' % (c, r[1]['value'], cpu_busy[c] / span))
    elif table['class'] == 'total':
        want = sum(cpu_busy[c] / span for c in cpu_busy) / len(cpus_seen)
        if not close(table['data'][0][0]['value'], want):
            bad.append('cputop total: %s != %s' % (table['data'][0][0]['value'], want))

res = json.load(open(expdir + '/syscallstats.json'))['results']
tables = {}
for table in res:
    if isinstance(table['class'], dict):
        title = table['class']['title']
        tid = int(title.rsplit('TID: ', 1)[1].rstrip(')]'))
        tables[tid] = table
for tid, per in calls.items():
    t = tables.get(tid)
    if t is None:
        bad.append('syscallstats: no table for tid %d' % tid)
        continue
    rows = {r[0]['name']: r for r in t['data']}
    for sc, d in per.items():
        r = rows.get(sc)
        if r is None or r[1]['value'] != len(d) or r[2]['value'] != min(d) or r[4]['value'] != max(d) \
                or not close(r[3]['value'], sum(d) / len(d)):
            bad.append('syscallstats tid %d %s: %s' % (tid, sc, r and [c.get('value') for c in r[1:5]]))
        elif len(d) > 2 and not close(r[5]['value'], statistics.stdev(d), 1e-6):
            bad.append('syscallstats tid %d %s stdev %s != %s' % (tid, sc, r[5]['value'], statistics.stdev(d)))
if len(tables) != len(calls):
    bad.append('syscallstats: %d tables, model has %d threads' % (len(tables), len(calls)))
for b in bad:
    print('DIFF:', b)
print('model: %d differences (cputop %d threads, syscallstats %d threads)' % (len(bad), len(cpu_time), len(calls)))
sys.exit(1 if bad else 0)
