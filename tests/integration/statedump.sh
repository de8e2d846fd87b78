#!/bin/sh
# statedump.sh - the LTTng-UST state dump (lttng-ust(3), "LTTng-UST state
# dump") without a daemon: lttng_ust_statedump:start, procname, then
# bin_info / build_id / debug_link for every loaded object (the vDSO as
# LTTng-UST names it), then :end. Checks the values against the files
# (readelf, objcopy, an independent CRC-32 computed with gzip) and against
# where the program says its objects are loaded (dladdr), that
# TRAX_WITHOUT_BADDR_STATEDUMP / LTTNG_UST_WITHOUT_BADDR_STATEDUMP leave the
# objects out, TRAX_WITHOUT_PROCNAME_STATEDUMP /
# LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP the name, both the whole dump, that
# TRAX_EVENTS selects its events, and that Babeltrace 2's flt.lttng-utils.debug-info
# resolves the program's and the library's call sites with it (the library's
# source line only through its debug link, its DWARF being stripped).
# Sources: tests/integration/data/statedump/.

. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/integration/data/statedump
B=$(cd "$TEST_TMP" && pwd -P)/bin
mkdir -p "$B"

for tool in babeltrace2 readelf objcopy gzip od; do
	command -v $tool >/dev/null 2>&1 || fail "$tool is needed"
done

unset TRAX_OUTPUT TRAX_EVENTS TRAX_CONTEXT TRAX_DEBUG TRAX_WITHOUT_BADDR_STATEDUMP \
	TRAX_WITHOUT_PROCNAME_STATEDUMP LTTNG_UST_OUTPUT LTTNG_UST_EVENTS LTTNG_UST_CONTEXT \
	LTTNG_UST_DEBUG LTTNG_UST_WITHOUT_BADDR_STATEDUMP LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP \
	2>/dev/null || :

# ---- Build -------------------------------------------------------------
. "$D/build.sh"

# run NAME [VAR=VALUE...]: runs the program with TRAX_CONTEXT=vpid,ip and
# TRAX_OUTPUT=$TEST_TMP/NAME; sets T to the trace directory, writes
# babeltrace2's text in $TEST_TMP/NAME.txt.
run() {
	name=$1
	shift
	env TRAX_OUTPUT="$TEST_TMP/$name" TRAX_CONTEXT=vpid,ip "$@" "$B/app" \
		>"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" ||
		{
			cat "$TEST_TMP/$name.err" >&2
			fail "$name: the program failed (status $?)"
		}
	T=
	for d in "$TEST_TMP/$name"/ust/pid/app-*; do
		[ -d "$d" ] && T=$d
	done
	[ -n "$T" ] || fail "$name: no trace written in $TEST_TMP/$name"
	bt2 "$T" >"$TEST_TMP/$name.txt"
}

# count FILE PATTERN: lines of FILE holding the fixed string.
count() {
	grep -cF -- "$2" "$1" || :
}

# bin_info FILE PATH: "baddr memsz is_pic has_build_id has_debug_link" of the
# bin_info event of PATH (fails unless there is exactly one).
bin_info() {
	n=$(grep -F 'lttng_ust_statedump:bin_info:' "$1" | grep -cF "path = \"$2\"," || :)
	[ "$n" = 1 ] || fail "expected one bin_info event for $2, got $n"
	grep -F 'lttng_ust_statedump:bin_info:' "$1" | grep -F "path = \"$2\"," |
		sed -n 's/.*{ baddr = \(0x[0-9A-Fa-f]*\), memsz = \([0-9]*\), path = "[^"]*", is_pic = \([0-9]*\), has_build_id = \([0-9]*\), has_debug_link = \([0-9]*\) }$/\1 \2 \3 \4 \5/p'
}

# lower HEX: 0x-prefixed hex in lower case.
lower() {
	echo "$1" | tr 'A-F' 'a-f'
}

# load_end FILE: end of the highest PT_LOAD segment (decimal), and lowest start.
load_span() {
	readelf -lW "$1" | awk '$1 == "LOAD" { print $3, $6 }' | {
		lo=-1
		hi=0
		while read -r va ms; do
			e=$((va + ms))
			[ "$e" -gt "$hi" ] && hi=$e
			{ [ "$lo" -lt 0 ] || [ $((va)) -lt "$lo" ]; } && lo=$((va))
		done
		echo "$lo $hi"
	}
}

