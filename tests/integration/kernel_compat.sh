#!/bin/sh
# kernel_compat.sh - 32-bit system calls through traxd: enable-event -k
# --syscall openat,read,close,getpid records a 64-bit program's int $0x80
# calls (which the kernel runs as a 32-bit program's) as LTTng-modules'
# compat_syscall_entry_NAME / compat_syscall_exit_NAME events: openat's
# file name read from user memory, the descriptor it returned, read's
# count and ret, close, getpid's ret; babeltrace2 reads the trace without
# a warning and prints those events as trax view does; the program's
# 64-bit calls are syscall_entry_* as before. trax list -k --syscall shows
# the calls of both tables ("openat [32/64-bit]", "llseek [32-bit]").
# Needs root and tracefs (mounted if missing).
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

need_kernel_tracefs
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
cd "$TEST_TMP"
$CC -O1 -o kprog32 "$TRAX_SRC/tests/integration/data/kernel/kprog32.c" || fail "cannot build kprog32"
echo "hello, compat" >exists.txt
P=$(pwd -P)

trax create c --output="$P/out" >/dev/null || fail "create"
trax enable-event -k --syscall openat,read,close,getpid >enable.txt 2>&1 ||
	{ cat enable.txt; fail "enable-event -k --syscall"; }
trax add-context -k -t tid >/dev/null 2>&1 || fail "add-context -k"
trax start >/dev/null || fail "start"
"$P/kprog32" "$P/ids.txt" "$P/exists.txt" || fail "kprog32 failed ($?)"
trax stop >/dev/null || fail "stop"
trax destroy c >/dev/null || fail "destroy"
read -r tid fd <ids.txt

K=$P/out/kernel
babeltrace2 "$K" >bt2.txt 2>bt2.err || { cat bt2.err; fail "babeltrace2 cannot read the trace"; }
[ -s bt2.err ] && check_fail "babeltrace2 warned: $(head -3 bt2.err)"
trax view "$K" >view.txt 2>view.err || { cat view.err; fail "trax view cannot read the trace"; }

for f in bt2 view; do
	grep -F "{ tid = $tid }" $f.txt | grep compat_ | sed 's/^[^ ]* [^ ]* //' >$f-mine.txt
done
[ -s view-mine.txt ] || fail "no compat_syscall event of tid $tid: $(grep -c compat_ view.txt) in all"
cmp -s bt2-mine.txt view-mine.txt || check_fail "trax view and babeltrace2 differ: $(diff bt2-mine.txt view-mine.txt | head -4)"
expect_line() {
	grep -q "$1" view-mine.txt || check_fail "no $2: $(cat view-mine.txt | head -12)"
}
expect_line "compat_syscall_entry_openat: .*{ dfd = -100, filename = \"$P/exists.txt\", flags = 0, mode = 0 }" "openat entry with the file name"
expect_line "compat_syscall_exit_openat: .*{ ret = $fd }" "openat exit with the descriptor $fd"
expect_line "compat_syscall_entry_read: .*{ fd = $fd, count = 5 }" "read(fd $fd, 5)"
expect_line "compat_syscall_exit_read: .*{ ret = 5, buf = " "read exit with ret = 5"
expect_line "compat_syscall_entry_close: .*{ fd = $fd }" "close($fd)"
expect_line "compat_syscall_exit_close: .*{ ret = 0 }" "close exit"
expect_line "compat_syscall_entry_getpid: " "getpid entry"
# (the program is single-threaded: its pid is its tid)
expect_line "compat_syscall_exit_getpid: .*{ ret = $tid }" "getpid exit with ret = $tid"
[ "$(wc -l <view-mine.txt)" = 8 ] || check_fail "$(wc -l <view-mine.txt) compat events, 8 expected"
grep -F "{ tid = $tid }" view.txt | grep -q " syscall_entry_close:" ||
	check_fail "the program's 64-bit close calls (at its exit) are missing"

# a filter on the call's fields applies to its 32-bit events too
trax create f --output="$P/f" >/dev/null || fail "create f"
trax enable-event -k -s f --syscall openat --filter 'filename == "*exists.txt"' >/dev/null 2>&1 ||
	fail "enable-event -k --syscall --filter"
trax start f >/dev/null || fail "start f"
"$P/kprog32" "$P/ids2.txt" "$P/exists.txt" || fail "kprog32 failed ($?)"
trax stop f >/dev/null || fail "stop f"
trax destroy f >/dev/null || fail "destroy f"
trax view "$P/f/kernel" >f.txt 2>f.err || { cat f.err; fail "trax view cannot read the filtered trace"; }
[ "$(grep -c "compat_syscall_entry_openat: .*filename = \"$P/exists.txt\"" f.txt)" = 1 ] ||
	check_fail "the filtered trace lacks the 32-bit openat: $(grep -c openat f.txt) openat events"
grep -q "compat_syscall_exit_openat" f.txt &&
	check_fail "openat's 32-bit exits (no filename) passed a filter on filename"
grep "openat" f.txt | grep -v "exists.txt" | grep -q "_entry_" &&
	check_fail "the filter let through: $(grep openat f.txt | grep -v exists.txt | head -2)"

# trax list -k --syscall: each call with the ABIs it is traced in, as
# lttng list -k --syscall: both tables' calls once, "32/64"
trax list -k --syscall >list.txt 2>&1 || fail "list -k --syscall: $(cat list.txt)"
for want in "openat [32/64-bit]" "read [32/64-bit]" "llseek [32-bit]" "socketcall [32-bit]" \
	"accept [64-bit]"; do
	grep -qxF "      $want" list.txt || check_fail "list -k --syscall lacks '$want'"
done
[ "$(grep -c '^      openat \[' list.txt)" = 1 ] || check_fail "openat listed more than once"

[ "$errors" = 0 ] || fail "$errors check(s) failed"
ok "kernel_compat"
