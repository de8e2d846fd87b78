#!/bin/sh
# The trace clock is CLOCK_MONOTONIC: each event's timestamp (raw value, in
# ns) lies between CLOCK_MONOTONIC read just before and just after the
# tracepoint, within the TSC model's tracking error (a few microseconds),
# both with the TSC fast path and with clock_gettime (TRAX_CLOCK_TSC=0),
# over half a second (the model re-bases many times).
. "$TRAX_SRC/tests/integration/lib.sh"
d="$TRAX_SRC/tests/integration/data/clock"
cd "$TEST_TMP"
build_app "$d" clkapp

check() { # $1: trace dir, $2: program output, $3: slack below "before" (ns)
	bt2 --clock-cycles "$1" >trace.txt
	# trace line: [TS] ... { before = B }; program line: B A
	awk -v slack="$3" '
		NR == FNR { after[$1 + 0] = $2 + 0; next }
		{
			ts = substr($0, 2, index($0, "]") - 2) + 0
			match($0, /before = [0-9]+/)
			b = substr($0, RSTART + 9, RLENGTH - 9) + 0
			if (!(b in after)) { print "no program line for " b; bad = 1; exit }
			# 20 us of slack above: a record is stamped inside the reservation.
			if (ts + slack < b || ts > after[b] + 20000) {
				print "timestamp " ts " outside [" b " - " slack ", " after[b] "]"; bad = 1
			}
			n++
		}
		END { if (bad) exit 1; if (n != 300) { print n " events, expected 300"; exit 1 } }
	' "$2" trace.txt || fail "timestamps do not follow CLOCK_MONOTONIC ($1)"
}

TRAX_OUTPUT="$TEST_TMP/tsc" ./clkapp 300 1500 >out-tsc.txt
check "$TEST_TMP/tsc" out-tsc.txt 10000
TRAX_CLOCK_TSC=0 TRAX_OUTPUT="$TEST_TMP/mono" ./clkapp 300 100 >out-mono.txt
check "$TEST_TMP/mono" out-mono.txt 0
ok "trace clock follows CLOCK_MONOTONIC"
