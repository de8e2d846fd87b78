#!/bin/bash
# make-handmade.sh - writes the hand-made CTF 1.8 traces of the golden corpus
# (hm-*/): a metadata text and binary stream files, byte by byte with printf.
# Run from tests/reader/golden/:  bash make-handmade.sh
# The output is deterministic: running it again rewrites identical files.
set -eu
cd "$(dirname "$0")"

# set_uuid LAST_BYTE: each trace has its own UUID (traces sharing a UUID are
# merged into one trace by babeltrace2).
set_uuid() {
	UUID_TXT=2a6422d0-6cee-11e0-8c08-cb07d7b3a5$1
	UUID_BYTES="2a 64 22 d0 6c ee 11 e0 8c 08 cb 07 d7 b3 a5 $1"
}

# ---- byte writers: append to the file named by $out ------------------------
# le N V: V as an N-byte little-endian integer (V may be negative).
le() {
	local n=$1 v=$2 i s=
	for ((i = 0; i < n; i++)); do
		s+=$(printf '\\x%02x' $(((v >> (8 * i)) & 0xff)))
	done
	printf "$s" >>"$out"
}
# be N V: big-endian.
be() {
	local n=$1 v=$2 i s=
	for ((i = n - 1; i >= 0; i--)); do
		s+=$(printf '\\x%02x' $(((v >> (8 * i)) & 0xff)))
	done
	printf "$s" >>"$out"
}
# hex BYTE...: raw bytes given in hexadecimal.
hex() {
	local b s=
	for b in "$@"; do s+="\\x$b"; done
	printf "$s" >>"$out"
}
# f32 0xBITS / f64 0xBITS: an IEEE 754 value given by its bit pattern, LE.
f32() { le 4 "$1"; }
f64() { le 8 "$1"; }
# str TEXT: a NUL-terminated string (TEXT may hold printf escapes).
str() { printf "$1" >>"$out"; printf '\0' >>"$out"; }
# al N: zero padding up to a multiple of N bytes from the start of the file.
al() {
	local s
	s=$(stat -c %s "$out")
	while ((s % $1)); do printf '\0' >>"$out"; s=$((s + 1)); done
}

# ---- packets ------------------------------------------------------------------
# Events are written into $ev (the event bytes of one packet); the header and
# context are 80 bytes, a multiple of 8, so alignment inside $ev is the same as
# inside the packet.
# packet FILE STREAM_CLASS_ID TS_BEGIN TS_END SEQ DISCARDED CPU
#   appends one packet (header, context, the events of $ev, padding) to FILE.
packet() {
	local file=$1 sc=$2 tb=$3 te=$4 seq=$5 disc=$6 cpu=$7 evsize content total
	evsize=$(stat -c %s "$ev")
	content=$(((80 + evsize) * 8))
	total=$((((80 + evsize + 31) / 32) * 32 * 8))
	out=$file
	le 4 0xc1fc1fc1
	hex $UUID_BYTES
	le 4 "$sc"
	le 8 "$tb"
	le 8 "$te"
	le 8 "$content"
	le 8 "$total"
	le 8 "$seq"
	le 8 "$disc"
	le 4 "$cpu"
	le 4 77 # my_pctx
	cat "$ev" >>"$file"
	al 32
	: >"$ev"
	out=$ev
}

# Common metadata parts: the packet header, the packet context of every stream.
meta_head() { # meta_head CLOCK_BLOCK ENV_BLOCK
	cat <<EOF
/* CTF 1.8 */

typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;

trace {
	major = 1;
	minor = 8;
	uuid = "$UUID_TXT";
	byte_order = le;
	packet.header := struct {
		uint32_t magic;
		uint8_t  uuid[16];
		uint32_t stream_id;
	};
};

$2

$1

EOF
}
PCTX='packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t packet_seq_num;
		uint64_t events_discarded;
		uint32_t cpu_id;
		uint32_t my_pctx;
	};'

