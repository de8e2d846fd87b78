/*
 * statedump-system.c - the system-wide part of the kernel state dump,
 * after the threads, in LTTng-modules 2.13's order:
 *
 *   interrupts: one event per handler (action) of each interrupt, with its
 *   chip's name and the thread of a threaded handler ("irq/N-NAME", found
 *   among the tasks), from /sys/kernel/irq/N/{chip_name,actions}, or from
 *   /proc/interrupts on kernels without it;
 *
 *   network interfaces: from /sys/class/net in ifindex order, one event
 *   per IPv4 address of an interface that is up (none when it has none),
 *   one with address 0 for an interface that is down; the addresses come
 *   from getifaddrs(), the reader's network namespace's;
 *
 *   block devices: disks and partitions of /proc/partitions (those with a
 *   capacity), dev as the kernel encodes it (major << 20 | minor);
 *
 *   CPUs (x86 only, as in LTTng): /proc/cpuinfo, the online ones.
 */
#include <dirent.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/proc-text.h"
#include "kernel/statedump-record.h"

/* The contents of a one-line sysfs file without its newline, in c->file; -1 when unreadable. */
static long read_line(struct sd_ctx *c, const char *path)
{
	long len = sd_read(c, path);

	while (len > 0 && (c->file[len - 1] == '\n' || c->file[len - 1] == ' '))
		c->file[--len] = '\0';
	return len;
}

/* The thread of a threaded handler (0 for none); its name may be cut. */
static int32_t irq_thread(const struct sd_ctx *c, uint32_t irq, const char *action)
{
	for (size_t i = 0; i < c->nr_irq_threads; i++) {
		const struct sd_irq_thread *t = &c->irq_threads[i];

		if (t->irq == irq && t->action[0] && !strncmp(action, t->action, strlen(t->action)))
			return t->tid;
	}
	return 0;
}

static void put_interrupt(struct sd_ctx *c, uint32_t irq, const char *chip, const char *action)
{
	sd_begin(c);
	sd_put_u32(c, irq);
	sd_put_str(c, chip[0] ? chip : "unnamed_irq_chip");
	sd_put_str(c, action);
	sd_put_i32(c, irq_thread(c, irq, action));
	sd_emit(c, &sd_class_interrupt);
}

/* Each action of a list separated by sep ("," in sysfs, ", " in /proc/interrupts). */
static void put_actions(struct sd_ctx *c, uint32_t irq, const char *chip, const char *list,
			size_t len, const char *sep)
{
	size_t seplen = strlen(sep);
	char action[256];

	while (len && !c->err) {
		const char *next = memmem(list, len, sep, seplen);
		size_t n = next ? (size_t)(next - list) : len;

		if (n < sizeof(action)) {
			memcpy(action, list, n);
			action[n] = '\0';
			put_interrupt(c, irq, chip, action);
		}
		if (!next)
			break;
		len -= n + seplen;
		list = next + seplen;
	}
}

static void interrupts_from_proc(struct sd_ctx *c)
{
	long len = sd_read(c, sd_path(c, "%s/interrupts", c->proc));
	const char *p, *end;
	unsigned int ncpus;

	if (len <= 0)
		return;
	end = c->file + len;
	p = memchr(c->file, '\n', (size_t)len);
	ncpus = proc_interrupts_ncpus(c->file, p ? (size_t)(p - c->file) : (size_t)len);
	while (p && ++p < end && !c->err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct proc_irq_line l;

		if (!proc_interrupts_line(p, (size_t)((nl ? nl : end) - p), ncpus, &l))
			put_actions(c, l.irq, l.chip, l.actions, l.actions_len, ", ");
		p = nl;
	}
}

void sd_dump_interrupts(struct sd_ctx *c)
{
	size_t n;
	int32_t *irqs = sd_numeric_entries(sd_path(c, "%s/kernel/irq", c->sys), &n);
	char chip[128];

	if (!irqs) {
		interrupts_from_proc(c);
		return;
	}
	for (size_t i = 0; i < n && !c->err; i++) {
		long len = read_line(c, sd_path(c, "%s/kernel/irq/%d/chip_name", c->sys, irqs[i]));

		if (len < 0)
			continue;
		snprintf(chip, sizeof(chip), "%s", c->file);
		len = read_line(c, sd_path(c, "%s/kernel/irq/%d/actions", c->sys, irqs[i]));
		if (len > 0)
			put_actions(c, (uint32_t)irqs[i], chip, c->file, (size_t)len, ",");
	}
	free(irqs);
}

