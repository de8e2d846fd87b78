#!/bin/sh
# analyze_spool.sh - the analyses' lists and histograms in bounded memory
# (src/analysis/spool.c): on the kernel trace trax recorded
# (tests/data/analyses/trax-kernel-trace), each list option run with a
# memory cap of a few kilobytes (TRAX_ANALYZE_MEM), which makes the spools
# spill hundreds of sorted runs to disk and merge them back, prints
# exactly what it prints with the default cap (all in memory), text and
# JSON: iolatency --freq/--top/--log (--top keeps --limit + 1 calls, no
# spool; with --limit 0 or a large one, in a spool), schedlatency
# --freq/--log/--top, flow --group, irqstats --freq/--log; and the --html
# pages of iolatency and schedlatency. That the small cap did spill: with
# the temporary directory missing, the spooling runs fail with the error
# said (and no crash), while the default cap needs no temporary file on
# this small trace.
. "$TRAX_SRC/tests/integration/lib.sh"
K=$TRAX_SRC/tests/data/analyses/trax-kernel-trace/kernel
TRAX=$TRAX_BUILD/trax
cd "$TEST_TMP"

n=0
while read -r spills args; do
	[ -n "$args" ] || continue
	for fmt in text json; do
		# shellcheck disable=SC2086
		"$TRAX" analyze $args --format=$fmt "$K" >big.out 2>err.txt ||
			fail "$args --format=$fmt: $(cat err.txt)"
		[ -s big.out ] || fail "$args --format=$fmt: no output"
		# shellcheck disable=SC2086
		TRAX_ANALYZE_MEM=3k "$TRAX" analyze $args --format=$fmt "$K" >small.out 2>err.txt ||
			fail "$args --format=$fmt with a 3 KiB cap: $(cat err.txt)"
		cmp -s big.out small.out ||
			fail "$args --format=$fmt: a 3 KiB cap changes the output: $(diff big.out small.out | head -n 6)"
		# shellcheck disable=SC2086
		TMPDIR=/nonexistent-trax-dir "$TRAX" analyze $args --format=$fmt "$K" >/dev/null 2>err.txt ||
			fail "$args --format=$fmt needs a temporary file with the default cap: $(cat err.txt)"
		if [ "$spills" = no ]; then
			n=$((n + 1))
			continue
		fi
		# shellcheck disable=SC2086
		if TMPDIR=/nonexistent-trax-dir TRAX_ANALYZE_MEM=3k "$TRAX" analyze $args --format=$fmt "$K" \
			>/dev/null 2>err.txt; then
			fail "$args --format=$fmt: a 3 KiB cap and no temporary directory succeeded (no spill?)"
		else
			rc=$?
		fi
		[ "$rc" -lt 128 ] || fail "$args --format=$fmt: killed by signal $((rc - 128)) when the spill failed"
		grep -q "temporary file" err.txt || fail "$args --format=$fmt: the spill's failure not said: $(cat err.txt)"
		n=$((n + 1))
	done
done <<'LIST'
yes iolatency --freq
yes iolatency --log
no iolatency --top
yes iolatency --top --limit 0
yes iolatency --top --limit 70000
yes iolatency --stats --freq --top --log
yes schedlatency --freq --log --top 7 --stats
yes schedlatency --freq --per-tid --per-prio --total
yes flow --group
yes irqstats --freq --log --stats
yes irqstats --log --softirq 1
LIST
ok "$n runs: output the same with a 3 KiB memory cap (spilled to disk, merged back) as in memory"

# --html's histograms come from the same spools
for an in iolatency schedlatency; do
	"$TRAX" analyze $an --html big.html "$K" >/dev/null 2>err.txt || fail "$an --html: $(cat err.txt)"
	TRAX_ANALYZE_MEM=3k "$TRAX" analyze $an --html small.html "$K" >/dev/null 2>err.txt ||
		fail "$an --html with a 3 KiB cap: $(cat err.txt)"
	grep -q "distribution" big.html || fail "$an --html: no distribution in the page"
	cmp -s big.html small.html || fail "$an --html: a 3 KiB cap changes the page"
done
ok "iolatency and schedlatency --html: the same page with a 3 KiB cap"