evhdr() { # evhdr ID TS (uint32 id, uint64 timestamp: byte-aligned)
	le 4 "$1"
	le 8 "$2"
}

########################################################################
# hm-types: every field type of CTF 1.8, all scopes, 1 GHz clock.
########################################################################
set_uuid 64
T=hm-types
rm -rf "$T"
mkdir -p "$T"
ev=$(mktemp)
trap 'rm -f "$ev"' EXIT
out=$ev
{
	meta_head 'clock {
	name = monotonic;
	uuid = "5b1e7e2a-0000-4000-8000-00000000c10c";
	description = "hand-made clock";
	freq = 1000000000;
	precision = 1;
	offset_s = 1700000000;
	offset = 0;
	absolute = true;
};' 'env {
	hostname = "goldhost";
	domain = "ust";
	tracer_name = "handmade";
	tracer_major = 1;
	procname = "hm-types";
	vpid = 4242;
};'
	cat <<EOF
typealias integer { size = 8; align = 8; signed = false; encoding = UTF8; } := text_t;

typealias enum : uint8_t { INT = 0, STR = 1, ST = 2 } := tag_t;

stream {
	id = 0;
	$PCTX
	event.header := struct {
		uint32_t id;
		uint64_clock_t timestamp;
	};
	event.context := struct {
		uint32_t sctx_a;
		string sctx_s;
	};
};

event {
	name = "hm:ints";
	id = 0;
	stream_id = 0;
	loglevel = 4;
	model.emf.uri = "http://example.com/emf/ints";
	context := struct {
		int32_t ectx;
	};
	fields := struct {
		integer { size = 3; align = 1; signed = false; } u3;
		integer { size = 5; align = 1; signed = true; } s5;
		integer { size = 13; align = 1; signed = true; base = 16; } s13_hex;
		integer { size = 3; align = 1; signed = false; base = 2; } u3_bin;
		integer { size = 8; align = 8; signed = true; base = 8; } s8_oct;
		integer { size = 8; align = 8; signed = false; base = 8; } u8_oct;
		integer { size = 8; align = 8; signed = false; base = 8; } u8_oct0;
		integer { size = 8; align = 8; signed = false; base = 2; } u8_bin;
		integer { size = 8; align = 8; signed = false; base = 2; } u8_bin0;
		integer { size = 16; align = 8; signed = true; base = 2; } s16_bin;
		integer { size = 32; align = 8; signed = false; base = 16; } u32_hex0;
		integer { size = 32; align = 8; signed = false; base = x; } u32_hexx;
		integer { size = 64; align = 8; signed = false; base = p; } u64_ptr;
		integer { size = 8; align = 8; signed = true; base = 16; } s8_hex;
		integer { size = 64; align = 8; signed = true; base = 16; } s64_hex;
		integer { size = 64; align = 8; signed = false; base = 8; } u64_oct;
		integer { size = 64; align = 8; signed = true; base = 8; } s64_oct;
		integer { size = 64; align = 8; signed = false; base = 2; } u64_bin;
		integer { size = 64; align = 8; signed = true; base = 10; } s64_min;
		integer { size = 64; align = 8; signed = false; base = decimal; } u64_max;
		integer { size = 32; align = 8; signed = true; byte_order = be; } s32_be;
		integer { size = 32; align = 8; signed = false; byte_order = network; base = 16; } u32_net_hex;
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } u8_utf8;
		integer { size = 8; align = 8; signed = true; encoding = ASCII; } s8_ascii;
		integer { size = 32; align = 32; signed = false; } _under;
		integer { size = 32; align = 32; signed = false; } __double;
		integer { size = 1; align = 1; signed = false; } bit1;
		integer { size = 1; align = 1; signed = true; } sbit1;
	};
};

