#!/bin/sh
# view_kernel.sh - `trax view` against babeltrace2, event by event, on large
# generated traces laid out as LTTng-modules writes kernel traces
# (tests/reader/gen-kernel-trace.py: per-CPU streams of two channels,
# compact and extended headers, packets of 4 KiB to a few MiB, 240 KiB among
# them, many event classes whose payloads mix integers, strings, text arrays
# and sequences, strings of every length at every offset, repeated values).
# For each trace, in several configurations (one thread, two readers;
# compiled and interpreted runs of fused events, TRAX_NO_JIT=1;
# read windows of 256 KiB, none, and small ones):
# - the text is babeltrace2's, line by line (tests/reader/compare-view.py),
#   but where babeltrace2 2.0 prints an empty string with an older value of
#   its field (a fault of babeltrace2, shown first on a small trace), which
#   is accepted only where the generator wrote an empty string;
# - the JSON has every value the generator wrote, event by event;
# - --count counts every event (on two threads, each a part of the packets
#   when the trace has packet indexes, and on one).
# A difference names the event, its stream file, and its offset there.
#
# Knobs (`make fuzz` turns them up): TRAX_GEN_SEEDS (default "1 2"),
# TRAX_GEN_MIB (MiB of stream files per trace, default 6, 4 in the sanitizer
# build), TRAX_GEN_FULL=1 (every combination of the configurations).
. "$TRAX_SRC/tests/integration/lib.sh"
# Only trax view runs here: in the sanitizer build, a leak of its fails the test.
export ASAN_OPTIONS=detect_leaks=1

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"
command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed"
command -v python3 >/dev/null 2>&1 || fail "python3 is needed"
GEN="$TRAX_SRC/tests/reader/gen-kernel-trace.py"
CMP="$TRAX_SRC/tests/reader/compare-view.py"
SEEDS=${TRAX_GEN_SEEDS:-"1 2"}
MIB=${TRAX_GEN_MIB:-6}
[ -n "$TRAX_SANITIZE" ] && [ -z "${TRAX_GEN_MIB:-}" ] && MIB=4
cd "$TEST_TMP"

# --- the oracle's fault: babeltrace2 2.0.4 prints some empty strings with
# an older value of the field (its events are recycled and clearing a string
# leaves its bytes). 1000 events, every third one's filename "/etc/passwdN",
# the others empty: trax prints each as written.
mkdir small
printf '/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\nevent { name = "open"; fields := struct { string filename; }; };\n' \
	>small/metadata
python3 -c '
import sys
with open("small/stream", "wb") as f, open("small.txt", "w") as t:
    for i in range(1000):
        s = "/etc/passwd%d" % i if i % 3 == 0 else ""
        f.write(s.encode() + b"\0")
        t.write("open: { filename = \"%s\" }\n" % s)'
"$TRAX" view small >small.trax || fail "trax view failed on the small trace"
cmp -s small.txt small.trax || {
	diff small.txt small.trax | head -5 >&2
	fail "small trace: trax does not print the strings written"
}
babeltrace2 small >small.bt2 || fail "babeltrace2 failed on the small trace"
stale=$(diff small.txt small.bt2 | grep -c '^> open: { filename = "/etc/passwd' || :)
# Babeltrace 1, the other reader of CTF, prints them as written too (its
# lines start with the time, "0" in a trace without a clock).
command -v babeltrace >/dev/null 2>&1 || fail "babeltrace (1.x) is needed (make check installs it)"
babeltrace small | sed 's/^[^ ]* //' >small.bt1 || fail "babeltrace failed on the small trace"
cmp -s small.txt small.bt1 || {
	diff small.txt small.bt1 | head -5 >&2
	fail "small trace: babeltrace 1 does not print the strings written: the trace generator is wrong"
}
ok "small trace: trax and babeltrace 1 print the 1000 strings as written (babeltrace2 $(babeltrace2 --version | head -n 1 | cut -d' ' -f2): $stale empty ones printed with an older value)"

