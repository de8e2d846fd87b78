#!/usr/bin/env python3
"""legacy_big.py OUTDIR N - a big compact-format (2.3, little-endian,
aligned 4) trace of N events on two CPUs for bench/legacy.sh, written by
the test tree's writer (tests/legacy/ltt_gen.py): the integer, string and
mixed markers of its scenarios, 1 µs apart."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "legacy"))
import ltt_gen as g  # noqa: E402


def main(out, n):
    st = {"tsc": 1000, "freq": 1000000000, "sec": 1230000000, "usec": 0, "scale": 1}
    ms = [m for m in g.marker_set(g.ABI32, "cpu") if m["name"] != "m_big"]
    vals = {m["name"]: g.marker_values(m["name"], 0, m["abi"]) for m in ms}
    files = {"cpu_0": [], "cpu_1": []}
    t = st["tsc"] + 1000
    for i in range(n):
        m = ms[i % len(ms)]
        files["cpu_%d" % (i & 1)].append((t, m["name"], vals[m["name"]], {}))
        t += 1000
    spec = {"fmt": "v2", "minor": 3, "be": False, "align": 4, "arch_size": 4, "buf_size": 1 << 20,
            "start": st, "markers": ms, "files": files}
    os.makedirs(out, exist_ok=True)
    g.make(spec).write(out)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
