/*
 * decode-jit.c - x86-64 code for fixed runs (see decode-jit.h).
 *
 * The function made for a run takes p (rdi), the run's first byte, and
 * the clock's value (rsi, returned in rax at the end), and for each field, in the run's order,
 *emits what fixed_run_decode() does for it, with pos / 8 folded into p:
 *
 *	rax = (*(uint64_t *)(p + off / 8) >> off % 8) & mask    (the bits, w)
 *	clock fields only: clock = ((c & ~mask) | w) + (w < (c & mask) ? mask + 1 : 0),
 *		computed as c + ((w - c) & mask) (emit_clock())
 *	integers and clocks: dst->u.s = (int64_t)(w << sext) >> sext
 *	floats: dst->u.d = the float those bits are
 *
 * Loads of whole aligned bytes, words and double words with their sign
 * extension become one movzx / movsx. It uses only registers the calling
 * convention lets a function clobber (rax, rcx, rdx, rsi, r8, xmm0) and no
 * stack. The code is written into a private mapping, which is then made
 * executable and no longer writable.
 */
#include "reader/decode-jit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reader/decode-prog-impl.h"

#if defined(__x86_64__)
#define JIT_X86_64 1

/* The most one field takes (a clock field with every step: about 90). */
#define FIELD_BYTES_MAX 128

struct emitter {
	uint8_t *p;
};

static void b1(struct emitter *e, uint8_t v)
{
	*e->p++ = v;
}

static void b4(struct emitter *e, uint32_t v)
{
	memcpy(e->p, &v, 4);
	e->p += 4;
}

static void b8(struct emitter *e, uint64_t v)
{
	memcpy(e->p, &v, 8);
	e->p += 8;
}

static void bytes(struct emitter *e, const uint8_t *v, size_t n)
{
	memcpy(e->p, v, n);
	e->p += n;
}

#define EMIT(e, ...)                                                                               \
	do {                                                                                       \
		static const uint8_t seq_[] = {__VA_ARGS__};                                       \
		bytes((e), seq_, sizeof(seq_));                                                    \
	} while (0)

/* rax = the field's bits, masked (w, not sign-extended). */
static void emit_bits(struct emitter *e, uint32_t off, uint64_t mask)
{
	const uint32_t at = off / 8;
	const unsigned int shift = off % 8;

	if (shift == 0 && mask == 0xFF) {
		EMIT(e, 0x0F, 0xB6, 0x87); /* movzx eax, byte [rdi + at] */
		b4(e, at);
		return;
	}
	if (shift == 0 && mask == 0xFFFF) {
		EMIT(e, 0x0F, 0xB7, 0x87); /* movzx eax, word [rdi + at] */
		b4(e, at);
		return;
	}
	if (shift == 0 && mask == 0xFFFFFFFF) {
		EMIT(e, 0x8B, 0x87); /* mov eax, [rdi + at] */
		b4(e, at);
		return;
	}
	EMIT(e, 0x48, 0x8B, 0x87); /* mov rax, [rdi + at] */
	b4(e, at);
	if (shift) {
		EMIT(e, 0x48, 0xC1, 0xE8); /* shr rax, shift */
		b1(e, (uint8_t)shift);
	}
	if (mask == UINT64_MAX)
		return;
	if (mask == 0xFFFFFFFF) {
		EMIT(e, 0x89, 0xC0); /* mov eax, eax */
	} else if (mask <= 0x7FFFFFFF) {
		EMIT(e, 0x48, 0x25); /* and rax, imm32 */
		b4(e, (uint32_t)mask);
	} else {
		EMIT(e, 0x48, 0xBA); /* mov rdx, mask */
		b8(e, mask);
		EMIT(e, 0x48, 0x21, 0xD0); /* and rax, rdx */
	}
}

/* rax <<= sext, then arithmetic rax >>= sext. */
static void emit_sext(struct emitter *e, unsigned int sext)
{
	if (!sext)
		return;
	EMIT(e, 0x48, 0xC1, 0xE0); /* shl rax, sext */
	b1(e, (uint8_t)sext);
	EMIT(e, 0x48, 0xC1, 0xF8); /* sar rax, sext */
	b1(e, (uint8_t)sext);
}

