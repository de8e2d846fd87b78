#!/bin/sh
# Several processes tracing into one TRAX_OUTPUT: each leaves its own trace
# (ust/pid/PROCNAME-PID-DATE), their clocks are the same clock (named by the
# kernel's boot id, as LTTng names CLOCK_MONOTONIC), and babeltrace2 reads
# them all in one run, merged in time order.
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/plugins"
cd "$TEST_TMP"
build_app "$d" mp

out="$TEST_TMP/t"
i=0
while [ $i -lt 4 ]; do
	TRAX_OUTPUT="$out" ./mp 100 >/dev/null &
	i=$((i + 1))
done
wait
[ "$(ls "$out/ust/pid" | wc -l)" = 4 ] || fail "expected 4 process traces, got: $(ls "$out/ust/pid")"
boot=$(cat /proc/sys/kernel/random/boot_id)
for m in "$out"/ust/pid/*/metadata; do
	sed -n '/^clock {/,/^};/p' "$m" | grep -qF "uuid = \"$boot\";" ||
		fail "$m: the clock is not named by the boot id $boot"
done
bt2 "$out" >all.txt
[ "$(wc -l <all.txt)" = 400 ] || fail "babeltrace2 read $(wc -l <all.txt) events of 4 x 100"
[ "$(sed 's/.*(\([0-9]*\)) plug:ev.*/\1/' all.txt | sort -u | wc -l)" = 4 ] ||
	fail "the events of the 4 processes are not all there"
# In time order across processes.
awk '{ t = substr($0, 2, 18); if (NR > 1 && t < prev) { print "out of order at " NR; exit 1 } prev = t }' all.txt ||
	fail "merged events are not in time order"
ok "4 processes, one output directory, one merged timeline"
