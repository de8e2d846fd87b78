# cli.sh - the `trax` session commands (trax(1)), without the real daemon:
# help and version; command-line errors (one "Error:" line, exit 2, and no
# request sent); then, against a fake daemon (data/fake-traxd-client.c) that
# logs every request and answers from a script, the exact keys each command
# sends (docs/daemon.md), how replies and refusals are printed, the current
# session file, starting the daemon, and `trax view` without a path.
. "$TRAX_SRC/tests/integration/lib.sh"

GOLDEN="$TRAX_SRC/tests/reader/golden"
# the fake daemon and the helpers t, expect_*, reply, start_fake, stop_fake
. "$TRAX_SRC/tests/integration/data/cli-fake.sh"

COMMANDS="create destroy set-session list status enable-channel disable-channel enable-event
disable-event add-context track untrack start stop snapshot view help version"

# --- help and version ---
for cmd in $COMMANDS; do
	t 0 "$cmd" --help
	grep -q "^Usage: trax $cmd" "$OUT" || fail "$LAST: no usage line naming $cmd"
	expect_err
	t 0 help "$cmd"
	grep -q "^Usage: trax $cmd" "$OUT" || fail "$LAST: no usage line naming $cmd"
done
for cmd in create destroy list enable-channel enable-event add-context start stop snapshot track; do
	t 0 "$cmd" -h
	grep -q "^Usage: trax $cmd" "$OUT" || fail "$LAST: no usage line"
done
t 0 snapshot record --help
grep -q "^Usage: trax snapshot record" "$OUT" || fail "$LAST: no usage line"
for h in help --help -h; do
	t 0 $h
	for cmd in $COMMANDS; do
		grep -q "^  $cmd " "$OUT" || fail "$LAST does not list $cmd"
	done
done
t 2
grep -q "^Usage: trax" "$ERR" || fail "trax alone: no usage on stderr"
t 0 version
grep -Eq '^trax [0-9]+\.[0-9]+\.[0-9]+$' "$OUT" || fail "trax version: $(cat "$OUT")"
t 0 --version
grep -Eq '^trax [0-9]' "$OUT" || fail "trax --version"
ok "help and version"

# --- command-line errors: exit 2, one Error: line, nothing sent ---
start_fake
printf 'session=s1\n' >"$RC"
while IFS= read -r args; do
	[ -n "$args" ] || continue
	eval "set -- $args"
	t 2 "$@"
	expect_one_error
	expect_log
done <<'EOF'
no-such-command
help no-such-command
create --bogus
create --bogus=1
create a b
create a/b
create -o
create --output
create -o x --no-output
create --snapshot=1
destroy a b
destroy --all s1
set-session
set-session a b
list a b
list -c ch
list -d
status extra
version extra
enable-channel -u
enable-channel ch1
enable-channel -u ch1 --bogus
enable-channel -u ch1 --subbuf-size
enable-channel -u ch1 --subbuf-size 3x
enable-channel -u ch1 --subbuf-size 0
enable-channel -u ch1 --subbuf-size -4k
enable-channel -u ch1 --subbuf-size 4kk
enable-channel -u ch1 --subbuf-size 99999999999G
enable-channel -u ch1 --subbuf-size 1
enable-channel -u ch1 --num-subbuf 0
enable-channel -u ch1 --num-subbuf x
enable-channel -u ch1 --num-subbuf 2k
enable-channel -u ch1 --switch-timer 1x
enable-channel -u ch1 --read-timer=-5
enable-channel -u ch1 --blocking-timeout forever
enable-channel -u ch1 --overwrite --blocking-timeout 10
enable-channel -u ch1 --overwrite --discard
enable-channel -u ch1 --buffers-uid --buffers-pid
enable-channel -u ch1 --tracefile-count 3
enable-channel -u ch1 --tracefile-size 1Q
enable-channel -u 'a,,b'
enable-channel -u a/b
enable-channel -u ch1 -s
disable-channel -u
disable-channel ch1
disable-channel -u ch1 --subbuf-size 4k
enable-event -u
enable-event 'a:*'
enable-event -u a --loglevel bogus
enable-event -u a --loglevel 15
enable-event -u a --loglevel -1
enable-event -u a --loglevel TRACE_
enable-event -u a --loglevel-only TRACE_NOPE
enable-event -u a --loglevel INFO --loglevel-only INFO
enable-event -u a --loglevel
enable-event -u -a a
enable-event -u a:b --exclude a:c
enable-event -u 'a:*' --exclude 'a:c,'
enable-event -u a -c
enable-event -u a -s a/b
disable-event -u
disable-event a
disable-event -u a --loglevel INFO
add-context -u
add-context -t vpid
add-context -u -t bogus
add-context -u -t vpid extra
add-context -u -t
start a b
start --bogus
stop a b
stop -x
snapshot
snapshot list-output
snapshot record a b
snapshot record http://host/x
snapshot record --bogus
track -u
track --vpid=1
track -u --vpid
track -u --vpid=x
track -u --vpid=-1
track -u --vuid=no-such-user-xyz
track -u --vpid=1 --all
track -u --vpid=1 2
untrack -u --bogus
untrack -u --all
EOF
ok "command-line errors: exit 2, one Error: line, no request"