# crc32 FILE: the CRC-32 of GNU debug links (that of gzip's trailer), decimal.
crc32() {
	gzip -c <"$1" | tail -c 8 | od -An -tu1 -N4 | {
		read -r b0 b1 b2 b3
		echo $((b0 + b1 * 256 + b2 * 65536 + b3 * 16777216))
	}
}

# ---- 1. The events and their values -------------------------------------
run sd
TXT=$TEST_TMP/sd.txt
expect_contains "$TEST_TMP/sd.out" "app_base="
APP_BASE=$(sed -n 's/^app_base=//p' "$TEST_TMP/sd.out")
LIB_BASE=$(sed -n 's/^lib_base=//p' "$TEST_TMP/sd.out")

expect_eq "$(count "$TXT" 'lttng_ust_statedump:start:')" 1 "start events"
expect_eq "$(count "$TXT" 'lttng_ust_statedump:end:')" 1 "end events"
expect_eq "$(count "$TXT" 'sdtest:where:')" 2 "sdtest:where events"
# start comes first and end last of the state dump events.
first=$(grep -F 'lttng_ust_statedump:' "$TXT" | head -n 1)
last=$(grep -F 'lttng_ust_statedump:' "$TXT" | tail -n 1)
case $first in *'lttng_ust_statedump:start:'*) ;; *) fail "first state dump event: $first" ;; esac
case $last in *'lttng_ust_statedump:end:'*) ;; *) fail "last state dump event: $last" ;; esac
# The context fields the debug-info filter needs are there.
expect_contains "$TXT" "lttng_ust_statedump:start: { cpu_id = "
grep -F 'lttng_ust_statedump:start:' "$TXT" | grep -q '{ vpid = [0-9]*, ip = [0-9]* }' ||
	fail "statedump events lack the vpid/ip contexts"
ok "start, end, one event per object in between"

# procname: once, right after start, the program's name (LTTng-UST 2.12+).
expect_eq "$(count "$TXT" 'lttng_ust_statedump:procname:')" 1 "procname events"
second=$(grep -F 'lttng_ust_statedump:' "$TXT" | sed -n 2p)
case $second in
*'lttng_ust_statedump:procname: '*'{ procname = "app" }') ;;
*) fail "second state dump event: $second (expected procname = \"app\")" ;;
esac
ok "procname: \"app\", after start"

# The program.
set -- $(bin_info "$TXT" "$B/app")
[ $# = 5 ] || fail "cannot parse the bin_info event of the program"
expect_eq "$(lower "$1")" "$(lower "$APP_BASE")" "program baddr (dladdr's dli_fbase)"
case $(readelf -hW "$B/app" | sed -n 's/^ *Type: *\([A-Z]*\).*/\1/p') in
DYN) APP_PIC=1 ;;
EXEC) APP_PIC=0 ;;
*) fail "unknown ELF type of app" ;;
esac
expect_eq "$3" "$APP_PIC" "program is_pic"
set -- "$@" $(load_span "$B/app")
if [ "$APP_PIC" = 1 ]; then want=$7; else want=$(($7 - $6)); fi
expect_eq "$2" "$want" "program memsz (PT_LOAD span)"
expect_eq "$4" 1 "program has_build_id"
expect_eq "$5" 0 "program has_debug_link"
ok "bin_info of the program: baddr $APP_BASE, memsz $2, is_pic $APP_PIC, build ID, no debug link"

