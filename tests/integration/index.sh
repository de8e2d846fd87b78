#!/bin/sh
# index.sh - every trace trax writes has LTTng's packet index beside each
# stream file (index/STREAM.idx, CTF index 1.1) with one entry per packet,
# as LTTng's consumer writes it: with TRAX_OUTPUT (discard and overwrite
# buffers) and with traxd (per-uid and per-pid buffers, tracefile
# rotation, a flight-recorder channel). Three readers check it:
#   - check-index.py reads every entry back against the packets themselves;
#   - babeltrace2 builds its packet list from the index files (its own
#     checks), without falling back to scanning the streams;
#   - trax view --count on two threads counts as many events as
#     babeltrace2 prints; it gives its second thread a part of the packets
#     that the index files delimit (seen with strace: a second thread with
#     the index files, none without them).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

CHECK="python3 $TRAX_SRC/tests/integration/data/index/check-index.py"
W=$TEST_TMP/w
mkdir -p "$W"
cd "$W"
$CC $TRAX_CFLAGS -o app "$TRAX_SRC/tests/integration/data/index/app.c" $TRAX_LDFLAGS -ltrax-ust -ldl

# readers TRACE WHAT: babeltrace2 takes its packets from the index files,
# and trax view --count (two threads) counts what babeltrace2 prints.
readers() {
	babeltrace2 --log-level=I "$1" >bt.txt 2>bt.log || {
		tail -5 bt.log >&2
		fail "$2: babeltrace2 cannot read the trace"
	}
	built=$(grep -c 'Building index from .idx file' bt.log || true)
	streams=$(find "$1" -type f -size +0 ! -name metadata ! -name '*.idx' | wc -l)
	[ "$streams" -gt 0 ] || fail "$2: no stream file holds a packet"
	expect_eq "$built" "$streams" "$2: index files babeltrace2 read (one per stream file with packets)"
	if grep -q 'falling back to stream indexing' bt.log; then
		grep -B3 'falling back' bt.log >&2
		fail "$2: babeltrace2 refused an index file"
	fi
	n=$(TRAX_VIEW_THREADS=2 "$TRAX_BUILD/trax" view --count "$1") || fail "$2: trax view --count failed"
	expect_eq "${n% events}" "$(wc -l <bt.txt)" "$2: events counted by trax view --count"
	ok "$2: babeltrace2 read $built index files; trax view --count agrees ($n)"
}

# ---- TRAX_OUTPUT, discard buffers: several packets, events discarded ----
TRAX_OUTPUT=$W/emb TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=16 ./app 20000
$CHECK "$W/emb" >check.out || fail "TRAX_OUTPUT: the index files do not describe the packets"
packets=$(sed -n 's/^1 traces, \([0-9]*\) packets$/\1/p' check.out)
[ "${packets:-0}" -ge 8 ] || fail "TRAX_OUTPUT: expected several packets, got ${packets:-none}"
readers "$W/emb" "TRAX_OUTPUT (discard, $packets packets)"

# --count's second thread: only where the index delimits the packets
command -v strace >/dev/null 2>&1 || fail "strace is needed (make check installs it)"
threads() {
	TRAX_VIEW_THREADS=2 strace -f -qq -e trace=clone,clone3 -o strace.out \
		"$TRAX_BUILD/trax" view --count "$1" >/dev/null || fail "trax view --count $1 failed"
	grep -c 'clone' strace.out || :
}
[ "$(threads "$W/emb")" -ge 1 ] || fail "trax view --count started no second thread with the index files"
cp -R "$W/emb" "$W/emb-noidx"
find "$W/emb-noidx" -name index -type d -exec rm -rf {} +
expect_eq "$(threads "$W/emb-noidx")" 0 "threads trax view --count starts without index files"
ok "trax view --count counts a part of the packets on a second thread, with the index files only"

# ---- TRAX_OUTPUT, overwrite buffers ----
TRAX_OUTPUT=$W/emb-ow TRAX_OVERWRITE=1 TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=4 ./app 20000
$CHECK "$W/emb-ow" >check.out || fail "TRAX_OUTPUT overwrite: the index files do not describe the packets"
readers "$W/emb-ow" "TRAX_OUTPUT (overwrite)"

# ---- traxd: per-uid, per-pid, rotation, flight recorder ----
# session NAME CHANNEL-OPTIONS...: records `app 5000` into a new session.
session() {
	name=$1
	shift
	trax create "$name" --output="$W/$name" >/dev/null
	trax enable-channel -u "$@" ch >/dev/null
	trax enable-event -u -c ch -a >/dev/null
	trax start >/dev/null
	./app 5000
	trax stop >/dev/null
	trax destroy >/dev/null
	$CHECK "$W/$name" >check.out || fail "$name: the index files do not describe the packets"
}
session uid --buffers-uid --subbuf-size=8192 --num-subbuf=8
readers "$W/uid" "traxd, per-uid buffers"
session pid --buffers-pid --subbuf-size=8192 --num-subbuf=8
readers "$W/pid" "traxd, per-pid buffers"
session ow --overwrite --subbuf-size=8192 --num-subbuf=4
readers "$W/ow" "traxd, flight recorder"
session rot --subbuf-size=4096 --num-subbuf=8 --tracefile-size=16384 --tracefile-count=3
# every stream file of the rotation has an index of its own, named after it
files=$(find "$W/rot" -name 'ch_*_*' ! -name '*.idx' -type f | wc -l)
idx=$(find "$W/rot" -name 'ch_*_*.idx' -type f | wc -l)
[ "$files" -gt 2 ] || fail "rotation: expected several stream files, got $files"
expect_eq "$idx" "$files" "rotation: index files for $files stream files"
readers "$W/rot" "traxd, tracefile rotation ($files files)"
