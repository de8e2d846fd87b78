#!/bin/sh
# gen-nrs.sh CC OUTPUT [HEADER MACRO]: the system call numbers of the
# headers trax is built against (HEADER, default <asm/unistd_64.h>;
# <asm/unistd_32.h> for the 32-bit calls), __NR_name, as lines
# MACRO(name, nr) (default SC_NR) for src/kernel/syscall-nr.c and
# syscall-compat.c. Numbers are the kernel's ABI: they never change, and
# calls newer than these headers are listed in syscall-nr.c.
set -e
cc=$1
out=$2
header=${3:-asm/unistd_64.h}
macro=${4:-SC_NR}
echo "#include <$header>" | "$cc" -dM -E -x c - |
	sed -n "s/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)\$/$macro(\1, \2)/p" | sort >"$out.tmp"
if [ ! -s "$out.tmp" ]; then
	echo "gen-nrs.sh: no __NR_ numbers in <$header> (install linux-libc-dev)" >&2
	rm -f "$out.tmp"
	exit 1
fi
mv "$out.tmp" "$out"