# Rounding is a warning, as lttng does it, and the command goes on.
t 0 enable-channel -u ch1 --subbuf-size 3000
expect_err "Warning: The subbuf size (3000) is rounded to the next power of 2 (4096)"
expect_log "ENABLE_CHANNEL session=s1 name=ch1 subbuf_size=4096"
ok "sizes rounded up to a power of two with a warning"

# --- the daemon is not there ---
stop_fake
for args in "list" "create s1" "start" "stop" "destroy --all" "list -u" "status" "list s1" \
	"enable-event -u a" "snapshot record" "track -u --vpid=1" "set-session s1"; do
	t 1 $args
	expect_one_error
done
t 1 list
expect_err "Error: No session daemon is available"
t 1 create s1
expect_err "Error: No session daemon is available (TRAX_NO_AUTOSTART is set)"
ok "no daemon: exit 1, one Error: line"

# --- starting the daemon (TRAX_DAEMON_PATH stands for traxd) ---
(
	unset TRAX_NO_AUTOSTART
	export TRAX_DAEMON_PATH="$FAKE" FAKE_TRAXD_PIDFILE="$FAKE_PIDFILE"
	reply CREATE status=0 record=session name=s1 output=/traces/s1-1
	t 0 create s1
	expect_out "Spawning a session daemon" "Session s1 created." "Traces will be output to /traces/s1-1"
	expect_log "CREATE name=s1"
	# running now: not started again
	t 0 create s1
	expect_out "Session s1 created." "Traces will be output to /traces/s1-1"
	kill "$(cat "$FAKE_PIDFILE")"
	i=0
	while [ -S "$TRAX_RUNDIR/client.sock" ] && [ $i -lt 250 ]; do
		i=$((i + 1))
		sleep 0.02
	done
	rm -f "$FAKE_PIDFILE"
	export TRAX_DAEMON_PATH="$TEST_TMP/no-such-traxd"
	t 1 create s1
	grep -q "^Error: .*no-such-traxd" "$ERR" || fail "$LAST: $(cat "$ERR")"
	export TRAX_DAEMON_PATH=/bin/false
	t 1 create s1
	grep -q "^Error: The session daemon (/bin/false) failed to start" "$ERR" || fail "$LAST: $(cat "$ERR")"
) || exit 1
ok "the daemon is started when none answers (create), with clear errors otherwise"

start_fake
rm -f "$RC"

# --- create ---
reply CREATE status=0 record=session name=s1 output=/traces/s1-20261122-101010
t 0 create s1 -o rel/dir
expect_log "CREATE name=s1 output=$TEST_TMP/work/rel/dir"
expect_out "Session s1 created." "Traces will be output to /traces/s1-20261122-101010"
expect_file "$RC" ".traxrc" "session=s1"
t 0 create --output=/abs/out s1
expect_log "CREATE name=s1 output=/abs/out"
reply CREATE status=0 record=session name=auto-20261122-101010 output=/t/auto
t 0 create
expect_log "CREATE"
expect_out "Session auto-20261122-101010 created." "Traces will be output to /t/auto"
expect_file "$RC" ".traxrc" "session=auto-20261122-101010"
reply CREATE status=0 record=session name=snap output=/t/snap
t 0 create snap --snapshot
expect_log "CREATE name=snap snapshot=1"
expect_out "Snapshot session snap created." "Default snapshot output set to /t/snap"
reply CREATE status=0 record=session name=quiet output=/t/quiet snapshot=0
t 0 create quiet --no-output
expect_log "CREATE name=quiet no_output=1"
expect_out "Session quiet created."
reply CREATE "status=EEXIST" "error=Session name already exists"
t 1 create quiet
expect_one_error
expect_err "Error: Session name already exists"
expect_file "$RC" ".traxrc unchanged" "session=quiet"
ok "create: keys, output, current session"

