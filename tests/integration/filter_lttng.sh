#!/bin/sh
# filter_lttng.sh - trax's filter language against LTTng-UST's, on the same
# program (data/filter: an event with a field of every kind, 12 rows of
# values): for each expression of data/filter/exprs.txt, the rows LTTng-UST
# 2.13 records with `lttng enable-event --filter EXPR` (or its refusal)
# must be exactly the rows trax's filters accept: the filter module alone,
# recording without a daemon (TRAX_FILTER), and through traxd (trax
# enable-event --filter, a channel per expression). The expressions of
# data/filter/differences.txt are LTTng's defects: there trax must give
# the rows the file lists, and LTTng still something else.
#
# LTTng records everything in one session, a channel per expression
# (stream files cK_CPU); babeltrace2 reads the trace and
# data/filter/by-channel.py sorts its events by channel.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"
. "$TRAX_SRC/tests/integration/data/lttng/env.sh"
command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed"
D=$TRAX_SRC/tests/integration/data/filter
cd "$TEST_TMP"
cp "$D/tp.h" "$D/rows.h" "$D/app.c" .
cc -g -O1 -I. -o app-lttng app.c -llttng-ust -ldl || fail "cannot build the LTTng-UST program"
chmod 755 app-lttng

# every expression, those of the differences after those of the table
cp "$D/exprs.txt" all-exprs.txt
grep -v '^#' "$D/differences.txt" | cut -f1 >>all-exprs.txt
nr_table=$(wc -l <"$D/exprs.txt")

lttng_start
as_lttng lttng create flt --output="$LTTNG_TRACES/flt" >/dev/null
k=0
: >lttng-refused.txt
while IFS= read -r e; do
	k=$((k + 1))
	as_lttng lttng enable-channel -s flt -u --subbuf-size=4096 --num-subbuf=2 "c$k" >/dev/null
	as_lttng lttng enable-event -s flt -u -c "c$k" flt:ev --filter "$e" >/dev/null 2>&1 ||
		echo "c$k" >>lttng-refused.txt
done <all-exprs.txt
# a wildcard rule whose filter names a field some events lack: false for them
w=$((k + 3))
for f in 'n == 1' 'x == 2'; do
	as_lttng lttng enable-channel -s flt -u --subbuf-size=4096 --num-subbuf=2 "c$w" >/dev/null
	as_lttng lttng enable-event -s flt -u -c "c$w" 'flt:*' --filter "$f" >/dev/null
	w=$((w + 1))
done
# a filter with an exclusion
as_lttng lttng enable-channel -s flt -u --subbuf-size=4096 --num-subbuf=2 "c$w" >/dev/null
as_lttng lttng enable-event -s flt -u -c "c$w" 'flt:*' --exclude flt:ev --filter 'x < 2' >/dev/null
as_lttng lttng start flt >/dev/null
as_lttng ./app-lttng
as_lttng lttng destroy flt >/dev/null
babeltrace2 -c sink.text.details --params='with-metadata=no,with-time=no,with-stream-name=yes' \
	"$LTTNG_TRACES/flt" >lttng.details || fail "babeltrace2 cannot read LTTng's trace"
python3 "$D/by-channel.py" <lttng.details >lttng-by-channel.txt || fail "cannot sort LTTng's events"

# rows EXPRESSION-NUMBER FILE-BY-CHANNEL REFUSED-FILE: the rows, or "refused"
rows() {
	if grep -qx "c$1" "$3"; then
		echo refused
	else
		awk -F '\t' -v c="c$1" '$1 == c { print $2 }' "$2"
	fi
}

# trax, without a daemon: the same program recording with TRAX_FILTER, a
# trace per expression (cK), read by babeltrace2 (those with events)
$CC $TRAX_CFLAGS -I. -o app-trax app.c $TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build the trax program"
k=0
: >trax-refused.txt
while IFS= read -r e; do
	k=$((k + 1))
	TRAX_OUTPUT=$TEST_TMP/trax/c$k TRAX_EVENTS=flt:ev TRAX_FILTER=$e ./app-trax 2>err.txt || fail "app-trax failed with $e"
	if grep -q 'TRAX_FILTER' err.txt; then
		echo "c$k" >>trax-refused.txt
	fi
done <all-exprs.txt
set --
for m in "$TEST_TMP"/trax/*/ust/pid/*/metadata; do
	grep -q 'event {' "$m" && set -- "$@" "${m%/metadata}"
done
babeltrace2 -c sink.text.details --params='with-metadata=no,with-time=no,with-stream-name=yes' \
	"$@" >trax.details || fail "babeltrace2 cannot read trax's traces"
python3 "$D/by-channel.py" <trax.details >trax-by-channel.txt || fail "cannot sort trax's events"

# trax, with traxd: one session, a channel per expression, as LTTng; and
# channels where several rules (with and without filters) record an event
# when any of them accepts it
trax create flt --output="$TEST_TMP/traxd" >/dev/null || fail "trax create failed"
k=0
: >traxd-refused.txt
while IFS= read -r e; do
	k=$((k + 1))
	trax enable-channel -u --subbuf-size=4096 --num-subbuf=2 "c$k" >/dev/null
	trax enable-event -u -c "c$k" flt:ev --filter "$e" >/dev/null 2>err.txt || {
		[ "$(wc -l <err.txt)" = 1 ] && grep -q "^Error: Invalid filter '" err.txt ||
			fail "enable-event --filter '$e' refused without one clear line: $(cat err.txt)"
		echo "c$k" >>traxd-refused.txt
	}
