/*
 * A provider written with LTTng-UST 2.13's names (lttng-ust(3) of 2.13):
 * every lttng_ust_field_*() macro, LTTNG_UST_TRACEPOINT_ENUM with value,
 * range and auto entries, a class with 5-argument instances, the fifteen
 * LTTNG_UST_TRACEPOINT_LOGLEVEL_* levels and LTTNG_UST_TRACEPOINT_MODEL_EMF_URI.
 * Valid for LTTng-UST 2.13 too: api213.sh compares both traces.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER new_prov

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tp.h"

#if !defined(NEW_PROV_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define NEW_PROV_TP_H

#include <lttng/tracepoint.h>

#ifndef NEW_PROV_VALUES
#define NEW_PROV_VALUES
struct new_prov_values {
	int i;
	unsigned int u;
	double d;
	const char *s;
	int16_t a16[3];
	uint8_t b[4];
	uint16_t n16[2];  /* network byte order */
	uint32_t n32[2];  /* network byte order */
	char text[4];
};
#endif

LTTNG_UST_TRACEPOINT_ENUM(new_prov, color,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("RED", 0)
		lttng_ust_field_enum_range("OTHER", 1, 9)
		lttng_ust_field_enum_auto("TEN")))

LTTNG_UST_TRACEPOINT_EVENT(new_prov, ev,
	LTTNG_UST_TP_ARGS(int, n, const char *, s),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, n, n)
		lttng_ust_field_integer_hex(unsigned int, h, n * 16)
		lttng_ust_field_string(s, s)
		lttng_ust_field_sequence(unsigned char, bytes, s, unsigned int, 3)
		lttng_ust_field_enum(new_prov, color, int, color, n)))

LTTNG_UST_TRACEPOINT_LOGLEVEL(new_prov, ev, LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE)

LTTNG_UST_TRACEPOINT_EVENT(new_prov, every_field,
	LTTNG_UST_TP_ARGS(const struct new_prov_values *, v),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, i, v->i)
		lttng_ust_field_integer_hex(unsigned int, ih, v->u)
		lttng_ust_field_integer_network(uint32_t, inet, v->n32[0])
		lttng_ust_field_integer_network_hex(uint16_t, inethex, v->n16[0])
		lttng_ust_field_integer_nowrite(int, hidden_i, v->i)
		lttng_ust_field_float(double, d, v->d)
		lttng_ust_field_float_nowrite(float, hidden_f, 1.5f)
		lttng_ust_field_string(s, v->s)
		lttng_ust_field_string_nowrite(hidden_s, v->s)
		lttng_ust_field_array(int16_t, a, v->a16, 3)
		lttng_ust_field_array_nowrite(int16_t, hidden_a, v->a16, 3)
		lttng_ust_field_array_hex(uint8_t, ahex, v->b, 4)
		lttng_ust_field_array_nowrite_hex(uint8_t, hidden_ahex, v->b, 4)
		lttng_ust_field_array_network(uint16_t, anet, v->n16, 2)
		lttng_ust_field_array_network_nowrite(uint16_t, hidden_anet, v->n16, 2)
		lttng_ust_field_array_network_hex(uint32_t, anethex, v->n32, 2)
		lttng_ust_field_array_network_nowrite_hex(uint32_t, hidden_anethex, v->n32, 2)
		lttng_ust_field_array_text(char, atext, v->text, 4)
		lttng_ust_field_array_text_nowrite(char, hidden_atext, v->text, 4)
		lttng_ust_field_sequence(int16_t, q, v->a16, unsigned int, 2)
		lttng_ust_field_sequence_nowrite(int16_t, hidden_q, v->a16, unsigned int, 2)
		lttng_ust_field_sequence_hex(uint8_t, qhex, v->b, uint8_t, 3)
		lttng_ust_field_sequence_nowrite_hex(uint8_t, hidden_qhex, v->b, uint8_t, 3)
		lttng_ust_field_sequence_network(uint16_t, qnet, v->n16, uint16_t, 2)
		lttng_ust_field_sequence_network_nowrite(uint16_t, hidden_qnet, v->n16, uint16_t, 2)
		lttng_ust_field_sequence_network_hex(uint32_t, qnethex, v->n32, uint32_t, 1)
		lttng_ust_field_sequence_network_nowrite_hex(uint32_t, hidden_qnethex, v->n32, uint32_t, 1)
		lttng_ust_field_sequence_text(char, qtext, v->text, size_t, 3)
		lttng_ust_field_sequence_text_nowrite(char, hidden_qtext, v->text, size_t, 3)
		lttng_ust_field_enum(new_prov, color, int, e, 10)
		lttng_ust_field_enum_nowrite(new_prov, color, int, hidden_e, 0)
		lttng_ust_field_unused(v)
		lttng_ust_field_unused_nowrite(v)))

LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(new_prov, every_field, "http://example.com/new_prov.emf")

/* A class and its instances, one per log level (LTTng-UST 2.13's 5-argument form). */
LTTNG_UST_TRACEPOINT_EVENT_CLASS(new_prov, level_class,
	LTTNG_UST_TP_ARGS(int, level),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, level, level)))

#define NEW_PROV_LEVEL(name, lvl)							\
	LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(new_prov, level_class, new_prov, name,	\
		LTTNG_UST_TP_ARGS(int, level))						\
	LTTNG_UST_TRACEPOINT_LOGLEVEL(new_prov, name, LTTNG_UST_TRACEPOINT_LOGLEVEL_##lvl)

NEW_PROV_LEVEL(l_emerg, EMERG)
NEW_PROV_LEVEL(l_alert, ALERT)
NEW_PROV_LEVEL(l_crit, CRIT)
NEW_PROV_LEVEL(l_err, ERR)
NEW_PROV_LEVEL(l_warning, WARNING)
NEW_PROV_LEVEL(l_notice, NOTICE)
NEW_PROV_LEVEL(l_info, INFO)
NEW_PROV_LEVEL(l_debug_system, DEBUG_SYSTEM)
NEW_PROV_LEVEL(l_debug_program, DEBUG_PROGRAM)
NEW_PROV_LEVEL(l_debug_process, DEBUG_PROCESS)
NEW_PROV_LEVEL(l_debug_module, DEBUG_MODULE)
NEW_PROV_LEVEL(l_debug_unit, DEBUG_UNIT)
NEW_PROV_LEVEL(l_debug_function, DEBUG_FUNCTION)
NEW_PROV_LEVEL(l_debug_line, DEBUG_LINE)
NEW_PROV_LEVEL(l_debug, DEBUG)

#endif

#include <lttng/tracepoint-event.h>
