#!/bin/sh
# linking.sh - every way lttng-ust(3) says to build and link an instrumented
# program works with trax, each checked with babeltrace2:
#   1. provider object linked into the application (man page example)
#   2. provider archived in a static library (ar rc tp.a tp.o)
#   3. dynamic loading (TRACEPOINT_PROBE_DYNAMIC_LINKAGE, application not
#      linked with libtrax-ust): dlopen(3), LD_PRELOAD, and neither
#   4. several providers in one program (objects and one archive)
#   4b. TRACEPOINT_DEFINE in the application, the probes in an archive or a
#      shared object linked with it: the call sites pull the probes in, and
#      a program whose provider is missing does not link (names the provider)
#   5. a C++ application with a provider compiled as C
#   6. the lttng_ust_loaded / trax_ust_loaded weak symbols
#   7. tracepoint_enabled(), do_tracepoint(), arguments not evaluated when off
#   8. tracef()/vtracef()/tracelog()/vtracelog(), compared with LTTng-UST
#   9. the installed tree (cmake --install): headers, libraries, pkg-config
# Sources: tests/integration/data/linking/ (manpage/, made from examples/hello, is the lttng-ust(3)
# example, writing app.txt in the current directory instead of /tmp/app.txt).

. "$TRAX_SRC/tests/integration/lib.sh"

DATA=$TRAX_SRC/tests/integration/data/linking
W=$TEST_TMP/w
mkdir -p "$W"
cp -R "$DATA"/. "$W"/
# manpage/: the lttng-ust(3) example of examples/hello, writing its app.txt
# in the current directory instead of /tmp, so that runs do not share it.
mkdir -p "$W/manpage"
cp "$TRAX_SRC"/examples/hello/tp.h "$TRAX_SRC"/examples/hello/tp.c "$TRAX_SRC"/examples/hello/app.h "$W/manpage/"
sed 's|/tmp/app.txt|app.txt|' "$TRAX_SRC"/examples/hello/app.c >"$W/manpage/app.c"
cd "$W"

# Sanitizer flags alone, for programs that must not see -I/-L of the tree.
SAN_CFLAGS=
SAN_LDFLAGS=
if [ -n "$TRAX_SANITIZE" ]; then
	SAN_CFLAGS="-fsanitize=$TRAX_SANITIZE -fno-omit-frame-pointer"
	SAN_LDFLAGS="-fsanitize=$TRAX_SANITIZE"
fi

for tool in babeltrace2 readelf ar pkg-config "$CXX"; do
	command -v "$tool" >/dev/null 2>&1 || fail "$tool is needed by this test"
done

# run OUT CMD...: runs CMD with TRAX_OUTPUT=OUT; its stdout goes to OUT.stdout.
# Fails on a non-zero exit status.
run() {
	out=$1
	shift
	rm -rf "$out"
	st=0
	TRAX_OUTPUT=$out "$@" >"$out.stdout" 2>"$out.stderr" || st=$?
	if [ "$st" != 0 ]; then
		cat "$out.stderr" >&2
		fail "$* exited with status $st"
	fi
}

# events TRACE FILE: the events of TRACE, one per line, as
# "LOGLEVEL (N) provider:event: { fields }" (no time stamp, no cpu_id).
events() {
	bt2 --no-delta --fields=loglevel "$1" >"$2.raw"
	sed -E 's/^\[[^]]*\] //; s/\{ cpu_id = [0-9]+ \}, //' "$2.raw" >"$2"
}

# expect_file ACTUAL EXPECTED WHAT: same contents.
expect_file() {
	diff -u "$2" "$1" >&2 || fail "$3: unexpected contents (diff above: - expected, + actual)"
}

# expect_events TRACE WHAT: the events of TRACE are exactly stdin's lines.
expect_events() {
	cat >"$TEST_TMP/expected"
	events "$1" "$TEST_TMP/actual"
	expect_file "$TEST_TMP/actual" "$TEST_TMP/expected" "$2"
}

# no_events TRACE WHAT: TRACE holds no event (or was not written at all).
no_events() {
	if [ -e "$1" ]; then
		if find "$1" -name metadata | grep -q .; then
			events "$1" "$TEST_TMP/actual"
			[ ! -s "$TEST_TMP/actual" ] || {
				cat "$TEST_TMP/actual" >&2
				fail "$2: expected no event"
			}
		fi
	fi
}

