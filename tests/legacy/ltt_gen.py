#!/usr/bin/env python3
"""ltt_gen.py - an independent writer of pre-CTF LTTng traces (issue 19).

Written from the seeds' text (shared/seeds/000_*: the LTTV format, trace
versions 0.4/0.7; 002_*: the compact format, 2.1/2.3) and the layouts and
DECISIONs of docs/legacy-formats.md only; it shares no code with the C
readers (src/legacy/), so that the two can be checked against each other.

    ltt_gen.py OUTDIR [NAME...]      every scenario (or those named)
    ltt_gen.py --list

For each scenario NAME it writes OUTDIR/NAME/ (the trace directory),
OUTDIR/NAME.expect.jsonl (the events a reader must give, one JSON object
per line) and OUTDIR/NAME.meta.json (the trace parameters, and for damaged
traces the error a reader must report).

Listing lines: {"file": path in the trace, "cpu": N, "event": class name
("facility.event" or the marker's name), "tsc": the 64-bit TSC, "ns": the
doc's exact formula (1.7, 2.4), "fields": {...}} plus "lost_before" when
the tracer lost events just before (2.3 counters). Files in sorted path
order, events in time order within a file (blocks sorted by begin TSC).
Field values: integers (pointers too) as numbers, floats as numbers (the
value the bytes hold), strings as strings, arrays and sequences as lists,
structs as objects, enums as {"value": v, "label": l or null}, unions with
a selector as {"code": c, MEMBER: value}, unions without one as an object
of every member decoded from the same bytes.
"""
import json
import os
import struct
import sys

MAGIC = 0x00D6B7ED

# ---------------------------------------------------------------- types


def I(size, signed=False, network=False):
    """An integer; size 1/2/4/8 or 'int'/'long'/'pointer'/'size_t'."""
    return {"k": "int", "size": size, "signed": signed, "network": network}


def F(size):
    return {"k": "float", "size": size}


STRING = {"k": "string"}
PAD4 = {"k": "pad4"}  # not a field: padding to 4 (facility_load in aligned genevent traces)


def ENUM(size, labels):
    """labels: [(name, value)]."""
    return {"k": "enum", "size": size, "labels": labels}


def ARRAY(n, elem):
    return {"k": "array", "len": n, "elem": elem}


def SEQ(ltype, elem):
    return {"k": "seq", "ltype": ltype, "elem": elem}


def STRUCT(*fields):
    return {"k": "struct", "fields": list(fields)}


def UNION(code, *fields):
    """code: the selector's size in bytes, 0 for none (a C union)."""
    return {"k": "union", "code": code, "fields": list(fields)}


def REF(name, target):
    return {"k": "ref", "name": name, "target": target}


class Abi:
    def __init__(self, int_size=4, long_size=4, pointer_size=4, size_t_size=4, align=0, be=False, float_be=None):
        self.sizes = {"int": int_size, "long": long_size, "pointer": pointer_size, "size_t": size_t_size}
        self.align = align
        self.be = be
        self.float_be = be if float_be is None else float_be

    def size(self, s):
        return self.sizes[s] if isinstance(s, str) else s


def pad(off, a):
    return (-off) % a if a > 1 else 0


def talign(t, abi):
    """The alignment of a type (docs/legacy-formats.md 1.3, 2.5); 1 when packed."""
    k = t["k"]
    if not abi.align or k == "pad4":
        return 1
    if k in ("int", "enum", "float"):
        return min(abi.align, abi.size(t["size"]))
    if k == "string":
        return 1
    if k == "array":
        return talign(t["elem"], abi)
    if k == "seq":
        return max(talign(t["ltype"], abi), talign(t["elem"], abi))
    if k == "ref":
        return talign(t["target"], abi)
    a = 1
    if k == "union" and t["code"]:
        a = min(abi.align, t["code"])
    for _, ft in t["fields"]:
        a = max(a, talign(ft, abi))
    return a


def int_bytes(v, size, be, signed):
    lo = -(1 << (size * 8 - 1)) if signed else 0
    hi = (1 << (size * 8 - 1)) - 1 if signed else (1 << (size * 8)) - 1
    if not lo <= v <= hi:
        raise ValueError("%d does not fit %d bytes" % (v, size))
    return (v & ((1 << (size * 8)) - 1)).to_bytes(size, "big" if be else "little")


def fixed_size(t, abi):
    """The size of a fixed-size type (union members), else None."""
    k = t["k"]
    if k in ("int", "enum", "float"):
        return abi.size(t["size"])
    if k == "array":
        s = fixed_size(t["elem"], abi)
        return None if s is None else s * t["len"]
    if k == "ref":
        return fixed_size(t["target"], abi)
    if k == "struct":
        off = 0
        for _, ft in t["fields"]:
            s = fixed_size(ft, abi)
            if s is None:
                return None
            off += pad(off, talign(ft, abi)) + s
        return off
    return None


def encode(t, v, buf, base, abi):
    """Appends value v of type t to buf, which starts base bytes into the block.
    Returns the listing value of what was written."""

    def align_to(a):
        buf.extend(b"\0" * pad(base + len(buf), a))

    k = t["k"]
    if k == "pad4":  # the genevent padding of 1.4's DECISION (facility_load)
        align_to(4)
        return None
    align_to(talign(t, abi))
    if k == "int":
        s = abi.size(t["size"])
        buf.extend(int_bytes(v, s, abi.be or t["network"], t["signed"]))
        return v
    if k == "enum":
        buf.extend(int_bytes(v, abi.size(t["size"]), abi.be, False))
        label = None
        for n, lv in t["labels"]:
            if lv == v:
                label = n
                break
        return {"value": v, "label": label}
    if k == "float":
        fmt = (">" if abi.float_be else "<") + ("f" if t["size"] == 4 else "d")
        b = struct.pack(fmt, v)
        buf.extend(b)
        return struct.unpack(fmt, b)[0]
    if k == "string":
        buf.extend(v.encode() + b"\0")
        return v
    if k == "array":
        assert len(v) == t["len"]
        return [encode(t["elem"], e, buf, base, abi) for e in v]
    if k == "seq":
        encode(t["ltype"], len(v), buf, base, abi)
        return [encode(t["elem"], e, buf, base, abi) for e in v]
    if k == "ref":
        return encode(t["target"], v, buf, base, abi)
    if k == "struct":
        out = {}
        for n, ft in t["fields"]:
            r = encode(ft, v.get(n), buf, base, abi)
            if ft["k"] != "pad4":
                out[n] = r
        return out
    if k == "union" and t["code"]:
        code, val = v
        buf.extend(int_bytes(code, t["code"], abi.be, False))
        name, ft = t["fields"][code]
        return {"code": code, name: encode(ft, val, buf, base, abi)}
    # a C union: v = (member name, value); every member read from the same bytes
    name, val = v
    size = max(fixed_size(ft, abi) for _, ft in t["fields"])
    start = len(buf)
    ft = dict(t["fields"])[name]
    encode(ft, val, buf, base, abi)
    buf.extend(b"\0" * (start + size - len(buf)))
    mem = bytes(buf[start:])
    return {n: decode_fixed(ft, mem, base + start, abi)[0] for n, ft in t["fields"]}


def decode_fixed(t, b, base, abi, off=0):
    """Decodes a fixed-size type from bytes b (which start at block offset base)."""
    off += pad(base + off, talign(t, abi))
    k = t["k"]
    if k in ("int", "enum"):
        s = abi.size(t["size"])
        be = abi.be or (k == "int" and t["network"])
        v = int.from_bytes(b[off:off + s], "big" if be else "little")
        if k == "int" and t["signed"] and v >= 1 << (s * 8 - 1):
            v -= 1 << (s * 8)
        if k == "enum":
            label = next((n for n, lv in t["labels"] if lv == v), None)
            return {"value": v, "label": label}, off + s
        return v, off + s
    if k == "float":
        fmt = (">" if abi.float_be else "<") + ("f" if t["size"] == 4 else "d")
        return struct.unpack_from(fmt, b, off)[0], off + t["size"]
    if k == "array":
        out = []
        for _ in range(t["len"]):
            e, off = decode_fixed(t["elem"], b, base, abi, off)
            out.append(e)
        return out, off
    if k == "ref":
        return decode_fixed(t["target"], b, base, abi, off)
    if k == "struct":
        out = {}
        for n, ft in t["fields"]:
            out[n], off = decode_fixed(ft, b, base, abi, off)
        return out, off
    raise ValueError("not a fixed-size type: " + k)


