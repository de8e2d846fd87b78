/*
 * fuzz_proc_text.c - libFuzzer target for the parsers of /proc and /sys
 * text the kernel state dump reads (src/kernel/proc-text.c): any bytes as
 * a stat line, a sched line, a status file, fdinfo, a maps line, an id map,
 * a namespace link, a partitions line, cpuinfo and interrupts lines. None
 * may read past the bytes (the copy is of their exact size), a name comes
 * back NUL-padded in its 16 bytes, and the cpuinfo walk moves forward and
 * ends.
 *
 * FUZZ-SOURCES: src/kernel/proc-text.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "check.h"
#include "kernel/proc-text.h"

static void check_padded(const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	CHECK(n < size);
	for (size_t i = n; i < size; i++)
		CHECK(s[i] == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct proc_stat st;
	struct proc_status status;
	struct proc_map map;
	struct proc_partition part;
	struct proc_cpu cpu;
	struct proc_irq_line irq;
	char comm[PROC_COMM_LEN];
	uint32_t flags;
	size_t pos = 0;
	unsigned int blocks = 0;

	memcpy(buf, data, size);
	if (!proc_stat_parse(buf, size, &st)) {
		check_padded(st.comm, sizeof(st.comm));
		CHECK(st.state != ' ' && st.state != '\n');
	}
	if (!proc_sched_comm(buf, size, comm))
		check_padded(comm, sizeof(comm));
	if (!proc_status_parse(buf, size, &status))
		CHECK(status.nr_levels <= PROC_NS_LEVELS && (status.has_ids || status.nr_levels));
	(void)proc_fdinfo_flags(buf, size, &flags);
	if (!proc_maps_line(buf, size, &map))
		CHECK((map.flags & ~0xfull) == 0);
	(void)proc_idmap_inside(buf, size, 1000);
	(void)proc_ns_inum(buf, size, "pid");
	if (!proc_partitions_line(buf, size, &part)) {
		check_padded(part.name, sizeof(part.name));
		CHECK(part.major <= 0xfff && part.minor <= 0xfffff && part.name[0]);
	}
	for (;;) {
		size_t before = pos;

		if (!proc_cpuinfo_next(buf, size, &pos, &cpu))
			break;
		CHECK(pos > before && pos <= size);
		check_padded(cpu.vendor, sizeof(cpu.vendor));
		check_padded(cpu.model_name, sizeof(cpu.model_name));
		CHECK(++blocks <= size);
	}
	unsigned int ncpus = proc_interrupts_ncpus(buf, size);

	CHECK(ncpus <= size / 4);
	if (!proc_interrupts_line(buf, size, size ? (unsigned char)buf[0] % 4 : 0, &irq)) {
		check_padded(irq.chip, sizeof(irq.chip));
		CHECK(irq.actions >= buf && irq.actions + irq.actions_len <= buf + size);
	}
	free(buf);
	return 0;
}