needed() { # needed BINARY: its DT_NEEDED entries
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

# The lttng-ust(3) example's five events, run as ./app with no argument.
manpage_events() {
	expect_events "$1" "$2" <<'EOF'
TRACE_DEBUG_LINE (13) my_provider:simple_event: { argc = "./app", argv = 1 }
TRACE_WARNING (4) my_provider:big_event: { int_field1 = 70, stream_pos = 0xA, float_field = -3.14, string_field = "hello tracepoint", array_field = [ [0] = 100, [1] = -35, [2] = 1, [3] = 23, [4] = 14, [5] = -6, [6] = 28 ], array_text_field = "d", _seq_field_length = 3, seq_field = [ [0] = 100, [1] = -35, [2] = 1 ], _seq_text_field_length = 7, seq_text_field = "d", enum_field = ( <unknown> : container = -35 ) }
TRACE_DEBUG_LINE (13) my_provider:event_instance1: { a = 23, b = 1, c = "[the string]" }
TRACE_INFO (6) my_provider:event_instance2: { a = 17, b = 5, c = "[other string]" }
TRACE_DEBUG_LINE (13) my_provider:event_instance3: { a = -52, b = 23, c = "nothing" }
EOF
	expect_eq "$(cat app.txt)" "0123456789" "$2: the example's app.txt"
}

# ---- 1. Static linking of the provider (man page example) ----
cd "$W/manpage"
$CC $TRAX_CFLAGS -c -I. tp.c
$CC $TRAX_CFLAGS -c app.c
$CC -o app tp.o app.o $TRAX_LDFLAGS -ltrax-ust -ldl
needed app | grep -qx 'libtrax-ust.so.0' || fail "1: app does not need libtrax-ust.so.0"
run "$TEST_TMP/t1" ./app
manpage_events "$TEST_TMP/t1" "1 (tp.o linked into the app)"
ok "1: provider object linked into the application: 5 events"

# ---- 2. Provider archived in a static library ----
rm -f tp.a app.txt
ar rc tp.a tp.o
$CC -o app app.o tp.a $TRAX_LDFLAGS -ltrax-ust -ldl
run "$TEST_TMP/t2" ./app
manpage_events "$TEST_TMP/t2" "2 (tp.a)"
ok "2: provider in a static library: 5 events"
cd "$W"

# ---- 3. Dynamic loading of the provider ----
$CC $TRAX_CFLAGS -c -fpic -I. tp.c -o tp-pic.o
$CC $SAN_LDFLAGS -shared -Wl,--no-as-needed -o tp.so tp-pic.o -L"$TRAX_BUILD" -ltrax-ust
$CC $TRAX_CFLAGS -c -fpic -I. tp-probes.c -o tp-probes-pic.o
$CC $SAN_LDFLAGS -shared -Wl,--no-as-needed -o tp-probes.so tp-probes-pic.o -L"$TRAX_BUILD" -ltrax-ust
$CC $TRAX_CFLAGS -c tp-define.c
$CC $TRAX_CFLAGS -c app-dl.c
$CC $SAN_LDFLAGS -o app-dl app-dl.o tp-define.o -ldl
needed tp.so | grep -qx 'libtrax-ust.so.0' || fail "3: tp.so does not need libtrax-ust.so.0"
if needed app-dl | grep -q trax; then fail "3: app-dl is linked with libtrax-ust"; fi
if readelf -d app-dl | grep -qE 'R(UN)?PATH'; then fail "3: app-dl has an rpath"; fi

# (a) dlopen(3) at run time: events after the dlopen are recorded.
for so in tp.so tp-probes.so; do
	run "$TEST_TMP/t3a" ./app-dl dlopen "./$so"
	expect_eq "$(cat "$TEST_TMP/t3a.stdout")" "loaded
done" "3a ($so): output"
	expect_events "$TEST_TMP/t3a" "3a (dlopen $so)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 1, s = "after" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 2, s = "after" }
EOF
done
ok "3a: provider loaded with dlopen(3): events after the dlopen recorded"

# (b) LD_PRELOAD: all events recorded. (A preloaded library comes before
# libasan in sanitizer builds: that is expected, tell ASan.)
for so in tp.so tp-probes.so; do
	ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" LD_PRELOAD="$W/$so" \
		run "$TEST_TMP/t3b" ./app-dl
	expect_eq "$(cat "$TEST_TMP/t3b.stdout")" "done" "3b ($so): output"
	expect_events "$TEST_TMP/t3b" "3b (LD_PRELOAD=$so)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 0, s = "before" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 1, s = "after" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 2, s = "after" }
EOF
done
ok "3b: provider preloaded: all events recorded"

# The same with LTTng-UST 2.13's spellings (LTTNG_UST_TRACEPOINT_DEFINE,
# LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE).
$CC $TRAX_CFLAGS -c tp-define213.c
$CC $SAN_LDFLAGS -o app-dl213 app-dl.o tp-define213.o -ldl
if needed app-dl213 | grep -q trax; then fail "3b: app-dl213 is linked with libtrax-ust"; fi
ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" LD_PRELOAD="$W/tp.so" \
	run "$TEST_TMP/t3b" ./app-dl213
expect_events "$TEST_TMP/t3b" "3b (2.13 spellings, LD_PRELOAD=tp.so)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 0, s = "before" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 1, s = "after" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 2, s = "after" }
EOF
ok "3b: LTTNG_UST_TRACEPOINT_DEFINE and LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE"

# (c) Neither: runs, tracepoints stay disabled; also when libtrax-ust itself
# cannot be found.
run "$TEST_TMP/t3c" ./app-dl
expect_eq "$(cat "$TEST_TMP/t3c.stdout")" "done" "3c: output"
no_events "$TEST_TMP/t3c" "3c (provider not loaded)"
(
	unset LD_LIBRARY_PATH
	run "$TEST_TMP/t3c2" ./app-dl
) || exit 1
expect_eq "$(cat "$TEST_TMP/t3c2.stdout")" "done" "3c (no libtrax-ust): output"
[ ! -e "$TEST_TMP/t3c2" ] || fail "3c: a trace was written although libtrax-ust could not be loaded"
ok "3c: provider not loaded: program runs, no events"

# ---- 4. Several providers in one program ----
$CC $TRAX_CFLAGS -c -I. tp.c
$CC $TRAX_CFLAGS -c -I. tp2.c
$CC $TRAX_CFLAGS -c app-multi.c
rm -f provs.a
ar rc provs.a tp.o tp2.o
$CC -o app-multi tp.o tp2.o app-multi.o $TRAX_LDFLAGS -ltrax-ust -ldl
$CC -o app-multi-ar app-multi.o provs.a $TRAX_LDFLAGS -ltrax-ust -ldl
for prog in app-multi app-multi-ar; do
	run "$TEST_TMP/t4" "./$prog"
	expect_events "$TEST_TMP/t4" "4 ($prog)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 5, s = "first" }
TRACE_DEBUG_LINE (13) otherprov:ping: { id = 0xBEEF, ratio = 0.5 }
TRACE_DEBUG_LINE (13) linkprov:counted: { v = 6 }
TRACE_DEBUG_LINE (13) otherprov:ping: { id = 0x10, ratio = -2.25 }
EOF
done
ok "4: two providers (objects, and one archive): events of both"

# ---- 4b. Call sites referring to their provider's probes ----
# app.c calls linkprov:hello three times; tp-define-static.c has
# TRACEPOINT_DEFINE (no dynamic linkage); the probes (tp-probes.c, also
# compiled as C++) are only in an archive, whose member nothing else names.
# expect_hello3 TRACE WHAT: app's three events, tagged "none".
expect_hello3() {
	expect_events "$1" "$2" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 0, s = "none" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 1, s = "none" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 2, s = "none" }
EOF
}
GC="-ffunction-sections -fdata-sections"
$CC $TRAX_CFLAGS -c -I. tp-probes.c -o probes-c.o
$CXX $TRAX_CFLAGS -c -I. -x c++ tp-probes.c -o probes-cxx.o
$CC $TRAX_CFLAGS $GC -c -I. app.c -o app4b.o
$CC $TRAX_CFLAGS $GC -c -I. tp-define-static.c -o define4b.o
$CXX $TRAX_CFLAGS -c -I. -x c++ tp-define-static.c -o define4b-cxx.o
rm -f probes-c.a probes-cxx.a
ar rc probes-c.a probes-c.o
ar rc probes-cxx.a probes-cxx.o
# TAG DEFINE-OBJECT ARCHIVE [LINK FLAG]
while read -r tag def arch ldflag; do
	$CXX -o "app4b-$tag" app4b.o "$def" "$arch" $ldflag $TRAX_LDFLAGS -ltrax-ust -ldl
	run "$TEST_TMP/t4b" "./app4b-$tag"
	expect_hello3 "$TEST_TMP/t4b" "4b ($tag: probes only in $arch)"
