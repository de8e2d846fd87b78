/*
 * cmd-channel.c - `trax enable-channel` and `trax disable-channel`, in the
 * user-space (-u) or kernel (-k) domain.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_enable_channel(FILE *f)
{
	fputs("Usage: trax enable-channel (-u | -k) [OPTIONS] CHANNEL[,CHANNEL]...\n"
	      "Create a user-space (-u) or kernel (-k) channel in a session (or enable a\n"
	      "disabled one). Options not given take the daemon's defaults (those of\n"
	      "lttng-enable-channel(1) for the domain).\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace             the user-space domain\n"
	      "  -k, --kernel                the kernel domain (root's daemon)\n"
	      "  -s, --session=SESSION       the session (default: the current one)\n"
	      "      --subbuf-size=SIZE      size of each sub-buffer, rounded up to a power\n"
	      "                              of two; k, M, G suffixes (default 512k, -k: 1M)\n"
	      "      --num-subbuf=COUNT      sub-buffers per ring buffer, rounded up to a\n"
	      "                              power of two (default 4)\n"
	      "      --overwrite             when full, overwrite the oldest sub-buffer\n"
	      "                              (flight recorder)\n"
	      "      --discard               when full, discard new events (default)\n"
	      "      --buffers-uid           -u: one set of buffers per user (default)\n"
	      "      --buffers-pid           -u: one set of buffers per process\n"
	      "      --switch-timer=PERIODUS close the current packet every PERIODUS us\n"
	      "                              (0: never, the default)\n"
	      "      --read-timer=PERIODUS   check for full sub-buffers every PERIODUS us\n"
	      "                              (0: the daemon's own period; -k: default\n"
	      "                              200000)\n"
	      "      --blocking-timeout=TIMEOUTUS\n"
	      "                              -u, with --discard: how long an application run\n"
	      "                              with TRAX_ALLOW_BLOCKING waits for room, in us,\n"
	      "                              or 'inf' (default 0: never waits)\n"
	      "      --tracefile-size=SIZE   at most SIZE bytes per trace file (default 0:\n"
	      "                              unlimited); k, M, G suffixes\n"
	      "      --tracefile-count=COUNT with --tracefile-size: at most COUNT files per\n"
	      "                              stream, the oldest removed (default 0: unlimited)\n"
	      "  -h, --help                  print this help\n"
	      "Timers accept a us (default), ms or s suffix.\n",
	      f);
}

void usage_disable_channel(FILE *f)
{
	fputs("Usage: trax disable-channel (-u | -k) [-s SESSION] CHANNEL[,CHANNEL]...\n"
	      "Disable channels: their events are no longer recorded.\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace         the user-space domain\n"
	      "  -k, --kernel            the kernel domain\n"
	      "  -s, --session=SESSION   the session (default: the current one)\n"
	      "  -h, --help              print this help\n",
	      f);
}

enum {
	OPT_SUBBUF = 256,
	OPT_NUMSUB,
	OPT_OVERWRITE,
	OPT_DISCARD,
	OPT_BUF_UID,
	OPT_BUF_PID,
	OPT_SWITCH,
	OPT_READ,
	OPT_BLOCKING,
	OPT_TF_SIZE,
	OPT_TF_COUNT,
};

struct chan_opts {
	bool has_subbuf, has_num, has_switch, has_read, has_blocking, has_tf_size, has_tf_count;
	uint64_t subbuf, num, switch_us, read_us, tf_size, tf_count;
	int64_t blocking;
	int overwrite; /* -1: not given */
	const char *buffers;
};