# ---------------------------------------------------------------- facility XML


def xml_seed(fac):
    """The seed 000 grammar: unquoted attribute values, an event holds one
    type (a struct), unions have a typecodesize selector, enums text labels
    valued 0, 1, ...; named types after the events (forward references)."""
    out = ["<facility name=%s>" % fac["name"], "<description>%s</description>" % fac["desc"]]

    def ty(t, ind):
        k = t["k"]
        sp = " " * ind
        if k == "int":
            assert not t["network"] and isinstance(t["size"], int), "not in the seed grammar"
            out.append('%s<%s size=%d/>' % (sp, "int" if t["signed"] else "uint", t["size"]))
        elif k == "float":
            out.append("%s<float size=%d/>" % (sp, t["size"]))
        elif k == "string":
            out.append("%s<string/>" % sp)
        elif k == "enum":
            assert [v for _, v in t["labels"]] == list(range(len(t["labels"])))
            out.append("%s<enum size=%d>%s</enum>" % (sp, t["size"], " ".join(n for n, _ in t["labels"])))
        elif k == "array":
            out.append("%s<array size=%d>" % (sp, t["len"]))
            ty(t["elem"], ind + 1)
            out.append("%s</array>" % sp)
        elif k == "seq":
            lt = t["ltype"]
            assert lt["k"] == "int" and not lt["signed"]
            out.append("%s<sequence lengthsize=%d>" % (sp, lt["size"]))
            ty(t["elem"], ind + 1)
            out.append("%s</sequence>" % sp)
        elif k == "ref":
            out.append("%s<typeref name=%s/>" % (sp, t["name"]))
        elif k in ("struct", "union"):
            if k == "union":
                assert t["code"], "the seed grammar's unions have a selector"
                out.append("%s<union typecodesize=%d>" % (sp, t["code"]))
            else:
                out.append("%s<struct>" % sp)
            for n, ft in t["fields"]:
                out.append("%s <field name=%s>" % (sp, n))
                out.append("%s  <description>field %s</description>" % (sp, n))
                ty(ft, ind + 2)
                out.append("%s </field>" % sp)
            out.append("%s</%s>" % (sp, k))

    for name, fields in fac["events"]:
        out.append("<event name=%s>" % name)
        out.append("<description>event %s</description>" % name)
        ty(STRUCT(*fields), 1)
        out.append("</event>")
    for name, t in fac["types"]:
        out.append("<type name=%s>" % name)
        ty(t, 1)
        out.append("</type>")
    out.append("</facility>")
    return "\n".join(out) + "\n"


