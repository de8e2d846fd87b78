#!/bin/sh
# make demo: traces examples/hello (the lttng-ust(3) example program) and
# prints its trace with babeltrace2.
set -eu
build=${1:-build}
tools/install-deps.sh test >/dev/null 2>&1 || true
out=$(mktemp -d "${TMPDIR:-/tmp}/trax-demo.XXXXXX")
echo "== TRAX_OUTPUT=$out $build/examples/hello some arguments"
TRAX_OUTPUT="$out" "$build/examples/hello" some arguments
echo "== trace files"
find "$out" -type f | sort
echo "== babeltrace2 $out"
if command -v babeltrace2 >/dev/null 2>&1; then
	babeltrace2 "$out"
else
	echo "babeltrace2 is not installed (make deps installs it)" >&2
	exit 1
fi