done <<'EOF'
c define4b.o probes-c.a
c-gc define4b.o probes-c.a -Wl,--gc-sections
cxx-probes define4b.o probes-cxx.a
cxx-define define4b-cxx.o probes-c.a
EOF
ok "4b: TRACEPOINT_DEFINE in the application pulls the probes out of an archive (C, C++, --gc-sections)"

# The provider missing altogether: no program, and the error names it.
for ldflag in -Wl,--no-gc-sections -Wl,--gc-sections; do
	if $CC -o app4b-missing app4b.o define4b.o $ldflag $TRAX_LDFLAGS -ltrax-ust -ldl \
		>"$TEST_TMP/ld4b.out" 2>&1; then
		fail "4b ($ldflag): a program whose provider linkprov is missing was linked"
	fi
	grep -q 'undefined reference to .__trax_probes_of_provider_linkprov' "$TEST_TMP/ld4b.out" || {
		cat "$TEST_TMP/ld4b.out" >&2
		fail "4b ($ldflag): the link error does not name the provider linkprov"
	}
done
ok "4b: TRACEPOINT_DEFINE without the provider's probes fails to link, naming the provider"

# The probes in a shared object linked with the program (not dynamic
# linkage), even with --as-needed: the reference makes it needed.
$CC $TRAX_CFLAGS -c -I. -fpic tp-probes.c -o probes-so.o
$CC $SAN_LDFLAGS -shared -o libprobes4b.so probes-so.o -L"$TRAX_BUILD" -ltrax-ust
$CC -o app4b-so app4b.o define4b.o -Wl,--as-needed -L. -lprobes4b -Wl,-rpath,"$W" \
	$TRAX_LDFLAGS -ltrax-ust -ldl
