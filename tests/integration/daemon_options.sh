#!/bin/sh
# daemon_options.sh - the options of enable-event, add-context,
# enable-channel, track/untrack and `list -u`, end to end: the real traxd,
# a real traced program (data/daemon/opts_app.c: two providers, one event
# per log level, two threads), and every trace read back with babeltrace2
# and compared with what the program says it emitted.
#
#   A. enable-event: 'opts:*', an exact name, -a, --loglevel,
#      --loglevel-only (also TRACE_DEBUG_LINE, the level of events without
#      one), --exclude (also two rules of one pattern with different
#      exclusions), -c into two channels (each channel's files hold its
#      events only), disable-event between two runs; add-context vpid,
#      vtid, procname, pthread_id, ip with the values the program printed.
#      Eleven sessions recording the same run at once.
#   B. --buffers-pid: one directory per process under ust/pid/, each with
#      its metadata and all that process's events; track/untrack --vpid,
#      track --vuid (a process of another user, as root).
#   C. --subbuf-size/--num-subbuf (rounded up) and the other attributes as
#      `trax list SESSION` shows them; --tracefile-size/--tracefile-count:
#      files rotated, at most COUNT per CPU, none above SIZE, readable, the
#      newest events kept; --discard and --overwrite with 8 KiB of buffers
#      filled while the daemon is stopped (SIGSTOP), one thread on one CPU:
#      discard keeps the oldest and counts the rest, overwrite keeps the
#      newest (also outside snapshot mode, as lttng does) and counts the
#      packets lost.
#   D. --switch-timer: the events of a program that then sleeps are on
#      disk and readable while the session is active; `trax list -u [-f]`
#      while it runs, in lttng list -u's format.
#
# The sections' checks are independent: a failed one is reported and the
# others still run; the test fails at the end if any did.
. "$TRAX_SRC/tests/integration/lib.sh"
. "$TRAX_SRC/tests/integration/data/daemon/env.sh"

DATA=$TRAX_SRC/tests/integration/data/daemon
OUT=$TEST_TMP/out
# more than 15 characters: LTTng's procname (16 bytes with the NUL) cuts it
PROG=opts-app-with-a-long-name
PROCNAME=opts-app-with-a
UOTHER=12345
chmod 755 "$TEST_TMP"
mkdir -p "$OUT" "$TEST_TMP/sync"
chmod 1777 "$TEST_TMP/sync"
cd "$TEST_TMP"
$CC $TRAX_CFLAGS -I"$DATA" -o "$PROG" "$DATA/opts_app.c" "$DATA/opts_tp.c" $TRAX_LDFLAGS \
	-ltrax-ust -ldl -lpthread
chmod 755 "$PROG"

# programs left waiting at a gate, and a stopped daemon, when a check ends
# the test early
BG=
trap 'kill -CONT "$(daemon_pid)" 2>/dev/null || true; kill $BG 2>/dev/null || true
	daemon_stop; rm -rf "$TEST_TMP"' EXIT INT TERM

FAILED=0
# bad WHAT: one failed check; the test goes on and fails at the end.
bad() {
	echo "FAIL: $*" >&2
	FAILED=$((FAILED + 1))
}

ALL_OPTS="opts:emerg opts:crit opts:warning opts:notice opts:info opts:noisy opts:debug opts:nolevel"
OTHER=opts_other:event

# expected RUN ROUNDS THREADS NAME...: "NAME RUN THREAD SEQ" for every event
# the program emits with these names, sorted.
expected() {
	awk -v run="$1" -v r="$2" -v nt="$3" 'BEGIN {
		for (i = 4; i < ARGC; i++)
			for (t = 0; t < nt; t++)
				for (s = 0; s < r; s++)
					print ARGV[i], run, t, s
	}' "$@" | sort
}

# recorded DIR...: "NAME RUN THREAD SEQ" for every event babeltrace2 reads,
# sorted; lines it prints that are not such an event too, as "?? LINE".
recorded() {
	bt2 "$@" >"$TEST_TMP/rec.txt"
	sed -n -e 's/^.* \([a-z_]*:[a-z_]*\): {.*{ run = \([0-9]*\), thread = \([0-9]*\), seq = \([0-9]*\).*/\1 \2 \3 \4/p' \
		-e 't' -e 's/^/?? /p' "$TEST_TMP/rec.txt" | sort
}

