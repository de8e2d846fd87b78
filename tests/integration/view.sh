# view.sh - `trax view` prints what babeltrace2 prints (docs/text-format.md):
# the conformance corpus (succeed: stdout and WARNING lines byte for byte;
# fail: a one-line error naming the file, non-zero exit, no crash), every
# golden case of tests/reader/golden/README.md (options, time zones, several
# traces), and the command-line errors.
. "$TRAX_SRC/tests/integration/lib.sh"
# Only trax view runs here: in the sanitizer build, a leak of its fails the test.
export ASAN_OPTIONS=detect_leaks=1

TRAX="$TRAX_BUILD/trax"
[ -x "$TRAX" ] || fail "$TRAX not built"
CONFORMANCE=${TRAX_CONFORMANCE:-$TRAX_SRC/../shared/conformance}
GOLDEN="$TRAX_SRC/tests/reader/golden"

# Cases known not to match yet ("conf:NAME" or "gold:NAME"), skipped with a
# note. Empty: everything matches.
KNOWN_MISMATCHES=""

# A run that is killed rather than hanging.
if command -v timeout >/dev/null 2>&1; then
	TIMEOUT="timeout 60"
else
	TIMEOUT=
fi

is_known() {
	for k in $KNOWN_MISMATCHES; do
		[ "$k" = "$1" ] && return 0
	done
	return 1
}

failures=0
report() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# show_diff EXPECTED ACTUAL
show_diff() {
	diff "$1" "$2" | head -20 >&2 || true
}

OUT="$TEST_TMP/out"
ERR="$TEST_TMP/err"

