#!/bin/sh
# kernel_syscall_guards.sh - system call filters checked by the BPF probes
# before they record (src/kernel/syscall-guard.c: guards), against the same
# filters run only after recording:
#  1. two sessions record read, getppid and close at once with filters on
#     fd, count, ret and the process name; in one, the probes' guard sets
#     (bpftool's dump of their map, while recording) hold what the filters
#     say of the registers, the return value and the thread's name; in the other each filter
#     has "|| (fd & 1) == 2" (always false, which no guard can say), so its
#     probes record every call. The workload (data/kernel/kguard-work.c)
#     makes calls the filters keep and calls they reject: both traces hold
#     exactly the same events, the ones the filters keep (counted per event),
#     with nothing lost.
#  2. TRAX_KERNEL_FILTER=after: a daemon that gives its probes no guards.
# Needs root, BPF, tracefs, bpftool and python3.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

need_kernel_tracefs
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
[ -x "$BPFTOOL" ] || fail "bpftool is needed"
command -v python3 >/dev/null || fail "python3 is needed"
command -v babeltrace2 >/dev/null || fail "babeltrace2 is needed"
cd "$TEST_TMP"
$CC -O1 -o kguard-work "$TRAX_SRC/tests/integration/data/kernel/kguard-work.c" ||
	fail "cannot build the workload"
P=$(pwd -P)
N=${KGUARD_ROUNDS:-2000}

# The guard sets of the probes of this test's traxd: one line per guards
# map, its sets (those with guards) as src:size:signed:lo-hi[,lo-hi]... separated by " / ".
guard_sets() {
	"$BPFTOOL" -j map show >maps.json || fail "bpftool map show"
	python3 - "$(daemon_pid)" "$BPFTOOL" <<'PY'
import glob, json, subprocess, sys
pid, tool = int(sys.argv[1]), sys.argv[2]
# the maps traxd holds: the map_id of its file descriptors
mine = set()
for f in glob.glob("/proc/%d/fdinfo/*" % pid):
    try:
        for line in open(f):
            if line.startswith("map_id:"):
                mine.add(int(line.split()[1]))
    except OSError:
        pass
for m in json.load(open("maps.json")):
    if m.get("name") != "guards" or m["id"] not in mine:
        continue
    dump = json.loads(subprocess.check_output([tool, "-j", "map", "dump", "id", str(m["id"])]))
    sets = []
    for e in dump:
        v = e["formatted"]["value"]
        if not v["n"]:
            continue
        gs = []
        for g in v["g"][: v["n"]]:
            if g["src"] == 9:  # the thread's name: its bytes under the mask, the mask's length
                b = b"".join((x & (2**64 - 1)).to_bytes(8, "little") for x in g["lo"])
                m = b"".join((x & (2**64 - 1)).to_bytes(8, "little") for x in g["hi"])
                n = len(m.rstrip(b"\0"))
                gs.append("comm:%s/%d" % (b[:n].rstrip(b"\0").decode(), n))
                continue
            r = ",".join("%d-%d" % (g["lo"][k], g["hi"][k]) for k in range(g["nranges"]))
            gs.append("%d:%d:%d:%s" % (g["src"], g["size"], g["is_signed"], r))
        sets.append(" ".join(gs))
    print(" / ".join(sorted(set(sets))) or "none")
PY
}

enable_all() { # SESSION SUFFIX: the three rules, each filter followed by SUFFIX
	trax enable-event -k -s "$1" --syscall read \
		--filter "\$ctx.procname == \"kguard-work\" && fd == 40 && count >= 100$2" >/dev/null 2>&1 ||
		fail "enable read in $1"
	trax enable-event -k -s "$1" --syscall getppid \
		--filter "\$ctx.procname == \"kguard-work\" && ret > 1$(echo "$2" | sed 's/fd/ret/')" \
		>/dev/null 2>&1 || fail "enable getppid in $1"
	trax enable-event -k -s "$1" --syscall close \
		--filter "\$ctx.procname == \"kguard-work\" && (fd == 42 || fd == 41)$2" >/dev/null 2>&1 ||
		fail "enable close in $1"
}

events_of() { # DIR: its events, name and fields, without time or CPU
	babeltrace2 "$1/kernel" >"$1.bt" 2>"$1.err" || { cat "$1.err"; fail "babeltrace2 cannot read $1"; }
	[ -s "$1.err" ] && check_fail "babeltrace2 warned on $1: $(head -3 "$1.err")"
	sed 's/^\[[^]]*\] ([^)]*) [^ ]* //; s/cpu_id = [0-9]*//' "$1.bt"
}