/* Checks and rounds the values as lttng does (kernel: the domain is -k). */
static int check_chan_opts(struct chan_opts *o, bool kernel)
{
	/* the kernel's buffers are global, and the kernel never blocks a writer */
	if (kernel && o->buffers)
		return cli_usage_error("Buffer type not supported for domain -k");
	if (kernel && o->has_blocking)
		return cli_usage_error("Retry timeout option not supported for kernel domain (-k)");
	if (o->has_subbuf) {
		uint64_t p = cli_pow2_ceil(o->subbuf);
		long page = sysconf(_SC_PAGESIZE);

		if (o->subbuf == 0 || (p & (p - 1)))
			return cli_usage_error("Wrong value in --subbuf-size parameter: %" PRIu64,
					       o->subbuf);
		if (p != o->subbuf)
			cli_warn("The subbuf size (%" PRIu64
				 ") is rounded to the next power of 2 (%" PRIu64 ")",
				 o->subbuf, p);
		o->subbuf = p;
		if (page > 0 && o->subbuf < (uint64_t)page)
			return cli_usage_error("The sub-buffer size (%" PRIu64
					       ") is smaller than the page size (%ld)",
					       o->subbuf, page);
	}
	if (o->has_num) {
		uint64_t p = cli_pow2_ceil(o->num);

		if (p != o->num)
			cli_warn("The number of subbuffers (%" PRIu64
				 ") is rounded to the next power of 2 (%" PRIu64 ")",
				 o->num, p);
		o->num = p;
	}
	if (o->has_tf_count && !o->has_tf_size)
		return cli_usage_error("Missing option --tracefile-size. A file count without a "
				       "size won't do anything.");
	if (o->overwrite == 1 && o->has_blocking && o->blocking != 0)
		return cli_usage_error("You cannot specify --overwrite and --blocking-timeout=N, "
				       "where N is different than 0");
	return CLI_OK;
}

static void add_chan_opts(struct trax_msg *m, const struct chan_opts *o)
{
	if (o->has_subbuf)
		trax_msg_add_u64(m, "subbuf_size", o->subbuf);
	if (o->has_num)
		trax_msg_add_u64(m, "num_subbuf", o->num);
	if (o->overwrite >= 0)
		trax_msg_add(m, "overwrite", "%d", o->overwrite);
	if (o->buffers)
		trax_msg_add(m, "buffers", "%s", o->buffers);
	if (o->has_switch)
		trax_msg_add_u64(m, "switch_timer", o->switch_us);
	if (o->has_read)
		trax_msg_add_u64(m, "read_timer", o->read_us);
	if (o->has_blocking)
		trax_msg_add(m, "blocking_timeout", "%" PRId64, o->blocking);
	if (o->has_tf_size)
		trax_msg_add_u64(m, "tracefile_size", o->tf_size);
	if (o->has_tf_count)
		trax_msg_add_u64(m, "tracefile_count", o->tf_count);
}

