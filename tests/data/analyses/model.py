#!/usr/bin/python3
"""model.py TRACE EXPECTED_DIR [--no-intersection] [--begin hh:mm:ss.nnnnnnnnn]
[--end hh:mm:ss.nnnnnnnnn] [--suffix -range] - an independent model
of what lttng-analyses 0.6.1 computes, written from
docs/analyses-reference.md (not from lttng-analyses' code): cputop (per-TID,
per-CPU, total), syscallstats (per-TID counts, min/avg/max/stdev),
schedstats (total, per-TID, per-prio), irqstats (hard IRQs) and
iolatencystats (Open/Read/Write/Sync), checked against the -mi JSON outputs
in EXPECTED_DIR (cputop.json, syscallstats.json, schedstats-all.json,
irqstats.json, iolatencystats.json). Reads the trace with the Babeltrace 1
Python bindings, as lttng-analyses does, so that the event order and the
time range are the same. With --suffix S it reads NAME-S.json instead
(e.g. the -range outputs, made with the same --begin/--end; times are UTC
on the trace's first day). Prints what differs; exit 1 if anything does.
No filters (--tid, --cpu, ...)."""
import json
import os
import statistics
import sys
from babeltrace import TraceCollection

trace, expdir = sys.argv[1], sys.argv[2]
opts = sys.argv[3:]
intersect = '--no-intersection' not in opts
tc = TraceCollection(intersect_mode=intersect)
tc.add_traces_recursive(trace, 'ctf')
SUFFIX = opts[opts.index('--suffix') + 1] if '--suffix' in opts else ''


def when(hms):
    """hh:mm:ss.nnnnnnnnn on the trace's first day, UTC, in ns"""
    h, m, sn = hms.split(':')
    sec, ns = sn.split('.')
    day = tc.timestamp_begin // 86400000000000 * 86400000000000
    return day + ((int(h) * 60 + int(m)) * 60 + int(sec)) * 1000000000 + int(ns)


BEGIN = when(opts[opts.index('--begin') + 1]) if '--begin' in opts else None
END = when(opts[opts.index('--end') + 1]) if '--end' in opts else None

# --- the shared state (reference section 1.3)
cpu_cur = {}        # cpu -> running tid, None for idle (tid 0) or unknown
cpus_seen = set()   # every CPU the state knows
comm = {}           # tid -> name the state knows ('' if none)
pid_of = {}         # tid -> pid
prio = {}           # tid -> prio the state knows
wakeup = {}         # tid -> (time, waker tid or None) of the pending wakeup
first = last = None
notes = []          # prio changes of this event: (tid, prio)


def know(tid):
    if tid not in comm:
        comm[tid] = ''
        if tid == 0:
            pid_of[0] = 0


def set_prio(tid, p):
    if tid != 0 and prio.get(tid) != p:
        prio[tid] = p
        notes.append((tid, p))


# --- cputop
since, cpu_time, top_comm, top_prios, migrations = {}, {}, {}, {}, {}
cpu_busy, cpu_start = {}, {}
# --- syscallstats
pending = {}        # tid -> (name, entry ts, io request or None)
calls, call_who = {}, {}
# --- schedstats
samples = []        # (wakee tid, latency, prio)
sched_comm, sched_prios = {}, {}
# --- irqstats
cur_irq = {}        # cpu -> (irq, entry ts)
irq_names, irq_durs = {}, {}
# --- iolatency: fds known per process (the thread itself if no pid)
fds = {}            # owner tid -> {fd: cloexec}, the state's
pfds = {}           # owner tid -> {fd}, the analysis's: learnt in the range
io = {'Open': [], 'Read': [], 'Write': [], 'Sync': []}
OPEN = ('open', 'openat', 'socket', 'dup', 'dup2', 'dup3', 'fcntl')
READ = ('read', 'recvmsg', 'recvfrom', 'readv', 'pread', 'pread64', 'preadv')
WRITE = ('write', 'sendmsg', 'sendto', 'writev', 'pwrite', 'pwrite64', 'pwritev')
SYNC = ('sync', 'sync_file_range', 'fsync', 'fdatasync')
IO = OPEN + ('close',) + READ + WRITE + SYNC + ('splice', 'sendfile64')