lost_of() { # SESSION: the channel's discarded events
	trax list "$1" | sed -n 's/.*[Dd]iscarded events: *\([0-9]*\).*/\1/p' | awk '{ n += $1 } END { print n + 0 }'
}

# ---- 1. the same filters, with guards and without ----
trax create kga --output="$P/a" >/dev/null || fail "create kga"
enable_all kga ""
trax create kgb --output="$P/b" >/dev/null || fail "create kgb"
enable_all kgb " || (fd & 1) == 2"
trax start kga >/dev/null || fail "start kga"
trax start kgb >/dev/null || fail "start kgb"
sets=$(guard_sets)
# each: the thread's name, its 11 bytes and NUL; read's entry: fd (unsigned
# int, register 0) 40, count (size_t, register 2) >= 100 (as a signed 64-bit
# integer, as the filter compares); getppid's exit: ret > 1; close's entry:
# fd 41 or 42 (one interval); the 32-bit calls' the same
want_read="comm:kguard-work/12 0:4:0:40-40 2:8:0:100-9223372036854775807"
want_ppid="comm:kguard-work/12 6:8:1:2-9223372036854775807"
want_close="comm:kguard-work/12 0:4:0:41-42"
expect_eq "$(echo "$sets" | grep -c .)" 2 "guards maps of the two sessions"
guarded=$(echo "$sets" | grep -v '^none$' || true)
expect_eq "$(echo "$sets" | grep -c '^none$')" 1 "sessions whose probes have no guard"
expect_eq "$guarded" "$want_read / $want_close / $want_ppid" "the guarded session's sets"
./kguard-work "$N" || fail "the workload failed"
trax stop kga >/dev/null || fail "stop kga"
trax stop kgb >/dev/null || fail "stop kgb"
[ "$(lost_of kga)" = 0 ] && [ "$(lost_of kgb)" = 0 ] ||
	check_fail "events discarded: $(lost_of kga) and $(lost_of kgb): the comparison means nothing"
events_of a >ev-a.txt
events_of b >ev-b.txt
cmp -s ev-a.txt ev-b.txt ||
	check_fail "the traces differ ($(wc -l <ev-a.txt) and $(wc -l <ev-b.txt) events): $(diff ev-a.txt ev-b.txt | head -6)"
count() { grep -c "^$1: " ev-a.txt || true; }
expect_eq "$(count syscall_entry_read)" "$N" "read entries (fd 40, 100 bytes)"
expect_eq "$(grep '^syscall_entry_read: ' ev-a.txt | grep -vc 'fd = 40, .*count = 100' || true)" 0 \
	"read entries of another fd or count"
expect_eq "$(count syscall_exit_read)" 0 "read exits (no fd: the filter is false)"
expect_eq "$(count syscall_entry_getppid)" 0 "getppid entries (no ret)"
expect_eq "$(count syscall_exit_getppid)" "$N" "getppid exits"
expect_eq "$(count syscall_entry_close)" "$N" "close entries (fd 42)"
expect_eq "$(count syscall_exit_close)" 0 "close exits"
expect_eq "$(wc -l <ev-a.txt)" $((3 * N)) "events in all"
ok "guards: the same $((3 * N)) events with and without them; the probes' sets: $guarded"
trax destroy kga >/dev/null
trax destroy kgb >/dev/null

# ---- 2. TRAX_KERNEL_FILTER=after: no guards ----
daemon_stop
TRAX_KERNEL_FILTER=after traxd -d >/dev/null 2>&1 || fail "traxd with TRAX_KERNEL_FILTER=after"
trax create kgc --output="$P/c" >/dev/null || fail "create kgc"
enable_all kgc ""
trax start kgc >/dev/null || fail "start kgc"
expect_eq "$(guard_sets)" "none" "guard sets with TRAX_KERNEL_FILTER=after"
./kguard-work 10 || fail "the workload failed"
trax stop kgc >/dev/null || fail "stop kgc"
expect_eq "$(events_of c | grep -c .)" 30 "events with the filters after only"
trax destroy kgc >/dev/null
ok "TRAX_KERNEL_FILTER=after: no guards, the filters after only"

[ "$errors" = 0 ] || fail "$errors check(s) failed"