needed app4b-so | grep -qx 'libprobes4b.so' || fail "4b: app4b-so does not need libprobes4b.so"
run "$TEST_TMP/t4b" ./app4b-so
expect_hello3 "$TEST_TMP/t4b" "4b (probes in a shared object linked with --as-needed)"
ok "4b: probes in a shared object linked with the program: needed and recorded"

# ---- 4c. Tracepoints defined in a shared object, called from the program ----
# As with LTTng-UST 2.13, a tracepoint's definition is visible to other
# modules: the program's call sites (no TRACEPOINT_DEFINE of their own) use
# those of a shared object it links with, which holds the provider and
# TRACEPOINT_DEFINE (tp.c). LTTNG_UST_TRACEPOINT_HIDDEN_DEFINITION keeps
# them in their module: the program then fails to link, as with LTTng-UST.
$CC $TRAX_CFLAGS -c -I. -fpic tp.c -o tp-all-so.o
$CC $SAN_LDFLAGS -shared -o libtpall4c.so tp-all-so.o -L"$TRAX_BUILD" -ltrax-ust
$CC $TRAX_CFLAGS -c -I. app.c -o app4c.o
$CC -o app4c app4c.o -L. -ltpall4c -Wl,-rpath,"$W" $TRAX_LDFLAGS -ltrax-ust -ldl
run "$TEST_TMP/t4c" ./app4c
expect_hello3 "$TEST_TMP/t4c" "4c (tracepoints defined in a shared object)"
$CC $TRAX_CFLAGS -DLTTNG_UST_TRACEPOINT_HIDDEN_DEFINITION -c -I. -fpic tp.c -o tp-hidden-so.o
$CC $SAN_LDFLAGS -shared -o libtphidden4c.so tp-hidden-so.o -L"$TRAX_BUILD" -ltrax-ust
if $CC -o app4c-hidden app4c.o -L. -ltphidden4c -Wl,-rpath,"$W" $TRAX_LDFLAGS -ltrax-ust -ldl \
	>"$TEST_TMP/ld4c.out" 2>&1; then
	fail "4c: call sites linked to tracepoints defined hidden in another module"
fi
grep -q '__trax_tp_linkprov___hello' "$TEST_TMP/ld4c.out" || {
	cat "$TEST_TMP/ld4c.out" >&2
	fail "4c: the link error does not name the hidden tracepoint"
}
# The same for the provider's probes: LTTNG_UST_TRACEPOINT_PROVIDER_HIDDEN_DEFINITION
# keeps them in their shared object, where the program's TRACEPOINT_DEFINE
# cannot refer to them.
$CC $TRAX_CFLAGS -DLTTNG_UST_TRACEPOINT_PROVIDER_HIDDEN_DEFINITION -c -I. -fpic tp-probes.c \
	-o probes-hidden-so.o
$CC $SAN_LDFLAGS -shared -o libprobeshidden4c.so probes-hidden-so.o -L"$TRAX_BUILD" -ltrax-ust
if $CC -o app4c-phidden app4b.o define4b.o -L. -lprobeshidden4c -Wl,-rpath,"$W" $TRAX_LDFLAGS \
	-ltrax-ust -ldl >"$TEST_TMP/ld4c.out" 2>&1; then
	fail "4c: TRACEPOINT_DEFINE linked to a provider defined hidden in another module"
fi
grep -q '__trax_probes_of_provider_linkprov' "$TEST_TMP/ld4c.out" || {
	cat "$TEST_TMP/ld4c.out" >&2
	fail "4c: the link error does not name the hidden provider"
}
ok "4c: call sites use the tracepoints a shared object defines (not when it hides them, nor its provider)"

# ---- 5. C++ application, provider compiled as C ----
$CXX $TRAX_CFLAGS -c app.cpp -o app-cpp.o
$CXX -o app-cpp app-cpp.o tp.o $TRAX_LDFLAGS -ltrax-ust -ldl
run "$TEST_TMP/t5" ./app-cpp
expect_eq "$(cat "$TEST_TMP/t5.stdout")" "done" "5: output"
expect_events "$TEST_TMP/t5" "5 (C++)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 10, s = "from C++" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 11, s = "from C++" }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 12, s = "from C++" }
EOF
ok "5: C++ application: 3 events"

# ---- 5b. The man page example with its provider compiled as C++ too ----
# (lttng-ust(3) advises C for probes; trax's generated probes are also C++.)
cd "$W/manpage"
cp tp.c tp-cxx.cpp
$CXX $TRAX_CFLAGS -c -I. tp-cxx.cpp -o tp-cxx.o
$CXX $TRAX_CFLAGS -c -x c++ app.c -o app-cxx.o
mkdir -p cxx
$CXX -o cxx/app app-cxx.o tp-cxx.o $TRAX_LDFLAGS -ltrax-ust -ldl
cd cxx
run "$TEST_TMP/t5b" ./app
manpage_events "$TEST_TMP/t5b" "5b (provider and application in C++)"
cd "$W"
ok "5b: provider compiled as C++: the example's 5 events, with their log levels"