event {
	name = "hm:floats";
	id = 1;
	stream_id = 0;
	context := struct {
		int32_t ectx;
	};
	fields := struct {
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_tenth;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_mzero;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_nan;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_mnan;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_inf;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_minf;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_denorm;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_max;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_2p24;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_1234567;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_1em4;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_1e5;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f_1e6;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; byte_order = be; } f_be;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_tenth;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_1e16;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_123456789;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_1em5;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_1em4;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_denorm;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_nan;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_mnan;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_inf;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_minf;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_1e6;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_999999_5;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_mzero;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_third;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_max;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_123456_5;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d_m2;
	};
};

event {
	name = "hm:strings";
	id = 2;
	stream_id = 0;
	context := struct {
		int32_t ectx;
	};
	fields := struct {
		string s_low;
		string s_high;
		string s_utf8;
		string s_empty;
		string { encoding = ASCII; } s_ascii;
	};
};

event {
	name = "hm:texts";
	id = 3;
	stream_id = 0;
	context := struct {
		int32_t ectx;
	};
	fields := struct {
		text_t t_nul[8];
		text_t t_full[4];
		text_t t_esc[6];
		text_t t_empty[0];
		uint32_t t_len;
		text_t t_seq[t_len];
		uint32_t t_len0;
		text_t t_seq0[t_len0];
		integer { size = 8; align = 8; signed = true; encoding = ASCII; } t_signed[3];
		uint8_t u8_plain[3];
		uint8_t u8_empty[0];
		text_t t_lead_nul[3];
	};
};

event {
	name = "hm:enums";
	id = 4;
	stream_id = 0;
	context := struct {
		int32_t ectx;
	};
	fields := struct {
		enum : uint8_t { "A" = 0 ... 10, "B" = 5, "C" = 5 ... 6, "D E" = 20, "quo\"te" = 21 } e_multi;
		enum : uint8_t { "A" = 0 ... 10, "B" = 5, "C" = 5 ... 6, "D E" = 20, "quo\"te" = 21 } e_single;
		enum : uint8_t { "A" = 0 ... 10, "B" = 5, "C" = 5 ... 6, "D E" = 20, "quo\"te" = 21 } e_space;
		enum : uint8_t { "A" = 0 ... 10, "B" = 5, "C" = 5 ... 6, "D E" = 20, "quo\"te" = 21 } e_quote;
		enum : uint8_t { "A" = 0 ... 10, "B" = 5, "C" = 5 ... 6, "D E" = 20, "quo\"te" = 21 } e_unknown;
		enum : integer { size = 16; align = 8; signed = true; } { NEG = -100 ... -1, ZERO = 0, POS = 1 ... 100 } e_neg;
		enum : integer { size = 32; align = 8; signed = false; base = 16; } { X = 0x10 } e_hex;
		enum : integer { size = 32; align = 8; signed = false; base = 16; } { X = 0x10 } e_hex_unknown;
		enum : integer { size = 8; align = 8; signed = false; base = 8; } { O = 8 } e_oct;
		enum : uint64_t { BIG = 0xFFFFFFFFFFFFFFF0 ... 0xFFFFFFFFFFFFFFFF } e_big;
		enum : uint8_t { AUTO0, AUTO1, AUTO2 } e_auto;
		enum : uint8_t { _UNDER = 1 } e_under;
		enum : uint8_t { "Z" = 5, "M" = 0 ... 10, "A" = 4 ... 6, "Z" = 7 } e_order;
	};
};

event {
	name = "hm:compound";
	id = 5;
	stream_id = 0;
	context := struct {
		int32_t ectx;
	};
	fields := struct {
		struct {
			uint8_t a;
			struct {
				uint16_t b;
				string c;
			} inner;
			struct { } empty;
		} st;
		struct { } top_empty;
		uint32_t arr2d[2][3];
		string s_arr[2];
		struct { uint8_t x; } st_arr[2];
		uint8_t n;
		struct { uint8_t y; string z; } st_seq[n];
		uint8_t n0;
		uint32_t seq0[n0];
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } f_arr[2];
		enum : uint8_t { LOW = 0 ... 9, HIGH = 10 ... 255 } e_arr[2];
		tag_t tag1;
		variant <tag1> { uint32_t INT; string STR; struct { uint8_t p; uint8_t q; } ST; } v1;
		tag_t tag2;
		variant <tag2> { uint32_t INT; string STR; struct { uint8_t p; uint8_t q; } ST; } v2;
		tag_t tag3;
		variant <tag3> { uint32_t INT; string STR; struct { uint8_t p; uint8_t q; } ST; } v3;
		struct {
			tag_t t;
			variant <t> { uint32_t INT; string STR; struct { uint8_t p; uint8_t q; } ST; } v;
		} vs[2];
	};
};

