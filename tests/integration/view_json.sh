# view_json.sh - `trax view --format=json` (one valid JSON object per event
# and line, as many as text lines, exact values) and `trax view --count`.
. "$TRAX_SRC/tests/integration/lib.sh"
# Only trax view runs here: in the sanitizer build, a leak of its fails the test.
export ASAN_OPTIONS=detect_leaks=1

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"
CONFORMANCE=${TRAX_CONFORMANCE:-$TRAX_SRC/../shared/conformance}
SUCCEED="$CONFORMANCE/ctf/succeed"
[ -d "$SUCCEED" ] || fail "conformance corpus not found at $SUCCEED"
command -v python3 >/dev/null 2>&1 || fail "python3 is needed to check the JSON output"

# Prints the number of lines of stdin after checking that each one is a JSON object.
json_lines() {
	python3 -c '
import json, sys
n = 0
for i, line in enumerate(sys.stdin.buffer, 1):
    try:
        o = json.loads(line.decode("utf-8"))
    except Exception as e:
        sys.exit("line %d is not valid JSON (%s): %r" % (i, e, line[:200]))
    if not isinstance(o, dict) or "name" not in o or "fields" not in o:
        sys.exit("line %d is not an event object: %r" % (i, line[:200]))
    n += 1
print(n)'
}

# json_value FILE LINE EXPR: the Python expression EXPR (over o, line LINE's object) as JSON.
json_value() {
	python3 -c '
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    o = json.loads(f.readlines()[int(sys.argv[2]) - 1])
print(json.dumps(eval(sys.argv[3]), sort_keys=True))' "$1" "$2" "$3"
}

for t in smalltrace sequence wk-heartbeat-u meta-variant-one-underscore \
	meta-variant-two-underscores succeed1 2packets; do
	dir="$SUCCEED/$t"
	[ -d "$dir" ] || fail "missing conformance trace $t"
	"$TRAX" view "$dir" >"$TEST_TMP/$t.txt" 2>/dev/null || fail "$t: text view failed"
	"$TRAX" view --format=json "$dir" >"$TEST_TMP/$t.json" 2>/dev/null ||
		fail "$t: json view failed"
	n_text=$(wc -l <"$TEST_TMP/$t.txt" | tr -d ' ')
	n_json=$(json_lines <"$TEST_TMP/$t.json") || fail "$t: invalid JSON output"
	expect_eq "$n_json" "$n_text" "$t: JSON lines vs text lines"
	count=$("$TRAX" view --count "$dir" 2>/dev/null) || fail "$t: --count failed"
	expect_eq "$count" "$n_text events" "$t: --count"
	ok "$t: $n_json JSON lines, --count agrees"
done

# exact values
expect_eq "$(json_value "$TEST_TMP/smalltrace.json" 1 'o')" \
	'{"fields": {"str": "This is a test trace"}, "name": "string", "stream_id": 0, "timestamp": null}' \
	"smalltrace line 1"
expect_eq "$(json_value "$TEST_TMP/sequence.json" 1 '[o["timestamp"], o["stream_id"], o["fields"]["seq_int_field"], o["fields"]["seq_long_field"], o["packet_context"]]')" \
	'[1375472591957624676, 2, [-1, -2, -3, -4, -5, -6], [10, 20, 30, 40, 50, 60], {"cpu_id": 2}]' \
	"sequence line 1"
expect_eq "$(json_value "$TEST_TMP/wk-heartbeat-u.json" 1 'o')" \
	'{"context": {"vpid": 3208, "vtid": 3214}, "fields": {"msg": "heartbeat"}, "name": "heartbeat:msg", "packet_context": {"cpu_id": 2}, "stream_id": 2, "timestamp": 1351532897586558519}' \
	"wk-heartbeat-u line 1"
expect_eq "$(json_value "$TEST_TMP/meta-variant-one-underscore.json" 1 'o["fields"]')" \
	'{"tag": {"labels": ["PELCHAT"], "value": 1}, "var": "Daniel Lavoie"}' \
	"variant and enum"
# exact bytes of a line (spacing and member order)
expect_eq "$(head -n 1 "$TEST_TMP/wk-heartbeat-u.json")" \
	'{"timestamp": 1351532897586558519, "name": "heartbeat:msg", "stream_id": 2, "fields": {"msg": "heartbeat"}, "context": {"vtid": 3214, "vpid": 3208}, "packet_context": {"cpu_id": 2}}' \
	"wk-heartbeat-u line 1 bytes"
ok "exact values"

# every succeeding conformance trace: valid JSON, as many lines as text
for dir in "$SUCCEED"/*/; do
	t=$(basename "$dir")
	"$TRAX" view "$dir" >"$TEST_TMP/all.txt" 2>/dev/null || fail "$t: text view failed"
	"$TRAX" view --format=json "$dir" >"$TEST_TMP/all.json" 2>/dev/null ||
		fail "$t: json view failed"
	n_json=$(json_lines <"$TEST_TMP/all.json") || fail "$t: invalid JSON output"
	expect_eq "$n_json" "$(wc -l <"$TEST_TMP/all.txt" | tr -d ' ')" "$t: JSON lines vs text lines"
done
ok "all conformance traces: valid JSON"

# the golden traces (every field type, LTTng-UST and trax recordings, clock
# fields, discards; hm-time-back stops at the same event with status 1)
GOLDEN=$TRAX_SRC/tests/reader/golden
for dir in "$GOLDEN"/*/; do
	[ -f "$dir/metadata" ] || continue
	t=$(basename "$dir")
	rc=0
	"$TRAX" view "$dir" >"$TEST_TMP/g.txt" 2>/dev/null || rc=$?
	rcj=0
	"$TRAX" view --format=json "$dir" >"$TEST_TMP/$t.json" 2>/dev/null || rcj=$?
	expect_eq "$rcj" "$rc" "$t: JSON exit status vs text"
	n_json=$(json_lines <"$TEST_TMP/$t.json") || fail "$t: invalid JSON output"
	expect_eq "$n_json" "$(wc -l <"$TEST_TMP/g.txt" | tr -d ' ')" "$t: JSON lines vs text lines"
done
# values that a careless number format loses (make-handmade.sh writes them)
expect_eq "$(json_value "$TEST_TMP/hm-types.json" 1 '[o["fields"][k] for k in ("u64_max", "s64_min", "s64_hex", "u64_ptr")]')" \
	'[18446744073709551615, -9223372036854775808, -1, 139638282147448]' "hm-types: 64-bit integers"
expect_eq "$(json_value "$TEST_TMP/hm-types.json" 2 '[o["fields"][k] for k in ("f_2p24", "f_tenth", "f_be", "d_tenth", "d_third", "d_max", "d_denorm", "d_mzero", "f_nan", "f_minf", "d_inf")]')" \
	'[16777216.0, 0.1, -2.5, 0.1, 0.3333333333333333, 1.7976931348623157e+308, 5e-324, -0.0, "nan", "-inf", "inf"]' \
	"hm-types: floats read back exactly"
ok "golden traces: valid JSON, exact 64-bit integers and floats"

# options
"$TRAX" view --help | grep -q -- '--format=FORMAT' || fail "--format missing from --help"
"$TRAX" view --help | grep -q -- '--count' || fail "--count missing from --help"
rc=0
"$TRAX" view --format=xml "$SUCCEED/smalltrace" >/dev/null 2>&1 || rc=$?
expect_eq "$rc" 2 "--format=xml exit status"
"$TRAX" view --format json "$SUCCEED/smalltrace" | cmp -s - "$TEST_TMP/smalltrace.json" ||
	fail "--format json (separate value) differs"
ok "options"
