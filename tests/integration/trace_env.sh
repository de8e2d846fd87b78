#!/bin/sh
# trace_env.sh - the env block of trax's traces is LTTng-UST 2.13's for the
# same kind of trace: the same keys in the same order, the same values
# where they do not depend on the run, then trax's own name and version.
# Tools decide how to read a trace from it (Trace Compass's LTTng-UST
# analyses need tracer_name "lttng-ust" and tracer_major >= 2; Babeltrace 2
# applies its LTTng rules to tracer names starting with "lttng"). LTTng
# itself records the reference traces: per-uid and per-pid buffers; trax
# writes them with traxd (both layouts) and with TRAX_OUTPUT (per process).
# The per-uid traces also have every context both tracers offer, whose
# declarations (stream's event.context) must be LTTng's word for word.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"
. "$TRAX_SRC/tests/integration/data/lttng/env.sh"
# A time zone other than lib.sh's UTC (a POSIX one: no tzdata needed), so
# that dates written in UTC instead of local time, as LTTng writes them,
# show: every recording below runs under it.
export TZ=XST-5:30

W=$TEST_TMP/w
mkdir -p "$W"
cd "$W"
cat >app.c <<'EOC'
#include <lttng/tracef.h>
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	tracef("pid %d", (int)getpid());
	printf("%d\n", (int)getpid());
	return 0;
}
EOC
$CC -o app-lttng app.c -llttng-ust -ldl || fail "cannot build the program against LTTng-UST"
$CC $TRAX_CFLAGS -o app-trax app.c $TRAX_LDFLAGS -ltrax-ust -ldl
chmod -R a+rX "$W"

# env_of TRACE_DIR OUT: the env of the one metadata file under TRACE_DIR,
# one "key = value" line per entry, in order.
env_of() {
	set -- "$(find "$1" -name metadata)" "$2"
	[ -f "$1" ] || fail "expected one metadata file, found '$1'"
	tr -d '\000' <"$1" | sed -n '/^env {/,/^};/p' | sed -n 's/^[[:space:]]*\([a-z_]*\) = \(.*\);$/\1 = \2/p' >"$2"
	[ -s "$2" ] || fail "no env block in $1"
}

keys() { sed 's/ = .*//' "$1"; }
val() { sed -n "s/^$2 = //p" "$1"; }

CONTEXTS="-t vpid -t vtid -t procname -t pthread_id -t ip"

# ---- the references, recorded by LTTng ----
lttng_start
for layout in uid pid; do
	as_lttng lttng create "env-$layout" --output="$LTTNG_TRACES/$layout" >/dev/null
	as_lttng lttng enable-channel -u "--buffers-$layout" ch >/dev/null
	as_lttng lttng enable-event -u -c ch -a >/dev/null
	[ $layout = pid ] || as_lttng lttng add-context -u -c ch $CONTEXTS >/dev/null
	as_lttng lttng start >/dev/null
	as_lttng ./app-lttng >"lttng-$layout.pid" || fail "the LTTng program failed"
	as_lttng lttng stop >/dev/null
	as_lttng lttng destroy >/dev/null
	env_of "$LTTNG_TRACES/$layout" "lttng-$layout.env"
done
lttng_stop

# ---- the same with trax ----
for layout in uid pid; do
	trax create "env-$layout" --output="$W/trax-$layout" >/dev/null
	trax enable-channel -u "--buffers-$layout" ch >/dev/null
	trax enable-event -u -c ch -a >/dev/null
	[ $layout = pid ] || trax add-context -u -c ch $CONTEXTS >/dev/null
	trax start >/dev/null
	./app-trax >"trax-$layout.pid" || fail "the trax program failed"
	trax stop >/dev/null
	trax destroy >/dev/null
	env_of "$W/trax-$layout" "trax-$layout.env"
done
TRAX_OUTPUT=$W/trax-embedded ./app-trax >trax-embedded.pid || fail "the TRAX_OUTPUT program failed"
env_of "$W/trax-embedded" trax-embedded.env

