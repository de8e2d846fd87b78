/*
 * contexts.c - the context fields of trax's streams: each one's name, type
 * and size come from one table, so the metadata and the records agree.
 */
#include "writer/contexts.h"

#include <string.h>

/* The characters of procname: LTTng declares them signed, UTF-8. */
static const struct ctfw_type procname_char = {
    .kind = CTFW_TYPE_INTEGER,
    .integer =
	{.size = 8, .align = 8, .is_signed = true, .base = 10, .encoding = CTFW_ENCODING_UTF8},
};

#define CONTEXT_INTEGER(n, bits, sig)                                                              \
	{                                                                                          \
		.name = (n), .type = {                                                             \
			.kind = CTFW_TYPE_INTEGER,                                                 \
			.integer = {.size = (bits), .align = 8, .is_signed = (sig), .base = 10},   \
		}                                                                                  \
	}

static const struct ctfw_field context_fields[CTF_CTX_COUNT] = {
    [CTF_CTX_VPID] = CONTEXT_INTEGER("vpid", 32, true),
    [CTF_CTX_VTID] = CONTEXT_INTEGER("vtid", 32, true),
    [CTF_CTX_PROCNAME] = {.name = "procname",
			  .type = {.kind = CTFW_TYPE_ARRAY,
				   .array = {.elem = &procname_char, .length = CTF_PROCNAME_LEN}}},
    [CTF_CTX_PTHREAD_ID] = CONTEXT_INTEGER("pthread_id", 64, false),
    [CTF_CTX_IP] = CONTEXT_INTEGER("ip", 64, false),
};

int ctf_context_from_name(const char *name)
{
	int i;

	for (i = 0; i < CTF_CTX_COUNT; i++)
		if (!strcmp(name, context_fields[i].name))
			return i;
	return -1;
}

const char *ctf_context_name(int ctx)
{
	return ctx >= 0 && ctx < CTF_CTX_COUNT ? context_fields[ctx].name : "?";
}

unsigned int ctf_context_size(int ctx)
{
	const struct ctfw_type *t;

	if (ctx < 0 || ctx >= CTF_CTX_COUNT)
		return 0;
	t = &context_fields[ctx].type;
	if (t->kind == CTFW_TYPE_ARRAY)
		return t->array.length * (t->array.elem->integer.size / 8u);
	return t->integer.size / 8u;
}

unsigned int ctf_context_fields(struct ctfw_field out[CTF_CTX_COUNT], const uint8_t *contexts,
				unsigned int n)
{
	unsigned int i, k = 0;

	for (i = 0; i < n && k < CTF_CTX_COUNT; i++)
		if (contexts[i] < CTF_CTX_COUNT)
			out[k++] = context_fields[contexts[i]];
	return k;
}
