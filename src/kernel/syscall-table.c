/*
 * syscall-table.c - the table of system calls (syscall-table.h) read from
 * tracefs: one format file per call (events/syscalls/sys_enter_NAME/format,
 * parsed by tp-format.c) gives its arguments' names and C types; the rules
 * of syscall-rules.c and syscall-override.c turn them into the entry and
 * exit event classes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/syscall-table.h"
#include "kernel/tp-format.h"

int sc_event_init(struct sc_event *ev, const char *prefix, const char *call, unsigned int nfields)
{
	size_t len = strlen(prefix) + strlen(call) + 1;

	memset(ev, 0, sizeof(*ev));
	ev->name = malloc(len);
	ev->fields = calloc(nfields ? nfields : 1, sizeof(*ev->fields));
	ev->src = calloc(nfields ? nfields : 1, sizeof(*ev->src));
	if (!ev->name || !ev->fields || !ev->src)
		return -1;
	snprintf(ev->name, len, "%s%s", prefix, call);
	ev->nfields = nfields;
	ev->lenarg = SC_MAX_ARGS; /* none */
	ev->kc.id = KEVENT_ID_NONE;
	ev->kc.cls.name = ev->name;
	ev->kc.cls.loglevel = -1;
	ev->kc.cls.fields = ev->fields;
	ev->kc.cls.nr_fields = nfields;
	return 0;
}

static void event_free(struct sc_event *ev)
{
	free(ev->name);
	free(ev->fields);
	free(ev->src);
	memset(ev, 0, sizeof(*ev));
}

static struct ctfw_type int_type(unsigned int bits, bool is_signed)
{
	return (struct ctfw_type){.kind = CTFW_TYPE_INTEGER,
				  .integer = ctfw_integer(bits, is_signed, 10)};
}

/* Field i of ev: argument a of c, typed by the rules. */
static void arg_field(struct sc_event *ev, unsigned int i, const struct sc_call *c, unsigned int a,
		      unsigned int *fallback_types)
{
	ev->fields[i].name = c->arg_name[a];
	ev->src[i].arg = (uint8_t)a;
	if (sc_is_user_string(c->arg_type[a], c->arg_name[a])) {
		ev->fields[i].type = (struct ctfw_type){.kind = CTFW_TYPE_STRING};
		ev->src[i].src = SC_SRC_STR;
		ev->cap[a] = SC_CAP_STR;
	} else {
		struct sc_ctype t = sc_ctype_of(c->arg_type[a]);

		if (!t.known)
			(*fallback_types)++;
		ev->fields[i].type = int_type(t.bits, t.is_signed);
		ev->src[i].src = SC_SRC_ARG;
		ev->src[i].size = t.bits / 8;
	}
}

int sc_call_build(struct sc_call *c, unsigned int *fallback_types)
{
	unsigned int dir[SC_MAX_ARGS], nin = 0, nout = 1, i;
	int r = sc_override_build(c);

	if (r)
		return r < 0 ? -1 : 0;
	for (unsigned int a = 0; a < c->nargs; a++) {
		dir[a] = sc_arg_dir(c->name, c->nr, c->arg_name[a]);
		nin += (dir[a] & SC_IN) != 0;
		nout += (dir[a] & SC_OUT) != 0;
	}
	if (sc_event_init(&c->ev[0], "syscall_entry_", c->name, nin) ||
	    sc_event_init(&c->ev[1], "syscall_exit_", c->name, nout))
		return -1;
	i = 0;
	for (unsigned int a = 0; a < c->nargs; a++)
		if (dir[a] & SC_IN)
			arg_field(&c->ev[0], i++, c, a, fallback_types);
	c->ev[1].fields[0] = (struct ctfw_field){"ret", int_type(64, true)};
	c->ev[1].src[0] = (struct sc_fsrc){SC_SRC_RET, 0, 8};
	i = 1;
	for (unsigned int a = 0; a < c->nargs; a++)
		if (dir[a] & SC_OUT)
			arg_field(&c->ev[1], i++, c, a, fallback_types);
	return 0;
}

/* The unknown-call events, as LTTng-modules lays them out (syscalls_unknown.h). */
static const struct ctfw_type u64_type = {.kind = CTFW_TYPE_INTEGER,
					  .integer = {64, 8, false, 10, 0, 0}};

static int unknown_build(struct sc_event *ev, bool compat, bool exit)
{
	unsigned int n = exit ? 3 : 2, i = 0;

	if (sc_event_init(ev, compat ? "compat_syscall_" : "syscall_",
			  exit ? "exit_unknown" : "entry_unknown", n))
		return -1;
	ev->fields[i] = (struct ctfw_field){"id", int_type(32, true)};
	ev->src[i++] = (struct sc_fsrc){SC_SRC_ID, 0, 4};
	if (exit) {
		ev->fields[i] = (struct ctfw_field){"ret", int_type(64, true)};
		ev->src[i++] = (struct sc_fsrc){SC_SRC_RET, 0, 8};
	}
	ev->fields[i] = (struct ctfw_field){
	    "args", {.kind = CTFW_TYPE_ARRAY, .array = {.elem = &u64_type, .length = SC_MAX_ARGS}}};
	ev->src[i] = (struct sc_fsrc){SC_SRC_ARGS, 0, 8};
	return 0;
}