def owner(tid):
    p = pid_of.get(tid)
    return p if p is not None and p != tid else tid


def prio_notes_to_tables(started):
    for tid, p in notes if started else ():
        if tid in top_prios:
            top_prios[tid].append(p)
        if tid in sched_prios:
            sched_prios[tid].append(p)
    notes.clear()


started = False     # inside the range (reference section 1.2)
for ev in tc.events:
    ts = ev.timestamp
    if END is not None and ts > END:
        break
    if not started and (BEGIN is None or ts >= BEGIN):
        started, first = True, ts
    last = ts
    name = ev.name
    cpu = ev['cpu_id']
    if name == 'sched_switch':
        cpus_seen.add(cpu)
        prev, nxt = ev['prev_tid'], ev['next_tid']
        know(prev)
        know(nxt)
        comm[nxt] = ev['next_comm']
        cpu_cur[cpu] = nxt if nxt != 0 else None
        set_prio(prev, ev['prev_prio'])
        set_prio(nxt, ev['next_prio'])
        prio_notes_to_tables(started)
        w = wakeup.pop(nxt, None)
        if not started:
            continue
        # cputop, per CPU: busy from the range start until the first switch
        if cpu not in cpu_busy:
            cpu_busy[cpu], cpu_start[cpu] = 0, first
        if cpu_start[cpu] is not None:
            cpu_busy[cpu] += ts - cpu_start[cpu]
        cpu_start[cpu] = ts if nxt != 0 else None
        # cputop, per thread: first seen switching out = ran since the start
        if prev not in cpu_time:
            cpu_time[prev], since[prev] = 0, first
            top_comm[prev], top_prios[prev] = ev['prev_comm'], []
        if since.get(prev) is not None:
            cpu_time[prev] += ts - since[prev]
            since[prev] = None
        if nxt != 0:
            if nxt not in cpu_time:
                cpu_time[nxt] = 0
                top_comm[nxt], top_prios[nxt] = ev['next_comm'], [prio.get(nxt)]
            since[nxt] = ts
        # schedstats
        if w is not None:
            wts, waker = w
            if waker is not None and waker not in sched_comm:
                sched_comm[waker], sched_prios[waker] = comm[waker], [prio.get(waker)]
            if nxt not in sched_comm:
                sched_comm[nxt], sched_prios[nxt] = comm[nxt], [prio.get(nxt)]
            samples.append((nxt, ts - wts, prio.get(nxt)))
    elif name == 'sched_migrate_task':
        tid = ev['tid']
        if tid not in comm:
            comm[tid] = ev['comm']
        if tid != 0 and started:
            # enters cputop's table without a start: if its first switch is
            # a switch out, the time before it is not counted
            if tid not in cpu_time:
                cpu_time[tid], since[tid] = 0, None
                top_comm[tid], top_prios[tid] = comm[tid], []
            migrations[tid] = migrations.get(tid, 0) + 1
        set_prio(tid, ev['prio'])
        prio_notes_to_tables(started)
    elif name in ('sched_wakeup', 'sched_waking', 'sched_wakeup_new'):
        cpus_seen.add(cpu)
        cpus_seen.add(ev['target_cpu'])
        tid = ev['tid']
        if tid in cpu_cur.values():
            continue
        know(tid)
        set_prio(tid, ev['prio'])
        prio_notes_to_tables(started)
        if tid not in wakeup:
            wakeup[tid] = (ts, cpu_cur.get(cpu))
    elif name == 'sched_pi_setprio':
        set_prio(ev['tid'], ev['newprio'])
        prio_notes_to_tables(started)
    elif name == 'irq_handler_entry':
        cpus_seen.add(cpu)
        cur_irq[cpu] = (ev['irq'], ts)
        if started:
            names = irq_names.setdefault(ev['irq'], [])
            if ev['name'] not in names:
                names.append(ev['name'])
    elif name == 'irq_handler_exit':
        cpus_seen.add(cpu)
        c = cur_irq.pop(cpu, None)
        if c is not None and c[0] == ev['irq'] and started:
            irq_durs.setdefault(c[0], []).append(ts - c[1])
    elif name in ('softirq_entry', 'softirq_exit', 'softirq_raise'):
        cpus_seen.add(cpu)
    elif name == 'lttng_statedump_process_state':
        tid, pid = ev['tid'], ev['pid']
        know(tid)
        pid_of[tid], comm[tid] = pid, ev['name']
        if prio.get(tid) is None and 'prio' in ev:
            prio[tid] = ev['prio']
        if pid != tid and pid not in comm:
            comm[pid], pid_of[pid] = ev['name'], pid
        if pid != tid:  # a thread's fds are its process's
            if tid in fds:
                fds.setdefault(pid, {}).update(fds.pop(tid))
            if started and tid in pfds:
                pfds.setdefault(pid, set()).update(pfds.pop(tid))
    elif name == 'lttng_statedump_file_descriptor':
        pid = ev['pid']
        if pid not in comm:
            comm[pid], pid_of[pid] = '', pid
        fds.setdefault(pid, {}).setdefault(ev['fd'], bool(ev['flags'] & os.O_CLOEXEC))
        if started:
            pfds.setdefault(pid, set()).add(ev['fd'])
    elif name == 'sched_process_fork':
        ptid, child = ev['parent_pid'], ev['child_tid']
        comm[ptid], pid_of[ptid] = ev['parent_comm'], ev['parent_pid']
        comm[child], pid_of[child] = ev['child_comm'], ev['child_pid']
        fds[child] = dict(fds.get(ev['parent_pid'], {}))
        if started:
            pfds.setdefault(child, set()).update(fds[child])
    elif name == 'sched_process_exec':
        tid = ev['tid']
        know(tid)
        if 'procname' in ev:
            comm[tid] = ev['procname']
        if tid in fds:
            gone = [f for f, c in fds[tid].items() if c]
            fds[tid] = {f: c for f, c in fds[tid].items() if not c}
            if started:
                pfds.setdefault(tid, set()).difference_update(gone)
    elif name.startswith('syscall_entry_'):
        tid = cpu_cur.get(cpu)
        if tid is None:
            continue
        sc = name[len('syscall_entry_'):]
        rq = None
        if sc in IO:
            if pid_of.get(tid) is None and 'pid' in ev.field_list_with_scope(3) \
                    and 'pid' not in ev.field_list_with_scope(5):
                pid_of[tid] = ev['pid']
                if ev['pid'] != tid:
                    comm[ev['pid']], pid_of[ev['pid']] = comm[tid], ev['pid']
            o = owner(tid)
            if sc in ('open', 'openat'):
                rq = ('Open', None, bool(ev['flags'] & os.O_CLOEXEC))
            elif sc == 'socket':
                rq = ('Open', None, False)
            elif sc in ('dup', 'dup2', 'dup3', 'fcntl'):
                if sc == 'fcntl' and ev['cmd'] != 0:
                    rq = None
                else:
                    if sc in ('dup2', 'dup3') and ev['newfd'] in fds.get(o, {}):
                        fds[o].pop(ev['newfd'])
                        if started:
                            pfds.setdefault(o, set()).discard(ev['newfd'])
                    rq = ('Open', None, sc == 'dup3' and bool(ev['flags'] & os.O_CLOEXEC))
            elif sc == 'close':
                rq = ('close', ev['fd'], False)
            elif sc in READ or sc in WRITE:
                rq = ('Read' if sc in READ else 'Write', ev['fd'], False)
            elif sc in SYNC:
                rq = ('Sync', ev['fd'] if sc != 'sync' else None, False)
        pending[tid] = (sc, ts, rq)
    elif name.startswith('syscall_exit_'):
        tid = cpu_cur.get(cpu)
        if tid is None or tid not in pending:
            continue
        sc, t0, rq = pending.pop(tid)
        if started:
            if tid not in calls:
                calls[tid] = {}
                call_who[tid] = (comm.get(tid, ''), pid_of.get(tid))
            calls[tid].setdefault(sc, []).append(ts - t0)
        if rq is None:
            continue
        kind, fd, cloexec = rq
        ret = ev['ret']
        if kind == 'Open' and ret >= 0:
            fd = ret
        o = owner(tid)
        known = fds.setdefault(o, {})
        # a successful call makes its fd known before it is counted (so a
        # read on an fd opened before the trace counts, whole trace)
        if ret >= 0 and fd is not None and fd not in known:
            known[fd] = cloexec
            if started:
                pfds.setdefault(o, set()).add(fd)
        # the analysis drops a successful read or write on an fd it did
        # not see created inside the range
        keep = not (kind in ('Read', 'Write') and ret >= 0 and fd not in pfds.get(o, ()))
        if started and keep and kind != 'close':
            io[kind].append(ts - t0)
        if kind == 'close' and ret == 0:
            known.pop(fd, None)
            if started:
                pfds.setdefault(o, set()).discard(fd)

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


