/*
 * trax/tracepoint-event.h - generates a tracepoint provider.
 *
 * Included at the end of a provider header. Unless TRACEPOINT_CREATE_PROBES
 * is defined it does nothing. With it, it reads the provider header
 * (TRACEPOINT_INCLUDE) again several times, giving the TRACEPOINT_*() and
 * ctf_*() macros a different meaning on each reading:
 *
 *   1. enumerations           TRACEPOINT_ENUM -> label tables
 *   3. field descriptions     what the metadata says about each field
 *   4. dynamic-size slots     strings and sequences measured once
 *   5. size function          bytes of the payload
 *   6. write function         serializes the payload (byte-packed)
 *   7. probe                  reserve, write, commit for each channel
 *   8. event descriptions     name, class, level, probe
 *   9. provider               the event and log level tables, registration
 *
 * Every argument expression is evaluated once per record at most; strings and
 * sequence pointers and lengths are evaluated once per call.
 */
#include <trax/tp-names.h>

#if defined(TRACEPOINT_CREATE_PROBES) && !defined(TRAX_CREATING_PROBES)
#define TRAX_CREATING_PROBES

/* A provider header written with LTTng-UST 2.13's names. */
#ifdef LTTNG_UST_TRACEPOINT_INCLUDE
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE LTTNG_UST_TRACEPOINT_INCLUDE
#endif
#ifdef LTTNG_UST_TRACEPOINT_PROVIDER
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER LTTNG_UST_TRACEPOINT_PROVIDER
#endif

#include <trax/probe.h>
#include <string.h>

#define TRACEPOINT_HEADER_MULTI_READ
#define LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* The ctf_*() field macros of lttng-ust(3), on top of seven generic ones. */
#define ctf_integer(t, n, e)			      _trax_integer(t, n, e, 10, 0, 0)
#define ctf_integer_hex(t, n, e)		      _trax_integer(t, n, e, 16, 0, 0)
#define ctf_integer_network(t, n, e)		      _trax_integer(t, n, e, 10, 1, 0)
#define ctf_integer_network_hex(t, n, e)	      _trax_integer(t, n, e, 16, 1, 0)
#define ctf_integer_nowrite(t, n, e)		      _trax_integer(t, n, e, 10, 0, 1)
#define ctf_integer_nowrite_hex(t, n, e)	      _trax_integer(t, n, e, 16, 0, 1)
#define ctf_float(t, n, e)			      _trax_float(t, n, e, 0)
#define ctf_float_nowrite(t, n, e)		      _trax_float(t, n, e, 1)
#define ctf_string(n, e)			      _trax_string(n, e, 0)
#define ctf_string_nowrite(n, e)		      _trax_string(n, e, 1)
#define ctf_array(t, n, e, c)			      _trax_array(t, n, e, c, 10, 0, 0, 0)
#define ctf_array_nowrite(t, n, e, c)		      _trax_array(t, n, e, c, 10, 0, 0, 1)
#define ctf_array_hex(t, n, e, c)		      _trax_array(t, n, e, c, 16, 0, 0, 0)
#define ctf_array_nowrite_hex(t, n, e, c)	      _trax_array(t, n, e, c, 16, 0, 0, 1)
#define ctf_array_network(t, n, e, c)		      _trax_array(t, n, e, c, 10, 1, 0, 0)
#define ctf_array_network_nowrite(t, n, e, c)	      _trax_array(t, n, e, c, 10, 1, 0, 1)
#define ctf_array_network_hex(t, n, e, c)	      _trax_array(t, n, e, c, 16, 1, 0, 0)
#define ctf_array_network_nowrite_hex(t, n, e, c)     _trax_array(t, n, e, c, 16, 1, 0, 1)
#define ctf_array_text(t, n, e, c)		      _trax_array(t, n, e, c, 10, 0, 1, 0)
#define ctf_array_text_nowrite(t, n, e, c)	      _trax_array(t, n, e, c, 10, 0, 1, 1)
#define ctf_sequence(t, n, e, lt, le)		      _trax_sequence(t, n, e, lt, le, 10, 0, 0, 0)
#define ctf_sequence_nowrite(t, n, e, lt, le)	      _trax_sequence(t, n, e, lt, le, 10, 0, 0, 1)
#define ctf_sequence_hex(t, n, e, lt, le)	      _trax_sequence(t, n, e, lt, le, 16, 0, 0, 0)
#define ctf_sequence_nowrite_hex(t, n, e, lt, le)     _trax_sequence(t, n, e, lt, le, 16, 0, 0, 1)
#define ctf_sequence_network(t, n, e, lt, le)	      _trax_sequence(t, n, e, lt, le, 10, 1, 0, 0)
#define ctf_sequence_network_nowrite(t, n, e, lt, le) _trax_sequence(t, n, e, lt, le, 10, 1, 0, 1)
#define ctf_sequence_network_hex(t, n, e, lt, le)     _trax_sequence(t, n, e, lt, le, 16, 1, 0, 0)
#define ctf_sequence_network_nowrite_hex(t, n, e, lt, le)                                          \
	_trax_sequence(t, n, e, lt, le, 16, 1, 0, 1)
