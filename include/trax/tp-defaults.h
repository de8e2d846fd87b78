/*
 * trax/tp-defaults.h - the macros a reading of a provider header did not
 * define expand to nothing (see <trax/tp-reset.h>). No include guard.
 */
#ifndef TRACEPOINT_EVENT_CLASS
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)
#endif
#ifndef _TRAX_EVENT_INSTANCE
#define _TRAX_EVENT_INSTANCE(tp, c, p, n, args)
#endif
#ifndef TRACEPOINT_LOGLEVEL
#define TRACEPOINT_LOGLEVEL(p, n, level)
#endif
#ifndef TRACEPOINT_MODEL_EMF_URI
#define TRACEPOINT_MODEL_EMF_URI(p, n, uri)
#endif
#ifndef TRACEPOINT_ENUM
#define TRACEPOINT_ENUM(p, en, values)
#endif
#ifndef _trax_integer
#define _trax_integer(t, n, e, base, net, nw)
#endif
#ifndef _trax_float
#define _trax_float(t, n, e, nw)
#endif
#ifndef _trax_string
#define _trax_string(n, e, nw)
#endif
#ifndef _trax_array
#define _trax_array(t, n, e, c, base, net, text, nw)
#endif
#ifndef _trax_sequence
#define _trax_sequence(t, n, e, lt, le, base, net, text, nw)
#endif
#ifndef _trax_enum
#define _trax_enum(p, en, t, n, e, nw)
#endif
#ifndef _trax_enum_range
#define _trax_enum_range(label, s, e)
#endif
#ifndef _trax_enum_auto
#define _trax_enum_auto(label)
#endif
