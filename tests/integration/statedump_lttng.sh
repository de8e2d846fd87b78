#!/bin/sh
# statedump_lttng.sh - LTTng 2.13 as the oracle of the state dump and of the
# dynamic-linker events: the same program (data/statedump/dlapp.c, which
# dlopen()s a library with call sites and a library with no tracing at all)
# is built against LTTng-UST and against trax, recorded by a private
# lttng-sessiond with liblttng-ust-dl.so preloaded and by traxd with
# libtrax-ust-dl.so preloaded, each with `enable-event -u -a` and the ip and
# vpid contexts, and the traces must agree (addresses aside):
#
#  - the metadata of every lttng_ust_statedump, lttng_ust_lib and
#    lttng_ust_dl event (names, levels, field types), word for word;
#  - the state dump's order (start, procname, bin_info then its build_id and
#    debug_link, ..., end) and the process name;
#  - bin_info, build_id and debug_link of the objects both processes load
#    (the C library, the loader, the vDSO), field for field;
#  - lttng_ust_dl:dlopen/dlmopen/build_id/debug_link/dlclose and
#    lttng_ust_lib:load/build_id/debug_link/unload of the library without
#    tracing (the same file for both);
#  - what babeltrace2 --debug-info says of the program's event, of the
#    dlopen()ed library's event and of the dlopen call: the same function
#    and source line.
#
# The LTTng side runs as "nobody" (data/lttng/env.sh).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"
. "$TRAX_SRC/tests/integration/data/lttng/env.sh"

D=$TRAX_SRC/tests/integration/data/statedump
for tool in babeltrace2 objcopy timeout; do
	command -v $tool >/dev/null 2>&1 || fail "$tool is needed (tools/install-deps.sh test installs it)"
done
unset TRAX_WITHOUT_BADDR_STATEDUMP TRAX_WITHOUT_PROCNAME_STATEDUMP \
	LTTNG_UST_WITHOUT_BADDR_STATEDUMP LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP 2>/dev/null || :
export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"

T=$(cd "$TEST_TMP" && pwd -P)
cd "$T"
mkdir lttng trax
LH=$LTTNG_TRACES

# ---- Build: the same sources twice, the untraced library once ----------
# At -O2: a tracepoint that ends a function may become a tail call there,
# which must not move its ip context out of the function. Functions in one
# piece: Babeltrace 2.0 names no function split into hot and cold parts
# (as the sanitizers' code makes GCC do with open_and_call).
O="-O2 -fno-reorder-blocks-and-partition"
$CC -g -O1 -fPIC -shared -Wl,--build-id "$D/plain.c" -o plain.so || fail "cannot build plain.so"
(objcopy --only-keep-debug plain.so libsdplain.debug &&
	objcopy --strip-debug --add-gnu-debuglink=libsdplain.debug plain.so libsdplain.so) ||
	fail "objcopy could not split plain.so"
# LTTng-UST: its headers are the compiler's default ones; the library's call
# sites need the program's provider symbol (-rdynamic).
$CC -g $O -rdynamic -Wl,--build-id -I"$D" "$D/dlapp.c" "$D/tp.c" -o lttng/dlapp -llttng-ust -ldl -lpthread ||
	fail "cannot build dlapp against LTTng-UST"
$CC -g $O -fPIC -shared -Wl,--build-id -I"$D" "$D/dllib.c" -o lttng/libsddl.so -llttng-ust -ldl ||
	fail "cannot build libsddl.so against LTTng-UST"
$CC $TRAX_CFLAGS $O -rdynamic -Wl,--build-id -I"$D" "$D/dlapp.c" "$D/tp.c" -o trax/dlapp $TRAX_LDFLAGS \
	-ltrax-ust -ldl -lpthread || fail "cannot build dlapp against trax"
$CC $TRAX_CFLAGS $O -fPIC -shared -Wl,--build-id -I"$D" "$D/dllib.c" -o trax/libsddl.so \
	$TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build libsddl.so against trax"
# (a program built against trax must not have taken LTTng's headers)
nm trax/dlapp | grep -q __trax_tp_sdtest___where || fail "trax/dlapp was not built with trax's headers"
chmod -R a+rX "$T"

