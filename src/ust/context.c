/*
 * context.c - the context fields a channel records before each payload.
 * Per-thread values are cached in initial-exec TLS: one load each.
 */
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "common/cpu.h"
#include "ust/ust.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

static int cached_pid;
static TLS int cached_tid;
static TLS char cached_procname[CTF_PROCNAME_LEN];
static TLS int procname_valid;

void trax_context_reset_after_fork(void)
{
	cached_pid = 0;
	cached_tid = 0;
	procname_valid = 0;
}

static int ctx_vpid(void)
{
	if (__builtin_expect(!cached_pid, 0))
		cached_pid = getpid();
	return cached_pid;
}

static int ctx_vtid(void)
{
	if (__builtin_expect(!cached_tid, 0))
		cached_tid = gettid();
	return cached_tid;
}

static const char *ctx_procname(void)
{
	if (__builtin_expect(!procname_valid, 0)) {
		char name[17] = {0};

		prctl(PR_GET_NAME, name, 0, 0, 0);
		memset(cached_procname, 0, sizeof(cached_procname));
		memcpy(cached_procname, name, sizeof(cached_procname) - 1);
		procname_valid = 1;
	}
	return cached_procname;
}

void trax_context_write(const struct trax_channel *ch, char *dst, const void *ip)
{
	unsigned int i;

	for (i = 0; i < ch->attr.nr_contexts; i++) {
		switch (ch->attr.contexts[i]) {
		case CTF_CTX_VPID: {
			int32_t v = ctx_vpid();
			memcpy(dst, &v, 4);
			dst += 4;
			break;
		}
		case CTF_CTX_VTID: {
			int32_t v = ctx_vtid();
			memcpy(dst, &v, 4);
			dst += 4;
			break;
		}
		case CTF_CTX_PROCNAME:
			memcpy(dst, ctx_procname(), CTF_PROCNAME_LEN);
			dst += CTF_PROCNAME_LEN;
			break;
		case CTF_CTX_PTHREAD_ID: {
			uint64_t v = (uint64_t)pthread_self();
			memcpy(dst, &v, 8);
			dst += 8;
			break;
		}
		case CTF_CTX_IP: {
			uint64_t v = (uint64_t)(uintptr_t)ip;
			memcpy(dst, &v, 8);
			dst += 8;
			break;
		}
		}
	}
}

/*
 * The contexts filters can name ($ctx.NAME), as LTTng-UST offers them to its
 * filters whether or not the channel records them. The probe's call-site
 * address comes as priv.
 */
static void fctx_vpid(struct filter_arg *o, void *priv)
{
	(void)priv;
	o->u = (uint64_t)(int64_t)ctx_vpid();
}

static void fctx_vtid(struct filter_arg *o, void *priv)
{
	(void)priv;
	o->u = (uint64_t)(int64_t)ctx_vtid();
}

static void fctx_procname(struct filter_arg *o, void *priv)
{
	(void)priv;
	o->str = ctx_procname();
}

static void fctx_pthread_id(struct filter_arg *o, void *priv)
{
	(void)priv;
	o->u = (uint64_t)pthread_self();
}

static void fctx_cpu_id(struct filter_arg *o, void *priv)
{
	(void)priv;
	o->u = (uint64_t)(int64_t)trax_getcpu();
}

static void fctx_ip(struct filter_arg *o, void *priv)
{
	o->u = (uint64_t)(uintptr_t)priv;
}

static const struct filter_ctx_field filter_ctx[] = {
    {"vpid", FILTER_FIELD_INT, 0, fctx_vpid},
    {"vtid", FILTER_FIELD_INT, 0, fctx_vtid},
    {"procname", FILTER_FIELD_STRING, 0, fctx_procname},
    {"pthread_id", FILTER_FIELD_INT, 0, fctx_pthread_id},
    {"cpu_id", FILTER_FIELD_INT, 0, fctx_cpu_id},
    {"ip", FILTER_FIELD_INT, 0, fctx_ip},
};

const struct filter_ctx_field *trax_context_filter_fields(unsigned int *n)
{
	*n = sizeof(filter_ctx) / sizeof(filter_ctx[0]);
	return filter_ctx;
}