# same_events WHAT GOT WANT: the two sorted lists are equal.
same_events() {
	if cmp -s "$2" "$3"; then
		return 0
	fi
	bad "$1: $(wc -l <"$2") events recorded, $(wc -l <"$3") expected; differences (< recorded, > expected):
$(diff "$2" "$3" | grep '^[<>]' | head -n 8)"
	return 1
}

# no_warning WHAT: babeltrace2's last run printed nothing on stderr.
no_warning() {
	[ ! -s "$TEST_TMP/bt2.err" ] || bad "$1: babeltrace2 warned: $(head -c 300 "$TEST_TMP/bt2.err")"
}

# wait_file FILE: up to 10 s.
wait_file() {
	for _ in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	fail "$1 did not appear"
}

t_begin=$(date +%s%N)

# ---------------------------------------------------------------- A
R=40
SA="wild exact all level only only13 excl excl2 chans ctx dis"
for s in $SA; do
	trax create "$s" --output="$OUT/$s" >/dev/null || fail "trax create $s"
done
trax enable-event -u -s wild 'opts:*' >/dev/null || fail "enable-event 'opts:*'"
trax enable-event -u -s exact opts:warning >/dev/null || fail "enable-event opts:warning"
trax enable-event -u -s all -a >/dev/null || fail "enable-event -a"
trax enable-event -u -s level -a --loglevel=TRACE_WARNING >/dev/null ||
	fail "enable-event --loglevel=TRACE_WARNING"
trax enable-event -u -s only 'opts:*' --loglevel-only=TRACE_INFO >/dev/null ||
	fail "enable-event --loglevel-only=TRACE_INFO"
trax enable-event -u -s only13 -a --loglevel-only=TRACE_DEBUG_LINE >/dev/null ||
	fail "enable-event --loglevel-only=TRACE_DEBUG_LINE"
trax enable-event -u -s excl 'opts:*' --exclude='opts:noisy,opts:d*' >/dev/null ||
	fail "enable-event --exclude"
# two rules of one pattern with other exclusions: lttng keeps both (their union)
trax enable-event -u -s excl2 'opts:*' --exclude=opts:noisy >/dev/null ||
	fail "enable-event --exclude=opts:noisy"
trax enable-event -u -s excl2 'opts:*' --exclude=opts:debug >/dev/null ||
	fail "enable-event --exclude=opts:debug"
# two channels in one command, as lttng enable-channel takes them
if ! trax enable-channel -u -s chans cha,chb >chans.out 2>chans.err; then
	bad "enable-channel -u cha,chb: $(cat chans.err) (output: $(tr '\n' '|' <chans.out))"
	trax list chans | grep -q '^- chb:' || trax enable-channel -u -s chans chb >/dev/null ||
		fail "enable-channel chb"
fi
trax enable-event -u -s chans -c cha opts:emerg,opts:crit >/dev/null || fail "enable-event -c cha"
trax enable-event -u -s chans -c chb opts:info >/dev/null || fail "enable-event -c chb"
trax enable-event -u -s ctx opts:notice >/dev/null || fail "enable-event (ctx)"
trax add-context -u -s ctx -t vpid -t vtid -t procname -t pthread_id -t ip >/dev/null ||
	fail "add-context"
trax enable-event -u -s dis opts:warning,opts:info >/dev/null || fail "enable-event (dis)"
for s in $SA; do
	trax start "$s" >/dev/null || fail "trax start $s"
done
"./$PROG" 1 $R >run1.out || fail "the program exited with status $?"
for s in $SA; do
	[ "$s" = dis ] || trax stop "$s" >/dev/null || fail "trax stop $s"
done
# disable-event between two runs: the second run records opts:warning only
trax disable-event -u -s dis opts:info >/dev/null || fail "disable-event opts:info"
"./$PROG" 2 $R >run2.out || fail "the second run exited with status $?"
trax stop dis >/dev/null || fail "trax stop dis"

# check_rule SESSION NAME...: the session recorded exactly the run-1 events
# of these names, and babeltrace2 did not warn.
check_rule() {
	_s=$1
	shift
	recorded "$OUT/$_s" >"$_s.got"
	no_warning "$_s"
	expected 1 $R 2 "$@" >"$_s.want"
	same_events "session $_s" "$_s.got" "$_s.want"
}
check_rule wild $ALL_OPTS && ok "enable-event 'opts:*': every opts event, not opts_other:event"
check_rule exact opts:warning && ok "enable-event opts:warning: that event only"
check_rule all $ALL_OPTS $OTHER && ok "enable-event -a: every event of both providers"
check_rule level opts:emerg opts:crit opts:warning &&
	ok "--loglevel=TRACE_WARNING: TRACE_WARNING and more severe"