# --- enable-channel / disable-channel ---
printf 'session=s1\n' >"$RC"
reply ENABLE_CHANNEL status=0
t 0 enable-channel -u ch1 --subbuf-size 8k --num-subbuf 3 --overwrite --buffers-pid \
	--switch-timer 100 --read-timer 2ms --tracefile-size 1M --tracefile-count 4
expect_log "ENABLE_CHANNEL session=s1 name=ch1 subbuf_size=8192 num_subbuf=4 overwrite=1 buffers=pid switch_timer=100 read_timer=2000 tracefile_size=1048576 tracefile_count=4"
expect_out "ust channel ch1 enabled for session s1"
expect_err "Warning: The number of subbuffers (3) is rounded to the next power of 2 (4)"
t 0 enable-channel --userspace --session=other c1,c2 --blocking-timeout inf --discard \
	--buffers-uid --subbuf-size=0x2000 --switch-timer=1s
expect_log "ENABLE_CHANNEL session=other name=c1 subbuf_size=8192 overwrite=0 buffers=uid switch_timer=1000000 blocking_timeout=-1" \
	"ENABLE_CHANNEL session=other name=c2 subbuf_size=8192 overwrite=0 buffers=uid switch_timer=1000000 blocking_timeout=-1"
expect_out "ust channel c1 enabled for session other" "ust channel c2 enabled for session other"
t 0 enable-channel -u ch9 --blocking-timeout 250 --subbuf-size 2M
expect_log "ENABLE_CHANNEL session=s1 name=ch9 subbuf_size=2097152 blocking_timeout=250"
t 0 enable-channel -u ch9 --subbuf-size 1G --read-timer 0
expect_log "ENABLE_CHANNEL session=s1 name=ch9 subbuf_size=1073741824 read_timer=0"
t 0 enable-channel -u ch0
expect_log "ENABLE_CHANNEL session=s1 name=ch0"
reply ENABLE_CHANNEL status=ENOENT "error=Session nosuch not found"
t 1 enable-channel -u -s nosuch ch1
expect_one_error
expect_err "Error: Session nosuch not found"
reply DISABLE_CHANNEL status=0
t 0 disable-channel -u ch1
expect_log "DISABLE_CHANNEL session=s1 name=ch1"
expect_out "ust channel ch1 disabled for session s1"
t 0 disable-channel -u -s s2 a,b
expect_log "DISABLE_CHANNEL session=s2 name=a" "DISABLE_CHANNEL session=s2 name=b"
ok "enable-channel, disable-channel"

# --- enable-event / disable-event ---
reply ENABLE_EVENT status=0
t 0 enable-event -u 'my_provider:*' -c ch1 --loglevel TRACE_INFO
expect_log "ENABLE_EVENT session=s1 channel=ch1 name=my_provider:* loglevel=6"
expect_out "ust event my_provider:* created in channel ch1"
t 0 enable-event --userspace 'my_provider:*'
expect_log "ENABLE_EVENT session=s1 name=my_provider:*"
expect_out "ust event my_provider:* created in channel channel0"
t 0 enable-event -u a --filter 'x == 1 && s == "a*"'
expect_log 'ENABLE_EVENT session=s1 name=a filter=x == 1 && s == "a*"'
expect_out "ust event a created in channel channel0" "Event a: Filter 'x == 1 && s == \"a*\"' successfully set"
t 0 enable-event -u a:b,c:d x:y --loglevel-only debug_line -s s2
expect_log "ENABLE_EVENT session=s2 name=a:b name=c:d name=x:y loglevel=13 loglevel_only=1"
expect_out "ust event a:b created in channel channel0" "ust event c:d created in channel channel0" \
	"ust event x:y created in channel channel0"