# The library.
set -- $(bin_info "$TXT" "$B/libsdtest.so")
[ $# = 5 ] || fail "cannot parse the bin_info event of libsdtest.so"
LIB_BADDR=$1
expect_eq "$(lower "$1")" "$(lower "$LIB_BASE")" "library baddr (dladdr's dli_fbase)"
expect_eq "$3" 1 "library is_pic"
set -- "$@" $(load_span "$B/libsdtest.so")
expect_eq "$2" "$7" "library memsz (end of the last PT_LOAD)"
expect_eq "$4" 1 "library has_build_id"
expect_eq "$5" 1 "library has_debug_link"
ok "bin_info of libsdtest.so: baddr $LIB_BASE, memsz $7, is_pic 1, build ID, debug link"

# Other objects: libtrax-ust and libc are listed, none twice. The vDSO is
# listed as LTTng-UST 2.13 lists it: its name in brackets, nothing of a file.
grep -F 'lttng_ust_statedump:bin_info:' "$TXT" | grep -q 'path = "[^"]*/libtrax-ust\.so[.0-9]*",' ||
	fail "no bin_info event for libtrax-ust"
grep -F 'lttng_ust_statedump:bin_info:' "$TXT" | grep -q 'path = "[^"]*/libc\.so\.6",' ||
	fail "no bin_info event for libc"
vdso=$(grep -F 'lttng_ust_statedump:bin_info:' "$TXT" | grep -c 'memsz = 0, path = "\[linux-vdso\.so\.1\]", is_pic = 0, has_build_id = 0, has_debug_link = 0 }' || :)
expect_eq "$vdso" 1 "bin_info events of the vDSO ([linux-vdso.so.1], memsz 0, is_pic 0)"
grep -F 'lttng_ust_statedump:bin_info:' "$TXT" | grep -v 'linux-vdso' | grep -q 'path = "",\|memsz = 0,' &&
	fail "bin_info event for an object without a file"
nb=$(count "$TXT" 'lttng_ust_statedump:bin_info:')
nu=$(grep -F 'lttng_ust_statedump:bin_info:' "$TXT" | sed 's/.*path = "\([^"]*\)".*/\1/' | sort -u | wc -l)
expect_eq "$nb" "$nu" "bin_info events vs distinct paths"
# build_id events: one per bin_info claiming one, same for debug_link.
expect_eq "$(count "$TXT" 'lttng_ust_statedump:build_id:')" \
	"$(count "$TXT" 'has_build_id = 1,')" "build_id events vs has_build_id = 1"
expect_eq "$(count "$TXT" 'lttng_ust_statedump:debug_link:')" \
	"$(count "$TXT" 'has_debug_link = 1 }')" "debug_link events vs has_debug_link = 1"
ok "$nb objects, the vDSO among them, no duplicate; build_id/debug_link events match the flags"

# build_id of the library: the bytes readelf prints.
WANT_ID=$(readelf -nW "$B/libsdtest.so" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$WANT_ID" ] || fail "readelf shows no build ID in libsdtest.so"
line=$(grep -F 'lttng_ust_statedump:build_id:' "$TXT" | grep -F "baddr = $LIB_BADDR,")
[ -n "$line" ] || fail "no build_id event with baddr $LIB_BADDR"
len=$(echo "$line" | sed -n 's/.*_build_id_length = \([0-9]*\),.*/\1/p')
expect_eq "$len" $((${#WANT_ID} / 2)) "build ID length"
got_id=
for v in $(echo "$line" | sed 's/.*build_id = \[//; s/\] }$//; s/\[[0-9]*\] = //g; s/,//g'); do
	got_id=$got_id$(printf '%02x' "$v")
done
expect_eq "$got_id" "$WANT_ID" "build ID of libsdtest.so"
ok "build_id of libsdtest.so: $got_id"

# debug_link of the library: file name, and the CRC-32 of libsdtest.debug.
WANT_CRC=$(crc32 "$B/libsdtest.debug")
objcopy --dump-section .gnu_debuglink="$TEST_TMP/link.bin" "$B/libsdtest.so" "$TEST_TMP/junk.so" ||
	fail "cannot read .gnu_debuglink back"
STORED_CRC=$(tail -c 4 "$TEST_TMP/link.bin" | od -An -tu1 | {
	read -r b0 b1 b2 b3
	echo $((b0 + b1 * 256 + b2 * 65536 + b3 * 16777216))
})
expect_eq "$STORED_CRC" "$WANT_CRC" "CRC stored by objcopy vs gzip's CRC-32 (test self-check)"
line=$(grep -F 'lttng_ust_statedump:debug_link:' "$TXT" | grep -F "baddr = $LIB_BADDR,")
[ -n "$line" ] || fail "no debug_link event with baddr $LIB_BADDR"
case $line in
*"{ baddr = $LIB_BADDR, crc = $WANT_CRC, filename = \"libsdtest.debug\" }") ;;
*) fail "debug_link event: $line (expected crc = $WANT_CRC, filename = \"libsdtest.debug\")" ;;
esac
ok "debug_link of libsdtest.so: libsdtest.debug, crc $WANT_CRC"

# Field types, as flt.lttng-utils.debug-info reads them.
M=$T/metadata
for f in "size = 64; align = 8; signed = 0; encoding = none; base = 16; } _baddr;" \
	"size = 64; align = 8; signed = 0; encoding = none; base = 10; } _memsz;" \
	"string _path;" \
	"size = 8; align = 8; signed = 0; encoding = none; base = 10; } _is_pic;" \
	"size = 8; align = 8; signed = 0; encoding = none; base = 10; } _has_build_id;" \
	"size = 8; align = 8; signed = 0; encoding = none; base = 10; } _has_debug_link;" \
	"size = 8; align = 8; signed = 0; encoding = none; base = 16; } _build_id[ __build_id_length ];" \
	"size = 32; align = 8; signed = 0; encoding = none; base = 10; } _crc;" \
	"string _filename;" \
	"size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _procname[17];"; do
	expect_contains "$M" "$f"
done
ok "metadata field types"

# ---- 2. Babeltrace's debug-info filter resolves the call sites ----------
babeltrace2 "$T" --debug-info >"$TEST_TMP/di.txt" 2>"$TEST_TMP/di.err" || {
	cat "$TEST_TMP/di.err" >&2
	fail "babeltrace2 --debug-info failed"
}
APP_LINE=$(grep -n 'APP-TRACEPOINT-LINE' "$D/app.c" | cut -d: -f1)
LIB_LINE=$(grep -n 'LIB-TRACEPOINT-LINE' "$D/lib.c" | cut -d: -f1)
line=$(grep -F 'sdtest:where:' "$TEST_TMP/di.txt" | grep -F 'from = "program"')
case $line in
*'debug_info = { bin = "app+0x'*'", func = "emit_from_program+0x'*'", src = "app.c:'"$APP_LINE"'" }'*) ;;
*) fail "program event not resolved to emit_from_program at app.c:$APP_LINE: $line" ;;
esac
ok "debug-info: program event -> emit_from_program, app.c:$APP_LINE"
line=$(grep -F 'sdtest:where:' "$TEST_TMP/di.txt" | grep -F 'from = "library"')
case $line in
*'debug_info = { bin = "libsdtest.so+0x'*'", func = "sdlib_work+0x'*'", src = "lib.c:'"$LIB_LINE"'" }'*) ;;
*) fail "library event not resolved to sdlib_work at lib.c:$LIB_LINE (through the debug link): $line" ;;
esac
ok "debug-info: library event -> sdlib_work, lib.c:$LIB_LINE (DWARF found through the debug link)"

