#!/bin/sh
# index_kill.sh - the packet index files still agree with their stream
# files when the writer dies by SIGKILL in the middle of a trace: an
# application writing its own trace (TRAX_OUTPUT, whose consumer dies with
# it) and traxd, each killed while an application emits events at full
# speed (so that a packet is being written at any time). check-index.py
# reads every entry back against the packets, babeltrace2 builds its
# packet lists from the index files without falling back to scanning the
# streams, and trax view reads the trace. (Packet first, then its entry,
# the index lacked the last packet in 39 kills of 40 with TRAX_OUTPUT and
# in every kill of traxd: the entry is now written first, and a SIGKILL
# lets the long write of the packet that follows complete.)
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

CHECK="python3 $TRAX_SRC/tests/integration/data/index/check-index.py"
command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed"
W=$TEST_TMP/w
mkdir -p "$W"
cd "$W"
cat >loop.c <<'EOC'
#include <lttng/tracef.h>
int main(void)
{
	for (long i = 0;; i++)
		tracef("event %ld, with some text to fill the packets", i);
	return 0;
}
EOC
$CC $TRAX_CFLAGS -o loop loop.c $TRAX_LDFLAGS -ltrax-ust -ldl

# consistent WHAT DIR: the trace under DIR has packets, each in its index.
consistent() {
	CHECK_INDEX_KILLED=1 $CHECK "$2" >check.out 2>&1 || {
		cat check.out >&2
		fail "$1: the stream files and their index files disagree"
	}
	packets=$(sed -n 's/^[0-9]* traces, \([0-9]*\) packets$/\1/p' check.out)
	[ "${packets:-0}" -ge 2 ] || fail "$1: expected packets, got ${packets:-none}"
	# (babeltrace2's dummy output: it reads every packet, prints nothing)
	babeltrace2 --log-level=I -o dummy "$2" >/dev/null 2>bt.log || {
		grep -E ' [EW] ' bt.log | tail -5 >&2
		fail "$1: babeltrace2 cannot read the trace"
	}
	# babeltrace2 checks the index against the file's size: after a kill
	# between an entry and its packet (check-index said so) it reads the
	# stream file itself, which is right then
	if grep -q 'falling back' bt.log && ! grep -q 'cut short' check.out; then
		grep -B3 'falling back' bt.log >&2
		fail "$1: babeltrace2 refused an index file"
	fi
	built=$(grep -c 'Building index from .idx file' bt.log || true)
	[ "$built" -ge 1 ] || fail "$1: babeltrace2 read no index file"
	n=$(TRAX_VIEW_THREADS=2 "$TRAX_BUILD/trax" view --count "$2") || fail "$1: trax view --count failed"
	ok "$1: $packets packets, all in the index files; babeltrace2 read $built index files, trax view $n"
}

# wait_written DIR: returns once DIR's stream files hold at least four
# packets (at most 20 s), so that a loaded machine's slow start does not
# leave the kill with one packet only; the kill comes some time after.
wait_written() {
	i=0
	while [ $i -lt 200 ]; do
		bytes=$(find "$1" -type f ! -name metadata ! -name '*.idx' -printf '%s\n' 2>/dev/null |
			awk '{ s += $1 } END { print s + 0 }')
		[ "$bytes" -ge 16384 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "no stream data under $1 after 20 s"
}

# ---- TRAX_OUTPUT: the application (and its consumer) killed ----
for t in 0.1 0.2 0.3; do
	TRAX_OUTPUT=$W/emb-$t TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=8 ./loop &
	app=$!
	wait_written "$W/emb-$t"
	sleep $t
	kill -KILL $app
	wait $app || :
	consistent "TRAX_OUTPUT, SIGKILL after $t s" "$W/emb-$t"
done

# ---- traxd killed while it writes a session's trace ----
for t in 0.2 0.4; do
	trax create "k$t" --output="$W/k$t" >/dev/null
	trax enable-channel -u --subbuf-size=4096 --num-subbuf=8 ch >/dev/null
	trax enable-event -u -c ch -a >/dev/null
	trax start >/dev/null
	./loop &
	app=$!
	wait_written "$W/k$t"
	sleep $t
	kill -KILL "$(daemon_pid)"
	sleep 0.1
	kill -KILL $app
	wait $app || :
	consistent "traxd, SIGKILL after $t s" "$W/k$t"
done