# ---- 6. lttng_ust_loaded / trax_ust_loaded ----
for w in lttng:7 trax:8; do
	v=${w%:*} n=${w#*:}
	src=weak-$v.c
	# With tracepoints and libtrax-ust.
	$CC $TRAX_CFLAGS -DUSE_TP -c $src -o weak-$v-tp.o
	$CC -o weak-$v-tp weak-$v-tp.o tp.o $TRAX_LDFLAGS -ltrax-ust -ldl
	run "$TEST_TMP/t6" ./weak-$v-tp
	expect_eq "$(cat "$TEST_TMP/t6.stdout")" 1 "6: ${v}_ust_loaded, linked with libtrax-ust"
	expect_events "$TEST_TMP/t6" "6 (weak-$v-tp)" <<EOF
TRACE_DEBUG_LINE (13) linkprov:hello: { n = $n, s = "weak" }
EOF
	# Same, libtrax-ust.a linked statically.
	$CC -o weak-$v-static weak-$v-tp.o tp.o $TRAX_LDFLAGS "$TRAX_BUILD/libtrax-ust.a" -ldl -lpthread
	if needed weak-$v-static | grep -q trax; then fail "6: weak-$v-static needs libtrax-ust.so"; fi
	run "$TEST_TMP/t6" ./weak-$v-static
	expect_eq "$(cat "$TEST_TMP/t6.stdout")" 1 "6: ${v}_ust_loaded, linked with libtrax-ust.a"
	expect_events "$TEST_TMP/t6" "6 (weak-$v-static)" <<EOF
TRACE_DEBUG_LINE (13) linkprov:hello: { n = $n, s = "weak" }
EOF
	# No tracepoint, libtrax-ust linked anyway.
	$CC $TRAX_CFLAGS -c $src -o weak-$v.o
	$CC -o weak-$v-forced weak-$v.o $TRAX_LDFLAGS -Wl,--no-as-needed -ltrax-ust -ldl
	run "$TEST_TMP/t6" ./weak-$v-forced
	expect_eq "$(cat "$TEST_TMP/t6.stdout")" 1 "6: ${v}_ust_loaded, no tracepoint, --no-as-needed -ltrax-ust"
	# No tracepoint, no libtrax-ust.
	$CC $SAN_LDFLAGS -o weak-$v-none weak-$v.o
	if needed weak-$v-none | grep -q trax; then fail "6: weak-$v-none needs libtrax-ust"; fi
	run "$TEST_TMP/t6" ./weak-$v-none
	expect_eq "$(cat "$TEST_TMP/t6.stdout")" 0 "6: ${v}_ust_loaded, without libtrax-ust"
	ok "6: ${v}_ust_loaded is 1 with libtrax-ust (libtrax-ust.so, libtrax-ust.a, --no-as-needed) and 0 without"
done

# ---- 7. tracepoint_enabled(), do_tracepoint(), lazy arguments ----
$CC $TRAX_CFLAGS -c app-enabled.c
$CC -o app-enabled app-enabled.o tp.o $TRAX_LDFLAGS -ltrax-ust -ldl
TRAX_EVENTS='linkprov:hello' run "$TEST_TMP/t7" ./app-enabled
expect_eq "$(cat "$TEST_TMP/t7.stdout")" "enabled=0 counter=0" "7: counted excluded"
expect_events "$TEST_TMP/t7" "7 (TRAX_EVENTS=linkprov:hello)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 99, s = "marker" }
EOF
TRAX_EVENTS='otherprov:*' run "$TEST_TMP/t7" ./app-enabled
expect_eq "$(cat "$TEST_TMP/t7.stdout")" "enabled=0 counter=0" "7: linkprov excluded"
no_events "$TEST_TMP/t7" "7 (TRAX_EVENTS=otherprov:*)"
TRAX_EVENTS='linkprov:count*' run "$TEST_TMP/t7" ./app-enabled
expect_eq "$(cat "$TEST_TMP/t7.stdout")" "enabled=1 counter=3" "7: counted enabled"
expect_events "$TEST_TMP/t7" "7 (TRAX_EVENTS=linkprov:count*)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:counted: { v = 1 }
TRACE_DEBUG_LINE (13) linkprov:counted: { v = 2 }
TRACE_DEBUG_LINE (13) linkprov:counted: { v = 300 }
EOF
run "$TEST_TMP/t7" ./app-enabled
expect_eq "$(cat "$TEST_TMP/t7.stdout")" "enabled=1 counter=3" "7: all enabled"
expect_events "$TEST_TMP/t7" "7 (all events)" <<'EOF'
TRACE_DEBUG_LINE (13) linkprov:counted: { v = 1 }
TRACE_DEBUG_LINE (13) linkprov:counted: { v = 2 }
TRACE_DEBUG_LINE (13) linkprov:counted: { v = 300 }
TRACE_DEBUG_LINE (13) linkprov:hello: { n = 99, s = "marker" }
EOF
ok "7: tracepoint_enabled()/do_tracepoint(); arguments evaluated only when enabled"

# ---- 8. tracef(), vtracef(), tracelog(), vtracelog() ----
$CC $TRAX_CFLAGS -c tracef-app.c -o tracef-app.o
$CC -o tracef-app tracef-app.o $TRAX_LDFLAGS -ltrax-ust -ldl
run "$TEST_TMP/t8" ./tracef-app
events "$TEST_TMP/t8" "$TEST_TMP/t8.events"
p700=$(awk 'BEGIN { for (i = 0; i < 700; i++) printf "%c", 97 + i % 26 }')
p1000=$(awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%c", 97 + i % 26 }')
p5000=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%c", 97 + i % 26 }')
L() { grep -n "$1" tracef-app.c | head -n 1 | cut -d: -f1; }
cat >"$TEST_TMP/t8.expected" <<EOF
TRACE_DEBUG (14) lttng_ust_tracef:event: { _msg_length = 14, msg = "hello 42 world" }
TRACE_DEBUG (14) lttng_ust_tracef:event: { _msg_length = 18, msg = "v pi=3.142 [   17]" }
TRACE_DEBUG (14) lttng_ust_tracef:event: { _msg_length = 0, msg = "" }
TRACE_DEBUG (14) lttng_ust_tracef:event: { _msg_length = 709, msg = "long:$p700:end" }
TRACE_DEBUG (14) lttng_ust_tracef:event: { _msg_length = 5000, msg = "$p5000" }
TRACE_WARNING (4) lttng_ust_tracelog:TRACE_WARNING: { line = $(L 'TLOG(WARNING'), file = "tracef-app.c", func = "main", _msg_length = 11, msg = "warn 7 of 9" }
TRACE_ERR (3) lttng_ust_tracelog:TRACE_ERR: { line = $(L 'TLOG(ERR'), file = "tracef-app.c", func = "main", _msg_length = 16, msg = "error: disk full" }
TRACE_INFO (6) lttng_ust_tracelog:TRACE_INFO: { line = $(L 'TLOG(INFO'), file = "tracef-app.c", func = "main", _msg_length = 7, msg = "info ff" }
TRACE_DEBUG (14) lttng_ust_tracelog:TRACE_DEBUG: { line = $(L 'TLOG(DEBUG,'), file = "tracef-app.c", func = "main", _msg_length = 7, msg = "debug z" }
TRACE_EMERG (0) lttng_ust_tracelog:TRACE_EMERG: { line = $(L 'TLOG(EMERG'), file = "tracef-app.c", func = "main", _msg_length = 5, msg = "emerg" }
TRACE_DEBUG_LINE (13) lttng_ust_tracelog:TRACE_DEBUG_LINE: { line = $(L 'TLOG(DEBUG_LINE'), file = "tracef-app.c", func = "main", _msg_length = 7, msg = "line -5" }
TRACE_NOTICE (5) lttng_ust_tracelog:TRACE_NOTICE: { line = $(L 'VTLOG(NOTICE'), file = "tracef-app.c", func = "my_vtracelog", _msg_length = 13, msg = "vlog notice 3" }
TRACE_CRIT (2) lttng_ust_tracelog:TRACE_CRIT: { line = $(L 'TLOG(CRIT'), file = "tracef-app.c", func = "main", _msg_length = 1005, msg = "long:$p1000" }
EOF

# The same program recorded by LTTng-UST: the payloads must match. A private
# session daemon (LTTNG_HOME in the scratch directory); as root, it and the
# application run as nobody, since root's session daemon would use the
# system-wide /var/run/lttng whatever LTTNG_HOME says.
for tool in lttng lttng-sessiond; do
	command -v $tool >/dev/null 2>&1 || fail "$tool (lttng-tools) is needed for the LTTng-UST comparison"
done
LH=$TEST_TMP/lttng-home
mkdir -p "$LH"
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || fail "setpriv is needed to run LTTng as nobody"
	chmod 755 "$TEST_TMP" "$W"
	chmod 777 "$LH"
	as_lttng() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$LH" LTTNG_HOME="$LH" "$@"; }
else
	as_lttng() { env HOME="$LH" LTTNG_HOME="$LH" "$@"; }
fi
stop_sessiond() {
	if [ -f "$LH/.lttng/lttng-sessiond.pid" ]; then
		kill "$(cat "$LH/.lttng/lttng-sessiond.pid")" 2>/dev/null || :
		rm -f "$LH/.lttng/lttng-sessiond.pid"
	fi
}
trap 'stop_sessiond; rm -rf "$TEST_TMP"' EXIT
trap 'exit 1' INT TERM
# LTTng-UST build, with the same relative source name (and plain flags).
$CC -g -O1 -c tracef-app.c -o tracef-app-lttng.o 2>"$TEST_TMP/cc.err" || {
	cat "$TEST_TMP/cc.err" >&2
	fail "8: tracef-app.c does not build against LTTng-UST's headers (liblttng-ust-dev)"
}
$CC -o tracef-app-lttng tracef-app-lttng.o -llttng-ust -ldl
as_lttng lttng-sessiond --daemonize --no-kernel >"$TEST_TMP/sessiond.log" 2>&1 || {
	cat "$TEST_TMP/sessiond.log" >&2
	fail "8: cannot start lttng-sessiond"
}
LT=$LH/trace
{
	as_lttng lttng create linking --output="$LT" &&
		as_lttng lttng enable-event -u -a &&
		as_lttng lttng start &&
		(cd "$W" && unset LD_LIBRARY_PATH LD_PRELOAD &&
			as_lttng env LTTNG_UST_REGISTER_TIMEOUT=10000 ./tracef-app-lttng) &&
		as_lttng lttng stop &&
		as_lttng lttng destroy linking
} >"$TEST_TMP/lttng.log" 2>&1 || {
	cat "$TEST_TMP/lttng.log" >&2
	fail "8: the LTTng-UST session failed"
}
stop_sessiond
events "$LT" "$TEST_TMP/t8.lttng.all"
# LTTng-UST 2.13 names the tracelog events lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_xxx
# (earlier versions: TRACE_xxx, the names trax uses): map them.
grep -E '^[A-Z_]+ \([0-9]+\) lttng_ust_trace(f|log):' "$TEST_TMP/t8.lttng.all" |
	sed 's/lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_/lttng_ust_tracelog:TRACE_/' >"$TEST_TMP/t8.lttng"
expect_file "$TEST_TMP/t8.lttng" "$TEST_TMP/t8.expected" "8 (LTTng-UST vs this test's expectations: + is LTTng)"
ok "8: LTTng-UST records the expected tracef/tracelog events"
expect_file "$TEST_TMP/t8.events" "$TEST_TMP/t8.lttng" "8 (LTTng-UST vs trax: - is LTTng, + is trax)"
expect_file "$TEST_TMP/t8.events" "$TEST_TMP/t8.expected" "8 (tracef/tracelog with trax)"
ok "8: tracef/vtracef/tracelog/vtracelog: same events, payloads and log levels as LTTng-UST"

# The event classes in the metadata (fields, types, log level), for the events
# recorded: "name = ...; loglevel = ...; fields := struct { ... };" lines.
decls() {
	bt2 -o ctf-metadata "$(dirname "$(find "$1" -name metadata | head -n 1)")" >"$2.meta"
	awk '
	/^event \{/ { inev = 1; line = ""; next }
	inev && /^\};/ { inev = 0; print substr(line, 2); next }
	inev && !/^[ \t]*(stream_)?id = / { sub(/^[ \t]+/, ""); line = line " " $0 }
	' "$2.meta" | sed 's/LTTNG_UST_TRACEPOINT_LOGLEVEL_/TRACE_/' >"$2.all"
	sed -E 's/^[A-Z_]+ \([0-9]+\) ([^ ]+): .*/name = "\1";/' "$TEST_TMP/t8.events" | sort -u >"$TEST_TMP/t8.names"
	grep -F -f "$TEST_TMP/t8.names" "$2.all" | sort >"$2"
	expect_eq "$(wc -l <"$2")" 9 "8: event classes found in $1's metadata"
}
decls "$TEST_TMP/t8" "$TEST_TMP/t8.decls"
decls "$LT" "$TEST_TMP/t8.lttng.decls"
expect_file "$TEST_TMP/t8.decls" "$TEST_TMP/t8.lttng.decls" "8 (metadata, LTTng-UST vs trax: - is LTTng, + is trax)"
expect_contains "$TEST_TMP/t8.decls" 'name = "lttng_ust_tracelog:TRACE_CRIT"; loglevel = 2;'
ok "8: same event classes (fields, types, log levels) in the metadata as LTTng-UST"

# ---- 9. The installed tree ----
P=$TEST_TMP/prefix
cmake --install "$TRAX_BUILD" --prefix "$P" >"$TEST_TMP/install.log" 2>&1 || {
	cat "$TEST_TMP/install.log" >&2
	fail "9: cmake --install failed"
}
LIBDIR=$(dirname "$(find "$P" -name libtrax-ust.so -print | head -n 1)")
[ "$LIBDIR" != . ] || fail "9: no libtrax-ust.so installed under $P"
case $LIBDIR in
"$P/lib" | "$P/lib64" | "$P"/lib/*-linux-gnu) ;;
*) fail "9: libtrax-ust.so installed in an unexpected place: $LIBDIR" ;;
esac
for f in "$LIBDIR/libtrax-ust.so" "$LIBDIR/libtrax-ust.a" "$LIBDIR/pkgconfig/trax-ust.pc" \
	"$P/include/trax/tracepoint.h" "$P/include/trax/tracepoint-event.h" \
	"$P/include/trax/tracef.h" "$P/include/trax/tracelog.h" \
	"$P/include/lttng/tracepoint.h" "$P/include/lttng/tracepoint-event.h" \
	"$P/include/lttng/tracef.h" "$P/include/lttng/tracelog.h"; do
	[ -f "$f" ] || fail "9: $f is not installed"
done
[ -e "$LIBDIR/libtrax-ust.so.0" ] || fail "9: the soname link libtrax-ust.so.0 is not installed"
# the dlopen/dlclose preload, under its own name only (not LTTng's: trax-ust-dl(3))
[ -f "$LIBDIR/libtrax-ust-dl.so" ] && [ -e "$LIBDIR/libtrax-ust-dl.so.0" ] ||
	fail "9: libtrax-ust-dl.so is not installed"
[ -z "$(find "$P" -name 'liblttng*')" ] || fail "9: a library installed under LTTng's name: $(find "$P" -name 'liblttng*')"
if [ -f "$TRAX_SRC/tools/trax-gen-tp" ]; then
	[ -x "$P/bin/trax-gen-tp" ] || fail "9: bin/trax-gen-tp is not installed (or not executable)"
fi
ok "9: installed tree has the libraries (libtrax-ust-dl.so too), headers and pkg-config file"

mkdir -p "$W/inst"
cp "$W"/manpage/tp.h "$W"/manpage/tp.c "$W"/manpage/app.h "$W"/manpage/app.c "$W/inst/"
cd "$W/inst"
# -I/-L on the command line.
$CC $SAN_CFLAGS -g -c -I. -I"$P/include" tp.c
$CC $SAN_CFLAGS -g -c -I"$P/include" app.c
$CC $SAN_LDFLAGS -o app tp.o app.o -L"$LIBDIR" -ltrax-ust -ldl
(
	export LD_LIBRARY_PATH="$LIBDIR"
	[ "$(ldd ./app | sed -n 's/.*libtrax-ust.so.0 => \([^ ]*\).*/\1/p')" = "$LIBDIR/libtrax-ust.so.0" ] ||
		fail "9: ./app does not use the installed libtrax-ust.so.0"
	run "$TEST_TMP/t9a" ./app
) || exit 1
manpage_events "$TEST_TMP/t9a" "9 (-I/-L of the installed tree)"
ok "9: example built with -I$P/include -L$LIBDIR: 5 events"

# pkg-config.
rm -f ./*.o app app.txt
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
pc_cflags=$(pkg-config --cflags trax-ust) || fail "9: pkg-config --cflags trax-ust failed"
pc_libs=$(pkg-config --libs trax-ust) || fail "9: pkg-config --libs trax-ust failed"
# canon DIR: DIR without symbolic links, "." and ".." (empty if missing).
canon() { (cd "$1" 2>/dev/null && pwd -P) || :; }
# has_dir OPT FLAGS DIR: FLAGS holds OPT<d> for a d that is DIR.
has_dir() {
	for f in $2; do
		case $f in
		"$1"*) [ "$(canon "${f#"$1"}")" = "$(canon "$3")" ] && return 0 ;;
		esac
	done
	return 1
}
has_dir -I "$pc_cflags" "$P/include" ||
	fail "9: pkg-config --cflags trax-ust gives '$pc_cflags', expected -I$P/include"
has_dir -L "$pc_libs" "$LIBDIR" ||
	fail "9: pkg-config --libs trax-ust gives '$pc_libs', expected -L$LIBDIR"
case " $pc_libs " in
*" -ltrax-ust "*) ;;
*) fail "9: pkg-config --libs trax-ust gives '$pc_libs', expected -ltrax-ust" ;;
esac
$CC $SAN_CFLAGS -g -c -I. $pc_cflags tp.c
$CC $SAN_CFLAGS -g -c $pc_cflags app.c
$CC $SAN_LDFLAGS -o app tp.o app.o $pc_libs
(
	export LD_LIBRARY_PATH="$LIBDIR"
	run "$TEST_TMP/t9b" ./app
) || exit 1
manpage_events "$TEST_TMP/t9b" "9 (pkg-config)"
ok "9: example built with pkg-config --cflags --libs trax-ust: 5 events"

# Static link with the installed libtrax-ust.a.
rm -f app app.txt
$CC $SAN_LDFLAGS -o app tp.o app.o "$LIBDIR/libtrax-ust.a" -ldl -lpthread
if needed app | grep -q trax; then fail "9: statically linked app needs libtrax-ust.so"; fi
(
	unset LD_LIBRARY_PATH
	run "$TEST_TMP/t9c" ./app
) || exit 1
manpage_events "$TEST_TMP/t9c" "9 (installed libtrax-ust.a)"
ok "9: example linked with the installed libtrax-ust.a: 5 events"
