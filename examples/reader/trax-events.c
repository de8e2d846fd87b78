/*
 * trax-events.c - a small program built on libtrax-reader (trax/reader.h),
 * the way any other program reads traces with it:
 *
 *	cc trax-events.c $(pkg-config --cflags --libs trax-reader) -o trax-events
 *	./trax-events TRACE...          one line per event: its name, its time
 *	                                in ns (or "-"), its payload's fields
 *	./trax-events --babeltrace TRACE...
 *	                                the text babeltrace2 (and trax view)
 *	                                prints, by trax_reader_print()
 *
 * Payload values: integers and enums in decimal, floats with %g (nan,
 * inf and -inf as such), strings in double quotes with '"', '\' and bytes
 * outside 0x20-0x7e as \xHH, structs as {name=value, ...}, arrays and
 * sequences as [value, ...], variants as their selected option's value.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <trax/reader.h>

static void print_value(const struct trax_field *f);

static void print_string(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_children(const struct trax_field *f, int named)
{
	size_t n = trax_field_child_count(f);

	putchar(named ? '{' : '[');
	for (size_t i = 0; i < n; i++) {
		const struct trax_field *c = trax_field_child(f, i);

		if (i)
			fputs(", ", stdout);
		if (named)
			printf("%s=", trax_field_name(c));
		print_value(c);
	}
	putchar(named ? '}' : ']');
}

static void print_value(const struct trax_field *f)
{
	const char *s;
	size_t len;
	int64_t i;
	uint64_t u;
	double d;

	switch (trax_field_kind(f)) {
	case TRAX_FIELD_SIGNED:
	case TRAX_FIELD_UNSIGNED:
	case TRAX_FIELD_ENUM:
		if (trax_field_int(f, &i) == 0)
			printf("%lld", (long long)i);
		else if (trax_field_uint(f, &u) == 0)
			printf("%llu", (unsigned long long)u);
		break;
	case TRAX_FIELD_FLOAT:
		trax_field_double(f, &d);
		if (isnan(d))
			fputs("nan", stdout);
		else if (isinf(d))
			fputs(d > 0 ? "inf" : "-inf", stdout);
		else
			printf("%g", d);
		break;
	case TRAX_FIELD_STRING:
		s = trax_field_string(f, &len);
		print_string(s, len);
		break;
	case TRAX_FIELD_ARRAY:
	case TRAX_FIELD_SEQUENCE:
		/* text arrays (LTTng's ctf_array_text) read as strings */
		if ((s = trax_field_string(f, &len)))
			print_string(s, len);
		else
			print_children(f, 0);
		break;
	case TRAX_FIELD_STRUCT:
		print_children(f, 1);
		break;
	case TRAX_FIELD_VARIANT:
		print_value(trax_field_variant_selected(f));
		break;
	default:
		fputs("?", stdout);
	}
}

/* trax_reader_each()'s callback: one line per event. */
static int print_event(void *ctx, const struct trax_event *ev)
{
	size_t n = trax_event_field_count(ev, TRAX_SCOPE_PAYLOAD);

	(void)ctx;
	if (trax_event_has_timestamp(ev))
		printf("%s %lld", trax_event_name(ev), (long long)trax_event_timestamp_ns(ev));
	else
		printf("%s -", trax_event_name(ev));
	for (size_t i = 0; i < n; i++) {
		const struct trax_field *f = trax_event_field_by_index(ev, TRAX_SCOPE_PAYLOAD, i);

		printf(" %s=", trax_field_name(f));
		print_value(f);
	}
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	struct trax_reader_options ro;
	struct trax_reader *r;
	int babeltrace = argc > 1 && !strcmp(argv[1], "--babeltrace");
	int first = 1 + babeltrace, st;

	if (argc <= first) {
		fprintf(stderr, "usage: %s [--babeltrace] TRACE...\n", argv[0]);
		return 2;
	}
	trax_reader_options_init(&ro);
	ro.trace_order = TRAX_TRACE_ORDER_BY_NAME; /* ties between traces as babeltrace2 */
	r = trax_reader_open_with((const char *const *)argv + first, (size_t)(argc - first), &ro);
	if (!r) {
		fprintf(stderr, "%s: %s\n", argv[0], trax_reader_error(NULL));
		return 1;
	}
	if (babeltrace)
		st = trax_reader_print(r, STDOUT_FILENO, NULL);
	else
		st = trax_reader_each(r, print_event, NULL);
	if (st < 0)
		fprintf(stderr, "%s: %s\n", argv[0], trax_reader_error(r));
	trax_reader_close(r);
	return st < 0 || fflush(stdout) ? 1 : 0;
}