#define ctf_sequence_text(t, n, e, lt, le)	   _trax_sequence(t, n, e, lt, le, 10, 0, 1, 0)
#define ctf_sequence_text_nowrite(t, n, e, lt, le) _trax_sequence(t, n, e, lt, le, 10, 0, 1, 1)
#define ctf_enum(p, en, t, n, e)		   _trax_enum(p, en, t, n, e, 0)
#define ctf_enum_nowrite(p, en, t, n, e)	   _trax_enum(p, en, t, n, e, 1)
#define ctf_enum_value(label, v)		   _trax_enum_range(label, v, v)
#define ctf_enum_range(label, s, e)		   _trax_enum_range(label, s, e)
/* An argument that is no field (such as the one TP_IP_PARAM names). */
#define ctf_unused(n)
#define ctf_unused_nowrite(n)

/*
 * The ip context: the tracepoint's call site, unless the provider names the
 * argument that holds it (LTTng-UST's TP_IP_PARAM, or 2.13's
 * LTTNG_UST_TP_IP_PARAM), as wrappers of dlopen(3) do for their caller.
 */
#if defined(LTTNG_UST_TP_IP_PARAM)
#define _TRAX_PROBE_IP LTTNG_UST_TP_IP_PARAM
#elif defined(TP_IP_PARAM)
#define _TRAX_PROBE_IP TP_IP_PARAM
#else
#define _TRAX_PROBE_IP __builtin_return_address(0)
#endif

/* Keeps its arguments for written fields, drops them for _nowrite ones. */
#define _TRAX_IF_WRITE_0(...) __VA_ARGS__
#define _TRAX_IF_WRITE_1(...)
#define _TRAX_IF_WRITE(nw, ...) _TRAX_CAT(_TRAX_IF_WRITE_, nw)(__VA_ARGS__)
#define _TRAX_IS_SIGNED(t)	(((t)-1) < (t)1)
#define _TRAX_INT_TYPE(t, base, net, text)                                                         \
	{                                                                                          \
		(uint8_t)(sizeof(t) * 8), (uint8_t)_TRAX_IS_SIGNED(t), base, net, text             \
	}
#define _TRAX_UINT_TYPE(t)                                                                         \
	{                                                                                          \
		(uint8_t)(sizeof(t) * 8), 0, 10, 0, 0                                              \
	}
#define _TRAX_FLOAT_BYTES(t) (sizeof(t) == 4 ? 4 : 8)
#define _TRAX_TOO_LARGE	     ((size_t)-1 >> 4)

/* TRACEPOINT_EVENT is a class with one instance of the same name. */
#undef TRACEPOINT_EVENT
#define TRACEPOINT_EVENT(p, n, args, fields)                                                       \
	TRACEPOINT_EVENT_CLASS(p, n, TP_ARGS(args), TP_FIELDS(fields))                             \
	TRACEPOINT_EVENT_INSTANCE(p, n, n, TP_ARGS(args))

