/*
 * bytecode.h - the filter bytecode's layout and instruction set (internal
 * to src/filter; docs/filter.md describes it for readers of traces of the
 * protocol).
 *
 *	offset 0   struct filter_bc_header (16 bytes, little endian)
 *	offset 16  code: code_len bytes of instructions
 *	then       string table: str_len bytes of NUL-terminated strings; the
 *	           expression's text first, then names and literals
 *
 * An instruction is one opcode byte and its operands, little endian, at
 * any alignment. The machine is a stack machine over 64-bit integers,
 * doubles and strings. Jumps (AND, OR) go forward only, to the start of an
 * instruction, so every program ends. Generic instructions (fields by
 * name, untyped operators) are what compilers emit and what travels;
 * specialized ones exist only in linked programs, each made for its
 * operand types, and are refused in bytecode from outside.
 */
#ifndef TRAX_FILTER_BYTECODE_H
#define TRAX_FILTER_BYTECODE_H

#include <stdint.h>
#include <string.h>

/* Operands are read in place. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "filter bytecode: little-endian hosts only"
#endif

#define FILTER_BC_MAGIC	  0x42465854u /* "TXFB" */
#define FILTER_BC_VERSION 1u
#define FILTER_BC_HEADER  16u
#define FILTER_BC_MAX	  65536u /* bytes of code, and of strings */
#define FILTER_STACK_MAX  32u	 /* values on the stack at once */

/* The six comparisons, in the order of their typed variants below. */
enum filter_cmp { FILTER_EQ, FILTER_NE, FILTER_LT, FILTER_GT, FILTER_LE, FILTER_GE, FILTER_NR_CMP };

/*
 * The operand types of a typed comparison: I integer, D double, S string,
 * G star-glob pattern (a literal; only with EQ and NE).
 */
enum filter_cmp_types {
	FILTER_CMP_II,
	FILTER_CMP_ID,
	FILTER_CMP_DI,
	FILTER_CMP_DD,
	FILTER_CMP_SS,
	FILTER_CMP_SG,
	FILTER_CMP_GS,
	FILTER_NR_CMP_TYPES
};

/*
 * X(name, operand bytes). Generic first (FOP_RET .. FOP_BOOL), then
 * specialized. The order of the generic opcodes is the wire format:
 * append, never reorder.
 */
#define FILTER_GENERIC_OPS(X)                                                                      \
	X(RET, 0)                                                                                  \
	X(LOAD_INT, 8)	 /* i64 */                                                                 \
	X(LOAD_DBL, 8)	 /* f64 */                                                                 \
	X(LOAD_STR, 4)	 /* u32 string offset: a plain string, escapes resolved */                 \
	X(LOAD_GLOB, 4)	 /* u32 string offset: a star-glob pattern, as written */                  \
	X(LOAD_FIELD, 4) /* u32 string offset: the field's name */                                 \
	X(LOAD_ELEM, 8)	 /* u32 name offset, u32 index: an array element */                        \
	X(LOAD_CTX, 4)	 /* u32 name offset: $ctx.NAME */                                          \
	X(LOAD_APP, 4)	 /* u32 name offset: $app.PROVIDER:NAME */                                 \
	X(EQ, 0)                                                                                   \
	X(NE, 0)                                                                                   \
	X(LT, 0)                                                                                   \
	X(GT, 0)                                                                                   \
	X(LE, 0)                                                                                   \
	X(GE, 0)                                                                                   \
	X(BIT_AND, 0)                                                                              \
	X(BIT_OR, 0)                                                                               \
	X(BIT_XOR, 0)                                                                              \
	X(LSHIFT, 0)                                                                               \
	X(RSHIFT, 0)                                                                               \
	X(NOT, 0)                                                                                  \
	X(BIT_NOT, 0)                                                                              \
	X(NEG, 0)                                                                                  \
	X(AND, 4) /* u32 target: top false -> replace by 0 and jump, else pop */                   \
	X(OR, 4)  /* u32 target: top true -> replace by 1 and jump, else pop */                    \
	X(BOOL, 0)

#define FILTER_SPECIAL_OPS(X)                                                                      \
	X(LOAD_FIELD_INT, 4) /* u32 argument index */                                              \
	X(LOAD_FIELD_DBL, 4)                                                                       \
	X(LOAD_FIELD_STR, 4)                                                                       \
	X(LOAD_FIELD_TEXT, 4)                                                                      \
	X(LOAD_ELEM_INT, 8) /* u16 argument index, u8 element format, u8 0, u32 index */           \
	X(LOAD_CTX_INT, 4)  /* u32 context index */                                                \
	X(LOAD_CTX_DBL, 4)                                                                         \
	X(LOAD_CTX_STR, 4)                                                                         \
	X(LOAD_LIT, 4) /* u32 literal index (plain string or pattern) */                           \
	X(NOT_D, 0)                                                                                \
	X(NEG_D, 0)                                                                                \
	X(BOOL_D, 0)                                                                               \
	X(AND_D, 4)                                                                                \
	X(OR_D, 4)                                                                                 \
	X(CMP_FIELD_INT, 14) /* u32 argument, i64 constant, u8 enum filter_cmp, u8 0 */            \
	X(CMP, 0) /* first of the FILTER_NR_CMP * FILTER_NR_CMP_TYPES typed comparisons */

enum filter_op {
	FOP_NONE = 0, /* never valid */
#define FILTER_OP_ENUM(n, sz) FOP_##n,
	FILTER_GENERIC_OPS(FILTER_OP_ENUM) FOP_GENERIC_END,
	FOP_SPECIAL_BEGIN = FOP_GENERIC_END - 1,
	FILTER_SPECIAL_OPS(FILTER_OP_ENUM)
#undef FILTER_OP_ENUM
	    FOP_CMP_END = FOP_CMP + FILTER_NR_CMP * FILTER_NR_CMP_TYPES,
};

/* The typed comparison c of operand types t. */
static inline uint8_t filter_cmp_op(enum filter_cmp c, enum filter_cmp_types t)
{
	return (uint8_t)(FOP_CMP + c * FILTER_NR_CMP_TYPES + t);
}

/* Operand bytes of op, -1 for an opcode that does not exist. */
int filter_op_operands(uint8_t op);
/* The opcode's name, for messages and dumps. */
const char *filter_op_name(uint8_t op);

struct filter_bc_header {
	uint32_t magic;
	uint16_t version;
	uint16_t flags; /* 0 */
	uint32_t code_len;
	uint32_t str_len;
};

static inline uint32_t filter_get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint16_t filter_get_u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static inline void filter_put_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

#endif /* TRAX_FILTER_BYTECODE_H */
