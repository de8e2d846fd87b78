#!/bin/sh
# legacy_nested.sh - `trax view DIR` finds the pre-CTF traces below DIR as
# it finds CTF ones (issue 19): DIR/a/trace1 (LTTV format, control/ and
# eventdefs/) and DIR/b/c/trace2 (compact format) are read as if named
# themselves (the discarded-events warnings name the legacy tracefile,
# not its private copy); beside a CTF trace, or with another legacy trace,
# both are merged in time order (absolute clocks); the private copies are
# gone after. Needs python3 (tests/legacy/ltt_gen.py).
. "$TRAX_SRC/tests/integration/lib.sh"

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"
command -v python3 >/dev/null || fail "python3 is required (tests/legacy/ltt_gen.py)"
cd "$TEST_TMP"
export TMPDIR="$TEST_TMP/tmp"
mkdir "$TMPDIR"
python3 "$TRAX_SRC/tests/legacy/ltt_gen.py" gen >gen.list 2>&1 || { cat gen.list >&2; fail "ltt_gen.py"; }
[ -d gen/v07-le-aligned8-hb/eventdefs ] || fail "ltt_gen.py wrote no gen/v07-le-aligned8-hb"
[ -f gen/v23-le-aligned4/metadata_0 ] || fail "ltt_gen.py wrote no gen/v23-le-aligned4"
mkdir -p top/a top2/b/c
cp -r gen/v07-le-aligned8-hb top/a/trace1
cp -r gen/v23-le-aligned4 top2/b/c/trace2

for t in top/a/trace1 top2/b/c/trace2; do
	dir=${t%%/*}
	"$TRAX" view "$t" >one.txt 2>one.err || { cat one.err >&2; fail "trax view $t"; }
	[ -s one.txt ] || fail "$t: no events"
	rc=0
	"$TRAX" view "$dir" >dir.txt 2>dir.err || rc=$?
	[ $rc -eq 0 ] || { cat dir.err >&2; fail "trax view $dir: exit $rc (the legacy trace below not found?)"; }
	cmp -s one.txt dir.txt || { diff one.txt dir.txt | head >&2; fail "trax view $dir differs from trax view $t"; }
	# the JSON listing names the trace by its own path, not the private copy's
	"$TRAX" view --format=json "$dir" >dir.json 2>dir.err || fail "trax view --format=json $dir"
	if grep -q "trax-legacy-" dir.json dir.err; then
		grep -m3 "trax-legacy-" dir.json dir.err >&2
		fail "$dir: a private copy's path shows"
	fi
done
# the compact trace's losses: the warnings name its tracefile
expect_contains dir.err "within stream \"$TEST_TMP/top2/b/c/trace2/cpu_0\""
ok "trax view DIR finds the legacy trace below it (LTTV and compact formats)"

# beside a CTF trace: both loaded and merged in time order. Legacy times
# are ns since the epoch (gettimeofday at the trace's start): the clock of
# a converted trace is absolute, so readers correlate it with any other
# absolute clock (another legacy trace, an LTTng trace's monotonic one).
"$TRAX" convert top/a/trace1 -o top2/ctf1 2>/dev/null || fail "trax convert trace1"
grep -q 'absolute = TRUE;' top2/ctf1/metadata || fail "the converted trace's clock is not absolute"
"$TRAX" view top/a/trace1 >t1.txt 2>/dev/null || fail "trax view trace1"
"$TRAX" view top2/b/c/trace2 >t2.txt 2>/dev/null || fail "trax view trace2"
"$TRAX" view top2 >mixed.txt 2>mixed.err || { cat mixed.err >&2; fail "trax view of a CTF trace and a legacy one"; }
expect_eq "$(wc -l <mixed.txt)" "$(($(wc -l <t1.txt) + $(wc -l <t2.txt)))" "events of the two traces merged"
# the same lines (the +delta column aside), and in time order
cut -d' ' -f1,3- mixed.txt | sort >m.sorted
cat t1.txt t2.txt | cut -d' ' -f1,3- | sort >t.sorted
cmp -s m.sorted t.sorted || { diff m.sorted t.sorted | head -5 >&2; fail "the merged view's events are not the two traces'"; }
# (by the JSON's ns: the two traces are of different days)
"$TRAX" view --format=json top2 2>/dev/null | sed -n 's/^{"timestamp": \([0-9]*\),.*/\1/p' >ts.txt
expect_eq "$(wc -l <ts.txt)" "$(wc -l <mixed.txt)" "time stamps of the merged JSON view"
sort -c -n ts.txt || fail "the merged view is not in time order"
# two legacy traces given together: merged as well, and babeltrace2 merges
# the two converted traces alike
"$TRAX" view top/a/trace1 top2/b/c/trace2 >both.txt 2>both.err || { cat both.err >&2; fail "trax view of two legacy traces"; }
cmp -s both.txt mixed.txt || fail "two legacy traces: not the view of one of them beside the other's conversion"
if command -v babeltrace2 >/dev/null 2>&1; then
	"$TRAX" convert top2/b/c/trace2 -o ctf2 2>/dev/null || fail "trax convert trace2"
	babeltrace2 top2/ctf1 ctf2 >bt2.txt 2>bt2.err || { head -3 bt2.err >&2; fail "babeltrace2 does not merge the two converted traces"; }
	expect_eq "$(wc -l <bt2.txt)" "$(wc -l <mixed.txt)" "babeltrace2: events of the two converted traces"
fi
ok "a CTF trace and a legacy trace below one directory, and two legacy traces: merged in time order"

# a directory without any trace: still the reader's refusal
mkdir empty
if "$TRAX" view empty >/dev/null 2>empty.err; then fail "trax view of an empty directory succeeded"; fi
expect_contains empty.err "no CTF trace found"
[ -z "$(ls "$TMPDIR")" ] || { ls "$TMPDIR" >&2; fail "private copies left in TMPDIR"; }
ok "no trace: refused; no private copy left"