/* ---- 1. Enumerations ---- */
#include <trax/tp-reset.h>
#define _trax_enum_range(label, s, e) {label, (int64_t)(s), (int64_t)(e)},
#define TRACEPOINT_ENUM(p, en, values)                                                             \
	static const struct trax_enum_entry __trax_enum_entries_##p##___##en[] = {values};         \
	static const struct trax_enum_desc __trax_enum_##p##___##en __attribute__((unused)) = {    \
	    #en, __trax_enum_entries_##p##___##en,                                                 \
	    sizeof(__trax_enum_entries_##p##___##en) / sizeof(struct trax_enum_entry)};
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 3. Field descriptions ---- */
#include <trax/tp-reset.h>
#define _trax_integer(t, n, e, base, net, nw)                                                      \
	{#n, TRAX_FIELD_INTEGER, nw, 0, _TRAX_INT_TYPE(t, base, net, 0)},
#define _trax_float(t, n, e, nw) {#n, TRAX_FIELD_FLOAT, nw, (uint8_t)(_TRAX_FLOAT_BYTES(t) * 8)},
#define _trax_string(n, e, nw)	 {#n, TRAX_FIELD_STRING, nw},
#define _trax_array(t, n, e, c, base, net, text, nw)                                               \
	{#n, TRAX_FIELD_ARRAY, nw, 0, _TRAX_INT_TYPE(t, base, net, text), {0}, (uint32_t)(c)},
#define _trax_sequence(t, n, e, lt, le, base, net, text, nw)                                       \
	{#n, TRAX_FIELD_SEQUENCE, nw, 0, _TRAX_INT_TYPE(t, base, net, text), _TRAX_UINT_TYPE(lt)},
#define _trax_enum(p, en, t, n, e, nw)                                                             \
	{#n, TRAX_FIELD_ENUM,	       nw, 0, _TRAX_INT_TYPE(t, 10, 0, 0), {0},                    \
	 0,  &__trax_enum_##p##___##en},
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)                                                 \
	static const struct trax_field_desc __trax_fields_##p##___##c[] = {fields{0}};
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 4. Slots for what is measured once: strings and sequences ---- */
#include <trax/tp-reset.h>
#define _trax_string(n, e, nw) _TRAX_IF_WRITE(nw, const char *s_##n; size_t l_##n;)
#define _trax_sequence(t, n, e, lt, le, base, net, text, nw)                                       \
	_TRAX_IF_WRITE(nw, const void *s_##n; size_t l_##n;)
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)                                                 \
	struct __trax_dyn_##p##___##c {                                                            \
		char __trax_unused;                                                                \
		fields                                                                             \
	};
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 5. Payload size ---- */
#include <trax/tp-reset.h>
#define _trax_integer(t, n, e, base, net, nw) _TRAX_IF_WRITE(nw, __s += sizeof(t);)
#define _trax_enum(p, en, t, n, e, nw)	      _TRAX_IF_WRITE(nw, __s += sizeof(t);)
#define _trax_float(t, n, e, nw)	      _TRAX_IF_WRITE(nw, __s += _TRAX_FLOAT_BYTES(t);)
#define _trax_array(t, n, e, c, base, net, text, nw)                                               \
	_TRAX_IF_WRITE(nw, __s += sizeof(t) * (size_t)(c);)
#define _trax_string(n, e, nw)                                                                     \
	_TRAX_IF_WRITE(nw, {                                                                       \
		const char *__p = (e);                                                             \
		if (!__p)                                                                          \
			__p = "(null)";                                                            \
		__d->s_##n = __p;                                                                  \
		__d->l_##n = strlen(__p) + 1;                                                      \
		__s += __d->l_##n;                                                                 \
	})
/* A negative or absurd length makes the record too large: it is dropped. */
#define _trax_sequence(t, n, e, lt, le, base, net, text, nw)                                       \
	_TRAX_IF_WRITE(nw, {                                                                       \
		int64_t __lv = (int64_t)(lt)(le);                                                  \
		__d->s_##n = (const void *)(e);                                                    \
		__d->l_##n = (__lv < 0 || !__d->s_##n) ? 0 : (size_t)__lv;                         \
		if (__lv < 0 || __d->l_##n > TRAX_MAX_SEQUENCE_LEN)                                \
			__s += _TRAX_TOO_LARGE;                                                    \
		else                                                                               \
			__s += sizeof(lt) + __d->l_##n * sizeof(t);                                \
	})
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)                                                 \
	static inline __attribute__((always_inline, unused))                                       \
	size_t __trax_size_##p##___##c(struct __trax_dyn_##p##___##c *__d _TRAX_CPARAMS(args))     \
	{                                                                                          \
		size_t __s = 0;                                                                    \
		(void)__d;                                                                         \
		fields return __s;                                                                 \
	}
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 6. Serialization ---- */
#include <trax/tp-reset.h>
/*
 * _network fields hold values already in network byte order (htons() and
 * friends, as with LTTng-UST): their bytes are stored as they are, and the
 * metadata declares them big-endian.
 */
#define _trax_integer(t, n, e, base, net, nw)                                                      \
	_TRAX_IF_WRITE(nw, {                                                                       \
		t __v = (t)(e);                                                                    \
		trax_write_uint(__c, (uint64_t)__v, sizeof(t));                                    \
	})
#define _trax_enum(p, en, t, n, e, nw)                                                             \
	_TRAX_IF_WRITE(nw, {                                                                       \
		t __v = (t)(e);                                                                    \
		trax_write_uint(__c, (uint64_t)__v, sizeof(t));                                    \
	})
#define _trax_float(t, n, e, nw)                                                                   \
	_TRAX_IF_WRITE(nw, {                                                                       \
		if (sizeof(t) == 4) {                                                              \
			float __v = (float)(e);                                                    \
			trax_write(__c, &__v, 4);                                                  \
		} else {                                                                           \
			double __v = (double)(e);                                                  \
			trax_write(__c, &__v, 8);                                                  \
		}                                                                                  \
	})
#define _trax_string(n, e, nw)                                                                     \
	_TRAX_IF_WRITE(nw, { trax_write_string(__c, __d->s_##n, __d->l_##n); })
#define _trax_array(t, n, e, c, base, net, text, nw)                                               \
	_TRAX_IF_WRITE(nw, {                                                                       \
		const void *__p = (const void *)(e);                                               \
		if (__p)                                                                           \
			trax_write(__c, __p, sizeof(t) * (size_t)(c));                             \
		else                                                                               \
			trax_write_zero(__c, sizeof(t) * (size_t)(c));                             \
	})
#define _trax_sequence(t, n, e, lt, le, base, net, text, nw)                                       \
	_TRAX_IF_WRITE(nw, {                                                                       \
		trax_write_uint(__c, (uint64_t)__d->l_##n, sizeof(lt));                            \
		if (__d->l_##n)                                                                    \
			trax_write(__c, __d->s_##n, sizeof(t) * __d->l_##n);                       \
	})
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)                                                 \
	static inline __attribute__((always_inline, unused)) void __trax_write_##p##___##c(        \
	    struct trax_ctx *__c, const struct __trax_dyn_##p##___##c *__d _TRAX_CPARAMS(args))    \
	{                                                                                          \
		(void)__c;                                                                         \
		(void)__d;                                                                         \
		fields                                                                             \
	}
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 7. Probes: one per class, for every channel recording the event ---- */
#include <trax/tp-reset.h>
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)                                                 \
	static __attribute__((unused)) void __trax_probe_##p##___##c(                              \
	    void *__tp_data _TRAX_CPARAMS(args))                                                   \
	{                                                                                          \
		struct trax_event_state *__st = (struct trax_event_state *)__tp_data;              \
		struct trax_binding *__b = __atomic_load_n(&__st->bindings, __ATOMIC_ACQUIRE);     \
		struct __trax_dyn_##p##___##c __d;                                                 \
		size_t __len;                                                                      \
		if (__builtin_expect(!__b, 0))                                                     \
			return;                                                                    \
		__len = __trax_size_##p##___##c(&__d _TRAX_CANAMES(args));                         \
		do {                                                                               \
			struct trax_ctx __c;                                                       \
			if (trax_event_reserve(&__c, __b, __len, _TRAX_PROBE_IP) == 0) {           \
				__trax_write_##p##___##c(&__c, &__d _TRAX_CANAMES(args));          \
				trax_event_commit(&__c);                                           \
			}                                                                          \
			__b = __atomic_load_n(&__b->next, __ATOMIC_ACQUIRE);                       \
		} while (__b);                                                                     \
	}
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 8. Event descriptions ---- */
#include <trax/tp-reset.h>
#define TRACEPOINT_EVENT_INSTANCE(p, c, n, args)                                                   \
	static struct trax_event_desc __trax_event_##p##___##n = {                                 \
	    #p ":" #n,                                                                             \
	    #c,                                                                                    \
	    _TRAX_STR(_TRAX_PARAMS(args)),                                                         \
	    (void (*)(void))__trax_probe_##p##___##c,                                              \
	    __trax_fields_##p##___##c,                                                             \
	    sizeof(__trax_fields_##p##___##c) / sizeof(struct trax_field_desc) - 1};
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 9. The provider and its registration ---- */
#include <trax/tp-reset.h>
#define TRACEPOINT_EVENT_INSTANCE(p, c, n, args) &__trax_event_##p##___##n,
#define _TRAX_PROV(x)				 _TRAX_CAT(x, TRACEPOINT_PROVIDER)
#include <trax/tp-defaults.h>
static struct trax_event_desc *const _TRAX_PROV(__trax_provider_events_)[] = {
#include TRACEPOINT_INCLUDE
    0};
/* The levels given by TRACEPOINT_LOGLEVEL (valid C and C++ alike). */
#include <trax/tp-reset.h>
#define TRACEPOINT_LOGLEVEL(p, n, level) {#p ":" #n, (level)},
#include <trax/tp-defaults.h>
static const struct trax_loglevel_entry _TRAX_PROV(__trax_provider_loglevels_)[] = {
#include TRACEPOINT_INCLUDE
    {0, 0}};
static struct trax_provider_desc _TRAX_PROV(__trax_provider_) = {
    _TRAX_STR(TRACEPOINT_PROVIDER), _TRAX_PROV(__trax_provider_events_),
    sizeof(_TRAX_PROV(__trax_provider_events_)) / sizeof(void *) - 1, TRAX_PROBE_ABI,
    _TRAX_PROV(__trax_provider_loglevels_)};
static void __attribute__((constructor)) _TRAX_PROV(__trax_provider_init_)(void)
{
	trax_provider_register(&_TRAX_PROV(__trax_provider_));
}
static void __attribute__((destructor)) _TRAX_PROV(__trax_provider_fini_)(void)
{
	trax_provider_unregister(&_TRAX_PROV(__trax_provider_));
}
#undef _TRAX_PROV

#pragma GCC diagnostic pop

/* Back to the first reading's meanings for the headers that follow. */
#include <trax/tp-reset.h>
#undef TRACEPOINT_HEADER_MULTI_READ
#undef LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ
#undef TRAX_CREATING_PROBES
#undef _TRAX_PROBE_IP
#include <trax/tp-declare.h>
#endif /* TRACEPOINT_CREATE_PROBES */

/* Each 2.13-style header names itself anew: do not let the next one inherit. */
#if defined(LTTNG_UST_TRACEPOINT_INCLUDE) && !defined(TRAX_CREATING_PROBES)
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#undef TRACEPOINT_INCLUDE
#endif
