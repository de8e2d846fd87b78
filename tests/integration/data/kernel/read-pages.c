/*
 * read-pages.c - reads every page of the trace_pipe_raw files given (one
 * per CPU) until they are empty, decodes them with src/kernel/ring-page.c,
 * and prints the records of event id ID (ftrace's print: a marker) as
 * "NS PID TEXT", one per line, then "pages N missed M" on stderr.
 * Exit 1 on a damaged page, with its reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/ring-page.h"

int main(int argc, char **argv)
{
	unsigned int pages = 0, missed = 0;
	long id;

	if (argc < 3) {
		fprintf(stderr, "usage: read-pages ID TRACE_PIPE_RAW...\n");
		return 2;
	}
	id = strtol(argv[1], NULL, 10);
	for (int i = 2; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_NONBLOCK);
		static uint8_t buf[65536];
		ssize_t n;

		if (fd < 0) {
			perror(argv[i]);
			return 1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0) {
			struct ring_page p;
			struct ring_record r;
			const char *err;
			int st;

			pages++;
			if (ring_page_open(&p, buf, (size_t)n, &err)) {
				fprintf(stderr, "%s: page %u: %s\n", argv[i], pages, err);
				return 1;
			}
			missed += p.missed;
			while ((st = ring_page_next(&p, &r, &err)) > 0) {
				unsigned short type;
				int pid;

				if (r.len < 16)
					continue;
				memcpy(&type, r.payload, 2);
				memcpy(&pid, r.payload + 4, 4);
				if (type == id) {
					const char *text = (const char *)r.payload + 16;
					size_t len = strnlen(text, r.len - 16);

					if (len && text[len - 1] == '\n') /* the marker's newline */
						len--;
					printf("%llu %d %.*s\n", (unsigned long long)r.ts, pid,
					       (int)len, text);
				}
			}
			if (st < 0) {
				fprintf(stderr, "%s: page %u at %u: %s\n", argv[i], pages, p.pos,
					err);
				return 1;
			}
		}
		if (n < 0 && errno != EAGAIN) {
			perror(argv[i]);
			return 1;
		}
		close(fd);
	}
	fprintf(stderr, "pages %u missed %u\n", pages, missed);
	return 0;
}