# ---- 3. A program that is not position-independent ---------------------
# Absolute addresses: baddr is its lowest PT_LOAD address, is_pic = 0.
$CC $TRAX_CFLAGS -no-pie -Wl,--build-id -I"$D" "$D/app.c" "$B/tp.o" -o "$B/app-nopie" \
	-L"$B" -Wl,-rpath,"$B" -lsdtest $TRAX_LDFLAGS -ltrax-ust -ldl || fail "cannot build app-nopie"
readelf -hW "$B/app-nopie" | grep -q 'Type: *EXEC' || fail "app-nopie is not ET_EXEC"
cp "$B/app" "$B/app-pie"
cp "$B/app-nopie" "$B/app"
run nopie
set -- $(bin_info "$TEST_TMP/nopie.txt" "$B/app")
[ $# = 5 ] || fail "cannot parse the bin_info event of the non-PIE program"
set -- "$@" $(load_span "$B/app")
expect_eq "$(lower "$1")" "$(lower "$(sed -n 's/^app_base=//p' "$TEST_TMP/nopie.out")")" \
	"non-PIE program baddr (dladdr's dli_fbase)"
expect_eq "$(($1))" "$6" "non-PIE program baddr (lowest PT_LOAD address)"
expect_eq "$2" $(($7 - $6)) "non-PIE program memsz (PT_LOAD span)"
expect_eq "$3" 0 "non-PIE program is_pic"
babeltrace2 "$T" --debug-info >"$TEST_TMP/di-nopie.txt" 2>"$TEST_TMP/di-nopie.err" || {
	cat "$TEST_TMP/di-nopie.err" >&2
	fail "babeltrace2 --debug-info failed (non-PIE)"
}
line=$(grep -F 'sdtest:where:' "$TEST_TMP/di-nopie.txt" | grep -F 'from = "program"')
case $line in
*'debug_info = { bin = "app@0x'*'", func = "emit_from_program+0x'*'", src = "app.c:'"$APP_LINE"'" }'*) ;;
*) fail "non-PIE program event not resolved to emit_from_program at app.c:$APP_LINE: $line" ;;
esac
cp "$B/app-pie" "$B/app"
ok "non-PIE program: baddr $1, is_pic 0, memsz $2; debug-info resolves it (absolute address)"

