#!/bin/sh
# kernel_pages.sh - the kernel's own ring buffer read without its text
# formatter (src/kernel/ring-page.c, docs/kernel.md): in a tracefs instance
# of its own (trace_clock mono), 300 markers written through trace_marker
# (ftrace's print event), then the per-CPU trace_pipe_raw pages decoded;
# every marker must come out once, in order, with the time stamp (to the
# microsecond), the pid and the text that the kernel's own text output (the
# instance's `trace` file, read first) gives it. Needs root and tracefs.
. "$TRAX_SRC/tests/integration/lib.sh"

T=/sys/kernel/tracing
if ! [ -d "$T/instances" ]; then
	mount -t tracefs nodev "$T" 2>/dev/null || fail "tracefs is not mounted on $T and cannot be (the test must run as root)"
fi
I=$T/instances/trax-test-$$
trap 'rmdir "$I" 2>/dev/null; rm -rf "$TEST_TMP"' EXIT INT TERM
mkdir "$I" || fail "cannot create the tracefs instance $I"
echo mono >"$I/trace_clock" || fail "no trace_clock mono"
echo 64 >"$I/buffer_size_kb"
id=$(sed -n 's/^ID: //p' "$I/events/ftrace/print/format")
[ -n "$id" ] || fail "no ID in $I/events/ftrace/print/format"

cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$TRAX_SRC/src" -o read-pages "$TRAX_SRC/tests/integration/data/kernel/read-pages.c" \
	"$TRAX_SRC/src/kernel/ring-page.c" $TRAX_LDFLAGS || fail "cannot build read-pages"

echo 1 >"$I/tracing_on"
sh -c 'i=0; while [ $i -lt 300 ]; do echo "trax-marker-$i" >"$1/trace_marker"; i=$((i + 1)); done' sh "$I"
echo 0 >"$I/tracing_on"

# the kernel's text, then the raw pages (reading them consumes them)
grep 'tracing_mark_write: trax-marker-' "$I/trace" |
	sed 's/^ *.*-\([0-9]*\) *\[[0-9]*\] [^ ]* *\([0-9]*\)\.\([0-9]*\): tracing_mark_write: \(.*\)$/\2\3 \1 \4/' >text.txt
./read-pages "$id" "$I"/per_cpu/cpu*/trace_pipe_raw >raw.txt 2>raw.err || fail "read-pages: $(cat raw.err)"
sort -n raw.txt | awk '{ printf "%.0f %s %s\n", int(($1 + 500) / 1000), $2, $3 }' >raw-us.txt

expect_eq "$(wc -l <text.txt)" 300 "markers in the kernel's text"
expect_eq "$(wc -l <raw.txt)" 300 "markers in the raw pages"
i=0
cut -d' ' -f3 raw-us.txt | while read -r m; do
	[ "$m" = "trax-marker-$i" ] || fail "marker $i: the raw pages give $m"
	i=$((i + 1))
done
cmp -s text.txt raw-us.txt || {
	diff text.txt raw-us.txt | sed -n "1,3p;302,304p" >&2
	fail "time stamps, pids or texts differ between the kernel's text and the raw pages"
}
ok "300 markers read from the raw pages as the kernel prints them ($(cat raw.err))"
