/*
 * trax/tp-reset.h - used by <trax/tracepoint-event.h> before each reading of
 * a provider header: every declaration macro and generic field macro expands
 * to nothing until the reading redefines the ones it needs. No include guard.
 */
#undef TRACEPOINT_EVENT_CLASS
#undef TRACEPOINT_EVENT_INSTANCE
#undef TRACEPOINT_LOGLEVEL
#undef TRACEPOINT_ENUM
#undef _trax_integer
#undef _trax_float
#undef _trax_string
#undef _trax_array
#undef _trax_sequence
#undef _trax_enum
#undef _trax_enum_range
#define TRACEPOINT_EVENT_CLASS(p, c, args, fields)
#define TRACEPOINT_EVENT_INSTANCE(p, c, n, args)
#define TRACEPOINT_LOGLEVEL(p, n, level)
#define TRACEPOINT_ENUM(p, en, values)
#define _trax_integer(t, n, e, base, net, nw)
#define _trax_float(t, n, e, nw)
#define _trax_string(n, e, nw)
#define _trax_array(t, n, e, c, base, net, text, nw)
#define _trax_sequence(t, n, e, lt, le, base, net, text, nw)
#define _trax_enum(p, en, t, n, e, nw)
#define _trax_enum_range(label, s, e)
