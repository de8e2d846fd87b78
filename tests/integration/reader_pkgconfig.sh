#!/bin/sh
# reader_pkgconfig.sh - libtrax-reader as another program uses it: the build
# tree installed into a scratch prefix (cmake --install), then
# examples/reader/trax-events.c built against that prefix with nothing but
# `pkg-config --cflags --libs trax-reader` (no path into the source tree),
# linked with the shared library and with the static archive. On traces of
# the corpus and of the tests:
# - its events (name, time, payload values, through the iteration API) are
#   those of `trax view --format=json` (tests/reader/json-to-events.py);
# - its --babeltrace output (trax_reader_print()) is `trax view`'s, byte
#   for byte, warnings included.
# And the installed library: SONAME libtrax-reader.so.0, its dynamic
# symbols all trax_* (nm -D --defined-only), the installed `trax` finds it.
. "$TRAX_SRC/tests/integration/lib.sh"

command -v pkg-config >/dev/null 2>&1 || fail "pkg-config is needed (tools/install-deps.sh installs it)"
command -v python3 >/dev/null 2>&1 || fail "python3 is needed"
PREFIX=$TEST_TMP/prefix
cmake --install "$TRAX_BUILD" --prefix "$PREFIX" >"$TEST_TMP/install.log" 2>&1 || {
	tail -n 20 "$TEST_TMP/install.log" >&2
	fail "cmake --install failed"
}
LIBDIR=$(ls -d "$PREFIX"/lib*/pkgconfig/trax-reader.pc 2>/dev/null | head -n 1)
[ -n "$LIBDIR" ] || fail "no trax-reader.pc installed under $PREFIX"
LIBDIR=$(dirname "$(dirname "$LIBDIR")")
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
# the build tree's libraries must not be what the programs find
LD_LIBRARY_PATH=
unset LD_LIBRARY_PATH

# --- the installed library
so="$LIBDIR/libtrax-reader.so"
[ -f "$LIBDIR/libtrax-reader.a" ] || fail "libtrax-reader.a not installed"
[ -f "$PREFIX/include/trax/reader.h" ] || fail "trax/reader.h not installed"
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
expect_eq "$soname" "libtrax-reader.so.0" "SONAME of $so"
cd "$TEST_TMP"
nm -D --defined-only "$so" | awk '{ print $NF }' >syms.txt
others=$(grep -v '^trax_' syms.txt || :)
[ -z "$others" ] || fail "libtrax-reader.so exports other symbols than trax_*: $(echo $others | head -c 400)"
for f in trax_reader_open trax_reader_open_with trax_reader_print trax_reader_count \
	trax_print_options_init trax_reader_options_init trax_printer_open trax_printer_event \
	trax_printer_close trax_event_name trax_field_kind; do
	grep -qx "$f" syms.txt || fail "libtrax-reader.so does not export $f"
done
ok "installed: $(wc -l <syms.txt) symbols exported, all trax_*, SONAME $soname"

# --- the example, built with pkg-config only
CFLAGS_PC=$(pkg-config --cflags trax-reader)
LIBS_PC=$(pkg-config --libs trax-reader)
case "$CFLAGS_PC $LIBS_PC" in
*"$TRAX_SRC"* | *"$TRAX_BUILD"*) fail "trax-reader.pc points into the tree: $CFLAGS_PC $LIBS_PC" ;;
esac
FLAGS="-g -O1 -Wall -Wextra -Werror"
[ -n "$TRAX_SANITIZE" ] && FLAGS="$FLAGS -fsanitize=$TRAX_SANITIZE"
# shellcheck disable=SC2086 # flag lists
$CC $FLAGS "$TRAX_SRC/examples/reader/trax-events.c" $CFLAGS_PC $LIBS_PC -lm -o events ||
	fail "cannot build the example against the installed prefix"
# shellcheck disable=SC2086
$CC $FLAGS "$TRAX_SRC/examples/reader/trax-events.c" $CFLAGS_PC \
	"$(pkg-config --variable=libdir trax-reader)/libtrax-reader.a" \
	$(pkg-config --static --libs-only-l trax-reader | sed 's/-ltrax-reader//') -lm -o events-static ||
	fail "cannot build the example against the installed static archive"
LD_LIBRARY_PATH="$LIBDIR" ldd ./events | grep -q "$LIBDIR/libtrax-reader.so.0" ||
	fail "the example does not load the installed library: $(LD_LIBRARY_PATH="$LIBDIR" ldd ./events)"
ldd ./events-static | grep -q libtrax-reader && fail "the static example loads libtrax-reader.so"
ok "examples/reader/trax-events.c built with pkg-config only (shared and static)"

# --- its events are trax view's
TRAX="$PREFIX/bin/trax"
n=0
C=$TRAX_SRC/../shared/conformance/ctf/succeed
for t in "$TRAX_SRC/tests/reader/golden/trax-fields" "$TRAX_SRC/tests/reader/golden/ust-fields" \
	"$TRAX_SRC/tests/reader/golden/hm-clock" "$C/smalltrace" "$C/succeed1" "$C/multi-domains" \
	"$C/lttng-tracefile-rotation" "$C/sequence"; do
	[ -d "$t" ] || continue
	"$TRAX" view "$t" >view.txt 2>view.err || fail "installed trax view $t: exit status $?"
	"$TRAX" view --format=json "$t" >view.json 2>/dev/null || fail "installed trax view --format=json $t"
	python3 "$TRAX_SRC/tests/reader/json-to-events.py" <view.json >want.txt ||
		fail "json-to-events.py on $t"
	for prog in events events-static; do
		LD_LIBRARY_PATH="$LIBDIR" "./$prog" "$t" >got.txt 2>got.err || {
			cat got.err >&2
			fail "$prog $t: exit status $?"
		}
		cmp -s want.txt got.txt || {
			diff want.txt got.txt | head -n 10 >&2
			fail "$prog $t: not the events trax view --format=json prints"
		}
		LD_LIBRARY_PATH="$LIBDIR" "./$prog" --babeltrace "$t" >got.txt 2>got.err ||
			fail "$prog --babeltrace $t: exit status $?"
		cmp -s view.txt got.txt || {
			diff view.txt got.txt | head -n 10 >&2
			fail "$prog --babeltrace $t: not trax view's text"
		}
		cmp -s view.err got.err || {
			diff view.err got.err | head -n 10 >&2
			fail "$prog --babeltrace $t: not trax view's warnings"
		}
	done
	[ -s want.txt ] || fail "no event in $t"
	n=$((n + 1))
done
[ "$n" -ge 4 ] || fail "only $n traces found"
ok "the example reads the events trax view prints, in $n traces (its text byte for byte)"