event {
	name = "hm:empty";
	id = 6;
	stream_id = 0;
	fields := struct { };
};

event {
	name = "hm:nofields";
	id = 7;
	stream_id = 0;
};

event {
	name = "hm:ctxonly";
	id = 8;
	stream_id = 0;
	context := struct {
		int32_t ectx;
	};
};
EOF
} >"$T/metadata"

TS0=1000000000 # cycles; offset_s 1700000000 -> 2023-11-14 22:13:21 UTC
sctx() { # stream event context + event context
	le 4 "$1"
	str "$2"
	if [ $# -gt 2 ]; then
		le 4 "$3"
	fi
}
# hm:ints
evhdr 0 $((TS0 + 123456789))
sctx 1 "first" -7
al 4            # the payload struct is 32-bit aligned (_under)
hex ed          # u3 = 5, s5 = -3:  5 | (29 << 3)
le 2 $(((-2 & 0x1fff) | (6 << 13))) # s13_hex = -2, u3_bin = 6
le 1 -8         # s8_oct
le 1 8          # u8_oct
le 1 0          # u8_oct0
le 1 5          # u8_bin
le 1 0          # u8_bin0
le 2 -2         # s16_bin
le 4 0          # u32_hex0
le 4 0xABCDEF   # u32_hexx
le 8 0x7f0012345678 # u64_ptr
le 1 -128       # s8_hex
le 8 -1         # s64_hex
le 8 -1         # u64_oct = 2^64-1
le 8 0x8000000000000000 # s64_oct = INT64_MIN
le 8 0x8000000000000001 # u64_bin
le 8 0x8000000000000000 # s64_min
le 8 -1         # u64_max
be 4 -5         # s32_be
be 4 0x01020304 # u32_net_hex
le 1 65         # u8_utf8
le 1 -1         # s8_ascii
al 4
le 4 1          # _under
le 4 2          # __double
hex 03          # bit1 = 1, sbit1 = -1
# hm:floats
evhdr 1 $((TS0 + 123456789 + 1000))
sctx 2 "second" -6
al 8            # the payload struct is 64-bit aligned (doubles)
f32 0x3dcccccd; f32 0x80000000; f32 0x7fc00000; f32 0xffc00000
f32 0x7f800000; f32 0xff800000; f32 0x00000001; f32 0x7f7fffff
f32 0x4b800000; f32 0x4996b438; f32 0x38d1b717; f32 0x47c35000
f32 0x49742400; be 4 0xc0200000
al 8
f64 0x3fb999999999999a; f64 0x4341c37937e08000; f64 0x419d6f3454000000
f64 0x3ee4f8b588e368f1; f64 0x3f1a36e2eb1c432d; f64 0x0000000000000001
f64 0x7ff8000000000000; f64 0xfff8000000000000; f64 0x7ff0000000000000
f64 0xfff0000000000000; f64 0x412e848000000000; f64 0x412e847f00000000
f64 0x8000000000000000; f64 0x3fd5555555555555; f64 0x7fefffffffffffff
f64 0x40fe240800000000; f64 0xc000000000000000
# hm:strings: s_low holds every byte 0x01..0x7f, s_high every byte 0x80..0xff
evhdr 2 $((TS0 + 2000000000))
sctx 3 "quote\"back\\\\slash" -5
s=
for ((i = 1; i < 128; i++)); do s+=$(printf '\\x%02x' $i); done
str "$s"
s=
for ((i = 128; i < 256; i++)); do s+=$(printf '\\x%02x' $i); done
str "$s"
str 'h\xc3\xa9llo \xe2\x9c\x93'
str ''
str 'plain ascii'
# hm:texts
evhdr 3 $((TS0 + 2000000000))
sctx 4 "" -4
hex 61 62 00 63 64 00 00 00   # t_nul
hex 77 78 79 7a               # t_full
hex 22 5c 0a 09 01 ff         # t_esc
le 4 5
hex 61 00 62 00 63            # t_seq
le 4 0
hex 78 79 7a                  # t_signed
hex 01 02 03                  # u8_plain
hex 00 41 42                  # t_lead_nul
# hm:enums
evhdr 4 $((TS0 + 3000000000))
sctx 5 "e" -3
le 1 5; le 1 1; le 1 20; le 1 21; le 1 99
le 2 -50
le 4 0x10; le 4 0x11
le 1 8
le 8 -1
le 1 2
le 1 1
le 1 5
# hm:compound
evhdr 5 $((TS0 + 3000000001))
sctx 6 "c" -2
al 8            # the payload struct is 64-bit aligned (f_arr)
le 1 1; le 2 2; str 'see'           # st
le 4 1; le 4 2; le 4 3; le 4 4; le 4 5; le 4 6   # arr2d
str 'one'; str 'two'                 # s_arr
le 1 9; le 1 8                       # st_arr
le 1 2                               # n
le 1 10; str 'ten'; le 1 11; str 'eleven'   # st_seq
le 1 0                               # n0
al 8
f64 0x3fe0000000000000; f64 0xc000000000000000   # f_arr
le 1 3; le 1 200                     # e_arr
le 1 0; le 4 7                 # tag1 = INT, v1 = 7
le 1 1; str 'var string'             # tag2 = STR
le 1 2; le 1 3; le 1 4               # tag3 = ST {3, 4}
le 1 0; le 4 42                # vs[0] = INT 42
le 1 1; str 'x'                      # vs[1] = STR "x"
# hm:empty, hm:nofields, hm:ctxonly
evhdr 6 $((TS0 + 4000000000)); sctx 7 "empty"
evhdr 7 $((TS0 + 4000000000)); sctx 8 "nofields"
evhdr 8 $((TS0 + 5000000000)); sctx 9 "ctxonly" -1
packet "$T/stream_0" 0 $((TS0 + 100000000)) $((TS0 + 5000000000)) 0 0 3

########################################################################
# hm-clock: a 3 Hz clock (cycles to ns rounding) with offset_s and a
# cycle offset; two stream classes and two stream files with equal
# time stamps (tie order); a second trace clock-compatible (absolute).
########################################################################
mk_clock_trace() { # DIR FREQ OFFSET_S OFFSET HOST
	local T=$1
	rm -rf "$T"
	mkdir -p "$T"
	{
		meta_head "clock {
	name = monotonic;
	freq = $2;
	offset_s = $3;
	offset = $4;
	absolute = true;
};" "env {
	hostname = \"$5\";
	domain = \"ust\";
	tracer_name = \"handmade\";
};"
		cat <<EOF
stream {
	id = 0;
	$PCTX
	event.header := struct {
		uint32_t id;
		uint64_clock_t timestamp;
	};
};

stream {
	id = 1;
	$PCTX
	event.header := struct {
		uint32_t id;
		uint64_clock_t timestamp;
	};
};

event { name = "a:ev"; id = 0; stream_id = 0; fields := struct { uint32_t n; }; };
event { name = "b:ev"; id = 0; stream_id = 1; fields := struct { uint32_t n; }; };
event { name = "a:zz"; id = 1; stream_id = 0; fields := struct { uint32_t n; }; };
EOF
	} >"$T/metadata"
}

