#!/usr/bin/env python3
"""test_ltt_gen.py - checks ltt_gen.py against the hand-written fixtures of
tests/data/legacy/hex/ (written from the seeds and docs/legacy-formats.md
without running the generator): the same parameters must give the same
bytes and the same listing, so the generator and the fixtures do not share
a misunderstanding unnoticed. Also: every scenario and damaged trace is
written, deterministically, with listings a reader can be checked against.

    python3 tests/legacy/test_ltt_gen.py      (unittest; no arguments)
"""
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hex2bin  # noqa: E402
import ltt_gen as g  # noqa: E402

HEX = os.path.join(HERE, "..", "data", "legacy", "hex")


def fixture_specs():
    """The generator's parameters for each hand fixture (see its README.md)."""
    tiny = {"name": "tiny", "id": 1, "grammar": "seed", "checksum": 0x11223344, "desc": "hand fixture",
            "abi": g.Abi(**g.ABI32), "types": [],
            "events": [("ev", [("a", g.I(4)), ("b", g.I(2, True)), ("s", g.STRING)])]}
    gen = {"name": "gen", "id": 1, "grammar": "genevent", "checksum": 0xCAFEF00D, "desc": "hand fixture",
           "abi": g.Abi(**g.ABI64), "types": [],
           "events": [("ev", [("c", g.I(1)), ("l", g.I("long")), ("s", g.STRING), ("h", g.I(2))])]}
    return {
        "v04-le-packed-hb": {
            "fmt": "v0", "minor": 4, "be": False, "align": 0, "hb": True, "arch_size": 4, "arch_type": 1,
            "buf_size": 256, "fwo": 0, "start": {"tsc": 0xFFFFFF00, "freq": 1000, "sec": 1000000000, "usec": 500000},
            "facilities": [tiny],
            "files": {"cpu_0": [(0xFFFFFFF0, "tiny.ev", {"a": 1, "b": -2, "s": "x"}),
                                (0x100000000, "core.heartbeat", None),
                                (0x100000010, "tiny.ev", {"a": 0xDEADBEEF, "b": 300, "s": ""})]}},
        "v07-be-aligned8-nohb": {
            "fmt": "v0", "minor": 7, "be": True, "align": 8, "hb": False, "arch_size": 8, "arch_type": 8,
            "buf_size": 256, "fwo": 0,
            "start": {"tsc": 1000000, "freq": 2000, "sec": 1100000000, "usec": 250, "scale": 1},
            "facilities": [gen],
            "files": {"cpu_0": [(1000100, "gen.ev", {"c": 0x41, "l": 0x0102030405060708, "s": "ab", "h": 0xBEEF}),
                                (2000000, "gen.ev", {"c": 0xFF, "l": (1 << 64) - 1, "s": "", "h": 1})]}},
        "v21-le-packed": {
            "fmt": "v2", "minor": 1, "be": False, "align": 0, "arch_size": 4, "buf_size": 128,
            "start": {"tsc": 0x07FFFFF0, "freq": 3000000000, "sec": 1200000000, "usec": 0, "scale": 1},
            "markers": [g.marker("m", 2, [("a", "%u"), ("s", "%s")], g.ABI32)],
            "metadata_path": "control/metadata_0",
            "files": {"cpu_0": [(0x07FFFFFE, "m", {"a": 7, "s": "hi"}), (0x08000003, "m", {"a": 0xFFFFFFFF, "s": ""}),
                                (0x18000003, "m", {"a": 1, "s": "z"})]}},
        "v23-be-aligned8": {
            "fmt": "v2", "minor": 3, "be": True, "align": 8, "arch_size": 8, "buf_size": 256,
            "start": {"tsc": 0x100, "freq": 2500000000, "sec": 1300000000, "usec": 123456, "scale": 1},
            "markers": [g.marker("n", 3, [("c", "%c"), ("v", "%lu")], g.ABI64, "cpu"),
                        g.marker("w", 40, [("x", "%hu")], g.ABI64, "cpu")],
            "metadata_path": "metadata_0",
            "files": {"cpu_0": [(0x200, "n", {"c": 0x61, "v": 0x1122334455667788}),
                                (0x300, "n", {"c": 0x62, "v": (1 << 64) - 1}, {"size_field": True}),
                                (0x310, "w", {"x": 0xABCD}),
                                (0x08000310, "n", {"c": 0x63, "v": 0})]},
            "file_opts": {"cpu_0": {"events_lost": {0: 2}}}},
    }


