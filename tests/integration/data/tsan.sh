# tests/integration/data/tsan.sh - sourced by the ThreadSanitizer tests
# (ringbuf_tsan.sh, view_tsan.sh, app_register.sh), in the test's scratch
# directory after lib.sh.
#
# Sets TSAN_CFLAGS (their own: the build's sanitizers, address and
# undefined, cannot be mixed with thread), TSAN_OPTIONS, and TSAN_RUN: ""
# or "setarch ARCH -R". A deliberately racy program must be caught first, so
# that "no report" means something. TSan needs a memory layout it knows: on
# kernels where it aborts ("unexpected memory mapping", high mmap entropy),
# the runs are retried with ASLR off.
src="$TRAX_SRC/src"
TSAN_CFLAGS="-fsanitize=thread -O1 -g -Wno-tsan -D_GNU_SOURCE -DTRAX_VERSION=\"tsan\" -I$TRAX_SRC/include -I$src -I$TRAX_SRC/tests"

cat >race.c <<'EOC'
#include <pthread.h>
static int x;
static void *f(void *a) { x++; return a; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); x++; pthread_join(t, 0); return x == 2 ? 0 : 3; }
EOC
$CC $TSAN_CFLAGS race.c -o race -lpthread 2>cc.err || { cat cc.err >&2; fail "cannot build with -fsanitize=thread"; }

export TSAN_OPTIONS="halt_on_error=1:exitcode=66"
TSAN_RUN=""
status=0
./race >race.out 2>&1 || status=$?
if [ "$status" != 66 ] && grep -q "FATAL: ThreadSanitizer" race.out; then
	command -v setarch >/dev/null || fail "TSan cannot run here and setarch is missing: $(head -3 race.out)"
	TSAN_RUN="setarch $(uname -m) -R"
	status=0
	$TSAN_RUN ./race >race.out 2>&1 || status=$?
fi
# TSan missed this race once in a loaded make check: three tries before
# concluding that it cannot see races here.
for _try in 1 2; do
	[ "$status" != 66 ] || break
	status=0
	$TSAN_RUN ./race >race.out 2>&1 || status=$?
done
if [ "$status" != 66 ] || ! grep -q "WARNING: ThreadSanitizer: data race" race.out; then
	cat race.out >&2
	fail "TSan does not catch a plain data race here (status $status)"
fi
