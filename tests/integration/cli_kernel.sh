# cli_kernel.sh - the kernel domain (-k) of the `trax` commands (trax(1)),
# without the real daemon: the help of each command names -k; command-line
# errors (one "Error:" line as lttng words it, exit 2, nothing sent); then,
# against the fake daemon (data/fake-traxd-client.c), the exact keys each
# command sends (docs/daemon.md, "Kernel domain"), what it prints, and how
# `trax list` prints the kernel's events, its system calls and a session's
# kernel domain. traxd's own kernel side is tested with the real daemon
# elsewhere; this needs neither root nor tracefs.
. "$TRAX_SRC/tests/integration/lib.sh"

# the fake daemon and the helpers t, expect_*, reply, start_fake, stop_fake
. "$TRAX_SRC/tests/integration/data/cli-fake.sh"

# --- the help of every command with a kernel domain names it ---
for cmd in enable-event disable-event enable-channel disable-channel add-context track \
	untrack list; do
	t 0 "$cmd" --help
	grep -q "^  -k, --kernel " "$OUT" || fail "$LAST: -k, --kernel not in the help"
	grep -Eq "^(Usage: | +)trax $cmd .*-k" "$OUT" || fail "$LAST: no usage line with -k"
done
t 0 enable-event --help
for word in --tracepoint --syscall; do
	grep -q "^      $word " "$OUT" || fail "$LAST: $word not in the help"
done
t 0 add-context --help
grep -q "pid, tid, ppid," "$OUT" || fail "$LAST: the kernel's context types are not listed"
ok "the help of each command documents -k"

# --- command-line errors: exit 2, one Error: line, nothing sent ---
start_fake
printf 'session=s1\n' >"$RC"
# each line: the arguments, a tab, the exact error
while IFS="	" read -r args msg; do
	[ -n "$args" ] || continue
	eval "set -- $args"
	t 2 "$@"
	expect_one_error
	expect_log
	[ -z "$msg" ] || expect_err "Error: $msg"
done <<'EOF'
enable-event a	Please specify a domain (-k/-u)
enable-event -u -k a	Only one domain can be specified
enable-event --kernel --userspace -a	Only one domain can be specified
enable-event -k sched_switch --loglevel INFO	Kernel loglevels are not supported.
enable-event -k sched_switch --loglevel-only 3	Kernel loglevels are not supported.
enable-event -k 'sched_*' --exclude sched_switch	Event name exclusions are not yet implemented for kernel events
enable-event -k --syscall --tracepoint openat	Multiple event type not supported.
enable-event -u --syscall openat	Event type not available for user-space tracing
enable-event -u --tracepoint a:b	Event type not available for user-space tracing
enable-event -k	Missing event name(s) (see 'trax enable-event --help')
enable-event -k --syscall	Missing event name(s) (see 'trax enable-event --help')
enable-event -k -a openat	Give event names or --all, not both
enable-event -k a -c a/b	Invalid character '/' in channel name 'a/b'
enable-event -k --syscall=1 a	Option '--syscall' takes no value (see 'trax enable-event --help')
disable-event a	Please specify a domain (-k/-u)
disable-event -k -u a	Only one domain can be specified
disable-event -k --tracepoint a	Unknown option '--tracepoint' (see 'trax disable-event --help')
disable-event -u --syscall a	Event type not available for user-space tracing
disable-event -k --loglevel INFO a	Unknown option '--loglevel' (see 'trax disable-event --help')
disable-event -k --syscall	Missing event name(s) (see 'trax disable-event --help')
enable-channel ch	Please specify a domain (-k/-u)
enable-channel -k -u ch	Only one domain can be specified
enable-channel -k --buffers-pid ch	Buffer type not supported for domain -k
enable-channel -k --buffers-uid ch	Buffer type not supported for domain -k
enable-channel -k --blocking-timeout 10 ch	Retry timeout option not supported for kernel domain (-k)
enable-channel -k --blocking-timeout inf ch	Retry timeout option not supported for kernel domain (-k)
enable-channel -k --subbuf-size 0 ch	Wrong value in --subbuf-size parameter: 0
enable-channel -k --overwrite --discard ch	--overwrite and --discard cannot be used together
enable-channel -k	Missing channel name (see 'trax enable-channel --help')
disable-channel -k -u ch	Only one domain can be specified
disable-channel -k --subbuf-size 4k ch	Unknown option '--subbuf-size' (see 'trax disable-channel --help')
add-context -t pid	Please specify a domain (-k/-u)
add-context -k -u -t pid	Only one domain can be specified
add-context -k -t pthread_id	Unknown context type pthread_id
add-context -k -t ip	Unknown context type ip
add-context -u -t hostname	Unknown context type hostname
add-context -k -t perf:cpu:nope	Unknown context type perf:cpu:nope
add-context -k -t perf:thread:page-fault	Unknown context type perf:thread:page-fault
add-context -u -t perf:cpu:page-fault	Unknown context type perf:cpu:page-fault
add-context -k	Missing context type: give -t TYPE (see 'trax add-context --help')
track --pid=1	Please specify a domain (-k/-u)
track -k -u --pid=1	Only one domain can be specified
track -k --vpid=1	The kernel domain tracks process, user and group IDs (--pid, --uid, --gid)
track -k --vuid=0	The kernel domain tracks process, user and group IDs (--pid, --uid, --gid)
track -u --pid=1	--pid, --uid and --gid are for the kernel domain (-k); with -u, use --vpid or --vuid
track -u --uid=0	--pid, --uid and --gid are for the kernel domain (-k); with -u, use --vpid or --vuid
track -k --uid=no-such-user-xyz	Unknown user 'no-such-user-xyz' in --uid
track -k --gid=no-such-group-xyz	Unknown group 'no-such-group-xyz' in --gid
track -k --uid	Missing values for --uid (give --uid=VALUE[,VALUE]... or --all)
track -k	Missing --pid, --uid or --gid (see 'trax track --help')
track -k --pid	Missing values for --pid (give --pid=VALUE[,VALUE]... or --all)
track -k --pid=x	Wrong value in --pid parameter: x
track -k --pid=-1	Wrong value in --pid parameter: -1
track -k --pid=1 --all	--all and --pid values cannot be used together
untrack -k --vpid --all	The kernel domain tracks process, user and group IDs (--pid, --uid, --gid)
list -k -u	Only one domain can be specified
list --syscall	--syscall needs -k and no session (see 'trax list --help')
list -u --syscall	--syscall needs -k and no session (see 'trax list --help')
list -k --syscall s1	--syscall needs -k and no session (see 'trax list --help')
list -k -u s1	Only one domain can be specified
EOF
ok "kernel command-line errors: exit 2, lttng's one-line errors, no request"

