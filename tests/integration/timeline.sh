#!/bin/sh
# timeline.sh - `trax timeline` writes a page that a real browser (Debian's
# chromium, headless) loads and draws without a script error, whose rows
# and marks are the trace's:
#  - the kernel trace trax recorded (tests/data/analyses): a row per CPU of
#    the trace (as many as `trax analyze stats` counts), rows for the
#    threads known to have run (kwork 6909, traxd 6904: README there), the
#    page's own check that every row's data decodes to the counts written,
#    no error in window.onerror's element nor on chromium's console;
#  - a user-space trace of the conformance corpus (session-rotation): as
#    many marks as events (`trax view --count`), the state dump's start/end
#    pairs as spans (--span);
#  - the bound (--max-changes): the page's note, its data check, its rows'
#    changes within the bound, its size a fraction of the full page's; the
#    marks' bound on the user-space trace (the marks still count every event);
#  - the mouse: synthetic wheel, drag and hover events (page#selftest);
#  - the page is self-contained: no src=, href= or url( to fetch;
#  - the errors: no -o, an unwritable page, a path without traces (no page
#    left behind).
# Screenshots (1400x900) are kept in $TRAX_BUILD/tests/timeline/ as the
# test's artefacts, with the pages.
. "$TRAX_SRC/tests/integration/lib.sh"

TRAX=$TRAX_BUILD/trax
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	fail "chromium is needed (apt-get install chromium; tools/install-deps.sh installs it)"
CONF=${TRAX_CONFORMANCE:-$TRAX_SRC/../shared/conformance}
[ -d "$CONF/ctf/succeed/session-rotation" ] || fail "no conformance corpus at $CONF (set TRAX_CONFORMANCE)"
ART=$TRAX_BUILD/tests/timeline
mkdir -p "$ART" || fail "cannot create $ART"
cd "$TEST_TMP"

# browse PAGE NAME: loads the page in headless chromium; its DOM in NAME.dom,
# the console in NAME.console, a screenshot in $ART/NAME.png
browse() {
	timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --user-data-dir="$TEST_TMP/chrome-$2" \
		--enable-logging=stderr --v=0 --window-size=1400,900 --virtual-time-budget=5000 \
		--dump-dom "file://$1#selftest" >"$2.dom" 2>"$2.console" || fail "$2: chromium failed: $(tail -5 "$2.console")"
	timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --user-data-dir="$TEST_TMP/chrome-$2" \
		--hide-scrollbars --window-size=1400,900 --virtual-time-budget=5000 \
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
}

# attr NAME: the status element's data-NAME
attr() {
	echo "$status" | sed -n "s/.* data-$1=\"\\([^\"]*\\)\".*/\\1/p"
}

# 1. the kernel trace
K=$TRAX_SRC/tests/data/analyses/trax-kernel-trace
"$TRAX" timeline "$K" -o "$TEST_TMP/kernel.html" 2>err.txt || fail "trax timeline failed: $(cat err.txt)"
if grep -E '(src|href)=|url\(' kernel.html >/dev/null; then
	fail "the page refers to something outside itself: $(grep -oE '(src|href)=.{0,40}|url\(.{0,40}' kernel.html | head -3)"
fi
browse "$TEST_TMP/kernel.html" kernel
[ "$(attr check)" = ok ] || fail "kernel: the page's data check: $(attr check)"
[ "$(attr errors)" = 0 ] || fail "kernel: $(attr errors) script errors"
"$TRAX" analyze stats "$K" >stats.txt || fail "trax analyze stats"
cpus=$(sed -n '/^Per CPU/,/^$/p' stats.txt | grep -cE '^[0-9]+ ')
[ "$(attr cpus)" = "$cpus" ] || fail "kernel: $(attr cpus) CPU rows, the trace has $cpus CPUs"
threads=$(attr threads)
[ "$threads" -ge 10 ] || fail "kernel: only $threads thread rows"
[ "$(attr rows)" = $((cpus + threads)) ] || fail "kernel: $(attr rows) rows, $cpus CPUs + $threads threads"
ids=" $(attr row-ids) "
for want in c:0 c:1 t:6909 t:6904; do
	case $ids in *" $want "*) ;; *) fail "kernel: no row $want in:$ids" ;; esac
done
case $ids in *" t:0 "*) fail "kernel: a row for the idle task (tid 0)" ;; esac
[ "$(attr marks)" = 0 ] || fail "kernel: $(attr marks) marks in a kernel trace"
# the mouse (synthetic events, page.html#selftest): the wheel zooms in, a
# drag to the left moves the view right, hovering CPU 0 tells its state
[ "$(attr wheel-zoom)" != "1.00" ] && [ -n "$(attr wheel-zoom)" ] || fail "kernel: the wheel did not zoom ($(attr wheel-zoom))"
[ "$(attr drag-pan)" = right ] || fail "kernel: a drag did not pan ($(attr drag-pan))"
case $(attr hover) in "CPU 0 | at +"*) ;; *) fail "kernel: hovering CPU 0 shows: $(attr hover)" ;; esac
# the statistics tables are on the page
grep -q 'Per event' kernel.dom || fail "kernel: no stats table"
kload=$(attr load-ms) krender=$(attr render-ms) kdraw=$(attr zoom-redraw-ms)

