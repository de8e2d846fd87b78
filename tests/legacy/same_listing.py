#!/usr/bin/env python3
"""same_listing.py EXPECTED READ - compares two listings of legacy-trace events
(JSON lines as tests/legacy/ltt_gen.py writes them) by value, line by line:
a reader's floats and escapes need not be printed as Python prints them.
Prints the first differences; exit 0 when the listings are equal."""
import json
import math
import sys


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def main(exp_path, got_path):
    with open(exp_path) as f:
        exp = [json.loads(l) for l in f if l.strip()]
    with open(got_path) as f:
        got = []
        for n, l in enumerate(f, 1):
            if l.strip():
                try:
                    got.append(json.loads(l))
                except ValueError as e:
                    print("%s:%d: not JSON (%s): %s" % (got_path, n, e, l.strip()))
                    return 1
    bad = 0
    for i in range(max(len(exp), len(got))):
        e = exp[i] if i < len(exp) else None
        g = got[i] if i < len(got) else None
        if e is None or g is None or not same(e, g):
            print("line %d\n  expected %s\n  read     %s" % (i + 1, json.dumps(e), json.dumps(g)))
            bad += 1
            if bad >= 5:
                break
    if len(exp) != len(got):
        print("%d lines expected, %d read" % (len(exp), len(got)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
