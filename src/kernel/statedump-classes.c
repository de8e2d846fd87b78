/*
 * statedump-classes.c - the lttng_statedump_* event classes, with the
 * names, field names and CTF types LTTng-modules 2.13 gives them
 * (include/instrumentation/events/lttng-statedump.h, read for these facts):
 * pid_t and int are signed 32-bit integers, unsigned int, dev_t, uid_t,
 * gid_t and fmode_t unsigned 32-bit ones, unsigned long and pointers
 * unsigned 64-bit ones (x86-64), shown in the base LTTng asks for (hex for
 * addresses and fmode, octal for open flags); the IPv4 address is
 * big-endian; a task's name is a 16-byte text array of (signed) chars.
 * LTTng writes type, mode, submode and status as plain ints, not
 * enumerations, and so does trax.
 */
#include "kernel/statedump-record.h"

#define INT(bits, sgn, b)                                                                          \
	{                                                                                          \
		.kind = CTFW_TYPE_INTEGER,                                                         \
		.integer = {.size = (bits), .align = 8, .is_signed = (sgn), .base = (b)},          \
	}
#define I32	INT(32, true, 10)
#define U32	INT(32, false, 10)
#define U32_OCT INT(32, false, 8)
#define U32_HEX INT(32, false, 16)
#define U64	INT(64, false, 10)
#define U64_HEX INT(64, false, 16)
#define U16	INT(16, false, 10)
#define U8	INT(8, false, 10)
#define STRING                                                                                     \
	{                                                                                          \
		.kind = CTFW_TYPE_STRING                                                           \
	}

static const struct ctfw_type comm_char = {
    .kind = CTFW_TYPE_INTEGER,
    .integer =
	{.size = 8, .align = 8, .is_signed = true, .base = 10, .encoding = CTFW_ENCODING_UTF8},
};

#define CLASS(var, lttng_name, fields_array)                                                       \
	struct kevent_class var = {                                                                \
	    .cls = {.name = (lttng_name),                                                          \
		    .loglevel = -1,                                                                \
		    .fields = (fields_array),                                                      \
		    .nr_fields = sizeof(fields_array) / sizeof((fields_array)[0])},                \
	    .id = KEVENT_ID_NONE,                                                                  \
	}

struct kevent_class sd_class_start = {.cls = {.name = "lttng_statedump_start", .loglevel = -1},
				      .id = KEVENT_ID_NONE};
struct kevent_class sd_class_end = {.cls = {.name = "lttng_statedump_end", .loglevel = -1},
				    .id = KEVENT_ID_NONE};

static const struct ctfw_field process_state[] = {
    {"tid", I32},
    {"pid", I32},
    {"ppid", I32},
    {"name", {.kind = CTFW_TYPE_ARRAY, .array = {.elem = &comm_char, .length = 16}}},
    {"type", I32},
    {"mode", I32},
    {"submode", I32},
    {"status", I32},
    {"cpu", U32},
    {"file_table_address", U64_HEX},
};
CLASS(sd_class_process_state, "lttng_statedump_process_state", process_state);

static const struct ctfw_field process_pid_ns[] = {
    {"tid", I32}, {"vtid", I32}, {"vpid", I32}, {"vppid", I32}, {"ns_level", I32}, {"ns_inum", U32},
};
CLASS(sd_class_process_pid_ns, "lttng_statedump_process_pid_ns", process_pid_ns);

static const struct ctfw_field process_user_ns[] = {
    {"tid", I32}, {"vuid", U32}, {"vgid", U32}, {"ns_level", I32}, {"ns_inum", U32},
};
CLASS(sd_class_process_user_ns, "lttng_statedump_process_user_ns", process_user_ns);

/* The other namespaces: the thread and the namespace's inode. */
static const struct ctfw_field process_ns[] = {
    {"tid", I32},
    {"ns_inum", U32},
};
CLASS(sd_class_process_cgroup_ns, "lttng_statedump_process_cgroup_ns", process_ns);
CLASS(sd_class_process_ipc_ns, "lttng_statedump_process_ipc_ns", process_ns);
CLASS(sd_class_process_mnt_ns, "lttng_statedump_process_mnt_ns", process_ns);
CLASS(sd_class_process_net_ns, "lttng_statedump_process_net_ns", process_ns);
CLASS(sd_class_process_uts_ns, "lttng_statedump_process_uts_ns", process_ns);
CLASS(sd_class_process_time_ns, "lttng_statedump_process_time_ns", process_ns);

static const struct ctfw_field file_descriptor[] = {
    {"file_table_address", U64_HEX},
    {"fd", I32},
    {"flags", U32_OCT},
    {"fmode", U32_HEX},
    {"filename", STRING},
};
CLASS(sd_class_file_descriptor, "lttng_statedump_file_descriptor", file_descriptor);

static const struct ctfw_field vm_map[] = {
    {"pid", I32},	{"start", U64_HEX}, {"end", U64_HEX},
    {"flags", U64_HEX}, {"inode", U64},	    {"pgoff", U64},
};
CLASS(sd_class_vm_map, "lttng_statedump_vm_map", vm_map);

static const struct ctfw_field network_interface[] = {
    {"name", STRING},
    {"address_ipv4",
     {.kind = CTFW_TYPE_INTEGER,
      .integer = {.size = 32, .align = 8, .base = 16, .byte_order = CTFW_BYTE_ORDER_BE}}},
};
CLASS(sd_class_network_interface, "lttng_statedump_network_interface", network_interface);

static const struct ctfw_field block_device[] = {
    {"dev", U32},
    {"diskname", STRING},
};
CLASS(sd_class_block_device, "lttng_statedump_block_device", block_device);

static const struct ctfw_field interrupt[] = {
    {"irq", U32},
    {"name", STRING},
    {"action", STRING},
    {"tid", I32},
};
CLASS(sd_class_interrupt, "lttng_statedump_interrupt", interrupt);

static const struct ctfw_field cpu_topology[] = {
    {"architecture", STRING}, {"cpu_id", U16},	{"vendor", STRING},
    {"family", U8},	      {"model", U8},	{"model_name", STRING},
    {"physical_id", U16},     {"core_id", U16}, {"cores", U16},
};
CLASS(sd_class_cpu_topology, "lttng_statedump_cpu_topology", cpu_topology);
