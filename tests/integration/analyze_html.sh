#!/bin/sh
# analyze_html.sh - `trax analyze NAME --html FILE` (syscallstats,
# iolatency, schedlatency, spans) writes a page that a real browser
# (Debian's chromium, headless) loads and draws without a script error,
# whose histograms hold what the analysis counted:
#  - on the kernel trace trax recorded (tests/data/analyses) and on the
#    synthetic traces of test_analysis_sys and test_analysis_sched: the
#    page's histograms (the data-* attributes its script sets on what it
#    drew) are those the analysis's JSON output (--format=json, read here,
#    not from the page) implies: syscallstats one for all calls and one per
#    system call (the 32 most frequent, a note for the others), each
#    holding as many calls as the per-thread tables count for that call;
#    iolatency, schedlatency and spans the same bins, bucket by bucket, as
#    their --freq tables, holding as many latencies as their statistics
#    count; spans' five percentiles marked;
#  - the page's summary tables have a row per row of the analysis's;
#  - hovering a bar tells its range and count (page#selftest);
#  - stdout is the same with and without --html;
#  - the page is self-contained: no src=, href= or url( to fetch;
#  - the errors: an unwritable FILE (one line, exit 1, nothing left), an
#    analysis that fails after FILE was opened (no file left, no
#    temporary file), --html on an analysis without histograms (exit 2).
# Screenshots (1400x1600) are kept in $TRAX_BUILD/tests/analyze-html/ as the
# test's artefacts, with the pages.
. "$TRAX_SRC/tests/integration/lib.sh"

TRAX=$TRAX_BUILD/trax
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	fail "chromium is needed (apt-get install chromium; tools/install-deps.sh installs it)"
command -v python3 >/dev/null || fail "python3 is needed"
ART=$TRAX_BUILD/tests/analyze-html
mkdir -p "$ART" || fail "cannot create $ART"
K=$TRAX_SRC/tests/data/analyses/trax-kernel-trace
cd "$TEST_TMP"

# browse PAGE NAME: loads the page in headless chromium; its DOM in NAME.dom,
# the console in NAME.console, a screenshot in $ART/NAME.png
browse() {
	timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --user-data-dir="$TEST_TMP/chrome-$2" \
		--enable-logging=stderr --v=0 --window-size=1400,1600 --virtual-time-budget=5000 \
		--dump-dom "file://$1#selftest" >"$2.dom" 2>"$2.console" || fail "$2: chromium failed: $(tail -5 "$2.console")"
	timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --user-data-dir="$TEST_TMP/chrome-$2" \
		--hide-scrollbars --window-size=1400,1600 --virtual-time-budget=5000 \
		--screenshot="$ART/$2.png" "file://$1" >/dev/null 2>&1 || fail "$2: no screenshot"
	[ -s "$ART/$2.png" ] || fail "$2: empty screenshot"
	cp "$1" "$ART/$2.html"
	# the console: any message of the page's (an error, a warning) fails
	if grep -E 'CONSOLE|Uncaught' "$2.console" >/dev/null; then
		grep -E 'CONSOLE|Uncaught' "$2.console" >&2
		fail "$2: messages on the console"
	fi
	status=$(grep -o '<div id="status"[^>]*>' "$2.dom") || fail "$2: no status element: the page's script did not run"
	errs=$(sed -n 's/.*<div id="errors">\([^<]*\)<.*/\1/p' "$2.dom")
	[ -z "$errs" ] || fail "$2: script errors: $errs"
	[ "$(attr errors)" = 0 ] || fail "$2: $(attr errors) script errors"
}

# attr NAME: the status element's data-NAME
attr() {
	echo "$status" | sed -n "s/.* data-$1=\"\\([^\"]*\\)\".*/\\1/p"
}

