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
 *   7. filter arguments       every field's value, for the filters
 *   8. probe                  filter, reserve, write, commit for each channel
 *   9. event descriptions     name, class, probe, fields
 *  10. provider               links the events, sets their levels and URIs,
 *                             registers; the symbol the call sites refer to
 *
 * Every reading happens at file scope or in a function body, never inside
 * an initializer: headers a provider header includes in its multi-read part
 * (<stddef.h> declares types again in clang++'s C++20 mode) stay valid.
 *
 * Every argument expression is evaluated once per record at most; strings and
 * sequence pointers and lengths are evaluated once per call, and every field
 * once more when a channel's filters read them (as LTTng-UST's probes do).
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
/*
 * What LTTng-UST's probe side brings along besides <lttng/tracepoint.h>'s
 * headers: field expressions may use errno, pthread_self(), LONG_MAX,
 * DBL_EPSILON, bswap_32(), CLOCK_MONOTONIC... without including them.
 */
#include <byteswap.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

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
#define ctf_enum_auto(label)			   _trax_enum_auto(label)
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
	_TRAX_EVENT_INSTANCE(p, n, p, n, TP_ARGS(args))

/* ---- 1. Enumerations ---- */
#include <trax/tp-reset.h>
#define _trax_enum_range(label, s, e)                                                              \
	{label, (int64_t)(s), (int64_t)(e),                                                        \
	 TRAX_ENUM_TYPED | (_TRAX_IS_SIGNED(__typeof__(s)) ? TRAX_ENUM_START_SIGNED : 0u) |        \
	     (_TRAX_IS_SIGNED(__typeof__(e)) ? TRAX_ENUM_END_SIGNED : 0u)},
#define _trax_enum_auto(label) {label, 0, 0, TRAX_ENUM_AUTO},
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

/* ---- 7. Filter arguments: every field's value, before anything is reserved ---- */
#include <trax/tp-reset.h>
#define _trax_integer(t, n, e, base, net, nw)                                                      \
	(__a++)->u = trax_filter_int((uint64_t)(t)(e), sizeof(t), _TRAX_IS_SIGNED(t), net);
#define _trax_enum(p, en, t, n, e, nw)                                                             \
	(__a++)->u = trax_filter_int((uint64_t)(t)(e), sizeof(t), _TRAX_IS_SIGNED(t), 0);
#define _trax_float(t, n, e, nw) (__a++)->d = (double)(e);
#define _trax_string(n, e, nw)                                                                     \
	{                                                                                          \
		const char *__p = (e);                                                             \
		(__a++)->str = __p ? __p : "(null)";                                               \
	}
#define _trax_array(t, n, e, c, base, net, text, nw)                                               \
	{                                                                                          \
		const void *__p = (const void *)(e);                                               \
		__a->seq.ptr = __p;                                                                \
		(__a++)->seq.count = __p ? (size_t)(c) : 0;                                        \
	}
