#!/bin/sh
# analyze_spans.sh - `trax analyze spans` on a user-space trace recorded by
# trax: a program (data/spans) busy-waits known lengths between spn:enter
# and spn:exit on two threads, one of them nesting a span in another
# (2 ms x 5 on thread 1; 5 ms x 5 holding 1 ms x 5 on thread 2).
#  - per thread (vtid context) and by field (--match id): 15 spans, none
#    unmatched, each at least its length (the busy-wait reads the trace's
#    clock after enter and before exit; the upper side depends on the
#    machine's load: not checked); count, min, max, average, standard
#    deviation, the slowest 5 (with their thread or id) exactly as
#    computed here from Babeltrace 1's reading of the same trace, the
#    percentiles within the histogram's bin (1/1024), the histogram
#    holding 15;
#  - --match on a field the events lack counts them all as "without the
#    field";
#  - the text: its count line and the unmatched line.
. "$TRAX_SRC/tests/integration/lib.sh"
PY=/usr/bin/python3
$PY -c "import babeltrace" 2>/dev/null || fail "$PY with the babeltrace (1) module is needed (python3-babeltrace)"
cd "$TEST_TMP"
build_app "$TRAX_SRC/tests/integration/data/spans" app
TRAX_EVENTS='spn:*' TRAX_CONTEXT=vtid TRAX_OUTPUT="$TEST_TMP/t" ./app 5 >app.out ||
	fail "the traced program failed"
T=$(one_trace_dir "$TEST_TMP/t")
TRAX=$TRAX_BUILD/trax

check() { # check FILE MODE: trax's JSON (MODE: thread or id) against the spans computed here
	$PY - "$T" "$1" "$2" <<'PY' 2>check.err || fail "$2: $(cat check.err)"
import json, math, statistics, sys
import babeltrace
trace, out, mode = sys.argv[1], sys.argv[2], sys.argv[3]
tc = babeltrace.TraceCollection()
tc.add_trace(trace, "ctf")
# the spans, as Babeltrace 1 reads the events: per thread (a stack) or per id
open_, spans = {}, []
for e in tc.events:
    if e.name not in ("spn:enter", "spn:exit"):
        continue
    key = e["vtid"] if mode == "thread" else e["id"]
    st = open_.setdefault(key, [])
    if e.name == "spn:enter":
        st.append((e.timestamp, e["id"], e["vtid"]))
    else:
        b, bid, vtid = st.pop()
        if bid != e["id"]:
            sys.exit("%s: enter %d closed by exit %d" % (mode, bid, e["id"]))
        spans.append((e.timestamp - b, b, e.timestamp, vtid, bid))
if len(spans) != 15 or any(open_.values()):
    sys.exit("%d spans in the trace, expected 15" % len(spans))
# each lasts at least its length (1, 2, 5 ms by id; the clock read 10 us apart at most)
for d, b, e, vtid, i in spans:
    want = {1: 2000000, 2: 5000000, 3: 1000000}[i // 100]
    if d < want - 10000:
        sys.exit("span %d lasted %d ns, less than %d" % (i, d, want))
doc = json.load(open(out))
tables = {t["class"]: t["data"] for t in doc["results"]}
row = tables["span-stats"][0]
ds = sorted(s[0] for s in spans)
got = (row[3]["value"], row[4]["value"], row[6]["value"])
if got != (15, ds[0], ds[-1]):
    sys.exit("count, min, max %s, expected %s" % (got, (15, ds[0], ds[-1])))
if row[5]["value"] != sum(ds) / 15:
    sys.exit("avg %r, expected %r" % (row[5]["value"], sum(ds) / 15))
if not math.isclose(row[7]["value"], statistics.stdev(ds), rel_tol=1e-12):
    sys.exit("stdev %r, expected %r" % (row[7]["value"], statistics.stdev(ds)))
# percentiles: nearest rank, within the histogram's bin (1/1024)
for r in tables["span-percentiles"]:
    p, v = r[0]["value"], r[1]["value"]
    want = ds[max(1, math.ceil(p / 100 * 15)) - 1]
    if abs(v - want) > want / 1024:
        sys.exit("p%s %d, expected %d" % (p, v, want))
if sum(r[2]["value"] for r in tables["freq"]) != 15:
    sys.exit("the histogram does not hold 15 spans")
top = [(r[2]["value"], r[0]["value"], r[1]["value"]) for r in tables["top-span"]]
want = sorted(((s[0], s[1], s[2]) for s in spans), key=lambda s: -s[0])[:5]
if top != want:
    sys.exit("slowest %s, expected %s" % (top, want))
who = {(s[1], s[2]): (s[3], s[4]) for s in spans}
for r in tables["top-span"]:
    vtid, i = who[(r[0]["value"], r[1]["value"])]
    if mode == "thread" and r[3].get("tid") != vtid:
        sys.exit("a slowest span of thread %d shown as %s" % (vtid, r[3]))
    if mode == "id" and r[3]["value"] != i:
        sys.exit("a slowest span of id %d shown as %s" % (i, r[3]))
if [c["value"] for c in tables["unmatched"][0]] != [0, 0, 0]:
    sys.exit("unmatched: %s" % tables["unmatched"])
PY
}

# (the threads run one after the other on per-CPU streams: the whole trace)
"$TRAX" analyze spans --no-intersection --begin-event spn:enter --end-event spn:exit --top 5 --format=json "$T" \
	>thread.json 2>err.txt || fail "spans: $(cat err.txt)"
check thread.json thread
"$TRAX" analyze spans --no-intersection --begin-event spn:enter --end-event spn:exit --top 5 --match id \
	--format=json "$T" >id.json 2>err.txt || fail "spans --match: $(cat err.txt)"
check id.json id
"$TRAX" analyze spans --no-intersection --begin-event spn:enter --end-event spn:exit --match nosuch "$T" \
	>nosuch.txt 2>err.txt || fail "spans --match nosuch: $(cat err.txt)"
expect_contains nosuch.txt "Unmatched: 0 begin events without an end, 0 end events without a begin, 30 events without the field nosuch"
"$TRAX" analyze spans --no-intersection --begin-event spn:enter --end-event spn:exit "$T" >text.txt 2>err.txt ||
	fail "spans (text): $(cat err.txt)"
expect_contains text.txt "Spans from spn:enter to spn:exit, per thread (vtid/tid context), else per stream"
grep -q '^15  ' text.txt || fail "no count line of 15 spans: $(cat text.txt)"
expect_contains text.txt "Unmatched: 0 begin events without an end, 0 end events without a begin"
# an event the trace lacks: the error names it and how to record it
if "$TRAX" analyze spans --no-intersection --begin-event spn:enter --end-event spn:leave "$T" >/dev/null 2>err.txt; then
	fail "spans with an end event the trace lacks succeeded"
fi
expect_contains err.txt "no spn:leave event"
expect_contains err.txt "trax enable-event -u spn:leave"
ok "spans of 1, 2 and 5 ms (nested) recorded by trax: per thread and by id, within tolerance"
