#!/usr/bin/env python3
"""make-clock-fields.py - writes hm-clock-fields/ (metadata and one stream
file): LTTng's compact event header over a 27-bit clock, and integers mapped
to the clock in an event context and in payloads (plain, in a nested struct,
in an array), which Babeltrace 2 leaves out of its text while they move the
clock for the events after them. Also hm-time-back/ (the same metadata):
four events whose third goes back in time, where Babeltrace 2 stops with an
error after the first two. Deterministic; run from anywhere:
python3 tests/reader/golden/make-clock-fields.py"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "hm-clock-fields")
UUID = bytes.fromhex("5b6f1c6c0d1a4c7e9a3b2c1d0e0f1a2b")

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace { major = 1; minor = 8; byte_order = le;
	uuid = "5b6f1c6c-0d1a-4c7e-9a3b-2c1d0e0f1a2b";
	packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };
};
clock { name = c; freq = 1000000; offset = 5; };
typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := ts27;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;
typealias integer { size = 16; align = 8; signed = false; map = clock.c.value; } := ts16;
stream { id = 0;
	packet.context := struct { ts64 timestamp_begin; uint64_t content_size;
		uint64_t packet_size; uint32_t cpu_id; };
	event.header := struct {
		enum : integer { size = 5; align = 1; signed = false; }
			{ compact = 0 ... 30, extended = 31 } id;
		variant <id> { struct { ts27 timestamp; } compact;
			struct { uint32_t id; ts64 timestamp; } extended; } v;
	} align(8);
};
event { name = fixed; id = 0; fields := struct { uint8_t a;
	integer { size = 32; align = 8; signed = true; } b; ts16 t; uint64_t c; }; };
event { name = withctx; id = 1; context := struct { ts16 k; };
	fields := struct { uint8_t v; }; };
event { name = nested; id = 2; fields := struct { uint8_t a;
	struct { ts16 x; ts16 y; } clocks; ts16 arr[2]; struct { ts16 z; uint8_t w; } mixed; }; };
event { name = plain; id = 3; fields := struct { uint16_t n; }; };
"""


class Bits:
    def __init__(self):
        self.v = 0
        self.n = 0

    def put(self, val, size):
        self.v |= (val & ((1 << size) - 1)) << self.n
        self.n += size

    def align(self, a):
        self.n = (self.n + a - 1) // a * a

    def data(self):
        return self.v.to_bytes((self.n + 7) // 8, "little")


def low16(clock, step):
    """A 16-bit clock value step cycles after clock, and the clock after it."""
    v = (clock + step) & 0xFFFF
    new = (clock & ~0xFFFF) | v
    if v < (clock & 0xFFFF):
        new += 0x10000
    return v, new


def packet(begin, cpu):
    b = Bits()
    t = begin
    for i in range(12):
        kind = i % 4
        t += 700 + (i % 3) * (1 << 25)  # steps that wrap the 27-bit value
        b.align(8)
        if i == 5:  # an extended header
            b.put(31, 5)
            b.align(8)
            b.put(kind, 32)
            b.put(t, 64)
        else:
            b.put(kind, 5)
            b.put(t & ((1 << 27) - 1), 27)
        if kind == 0:
            v, t = low16(t, 3 + i)
            b.put(i, 8)
            b.put(-1000 * i, 32)
            b.put(v, 16)
            b.put(1 << (i * 5), 64)
        elif kind == 1:
            v, t = low16(t, 40000)  # the context moves the clock by much
            b.put(v, 16)
            b.put(7 * i, 8)
        elif kind == 2:
            b.put(i, 8)
            for step in (1, 2, 3, 4, 5):
                v, t = low16(t, step)
                b.put(v, 16)
            b.put(0xAB, 8)
        else:
            b.put(i * 1000, 16)
    hdr = struct.pack("<I", 0xC1FC1FC1) + UUID + struct.pack("<I", 0)
    ctx_bytes = 8 * 3 + 4
    content_bits = (len(hdr) + ctx_bytes) * 8 + b.n
    size = (content_bits + 7) // 8 + 3
    ctx = struct.pack("<QQQI", begin, content_bits, size * 8, cpu)
    raw = hdr + ctx + b.data()
    return raw + b"\0" * (size - len(raw)), t


os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "metadata"), "w") as f:
    f.write(METADATA)