# ---- 4. Turning it off --------------------------------------------------
# statedump EVENTS FILE: the names of its state dump events, in order, on one line.
statedump_names() {
	grep -F 'lttng_ust_statedump:' "$1" | sed 's/.* lttng_ust_statedump:\([a-z_]*\): .*/\1/' | uniq | tr '\n' ' '
}
for var in TRAX_WITHOUT_BADDR_STATEDUMP LTTNG_UST_WITHOUT_BADDR_STATEDUMP; do
	run "off-$var" "$var=1"
	expect_eq "$(statedump_names "$TEST_TMP/off-$var.txt")" "start procname end " \
		"state dump events with $var=1"
	expect_eq "$(count "$TEST_TMP/off-$var.txt" 'sdtest:where:')" 2 "sdtest:where events with $var=1"
	ok "$var=1: no objects in the state dump, the program's events are recorded"
done
for var in TRAX_WITHOUT_PROCNAME_STATEDUMP LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP; do
	run "noname-$var" "$var=1"
	expect_eq "$(count "$TEST_TMP/noname-$var.txt" 'lttng_ust_statedump:procname:')" 0 \
		"procname events with $var=1"
	expect_eq "$(count "$TEST_TMP/noname-$var.txt" 'lttng_ust_statedump:bin_info:')" "$nb" \
		"bin_info events with $var=1"
	ok "$var=1: no procname event, the objects are there"
done
run off-both TRAX_WITHOUT_BADDR_STATEDUMP=1 LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP=1
expect_eq "$(count "$TEST_TMP/off-both.txt" 'lttng_ust_statedump:')" 0 "state dump events with both off"
expect_eq "$(count "$TEST_TMP/off-both.txt" 'sdtest:where:')" 2 "sdtest:where events with both off"
ok "both off: no state dump at all"
# Without the state dump the filter has nothing to resolve with.
run off-objects TRAX_WITHOUT_BADDR_STATEDUMP=1
babeltrace2 "$T" --debug-info >"$TEST_TMP/di-off.txt" 2>"$TEST_TMP/di-off.err" || {
	cat "$TEST_TMP/di-off.err" >&2
	fail "babeltrace2 --debug-info failed on the trace without state dump"
}
line=$(grep -F 'sdtest:where:' "$TEST_TMP/di-off.txt" | grep -F 'from = "program"')
case $line in
*'debug_info = { bin = "", func = "", src = "" }'*) ;;
*) fail "without the state dump, the program event should not be resolved: $line" ;;
esac
ok "debug-info without state dump: nothing resolved (the state dump is what resolves)"

# Only the enabled state dump events are recorded.
run ev-none TRAX_EVENTS='sdtest:*'
expect_eq "$(count "$TEST_TMP/ev-none.txt" 'lttng_ust_statedump:')" 0 "statedump events with TRAX_EVENTS=sdtest:*"
expect_eq "$(count "$TEST_TMP/ev-none.txt" 'sdtest:where:')" 2 "sdtest:where events with TRAX_EVENTS=sdtest:*"
run ev-bin TRAX_EVENTS='lttng_ust_statedump:bin_info,sdtest:*'
expect_eq "$(count "$TEST_TMP/ev-bin.txt" 'lttng_ust_statedump:')" \
	"$(count "$TEST_TMP/ev-bin.txt" 'lttng_ust_statedump:bin_info:')" "only bin_info enabled"
expect_eq "$(count "$TEST_TMP/ev-bin.txt" 'lttng_ust_statedump:bin_info:')" "$nb" "bin_info events"
grep -F 'lttng_ust_statedump:bin_info:' "$TEST_TMP/ev-bin.txt" | grep -F "path = \"$B/libsdtest.so\"," |
	grep -qF 'has_build_id = 1, has_debug_link = 1 }' || fail "bin_info flags when only bin_info is enabled"
ok "TRAX_EVENTS selects the state dump events"
