#!/bin/sh
# cxx.sh - every macro of lttng-ust(3) compiles as C++ and records what the
# C build records: the provider of fields.sh (every ctf_*() field macro,
# TRACEPOINT_ENUM with ctf_enum_value/range/auto, classes and instances,
# every log level, TRACEPOINT_MODEL_EMF_URI) compiled with
# TRACEPOINT_CREATE_PROBES and TRACEPOINT_DEFINE as C++, its program and
# data/cxx/calls.c (tracepoint_enabled, do_tracepoint, tracef, vtracef,
# tracelog, vtracelog, the 2.13 names, lttng_ust_loaded) too, with g++ and
# clang++ at -std=c++11, 14, 17 and 20, warning-free (-Wall -Wextra). One
# program pair per compiler and standard; each trace (payloads and event
# declarations) must equal the C build's, whose calls.c events are checked
# value by value here (fields.sh checks the provider's against LTTng-UST).
# data/cxx/shapes.cpp (call sites in namespaces, templates, lambdas,
# std::function, a constructor; std::string arguments) is built with each
# C++ compiler at -std=c++11 and c++20 too, and its events checked value by
# value.
. "$TRAX_SRC/tests/integration/lib.sh"

F=$TRAX_SRC/tests/integration/data/fields
X=$TRAX_SRC/tests/integration/data/cxx
cd "$TEST_TMP"
command -v clang++ >/dev/null 2>&1 || fail "clang++ is needed by this test (apt-get install clang)"

# The program's events as "provider:event: { payload }" lines.
payloads() {
	bt2 "$1" | payload_lines
}
# The event declarations of a trace, without their ids, in id order.
decls() {
	bt2 --output-format=ctf-metadata "$(dirname "$(find "$1" -name metadata | head -n 1)")" |
		awk '/^event \{/ { on = 1 } on && !/^\t(id|stream_id) = / { print } /^};/ { on = 0 }'
}

# build TAG LANG COMPILER FLAGS...: TAG/app (fields) and TAG/calls, then
# their traces TAG/app.txt, TAG/app.decls, TAG/calls.txt, TAG/calls.out.
# Linked with $CXX: clang++'s objects are built without the sanitizers,
# whose runtime must be the one libtrax-ust was built with.
build() {
	tag=$1 lang=$2 cc=$3
	shift 3
	mkdir "$tag"
	for src in "$F/tp.c" "$F/app.c" "$X/calls.c"; do
		o=$tag/$(basename "$src" .c).o
		$cc -x "$lang" "$@" -Wall -Wextra -Werror -I"$TRAX_SRC/include" -I"$F" -c "$src" -o "$o" \
			2>"$tag/cc.err" || {
			cat "$tag/cc.err" >&2
			fail "$src does not compile cleanly with $cc -x $lang $*"
		}
	done
	$CXX -o "$tag/app" "$tag/app.o" "$tag/tp.o" $TRAX_LDFLAGS -ltrax-ust -ldl
	$CXX -o "$tag/calls" "$tag/calls.o" "$tag/tp.o" $TRAX_LDFLAGS -ltrax-ust -ldl
	TRAX_OUTPUT=$TEST_TMP/$tag/app.trace "$tag/app" >/dev/null || fail "$tag/app exited with status $?"
	(cd "$X" && TRAX_OUTPUT=$TEST_TMP/$tag/calls.trace "$TEST_TMP/$tag/calls" >"$TEST_TMP/$tag/calls.out") ||
		fail "$tag/calls exited with status $?"
	payloads "$tag/app.trace" >"$tag/app.txt"
	decls "$tag/app.trace" >"$tag/app.decls"
	payloads "$tag/calls.trace" >"$tag/calls.txt"
}

SAN=
[ -n "$TRAX_SANITIZE" ] && SAN="-fsanitize=$TRAX_SANITIZE -fno-omit-frame-pointer"
# shellcheck disable=SC2086
build c c "$CC" -g -O1 $SAN

