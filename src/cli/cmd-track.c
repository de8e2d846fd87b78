/*
 * cmd-track.c - `trax track` and `trax untrack`: which processes a
 * session's user-space domain records (by virtual process id or virtual
 * user id), or its kernel domain (by process, user or group id).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

static void usage_to(FILE *f, bool track)
{
	fprintf(
	    f,
	    "Usage: trax %s -u [-s SESSION] (--vpid=VPID[,VPID]... | --vuid=VUID[,VUID]...)...\n"
	    "       trax %s -u [-s SESSION] --all (--vpid | --vuid)...\n"
	    "       trax %s -k [-s SESSION] (--pid=PID[,PID]... | --uid=UID[,UID]... |\n"
	    "                    --gid=GID[,GID]...)...\n"
	    "       trax %s -k [-s SESSION] --all (--pid | --uid | --gid)...\n"
	    "%s\n"
	    "\n"
	    "Options:\n"
	    "  -u, --userspace         the user-space domain\n"
	    "  -k, --kernel            the kernel domain\n"
	    "      --vpid[=VPID,...]   -u: %s these virtual process ids\n"
	    "      --vuid[=VUID,...]   -u: %s these virtual user ids (numbers or user\n"
	    "                          names)\n"
	    "      --pid[=PID,...]     -k: %s these process ids\n"
	    "      --uid[=UID,...]     -k: %s these user ids (real; numbers or user names)\n"
	    "      --gid[=GID,...]     -k: %s these group ids (real; numbers or group\n"
	    "                          names)\n"
	    "  -a, --all               with --vpid, --vuid, --pid, --uid or --gid without\n"
	    "                          values:\n"
	    "                          %s\n"
	    "  -s, --session=SESSION   the session (default: the current one)\n"
	    "  -h, --help              print this help\n",
	    track ? "track" : "untrack", track ? "track" : "untrack", track ? "track" : "untrack",
	    track ? "track" : "untrack",
	    track ? "Allow processes to record events: by default every process does; once\n"
		    "values are tracked, only the processes they name."
		  : "Remove processes from the set allowed to record events.",
	    track ? "allow" : "disallow", track ? "allow" : "disallow",
	    track ? "allow" : "disallow", track ? "allow" : "disallow",
	    track ? "allow" : "disallow", track ? "allow every process again" : "allow none");
}

void usage_track(FILE *f)
{
	usage_to(f, true);
}

void usage_untrack(FILE *f)
{
	usage_to(f, false);
}

enum { OPT_VPID = 256, OPT_VUID, OPT_PID, OPT_UID, OPT_GID };

/* The kinds of values, in the order of struct kind kinds[] below. */
enum { KIND_VPID, KIND_VUID, KIND_PID, KIND_UID, KIND_GID, NKINDS };

struct kind {
	const char *name;   /* "vpid" */
	const char *label;  /* "virtual process ID" */
	const char *option; /* "--vpid" */
	bool given, pending;
	char **values;
	unsigned int nvalues;
};

/* A value of the kind as the daemon takes it (a number): 0, or CLI_USAGE. */
static int value_number(const struct kind *k, const char *v, uint64_t *n)
{
	const char *p = v;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p != v && !*p && p - v < 11) {
		*n = strtoull(v, NULL, 10);
		if (*n <= INT32_MAX)
			return 0;
	}
	if (!strcmp(k->name, "vuid") || !strcmp(k->name, "uid")) {
		struct passwd *pw = getpwnam(v);

		if (pw) {
			*n = pw->pw_uid;
			return 0;
		}
		return cli_usage_error("Unknown user '%s' in %s", v, k->option);
	}
	if (!strcmp(k->name, "gid")) {
		struct group *gr = getgrnam(v);

		if (gr) {
			*n = gr->gr_gid;
			return 0;
		}
		return cli_usage_error("Unknown group '%s' in %s", v, k->option);
	}
	return cli_usage_error("Wrong value in %s parameter: %s", k->option, v);
}

