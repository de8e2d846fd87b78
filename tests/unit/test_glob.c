/*
 * test_glob.c - LTTng's event name patterns (src/common/glob.c): '*'
 * anywhere, matching any run of characters or none; nothing else special.
 */
#include "check.h"
#include "common/glob.h"

int main(void)
{
	CHECK(trax_glob_match("*", ""));
	CHECK(trax_glob_match("*", "sched_switch"));
	CHECK(trax_glob_match("sched_switch", "sched_switch"));
	CHECK(!trax_glob_match("sched_switch", "sched_switch2"));
	CHECK(!trax_glob_match("sched_switch2", "sched_switch"));
	CHECK(trax_glob_match("sched_*", "sched_switch"));
	CHECK(trax_glob_match("sched_*", "sched_"));
	CHECK(!trax_glob_match("sched_*", "sched"));
	CHECK(trax_glob_match("*_entry", "irq_softirq_entry"));
	CHECK(trax_glob_match("irq_*_entry", "irq_softirq_entry"));
	CHECK(!trax_glob_match("irq_*_entry", "irq_softirq_exit"));
	CHECK(trax_glob_match("a*b*c", "axxbyybzzc"));
	CHECK(trax_glob_match("a*b*c", "abc"));
	CHECK(!trax_glob_match("a*b*c", "acb"));
	CHECK(trax_glob_match("**a**", "xay"));
	CHECK(trax_glob_match("prov:*", "prov:ev"));
	/* no other special character: '?' and '[' are themselves */
	CHECK(!trax_glob_match("sched_?witch", "sched_switch"));
	CHECK(trax_glob_match("a?[b]", "a?[b]"));
	CHECK(!trax_glob_match("[ab]", "a"));
	CHECK(!trax_glob_match("", "a"));
	CHECK(trax_glob_match("", ""));
	return CHECK_RESULT();
}