check_rule only opts:info opts:noisy && ok "--loglevel-only=TRACE_INFO: exactly TRACE_INFO"
check_rule only13 opts:nolevel $OTHER &&
	ok "--loglevel-only=TRACE_DEBUG_LINE: the events without TRACEPOINT_LOGLEVEL"
check_rule excl opts:emerg opts:crit opts:warning opts:notice opts:info opts:nolevel &&
	ok "--exclude=opts:noisy,opts:d*: all of 'opts:*' but those"
check_rule excl2 $ALL_OPTS &&
	ok "'opts:*' --exclude=opts:noisy, then --exclude=opts:debug: two rules, every opts event"

# -c: each channel's stream files hold its own events only
chans_ok=1
for ch in cha chb; do
	set -- "$OUT"/chans/ust/uid/*/64-bit/metadata
	[ -f "$1" ] || {
		bad "chans: no trace"
		chans_ok=0
		break
	}
	dir=$(dirname "$1")
	mkdir "only-$ch"
	cp "$dir/metadata" "$dir/${ch}_"* "only-$ch/" || bad "chans: no stream file of channel $ch"
	recorded "only-$ch" >"$ch.got"
	case $ch in
	cha) expected 1 $R 2 opts:emerg opts:crit >"$ch.want" ;;
	chb) expected 1 $R 2 opts:info >"$ch.want" ;;
	esac
	same_events "channel $ch's files" "$ch.got" "$ch.want" || chans_ok=0
done
[ $chans_ok = 1 ] && check_rule chans opts:emerg opts:crit opts:info &&
	ok "-c cha / -c chb: each channel's files hold its events only"

# disable-event between two runs
recorded "$OUT/dis" >dis.got
{
	expected 1 $R 2 opts:warning opts:info
	expected 2 $R 2 opts:warning
} | sort >dis.want
same_events "disable-event opts:info between two runs" dis.got dis.want &&
	ok "disable-event between two runs: the second run without opts:info"

# add-context: values against what the program printed
PID1=$(sed -n 's/^pid //p' run1.out)
EMIT=$(sed -n 's/^emit //p' run1.out)
recorded "$OUT/ctx" >ctx.got
no_warning ctx
expected 1 $R 2 opts:notice >ctx.want
if same_events "session ctx" ctx.got ctx.want; then
	# "vpid vtid procname pthread_id ip thread" per event, whatever their order
	awk '{
		v = ""
		n = split("vpid vtid procname pthread_id ip thread", k, " ")
		for (i = 1; i <= n; i++) {
			if (!match($0, "[{ ]" k[i] " = [^,}]*"))
				{ v = v " MISSING:" k[i]; continue }
			f = substr($0, RSTART + length(k[i]) + 4, RLENGTH - length(k[i]) - 4)
			v = v " " f
		}
		print substr(v, 2)
	}' "$TEST_TMP/rec.txt" >ctx.fields
	if grep -q MISSING ctx.fields; then
		bad "add-context: fields missing: $(grep MISSING ctx.fields | head -n 1)"
	else
		ctx_ok=1
		lo=$(printf '%d' "$EMIT")
		while read -r vpid vtid pname pthr ip thread; do
			want_tid=$(sed -n "s/^thread $thread tid \([0-9]*\) .*/\1/p" run1.out)
			want_pthr=$(sed -n "s/^thread $thread tid [0-9]* pthread //p" run1.out)
			ipd=$((ip))
			if [ "$vpid" != "$PID1" ] || [ "$vtid" != "$want_tid" ] ||
				[ "$pname" != "\"$PROCNAME\"" ] || [ "$pthr" != "$want_pthr" ] ||
				[ "$ipd" -lt "$lo" ] || [ "$ipd" -ge $((lo + 65536)) ]; then
				bad "add-context: thread $thread: vpid $vpid vtid $vtid procname $pname pthread_id $pthr ip $ip; expected vpid $PID1 vtid $want_tid procname \"$PROCNAME\" pthread_id $want_pthr ip in emit() ($EMIT)"
				ctx_ok=0
				break
			fi
		done <ctx.fields
		# one call site: one ip; two threads: two vtids
		expect_n() { [ "$(cut -d' ' -f"$1" ctx.fields | sort -u | wc -l)" = "$2" ]; }
		expect_n 5 1 || {
			bad "add-context: ip differs between events of one call site"
			ctx_ok=0
		}
		expect_n 2 2 || {
			bad "add-context: not two distinct vtid values for two threads"
			ctx_ok=0
		}
		[ $ctx_ok = 1 ] &&
			ok "add-context vpid, vtid, procname, pthread_id, ip: the program's values in every event"
	fi
