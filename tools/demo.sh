#!/bin/bash
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
echo "== $build/trax view $out"
"$build/trax" view "$out"
if command -v babeltrace2 >/dev/null 2>&1; then
	if babeltrace2 "$out" | cmp -s - <("$build/trax" view "$out"); then
		echo "== babeltrace2 $out prints the same lines"
	else
		echo "== babeltrace2 $out prints something else:" >&2
		babeltrace2 "$out"
		exit 1
	fi
fi
