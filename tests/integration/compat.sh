#!/bin/sh
# compat.sh - the rest of LTTng-UST's application API (docs/compatibility.md):
#  1. data/compat/compat.c (LTTng-UST 2.13 names: version macros,
#     LTTNG_UST_COMPAT_API(), LTTNG_UST_TRACEPOINT_NAME_LEN_MAX,
#     tracepoint_disable_destructors(), <lttng/ust-fork.h>, lttng_ust__tracef(),
#     lttng_ust__vtracef(), the clock override API after start-up and its
#     getters, lttng_ust_getcpu_override())
#     compiles against LTTng-UST's headers and trax's, as C and C++; run with
#     trax it reports and records what it should.
#  2. data/compat/compat210.c (2.10 names 2.13 dropped: <lttng/ust.h>,
#     _lttng_ust_tracef(), vtracef(), vtracelog()) builds and records with trax.
. "$TRAX_SRC/tests/integration/lib.sh"

D=$TRAX_SRC/tests/integration/data/compat
L=$TRAX_SRC/tests/integration/data/linking
cd "$TEST_TMP"
echo '#include <lttng/tracepoint.h>' | $CC -E -x c - >/dev/null 2>&1 ||
	fail "the system <lttng/tracepoint.h> is missing (liblttng-ust-dev is needed)"

# The C++ build also defines _LGPL_SOURCE (lttng-ust(3) 2.13: accepted).
for lang in c c++; do
	cc=$CC lgpl=
	[ $lang = c++ ] && cc=$CXX lgpl=-D_LGPL_SOURCE
	$cc -x $lang $lgpl -Wall -Wextra -I"$L" -fsyntax-only "$D/compat.c" 2>cc.err || {
		cat cc.err >&2
		fail "compat.c does not compile as $lang against LTTng-UST's headers"
	}
	$cc -x $lang $lgpl $TRAX_CFLAGS -Werror -I"$L" -c "$D/compat.c" -o compat-$lang.o 2>cc.err || {
		cat cc.err >&2
		fail "compat.c does not compile as $lang against trax's headers"
	}
done
$CXX -o compat compat-c++.o $TRAX_LDFLAGS -ltrax-ust -ldl
$CC -o compat-c compat-c.o $TRAX_LDFLAGS -ltrax-ust -ldl
for prog in compat-c compat; do
	TRAX_OUTPUT=$TEST_TMP/t-$prog ./$prog >$prog.out || fail "$prog exited with status $?"
	cpu=$(sed -n 's/^getcpu override: 0 (cpu \([0-9]*\))$/\1/p' $prog.out)
	[ -n "$cpu" ] || fail "$prog: lttng_ust_getcpu_override() did not return 0: $(cat $prog.out)"
	cat >expected.out <<EOF
version 2.13.0 2.13.0
compat api 0: 1, 1: 1, name len max 256
fork hooks: signal mask kept
set_read64_cb after start-up: -16
enable after start-up: -16
clock monotonic 1000000000
clock read64 counts, uuid given (boot id: 1), description Monotonic Clock
getcpu override: 0 (cpu $cpu)
EOF
	diff -u expected.out $prog.out >&2 || fail "$prog: unexpected output (diff above)"
	bt2 "$TEST_TMP/t-$prog" | sed -e 's/^\[[^]]*\] ([^)]*) [^ ]* //' >$prog.txt
	cat >expected.txt <<EOF
lttng_ust_tracef:event: { cpu_id = CPU }, { _msg_length = 8, msg = "direct 1" }
lttng_ust_tracef:event: { cpu_id = CPU }, { _msg_length = 9, msg = "vdirect 2" }
linkprov:hello: { cpu_id = $cpu }, { n = 2, s = "getcpu" }
linkprov:hello: { cpu_id = CPU }, { n = 1, s = "main" }
linkprov:hello: { cpu_id = CPU }, { n = 99, s = "destructor" }
EOF
	sed -e '/n = 2, s = "getcpu"/!s/cpu_id = [0-9]*/cpu_id = CPU/' $prog.txt | diff -u expected.txt - >&2 ||
		fail "$prog: unexpected events (diff above: + is the trace)"
done
ok "2.13 API (C, C++): version 2.13.0, fork hooks keep the signal mask, lttng_ust__tracef, lttng_ust__vtracef, clock API refused after start-up (EBUSY) with the default clock's five getters, getcpu override, a tracepoint in a late destructor recorded after tracepoint_disable_destructors()"

$CC $TRAX_CFLAGS -Werror -c "$D/compat210.c" -o compat210.o
$CC -o compat210 compat210.o $TRAX_LDFLAGS -ltrax-ust -ldl
TRAX_OUTPUT=$TEST_TMP/t210 ./compat210 >compat210.out || fail "compat210 exited with status $?"
expect_contains compat210.out done
bt2 "$TEST_TMP/t210" | sed -e 's/^\[[^]]*\] ([^)]*) [^ ]* //' -e 's/{ cpu_id = [0-9]* }, //' >compat210.txt
cat >expected.txt <<EOF
lttng_ust_tracef:event: { _msg_length = 13, msg = "2.10 direct 1" }
lttng_ust_tracef:event: { _msg_length = 8, msg = "2.10 v 2" }
lttng_ust_tracef:event: { _msg_length = 8, msg = "2.10 v 2" }
lttng_ust_tracelog:TRACE_WARNING: { line = $(grep -n 'vtracelog(TRACE_WARNING' "$D/compat210.c" | cut -d: -f1), file = "$D/compat210.c", func = "v", _msg_length = 8, msg = "2.10 v 2" }
EOF
diff -u expected.txt compat210.txt >&2 || fail "compat210: unexpected events (diff above: + is the trace)"
ok "2.10 names: <lttng/ust.h> fork hooks, _lttng_ust_tracef/_lttng_ust_vtracef, vtracef, vtracelog"
