#!/bin/sh
# legacy_nested.sh - `trax view DIR` finds the pre-CTF traces below DIR as
# it finds CTF ones (issue 19): DIR/a/trace1 (LTTV format, control/ and
# eventdefs/) and DIR/b/c/trace2 (compact format) are read as if named
# themselves (the discarded-events warnings name the legacy tracefile,
# not its private copy); beside a CTF trace, both are loaded; the private
# copies are gone after. Needs python3 (tests/legacy/ltt_gen.py).
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

# beside a CTF trace: both loaded (two unrelated clocks: the reader says so, naming both)
"$TRAX" convert top/a/trace1 -o top2/ctf1 2>/dev/null || fail "trax convert trace1"
rc=0
"$TRAX" view top2 >mixed.txt 2>mixed.err || rc=$?
[ $rc -ne 0 ] || fail "trax view of a CTF trace and a legacy one with unrelated clocks succeeded"
expect_contains mixed.err "cannot be correlated"
expect_contains mixed.err "/ctf1/"
expect_contains mixed.err "/trace2/"
ok "a CTF trace and a legacy trace below one directory: both loaded"

# a directory without any trace: still the reader's refusal
mkdir empty
if "$TRAX" view empty >/dev/null 2>empty.err; then fail "trax view of an empty directory succeeded"; fi
expect_contains empty.err "no CTF trace found"
[ -z "$(ls "$TMPDIR")" ] || { ls "$TMPDIR" >&2; fail "private copies left in TMPDIR"; }
ok "no trace: refused; no private copy left"
