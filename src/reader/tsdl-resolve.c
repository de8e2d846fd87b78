/*
 * tsdl-resolve.c - resolving the field paths of sequences (length) and
 * variants (tag) to a scope and a chain of field indexes, by CTF 1.8's
 * rules:
 *
 * - an absolute path starts with a scope prefix ("stream.event.header.")
 *   and names a field of that scope, which must be an earlier scope or an
 *   earlier field of the current one;
 * - a relative path names the nearest field declared before the sequence or
 *   variant, in its struct or an enclosing one (innermost first), then goes
 *   down through struct fields (and array elements); failing that, a field
 *   of an earlier scope, nearest scope first.
 *
 * A type holding paths can be used in several places (a typealias) and a
 * relative path means a different field in each: so the type is copied for
 * each place before its paths are resolved in the copy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tsdl-build.h"

/* Copies of types made for one scope root, at most (bounds exponential typedef nesting). */
#define MAX_COPIED_NODES (1u << 18)
#define MAX_PATH_STEPS	 (2 * TSDL_MAX_TYPE_DEPTH + 2)
#define MAX_PATH_NAMES	 64

struct frame {
	const struct ctf_type *type;
	int32_t step; /* the field, option or element being walked */
};

struct resolver {
	struct ctf_arena *arena;
	const struct ctf_type **roots;
	enum ctf_scope scope;
	struct frame stack[TSDL_MAX_TYPE_DEPTH + 1];
	unsigned int depth;
	unsigned long copies_left;
	const char *file;
	struct tsdl_error *err;
	jmp_buf fail;
};

static const char *kind_name(const struct ctf_type *t)
{
	static const char *const names[] = {
	    [CTF_TYPE_INTEGER] = "an integer",	[CTF_TYPE_FLOAT] = "a floating point number",
	    [CTF_TYPE_ENUM] = "an enumeration", [CTF_TYPE_STRING] = "a string",
	    [CTF_TYPE_STRUCT] = "a struct",	[CTF_TYPE_VARIANT] = "a variant",
	    [CTF_TYPE_ARRAY] = "an array",	[CTF_TYPE_SEQUENCE] = "a sequence",
	};

	return names[t->kind];
}

