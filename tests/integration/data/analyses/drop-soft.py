#!/usr/bin/env python3
"""drop-soft.py IN.json OUT.json | --text IN.txt OUT.txt - what lttng-irqstats
0.6.1 prints of trax's irqstats output on an LTTng trace: without the soft
IRQs, which lttng-analyses never finds there (it looks for softirq_* events;
LTTng writes irq_softirq_*), and trax shows. JSON: the soft-stats tables
removed; text: the "Soft IRQ" section (and the empty line before it)."""
import json
import sys


def main():
    if sys.argv[1] == '--text':
        with open(sys.argv[2]) as f:
            lines = f.read().split('\n')
        out = []
        for line in lines:
            if line.startswith('Soft IRQ '):
                if out and out[-1] == '':
                    out.pop()
                break
            out.append(line)
        text = '\n'.join(out)
        if not text.endswith('\n'):
            text += '\n'
        with open(sys.argv[3], 'w') as f:
            f.write(text)
        return
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    doc['results'] = [t for t in doc['results']
                      if t['class'] != 'soft-stats']
    with open(sys.argv[2], 'w') as f:
        f.write(json.dumps(doc) + '\n')


if __name__ == '__main__':
    main()