# page NAME TRACE ANALYSIS [OPTIONS...]: the page and the JSON output
# (NAME.json) of one run, stdout compared with a run without --html, the
# page loaded; the checks of NAME are check.py's
page() {
	name=$1 trace=$2
	shift 2
	"$TRAX" analyze "$@" "$trace" >"$name.plain" 2>err.txt || fail "$name: trax analyze $* failed: $(cat err.txt)"
	"$TRAX" analyze "$@" --html "$TEST_TMP/$name.html" "$trace" >"$name.out" 2>err.txt ||
		fail "$name: trax analyze $* --html failed: $(cat err.txt)"
	cmp -s "$name.plain" "$name.out" || fail "$name: --html changed stdout: $(diff "$name.plain" "$name.out" | head -5)"
	[ ! -s err.txt ] || fail "$name: --html wrote on stderr: $(cat err.txt)"
	"$TRAX" analyze "$@" --format=json "$trace" >"$name.json" 2>err.txt || fail "$name: --format=json failed: $(cat err.txt)"
	if grep -E '(src|href)=|url\(' "$name.html" >/dev/null; then
		fail "$name: the page refers to something outside itself: $(grep -oE '(src|href)=.{0,40}|url\(.{0,40}' "$name.html" | head -3)"
	fi
	ls "$TEST_TMP" | grep -q '\.tmp-' && fail "$name: a temporary file left: $(ls "$TEST_TMP" | grep '\.tmp-')"
	browse "$TEST_TMP/$name.html" "$name"
	case $(attr hover) in "["*", "*": count "[0-9]*) ;; *) fail "$name: hovering a bar shows: '$(attr hover)'" ;; esac
	python3 "$TEST_TMP/check.py" "$1" "$name.dom" "$name.json" >"$name.check" ||
		fail "$name: $(cat "$name.check")"
	summary="$summary
  $name: $(cat "$name.check") (render $(attr render-ms) ms)"
}

cat >check.py <<'PY'
import json, re, sys
from html.parser import HTMLParser

kind, dom, out = sys.argv[1], sys.argv[2], sys.argv[3]
# the page: its histograms (in order) and the rows of its tables, as its script drew them
hists, rows, notes = [], [], []
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.in_note = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("class") == "hist":
            hists.append({"key": a["data-key"], "bins": int(a["data-bins"]), "sum": int(a["data-sum"]),
                          "counts": [int(c) for c in a["data-counts"].split()],
                          "marks": int(a["data-marks"])})
        if tag == "tr" and a.get("class") == "statrow":
            rows.append(1)
        self.in_note = tag == "div" and a.get("class") == "note"
    def handle_data(self, data):
        if self.in_note:
            notes.append(data)
            self.in_note = False
P().feed(open(dom).read())
# (a table with a title has the class {"inherit": CLASS, "title": TITLE})
tables = []
for t in json.load(open(out))["results"]:
    c = t["class"]
    tables.append({"class": c["inherit"] if isinstance(c, dict) else c,
                   "title": c.get("title") if isinstance(c, dict) else None, "data": t["data"]})
def fail(msg):
    print(msg)
    sys.exit(1)
def check(want):
    """want: {key: (count, bucket counts or None)} in the page's order"""
    got = [h["key"] for h in hists]
    if got != list(want):
        fail("histograms %s, expected %s" % (got, list(want)))
    for h in hists:
        n, counts = want[h["key"]]
        if h["sum"] != n or sum(h["counts"]) != n:
            fail("histogram %s holds %d (%d), expected %d" % (h["key"], h["sum"], sum(h["counts"]), n))
        if counts is not None and h["counts"] != counts:
            fail("histogram %s: buckets %s, --freq's %s" % (h["key"], h["counts"], counts))
        if h["bins"] != len(h["counts"]) or not 1 <= h["bins"] <= 40:
            fail("histogram %s: %d bins" % (h["key"], h["bins"]))
def freq_counts(title):
    for t in tables:
        if t["class"] == "freq" and t["title"] == title:
            return [r[2]["value"] for r in t["data"]]
    return None
def table(cls):
    for t in tables:
        if t["class"] == cls:
            return t["data"]
    return []

if kind.startswith("syscallstats"):
    per = {}
    for t in tables:
        if t["class"] == "per-tid":
            for r in t["data"]:
                per[r[0]["name"]] = per.get(r[0]["name"], 0) + r[1]["value"]
    total = sum(r[1]["value"] for r in table("total"))
    if sum(per.values()) != total:
        fail("the JSON: per-thread calls %d, total %d" % (sum(per.values()), total))
    names = sorted(per, key=lambda k: (-per[k], k))
    want = {"all": (total, None)}
    for k in names[:32]:
        want[k] = (per[k], None)
    check(want)
    if len(rows) != len(names) + 1:
        fail("%d table rows, %d system calls + all" % (len(rows), len(names)))
    if (len(names) > 32) != any("less frequent" in n for n in notes):
        fail("%d system calls, notes %s" % (len(names), notes))
    print("%d calls of %d system calls, %d histograms" % (total, len(names), len(hists)))
