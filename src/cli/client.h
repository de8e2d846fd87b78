/*
 * client.h - the `trax` command's side of docs/daemon.md: where the daemon
 * lives, starting it, one request and its reply, the records of a reply,
 * and the user's current session ($TRAX_HOME/.traxrc, like ~/.lttngrc).
 */
#ifndef TRAX_CLI_CLIENT_H
#define TRAX_CLI_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/proto.h"

/* $TRAX_HOME, else $HOME, else the user's home from the password file. */
const char *cli_home(void);

/*
 * The daemon's run directory: $TRAX_RUNDIR, else /run/trax for root, else
 * $TRAX_HOME/.trax/run. 0, or -errno.
 */
int cli_rundir(char *buf, size_t len);

enum {
	CLI_REQ_AUTOSTART = 1,	/* start traxd when none answers */
	CLI_REQ_NO_TIMEOUT = 2, /* the daemon may take long (stop, destroy, snapshot) */
	CLI_REQ_QUIET = 4,	/* print no error: the caller does */
};

/*
 * Sends req (its sequence number is set here) to the daemon and receives
 * the reply into *reply (initialized by the call; trax_msg_free it in
 * every case). Returns 0 when the daemon answered status=0; otherwise
 * prints one "Error: ..." line (unless CLI_REQ_QUIET) and returns CLI_FAIL.
 * *reply then holds the refusal (status, error) when there was one.
 */
int cli_request(struct trax_msg *req, struct trax_msg *reply, unsigned int flags);

/*
 * Connects to the daemon now (cli_request does it when needed): CLI_OK, or
 * CLI_FAIL after the error (unless CLI_REQ_QUIET).
 */
int cli_connect(unsigned int flags);
/* After a failed cli_request: its one-line message (without "Error: "). */
const char *cli_last_error(void);
/* After a failed cli_request: the reply's status name ("ENOENT"), or NULL (no reply). */
const char *cli_reply_status(const struct trax_msg *reply);

/*
 * Records of a reply: each starts at its "record=KIND" string. The next
 * record after rec (NULL: the first) of this kind (NULL: any), or NULL.
 */
const char *cli_record_next(const struct trax_msg *m, const char *rec, const char *kind);
/* The record's kind ("session"). */
const char *cli_record_kind(const char *rec);
/* The value of key in the record, or NULL. */
const char *cli_record_get(const struct trax_msg *m, const char *rec, const char *key);
/* Whether a record's value says yes ("1", "true" or "yes"; NULL: no). */
bool cli_is_true(const char *v);
/* Walks a repeated key: *it is NULL to start; the next value, or NULL. */
const char *cli_record_each(const struct trax_msg *m, const char *rec, const char *key,
			    const char **it);

/*
 * The session to act on: `given` when not NULL, else the current one.
 * NULL after printing "Error: No session specified..." (the caller exits
 * CLI_FAIL). The result lives until the next call.
 */
const char *cli_session(const char *given);
/* The current session's name, or NULL (none). The result lives until the next call. */
const char *cli_current_session(void);
/* Makes name the current session: 0, or CLI_FAIL after an error. */
int cli_set_current_session(const char *name);
/* Forgets the current session when it is name (NULL: whichever it is). */
void cli_clear_current_session(const char *name);

/*
 * The last trace of the current session, asked of the daemon (never
 * started for this): its output directory, or for a snapshot session its
 * newest snapshot there. A malloc'ed path, or NULL with why in err.
 */
char *cli_current_output(char *err, size_t errlen);

#endif /* TRAX_CLI_CLIENT_H */