t 0 enable-event -u -a --loglevel 4
expect_log "ENABLE_EVENT session=s1 all=1 loglevel=4"
expect_out "All ust events are enabled in channel channel0 for loglevel 4"
t 0 enable-event -u --all --channel=ch2
expect_log "ENABLE_EVENT session=s1 channel=ch2 all=1"
expect_out "All ust events are enabled in channel ch2"
t 0 enable-event -u 'p:*' --exclude 'p:a,p:b' --exclude=p:c -c ch1
expect_log "ENABLE_EVENT session=s1 channel=ch1 name=p:* exclude=p:a exclude=p:b exclude=p:c"
expect_out 'ust event p:* excluding "p:a", "p:b", "p:c" created in channel ch1'
t 0 enable-event -u 'a\,b'
expect_log "ENABLE_EVENT session=s1 name=a,b"
# the channel is the one the daemon says the rules went to
reply ENABLE_EVENT status=0 record=event name=x:y channel=chan9 record=event name=x:z channel=chan9
t 0 enable-event -u x:y,x:z
expect_out "ust event x:y created in channel chan9" "ust event x:z created in channel chan9"
reply ENABLE_EVENT status=0
n=0
for lv in EMERG ALERT CRIT ERR WARNING NOTICE INFO DEBUG_SYSTEM DEBUG_PROGRAM DEBUG_PROCESS \
	DEBUG_MODULE DEBUG_UNIT DEBUG_FUNCTION DEBUG_LINE DEBUG; do
	for spelling in "TRACE_$lv" "$lv" "$(echo "trace_$lv" | tr 'A-Z' 'a-z')" "$n"; do
		t 0 enable-event -u a --loglevel "$spelling"
		expect_log "ENABLE_EVENT session=s1 name=a loglevel=$n"
	done
	n=$((n + 1))
done
reply ENABLE_EVENT status=ENOENT "error=Channel ch7 not found"
t 1 enable-event -u a -c ch7
expect_one_error
expect_err "Error: Channel ch7 not found"
reply DISABLE_EVENT status=0
t 0 disable-event -u a:b
expect_log "DISABLE_EVENT session=s1 channel=channel0 name=a:b"
expect_out "ust event a:b disabled in channel channel0 for session s1"
t 0 disable-event -u -a -c ch1
expect_log "DISABLE_EVENT session=s1 channel=ch1 all=1"
expect_out "All ust events are disabled in channel ch1"
t 0 disable-event -u --all-events -s s2
expect_log "DISABLE_EVENT session=s2 channel=channel0 all=1"
ok "enable-event, disable-event: names, wildcards, log levels, exclusions"

# --- add-context ---
reply ADD_CONTEXT status=0
t 0 add-context -u -t vpid -t procname
expect_log "ADD_CONTEXT session=s1 type=vpid type=procname"
expect_out "ust context vpid added to all channels" "ust context procname added to all channels"
t 0 add-context -u -c ch1 --type=ip -t vtid -t pthread_id -s s2
expect_log "ADD_CONTEXT session=s2 channel=ch1 type=ip type=vtid type=pthread_id"
expect_out "ust context ip added to channel ch1" "ust context vtid added to channel ch1" \
	"ust context pthread_id added to channel ch1"
t 0 add-context --list
expect_log
expect_out vpid vtid procname pthread_id ip
ok "add-context"

# --- start / stop ---
reply START status=0
t 0 start
expect_log "START session=s1"
expect_out "Tracing started for session s1"
reply START status=EBUSY "error=Tracing already started for session s1"
t 1 start
expect_one_error
expect_err "Error: Tracing already started for session s1"
reply STOP status=0
t 0 stop s2
expect_log "STOP session=s2"
expect_out "Waiting for data availability" "Tracing stopped for session s2"
reply STOP status=ENOENT "error=Session s9 not found"
t 1 stop s9
expect_out "Waiting for data availability"
expect_err "Error: Session s9 not found"
ok "start, stop"

# --- snapshot ---
reply SNAPSHOT_RECORD status=0 record=snapshot path=/t/snap/snapshot-1-20261122-101010-0
t 0 snapshot record
expect_log "SNAPSHOT_RECORD session=s1"
expect_out "Snapshot recorded successfully for session s1" \
	"Snapshot written at: /t/snap/snapshot-1-20261122-101010-0"
