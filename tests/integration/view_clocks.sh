# view_clocks.sh - the clock rules of Babeltrace 2 in `trax view`
# (docs/text-format.md sections 5.1 and 9), against babeltrace2
# itself on traces made by data/clocks/make-traces.py and on two real LTTng
# sessions:
# - which clocks are absolute (an LTTng trace's monotonic clock always) and
#   which traces can be merged: all clocks absolute, or none absolute and
#   all with the same UUID, or none absolute and none with a UUID, or no
#   clock at all; otherwise both refuse;
# - packet headers whose uuid is not the trace's are read;
# - timestamp_begin/timestamp_end/timestamp fields mapped to no clock map
#   to the trace's only clock, or to a clock "default" (1 GHz) made for
#   them; with several clocks, both refuse;
# - a stream's clock is the one its fields map to, a payload's too; two
#   clocks in a stream, or one in the packet header: both refuse.
# Standard output byte for byte, the exit status (0, or both non-zero with
# one error line from trax), on one thread and on two, --count,
# --format=json's time stamps. (tests/reader/test_clocks.c checks the
# reader API on the same traces.)
. "$TRAX_SRC/tests/integration/lib.sh"
# Only trax view runs here: in the sanitizer build, a leak of its fails the test.
export ASAN_OPTIONS=detect_leaks=1

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"
for tool in babeltrace2 python3; do
	command -v $tool >/dev/null 2>&1 || fail "$tool is needed"
done
D="$TRAX_SRC/tests/integration/data/clocks"
T="$TEST_TMP/traces"
mkdir -p "$T"
python3 "$D/make-traces.py" "$T" || fail "make-traces.py failed"
cd "$T"

failures=0
report() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
OUT="$TEST_TMP/out"
ERR="$TEST_TMP/err"

# The time stamps of babeltrace2 --clock-seconds lines as nanoseconds, one
# a line ("null" without one; the traces here have no negative times).
seconds_to_ns() {
	sed -E -e 's/^\[([0-9]+)\.([0-9]{9})\].*/\1\2/' -e 's/^0+([0-9])/\1/' -e 's/^[^0-9].*/null/'
}
# The same from trax view --format=json lines.
json_ns() {
	sed -E -e 's/^\{"timestamp": (-?[0-9]+|null),.*/\1/' -e 's/^[^0-9n-].*/bad/'
}

# check WANT ARGS...: babeltrace2 ARGS exits as WANT says (ok: 0, fail: not
# 0); trax view ARGS prints the same and exits 0 or 1 alike (one error
# line). Without options, also on one thread, and
# the event count and the JSON time stamps agree with babeltrace2's.
check() {
	want=$1
	shift
	rc=0
	babeltrace2 "$@" >"$OUT.bt" 2>"$ERR.bt" || rc=$?
	case "$want:$rc" in
	ok:0 | fail:[1-9]*) ;;
	*)
		head -n 5 "$ERR.bt" >&2
		report "babeltrace2 $*: exit status $rc, this test expects it to $want"
		return
		;;
	esac
	n_cases=$((n_cases + 1))
	case "$1" in
	-*) variants=2 ;;
	*) variants="2 1" ;;
	esac
	for threads in $variants; do
		trc=0
		TRAX_VIEW_THREADS=$threads "$TRAX" view "$@" >"$OUT" 2>"$ERR" || trc=$?
		if [ "$want" = ok ] && [ "$trc" != 0 ]; then
			cat "$ERR" >&2
			report "trax view $* ($threads): exit status $trc, babeltrace2 reads it"
			return
		fi
		if [ "$want" = fail ]; then
			if [ "$trc" != 1 ] || [ "$(wc -l <"$ERR")" != 1 ] || ! grep -q '^trax view: ' "$ERR"; then
				cat "$ERR" >&2
				report "trax view $* ($threads): exit status $trc (expected 1, one error line)"
				return
			fi
		elif [ -s "$ERR" ]; then
			cat "$ERR" >&2
			report "trax view $* ($threads): unexpected standard error"
			return
		fi
		cmp -s "$OUT" "$OUT.bt" || {
			diff "$OUT.bt" "$OUT" | head -n 10 >&2
			report "trax view $* ($threads): not babeltrace2's output"
			return
		}
	done
	[ "$variants" != 2 ] || return 0
	for threads in 2 1; do
		trc=0
		c=$(TRAX_VIEW_THREADS=$threads "$TRAX" view --count "$@" 2>"$ERR") || trc=$?
		if [ "$want" = ok ]; then
			[ "$trc" = 0 ] && [ "$c" = "$(wc -l <"$OUT.bt" | tr -d ' ') events" ] ||
				report "trax view --count $* ($threads): '$c', status $trc"
		else
			[ "$trc" = 1 ] && [ -z "$c" ] || report "trax view --count $* ($threads): '$c', status $trc"
		fi
	done
	[ "$want" = ok ] || return 0
	# --format=json: the times of babeltrace2's --clock-seconds, in nanoseconds
	babeltrace2 --clock-seconds "$@" 2>/dev/null | seconds_to_ns >"$OUT.bt-ns"
	"$TRAX" view --format=json "$@" 2>"$ERR" | json_ns >"$OUT.ns" || :
	cmp -s "$OUT.bt-ns" "$OUT.ns" || {
		diff "$OUT.bt-ns" "$OUT.ns" | head -n 10 >&2
		report "trax view --format=json $*: the time stamps are not babeltrace2's"
	}
}

