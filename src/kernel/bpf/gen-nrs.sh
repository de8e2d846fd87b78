#!/bin/sh
# gen-nrs.sh CC OUTPUT: the system call numbers of the headers trax is
# built against (<asm/unistd_64.h>, __NR_name), as lines SC_NR(name, nr)
# for src/kernel/syscall-nr.c. Numbers are the kernel's ABI: they never
# change, and calls newer than these headers are listed in syscall-nr.c.
set -e
cc=$1
out=$2
echo '#include <asm/unistd_64.h>' | "$cc" -dM -E -x c - |
	sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$/SC_NR(\1, \2)/p' | sort >"$out.tmp"
if [ ! -s "$out.tmp" ]; then
	echo "gen-nrs.sh: no __NR_ numbers in <asm/unistd_64.h> (install linux-libc-dev)" >&2
	rm -f "$out.tmp"
	exit 1
fi
mv "$out.tmp" "$out"