# ---- Record -------------------------------------------------------------
# Two sessions each: "cmp" for `dlapp dlopen`, "ns" for `dlapp dlmopen`.
# lttng_session NAME ARGS...: a session of LTTng's recording dlapp ARGS.
lttng_session() {
	name=$1
	shift
	as_lttng lttng create "$name" --output="$LH/$name" >/dev/null || fail "lttng create $name"
	as_lttng lttng enable-event -u -a >/dev/null || fail "lttng enable-event"
	as_lttng lttng add-context -u -t ip -t vpid >/dev/null || fail "lttng add-context"
	as_lttng lttng start >/dev/null || fail "lttng start"
	as_lttng env LD_PRELOAD=liblttng-ust-dl.so "$T/lttng/dlapp" "$@" >lttng.out 2>lttng.err ||
		fail "dlapp $1 (LTTng) failed: $(cat lttng.err)"
	as_lttng lttng stop >/dev/null || fail "lttng stop"
	as_lttng lttng destroy >/dev/null || fail "lttng destroy"
}
# trax_session NAME ARGS...: the same with trax.
trax_session() {
	name=$1
	shift
	trax create "$name" --output="$T/trax-$name" >/dev/null || fail "trax create $name"
	trax enable-event -u -a >/dev/null || fail "trax enable-event"
	trax add-context -u -t ip -t vpid >/dev/null || fail "trax add-context"
	trax start >/dev/null || fail "trax start"
	LD_PRELOAD=$TRAX_BUILD/libtrax-ust-dl.so "$T/trax/dlapp" "$@" >trax.out 2>trax.err ||
		fail "dlapp $1 (trax) failed: $(cat trax.err)"
	trax stop >/dev/null || fail "trax stop"
	trax destroy >/dev/null || fail "trax destroy"
}
lttng_start
lttng_session cmp dlopen "$T/lttng/libsddl.so" "$T/libsdplain.so"
lttng_session ns dlmopen "$T/libsdplain.so"
lttng_stop
trax_session cmp dlopen "$T/trax/libsddl.so" "$T/libsdplain.so"
trax_session ns dlmopen "$T/libsdplain.so"

# IMPL.txt, IMPL-ns.txt: the payloads in order, without timestamps and
# contexts; IMPL.di: babeltrace2 --debug-info; IMPL.tsdl: the metadata.
for impl in lttng trax; do
	for name in cmp ns; do
		if [ $impl = lttng ]; then dir=$LH/$name; else dir=$T/trax-$name; fi
		out=$impl
		[ $name = ns ] && out=$impl-ns
		bt2 "$dir" | sed 's/^\[[^]]*\] ([^)]*) [^ ]* //; s/: { cpu_id = [0-9]* }, { [^}]* }, /: /' >$out.txt
	done
	if [ $impl = lttng ]; then dir=$LH/cmp; else dir=$T/trax-cmp; fi
	meta=$(dirname "$(find "$dir" -name metadata | head -n 1)")
	[ -d "$meta" ] || fail "no $impl trace in $dir"
	babeltrace2 -o ctf-metadata "$meta" >$impl.tsdl 2>$impl.tsdl.err || fail "$impl metadata: $(cat $impl.tsdl.err)"
	bt2 --debug-info "$dir" >$impl.di
done

# ---- 1. Metadata ----------------------------------------------------------
# tsdl_of FILE NAME: the event block of NAME without its ids, on one line
# (the layout of the text is not the metadata's meaning).
tsdl_of() {
	awk -v n="	name = \"$2\";" '$0 == n { on = 1 } on && !/^\t(id|stream_id) = / { print } on && /^};$/ { exit }' "$1" |
		tr -s ' \t\n' '   '
}
checked=0
for ev in $(grep -o 'name = "lttng_ust_\(statedump\|lib\|dl\):[a-z_]*"' lttng.tsdl | sed 's/.*"\(.*\)"/\1/'); do
	tsdl_of lttng.tsdl "$ev" >want.tsdl
	tsdl_of trax.tsdl "$ev" >got.tsdl
	[ -s got.tsdl ] || fail "the trax trace does not describe $ev"
	cmp -s want.tsdl got.tsdl || fail "metadata of $ev differs from LTTng's: $(cat want.tsdl) / $(cat got.tsdl)"
	checked=$((checked + 1))