# in_all_forms WANT ARGS...: the runs of check, then the same with --clock-cycles,
# --clock-seconds --clock-date and --names=all --fields=all.
in_all_forms() {
	want=$1
	shift
	check "$want" "$@"
	check "$want" --clock-cycles "$@"
	check "$want" --clock-seconds --clock-date "$@"
	check "$want" --names=all --fields=all "$@"
}
n_cases=0

# --- 8. absolute clocks; which traces merge ---
in_all_forms ok lt-ust lt-kern lt-mhz            # LTTng traces of other hosts, offsets, frequencies
in_all_forms ok lt-ust abs-a abs-b abs-nouuid    # LTTng's monotonic clock and absolute = true ones
check ok lt-kern lt-late-env                     # absolute = false overridden; env block last
check ok lt-ust lt-prefix                        # tracer_name "lttngfoo"
check ok lt-ust lt-twice                         # tracer_name "lttng-ust", replaced later
check fail lt-ust lt-other                       # LTTng, but not named monotonic: not absolute
check fail lt-other lt-ust
check fail lt-ust lt-case                        # "LTTng-ust": not LTTng's
in_all_forms ok rel-u7a rel-u7b                  # not absolute, the same clock UUID
check fail rel-u7a rel-u9                        # not absolute, other UUIDs
in_all_forms ok rel-none-a rel-none-b            # not absolute, no UUID (different clocks)
check fail rel-u7a rel-none-a                    # not absolute, one UUID and none
check fail rel-none-a rel-u7a
check fail abs-a rel-u7a                         # absolute and not
check fail rel-none-a abs-nouuid
check ok noclock noclock                         # no clock at all
check fail lt-ust noclock                        # a clock and none
check fail noclock lt-ust
ok "clocks: which are absolute, which traces merge"

# --- 9. packet header uuids that are not the trace's ---
in_all_forms ok uuid-data                        # data packets: another, the trace's, a third
check ok uuid-notrace                            # a packet uuid, no trace uuid
check ok uuid-meta                               # metadata packets: another uuid than the trace block
check ok uuid-data lt-ust abs-a
ok "packet uuids other than the trace's are read"

# --- 10. timestamp fields mapped to no clock ---
in_all_forms ok ts-noclock                       # no clock: the default one (even in an LTTng trace)
in_all_forms ok ts-variant                       # only event header time stamps, in a variant
in_all_forms ok ts-oneclock                      # one clock: mapped to it (nested, enum)
in_all_forms ok ts-clock-after                   # the only clock declared after the stream
in_all_forms ok ts-shared                        # a struct shared by the header and a payload
check fail ts-twoclocks                          # two clocks: which one?
check fail ts-twoclocks-hdr
check ok ts-noclock ts-noclock2 ts-shared rel-none-a   # default clocks: not absolute, no UUID
check fail ts-noclock lt-ust                     # ... so not with an absolute one
check fail ts-noclock noclock                    # ... nor with no clock
ok "timestamps without a clock: the default clock, the only clock, or an error"

# --- a stream's clock: the one its fields map to, wherever they are ---
in_all_forms ok sc-payload                       # only a payload field
check fail sc-two                                # two clocks in one stream
check fail sc-header                             # a clock in the trace packet header
in_all_forms ok sc-signed                        # signed mapped fields: the clock never moves
ok "a stream's clock"
ok "$n_cases runs of trax view match babeltrace2"

