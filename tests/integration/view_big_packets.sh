#!/bin/sh
# view_big_packets.sh - trax view reads packets larger than its read window
# (256 KiB) with a bounded number of reads: a 4 MiB packet of compact
# events, every other one of a class the fused runs do not take (a
# string), printed as babeltrace2 prints it, with fewer than 200 pread
# calls for its 524,284 events. (Each event of such a class once made the
# run refill its window: one 256 KiB pread per event, 30 times slower.)
. "$TRAX_SRC/tests/integration/lib.sh"

command -v strace >/dev/null || fail "strace is needed (tools/install-deps.sh installs it)"
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
TRAX="$TRAX_BUILD/trax"
cd "$TEST_TMP"

cat >gen.py <<'EOF'
import os, struct, sys

d, mib = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
meta = """/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := uint27_clock_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := uint64_clock_t;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; freq = 1000000000; };
stream {
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
	};
	event.header := struct {
		enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
		variant <id> {
			struct { uint27_clock_t timestamp; } compact;
			struct { uint32_t id; uint64_clock_t timestamp; } extended;
		} v;
	} align(8);
};
event { name = "num"; id = 0; fields := struct { uint32_t x; }; };
event { name = "str"; id = 1; fields := struct { string s; }; };
"""
open(d + "/metadata", "w").write(meta)
size = mib << 20
body = bytearray()
i = 0
# 8-byte events: id 0 with x = i, or id 1 with the string "abc"
while 32 + len(body) + 8 <= size:
    cls = i % 2
    body += struct.pack("<I", ((i << 5) | cls) & 0xFFFFFFFF)
    body += struct.pack("<I", i) if cls == 0 else b"abc\0"
    i += 1
head = struct.pack("<QQQQ", 0, i, (32 + len(body)) * 8, size * 8)
with open(d + "/stream", "wb") as f:
    f.write(head + body)
    f.truncate(size)
print(i)
EOF
n=$(python3 gen.py big 4) || fail "cannot write the trace"

strace -f -e trace=pread64 -o strace.txt "$TRAX" view big >view.txt 2>err.txt || fail "trax view failed: $(cat err.txt)"
[ "$(wc -l <view.txt)" = "$n" ] || fail "trax view printed $(wc -l <view.txt) events of $n"
reads=$(grep -c 'pread64(' strace.txt || true)
[ "$reads" -lt 200 ] || fail "$reads pread calls for $n events in one 4 MiB packet"
babeltrace2 big >bt2.txt 2>bt2.err || fail "babeltrace2 cannot read the trace: $(cat bt2.err)"
cmp -s bt2.txt view.txt || fail "trax view and babeltrace2 differ: $(diff bt2.txt view.txt | head -4)"
ok "$n events in a 4 MiB packet: $reads reads, the text babeltrace2 prints"
