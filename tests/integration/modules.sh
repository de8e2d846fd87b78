#!/bin/sh
# The module boundaries (docs/architecture.md): each folder of src/ is built
# with build/modinc/MODULE/ as its only include path, holding links to the
# folders and public headers it may use (trax_module_includes() in
# CMakeLists.txt). The rules are read from those links, not repeated here:
#
#  1. for every module, a one-line file including a header of each folder it
#     may use preprocesses with that include path, and one including a
#     header of each folder it may not use fails, for want of the file;
#     the same for the public headers (include/trax, include/lttng);
#  2. no file of a module's folder includes a folder or public header that
#     its links do not give it (the compiler sees only what is built; this
#     sees every file), and none of src/writer includes a UST header.
. "$TRAX_SRC/tests/integration/lib.sh"
cd "$TEST_TMP"

modinc=$TRAX_BUILD/modinc
[ -d "$modinc" ] || fail "no $modinc: the build tree has no module include links"

# allows MODULE PATH: whether PATH ("writer/packet.h") is in MODULE's links.
allows() {
	[ -e "$modinc/$1/$2" ]
}

# preprocess MODULE PATH: the file including PATH, with MODULE's include
# path; found.txt: where PATH was found (-H's first line), if anywhere.
preprocess() {
	printf '#include "%s"\n' "$2" >inc.c
	status=0
	$CC -E -H -D_GNU_SOURCE -I"$modinc/$1" inc.c -o /dev/null 2>cc.err || status=$?
	sed -n 's/^\. //p' cc.err | head -n 1 >found.txt
	return $status
}

modules=$(ls "$modinc")
[ -n "$modules" ] || fail "no module in $modinc"
headers=0
for m in $modules; do
	[ -d "$TRAX_SRC/src/$m" ] || fail "modinc/$m names no folder of src/"
	allows "$m" "$m" || fail "module $m may not include its own folder"
	# a header of each folder of src/, and every public header
	for h in $(cd "$TRAX_SRC/src" && for d in */; do ls "$d"*.h 2>/dev/null | head -n 1; done) \
		$(cd "$TRAX_SRC/include" && ls trax/*.h lttng/*.h); do
		headers=$((headers + 1))
		if allows "$m" "$h"; then
			preprocess "$m" "$h" ||
				fail "module $m may use $h, but it does not preprocess: $(grep -v '^\.' cc.err | head -n 3)"
			grep -q "^$modinc/$m/$h\$" found.txt ||
				fail "module $m: $h found as $(cat found.txt), not through its links"
		elif preprocess "$m" "$h"; then
			# (a header of the same name elsewhere, e.g. LTTng-UST's in /usr/include, is not ours)
			case $(cat found.txt) in
			"$modinc"/* | "$TRAX_SRC"/*)
				fail "module $m may not use $h, but including it builds ($(cat found.txt))" ;;
			esac
		elif ! grep -q "No such file" cc.err; then
			fail "including $h from module $m fails for another reason: $(head -n 3 cc.err)"
		fi
	done
done
ok "each of $(echo $modules | wc -w) modules includes what its links allow and nothing else ($headers includes tried)"

# Every #include "DIR/..." or <trax|lttng/...> in the module's own files.
bad=
for m in $modules; do
	for f in $(find "$TRAX_SRC/src/$m" -name '*.[ch]'); do
		for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]\([^">]*\/[^">]*\)[">].*/\1/p' "$f"); do
			case $h in
			# (system headers; bpf/: libbpf's, which the kernel domain's BPF code uses)
			sys/* | linux/* | asm/* | netinet/* | arpa/* | net/* | bits/* | bpf/*) continue ;;
			esac
			allows "$m" "$h" || bad="$bad
  ${f#"$TRAX_SRC"/} includes $h (module $m)"
		done
	done
done
[ -z "$bad" ] || fail "includes across the module boundaries:$bad"
ok "every file of src/ includes only what its module's links allow"

# The writer describes CTF; nothing of the UST tracer.
if grep -rlE '#[[:space:]]*include[[:space:]]*["<](ust|ust-dl)/' "$TRAX_SRC/src/writer" >ust.txt; then
	fail "src/writer includes UST headers: $(cat ust.txt)"
fi
ok "src/writer includes no UST header"
