#!/usr/bin/env python3
"""compare-view.py - `trax view` against what gen-kernel-trace.py wrote.

  compare-view.py json EXPECT TRAX_JSON
      every line of `trax view --format=json` has the values of the event
      EXPECT has on that line (all of them: name, timestamp, stream,
      fields, context, packet context).
  compare-view.py text EXPECT BT2_TEXT TRAX_TEXT
      `trax view` prints what babeltrace2 prints, line by line, but for
      one known fault of babeltrace2 2.0 (below).

Exits 1 naming the first differing events (at most 10), each with where it
is in the trace (stream file, byte offset, packet), else prints a summary.

babeltrace2 2.0's fault: a string, or a text array or sequence, whose value
is empty may be printed with the value the same field had in an earlier
event of its class (bt_field_string_clear() sets the length to 0 but leaves
the old bytes, which the text sink prints as a C string; events are
recycled), reported upstream as https://review.lttng.org/c/babeltrace/+/4528
(efficios/babeltrace pull request 116). A line that differs only there is accepted when EXPECT says the
field is empty (its "empty_text"), which the JSON comparison checks
against trax's own values; the summary counts those lines.
"""
import json
import re
import sys

IGNORED = ("at", "empty_text")


def clip(line, at, width=160):
    lo = max(0, at - width // 2)
    return ("..." if lo else "") + line[lo:lo + width] + ("..." if lo + width < len(line) else "")


def first_diff(a, b):
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def blank_fields(line, names):
    """line with the value of each named string field printed as \"\"."""
    for n in names:
        line = re.sub(r'(?<=[{,] )' + re.escape(n) + r' = "(?:[^"\\]|\\.)*"',
                      lambda m, n=n: n + ' = ""', line)
    return line


def report(errors, what, exp_line, detail):
    o = json.loads(exp_line) if exp_line else {}
    errors.append("%s: event %s at %s\n%s" % (what, o.get("name", "?"), o.get("at", "?"), detail))


def compare_json(expect, got):
    errors, n = [], 0
    with open(expect, encoding="utf-8") as fe, open(got, "rb") as fg:
        for n, (le, lg) in enumerate(zip(fe, fg), 1):
            e = json.loads(le)
            for k in IGNORED:
                e.pop(k, None)
            try:
                g = json.loads(lg.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as x:
                report(errors, "line %d: not JSON (%s)" % (n, x), le, lg[:300])
            else:
                if g != e:
                    diffs = []
                    for k in sorted(set(e) | set(g)):
                        if e.get(k) != g.get(k):
                            ev, gv = e.get(k), g.get(k)
                            if isinstance(ev, dict) and isinstance(gv, dict):
                                for f in sorted(set(ev) | set(gv)):
                                    if ev.get(f) != gv.get(f):
                                        diffs.append("  %s.%s: expected %s, trax %s" % (
                                            k, f, json.dumps(ev.get(f))[:200],
                                            json.dumps(gv.get(f))[:200]))
                            else:
                                diffs.append("  %s: expected %s, trax %s" % (
                                    k, json.dumps(ev)[:200], json.dumps(gv)[:200]))
                    report(errors, "line %d" % n, le, "\n".join(diffs))
            if len(errors) >= 10:
                break
        rest_e, rest_g = fe.readline(), fg.readline()
    if not errors and (rest_e or rest_g):
        errors.append("trax printed %s lines than the %s events expected" % (
            "fewer" if rest_e else "more", "first %d" % n if rest_g else n))
    return errors, "%d events, every value as written" % n


def compare_text(expect, bt2, got):
    errors, n, stale = [], 0, 0
    with open(expect, encoding="utf-8") as fe, open(bt2, "rb") as fb, open(got, "rb") as fg:
        for n, (le, lb, lg) in enumerate(zip(fe, fb, fg), 1):
            if lb == lg:
                continue
            b = lb.decode("utf-8", "surrogateescape").rstrip("\n")
            g = lg.decode("utf-8", "surrogateescape").rstrip("\n")
            names = json.loads(le).get("empty_text")
            if names and blank_fields(b, names) == g:
                stale += 1
                continue
            at = first_diff(b, g)
            report(errors, "line %d" % n, le,
                   "  babeltrace2: %s\n  trax:        %s" % (clip(b, at), clip(g, at)))
            if len(errors) >= 10:
                break
        rest = (fe.readline(), fb.readline(), fg.readline())
    if not errors and any(rest):
        errors.append("line counts differ after line %d: expected %s, babeltrace2 %s, trax %s" % (
            n, *("more" if r else "no more" for r in rest)))
    return errors, ("%d lines as babeltrace2 prints them (%d where babeltrace2 prints an "
                    "empty string stale)" % (n, stale))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "json":
        errors, summary = compare_json(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "text":
        errors, summary = compare_text(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__.split("\n\n")[1])
    if errors:
        print("\n".join(errors), file=sys.stderr)
        sys.exit(1)
    print(summary)


if __name__ == "__main__":
    main()