t 0 snapshot record -s s2 file:///abs/out
expect_log "SNAPSHOT_RECORD session=s2 output=/abs/out"
t 0 snapshot record --session=s2 rel
expect_log "SNAPSHOT_RECORD session=s2 output=$TEST_TMP/work/rel"
reply SNAPSHOT_RECORD status=EINVAL "error=Session s1 is not in snapshot mode"
t 1 snapshot record
expect_one_error
ok "snapshot record"

# --- track / untrack ---
reply TRACK status=0
t 0 track -u --vpid=123,456
expect_log "TRACK session=s1 kind=vpid value=123 value=456"
expect_out "Added 123 to the virtual process ID tracker inclusion set" \
	"Added 456 to the virtual process ID tracker inclusion set"
t 0 track -u --vpid 7 --vuid=0 -s s2
expect_log "TRACK session=s2 kind=vpid value=7" "TRACK session=s2 kind=vuid value=0"
t 0 track -u --vuid=root
expect_log "TRACK session=s1 kind=vuid value=0"
expect_out "Added root to the virtual user ID tracker inclusion set"
t 0 track -u --all --vuid
expect_log "TRACK session=s1 kind=vuid all=1"
expect_out 'Virtual user ID tracking policy set to `include all`'
reply UNTRACK status=0
t 0 untrack -u --vpid --all
expect_log "UNTRACK session=s1 kind=vpid all=1"
expect_out 'Virtual process ID tracking policy set to `exclude all`'
t 0 untrack -u --vpid=123
expect_log "UNTRACK session=s1 kind=vpid value=123"
expect_out "Removed 123 from the virtual process ID tracker inclusion set"
ok "track, untrack"

# --- list and status ---
reply LIST status=0
t 0 list
expect_log "LIST"
expect_out "Currently no available recording session"
reply LIST status=0 record=session name=s1 output=/o/s1 state=active snapshot=0 \
	record=session name=s2 output= state=inactive snapshot=1
t 0 list
expect_out "Available recording sessions:" "  1) s1 [active]" "    Trace output: /o/s1" "" \
	"  2) s2 [inactive snapshot]" "" "" "Use trax list <session_name> for more details"

SESSION_REPLY="status=0 record=session name=s1 output=/o/s1 state=active snapshot=0
record=channel name=channel0 enabled=1 subbuf_size=524288 num_subbuf=4 overwrite=0 buffers=uid switch_timer=0 read_timer=0 blocking_timeout=0 tracefile_size=0 tracefile_count=0 discarded=3 lost=0
record=channel name=ch1 enabled=0 subbuf_size=1048576 num_subbuf=8 overwrite=1 buffers=uid switch_timer=1000 read_timer=200 blocking_timeout=-1 tracefile_size=1073741824 tracefile_count=4 discarded=0 lost=2
record=event name=my_provider:* channel=channel0 enabled=1 loglevel=4 loglevel_only=0
record=event name=a:* channel=channel0 enabled=0 loglevel=13 loglevel_only=1 exclude=a:x exclude=a:y
record=event name=b:c channel=ch1 enabled=1 loglevel=-1 loglevel_only=0
record=context type=vpid channel=channel0
record=context type=procname channel=channel0
record=tracker kind=vpid value=456 value=123
record=tracker kind=vuid all=1"
# shellcheck disable=SC2086
reply LIST $SESSION_REPLY
cat >"$TEST_TMP/session.exp" <<'EOF'
Recording session s1: [active]
    Trace output: /o/s1

=== Domain: User space ===

Buffering scheme: per-user

Tracked process attributes
  Virtual process IDs:  456, 123
  Virtual user IDs:     all

Channels:
-------------
- channel0: [enabled]

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
      Discarded events: 3

    Context fields:
      vpid
      procname

    Recording event rules:
      my_provider:* (loglevel <= TRACE_WARNING (4)) (type: tracepoint) [enabled]
      a:* (loglevel == TRACE_DEBUG_LINE (13)) (type: tracepoint) [disabled] [exclusions: a:x,a:y]

- ch1: [disabled]

    Attributes:
      Event-loss mode:  overwrite
      Sub-buffer size:  1048576 bytes
      Sub-buffer count: 8
      Switch timer:     1000 us
      Read timer:       200 us
      Trace file count: 4 per stream
      Trace file size:  1073741824 bytes

    Statistics:
      Lost packets:     2

    Recording event rules:
      b:c (type: tracepoint) [enabled]

