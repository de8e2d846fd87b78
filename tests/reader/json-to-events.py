#!/usr/bin/env python3
"""json-to-events.py - `trax view --format=json` lines (stdin) written as
examples/reader/trax-events.c writes the same events: NAME TIME field=value
... (see there for the value forms), for tests/integration/reader_pkgconfig.sh.
"""
import json
import math
import sys


def string(s):
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        out.append(c if 0x20 <= b <= 0x7E and c not in '"\\' else "\\x%02x" % b)
    return '"' + "".join(out) + '"'


def value(v):
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return "%g" % v
    if isinstance(v, str):
        # floats that JSON cannot hold
        return v if v in ("nan", "inf", "-inf") else string(v)
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        if set(v) == {"value", "labels"}:
            return value(v["value"])
        return "{" + ", ".join("%s=%s" % (k, value(x)) for k, x in v.items()) + "}"
    return "?"


for line in sys.stdin:
    ev = json.loads(line)
    ts = "-" if ev["timestamp"] is None else str(ev["timestamp"])
    fields = "".join(" %s=%s" % (k, value(v)) for k, v in (ev.get("fields") or {}).items())
    print("%s %s%s" % (ev["name"], ts, fields))