# --- the configurations: TRAX_VIEW_THREADS TRAX_NO_JIT TRAX_READ_WINDOW
# ("-": unset). By default a set that takes each value of each twice; with
# TRAX_GEN_FULL every combination.
if [ -n "${TRAX_GEN_FULL:-}" ]; then
	TEXT_CONFIGS=
	for th in 1 -; do
		for jit in - 1; do
			for win in - 0 4160 65600; do
				TEXT_CONFIGS="$TEXT_CONFIGS $th:$jit:$win"
			done
		done
	done
	JSON_CONFIGS="-:-:- -:1:- -:-:0 -:1:0 -:-:4160 -:1:4160 -:-:65600 -:1:65600"
else
	TEXT_CONFIGS="1:-:- 1:1:0 -:-:4160 -:1:- -:-:65600 -:1:4160 -:-:0"
	JSON_CONFIGS="-:-:- -:1:4160 -:-:0"
fi

# run_view CONFIG OUT ARGS...: trax view ARGS with CONFIG's environment.
run_view() {
	cfg=$1 out=$2
	shift 2
	th=${cfg%%:*} rest=${cfg#*:}
	jit=${rest%%:*} win=${rest#*:}
	[ "$th" = - ] && th=
	[ "$jit" = - ] && jit=
	[ "$win" = - ] && win=
	env ${th:+TRAX_VIEW_THREADS=$th} ${jit:+TRAX_NO_JIT=$jit} ${win:+TRAX_READ_WINDOW=$win} \
		"$TRAX" view "$@" >"$out" 2>view.err || {
		cat view.err >&2
		fail "trax view $* failed (TRAX_VIEW_THREADS=$th TRAX_NO_JIT=$jit TRAX_READ_WINDOW=$win)"
	}
	[ -s view.err ] && {
		cat view.err >&2
		fail "trax view $* printed errors"
	}
	:
}

for seed in $SEEDS; do
	rm -rf t expect bt2.txt
	stats=$(python3 "$GEN" --stats --seed "$seed" --mib "$MIB" t expect) ||
		fail "seed $seed: the generator failed"
	n=$(wc -l <expect | tr -d ' ')
	sizes=$(cat t/channel* | wc -c | tr -d ' ')
	babeltrace2 t >bt2.txt 2>bt2.err || {
		head -n 5 bt2.err >&2
		fail "seed $seed: babeltrace2 cannot read the trace"
	}
	[ -s bt2.err ] && {
		head -n 5 bt2.err >&2
		fail "seed $seed: babeltrace2 warns"
	}
	ok "seed $seed: $n events in $sizes bytes of streams ($stats)"
	# the first configuration compared line by line, the others byte for
	# byte with its output (the comparison again when they differ, to say where)
	rm -f ref.txt ref.json
	for cfg in $TEXT_CONFIGS; do
		run_view "$cfg" out.txt t
		if [ ! -f ref.txt ] || ! cmp -s out.txt ref.txt; then
			python3 "$CMP" text expect bt2.txt out.txt >cmp.out ||
				fail "seed $seed ($n events, $sizes bytes), text, configuration $cfg (threads:no-jit:window): see above"
		fi
		[ -f ref.txt ] || { mv out.txt ref.txt && cp cmp.out text.summary; }
	done
	ok "seed $seed: text as babeltrace2's in $(echo "$TEXT_CONFIGS" | wc -w) configurations ($(cat text.summary))"
	for cfg in $JSON_CONFIGS; do
		run_view "$cfg" out.json --format=json t
		if [ ! -f ref.json ] || ! cmp -s out.json ref.json; then
			python3 "$CMP" json expect out.json >cmp.out ||
				fail "seed $seed ($n events), JSON, configuration $cfg (threads:no-jit:window): see above"
		fi
		[ -f ref.json ] || { mv out.json ref.json && cp cmp.out json.summary; }
	done
	rm -f ref.txt ref.json out.txt out.json
	ok "seed $seed: JSON values as written in $(echo "$JSON_CONFIGS" | wc -w) configurations ($(cat json.summary))"
	for th in - 1; do
		run_view "$th:-:-" count.out --count t
		expect_eq "$(cat count.out)" "$n events" "seed $seed: --count (TRAX_VIEW_THREADS=$th)"
	done
	ok "seed $seed: --count: $n events$([ -d t/index ] && echo ", in two parts of the packets")"
done