done
expect_eq "$checked" 15 "events of lttng_ust_statedump, lttng_ust_lib, lttng_ust_dl in LTTng's metadata"
ok "metadata of the 15 lttng_ust_statedump/lib/dl events: the same declarations as LTTng's"

# ---- 2. The state dump ----------------------------------------------------
for impl in lttng trax; do
	shape=$(grep '^lttng_ust_statedump:' $impl.txt | sed 's/^lttng_ust_statedump:\([a-z_]*\):.*/\1/' |
		tr '\n' ' ' | sed 's/bin_info \(build_id \)\{0,1\}\(debug_link \)\{0,1\}/O /g')
	case $shape in
	"start procname O"*"O end ") ;;
	*) fail "$impl state dump: $shape" ;;
	esac
	expect_eq "$(grep -c '^lttng_ust_statedump:start:' $impl.txt)" 1 "$impl state dumps"
	expect_contains $impl.txt 'lttng_ust_statedump:procname: { procname = "dlapp" }'
done
ok "state dump: start, procname \"dlapp\", bin_info [build_id] [debug_link] per object, end; one"

# objects FILE: per object of the dump, "bin_info minus baddr | build_id | debug_link".
objects() {
	awk '
	/^lttng_ust_statedump:bin_info:/ { if (cur != "") print cur; b = $0; sub(/.*path = "/, "", b); sub(/".*/, "", b)
		s = $0; sub(/baddr = 0x[0-9A-F]*, /, "", s); cur = b " | " s; next }
	/^lttng_ust_statedump:(build_id|debug_link):/ { s = $0; sub(/baddr = 0x[0-9A-F]*, /, "", s); cur = cur " | " s; next }
	/^lttng_ust_statedump:end:/ { if (cur != "") print cur; cur = "" }' "$1" | sort
}
objects lttng.txt >lttng.objects
objects trax.txt >trax.objects
common=0
while IFS= read -r line; do
	path=${line%% | *}
	got=$(awk -F ' [|] ' -v p="$path" '$1 == p' trax.objects)
	[ -n "$got" ] || continue
	expect_eq "$got" "$line" "bin_info/build_id/debug_link of $path"
	common=$((common + 1))
done <lttng.objects
for path in /libc.so.6 /ld-linux '[linux-vdso.so.1]'; do
	grep -qF "$path" trax.objects || fail "no $path in trax's state dump"
done
[ "$common" -ge 3 ] || fail "only $common objects in both state dumps"
ok "$common objects in both state dumps (libc, the loader, the vDSO...): the same events"

# ---- 3. The dynamic linker's events --------------------------------------
# plain IMPL: the dl and lib events of libsdplain.so, baddr replaced by A.
plain() {
	baddr=$(grep -F 'lttng_ust_dl:dlopen:' $1.txt | grep -F 'libsdplain.so' | sed 's/.*baddr = \(0x[0-9A-F]*\),.*/\1/')
	[ -n "$baddr" ] || fail "$1: no lttng_ust_dl:dlopen of libsdplain.so"
	grep -F "baddr = $baddr" $1.txt | grep '^lttng_ust_\(dl\|lib\):' | sed "s/$baddr/A/" | sort
}
plain lttng >lttng.plain
plain trax >trax.plain
diff lttng.plain trax.plain >&2 || fail "the dlopen/dlclose events of libsdplain.so differ from LTTng's"
for ev in 'lttng_ust_dl:dlopen:' 'lttng_ust_dl:build_id:' 'lttng_ust_dl:debug_link:' 'lttng_ust_dl:dlclose:' \
	'lttng_ust_lib:load:' 'lttng_ust_lib:build_id:' 'lttng_ust_lib:debug_link:' 'lttng_ust_lib:unload:'; do
	grep -qF "$ev" trax.plain || fail "no $ev event of libsdplain.so"