fi

# ---------------------------------------------------------------- B
R2=20
as_other=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_other="setpriv --reuid=$UOTHER --regid=$UOTHER --clear-groups"
fi
SB="perpid trk"
[ -z "$as_other" ] || SB="$SB byuid"
for s in $SB; do
	trax create "$s" --output="$OUT/$s" >/dev/null || fail "trax create $s"
done
trax enable-channel -u -s perpid --buffers-pid pc >/dev/null || fail "enable-channel --buffers-pid"
trax enable-event -u -s perpid -c pc opts:warning >/dev/null || fail "enable-event (perpid)"
trax enable-event -u -s trk opts:warning >/dev/null || fail "enable-event (trk)"
[ -z "$as_other" ] || trax enable-event -u -s byuid opts:warning >/dev/null ||
	fail "enable-event (byuid)"
# three processes waiting at their gates: A (run 101), B (102), C (103, other user)
OPTS_GATE=$TEST_TMP/sync/gate101 "./$PROG" 101 $R2 >run101.out &
PA=$!
BG="$BG $PA"
OPTS_GATE=$TEST_TMP/sync/gate102 "./$PROG" 102 $R2 >run102.out &
PB=$!
BG="$BG $PB"
PC=
RUNS="101 102"
if [ -n "$as_other" ]; then
	OPTS_GATE=$TEST_TMP/sync/gate103 $as_other "./$PROG" 103 $R2 >run103.out &
	PC=$!
	BG="$BG $PC"
	RUNS="$RUNS 103"
fi
for r in $RUNS; do
	wait_file "$TEST_TMP/sync/gate$r.ready"
done
trax track -u -s trk --vpid="$PA,$PB" >track.out || fail "track --vpid"
expect_contains track.out "Added $PA to the virtual process ID tracker inclusion set"
trax untrack -u -s trk --vpid="$PB" >untrack.out || fail "untrack --vpid"
expect_contains untrack.out "Removed $PB from the virtual process ID tracker inclusion set"
[ -z "$as_other" ] || trax track -u -s byuid --vuid=$UOTHER >/dev/null || fail "track --vuid"
for s in $SB; do
	trax start "$s" >/dev/null || fail "trax start $s"
done
for r in $RUNS; do
	touch "$TEST_TMP/sync/gate$r"
done
for p in $PA $PB $PC; do
	wait "$p" || fail "process $p exited with status $?"
done
for s in $SB; do
	trax stop "$s" >/dev/null || fail "trax stop $s"
done

recorded "$OUT/trk" >trk.got
expected 101 $R2 2 opts:warning >trk.want
same_events "track --vpid=A,B then untrack --vpid=B" trk.got trk.want &&
	ok "track/untrack --vpid: only the tracked process's events"
if [ -n "$as_other" ]; then
	recorded "$OUT/byuid" >byuid.got
	expected 103 $R2 2 opts:warning >byuid.want
	if same_events "track --vuid=$UOTHER" byuid.got byuid.want; then
		if [ -f "$OUT/byuid/ust/uid/$UOTHER/64-bit/metadata" ]; then
			ok "track --vuid: only the other user's process, in ust/uid/$UOTHER"
		else
			bad "track --vuid: no trace in ust/uid/$UOTHER: $(ls "$OUT/byuid/ust/uid")"
		fi
	fi
else
	echo "skip: track --vuid (needs root and setpriv)"
fi