def prio_str(lst):
    lst = [p for p in lst if p is not None]
    out = []
    for p in sorted(set(lst)):
        n = lst.count(p)
        out.append('%d (%d times)' % (p, n) if n > 1 else '%d' % p)
    return '[' + ', '.join(out) + ']'


def stats_ok(what, row, durs, min_n):
    """row: [count, min, avg, max, stdev] cells"""
    vals = [c.get('value') for c in row]
    if vals[0] != len(durs) or (durs and (vals[1] != min(durs) or vals[3] != max(durs)
                                          or not close(vals[2], sum(durs) / len(durs)))):
        bad.append('%s: %s, model %d %s %s' % (what, vals[:4], len(durs), durs and min(durs), durs and max(durs)))
    elif len(durs) >= min_n and not close(vals[4], statistics.stdev(durs), 1e-6):
        bad.append('%s stdev %s != %s' % (what, vals[4], statistics.stdev(durs)))
    elif len(durs) < min_n and row[4].get('class') != 'unknown':
        bad.append('%s stdev should be unknown' % what)


def load(name):
    p = os.path.join(expdir, name.replace('.json', SUFFIX + '.json'))
    return json.load(open(p))['results'] if os.path.exists(p) else None


res = load('cputop.json')
for table in res or []:
    if table['class'] == 'per-process':
        order = sorted(cpu_time, key=lambda t: cpu_time[t], reverse=True)[:10]
        got = [(r[0]['tid'], r[3]['value'], r[0]['name'], r[1]['value'], r[2]['value']) for r in table['data']]
        want = [(t, cpu_time[t] / span, top_comm[t], migrations.get(t, 0), prio_str(top_prios[t])) for t in order]
        if [g[0] for g in got] != [w[0] for w in want] or \
                not all(close(g[1], w[1]) and g[2:] == w[2:] for g, w in zip(got, want)):
            bad.append('cputop per-tid: %s != %s' % (got[:3], want[:3]))
    elif table['class'] == 'per-cpu':
        for r in table['data']:
            c = r[0]['id']
            if not close(r[1]['value'], cpu_busy[c] / span):
                bad.append('cputop cpu %d: %s != %s' % (c, r[1]['value'], cpu_busy[c] / span))
    elif table['class'] == 'total':
        want = sum(cpu_busy[c] / span for c in cpu_busy) / len(cpus_seen)
        if not close(table['data'][0][0]['value'], want):
            bad.append('cputop total: %s != %s' % (table['data'][0][0]['value'], want))

