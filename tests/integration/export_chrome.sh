#!/bin/sh
# export_chrome.sh - `trax export --format=chrome` writes what Chrome's
# Trace Event format allows (chrome-validate.py: valid JSON, B/E paired
# per thread, slices nested, X durations, integer ids, ns kept in the
# microsecond times, every thread and process named before use) and what
# the trace holds (chrome-check.py, against `trax view --format=json`:
# every system call, span and running interval to the nanosecond, counter
# values, every event once, thread names the trace gives):
#  1. the kernel trace trax recorded (tests/data/analyses: contexts
#     tid/pid/procname), with known values (kwork's read: 4.647 us);
#  2. a user-space trace of two named threads with nested spans (--span
#     twice), counters (--counter, an integer and a double) and strings
#     that need escaping, with vpid/vtid/procname contexts, and again
#     without any context (everything on the env's vpid);
#  3. usage errors.
. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/integration/data/export
TRAX=$TRAX_BUILD/trax
PY=python3
cd "$TEST_TMP"

# run TRACE OUT [EXPORT OPTIONS...] -- [CHECK OPTIONS...]: export, validate, check
run() {
	_t=$1 _o=$2
	shift 2
	_ex="" _ck=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _ex="$_ex $1"; shift; done
	[ $# -gt 0 ] && shift
	_ck="$*"
	# shellcheck disable=SC2086
	"$TRAX" export --format=chrome $_ex -o "$_o.json" "$_t" 2>"$_o.err" ||
		fail "trax export $_ex $_t: $(cat "$_o.err")"
	$PY "$D/chrome-validate.py" "$_o.json" >"$_o.valid" || fail "$_o: $(cat "$_o.valid")"
	"$TRAX" view --format=json "$_t" >"$_o.jsonl" || fail "trax view --format=json $_t"
	# shellcheck disable=SC2086
	$PY "$D/chrome-check.py" $_ck $_ex "$_o.jsonl" "$_o.json" >"$_o.check" ||
		fail "$_o: $(cat "$_o.check")"
}

# json FILE EXPR: a Python expression on the export (d: the document, ev: its events)
json() {
	$PY -c "import json, sys; d = json.load(open(sys.argv[1])); ev = d['traceEvents']; print($2)" "$1"
}

# ---- 1. the kernel trace -------------------------------------------------------
K=$TRAX_SRC/tests/data/analyses/trax-kernel-trace
run "$K" k --counter sched_stat_runtime.runtime
grep -q '"syscalls": 12615' k.check || fail "kernel: $(cat k.check)"
grep -q '"running": 90' k.check || fail "kernel: $(cat k.check)"
# kwork (tid 6909)'s first read: entry at .026248281, exit at .026252928 (trax view)
expect_eq "$(json k.json "[(e['ts'], e['args']) for e in ev if e['ph'] == 'B' and e['tid'] == 6909 and e.get('name') == 'read'][0]")" \
	"(851050.661, {'fd': 3, 'count': 4096})" "kwork's first read syscall slice (begin, args)"
expect_eq "$(grep -c '"ph":"E","pid":6909,"tid":6909,"ts":851055.308,"args":{"ret":3,' k.json)" 1 \
	"kwork's read ends 4.647 us later with its ret"
expect_eq "$(json k.json "d['otherData']['time_origin_ns'], d['displayTimeUnit']")" \
	"1795676416175197620 ns" "time origin: the first event"
expect_eq "$(json k.json "sorted({(e['pid'], e['tid'], e['args']['name']) for e in ev if e.get('name') == 'thread_name' and e['pid'] in (6904, 6909)})")" \
	"[(6904, 6904, 'traxd'), (6904, 6911, 'traxd'), (6904, 6912, 'traxd'), (6904, 6913, 'traxd'), (6909, 6909, 'kwork')]" \
	"threads of traxd (pid 6904) and kwork"
expect_eq "$(json k.json "[e['args']['name'] for e in ev if e.get('name') == 'thread_name' and e['tid'] == 6915]")" \
	"['record-trax-tra', 'trax']" "tid 6915 renamed by its exec"
expect_eq "$(json k.json "sorted(e['args']['name'] for e in ev if e.get('name') == 'thread_name' and e['pid'] == 1000000000)")" \
	"['CPU 0', 'CPU 1']" "the CPUs' tracks"
expect_eq "$(json k.json "sum(1 for e in ev if e['ph'] == 'C' and e.get('name') == 'sched_stat_runtime.runtime')")" 416 \
	"counter values (one per sched_stat_runtime)"

# ---- 2. user space ---------------------------------------------------------------
build_app "$D" app
TRAX_OUTPUT=$TEST_TMP/u TRAX_CONTEXT=vpid,vtid,procname ./app 50 >app.out || fail "app failed"
TRAX_OUTPUT=$TEST_TMP/u2 ./app 20 serial >app2.out || fail "app (no context) failed"
SPANS="--span spn:request_begin,spn:request_end --span spn:step_enter,spn:step_exit --counter spn:queue.len --counter spn:queue.load"
run u u $SPANS
grep -q '"spans": 400' u.check || fail "user space: 2 threads x 50 x (1 + 3) spans: $(cat u.check)"
# (the main thread has events when the state dump runs in it)
expect_eq "$(json u.json "sorted(set(e['args']['name'] for e in ev if e.get('name') == 'thread_name') - {'app'})")" \
	"['worker-0', 'worker-1']" "user-space thread names (procname context)"
expect_eq "$(json u.json "sorted({e['args']['what'] for e in ev if e['ph'] == 'E' and 'what' in e['args']})")" \
	"['a \"quoted\"\\\\ \\t tab, café', 'ok']" "escaped strings read back"
# (each of the two threads counts 0, 0.5, 1...: their values interleave
# when they run at once)
expect_eq "$(json u.json "sorted(set(e['args']['value'] for e in ev if e.get('name') == 'spn:queue.load'))[:3]")" "[0, 0.5, 1]" \
	"a double counter"
set -- "$TEST_TMP"/u2/ust/pid/*/
vpid=$(basename "$1" | cut -d- -f2)
run u2 u2 $SPANS -- --env-pid "$vpid" --env-name app
grep -q '"spans": 160' u2.check || fail "user space without contexts: $(cat u2.check)"
expect_eq "$(json u2.json "sorted({(e['pid'], e['tid']) for e in ev if e['ph'] in 'BEi'})")" "[($vpid, $vpid)]" \
	"without contexts: every event on the env's vpid"

# ---- 3. errors -----------------------------------------------------------------------
st=0
"$TRAX" export "$K" >/dev/null 2>err.txt || st=$?
expect_eq "$st" 2 "no --format: usage error"
st=0
"$TRAX" export --format=perfetto "$K" >/dev/null 2>err.txt || st=$?
expect_eq "$st" 2 "--format=perfetto: usage error"
st=0
"$TRAX" export --format=chrome --span a "$K" >/dev/null 2>err.txt || st=$?
expect_eq "$st" 2 "--span without END: usage error"
grep -q "BEGIN,END" err.txt || fail "--span a: $(cat err.txt)"
st=0
"$TRAX" export --format=chrome "$TEST_TMP/none" >/dev/null 2>err.txt || st=$?
expect_eq "$st" 1 "no trace: failure"
st=0
"$TRAX" export --format=chrome -o /nonexistent/x.json "$K" 2>err.txt || st=$?
expect_eq "$st" 1 "unwritable output: failure"
ok "kernel trace ($(cat k.valid)), user-space traces: valid Chrome JSON with the trace's values"