#define _trax_sequence(t, n, e, lt, le, base, net, text, nw)                                       \
	{                                                                                          \
		int64_t __lv = (int64_t)(lt)(le);                                                  \
		const void *__p = (const void *)(e);                                               \
		__a->seq.ptr = __p;                                                                \
		(__a++)->seq.count = (__lv < 0 || !__p) ? 0 : (size_t)__lv;                        \
	}
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)                                                 \
	static inline __attribute__((always_inline, unused)) void __trax_fargs_##p##___##c(        \
	    struct trax_filter_arg *__a _TRAX_CPARAMS(args))                                       \
	{                                                                                          \
		(void)__a;                                                                         \
		fields                                                                             \
	}
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 8. Probes: one per class, for every channel recording the event ---- */
#include <trax/tp-reset.h>
/*
 * A channel whose binding has filters first asks them, with the fields'
 * values gathered once for all the channels (before anything is measured
 * or reserved: a rejected event costs its filter and nothing more).
 */
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)                                                 \
	static __attribute__((unused)) void __trax_probe_##p##___##c(                              \
	    void *__tp_data _TRAX_CPARAMS(args))                                                   \
	{                                                                                          \
		struct trax_event_state *__st = (struct trax_event_state *)__tp_data;              \
		struct trax_binding *__b = __atomic_load_n(&__st->bindings, __ATOMIC_ACQUIRE);     \
		struct __trax_dyn_##p##___##c __d;                                                 \
		struct trax_filter_arg                                                             \
		    __fa[sizeof(__trax_fields_##p##___##c) / sizeof(struct trax_field_desc)];      \
		size_t __len = 0;                                                                  \
		int __have_fa = 0, __have_len = 0;                                                 \
		if (__builtin_expect(!__b, 0))                                                     \
			return;                                                                    \
		do {                                                                               \
			struct trax_ctx __c;                                                       \
			if (__builtin_expect(__b->flags & TRAX_BINDING_FILTERED, 0)) {             \
				if (!__have_fa) {                                                  \
					__trax_fargs_##p##___##c(__fa _TRAX_CANAMES(args));        \
					__have_fa = 1;                                             \
				}                                                                  \
				if (!trax_event_filter(__b, __fa, _TRAX_PROBE_IP))                 \
					goto __trax_next;                                          \
			}                                                                          \
			if (!__have_len) {                                                         \
				__len = __trax_size_##p##___##c(&__d _TRAX_CANAMES(args));         \
				__have_len = 1;                                                    \
			}                                                                          \
			if (trax_event_reserve(&__c, __b, __len, _TRAX_PROBE_IP) == 0) {           \
				__trax_write_##p##___##c(&__c, &__d _TRAX_CANAMES(args));          \
				trax_event_commit(&__c);                                           \
			}                                                                          \
		__trax_next:                                                                       \
			__b = __atomic_load_n(&__b->next, __ATOMIC_ACQUIRE);                       \
		} while (__b);                                                                     \
	}
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 9. Event descriptions ---- */
#include <trax/tp-reset.h>
#define _TRAX_EVENT_INSTANCE(tp, c, p, n, args)                                                    \
	static struct trax_event_desc __trax_event_##p##___##n = {                                 \
	    #p ":" #n,                                                                             \
	    #c,                                                                                    \
	    _TRAX_STR(_TRAX_PARAMS(args)),                                                         \
	    (void (*)(void))__trax_probe_##tp##___##c,                                             \
	    __trax_fields_##tp##___##c,                                                            \
	    sizeof(__trax_fields_##tp##___##c) / sizeof(struct trax_field_desc) - 1,               \
	    -1,                                                                                    \
	    0,                                                                                     \
	    0};
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE

/* ---- 10. The provider and its registration ---- */
#define _TRAX_PROV(x) _TRAX_CAT(x, TRACEPOINT_PROVIDER)
/*
 * Defined here only: the tracepoints of TRACEPOINT_DEFINE refer to it
 * (<trax/tp-declare.h>), so that the linker takes the probes out of an
 * archive, or fails naming the provider when they are missing.
 */
#ifdef __cplusplus
extern "C" {
#endif
int _TRAX_PROV(__trax_probes_of_provider_) _TRAX_PROVIDER_VISIBILITY = 1;
#ifdef __cplusplus
}
#endif
/*
 * Lists the events in the header's order, then applies levels and URIs.
 * Runs once: cold, out of the probes' way in the text section.
 */
static void __attribute__((cold))
_TRAX_PROV(__trax_provider_link_)(struct trax_provider_desc *__trax_p)
{
	struct trax_event_desc **__trax_tail = &__trax_p->events;
	unsigned int __trax_n = 0;

#include <trax/tp-reset.h>
#define _TRAX_EVENT_INSTANCE(tp, c, p, n, args)                                                    \
	*__trax_tail = &__trax_event_##p##___##n;                                                  \
	__trax_tail = &__trax_event_##p##___##n.next;                                              \
	__trax_n++;
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE
	*__trax_tail = 0;
	__trax_p->nr_events = __trax_n;
#include <trax/tp-reset.h>
#define TRACEPOINT_LOGLEVEL(p, n, level) trax_provider_set_loglevel(__trax_p, #p ":" #n, (level));
#define TRACEPOINT_MODEL_EMF_URI(p, n, uri)                                                        \
	trax_provider_set_model_emf_uri(__trax_p, #p ":" #n, (uri));
#include <trax/tp-defaults.h>
#include TRACEPOINT_INCLUDE
}
static struct trax_provider_desc _TRAX_PROV(__trax_provider_) = {
    _TRAX_STR(TRACEPOINT_PROVIDER), 0, 0, TRAX_PROBE_ABI, _TRAX_PROV(__trax_provider_link_)};
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
