/*
 * test_analysis_format.c - what the analyses print must equal what
 * lttng-analyses (Python) prints: floats as Python's repr() (shortest
 * round trip: json.dumps' form), JSON strings as json.dumps (ensure_ascii),
 * times as format_utils; and --begin/--end are read as lttng-analyses
 * reads them (range.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/range.h"
#include "analysis/table.h"
#include "check.h"

/* Doubles (their bits) and Python 3's repr() of each, made with CPython 3.11. */
static const struct {
	uint64_t bits;
	const char *repr;
} reprs[] = {
    {0x0000000000000000ULL, "0.0"},
    {0x8000000000000000ULL, "-0.0"},
    {0x3ff0000000000000ULL, "1.0"},
    {0x40b6b60000000000ULL, "5814.0"},
    {0x3feb87c4d92a3c9cULL, "0.860323356771818"},
    {0x3fb999999999999aULL, "0.1"},
    {0x3fd3333333333334ULL, "0.30000000000000004"},
    {0x4341c37937e08000ULL, "1e+16"},
    {0x430c6bf526340000ULL, "1000000000000000.0"},
    {0x437b69b4ba630f35ULL, "1.2345678901234568e+17"},
    {0x3f1a36e2eb1c432dULL, "0.0001"},
    {0x3ee4f8b588e368f1ULL, "1e-05"},
    {0x3eef75104d551d69ULL, "1.5e-05"},
    {0x3f1cd5f99c38b04bULL, "0.00011"},
    {0x4004000000000000ULL, "2.5"},
    {0x4059000000000000ULL, "100.0"},
    {0x3fd5555555555555ULL, "0.3333333333333333"},
    {0x3fe5555555555555ULL, "0.6666666666666666"},
    {0x4480f0cf064dd592ULL, "1e+22"},
    {0x3e7ad7f29abcaf48ULL, "1e-07"},
    {0x0000000000000001ULL, "5e-324"},
    {0x7fefffffffffffffULL, "1.7976931348623157e+308"},
    {0xc006000000000000ULL, "-2.75"},
    {0x3fe19ad42c3c9eedULL, "0.55015"},
    {0x3fe667381d7dbf49ULL, "0.7001000000000001"},
    {0x3fd99ce075f6fd23ULL, "0.40020000000000006"},
    {0x4340000000000000ULL, "9007199254740992.0"},
    {0x40badfc0670b453cULL, "6879.751572327044"},
    {0x40a05654e9438372ULL, "2091.1658421609836"},
    {0x4132d68700000000ULL, "1234567.0"},
    {0x43e56a95319d63e1ULL, "1.2345678901234567e+19"},
    {0x3fe0000000000000ULL, "0.5"},
    {0x7e37e43c8800759cULL, "1e+300"},
    {0x81a56e1fc2f8f359ULL, "-1e-300"},
    {0x4341c37937e07fffULL, "9999999999999998.0"},
    {0x3f50624dd2f1a9fcULL, "0.001"},
    {0x405edd2f1a9fbe77ULL, "123.456"},
    {0x1f70d5dc2e675fc7ULL, "3.06552934678117e-157"},
    {0x72e63ac7a9538322ULL, "3.035696215253337e+245"},
    {0x3d4fa08455a5b465ULL, "2.2472348792584413e-13"},
    {0xf3b08f6932ac2b62ULL, "-1.8526013531417184e+249"},
    {0xa0d0e9b47d50e092ULL, "-1.2916966173120972e-150"},
    {0x2ed764b27e790e8bULL, "4.8167443657415405e-83"},
    {0x4ba417007ad25f92ULL, "2.4630085746064913e+56"},
    {0xe3089c7a75553000ULL, "-1.1610238555702954e+169"},
    {0x3234c93c43b84218ULL, "7.709984025703843e-67"},
    {0xe6342c1c40f91904ULL, "-2.142855636483753e+184"},
    {0x1e353f29b11f0de6ULL, "3.689558970492252e-163"},
    {0x85a8bb9b530e60cbULL, "-2.128962589459719e-281"},
    {0xc32f9525acc10a6cULL, "-4444856661345590.0"},
    {0x2ca106edc9843faaULL, "1.0203547078809698e-93"},
    {0xf796ef6eddae9b60ULL, "-1.1832603381587204e+268"},
    {0xcfa2f9f4f1abd893ULL, "-4.291633367590936e+75"},
    {0x2b456d913c0bfc13ULL, "3.061491349432649e-100"},
    {0x3341fde73cc60842ULL, "8.747133308193232e-62"},
    {0x5d93bf78bc1d8977ULL, "6.020321350932145e+142"},
    {0x81fb58929356cc2eULL, "-4.083362299754826e-299"},
    {0xcf7dd28333adb83cULL, "-8.43063500908857e+74"},
    {0xe44a6fc9ad7785adULL, "-1.3077184956535392e+175"},
    {0xc18fd63fdf8d53b0ULL, "-66766843.94400728"},
    {0x7e60df30d5f61954ULL, "5.649475195987161e+300"},
    {0xb75ecfb53752145cULL, "-5.526516466403381e-42"},
    {0x43d6c44a4c87f36aULL, "6.562071427314199e+18"},
    {0x57be0cbf01b4a96cULL, "4.625085911235745e+114"},
    {0x67c7eeb2f9c6245aULL, "8.530487345624145e+191"},
    {0xc594557b386eca73ULL, "-1.5732601957931314e+27"},
    {0x67eadff1ba23814cULL, "3.831706186183159e+192"},
    {0x588df12289b3a309ULL, "3.775271167053524e+118"},
    {0x92bdb98e97ed2981ULL, "-2.1051476719444978e-218"},
    {0x45ab861586d827ecULL, "4.2590964910701003e+27"},
    {0x4502df36d355dd53ULL, "2.8518454789055375e+24"},
    {0xb56f4983999505b9ULL, "-2.613225894837392e-51"},
    {0x8d460a374d9dc8f8ULL, "-1.0087029219418353e-244"},
    {0x4805085d1d658320ULL, "8.946308761432919e+38"},
    {0x9161915e7a373571ULL, "-5.932692098673035e-225"},
    {0x803197f9ec46ac5cULL, "-9.786796717658445e-308"},
    {0x7efc0606252bfa45ULL, "4.8043927932457234e+303"},
    {0x42cf1a0a07088c55ULL, "68393395687704.664"},
    {0x3fe962945ca41b8cULL, "0.7932836350818078"},
    {0x42e783c56cf01e22ULL, "206837763244273.06"},
    {0x3f8085174deb2f1fULL, "0.00806635099925007"},
    {0x41b8427813f1e770ULL, "407009299.9449377"},
    {0x433462233e4b305cULL, "5737403042705500.0"},
    {0x40341fb05a5ad083ULL, "20.123784682437428"},
    {0x40b4de1f2d2f12e0ULL, "5342.121783201321"},
    {0x441125444e764ab3ULL, "7.90700017002121e+19"},
    {0x42332f379ff1678eULL, "82396553201.40451"},
    {0x41bbf971a631bbe5ULL, "469332390.1942733"},
    {0x3f583bdf65f0befbULL, "0.0014791185019581976"},
    {0x4013947add64eb10ULL, "4.894999942097243"},
    {0x422e30717752462bULL, "64830880681.13705"},
    {0x43c8747420ec3e85ULL, "3.5243220779200046e+18"},
    {0x43d5d9a030fdaeffULL, "6.29786270807071e+18"},
    {0x422af43887db1870ULL, "57883247597.54773"},
    {0x41f9638ff021c822ULL, "6815284994.111361"},
    {0x3f108ae142ad72e1ULL, "6.310462837917252e-05"},
    {0x3f14439eba941ffcULL, "7.730156234597713e-05"},
};

