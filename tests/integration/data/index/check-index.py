#!/usr/bin/env python3
"""check-index.py TRACE_DIR...: every stream file of every trace under the
directories has an index/STREAM.idx (CTF index 1.1, as LTTng's consumer
writes it) that describes exactly its packets, in order: offset, packet and
content sizes, begin and end times, discarded count, stream id, stream
instance id and sequence number, all read back from the packets themselves
(trax's packet header: see src/writer/packet.h and the metadata).
Prints one line per stream file and exits 1 at the first mismatch. With
CHECK_INDEX_KILLED set (the writer was killed), the one thing a kill between
two writes may leave is accepted and said: a last entry (or packet) for a
packet the file does not wholly hold."""
import os
import struct
import sys

# trace.packet.header then stream.packet.context, byte-packed, little endian
PACKET = struct.Struct("<I16sIQQQQQQQI")
MAGIC = 0xC1FC1FC1
FIELDS = ("offset", "packet_size", "content_size", "timestamp_begin",
          "timestamp_end", "events_discarded", "stream_id",
          "stream_instance_id", "packet_seq_num")


def fail(msg):
    print("check-index: " + msg, file=sys.stderr)
    sys.exit(1)


def packets(path):
    with open(path, "rb") as f:
        data = f.read()
    off = 0
    while off < len(data):
        (magic, _uuid, stream_id, instance, ts_begin, ts_end, content, size,
         seq, discarded, _cpu) = PACKET.unpack_from(data, off)
        if (magic == MAGIC and size and not size % 8 and off + size // 8 > len(data)
                and os.environ.get("CHECK_INDEX_KILLED")):
            # the writer was killed in the middle of this, the last packet
            print(f"{path}: the last packet cut short at byte {off} (killed)")
            return
        if magic != MAGIC or size == 0 or size % 8 or off + size // 8 > len(data):
            fail(f"{path}: no valid packet at byte {off}")
        yield dict(offset=off, packet_size=size, content_size=content,
                   timestamp_begin=ts_begin, timestamp_end=ts_end,
                   events_discarded=discarded, stream_id=stream_id,
                   stream_instance_id=instance, packet_seq_num=seq)
        off += size // 8


def entries(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 16:
        fail(f"{path}: {len(data)} bytes, shorter than the header")
    magic, major, minor, entry_len = struct.unpack_from(">IIII", data, 0)
    if (magic, major, minor, entry_len) != (0xC1F1DCC1, 1, 1, 72):
        fail(f"{path}: header {magic:#x} {major}.{minor} entry {entry_len}, "
             "expected 0xc1f1dcc1 1.1 entry 72")
    if (len(data) - 16) % 72:
        fail(f"{path}: {len(data) - 16} bytes of entries, not a multiple of 72")
    for off in range(16, len(data), 72):
        yield dict(zip(FIELDS, struct.unpack_from(">9Q", data, off)))


def check_trace(d):
    streams = [n for n in sorted(os.listdir(d))
               if os.path.isfile(os.path.join(d, n)) and n != "metadata"]
    if not streams:
        fail(f"{d}: no stream file")
    total = 0
    for n in streams:
        idx = os.path.join(d, "index", n + ".idx")
        if not os.path.isfile(idx):
            fail(f"{d}: no index/{n}.idx")
        want = list(packets(os.path.join(d, n)))
        got = list(entries(idx))
        size = os.path.getsize(os.path.join(d, n))
        if (os.environ.get("CHECK_INDEX_KILLED") and len(got) == len(want) + 1
                and got[-1]["offset"] + got[-1]["packet_size"] // 8 > size):
            # killed between the entry and its packet: an entry for a packet
            # the file does not (wholly) hold; readers go by the file then
            print(f"{idx}: one more entry, for a packet the kill cut short")
            got.pop()
        if len(want) != len(got):
            fail(f"{idx}: {len(got)} entries for {len(want)} packets")
        for k, (w, g) in enumerate(zip(want, got)):
            for field in FIELDS:
                if w[field] != g[field]:
                    fail(f"{idx}: entry {k}: {field} = {g[field]}, "
                         f"the packet says {w[field]}")
        print(f"{os.path.join(d, n)}: {len(got)} packets, index agrees")
        total += len(got)
    extra = sorted(set(os.listdir(os.path.join(d, "index"))) -
                   {n + ".idx" for n in streams})
    if extra:
        fail(f"{d}/index: files of no stream: {' '.join(extra)}")
    return total


def main():
    total = 0
    traces = 0
    for top in sys.argv[1:]:
        for root, _dirs, files in os.walk(top):
            if "metadata" in files:
                total += check_trace(root)
                traces += 1
    if not traces:
        fail("no trace under " + " ".join(sys.argv[1:]))
    print(f"{traces} traces, {total} packets")


main()
