/*
 * filter_eval.c - trax's filter module on the rows of rows.h, without
 * recording: for each expression of the file named by argv[1], the row
 * numbers it accepts, or "refused" when it does not compile; the same
 * output as filter_lttng.sh makes of LTTng's traces. Built from the
 * sources of src/filter.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter/filter.h"
#include "rows.h"

static void ctx_procname(struct filter_arg *o, void *p)
{
	(void)p;
	o->str = "app";
}

static void ctx_vpid(struct filter_arg *o, void *p)
{
	(void)p;
	o->u = (uint64_t)getpid();
}

static void ctx_vtid(struct filter_arg *o, void *p)
{
	(void)p;
	o->u = (uint64_t)gettid();
}

static void ctx_pthread_id(struct filter_arg *o, void *p)
{
	(void)p;
	o->u = (uint64_t)pthread_self();
}

static void ctx_cpu_id(struct filter_arg *o, void *p)
{
	(void)p;
	o->u = (uint64_t)sched_getcpu();
}

static const struct filter_ctx_field ctx[] = {
    {"procname", FILTER_FIELD_STRING, 0, ctx_procname},
    {"vpid", FILTER_FIELD_INT, 0, ctx_vpid},
    {"vtid", FILTER_FIELD_INT, 0, ctx_vtid},
    {"pthread_id", FILTER_FIELD_INT, 0, ctx_pthread_id},
    {"cpu_id", FILTER_FIELD_INT, 0, ctx_cpu_id},
};

static const struct filter_field fields[] = {
    {"n", FILTER_FIELD_INT, 0},
    {"i", FILTER_FIELD_INT, 0},
    {"u", FILTER_FIELD_INT, 0},
    {"i8", FILTER_FIELD_INT, 0},
    {"u8", FILTER_FIELD_INT, 0},
    {"i64", FILTER_FIELD_INT, 0},
    {"u64", FILTER_FIELD_INT, 0},
    {"hx", FILTER_FIELD_INT, 0},
    {"net", FILTER_FIELD_INT, 0},
    {"d", FILTER_FIELD_FLOAT, 0},
    {"f", FILTER_FIELD_FLOAT, 0},
    {"s", FILTER_FIELD_STRING, 0},
    {"arr", FILTER_FIELD_ARRAY, 4 | FILTER_ELEM_SIGNED},
    {"txt", FILTER_FIELD_TEXT, 1 | FILTER_ELEM_SIGNED},
    {"seq", FILTER_FIELD_ARRAY, 2 | FILTER_ELEM_SIGNED},
    {"stxt", FILTER_FIELD_TEXT, 1 | FILTER_ELEM_SIGNED},
    {"e", FILTER_FIELD_INT, 0},
    {"hid", FILTER_FIELD_INT, 0},
    {"hs", FILTER_FIELD_STRING, 0},
};

static void row_args(const struct flt_row *r, struct filter_arg *a)
{
	a[0].u = (uint64_t)(int64_t)r->n;
	a[1].u = (uint64_t)(int64_t)r->i;
	a[2].u = r->u;
	a[3].u = (uint64_t)(int64_t)r->i8;
	a[4].u = r->u8;
	a[5].u = (uint64_t)r->i64;
	a[6].u = r->u64;
	a[7].u = (uint64_t)(int64_t)r->i;
	a[8].u = r->net;
	a[9].d = r->d;
	a[10].d = r->f;
	a[11].str = r->s;
	a[12].seq.ptr = r->arr;
	a[12].seq.count = 3;
	a[13].seq.ptr = r->txt;
	a[13].seq.count = 4;
	a[14].seq.ptr = r->seq;
	a[14].seq.count = r->seq_len;
	a[15].seq.ptr = r->s;
	a[15].seq.count = r->stxt_len;
	a[16].u = (uint64_t)(int64_t)r->e;
	a[17].u = (uint64_t)(int64_t)r->hid;
	a[18].str = r->hs;
}

int main(int argc, char **argv)
{
	const struct filter_layout layout = {fields, sizeof(fields) / sizeof(fields[0]), ctx,
					     sizeof(ctx) / sizeof(ctx[0])};
	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
	char line[4096];

	if (!f) {
		fprintf(stderr, "usage: filter_eval EXPRESSIONS-FILE\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		struct filter_arg args[sizeof(fields) / sizeof(fields[0])];
		struct filter_error err;
		struct filter_program *p;
		uint8_t *bc;
		size_t len;

		line[strcspn(line, "\n")] = 0;
		printf("%s\t", line);
		if (filter_compile(line, &bc, &len, &err)) {
			printf("refused\n");
			continue;
		}
		p = filter_link(bc, len, &layout, &err);
		for (size_t k = 0; p && k < FLT_NR_ROWS; k++) {
			row_args(&flt_rows[k], args);
			if (filter_run(p, args, NULL))
				printf("%d ", flt_rows[k].n);
		}
		printf("\n");
		filter_free(p);
		free(bc);
	}
	fclose(f);
	return 0;
}