# The C build's calls.c events, value by value.
L() { grep -n "$1" "$X/calls.c" | head -n 1 | cut -d: -f1; }
cat >calls.expected <<EOF
fields:pair_first: { x = 1, x_times_two = 2, label = "tracepoint" }
fields:pair_first: { x = 2, x_times_two = 4, label = "do_tracepoint" }
fields:pair_second: { x = 3, x_times_two = 6, label = "lttng_ust_tracepoint" }
fields:pair_second: { x = 4, x_times_two = 8, label = "lttng_ust_do_tracepoint" }
fields:enums_auto: { a_first = ( "FIRST" : container = 0 ), a_two = ( "TWO" : container = 2 ), a_twenty_one = ( "TWENTY_ONE" : container = 21 ), a_range = ( "TEN_TO_TWENTY" : container = 15 ), a_minus_four = ( "MINUS_FOUR" : container = -4 ), a_minus_three = ( "MINUS_THREE" : container = -3 ), a_unmapped = ( <unknown> : container = 3 ), u_b = ( "B" : container = 1 ), u_d = ( "D" : container = 10 ) }
lttng_ust_tracef:event: { _msg_length = 8, msg = "tracef 5" }
lttng_ust_tracef:event: { _msg_length = 11, msg = "vtracef six" }
lttng_ust_tracelog:TRACE_WARNING: { line = $(L '"tracelog %d"'), file = "$X/calls.c", func = "main", _msg_length = 10, msg = "tracelog 7" }
lttng_ust_tracelog:TRACE_NOTICE: { line = $(L 'vtracelog(TRACE_NOTICE'), file = "$X/calls.c", func = "my_vtracelog", _msg_length = 11, msg = "vtracelog 8" }
lttng_ust_tracef:event: { _msg_length = 18, msg = "lttng_ust_tracef 9" }
lttng_ust_tracelog:TRACE_ERR: { line = $(L '"lttng_ust_tracelog %d"'), file = "$X/calls.c", func = "main", _msg_length = 21, msg = "lttng_ust_tracelog 10" }
EOF
diff -u calls.expected c/calls.txt >&2 || fail "calls.c built as C: unexpected events (diff above: + is the trace)"
expect_eq "$(cat c/calls.out)" "lttng_ust_loaded=1" "calls.c built as C: lttng_ust_loaded"
expect_eq "$(grep -c "^fields:" c/app.txt)" 29 "events of the C build of the fields program"
ok "C build: calls.c's events and values, the fields program's $(grep -c . c/app.txt) events"

cat >shapes.expected <<'EOF'
fields:pair_first: { x = 3, x_times_two = 6, label = "class template" }
fields:pair_second: { x = 4, x_times_two = 8, label = "static member" }
fields:pair_first: { x = 5, x_times_two = 10, label = "lambda in template" }
fields:pair_first: { x = 6, x_times_two = 12, label = "lambda in template" }
fields:pair_second: { x = 7, x_times_two = 14, label = "std::function" }
fields:enums_auto: { a_first = ( "FIRST" : container = 0 ), a_two = ( "TWO" : container = 2 ), a_twenty_one = ( "TWENTY_ONE" : container = 21 ), a_range = ( "TEN_TO_TWENTY" : container = 15 ), a_minus_four = ( "MINUS_FOUR" : container = -4 ), a_minus_three = ( "MINUS_THREE" : container = -3 ), a_unmapped = ( <unknown> : container = 3 ), u_b = ( "B" : container = 1 ), u_d = ( "D" : container = 10 ) }
EOF
for cxx in g++ clang++; do
	for std in c++11 c++14 c++17 c++20; do
		tag=$cxx-$std
		if [ "$cxx" = g++ ]; then
			# shellcheck disable=SC2086
			build "$tag" c++ "$CXX" -std=$std -g -O1 $SAN
		else
			build "$tag" c++ clang++ -std=$std -g -O1
		fi
		# shapes.cpp, with the provider of this build (oldest and newest standard).
		if [ "$std" = c++11 ] || [ "$std" = c++20 ]; then
			if [ "$cxx" = g++ ]; then
				# shellcheck disable=SC2086
				$CXX -std=$std -g -O1 $SAN -Wall -Wextra -Werror -I"$TRAX_SRC/include" \
					-I"$F" -c "$X/shapes.cpp" -o "$tag/shapes.o" 2>"$tag/cc.err"
			else
				clang++ -std=$std -g -O1 -Wall -Wextra -Werror -I"$TRAX_SRC/include" \
					-I"$F" -c "$X/shapes.cpp" -o "$tag/shapes.o" 2>"$tag/cc.err"
			fi || {
				cat "$tag/cc.err" >&2
				fail "shapes.cpp does not compile cleanly with $cxx -std=$std"
			}
			$CXX -o "$tag/shapes" "$tag/shapes.o" "$tag/tp.o" $TRAX_LDFLAGS -ltrax-ust -ldl
			TRAX_OUTPUT=$TEST_TMP/$tag/shapes.trace "$tag/shapes" ||
				fail "$tag/shapes exited with status $?"
			payloads "$tag/shapes.trace" | diff -u shapes.expected - >&2 ||
				fail "$tag: shapes.cpp's events (diff above: + is the trace)"
		fi
		for f in app.txt app.decls calls.txt calls.out; do
			diff -u "c/$f" "$tag/$f" >&2 || fail "$tag: $f differs from the C build's (diff above: + is $tag)"
		done
	done
	ok "$cxx -std=c++11/14/17/20: provider and call sites compile without a warning and record what C records; shapes.cpp's call sites in templates, namespaces, lambdas record their values"
done
