/* kev.c - event classes classified once (kev.h). */
#include "analysis/kev.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum kev_kind kind;
} exact_names[] = {
    {"sched_switch", KEV_SCHED_SWITCH},
    {"sched_wakeup", KEV_SCHED_WAKEUP},
    {"sched_wakeup_new", KEV_SCHED_WAKEUP},
    {"sched_waking", KEV_SCHED_WAKEUP},
    {"sched_migrate_task", KEV_SCHED_MIGRATE},
    {"sched_process_fork", KEV_SCHED_FORK},
    {"sched_process_exec", KEV_SCHED_EXEC},
    {"sched_process_exit", KEV_SCHED_EXIT},
    {"sched_process_free", KEV_SCHED_FREE},
    {"sched_pi_setprio", KEV_SCHED_PI_SETPRIO},
    {"lttng_statedump_process_state", KEV_STATEDUMP_PROCESS},
    {"irq_handler_entry", KEV_IRQ_ENTRY},
    {"irq_handler_exit", KEV_IRQ_EXIT},
    {"softirq_raise", KEV_SOFTIRQ_RAISE},
    {"softirq_entry", KEV_SOFTIRQ_ENTRY},
    {"softirq_exit", KEV_SOFTIRQ_EXIT},
    {"lttng_statedump_file_descriptor", KEV_STATEDUMP_FD},
    {"lttng_statedump_block_device", KEV_STATEDUMP_BLOCK},
    {"block_rq_issue", KEV_BLOCK_RQ_ISSUE},
    {"block_rq_complete", KEV_BLOCK_RQ_COMPLETE},
    {"irq_softirq_raise", KEV_LTTNG_SOFTIRQ_RAISE},
    {"irq_softirq_entry", KEV_LTTNG_SOFTIRQ_ENTRY},
    {"irq_softirq_exit", KEV_LTTNG_SOFTIRQ_EXIT},
};

/* The field names of each role, tried in order; ctx: in the context scopes only. */
static const struct {
	const char *names[2];
	int ctx; /* 1: in the context scopes only, 2: in the packet context only, 3: in the stream
		    event context only */
} role_names[KR_ROLE_COUNT] = {
    [KR_CPU_ID] = {{"cpu_id"}, 0},
    [KR_PREV_COMM] = {{"prev_comm"}, 0},
    [KR_PREV_TID] = {{"prev_tid"}, 0},
    [KR_PREV_PRIO] = {{"prev_prio"}, 0},
    [KR_NEXT_COMM] = {{"next_comm"}, 0},
    [KR_NEXT_TID] = {{"next_tid"}, 0},
    [KR_NEXT_PRIO] = {{"next_prio"}, 0},
    [KR_COMM] = {{"comm"}, 0},
    [KR_TID] = {{"tid"}, 0},
    [KR_PID] = {{"pid"}, 0},
    [KR_PRIO] = {{"prio"}, 0},
    [KR_NEWPRIO] = {{"newprio"}, 0},
    [KR_TARGET_CPU] = {{"target_cpu"}, 0},
    [KR_NAME] = {{"name"}, 0},
    [KR_PARENT_COMM] = {{"parent_comm"}, 0},
    [KR_PARENT_PID] = {{"parent_pid"}, 0},
    [KR_CHILD_COMM] = {{"child_comm"}, 0},
    [KR_CHILD_TID] = {{"child_tid"}, 0},
    [KR_CHILD_PID] = {{"child_pid"}, 0},
    [KR_RET] = {{"ret"}, 0},
    [KR_IRQ] = {{"irq"}, 0},
    [KR_VEC] = {{"vec"}, 0},
    [KR_CTX_PROCNAME] = {{"procname"}, 1},
    [KR_CTX_TID] = {{"tid", "vtid"}, 1},
    [KR_CTX_PID] = {{"pid", "vpid"}, 1},
    [KR_PKT_CPU_ID] = {{"cpu_id"}, 2},
    [KR_FD] = {{"fd"}, 0},
    [KR_FILENAME] = {{"filename"}, 0},
    [KR_FLAGS] = {{"flags"}, 0},
    [KR_COUNT] = {{"count"}, 0},
    [KR_VLEN] = {{"vlen"}, 0},
    [KR_SIZE] = {{"size"}, 0},
    [KR_LEN] = {{"len"}, 0},
    [KR_NBYTES] = {{"nbytes"}, 0},
    [KR_OLDFD] = {{"oldfd"}, 0},
    [KR_NEWFD] = {{"newfd"}, 0},
    [KR_FILDES] = {{"fildes"}, 0},
    [KR_CMD] = {{"cmd"}, 0},
    [KR_DEV] = {{"dev"}, 0},
    [KR_SECTOR] = {{"sector"}, 0},
    [KR_NR_SECTOR] = {{"nr_sector"}, 0},
    [KR_DISKNAME] = {{"diskname"}, 0},
    [KR_SEC_PID] = {{"pid"}, 3},
};

/* Babeltrace 1's order of scopes (bt: Event.__getitem__). */
static const enum trax_scope scope_order[] = {
    TRAX_SCOPE_PAYLOAD,	     TRAX_SCOPE_EVENT_CONTEXT,	TRAX_SCOPE_STREAM_EVENT_CONTEXT,
    TRAX_SCOPE_EVENT_HEADER, TRAX_SCOPE_PACKET_CONTEXT, TRAX_SCOPE_PACKET_HEADER,
};

