# data/statedump/build.sh - sourced by statedump.sh and daemon_statedump.sh
# after lib.sh, with D (this folder) and B (where the programs go) set:
# builds $B/libsdtest.so (build ID, its DWARF moved to libsdtest.debug and a
# debug link to it), $B/tp.o (the provider) and $B/app, linked with both.
$CC $TRAX_CFLAGS -fPIC -shared -Wl,--build-id -I"$D" "$D/lib.c" -o "$B/libsdtest.so" \
	$TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build libsdtest.so"
(cd "$B" && objcopy --only-keep-debug libsdtest.so libsdtest.debug &&
	objcopy --strip-debug --add-gnu-debuglink=libsdtest.debug libsdtest.so) ||
	fail "objcopy could not split the debug information"
$CC $TRAX_CFLAGS -I"$D" -c "$D/tp.c" -o "$B/tp.o" || fail "cannot compile tp.c"
$CC $TRAX_CFLAGS -Wl,--build-id -I"$D" "$D/app.c" "$B/tp.o" -o "$B/app" \
	-L"$B" -Wl,-rpath,"$B" -lsdtest $TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build app"
