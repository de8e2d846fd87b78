#!/bin/sh
# TRAX_CLOCK_PLUGIN and TRAX_GETCPU_PLUGIN replace the trace clock and the
# CPU lookup; a plugin that cannot be loaded is reported and ignored.
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/plugins"
cd "$TEST_TMP"
build_app "$d" plugapp
$CC $TRAX_CFLAGS -fpic -shared -o clock.so "$d/clock-plugin.c" $TRAX_LDFLAGS
$CC $TRAX_CFLAGS -fpic -shared -o getcpu.so "$d/getcpu-plugin.c" $TRAX_LDFLAGS

# Clock plugin: the raw timestamps are the counter's values, strictly 1000
# apart, and the metadata describes the plugin's clock.
TRAX_CLOCK_PLUGIN="$TEST_TMP/clock.so" TRAX_OUTPUT="$TEST_TMP/c" ./plugapp 50 >/dev/null
bt2 --clock-cycles "$TEST_TMP/c" >c.txt
[ "$(wc -l <c.txt)" = 50 ] || fail "clock plugin: expected 50 events"
awk '{ ts = substr($0, 2, index($0, "]") - 2) + 0
       if (NR > 1 && ts - prev != 1000) { print "step " ts - prev " at line " NR; exit 1 }
       prev = ts }' c.txt || fail "clock plugin: timestamps are not the plugin counter"
babeltrace2 --output-format=ctf-metadata "$TEST_TMP/c"/ust/pid/*/ >meta.txt 2>/dev/null ||
	cat "$TEST_TMP/c"/ust/pid/*/metadata >meta.txt
expect_contains meta.txt 'name = "counter";'
expect_contains meta.txt 'freq = 1000000;'

# getcpu plugin: every event lands in CPU 1's stream.
TRAX_GETCPU_PLUGIN="$TEST_TMP/getcpu.so" TRAX_OUTPUT="$TEST_TMP/g" ./plugapp 200 >/dev/null
bt2 "$TEST_TMP/g" >g.txt
[ "$(grep -c 'cpu_id = 1 }' g.txt)" = 200 ] || fail "getcpu plugin: not every event is on CPU 1"

# A missing plugin: said with TRAX_DEBUG, ignored, the trace is still made.
TRAX_DEBUG=1 TRAX_CLOCK_PLUGIN=/nonexistent.so TRAX_OUTPUT="$TEST_TMP/m" ./plugapp 5 >/dev/null 2>err.txt
expect_contains err.txt "clock plugin /nonexistent.so"
bt2 "$TEST_TMP/m" >m.txt
[ "$(wc -l <m.txt)" = 5 ] || fail "missing clock plugin: expected 5 events"
ok "clock and getcpu plugins"

# Plugins written for LTTng-UST (<lttng/ust-clock.h>, <lttng/ust-getcpu.h>):
# they compile against LTTng-UST's headers and trax's, and work under
# LTTNG_UST_CLOCK_PLUGIN / LTTNG_UST_GETCPU_PLUGIN. The clock plugin checks
# the API's answers itself (EINVAL without callbacks, EBUSY once enabled,
# the getters) and reports on stderr.
for p in lttng-clock-plugin lttng-getcpu-plugin; do
	$CC -Wall -Wextra -Werror -fsyntax-only "$d/$p.c" 2>cc.err || {
		cat cc.err >&2
		fail "$p.c does not compile against LTTng-UST's headers"
	}
done
$CC $TRAX_CFLAGS -fpic -shared -o lttng-clock.so "$d/lttng-clock-plugin.c" $TRAX_LDFLAGS
$CC $TRAX_CFLAGS -fpic -shared -o lttng-getcpu.so "$d/lttng-getcpu-plugin.c" $TRAX_LDFLAGS
LTTNG_UST_CLOCK_PLUGIN="$TEST_TMP/lttng-clock.so" TRAX_OUTPUT="$TEST_TMP/lc" ./plugapp 50 >/dev/null 2>lc.err
if grep plugin: lc.err >&2; then fail "LTTng-style clock plugin: the API answered wrongly (above)"; fi
bt2 --clock-cycles "$TEST_TMP/lc" >lc.txt
[ "$(wc -l <lc.txt)" = 50 ] || fail "LTTng-style clock plugin: expected 50 events"
awk '{ ts = substr($0, 2, index($0, "]") - 2) + 0
       if (NR == 1 && ts <= 7000000) { print "first timestamp " ts; exit 1 }
       if (NR > 1 && ts - prev != 1000) { print "step " ts - prev " at line " NR; exit 1 }
       prev = ts }' lc.txt || fail "LTTng-style clock plugin: timestamps are not the plugin counter"
babeltrace2 --output-format=ctf-metadata "$TEST_TMP/lc"/ust/pid/*/ >lmeta.txt
expect_contains lmeta.txt 'name = "lttng_counter";'
expect_contains lmeta.txt 'uuid = "2c6f1a38-8d5e-4b3a-9a7c-0e5d4c3b2a19";'
expect_contains lmeta.txt 'description = "LTTng-style test counter";'
expect_contains lmeta.txt 'freq = 1000000;'

LTTNG_UST_GETCPU_PLUGIN="$TEST_TMP/lttng-getcpu.so" TRAX_OUTPUT="$TEST_TMP/lg" ./plugapp 200 >/dev/null 2>lg.err
if grep plugin: lg.err >&2; then fail "LTTng-style getcpu plugin: lttng_ust_getcpu_override failed"; fi
bt2 "$TEST_TMP/lg" >lg.txt
[ "$(grep -c 'cpu_id = 1 }' lg.txt)" = 200 ] || fail "LTTng-style getcpu plugin: not every event is on CPU 1"
ok "clock and getcpu plugins written for LTTng-UST (lttng_ust_clock_plugin_init, lttng_ust_getcpu_plugin_init)"