# --- the conformance corpus: valid traces ---
if [ -d "$CONFORMANCE/ctf/succeed" ]; then
	cd "$CONFORMANCE/ctf"
	n=0
	for exp in expected/*.out; do
		name=$(basename "$exp" .out)
		[ -d "succeed/$name" ] || continue
		if is_known "conf:$name"; then
			echo "note: conf:$name skipped (KNOWN_MISMATCHES)"
			continue
		fi
		rc=0
		TZ=UTC $TIMEOUT "$TRAX" view "succeed/$name" >"$OUT" 2>"$ERR" || rc=$?
		sed "s|$PWD/||g" "$ERR" >"$ERR.rel"
		if [ "$rc" != 0 ]; then
			cat "$ERR" >&2
			report "conf:$name: exit status $rc"
			continue
		fi
		if ! cmp -s "$OUT" "$exp"; then
			show_diff "$exp" "$OUT"
			report "conf:$name: standard output differs"
			continue
		fi
		if [ -f "expected/$name.err" ]; then
			cmp -s "$ERR.rel" "expected/$name.err" || {
				show_diff "expected/$name.err" "$ERR.rel"
				report "conf:$name: standard error differs"
				continue
			}
		elif [ -s "$ERR" ]; then
			cat "$ERR" >&2
			report "conf:$name: unexpected standard error"
			continue
		fi
		# and the same read on one thread (reader/print-twin.c is the default)
		TZ=UTC TRAX_VIEW_THREADS=1 $TIMEOUT "$TRAX" view "succeed/$name" >"$OUT.1" 2>"$ERR.1" || :
		if ! cmp -s "$OUT" "$OUT.1" || ! cmp -s "$ERR" "$ERR.1"; then
			show_diff "$OUT" "$OUT.1"
			report "conf:$name: read on one thread, the output differs"
			continue
		fi
		# and by the two readers taking turns at every item (view-twin.h),
		# reading the files through windows of 100 bytes (decode-stream.c)
		TZ=UTC TRAX_VIEW_CHUNK=1 TRAX_READ_WINDOW=100 $TIMEOUT "$TRAX" view "succeed/$name" \
			>"$OUT.2" 2>"$ERR.2" || :
		if ! cmp -s "$OUT" "$OUT.2" || ! cmp -s "$ERR" "$ERR.2"; then
			show_diff "$OUT" "$OUT.2"
			report "conf:$name: two readers in chunks of one item, 100-byte windows, the output differs"
			continue
		fi
		# and on one thread by the interpreter, the files read through their mapping
		TZ=UTC TRAX_VIEW_THREADS=1 TRAX_NO_JIT=1 TRAX_READ_WINDOW=0 $TIMEOUT \
			"$TRAX" view "succeed/$name" >"$OUT.2" 2>"$ERR.2" || :
		if ! cmp -s "$OUT" "$OUT.2" || ! cmp -s "$ERR" "$ERR.2"; then
			show_diff "$OUT" "$OUT.2"
			report "conf:$name: one thread, no JIT, no read window: the output differs"
			continue
		fi
		# --count: one line per event, on one thread and on two (each a half
		# of the trace, when its packet indexes tell where the half is)
		for threads in 2 1; do
			rc=0
			c=$(TZ=UTC TRAX_VIEW_THREADS=$threads $TIMEOUT "$TRAX" view --count "succeed/$name" \
				2>"$ERR.c") || rc=$?
			if [ "$rc" != 0 ] || [ "$c" != "$(wc -l <"$OUT" | tr -d ' ') events" ]; then
				cat "$ERR.c" >&2
				report "conf:$name: --count on $threads thread(s): '$c' (status $rc), $(wc -l <"$OUT") lines"
				continue 2
			fi
		done
		n=$((n + 1))
	done
	ok "conformance succeed: $n traces match babeltrace2 (one thread, two readers, no JIT; --count)"

	# --- meta-ctx-sequence, which Babeltrace 2.0.4 cannot read (no expected
	# file): sequences whose lengths are in the packet and event contexts.
	# The corpus trace declares no event and its stream is empty: nothing.
	rc=0
	"$TRAX" view succeed/meta-ctx-sequence >"$OUT" 2>"$ERR" || rc=$?
	[ "$rc" = 0 ] && [ ! -s "$OUT" ] && [ ! -s "$ERR" ] ||
		report "conf:meta-ctx-sequence: status $rc, $(wc -c <"$OUT") bytes out, $(wc -c <"$ERR") err"
	# Its metadata with an event class, and a stream built by hand: packet
	# context 2 [7 8]; events 3 [1 2 3] x=42 and 0 [] x=43. The expected
	# lines are written by hand, as the other traces' rules give them.
	m="$TEST_TMP/meta-ctx-sequence"
	mkdir -p "$m"
	cat succeed/meta-ctx-sequence/metadata >"$m/metadata"
	echo 'event { name = ev; fields := struct { uint8_t x; }; };' >>"$m/metadata"
	printf '\002\007\010\003\001\002\003\052\000\053' >"$m/stream"
	cat >"$TEST_TMP/mcs.exp" <<'EOF'
ev: { _pkt_ctx_seq_length = 2, pkt_ctx_seq = [ [0] = 7, [1] = 8 ] }, { _evt_ctx_seq_length = 3, evt_ctx_seq = [ [0] = 1, [1] = 2, [2] = 3 ] }, { x = 42 }
ev: { _pkt_ctx_seq_length = 2, pkt_ctx_seq = [ [0] = 7, [1] = 8 ] }, { _evt_ctx_seq_length = 0, evt_ctx_seq = [ ] }, { x = 43 }
{"timestamp": null, "name": "ev", "stream_id": 0, "fields": {"x": 42}, "context": {"_evt_ctx_seq_length": 3, "evt_ctx_seq": [1, 2, 3]}, "packet_context": {"_pkt_ctx_seq_length": 2, "pkt_ctx_seq": [7, 8]}}
{"timestamp": null, "name": "ev", "stream_id": 0, "fields": {"x": 43}, "context": {"_evt_ctx_seq_length": 0, "evt_ctx_seq": []}, "packet_context": {"_pkt_ctx_seq_length": 2, "pkt_ctx_seq": [7, 8]}}
EOF
	{ "$TRAX" view "$m" && "$TRAX" view --format=json "$m"; } >"$OUT" 2>"$ERR" || report "meta-ctx-sequence with events: exit status $?"
	cmp -s "$OUT" "$TEST_TMP/mcs.exp" && [ ! -s "$ERR" ] || {
		show_diff "$TEST_TMP/mcs.exp" "$OUT"
		cat "$ERR" >&2
		report "meta-ctx-sequence with events: not the values written in the stream"
	}
	ok "meta-ctx-sequence: empty as recorded; with a hand-built stream, the values in it"

	# --- sequence lengths reached by every kind of path: absolute from each
	# scope (trace.packet.header included), relative, and inside a struct;
	# against babeltrace2, which reads the same values (on stdout; its log
	# warns of user fields in the packet and event headers).
	m="$TEST_TMP/length-paths"
	mkdir -p "$m"
	cat >"$m/metadata" <<'EOF'
/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace {
	major = 1; minor = 8; byte_order = le;
	packet.header := struct { uint32_t magic; uint8_t hn; };
};
stream {
	packet.context := struct { uint8_t pn; };
	event.header := struct { uint8_t en; };
	event.context := struct { uint8_t sn; };
};
event {
	name = ev;
	context := struct { uint8_t cn; };
	fields := struct {
		uint8_t fn;
		uint8_t a_h[trace.packet.header.hn];
		uint8_t a_p[stream.packet.context.pn];
		uint8_t a_e[stream.event.header.en];
		uint8_t a_s[stream.event.context.sn];
		uint8_t a_c[event.context.cn];
		uint8_t a_f[event.fields.fn];
		uint8_t a_r[fn];
		struct { uint8_t k; uint8_t v[k]; } nested;
	};
};
EOF
	# magic, hn = 1, pn = 2; event: en 3, sn 1, cn 2, fn 2, then the arrays
	# (10; 20 21; 30 31 32; 40; 50 51; 60 61; 70 71; k 1, 80); an event of
	# empty ones but a_h (11) and a_p (22 23)
	printf '\301\037\374\301\001\002\003\001\002\002\012\024\025\036\037\040\050\062\063\074\075\106\107\001\120\000\000\000\000\013\026\027\000' >"$m/stream"
	babeltrace2 "$m" >"$TEST_TMP/paths.bt2" 2>/dev/null || report "length-paths: babeltrace2 failed"
	grep -q 'a_e = \[ \[0\] = 30, \[1\] = 31, \[2\] = 32 \], a_s = \[ \[0\] = 40 \]' "$TEST_TMP/paths.bt2" ||
		report "length-paths: babeltrace2 did not read the values written"
	"$TRAX" view "$m" >"$OUT" 2>"$ERR" || report "length-paths: exit status $?"
	cmp -s "$OUT" "$TEST_TMP/paths.bt2" && [ ! -s "$ERR" ] || {
		show_diff "$TEST_TMP/paths.bt2" "$OUT"
		cat "$ERR" >&2
		report "length-paths: not babeltrace2's output"
	}
	ok "sequence lengths by absolute paths from every scope, relative and nested: as babeltrace2"

	# --- enumeration values of either sign in containers of either sign, as
	# LTTng-UST writes them (-10 ... -5 in an unsigned one): the container
	# reads their 64 bits as it reads its own, as babeltrace2 does
	m="$TEST_TMP/enum-values"
	mkdir -p "$m"
	cat >"$m/metadata" <<'EOF'
/* CTF 1.8 */
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 8; align = 8; signed = true; } := int8_t;
trace { major = 1; minor = 8; byte_order = le; };
event { name = e; fields := struct {
	enum : uint64_t { "NEG" = -10 ... -5, "SEVEN" = 7, "TOP" = 18446744073709551360 ... 18446744073709551615 } u;
	enum : int8_t { "A" = 200, "B" = 18446744073709551615 } s;
}; };
EOF
	# (u, s): (7, 0), (2^64-7, -1), (2^64-10, -56), (2^64-11, 0), (5, 0)
	printf '\007\0\0\0\0\0\0\0\000\371\377\377\377\377\377\377\377\377\366\377\377\377\377\377\377\377\310\365\377\377\377\377\377\377\377\000\005\0\0\0\0\0\0\0\000' >"$m/stream"
	babeltrace2 "$m" >"$TEST_TMP/enum.bt2" 2>/dev/null || report "enum-values: babeltrace2 failed"
	grep -q 'u = ( "NEG", "TOP" : container = 18446744073709551609 ), s = ( "B" : container = -1 )' \
		"$TEST_TMP/enum.bt2" || report "enum-values: babeltrace2 did not read the values written"
	"$TRAX" view "$m" >"$OUT" 2>"$ERR" || report "enum-values: exit status $?"
	cmp -s "$OUT" "$TEST_TMP/enum.bt2" && [ ! -s "$ERR" ] || {
		show_diff "$TEST_TMP/enum.bt2" "$OUT"
		cat "$ERR" >&2
		report "enum-values: not babeltrace2's output"
	}
	ok "enumeration values of either sign in containers of either sign: as babeltrace2"

	# --- invalid traces ---
	n=0
	for d in fail/*/; do
		d=${d%/}
		rc=0
		TZ=UTC $TIMEOUT "$TRAX" view "$d" >"$OUT" 2>"$ERR" || rc=$?
		if [ "$rc" = 0 ] || [ "$rc" -ge 124 ]; then
			report "$d: exit status $rc (expected 1)"
			continue
		fi
		lines=$(wc -l <"$ERR")
		[ "$lines" = 1 ] || {
			cat "$ERR" >&2
			report "$d: $lines error lines (expected 1)"
			continue
		}
		grep -q "^trax view: $d/" "$ERR" || {
			cat "$ERR" >&2
			report "$d: the error does not name the file"
			continue
		}
		# ... and the position in it: metadata line and column, or packet and bit
		grep -Eq "^trax view: $d/[^:]+(:[0-9]+:[0-9]+|: packet at byte [0-9]+: bit [0-9]+|: metadata packet [0-9]+ \(byte [0-9]+\)): [a-z]" "$ERR" || {
			cat "$ERR" >&2
			report "$d: the error does not name the position"
			continue
		}
		# nothing printed but the events before the fault (only this trace has some)
		[ "$d" = fail/valid-events-then-invalid-events ] || [ ! -s "$OUT" ] || {
			head -n 5 "$OUT" >&2
			report "$d: events printed from an invalid trace"
			continue
		}
		# --count: the same error on one thread and on two
		rc=0
		TZ=UTC $TIMEOUT "$TRAX" view --count "$d" >"$OUT.c2" 2>"$ERR.c2" || rc=$?
		rc1=0
		TZ=UTC TRAX_VIEW_THREADS=1 $TIMEOUT "$TRAX" view --count "$d" >"$OUT.c1" 2>"$ERR.c1" || rc1=$?
		if [ "$rc" != 1 ] || [ "$rc1" != 1 ] || ! cmp -s "$ERR.c1" "$ERR.c2" || [ -s "$OUT.c2" ]; then
			cat "$ERR.c1" "$ERR.c2" >&2
			report "$d: --count: status $rc on two threads, $rc1 on one, or not the same error"
			continue
		fi
		n=$((n + 1))
	done
	# A path given with trailing slashes is named with one slash before the file.
	"$TRAX" view fail/fail1// >/dev/null 2>"$ERR" && report "fail/fail1//: exit status 0"
	grep -q "^trax view: fail/fail1/metadata:15:10: " "$ERR" || {
		cat "$ERR" >&2
		report "fail/fail1//: the file is not named as fail/fail1/metadata"
	}
	# The events before the fault are printed.
	rc=0
	"$TRAX" view fail/valid-events-then-invalid-events >"$OUT" 2>/dev/null || rc=$?
	printf 'gadoua: \ngadoua: \n' >"$TEST_TMP/gadoua"
	cmp -s "$OUT" "$TEST_TMP/gadoua" || report "fail/valid-events-then-invalid-events: the two events before the fault"
	ok "conformance fail: $n traces rejected with one error line"

	# --count on two threads shares the packets out by their index: an index
	# that lies (each packet after the second said to start 8 bytes early;
	# the entries still tile the file, and the first packet, which opening
	# checks, is right) is found out, and the count made again on one
	# thread, as one thread reads such a trace (it drops the index at the
	# first packet that disagrees with it).
	be64() { od -An -tu1 -j"$2" -N8 "$1" | awk '{v=0; for (i=1; i<=8; i++) v=v*256+$i; print v}'; }
	put_be64() {
		# shellcheck disable=SC2059 # (the bytes, as \ooo escapes: POSIX printf)
		printf "$(awk -v v="$3" 'BEGIN { for (i = 7; i >= 0; i--) { b[i] = v % 256; v = int(v / 256) }
			for (i = 0; i < 8; i++) printf "\\%03o", b[i] }')" |
			dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	}
	rm -rf "$TEST_TMP/lying-index"
	cp -r succeed/trace-with-index "$TEST_TMP/lying-index"
	chmod -R u+w "$TEST_TMP/lying-index"
	for idx in "$TEST_TMP"/lying-index/index/*.idx; do
		len=$(od -An -tu1 -j12 -N4 "$idx" | awk '{print ($1*16777216)+($2*65536)+($3*256)+$4}')
		n=$((($(wc -c <"$idx") - 16) / len))
		[ "$n" -ge 3 ] || continue
		put_be64 "$idx" $((16 + len + 8)) $(($(be64 "$idx" $((16 + len + 8))) - 64))
		put_be64 "$idx" $((16 + len + 16)) $(($(be64 "$idx" $((16 + len + 16))) - 64))
		for k in $(seq 2 $((n - 1))); do
			put_be64 "$idx" $((16 + k * len)) $(($(be64 "$idx" $((16 + k * len))) - 8))
		done
		at=$((16 + (n - 1) * len + 8))
		put_be64 "$idx" $at $(($(be64 "$idx" $at) + 64))
	done
	cmp -s "$TEST_TMP/lying-index/index/ust_channel_0.idx" succeed/trace-with-index/index/ust_channel_0.idx &&
		fail "lying-index: the index was not changed"
	rc=0
	c2=$(TZ=UTC $TIMEOUT "$TRAX" view --count "$TEST_TMP/lying-index" 2>"$ERR") || rc=$?
	c1=$(TZ=UTC TRAX_VIEW_THREADS=1 $TIMEOUT "$TRAX" view --count "$TEST_TMP/lying-index" 2>>"$ERR") || rc=$?
	if [ "$rc" != 0 ] || [ "$c2" != "4000 events" ] || [ "$c1" != "4000 events" ] || [ -s "$ERR" ]; then
		cat "$ERR" >&2
		report "lying-index: --count '$c2' on two threads, '$c1' on one (4000 events), status $rc"
	else
		ok "--count on two threads with a lying packet index: 4000 events, as on one"
	fi
else
	echo "note: no conformance corpus at $CONFORMANCE, skipped"
fi

# --- the golden corpus: every command of its README ---
cd "$GOLDEN"
TAB=$(printf '\t')
grep -E '^\| `[^`]+` \| `TZ=[^`]* babeltrace2 [^`]*` \|$' README.md |
	sed -E 's/^\| `([^`]+)` \| `(.*)` \|$/\1\t\2/' >"$TEST_TMP/golden.tsv"
total=$(wc -l <"$TEST_TMP/golden.tsv")
[ "$total" -gt 100 ] || fail "golden README: only $total commands found"
n=0
while IFS="$TAB" read -r name cmd; do
	if is_known "gold:$name"; then
		echo "note: gold:$name skipped (KNOWN_MISMATCHES)"
		continue
	fi
	# "TZ=... LC_ALL=C babeltrace2 ARGS" -> the same with trax view
	env_part=${cmd%%babeltrace2 *}
	args=${cmd#*babeltrace2 }
	rc=0
	eval "$env_part \$TIMEOUT \"\$TRAX\" view $args" >"$OUT" 2>"$ERR" || rc=$?
	sed "s|$PWD/||g" "$ERR" >"$ERR.rel"
	exp_rc=0
	[ -f "expected/$name.status" ] && exp_rc=$(cat "expected/$name.status")
	if [ "$rc" != "$exp_rc" ]; then
		cat "$ERR" >&2
		report "gold:$name: exit status $rc, expected $exp_rc"
		continue
	fi
	if ! cmp -s "$OUT" "expected/$name.out"; then
		show_diff "expected/$name.out" "$OUT"
		report "gold:$name: standard output differs"
		continue
	fi
	if [ "$exp_rc" = 0 ]; then
		if [ -f "expected/$name.err" ]; then
			cmp -s "$ERR.rel" "expected/$name.err" || {
				show_diff "expected/$name.err" "$ERR.rel"
				report "gold:$name: standard error differs"
				continue
			}
		elif [ -s "$ERR" ]; then
			cat "$ERR" >&2
			report "gold:$name: unexpected standard error"
			continue
		fi
	else
		[ "$(wc -l <"$ERR")" = 1 ] || {
			cat "$ERR" >&2
			report "gold:$name: expected one error line"
			continue
		}
	fi
	n=$((n + 1))
done <"$TEST_TMP/golden.tsv"
ok "golden: $n of $total commands match babeltrace2"

# --- the command line ---
cd "$GOLDEN"
expect_status() {
	want=$1
	shift
	rc=0
	"$@" >"$OUT" 2>"$ERR" || rc=$?
	[ "$rc" = "$want" ] || report "'$*': exit status $rc, expected $want"
}
expect_status 0 "$TRAX" help
expect_status 0 "$TRAX" --help
expect_status 0 "$TRAX" help view
expect_status 0 "$TRAX" version
expect_contains "$OUT" "trax "
expect_status 0 "$TRAX" view --help
expect_contains "$OUT" "Usage: trax view"
expect_status 0 "$TRAX" view -h
expect_status 2 "$TRAX"
expect_status 2 "$TRAX" no-such-command
expect_status 2 "$TRAX" view
expect_contains "$ERR" "Error: "
expect_status 2 "$TRAX" view --no-such-option hm-types
expect_contains "$ERR" "Error: Unknown option '--no-such-option' (see 'trax view --help')"
expect_status 2 "$TRAX" view --format=xml hm-types
expect_contains "$ERR" "Error: Wrong value in --format parameter: xml"
expect_status 2 "$TRAX" view --fields=none hm-types
[ -s "$OUT" ] && report "--fields=none printed events"
expect_status 2 "$TRAX" view --names=bogus hm-types
expect_contains "$ERR" "Error: Wrong value in --names parameter: bogus (unknown item 'bogus')"
expect_status 2 "$TRAX" view --names
expect_contains "$ERR" "Error: Option '--names' needs a value (see 'trax view --help')"
expect_status 1 "$TRAX" view no-such-dir
expect_contains "$ERR" "trax view: no-such-dir"
mkdir "$TEST_TMP/empty"
expect_status 1 "$TRAX" view "$TEST_TMP/empty"
# "--names VALUE" as well as "--names=VALUE", options after the paths.
expect_status 0 "$TRAX" view hm-types --names all --fields all
cmp -s "$OUT" expected/hm-types.names-all.fields-all.out || report "--names all --fields all"
# "--" ends the options.
expect_status 0 "$TRAX" view --no-delta -- hm-types
cmp -s "$OUT" expected/hm-types.no-delta.out || report "view --no-delta -- hm-types"
ok "command line"

[ "$failures" = 0 ] || fail "$failures case(s) differ"
ok "trax view"
