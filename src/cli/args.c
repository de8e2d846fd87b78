/*
 * args.c - messages and option values shared by the `trax` commands
 * (cli.h): the lttng(1) size suffixes, timers, log level names and
 * comma-separated lists.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("Error: ", fmt, ap);
	va_end(ap);
	return CLI_FAIL;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("Error: ", fmt, ap);
	va_end(ap);
	return CLI_USAGE;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("Warning: ", fmt, ap);
	va_end(ap);
}

int cli_option_error(const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	int len;

	/* a long option is named as written, without its "=value" */
	if (!strncmp(arg, "--", 2)) {
		len = (int)strcspn(arg, "=");
	} else if (optopt) {
		static char s[3] = "-?";

		s[1] = (char)optopt;
		arg = s;
		len = 2;
	} else {
		len = (int)strlen(arg);
	}
	if (c == ':')
		return cli_usage_error("Option '%.*s' needs a value (see 'trax %s --help')", len,
				       arg, cmd);
	if (!strncmp(arg, "--", 2) && strchr(arg, '=') && optopt)
		return cli_usage_error("Option '%.*s' takes no value (see 'trax %s --help')", len,
				       arg, cmd);
	return cli_usage_error("Unknown option '%.*s' (see 'trax %s --help')", len, arg, cmd);
}

int cli_parse_session_only(int argc, char **argv, const char *cmd, void (*usage)(FILE *),
			   const char **session)
{
	static const struct option opts[] = {
	    {"session", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, session ? ":s:h" : ":h", session ? opts : opts + 1,
				NULL)) != -1) {
		switch (c) {
		case 's':
			*session = optarg;
			break;
		case 'h':
			usage(stdout);
			return CLI_OK;
		default:
			return cli_option_error(cmd, c, argv);
		}
	}
	return -1;
}

int cli_parse_help_only(int argc, char **argv, const char *cmd, void (*usage)(FILE *))
{
	return cli_parse_session_only(argc, argv, cmd, usage, NULL);
}

int cli_extra_argument(const char *cmd, const char *arg)
{
	return cli_usage_error("Unexpected argument '%s' (see 'trax %s --help')", arg, cmd);
}

int cli_missing_domain(void)
{
	return cli_usage_error("Please specify a domain (-k/-u)");
}

int cli_check_domain(bool kernel, bool userspace)
{
	if (kernel && userspace)
		return cli_usage_error("Only one domain can be specified");
	if (!kernel && !userspace)
		return cli_missing_domain();
	return CLI_OK;
}

static int wrong_value(const char *opt, const char *s)
{
	return cli_usage_error("Wrong value in --%s parameter: %s", opt, s);
}

/* Decimal or 0x hexadecimal digits at s, no sign: the end, or NULL. */
static const char *parse_digits(const char *s, uint64_t *v)
{
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return NULL;
	} else if (!isdigit((unsigned char)s[0])) {
		return NULL;
	}
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno ? NULL : end;
}

int cli_parse_size(const char *opt, const char *s, uint64_t *v)
{
	const char *end = parse_digits(s, v);
	unsigned int shift = 0;

	if (!end)
		return wrong_value(opt, s);
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		end++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		end++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		end++;
		break;
	}
	if (*end || (shift && *v > (UINT64_MAX >> shift)))
		return wrong_value(opt, s);
	*v <<= shift;
	return 0;
}

int cli_parse_uint(const char *opt, const char *s, uint64_t max, uint64_t *v)
{
	const char *end = parse_digits(s, v);

	if (!end || *end || *v > max)
		return wrong_value(opt, s);
	return 0;
}

int cli_parse_usec(const char *opt, const char *s, uint64_t *v)
{
	const char *end = parse_digits(s, v);
	uint64_t mul = 1;

	if (!end)
		return wrong_value(opt, s);
	if (!strcmp(end, "ms"))
		mul = 1000;
	else if (!strcmp(end, "s"))
		mul = 1000000;
	else if (*end && strcmp(end, "us"))
		return wrong_value(opt, s);
	if (*v > UINT64_MAX / mul)
		return wrong_value(opt, s);
	*v *= mul;
	return 0;
}

/* LTTng-UST's levels (TRACEPOINT_LOGLEVEL), by number. */
static const char *const loglevels[] = {
    "TRACE_EMERG",	    "TRACE_ALERT",	   "TRACE_CRIT",	 "TRACE_ERR",
    "TRACE_WARNING",	    "TRACE_NOTICE",	   "TRACE_INFO",	 "TRACE_DEBUG_SYSTEM",
    "TRACE_DEBUG_PROGRAM",  "TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
    "TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE",	   "TRACE_DEBUG",
};
#define NLOGLEVELS ((int)(sizeof(loglevels) / sizeof(loglevels[0])))

const char *cli_loglevel_name(int level)
{
	return level >= 0 && level < NLOGLEVELS ? loglevels[level] : NULL;
}

int cli_parse_loglevel(const char *s, int *level)
{
	const char *name = !strncasecmp(s, "TRACE_", 6) ? s + 6 : s;
	uint64_t v;
	const char *end = parse_digits(s, &v);

	if (end && !*end && v < (uint64_t)NLOGLEVELS) {
		*level = (int)v;
		return 0;
	}
	for (int i = 0; i < NLOGLEVELS && *name; i++) {
		if (!strcasecmp(name, loglevels[i] + 6)) {
			*level = i;
			return 0;
		}
	}
	return cli_usage_error("Unknown loglevel %s", s);
}

int cli_split_list(const char *s, const char *what, char ***items, unsigned int *n)
{
	size_t len = strlen(s);
	char *cur = malloc(len + 1);
	size_t k = 0;

	if (!cur)
		return cli_error("out of memory");
	for (size_t i = 0;; i++) {
		if (s[i] == '\\' && s[i + 1] == ',') {
			cur[k++] = ',';
			i++;
			continue;
		}
		if (s[i] == ',' || s[i] == 0) {
			char **grown;

			if (k == 0) {
				free(cur);
				return cli_usage_error("Empty %s in '%s'", what, s);
			}
			cur[k] = 0;
			grown = realloc(*items, (*n + 1) * sizeof(**items));
			if (!grown || !(grown[*n] = strdup(cur))) {
				if (grown)
					*items = grown;
				free(cur);
				return cli_error("out of memory");
			}
			*items = grown;
			(*n)++;
			k = 0;
			if (s[i] == 0)
				break;
			continue;
		}
		cur[k++] = s[i];
	}
	free(cur);
	return 0;
}

void cli_free_list(char **items, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

int cli_check_name(const char *what, const char *name)
{
	if (!*name)
		return cli_usage_error("The %s name is empty", what);
	if (strchr(name, '/'))
		return cli_usage_error("Invalid character '/' in %s name '%s'", what, name);
	if (strlen(name) > CLI_NAME_MAX)
		return cli_usage_error("The %s name is longer than %d characters", what,
				       CLI_NAME_MAX);
	return CLI_OK;
}

char *cli_absolute_path(const char *path)
{
	char *cwd, *out;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!strcmp(path, ".") || !*path) {
		out = cwd;
	} else {
		if (asprintf(&out, "%s%s%s", cwd, cwd[strlen(cwd) - 1] == '/' ? "" : "/", path) < 0)
			out = NULL;
		free(cwd);
	}
	return out;
}

uint64_t cli_pow2_ceil(uint64_t v)
{
	uint64_t p = 1;

	if (v == 0)
		return 0;
	while (p < v && p < (UINT64_C(1) << 63))
		p <<= 1;
	return p < v ? v : p;
}
