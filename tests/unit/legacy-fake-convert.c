/*
 * legacy-fake-convert.c - writes the fake legacy trace of legacy-fake.h as
 * a CTF trace in DIR (ltt_convert), for integration/legacy_convert.sh:
 * prints the error line to stderr and exits 1 when the conversion stopped
 * on it (it does: the fake's cpu_1 fails), 2 when nothing was written.
 */
#include <stdio.h>

#include "legacy-fake.h"
#include "legacy/lconvert.h"

int main(int argc, char **argv)
{
	char err[512];
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: legacy-fake-convert DIR\n");
		return 2;
	}
	rc = ltt_convert("fake", argv[1], NULL, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s\n", err);
	return rc == 0 ? 0 : rc == -1 ? 1 : 2;
}
