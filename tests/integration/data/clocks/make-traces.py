#!/usr/bin/env python3
"""make-traces.py OUTDIR - writes the small CTF 1.8 traces of view_clocks.sh
and tests/reader/test_clocks.c into OUTDIR, one directory each (metadata and
one stream file), to compare `trax view` with babeltrace2 on the clock rules
of Babeltrace 2:

- which clocks are absolute: an LTTng trace's (env tracer_name starting with
  "lttng") clock named monotonic always is, other clocks when the TSDL says
  absolute = true; and which clocks can be merged (lt-*, abs-*, rel-*);
- packet headers (data and metadata) whose uuid is not the trace's (uuid-*);
- timestamp fields that map to no clock (ts-*);
- which clock a stream has: the one its fields map to, a payload's too
  (sc-*).

Each trace's events are (time in cycles, n): a payload { n } with n unique
across traces, so that merged output shows where each line comes from.
Deterministic."""
import os
import struct
import sys
import uuid as uuidlib

PKT_MAGIC = 0xC1FC1FC1
META_MAGIC = 0x75D11D57


def trace_uuid(i):
    return "2a6422d0-6cee-11e0-8c08-cb07d7b3a6%02x" % i


def clock_uuid(i):
    return "5b1e7e2a-0000-4000-8000-00000000c1%02x" % i


def clock(name="monotonic", uuid=None, freq=1000000000, offset_s=None, offset=None,
          absolute=None):
    """A clock block; freq is always written (Babeltrace 2.0.4 crashes without it)."""
    s = "clock {\n\tname = %s;\n" % name
    if uuid:
        s += '\tuuid = "%s";\n' % uuid
    s += "\tfreq = %d;\n" % freq
    if offset_s is not None:
        s += "\toffset_s = %d;\n" % offset_s
    if offset is not None:
        s += "\toffset = %d;\n" % offset
    if absolute is not None:
        s += "\tabsolute = %s;\n" % absolute
    return s + "};\n"


def env(**entries):
    return "env {\n" + "".join(
        '\t%s = %s;\n' % (k, '"%s"' % v if isinstance(v, str) else v)
        for k, v in entries.items()) + "};\n"


