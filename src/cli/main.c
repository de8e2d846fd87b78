/* main.c - the `trax` command: dispatch to its subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/view.h"

#ifndef TRAX_VERSION
#define TRAX_VERSION "0.1.0"
#endif

static void usage(FILE *f)
{
	fputs("Usage: trax COMMAND [ARGS]\n"
	      "\n"
	      "Commands:\n"
	      "  view [OPTIONS] PATH...   print the events of CTF traces as text\n"
	      "                           (babeltrace2's default output)\n"
	      "  help [COMMAND]           print this help, or a command's\n"
	      "  version                  print the version\n",
	      f);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(cmd, "view"))
		return trax_view_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		if (argc > 2 && !strcmp(cmd, "help")) {
			if (!strcmp(argv[2], "view")) {
				trax_view_usage(stdout);
				return 0;
			}
			fprintf(stderr, "trax: unknown command '%s'\n", argv[2]);
			usage(stderr);
			return 2;
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("trax %s\n", TRAX_VERSION);
		return 0;
	}
	fprintf(stderr, "trax: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