/* A whole small file into a NUL-terminated buffer (free it); NULL and errno on failure. */
static char *read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		int e = fd < 0 ? errno : ENOMEM;

		if (fd >= 0)
			close(fd);
		free(buf);
		errno = e;
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = cap < (1u << 20) ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Fills c from the format of sys_enter_NAME. 0, 1 (skip it: no number), -1 and err set. */
static int call_from_format(struct sc_call *c, const char *name, const char *text, size_t len,
			    char *err, size_t errlen)
{
	struct tp_event ev;
	char perr[160];
	size_t siglen = 1;
	unsigned int first, nargs;

	memset(c, 0, sizeof(*c));
	c->nr = sc_nr_of(name);
	if (c->nr < 0 || c->nr >= SC_NR_SLOTS)
		return 1;
	if (tp_format_parse(&ev, "syscalls", text, len, perr, sizeof(perr))) {
		snprintf(err, errlen, "sys_enter_%s/format: %s", name, perr);
		return -1;
	}
	/* the common fields, then int __syscall_nr, then the arguments */
	first = ev.nr_common;
	if (first < ev.nr_fields && !strcmp(ev.fields[first].name, "__syscall_nr"))
		first++;
	if (ev.nr_fields - first > SC_MAX_ARGS) {
		snprintf(err, errlen, "sys_enter_%s/format: %u arguments", name,
			 ev.nr_fields - first);
		tp_event_free(&ev);
		return -1;
	}
	nargs = ev.nr_fields - first;
	c->name = strdup(name);
	for (unsigned int f = first; f < ev.nr_fields; f++) {
		c->arg_name[c->nargs] = strdup(ev.fields[f].name);
		c->arg_type[c->nargs] = strdup(ev.fields[f].type);
		if (!c->arg_name[c->nargs] || !c->arg_type[c->nargs])
			break;
		siglen += strlen(ev.fields[f].type) + strlen(ev.fields[f].name) + 3;
		c->nargs++;
	}
	tp_event_free(&ev);
	c->signature = malloc(siglen);
	if (!c->name || c->nargs != nargs || !c->signature) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->signature[0] = '\0';
	for (unsigned int a = 0; a < c->nargs; a++) {
		if (a)
			strcat(c->signature, ", ");
		strcat(c->signature, c->arg_type[a]);
		strcat(c->signature, " ");
		strcat(c->signature, c->arg_name[a]);
	}
	return 0;
}

void sc_call_free(struct sc_call *c)
{
	free(c->name);
	free(c->signature);
	for (unsigned int a = 0; a < SC_MAX_ARGS; a++) {
		free(c->arg_name[a]);
		free(c->arg_type[a]);
	}
	event_free(&c->ev[0]);
	event_free(&c->ev[1]);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct sc_call *)a)->name, ((const struct sc_call *)b)->name);
}

int sc_table_load(struct sc_table *t, const char *root, char *err, size_t errlen)
{
	char dir[512], path[1024];
	struct dirent *de;
	unsigned int cap = 0;
	DIR *d;

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < SC_NR_SLOTS; i++)
		t->by_nr[i] = t->by_nr32[i] = -1;
	snprintf(dir, sizeof(dir), "%s/events/syscalls", root);
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: %s (tracefs with CONFIG_FTRACE_SYSCALLS)", dir,
			 strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		const char *name;
		char *text;
		size_t len;
		int r;

		if (strncmp(de->d_name, "sys_enter_", 10))
			continue;
		name = de->d_name + 10;
		snprintf(path, sizeof(path), "%s/%s/format", dir, de->d_name);
		text = read_file(path, &len);
		if (!text) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if (t->ncalls == cap) {
			struct sc_call *nc = realloc(t->calls, (cap ? cap * 2 : 512) * sizeof(*nc));

			if (!nc) {
				free(text);
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			t->calls = nc;
			cap = cap ? cap * 2 : 512;
		}
		r = call_from_format(&t->calls[t->ncalls], name, text, len, err, errlen);
		free(text);
		if (r < 0) {
			sc_call_free(&t->calls[t->ncalls]);
			goto fail;
		}
		if (r == 0)
			t->ncalls++;
	}
	closedir(d);
	d = NULL;
	if (!t->ncalls) {
		snprintf(err, errlen, "%s: no system call events", dir);
		goto fail;
	}
	qsort(t->calls, t->ncalls, sizeof(*t->calls), by_name);
	for (unsigned int i = 0; i < t->ncalls; i++) {
		struct sc_call *c = &t->calls[i];

		if (t->by_nr[c->nr] >= 0) {
			snprintf(err, errlen, "%s and %s have the same number %d",
				 t->calls[t->by_nr[c->nr]].name, c->name, c->nr);
			goto fail;
		}
		t->by_nr[c->nr] = (int)i;
		if (sc_call_build(c, &t->fallback_types)) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
	}
	for (int compat = 0; compat < 2; compat++)
		for (int exit = 0; exit < 2; exit++)
			if (unknown_build(&t->unknown[compat][exit], compat, exit)) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
	if (sc_compat_load(t)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	return 0;
fail:
	if (d)
		closedir(d);
	sc_table_free(t);
	return -1;
}

void sc_table_free(struct sc_table *t)
{
	for (unsigned int i = 0; i < t->ncalls; i++)
		sc_call_free(&t->calls[i]);
	free(t->calls);
	for (unsigned int i = 0; i < t->ncompat; i++)
		sc_call_free(&t->compat[i]);
	free(t->compat);
	for (int compat = 0; compat < 2; compat++)
		for (int exit = 0; exit < 2; exit++)
			event_free(&t->unknown[compat][exit]);
	memset(t, 0, sizeof(*t));
}
