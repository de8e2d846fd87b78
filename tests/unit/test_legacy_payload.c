/*
 * test_legacy_payload.c - the walk of pre-CTF payloads by type
 * (src/legacy/ltype.c) on byte buffers written here by hand: every scalar
 * kind, packed and aligned (4, 8) layouts with a block offset, both byte
 * orders and the network one, the ABI sizes of int/long/pointer/size_t,
 * strings followed by integers under both string rules, sequences, both
 * kinds of unions, nested structs, enum labels; bounds and errors. Then
 * the marker formats of the compact format (src/legacy/lmarker.c, table of
 * docs/legacy-formats.md 2.5) and a payload decoded by one.
 *
 * The expected offsets and values are worked out in the comments.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "legacy/ltt-type.h"

/* ---- a sink that writes what it sees as text ---- */

static char out[2048];

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void emit(const char *fmt, ...)
{
	size_t n = strlen(out);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out + n, sizeof(out) - n, fmt, ap);
	va_end(ap);
}

static const char *nm(const char *name)
{
	return name ? name : "_";
}

static int on_int(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		  uint64_t raw)
{
	(void)arg;
	if (t->kind == LTT_SIGNED)
		emit("%s=%lld/%u ", nm(name), (long long)raw, size);
	else
		emit("%s=%#llx/%u ", nm(name), (unsigned long long)raw, size);
	return 0;
}

static int on_float(void *arg, const char *name, const struct ltt_type *t, unsigned size, double v)
{
	(void)arg;
	(void)t;
	emit("%s=%g/%u ", nm(name), v, size);
	return 0;
}

static int on_string(void *arg, const char *name, const struct ltt_type *t, const char *s,
		     size_t len)
{
	(void)arg;
	(void)t;
	emit("%s='%.*s' ", nm(name), (int)len, s);
	return 0;
}

static int on_enum(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		   uint64_t raw, const char *label)
{
	(void)arg;
	(void)t;
	emit("%s=%lld(%s)/%u ", nm(name), (long long)raw, label ? label : "?", size);
	return 0;
}

static int on_array(void *arg, const char *name, const struct ltt_type *t, uint64_t n)
{
	(void)arg;
	(void)t;
	emit("%s[%llu ", nm(name), (unsigned long long)n);
	return 0;
}

static int on_struct(void *arg, const char *name, const struct ltt_type *t)
{
	(void)arg;
	(void)t;
	emit("%s{ ", nm(name));
	return 0;
}

static int on_union(void *arg, const char *name, const struct ltt_type *t, uint64_t code)
{
	(void)arg;
	(void)t;
	emit("%s<%llu> ", nm(name), (unsigned long long)code);
	return 0;
}

static int on_end(void *arg, const struct ltt_type *t)
{
	(void)arg;
	emit(t->kind == LTT_ARRAY || t->kind == LTT_SEQUENCE ? "] " : "} ");
	return 0;
}

static const struct ltt_payload_sink sink = {on_int,   on_float,  on_string, on_enum,
					     on_array, on_struct, on_union,  on_end};

static char err[256];

/* Decodes and checks the size and the text; the size again without a sink. */
static void expect(const char *what, const struct ltt_type *t, const struct ltt_abi *abi,
		   const uint8_t *p, size_t len, size_t base, long size, const char *text)
{
	long r, r2;

	check_part = what;
	out[0] = 0;
	r = ltt_payload_decode(t, abi, p, len, base, &sink, NULL, err, sizeof(err));
	CHECK(r == size, "size %ld, expected %ld (%s)", r, size, err);
	CHECK(!strcmp(out, text), "got \"%s\"\n  expected \"%s\"", out, text);
	r2 = ltt_payload_size(t, abi, p, len, base, err, sizeof(err));
	CHECK(r2 == size, "payload_size %ld, expected %ld", r2, size);
	check_part = NULL;
}

static void expect_error(const char *what, const struct ltt_type *t, const struct ltt_abi *abi,
			 const uint8_t *p, size_t len, size_t base, const char *needle)
{
	long r;

	check_part = what;
	r = ltt_payload_decode(t, abi, p, len, base, &sink, NULL, err, sizeof(err));
	CHECK(r == -1, "returned %ld", r);
	CHECK(strstr(err, needle) != NULL, "error \"%s\" lacks \"%s\"", err, needle);
	CHECK(!strchr(err, '\n'), "one line: \"%s\"", err);
	check_part = NULL;
}

/* ---- the types, by hand ---- */

#define FIXED(k, sz)                                                                               \
	{                                                                                          \
		.kind = k, .size = sz, .base = 10                                                  \
	}
#define ABIREF(k, ref)                                                                             \
	{                                                                                          \
		.kind = k, .size_ref = ref, .base = 10                                             \
	}
#define STRUCT(f)                                                                                  \
	{                                                                                          \
		.kind = LTT_STRUCT, .fields = f, .nfields = sizeof(f) / sizeof(f[0])               \
	}