def xml_genevent(fac):
    """The genevent grammar: quoted values, fields directly in the event,
    sized types by name, enums of <label name value>, sequences of two
    types, unions without selector, byte_order="network"; named types first."""
    out = ['<?xml version="1.0"?>', '<facility name="%s">' % fac["name"],
           "  <description>%s</description>" % fac["desc"]]

    def ty(t, ind):
        k = t["k"]
        sp = " " * ind
        if k == "int":
            s = t["size"]
            net = ' byte_order="network"' if t["network"] else ""
            names = {"long": "long", "pointer": "pointer", "size_t": "size_t"}
            if isinstance(s, str) and s in names:
                n = names[s]
                if s == "long" and not t["signed"]:
                    n = "ulong"
                if s == "size_t" and t["signed"]:
                    n = "ssize_t"
                out.append('%s<%s%s/>' % (sp, n, net))
            elif s == "int":
                out.append('%s<%s%s/>' % (sp, "int" if t["signed"] else "uint", net))
            elif s == 1 and not net:
                out.append("%s<%s/>" % (sp, "char" if t["signed"] else "uchar"))
            elif s == 2 and not net:
                out.append("%s<%s/>" % (sp, "short" if t["signed"] else "ushort"))
            else:
                out.append('%s<%s size="%d"%s/>' % (sp, "int_fixed" if t["signed"] else "uint_fixed", s, net))
        elif k == "float":
            out.append('%s<float size="%d"/>' % (sp, t["size"]))
        elif k == "string":
            out.append("%s<string/>" % sp)
        elif k == "enum":
            assert t["size"] == "int"
            out.append("%s<enum>" % sp)
            prev = -1
            for n, v in t["labels"]:
                if v == prev + 1:  # implicit value: previous + 1
                    out.append('%s  <label name="%s"/>' % (sp, n))
                else:
                    out.append('%s  <label name="%s" value="%d"/>' % (sp, n, v))
                prev = v
            out.append("%s</enum>" % sp)
        elif k == "array":
            out.append('%s<array size="%d">' % (sp, t["len"]))
            ty(t["elem"], ind + 2)
            out.append("%s</array>" % sp)
        elif k == "seq":
            out.append("%s<sequence>" % sp)
            ty(t["ltype"], ind + 2)
            ty(t["elem"], ind + 2)
            out.append("%s</sequence>" % sp)
        elif k == "ref":
            out.append('%s<typeref name="%s"/>' % (sp, t["name"]))
        elif k in ("struct", "union"):
            assert k == "struct" or not t["code"], "genevent unions have no selector"
            out.append("%s<%s>" % (sp, k))
            for n, ft in t["fields"]:
                out.append('%s  <field name="%s">' % (sp, n))
                ty(ft, ind + 4)
                out.append("%s  </field>" % sp)
            out.append("%s</%s>" % (sp, k))

    for name, t in fac["types"]:
        out.append('  <type name="%s">' % name)
        ty(t, 4)
        out.append("  </type>")
    for name, fields in fac["events"]:
        out.append('  <event name="%s">' % name)
        out.append("    <description>event %s</description>" % name)
        for n, ft in fields:
            out.append('    <field name="%s">' % n)
            ty(ft, 6)
            out.append("    </field>")
        out.append("  </event>")
    out.append("</facility>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- time


def ns_of(tsc, p, v2):
    """docs/legacy-formats.md 1.7 / 2.4, exact integer arithmetic."""
    scale = p.get("scale", 1) or 1
    k = (10**9 if v2 else 10**6) * scale
    base = p["sec"] * 10**9 + p["usec"] * 1000
    if tsc >= p["tsc"]:
        return base + (tsc - p["tsc"]) * k // p["freq"]
    return base - (p["tsc"] - tsc) * k // p["freq"]


# ---------------------------------------------------------------- blocks


class Ev:
    """One event to write: its class, TSC, header ids and payload type/values."""

    def __init__(self, name, tsc, t, values, abi, ids, size_field=False, force_tsc=False):
        self.name, self.tsc, self.t, self.values, self.abi = name, tsc, t, values, abi
        self.ids = ids  # v0: (facility_id, event_id); v2: event id
        self.size_field = size_field
        self.force_tsc = force_tsc
        self.listed = None
        self.offset = None


class FileWriter:
    """Cuts one tracefile's events into blocks (sub-buffers) and writes them."""

    def __init__(self, tr, path):
        self.tr, self.path = tr, path
        self.blocks = []  # [bytearray, begin_tsc, end_tsc, [events]]

    def header_size(self):
        tr = self.tr
        if tr.v2:
            return 68 if tr.minor == 3 else 60
        return 111 if tr.minor == 4 else 106

    def place(self, blk, pos, ev, last_tsc):
        """Bytes of event ev at block offset pos: (header start, bytes, payload) or None."""
        tr = self.tr
        A = tr.align
        b = bytearray()
        if tr.v2:
            hstart = pos + pad(pos, min(A, 4) if A else 1)
            eid = ev.ids
            need_tsc = ev.force_tsc or ((ev.tsc - last_tsc) >> 27) != 0
            # payload first (its size may go in the header)
            hdr_len = 4
            if need_tsc:
                hdr_len = None  # depends on the size field and the u64's padding
            pl = None
            for _ in range(2):
                if need_tsc:
                    esc = 29
                elif ev.size_field:
                    esc = 30
                elif eid >= 29:
                    esc = 31
                else:
                    esc = eid
                h = bytearray()
                h += int_bytes((esc << 27) | (ev.tsc & 0x07FFFFFF), 4, tr.be, False)
                if esc >= 29:
                    h += int_bytes(eid, 2, tr.be, False)
                if esc in (29, 30):
                    size = 0 if pl is None else len(pl)
                    if size >= 0xFFFF:
                        h += int_bytes(0xFFFF, 2, tr.be, False) + int_bytes(size, 4, tr.be, False)
                    else:
                        h += int_bytes(size, 2, tr.be, False)
                if esc == 29:
                    h += b"\0" * pad(hstart + len(h), min(A, 8) if A else 1)
                    h += int_bytes(ev.tsc, 8, tr.be, False)
                pstart = hstart + len(h)
                pstart += pad(pstart, talign(ev.t, ev.abi))
                npl = bytearray()
                listed = encode(ev.t, ev.values, npl, pstart, ev.abi)
                if pl is not None and len(npl) == len(pl):
                    break
                pl = npl
            b += h
        else:
            hb = tr.hb
            hlen = 8 if hb else 12
            hstart = pos + pad(pos, A if A else 1)
            pstart = hstart + hlen
            pstart += pad(pstart, A if A else 1)
            pl = bytearray()
            listed = encode(ev.t, ev.values, pl, pstart, ev.abi)
            fid, eid = ev.ids
            size = ev.size_override if hasattr(ev, "size_override") else min(len(pl), 0xFFFF)
            b += int_bytes(ev.tsc & 0xFFFFFFFF, 4, tr.be, False) if hb else int_bytes(ev.tsc, 8, tr.be, False)
            b += bytes([fid, eid]) + int_bytes(size, 2, tr.be, False)
        gap = pstart - hstart - len(b)
        return hstart, bytes(b) + b"\0" * gap + bytes(pl), listed

    def build(self, events):
        tr = self.tr
        bs = tr.buf_size
        cur = None
        pos = 0
        last = 0
        for ev in events:
            for attempt in range(2):
                if cur is None:
                    cur = [bytearray(self.header_size()), ev.tsc - tr.block_lead, None, []]
                    self.blocks.append(cur)
                    pos = len(cur[0])
                    last = cur[1]
                hstart, data, listed = self.place(cur, pos, ev, last)
                if hstart + len(data) <= bs:
                    break
                if attempt or not cur[3]:
                    raise ValueError("event %s does not fit a block of %d" % (ev.name, bs))
                cur[2] = cur[3][-1].tsc + tr.block_tail
                cur = None
            cur[0].extend(b"\0" * (hstart - len(cur[0])))
            ev.offset_in_block = hstart
            ev.block_index = len(self.blocks) - 1
            cur[0].extend(data)
            ev.listed = listed
            cur[3].append(ev)
            pos = len(cur[0])
            last = ev.tsc
        if cur is not None:
            cur[2] = cur[3][-1].tsc + tr.block_tail

    def write(self, root, unclosed_last=False, ring_rotate=0, events_lost=None, subbuf_corrupt=None):
        tr = self.tr
        out = []
        n = len(self.blocks)
        for i, (data, begin, end, evs) in enumerate(self.blocks):
            used = len(data)
            unclosed = unclosed_last and i == n - 1
            if unclosed:
                blk = data + b"\xff" * (tr.buf_size - used)
                lost = 0xFFFFFFFF
                end = 0
            else:
                blk = data + b"\0" * (tr.buf_size - used)
                lost = tr.buf_size - used
            lost = getattr(self, "lost_override", {}).get(i, lost)
            hdr = tr.block_header(begin, end, lost,
                                  (events_lost or {}).get(i, 0), (subbuf_corrupt or {}).get(i, 0))
            blk[:len(hdr)] = hdr
            out.append(blk)
        # ring order: the file holds time-order blocks k.. then ..k-1
        order = list(range(n))
        if ring_rotate:
            order = order[ring_rotate:] + order[:ring_rotate]
        self.file_pos = {}
        for fpos, i in enumerate(order):
            self.file_pos[i] = fpos
        full = os.path.join(root, self.path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            for i in order:
                f.write(out[i])
        for i, (_, _, _, evs) in enumerate(self.blocks):
            for ev in evs:
                ev.offset = self.file_pos[i] * tr.buf_size + ev.offset_in_block


class Trace:
    """Common parameters; subclasses write the headers and the descriptions."""

    block_lead = 5  # a block begins this many cycles before its first event
    block_tail = 3  # and ends this many after its last

    def __init__(self, spec):
        self.spec = spec
        self.minor = spec["minor"]
        self.be = spec.get("be", False)
        self.align = spec.get("align", 0)
        self.arch_size = spec.get("arch_size", 4)
        self.buf_size = spec.get("buf_size", 4096)
        self.start = spec["start"]
        self.files = {}

    def ns(self, tsc):
        return ns_of(tsc, self.start, self.v2)

    def listing(self):
        lines = []
        for path in sorted(self.files):
            fw = self.files[path]
            cpu = int(path.rsplit("_", 1)[1])
            blocks = sorted(fw.blocks, key=lambda b: b[1])
            for blk in blocks:
                for ev in blk[3]:
                    d = {"file": path, "cpu": cpu, "event": ev.name, "tsc": ev.tsc, "ns": self.ns(ev.tsc),
                         "offset": ev.offset, "fields": ev.listed}
                    if getattr(ev, "lost_before", 0):
                        d["lost_before"] = ev.lost_before
                    lines.append(d)
        return lines


# ---------------------------------------------------------------- LTTV format (0.4, 0.7)

CORE_LOAD_04 = [("name", STRING), ("checksum", I(4)), ("id", I(4)), ("long_size", I(4)),
                ("pointer_size", I(4)), ("size_t_size", I(4)), ("alignment", I(4))]
CORE_LOAD_07 = [("name", STRING), ("checksum", I(4)), ("id", I(4)), ("int_size", I(4)), ("long_size", I(4)),
                ("pointer_size", I(4)), ("size_t_size", I(4)), ("has_alignment", I(4))]
CORE_HB_04 = [("seconds", I(4)), ("nanoseconds", I(4)), ("cycle_count", I(8))]


class TraceV0(Trace):
    v2 = False

    def __init__(self, spec):
        super().__init__(spec)
        self.hb = spec.get("hb", True)
        self.fwo = spec.get("fwo", 0)
        self.flight = spec.get("flight", False)
        # the core facility's payloads: packed u32s after the name (LTTV reads them so)
        self.core_abi = Abi(align=0, be=self.be)

    def block_header(self, begin, end, lost, _el, _sc):
        e = ">" if self.be else "<"
        s = self.start
        if self.minor == 4:
            def tv(tsc):
                ns = self.ns(tsc) if tsc else 0
                return struct.pack(e + "IIQQ", ns // 10**9 & 0xFFFFFFFF, ns % 10**9 // 1000, tsc, s["freq"])
            h = tv(begin) + tv(end) + struct.pack(e + "II", lost, self.buf_size)
            h += struct.pack(e + "IIIIBBBBBBBQQQII", MAGIC, self.spec.get("arch_type", 8), 0, self.fwo,
                             self.arch_size, 0, 4, int(self.flight), int(self.hb), self.align, 1,
                             s["freq"], s["tsc"], 0, s["sec"], s["usec"])
            assert len(h) == 111
        else:
            h = struct.pack(e + "QQQQII", begin, s["freq"], end, s["freq"], lost, self.buf_size)
            h += struct.pack(e + "IIIIBBBBBBIQQQQQ", MAGIC, self.spec.get("arch_type", 8), 0, self.fwo,
                             self.arch_size, 0, 7, int(self.flight), int(self.hb), self.align,
                             s.get("scale", 1), s["freq"], s["tsc"], 0, s["sec"], s["usec"])
            assert len(h) == 106
        return h

    def core_load(self, fac, state_dump=False):
        name = "core.state_dump_facility_load" if state_dump else "core.facility_load"
        a = fac["abi"]
        v = {"name": fac["name"], "checksum": fac.get("checksum", 0), "id": fac["id"],
             "int_size": a.sizes["int"], "long_size": a.sizes["long"], "pointer_size": a.sizes["pointer"],
             "size_t_size": a.sizes["size_t"], "alignment": self.align, "has_alignment": self.align}
        fields = CORE_LOAD_04 if self.minor == 4 else CORE_LOAD_07
        if self.spec.get("load_pad4"):  # the genevent padding of 1.4's DECISION
            fields = [fields[0], ("_pad", PAD4)] + fields[1:]
            v["_pad"] = None
        return STRUCT(*fields), v, (0, 3 if state_dump else 0), name

    def heartbeat(self, tsc):
        if self.minor == 4:
            ns = self.ns(tsc)
            return Ev("core.time_heartbeat", tsc, STRUCT(*CORE_HB_04),
                      {"seconds": ns // 10**9, "nanoseconds": ns % 10**9, "cycle_count": tsc}, self.core_abi, (0, 2))
        return Ev("core.time_heartbeat", tsc, STRUCT(), {}, self.core_abi, (0, 2))

    def write(self, root):
        spec = self.spec
        facs = {f["name"]: f for f in spec["facilities"]}
        os.makedirs(os.path.join(root, "eventdefs"), exist_ok=True)
        os.makedirs(os.path.join(root, "control"), exist_ok=True)
        byfile = {}
        for f in spec["facilities"]:
            f["abi"].align = self.align
            f["abi"].be = self.be
            f["abi"].float_be = {0: self.be, 1234: False, 4321: True}[self.fwo]
            f["evmap"] = {n: (i, STRUCT(*fl)) for i, (n, fl) in enumerate(f["events"])}
            xml = (xml_seed if f["grammar"] == "seed" else xml_genevent)(f)
            with open(os.path.join(root, "eventdefs", f.get("xmlfile", f["name"] + ".xml")), "a") as fh:
                fh.write(xml)
        # facility loads: facilities_0 unless the facility says otherwise
        s = self.start
        for k, f in enumerate(spec["facilities"]):
            if f.get("no_load"):
                continue
            t, v, ids, name = self.core_load(f, f.get("state_dump", False))
            t_ = s["tsc"] + 10 + k
            byfile.setdefault(f.get("load_in", "control/facilities_0"), []).append(
                Ev(name, t_, t, v, self.core_abi, ids))
            if f.get("reload_in"):  # a second load of a set slot: listed, changes nothing (1.5)
                t, v, ids, name = self.core_load(f)
                byfile.setdefault(f["reload_in"], []).append(Ev(name, t_ + 100, t, v, self.core_abi, ids))
            if f.get("unload_at"):  # facility_unload: u32 id, ignored by readers
                byfile.setdefault("control/facilities_0", []).append(
                    Ev("core.facility_unload", f["unload_at"], STRUCT(("id", I(4))), {"id": f["id"]},
                       self.core_abi, (0, 1)))
        for path, evs in spec["files"].items():
            for e in evs:
                tsc, cls, vals = e[0], e[1], e[2]
                opts = e[3] if len(e) > 3 else {}
                if cls == "core.heartbeat":
                    byfile.setdefault(path, []).append(self.heartbeat(tsc))
                    continue
                fname, ename = cls.split(".", 1)
                f = facs[fname]
                eid, t = f["evmap"][ename]
                ev = Ev(cls, tsc, t, vals, f["abi"], (opts.get("facility_id", f["id"]), opts.get("event_id", eid)))
                if "size" in opts:
                    ev.size_override = opts["size"]
                byfile.setdefault(path, []).append(ev)
        for path, evs in byfile.items():
            evs.sort(key=lambda e: e.tsc)
            if self.hb:  # a heartbeat whenever 32 bits could not tell the gap
                out = []
                prev = None
                for e in evs:
                    while prev is not None and e.tsc - prev >= 1 << 32:
                        prev += 0xF0000000
                        out.append(self.heartbeat(prev))
                    out.append(e)
                    prev = e.tsc
                evs = out
            fw = FileWriter(self, path)
            fw.build(evs)
            self.files[path] = fw
        for path, fw in self.files.items():
            o = spec.get("file_opts", {}).get(path, {})
            fw.lost_override = o.get("lost_override", {})
            fw.write(root, unclosed_last=o.get("unclosed_last", False), ring_rotate=o.get("ring_rotate", 0))
        # the TSC extension of 1.7 must give back what was written
        for fw in self.files.values():
            for data, begin, end, evs in fw.blocks:
                cur = begin
                for ev in evs:
                    if self.hb:
                        t = ev.tsc & 0xFFFFFFFF
                        cur = (((cur >> 32) + 1) << 32 | t) if t < (cur & 0xFFFFFFFF) else ((cur >> 32) << 32 | t)
                    else:
                        cur = ev.tsc
                    assert cur == ev.tsc, (fw.path, ev.name, ev.tsc, cur)


# ---------------------------------------------------------------- compact format (2.1, 2.3)

ID_EVENT_21 = [("name", STRING), ("event_id", I(2)), ("int_size", I(1)), ("long_size", I(1)),
               ("pointer_size", I(1)), ("size_t_size", I(1)), ("alignment", I(1))]
FORMAT_EVENT_21 = [("name", STRING), ("format", STRING)]


class TraceV2(Trace):
    v2 = True

    def block_header(self, begin, end, lost, events_lost, subbuf_corrupt):
        e = ">" if self.be else "<"
        s = self.start
        h = struct.pack(e + "QQIBBBBQQQIII", begin, end, MAGIC, 2, self.minor, self.arch_size, self.align,
                        s["sec"], s["usec"], s["freq"], s.get("scale", 1), lost, self.buf_size)
        if self.minor == 3:
            h += struct.pack(e + "II", events_lost, subbuf_corrupt)
        return h

    def write(self, root):
        spec = self.spec
        # markers: {(channel, name): {"id", "fields", "abi", "format"}}
        mk = {}
        for m in spec["markers"]:
            a = m.get("abi") or Abi()
            a.align, a.be, a.float_be = self.align, self.be, self.be
            m["abi"] = a
            mk[(m.get("channel", ""), m["name"])] = m
        core = Abi(align=self.align, be=self.be)
        meta = []
        s = self.start
        # the trace's start TSC is metadata_0's first cycle_count_begin (2.2)
        t = s["tsc"] + self.block_lead
        for m in spec["markers"]:
            pre = [("channel", STRING)] if self.minor == 3 else []
            a = m["abi"]
            idv = {"channel": m.get("channel", ""), "name": m["name"], "event_id": m["id"],
                   "int_size": a.sizes["int"], "long_size": a.sizes["long"], "pointer_size": a.sizes["pointer"],
                   "size_t_size": a.sizes["size_t"], "alignment": self.align}
            fmv = {"channel": m.get("channel", ""), "name": m["name"], "format": m["format"]}
            if self.minor != 3:
                del idv["channel"], fmv["channel"]
            e_id = Ev("core_marker_id", t, STRUCT(*(pre + ID_EVENT_21)), idv, core, 0)
            e_fmt = Ev("core_marker_format", t + 1, STRUCT(*(pre + FORMAT_EVENT_21)), fmv, core, 1)
            if m.get("format_first"):
                e_id.tsc, e_fmt.tsc = e_fmt.tsc, e_id.tsc
            meta += [e_id, e_fmt]
            t += 2
        byfile = {spec.get("metadata_path", "metadata_0"): meta}
        for path, evs in spec["files"].items():
            ch = path.rsplit("/", 1)[-1].rsplit("_", 1)[0]
            if ch.startswith("flight-"):
                ch = ch[len("flight-"):]
            for e in evs:
                tsc, name, vals = e[0], e[1], e[2]
                opts = e[3] if len(e) > 3 else {}
                m = mk[(ch if self.minor == 3 else "", name)]
                t_ = STRUCT(*m["fields"])
                ev = Ev(name, tsc, t_, vals, m["abi"], opts.get("id", m["id"]),
                        size_field=opts.get("size_field", spec.get("size_field", False)),
                        force_tsc=opts.get("force_tsc", False))
                byfile.setdefault(path, []).append(ev)
        for path, evs in byfile.items():
            evs.sort(key=lambda e: e.tsc)
            fw = FileWriter(self, path)
            fw.build(evs)
            self.files[path] = fw
        for path, fw in self.files.items():
            o = spec.get("file_opts", {}).get(path, {})
            fw.lost_override = o.get("lost_override", {})
            el = o.get("events_lost", {})
            fw.write(root, unclosed_last=o.get("unclosed_last", False), ring_rotate=o.get("ring_rotate", 0),
                     events_lost=el, subbuf_corrupt=o.get("subbuf_corrupt", {}))
            prev = 0
            for i in range(len(fw.blocks)):
                if el.get(i, prev) != prev and fw.blocks[i][3]:
                    fw.blocks[i][3][0].lost_before = (el[i] - prev) & 0xFFFFFFFF
                prev = el.get(i, prev)
        # the TSC extension of 2.4 must give back what was written
        for fw in self.files.values():
            for data, begin, end, evs in fw.blocks:
                cur = begin
                for ev in evs:
                    if ev.force_tsc or ((ev.tsc - cur) >> 27) != 0:
                        cur = ev.tsc
                    else:
                        t = ev.tsc & 0x07FFFFFF
                        hi = cur & ~0x07FFFFFF
                        cur = ((hi + (1 << 27)) | t) if t < (cur & 0x07FFFFFF) else (hi | t)
                    assert cur == ev.tsc, (fw.path, ev.name, ev.tsc, cur)


# ---------------------------------------------------------------- facilities and markers used by the scenarios

ABI32 = dict(int_size=4, long_size=4, pointer_size=4, size_t_size=4)
ABI64 = dict(int_size=4, long_size=8, pointer_size=8, size_t_size=8)

PAIR = STRUCT(("a", I(2)), ("b", I(8, True)))


def seed_facility(fid, abi):
    """Every type of the seed 000 grammar."""
    return {
        "name": "seedfac", "id": fid, "grammar": "seed", "checksum": 0x5EED0001, "desc": "the seed grammar",
        "abi": Abi(**abi),
        "types": [("pair", PAIR)],
        "events": [
            ("ints", [("u1", I(1)), ("u2", I(2)), ("u4", I(4)), ("u8", I(8)),
                      ("s1", I(1, True)), ("s2", I(2, True)), ("s4", I(4, True)), ("s8", I(8, True))]),
            ("floats", [("f4", F(4)), ("f8", F(8)), ("tail", I(1))]),
            ("text", [("s", STRING), ("after", I(4)), ("empty", STRING), ("last", I(2))]),
            ("enums", [("e1", ENUM(1, [("ZERO", 0), ("ONE", 1), ("TWO", 2)])),
                       ("e4", ENUM(4, [("A", 0), ("B", 1)]))]),
            ("compound", [("arr", ARRAY(3, I(2))),
                          ("seq1", SEQ(I(1), I(4))),
                          ("seq2", SEQ(I(2), STRING)),
                          ("seq4", SEQ(I(4), I(1))),
                          ("seq8", SEQ(I(8), I(8, True))),
                          ("st", STRUCT(("x", I(1)), ("y", I(4)), ("inner", STRUCT(("z", I(2)), ("w", F(8)))))),
                          ("ref", REF("pair", PAIR)),
                          ("arrst", ARRAY(2, REF("pair", PAIR)))]),
            ("unions", [("u1", UNION(1, ("small", I(1)), ("big", I(8)), ("str", STRING))),
                        ("u2", UNION(2, ("num", I(4)), ("pair", REF("pair", PAIR)))),
                        ("u4", UNION(4, ("a", I(2)), ("b", ARRAY(2, I(4))))),
                        ("u8", UNION(8, ("only", I(1)))),
                        ("end", I(1))]),
            ("nofields", []),
        ],
    }


MODE = ENUM("int", [("user", 0), ("kernel", 1), ("irq", 5), ("nmi", 6)])
HDR = STRUCT(("p", I("pointer")), ("l", I("long", True)), ("z", I("size_t")))


def gen_facility(fid, abi, native_int=True):
    """Every type of the genevent grammar. native_int: the events that need
    the facility's int_size (0.7 loads carry it, 0.4 loads do not)."""
    ev = [
        ("abi", [("l", I("long", True)), ("ul", I("long")), ("p", I("pointer")), ("z", I("size_t")),
                 ("sz", I("size_t", True)), ("c", I(1, True)), ("uc", I(1)), ("sh", I(2, True)),
                 ("ush", I(2)), ("i8", I(8, True)), ("u1f", I(1))]),
        ("net", [("n4", I(4, network=True)), ("h4", I(4)), ("n2", I(2, network=True)),
                 ("n8", I(8, True, network=True))]),
        ("seqs", [("q1", SEQ(I(1), I(4))), ("q2", SEQ(I(2), STRING)), ("ql", SEQ(I("long"), I(2, True))),
                  ("qz", SEQ(I("size_t"), I("pointer"))), ("q8", SEQ(I(8), I(1))), ("q4", SEQ(I(4), PAIR))]),
        ("cunion", [("pre", I(1)), ("u", UNION(0, ("word", I(4)), ("bytes", ARRAY(4, I(1))),
                                            ("halves", ARRAY(2, I(2))))), ("post", I(2))]),
        ("empty", []),
        ("refs", [("h", REF("hdr", HDR)), ("hs", ARRAY(2, REF("hdr", HDR))), ("d", F(8)), ("f", F(4))]),
    ]
    if native_int:
        ev += [("native", [("i", I("int", True)), ("u", I("int")), ("m", REF("mode", MODE)),
                           ("m2", REF("mode", MODE)), ("s", STRING), ("after", I("long"))]),
               ("seqint", [("qi", SEQ(I("int"), I(2)))])]
    return {"name": "genfac", "id": fid, "grammar": "genevent", "checksum": 0x6E6E0002,
            "desc": "the genevent grammar", "abi": Abi(**abi), "types": [("hdr", HDR), ("mode", MODE)],
            "events": ev}


def values_for(cls, i, abi):
    """Deterministic values for event class cls, the i-th of its kind."""
    L = abi.sizes["long"] * 8
    P = abi.sizes["pointer"] * 8
    Z = abi.sizes["size_t"] * 8
    pair = {"a": 0xBEEF - i, "b": -(1 << 40) - i}
    hdr = {"p": (1 << (P - 1)) + 0x1234 + i, "l": -(1 << (L - 2)) - i, "z": (1 << Z) - 1 - i}
    v = {
        "seedfac.ints": {"u1": 0xFF - i, "u2": 0xFFFE, "u4": 0xDEADBEEF, "u8": 0xFEDCBA9876543210 + i,
                         "s1": -1 - i, "s2": -300, "s4": -70000 - i, "s8": -(1 << 62)},
        "seedfac.floats": {"f4": 1.5 + i, "f8": -2.25e100, "tail": 7},
        "seedfac.text": {"s": "hello %d" % i, "after": 0x01020304, "empty": "", "last": 0x0506},
        "seedfac.enums": {"e1": i % 3, "e4": 7},
        "seedfac.compound": {"arr": [1, 0x8000, 0xFFFF], "seq1": [10 + i, 20], "seq2": ["x", "", "yz"],
                             "seq4": [], "seq8": [-1, 1 << 40],
                             "st": {"x": 1, "y": 2, "inner": {"z": 3, "w": 0.5}}, "ref": pair,
                             "arrst": [pair, {"a": 1, "b": 2}]},
        "seedfac.unions": {"u1": [(0, 0x7F), (1, 1 << 63), (2, "sel")][i % 3], "u2": (1, pair),
                           "u4": (1, [0x11111111, 0x22222222]), "u8": (0, 9), "end": 0xEE},
        "seedfac.nofields": {},
        "genfac.abi": {"l": -(1 << (L - 1)), "ul": (1 << L) - 1 - i, "p": (1 << (P - 1)) | 0xABC,
                       "z": (1 << (Z - 1)) + i, "sz": -5, "c": -128, "uc": 255, "sh": -32768, "ush": 65535,
                       "i8": -(1 << 63), "u1f": i & 0xFF},
        "genfac.net": {"n4": 0x0A000001, "h4": 0x0A000001, "n2": 8080, "n8": -2},
        "genfac.seqs": {"q1": [i, i + 1, i + 2], "q2": ["ab", "c"], "ql": [-1, 2], "qz": [hdr["p"]],
                        "q8": [1], "q4": [pair]},
        "genfac.cunion": {"pre": 1, "u": [("word", 0x04030201 + i), ("bytes", [9, 8, 7, 6]),
                                          ("halves", [0x1122, 0x3344])][i % 3], "post": 0xABCD},
        "genfac.empty": {},
        "genfac.refs": {"h": hdr, "hs": [hdr, hdr], "d": 3.25, "f": -0.125},
        "genfac.native": {"i": -123456 - i, "u": 4000000000, "m": [0, 1, 5, 6][i % 4], "m2": 3, "s": "str",
                          "after": 77},
        "genfac.seqint": {"qi": [1, 2, 3][: i % 4]},
    }
    return v[cls]


def v0_events(facs, cpus, start_tsc, step, n_rounds, native=True):
    """Every event class of facs on each file, n_rounds times, step cycles apart."""
    files = {}
    t = start_tsc + 100
    for r in range(n_rounds):
        for f in facs:
            for name, _ in f["events"]:
                cls = f["name"] + "." + name
                if cls in ("genfac.native", "genfac.seqint") and not native:
                    continue
                for c, path in enumerate(cpus):
                    files.setdefault(path, []).append((t + c, cls, values_for(cls, r, f["abi"])))
                t += step
    return files


# marker format strings: (name, C conversion) -> the doc's table 2.5
CONV = {"c": (1, False), "d": ("int", True), "i": ("int", True), "u": ("int", False), "x": ("int", False),
        "X": ("int", False), "o": ("int", False)}
QUAL = {"": None, "h": 2, "l": "long", "ll": 8, "L": 8, "z": "size_t", "Z": "size_t", "t": "pointer"}


def marker(name, mid, items, abi=ABI32, channel="", format_first=False):
    """items: [(field, spec)], spec '%...' or '#...%...'; returns a marker
    with its format string and the field types per the doc's table."""
    fmt, fields = [], []
    for fname, spec in items:
        fmt.append("%s %s" % (fname, spec))
        net = False
        tsize = None
        if spec.startswith("#"):
            trace, c = spec[1:].split("%")
            if trace.startswith("n"):
                net, trace = True, trace[1:]
            conv = trace[-1]
            q = trace[:-1]
            tsize = int(q) if q.isdigit() else QUAL[q]
            signed = conv in "di"
            fields.append((fname, I(tsize, signed, net)))
            continue
        c = spec[1:]
        conv = c[-1]
        q = c[:-1]
        if conv == "s":
            fields.append((fname, STRING))
        elif conv == "p":
            fields.append((fname, I("pointer")))
        else:
            size, signed = CONV[conv]
            if QUAL[q] is not None:
                size = QUAL[q]
            fields.append((fname, I(size, signed)))
    return {"name": name, "id": mid, "format": " ".join(fmt), "fields": fields, "abi": Abi(**abi),
            "channel": channel, "format_first": format_first}


def marker_set(abi, channel=""):
    return [
        marker("m_ints", 2, [("c", "%c"), ("s", "%hd"), ("us", "%hu"), ("i", "%d"), ("u", "%u"), ("x", "%x"),
                             ("o", "%o"), ("l", "%ld"), ("ul", "%lu"), ("ll", "%lld"), ("ull", "%llu"),
                             ("z", "%zu"), ("zd", "%zd"), ("t", "%td"), ("p", "%p")], abi, channel),
        marker("m_str", 5, [("name", "%s"), ("after", "%u"), ("tail", "%s"), ("b", "%c"), ("ll", "%llx")],
               abi, channel, format_first=True),
        marker("m_trace_types", 28, [("small", "#1u%zu"), ("net", "#n4u%u"), ("big", "#8d%d"), ("neg", "#2d%d"),
                                     ("net8", "#n8u%llu")], abi, channel),
        marker("m_empty", 29, [], abi, channel),
        marker("m_esc", 30, [("v", "%u")], abi, channel, format_first=True),
        marker("m_esc31", 31, [("v", "%hu")], abi, channel),
        marker("m_wide", 1000, [("a", "%lld"), ("s", "%s")], abi, channel),
        marker("m_big", 40000, [("blob", "%s"), ("end", "%u")], abi, channel),
    ]


def marker_values(name, i, abi):
    L = abi.sizes["long"] * 8
    P = abi.sizes["pointer"] * 8
    Z = abi.sizes["size_t"] * 8
    return {
        "m_ints": {"c": 65 + i % 26, "s": -2 - i, "us": 60000, "i": -(1 << 31), "u": (1 << 32) - 1, "x": 0xCAFE,
                   "o": 8, "l": -(1 << (L - 1)) + i, "ul": (1 << L) - 1, "ll": -(1 << 63), "ull": (1 << 64) - 1,
                   "z": (1 << Z) - 2, "zd": -3, "t": -(1 << (P - 1)), "p": (1 << (P - 1)) + 0x10 * i},
        "m_str": {"name": "n%d" % i, "after": 0x11223344, "tail": "", "b": 0x7A, "ll": 0x0102030405060708},
        "m_trace_types": {"small": 200, "net": 0xC0A80001, "big": -(1 << 50), "neg": -2, "net8": 1 << 56},
        "m_empty": {},
        "m_esc": {"v": i},
        "m_esc31": {"v": 0xFFFF - i},
        "m_wide": {"a": 1 << 33, "s": "wide"},
        "m_big": {"blob": "B" * 70000, "end": 0xE0D},
        "net_rx": {"len": 1500 - i, "dev": "eth%d" % i, "proto": 0x0800},
        "net_tx": {"len": (1 << Z) - 1, "q": i},
    }[name]


def v2_events(markers, paths, start_tsc, gaps, skip=(), opts=None):
    """Each marker on each file, at TSC start + cumulative gaps (cycled)."""
    files = {p: [] for p in paths}
    t = start_tsc + 1000
    k = 0
    for r in range(3):
        for m in markers:
            if m["name"] in skip or (m["name"] == "m_big" and r):
                continue
            for path in paths:
                ch = path.rsplit("/", 1)[-1].rsplit("_", 1)[0].replace("flight-", "")
                if m["channel"] and m["channel"] != ch:
                    continue
                o = dict((opts or {}).get(m["name"], {}))
                files[path].append((t, m["name"], marker_values(m["name"], r, m["abi"]), o))
                t += gaps[k % len(gaps)]
                k += 1
    return files


# ---------------------------------------------------------------- scenarios


def scenarios():
    S = {}
    # 0.4, little-endian, packed, heartbeats; TSC low word wraps, gaps > 2^32 need heartbeats
    st = {"tsc": 0xFFFF0000, "freq": 2000000, "sec": 1100000000, "usec": 250000}
    facs = [seed_facility(1, ABI32), gen_facility(2, ABI32, native_int=False)]
    files = v0_events(facs, ["cpu_0", "cpu_2"], st["tsc"], 0x30000000, 2, native=False)
    last = max(e[0] for e in files["cpu_0"])
    files["cpu_0"].append((last + (5 << 32) + 7, "seedfac.ints", values_for("seedfac.ints", 9, facs[0]["abi"])))
    files["control/processes_0"] = [(st["tsc"] + 50, "seedfac.text", values_for("seedfac.text", 3, facs[0]["abi"]))]
    S["v04-le-packed-hb"] = ({"fmt": "v0", "minor": 4, "be": False, "align": 0, "hb": True, "arch_size": 4,
                              "buf_size": 1024, "fwo": 1234, "start": st, "facilities": facs, "files": files},
                             "0.4 LE packed, 32-bit event TSCs with wraps and heartbeats, both grammars, CPUs 0 and 2")
    # 0.4, big-endian integers, little-endian floats, aligned 4, 64-bit event TSCs
    st = {"tsc": 123456789, "freq": 1000000, "sec": 1100000001, "usec": 999999}
    facs = [seed_facility(1, ABI32), gen_facility(7, ABI32, native_int=False)]
    files = v0_events(facs, ["cpu_0"], st["tsc"], 1000003, 3, native=False)
    S["v04-be-aligned4-nohb"] = ({"fmt": "v0", "minor": 4, "be": True, "align": 4, "hb": False, "arch_size": 4,
                                  "buf_size": 2048, "fwo": 1234, "start": st, "facilities": facs, "files": files},
                                 "0.4 BE aligned 4, 64-bit event TSCs, floats little-endian (float_word_order 1234)")
    # 0.7, LE, aligned 8, 64-bit ABI, heartbeats, facility_load u32s padded to 4, a state-dump load
    st = {"tsc": (1 << 40) + 5, "freq": 2400000, "sec": 1150000000, "usec": 1, "scale": 1}
    facs = [seed_facility(3, ABI64), gen_facility(4, ABI64)]
    facs[1]["load_in"] = "control/facilities_1"
    facs[1]["state_dump"] = True
    facs[0]["reload_in"] = "control/facilities_1"
    files = v0_events(facs, ["cpu_0", "cpu_1"], st["tsc"], 0x7FFFFFFF, 2)
    facs[0]["unload_at"] = max(e[0] for e in files["cpu_0"]) + 1
    S["v07-le-aligned8-hb"] = ({"fmt": "v0", "minor": 7, "be": False, "align": 8, "hb": True, "arch_size": 8,
                                "buf_size": 2048, "fwo": 0, "load_pad4": True, "start": st, "facilities": facs,
                                "files": files},
                               "0.7 LE aligned 8, 64-bit ABI, heartbeats, padded facility_load, state-dump load")
    # 0.7, BE, packed, no heartbeat, freq_scale 3, events before start_tsc
    st = {"tsc": 10**12, "freq": 3000000, "sec": 1160000000, "usec": 500, "scale": 3}
    facs = [seed_facility(1, ABI32), gen_facility(2, ABI32)]
    facs[0]["xmlfile"] = facs[1]["xmlfile"] = "all.xml"
    files = v0_events(facs, ["cpu_0"], st["tsc"], 999, 2)
    files["cpu_0"].append((st["tsc"] - 77777, "seedfac.ints", values_for("seedfac.ints", 4, facs[0]["abi"])))
    S["v07-be-packed-nohb"] = ({"fmt": "v0", "minor": 7, "be": True, "align": 0, "hb": False, "arch_size": 4,
                                "buf_size": 4096, "fwo": 0, "start": st, "facilities": facs, "files": files},
                               "0.7 BE packed, 64-bit event TSCs, freq_scale 3, an event before start_tsc")
    # 0.7 flight recorder: BE aligned 4, cpu_0 written in ring order with its newest block unclosed
    st = {"tsc": 5000, "freq": 1000000, "sec": 1170000000, "usec": 0, "scale": 1}
    facs = [seed_facility(1, ABI32), gen_facility(2, ABI32)]
    files = v0_events(facs, ["cpu_0"], st["tsc"], 5000000000, 3)
    S["v07-be-aligned4-flight"] = ({"fmt": "v0", "minor": 7, "be": True, "align": 4, "hb": True, "arch_size": 4,
                                    "buf_size": 1024, "fwo": 0, "flight": True, "start": st, "facilities": facs,
                                    "files": files,
                                    "file_opts": {"cpu_0": {"ring_rotate": 2, "unclosed_last": True}}},
                                   "0.7 BE aligned 4 flight recorder: blocks in ring order, newest unclosed")
    # 2.1 LE packed: control/metadata_0, every escape, 0xFFFF size, 27-bit wraps
    st = {"tsc": 0x07FFFF00, "freq": 1000000000, "sec": 1220000000, "usec": 12345, "scale": 1}
    ms = marker_set(ABI32)
    files = v2_events(ms, ["cpu_0", "cpu_1"], st["tsc"], [0x100, 0x03FFFFFF, 7, 0x08000000, 0x07FFFFFF],
                      opts={"m_big": {"size_field": True}, "m_esc": {"size_field": True}})
    S["v21-le-packed"] = ({"fmt": "v2", "minor": 1, "be": False, "align": 0, "arch_size": 4, "buf_size": 1 << 17,
                           "start": st, "markers": ms, "files": files, "metadata_path": "control/metadata_0"},
                          "2.1 LE packed: ids 29/30/31, 0xFFFF size escape, 27-bit wraps, format before id")
    # 2.1 BE aligned 8, 64-bit ABI, size field on every event (tracer debug mode), small blocks
    st = {"tsc": 1 << 35, "freq": 2500000000, "sec": 1220000100, "usec": 999999, "scale": 1}
    ms = [m for m in marker_set(ABI64) if m["name"] != "m_big"]
    files = v2_events(ms, ["cpu_0", "flight-cpu_1"], st["tsc"], [3, 0x02000001, 0x10000000])
    S["v21-be-aligned8"] = ({"fmt": "v2", "minor": 1, "be": True, "align": 8, "arch_size": 8, "buf_size": 512,
                             "size_field": True, "start": st, "markers": ms, "files": files,
                             "metadata_path": "control/metadata_0",
                             "file_opts": {"flight-cpu_1": {"ring_rotate": 1, "unclosed_last": True}}},
                            "2.1 BE aligned 8, 64-bit ABI, a size field on every event, 512-byte blocks, "
                            "a flight-cpu_1 file in ring order with its newest block unclosed")
    # 2.3 LE aligned 4: metadata at the root, two channels with the same ids for different markers, lost counters
    st = {"tsc": 999, "freq": 1000000000, "sec": 1230000000, "usec": 7, "scale": 1}
    ms = [m for m in marker_set(ABI32, "cpu") if m["name"] != "m_big"]
    net = [marker("net_rx", 2, [("len", "%u"), ("dev", "%s"), ("proto", "#n2u%hu")], ABI32, "net"),
           marker("net_tx", 5, [("len", "%zu"), ("q", "%hu")], ABI32, "net", True)]
    files = v2_events(ms + net, ["cpu_0", "cpu_1", "net_0"], st["tsc"], [0x50, 0x07000000, 0x09000000])
    S["v23-le-aligned4"] = ({"fmt": "v2", "minor": 3, "be": False, "align": 4, "arch_size": 4, "buf_size": 512,
                             "start": st, "markers": ms + net, "files": files,
                             "file_opts": {"cpu_0": {"events_lost": {1: 5, 2: 5, 3: 12},
                                                     "subbuf_corrupt": {3: 1}}}},
                            "2.3 LE aligned 4, per-channel ids (cpu, net), events_lost/subbuf_corrupt counters")
    # 2.3 BE aligned 8 flight recorder: flight-cpu_0 in ring order, newest block unclosed
    st = {"tsc": 1 << 33, "freq": 800000000, "sec": 1230000500, "usec": 400000, "scale": 1}
    ms = [m for m in marker_set(ABI64, "cpu") if m["name"] != "m_big"]
    files = v2_events(ms, ["flight-cpu_0"], st["tsc"], [0x123, 0x00FFFFFF, 0x30000000])
    S["v23-be-aligned8-flight"] = ({"fmt": "v2", "minor": 3, "be": True, "align": 8, "arch_size": 8,
                                    "buf_size": 256, "start": st, "markers": ms, "files": files,
                                    "file_opts": {"flight-cpu_0": {"ring_rotate": 3, "unclosed_last": True,
                                                                   "events_lost": {2: 40}}}},
                                   "2.3 BE aligned 8 flight recorder: ring order, unclosed newest block")
    return S


def make(spec):
    return TraceV0(spec) if spec["fmt"] == "v0" else TraceV2(spec)


def write_scenario(out, name, spec, desc):
    root = os.path.join(out, name)
    if os.path.exists(root):
        import shutil
        shutil.rmtree(root)
    os.makedirs(root)
    tr = make(spec)
    tr.write(root)
    lines = tr.listing()
    meta = {"name": name, "description": desc, "format": spec["fmt"], "version": "%d.%d" % (
        2 if spec["fmt"] == "v2" else 0, spec["minor"]), "big_endian": spec.get("be", False),
        "alignment": spec.get("align", 0), "buf_size": tr.buf_size, "start": spec["start"],
        "events": len(lines), "errors": []}
    for path, o in spec.get("file_opts", {}).items():
        if o.get("unclosed_last"):
            fw = tr.files[path]
            last = len(fw.blocks) - 1
            meta["errors"].append({"kind": "unclosed block", "file": path,
                                   "offset": fw.file_pos[last] * tr.buf_size, "fatal": False,
                                   "note": "lost_size 0xFFFFFFFF, the rest of the block 0xFF: the reader stops "
                                           "at the first invalid header; every listed event is read"})
    return tr, root, lines, meta


def save(out, name, lines, meta):
    with open(os.path.join(out, name + ".expect.jsonl"), "w") as f:
        for d in lines:
            f.write(json.dumps(d, sort_keys=False) + "\n")
    with open(os.path.join(out, name + ".meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


# ---------------------------------------------------------------- damaged traces


def _file_events(lines, path):
    return [d for d in lines if d["file"] == path]


def _damage_v0_base(minor=7):
    st = {"tsc": 1 << 20, "freq": 1000000, "sec": 1180000000, "usec": 0, "scale": 1}
    facs = [seed_facility(1, ABI32), gen_facility(2, ABI32, native_int=(minor == 7))]
    files = v0_events(facs, ["cpu_0"], st["tsc"], 1000, 3, native=(minor == 7))
    return {"fmt": "v0", "minor": minor, "be": False, "align": 4, "hb": True, "arch_size": 4, "buf_size": 512,
            "fwo": 0, "start": st, "facilities": facs, "files": files}


def _damage_v2_base(minor=3):
    st = {"tsc": 1 << 20, "freq": 1000000000, "sec": 1240000000, "usec": 0, "scale": 1}
    ms = [m for m in marker_set(ABI32, "cpu" if minor == 3 else "") if m["name"] != "m_big"]
    files = v2_events(ms, ["cpu_0"], st["tsc"], [100, 200])
    return {"fmt": "v2", "minor": minor, "be": False, "align": 4, "arch_size": 4, "buf_size": 256,
            "size_field": True, "start": st, "markers": ms, "files": files,
            "metadata_path": "metadata_0" if minor == 3 else "control/metadata_0"}


def damaged(out):
    """Damaged traces: each with the error a reader must give (file, offset)
    and how many events of that file come before it."""
    made = []

    def finish(name, tr, root, lines, meta, err, keep):
        """err: the expected error; keep(d): is listing line d still read."""
        meta["errors"].append(err)
        lines = [d for d in lines if keep(d)]
        meta["events"] = len(lines)
        save(out, name, lines, meta)
        made.append(name)

    # a truncated last block: the blocks before it are read
    for fmt, base in (("v07", _damage_v0_base()), ("v21", _damage_v2_base(1))):
        name = "dmg-%s-truncated" % fmt
        tr, root, lines, meta = write_scenario(out, name, base, "the last block of cpu_0 is cut in half")
        fw = tr.files["cpu_0"]
        assert len(fw.blocks) >= 3
        bs = tr.buf_size
        nb = len(fw.blocks)
        with open(os.path.join(root, "cpu_0"), "r+b") as f:
            f.truncate((nb - 1) * bs + bs // 2)
        before = [d for d in _file_events(lines, "cpu_0") if d["offset"] < (nb - 1) * bs]
        finish(name, tr, root, lines, meta,
               {"kind": "truncated block", "file": "cpu_0", "offset": (nb - 1) * bs, "block": nb - 1,
                "events_before": len(before), "fatal": True},
               lambda d: d["file"] != "cpu_0" or d["offset"] < (nb - 1) * bs)
    # a block whose magic is wrong (block 1 of cpu_0)
    for fmt, base, moff in (("v07", _damage_v0_base(), 40), ("v04", _damage_v0_base(4), 56),
                            ("v23", _damage_v2_base(3), 16)):
        name = "dmg-%s-magic" % fmt
        tr, root, lines, meta = write_scenario(out, name, base, "block 1 of cpu_0 has a wrong magic number")
        bs = tr.buf_size
        with open(os.path.join(root, "cpu_0"), "r+b") as f:
            f.seek(bs + moff)
            f.write(b"\x12\x34\x56\x78")
        before = [d for d in _file_events(lines, "cpu_0") if d["offset"] < bs]
        finish(name, tr, root, lines, meta,
               {"kind": "wrong magic", "file": "cpu_0", "offset": bs, "magic_offset": bs + moff, "block": 1,
                "events_before": len(before), "fatal": True},
               lambda d: d["file"] != "cpu_0" or d["offset"] < bs)
    # an event whose size overruns its block's end (buf_size - lost_size)
    for fmt, base in (("v07", _damage_v0_base()), ("v23", _damage_v2_base(3))):
        name = "dmg-%s-overrun" % fmt
        spec = base
        # first pass: find the end of block 0's last event, then lower that block's end by 2 bytes
        tr, root, lines, meta = write_scenario(out, name, spec, "block 0 of cpu_0 ends 2 bytes before "
                                                                "the end of its last event")
        fw = tr.files["cpu_0"]
        data, begin, end, evs = fw.blocks[0]
        used = len(data)
        lost = tr.buf_size - (used - 2)
        with open(os.path.join(root, "cpu_0"), "r+b") as f:
            off = 32 if (fmt == "v07") else 52
            f.seek(off)
            f.write(struct.pack("<I", lost))
        last = evs[-1]
        before = [d for d in _file_events(lines, "cpu_0") if d["offset"] < last.offset]
        finish(name, tr, root, lines, meta,
               {"kind": "event overruns its block", "file": "cpu_0", "offset": last.offset, "block": 0,
                "events_before": len(before), "fatal": True},
               lambda d: d["file"] != "cpu_0" or d["offset"] < last.offset)
    # an event of an unknown facility / marker: skipped (it has a size), reading goes on
    base = _damage_v0_base()
    evs = base["files"]["cpu_0"]
    k = len(evs) // 2
    evs[k] = evs[k][:3] + ({"facility_id": 42},)
    name = "dmg-v07-unknown-facility"
    tr, root, lines, meta = write_scenario(out, name, base, "an event of facility id 42, never loaded")
    bad = [d for d in lines if d["file"] == "cpu_0"]
    bad.sort(key=lambda d: d["offset"])
    bad_ev = next(e for blk in tr.files["cpu_0"].blocks for e in blk[3] if e.ids[0] == 42)
    before = [d for d in bad if d["offset"] < bad_ev.offset]
    finish(name, tr, root, lines, meta,
           {"kind": "unknown facility", "file": "cpu_0", "offset": bad_ev.offset, "facility_id": 42,
            "events_before": len(before), "fatal": False},
           lambda d: not (d["file"] == "cpu_0" and d["offset"] == bad_ev.offset))
    base = _damage_v0_base()
    evs = base["files"]["cpu_0"]
    k = len(evs) // 3
    evs[k] = evs[k][:3] + ({"event_id": 200},)
    name = "dmg-v07-unknown-event"
    tr, root, lines, meta = write_scenario(out, name, base, "an event of facility 1 (seedfac) with event id 200")
    bad_ev = next(e for blk in tr.files["cpu_0"].blocks for e in blk[3] if e.ids[1] == 200)
    before = [d for d in lines if d["file"] == "cpu_0" and d["offset"] < bad_ev.offset]
    finish(name, tr, root, lines, meta,
           {"kind": "unknown event id", "file": "cpu_0", "offset": bad_ev.offset, "facility_id": 1,
            "event_id": 200, "events_before": len(before), "fatal": False},
           lambda d: not (d["file"] == "cpu_0" and d["offset"] == bad_ev.offset))
    base = _damage_v2_base(3)
    evs = base["files"]["cpu_0"]
    k = len(evs) // 2
    evs[k] = evs[k][:3] + ({"id": 777, "size_field": True},)
    name = "dmg-v23-unknown-marker"
    tr, root, lines, meta = write_scenario(out, name, base, "an event of marker id 777 (no set_marker_id), "
                                                            "with a size field")
    bad_ev = next(e for blk in tr.files["cpu_0"].blocks for e in blk[3] if e.ids == 777)
    before = [d for d in lines if d["file"] == "cpu_0" and d["offset"] < bad_ev.offset]
    finish(name, tr, root, lines, meta,
           {"kind": "unknown event id", "file": "cpu_0", "offset": bad_ev.offset, "event_id": 777,
            "events_before": len(before), "fatal": False},
           lambda d: not (d["file"] == "cpu_0" and d["offset"] == bad_ev.offset))
    # malformed XML: the trace does not open
    for grammar, text, line in (("seed", "<facility name=broken>\n<event name=e>\n<struct>\n"
                                 "<field name=f><uint size=4/></field>\n</event>\n</facility>\n", 5),
                                ("genevent", '<facility name="broken">\n  <event name="e">\n'
                                 '    <field name="f"><uint_fixed size="4"/></struct>\n  </event>\n</facility>\n', 3)):
        name = "dmg-v07-xml-%s" % grammar
        base = _damage_v0_base()
        base["facilities"].append({"name": "broken", "id": 9, "grammar": "seed", "desc": "", "abi": Abi(**ABI32),
                                   "types": [], "events": [], "checksum": 1})
        tr, root, lines, meta = write_scenario(out, name, base, "eventdefs/broken.xml is not well formed")
        with open(os.path.join(root, "eventdefs", "broken.xml"), "w") as f:
            f.write(text)
        meta["errors"].append({"kind": "malformed XML", "file": "eventdefs/broken.xml", "line": line,
                               "fatal": True, "note": "the trace does not open (facility 9 is loaded)"})
        meta["events"] = 0
        save(out, name, [], meta)
        made.append(name)
    return made


def main(argv):
    if len(argv) > 1 and argv[1] == "--list":
        for n, (_, d) in scenarios().items():
            print("%-26s %s" % (n, d))
        print("%-26s %s" % ("damaged", "the dmg-* traces (truncated, wrong magic, overrun, unknown ids, bad XML)"))
        return 0
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    want = set(argv[2:])
    os.makedirs(out, exist_ok=True)
    for name, (spec, desc) in scenarios().items():
        if want and name not in want:
            continue
        tr, root, lines, meta = write_scenario(out, name, spec, desc)
        save(out, name, lines, meta)
        print("%s: %d events" % (name, len(lines)))
    if not want or "damaged" in want:
        for n in damaged(out):
            print("%s: damaged" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