set_uuid 65
mk_clock_trace hm-clock 3 1500000000 1 clockhost
out=$ev
# stream class 0, file "zz_chan" (sorted after the other one)
for c in 0 1 2 3 4 5 6 9; do evhdr 0 $c; le 4 $((100 + c)); done
evhdr 1 9; le 4 199
packet hm-clock/zz_chan 0 0 9 0 0 0
# stream class 1, file "aa_chan"
for c in 2 3 7 9 3000000000; do evhdr 0 $c; le 4 $((200 + c % 1000)); done
packet hm-clock/aa_chan 1 2 3000000000 0 0 1

# hm-clock-mhz: 1 MHz clock whose offset (in cycles) exceeds one second and
# a time stamp before the Unix epoch is reached (negative offset_s).
set_uuid 66
mk_clock_trace hm-clock-mhz 1000000 -2 1500000 otherhost
out=$ev
for c in 0 1 499999 500000 500001 2999999 1234567890123457; do evhdr 0 $c; le 4 $c; done
packet hm-clock-mhz/chan 0 0 1234567890123457 0 0 0

########################################################################
# hm-discard: one stream, four packets; events_discarded grows (discarded
# events) and packet_seq_num jumps (lost packets).
########################################################################
set_uuid 67
T=hm-discard
rm -rf "$T"
mkdir -p "$T"
{
	meta_head 'clock {
	name = monotonic;
	freq = 1000000000;
	offset_s = 1600000000;
	absolute = true;
};' 'env {
	hostname = "dischost";
	domain = "ust";
	tracer_name = "handmade";
};'
	cat <<EOF
