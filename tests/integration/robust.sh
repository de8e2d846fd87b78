#!/bin/sh
# The tracer keeps out of the application's way: (1) a daemon that closes
# every descriptor and opens its own files gets its files untouched; (2) a
# provider closed with dlclose neither crashes the consumer nor leaves a
# dangling signal handler: the program dies by its SIGTERM, events kept;
# (3) overwrite mode with a handled signal and a normal exit gives a
# readable trace (each sub-buffer written once).
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/robust"
cd "$TEST_TMP"

# (1)
$CC $TRAX_CFLAGS -I"$d" -o fds "$d/fds.c" "$d/tp.c" $TRAX_LDFLAGS -ltrax-ust -ldl
mkdir app
TRAX_OUTPUT="$TEST_TMP/t1" TRAX_SUBBUF_SIZE=4096 ./fds app >out1.txt 2>/dev/null ||
	fail "the fd-closing program failed"
expect_contains out1.txt done
for f in app/app*; do
	[ "$(cat "$f")" = "app data" ] || fail "$f was written to by the tracer ($(wc -c <"$f") bytes)"
done
ok "descriptors reused by the application are never written to"

# (2)
$CC $TRAX_CFLAGS -fpic -I"$d" -c "$d/tp-probes.c" -o tp-probes.o
$CC -shared -Wl,--no-as-needed -o libprov.so tp-probes.o $TRAX_LDFLAGS -ltrax-ust
$CC $TRAX_CFLAGS -I"$d" -o dl "$d/dl.c" "$d/tp-define.c" $TRAX_LDFLAGS -ldl
set +e
TRAX_OUTPUT="$TEST_TMP/t2" ./dl "$TEST_TMP/libprov.so" >out2.txt 2>err2.txt
st=$?
set -e
[ $st = 143 ] || fail "after dlclose of the provider: exit status $st, expected 143 (SIGTERM); $(cat out2.txt err2.txt)"
bt2 "$TEST_TMP/t2" >t2.txt
[ "$(grep -c 'robust:ev' t2.txt)" = 110 ] || fail "after dlclose: $(grep -c 'robust:ev' t2.txt) events, expected 110"
ok "dlclose of a provider: no crash, the process dies by its own signal, 110 events kept"

# (3)
$CC $TRAX_CFLAGS -I"$d" -o ow "$d/ow.c" "$d/tp.c" $TRAX_LDFLAGS -ltrax-ust -ldl
TRAX_OVERWRITE=1 TRAX_SUBBUF_SIZE=4096 TRAX_OUTPUT="$TEST_TMP/t3" ./ow
babeltrace2 "$TEST_TMP/t3" >t3.txt 2>err3.txt || fail "overwrite + signal: babeltrace2 fails: $(cat err3.txt)"
grep -q WARNING err3.txt && fail "overwrite + signal: $(cat err3.txt)"
tail -n 1 t3.txt | grep -q 'n = 5009 }' || fail "overwrite + signal: the last event is not the newest"
ok "overwrite mode with a handled signal: a readable trace ending with the newest event"