done <all-exprs.txt
u=$((k + 1))
# (a second session: a session has at most 256 channels)
trax create flt2 --output="$TEST_TMP/traxd2" >/dev/null || fail "trax create flt2 failed"
trax enable-channel -s flt2 -u --subbuf-size=4096 --num-subbuf=2 "c$u" "c$((u + 1))" >/dev/null
trax enable-event -s flt2 -u -c "c$u" flt:ev --filter 'n == 1' >/dev/null
trax enable-event -s flt2 -u -c "c$u" flt:ev --filter 'n == 3 || s == "*o"' >/dev/null
trax enable-event -s flt2 -u -c "c$((u + 1))" flt:ev --filter 'n == 1' >/dev/null
trax enable-event -s flt2 -u -c "c$((u + 1))" 'flt:*' >/dev/null
w=$((u + 2))
for f in 'n == 1' 'x == 2'; do
	trax enable-channel -s flt2 -u --subbuf-size=4096 --num-subbuf=2 "c$w" >/dev/null
	trax enable-event -s flt2 -u -c "c$w" 'flt:*' --filter "$f" >/dev/null
	w=$((w + 1))
done
trax enable-channel -s flt2 -u --subbuf-size=4096 --num-subbuf=2 "c$w" >/dev/null
trax enable-event -s flt2 -u -c "c$w" 'flt:*' --exclude flt:ev --filter 'x < 2' >/dev/null
trax list flt2 | grep -qF "flt:* (type: tracepoint) [enabled] [exclusions: flt:ev] [filter: 'x < 2']" ||
	fail "trax list does not show the rule's exclusion and filter: $(trax list flt2 | grep -F 'x < 2')"
# a refused filter leaves the session as it was: no rule in its channel
rules=$(trax list flt | grep -c "flt:[*e]" || true)
expect_eq "$rules" "$((k - $(wc -l <traxd-refused.txt)))" "event rules after the refused filters"
trax start flt >/dev/null
trax start flt2 >/dev/null
./app-trax
trax stop flt >/dev/null
trax stop flt2 >/dev/null
babeltrace2 -c sink.text.details --params='with-metadata=no,with-time=no,with-stream-name=yes' \
	"$TEST_TMP/traxd" "$TEST_TMP/traxd2" >traxd.details || fail "babeltrace2 cannot read traxd's traces"
python3 "$D/by-channel.py" <traxd.details >traxd-by-channel.txt || fail "cannot sort traxd's events"
trax destroy --all >/dev/null
expect_eq "$(rows "$u" traxd-by-channel.txt /dev/null)" "1 2 3 4" "two filters of one event: either one"
expect_eq "$(rows "$((u + 1))" traxd-by-channel.txt /dev/null)" \
	"0 1 2 3 4 5 6 7 8 9 10 11 x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11" \
	"a filter and no filter: every event"
for w in $((u + 2)) $((u + 3)) $((u + 4)); do
	expect_eq "$(rows "$w" traxd-by-channel.txt /dev/null)" \
		"$(rows "$w" lttng-by-channel.txt /dev/null)" "'flt:*' with a filter on a field flt:other lacks (c$w)"
done
expect_eq "$(rows "$((u + 2))" traxd-by-channel.txt /dev/null)" "1" "'flt:*' --filter 'n == 1'"
expect_eq "$(rows "$((u + 3))" traxd-by-channel.txt /dev/null)" "x2" "'flt:*' --filter 'x == 2'"
expect_eq "$(rows "$((u + 4))" traxd-by-channel.txt /dev/null)" "x0 x1" \
	"'flt:*' --exclude flt:ev --filter 'x < 2'"

# trax's filter module on the same rows (without recording)
$CC $TRAX_CFLAGS -I"$TRAX_SRC/src" -I"$D" -o filter_eval "$D/filter_eval.c" \
	"$TRAX_SRC"/src/filter/*.c "$TRAX_SRC/src/common/assert.c" $TRAX_LDFLAGS ||
	fail "cannot build filter_eval"
./filter_eval all-exprs.txt >module.txt || fail "filter_eval failed"

k=0
bad=0
while IFS= read -r e; do
	k=$((k + 1))
	want=$(rows "$k" lttng-by-channel.txt lttng-refused.txt)
	got=$(sed -n "${k}p" module.txt | cut -f2 | sed 's/ *$//')
	recorded=$(rows "$k" trax-by-channel.txt trax-refused.txt)
	if [ "$recorded" != "$got" ]; then
		echo "  $e: trax's module [$got], recorded with TRAX_FILTER [$recorded]" >&2
		bad=$((bad + 1))
	fi
	recorded=$(rows "$k" traxd-by-channel.txt traxd-refused.txt)
	if [ "$recorded" != "$got" ]; then
		echo "  $e: trax's module [$got], recorded by traxd [$recorded]" >&2
		bad=$((bad + 1))
	fi
	if [ "$k" -le "$nr_table" ]; then
		if [ "$want" != "$got" ]; then
			echo "  $e: LTTng-UST [$want], trax [$got]" >&2
			bad=$((bad + 1))
		fi
	else
		listed=$(awk -F '\t' -v e="$e" '$1 == e { print $2 }' "$D/differences.txt")
		[ "$got" = "$listed" ] || {
			echo "  $e (a listed difference): trax [$got], listed [$listed]" >&2
			bad=$((bad + 1))
		}
		[ "$want" != "$got" ] || {
			echo "  $e: LTTng-UST now agrees with trax: take it out of differences.txt" >&2
			bad=$((bad + 1))
		}
	fi
done <all-exprs.txt
[ "$bad" = 0 ] || fail "$bad expressions where trax's filters and LTTng-UST's disagree"
ok "$nr_table expressions give LTTng-UST's rows, in trax's filter module, recorded with TRAX_FILTER and through traxd (and $((k - nr_table)) listed differences hold)"
