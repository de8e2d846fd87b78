/*
 * trax/tp-reset.h - used by <trax/tracepoint-event.h> before each reading of
 * a provider header: forgets the previous reading's meaning of every
 * declaration macro and generic field macro. The reading then defines the
 * ones it needs and <trax/tp-defaults.h> makes the others expand to nothing.
 * No include guard.
 */
#undef TRACEPOINT_EVENT_CLASS
#undef _TRAX_EVENT_INSTANCE
#undef TRACEPOINT_LOGLEVEL
#undef TRACEPOINT_MODEL_EMF_URI
#undef TRACEPOINT_ENUM
#undef _trax_integer
#undef _trax_float
#undef _trax_string
#undef _trax_array
#undef _trax_sequence
#undef _trax_enum
#undef _trax_enum_range
#undef _trax_enum_auto
