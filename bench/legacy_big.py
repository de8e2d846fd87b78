#!/usr/bin/env python3
"""legacy_big.py OUTDIR N [v0] - a big compact-format (2.3, little-endian,
aligned 4; with v0: LTTV 0.7) trace of N events on two CPUs for bench/legacy.sh, written by
the test tree's writer (tests/legacy/ltt_gen.py): the integer, string and
mixed markers of its scenarios, 1 µs apart."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "legacy"))
import ltt_gen as g  # noqa: E402


def main_v0(out, n):
    """The LTTV format (0.7, little-endian, aligned 8, heartbeats): the seed
    and genevent facilities of the writer's scenarios, every class in turn."""
    st = {"tsc": (1 << 40) + 5, "freq": 2400000, "sec": 1150000000, "usec": 1, "scale": 1}
    facs = [g.seed_facility(3, g.ABI64), g.gen_facility(4, g.ABI64)]
    classes = [f["name"] + "." + e for f in facs for e, _ in f["events"]]
    vals = {c: g.values_for(c, 0, facs[0 if c.startswith(facs[0]["name"] + ".") else 1]["abi"])
            for c in classes}
    files = {"cpu_0": [], "cpu_1": []}
    t = st["tsc"] + 100
    for i in range(n):
        c = classes[(i // 2) % len(classes)]
        files["cpu_%d" % (i & 1)].append((t + (i & 1), c, vals[c]))
        t += 2400 * (i & 1)
    spec = {"fmt": "v0", "minor": 7, "be": False, "align": 8, "hb": True, "arch_size": 8,
            "buf_size": 1 << 20, "fwo": 0, "start": st, "facilities": facs, "files": files}
    os.makedirs(out, exist_ok=True)
    g.make(spec).write(out)


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
    (main_v0 if len(sys.argv) > 3 and sys.argv[3] == "v0" else main)(sys.argv[1], int(sys.argv[2]))