res = load('syscallstats.json')
tables = {}
for table in res or []:
    if isinstance(table['class'], dict):
        title = table['class']['title']
        tid = int(title.rsplit('TID: ', 1)[1].rstrip(')]'))
        want_title = 'System call statistics [%s (%s, TID: %d)]' % (
            call_who[tid][0], '?' if call_who[tid][1] is None else call_who[tid][1], tid) \
            if tid in call_who else None
        if title != want_title:
            bad.append('syscallstats title %r != %r' % (title, want_title))
        tables[tid] = table
for tid, per in calls.items() if res is not None else ():
    t = tables.get(tid)
    if t is None:
        bad.append('syscallstats: no table for tid %d' % tid)
        continue
    rows = {r[0]['name']: r for r in t['data']}
    for sc, d in per.items():
        if sc not in rows:
            bad.append('syscallstats tid %d: no %s' % (tid, sc))
        else:
            stats_ok('syscallstats tid %d %s' % (tid, sc), rows[sc][1:6], d, 3)
if res is not None and len(tables) != len(calls):
    bad.append('syscallstats: %d tables, model has %d threads' % (len(tables), len(calls)))

res = load('schedstats-all.json')
lat = [s[1] for s in samples]
for table in res or []:
    if table['class'] == 'total_stats':
        stats_ok('schedstats total', table['data'][0], lat, 2)
    elif table['class'] == 'per_tid_stats':
        tids = [t for t in sched_comm if any(s[0] == t for s in samples)]
        tids.sort(key=lambda t: sched_comm[t].lower())
        got = [(r[0]['tid'], r[0]['name'], r[6]['value']) for r in table['data']]
        want = [(t, sched_comm[t], prio_str(sched_prios[t])) for t in tids]
        if got != want:
            bad.append('schedstats per-tid rows: %s != %s' % (got[:3], want[:3]))
        for r in table['data']:
            stats_ok('schedstats tid %d' % r[0]['tid'], r[1:6], [s[1] for s in samples if s[0] == r[0]['tid']], 2)
    elif table['class'] == 'per_prio_stats':
        prios = sorted(set(s[2] for s in samples))
        if [r[0]['value'] for r in table['data']] != prios:
            bad.append('schedstats prios %s != %s' % ([r[0]['value'] for r in table['data']], prios))
        for r in table['data']:
            stats_ok('schedstats prio %d' % r[0]['value'], r[1:6], [s[1] for s in samples if s[2] == r[0]['value']], 2)