stream {
	id = 0;
	$PCTX
	event.header := struct {
		uint32_t id;
		uint64_clock_t timestamp;
	};
};

event { name = "d:ev"; id = 0; stream_id = 0; fields := struct { uint32_t n; }; };
EOF
} >"$T/metadata"
out=$ev
evhdr 0 1000; le 4 1
evhdr 0 2000; le 4 2
packet $T/stream 0 500 2500 0 0 0
evhdr 0 3000; le 4 3
packet $T/stream 0 2800 3500 1 4 0
evhdr 0 5000; le 4 4
packet $T/stream 0 4800 5500 3 4 0
evhdr 0 7000; le 4 5
packet $T/stream 0 6500 7500 6 10 0
evhdr 0 9000; le 4 6
packet $T/stream 0 8000 9500 7 11 0

# hm-discard-odd: the same stream layout with unusual counters: the first
# packet already has events_discarded = 5 and packet_seq_num = 2, then the
# counter goes down (5 -> 4) and the sequence number goes back (3 -> 1).
T=hm-discard-odd
set_uuid 68
rm -rf "$T"
mkdir -p "$T"
sed -e 's/dischost/oddhost/' -e "s/2a6422d0-6cee-11e0-8c08-cb07d7b3a567/$UUID_TXT/" hm-discard/metadata >"$T/metadata"
out=$ev
evhdr 0 1000; le 4 1
packet $T/stream 0 500 2500 2 5 0
evhdr 0 3000; le 4 2
packet $T/stream 0 2800 3500 3 4 0
evhdr 0 5000; le 4 3
packet $T/stream 0 4800 5500 1 4 0

########################################################################
# hm-noclock: no clock, no packet context, an env: no time stamps; without a
# time stamp, the header items printed with --names=header have no separators.
########################################################################
T=hm-noclock
rm -rf "$T"
mkdir -p "$T"
cat >"$T/metadata" <<'EOF'
/* CTF 1.8 */

typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;

trace {
	major = 1;
	minor = 8;
	byte_order = be;
	packet.header := struct {
		uint32_t magic;
	};
};

stream {
	event.header := struct {
		uint8_t id;
	};
};

event { name = "plain"; id = 0; fields := struct { uint32_t v; string s; }; };
event { name = "bare"; id = 1; };

env {
	hostname = "nchost";
	domain = "kernel";
	procname = "ncproc";
	vpid = 5;
};
EOF
out=$T/stream
be 4 0xc1fc1fc1
be 1 0; be 4 1; str 'one'
be 1 1
be 1 0; be 4 2; str 'two'
out=$ev
