#!/bin/sh
# index_disk_full.sh - a trace written until the disk is full stays a
# trace: every stream file holds whole packets only and its index
# (index/STREAM.idx) describes exactly those, so that babeltrace2 reads it
# from the index files without falling back to scanning the streams, and
# trax view counts what babeltrace2 prints. With traxd (per-uid and per-pid
# buffers, tracefile rotation) and with TRAX_OUTPUT, in packets of 64 KiB,
# which a full disk cuts in the middle (a tmpfs gives its last pages to
# part of one). Needs root (it mounts a small tmpfs, as faults.sh does).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

CHECK="python3 $TRAX_SRC/tests/integration/data/index/check-index.py"
MNT=$TEST_TMP/mnt
mkdir -p "$MNT"
trap 'umount "$MNT" 2>/dev/null || :; daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM
command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed"

cd "$TEST_TMP"
$CC $TRAX_CFLAGS -o app "$TRAX_SRC/tests/integration/data/index/app.c" $TRAX_LDFLAGS -ltrax-ust -ldl

# full WHAT: the trace under $MNT, written until the disk filled up, is
# whole packets and their index, and both readers take it.
full() {
	df -k "$MNT" | awk 'NR == 2 && $4 > 64 { exit 1 }' || fail "$1: the disk did not fill up"
	$CHECK "$MNT" >check.out 2>&1 || {
		cat check.out >&2
		fail "$1: the stream files and their index files disagree"
	}
	packets=$(sed -n 's/^[0-9]* traces, \([0-9]*\) packets$/\1/p' check.out)
	[ "${packets:-0}" -ge 4 ] || fail "$1: expected several packets, got ${packets:-none}"
	babeltrace2 --log-level=I "$MNT" >bt.txt 2>bt.log || {
		grep -E ' [EW] ' bt.log | tail -5 >&2
		fail "$1: babeltrace2 cannot read the trace"
	}
	if grep -q 'falling back' bt.log; then
		grep -B3 'falling back' bt.log >&2
		fail "$1: babeltrace2 refused an index file"
	fi
	n=$(TRAX_VIEW_THREADS=2 "$TRAX_BUILD/trax" view --count "$MNT") || fail "$1: trax view --count failed"
	expect_eq "${n% events}" "$(wc -l <bt.txt)" "$1: events counted by trax view --count"
	ok "$1: $packets whole packets, indexed; babeltrace2 and trax view read $n"
}

# session NAME CHANNEL-OPTIONS...: records `app 100000` (about 9 MB) into a
# new session writing on a 1 MiB file system.
session() {
	name=$1
	shift
	mount -t tmpfs -o size=1m tmpfs "$MNT" || fail "cannot mount a tmpfs on $MNT (the test must run as root)"
	trax create "$name" --output="$MNT/$name" >/dev/null
	trax enable-channel -u "$@" ch >/dev/null
	trax enable-event -u -c ch -a >/dev/null
	trax start >/dev/null
	./app 100000
	trax stop >/dev/null
	trax destroy >/dev/null
	full "traxd, $*"
	umount "$MNT"
}
session uid --buffers-uid --subbuf-size=65536 --num-subbuf=4
session pid --buffers-pid --subbuf-size=65536 --num-subbuf=4
session rot --subbuf-size=65536 --num-subbuf=4 --tracefile-size=262144 --tracefile-count=8

mount -t tmpfs -o size=1m tmpfs "$MNT" || fail "cannot mount a tmpfs on $MNT (the test must run as root)"
# Blocking (up to 1 s a record), so that a consumer slowed by a loaded
# machine still gets the 9 MB that fill the disk instead of dropping them.
TRAX_OUTPUT=$MNT/emb TRAX_SUBBUF_SIZE=65536 TRAX_NUM_SUBBUF=4 \
	TRAX_ALLOW_BLOCKING=1 TRAX_BLOCKING_TIMEOUT=1000 ./app 100000
full "TRAX_OUTPUT"
umount "$MNT"
