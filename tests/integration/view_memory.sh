#!/bin/sh
# trax view reads a trace in bounded memory, whatever the size of its packets:
# the peak RSS of --count and of the text (two readers and one) stays far
# below the size of a stream file that is one 96 MiB packet, read through the
# generic decoder (no packet context, no clock) and through the runs of fused
# compact events (LTTng's compact header, a clock, one declared packet).
. "$TRAX_SRC/tests/integration/lib.sh"

TRAX="$TRAX_BUILD/trax"
MIB=96
LIMIT_KIB=$((40 * 1024)) # the pages of a file read already are given back every MiB

# gen.py KIND DIR: a trace whose stream file is one MIB-mebibyte packet.
cat >"$TEST_TMP/gen.py" <<'EOF'
import array, os, struct, sys

kind, d, mib = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(d, exist_ok=True)
ints = """typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
"""
if kind == "plain":
    meta = ints + """trace { major = 1; minor = 8; byte_order = le; };
event { name = "big"; fields := struct { uint32_t x; }; };
"""
    n = mib * 1024 * 1024 // 4
    body = lambda s, e: array.array("I", range(s, e)).tobytes()
    head = b""
else:
    meta = ints + """typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
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
event { name = "big"; id = 0; fields := struct { uint32_t x; }; };
"""
    size = mib * 1024 * 1024
    n = (size - 32) // 8
    head = struct.pack("<QQQQ", 0, n, size * 8, size * 8)

    def body(s, e):
        # event i: id 0 and timestamp i in the header word, then x = i
        a = array.array("I", bytes(8 * (e - s)))
        a[0::2] = array.array("I", ((i << 5) & 0xFFFFFFFF for i in range(s, e)))
        a[1::2] = array.array("I", range(s, e))
        return a.tobytes()
open(d + "/metadata", "w").write("/* CTF 1.8 */\n" + meta)
with open(d + "/stream", "wb") as f:
    f.write(head)
    for s in range(0, n, 1 << 20):
        f.write(body(s, min(n, s + (1 << 20))))
    f.truncate(mib * 1024 * 1024)
print(n)
EOF

# peak_run CMD...: runs CMD with its stdout read through a pipe; prints its
# peak RSS (KiB), the number of lines it printed and its last line.
peak_run() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
lines, last = 0, b""
while True:
    b = p.stdout.read(1 << 20)
    if not b:
        break
    lines += b.count(b"\n")
    last = (last + b)[-200:]
if p.wait():
    sys.exit("exit status %d: %s" % (p.returncode, " ".join(sys.argv[1:])))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, lines)
print(last.rstrip(b"\n").split(b"\n")[-1].decode())
EOF
}

for kind in plain compact; do
	t="$TEST_TMP/$kind"
	n=$(python3 "$TEST_TMP/gen.py" $kind "$t" $MIB)
	expect_eq "$(wc -c <"$t/stream")" $((MIB * 1024 * 1024)) "$kind: stream file size"

	# the same first events as babeltrace2 (which would take long for the rest)
	babeltrace2 "$t" 2>/dev/null | head -n 3 >"$TEST_TMP/bt2.head" || true
	[ -s "$TEST_TMP/bt2.head" ] || fail "$kind: babeltrace2 printed nothing"
	"$TRAX" view "$t" | head -n 3 >"$TEST_TMP/trax.head" || true
	cmp "$TEST_TMP/bt2.head" "$TEST_TMP/trax.head" || fail "$kind: first lines differ from babeltrace2"

	peak_run "$TRAX" view --count "$t" >"$TEST_TMP/run.out" || fail "$kind: --count failed"
	read -r kib lines <"$TEST_TMP/run.out"
	expect_eq "$(tail -n 1 "$TEST_TMP/run.out")" "$n events" "$kind: --count"
	[ "$kib" -lt $LIMIT_KIB ] || fail "$kind: --count peaked at $kib KiB for a $MIB MiB packet"
	ok "$kind: --count of $n events in one $MIB MiB packet, peak RSS $kib KiB"

	for threads in "" 1; do
		TRAX_VIEW_THREADS=$threads peak_run "$TRAX" view "$t" >"$TEST_TMP/run.out" ||
			fail "$kind: text failed"
		read -r kib lines <"$TEST_TMP/run.out"
		expect_eq "$lines" "$n" "$kind: text lines"
		last=$(tail -n 1 "$TEST_TMP/run.out")
		case $last in
		*"big: { x = $((n - 1)) }") ;;
		*) fail "$kind: last line '$last'" ;;
		esac
		[ "$kib" -lt $LIMIT_KIB ] ||
			fail "$kind: text (threads '${threads:-default}') peaked at $kib KiB for a $MIB MiB packet"
		ok "$kind: text (threads '${threads:-default}'), peak RSS $kib KiB"
	done
	rm -rf "$t"
done