static int track_cmd(int argc, char **argv, bool track)
{
	static const struct option opts[] = {
	    {"userspace", no_argument, NULL, 'u'},
	    {"kernel", no_argument, NULL, 'k'},
	    {"session", required_argument, NULL, 's'},
	    {"vpid", optional_argument, NULL, OPT_VPID},
	    {"vuid", optional_argument, NULL, OPT_VUID},
	    {"pid", optional_argument, NULL, OPT_PID},
	    {"uid", optional_argument, NULL, OPT_UID},
	    {"gid", optional_argument, NULL, OPT_GID},
	    {"all", no_argument, NULL, 'a'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *cmd = track ? "track" : "untrack", *session = NULL;
	struct kind kinds[NKINDS] = {
	    [KIND_VPID] = {"vpid", "virtual process ID", "--vpid", false, false, NULL, 0},
	    [KIND_VUID] = {"vuid", "virtual user ID", "--vuid", false, false, NULL, 0},
	    [KIND_PID] = {"pid", "process ID", "--pid", false, false, NULL, 0},
	    [KIND_UID] = {"uid", "user ID", "--uid", false, false, NULL, 0},
	    [KIND_GID] = {"gid", "group ID", "--gid", false, false, NULL, 0},
	};
	bool userspace = false, kernel = false, all = false;
	int c, rc = CLI_OK;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":uks:ah", opts, NULL)) != -1) {
		struct kind *k = c == OPT_VPID	 ? &kinds[KIND_VPID]
				 : c == OPT_VUID ? &kinds[KIND_VUID]
				 : c == OPT_PID	 ? &kinds[KIND_PID]
				 : c == OPT_UID	 ? &kinds[KIND_UID]
				 : c == OPT_GID	 ? &kinds[KIND_GID]
						 : NULL;

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
		case 'a':
			all = true;
			break;
		case OPT_VPID:
		case OPT_VUID:
		case OPT_PID:
		case OPT_UID:
		case OPT_GID:
			k->given = true;
			if (optarg)
				rc = cli_split_list(optarg, "value", &k->values, &k->nvalues);
			else
				k->pending = true;
			break;
		case 'h':
			usage_to(stdout, track);
			goto out;
		default:
			rc = cli_option_error(cmd, c, argv);
			break;
		}
		if (rc)
			goto out;
	}
	/* "--vpid 12,34": the values of the one option given without '=' */
	for (; optind < argc; optind++) {
		struct kind *k = NULL;

		for (int i = 0; i < NKINDS; i++)
			if (kinds[i].pending && !kinds[i].nvalues)
				k = k ? NULL : &kinds[i];
		if (!k) {
			rc = cli_extra_argument(cmd, argv[optind]);
			goto out;
		}
		if ((rc = cli_split_list(argv[optind], "value", &k->values, &k->nvalues)))
			goto out;
	}
	if ((rc = cli_check_domain(kernel, userspace)))
		goto out;
	/* trax's kernel domain follows processes by pid, uid and gid; user space by vpid and vuid
	 */
	if (kernel && (kinds[KIND_VPID].given || kinds[KIND_VUID].given)) {
		rc = cli_usage_error("The kernel domain tracks process, user and group IDs "
				     "(--pid, --uid, --gid)");
		goto out;
	}
	if (userspace &&
	    (kinds[KIND_PID].given || kinds[KIND_UID].given || kinds[KIND_GID].given)) {
		rc = cli_usage_error(
		    "--pid, --uid and --gid are for the kernel domain (-k); with -u, "
		    "use --vpid or --vuid");
		goto out;
	}
	if (!kinds[KIND_VPID].given && !kinds[KIND_VUID].given && !kinds[KIND_PID].given &&
	    !kinds[KIND_UID].given && !kinds[KIND_GID].given) {
		rc = cli_usage_error("Missing %s (see 'trax %s --help')",
				     kernel ? "--pid, --uid or --gid" : "--vpid or --vuid", cmd);
		goto out;
	}
	for (int i = 0; i < NKINDS; i++) {
		struct kind *k = &kinds[i];
		uint64_t n;

		if (!k->given)
			continue;
		if (all && k->nvalues) {
			rc = cli_usage_error("--all and %s values cannot be used together",
					     k->option);
			goto out;
		}
		if (!all && !k->nvalues) {
			rc = cli_usage_error("Missing values for %s (give %s=VALUE[,VALUE]... or "
					     "--all)",
					     k->option, k->option);
			goto out;
		}
		for (unsigned int j = 0; j < k->nvalues; j++)
			if ((rc = value_number(k, k->values[j], &n)))
				goto out;
	}
	if (session && (rc = cli_check_name("session", session)))
		goto out;
	if (!(session = cli_session(session))) {
		rc = CLI_FAIL;
		goto out;
	}

	for (int i = 0; i < NKINDS; i++) {
		struct kind *k = &kinds[i];
		struct trax_msg req, reply;
		uint64_t n;

		if (!k->given)
			continue;
		trax_msg_init(&req, track ? TRAX_MSG_TRACK : TRAX_MSG_UNTRACK);
		trax_msg_add(&req, "session", "%s", session);
		if (kernel)
			trax_msg_add(&req, "domain", "kernel");
		trax_msg_add(&req, "kind", "%s", k->name);
		if (all)
			trax_msg_add(&req, "all", "1");
		for (unsigned int j = 0; j < k->nvalues; j++) {
			value_number(k, k->values[j], &n);
			trax_msg_add_u64(&req, "value", n);
		}
		if (cli_request(&req, &reply, 0) == CLI_OK) {
			if (all)
				printf("%c%s tracking policy set to `%s all`\n",
				       k->label[0] - 'a' + 'A', k->label + 1,
				       track ? "include" : "exclude");
			for (unsigned int j = 0; j < k->nvalues; j++)
				printf("%s %s %s the %s tracker inclusion set\n",
				       track ? "Added" : "Removed", k->values[j],
				       track ? "to" : "from", k->label);
		} else {
			rc = CLI_FAIL;
		}
		trax_msg_free(&req);
		trax_msg_free(&reply);
	}
out:
	for (int i = 0; i < NKINDS; i++)
		cli_free_list(kinds[i].values, kinds[i].nvalues);
	return rc;
}

int cmd_track(int argc, char **argv)
{
	return track_cmd(argc, argv, true);
}

int cmd_untrack(int argc, char **argv)
{
	return track_cmd(argc, argv, false);
}