static __attribute__((noreturn, format(printf, 3, 4))) void
fail(struct resolver *r, const struct ctf_type *at, const char *fmt, ...)
{
	char msg[sizeof(((struct tsdl_error *)0)->message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tsdl_error_set(r->err, r->file, at ? at->line : 0, at ? at->column : 0, "%s", msg);
	longjmp(r->fail, 1);
}

static void *alloc(struct resolver *r, const struct ctf_type *at, size_t size)
{
	void *mem = ctf_arena_alloc(r->arena, size);

	if (!mem)
		fail(r, at, "out of memory (metadata too large)");
	return mem;
}

static struct ctf_field *copy_fields(struct resolver *r, const struct ctf_type *at,
				     const struct ctf_field *fields, unsigned int count);

/* A copy of t in which every node holding paths is new (the rest is shared). */
static const struct ctf_type *instantiate(struct resolver *r, const struct ctf_type *t)
{
	struct ctf_type *copy;

	if (!t->has_paths)
		return t;
	if (r->copies_left-- == 0)
		fail(r, t, "types too large once expanded (more than %u nodes)", MAX_COPIED_NODES);
	copy = alloc(r, t, sizeof(*copy));
	*copy = *t;
	switch (t->kind) {
	case CTF_TYPE_STRUCT:
		copy->u.structure.fields =
		    copy_fields(r, t, t->u.structure.fields, t->u.structure.field_count);
		break;
	case CTF_TYPE_VARIANT:
		copy->u.variant.options =
		    copy_fields(r, t, t->u.variant.options, t->u.variant.option_count);
		break;
	case CTF_TYPE_ARRAY:
		copy->u.array.element = instantiate(r, t->u.array.element);
		break;
	case CTF_TYPE_SEQUENCE:
		copy->u.sequence.element = instantiate(r, t->u.sequence.element);
		break;
	default:
		break;
	}
	return copy;
}

static struct ctf_field *copy_fields(struct resolver *r, const struct ctf_type *at,
				     const struct ctf_field *fields, unsigned int count)
{
	struct ctf_field *copy = alloc(r, at, (count ? count : 1) * sizeof(*copy));

	for (unsigned int i = 0; i < count; i++) {
		copy[i] = fields[i];
		copy[i].type = instantiate(r, fields[i].type);
	}
	return copy;
}

static int find_field(const struct ctf_type *t, const char *name, unsigned int before)
{
	for (unsigned int i = 0; i < t->u.structure.field_count && i < before; i++)
		if (strcmp(t->u.structure.fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

/*
 * Goes down from t through the fields names[0..count), entering array and
 * sequence elements on the way; appends the steps. The target, or NULL;
 * *field: the last field gone through (left alone when count is 0).
 */
static const struct ctf_type *descend(const struct ctf_type *t, char **names, unsigned int count,
				      int32_t *steps, unsigned int *length,
				      const struct ctf_field **field)
{
	for (unsigned int i = 0; i < count; i++) {
		int index;

		while (t->kind == CTF_TYPE_ARRAY || t->kind == CTF_TYPE_SEQUENCE) {
			if (*length == MAX_PATH_STEPS)
				return NULL;
			steps[(*length)++] = CTF_PATH_CURRENT_ELEMENT;
			t = t->kind == CTF_TYPE_ARRAY ? t->u.array.element : t->u.sequence.element;
		}
		if (t->kind != CTF_TYPE_STRUCT || *length == MAX_PATH_STEPS)
			return NULL;
		index = find_field(t, names[i], UINT32_MAX);
		if (index < 0)
			return NULL;
		steps[(*length)++] = index;
		*field = &t->u.structure.fields[index];
		t = t->u.structure.fields[index].type;
	}
	return t;
}

struct scope_prefix {
	const char *text;
	enum ctf_scope scope;
};

static const struct scope_prefix prefixes[] = {
    {"trace.packet.header.", CTF_SCOPE_PACKET_HEADER},
    {"stream.packet.context.", CTF_SCOPE_PACKET_CONTEXT},
    {"stream.event.header.", CTF_SCOPE_EVENT_HEADER},
    {"stream.event.context.", CTF_SCOPE_EVENT_COMMON_CONTEXT},
    {"event.context.", CTF_SCOPE_EVENT_CONTEXT},
    {"event.fields.", CTF_SCOPE_EVENT_FIELDS},
};

/* Splits a copy of path at its dots; the number of names. */
static unsigned int split_path(struct resolver *r, const struct ctf_type *at, const char *path,
			       char **names)
{
	char *copy = ctf_arena_strdup(r->arena, path);
	unsigned int count = 0;

	if (!copy)
		fail(r, at, "out of memory");
	for (char *s = copy;;) {
		char *dot = strchr(s, '.');

		if (count == MAX_PATH_NAMES)
			fail(r, at, "field path '%s' is too long", path);
		names[count++] = s;
		if (!dot)
			break;
		*dot = '\0';
		s = dot + 1;
	}
	return count;
}

/* Whether the field at steps comes before the field being walked, in the current scope. */
static bool precedes_current(const struct resolver *r, const int32_t *steps, unsigned int length)
{
	for (unsigned int i = 0; i < length && i < r->depth; i++) {
		if (steps[i] == r->stack[i].step)
			continue;
		return steps[i] >= 0 && r->stack[i].step >= 0 && steps[i] < r->stack[i].step;
	}
	return false; /* the field itself, or one that contains it or is inside it */
}

static void resolve_path(struct resolver *r, const struct ctf_type *at, const char *path,
			 const char *what, struct ctf_field_path *out,
			 const struct ctf_type **target)
{
	int32_t steps[MAX_PATH_STEPS];
	char *names[MAX_PATH_NAMES];
	const struct ctf_type *found = NULL;
	const struct ctf_field *field = NULL;
	enum ctf_scope scope = r->scope;
	unsigned int length = 0, count;
	int32_t *kept;

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i].text);

		if (strncmp(path, prefixes[i].text, n) != 0)
			continue;
		scope = prefixes[i].scope;
		if (scope > r->scope)
			fail(r, at, "%s '%s' is in %s, which comes after %s", what, path,
			     ctf_scope_name(scope), ctf_scope_name(r->scope));
		if (!r->roots[scope])
			fail(r, at, "%s '%s': there is no %s", what, path, ctf_scope_name(scope));
		count = split_path(r, at, path + n, names);
		found = descend(r->roots[scope], names, count, steps, &length, &field);
		if (!found)
			fail(r, at, "%s '%s' names no field", what, path);
		if (scope == r->scope && !precedes_current(r, steps, length))
			fail(r, at, "%s '%s' must be declared before it is used", what, path);
		goto done;
	}
	if (strncmp(path, "env.", 4) == 0 || strncmp(path, "trace.", 6) == 0 ||
	    strncmp(path, "stream.", 7) == 0 || strncmp(path, "event.", 6) == 0)
		fail(r, at, "%s '%s': not a field path of a packet or event scope", what, path);
	count = split_path(r, at, path, names);
	for (unsigned int k = r->depth; k-- > 0 && !found;) {
		const struct ctf_type *parent = r->stack[k].type;
		int index;

		if (parent->kind != CTF_TYPE_STRUCT)
			continue;
		index = find_field(parent, names[0], (unsigned int)r->stack[k].step);
		if (index < 0)
			continue;
		for (length = 0; length < k; length++)
			steps[length] = r->stack[length].step;
		steps[length++] = index;
		field = &parent->u.structure.fields[index];
		found = descend(parent->u.structure.fields[index].type, names + 1, count - 1, steps,
				&length, &field);
	}
	for (int s = (int)r->scope - 1; s >= 0 && !found; s--) {
		if (!r->roots[s])
			continue;
		length = 0;
		found = descend(r->roots[s], names, count, steps, &length, &field);
		scope = (enum ctf_scope)s;
	}
	if (!found)
		fail(r, at, "%s '%s' names no field declared before it", what, path);
done:
	kept = alloc(r, at, (length ? length : 1) * sizeof(*kept));
	memcpy(kept, steps, length * sizeof(*kept));
	out->scope = scope;
	out->length = length;
	out->steps = kept;
	*target = found;
	/* (the fields are the metadata's, which this pass completes) */
	if (field)
		((struct ctf_field *)field)->length_or_tag = true;
}

static void resolve_sequence(struct resolver *r, struct ctf_type *t)
{
	struct ctf_sequence_type *seq = &t->u.sequence;
	const struct ctf_type *target;

	resolve_path(r, t, seq->length_name, "sequence length", &seq->length, &target);
	if (!((target->kind == CTF_TYPE_INTEGER && !target->u.integer.is_signed) ||
	      (target->kind == CTF_TYPE_ENUM && !target->u.enumeration.container.is_signed)))
		fail(r, t, "sequence length '%s' is %s%s, not an unsigned integer",
		     seq->length_name,
		     target->kind == CTF_TYPE_INTEGER || target->kind == CTF_TYPE_ENUM ? "signed, "
										       : "",
		     kind_name(target));
	seq->length_type = target;
}

static void resolve_variant(struct resolver *r, struct ctf_type *t)
{
	struct ctf_variant_type *var = &t->u.variant;
	const struct ctf_enum_type *tag;
	const struct ctf_type *target;
	int32_t *option_of;

	if (!var->tag_name)
		fail(r, t, "variant without a tag ('variant <tag_field>') used as a field");
	resolve_path(r, t, var->tag_name, "variant tag", &var->tag, &target);
	if (target->kind != CTF_TYPE_ENUM)
		fail(r, t, "variant tag '%s' is %s, not an enumeration", var->tag_name,
		     kind_name(target));
	tag = &target->u.enumeration;
	option_of = alloc(r, t, (tag->mapping_count ? tag->mapping_count : 1) * sizeof(*option_of));
	/* Labels name options by their TSDL identifier, underscore included. */
	for (unsigned int m = 0; m < tag->mapping_count; m++) {
		option_of[m] = -1;
		for (unsigned int o = 0; o < var->option_count; o++)
			if (strcmp(var->options[o].name, tag->mappings[m].label) == 0) {
				option_of[m] = (int32_t)o;
				break;
			}
	}
	var->tag_type = target;
	var->option_of_mapping = option_of;
}

static void walk(struct resolver *r, struct ctf_type *t);

static void walk_child(struct resolver *r, const struct ctf_type *parent, int32_t step,
		       const struct ctf_type *child)
{
	if (!child->has_paths)
		return;
	r->stack[r->depth].type = parent;
	r->stack[r->depth].step = step;
	r->depth++;
	walk(r, (struct ctf_type *)child); /* a copy made by instantiate() */
	r->depth--;
}

static void walk(struct resolver *r, struct ctf_type *t)
{
	if (r->depth >= TSDL_MAX_TYPE_DEPTH)
		fail(r, t, "type nested too deeply");
	switch (t->kind) {
	case CTF_TYPE_STRUCT:
		for (unsigned int i = 0; i < t->u.structure.field_count; i++)
			walk_child(r, t, (int32_t)i, t->u.structure.fields[i].type);
		break;
	case CTF_TYPE_VARIANT:
		resolve_variant(r, t);
		for (unsigned int i = 0; i < t->u.variant.option_count; i++)
			walk_child(r, t, (int32_t)i, t->u.variant.options[i].type);
		break;
	case CTF_TYPE_ARRAY:
		walk_child(r, t, CTF_PATH_CURRENT_ELEMENT, t->u.array.element);
		break;
	case CTF_TYPE_SEQUENCE:
		resolve_sequence(r, t);
		walk_child(r, t, CTF_PATH_CURRENT_ELEMENT, t->u.sequence.element);
		break;
	default:
		break;
	}
}

int tsdl_resolve_scope(struct ctf_arena *arena, const struct ctf_type **roots, enum ctf_scope scope,
		       const struct ctf_type **root, const char *file, struct tsdl_error *err)
{
	struct resolver *r;

	roots[scope] = *root;
	if (!*root || !(*root)->has_paths)
		return 0;
	/* The walk's stack is large: keep it off the C stack (and out of the arena). */
	r = calloc(1, sizeof(*r));
	if (!r) {
		tsdl_error_set(err, file, (*root)->line, (*root)->column, "out of memory");
		return -1;
	}
	r->arena = arena;
	r->roots = roots;
	r->scope = scope;
	r->copies_left = MAX_COPIED_NODES;
	r->file = file;
	r->err = err;
	if (setjmp(r->fail)) {
		free(r);
		return -1;
	}
	*root = instantiate(r, *root);
	roots[scope] = *root;
	walk(r, (struct ctf_type *)*root);
	free(r);
	return 0;
}