p1, t = packet(0x12345678, 3)
p2, t = packet(t + 5000, 3)
with open(os.path.join(OUT, "stream_0"), "wb") as f:
    f.write(p1 + p2)


# hm-time-back: extended headers (64-bit times), the third before the second.
BACK = os.path.join(HERE, "hm-time-back")
os.makedirs(BACK, exist_ok=True)
with open(os.path.join(BACK, "metadata"), "w") as f:
    f.write(METADATA)
b = Bits()
begin = 1000000
for ts in (begin + 10, begin + 20, begin + 5, begin + 30):
    b.align(8)
    b.put(31, 5)
    b.align(8)
    b.put(3, 32)  # event "plain"
    b.put(ts, 64)
    b.put(7, 16)
hdr = struct.pack("<I", 0xC1FC1FC1) + UUID + struct.pack("<I", 0)
content_bits = (len(hdr) + 28) * 8 + b.n
size = (content_bits + 7) // 8
with open(os.path.join(BACK, "stream_0"), "wb") as f:
    f.write(hdr + struct.pack("<QQQI", begin, content_bits, size * 8, 0) + b.data())


# hm-clock-refs: clock values that a sequence's length and a variant's tag
# name, which Babeltrace keeps in its text (they are not only clock values).
REFS = os.path.join(HERE, "hm-clock-refs")
os.makedirs(REFS, exist_ok=True)
with open(os.path.join(REFS, "metadata"), "w") as f:
    f.write(METADATA + """event { name = seqlen; id = 4; fields := struct { uint8_t a; ts16 n;
	uint8_t items[n]; }; };
event { name = vtag; id = 5; fields := struct {
	enum : ts16 { small = 0 ... 32767, big = 32768 ... 65535 } sel;
	variant <sel> { uint8_t small; uint32_t big; } v; }; };
event { name = outer; id = 6; fields := struct { struct { ts16 len; ts16 other; } hdr;
	uint16_t vals[hdr.len]; }; };
""")


def to_low16(clock, want):
    """The clock moved forward to the next value whose low 16 bits are want."""
    step = (want - clock) & 0xFFFF or 0x10000
    return want, clock + step


b = Bits()
begin = 0x2000000
t = begin
for i in range(9):
    kind = (4, 5, 6)[i % 3]
    t += 1000 + 37 * i
    b.align(8)
    b.put(kind, 5)
    b.put(t & ((1 << 27) - 1), 27)
    if kind == 4:
        v, t = to_low16(t, i % 4)  # 0 to 3 items
        b.put(i, 8)
        b.put(v, 16)
        for k in range(v):
            b.put(10 * i + k, 8)
    elif kind == 5:
        v, t = to_low16(t, 100 + i if i % 2 else 40000 + i)
        b.put(v, 16)
        if v < 32768:
            b.put(i, 8)
        else:
            b.put(70000 + i, 32)
    else:
        v, t = to_low16(t, 2)
        b.put(v, 16)
        w, t = to_low16(t, 9 + i)
        b.put(w, 16)
        for k in range(v):
            b.put(500 + k, 16)
hdr = struct.pack("<I", 0xC1FC1FC1) + UUID + struct.pack("<I", 0)
content_bits = (len(hdr) + 28) * 8 + b.n
size = (content_bits + 7) // 8
with open(os.path.join(REFS, "stream_0"), "wb") as f:
    f.write(hdr + struct.pack("<QQQI", begin, content_bits, size * 8, 2) + b.data())
