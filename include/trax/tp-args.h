/* Generated once by hand-run script; argument-list helpers for TP_ARGS (up to 10 pairs). */
#ifndef TRAX_TP_ARGS_H
#define TRAX_TP_ARGS_H

/* Number of items in a TP_ARGS list: 1 means empty (a real list has an even count). */
#define _TRAX_NARGS(...)                                                                           \
	_TRAX_NARGS_(__VA_ARGS__, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, \
		     2, 1, 0)
#define _TRAX_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17,   \
		     _18, _19, _20, N, ...)                                                        \
	N
#define _TRAX_CAT(a, b)	 _TRAX_CAT_(a, b)
#define _TRAX_CAT_(a, b) a##b
#define _TRAX_STR(...)	 _TRAX_STR_(__VA_ARGS__)
#define _TRAX_STR_(...)	 #__VA_ARGS__

/* parameter list: `t1 a1, t2 a2` or `void` */
#define _TRAX_PARAMS(...)					_TRAX_CAT(_TRAX_PARAMS_, _TRAX_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define _TRAX_PARAMS_1(...)					void
#define _TRAX_PARAMS_2(t1, a1)					t1 a1
#define _TRAX_PARAMS_4(t1, a1, t2, a2)				t1 a1, t2 a2
#define _TRAX_PARAMS_6(t1, a1, t2, a2, t3, a3)			t1 a1, t2 a2, t3 a3
#define _TRAX_PARAMS_8(t1, a1, t2, a2, t3, a3, t4, a4)		t1 a1, t2 a2, t3 a3, t4 a4
#define _TRAX_PARAMS_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5
#define _TRAX_PARAMS_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6)                            \
	t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6
#define _TRAX_PARAMS_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7)                    \
	t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7
#define _TRAX_PARAMS_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8)            \
	t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8
#define _TRAX_PARAMS_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9)    \
	t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9
#define _TRAX_PARAMS_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9,    \
			t10, a10)                                                                  \
	t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10

/* parameters after a leading one: `, t1 a1, t2 a2` or nothing */
#define _TRAX_CPARAMS(...) _TRAX_CAT(_TRAX_CPARAMS_, _TRAX_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define _TRAX_CPARAMS_1(...)
#define _TRAX_CPARAMS_2(t1, a1)					 , t1 a1
#define _TRAX_CPARAMS_4(t1, a1, t2, a2)				 , t1 a1, t2 a2
#define _TRAX_CPARAMS_6(t1, a1, t2, a2, t3, a3)			 , t1 a1, t2 a2, t3 a3
#define _TRAX_CPARAMS_8(t1, a1, t2, a2, t3, a3, t4, a4)		 , t1 a1, t2 a2, t3 a3, t4 a4
#define _TRAX_CPARAMS_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) , t1 a1, t2 a2, t3 a3, t4 a4, t5 a5
#define _TRAX_CPARAMS_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6)                           \
	, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6
#define _TRAX_CPARAMS_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7)                   \
	, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7
#define _TRAX_CPARAMS_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8)           \
	, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8
#define _TRAX_CPARAMS_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9)   \
	, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9
#define _TRAX_CPARAMS_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9,   \
			 t10, a10)                                                                 \
	, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10

/* argument names: `a1, a2` or nothing */
#define _TRAX_ANAMES(...) _TRAX_CAT(_TRAX_ANAMES_, _TRAX_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define _TRAX_ANAMES_1(...)
#define _TRAX_ANAMES_2(t1, a1)						a1
#define _TRAX_ANAMES_4(t1, a1, t2, a2)					a1, a2
#define _TRAX_ANAMES_6(t1, a1, t2, a2, t3, a3)				a1, a2, a3
#define _TRAX_ANAMES_8(t1, a1, t2, a2, t3, a3, t4, a4)			a1, a2, a3, a4
#define _TRAX_ANAMES_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5)		a1, a2, a3, a4, a5
#define _TRAX_ANAMES_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) a1, a2, a3, a4, a5, a6
#define _TRAX_ANAMES_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7)                    \
	a1, a2, a3, a4, a5, a6, a7
#define _TRAX_ANAMES_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8)            \
	a1, a2, a3, a4, a5, a6, a7, a8
#define _TRAX_ANAMES_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9)    \
	a1, a2, a3, a4, a5, a6, a7, a8, a9
#define _TRAX_ANAMES_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9,    \
			t10, a10)                                                                  \
	a1, a2, a3, a4, a5, a6, a7, a8, a9, a10

/* argument names after a leading one: `, a1, a2` or nothing */
#define _TRAX_CANAMES(...) _TRAX_CAT(_TRAX_CANAMES_, _TRAX_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define _TRAX_CANAMES_1(...)
#define _TRAX_CANAMES_2(t1, a1)						 , a1
#define _TRAX_CANAMES_4(t1, a1, t2, a2)					 , a1, a2
#define _TRAX_CANAMES_6(t1, a1, t2, a2, t3, a3)				 , a1, a2, a3
#define _TRAX_CANAMES_8(t1, a1, t2, a2, t3, a3, t4, a4)			 , a1, a2, a3, a4
#define _TRAX_CANAMES_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5)	 , a1, a2, a3, a4, a5
#define _TRAX_CANAMES_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) , a1, a2, a3, a4, a5, a6
#define _TRAX_CANAMES_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7)                   \
	, a1, a2, a3, a4, a5, a6, a7
#define _TRAX_CANAMES_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8)           \
	, a1, a2, a3, a4, a5, a6, a7, a8
#define _TRAX_CANAMES_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9)   \
	, a1, a2, a3, a4, a5, a6, a7, a8, a9
#define _TRAX_CANAMES_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9,   \
			 t10, a10)                                                                 \
	, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10

#endif /* TRAX_TP_ARGS_H */