static struct ltt_type u8 = FIXED(LTT_UNSIGNED, 1), u16 = FIXED(LTT_UNSIGNED, 2),
		       u32 = FIXED(LTT_UNSIGNED, 4), u64 = FIXED(LTT_UNSIGNED, 8),
		       s8 = FIXED(LTT_SIGNED, 1), s16 = FIXED(LTT_SIGNED, 2),
		       s32 = FIXED(LTT_SIGNED, 4), s64 = FIXED(LTT_SIGNED, 8),
		       f32 = FIXED(LTT_FLOAT, 4), f64 = FIXED(LTT_FLOAT, 8),
		       str = {.kind = LTT_STRING};
static struct ltt_type net16 = {.kind = LTT_UNSIGNED, .size = 2, .base = 10, .network = true};
static struct ltt_type c_int = ABIREF(LTT_SIGNED, LTT_SIZE_INT),
		       c_long = ABIREF(LTT_SIGNED, LTT_SIZE_LONG),
		       c_ptr = ABIREF(LTT_UNSIGNED, LTT_SIZE_POINTER),
		       c_size = ABIREF(LTT_UNSIGNED, LTT_SIZE_SIZE_T);

static const struct ltt_abi packed_le = {4, 4, 4, 4, 0, false, false, false};
static const struct ltt_abi a4_le = {4, 4, 4, 4, 4, false, false, false};
static const struct ltt_abi a8_le = {4, 8, 8, 8, 8, false, false, false};
static const struct ltt_abi a8_be = {4, 8, 8, 8, 8, true, true, false};
static const struct ltt_abi a4_be = {4, 4, 4, 4, 4, true, true, false};

/* u8 a; u32 b; u16 c; u64 d */
static struct ltt_field mixed_f[] = {{"a", &u8}, {"b", &u32}, {"c", &u16}, {"d", &u64}};
static struct ltt_type mixed = STRUCT(mixed_f);