/* Both commands: parse, then one request per channel. */
static int channel_cmd(int argc, char **argv, bool enable)
{
	static const struct option enable_opts[] = {
	    {"userspace", no_argument, NULL, 'u'},
	    {"kernel", no_argument, NULL, 'k'},
	    {"session", required_argument, NULL, 's'},
	    {"subbuf-size", required_argument, NULL, OPT_SUBBUF},
	    {"num-subbuf", required_argument, NULL, OPT_NUMSUB},
	    {"overwrite", no_argument, NULL, OPT_OVERWRITE},
	    {"discard", no_argument, NULL, OPT_DISCARD},
	    {"buffers-uid", no_argument, NULL, OPT_BUF_UID},
	    {"buffers-pid", no_argument, NULL, OPT_BUF_PID},
	    {"switch-timer", required_argument, NULL, OPT_SWITCH},
	    {"read-timer", required_argument, NULL, OPT_READ},
	    {"blocking-timeout", required_argument, NULL, OPT_BLOCKING},
	    {"tracefile-size", required_argument, NULL, OPT_TF_SIZE},
	    {"tracefile-count", required_argument, NULL, OPT_TF_COUNT},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const struct option disable_opts[] = {
	    {"userspace", no_argument, NULL, 'u'},
	    {"kernel", no_argument, NULL, 'k'},
	    {"session", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *cmd = enable ? "enable-channel" : "disable-channel";
	struct chan_opts o = {.overwrite = -1};
	const char *session = NULL;
	bool userspace = false, kernel = false;
	char **names = NULL;
	unsigned int nnames = 0;
	int c, rc = CLI_OK;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":uks:h", enable ? enable_opts : disable_opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'u':
			userspace = true;
			break;
		case 'k':
			kernel = true;
			break;
		case 's':
			session = optarg;
			break;
		case 'h':
			(enable ? usage_enable_channel : usage_disable_channel)(stdout);
			goto out;
		case OPT_SUBBUF:
			o.has_subbuf = true;
			rc = cli_parse_size("subbuf-size", optarg, &o.subbuf);
			break;
		case OPT_NUMSUB:
			o.has_num = true;
			rc = cli_parse_uint("num-subbuf", optarg, UINT32_MAX, &o.num);
			if (!rc && o.num == 0)
				rc = cli_usage_error("Wrong value in --num-subbuf parameter: 0");
			break;
		case OPT_OVERWRITE:
		case OPT_DISCARD:
			if (o.overwrite == (c == OPT_DISCARD))
				rc = cli_usage_error(
				    "--overwrite and --discard cannot be used together");
			o.overwrite = c == OPT_OVERWRITE;
			break;
		case OPT_BUF_UID:
		case OPT_BUF_PID:
			if (o.buffers && strcmp(o.buffers, c == OPT_BUF_UID ? "uid" : "pid"))
				rc = cli_usage_error(
				    "--buffers-uid and --buffers-pid cannot be used together");
			o.buffers = c == OPT_BUF_UID ? "uid" : "pid";
			break;
		case OPT_SWITCH:
			o.has_switch = true;
			rc = cli_parse_usec("switch-timer", optarg, &o.switch_us);
			break;
		case OPT_READ:
			o.has_read = true;
			rc = cli_parse_usec("read-timer", optarg, &o.read_us);
			break;
		case OPT_BLOCKING:
			o.has_blocking = true;
			if (!strcmp(optarg, "inf")) {
				o.blocking = -1;
			} else {
				uint64_t v;

				rc = cli_parse_usec("blocking-timeout", optarg, &v);
				if (!rc && v > INT64_MAX)
					rc = cli_usage_error(
					    "Wrong value in --blocking-timeout parameter: %s",
					    optarg);
				o.blocking = (int64_t)v;
			}
			break;
		case OPT_TF_SIZE:
			o.has_tf_size = true;
			rc = cli_parse_size("tracefile-size", optarg, &o.tf_size);
			break;
		case OPT_TF_COUNT:
			o.has_tf_count = true;
			rc = cli_parse_uint("tracefile-count", optarg, UINT32_MAX, &o.tf_count);
			break;
		default:
			rc = cli_option_error(cmd, c, argv);
			break;
		}
		if (rc)
			goto out;
	}
	if ((rc = cli_check_domain(kernel, userspace)))
		goto out;
	if (optind >= argc) {
		rc = cli_usage_error("Missing channel name (see 'trax %s --help')", cmd);
		goto out;
	}
	for (; optind < argc && !rc; optind++)
		rc = cli_split_list(argv[optind], "channel name", &names, &nnames);
	for (unsigned int i = 0; i < nnames && !rc; i++)
		rc = cli_check_name("channel", names[i]);
	if (session && !rc)
		rc = cli_check_name("session", session);
	if (enable && !rc)
		rc = check_chan_opts(&o, kernel);
	if (rc)
		goto out;
	if (!(session = cli_session(session))) {
		rc = CLI_FAIL;
		goto out;
	}

	for (unsigned int i = 0; i < nnames; i++) {
		struct trax_msg req, reply;

		trax_msg_init(&req, enable ? TRAX_MSG_ENABLE_CHANNEL : TRAX_MSG_DISABLE_CHANNEL);
		trax_msg_add(&req, "session", "%s", session);
		if (kernel)
			trax_msg_add(&req, "domain", "kernel");
		trax_msg_add(&req, "name", "%s", names[i]);
		if (enable)
			add_chan_opts(&req, &o);
		if (cli_request(&req, &reply, 0) == CLI_OK)
			printf("%s channel %s %s for session %s\n", kernel ? "kernel" : "ust",
			       names[i], enable ? "enabled" : "disabled", session);
		else
			rc = CLI_FAIL;
		trax_msg_free(&req);
		trax_msg_free(&reply);
	}
out:
	cli_free_list(names, nnames);
	return rc;
}

int cmd_enable_channel(int argc, char **argv)
{
	return channel_cmd(argc, argv, true);
}

int cmd_disable_channel(int argc, char **argv)
{
	return channel_cmd(argc, argv, false);
}