# --- two real LTTng sessions, one of them as if recorded on another host
# (another boot UUID for its monotonic clock, another offset) ---
. "$TRAX_SRC/tests/integration/data/lttng/env.sh"
LH=$LTTNG_TRACES
cat >"$TEST_TMP/lt-app.c" <<'EOF'
#include <lttng/tracef.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 20; i++) {
		tracef("event %d", i);
		usleep(3000);
	}
	return 0;
}
EOF
$CC -o "$TEST_TMP/lt-app" "$TEST_TMP/lt-app.c" -llttng-ust -ldl 2>"$ERR" || {
	cat "$ERR" >&2
	fail "an application does not build against LTTng-UST (liblttng-ust-dev)"
}
lttng_start
{
	for s in sa sb; do
		as_lttng lttng create $s --output="$LH/$s" &&
			as_lttng lttng enable-event -u -s $s 'lttng_ust_tracef:*' &&
			as_lttng lttng start $s || exit 1
	done
	(unset LD_LIBRARY_PATH LD_PRELOAD && as_lttng env LTTNG_UST_REGISTER_TIMEOUT=10000 \
		LTTNG_UST_WITHOUT_BADDR_STATEDUMP=1 "$TEST_TMP/lt-app") &&
		as_lttng lttng stop sa && as_lttng lttng stop sb &&
		as_lttng lttng destroy sa && as_lttng lttng destroy sb
} >"$TEST_TMP/lttng.log" 2>&1 || {
	cat "$TEST_TMP/lttng.log" >&2
	fail "the LTTng sessions failed"
}
lttng_stop
# Session sb's trace as if from another machine: another clock UUID and
# 1.5 ms more of offset (its events then fall between sa's), the same
# number of characters so that the metadata packets keep their sizes.
python3 - "$LH/sb" <<'EOF' || fail "cannot rewrite the clock of session sb"
import os, re, sys
(path,) = [os.path.join(d, "metadata") for d, _, f in os.walk(sys.argv[1]) if "metadata" in f]
data = open(path, "rb").read()
m = re.search(rb'(clock \{[^}]*?uuid = ")([0-9a-f-]{36})(".*?offset = )(\d+);', data, re.S)
uuid = m.group(2)
other = bytes(b"0123456789abcdef"[(b"0123456789abcdef".index(c) + 1) % 16] if c != ord("-") else c
              for c in uuid)
offset = str(int(m.group(4)) + 1500000).encode()
assert len(offset) == len(m.group(4))
data = data[:m.start(2)] + other + m.group(3) + offset + data[m.end(4):]
open(path, "wb").write(data)
EOF
rc=0
babeltrace2 "$LH/sa" "$LH/sb" >"$OUT.bt" 2>"$ERR" || rc=$?
[ "$rc" = 0 ] && [ "$(grep -c 'lttng_ust_tracef:event' "$OUT.bt")" = 40 ] || {
	head -n 5 "$ERR" >&2
	fail "babeltrace2 did not merge the two LTTng sessions (status $rc)"
}
for threads in 2 1; do
	rc=0
	TRAX_VIEW_THREADS=$threads "$TRAX" view "$LH/sa" "$LH/sb" >"$OUT" 2>"$ERR" || rc=$?
	[ "$rc" = 0 ] && [ ! -s "$ERR" ] && cmp -s "$OUT" "$OUT.bt" || {
		cat "$ERR" >&2
		diff "$OUT.bt" "$OUT" | head -n 10 >&2
		report "LTTng sessions of two hosts ($threads thread(s)): status $rc, not babeltrace2's output"
	}
done
c=$("$TRAX" view --count "$LH/sa" "$LH/sb" 2>&1) || :
[ "$c" = "40 events" ] || report "LTTng sessions of two hosts: --count says '$c'"
babeltrace2 --clock-cycles --fields=all "$LH/sa" "$LH/sb" >"$OUT.bt" 2>/dev/null
"$TRAX" view --clock-cycles --fields=all "$LH/sa" "$LH/sb" >"$OUT" 2>"$ERR" &&
	cmp -s "$OUT" "$OUT.bt" || report "LTTng sessions of two hosts: --clock-cycles --fields=all"
# the sessions' events alternate (the offset put sb's between sa's): the
# messages come in pairs, 0 0 1 1 ...
grep -o 'msg = "event [0-9]*"' "$OUT.bt" | uniq -c | awk '$1 != 2 { bad = 1 } END { exit bad }' ||
	report "LTTng sessions of two hosts: the events of the two do not alternate"
ok "two LTTng sessions with other clock UUIDs and offsets: merged as babeltrace2 merges them"

[ "$failures" = 0 ] || fail "$failures case(s) differ"
ok "clocks in trax view"