# --buffers-pid: one directory per process, each a trace of its own
pp_ok=1
ls "$OUT/perpid/ust" >perpid.ls 2>&1
[ "$(cat perpid.ls)" = pid ] || {
	bad "--buffers-pid: ust/ holds $(tr '\n' ' ' <perpid.ls), expected pid only"
	pp_ok=0
}
ndirs=$(find "$OUT/perpid/ust/pid" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)
nprocs=$(echo $PA $PB $PC | wc -w)
[ "$ndirs" = "$nprocs" ] || {
	bad "--buffers-pid: $ndirs directories under ust/pid for $nprocs processes"
	pp_ok=0
}
run=101
for p in $PA $PB $PC; do
	set -- "$OUT/perpid/ust/pid/$PROCNAME-$p-"*
	if [ $# != 1 ] || [ ! -f "$1/metadata" ]; then
		bad "--buffers-pid: no directory $PROCNAME-$p-DATE with a metadata file for process $p"
		pp_ok=0
	else
		recorded "$1" >"perpid-$p.got"
		expected $run $R2 2 opts:warning >"perpid-$p.want"
		same_events "--buffers-pid: directory of process $p" "perpid-$p.got" "perpid-$p.want" ||
			pp_ok=0
	fi
	run=$((run + 1))
done
[ $pp_ok = 1 ] && ok "--buffers-pid: $nprocs processes, $nprocs directories, each with its metadata and its events"

# ---------------------------------------------------------------- C
# attributes as `trax list SESSION` shows them (lttng list's lines)
trax create geom --output="$OUT/geom" >/dev/null || fail "trax create geom"
trax enable-channel -u -s geom --subbuf-size=5000 --num-subbuf=3 g1 >geom1.out 2>geom1.err ||
	fail "enable-channel --subbuf-size=5000 --num-subbuf=3"
trax enable-channel -u -s geom --subbuf-size=16k --num-subbuf=8 --switch-timer=250000 \
	--tracefile-size=1M --tracefile-count=5 g2 >/dev/null || fail "enable-channel g2"
trax list geom >geom.list || fail "trax list geom"
awk '/^- g1:/ { c = 1 } /^- g2:/ { c = 2 } c { print c ":" $0 }' geom.list >geom.lines
geom_ok=1
for l in "1:      Sub-buffer size:  8192 bytes" "1:      Sub-buffer count: 4" \
	"2:      Sub-buffer size:  16384 bytes" "2:      Sub-buffer count: 8" \
	"2:      Switch timer:     250000 us" "2:      Trace file count: 5 per stream" \
	"2:      Trace file size:  1048576 bytes" "1:      Trace file size:  unlimited" \
	"1:      Switch timer:     inactive"; do
	grep -qxF -- "$l" geom.lines || {
		bad "trax list geom: no line '${l#*:}' for channel g${l%%:*}"
		geom_ok=0
	}
done
grep -q "Warning:.*5000.*8192" geom1.err && grep -q "Warning:.*3.*4" geom1.err || {
	bad "enable-channel --subbuf-size=5000 --num-subbuf=3: no warnings about the rounding: $(cat geom1.err)"
	geom_ok=0
}
[ $geom_ok = 1 ] && ok "--subbuf-size/--num-subbuf (rounded up, with warnings) and the other attributes in trax list"

# --tracefile-size=8k --tracefile-count=3, 4 KiB packets (at most 2 per
# file): one thread on one CPU, paced so that nothing is discarded, writes
# about 60 KiB; the files of that CPU keep the newest events, contiguous.
TF_SIZE=8192
TF_COUNT=3
R3=3000
trax create rot --output="$OUT/rot" >/dev/null || fail "trax create rot"
trax enable-channel -u -s rot --subbuf-size=4k --num-subbuf=8 --tracefile-size=8k \
	--tracefile-count=$TF_COUNT rc >/dev/null || fail "enable-channel --tracefile-size"
trax enable-event -u -s rot -c rc opts:warning >/dev/null || fail "enable-event (rot)"
trax start rot >/dev/null || fail "trax start rot"
OPTS_PIN=1 OPTS_PACE=16 "./$PROG" 201 $R3 1 >run201.out || fail "the program exited with status $?"
trax list rot >rot.list || fail "trax list rot"
trax stop rot >/dev/null || fail "trax stop rot"
rot_ok=1
for l in "      Trace file count: $TF_COUNT per stream" "      Trace file size:  $TF_SIZE bytes"; do
	grep -qxF -- "$l" rot.list || {
		bad "trax list rot: no line '$l'"
		rot_ok=0
	}
done
set -- "$OUT"/rot/ust/uid/*/64-bit/rc_*
if [ ! -e "$1" ]; then
	bad "--tracefile-size: no stream file rc_* at all"
	rot_ok=0
else
	dir=$(dirname "$1")
	for f in "$dir"/rc_*; do echo "${f##*/}"; done >rot.files
	grep -qv '^rc_[0-9]*_[0-9]*$' rot.files && {
		bad "--tracefile-size: stream files not named CHANNEL_CPU_INDEX: $(tr '\n' ' ' <rot.files)"
		rot_ok=0
	}
	for cpu in $(sed 's/^rc_\([0-9]*\)_.*/\1/' rot.files | sort -u); do
		n=$(grep -c "^rc_${cpu}_" rot.files)
		[ "$n" -le $TF_COUNT ] || {
			bad "--tracefile-count=$TF_COUNT: $n files for CPU $cpu"
			rot_ok=0
		}
	done
	grep -q "^rc_[0-9]*_$((TF_COUNT - 1))$" rot.files || {
		bad "--tracefile-size: no CPU reached its file $((TF_COUNT - 1)): $(tr '\n' ' ' <rot.files)"
		rot_ok=0
	}
	for f in $(cat rot.files); do
		sz=$(stat -c %s "$dir/$f")
		[ "$sz" -le $TF_SIZE ] || {
			bad "--tracefile-size=$TF_SIZE: $f has $sz bytes"
			rot_ok=0
		}
	done
	recorded "$OUT/rot" >rot.got
	no_warning "--tracefile-count"
	grep -q '^??' rot.got && {
		bad "--tracefile-size: babeltrace2 printed other lines: $(grep '^??' rot.got | head -n 2)"
		rot_ok=0
	}
	# what is left: seq FIRST to R3 - 1, every one, and FIRST > 0
	n=$(wc -l <rot.got)
	first=$(cut -d' ' -f4 rot.got | sort -n | head -n 1)
	awk -v f="${first:-0}" -v r=$R3 'BEGIN { for (s = f; s < r; s++) print "opts:warning 201 0 " s }' |
		sort >rot.want
	if [ "${first:-0}" -eq 0 ]; then
		bad "--tracefile-count: all $n events kept, the oldest files were not removed"
		rot_ok=0
	elif ! cmp -s rot.got rot.want; then
		bad "--tracefile-count: the events kept are not the newest ones, from seq $first to $((R3 - 1)), every one ($n events)"
		rot_ok=0
	fi
	[ $rot_ok = 1 ] && ok "--tracefile-size=$TF_SIZE --tracefile-count=$TF_COUNT: $(wc -l <rot.files) files, each <= $TF_SIZE bytes, <= $TF_COUNT per CPU, readable, the newest $n of $R3 events kept"
