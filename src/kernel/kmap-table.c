/*
 * kmap-table.c - the kernel events LTTng-modules 2.13 instruments, as it
 * names and lays them out, written from the tracepoint definitions of its
 * include/instrumentation/events/ (the versions for kernels >= 6.x) and
 * from this kernel's tracefs formats. docs/kernel.md lists where the
 * kernel's records cannot give what LTTng writes.
 *
 * One string per tracefs event:
 *
 *	"SYSTEM:NAME[>LTTNG_NAME] FIELD=TYPE[?][(SOURCE)] ..."
 *
 * LTTNG_NAME: the event's name in LTTng traces (NAME when absent).
 * FIELD: the LTTng field, in LTTng's order. TYPE:
 *	i8 i16 i32 i64 u8 u16 u32 u64	integers (decimal)
 *	x8 x16 x32 x64			unsigned integers shown in hexadecimal
 *	be16				an unsigned 16-bit integer written big-endian
 *	textN				char[N] (ctf_array_text)
 *	str				a string (from char[N], __data_loc char[], or
 *					a kernel string's address: printk_formats)
 *	tseqN				a text sequence with an N-bit length
 *	rwbs				the block layer's rwbs text as LTTng's flags (u32)
 *	vtids				the thread's ids in nested pid namespaces
 *	auto				typed from the tracefs format, as for events
 *					LTTng does not instrument
 *	enum:NAME			an enumeration (kmap_enum_find)
 * "?" after TYPE: the field is left out when the record has no SOURCE
 * (a field newer kernels added); without it a missing source is written
 * as 0 or "".
 * SOURCE (FIELD when absent): a tracefs field, "F-N" / "F+N" (plus a
 * constant), "F&N" (bit N of F), "$tid" (common_pid: the current
 * thread), "#N" (a constant), "tgid:F" / "nsinum:F" (the process id, pid
 * namespace of thread F).
 */
#include <stddef.h>
#include <string.h>

#include "kernel/kmap-internal.h"

#define SCHED_TASK "comm=text16 tid=i32(pid) prio=i32(prio-100)"
#define BLOCK_RQ   "dev=u32 sector=u64 nr_sector=u32 bytes=u32 tid=i32($tid) rwbs=rwbs comm=text16"
#define BLOCK_BIO  "dev=u32 sector=u64 nr_sector=u32 rwbs=rwbs tid=i32($tid) comm=text16"
#define NET_DEV	   "skbaddr=x64 len=u32 name=str network_header_type=enum:net_network_header(#0)"
#define WB_INODE   "name=str ino=u64 state=u64 flags=u64"
#define WB_WRITE   "name=str ino=u64 sync_mode=i32"
#define VECTOR	   "vector=i32"
#define PAGE_FAULT "address=x64 ip=x64 error_code=x8"

