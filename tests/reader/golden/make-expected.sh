#!/bin/bash
# make-expected.sh - regenerates expected/*.out and expected/*.err with
# babeltrace2 (Babeltrace 2.0.4) and prints the command of each file.
# Run from anywhere:  bash tests/reader/golden/make-expected.sh
#
# Every command runs in this directory with relative trace paths, LC_ALL=C,
# and TZ=UTC unless the name says otherwise (".tz-montreal": TZ=America/Montreal).
# NAME.out is the standard output. NAME.err is the standard error, kept only
# when it is not empty, with "$PWD/" removed: babeltrace2 writes the stream
# path of its WARNING lines as an absolute path. NAME.status holds the exit
# status when it is not 0.
set -u
cd "$(dirname "$0")"
mkdir -p expected
rm -f expected/*

# option sets: NAME|OPTIONS
SETS='default|
clock-seconds|--clock-seconds
clock-date|--clock-date
clock-gmt|--clock-gmt
clock-cycles|--clock-cycles
no-delta|--no-delta
clock-seconds.no-delta|--clock-seconds --no-delta
clock-date.clock-gmt|--clock-date --clock-gmt
clock-seconds.clock-date|--clock-seconds --clock-date
clock-cycles.no-delta|--clock-cycles --no-delta
names-all|--names=all
names-none|--names=none
names-payload|--names=payload
names-context|--names=context
names-scope|--names=scope
names-header|--names=header
names-payload,scope|--names=payload,scope
fields-all|--fields=all
fields-trace|--fields=trace
fields-trace:hostname|--fields=trace:hostname
fields-trace:domain|--fields=trace:domain
fields-trace:procname|--fields=trace:procname
fields-trace:vpid|--fields=trace:vpid
fields-loglevel|--fields=loglevel
fields-emf|--fields=emf
fields-callsite|--fields=callsite
fields-trace:hostname,trace:vpid|--fields=trace:hostname,trace:vpid
fields-loglevel,emf|--fields=loglevel,emf
names-all.fields-all|--names=all --fields=all
names-header.fields-trace,loglevel|--names=header --fields=trace,loglevel'

run() { # run OUTNAME TZ ARGS...
	local name=$1 tz=$2 st
	shift 2
	TZ=$tz LC_ALL=C babeltrace2 "$@" >"expected/$name.out" 2>"expected/$name.err"
	st=$?
	sed -i "s|$PWD/||g" "expected/$name.err"
	[ -s "expected/$name.err" ] || rm -f "expected/$name.err"
	[ $st -eq 0 ] || echo $st >"expected/$name.status"
	if [ "$tz" = UTC ]; then
		echo "| \`$name\` | \`TZ=UTC LC_ALL=C babeltrace2 $*\` |"
	else
		echo "| \`$name\` | \`TZ=$tz LC_ALL=C babeltrace2 $*\` |"
	fi
}

for t in hm-types trax-fields ust-fields hm-clock hm-clock-mhz hm-discard hm-noclock; do
	while IFS='|' read -r name opts; do
		# shellcheck disable=SC2086
		run "$t.$name" UTC "$t" $opts
	done <<<"$SETS"
done

for o in "default|" "clock-seconds|--clock-seconds"; do
	# shellcheck disable=SC2086
	run "hm-discard-odd.${o%%|*}" UTC hm-discard-odd ${o#*|}
done

# Fields mapped to the clock outside the event header (make-clock-fields.py).
for o in "default|" "clock-cycles|--clock-cycles" "names-all|--names=all" "fields-all|--fields=all" "no-delta|--no-delta"; do
	# shellcheck disable=SC2086
	run "hm-clock-fields.${o%%|*}" UTC hm-clock-fields ${o#*|}
done
# Clock values that a sequence's length or a variant's tag names: kept.
for o in "default|" "clock-cycles|--clock-cycles" "names-all|--names=all" "fields-all|--fields=all" "no-delta|--no-delta"; do
	# shellcheck disable=SC2086
	run "hm-clock-refs.${o%%|*}" UTC hm-clock-refs ${o#*|}
done
# A stream going back in time: the events before it, then a fatal error.
run "hm-time-back.default" UTC hm-time-back

# A second time zone (west of UTC: the date changes before midnight UTC).
for t in hm-types hm-clock-mhz trax-fields; do
	for o in "default|" "clock-date|--clock-date" "clock-gmt|--clock-gmt" "clock-seconds|--clock-seconds" "clock-date.clock-gmt|--clock-date --clock-gmt"; do
		name=${o%%|*}
		opts=${o#*|}
		# shellcheck disable=SC2086
		run "$t.tz-montreal.$name" America/Montreal "$t" $opts
	done
done

# Several traces in one command: merged in time order, trace names.
run "multi.hm-clock+hm-clock-mhz+hm-discard.default" UTC hm-clock hm-clock-mhz hm-discard
run "multi.hm-clock+hm-clock-mhz+hm-discard.fields-trace" UTC hm-clock hm-clock-mhz hm-discard --fields=trace
run "multi.hm-clock+hm-clock-mhz+hm-discard.names-all.fields-all" UTC hm-clock hm-clock-mhz hm-discard --names=all --fields=all
run "multi.hm-types+hm-clock.names-all.fields-all.no-delta" UTC hm-types hm-clock --names=all --fields=all --no-delta
run "multi.hm-clock-mhz+hm-clock.clock-cycles" UTC hm-clock-mhz hm-clock --clock-cycles
# A fatal error: the clock of trax-fields (not absolute, its own UUID) cannot be
# correlated with the absolute clock of hm-types. Exit status 1, nothing on stdout;
# the .err file (log lines with dates, pids and addresses) is informative only.
run "multi.hm-types+trax-fields.error" UTC hm-types trax-fields