# 1b. the bound: at most 2000 state changes kept (--max-changes): the
# page says what was dropped, its data still checks, its rows hold no more
# than the bound, and it is a fraction of the full page
"$TRAX" timeline --max-changes=2000 "$K" -o "$TEST_TMP/bound.html" 2>err.txt || fail "trax timeline --max-changes failed: $(cat err.txt)"
browse "$TEST_TMP/bound.html" bound
[ "$(attr check)" = ok ] || fail "bound: the page's data check: $(attr check)"
[ "$(attr dropped)" -gt 0 ] || fail "bound: nothing dropped ($(attr dropped))"
grep -q "<div id=\"note\">Detail dropped: the rows had more than 2000 state changes" bound.dom || fail "bound: no note on the page"
[ "$(attr rows)" = $((cpus + threads)) ] || fail "bound: $(attr rows) rows, $((cpus + threads)) without the bound"
nch=$(grep -o '"nch":[0-9]*' bound.html | awk -F: '{s += $2} END {print s}')
[ "$nch" -le 2000 ] || fail "bound: $nch state changes on the page, more than 2000"
full=$(wc -c <kernel.html) bound=$(wc -c <bound.html)
[ "$bound" -lt 120000 ] && [ $((bound * 2)) -lt "$full" ] || fail "bound: the page is $bound bytes (the full one $full)"
grep -q '"dropped":0,' kernel.html || fail "kernel: detail dropped under the default bound"

# 2. a user-space trace: every event a mark, spans from a pair of events
U=$CONF/ctf/succeed/session-rotation
"$TRAX" timeline --no-intersection --span lttng_ust_statedump:start,lttng_ust_statedump:end \
	--title "session-rotation" "$U" -o "$TEST_TMP/ust.html" 2>err.txt || fail "trax timeline (ust) failed: $(cat err.txt)"
browse "$TEST_TMP/ust.html" ust
[ "$(attr check)" = ok ] || fail "ust: the page's data check: $(attr check)"
n=$("$TRAX" view --count "$U" | sed 's/ events//')
[ "$(attr marks)" = "$n" ] || fail "ust: $(attr marks) marks, $n events"
[ "$(attr spans)" = 2 ] || fail "ust: $(attr spans) spans, the trace has 2 state dumps"
[ "$(attr cpus)" = 0 ] || fail "ust: $(attr cpus) CPU rows in a user-space trace"
[ "$(attr rows)" -ge 1 ] || fail "ust: no row"
grep -q 'trax timeline: session-rotation' ust.dom || fail "ust: no title"
# the marks' bound: at most 10 kept, each standing for its bucket's events
"$TRAX" timeline --no-intersection --max-changes=10 "$U" -o "$TEST_TMP/ustb.html" 2>err.txt || fail "trax timeline (ust, bound) failed: $(cat err.txt)"
browse "$TEST_TMP/ustb.html" ustb
[ "$(attr check)" = ok ] || fail "ust bound: the page's data check: $(attr check)"
[ "$(attr marks)" = "$n" ] || fail "ust bound: marks for $(attr marks) events, $n events"
[ "$(attr marks-dropped)" -gt 0 ] || fail "ust bound: no mark merged"
grep -q "marks of each" ustb.dom || fail "ust bound: no note on the page"

# 3. errors
rc=0
"$TRAX" timeline "$K" >/dev/null 2>err.txt || rc=$?
[ $rc = 2 ] || fail "no -o: exit status $rc, 2 expected"
grep -q -- "-o FILE.html" err.txt || fail "no -o: $(cat err.txt)"
rc=0
"$TRAX" timeline "$K" -o /nonexistent/dir/x.html 2>err.txt || rc=$?
[ $rc = 1 ] || fail "an unwritable page: exit status $rc, 1 expected"
grep -q "/nonexistent/dir/x.html" err.txt || fail "an unwritable page: $(cat err.txt)"
rc=0
"$TRAX" timeline --max-changes=1 "$K" -o "$TEST_TMP/x.html" 2>err.txt || rc=$?
[ $rc = 2 ] || fail "--max-changes=1: exit status $rc, 2 expected"
grep -q -- "--max-changes" err.txt || fail "--max-changes=1: $(cat err.txt)"
mkdir empty
rc=0
"$TRAX" timeline "$TEST_TMP/empty" -o "$TEST_TMP/none.html" 2>err.txt || rc=$?
[ $rc = 1 ] || fail "no trace: exit status $rc, 1 expected"
[ ! -e none.html ] || fail "no trace: a page left behind"

ok "kernel: $cpus CPUs, $threads threads (load $kload ms, first frame $krender ms, zoomed frame $kdraw ms); bounded to 2000 changes: $nch, $bound bytes (full $full); user space: $n marks, 2 spans; screenshots in $ART"
