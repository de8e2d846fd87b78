#!/usr/bin/env python3
"""gen-kernel-trace.py - a CTF 1.8 trace laid out as LTTng-modules writes
kernel traces, for comparing `trax view` with babeltrace2 event by event.

  gen-kernel-trace.py [--seed N] [--mib M] [--stats] DIR EXPECT

Writes DIR/metadata, per-CPU stream files of two channels (the compact event
header with a 5-bit ID and a 27-bit timestamp, and the large one with a
16-bit ID and an event context), their packet indexes (DIR/index/*.idx, for
odd seeds), and EXPECT: every event in time order as one JSON object per
line, as `trax view --format=json` prints it, plus "at", where the event is
(stream file, byte offset in the file, in its packet), which the checker
names when a line differs.

What it varies, from the seed: many event classes (most of them syscall
entries and exits whose payloads mix integers of every size, base and
alignment, bit fields, enumerations, strings, text arrays and sequences);
strings of every length from 0 to tens of KiB, at every byte offset in
packets, a share of them values repeated from a pool; packets of 4 KiB to
3 MiB (240 KiB among them), one size per stream or a size per packet,
some of them flushed early or empty; timestamps that need the extended
header now and then. About M MiB of stream files in all; deterministic.
--stats prints what the strings cover (lengths, offsets in a page, strings
across boundaries of 4 KiB, 256 KiB and 1 MiB of the file or the packet).
"""
import argparse
import json
import os
import random
import struct

CLOCK_OFFSET = 1571238431155326264  # ns; freq 1 GHz
TRACE_UUID = bytes(range(0x6F, 0x6F + 16))
MAGIC = 0xC1FC1FC1
INDEX_MAGIC = 0xC1F1DCC1


def uuid_text(b):
    h = b.hex()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


# ---- field types ----
# ("int", size, align, signed, base[, big-endian]) | ("enum", size, signed, [(label, lo, hi)])
# | ("string",) | ("text", n) | ("textseq", length size)
# | ("intseq", size, signed, length size) | ("intarray", n, size, signed)
# Sequences are preceded by their length field (named __NAME_length, as LTTng does).


def int_tsdl(size, align, signed, base=10, enc="none", be=False):
    return "integer { size = %d; align = %d; signed = %d; encoding = %s; base = %d;%s }" % (
        size, align, 1 if signed else 0, enc, base, " byte_order = be;" if be else "")


CHAR = int_tsdl(8, 8, False, 10, "UTF8")


def field_tsdl(name, t):
    k = t[0]
    if k == "int":
        return "%s _%s;" % (int_tsdl(t[1], t[2], t[3], t[4], be=len(t) > 5 and t[5]), name)
    if k == "enum":
        maps = ", ".join('"%s" = %d ... %d' % (lab, lo, hi) if lo != hi else '"%s" = %d' % (lab, lo)
                         for lab, lo, hi in t[3])
        return "enum : %s { %s } _%s;" % (int_tsdl(t[1], 8, t[2]), maps, name)
    if k == "string":
        return "string _%s;" % name
    if k == "text":
        return "%s _%s[%d];" % (CHAR, name, t[1])
    if k == "textseq":
        return "%s __%s_length; %s _%s[ __%s_length ];" % (
            int_tsdl(t[1], 8, False), name, CHAR, name, name)
    if k == "intseq":
        return "%s __%s_length; %s _%s[ __%s_length ];" % (
            int_tsdl(t[3], 8, False), name, int_tsdl(t[1], 8, t[2]), name, name)
    if k == "intarray":
        return "%s _%s[%d];" % (int_tsdl(t[2], 8, t[3]), name, t[1])
    raise ValueError(k)


