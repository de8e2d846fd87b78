#!/bin/sh
# Context fields (TRAX_CONTEXT): vpid, vtid, procname, pthread_id and ip are
# recorded with each event and show the values the program itself reports.
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/contexts"
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$d" -c "$d/tp.c" -o tp.o
# -O0: the call-site helper must still be inlined for ip to name the caller.
$CC $TRAX_CFLAGS -O0 -I"$d" -c "$d/app.c" -o app.o
$CC -o ctxapp app.o tp.o $TRAX_LDFLAGS -ltrax-ust -ldl -lpthread

TRAX_OUTPUT="$TEST_TMP/t" TRAX_CONTEXT=vpid,vtid,procname,pthread_id,ip ./ctxapp >out.txt
bt2 "$TEST_TMP/t" >trace.txt
[ "$(wc -l <trace.txt)" = 2 ] || fail "expected 2 events, got $(wc -l <trace.txt)"

pid=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' out.txt)
tid=$(sed -n 's/^pid=[0-9]* tid=\([0-9]*\) .*/\1/p' out.txt)
pth=$(sed -n 's/^pid=.*pthread=\([0-9]*\)$/\1/p' out.txt)
ttid=$(sed -n 's/^thread tid=\([0-9]*\) .*/\1/p' out.txt)
tpth=$(sed -n 's/^thread .*pthread=\([0-9]*\)$/\1/p' out.txt)

line1=$(grep 'n = 1 ' trace.txt)
line2=$(grep 'n = 2 ' trace.txt)
echo "$line1" | grep -qF "vpid = $pid, vtid = $tid, procname = \"ctxapp\", pthread_id = $pth," ||
	fail "main thread context wrong: $line1 (pid $pid tid $tid pthread $pth)"
echo "$line2" | grep -qF "vpid = $pid, vtid = $ttid, procname = \"ctx-worker\", pthread_id = $tpth," ||
	fail "worker thread context wrong: $line2 (tid $ttid pthread $tpth)"

# ip: the call site in emit_here(): the address recorded lies inside that
# function, whose size the symbol table gives.
fn=$(sed -n 's/^emit_here=0x\([0-9a-f]*\)$/\1/p' out.txt)
size=$(nm -S ctxapp | awk '$4 == "emit_here" { print $2 }')
[ -n "$size" ] || fail "emit_here not found by nm"
# (in decimal: LTTng-UST declares its ip context in base 10)
ip=$(echo "$line1" | sed -n 's/.*ip = \([0-9]*\)[, ].*/\1/p')
[ -n "$ip" ] || fail "no decimal ip context in: $line1"
delta=$(( ip - 0x$fn ))
[ "$delta" -gt 0 ] && [ "$delta" -lt $(( 0x$size )) ] ||
	fail "ip $ip is not in emit_here (0x$fn, 0x$size bytes)"
ip2=$(echo "$line2" | sed -n 's/.*ip = \([0-9]*\)[, ].*/\1/p')
[ "$ip" != "$ip2" ] || fail "two call sites recorded the same ip $ip"

# The packet context always has cpu_id; without TRAX_CONTEXT there is no event context.
TRAX_OUTPUT="$TEST_TMP/t2" ./ctxapp >/dev/null
bt2 "$TEST_TMP/t2" >trace2.txt
grep -q 'vpid' trace2.txt && fail "contexts recorded although none was asked for"
expect_contains trace2.txt "{ cpu_id = "
ok "contexts"
