#!/usr/bin/env python3
"""by-channel.py - from `babeltrace2 -c sink.text.details
--params=with-metadata=no,with-time=no,with-stream-name=yes` on standard
input, the values of the payload field `n` of every event (and of `x`,
written xV, for flt:other), per channel:
one line "CHANNEL<TAB>n n n ..." per channel with events, the channel
being the first part of the stream file's path named cN: the stream file
of an LTTng channel (c12_0 -> c12), or the directory of a trax trace
(.../c12/ust/pid/app-1-.../channel0_0 -> c12)."""
import re
import sys

stream_re = re.compile(r'^\{Trace (\d+), Stream class ID (\d+), Stream ID (\d+)\}')
name_re = re.compile(r'^  Name: .*?/(c\d+)[/_]')
n_re = re.compile(r'^    (n|x): (-?\d+)$')

channel_of = {}
rows = {}
current = None
expect_name = False
for line in sys.stdin:
    line = line.rstrip('\n')
    m = stream_re.match(line)
    if m:
        current = m.groups()
        continue
    if line == 'Stream beginning:':
        expect_name = True
        continue
    if expect_name:
        m = name_re.match(line)
        if m and current:
            channel_of[current] = m.group(1)
        expect_name = False
        continue
    m = n_re.match(line)
    if m and current:
        ch = channel_of.get(current)
        if ch is None:
            sys.exit('by-channel.py: an event of a stream without a name')
        rows.setdefault(ch, []).append((m.group(1) == 'x', int(m.group(2))))
for ch in sorted(rows, key=lambda c: int(re.sub(r'\D', '', c) or 0)):
    print('%s\t%s' % (ch, ' '.join(('x%d' if x else '%d') % v for x, v in sorted(rows[ch]))))