# --- enable-event -k ---
reply ENABLE_EVENT status=0
t 0 enable-event -k sched_switch,sched_wakeup
expect_log "ENABLE_EVENT session=s1 domain=kernel name=sched_switch name=sched_wakeup"
expect_out "kernel event sched_switch created in channel channel0" \
	"kernel event sched_wakeup created in channel channel0"
expect_err
t 0 enable-event --kernel --tracepoint 'sched_*' -c ch1 -s s2
expect_log "ENABLE_EVENT session=s2 domain=kernel channel=ch1 name=sched_*"
expect_out "kernel event sched_* created in channel ch1"
t 0 enable-event -k --syscall openat,close read
expect_log "ENABLE_EVENT session=s1 domain=kernel name=openat name=close name=read syscall=1"
expect_out "kernel event openat created in channel channel0" \
	"kernel event close created in channel channel0" "kernel event read created in channel channel0"
# -a alone: every tracepoint and every system call, as lttng does: two rules
t 0 enable-event -k -a
expect_log "ENABLE_EVENT session=s1 domain=kernel all=1" \
	"ENABLE_EVENT session=s1 domain=kernel all=1 syscall=1"
expect_out "All kernel events are enabled in channel channel0"
t 0 enable-event -k --all --tracepoint -c ch2
expect_log "ENABLE_EVENT session=s1 domain=kernel channel=ch2 all=1"
expect_out "All kernel tracepoints are enabled in channel ch2"
t 0 enable-event -k -a --syscall
expect_log "ENABLE_EVENT session=s1 domain=kernel all=1 syscall=1"
expect_out "All kernel system calls are enabled in channel channel0"
# '*' without a type is every tracepoint and every system call too
t 0 enable-event -k '*'
expect_log "ENABLE_EVENT session=s1 domain=kernel name=*" \
	"ENABLE_EVENT session=s1 domain=kernel name=* syscall=1"
