/*
 * contexts.h - the context fields a channel can record after each event
 * header (vpid, vtid, procname, pthread_id, ip, as LTTng names and lays
 * them out), and their description in a stream class.
 */
#ifndef TRAX_WRITER_CONTEXTS_H
#define TRAX_WRITER_CONTEXTS_H

#include <stdint.h>

#include "writer/desc.h"

enum ctf_context {
	CTF_CTX_VPID = 0,
	CTF_CTX_VTID,
	CTF_CTX_PROCNAME,
	CTF_CTX_PTHREAD_ID,
	CTF_CTX_IP,
	CTF_CTX_COUNT
};

/* Bytes of procname recorded: the thread's name (at most 16) and a NUL. */
#define CTF_PROCNAME_LEN 17

/* Context names as users type them ("vpid", ...); -1 when unknown. */
int ctf_context_from_name(const char *name);
const char *ctf_context_name(int ctx);
/* Bytes a context field takes in a record. */
unsigned int ctf_context_size(int ctx);
/*
 * The event context of a stream recording contexts[0..n) (enum ctf_context,
 * in recording order): fills out[] with their fields, returns how many
 * (n, unknown contexts left out).
 */
unsigned int ctf_context_fields(struct ctfw_field out[CTF_CTX_COUNT], const uint8_t *contexts,
				unsigned int n);

#endif /* TRAX_WRITER_CONTEXTS_H */
