#!/bin/sh
# record-trax-trace.sh BUILD OUTDIR - records, as root, the small kernel
# trace tests/data/analyses/trax-kernel-trace was made with: the whole
# machine from `trax start` to `trax stop` (about 1 s), with the kernel
# events the analyses read (sched_*, irq_*, block_rq_*, lttng_statedump_*,
# all system calls, contexts tid/pid/procname), while kwork
# (tests/integration/data/kernel) opens/reads/closes a file 100 times and
# spins 100 ms, and dd writes
# 64 KiB with an fsync. OUTDIR/kernel is the trace. Private TRAX_RUNDIR
# and TRAX_HOME: it talks to no other daemon.
set -eu
B=$(cd "${1:?usage: $0 BUILD OUTDIR}" && pwd -P)
OUT=${2:?usage: $0 BUILD OUTDIR}
SRC=$(cd "$(dirname "$0")/../../.." && pwd -P)
[ "$(id -u)" = 0 ] || { echo "$0: run as root" >&2; exit 1; }
T=$(mktemp -d /tmp/trax-anrec.XXXXXX)
export TRAX_RUNDIR="$T/run" TRAX_HOME="$T/home" TRAX_DAEMON_PATH="$B/traxd"
mkdir -p "$TRAX_HOME"
stop_daemon() {
	[ -f "$TRAX_RUNDIR/traxd.lock" ] || return 0
	p=$(head -n 1 "$TRAX_RUNDIR/traxd.lock")
	kill -TERM "$p" 2>/dev/null || true
	sleep 1
}
trap 'stop_daemon; rm -rf "$T"' EXIT INT TERM
cc -O1 -o "$T/kwork" "$SRC/tests/integration/data/kernel/kwork.c"
head -c 4096 /dev/urandom >"$T/data.bin"
rm -rf "$OUT"
mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd -P)/$(basename "$OUT")
"$B/trax" create anrec --output="$OUT" >/dev/null
"$B/trax" enable-event -k 'sched_*,irq_*,block_rq_*,lttng_statedump_*' >/dev/null
"$B/trax" enable-event -k --syscall -a >/dev/null
"$B/trax" add-context -k -t tid -t pid -t procname >/dev/null
mkfifo "$T/go"
"$T/kwork" "$T/kwork.txt" "$T/data.bin" 100 100 "$T/go" &
k=$!
"$B/trax" start >/dev/null
echo go >"$T/go"
dd if=/dev/zero of="$T/dd.out" bs=4k count=16 conv=fsync 2>/dev/null
wait "$k"
"$B/trax" stop >/dev/null
"$B/trax" destroy anrec >/dev/null
echo "kwork (tid, cpu ms): $(cat "$T/kwork.txt")"
du -sh "$OUT/kernel"