expect_out "kernel event * created in channel channel0"
t 0 enable-event -k --syscall '*'
expect_log "ENABLE_EVENT session=s1 domain=kernel name=* syscall=1"
t 0 enable-event -k sched_switch --filter 'prev_tid == 0'
expect_log "ENABLE_EVENT session=s1 domain=kernel name=sched_switch filter=prev_tid == 0"
expect_out "kernel event sched_switch created in channel channel0" \
	"Event sched_switch: Filter 'prev_tid == 0' successfully set"
t 0 enable-event -k -a -f 'x > 1'
expect_log "ENABLE_EVENT session=s1 domain=kernel all=1 filter=x > 1" \
	"ENABLE_EVENT session=s1 domain=kernel all=1 syscall=1 filter=x > 1"
expect_out "All kernel events are enabled in channel channel0" "Event *: Filter 'x > 1' successfully set"
# the channel is the one the daemon says the rules went to
reply ENABLE_EVENT status=0 record=event name=sched_switch channel=kchan
t 0 enable-event -k sched_switch
expect_out "kernel event sched_switch created in channel kchan"
# a refusal: one error, exit 1, and no second request after a first refused
reply ENABLE_EVENT status=EPERM "error=The kernel domain needs root's daemon"
t 1 enable-event -k -a
expect_one_error
expect_err "Error: The kernel domain needs root's daemon"
expect_log "ENABLE_EVENT session=s1 domain=kernel all=1"
reply ENABLE_EVENT status=EINVAL "error=Filters are not supported in the kernel domain"
t 1 enable-event -k a --filter 'x == 1'
expect_err "Error: Filters are not supported in the kernel domain"
# user space is unchanged: no domain key
reply ENABLE_EVENT status=0
t 0 enable-event -u 'p:*'
expect_log "ENABLE_EVENT session=s1 name=p:*"
expect_out "ust event p:* created in channel channel0"
ok "enable-event -k: names, --tracepoint, --syscall, --all, filters"

# --- disable-event -k ---
reply DISABLE_EVENT status=0
t 0 disable-event -k sched_switch
expect_log "DISABLE_EVENT session=s1 domain=kernel channel=channel0 name=sched_switch"
expect_out "kernel event sched_switch disabled in channel channel0 for session s1"
t 0 disable-event -k --syscall openat,close -c ch1 -s s2
expect_log "DISABLE_EVENT session=s2 domain=kernel channel=ch1 name=openat name=close syscall=1"
expect_out "kernel system call openat disabled in channel ch1 for session s2" \
	"kernel system call close disabled in channel ch1 for session s2"
t 0 disable-event -k -a
expect_log "DISABLE_EVENT session=s1 domain=kernel channel=channel0 all=1" \
	"DISABLE_EVENT session=s1 domain=kernel channel=channel0 all=1 syscall=1"
expect_out "All kernel events are disabled in channel channel0"
t 0 disable-event -k --all-events --syscall -c ch1
expect_log "DISABLE_EVENT session=s1 domain=kernel channel=ch1 all=1 syscall=1"
expect_out "All kernel system calls are disabled in channel ch1"
ok "disable-event -k: names, --syscall, --all"

# --- enable-channel / disable-channel -k ---
reply ENABLE_CHANNEL status=0
t 0 enable-channel -k kch --subbuf-size 256k --num-subbuf 3 --overwrite --switch-timer 100ms \
	--read-timer 2ms --tracefile-size 1M --tracefile-count 2
expect_log "ENABLE_CHANNEL session=s1 domain=kernel name=kch subbuf_size=262144 num_subbuf=4 overwrite=1 switch_timer=100000 read_timer=2000 tracefile_size=1048576 tracefile_count=2"
expect_out "kernel channel kch enabled for session s1"
expect_err "Warning: The number of subbuffers (3) is rounded to the next power of 2 (4)"
t 0 enable-channel --kernel -s s2 a,b --discard
expect_log "ENABLE_CHANNEL session=s2 domain=kernel name=a overwrite=0" \
	"ENABLE_CHANNEL session=s2 domain=kernel name=b overwrite=0"
expect_out "kernel channel a enabled for session s2" "kernel channel b enabled for session s2"
reply ENABLE_CHANNEL status=EPERM "error=Kernel tracing needs root's daemon (traxd run as root)"
t 1 enable-channel -k kch
expect_one_error
expect_err "Error: Kernel tracing needs root's daemon (traxd run as root)"
reply DISABLE_CHANNEL status=0
t 0 disable-channel -k kch
expect_log "DISABLE_CHANNEL session=s1 domain=kernel name=kch"
expect_out "kernel channel kch disabled for session s1"
ok "enable-channel -k, disable-channel -k"

