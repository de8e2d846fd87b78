#!/bin/sh
# headers.sh - programs written for LTTng-UST use the names of the system
# headers its public headers include (stdio.h, stdlib.h, string.h,
# stdint.h, stdbool.h, unistd.h, dlfcn.h, sys/types.h, assert.h, ...; on
# the probes' side errno.h, pthread.h, limits.h, float.h, byteswap.h,
# time.h; pthread.h with _LGPL_SOURCE; <type_traits> in C++) without
# including them: data/headers/ has such programs, which include only a
# provider header, <lttng/tracef.h> or <lttng/tracelog.h>.
#  1. They compile against LTTng-UST's own headers (so this test asks no
#     more than LTTng-UST gives), as C and C++.
#  2. They compile against trax's headers, as C and C++, and the provider
#     program runs and records its event.
. "$TRAX_SRC/tests/integration/lib.sh"

DATA=$TRAX_SRC/tests/integration/data/headers
cd "$TEST_TMP"
echo '#include <lttng/tracepoint.h>' | $CC -E -x c - >/dev/null 2>&1 ||
	fail "the system <lttng/tracepoint.h> is missing (liblttng-ust-dev is needed)"

# compile WHO LANG SOURCE FLAGS...: -fsyntax-only; uses.h checks (#error) that
# the <lttng/tracepoint.h> read is WHO's.
compile() {
	_who=$1 _lang=$2 _src=$3
	shift 3
	_cc=$CC
	[ "$_lang" = c++ ] && _cc=$CXX
	# shellcheck disable=SC2086
	$_cc -x "$_lang" -Wall -Wextra -Werror=implicit-function-declaration "$@" -I"$DATA" \
		-fsyntax-only "$DATA/$_src.c" >"cc.out" 2>&1 || {
		cat cc.out >&2
		fail "$_src.c does not compile as $_lang against $_who's headers"
	}
}

for src in app-tp app-tracef app-tracelog app-lgpl probes; do
	for lang in c c++; do
		compile LTTng-UST $lang $src -DEXPECT_LTTNG
		compile trax $lang $src -DEXPECT_TRAX -I"$TRAX_SRC/include"
	done
done
# <lttng/ust-tracer.h> alone brings stdio.h, stdlib.h, assert.h and endian.h
for lang in c c++; do
	compile LTTng-UST $lang app-tracer -DEXPECT_LTTNG
	compile trax $lang app-tracer -DEXPECT_TRAX -I"$TRAX_SRC/include"
done
ok "programs using the system names LTTng-UST's headers bring compile against LTTng-UST and trax (C, C++)"

$CC $TRAX_CFLAGS -DEXPECT_TRAX -I"$DATA" -c "$DATA/probes.c" -o probes.o
$CC $TRAX_CFLAGS -DEXPECT_TRAX -I"$DATA" -c "$DATA/app-tp.c" -o app-tp.o
$CC -o app-tp app-tp.o probes.o $TRAX_LDFLAGS -ltrax-ust -ldl
TRAX_OUTPUT=$TEST_TMP/t ./app-tp x >out.txt || fail "app-tp exited with status $?"
expect_contains out.txt "ok"
bt2 "$TEST_TMP/t" >t.txt
expect_contains t.txt "hdrprov:ev: { cpu_id = "
expect_contains t.txt "{ n = 2, err = "
expect_contains t.txt ", lmax = 9223372036854775807, eps = 2.22045e-16, swapped = 33554432, clk = 1 }"
ok "the provider program runs and records its event"