static void test_alignment(void)
{
	/*
	 * Aligned on 8: a@0, b on 4 @4..8, c @8..10, d on 8 @16..24: 24 bytes.
	 * The values: a=0x11 b=0x44332211 c=0x6655 d=0x8877665544332211.
	 */
	static const uint8_t b8[24] = {0x11, 0xee, 0xee, 0xee, 0x11, 0x22, 0x33, 0x44,
				       0x55, 0x66, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
				       0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
	expect("aligned 8", &mixed, &a8_le, b8, sizeof(b8), 0, 24,
	       "a=0x11/1 b=0x44332211/4 c=0x6655/2 d=0x8877665544332211/8 ");
	/* Aligned on 4: d on min(4, 8) = 4: @12..20: 20 bytes */
	static const uint8_t b4[20] = {0x11, 0xee, 0xee, 0xee, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
				       0xee, 0xee, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
	expect("aligned 4", &mixed, &a4_le, b4, sizeof(b4), 0, 20,
	       "a=0x11/1 b=0x44332211/4 c=0x6655/2 d=0x807060504030201/8 ");
	/* Packed: a@0 b@1..5 c@5..7 d@7..15 */
	static const uint8_t bp[15] = {0x11, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x01,
				       0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
	expect("packed", &mixed, &packed_le, bp, sizeof(bp), 0, 15,
	       "a=0x11/1 b=0x4030201/4 c=0x605/2 d=0x807060504030201/8 ");
	/*
	 * Aligned on 4, the payload 2 bytes into the block: a@0 (block 2), b
	 * at block 4 = payload 2..6, c at block 8 = 6..8, d at block 12 = 10..18.
	 */
	static const uint8_t bb[18] = {0x11, 0xee, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0xee,
				       0xee, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
	expect("aligned 4, base 2", &mixed, &a4_le, bb, sizeof(bb), 2, 18,
	       "a=0x11/1 b=0x4030201/4 c=0x605/2 d=0x807060504030201/8 ");
	/* The same type big-endian, aligned on 8 */
	static const uint8_t be[24] = {0x11, 0xee, 0xee, 0xee, 0x44, 0x33, 0x22, 0x11,
				       0x66, 0x55, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
				       0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
	expect("aligned 8 big-endian", &mixed, &a8_be, be, sizeof(be), 0, 24,
	       "a=0x11/1 b=0x44332211/4 c=0x6655/2 d=0x8877665544332211/8 ");
}

/* int i; long l; pointer p; size_t s */
static struct ltt_field abi_f[] = {{"i", &c_int}, {"l", &c_long}, {"p", &c_ptr}, {"s", &c_size}};
static struct ltt_type abi_t = STRUCT(abi_f);

static void test_abi_sizes(void)
{
	/* 32-bit packed: 4 fields of 4 bytes */
	static const uint8_t p32[16] = {0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0,
					0x00, 0x10, 0x00, 0xc0, 4, 0, 0, 0};
	expect("ILP32 packed", &abi_t, &packed_le, p32, sizeof(p32), 0, 16,
	       "i=-1/4 l=2/4 p=0xc0001000/4 s=0x4/4 ");
	/* LP64 aligned on 8: i@0..4, l@8..16, p@16..24, s@24..32 */
	static const uint8_t p64[32] = {0xfe, 0xff, 0xff, 0xff, 0xee, 0xee, 0xee, 0xee,
					0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					0x00, 0x10, 0x00, 0x00, 0x00, 0x80, 0xff, 0xff,
					0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00};
	expect("LP64 aligned 8", &abi_t, &a8_le, p64, sizeof(p64), 0, 32,
	       "i=-2/4 l=-1/8 p=0xffff800000001000/8 s=0x100000008/8 ");
	/* a size the ABI says is 3: refused, not read */
	static const struct ltt_abi odd = {3, 4, 4, 4, 0, false, false, false};

	expect_error("int of 3 bytes", &abi_t, &odd, p32, sizeof(p32), 0, "integer size 3");

	struct ltt_type lp = c_ptr;
	const struct ltt_abi *abis[] = {&packed_le, &a8_le};

	CHECK_EQ(ltt_type_scalar_size(&lp, abis[0]), 4);
	CHECK_EQ(ltt_type_scalar_size(&lp, abis[1]), 8);
	CHECK_EQ(ltt_type_scalar_size(&c_int, abis[1]), 4);
	CHECK_EQ(ltt_type_scalar_size(&u16, abis[1]), 2);
	CHECK_EQ(ltt_type_scalar_size(&str, abis[1]), 0);
}

static struct ltt_field signs_f[] = {{"a", &s8}, {"b", &s16}, {"c", &s32}, {"d", &s64}};
static struct ltt_type signs = STRUCT(signs_f);

static void test_signs_and_orders(void)
{
	/* packed: a=0x80 -> -128, b=0x8000 -> -32768, c=0xfffffffe -> -2, d=5 */
	static const uint8_t le[15] = {0x80, 0x00, 0x80, 0xfe, 0xff, 0xff, 0xff, 0x05,
				       0,    0,	   0,	 0,    0,    0,	   0};
	expect("sign extension", &signs, &packed_le, le, sizeof(le), 0, 15,
	       "a=-128/1 b=-32768/2 c=-2/4 d=5/8 ");
	/* positive values stay positive: 0x7f, 0x7fff */
	static const uint8_t pos[15] = {0x7f, 0xff, 0x7f, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	expect("no sign", &signs, &packed_le, pos, sizeof(pos), 0, 15,
	       "a=127/1 b=32767/2 c=1/4 d=0/8 ");

	/* network order in a little-endian trace, and in a big-endian one: the same bytes */
	static struct ltt_field nf[] = {{"host", &u16}, {"net", &net16}};
	static struct ltt_type nt = STRUCT(nf);
	static const uint8_t nb[4] = {0x12, 0x34, 0x12, 0x34};

	expect("network, LE trace", &nt, &a4_le, nb, 4, 0, 4, "host=0x3412/2 net=0x1234/2 ");
	expect("network, BE trace", &nt, &a4_be, nb, 4, 0, 4, "host=0x1234/2 net=0x1234/2 ");

	/* floats: 1.5f = 0x3fc00000, 2.0 = 0x4000000000000000; aligned 8: f@0..4, d@8..16 */
	static struct ltt_field ff[] = {{"f", &f32}, {"d", &f64}};
	static struct ltt_type ft = STRUCT(ff);
	static const uint8_t fle[16] = {0x00, 0x00, 0xc0, 0x3f, 0xee, 0xee, 0xee, 0xee,
					0,    0,    0,	  0,	0,    0,    0,	  0x40};
	static const uint8_t fbe[16] = {0x3f, 0xc0, 0x00, 0x00, 0xee, 0xee, 0xee, 0xee,
					0x40, 0,    0,	  0,	0,    0,    0,	  0};
	static const struct ltt_abi le_fbe = {4, 8, 8, 8, 8, false, true, false};

	expect("floats LE", &ft, &a8_le, fle, 16, 0, 16, "f=1.5/4 d=2/8 ");
	expect("floats BE", &ft, &a8_be, fbe, 16, 0, 16, "f=1.5/4 d=2/8 ");
	/* the floats' own order (float_word_order) differs from the integers' */
	expect("floats BE in LE trace", &ft, &le_fbe, fbe, 16, 0, 16, "f=1.5/4 d=2/8 ");
}

/* string s; u32 v; string t; u16 w */
static struct ltt_field strs_f[] = {{"s", &str}, {"v", &u32}, {"t", &str}, {"w", &u16}};
static struct ltt_type strs = STRUCT(strs_f);

static void test_strings(void)
{
	/*
	 * Aligned on 8, no realignment after strings (2.5, and 1.3's first
	 * try): s "ab" @0..3, v on 4 @4..8, t "x" @8..10, w on 2 @10..12.
	 */
	static const uint8_t plain[12] = {'a', 'b', 0, 0xee, 1, 0, 0, 0, 'x', 0, 2, 0};
	expect("string, no realign", &strs, &a8_le, plain, 12, 0, 12,
	       "s='ab' v=0x1/4 t='x' w=0x2/2 ");
	/*
	 * The genevent fallback (realign_after_string): the item after a
	 * string on the arch size 8: v @8..12, t @12..14, w @16..18.
	 */
	static const struct ltt_abi rs = {4, 8, 8, 8, 8, false, false, true};
	static const uint8_t re[18] = {'a', 'b', 0, 0xee, 0xee, 0xee, 0xee, 0xee, 1,
				       0,   0,	 0, 'x',  0,	0xee, 0xee, 2,	  0};
	expect("string, realign", &strs, &rs, re, 18, 0, 18, "s='ab' v=0x1/4 t='x' w=0x2/2 ");
	/* packed, either rule: nothing moves: v @3..7, t @7..9, w @9..11 */
	static const struct ltt_abi prs = {4, 4, 4, 4, 0, false, false, true};
	static const uint8_t pk[11] = {'a', 'b', 0, 1, 0, 0, 0, 'x', 0, 2, 0};
	expect("string, packed", &strs, &prs, pk, 11, 0, 11, "s='ab' v=0x1/4 t='x' w=0x2/2 ");
	/* an empty string is one NUL */
	static const uint8_t em[8] = {0, 0xee, 0xee, 0xee, 7, 0, 0, 0};
	static struct ltt_field ef[] = {{"s", &str}, {"v", &u32}};
	static struct ltt_type et = STRUCT(ef);
	expect("empty string", &et, &a4_le, em, 8, 0, 8, "s='' v=0x7/4 ");

	expect_error("no NUL", &et, &a4_le, (const uint8_t *)"abc", 3, 0, "without its NUL");
	expect_error("string then nothing", &et, &a4_le, (const uint8_t *)"ab", 3, 0,
		     "past the end");
}

static void test_sequences_arrays(void)
{
	/* u8 x; sequence<u32 length, u16 element> q; aligned 4 */
	static struct ltt_type seq = {.kind = LTT_SEQUENCE, .length_type = &u32, .elem = &u16};
	static struct ltt_field sf[] = {{"x", &u8}, {"q", &seq}};
	static struct ltt_type st = STRUCT(sf);
	/* x@0, the sequence on max(4, 2) @4: length 3 @4..8, elements @8, 10, 12: 14 bytes */
	static const uint8_t b[14] = {9, 0xee, 0xee, 0xee, 3, 0, 0, 0, 1, 0, 2, 0, 3, 0};
	expect("sequence", &st, &a4_le, b, 14, 0, 14, "x=0x9/1 q[3 _=0x1/2 _=0x2/2 _=0x3/2 ] ");
	/* packed: length @1..5, elements @5..11 */
	static const uint8_t bp[11] = {9, 2, 0, 0, 0, 0x34, 0x12, 0x78, 0x56, 0xee, 0xee};
	expect("sequence packed", &st, &packed_le, bp, 11, 0, 9,
	       "x=0x9/1 q[2 _=0x1234/2 _=0x5678/2 ] ");
	/* a length past the payload: an error, found before any loop */
	static const uint8_t huge[8] = {9, 0xee, 0xee, 0xee, 0xff, 0xff, 0xff, 0x7f};
	expect_error("sequence too long", &st, &a4_le, huge, 8, 0, "past the end");
	static const uint8_t five[12] = {9, 0xee, 0xee, 0xee, 5, 0, 0, 0, 1, 0, 2, 0};
	expect_error("sequence short of bytes", &st, &a4_le, five, 12, 0, "past the end");

	/* sequence of chars with a 1-byte length (seed: lengthsize=1) */
	static struct ltt_type ch = {.kind = LTT_UNSIGNED, .size = 1, .base = 10, .is_char = true};
	static struct ltt_type cseq = {.kind = LTT_SEQUENCE, .length_type = &u8, .elem = &ch};
	static struct ltt_field cf[] = {{"t", &cseq}};
	static struct ltt_type ct = STRUCT(cf);
	expect("char sequence", &ct, &a8_le, (const uint8_t *)"\x02hi", 3, 0, 3,
	       "t[2 _=0x68/1 _=0x69/1 ] ");

	/* u8 a; u16 arr[3]; aligned 4: the array on its element's 2: @2..8 */
	static struct ltt_type arr = {.kind = LTT_ARRAY, .length = 3, .elem = &u16};
	static struct ltt_field af[] = {{"a", &u8}, {"arr", &arr}};
	static struct ltt_type at = STRUCT(af);
	static const uint8_t ab[8] = {1, 0xee, 1, 0, 2, 0, 3, 0};
	expect("array", &at, &a4_le, ab, 8, 0, 8, "a=0x1/1 arr[3 _=0x1/2 _=0x2/2 _=0x3/2 ] ");
	expect_error("array short", &at, &a4_le, ab, 7, 0, "past the end");

	/* a sequence of empty structs with a huge length: refused, not spun */
	static struct ltt_type empty = {.kind = LTT_STRUCT};
	static struct ltt_type eseq = {.kind = LTT_SEQUENCE, .length_type = &u32, .elem = &empty};
	static struct ltt_field esf[] = {{"e", &eseq}};
	static struct ltt_type est = STRUCT(esf);
	static const uint8_t eb[4] = {0xff, 0xff, 0xff, 0xff};
	expect_error("empty elements", &est, &a4_le, eb, 4, 0, "past the end");
	/* a few of them are fine: 4 bytes, 3 empty structs */
	static const uint8_t e3[4] = {3, 0, 0, 0};
	expect("3 empty elements", &est, &a4_le, e3, 4, 0, 4, "e[3 _{ } _{ } _{ } ] ");
}

static void test_unions(void)
{
	/* selector of 1 byte: 0 -> u32 a, 1 -> string b */
	static struct ltt_field uf[] = {{"a", &u32}, {"b", &str}};
	static struct ltt_type sel = {
	    .kind = LTT_UNION, .fields = uf, .nfields = 2, .typecode_size = 1};
	static struct ltt_field wf[] = {{"u", &sel}, {"z", &u8}};
	static struct ltt_type w = STRUCT(wf);
	/* code 1 @0, b "hi" @1..4, z @4 */
	static const uint8_t b1[5] = {1, 'h', 'i', 0, 7};
	expect("union code 1", &w, &a4_le, b1, 5, 0, 5, "u<1> b='hi' } z=0x7/1 ");
	/* code 0 @0, a aligned on 4 @4..8, z @8: the union itself aligned on 4 */
	static const uint8_t b0[9] = {0, 0xee, 0xee, 0xee, 0x78, 0x56, 0x34, 0x12, 7};
	expect("union code 0", &w, &a4_le, b0, 9, 0, 9, "u<0> a=0x12345678/4 } z=0x7/1 ");
	static const uint8_t b2[5] = {2, 0, 0, 0, 0};
	expect_error("union code out of range", &w, &a4_le, b2, 5, 0, "union code 2 out of range");

	/* a C union (no selector): every member from the same offset, its size the largest */
	static struct ltt_field cf[] = {{"a", &u8}, {"b", &u32}, {"c", &u16}};
	static struct ltt_type cu = {.kind = LTT_UNION, .fields = cf, .nfields = 3};
	static struct ltt_field cwf[] = {{"x", &u8}, {"u", &cu}, {"y", &u8}};
	static struct ltt_type cw = STRUCT(cwf);
	/* x@0, the union on 4 @4..8, y@8 */
	static const uint8_t cb[9] = {1, 0xee, 0xee, 0xee, 0x78, 0x56, 0x34, 0x12, 2};
	expect("C union", &cw, &a4_le, cb, 9, 0, 9,
	       "x=0x1/1 u{ a=0x78/1 b=0x12345678/4 c=0x5678/2 } y=0x2/1 ");
	/* packed: the union @1..5, y@5 */
	static const uint8_t cp[6] = {1, 0x78, 0x56, 0x34, 0x12, 2};
	expect("C union packed", &cw, &packed_le, cp, 6, 0, 6,
	       "x=0x1/1 u{ a=0x78/1 b=0x12345678/4 c=0x5678/2 } y=0x2/1 ");
}

static void test_nested(void)
{
	/* u8 a; struct { u8 b; u64 c; } s; u8 d */
	static struct ltt_field inf[] = {{"b", &u8}, {"c", &u64}};
	static struct ltt_type in = STRUCT(inf);
	static struct ltt_field of[] = {{"a", &u8}, {"s", &in}, {"d", &u8}};
	static struct ltt_type o = STRUCT(of);
	/* aligned 8: a@0, s on 8 @8: b@8, c@16..24, d@24: 25 bytes */
	uint8_t b8[25];

	memset(b8, 0xee, sizeof(b8));
	b8[0] = 1;
	b8[8] = 2;
	memcpy(b8 + 16, "\x03\0\0\0\0\0\0\0", 8);
	b8[24] = 4;
	expect("nested aligned 8", &o, &a8_le, b8, 25, 0, 25,
	       "a=0x1/1 s{ b=0x2/1 c=0x3/8 } d=0x4/1 ");
	/* aligned 4: s on 4 @4: b@4, c on 4 @8..16, d@16: 17 bytes */
	uint8_t b4[17];

	memset(b4, 0xee, sizeof(b4));
	b4[0] = 1;
	b4[4] = 2;
	memcpy(b4 + 8, "\x03\0\0\0\0\0\0\0", 8);
	b4[16] = 4;
	expect("nested aligned 4", &o, &a4_le, b4, 17, 0, 17,
	       "a=0x1/1 s{ b=0x2/1 c=0x3/8 } d=0x4/1 ");

	/* a typeref to the struct decodes as the struct; an undeclared one fails */
	static struct ltt_type ref = {.kind = LTT_TYPEREF, .name = "inner", .ref = &in};
	static struct ltt_type dangling = {.kind = LTT_TYPEREF, .name = "execution_mode"};
	static struct ltt_field rf[] = {{"a", &u8}, {"r", &ref}};
	static struct ltt_type rt = STRUCT(rf);
	static struct ltt_field df[] = {{"a", &u8}, {"mode", &dangling}};
	static struct ltt_type dt = STRUCT(df);

	expect("typeref", &rt, &a8_le, b8, 24, 0, 24, "a=0x1/1 r{ b=0x2/1 c=0x3/8 } ");
	expect_error("undeclared type", &dt, &a8_le, b8, 24, 0,
		     "field mode at offset 1: type 'execution_mode' is not declared");
	CHECK(ltt_type_resolve(&ref) == &in);
	CHECK(ltt_type_resolve(&dangling) == NULL);

	/* a struct that holds itself through a typeref: stopped by the depth cap */
	static struct ltt_type self_ref = {.kind = LTT_TYPEREF, .name = "self"};
	static struct ltt_field self_f[] = {{"me", &self_ref}};
	static struct ltt_type self = STRUCT(self_f);

	self_ref.ref = &self;
	expect_error("self-recursive", &self, &a8_le, b8, 24, 0, "field me");
	/*
	 * A DAG of 60 levels, each a struct of two fields of the next level,
	 * the last an empty struct: 2^60 parts in no bytes. Refused, quickly.
	 */
	static struct ltt_type level[60];
	static struct ltt_field level_f[59][2];

	for (int i = 0; i < 60; i++)
		level[i].kind = LTT_STRUCT;
	for (int i = 0; i < 59; i++) {
		level_f[i][0] = (struct ltt_field){"a", &level[i + 1]};
		level_f[i][1] = (struct ltt_field){"b", &level[i + 1]};
		level[i].fields = level_f[i];
		level[i].nfields = 2;
	}
	expect_error("exponential type", &level[0], &a8_le, b8, 24, 0, "more parts than");

	/* and a loop of typerefs resolves to nothing */
	static struct ltt_type loop_a = {.kind = LTT_TYPEREF, .name = "b"};
	static struct ltt_type loop_b = {.kind = LTT_TYPEREF, .name = "a", .ref = &loop_a};

	loop_a.ref = &loop_b;
	CHECK(ltt_type_resolve(&loop_a) == NULL);
}

static void test_enums_bounds_stop(void)
{
	static struct ltt_label l[] = {{"LOW", 0}, {"HIGH", 5}};
	static struct ltt_type e = {.kind = LTT_ENUM, .size = 1, .labels = l, .nlabels = 2};
	static struct ltt_label sl[] = {{"NEG", -1}, {"ZERO", 0}};
	static struct ltt_type se = {
	    .kind = LTT_ENUM, .size_ref = LTT_SIZE_INT, .labels = sl, .nlabels = 2};
	static struct ltt_field f[] = {{"e", &e}, {"x", &e}, {"s", &se}};
	static struct ltt_type t = STRUCT(f);
	/* e=5 HIGH, x=3 no label, s (int, aligned 4 @4) = 0xffffffff: signed labels: -1 NEG */
	static const uint8_t b[8] = {5, 3, 0xee, 0xee, 0xff, 0xff, 0xff, 0xff};

	expect("enums", &t, &a4_le, b, 8, 0, 8, "e=5(HIGH)/1 x=3(?)/1 s=-1(NEG)/4 ");
	/* mixed (u8, u32, u16, u64) in 8 bytes aligned on 8: a, b @4..8 fit, c @8 does not */
	expect_error("u16 past the end", &mixed, &a8_le, b, 8, 0,
		     "field c at offset 8: 2 bytes past the end");

	/* a sink without callbacks: only the size */
	static const struct ltt_payload_sink none = {0};

	CHECK_EQ(ltt_payload_decode(&t, &a4_le, b, 8, 0, &none, NULL, err, sizeof(err)), 8);
}

static int stop_at_x(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		     uint64_t raw, const char *label)
{
	(void)t;
	(void)size;
	(void)raw;
	(void)label;
	(*(int *)arg)++;
	return name && !strcmp(name, "x");
}

static void test_stop(void)
{
	static struct ltt_label l[] = {{"A", 0}};
	static struct ltt_type e = {.kind = LTT_ENUM, .size = 1, .labels = l, .nlabels = 1};
	static struct ltt_field f[] = {{"e", &e}, {"x", &e}, {"y", &e}};
	static struct ltt_type t = STRUCT(f);
	struct ltt_payload_sink s = {0};
	int calls = 0;

	s.enumeration = stop_at_x;
	CHECK_EQ(ltt_payload_decode(&t, &a4_le, (const uint8_t *)"\0\0\0", 3, 0, &s, &calls, err,
				    sizeof(err)),
		 -2);
	CHECK_EQ(calls, 2);
}

/* ---- marker formats ---- */

struct mfield {
	const char *name;
	enum ltt_kind kind;
	enum ltt_size_ref ref;
	unsigned size;
	unsigned base;
	bool network;
};

static void expect_marker(const char *format, const struct mfield *want, size_t n)
{
	struct lmarker_type *m = lmarker_parse(format, err, sizeof(err));
	const struct ltt_type *t;

	check_part = format;
	CHECK(m != NULL, "%s", err);
	if (!m) {
		check_part = NULL;
		return;
	}
	t = lmarker_type_get(m);
	CHECK(t->kind == LTT_STRUCT);
	CHECK_EQ(t->nfields, n);
	for (size_t i = 0; i < n && i < t->nfields; i++) {
		const struct ltt_type *ft = t->fields[i].type;

		CHECK(!strcmp(t->fields[i].name, want[i].name), "field %zu named '%s', not '%s'", i,
		      t->fields[i].name, want[i].name);
		CHECK_EQ(ft->kind, want[i].kind);
		if (want[i].kind == LTT_STRING)
			continue;
		CHECK_EQ(ft->size_ref, want[i].ref);
		if (want[i].ref == LTT_SIZE_FIXED)
			CHECK_EQ(ft->size, want[i].size);
		CHECK_EQ(ft->base, want[i].base);
		CHECK_EQ(ft->network, want[i].network);
	}
	lmarker_free(m);
	check_part = NULL;
}

static void test_markers(void)
{
	const enum ltt_kind S = LTT_SIGNED, U = LTT_UNSIGNED, STR = LTT_STRING;
	const enum ltt_size_ref F = LTT_SIZE_FIXED, I = LTT_SIZE_INT, L = LTT_SIZE_LONG,
				P = LTT_SIZE_POINTER, Z = LTT_SIZE_SIZE_T;

	/* the conversions of 2.5, one field each */
	expect_marker("pid %d comm %s",
		      (struct mfield[]){{"pid", S, I, 0, 10, false}, {"comm", STR, F, 0, 0, false}},
		      2);
	expect_marker("a %i b %u c %o d %x e %X",
		      (struct mfield[]){{"a", S, I, 0, 10, false},
					{"b", U, I, 0, 10, false},
					{"c", U, I, 0, 8, false},
					{"d", U, I, 0, 16, false},
					{"e", U, I, 0, 16, false}},
		      5);
	expect_marker("ch %c ip %p",
		      (struct mfield[]){{"ch", U, F, 1, 10, false}, {"ip", U, P, 0, 16, false}}, 2);
	/* qualifiers: h 2, hh 1, l long, ll/L 8, z/Z size_t, t pointer */
	expect_marker("a %hd b %hhu c %ld d %llu e %Lx f %zu g %Zd h %td",
		      (struct mfield[]){{"a", S, F, 2, 10, false},
					{"b", U, F, 1, 10, false},
					{"c", S, L, 0, 10, false},
					{"d", U, F, 8, 10, false},
					{"e", U, F, 8, 16, false},
					{"f", U, Z, 0, 10, false},
					{"g", S, Z, 0, 10, false},
					{"h", S, P, 0, 10, false}},
		      8);
	/* trace types: #1u%zu one unsigned byte printed as size_t; #n4u network; #8d%ld */
	expect_marker("len #1u%zu addr #n4u%u off #8d%ld sz #2u%lu",
		      (struct mfield[]){{"len", U, F, 1, 10, false},
					{"addr", U, F, 4, 10, true},
					{"off", S, F, 8, 10, false},
					{"sz", U, F, 2, 10, false}},
		      4);
	/* a trace type with a C qualifier: #lu%u is the target's long */
	expect_marker("x #lu%u", (struct mfield[]){{"x", U, L, 0, 10, false}}, 1);
	/* literals, flags, unnamed fields (named after their rank), width skipped */
	expect_marker("100%% ## %d %-08x v=%5u",
		      (struct mfield[]){{"100", S, I, 0, 10, false},
					{"field 2", U, I, 0, 16, false},
					{"v", U, I, 0, 10, false}},
		      3);
	expect_marker("", NULL, 0);

	/* refused: an unknown conversion, a trace type without conversion */
	CHECK(lmarker_parse("x %y", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "at 2") && strstr(err, "unknown conversion"), "%s", err);
	CHECK(lmarker_parse("x #4u", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "without its conversion"), "%s", err);
	CHECK(lmarker_parse("x #q%d", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not a trace type"), "%s", err);

	/*
	 * A payload of "a %u b %s c #2d%d" (int 4, aligned 4, no realignment
	 * after strings, 2.5): a@0..4, b "xy" @4..7, c on 2 @8..10.
	 */
	struct lmarker_type *m = lmarker_parse("a %u b %s c #2d%d", err, sizeof(err));
	static const uint8_t b[10] = {1, 0, 0, 0, 'x', 'y', 0, 0xee, 0xfe, 0xff};

	CHECK(m != NULL, "%s", err);
	if (m) {
		expect("marker payload", lmarker_type_get(m), &a4_le, b, 10, 0, 10,
		       "a=0x1/4 b='xy' c=-2/2 ");
		lmarker_free(m);
	}
}

/* ---- fixed-layout plans: the walk's places, without the walk ---- */

/* what a walk reads, in order: each scalar's bits (integers masked to size; floats' doubles) */
static uint64_t seen[64];
static size_t nseen;

static int rec_int(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		   uint64_t raw)
{
	(void)arg;
	(void)name;
	(void)t;
	if (nseen < 64)
		seen[nseen++] = size < 8 ? raw & ((1ull << 8 * size) - 1) : raw;
	return 0;
}

static int rec_enum(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		    uint64_t raw, const char *label)
{
	(void)label;
	return rec_int(arg, name, t, size, raw);
}

static int rec_float(void *arg, const char *name, const struct ltt_type *t, unsigned size, double v)
{
	(void)arg;
	(void)name;
	(void)t;
	(void)size;
	if (nseen < 64)
		memcpy(&seen[nseen++], &v, 8);
	return 0;
}

static const struct ltt_payload_sink rec_sink = {
    .integer = rec_int, .floating = rec_float, .enumeration = rec_enum};

/* An item's value as rec_sink sees it. */
static uint64_t item_value(const struct ltt_plan_item *it, const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned k = 0; k < it->size; k++)
		v = v << 8 | p[it->off + (it->big ? k : it->size - 1u - k)];
	if (it->is_float) {
		double d;

		if (it->size == 4) {
			uint32_t u = (uint32_t)v;
			float f;

			memcpy(&f, &u, 4);
			d = f;
		} else {
			memcpy(&d, &v, 8);
		}
		memcpy(&v, &d, 8);
	}
	return v;
}

/* t's plan at every start offset 0..7 agrees with the walk of a payload of len bytes. */
static void expect_plan(const char *what, const struct ltt_type *t, const struct ltt_abi *abi,
			size_t want_items)
{
	uint8_t p[256];

	check_part = what;
	for (size_t i = 0; i < sizeof(p); i++)
		p[i] = (uint8_t)(i * 37 + 11); /* (no float NaN: the bits would compare anyway) */
	for (size_t base = 0; base < 8; base++) {
		struct ltt_plan *pl = ltt_payload_plan(t, abi, base);
		long n;

		CHECK(pl != NULL, "base %zu", base);
		if (!pl)
			continue;
		CHECK_EQ(pl->n, want_items);
		nseen = 0;
		n = ltt_payload_decode(t, abi, p, sizeof(p), base, &rec_sink, NULL, err,
				       sizeof(err));
		CHECK(n > 0, "%s", err);
		CHECK_EQ(ltt_plan_size(pl, sizeof(p)), n);
		CHECK_EQ(nseen, pl->n);
		for (size_t i = 0; i < pl->n && i < nseen; i++)
			CHECK(item_value(&pl->items[i], p) == seen[i], "base %zu item %zu", base,
			      i);
		/* one byte short of the last item: no size, and the walk fails */
		CHECK_EQ(ltt_plan_size(pl, pl->need - 1), -1);
		CHECK(ltt_payload_decode(t, abi, p, pl->need - 1, base, NULL, NULL, err,
					 sizeof(err)) == -1);
		free(pl);
	}
	check_part = NULL;
}

static void test_plans(void)
{
	static struct ltt_field arr_f[] = {{"x", &u8}, {"a", NULL}, {"y", &net16}};
	static struct ltt_type arr = {.kind = LTT_ARRAY, .length = 3, .elem = &mixed};
	static struct ltt_field fl_f[] = {{"c", &u8},	  {"f", &f32},	 {"d", &f64},
					  {"l", &c_long}, {"p", &c_ptr}, {"i", &c_int},
					  {"z", &c_size}};
	static struct ltt_type fl = STRUCT(fl_f);
	static struct ltt_type arrs = STRUCT(arr_f);
	static const struct ltt_abi a2_be = {4, 4, 4, 4, 2, true, false, false};

	arr_f[1].type = &arr;
	expect_plan("plan mixed packed", &mixed, &packed_le, 4);
	expect_plan("plan mixed a4", &mixed, &a4_le, 4);
	expect_plan("plan mixed a8 be", &mixed, &a8_be, 4);
	expect_plan("plan signs a8", &signs, &a8_le, signs.nfields);
	expect_plan("plan floats and abi sizes a8 be", &fl, &a8_be, 7);
	expect_plan("plan floats and abi sizes a2 be", &fl, &a2_be, 7);
	expect_plan("plan floats packed", &fl, &packed_le, 7);
	expect_plan("plan nested array a4", &arrs, &a4_le, 2 + 3 * 4);
	expect_plan("plan nested array a8 be", &arrs, &a8_be, 2 + 3 * 4);
	/* strings, sequences, unions: none */
	check_part = "no plan";
	CHECK(ltt_payload_plan(&strs, &a4_le, 0) == NULL);
	CHECK(ltt_payload_plan(&str, &a4_le, 0) == NULL);
	check_part = NULL;
}

int main(void)
{
	test_alignment();
	test_abi_sizes();
	test_signs_and_orders();
	test_strings();
	test_sequences_arrays();
	test_unions();
	test_nested();
	test_enums_bounds_stop();
	test_stop();
	test_markers();
	test_plans();
	return CHECK_RESULT();
}