res = load('irqstats.json')
if res is not None:
    hard = [t for t in res if t['class'] == 'hard-stats']
    rows = hard[0]['data'] if hard else []
    if [r[0]['nr'] for r in rows] != sorted(irq_durs):
        bad.append('irqstats irqs %s != %s' % ([r[0]['nr'] for r in rows], sorted(irq_durs)))
    for r in rows:
        n = r[0]['nr']
        if r[0]['name'] != ', '.join(irq_names.get(n, ['unknown'])):
            bad.append('irqstats name %s' % r[0]['name'])
        stats_ok('irqstats %d' % n, r[1:6], irq_durs.get(n, []), 2)
    if any(t['class'] == 'soft-stats' for t in res):
        bad.append('irqstats: a soft IRQ table (expected none: LTTng names them irq_softirq_*)')

res = load('iolatencystats.json')
for table in res or []:
    if table['class'] == 'syscall-latency-stats':
        for r in table['data']:
            kind = r[0]['value']
            d = io[kind]
            if not d:
                vals = [c.get('value') for c in r[1:5]]
                if vals != [0, 0, 0, 0]:
                    bad.append('iolatency %s: %s, model none' % (kind, vals))
            else:
                stats_ok('iolatency %s' % kind, r[1:6], d, 2)

for b in bad:
    print('DIFF:', b)
print('model: %d differences (cputop %d threads, syscallstats %d threads, %d wakeup latencies, '
      '%d hard IRQs, I/O %s)' % (len(bad), len(cpu_time), len(calls), len(samples),
                                 sum(len(v) for v in irq_durs.values()),
                                 ' '.join('%s %d' % (k, len(v)) for k, v in io.items())))
sys.exit(1 if bad else 0)