EOF
t 0 list s1
expect_log "LIST name=s1"
diff -u "$TEST_TMP/session.exp" "$OUT" >&2 || fail "$LAST: output"
t 0 list s1 -u
diff -u "$TEST_TMP/session.exp" "$OUT" >&2 || fail "$LAST: output"
# shellcheck disable=SC2086
reply STATUS $SESSION_REPLY
t 0 status
expect_log "STATUS session=s1"
diff -u "$TEST_TMP/session.exp" "$OUT" >&2 || fail "$LAST: output"
# shellcheck disable=SC2086
reply LIST $SESSION_REPLY
t 0 list -c ch1 s1
sed -n '1,13p;37,$p' "$TEST_TMP/session.exp" >"$TEST_TMP/ch1.exp"
diff -u "$TEST_TMP/ch1.exp" "$OUT" >&2 || fail "$LAST: output"
t 1 list -c nosuch s1
expect_err "Error: Channel nosuch not found"
t 0 list -d s1
expect_out "Recording session s1: [active]" "    Trace output: /o/s1" "" "Domains:" "-------------" \
	"  - UST global"
reply LIST status=0 record=session name=s3 output=/o/s3 state=inactive snapshot=0
t 0 list s3
expect_out "Recording session s3: [inactive]" "    Trace output: /o/s3" ""
reply LIST status=0 record=session name=sn output=/o/sn state=active snapshot=1 \
	record=channel name=channel0 enabled=1 subbuf_size=4096 num_subbuf=2 overwrite=1 buffers=pid \
	switch_timer=0 read_timer=0 blocking_timeout=0 tracefile_size=0 tracefile_count=0 discarded=0 lost=0
t 0 list sn
expect_out "Recording session sn: [active snapshot]" "    Trace output: /o/sn" "" \
	"=== Domain: User space ===" "" "Buffering scheme: per-process" "" \
	"Tracked process attributes" "  Virtual process IDs:  all" "  Virtual user IDs:     all" "" \
	"Channels:" "-------------" "- channel0: [enabled]" "" "    Attributes:" \
	"      Event-loss mode:  overwrite" "      Sub-buffer size:  4096 bytes" \
	"      Sub-buffer count: 2" "      Switch timer:     inactive" "      Read timer:       inactive" \
	"      Trace file count: 1 per stream" "      Trace file size:  unlimited" "" "    Statistics:" \
	"      None" "" "    Recording event rules:" "      None" ""
reply LIST status=ENOENT "error=Session nosuch not found"
t 1 list nosuch
expect_one_error
expect_err "Error: Session nosuch not found"

reply LIST status=0 record=app pid=1234 name=app uid=1000 \
	record=tracepoint name=my_provider:big_event loglevel=4 "fields=int int_field1, long stream_pos, double float_field, string string_field" \
	record=tracepoint name=my_provider:simple_event loglevel=13 "fields=string argc, int argv" \
	record=app pid=99 name=other uid=1000 \
	record=tracepoint name=other:ev loglevel=-1 fields=
t 0 list -u
expect_log "LIST domain=ust"
expect_out "UST events:" "-------------" "" "PID: 1234 - Name: app" \
	"      my_provider:big_event (loglevel: TRACE_WARNING (4)) (type: tracepoint)" \
	"      my_provider:simple_event (loglevel: TRACE_DEBUG_LINE (13)) (type: tracepoint)" "" \
	"PID: 99 - Name: other" "      other:ev (type: tracepoint)" ""
t 0 list --userspace --fields
expect_out "UST events:" "-------------" "" "PID: 1234 - Name: app" \
	"      my_provider:big_event (loglevel: TRACE_WARNING (4)) (type: tracepoint)" \
	"        field: int_field1 (int)" "        field: stream_pos (long)" \
	"        field: float_field (double)" "        field: string_field (string)" \
	"      my_provider:simple_event (loglevel: TRACE_DEBUG_LINE (13)) (type: tracepoint)" \
	"        field: argc (string)" "        field: argv (int)" "" \
	"PID: 99 - Name: other" "      other:ev (type: tracepoint)" ""