fi

# --discard and --overwrite, 2 x 4 KiB per CPU (about 340 events), one
# thread on one CPU emitting 20000 while the daemon cannot read (SIGSTOP):
# discard keeps the first ones and counts the rest, overwrite keeps the
# last ones (in a session that is not a snapshot session, as lttng does).
R4=20000
trax create disc --output="$OUT/disc" >/dev/null || fail "trax create disc"
trax enable-channel -u -s disc --subbuf-size=4k --num-subbuf=2 --discard dc >/dev/null ||
	fail "enable-channel --discard"
trax enable-event -u -s disc -c dc opts:warning >/dev/null || fail "enable-event (disc)"
trax create ovw --output="$OUT/ovw" >/dev/null || fail "trax create ovw"
trax enable-channel -u -s ovw --subbuf-size=4k --num-subbuf=2 --overwrite oc >/dev/null ||
	fail "enable-channel --overwrite"
trax enable-event -u -s ovw -c oc opts:warning >/dev/null || fail "enable-event (ovw)"
trax start disc >/dev/null || fail "trax start disc"
trax start ovw >/dev/null || fail "trax start ovw"
OPTS_PIN=1 OPTS_GATE=$TEST_TMP/sync/gate301 "./$PROG" 301 $R4 1 >run301.out &
P301=$!
BG="$BG $P301"
wait_file "$TEST_TMP/sync/gate301.ready"
DPID=$(daemon_pid)
kill -STOP "$DPID"
touch "$TEST_TMP/sync/gate301"
wait $P301 || {
	kill -CONT "$DPID"
	fail "the program exited with status $? (daemon stopped)"
}
kill -CONT "$DPID"
trax list disc >disc.list || fail "trax list disc"
trax list ovw >ovw.list || fail "trax list ovw"
trax stop disc >/dev/null || fail "trax stop disc"
trax stop ovw >/dev/null || fail "trax stop ovw"