elif kind.startswith("iolatency"):
    want = {}
    stats = {r[0]["value"]: r[1]["value"] for r in table("syscall-latency-stats")}
    for cat in ("open", "read", "write", "sync"):
        n = stats[cat.capitalize()]
        if n:
            want[cat] = (n, freq_counts("I/O request latency distribution [%s]" % cat))
    for r in table("disk-latency-stats"):
        key = "disk: " + r[0]["name"]
        want[key] = (r[1]["value"], freq_counts("I/O request latency distribution [%s]" % key))
    check(want)
    if len(rows) != 4 + len(table("disk-latency-stats")):
        fail("%d table rows" % len(rows))
    print("%s; %d histograms" % (", ".join("%s %d" % (k, v[0]) for k, v in want.items()), len(hists)))
elif kind.startswith("schedlatency"):
    total = table("total_stats")[0][0]["value"]
    want = {"all": (total, freq_counts(None))}
    for r in table("per_prio_stats"):
        key = "Priority: %d" % r[0]["value"]
        want[key] = (r[1]["value"], freq_counts("Scheduling latency frequency distribution [%s]" % key))
    check(want)
    if len(rows) != 1 + len(table("per_prio_stats")):
        fail("%d table rows" % len(rows))
    print("%d latencies, %d priorities" % (total, len(want) - 1))
elif kind.startswith("spans"):
    n = table("span-stats")[0][3]["value"]
    check({"spans": (n, [r[2]["value"] for r in table("freq")])})
    if hists[0]["marks"] != len(table("span-percentiles")) or hists[0]["marks"] != 5:
        fail("%d percentiles marked" % hists[0]["marks"])
    print("%d spans, 5 percentiles" % n)
PY

summary=
# 1. the kernel trace trax recorded
page syscallstats "$K" syscallstats
page iolatency "$K" iolatency --stats --freq
page schedlatency "$K" schedlatency --total --per-prio --stats --freq
page spans "$K" spans --begin-event syscall_entry_read --end-event syscall_exit_read
# (without --freq: --html collects what its histograms need all the same)
"$TRAX" analyze schedlatency --html "$TEST_TMP/sl-nofreq.html" "$K" >/dev/null || fail "schedlatency --html without --freq"
grep -q '"bins":\[\[' sl-nofreq.html || fail "schedlatency --html without --freq: no bins"
"$TRAX" analyze iolatency --html "$TEST_TMP/io-nofreq.html" "$K" >/dev/null || fail "iolatency --html without --freq"
grep -q '"key":"read"' io-nofreq.html || fail "iolatency --html without --freq: no read histogram"

# 2. the synthetic traces (known answers, checked by their unit tests)
"$TRAX_BUILD/tests/test_analysis_sys" "$TEST_TMP/sys" >/dev/null || fail "cannot write the synthetic trace (sys)"
"$TRAX_BUILD/tests/test_analysis_sched" "$TEST_TMP/sched" >/dev/null || fail "cannot write the synthetic trace (sched)"
page syscallstats-synth "$TEST_TMP/sys/kernel" syscallstats
page iolatency-synth "$TEST_TMP/sys/kernel" iolatency --stats --freq
page schedlatency-synth "$TEST_TMP/sched/kernel" schedlatency --total --per-prio --stats --freq

# 3. errors
rc=0
"$TRAX" analyze syscallstats --html /nonexistent/dir/x.html "$K" >out.txt 2>err.txt || rc=$?
[ $rc = 1 ] || fail "an unwritable page: exit status $rc, 1 expected"
[ "$(wc -l <err.txt)" = 1 ] && grep -q "/nonexistent/dir/x.html" err.txt || fail "an unwritable page: $(cat err.txt)"
[ ! -s out.txt ] || fail "an unwritable page: the analysis ran: $(head -3 out.txt)"
mkdir fails
rc=0
"$TRAX" analyze spans --begin-event syscall_entry_read --end-event nosuch:event --html "$TEST_TMP/fails/x.html" "$K" \
	>/dev/null 2>err.txt || rc=$?
[ $rc = 1 ] || fail "a failing analysis: exit status $rc, 1 expected"
[ -z "$(ls fails)" ] || fail "a failing analysis left: $(ls fails)"
rc=0
"$TRAX" analyze cputop --html "$TEST_TMP/fails/x.html" "$K" >/dev/null 2>err.txt || rc=$?
[ $rc = 2 ] || fail "--html on cputop: exit status $rc, 2 expected"
grep -q "cputop has no histograms" err.txt || fail "--html on cputop: $(cat err.txt)"
[ -z "$(ls fails)" ] || fail "--html on cputop left: $(ls fails)"

ok "pages of$summary
  screenshots in $ART"