static double from_bits(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

static void check_floats(void)
{
	char buf[64];

	check_part = "py_float";
	for (size_t i = 0; i < sizeof(reprs) / sizeof(reprs[0]); i++) {
		double v = from_bits(reprs[i].bits);

		an_py_float(buf, sizeof(buf), v);
		CHECK(!strcmp(buf, reprs[i].repr), "%016llx: %s, Python %s",
		      (unsigned long long)reprs[i].bits, buf, reprs[i].repr);
	}
	/* random doubles: the shortest digits that read back (no shorter one does) */
	srand(18);
	for (int i = 0; i < 20000; i++) {
		uint64_t b = ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
		double v = from_bits(b), back;
		char digits[40];
		int sig = 0, started = 0;

		if (isnan(v) || isinf(v))
			continue;
		an_py_float(buf, sizeof(buf), v);
		back = strtod(buf, NULL);
		CHECK(back == v, "%s does not read back as %.17g", buf, v);
		/* significant digits printed (without leading and trailing zeros) */
		for (const char *p = buf; *p && *p != 'e'; p++)
			if (*p >= '0' && *p <= '9' && (started || *p != '0')) {
				started = 1;
				digits[sig++] = *p;
			}
		while (sig > 0 && digits[sig - 1] == '0')
			sig--;
		/* one digit fewer never reads back */
		if (sig > 1 && !strchr(buf, 'e') && fabs(v) < 1e16 && fabs(v) >= 1e-4) {
			snprintf(digits, sizeof(digits), "%.*e", sig - 2, v);
			CHECK(strtod(digits, NULL) != v, "%s: %s is shorter", buf, digits);
		}
	}
}

static void check_json_strings(void)
{
	struct strbuf sb;

	check_part = "json strings";
	strbuf_init(&sb);
	an_json_string(&sb, "a\"b\\c\n\t\x01 é € \xf0\x9f\x98\x80 /");
	CHECK(sb.buf &&
		  !strcmp(sb.buf, "\"a\\\"b\\\\c\\n\\t\\u0001 \\u00e9 \\u20ac \\ud83d\\ude00 /\""),
	      "%s", sb.buf);
	strbuf_free(&sb);
}

static void check_times(void)
{
	char buf[64];

	check_part = "times";
	setenv("TZ", "UTC", 1);
	tzset();
	CHECK(!strcmp(an_format_time(buf, sizeof(buf), 1795676416175197620LL, 1, 0),
		      "2026-11-26 07:00:16.175197620"),
	      "%s", buf);
	CHECK(!strcmp(an_format_time(buf, sizeof(buf), 1795676416000000005LL, 0, 1),
		      "07:00:16.000000005"),
	      "%s", buf);
	/* local time: TZ */
	setenv("TZ", "EST5", 1);
	tzset();
	CHECK(!strcmp(an_format_time(buf, sizeof(buf), 1795676416175197620LL, 1, 0),
		      "2026-11-26 02:00:16.175197620"),
	      "%s", buf);
	CHECK(!strcmp(an_format_time(buf, sizeof(buf), 1795676416175197620LL, 1, 1),
		      "2026-11-26 07:00:16.175197620"),
	      "gmt: %s", buf);
	setenv("TZ", "UTC", 1);
	tzset();
}

static void check_parse(void)
{
	const int64_t day = 1795676416175197620LL; /* 2026-11-26 07:00:16 UTC */
	char err[200];
	int64_t ns;

	check_part = "parse_time";
	setenv("TZ", "UTC", 1);
	tzset();
	CHECK_EQ(an_parse_time("2026-11-26 07:00:17.100000000", 0, day, 0, &ns, err, sizeof(err)),
		 0);
	CHECK_EQ(ns, 1795676417100000000LL);
	CHECK_EQ(an_parse_time("2026-11-26T07:00:17", 0, day, 0, &ns, err, sizeof(err)), 0);
	CHECK_EQ(ns, 1795676417000000000LL);
	CHECK_EQ(an_parse_time("07:00:17.129000000", 0, day, 0, &ns, err, sizeof(err)), 0);
	CHECK_EQ(ns, 1795676417129000000LL);
	CHECK_EQ(an_parse_time("07:00:18", 1, day, 0, &ns, err, sizeof(err)), 0);
	CHECK_EQ(ns, 1795676418000000000LL);
	CHECK_EQ(an_parse_time("1795676417129000001", 0, day, 0, &ns, err, sizeof(err)), 0);
	CHECK_EQ(ns, 1795676417129000001LL);
	/* local time unless gmt: 07:00 in UTC-5 is 12:00 UTC */
	setenv("TZ", "EST5", 1);
	tzset();
	CHECK_EQ(an_parse_time("2026-11-26 07:00:00", 0, day, 0, &ns, err, sizeof(err)), 0);
	CHECK_EQ(ns, 1795694400000000000LL);
	CHECK_EQ(an_parse_time("2026-11-26 07:00:00", 1, day, 0, &ns, err, sizeof(err)), 0);
	CHECK_EQ(ns, 1795676400000000000LL);
	/* the trace's day in local time: 07:00:16 UTC is 02:00:16 on the 26th in EST */
	CHECK_EQ(an_parse_time("23:00:00", 0, day, 0, &ns, err, sizeof(err)), 0);
	CHECK_EQ(ns, 1795752000000000000LL);
	setenv("TZ", "UTC", 1);
	tzset();
	/* what lttng-analyses refuses */
	CHECK_EQ(an_parse_time("07:00:17", 0, day, 1, &ns, err, sizeof(err)), -1);
	CHECK(strstr(err, "multi-day"), "%s", err);
	CHECK_EQ(an_parse_time("7:00:17", 0, day, 0, &ns, err, sizeof(err)), -1);
	CHECK_EQ(an_parse_time("07:00:17.1", 0, day, 0, &ns, err, sizeof(err)), -1);
	CHECK_EQ(an_parse_time("07:61:17", 0, day, 0, &ns, err, sizeof(err)), -1);
	CHECK_EQ(an_parse_time("2026-02-30 07:00:17", 0, day, 0, &ns, err, sizeof(err)), -1);
	CHECK_EQ(an_parse_time("2026-11-26 07:00:17.1234567890", 0, day, 0, &ns, err, sizeof(err)),
		 -1);
	CHECK_EQ(an_parse_time("", 0, day, 0, &ns, err, sizeof(err)), -1);
	CHECK_EQ(an_parse_time("-5", 0, day, 0, &ns, err, sizeof(err)), -1);
	CHECK(strstr(err, "Unrecognised date format: -5"), "%s", err);
}

int main(void)
{
	check_floats();
	check_json_strings();
	check_times();
	check_parse();
	return CHECK_RESULT();
}