HEAD = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
"""


def trace_block(tuuid):
    if tuuid:
        return ('trace {\n\tmajor = 1; minor = 8; byte_order = le;\n\tuuid = "%s";\n'
                '\tpacket.header := struct { uint32_t magic; uint8_t uuid[16]; '
                'uint32_t stream_id; };\n};\n' % tuuid)
    return ("trace {\n\tmajor = 1; minor = 8; byte_order = le;\n"
            "\tpacket.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n")


def ts_type(clock_name):
    """The type of the time stamp fields: mapped to clock_name, or a plain uint64_t."""
    if clock_name:
        return ("integer { size = 64; align = 8; signed = false; map = clock.%s.value; }"
                % clock_name)
    return "uint64_t"


def stream_block(ts, hdr_ts=None):
    """Packet context: timestamp_begin, timestamp_end, content_size, packet_size;
    event header: timestamp, id (a uint32_t, padded to 16 bytes with the payload)."""
    return ("stream {\n\tid = 0;\n"
            "\tpacket.context := struct { %s timestamp_begin; %s timestamp_end; "
            "uint64_t content_size; uint64_t packet_size; };\n"
            "\tevent.header := struct { %s timestamp; uint32_t id; };\n};\n"
            % (ts, ts, hdr_ts or ts))


EVENT = "event { name = ev; id = 0; stream_id = 0; fields := struct { uint32_t n; }; };\n"


def packet(header_uuid, events, pctx_extra=b""):
    """One packet of the standard layout: header, context, events of 16 bytes."""
    head = struct.pack("<I", PKT_MAGIC)
    if header_uuid is not None:
        head += uuidlib.UUID(header_uuid).bytes
    head += struct.pack("<I", 0)
    head += b"\0" * (-len(head) % 8)
    body = b"".join(struct.pack("<QII", ts, 0, n) for ts, n in events)
    size = len(head) + 32 + len(pctx_extra) + len(body)
    ctx = struct.pack("<QQQQ", events[0][0], events[-1][0], size * 8, size * 8)
    return head + ctx + pctx_extra + body


def write(out, name, metadata, stream, packetized_uuid=None):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    data = metadata.encode()
    if packetized_uuid:
        data = packetize(data, packetized_uuid)
    with open(os.path.join(d, "metadata"), "wb") as f:
        f.write(data)
    with open(os.path.join(d, "stream"), "wb") as f:
        f.write(stream)


def packetize(text, uuid, chunk=200):
    """Metadata packets (CTF 1.8 section 7.1), chunk bytes of text each."""
    out = b""
    for i in range(0, len(text), chunk):
        part = text[i:i + chunk]
        size = (37 + len(part)) * 8
        out += struct.pack("<I", META_MAGIC) + uuidlib.UUID(uuid).bytes
        out += struct.pack("<IIIBBBBB", 0, size, size, 0, 0, 0, 1, 8) + part
    return out


def simple(out, name, tuuid, env_block, clocks, mapped, events, hdr_uuids=None):
    """A trace of the standard layout, one packet per list in events."""
    md = HEAD + trace_block(tuuid) + env_block + "".join(clocks)
    md += stream_block(ts_type(mapped)) + EVENT
    if isinstance(events[0], tuple):
        events = [events]
    hdr_uuids = hdr_uuids or [tuuid] * len(events)
    write(out, name, md, b"".join(packet(u, evs) for u, evs in zip(hdr_uuids, events)))


def lttng_traces(out):
    ust = env(hostname="ha", domain="ust", tracer_name="lttng-ust", tracer_major=2)
    simple(out, "lt-ust", trace_uuid(1), ust,
           [clock(uuid=clock_uuid(1), offset_s=1000, offset=0)], "monotonic",
           [(100, 1), (300, 3), (2000000000, 5)])
    # another host (another boot UUID), another offset
    simple(out, "lt-kern", trace_uuid(2),
           env(hostname="hb", domain="kernel", tracer_name="lttng-modules"),
           [clock(uuid=clock_uuid(2), offset_s=999, offset=999999950)], "monotonic",
           [(250, 2), (400, 4), (2000000100, 6)])
    # 100 MHz, its offset in cycles larger than a second
    simple(out, "lt-mhz", trace_uuid(3), env(hostname="hc", tracer_name="lttng-ust"),
           [clock(uuid=clock_uuid(3), freq=100000000, offset_s=999, offset=100000003)],
           "monotonic", [(22, 7), (35, 8), (200000001, 9)])
    # an LTTng trace whose clock is not named monotonic: not made absolute
    simple(out, "lt-other", trace_uuid(4), env(hostname="hd", tracer_name="lttng-ust"),
           [clock(name="other", uuid=clock_uuid(4), offset_s=1000)], "other",
           [(150, 10)])
    # absolute = false is overridden; the env block after the clock and streams
    md = (HEAD + trace_block(trace_uuid(5))
          + clock(uuid=clock_uuid(5), offset_s=1000, absolute="false")
          + stream_block(ts_type("monotonic")) + EVENT
          + env(hostname="he", tracer_name="lttng-ust"))
    write(out, "lt-late-env", md, packet(trace_uuid(5), [(260, 11), (261, 12)]))
    # "lttng" is a prefix (any tracer name starting with it), case-sensitive
    simple(out, "lt-prefix", trace_uuid(6), env(hostname="hf", tracer_name="lttngfoo"),
           [clock(uuid=clock_uuid(6), offset_s=1000)], "monotonic", [(270, 13)])
    simple(out, "lt-case", trace_uuid(7), env(hostname="hg", tracer_name="LTTng-ust"),
           [clock(uuid=clock_uuid(7), offset_s=1000)], "monotonic", [(280, 14)])
    # a tracer_name replaced by a later entry still makes the trace LTTng's
    simple(out, "lt-twice", trace_uuid(8),
           env(hostname="hh", tracer_name="lttng-ust").replace(
               "};", '\ttracer_name = "other";\n};'),
           [clock(uuid=clock_uuid(8), offset_s=1000)], "monotonic", [(290, 15)])


def other_traces(out):
    plain = env(hostname="hx", tracer_name="handmade")
    simple(out, "abs-a", trace_uuid(20), plain,
           [clock(uuid=clock_uuid(20), offset_s=1000, absolute="true")], "monotonic",
           [(120, 20), (320, 21)])
    simple(out, "abs-b", trace_uuid(21), plain,
           [clock(name="wall", uuid=clock_uuid(21), freq=1000, offset_s=1000,
                  absolute="TRUE")], "wall", [(1, 22)])
    simple(out, "abs-nouuid", None, plain,
           [clock(offset_s=1000, absolute="true")], "monotonic", [(130, 23)])
    # not absolute: merged when the clock UUIDs are equal, or when both have none
    simple(out, "rel-u7a", trace_uuid(22), plain,
           [clock(uuid=clock_uuid(7), offset_s=1000)], "monotonic", [(140, 24), (141, 25)])
    simple(out, "rel-u7b", trace_uuid(23), plain,
           [clock(name="other", uuid=clock_uuid(7), offset_s=1001, offset=5)], "other",
           [(135, 26)])
    simple(out, "rel-u9", trace_uuid(24), plain,
           [clock(uuid=clock_uuid(9), offset_s=1000)], "monotonic", [(170, 27)])
    simple(out, "rel-none-a", trace_uuid(25), plain,
           [clock(offset_s=1000)], "monotonic", [(180, 28)])
    simple(out, "rel-none-b", trace_uuid(26), plain,
           [clock(name="c2", freq=1000000, offset_s=7)], "c2", [(190, 29)])
    # no clock and no time stamp field
    md = (HEAD + trace_block(trace_uuid(27)) + plain
          + "stream {\n\tid = 0;\n\tpacket.context := struct { uint64_t content_size; "
            "uint64_t packet_size; };\n\tevent.header := struct { uint32_t id; };\n};\n"
          + EVENT)
    body = struct.pack("<II", 0, 30) + struct.pack("<II", 0, 31)
    head = struct.pack("<I", PKT_MAGIC) + uuidlib.UUID(trace_uuid(27)).bytes
    head += struct.pack("<I", 0)
    size = len(head) + 16 + len(body)
    write(out, "noclock", md, head + struct.pack("<QQ", size * 8, size * 8) + body)


def uuid_traces(out):
    plain = env(hostname="hu", tracer_name="handmade")
    # data packets: another uuid, the trace's, a third one
    simple(out, "uuid-data", trace_uuid(40), plain,
           [clock(uuid=clock_uuid(40), offset_s=1000, absolute="true")], "monotonic",
           [[(110, 40), (210, 41)], [(310, 42)], [(410, 43)]],
           hdr_uuids=[trace_uuid(41), trace_uuid(40), trace_uuid(42)])
    # a packet header with a uuid in a trace without one
    md = (HEAD + trace_block(None).replace("uint32_t magic;", "uint32_t magic; uint8_t uuid[16];")
          + plain + clock(offset_s=1000, absolute="true") + stream_block(ts_type("monotonic"))
          + EVENT)
    write(out, "uuid-notrace", md, packet(trace_uuid(43), [(115, 44)]))
    # packetized metadata whose packets have another uuid than the trace block
    md = (HEAD + trace_block(trace_uuid(44)) + plain
          + clock(uuid=clock_uuid(44), offset_s=1000, absolute="true")
          + stream_block(ts_type("monotonic")) + EVENT)
    write(out, "uuid-meta", md, packet(trace_uuid(44), [(125, 45)]),
          packetized_uuid=trace_uuid(45))


def timestamp_traces(out):
    # no clock: the default clock (1 GHz, no offset); even in an LTTng trace, it
    # is not absolute
    lt = env(hostname="hn", tracer_name="lttng-ust")
    simple(out, "ts-noclock", trace_uuid(60), lt, [], None,
           [[(100, 60), (5000000000, 61)], [(5000000001, 62)]])
    simple(out, "ts-noclock2", None, env(hostname="hn2"), [], None, [(200, 63)])
    # only an event header time stamp, in a variant, named _timestamp in one option
    md = (HEAD + trace_block(None) + env(hostname="hv")
          + "stream {\n\tid = 0;\n\tevent.header := struct {\n"
            "\t\tenum : uint8_t { compact = 0 ... 254, extended = 255 } id;\n"
            "\t\tvariant <id> {\n\t\t\tstruct { uint32_t timestamp; } compact;\n"
            "\t\t\tstruct { uint32_t id; uint64_t _timestamp; } extended;\n"
            "\t\t} v;\n\t};\n};\n"
          + EVENT)
    head = struct.pack("<II", PKT_MAGIC, 0)
    # (every type here is byte-aligned: no padding)
    body = (struct.pack("<BII", 0, 70, 64)  # compact, time 70, n = 64
            + struct.pack("<BIQI", 255, 0, 5000000000, 65)  # extended
            + struct.pack("<BII", 0, 90, 66))  # compact: the 32 bits wrap past 2^32
    write(out, "ts-variant", md, head + body)
    # one clock, unmapped fields: mapped to it; a nested struct's timestamp_begin
    # is mapped (and not printed), an enum timestamp too, a payload's is not
    md = (HEAD + trace_block(trace_uuid(61)) + env(hostname="ho")
          + clock(name="c1", uuid=clock_uuid(61), freq=1000000, offset_s=5)
          + "stream {\n\tid = 0;\n\tpacket.context := struct { uint64_t content_size; "
            "uint64_t packet_size; struct { uint64_t timestamp_begin; uint32_t x; } inner; "
            "uint32_t timestamp_end; };\n"
            "\tevent.header := struct { enum : uint64_t { a = 0 ... 1000 } timestamp; "
            "uint32_t id; };\n};\n"
          + "event { name = ev; id = 0; stream_id = 0; "
            "fields := struct { uint32_t n; uint64_t timestamp; }; };\n")
    head = struct.pack("<I", PKT_MAGIC) + uuidlib.UUID(trace_uuid(61)).bytes + struct.pack("<I", 0)
    body = b"".join(struct.pack("<QIIQ", ts, 0, n, 1000 + n) for ts, n in [(10, 67), (12, 68)])
    size = len(head) + 32 + len(body)
    write(out, "ts-oneclock", md,
          head + struct.pack("<QQQII", size * 8, size * 8, 9, 99, 13) + body)
    # two clocks: an unmapped time stamp cannot be mapped (even when the other
    # fields of the stream are mapped)
    simple(out, "ts-twoclocks", trace_uuid(62), env(hostname="hw"),
           [clock(name="c1", offset_s=5), clock(name="c2")], None, [(7, 69)])
    md = (HEAD + trace_block(trace_uuid(63)) + env(hostname="hw")
          + clock(name="c1", offset_s=5) + clock(name="c2")
          + stream_block(ts_type("c1"), hdr_ts="uint64_t") + EVENT)
    write(out, "ts-twoclocks-hdr", md, packet(trace_uuid(63), [(8, 70)]))
    # the only clock declared after the stream
    md = (HEAD + trace_block(trace_uuid(64)) + env(hostname="hl")
          + stream_block(ts_type(None)) + EVENT
          + clock(name="late", freq=1000, offset_s=7))
    write(out, "ts-clock-after", md, packet(trace_uuid(64), [(7, 71), (9, 72)]))
    # a struct type shared by the event header and a payload: only the header's
    # timestamp becomes a time stamp
    md = (HEAD + trace_block(trace_uuid(65)) + env(hostname="hs")
          + "typealias struct { uint64_t timestamp; uint32_t id; } := hdr_t;\n"
          + "stream {\n\tid = 0;\n\tevent.header := hdr_t;\n};\n"
          + "event { name = ev; id = 0; stream_id = 0; "
            "fields := struct { hdr_t h; uint32_t n; }; };\n")
    head = struct.pack("<I", PKT_MAGIC) + uuidlib.UUID(trace_uuid(65)).bytes + struct.pack("<I", 0)
    body = b"".join(struct.pack("<QIQII", ts, 0, 7 * ts, 9, n) for ts, n in [(30, 73), (40, 74)])
    write(out, "ts-shared", md, head + body)


def stream_clock_traces(out):
    ts = ("typealias integer { size = 64; align = 8; signed = false; "
          "map = clock.c.value; } := ts_c;\n"
          "typealias integer { size = 64; align = 8; signed = false; "
          "map = clock.d.value; } := ts_d;\n")
    clocks = clock(name="c", offset_s=10) + clock(name="d", offset_s=20)
    head = struct.pack("<I", PKT_MAGIC)
    # only a payload field maps to a clock: the stream has that clock, an
    # event's time is the value before its payload moves it
    md = (HEAD + ts + trace_block(None).replace(" uint32_t stream_id;", "") + clocks
          + "stream {\n\tevent.header := struct { uint32_t id; };\n};\n"
          + "event { name = ev; id = 0; fields := struct { uint32_t n; ts_c t; }; };\n")
    write(out, "sc-payload", md,
          head + b"".join(struct.pack("<IIQ", 0, n, t) for n, t in [(80, 100), (81, 250), (82, 400)]))
    # the event header maps to c, a payload field to d: refused
    md = (HEAD + ts + trace_block(None).replace(" uint32_t stream_id;", "") + clocks
          + "stream {\n\tevent.header := struct { uint32_t id; ts_c timestamp; };\n};\n"
          + "event { name = ev; id = 0; fields := struct { uint32_t n; ts_d t; }; };\n")
    write(out, "sc-two", md, head + struct.pack("<IQIQ", 0, 100, 83, 100))
    # a packet header field mapped to a clock: refused
    md = (HEAD + ts + trace_block(None).replace(" uint32_t stream_id;", " ts_c t;") + clocks
          + "stream {\n\tevent.header := struct { uint32_t id; ts_c timestamp; };\n};\n"
          + EVENT.replace(" stream_id = 0;", ""))
    write(out, "sc-header", md, head + struct.pack("<QIQI", 5, 0, 100, 84))
    # signed fields mapped to the clock (the event header's time stamp, a
    # payload field): the stream has the clock, which they never move
    sts = ("typealias integer { size = 32; align = 8; signed = true; "
           "map = clock.c.value; } := sts_c;\n")
    md = (HEAD + sts + trace_block(None).replace(" uint32_t stream_id;", "")
          + clock(name="c", offset_s=10)
          + "stream {\n\tevent.header := struct { uint32_t id; sts_c timestamp; };\n};\n"
          + "event { name = ev; id = 0; fields := struct { uint32_t n; sts_c s; }; };\n")
    write(out, "sc-signed", md,
          head + b"".join(struct.pack("<IiIi", 0, t, n, p)
                          for t, n, p in [(5, 85, -2), (-3, 86, 30), (100, 87, 1000)]))


def main():
    out = sys.argv[1]
    lttng_traces(out)
    other_traces(out)
    uuid_traces(out)
    timestamp_traces(out)
    stream_clock_traces(out)


main()
