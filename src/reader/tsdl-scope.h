/*
 * tsdl-scope.h - TSDL lexical scopes: the type names (typealias, typedef,
 * "struct NAME", "variant NAME", "enum NAME") declared in the root, in a
 * trace/env/stream/event/clock/callsite block or in a struct or variant
 * body. An inner scope sees the names of its enclosing ones and may hide
 * them; a name cannot be declared twice in one scope.
 */
#ifndef TRAX_TSDL_SCOPE_H
#define TRAX_TSDL_SCOPE_H

#include "reader/ctf-arena.h"
#include "reader/ctf-ir.h"

struct tsdl_scope;

/* A new empty scope inside parent (NULL for the root); NULL when out of memory. */
struct tsdl_scope *tsdl_scope_push(struct ctf_arena *arena, struct tsdl_scope *parent);
struct tsdl_scope *tsdl_scope_parent(const struct tsdl_scope *scope);
/* The type a name means from scope, looking outwards; NULL when unknown. */
const struct ctf_type *tsdl_scope_lookup(const struct tsdl_scope *scope, const char *name);
/* 0, or -1 when name is already declared in this very scope, -2 when out of memory. */
int tsdl_scope_add(struct ctf_arena *arena, struct tsdl_scope *scope, const char *name,
		   const struct ctf_type *type);

#endif /* TRAX_TSDL_SCOPE_H */
