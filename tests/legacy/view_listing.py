#!/usr/bin/env python3
"""view_listing.py EXPECTED VIEW_JSON - compares the events `trax view
--format=json` printed of a legacy trace (read through its CTF conversion,
src/legacy/lconvert.c) with the listing tests/legacy/ltt_gen.py wrote
(EXPECTED, JSON lines), by value: name, cpu, ns and every field.

The conversion's CTF shapes are mapped back to the listing's first: a
sequence's length field (_NAME_length) dropped, an enumeration's labels
as its one label, a union with a selector (NAME_tag, then NAME, the
variant) as {"code": c, MEMBER: value}, array elements of such unions
({v_tag, v}) as the union. Both lists are sorted by (ns, cpu, name,
fields): the view merges files, the listing goes file by file.
Exit 0 when they are equal; prints the first differences."""
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from same_listing import same  # noqa: E402


def norm(v):
    if isinstance(v, list):
        return [norm(x) for x in v]
    if not isinstance(v, dict):
        return v
    if set(v.keys()) == {"value", "labels"}:
        return {"value": v["value"], "label": v["labels"][0] if v["labels"] else None}
    if set(v.keys()) == {"v_tag", "v"}:
        return norm({"v_tag": v["v_tag"], "v": v["v"]})["v"]
    out = {}
    for k, x in v.items():
        if k.startswith("_") and k.endswith("_length") and k[1:-7] in v:
            continue
        if k.endswith("_tag") and k[:-4] in v:
            continue
        tag = v.get(k + "_tag")
        if isinstance(tag, dict) and "labels" in tag:
            label = tag["labels"][0][1:] if tag["labels"] else "?"
            out[k] = {"code": tag["value"], label: norm(x)}
        else:
            out[k] = norm(x)
    return out


def key(e):
    return (e["ns"], e["cpu"], e["event"], json.dumps(e["fields"], sort_keys=True))


def main(exp_path, got_path):
    with open(exp_path) as f:
        exp = [json.loads(line) for line in f if line.strip()]
    with open(got_path) as f:
        got = []
        for line in f:
            if line.strip():
                g = json.loads(line)
                got.append({"event": g["name"], "ns": g["timestamp"],
                            "cpu": g["packet_context"]["cpu_id"],
                            "fields": norm(g["fields"])})
    exp = sorted(({"event": e["event"], "ns": e["ns"], "cpu": e["cpu"],
                   "fields": e["fields"]} for e in exp), key=key)
    got.sort(key=key)
    bad = 0
    if len(exp) != len(got):
        print(f"{len(exp)} events expected, {len(got)} printed")
        bad += 1
    for i, (e, g) in enumerate(zip(exp, got)):
        if not same(e, g):
            print(f"event {i}:\n  expected {json.dumps(e)}\n  printed  {json.dumps(g)}")
            bad += 1
            if bad > 5:
                break
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