recorded "$OUT/disc" >disc.got
cp "$TEST_TMP/bt2.err" disc.err
n=$(wc -l <disc.got)
disc_ok=1
grep -q "discarded" disc.err || {
	bad "--discard: babeltrace2 did not report discarded events ($n of $R4 recorded)"
	disc_ok=0
}
# the oldest are kept: the first 100 events, every one; the newest are lost
expected 301 100 1 opts:warning >disc.first
[ -z "$(comm -13 disc.got disc.first)" ] || {
	bad "--discard: the first events are not all there: $(comm -13 disc.got disc.first | head -n 3 | tr '\n' ' ')"
	disc_ok=0
}
! grep -qx "opts:warning 301 0 $((R4 - 1))" disc.got || {
	bad "--discard: the newest event was recorded in full buffers"
	disc_ok=0
}
[ "$n" -gt 100 ] && [ "$n" -lt 1000 ] || {
	bad "--discard: $n events recorded in 8 KiB"
	disc_ok=0
}
d=$(sed -n 's/^ *Discarded events: *//p' disc.list)
[ -n "$d" ] && [ "$((n + d))" = $R4 ] || {
	bad "--discard: trax list shows 'Discarded events: $d', $n recorded of $R4"
	disc_ok=0
}
[ $disc_ok = 1 ] && ok "--discard: the oldest kept, the newest discarded, counted and reported ($n recorded, $d discarded)"

recorded "$OUT/ovw" >ovw.got
n=$(wc -l <ovw.got)
ovw_ok=1
[ "$n" -gt 0 ] || {
	bad "--overwrite: nothing recorded in a session that is not a snapshot session (stream files: $(find "$OUT/ovw" -name 'oc_*' -printf '%f=%s ' 2>/dev/null))"
	ovw_ok=0
}
# the newest are kept: the last 100 events, every one; the oldest are gone
awk -v r=$R4 'BEGIN { for (s = r - 100; s < r; s++) print "opts:warning 301 0 " s }' | sort >ovw.last
[ -z "$(comm -13 ovw.got ovw.last)" ] || {
	bad "--overwrite: the newest events are not all there: $(comm -13 ovw.got ovw.last | head -n 3 | tr '\n' ' ')"
	ovw_ok=0
}
! grep -qx "opts:warning 301 0 0" ovw.got || {
	bad "--overwrite: the oldest event was not overwritten"
	ovw_ok=0
}
# lttng list: "Lost packets: N", the packets overwritten before they were read
l=$(sed -n 's/^ *Lost packets: *//p' ovw.list)
[ -n "$l" ] && [ "$l" -gt 0 ] || {
	bad "--overwrite: trax list shows 'Lost packets: $l' after $R4 events in 8 KiB"
	ovw_ok=0
}
[ $ovw_ok = 1 ] && ok "--overwrite: the newest kept, the oldest overwritten and counted ($n recorded, $l packets lost)"

# ---------------------------------------------------------------- D
trax create sw --output="$OUT/sw" >/dev/null || fail "trax create sw"
trax enable-channel -u -s sw --switch-timer=100000 swc >/dev/null || fail "enable-channel --switch-timer"
trax enable-event -u -s sw -c swc opts:warning >/dev/null || fail "enable-event (sw)"
trax create nosw --output="$OUT/nosw" >/dev/null || fail "trax create nosw"
trax enable-event -u -s nosw opts:warning >/dev/null || fail "enable-event (nosw)"
trax start sw >/dev/null || fail "trax start sw"
trax start nosw >/dev/null || fail "trax start nosw"
OPTS_HOLD=$TEST_TMP/sync/hold "./$PROG" 401 3 >run401.out &
PH=$!
BG="$BG $PH"
wait_file "$TEST_TMP/sync/hold.ready"
PIDH=$(sed -n 's/^pid //p' run401.out)
expected 401 3 2 opts:warning >sw.want
# the switch timer closes the packets every 100 ms: on disk within 2 s
for _ in $(seq 40); do
	babeltrace2 "$OUT/sw" 2>/dev/null |
		sed -n 's/^.* \(opts:warning\): {.*{ run = \([0-9]*\), thread = \([0-9]*\), seq = \([0-9]*\).*/\1 \2 \3 \4/p' |
		sort >sw.got
	cmp -s sw.got sw.want && break
	sleep 0.05