/* rax = the integer field's value: w sign-extended by sext bits. */
static void emit_int(struct emitter *e, const struct fixed_field *f)
{
	const uint32_t at = f->off / 8;

	if (f->off % 8 == 0 && f->sext) {
		if (f->mask == 0xFF && f->sext == 56) {
			EMIT(e, 0x48, 0x0F, 0xBE, 0x87); /* movsx rax, byte [rdi + at] */
			b4(e, at);
			return;
		}
		if (f->mask == 0xFFFF && f->sext == 48) {
			EMIT(e, 0x48, 0x0F, 0xBF, 0x87); /* movsx rax, word [rdi + at] */
			b4(e, at);
			return;
		}
		if (f->mask == 0xFFFFFFFF && f->sext == 32) {
			EMIT(e, 0x48, 0x63, 0x87); /* movsxd rax, dword [rdi + at] */
			b4(e, at);
			return;
		}
	}
	emit_bits(e, f->off, f->mask);
	emit_sext(e, f->sext);
}

/*
 * Where values go: rcx holds base, set once, when every destination is
 * within a 32-bit displacement of it (the slots of two programs, from the
 * same heap); otherwise rcx is loaded before each store.
 */
struct dst_base {
	bool shared;
	uintptr_t base;
};

static void plan_base(struct dst_base *b, const struct fixed_run *fr)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;

	for (uint32_t k = 0; k < fr->nfields; k++) {
		uintptr_t a = (uintptr_t)&fr->fields[k].dst->u;

		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	b->base = lo;
	b->shared = fr->nfields && hi - lo <= INT32_MAX;
}

/* The ModRM byte (and displacement) of dst->u's address for reg, after the opcode. */
static void emit_dst_operand(struct emitter *e, const struct dst_base *b,
			     const struct ctf_value *dst, uint8_t reg)
{
	if (b->shared) {
		b1(e, (uint8_t)(0x81 | reg << 3)); /* [rcx + disp32] */
		b4(e, (uint32_t)((uintptr_t)&dst->u - b->base));
	} else {
		b1(e, (uint8_t)(0x01 | reg << 3)); /* [rcx] */
	}
}

/* rcx = the address stores are made from (see struct dst_base). */
static void emit_dst(struct emitter *e, const struct dst_base *b, const struct ctf_value *dst)
{
	if (b->shared)
		return;	     /* set once, in the prologue */
	EMIT(e, 0x48, 0xB9); /* mov rcx, imm64 */
	b8(e, (uint64_t)(uintptr_t)&dst->u);
}

/* dst->u = rax. */
static void emit_store(struct emitter *e, const struct dst_base *b, const struct ctf_value *dst)
{
	emit_dst(e, b, dst);
	EMIT(e, 0x48, 0x89); /* mov [...], rax */
	emit_dst_operand(e, b, dst, 0);
}

/*
 * The clock update, w in rax, the clock in rsi. For a mask of k low bits,
 * ((c & ~mask) | w) + (w < (c & mask) ? mask + 1 : 0) is c + ((w - c) & mask)
 * modulo 2^64 (both are c - (c & mask) + w, plus 2^k when w < c & mask):
 * four instructions.
 */
static void emit_clock(struct emitter *e, uint64_t mask)
{
	EMIT(e, 0x49, 0x89, 0xC0); /* mov r8, rax */
	EMIT(e, 0x49, 0x29, 0xF0); /* sub r8, rsi */
	if (mask <= 0x7FFFFFFF) {
		EMIT(e, 0x49, 0x81, 0xE0); /* and r8, imm32 */
		b4(e, (uint32_t)mask);
	} else if (mask != UINT64_MAX) {
		EMIT(e, 0x48, 0xBA); /* mov rdx, mask */
		b8(e, mask);
		EMIT(e, 0x49, 0x21, 0xD0); /* and r8, rdx */
	}
	EMIT(e, 0x4C, 0x01, 0xC6); /* add rsi, r8 */
}

#endif /* JIT_X86_64: the emitter */

uint64_t ctf_jit_interpret(const uint8_t *p, uint64_t clock, const struct fixed_run *fr)
{
	fixed_run_decode(fr, p, 0, &clock);
	return clock;
}

#if defined(JIT_X86_64)

#define CHUNK_SIZE ((size_t)64 << 10)
#define CHUNKS_MAX 64 /* 4 MiB of code per arena: then the interpreter */

struct ctf_jit_chunk {
	struct ctf_jit_chunk *next;
	uint8_t *mem;
	size_t size, used;
};

