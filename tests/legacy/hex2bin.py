#!/usr/bin/env python3
"""hex2bin.py - annotated hex to bytes, for the hand-written legacy fixtures.

    hex2bin.py FILE.hex OUT          one file
    hex2bin.py FIXTURE_DIR OUTDIR    a fixture: every *.hex becomes the file
                                     without the suffix, other files (the
                                     eventdefs XML) are copied, *.md, *expect*
                                     and README are left out

The .hex text: pairs of hex digits, separated by white space or not;
'#' starts a comment to the end of the line; "@N" (decimal, or 0x...)
pads with zero bytes up to offset N of the file, "@N ff" with that byte
(it is an error if the file is already past N: the offsets written in the
comments are thereby checked).
"""
import os
import shutil
import sys


def convert(text, name="<hex>"):
    out = bytearray()
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("@"):
            parts = line[1:].split()
            to = int(parts[0], 0)
            fill = int(parts[1], 16) if len(parts) > 1 else 0
            if len(out) > to:
                raise SystemExit("%s:%d: already at offset %d, past @%d" % (name, lineno, len(out), to))
            out.extend(bytes([fill]) * (to - len(out)))
            continue
        digits = "".join(line.split())
        if len(digits) % 2 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise SystemExit("%s:%d: not pairs of hex digits: %r" % (name, lineno, line))
        out.extend(bytes.fromhex(digits))
    return bytes(out)


def convert_dir(src, dst):
    for dirpath, _, files in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        for f in files:
            if f.endswith(".md") or "expect" in f or f == "README":
                continue
            os.makedirs(os.path.join(dst, rel), exist_ok=True)
            s = os.path.join(dirpath, f)
            if f.endswith(".hex"):
                with open(s) as fh:
                    data = convert(fh.read(), s)
                with open(os.path.join(dst, rel, f[:-4]), "wb") as fh:
                    fh.write(data)
            else:
                shutil.copy(s, os.path.join(dst, rel, f))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    if os.path.isdir(argv[1]):
        convert_dir(argv[1], argv[2])
    else:
        with open(argv[1]) as fh:
            data = convert(fh.read(), argv[1])
        with open(argv[2], "wb") as fh:
            fh.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
