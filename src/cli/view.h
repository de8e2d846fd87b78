/* view.h - `trax view [OPTIONS] [PATH...]`: Babeltrace 2's default text output. */
#ifndef TRAX_CLI_VIEW_H
#define TRAX_CLI_VIEW_H

/* argv[0] is "view". Returns the exit status: 0, 1 (unreadable trace) or 2 (usage). */
int trax_view_main(int argc, char **argv);
void trax_view_usage(void *stream);

#endif /* TRAX_CLI_VIEW_H */
