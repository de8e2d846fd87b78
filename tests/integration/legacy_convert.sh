#!/bin/sh
# legacy_convert.sh - pre-CTF traces through the CTF writer (issue 19):
# `trax convert` writes a CTF trace that babeltrace2 prints byte for byte
# as `trax view` prints the legacy trace itself (converted on the fly);
# `trax view --format=json` gives the events tests/legacy/ltt_gen.py lists
# (names, CPUs, ns, every field); damaged traces: the valid events, then
# one error line naming the file and offset, exit status 1, for view and
# convert alike, and babeltrace2 reads what convert kept; the private
# copies removed (a killed reader's too, by the next); the converter's
# fake trace (every field type, lost events: unit/legacy-fake.c) printed
# the same by both; convert's refusals. Needs python3 and babeltrace2.
. "$TRAX_SRC/tests/integration/lib.sh"
export ASAN_OPTIONS=detect_leaks=1

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"
command -v python3 >/dev/null || fail "python3 is required (tests/legacy/ltt_gen.py)"
command -v babeltrace2 >/dev/null || fail "babeltrace2 is required"
FAKE="$TRAX_BUILD/tests/legacy-fake-convert"
[ -x "$FAKE" ] || fail "$FAKE not built"
cd "$TEST_TMP"
export TMPDIR="$TEST_TMP/tmp"
mkdir "$TMPDIR"
# what a killed reader left: removed by the next conversion
mkdir -p "$TMPDIR/trax-legacy-2000000000-dead/trace/index"

# --- the fake trace: every field type, a variant, lost events, an error ---
rc=0
"$FAKE" fake-ctf 2>fake.err || rc=$?
[ $rc -eq 1 ] || fail "legacy-fake-convert: exit $rc (1 expected: its cpu_1 fails)"
babeltrace2 fake-ctf >fake.bt 2>fake.bt.err || fail "babeltrace2 cannot read the fake's conversion"
"$TRAX" view fake-ctf >fake.view 2>fake.view.err || fail "trax view cannot read the fake's conversion"
cmp -s fake.bt fake.view || { diff fake.bt fake.view >&2; fail "fake: trax view differs from babeltrace2"; }
cmp -s fake.bt.err fake.view.err || { diff fake.bt.err fake.view.err >&2; fail "fake: warnings differ"; }
expect_contains fake.bt 'sel_tag = ( "_text" : container = 1 ), sel = { "hi" }'
expect_contains fake.bt 'cun = { x = 16909060, y = 772 }'
expect_contains fake.bt.err 'Tracer discarded 3 events between [11:33:20.000001000] and [11:33:20.000002000]'
[ "$(wc -l <fake.bt)" -eq 5 ] || fail "fake: 5 events expected"
ok "the fake's conversion: babeltrace2 and trax view print the same"

# --- ltt_gen.py's traces ---
python3 "$TRAX_SRC/tests/legacy/ltt_gen.py" gen >gen.list 2>&1 || { cat gen.list >&2; fail "ltt_gen.py"; }
good=0
for meta in gen/*.meta.json; do
	name=$(basename "$meta" .meta.json)
	case $name in dmg-*) continue ;; esac
	"$TRAX" convert "gen/$name" -o "conv-$name" 2>conv.err || { cat conv.err >&2; fail "$name: trax convert"; }
	bt2 "conv-$name" >bt.txt
	"$TRAX" view "gen/$name" >view.txt 2>view.err || { cat view.err >&2; fail "$name: trax view"; }
	cmp -s bt.txt view.txt || { diff bt.txt view.txt | head >&2; fail "$name: babeltrace2 on the conversion differs from trax view"; }
	"$TRAX" view --format=json "gen/$name" >view.json 2>/dev/null || fail "$name: trax view --format=json"
	python3 "$TRAX_SRC/tests/legacy/view_listing.py" "gen/$name.expect.jsonl" view.json >cmp.txt ||
		{ cat cmp.txt >&2; fail "$name: trax view --format=json differs from ltt_gen.py's listing"; }
	good=$((good + 1))
done
[ $good -ge 9 ] || fail "only $good scenarios"
ok "$good scenarios: trax convert read by babeltrace2 = trax view, the listings' values and ns"

# --- damaged traces: the events before the damage, then one line ---
bad=0
for meta in gen/dmg-*.meta.json; do
	name=$(basename "$meta" .meta.json)
	# the fatal errors of a tracefile (not of the XML descriptions: the reader's own business)
	file=$(python3 -c "import json,sys; e=[x for x in json.load(open(sys.argv[1]))['errors'] if x['fatal'] and not x['file'].startswith('eventdefs')]; print(e[0]['file'] if e else '')" "$meta")
	[ -n "$file" ] || continue
	rc=0
	"$TRAX" view --format=json "gen/$name" >view.json 2>view.err || rc=$?
	[ $rc -eq 1 ] || fail "$name: trax view exit $rc (1 expected)"
	python3 "$TRAX_SRC/tests/legacy/view_listing.py" "gen/$name.expect.jsonl" view.json >cmp.txt ||
		{ cat cmp.txt >&2; fail "$name: the events before the damage differ"; }
	[ "$(grep -vc '^WARNING\|^Warning' view.err)" -eq 1 ] || { cat view.err >&2; fail "$name: one error line expected"; }
	expect_contains view.err "gen/$name/$file: offset "
	rc=0
	"$TRAX" convert "gen/$name" -o "conv-$name" >/dev/null 2>conv.err || rc=$?
	[ $rc -eq 1 ] || fail "$name: trax convert exit $rc (1 expected)"
	expect_contains conv.err "Error: gen/$name/$file: offset "
	bt2 "conv-$name" >bt.txt
	"$TRAX" view "gen/$name" >view.txt 2>/dev/null || true
	cmp -s bt.txt view.txt || { diff bt.txt view.txt | head >&2; fail "$name: babeltrace2 on the partial conversion differs"; }
	bad=$((bad + 1))
done
[ $bad -ge 6 ] || fail "only $bad damaged traces"
ok "$bad damaged traces: the events before the damage, one error line, exit 1 (view and convert)"

# --- convert's refusals; nothing left in TMPDIR by view (nor by a killed one) ---
mkdir full && touch full/x
rc=0
"$TRAX" convert gen/v21-le-packed -o full 2>err.txt || rc=$?
[ $rc -eq 1 ] || fail "convert into a non-empty directory: exit $rc"
expect_contains err.txt "full exists and is not empty"
rc=0
"$TRAX" convert fake-ctf -o other 2>err.txt || rc=$?
[ $rc -eq 1 ] || fail "convert of a CTF trace: exit $rc"
expect_contains err.txt "not a trace of the LTTV or LTTng 0.x compact format"
# a reader of the output that goes away: trax view ends (EPIPE), its copy removed
python3 "$TRAX_SRC/bench/legacy_big.py" big 30000 || fail "bench/legacy_big.py"
rc=0
{ "$TRAX" view big || echo "rc=$?" >rc.txt; } | head -n 1 >/dev/null
[ ! -s rc.txt ] || fail "trax view | head: $(cat rc.txt)"
[ -z "$(ls "$TMPDIR")" ] || fail "trax view left $(ls "$TMPDIR") in TMPDIR"
ok "convert refuses what it must; view leaves nothing behind, and removes what a killed one left"