void kev_init(struct kev_table *t)
{
	memset(t, 0, sizeof(*t));
	an_idmap_init(&t->map);
}

void kev_free(struct kev_table *t)
{
	for (size_t i = 0; i < t->count; i++) {
		free(t->classes[i]->name);
		free(t->classes[i]);
	}
	free(t->classes);
	an_idmap_free(&t->map);
	memset(t, 0, sizeof(*t));
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

enum kev_kind kev_kind_of(const char *name, const char **syscall)
{
	if (syscall)
		*syscall = NULL;
	for (size_t i = 0; i < sizeof(exact_names) / sizeof(exact_names[0]); i++)
		if (!strcmp(name, exact_names[i].name))
			return exact_names[i].kind;
	if (starts(name, "compat_syscall_"))
		return KEV_COMPAT_SYSCALL;
	if (starts(name, "syscall_entry_") || starts(name, "sys_")) {
		if (syscall)
			*syscall = name + (starts(name, "sys_") ? 4 : 14);
		return KEV_SYSCALL_ENTRY;
	}
	if (starts(name, "syscall_exit_") || starts(name, "exit_syscall"))
		return KEV_SYSCALL_EXIT;
	return KEV_OTHER;
}

struct kev_ref kev_find(const struct trax_event *ev, const char *name,
			const enum trax_scope *scopes, size_t nscopes)
{
	struct kev_ref ref = {-1, 0};

	for (size_t s = 0; s < nscopes; s++) {
		size_t n = trax_event_field_count(ev, scopes[s]);

		for (size_t i = 0; i < n && i <= UINT16_MAX; i++) {
			const char *fn =
			    trax_field_name(trax_event_field_by_index(ev, scopes[s], i));

			if (fn && !strcmp(fn, name)) {
				ref.scope = (int8_t)scopes[s];
				ref.index = (uint16_t)i;
				return ref;
			}
		}
	}
	return ref;
}

/* ctx_only: 0 any scope, 1 the event contexts, 2 the packet context, 3 the stream's event context
 */
static struct kev_ref find_field(const struct trax_event *ev, const char *name, int ctx_only)
{
	static const enum trax_scope ctx[] = {TRAX_SCOPE_EVENT_CONTEXT,
					      TRAX_SCOPE_STREAM_EVENT_CONTEXT};

	switch (ctx_only) {
	case 1:
		return kev_find(ev, name, ctx, 2);
	case 2:
		return kev_find(ev, name, &(enum trax_scope){TRAX_SCOPE_PACKET_CONTEXT}, 1);
	case 3:
		return kev_find(ev, name, ctx + 1, 1);
	default:
		return kev_find(ev, name, scope_order,
				sizeof(scope_order) / sizeof(scope_order[0]));
	}
}

const struct kev_class *kev_lookup_slow(struct kev_table *t, const struct trax_event *ev,
					uint64_t key)
{
	uint32_t i = an_idmap_get(&t->map, key);
	struct kev_class *c;
	const char *name, *sys;

	if (i != AN_IDMAP_NONE) {
		t->last = t->classes[i];
		t->last_key = key;
		return t->last;
	}
	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct kev_class **v = realloc(t->classes, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->classes = v;
		t->cap = cap;
	}
	c = calloc(1, sizeof(*c));
	name = trax_event_name(ev);
	if (!c || !(c->name = strdup(name ? name : ""))) {
		free(c);
		return NULL;
	}
	c->kind = kev_kind_of(c->name, &sys);
	c->syscall = sys;
	c->id = (uint32_t)t->count;
	c->trace = trax_event_trace_index(ev);
	c->stream_class_id = trax_event_stream_class_id(ev);
	for (int r = 0; r < KR_ROLE_COUNT; r++) {
		c->ref[r].scope = -1;
		for (int k = 0; k < 2 && role_names[r].names[k] && c->ref[r].scope < 0; k++)
			c->ref[r] = find_field(ev, role_names[r].names[k], role_names[r].ctx);
	}
	if (an_idmap_put(&t->map, key, c->id)) {
		free(c->name);
		free(c);
		return NULL;
	}
	t->classes[t->count++] = c;
	t->kinds_seen |= 1u << c->kind;
	t->last = c;
	t->last_key = key;
	return c;
}

int kev_int(const struct trax_event *ev, const struct kev_class *c, enum kev_role role, int64_t *v)
{
	const struct trax_field *f;
	uint64_t u;

	if (c->ref[role].scope < 0)
		return -1;
	f = trax_event_field_by_index(ev, (enum trax_scope)c->ref[role].scope, c->ref[role].index);
	if (!f)
		return -1;
	if (trax_field_int(f, v) == 0)
		return 0;
	if (trax_field_uint(f, &u) == 0) {
		*v = (int64_t)u;
		return 0;
	}
	return -1;
}

const char *kev_str(const struct trax_event *ev, const struct kev_class *c, enum kev_role role)
{
	const struct trax_field *f;

	if (c->ref[role].scope < 0)
		return NULL;
	f = trax_event_field_by_index(ev, (enum trax_scope)c->ref[role].scope, c->ref[role].index);
	return f ? trax_field_string(f, NULL) : NULL;
}