# check TRAX LTTNG LAYOUT NAME
check() {
	t=$1 l=$2 layout=$3 name=$4
	printf 'trax_tracer_name\ntrax_tracer_version\n' >"$t.extra"
	keys "$l" | cat - "$t.extra" >"$t.keys-expected"
	keys "$t" >"$t.keys"
	diff -u "$t.keys-expected" "$t.keys" >&2 || fail "$t: not LTTng's keys in LTTng's order (+: trax)"
	for k in domain tracer_name tracer_major tracer_minor tracer_buffering_scheme \
		architecture_bit_width hostname; do
		expect_eq "$(val "$t" $k)" "$(val "$l" $k)" "$t: $k"
	done
	expect_eq "$(val "$t" trace_name)" "\"$name\"" "$t: trace_name"
	expect_eq "$(val "$t" trax_tracer_name)" '"trax-ust"' "$t: trax_tracer_name"
	v=$(sed -n 's/^project(trax VERSION \([0-9.]*\).*/\1/p' "$TRAX_SRC/CMakeLists.txt")
	expect_eq "$(val "$t" trax_tracer_version)" "\"$v\"" "$t: trax_tracer_version"
	for k in trace_creation_datetime vpid_datetime; do
		d=$(val "$t" $k)
		[ -z "$(val "$l" $k)" ] && continue
		echo "$d" | grep -Eq '^"[0-9]{8}T[0-9]{6}[+-][0-9]{4}"$' || fail "$t: $k = $d, not LTTng's form"
		# the same local time as LTTng's, the minutes between the recordings apart
		python3 - "$d" "$(val "$l" $k)" <<'EOP' || fail "$t: $k = $d, LTTng's $(val "$l" $k): not the same local time"
import datetime, sys
t, l = (datetime.datetime.strptime(a.strip('"'), "%Y%m%dT%H%M%S%z") for a in sys.argv[1:])
sys.exit(not (t.utcoffset() == l.utcoffset() and abs((t - l).total_seconds()) < 600))
EOP
	done
	if [ "$layout" = pid ]; then
		expect_eq "$(val "$t" tracer_buffering_id)" "$(cat "${t%.env}.pid")" "$t: tracer_buffering_id"
		expect_eq "$(val "$t" vpid)" "$(cat "${t%.env}.pid")" "$t: vpid"
		expect_eq "$(val "$t" procname)" '"app-trax"' "$t: procname"
		expect_eq "$(val "$t" tracer_patchlevel)" 0 "$t: tracer_patchlevel"
	else
		expect_eq "$(val "$t" tracer_buffering_id)" "$(id -u)" "$t: tracer_buffering_id"
	fi
	ok "$t: LTTng-UST 2.13's $layout env"
}
check trax-uid.env lttng-uid.env uid env-uid
check trax-pid.env lttng-pid.env pid env-pid
check trax-embedded.env lttng-pid.env pid trax-embedded

# Babeltrace 2 reads them as LTTng traces: its text names the host and, for
# per-process traces, the process as it does for LTTng's own.
babeltrace2 "$W/trax-pid" >bt-pid.txt 2>bt.err || fail "babeltrace2 cannot read the per-pid trace"
grep -q "] (+?.?????????) $(hostname):app-trax:($(cat trax-pid.pid)) lttng_ust_tracef:event:" bt-pid.txt ||
	fail "babeltrace2 does not show host, process and pid: $(head -1 bt-pid.txt)"
ok "babeltrace2 prints the per-process trace's host, process name and pid"

# The contexts: the stream's event.context, declared as LTTng declares it.
# ctx_of TRACE_DIR: its lines
ctx_of() {
	tr -d '\000' <"$(find "$1" -name metadata)" | sed -n '/^stream {/,/^};/p' |
		sed -n '/event.context := struct {/,/};/p'
}
ctx_of "$LTTNG_TRACES/uid" >lttng.ctx
ctx_of "$W/trax-uid" >trax.ctx
[ "$(wc -l <lttng.ctx)" -eq 7 ] || fail "LTTng's trace does not have the five contexts: $(cat lttng.ctx)"
diff -u lttng.ctx trax.ctx >&2 || fail "the contexts are not declared as LTTng declares them (+: trax)"
ok "vpid, vtid, procname, pthread_id and ip are declared as LTTng declares them"
