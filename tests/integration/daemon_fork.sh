#!/bin/sh
# daemon_fork.sh - a traced program's children (fork without exec) register
# with the daemon as processes of their own, before fork returns in them:
# every event of the parent and of each child is recorded, with the right
# vpid, in per-user buffers and in per-process ones (one directory per
# process); the parent goes on being traced after its children exit.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/daemon
N=500
K=3
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$DATA" -o forker "$DATA/forker.c" "$DATA/ticker_tp.c" $TRAX_LDFLAGS \
	-ltrax-ust -ldl

# run BUFFERS: records one run of the program with that buffering scheme
run() {
	trax create "f$1" --output="$TEST_TMP/out-$1" >/dev/null || fail "trax create ($1)"
	trax enable-channel -u "--buffers-$1" ch >/dev/null || fail "trax enable-channel --buffers-$1"
	trax enable-event -u -c ch 'ticker:*' >/dev/null || fail "trax enable-event ($1)"
	trax add-context -u -c ch -t vpid >/dev/null || fail "trax add-context ($1)"
	trax start >/dev/null || fail "trax start ($1)"
	./forker $N $K >"pids-$1" || fail "the program failed ($1)"
	trax stop >/dev/null || fail "trax stop ($1)"
	bt2 "$TEST_TMP/out-$1" >"view-$1.txt"
	expect_eq "$(grep -c 'ticker:tick' "view-$1.txt")" $(((K + 2) * N)) "events recorded ($1)"
	# per process: its vpid on each of its events, and all of them
	while read -r _ prog pid; do
		want=$N
		[ "$prog" = 0 ] && want=$((2 * N))
		got=$(grep -c "vpid = $pid }.*prog = $prog }" "view-$1.txt")
		expect_eq "$got" "$want" "events of process $pid (prog $prog, $1 buffers)"
	done <"pids-$1"
	expect_eq "$(wc -l <"pids-$1")" $((K + 1)) "processes ($1)"
	trax destroy >/dev/null || fail "trax destroy ($1)"
}

run uid
run pid
dirs=$(find "$TEST_TMP/out-pid/ust/pid" -mindepth 1 -maxdepth 1 -type d | wc -l)
expect_eq "$dirs" $((K + 1)) "per-process trace directories"
ok "children of fork traced as processes of their own (per-user and per-process buffers)"
