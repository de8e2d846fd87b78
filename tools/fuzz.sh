#!/bin/sh
# tools/fuzz.sh SECONDS [NAME...]: builds each libFuzzer target
# tests/fuzz/fuzz_NAME.c with clang (fuzzer + address + undefined
# sanitizers) and runs it for SECONDS on its seed corpus
# (tests/fuzz/corpus/NAME/). A target names the sources it needs on a line
# "FUZZ-SOURCES: file..." (continued on the comment lines that follow it
# and start with src/ or tests/), and may name more seed files on a line
# "FUZZ-SEEDS: glob...". Exit 1 when a target crashes; the input that
# crashed is kept in the work directory and named on stderr.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
work=${FUZZ_WORK:-${TMPDIR:-/tmp}/trax-fuzz}
mkdir -p "$work"
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "fuzz: $CLANG is not installed (make deps installs it)" >&2; exit 1; }

targets=$*
[ -n "$targets" ] || targets=$(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_\(.*\)\.c|\1|')
# the headers the build generates that kernel sources include (system call numbers)
mkdir -p "$work/kgen"
sh src/kernel/bpf/gen-nrs.sh "$CLANG" "$work/kgen/syscall-nrs.h"
sh src/kernel/bpf/gen-nrs.sh "$CLANG" "$work/kgen/syscall-nrs32.h" asm/unistd_32.h SC_NR32
status=0
for name in $targets; do
	src=tests/fuzz/fuzz_$name.c
	[ -f "$src" ] || { echo "fuzz: no target $src" >&2; exit 1; }
	# (the line and the comment lines that go on with more paths: clang-format wraps long ones)
	sources=$(awk '/FUZZ-SOURCES:/ { sub(/.*FUZZ-SOURCES:[ \t]*/, ""); print; more = 1; next }
		more && /^ \* (src|tests)\// { sub(/^ \* /, ""); print; next }
		{ more = 0 }' "$src")
	[ -n "$sources" ] || { echo "fuzz: $src has no FUZZ-SOURCES line" >&2; exit 1; }
	# shellcheck disable=SC2086 # sources may be globs
	sources=$(ls -d $sources)
	bin=$work/fuzz_$name
	# shellcheck disable=SC2086
	"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -Iinclude -Isrc -Itests -I"$work/kgen" -o "$bin" "$src" $sources
	mkdir -p "$work/corpus-$name" "tests/fuzz/corpus/$name"
	# more seeds: the files a "FUZZ-SEEDS: glob..." line names (paths from
	# the source tree), copied under names of their own
	rm -rf "$work/seeds-$name"
	mkdir -p "$work/seeds-$name"
	seeds=$(sed -n 's/.*FUZZ-SEEDS:[[:space:]]*//p' "$src")
	for f in $seeds; do
		if [ -f "$f" ]; then
			cp "$f" "$work/seeds-$name/$(echo "$f" | sed 's|^\(\.\./\)*||' | tr '/' '_')"
		fi
	done
	echo "fuzz: $name for ${secs}s ($(ls "$work/seeds-$name" | wc -l) extra seeds)"
	if ! (cd "$work" && "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 "corpus-$name" "$OLDPWD/tests/fuzz/corpus/$name" "seeds-$name" \
		>"$work/$name.log" 2>&1); then
		echo "fuzz: $name FAILED; see $work/$name.log (crash input in $work)" >&2
		tail -n 30 "$work/$name.log" >&2
		status=1
	else
		grep -E "stat::number_of_executed_units|cov:" "$work/$name.log" | tail -n 2
	fi
done
exit $status