static const char *const table[] = {
    /* sched.h */
    "sched:sched_kthread_stop comm=text16 tid=i32(pid)",
    "sched:sched_kthread_stop_ret ret=i32",
    "sched:sched_waking " SCHED_TASK " target_cpu=i32",
    "sched:sched_wakeup " SCHED_TASK " target_cpu=i32",
    "sched:sched_wakeup_new " SCHED_TASK " target_cpu=i32",
    "sched:sched_switch prev_comm=text16 prev_tid=i32(prev_pid) prev_prio=i32(prev_prio-100) "
    "prev_state=i64 next_comm=text16 next_tid=i32(next_pid) next_prio=i32(next_prio-100)",
    "sched:sched_migrate_task " SCHED_TASK " orig_cpu=i32 dest_cpu=i32",
    "sched:sched_process_free " SCHED_TASK,
    "sched:sched_process_exit " SCHED_TASK,
    "sched:sched_wait_task " SCHED_TASK,
    "sched:sched_process_wait " SCHED_TASK,
    "sched:sched_process_fork parent_comm=text16 parent_tid=i32(parent_pid) "
    "parent_pid=i32(tgid:parent_pid) parent_ns_inum=u32(nsinum:parent_pid) child_comm=text16 "
    "child_tid=i32(child_pid) vtids=vtids(child_pid) child_pid=i32(tgid:child_pid) "
    "child_ns_inum=u32(nsinum:child_pid)",
    "sched:sched_process_exec filename=str tid=i32(pid) old_tid=i32(old_pid)",
    "sched:sched_stat_wait comm=text16 tid=i32(pid) delay=u64",
    "sched:sched_stat_sleep comm=text16 tid=i32(pid) delay=u64",
    "sched:sched_stat_iowait comm=text16 tid=i32(pid) delay=u64",
    "sched:sched_stat_blocked comm=text16 tid=i32(pid) delay=u64",
    /* vruntime: the record has none since kernel 6.8 */
    "sched:sched_stat_runtime comm=text16 tid=i32(pid) runtime=u64 vruntime=u64?",
    "sched:sched_pi_setprio comm=text16 tid=i32(pid) oldprio=i32(oldprio-100) "
    "newprio=i32(newprio-100)",

    /* irq.h */
    "irq:irq_handler_entry irq=i32 name=str",
    "irq:irq_handler_exit irq=i32 ret=i32",
    "irq:softirq_entry>irq_softirq_entry vec=u32",
    "irq:softirq_exit>irq_softirq_exit vec=u32",
    "irq:softirq_raise>irq_softirq_raise vec=u32",

    /* timer.h */
    "timer:timer_init timer=x64",
    "timer:timer_start timer=x64 function=x64 expires=u64 bucket_expiry=u64? now=u64 flags=u32",
    "timer:timer_expire_entry timer=x64 now=u64 function=x64 baseclk=u64?",
    "timer:timer_expire_exit timer=x64",
    "timer:timer_cancel timer=x64",
    "timer:hrtimer_init>timer_hrtimer_init hrtimer=x64 clockid=i32 mode=enum:hrtimer_mode",
    /* kernel 6.15 renamed hrtimer_init hrtimer_setup, same fields */
    "timer:hrtimer_setup>timer_hrtimer_init hrtimer=x64 clockid=i32 mode=enum:hrtimer_mode",
    "timer:hrtimer_start>timer_hrtimer_start hrtimer=x64 function=x64 expires=i64 "
    "softexpires=i64 mode=enum:hrtimer_mode was_armed=u8?",
    "timer:hrtimer_expire_entry>timer_hrtimer_expire_entry hrtimer=x64 now=i64 function=x64",
    "timer:hrtimer_expire_exit>timer_hrtimer_expire_exit hrtimer=x64",
    "timer:hrtimer_cancel>timer_hrtimer_cancel hrtimer=x64",
    "timer:itimer_state>timer_itimer_state which=i32 expires=u64 value_sec=i64 value_nsec=i64 "
    "interval_sec=i64 interval_nsec=i64",
    "timer:itimer_expire>timer_itimer_expire which=i32 pid=i32 now=u64",

    /* block.h */
    "block:block_touch_buffer dev=u32 sector=u64 size=u64",
    "block:block_dirty_buffer dev=u32 sector=u64 size=u64",
    "block:block_rq_requeue dev=u32 sector=u64 nr_sector=u32 rwbs=rwbs",
    "block:block_rq_complete dev=u32 sector=u64 nr_sector=u32 error=i32 rwbs=rwbs",
    "block:block_rq_insert " BLOCK_RQ,
    "block:block_rq_issue " BLOCK_RQ,
    "block:block_rq_merge " BLOCK_RQ,
    "block:block_bio_complete dev=u32 sector=u64 nr_sector=u32 error=i32 rwbs=rwbs",
    "block:block_bio_bounce " BLOCK_BIO,
    "block:block_bio_backmerge " BLOCK_BIO,
    "block:block_bio_frontmerge " BLOCK_BIO,
    "block:block_bio_queue " BLOCK_BIO,
    "block:block_getrq " BLOCK_BIO,
    "block:block_plug tid=i32($tid) comm=text16",
    "block:block_unplug nr_rq=i32 tid=i32($tid) comm=text16",
    "block:block_split dev=u32 sector=u64 rwbs=rwbs new_sector=u64 tid=i32($tid) comm=text16",
    "block:block_bio_remap dev=u32 sector=u64 nr_sector=u32 rwbs=rwbs old_dev=u32 "
    "old_sector=u64",
    "block:block_rq_remap dev=u32 sector=u64 nr_sector=u32 old_dev=u32 old_sector=u64 "
    "rwbs=rwbs",

    /* kmem.h; page (a struct page address): the records hold the pfn only */
    "kmem:kmalloc>kmem_kmalloc call_site=x64 ptr=x64 bytes_req=u64 bytes_alloc=u64 "
    "gfp_flags=u32 node=i32 accounted=u8(gfp_flags&22)",
    "kmem:kmem_cache_alloc call_site=x64 ptr=x64 bytes_req=u64 bytes_alloc=u64 gfp_flags=u32 "
    "node=i32 accounted=u8",
    "kmem:kfree>kmem_kfree call_site=x64 ptr=x64",
    "kmem:kmem_cache_free call_site=x64 ptr=x64 name=str",
    "kmem:mm_page_free>kmem_mm_page_free pfn=u64 order=u32",
    "kmem:mm_page_free_batched>kmem_mm_page_free_batched pfn=u64",
    "kmem:mm_page_alloc>kmem_mm_page_alloc pfn=u64 order=u32 gfp_flags=u32 migratetype=i32",
    "kmem:mm_page_alloc_zone_locked>kmem_mm_page_alloc_zone_locked pfn=u64 order=u32 "
    "migratetype=i32 percpu_refill=i32",
    "kmem:mm_page_pcpu_drain>kmem_mm_page_pcpu_drain pfn=u64 order=u32 migratetype=i32",
    "kmem:mm_page_alloc_extfrag>kmem_mm_page_alloc_extfrag pfn=u64 alloc_order=i32 "
    "fallback_order=i32 alloc_migratetype=i32 fallback_migratetype=i32 change_ownership=i32",

    /* net.h; the network_header variant (IP and transport headers) is not recorded */
    "net:net_dev_xmit skbaddr=x64 rc=i32 len=u32 name=str",
    "net:net_dev_queue " NET_DEV,
    "net:netif_receive_skb>net_if_receive_skb " NET_DEV,
    "net:netif_rx>net_if_rx " NET_DEV,
    "net:napi_gro_frags_entry>net_napi_gro_frags_entry skbaddr=x64",
    "net:napi_gro_receive_entry>net_napi_gro_receive_entry skbaddr=x64",
    "net:netif_receive_skb_entry>net_if_receive_skb_entry skbaddr=x64",
    "net:netif_rx_entry>net_if_rx_entry skbaddr=x64",
    "net:netif_rx_ni_entry>net_if_rx_ni_entry skbaddr=x64",
    "net:netif_receive_skb_list_entry>net_if_receive_skb_list_entry skbaddr=x64",
    "net:napi_gro_frags_exit>net_napi_gro_frags_exit ret=i32",
    "net:napi_gro_receive_exit>net_napi_gro_receive_exit ret=i32",
    "net:netif_receive_skb_exit>net_if_receive_skb_exit ret=i32",
    "net:netif_rx_exit>net_if_rx_exit ret=i32",
    "net:netif_rx_ni_exit>net_if_rx_ni_exit ret=i32",
    "net:netif_receive_skb_list_exit>net_if_receive_skb_list_exit ret=i32",
    "napi:napi_poll napi=x64 dev_name=str work=i32 budget=i32",
    "skb:kfree_skb>skb_kfree skbaddr=x64 location=x64 protocol=be16",
    "skb:consume_skb>skb_consume skbaddr=x64",
    "skb:skb_copy_datagram_iovec skbaddr=x64 len=i32",
    "sock:sock_rcvqueue_full rmem_alloc=i32 truesize=u32 sk_rcvbuf=i32",
    "sock:sock_exceed_buf_limit name=str sysctl_mem=auto allocated=i64 sysctl_rmem=i32 "
    "rmem_alloc=i32 sysctl_wmem=i32 wmem_alloc=i32 wmem_queued=i32 kind=i32",
    "udp:udp_fail_queue_rcv_skb rc=i32 sport=u16 dport=u16 family=enum:lttng_sk_family",

    /* power.h */
    "power:cpu_idle>power_cpu_idle state=u32 cpu_id=u32",
    "power:cpu_frequency>power_cpu_frequency state=u32 cpu_id=u32",
    "power:machine_suspend>power_machine_suspend state=u32",
    "power:wakeup_source_activate>power_wakeup_source_activate name=str state=u64",
    "power:wakeup_source_deactivate>power_wakeup_source_deactivate name=str state=u64",
    "power:clock_enable>power_clock_enable name=str state=u64 cpu_id=u64",
    "power:clock_disable>power_clock_disable name=str state=u64 cpu_id=u64",
    "power:clock_set_rate>power_clock_set_rate name=str state=u64 cpu_id=u64",
    "power:power_domain_target name=str state=u64 cpu_id=u64",

    /* signal.h */
    "signal:signal_generate sig=i32 errno=i32 code=i32 comm=text16 pid=i32 group=i32 "
    "result=i32",
    "signal:signal_deliver sig=i32 errno=i32 code=i32 sa_handler=u64 sa_flags=u64",

    /* workqueue.h */
    "workqueue:workqueue_queue_work work=x64 function=x64 req_cpu=i32",
    "workqueue:workqueue_activate_work work=x64",
    "workqueue:workqueue_execute_start work=x64 function=x64",
    "workqueue:workqueue_execute_end work=x64 function=x64",

    /* rcu.h (the others need CONFIG_RCU_TRACE) */
    "rcu:rcu_utilization s=str",

    /* printk.h */
    "printk:console>printk_console msg=tseq64",

    /* writeback.h */
    "writeback:writeback_dirty_inode_start " WB_INODE,
    "writeback:writeback_dirty_inode " WB_INODE,
    "writeback:writeback_mark_inode_dirty " WB_INODE,
    "writeback:writeback_write_inode_start " WB_WRITE,
    "writeback:writeback_write_inode " WB_WRITE,
    "writeback:writeback_queue name=str",
    "writeback:writeback_exec name=str",
    "writeback:writeback_start name=str",
    "writeback:writeback_written name=str",
    "writeback:writeback_wait name=str",
    "writeback:writeback_pages_written pages=i64",
    "writeback:writeback_wake_background name=str",
    "writeback:writeback_bdi_register name=str",
    /* for_reclaim: the record has none */
    "writeback:wbc_writepage>writeback_wbc_writepage name=str nr_to_write=i64 "
    "pages_skipped=i64 sync_mode=i32 for_kupdate=i32 for_background=i32 for_reclaim=i32? "
    "range_cyclic=i32 range_start=i64 range_end=i64",
    "writeback:writeback_queue_io name=str older=u64 moved=i32",
    "writeback:global_dirty_state>writeback_global_dirty_state nr_dirty=u64 nr_writeback=u64 "
    "nr_dirtied=u64 nr_written=u64 background_thresh=u64 dirty_thresh=u64 dirty_limit=u64",
    "writeback:writeback_sb_inodes_requeue name=str ino=u64 state=u64 dirtied_when=u64",
    "writeback:writeback_single_inode name=str ino=u64 state=u64 dirtied_when=u64 "
    "writeback_index=u64 nr_to_write=i64 wrote=u64",

    /* arch/x86/irq_vectors.h */
    "irq_vectors:local_timer_entry>x86_irq_vectors_local_timer_entry " VECTOR,
    "irq_vectors:local_timer_exit>x86_irq_vectors_local_timer_exit " VECTOR,
    "irq_vectors:reschedule_entry>x86_irq_vectors_reschedule_entry " VECTOR,
    "irq_vectors:reschedule_exit>x86_irq_vectors_reschedule_exit " VECTOR,
    "irq_vectors:spurious_apic_entry>x86_irq_vectors_spurious_apic_entry " VECTOR,
    "irq_vectors:spurious_apic_exit>x86_irq_vectors_spurious_apic_exit " VECTOR,
    "irq_vectors:error_apic_entry>x86_irq_vectors_error_apic_entry " VECTOR,
    "irq_vectors:error_apic_exit>x86_irq_vectors_error_apic_exit " VECTOR,
    "irq_vectors:x86_platform_ipi_entry>x86_irq_vectors_ipi_entry " VECTOR,
    "irq_vectors:x86_platform_ipi_exit>x86_irq_vectors_ipi_exit " VECTOR,
    "irq_vectors:irq_work_entry>x86_irq_vectors_irq_work_entry " VECTOR,
    "irq_vectors:irq_work_exit>x86_irq_vectors_irq_work_exit " VECTOR,
    "irq_vectors:call_function_entry>x86_irq_vectors_call_function_entry " VECTOR,
    "irq_vectors:call_function_exit>x86_irq_vectors_call_function_exit " VECTOR,
    "irq_vectors:call_function_single_entry>x86_irq_vectors_call_function_single_entry " VECTOR,
    "irq_vectors:call_function_single_exit>x86_irq_vectors_call_function_single_exit " VECTOR,
    "irq_vectors:threshold_apic_entry>x86_irq_vectors_threshold_apic_entry " VECTOR,
    "irq_vectors:threshold_apic_exit>x86_irq_vectors_threshold_apic_exit " VECTOR,
    "irq_vectors:deferred_error_apic_entry>x86_irq_vectors_deferred_error_apic_entry " VECTOR,
    "irq_vectors:deferred_error_apic_exit>x86_irq_vectors_deferred_error_apic_exit " VECTOR,
    "irq_vectors:thermal_apic_entry>x86_irq_vectors_thermal_apic_entry " VECTOR,
    "irq_vectors:thermal_apic_exit>x86_irq_vectors_thermal_apic_exit " VECTOR,

    /* arch/x86/exceptions.h */
    "exceptions:page_fault_user>x86_exceptions_page_fault_user " PAGE_FAULT,
    "exceptions:page_fault_kernel>x86_exceptions_page_fault_kernel " PAGE_FAULT,
};