def binary_files(root):
    out = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = os.path.relpath(os.path.join(dirpath, f), root)
            if not p.startswith("eventdefs"):
                with open(os.path.join(dirpath, f), "rb") as fh:
                    out[p] = fh.read()
    return out


def first_difference(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return "offset %d: generator %02x, fixture %02x" % (i, a[i], b[i])
    return "lengths %d and %d" % (len(a), len(b))


class HandFixtures(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ltt-gen-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def check(self, name):
        spec = fixture_specs()[name]
        fx = os.path.join(self.tmp, "fixture")
        hex2bin.convert_dir(os.path.join(HEX, name), fx)
        tr, root, lines, meta = g.write_scenario(self.tmp, "gen", spec, name)
        want = binary_files(fx)
        got = binary_files(root)
        self.assertEqual(sorted(got), sorted(want), "the tracefiles written")
        for p in want:
            self.assertTrue(got[p] == want[p], "%s %s: %s" % (name, p, first_difference(got[p], want[p])))
        with open(os.path.join(HEX, name, "expect.jsonl")) as fh:
            hand = [json.loads(line) for line in fh if line.strip()]
        key = lambda d: (d["file"], d["offset"])  # noqa: E731
        self.assertEqual(sorted(lines, key=key), sorted(hand, key=key))
        # and the listing is in the documented order: files sorted, time order within
        self.assertEqual(lines, sorted(hand, key=lambda d: (d["file"], d["tsc"])))

    def test_v04_le_packed_hb(self):
        self.check("v04-le-packed-hb")

    def test_v07_be_aligned8_nohb(self):
        self.check("v07-be-aligned8-nohb")

    def test_v21_le_packed(self):
        self.check("v21-le-packed")

    def test_v23_be_aligned8(self):
        self.check("v23-be-aligned8")


class Scenarios(unittest.TestCase):
    def test_all_written_deterministically(self):
        tmp = tempfile.mkdtemp(prefix="ltt-gen-")
        try:
            a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
            import contextlib
            import io
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(g.main(["ltt_gen.py", a]), 0)
                self.assertEqual(g.main(["ltt_gen.py", b]), 0)
            names = sorted(os.listdir(a))
            self.assertEqual(names, sorted(os.listdir(b)))
            for n in names:
                p = os.path.join(a, n)
                if os.path.isfile(p):
                    with open(p, "rb") as x, open(os.path.join(b, n), "rb") as y:
                        self.assertEqual(x.read(), y.read(), n)
            for n, (spec, _) in g.scenarios().items():
                with open(os.path.join(a, n + ".expect.jsonl")) as fh:
                    lines = [json.loads(line) for line in fh]
                self.assertTrue(lines, n)
                for d in lines:
                    self.assertEqual(d["ns"], g.ns_of(d["tsc"], spec["start"], spec["fmt"] == "v2"))
                # every tracefile's size is a whole number of blocks
                for dirpath, _, files in os.walk(os.path.join(a, n)):
                    for f in files:
                        if "eventdefs" not in dirpath:
                            self.assertEqual(os.path.getsize(os.path.join(dirpath, f)) % spec.get("buf_size", 4096),
                                             0, f)
            for n in names:
                if n.startswith("dmg-") and n.endswith(".meta.json"):
                    with open(os.path.join(a, n)) as fh:
                        self.assertTrue(json.load(fh)["errors"], n)
        finally:
            shutil.rmtree(tmp)


class Formula(unittest.TestCase):
    """ns by the doc's exact formula, on values worked out by hand."""

    def test_v0_khz(self):
        p = {"tsc": 1000, "freq": 3, "sec": 1, "usec": 2}  # 3 kHz: 1 cycle = 333333.33 ns
        self.assertEqual(g.ns_of(1001, p, False), 1000002000 + 333333)
        self.assertEqual(g.ns_of(999, p, False), 1000002000 - 333333)

    def test_v2_hz_scale(self):
        p = {"tsc": 0, "freq": 3, "sec": 0, "usec": 0, "scale": 2}  # 3 Hz, freq_scale 2 multiplies
        self.assertEqual(g.ns_of(1, p, True), 666666666)


if __name__ == "__main__":
    unittest.main()
