#!/bin/sh
# view_output.sh - `trax view` writes the same bytes whatever its standard
# output is. To a regular file the text is written by a writer thread with
# O_DIRECT for the aligned blocks (src/reader/text-writer.c); to a pipe, plain
# write(2). On traces of tens of megabytes of text (many 1 MiB buffers):
# - to a file, byte-identical to the same through a pipe and to babeltrace2;
# - starting at an unaligned offset: `>>` to a file of 5000 bytes (and of
#   8192), 777 bytes written before in the same `{ ...; }`, `1<>` over a
#   longer file (the rest stays); `{ trax view T; echo end; }` puts "end"
#   after the text;
# - warnings on stderr with 2>&1 (tens of discarded-events warnings, about a
#   megabyte of text apart, from a recording with small buffers) where they
#   are through a pipe, also with >>; stdout and stderr as babeltrace2's;
# - a full file system (small tmpfs): exit status 1, the error line, and the
#   file holds a prefix of the text, nothing missing or garbled before it;
# - tmpfs (O_DIRECT accepted), ramfs (O_DIRECT refused at open), and direct
#   writes failing at the first write or later (an LD_PRELOAD shim): the same
#   text, through plain writes;
# - the text made by two readers taking chunks in turn (src/reader/print-twin.c,
#   the default, chunks of 4096 items, and of 1 to 7 for the tests), on one
#   thread (TRAX_VIEW_THREADS=1), and decoded by the interpreter, the files
#   read through their mapping (TRAX_NO_JIT=1, TRAX_READ_WINDOW=0): the same
#   bytes, warnings in the same places.
# Needs root (it mounts tmpfs and ramfs).
. "$TRAX_SRC/tests/integration/lib.sh"

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"
command -v babeltrace2 >/dev/null 2>&1 || fail "babeltrace2 is needed"
MNT=$TEST_TMP/mnt
mkdir -p "$MNT"
cleanup() {
	umount "$MNT" 2>/dev/null || :
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

d="$TRAX_SRC/tests/integration/data/threads"
cd "$TEST_TMP"
build_app "$d" app

# ~100 bytes of text per event: 300,000 events are 30 MB (10 MB in the
# sanitizer build, still ten buffers).
n=150000
[ -n "$TRAX_SANITIZE" ] && n=50000
status=0
TRAX_EVENTS='thr:*' TRAX_SUBBUF_SIZE=1M TRAX_NUM_SUBBUF=16 TRAX_OUTPUT="$TEST_TMP/t" \
	./app 2 $n >app.out 2>app.err || status=$?
expect_eq "$status" 7 "exit status of the traced program"
T=$TEST_TMP/t

# The reference: through a pipe (plain write(2) of each buffer).
"$TRAX" view "$T" 2>pipe.err | cat >pipe.txt
[ -s pipe.err ] && {
	cat pipe.err >&2
	fail "trax view printed errors"
}
size=$(wc -c <pipe.txt)
[ "$size" -gt $((8 * 1024 * 1024)) ] || fail "only $size bytes of text: not enough buffers"
babeltrace2 "$T" >bt.txt 2>bt.err || fail "babeltrace2 cannot read the trace"
cmp -s pipe.txt bt.txt || fail "trax view | cat differs from babeltrace2"

# same_as EXPECTED ACTUAL WHAT
same_as() {
	cmp "$1" "$2" >cmp.out 2>&1 || {
		cat cmp.out >&2
		ls -l "$1" "$2" >&2
		fail "$3"
	}
}

"$TRAX" view "$T" >file.txt || fail "trax view > file: exit status $?"
same_as pipe.txt file.txt "trax view > file"
ok "to a file: $size bytes, as through a pipe and as babeltrace2"

TRAX_VIEW_THREADS=1 "$TRAX" view "$T" >one.txt || fail "trax view on one thread: exit status $?"
same_as pipe.txt one.txt "trax view on one thread (TRAX_VIEW_THREADS=1)"
ok "read on one thread or two: the same $size bytes"

# Two readers formatting every other chunk (the default, print-twin.h), in
# chunks of 1, 2 and 7 items: every line's delta from the other side's.
for chunk in 1 2 7; do
	TRAX_VIEW_CHUNK=$chunk "$TRAX" view "$T" >split.txt || fail "TRAX_VIEW_CHUNK=$chunk: exit status $?"
	same_as pipe.txt split.txt "trax view with TRAX_VIEW_CHUNK=$chunk"
done
# and decoded by the interpreter rather than by compiled code (decode-jit.h),
# the files read in small windows or through their mapping (decode-stream.h)
TRAX_NO_JIT=1 "$TRAX" view "$T" >split.txt || fail "TRAX_NO_JIT=1: exit status $?"
same_as pipe.txt split.txt "trax view with TRAX_NO_JIT=1"
for win in 0 4096; do
	TRAX_READ_WINDOW=$win "$TRAX" view "$T" >split.txt || fail "TRAX_READ_WINDOW=$win: exit status $?"
	same_as pipe.txt split.txt "trax view with TRAX_READ_WINDOW=$win"
done
ok "two readers in chunks of 1 to 4096 items, without JIT, any read window: the same $size bytes"

# Unaligned starting offsets (and an aligned one, appending).
for pre in 5000 8192; do
	head -c $pre bt.txt >append.txt
	cp append.txt expected.txt
	"$TRAX" view "$T" >>append.txt || fail "trax view >> file: exit status $?"
	cat pipe.txt >>expected.txt
	same_as expected.txt append.txt ">> to a file of $pre bytes"
done

{
	printf '%777s' ''
	"$TRAX" view "$T" || fail "trax view after 777 bytes: exit status $?"
	echo end
} >seq.txt
{
	printf '%777s' ''
	cat pipe.txt
	echo end
} >expected.txt
same_as expected.txt seq.txt "{ printf; trax view; echo end; } > file"

{
	"$TRAX" view "$T" || fail "trax view; echo end: exit status $?"
	echo end
} >seq.txt
{
	cat pipe.txt
	echo end
} >expected.txt
same_as expected.txt seq.txt "{ trax view; echo end; } > file"

# Over a longer file without truncating it: the end of the file stays.
{
	cat pipe.txt pipe.txt
} >over.txt
exec 3<>over.txt
"$TRAX" view "$T" >&3 || fail "trax view 1<>: exit status $?"
echo end >&3
exec 3>&-
{
	cat pipe.txt
	echo end
	cat pipe.txt pipe.txt | tail -c +$((size + 5))
} >expected.txt
same_as expected.txt over.txt "1<> over a longer file"
ok "unaligned starts (>>, after 777 bytes, 1<>), the offset after the text"

# Warnings on stderr, in place with 2>&1: a recording that loses events.
status=0
TRAX_EVENTS='thr:*' TRAX_SUBBUF_SIZE=4096 TRAX_NUM_SUBBUF=2 TRAX_OUTPUT="$TEST_TMP/d" \
	./app 1 1000000 >app.out 2>app.err || status=$?
expect_eq "$status" 7 "exit status of the traced program (discard)"
D=$TEST_TMP/d
"$TRAX" view "$D" 2>&1 | cat >dpipe.txt
warnings=$(grep -c '^WARNING: Tracer discarded' dpipe.txt) || fail "no discarded events warning"
"$TRAX" view "$D" >dfile.txt 2>&1 || fail "trax view > file 2>&1: exit status $?"
same_as dpipe.txt dfile.txt "warnings with 2>&1 to a file"
printf 'x' >dfile.txt
"$TRAX" view "$D" >>dfile.txt 2>&1 || fail "trax view >> file 2>&1: exit status $?"
{
	printf 'x'
	cat dpipe.txt
} >expected.txt
same_as expected.txt dfile.txt "warnings with >> file 2>&1"
"$TRAX" view "$D" >dout.txt 2>derr.txt || fail "trax view (discard trace): exit status $?"
babeltrace2 "$D" >bout.txt 2>berr.txt || fail "babeltrace2 cannot read the discard trace"
same_as bout.txt dout.txt "standard output of the discard trace"
sed "s|$TEST_TMP/||g" derr.txt >derr.rel
sed "s|$TEST_TMP/||g" berr.txt >berr.rel
same_as berr.rel derr.rel "standard error of the discard trace"
ok "$warnings warnings with 2>&1 where they are through a pipe ($(wc -c <dout.txt) bytes of text)"
TRAX_VIEW_THREADS=1 "$TRAX" view "$D" 2>&1 | cat >done.txt
same_as dpipe.txt done.txt "warnings in place, read on one thread"
for chunk in 1 5; do
	TRAX_VIEW_CHUNK=$chunk "$TRAX" view "$D" 2>&1 | cat >dsplit.txt
	same_as dpipe.txt dsplit.txt "warnings in place, two readers in chunks of $chunk"
done
ok "warnings in the same places read on one thread or two"

# A full file system: the error, and the text up to where it stopped.
mount -t tmpfs -o size=4m tmpfs "$MNT" || fail "cannot mount a tmpfs on $MNT (the test must run as root)"
status=0
"$TRAX" view "$T" >"$MNT/out" 2>full.err || status=$?
expect_eq "$status" 1 "exit status on a full file system"
expect_eq "$(cat full.err)" "trax view: standard output: No space left on device" "error line"
written=$(wc -c <"$MNT/out")
[ "$written" -gt $((2 * 1024 * 1024)) ] || fail "only $written bytes written before the error"
head -c "$written" pipe.txt | cmp -s - "$MNT/out" || fail "what was written before the error differs"
rm -f "$MNT/out"

umount "$MNT"

# tmpfs takes O_DIRECT (Linux 6.6 and later) or refuses it.
mount -t tmpfs -o size=64m tmpfs "$MNT" || fail "cannot mount a tmpfs on $MNT"
{
	printf 'abc'
	"$TRAX" view "$T" || fail "trax view to tmpfs: exit status $?"
	echo end
} >"$MNT/out"
{
	printf 'abc'
	cat pipe.txt
	echo end
} >expected.txt
same_as expected.txt "$MNT/out" "on tmpfs"
umount "$MNT"
ok "full file system: status 1, the error line, $written bytes intact; tmpfs"

# ramfs refuses O_DIRECT at open.
if mount -t ramfs ramfs "$MNT" 2>/dev/null; then
	{
		printf 'abc'
		"$TRAX" view "$T" || fail "trax view to ramfs: exit status $?"
		echo end
	} >"$MNT/out"
	same_as expected.txt "$MNT/out" "on ramfs (no O_DIRECT)"
	umount "$MNT"
	ok "ramfs (O_DIRECT refused at open): the same text"
else
	echo "note: no ramfs, skipped"
fi

# Direct writes that fail: refused at the first (EINVAL, as some file systems
# do), or failing later (EIO): the rest goes through plain writes.
cat >shim.c <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static int calls;

static ssize_t shim(int fd, const void *p, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	int fl = fcntl(fd, F_GETFL);
	const char *after = getenv("SHIM_FAIL_AFTER");

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	if (fl >= 0 && (fl & O_DIRECT) && after && calls++ >= atoi(after)) {
		errno = atoi(getenv("SHIM_ERRNO"));
		return -1;
	}
	return real(fd, p, n, off);
}

ssize_t pwrite(int fd, const void *p, size_t n, off_t off)
{
	return shim(fd, p, n, off);
}

ssize_t pwrite64(int fd, const void *p, size_t n, off_t off)
{
	return shim(fd, p, n, off);
}
EOF
# The shim carries no sanitizer: it needs no runtime of its own.
$CC -g -O1 -shared -fPIC shim.c -o shim.so -ldl
for cfg in "0 22" "3 5"; do
	set -- $cfg
	{
		printf 'abc'
		ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" LD_PRELOAD=$TEST_TMP/shim.so \
			SHIM_FAIL_AFTER=$1 SHIM_ERRNO=$2 "$TRAX" view "$T" ||
			fail "direct writes failing after $1 with errno $2: exit status $?"
		echo end
	} >shim.txt
	same_as expected.txt shim.txt "direct writes failing after $1 with errno $2"
done
ok "direct writes refused at the first or failing later: the same text"
