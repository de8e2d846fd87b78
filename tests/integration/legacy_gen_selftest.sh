#!/bin/sh
# legacy_gen_selftest.sh - the test-tree writer of pre-CTF traces
# (tests/legacy/ltt_gen.py, issue 19) against the hand-written hex fixtures
# of tests/data/legacy/hex/ (same parameters, same bytes and listing), and
# every scenario and damaged trace written twice, identically. Needs python3.
. "$TRAX_SRC/tests/integration/lib.sh"

command -v python3 >/dev/null || fail "python3 is required (tests/legacy/ltt_gen.py)"
cd "$TEST_TMP"
python3 "$TRAX_SRC/tests/legacy/test_ltt_gen.py" -v >out.txt 2>&1 || {
	cat out.txt >&2
	fail "tests/legacy/test_ltt_gen.py"
}
grep -q '^OK' out.txt || {
	cat out.txt >&2
	fail "no OK from tests/legacy/test_ltt_gen.py"
}
ok "ltt_gen.py agrees with the hand fixtures ($(grep -c ' ok$' out.txt) tests)"