# --- add-context -k ---
reply ADD_CONTEXT status=0
t 0 add-context -k -t pid -t procname -t hostname
expect_log "ADD_CONTEXT session=s1 domain=kernel type=pid type=procname type=hostname"
expect_out "kernel context pid added to all channels" "kernel context procname added to all channels" \
	"kernel context hostname added to all channels"
t 0 add-context --kernel -c ch1 --type=tid -t ppid -t vpid -t vtid -t prio -t nice -t cpu_id
expect_log "ADD_CONTEXT session=s1 domain=kernel channel=ch1 type=tid type=ppid type=vpid type=vtid type=prio type=nice type=cpu_id"
expect_out "kernel context tid added to channel ch1" "kernel context ppid added to channel ch1" \
	"kernel context vpid added to channel ch1" "kernel context vtid added to channel ch1" \
	"kernel context prio added to channel ch1" "kernel context nice added to channel ch1" \
	"kernel context cpu_id added to channel ch1"
t 0 add-context -k --list
expect_log
# then the per-CPU counters this machine can open: its software ones at least
grep '^perf:cpu:' "$OUT" >perf.txt || true
grep -qx 'perf:cpu:page-fault' perf.txt && grep -qx 'perf:cpu:cpu-clock' perf.txt ||
	fail "add-context -k --list: no perf:cpu:page-fault or cpu-clock: $(cat "$OUT")"
grep -v '^perf:cpu:' "$OUT" >std.txt || true
mv std.txt "$OUT"
expect_out pid tid ppid vpid vtid procname prio nice cpu_id hostname
t 0 add-context --list
expect_out vpid vtid procname pthread_id ip
ok "add-context -k"

# --- track / untrack -k ---
reply TRACK status=0
t 0 track -k --pid=123,456
expect_log "TRACK session=s1 domain=kernel kind=pid value=123 value=456"
expect_out "Added 123 to the process ID tracker inclusion set" \
	"Added 456 to the process ID tracker inclusion set"
t 0 track --kernel --pid 7 -s s2
expect_log "TRACK session=s2 domain=kernel kind=pid value=7"
t 0 track -k --all --pid
expect_log "TRACK session=s1 domain=kernel kind=pid all=1"
expect_out 'Process ID tracking policy set to `include all`'
t 0 track -k --uid=65534,root
expect_log "TRACK session=s1 domain=kernel kind=uid value=65534 value=0"
expect_out "Added 65534 to the user ID tracker inclusion set" \
	"Added root to the user ID tracker inclusion set"
t 0 track -k --gid=root
expect_log "TRACK session=s1 domain=kernel kind=gid value=0"
t 0 track -k --all --uid
expect_log "TRACK session=s1 domain=kernel kind=uid all=1"
expect_out 'User ID tracking policy set to `include all`'
reply UNTRACK status=0
t 0 untrack -k --pid=123
expect_log "UNTRACK session=s1 domain=kernel kind=pid value=123"
expect_out "Removed 123 from the process ID tracker inclusion set"
t 0 untrack -k --pid --all
expect_log "UNTRACK session=s1 domain=kernel kind=pid all=1"
expect_out 'Process ID tracking policy set to `exclude all`'
ok "track -k, untrack -k"

# --- list -k, list -k --syscall ---
reply LIST status=0 record=tracepoint name=sched_switch fields= \
	record=tracepoint name=sched_wakeup "fields=char[16] comm, int pid" \
	record=tracepoint name=lttng_statedump_* fields=
t 0 list -k
expect_log "LIST domain=kernel"
expect_out "Kernel events:" "-------------" \
	"      sched_switch (loglevel: TRACE_EMERG (0)) (type: tracepoint)" \
	"      sched_wakeup (loglevel: TRACE_EMERG (0)) (type: tracepoint)" \
	"      lttng_statedump_* (loglevel: TRACE_EMERG (0)) (type: tracepoint)" ""
t 0 list --kernel --fields
expect_out "Kernel events:" "-------------" \
	"      sched_switch (loglevel: TRACE_EMERG (0)) (type: tracepoint)" \
	"      sched_wakeup (loglevel: TRACE_EMERG (0)) (type: tracepoint)" \
	"        field: comm (char[16])" "        field: pid (int)" \
	"      lttng_statedump_* (loglevel: TRACE_EMERG (0)) (type: tracepoint)" ""
