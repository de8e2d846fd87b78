#!/usr/bin/env python3
"""stats-check.py TRACE STATS_JSON - checks `trax analyze stats
--no-intersection --format=json` against Babeltrace 1 (its Python
bindings, the reader lttng-analyses uses): the same number of events,
per event name and per CPU (the packet context's cpu_id). Prints the
differences and exits 1 when there is one; prints the event count else."""
import collections
import json
import sys

import babeltrace


def main():
    tc = babeltrace.TraceCollection(intersect_mode=False)
    if tc.add_traces_recursive(sys.argv[1], 'ctf') is None:
        print('babeltrace cannot open', sys.argv[1])
        sys.exit(2)
    names = collections.Counter()
    cpus = collections.Counter()
    total = 0
    for ev in tc.events:
        total += 1
        names[ev.name] += 1
        cpu = ev.field_with_scope('cpu_id', babeltrace.CTFScope.STREAM_PACKET_CONTEXT)
        if cpu is not None:
            cpus[cpu] += 1
    with open(sys.argv[2]) as f:
        doc = json.load(f)
    tables = {t['class']: t['data'] for t in doc['results']}
    diffs = []
    got_total = tables['summary'][0][0]['value'] if 'summary' in tables else 0
    if got_total != total:
        diffs.append('events: %d, babeltrace %d' % (got_total, total))
    got_names = {r[0]['name']: r[1]['value'] for r in tables.get('per-event', [])}
    if got_names != dict(names):
        diffs.append('per event: %s, babeltrace %s' % (sorted(got_names.items()),
                                                       sorted(names.items())))
    got_cpus = {r[0]['id']: r[1]['value'] for r in tables.get('per-cpu', [])}
    if got_cpus != dict(cpus):
        diffs.append('per CPU: %s, babeltrace %s' % (sorted(got_cpus.items()),
                                                     sorted(cpus.items())))
    for d in diffs:
        print(d)
    if diffs:
        sys.exit(1)
    print(total)


if __name__ == '__main__':
    main()