reply LIST status=0
t 0 list -u
expect_out "UST events:" "-------------" "None" ""
ok "list, status: formats of lttng list"

# --- set-session and destroy ---
reply LIST status=0 record=session name=s2 output=/o/s2 state=inactive snapshot=0
t 0 set-session s2
expect_log "LIST name=s2"
expect_out "Session set to s2"
expect_file "$RC" ".traxrc" "session=s2"
reply LIST status=ENOENT "error=Session nosuch not found"
t 1 set-session nosuch
expect_one_error
expect_file "$RC" ".traxrc unchanged" "session=s2"

reply DESTROY status=0 record=session name=s1
t 0 destroy s1
expect_log "DESTROY name=s1"
expect_out "Session s1 destroyed"
expect_file "$RC" ".traxrc kept (s1 was not current)" "session=s2"
reply DESTROY status=0 record=session name=s2
t 0 destroy
expect_log "DESTROY name=s2"
expect_out "Session s2 destroyed"
[ -e "$RC" ] && fail "destroying the current session left $RC"
t 1 start
expect_one_error
expect_err "Error: No session specified and no current session (create one with 'trax create')"
expect_log
for cmd in "stop" "destroy" "status" "snapshot record" "enable-event -u a" "enable-channel -u c" \
	"disable-event -u a" "disable-channel -u c" "add-context -u -t vpid" "track -u --vpid=1"; do
	# shellcheck disable=SC2086
	t 1 $cmd
	expect_one_error
	expect_log
done
printf 'session=s1\n' >"$RC"
reply DESTROY status=0 record=session name=s1 record=session name=s2
t 0 destroy --all
expect_log "DESTROY all=1"
expect_out "Session s1 destroyed" "Session s2 destroyed"
[ -e "$RC" ] && fail "destroy --all left $RC"
reply DESTROY status=0
t 0 destroy -a
expect_out "No session found, nothing to do."
reply DESTROY status=ENOENT "error=Session nosuch not found"
t 1 destroy nosuch
expect_one_error
ok "set-session, destroy, the current session file"

# --- replies that are not right ---
printf 'session=s1\n' >"$RC"
reply START status=EBUSY
t 1 start
expect_err "Error: Device or resource busy"
reply START status=EWEIRD
t 1 start
expect_err "Error: The session daemon refused the command (EWEIRD)"
reply START @seq=999 status=0
t 1 start
expect_err "Error: The session daemon sent an unexpected reply"
reply START @type=5 status=0
t 1 start
expect_err "Error: The session daemon sent an unexpected reply"
reply START error=no-status
t 1 start
expect_err "Error: The session daemon sent an unexpected reply"
reply START @close
t 1 start
expect_err "Error: The session daemon closed the connection"
reply START @garbage
t 1 start
expect_err "Error: The session daemon sent an invalid message"
ok "bad replies: one Error: line, exit 1"

# --- trax view without a path: the current session's output ---
reply LIST status=0 record=session name=s1 output="$GOLDEN/hm-types" state=inactive snapshot=0
t 0 view
expect_log "LIST name=s1"
"$TRAX" view "$GOLDEN/hm-types" >"$TEST_TMP/view.exp" 2>/dev/null
diff -u "$TEST_TMP/view.exp" "$OUT" >&2 || fail "trax view without a path: not the session's trace"
[ -s "$OUT" ] || fail "trax view without a path printed nothing"
t 0 view --count
expect_out "$("$TRAX" view --count "$GOLDEN/hm-types")"
reply LIST status=0 record=session name=s1 output= state=inactive snapshot=0
t 2 view
grep -q "^Error: no trace path given, and the current session s1 has no output directory" "$ERR" ||
	fail "$LAST: $(cat "$ERR")"
reply LIST status=ENOENT "error=Session s1 not found"
t 2 view
grep -q "^Error: .*Session s1 not found" "$ERR" || fail "$LAST: $(cat "$ERR")"
rm -f "$RC"
t 2 view
grep -q "^Error: no trace path given and no current session" "$ERR" || fail "$LAST: $(cat "$ERR")"
expect_log
stop_fake
printf 'session=s1\n' >"$RC"
t 2 view
grep -q "^Error: .*No session daemon is available" "$ERR" || fail "$LAST: $(cat "$ERR")"
ok "trax view without a path reads the current session's trace"