bits=$(($(getconf LONG_BIT)))
reply LIST status=0 record=tracepoint name=openat "fields=int dfd, const char * filename, int flags, umode_t mode" \
	record=tracepoint name=close "fields=unsigned int fd"
t 0 list -k --syscall
expect_log "LIST domain=kernel syscall=1"
expect_out "System calls:" "-------------" "      openat [$bits-bit]" "      close [$bits-bit]" ""
t 0 list -k --syscall -f
expect_out "System calls:" "-------------" "      openat [$bits-bit]" "        field: dfd (int)" \
	"        field: filename (const char *)" "        field: flags (int)" \
	"        field: mode (umode_t)" "      close [$bits-bit]" "        field: fd (unsigned int)" ""
# the ABIs traxd says each call is traced in
reply LIST status=0 record=tracepoint name=openat fields= bits=32/64 \
	record=tracepoint name=llseek fields= bits=32 record=tracepoint name=mmap fields= bits=64
t 0 list -k --syscall
expect_out "System calls:" "-------------" "      openat [32/64-bit]" "      llseek [32-bit]" \
	"      mmap [64-bit]" ""
reply LIST status=ENOTSUP "error=Cannot list the kernel's events: tracefs is not mounted"
t 1 list -k
expect_one_error
expect_err "Error: Cannot list the kernel's events: tracefs is not mounted"
ok "list -k, list -k --syscall: lttng's formats"

# --- a session with a kernel domain ---
KSESSION="status=0 record=session name=s1 output=/o/s1 state=active snapshot=0
record=kchannel name=channel0 enabled=1 subbuf_size=1048576 num_subbuf=4 overwrite=0 switch_timer=0 read_timer=200000 tracefile_size=0 tracefile_count=0 discarded=7 lost=0
record=kchannel name=kring enabled=0 subbuf_size=262144 num_subbuf=8 overwrite=1 switch_timer=0 read_timer=200000 tracefile_size=0 tracefile_count=0 discarded=0 lost=1
record=kevent channel=channel0 kind=tracepoint name=sched_switch
record=kevent channel=channel0 kind=syscall name=openat enabled=1
record=kevent channel=channel0 kind=tracepoint name=sched_wakeup enabled=0 filter=pid==1
record=kevent channel=kring kind=syscall name=*
record=kcontext type=pid channel=channel0
record=kcontext type=procname
record=ktracker kind=pid value=1 value=42
record=channel name=uch enabled=1 subbuf_size=524288 num_subbuf=4 overwrite=0 buffers=uid switch_timer=0 read_timer=0 blocking_timeout=0 tracefile_size=0 tracefile_count=0 discarded=0 lost=0
record=event name=p:* channel=uch enabled=1 loglevel=-1 loglevel_only=0"
cat >"$TEST_TMP/kernel.exp" <<'EOF'
=== Domain: Linux kernel ===

Tracked process attributes
  Process IDs:          1, 42
  User IDs:             all
  Group IDs:            all

Channels:
-------------
- channel0: [enabled]

    Attributes:
      Event-loss mode:  discard
      Sub-buffer size:  1048576 bytes
      Sub-buffer count: 4
      Switch timer:     inactive
      Read timer:       200000 us
      Blocking timeout: 0 us
      Trace file count: 1 per stream
      Trace file size:  unlimited

    Statistics:
      Discarded events: 7

    Context fields:
      pid
      procname

    Recording event rules:
      sched_switch (loglevel: TRACE_EMERG (0)) (type: tracepoint) [enabled]
      openat (type:syscall) [enabled]
      sched_wakeup (loglevel: TRACE_EMERG (0)) (type: tracepoint) [disabled] [filter: 'pid==1']

- kring: [disabled]

    Attributes:
      Event-loss mode:  overwrite
      Sub-buffer size:  262144 bytes
      Sub-buffer count: 8
      Switch timer:     inactive
      Read timer:       200000 us
      Trace file count: 1 per stream
      Trace file size:  unlimited

    Statistics:
      Lost packets:     1

    Context fields:
      procname

    Recording event rules:
      * (type:syscall) [enabled]

EOF
cat >"$TEST_TMP/ust.exp" <<'EOF'
=== Domain: User space ===

Buffering scheme: per-user

Tracked process attributes
  Virtual process IDs:  all
  Virtual user IDs:     all