class Bits:
    """Bits appended little-endian, alignments from a phase (bits) inside 64."""

    def __init__(self, phase):
        self.buf = bytearray(phase // 8)
        self.pos = phase
        self.strings = []  # (byte offset in buf, length with the NUL) of each string

    def align(self, a):
        if a > 1 and self.pos % a:
            self.put(0, a - self.pos % a)

    def put(self, v, size):
        v &= (1 << size) - 1
        if self.pos % 8 == 0 and size % 8 == 0:
            self.buf += v.to_bytes(size // 8, "little")
        else:
            sh = self.pos % 8
            total = sh + size
            nb = (total + 7) // 8
            if sh:
                v = (v << sh) | self.buf.pop()
            self.buf += v.to_bytes(nb, "little")
        self.pos += size

    def put_bytes(self, b):
        assert self.pos % 8 == 0
        self.buf += b
        self.pos += 8 * len(b)


SPECIAL = ["\n", "\t", '"', "\\", "'", "?", "\x01", "\x1b", "\x7f", "\u00e9", "\u65e5", "\r"]
ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+ "


def json_text(b):
    """A byte string as trax's JSON reads it: UTF-8, each invalid byte as Latin-1."""
    out, i = [], 0
    while i < len(b):
        try:
            out.append(b[i:].decode("utf-8"))
            break
        except UnicodeDecodeError as e:
            out.append(b[i:i + e.start].decode("utf-8"))
            out.append(chr(b[i + e.start]))
            i += e.start + 1
    return "".join(out)


class Gen:
    def __init__(self, seed, total_bytes):
        self.rnd = random.Random(seed)
        self.total = total_bytes
        rnd = self.rnd
        # values that come back (paths opened again and again)
        self.pool = [self.fresh_string(rnd.choice([0, 1, 5, 12, 20, 30, 40, 60, 100, 200, 300, 1000, 4000]))
                     for _ in range(60)]
        self.make_classes()
        self.straddle = None  # bytes to a boundary ahead, when a string is to cross it
        # what the strings cover: see count_string()
        self.nstrings = 0
        self.lengths = set()
        self.page_offsets = set()
        self.crossing = {"4 KiB": 0, "256 KiB": 0, "1 MiB": 0}

    def count_string(self, at, in_packet, n):
        """A string of n bytes (NUL included) at file offset at, packet offset in_packet."""
        self.nstrings += 1
        self.lengths.add(n - 1)
        self.page_offsets.add(in_packet % 4096)
        for name, b in (("4 KiB", 4096), ("256 KiB", 256 << 10), ("1 MiB", 1 << 20)):
            if at // b != (at + n - 1) // b or in_packet // b != (in_packet + n - 1) // b:
                self.crossing[name] += 1

    # ---- values ----
    def string_len(self, cap):
        r = self.rnd.random()
        if r < 0.35:
            n = self.rnd.randint(0, 16)
        elif r < 0.7:
            n = self.rnd.randint(17, 64)
        elif r < 0.9:
            n = self.rnd.randint(65, 200)
        elif r < 0.98:
            n = self.rnd.randint(201, 1500)
        elif r < 0.999:
            n = self.rnd.randint(1501, 6000)
        else:
            n = self.rnd.randint(6001, 33000)
        return min(n, cap)

    def fresh_string(self, n):
        rnd = self.rnd
        if n > 64:
            chunk = "".join(rnd.choices(ALPHA, k=rnd.randint(16, 64)))
            s = (chunk * (n // len(chunk) + 1))[:n]
        else:
            s = "".join(rnd.choices(ALPHA, k=n))
        b = s.encode()
        if n and rnd.random() < 0.08:
            # a byte or character that is printed escaped, or not ASCII
            sp = rnd.choice(SPECIAL).encode() if rnd.random() < 0.95 else b"\xff"
            at = rnd.randrange(n)
            b = (b[:at] + sp + b[at:])[:max(n, len(sp))]
            b = b.replace(b"\0", b"")
        return b

    def string_value(self, cap):
        if self.straddle is not None:
            # the first string of the event across the boundary ahead
            n, self.straddle = min(cap, max(0, self.straddle + self.rnd.randint(-16, 200))), None
            return self.fresh_string(n)
        if self.rnd.random() < 0.3:
            s = self.rnd.choice(self.pool)
            if len(s) <= cap:
                return s
        return self.fresh_string(self.string_len(cap))

    def int_value(self, size, signed):
        rnd = self.rnd
        r = rnd.random()
        if r < 0.5:
            v = rnd.randint(0, min(1000, (1 << size) - 1) if not signed else min(1000, (1 << (size - 1)) - 1))
            if signed and rnd.random() < 0.3:
                v = -v
            return v
        if signed:
            return rnd.randint(-(1 << (size - 1)), (1 << (size - 1)) - 1)
        return rnd.randint(0, (1 << size) - 1)

    # ---- event classes ----
    def rand_int_type(self):
        rnd = self.rnd
        size = rnd.choice([8, 16, 32, 32, 64, 64])
        align = rnd.choice([8, 8, 8, 8, size])
        return ("int", size, align, rnd.random() < 0.5, rnd.choice([10, 10, 10, 16, 16, 8]),
                size > 8 and rnd.random() < 0.15)

    def make_classes(self):
        rnd = self.rnd
        comm = ("text", 16)
        i32 = ("int", 32, 8, True, 10)
        u32 = ("int", 32, 8, False, 10)
        i64 = ("int", 64, 8, True, 10)
        u64 = ("int", 64, 8, False, 10)
        x64 = ("int", 64, 8, False, 16)
        mode = ("int", 16, 8, False, 8)
        state = ("enum", 8, False, [("TASK_RUNNING", 0, 0), ("TASK_INTERRUPTIBLE", 1, 1),
                                    ("TASK_UNINTERRUPTIBLE", 2, 2), ("OTHER", 3, 100)])
        named = [
            ("sched_switch", [("prev_comm", comm), ("prev_tid", i32), ("prev_prio", i32),
                              ("prev_state", i64), ("next_comm", comm), ("next_tid", i32),
                              ("next_prio", i32)]),
            ("syscall_entry_openat", [("dfd", i32), ("filename", ("string",)), ("flags", i32),
                                      ("mode", mode)]),
            ("syscall_exit_openat", [("ret", i64)]),
            ("syscall_entry_read", [("fd", u32), ("count", u64)]),
            ("syscall_exit_read", [("ret", i64), ("buf", x64)]),
            ("syscall_entry_newstat", [("filename", ("string",))]),
            ("syscall_exit_newstat", [("ret", i64), ("statbuf", x64)]),
            ("sched_waking", [("comm", comm), ("tid", i32), ("prio", i32), ("target_cpu", i32)]),
            ("syscall_entry_execve", [("filename", ("string",)), ("argv", x64), ("envp", x64)]),
            ("syscall_entry_renameat2", [("olddfd", i32), ("oldname", ("string",)),
                                         ("newdfd", i32), ("newname", ("string",)),
                                         ("flags", u32)]),
            ("irq_handler_entry", [("irq", i32), ("name", ("string",))]),
            ("irq_handler_exit", [("irq", i32), ("ret", i32)]),
            ("softirq_entry", [("vec", u32)]),
            ("timer_hrtimer_start", [("hrtimer", x64), ("function", x64), ("expires", i64),
                                     ("softexpires", i64), ("mode", u32)]),
            ("syscall_entry_unlinkat", [("dfd", i32), ("pathname", ("string",)),
                                        ("flag", i32)]),
            ("sched_process_state", [("tid", i32), ("state", state), ("bits_a", ("int", 3, 1, False, 10)),
                                     ("bits_b", ("int", 13, 1, True, 10)),
                                     ("bits_c", ("int", 8, 1, False, 16)), ("name", ("string",))]),
            ("net_dev_xmit", [("skbaddr", x64), ("rc", i32), ("len", u32), ("name", ("string",))]),
            ("block_rq_issue", [("dev", u32), ("sector", u64), ("nr_sector", u32),
                                ("rwbs", ("textseq", 32)), ("comm", comm)]),
            ("kmem_cache_alloc", [("call_site", x64), ("ptr", x64), ("bytes_req", u64),
                                  ("bytes_alloc", u64), ("gfp_flags", u32)]),
            ("lttng_statedump_file_descriptor", [("pid", i32), ("fd", i32), ("flags", u32),
                                                 ("fmode", u32), ("filename", ("string",))]),
            ("syscall_entry_select", [("n", i32), ("fds", ("intseq", 64, False, 64)),
                                      ("tvp", x64)]),
            ("syscall_entry_pipe2", [("fildes", ("intarray", 2, 32, True)), ("flags", i32)]),
            ("sched_stat_runtime", [("comm", comm), ("tid", i32), ("runtime", u64),
                                    ("vruntime", ("int", 64, 64, False, 10))]),
        ]
        classes = []
        for name, fields in named:
            classes.append((name, fields))
        # more syscalls, fields drawn at random: strings among integers
        n_more = rnd.randint(60, 130)
        for k in range(n_more):
            fields = []
            for j in range(rnd.randint(0, 6)):
                r = rnd.random()
                if r < 0.35:
                    t = ("string",)
                elif r < 0.45:
                    t = ("text", rnd.choice([1, 4, 16, 32]))
                elif r < 0.5:
                    t = ("textseq", rnd.choice([8, 32, 64]))
                elif r < 0.55:
                    t = ("enum", 32, True, [("A", -5, -1), ("B", 0, 0), ("C", 1, 9)])
                else:
                    t = self.rand_int_type()
                fields.append(("f%d" % j, t))
            kind = rnd.choice(["entry", "exit"])
            classes.append(("syscall_%s_gen%d" % (kind, k), fields))
        # the frequent ones first, where compact headers can name them (IDs below 31)
        head, tail = classes[:20], classes[20:]
        rnd.shuffle(head)
        rnd.shuffle(tail)
        self.classes0 = head + tail
        # (events without strings more often: most events of a kernel trace)
        self.weights0 = [(1 if any(t[0] in ("string", "textseq") for _, t in c[1]) else 4) /
                         (1 + i) ** 0.9 for i, c in enumerate(self.classes0)]
        # the second channel: the large header and an event context
        self.classes1 = [
            ("syscall_entry_openat", named[1][1]),
            ("syscall_exit_openat", named[2][1]),
            ("syscall_entry_newstat", named[5][1]),
            ("lttng_statedump_file_descriptor", named[19][1]),
            ("sched_switch", named[0][1]),
            ("syscall_entry_read", named[3][1]),
        ]
        self.weights1 = [4, 3, 2, 1, 2, 2]
        self.context1 = [("tid", i32), ("procname", comm)]

    def metadata(self):
        out = ["/* CTF 1.8 */",
               "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;",
               "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;",
               "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;",
               "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;",
               "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;",
               "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;",
               "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;",
               "",
               "trace {",
               "\tmajor = 1;", "\tminor = 8;",
               '\tuuid = "%s";' % uuid_text(TRACE_UUID),
               "\tbyte_order = le;",
               "\tpacket.header := struct {",
               "\t\tuint32_t magic;", "\t\tuint8_t  uuid[16];", "\t\tuint32_t stream_id;",
               "\t\tuint64_t stream_instance_id;", "\t};", "};", "",
               "env {",
               '\thostname = "gen-host";', '\tdomain = "kernel";', '\tsysname = "Linux";',
               '\tkernel_release = "6.1.0";', '\tkernel_version = "#1 SMP";',
               '\ttracer_name = "lttng-modules";', "\ttracer_major = 2;", "\ttracer_minor = 13;",
               "\ttracer_patchlevel = 0;", "};", "",
               "clock {", '\tname = "monotonic";',
               '\tuuid = "25210548-98b9-4ab3-a9de-7d865e4ad32c";',
               '\tdescription = "Monotonic Clock";', "\tfreq = 1000000000;",
               "\toffset = %d;" % CLOCK_OFFSET, "};", "",
               "typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_monotonic_t;",
               "typealias integer { size = 32; align = 8; signed = false; map = clock.monotonic.value; } := uint32_clock_monotonic_t;",
               "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;",
               "",
               "struct packet_context {",
               "\tuint64_clock_monotonic_t timestamp_begin;",
               "\tuint64_clock_monotonic_t timestamp_end;",
               "\tuint64_t content_size;", "\tuint64_t packet_size;", "\tuint64_t packet_seq_num;",
               "\tunsigned long events_discarded;", "\tuint32_t cpu_id;", "};", "",
               "struct event_header_compact {",
               "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;",
               "\tvariant <id> {",
               "\t\tstruct { uint27_clock_monotonic_t timestamp; } compact;",
               "\t\tstruct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;",
               "\t} v;", "} align(8);", "",
               "struct event_header_large {",
               "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;",
               "\tvariant <id> {",
               "\t\tstruct { uint32_clock_monotonic_t timestamp; } compact;",
               "\t\tstruct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;",
               "\t} v;", "} align(8);", "",
               "stream {", "\tid = 0;", "\tevent.header := struct event_header_compact;",
               "\tpacket.context := struct packet_context;", "};", "",
               "stream {", "\tid = 1;", "\tevent.header := struct event_header_large;",
               "\tpacket.context := struct packet_context;",
               "\tevent.context := struct { %s };" % " ".join(field_tsdl(n, t) for n, t in self.context1),
               "};", ""]
        for sid, classes in ((0, self.classes0), (1, self.classes1)):
            for eid, (name, fields) in enumerate(classes):
                out += ["event {", '\tname = "%s";' % name, "\tid = %d;" % eid,
                        "\tstream_id = %d;" % sid,
                        "\tfields := struct {"]
                out += ["\t\t" + field_tsdl(n, t) for n, t in fields]
                out += ["\t};", "};", ""]
        return "\n".join(out) + "\n"

    # ---- one event's values and bytes ----
    def values(self, fields, cap):
        """(name, type, value, json value) of each field; cap bounds each string."""
        rnd = self.rnd
        vals = []
        for name, t in fields:
            k = t[0]
            if k == "int":
                v = self.int_value(t[1], t[3])
                vals.append((name, t, v, v))
            elif k == "enum":
                lo = min(m[1] for m in t[3])
                hi = max(m[2] for m in t[3])
                v = rnd.randint(lo - 2, hi + 2)
                if not t[2] and v < 0:
                    v = 0
                labels = [m[0] for m in t[3] if m[1] <= v <= m[2]]
                vals.append((name, t, v, {"value": v, "labels": labels}))
            elif k == "string":
                b = self.string_value(cap)
                vals.append((name, t, b, json_text(b)))
            elif k == "text":
                n = t[1]
                r = rnd.random()
                if r < 0.1:
                    b = self.fresh_string(n)  # no NUL at all
                    b = (b + b"x" * n)[:n]
                else:
                    s = self.fresh_string(rnd.randint(0, n - 1))[:n - 1]
                    tail = bytes(n - len(s))
                    if r > 0.8 and len(tail) > 1:  # bytes after the NUL, not printed
                        tail = b"\0" + bytes(rnd.randint(1, 255) for _ in range(len(tail) - 1))
                    b = s + tail
                vals.append((name, t, b, json_text(b.split(b"\0")[0])))
            elif k == "textseq":
                b = self.fresh_string(rnd.choice([0, 1, 3, 8, rnd.randint(0, min(600, cap))]))
                b = b[:(1 << t[1]) - 1]
                vals.append((name, t, b, json_text(b.split(b"\0")[0])))
            elif k == "intseq":
                v = [self.int_value(t[1], t[2]) for _ in range(rnd.choice([0, 1, 2, 5, 17]))]
                vals.append((name, t, v, v))
            elif k == "intarray":
                v = [self.int_value(t[2], t[3]) for _ in range(t[1])]
                vals.append((name, t, v, v))
        return vals

    @staticmethod
    def encode_fields(w, vals):
        # a struct is aligned as its most aligned member
        w.align(max([t[2] if t[0] == "int" else 8 for _, t, _, _ in vals] + [1]))
        for name, t, v, _ in vals:
            k = t[0]
            if k == "int":
                w.align(t[2])
                if len(t) > 5 and t[5]:
                    w.put_bytes((v & ((1 << t[1]) - 1)).to_bytes(t[1] // 8, "big"))
                else:
                    w.put(v, t[1])
            elif k == "enum":
                w.align(8)
                w.put(v, t[1])
            elif k == "string":
                w.align(8)
                w.strings.append((w.pos // 8, len(v) + 1))
                w.put_bytes(v + b"\0")
            elif k == "text":
                w.align(8)
                w.put_bytes(v)
            elif k == "textseq":
                w.align(8)
                w.put(len(v), t[1])
                w.put_bytes(v)
            elif k == "intseq":
                w.align(8)
                w.put(len(v), t[3])
                for x in v:
                    w.put(x, t[1])
            elif k == "intarray":
                w.align(8)
                for x in v:
                    w.put(x, t[2])


def json_fields(vals):
    """The members of a struct as trax's JSON has them (sequences after their lengths)."""
    out = {}
    for n, t, v, jv in vals:
        if t[0] in ("textseq", "intseq"):
            out["_%s_length" % n] = len(v)
        out[n] = jv
    return out


def clock_after(prev, low, bits):
    """The clock after an n-bit timestamp field holding low (CTF 1.8 clock update)."""
    m = (1 << bits) - 1
    v = (prev & ~m) | low
    if low < (prev & m):
        v += 1 << bits
    return v


class Stream:
    def __init__(self, g, path, sid, cpu, sizes):
        self.g, self.path, self.sid, self.cpu = g, path, sid, cpu
        self.sizes = sizes  # packet sizes to draw from
        self.f = open(path, "wb")
        self.offset = 0  # of the next packet in the file
        self.seq = 0
        self.last_end = 0  # timestamp_end of the packet before
        self.pkt = None
        self.index = []
        self.size = g.rnd.choice(sizes)  # of the next packet

    def open_packet(self, ts):
        g = self.g
        begin = max(self.last_end, ts - g.rnd.randint(0, 2000))
        self.pkt = bytearray()
        self.begin = begin
        self.clock = begin
        self.last_ts = begin
        self.pkt += struct.pack("<I16sIQ", MAGIC, TRACE_UUID, self.sid, self.cpu)
        self.ctx_at = len(self.pkt)
        self.pkt += bytes(52)  # the packet context, filled when the packet closes

    def close_packet(self):
        end = self.last_ts
        content = len(self.pkt) * 8
        struct.pack_into("<QQQQQQI", self.pkt, self.ctx_at, self.begin, end, content,
                         self.size * 8, self.seq, 0, self.cpu)
        self.pkt += bytes(self.size - len(self.pkt))
        self.f.write(self.pkt)
        self.index.append((self.offset, self.size * 8, content, self.begin, end, 0, self.sid,
                           self.cpu, self.seq))
        self.offset += self.size
        self.seq += 1
        self.last_end = end
        self.pkt = None
        self.size = self.g.rnd.choice(self.sizes)

    def header(self, w, eid, ts, force_ext):
        """The event header: compact when the ID and the clock allow it (the clock
        it leaves must be ts), else extended."""
        if self.sid == 0:
            if eid < 31 and not force_ext and clock_after(self.clock, ts & ((1 << 27) - 1), 27) == ts:
                w.put(eid, 5)
                w.put(ts, 27)
                return
            w.put(31, 5)
            w.align(8)
            w.put(eid, 32)
            w.put(ts, 64)
        else:
            if not force_ext and clock_after(self.clock, ts & 0xFFFFFFFF, 32) == ts:
                w.put(eid, 16)
                w.put(ts, 32)
                return
            w.put(65535, 16)
            w.put(eid, 32)
            w.put(ts, 64)

    def add(self, ts, eid, name, ctx_vals, vals, expect):
        """Appends the event (a new packet when it does not fit): False when it never fits."""
        g = self.g
        for attempt in range(2):
            if self.pkt is None:
                self.open_packet(ts)
            phase = (len(self.pkt) % 8) * 8
            w = Bits(phase)
            self.header(w, eid, ts, g.rnd.random() < 0.002)
            if ctx_vals:
                Gen.encode_fields(w, ctx_vals)
            Gen.encode_fields(w, vals)
            assert w.pos % 8 == 0
            ev = w.buf[phase // 8:]
            if len(self.pkt) + len(ev) <= self.size:
                at = self.offset + len(self.pkt)
                expect["at"] = "%s:%d (packet at %d, byte %d of %d)" % (
                    os.path.basename(self.path), at, self.offset, len(self.pkt), self.size)
                for off, n in w.strings:
                    g.count_string(at - phase // 8 + off, len(self.pkt) - phase // 8 + off, n)
                self.pkt += ev
                self.clock = ts
                self.last_ts = ts
                return True
            if len(self.pkt) == 32 + 52:
                self.pkt = None  # (not written: no event fits an empty one)
                return False
            self.close_packet()
        return False

    def finish(self):
        if self.pkt is not None:
            self.close_packet()
        self.f.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mib", type=float, default=8)
    ap.add_argument("--stats", action="store_true",
                    help="print what the strings cover (lengths, offsets, boundaries crossed)")
    ap.add_argument("dir", help="the trace directory to write (absent or empty)")
    ap.add_argument("expect")
    a = ap.parse_args()
    if os.path.isdir(a.dir) and os.listdir(a.dir):
        ap.error("%s is not empty" % a.dir)
    g = Gen(a.seed, int(a.mib * (1 << 20)))
    rnd = g.rnd
    os.makedirs(a.dir, exist_ok=True)
    with open(os.path.join(a.dir, "metadata"), "w") as f:
        f.write(g.metadata())
    KiB = 1024
    all_sizes = [4 * KiB, 8 * KiB, 16 * KiB, 64 * KiB, 240 * KiB, 256 * KiB, 512 * KiB,
                 1024 * KiB, 2048 * KiB, 3072 * KiB]
    # smaller traces, smaller packets (several per stream all the same), but
    # the first stream's larger than 1 MiB when they can be
    if a.mib < 64:
        all_sizes = [s for s in all_sizes if s <= max(64 * KiB, int(a.mib * 1024 * KiB) // 2)]
    streams = []
    for sid, ncpu in ((0, rnd.randint(2, 4 if a.mib < 64 else 8)), (1, rnd.randint(1, 2))):
        for cpu in range(ncpu):
            if rnd.random() < 0.7:
                sizes = [rnd.choice(all_sizes)]
            else:
                sizes = rnd.sample(all_sizes, 3)
            if not streams:
                sizes = [max(all_sizes)]
            elif len(streams) == 1:
                sizes = [240 * KiB]
            streams.append(Stream(g, os.path.join(a.dir, "channel%d_%d" % (sid, cpu)), sid,
                                  cpu, sizes))
    # (the first stream, of the largest packets, the busiest)
    stream_w = [12] + [5 if s.sid == 0 else 1 for s in streams[1:]]
    ts = rnd.randint(1 << 30, 1 << 40)
    cur = streams[0]
    written = nevents = 0
    with open(a.expect, "w") as out:
        while written < g.total:
            r = rnd.random()
            ts += rnd.randint(1, 3000) if r < 0.97 else (
                rnd.randint(1 << 26, 1 << 29) if r < 0.999 else rnd.randint(1 << 32, 1 << 34))
            if nevents < len(streams):
                cur = streams[nevents]  # (every stream file has a packet)
            elif rnd.random() < 0.15:
                cur = rnd.choices(streams, stream_w)[0]
            nevents += 1
            s = cur
            if s.pkt is not None and rnd.random() < 0.0005 * min(1, 65536 / s.size):
                s.close_packet()  # a flush before the packet is full (a timer, a stop)
            if rnd.random() < 0.0002 * min(1, 65536 / s.size):
                if s.pkt is not None:
                    s.close_packet()
                s.open_packet(ts)  # an empty packet
                s.close_packet()
                ts += 1
            classes, weights = (g.classes0, g.weights0) if s.sid == 0 else (g.classes1, g.weights1)
            eid = rnd.choices(range(len(classes)), weights)[0]
            name, fields = classes[eid]
            cap = max(0, min(40000, s.size // 3))
            for attempt in range(8):
                # near a boundary of 1 MiB, 256 KiB or 64 KiB of the file or of the
                # packet, often a string across it
                here = s.offset + len(s.pkt) if s.pkt else s.offset
                g.straddle = None
                for b, near in ((1 << 20, 6000), (256 << 10, 6000), (64 << 10, 2000)):
                    ahead = min(-here % b, -(here - s.offset) % b)
                    if 40 < ahead < near and not attempt and rnd.random() < 0.8:
                        g.straddle = ahead
                        break
                ctx = g.values(g.context1, cap) if s.sid == 1 else None
                vals = g.values(fields, cap)
                exp = {"timestamp": CLOCK_OFFSET + ts, "name": name, "stream_id": s.cpu,
                       "fields": json_fields(vals)}
                if ctx:
                    exp["context"] = json_fields(ctx)
                exp["packet_context"] = {"cpu_id": s.cpu}
                # the text fields printed "" (which babeltrace2 2.0 may print stale: see
                # compare-view.py)
                empty = [n for n, t, _, jv in (ctx or []) + vals
                         if t[0] in ("string", "text", "textseq") and jv == ""]
                if empty:
                    exp["empty_text"] = empty
                if s.add(ts, eid, name, ctx, vals, exp):
                    break
                cap //= 4
            else:
                raise SystemExit("an event of %s does not fit in %d bytes" % (name, s.size))
            written = sum(x.offset + (len(x.pkt) if x.pkt else 0) for x in streams)
            out.write(json.dumps(exp, sort_keys=True, ensure_ascii=True) + "\n")
    with_index = a.seed % 2 == 1  # (odd seeds: LTTng's packet indexes too)
    if with_index:
        os.makedirs(os.path.join(a.dir, "index"), exist_ok=True)
    for s in streams:
        s.finish()
        if with_index:
            with open(os.path.join(a.dir, "index", os.path.basename(s.path) + ".idx"), "wb") as f:
                f.write(struct.pack(">IIII", INDEX_MAGIC, 1, 1, 72))
                for e in s.index:
                    f.write(struct.pack(">9Q", *e))
    if a.stats:
        print("%d strings, %d lengths (0 to %d), %d of the 4096 offsets in a page, crossing "
              "boundaries of %s" % (g.nstrings, len(g.lengths), max(g.lengths, default=0),
                                    len(g.page_offsets),
                                    ", ".join("%s: %d" % kv for kv in g.crossing.items())))


if __name__ == "__main__":
    main()
