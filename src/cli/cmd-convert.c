/*
 * cmd-convert.c - `trax convert PATH -o OUT`: a trace in a format LTTng
 * wrote before CTF (the LTTV format, the 0.x compact format) written as a
 * CTF 1.8 trace (src/legacy/lconvert.h), which Babeltrace 2 and `trax
 * view` read.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "legacy/lconvert.h"
#include "legacy/legacy.h"

void usage_convert(FILE *f)
{
	fputs("Usage: trax convert PATH -o OUT\n"
	      "Write the trace in directory PATH, in a format LTTng wrote before CTF (the\n"
	      "LTTV format of trace versions 0.x, with eventdefs/ facility descriptions, or\n"
	      "the compact format of versions 2.x, with a metadata channel), as a CTF 1.8\n"
	      "trace in directory OUT (created; it must not exist or be empty), which\n"
	      "babeltrace2 and 'trax view' read: the same events, fields and times (ns).\n"
	      "'trax view PATH' converts on the fly the same way.\n"
	      "\n"
	      "A damaged tracefile stops its conversion: the events before the damage are\n"
	      "written, the error is printed (the file and the byte offset) and the exit\n"
	      "status is 1.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output=OUT  the CTF trace's directory\n"
	      "  -h, --help        print this help\n",
	      f);
}

/* 1 when dir exists and holds something, 0 when missing or empty, -1 when not a directory. */
static int non_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while (!found && (e = readdir(d)))
		found = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return found;
}

static void on_warning(void *arg, const char *line)
{
	(void)arg;
	cli_warn("%s", line);
}

/* On a terminal: how far, over the previous line. */
static void on_progress(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	if (total)
		fprintf(stderr, "\rconverting: %3u%%", (unsigned)(done * 100 / total));
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct ltt_convert_stats st = {.warn = on_warning};
	const char *out = NULL, *in;
	char err[2048];
	int c, rc, tty = isatty(STDERR_FILENO);

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage_convert(stdout);
			return CLI_OK;
		default:
			return cli_option_error("convert", c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("Missing the trace to convert (trax convert PATH -o OUT)");
	in = argv[optind];
	if (optind + 1 < argc)
		return cli_extra_argument("convert", argv[optind + 1]);
	if (!out || !*out)
		return cli_usage_error("Missing -o OUT, the CTF trace's directory");
	if (ltt_probe_dir(in) == LTT_FORMAT_NONE)
		return cli_error("%s: not a trace of the LTTV or LTTng 0.x compact format", in);
	rc = non_empty(out);
	if (rc)
		return cli_error(rc > 0 ? "%s exists and is not empty" : "%s is not a directory",
				 out);
	if (tty)
		st.progress = on_progress;
	rc = ltt_convert(in, out, &st, err, sizeof(err));
	if (tty)
		fputs("\r                 \r", stderr);
	if (rc == -2)
		return cli_error("%s", err);
	if (rc == -1) {
		fprintf(stderr, "Error: %s\n", err);
		fprintf(stderr, "%llu events written to %s (those before the error)\n",
			(unsigned long long)st.events, out);
		return CLI_FAIL;
	}
	if (st.skipped)
		cli_warn("%llu events could not be converted", (unsigned long long)st.skipped);
	return CLI_OK;
}