done
kill -0 $PH 2>/dev/null || bad "--switch-timer: the program exited before its hold file"
trax list sw >sw.list
grep -q '^Recording session sw: \[active\]' sw.list || bad "--switch-timer: session sw no longer active"
same_events "--switch-timer=100000: the sleeping program's events, read while the session is active" \
	sw.got sw.want && ok "--switch-timer: the events of a sleeping program are on disk before trax stop"
nosw_bytes=$(find "$OUT/nosw" -name 'channel0_*' -printf '%s\n' 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
echo "info: without a switch timer, $nosw_bytes bytes were on disk at that time"

# trax list -u while the program runs: lttng list -u's format
trax list -u >listu.out || fail "trax list -u"
trax list -u -f >listuf.out || fail "trax list -u -f"
# the block of our process: from its PID line to the next blank line
block() { awk -v p="PID: $PIDH - " 'index($0, p) == 1 { on = 1; print; next } on && /^$/ { exit } on' "$1"; }
block listu.out >listu.block
block listuf.out >listuf.block
listu_ok=1
head -n 3 listu.out >listu.head
printf 'UST events:\n-------------\n\n' >listu.head.want
cmp -s listu.head listu.head.want || {
	bad "trax list -u: does not begin as lttng list -u: $(head -n 3 listu.out | tr '\n' '|')"
	listu_ok=0
}
# lttng names the process by its command line's first word
expect_line() {
	grep -qxF -- "$2" "$1" || {
		bad "trax list -u: no line '$2' (the process's block: $(head -c 300 "$1" | tr '\n' '|'))"
		listu_ok=0
	}
}
expect_line listu.block "PID: $PIDH - Name: ./$PROG"
for e in emerg:TRACE_EMERG:0 crit:TRACE_CRIT:2 warning:TRACE_WARNING:4 notice:TRACE_NOTICE:5 \
	info:TRACE_INFO:6 noisy:TRACE_INFO:6 debug:TRACE_DEBUG:14 nolevel:TRACE_DEBUG_LINE:13; do
	n=${e%%:*}
	l=${e#*:}
	expect_line listu.block "      opts:$n (loglevel: ${l%:*} (${l#*:})) (type: tracepoint)"
done
# lttng-ust gives TRACE_DEBUG_LINE to events without TRACEPOINT_LOGLEVEL
expect_line listu.block "      $OTHER (loglevel: TRACE_DEBUG_LINE (13)) (type: tracepoint)"
# -f: the fields under each event, as lttng prints them (in any order)
fields_of() { awk -v e="      $2 " 'index($0, e) == 1 { on = 1; next } on && /^        field: / { print; next } on { exit }' "$1" | sort; }
fields_of listuf.block opts:warning >f.warning
printf '        field: %s (integer)\n' run thread seq | sort >f.warning.want
cmp -s f.warning f.warning.want || {
	bad "trax list -u -f: fields of opts:warning: $(tr '\n' '|' <f.warning)"
	listu_ok=0
}
# lttng (lttng-ust 2.13): arrays and sequences are "unknown", those of text
# "string", and a sequence's length is a field of its own before it
fields_of listuf.block opts:nolevel >f.nolevel
{
	printf '        field: %s (integer)\n' run thread seq mask _some_length _letters_length
	printf '        field: ratio (float)\n'
	printf '        field: %s (string)\n' text word letters
	printf '        field: %s (unknown)\n' pair some
} | sort >f.nolevel.want
cmp -s f.nolevel f.nolevel.want || {
	bad "trax list -u -f: fields of opts:nolevel, differences with lttng's (< trax, > lttng): $(diff f.nolevel f.nolevel.want | grep '^[<>]' | tr '\n' '|')"
	listu_ok=0
}
[ $listu_ok = 1 ] && ok "trax list -u [-f] while the program runs: its tracepoints, log levels and fields, as lttng list -u"

touch "$TEST_TMP/sync/hold"
wait $PH || bad "the held program exited with status $?"
trax stop sw >/dev/null || fail "trax stop sw"
trax stop nosw >/dev/null || fail "trax stop nosw"
recorded "$OUT/nosw" >nosw.got
same_events "session nosw after trax stop" nosw.got sw.want

echo "time: $((($(date +%s%N) - t_begin) / 1000000)) ms"
[ "$FAILED" = 0 ] || fail "$FAILED checks failed"
