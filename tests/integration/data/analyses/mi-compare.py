#!/usr/bin/env python3
"""mi-compare.py EXPECTED ACTUAL - compares two lttng-analyses MI documents
(JSON) value by value: the same keys, lists of the same lengths, equal
strings, integers and booleans, and floats equal or within one unit of the
last digit EXPECTED prints. Prints each difference (with its path) and
exits 1 when there is one."""
import json
import sys
from decimal import Decimal


def last_digit_unit(text):
    """One unit of the last digit of a float's repr: 0.8603 -> 0.0001."""
    d = Decimal(text)
    return Decimal(1).scaleb(d.as_tuple().exponent)


def compare(exp, act, path, diffs):
    if isinstance(exp, bool) or isinstance(act, bool):
        if exp is not act:
            diffs.append('%s: %r != %r' % (path, exp, act))
    elif isinstance(exp, float) or isinstance(act, float):
        if not isinstance(act, (int, float)) or not isinstance(exp, (int, float)):
            diffs.append('%s: %r != %r' % (path, exp, act))
        elif exp != act:
            unit = last_digit_unit(repr(float(exp)))
            if abs(Decimal(repr(float(exp))) - Decimal(repr(float(act)))) > unit:
                diffs.append('%s: %r != %r (more than %s)' % (path, exp, act, unit))
    elif isinstance(exp, dict):
        if not isinstance(act, dict) or sorted(exp) != sorted(act):
            diffs.append('%s: keys %s != %s' % (path, sorted(exp) if isinstance(exp, dict) else exp,
                                                sorted(act) if isinstance(act, dict) else act))
            return
        for k in exp:
            compare(exp[k], act[k], path + '.' + k, diffs)
    elif isinstance(exp, list):
        if not isinstance(act, list) or len(exp) != len(act):
            diffs.append('%s: %d items != %s' % (path, len(exp),
                                                 len(act) if isinstance(act, list) else act))
            return
        for i, (e, a) in enumerate(zip(exp, act)):
            compare(e, a, '%s[%d]' % (path, i), diffs)
    elif exp != act or type(exp) is not type(act):
        diffs.append('%s: %r != %r' % (path, exp, act))


def main():
    with open(sys.argv[1]) as f:
        exp = json.load(f)
    with open(sys.argv[2]) as f:
        act = json.load(f)
    diffs = []
    compare(exp, act, '$', diffs)
    for d in diffs[:20]:
        print(d)
    if len(diffs) > 20:
        print('... %d differences in all' % len(diffs))
    sys.exit(1 if diffs else 0)


if __name__ == '__main__':
    main()
