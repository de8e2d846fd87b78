/* tsdl-scope.c - type names per lexical scope, as small hash tables in the arena. */
#include "reader/tsdl-scope.h"

#include <string.h>

#define SCOPE_BUCKETS 64

struct scope_entry {
	const char *name;
	const struct ctf_type *type;
	struct scope_entry *next;
};

struct tsdl_scope {
	struct tsdl_scope *parent;
	struct scope_entry *buckets[SCOPE_BUCKETS];
};

static unsigned int hash_name(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % SCOPE_BUCKETS;
}

struct tsdl_scope *tsdl_scope_push(struct ctf_arena *arena, struct tsdl_scope *parent)
{
	struct tsdl_scope *scope = ctf_arena_alloc(arena, sizeof(*scope));

	if (scope)
		scope->parent = parent;
	return scope;
}

struct tsdl_scope *tsdl_scope_parent(const struct tsdl_scope *scope)
{
	return scope->parent;
}

static const struct scope_entry *find_here(const struct tsdl_scope *scope, const char *name)
{
	for (const struct scope_entry *e = scope->buckets[hash_name(name)]; e; e = e->next)
		if (strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

const struct ctf_type *tsdl_scope_lookup(const struct tsdl_scope *scope, const char *name)
{
	for (; scope; scope = scope->parent) {
		const struct scope_entry *e = find_here(scope, name);

		if (e)
			return e->type;
	}
	return NULL;
}

int tsdl_scope_add(struct ctf_arena *arena, struct tsdl_scope *scope, const char *name,
		   const struct ctf_type *type)
{
	unsigned int b = hash_name(name);
	struct scope_entry *e;

	if (find_here(scope, name))
		return -1;
	e = ctf_arena_alloc(arena, sizeof(*e));
	if (!e)
		return -2;
	e->name = ctf_arena_strdup(arena, name);
	if (!e->name)
		return -2;
	e->type = type;
	e->next = scope->buckets[b];
	scope->buckets[b] = e;
	return 0;
}