const char *kmap_table_find(const char *system, const char *name)
{
	size_t sl = strlen(system), nl = strlen(name);

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const char *e = table[i];

		if (!strncmp(e, system, sl) && e[sl] == ':' && !strncmp(e + sl + 1, name, nl) &&
		    (e[sl + 1 + nl] == ' ' || e[sl + 1 + nl] == '>' || !e[sl + 1 + nl]))
			return e + sl + 1 + nl + (e[sl + 1 + nl] == '>');
	}
	return NULL;
}

unsigned int kmap_table_count(void)
{
	return sizeof(table) / sizeof(table[0]);
}

const char *kmap_table_entry(unsigned int i)
{
	return i < kmap_table_count() ? table[i] : NULL;
}

/* kernel include/linux/hrtimer.h (stable since 5.4): ABS 0, REL 1, PINNED 2, SOFT 4, HARD 8 */
static const struct ctfw_enum_mapping hrtimer_mode[] = {
    {"HRTIMER_MODE_ABS", 0, 0, false, false, false},
    {"HRTIMER_MODE_REL", 1, 1, false, false, false},
    {"HRTIMER_MODE_PINNED", 2, 2, false, false, false},
    {"HRTIMER_MODE_SOFT", 4, 4, false, false, false},
    {"HRTIMER_MODE_HARD", 8, 8, false, false, false},
    {"HRTIMER_MODE_ABS_PINNED", 2, 2, false, false, false},
    {"HRTIMER_MODE_REL_PINNED", 3, 3, false, false, false},
    {"HRTIMER_MODE_ABS_SOFT", 4, 4, false, false, false},
    {"HRTIMER_MODE_REL_SOFT", 5, 5, false, false, false},
    {"HRTIMER_MODE_ABS_PINNED_SOFT", 6, 6, false, false, false},
    {"HRTIMER_MODE_REL_PINNED_SOFT", 7, 7, false, false, false},
    {"HRTIMER_MODE_ABS_HARD", 8, 8, false, false, false},
    {"HRTIMER_MODE_REL_HARD", 9, 9, false, false, false},
    {"HRTIMER_MODE_ABS_PINNED_HARD", 10, 10, false, false, false},
    {"HRTIMER_MODE_REL_PINNED_HARD", 11, 11, false, false, false},
};

static const struct ctfw_enum_mapping sk_family[] = {
    {"AF_INET", 2, 2, false, false, false},
    {"AF_INET6", 10, 10, false, false, false},
};

static const struct ctfw_enum_mapping network_header[] = {
    {"_unknown", 0, 0, false, false, false},
    {"_ipv4", 1, 1, false, false, false},
    {"_ipv6", 2, 2, false, false, false},
};

static const struct kmap_enum enums[] = {
    {"hrtimer_mode", hrtimer_mode, sizeof(hrtimer_mode) / sizeof(hrtimer_mode[0]), 32},
    {"lttng_sk_family", sk_family, sizeof(sk_family) / sizeof(sk_family[0]), 16},
    {"net_network_header", network_header, sizeof(network_header) / sizeof(network_header[0]), 8},
};

const struct kmap_enum *kmap_enum_find(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(enums) / sizeof(enums[0]); i++)
		if (strlen(enums[i].name) == len && !memcmp(enums[i].name, name, len))
			return &enums[i];
	return NULL;
}
