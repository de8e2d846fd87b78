#!/bin/sh
# Overwrite (flight-recorder) mode: one thread pinned to one CPU emits
# numbered events into 4 sub-buffers of 4 kB; the trace keeps the newest
# ones: the last event emitted is there, the sequence numbers form one
# contiguous range ending with it, in 4 packets, and their count is what 4
# sub-buffers hold.
#
# Count: an event is 16 bytes (4-byte compact header, 4-byte index, 8-byte
# sequence number) and a packet starts with 84 bytes of CTF header and
# context, so a 4096-byte sub-buffer holds 250 events (a record never ends
# exactly at the end). After the final flush the buffer keeps the 3 complete
# sub-buffers before the one being filled, and that one: 750 + the events of
# the last sub-buffer.
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/threads"
cd "$TEST_TMP"
build_app "$d" app

per=250
# n: events emitted; last: events expected in the last (partial) sub-buffer.
for run in "1000000 250" "1000100 100"; do
	set -- $run
	n=$1
	expect_n=$((3 * per + $2))
	rm -rf "$TEST_TMP/t"
	status=0
	TRAX_EVENTS='thr:*' TRAX_OVERWRITE=1 TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=4 \
		TRAX_OUTPUT="$TEST_TMP/t" ./app 1 $n first >app.out 2>app.err || status=$?
	expect_eq "$status" 7 "exit status of the traced program"
	expect_contains app.out "emitted $n"
	cpu=$(sed -n 's/^cpu //p' app.out)

	babeltrace2 --names=none --no-delta "$TEST_TMP/t" >t.txt 2>bt.err || {
		head -c 2000 bt.err >&2
		fail "babeltrace2 cannot read the trace"
	}
	# "[time] host:proc:(pid) thr:ev: { cpu }, { idx, seq }"
	res=$(awk -v cpu="$cpu" '
		$3 != "thr:ev:" { next }
		{
			s = $9 + 0
			if ($5 != cpu || $8 != "0,") { print "unexpected: " $0; exit 1 }
			if (c && s != last + 1) { print "gap: " last " then " s; exit 1 }
			if (!c) first = s
			last = s; c++
		}
		END { print c + 0, first + 0, last + 0 }' t.txt) || fail "run of $n: $res"
	set -- $res
	expect_eq "$3" $((n - 1)) "run of $n: last sequence number in the trace"
	expect_eq "$1" $expect_n "run of $n: events kept"
	expect_eq "$2" $((n - expect_n)) "run of $n: oldest sequence number kept"
	packets=$(babeltrace2 -c sink.text.details "$TEST_TMP/t" 2>/dev/null | grep -c 'Packet beginning') || true
	expect_eq "$packets" 4 "run of $n: packets kept"
	ok "overwrite, $n events: the newest $1 kept ($2..$3) in 4 packets"
done