struct netdev {
	char name[IFNAMSIZ];
	long ifindex;
	unsigned long flags;
};

static int cmp_netdev(const void *a, const void *b)
{
	const struct netdev *x = a, *y = b;

	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

/* getifaddrs() names an alias address by its label, "eth0:1": it is eth0's. */
static bool addr_of(const struct ifaddrs *ifa, const char *dev)
{
	size_t n = strlen(dev);

	return ifa->ifa_addr && ifa->ifa_addr->sa_family == AF_INET &&
	       !strncmp(ifa->ifa_name, dev, n) && (!ifa->ifa_name[n] || ifa->ifa_name[n] == ':');
}

static void put_netif(struct sd_ctx *c, const char *name, const struct in_addr *addr)
{
	uint32_t be = addr ? addr->s_addr : 0; /* already in network order, as the field is */

	sd_begin(c);
	sd_put_str(c, name);
	sd_put_u32(c, be);
	sd_emit(c, &sd_class_network_interface);
}

void sd_dump_network(struct sd_ctx *c)
{
	DIR *d = opendir(sd_path(c, "%s/class/net", c->sys) ?: "");
	struct netdev *devs = NULL;
	size_t n = 0, cap = 0;
	struct ifaddrs *addrs = NULL;
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct netdev dev = {.ifindex = 0};
		long len;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(dev.name))
			continue;
		strcpy(dev.name, e->d_name);
		len = read_line(c, sd_path(c, "%s/class/net/%s/flags", c->sys, dev.name));
		if (len <= 0)
			continue; /* not an interface (bonding_masters), or gone */
		dev.flags = strtoul(c->file, NULL, 16);
		if (read_line(c, sd_path(c, "%s/class/net/%s/ifindex", c->sys, dev.name)) > 0)
			dev.ifindex = strtol(c->file, NULL, 10);
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct netdev *nd = realloc(devs, ncap * sizeof(*nd));

			if (!nd)
				break;
			devs = nd;
			cap = ncap;
		}
		devs[n++] = dev;
	}
	closedir(d);
	if (n)
		qsort(devs, n, sizeof(*devs), cmp_netdev);
	if (getifaddrs(&addrs))
		addrs = NULL;
	for (size_t i = 0; i < n && !c->err; i++) {
		if (!(devs[i].flags & IFF_UP)) {
			put_netif(c, devs[i].name, NULL);
			continue;
		}
		for (struct ifaddrs *a = addrs; a && !c->err; a = a->ifa_next)
			if (addr_of(a, devs[i].name))
				put_netif(c, devs[i].name,
					  &((const struct sockaddr_in *)(const void *)a->ifa_addr)
					       ->sin_addr);
	}
	if (addrs)
		freeifaddrs(addrs);
	free(devs);
}

void sd_dump_block_devices(struct sd_ctx *c)
{
	long len = sd_read(c, sd_path(c, "%s/partitions", c->proc));
	const char *p = c->file, *end;

	if (len <= 0)
		return;
	end = c->file + len;
	while (p < end && !c->err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct proc_partition part;

		if (!proc_partitions_line(p, (size_t)(eol - p), &part) && part.blocks) {
			sd_begin(c);
			sd_put_u32(c, proc_mkdev(part.major, part.minor));
			sd_put_str(c, part.name);
			sd_emit(c, &sd_class_block_device);
		}
		p = eol + 1;
	}
}

void sd_dump_cpus(struct sd_ctx *c)
{
#if defined(__x86_64__) || defined(__i386__)
	long len = sd_read(c, sd_path(c, "%s/cpuinfo", c->proc));
	size_t pos = 0;
	struct proc_cpu cpu;

	if (len <= 0)
		return;
	while (!c->err && proc_cpuinfo_next(c->file, (size_t)len, &pos, &cpu)) {
		sd_begin(c);
		sd_put_str(c, "x86");
		sd_put_u16(c, (uint16_t)cpu.processor);
		sd_put_str(c, cpu.vendor[0] ? cpu.vendor : "unknown");
		sd_put_u8(c, (uint8_t)cpu.family);
		sd_put_u8(c, (uint8_t)cpu.model);
		sd_put_str(c, cpu.model_name[0] ? cpu.model_name : "unknown");
		sd_put_u16(c, (uint16_t)cpu.physical_id);
		sd_put_u16(c, (uint16_t)cpu.core_id);
		sd_put_u16(c, (uint16_t)cpu.cores);
		sd_emit(c, &sd_class_cpu_topology);
	}
#else
	(void)c;
#endif
}