Channels:
-------------
- uch: [enabled]

    Attributes:
      Event-loss mode:  discard
      Sub-buffer size:  524288 bytes
      Sub-buffer count: 4
      Switch timer:     inactive
      Read timer:       inactive
      Blocking timeout: 0 us
      Trace file count: 1 per stream
      Trace file size:  unlimited

    Statistics:
      Discarded events: 0

    Recording event rules:
      p:* (type: tracepoint) [enabled]

EOF
printf 'Recording session s1: [active]\n    Trace output: /o/s1\n\n' >"$TEST_TMP/head.exp"
cat "$TEST_TMP/head.exp" "$TEST_TMP/kernel.exp" "$TEST_TMP/ust.exp" >"$TEST_TMP/both.exp"
cat "$TEST_TMP/head.exp" "$TEST_TMP/kernel.exp" >"$TEST_TMP/konly.exp"
cat "$TEST_TMP/head.exp" "$TEST_TMP/ust.exp" >"$TEST_TMP/uonly.exp"
# shellcheck disable=SC2086
reply LIST $KSESSION
t 0 list s1
expect_log "LIST name=s1"
diff -u "$TEST_TMP/both.exp" "$OUT" >&2 || fail "$LAST: output"
t 0 list -k s1
diff -u "$TEST_TMP/konly.exp" "$OUT" >&2 || fail "$LAST: output"
t 0 list s1 --userspace
diff -u "$TEST_TMP/uonly.exp" "$OUT" >&2 || fail "$LAST: output"
t 0 list -c kring s1
sed -n '1,12p;/^- kring:/,$p' "$TEST_TMP/konly.exp" >"$TEST_TMP/kring.exp"
# the kernel channel, then the user-space domain's header without its channel
{
	cat "$TEST_TMP/kring.exp"
	sed -n '1,10p' "$TEST_TMP/ust.exp"
} >"$TEST_TMP/kring-all.exp"
diff -u "$TEST_TMP/kring-all.exp" "$OUT" >&2 || fail "$LAST: output"
t 0 list -k -c kring s1
diff -u "$TEST_TMP/kring.exp" "$OUT" >&2 || fail "$LAST: output"
t 1 list -u -c kring s1
expect_err "Error: Channel kring not found"
t 0 list -d s1
expect_out "Recording session s1: [active]" "    Trace output: /o/s1" "" "Domains:" "-------------" \
	"  - Kernel" "  - UST global"
# shellcheck disable=SC2086
reply STATUS $KSESSION
t 0 status
expect_log "STATUS session=s1"
diff -u "$TEST_TMP/both.exp" "$OUT" >&2 || fail "$LAST: output"
# a kernel domain with only a tracker set, and one with only a channel
reply LIST status=0 record=session name=s2 output=/o/s2 state=inactive snapshot=0 \
	record=ktracker kind=pid record=ktracker kind=uid value=65534 value=0 record=ktracker kind=gid
t 0 list s2
expect_out "Recording session s2: [inactive]" "    Trace output: /o/s2" "" \
	"=== Domain: Linux kernel ===" "" "Tracked process attributes" "  Process IDs:          none" \
	"  User IDs:             65534, 0" "  Group IDs:            none" ""
t 0 list -d s2
expect_out "Recording session s2: [inactive]" "    Trace output: /o/s2" "" "Domains:" "-------------" \
	"  - Kernel"
reply LIST status=0 record=session name=s3 output=/o/s3 state=inactive snapshot=1 \
	record=kchannel name=channel0 overwrite=1 subbuf_size=4096 num_subbuf=2 read_timer=200000
t 0 list s3
expect_out "Recording session s3: [inactive snapshot]" "    Trace output: /o/s3" "" \
	"=== Domain: Linux kernel ===" "" "Tracked process attributes" "  Process IDs:          all" \
	"  User IDs:             all" "  Group IDs:            all" "" "Channels:" "-------------" "- channel0: [enabled]" "" "    Attributes:" \
	"      Event-loss mode:  overwrite" "      Sub-buffer size:  4096 bytes" \
	"      Sub-buffer count: 2" "      Switch timer:     inactive" "      Read timer:       200000 us" \
	"      Trace file count: 1 per stream" "      Trace file size:  unlimited" "" "    Statistics:" \
	"      None" "" "    Recording event rules:" "      None" ""
t 0 list -u s3
expect_out "Recording session s3: [inactive snapshot]" "    Trace output: /o/s3" ""
ok "list SESSION, status: the kernel domain as lttng lists it"