done
# dlopen(NULL), the program itself: LTTng records its dlclose only.
for impl in lttng trax; do
	pb=$(grep -F 'lttng_ust_statedump:bin_info:' $impl.txt | grep -F "/$impl/dlapp\"" |
		sed 's/.*baddr = \(0x[0-9A-F]*\),.*/\1/')
	[ -n "$pb" ] || fail "$impl: no bin_info of the program"
	grep -F "baddr = $pb" $impl.txt | grep '^lttng_ust_dl:' | sed "s/$pb/P/" >$impl.self
done
grep -q '^lttng_ust_dl:dlclose:' lttng.self || fail "LTTng recorded no dlclose of dlopen(NULL)"
diff lttng.self trax.self >&2 || fail "the events of dlopen(NULL) and its dlclose differ from LTTng's"
# libsddl.so is a file of each: its fields but the size and the build ID.
for impl in lttng trax; do
	grep -F 'lttng_ust_dl:dlopen:' $impl.txt | grep -F "/$impl/libsddl.so" |
		sed 's/baddr = 0x[0-9A-F]*, memsz = [0-9]*, //; s|"[^"]*/libsddl.so"|"libsddl.so"|' >$impl.sddl
	[ -s $impl.sddl ] || fail "$impl: no lttng_ust_dl:dlopen of libsddl.so"
done
diff lttng.sddl trax.sddl >&2 || fail "lttng_ust_dl:dlopen of libsddl.so differs from LTTng's"
# dlmopen() into a new namespace: lttng_ust_dl:dlmopen (nsid -1), its
# build_id and debug_link, dlclose; no lttng_ust_lib event (the loader's
# list of this namespace does not show the other's).
for impl in lttng trax; do
	baddr=$(grep -F 'lttng_ust_dl:dlmopen:' $impl-ns.txt | sed 's/.*baddr = \(0x[0-9A-F]*\),.*/\1/')
	[ -n "$baddr" ] || fail "$impl: no lttng_ust_dl:dlmopen event"
	grep -F "baddr = $baddr" $impl-ns.txt | sed "s/$baddr/A/" | sort >$impl.nsplain
done
diff lttng.nsplain trax.nsplain >&2 || fail "the dlmopen/dlclose events of libsdplain.so differ from LTTng's"
grep -q 'lttng_ust_dl:dlmopen: { baddr = A, memsz = [0-9]*, nsid = -1, flags = 0x2, path = "[^"]*/libsdplain.so"' trax.nsplain ||
	fail "lttng_ust_dl:dlmopen: $(head -n 1 trax.nsplain)"
ok "libsdplain.so: lttng_ust_dl:dlopen/dlmopen/build_id/debug_link/dlclose, lttng_ust_lib:load/build_id/debug_link/unload as LTTng's"

# ---- 4. babeltrace2 --debug-info ----------------------------------------
# where IMPL EVENT FILTER: function (without its offset) and source line of
# the first EVENT line holding FILTER.
where() {
	grep -F "$2" $1.di | grep -F "$3" | head -n 1 |
		sed -n 's/.*debug_info = { bin = "[^"]*", func = "\([^+"]*\)[^"]*", src = "\([^"]*\)" }.*/\1 \2/p'
}
for what in 'sdtest:where: from = "program"' 'sdtest:where: from = "dlopened"'; do
	ev=${what%% *}
	filter=${what#* }
	want=$(where lttng "$ev" "$filter")
	got=$(where trax "$ev" "$filter")
	[ -n "$want" ] || fail "LTTng's trace does not resolve $ev with $filter"
	expect_eq "$got" "$want" "--debug-info of $ev with $filter"
done
# The dlopen call: the caller's return address, whose line is that of the
# code after the call (which the sanitizers change): the function only.
want=$(where lttng lttng_ust_dl:dlopen: '/libsdplain.so"')
got=$(where trax lttng_ust_dl:dlopen: '/libsdplain.so"')
expect_eq "${got%% *}" "${want%% *}" "--debug-info of lttng_ust_dl:dlopen: the function"
expect_eq "${got%% *}" open_and_call "--debug-info of lttng_ust_dl:dlopen: the function"
ok "--debug-info: $(where trax sdtest:where: '"program"'), $(where trax sdtest:where: '"dlopened"'), the dlopen call in open_and_call: as LTTng's"
