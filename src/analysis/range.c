/* range.c - --begin/--end and the stream intersection (range.h). */
#include "analysis/range.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* n digits at s: their value, or -1. */
static long digits(const char *s, int n)
{
	long v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "hh:mm:ss" with an optional ".nnnnnnnnn" (exactly nine digits), then the end. */
static int parse_clock(const char *s, struct tm *tm, long *nsec)
{
	long h = digits(s, 2), m = digits(s + 3, 2), sec = digits(s + 6, 2);

	if (h < 0 || m < 0 || sec < 0 || s[2] != ':' || s[5] != ':')
		return -1;
	/* datetime.time's limits */
	if (h > 23 || m > 59 || sec > 59)
		return -1;
	tm->tm_hour = (int)h;
	tm->tm_min = (int)m;
	tm->tm_sec = (int)sec;
	*nsec = 0;
	if (s[8] == 0)
		return 0;
	if (s[8] != '.' || strlen(s + 9) != 9 || (*nsec = digits(s + 9, 9)) < 0)
		return -1;
	return 0;
}

static int days_in_month(int y, int m)
{
	static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return d[m - 1];
}

static int to_ns(struct tm *tm, long nsec, int gmt, int64_t *ns)
{
	time_t t;

	tm->tm_isdst = -1;
	t = gmt ? timegm(tm) : mktime(tm);
	if (t == (time_t)-1 && !(tm->tm_year == 69 && tm->tm_mon == 11 && tm->tm_mday == 31))
		return -1;
	if (__builtin_mul_overflow((int64_t)t, (int64_t)1000000000, ns) ||
	    __builtin_add_overflow(*ns, (int64_t)nsec, ns))
		return -1;
	return 0;
}

int an_parse_time(const char *s, int gmt, int64_t day_ns, int multi_day, int64_t *ns, char *err,
		  size_t errlen)
{
	struct tm tm;
	long nsec, y, mo, d;
	size_t len = strlen(s);

	memset(&tm, 0, sizeof(tm));
	/* a date: YYYY-MM-DD then ' ', 'T' or 't' (or any white space) then the time */
	if (len >= 19 && (y = digits(s, 4)) >= 0 && s[4] == '-' && (mo = digits(s + 5, 2)) >= 0 &&
	    s[7] == '-' && (d = digits(s + 8, 2)) >= 0 &&
	    (isspace((unsigned char)s[10]) || s[10] == 'T' || s[10] == 't')) {
		if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in_month((int)y, (int)mo) ||
		    parse_clock(s + 11, &tm, &nsec))
			goto bad;
		tm.tm_year = (int)y - 1900;
		tm.tm_mon = (int)mo - 1;
		tm.tm_mday = (int)d;
		if (to_ns(&tm, nsec, gmt, ns))
			goto bad;
		return 0;
	}
	if (len >= 8 && s[2] == ':' && parse_clock(s, &tm, &nsec) == 0) {
		/* the time of day, on the trace's day */
		time_t day = (time_t)(day_ns / 1000000000);
		struct tm dt;

		if (multi_day) {
			snprintf(err, errlen, "Invalid date format for multi-day trace: %s", s);
			return -1;
		}
		if (gmt)
			gmtime_r(&day, &dt);
		else
			localtime_r(&day, &dt);
		tm.tm_year = dt.tm_year;
		tm.tm_mon = dt.tm_mon;
		tm.tm_mday = dt.tm_mday;
		if (to_ns(&tm, nsec, gmt, ns))
			goto bad;
		return 0;
	}
	if (len > 0 && len <= 19 && strspn(s, "0123456789") == len) {
		unsigned long long v = strtoull(s, NULL, 10);

		if (v > INT64_MAX)
			goto bad;
		*ns = (int64_t)v;
		return 0;
	}
bad:
	snprintf(err, errlen, "Unrecognised date format: %s", s);
	return -1;
}

int an_bounds(struct trax_reader *r, struct an_bounds *b)
{
	size_t n = trax_reader_stream_count(r), ntraces = trax_reader_trace_count(r);
	int any = 0;

	memset(b, 0, sizeof(*b));
	if (n == (size_t)-1)
		return -1;
	b->traces = calloc(ntraces ? ntraces : 1, sizeof(*b->traces));
	if (!b->traces)
		return -1;
	b->ntraces = ntraces;
	b->all_set = 1;
	for (size_t t = 0; t < ntraces; t++) {
		struct an_trace_clip *c = &b->traces[t];
		int files = 0, empty = 0;

		for (size_t i = 0; i < n; i++) {
			struct trax_stream_info si = {.size = sizeof(si)};

			if (trax_reader_stream_info(r, i, &si) || si.trace != t)
				continue;
			files++;
			if (!si.packets) {
				empty = 1; /* Babeltrace 1: an "empty trace", not clipped */
				continue;
			}
			if (!si.has_bounds)
				continue;
			if (!b->has_bounds || si.begin_ns < b->begin)
				b->begin = si.begin_ns;
			if (!b->has_bounds || si.end_ns > b->end)
				b->end = si.end_ns;
			b->has_bounds = 1;
			if (!c->set || si.begin_ns > c->begin)
				c->begin = si.begin_ns;
			if (!c->set || si.end_ns < c->end)
				c->end = si.end_ns;
			c->set = 1;
		}
		if (empty || !files)
			c->set = 0;
		if (!c->set) {
			b->all_set = 0;
			continue;
		}
		/* the union takes even an empty (inverted) range's bounds, as Babeltrace 1 */
		if (!any || c->begin < b->inter_begin)
			b->inter_begin = c->begin;
		if (!any || c->end > b->inter_end)
			b->inter_end = c->end;
		any = 1;
	}
	b->has_intersection = any && b->inter_begin <= b->inter_end;
	return 0;
}

void an_bounds_free(struct an_bounds *b)
{
	free(b->traces);
	b->traces = NULL;
}