/* A chunk with room for n bytes, writable; NULL when none can be had. */
static struct ctf_jit_chunk *writable_chunk(struct ctf_jit_arena *a, size_t n)
{
	struct ctf_jit_chunk *c = a->chunks;

	if (c && c->size - c->used >= n) {
		if (mprotect(c->mem, c->size, PROT_READ | PROT_WRITE))
			return NULL;
		return c;
	}
	if (a->nchunks == CHUNKS_MAX || !(c = calloc(1, sizeof(*c))))
		return NULL;
	c->size = n > CHUNK_SIZE ? (n + 4095) & ~(size_t)4095 : CHUNK_SIZE;
	c->mem = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->mem == MAP_FAILED) {
		free(c);
		return NULL;
	}
	c->next = a->chunks;
	a->chunks = c;
	a->nchunks++;
	return c;
}

ctf_jit_fn ctf_jit_compile(struct ctf_jit_arena *a, const struct fixed_run *fr)
{
	struct ctf_jit_chunk *c;
	struct emitter e;
	struct dst_base base;
	uint8_t *start;
	size_t most;

	if (fr->nfields > (1u << 16))
		return NULL;
	for (uint32_t k = 0; k < fr->nfields; k++) {
		const struct fixed_field *f = &fr->fields[k];

		/* what fixed_run_decode() reads in one 8-byte load */
		if (f->off % 8 + f->size > 64 || f->off / 8 > INT32_MAX - 8)
			return NULL;
		if (f->kind != BLOCK_INTEGER && f->kind != BLOCK_CLOCK && f->kind != BLOCK_F32 &&
		    f->kind != BLOCK_F64)
			return NULL;
	}
	most = (size_t)fr->nfields * FIELD_BYTES_MAX + 32;
	if (!(c = writable_chunk(a, most)))
		return NULL;
	start = e.p = c->mem + c->used;
	plan_base(&base, fr);
	if (base.shared) {
		EMIT(&e, 0x48, 0xB9); /* mov rcx, base */
		b8(&e, base.base);
	}
	for (uint32_t k = 0; k < fr->nfields; k++) {
		const struct fixed_field *f = &fr->fields[k];

		switch (f->kind) {
		case BLOCK_INTEGER:
			emit_int(&e, f);
			emit_store(&e, &base, f->dst);
			break;
		case BLOCK_CLOCK:
			emit_bits(&e, f->off, f->mask);
			emit_clock(&e, f->mask);
			emit_sext(&e, f->sext);
			emit_store(&e, &base, f->dst);
			break;
		case BLOCK_F64:
			emit_bits(&e, f->off, f->mask);
			emit_store(&e, &base, f->dst); /* the bits are the double */
			break;
		case BLOCK_F32:
			emit_bits(&e, f->off, f->mask);
			EMIT(&e, 0x66, 0x0F, 0x6E, 0xC0); /* movd xmm0, eax */
			EMIT(&e, 0xF3, 0x0F, 0x5A, 0xC0); /* cvtss2sd xmm0, xmm0 */
			emit_dst(&e, &base, f->dst);
			EMIT(&e, 0xF2, 0x0F, 0x11); /* movsd [...], xmm0 */
			emit_dst_operand(&e, &base, f->dst, 0);
			break;
		}
	}
	EMIT(&e, 0x48, 0x89, 0xF0); /* mov rax, rsi: the clock */
	b1(&e, 0xC3);		    /* ret */
	/* the next function starts on a cache line */
	c->used = ((size_t)(e.p - c->mem) + 63) & ~(size_t)63;
	if (c->used > c->size)
		c->used = c->size;
	if (mprotect(c->mem, c->size, PROT_READ | PROT_EXEC))
		return NULL; /* (the chunk stays writable and unused: freed with the arena) */
	return (ctf_jit_fn)(void *)start;
}

void ctf_jit_arena_free(struct ctf_jit_arena *a)
{
	while (a->chunks) {
		struct ctf_jit_chunk *c = a->chunks;

		a->chunks = c->next;
		munmap(c->mem, c->size);
		free(c);
	}
	a->nchunks = 0;
}

#else /* not x86-64: the interpreter does it all */

ctf_jit_fn ctf_jit_compile(struct ctf_jit_arena *a, const struct fixed_run *fr)
{
	(void)a;
	(void)fr;
	return NULL;
}

void ctf_jit_arena_free(struct ctf_jit_arena *a)
{
	(void)a;
}

#endif
