/*
 * html-util.h - what trax's self-contained pages (trax timeline's,
 * timeline-html.c; the analyses' histograms, html-hist.c) share: text
 * escaped for HTML and for JSON inside a <script>, and the copying of a
 * page template (embedded by embed-page.cmake) up to its markers.
 */
#ifndef TRAX_ANALYSIS_HTML_UTIL_H
#define TRAX_ANALYSIS_HTML_UTIL_H

#include <stdio.h>

/* A JSON string safe inside <script> and HTML: <, >, & and controls as \u00XX. */
void an_html_json_str(FILE *f, const char *s);
/* Text for an HTML element's content or a quoted attribute: <, >, &, " as entities. */
void an_html_text(FILE *f, const char *s);
/*
 * Writes the template from *pos up to marker (NULL: to its end), *pos then
 * after the marker; -1 when the marker is not there (the markers come in
 * the order of the calls).
 */
int an_html_template_until(FILE *f, const char **pos, const char *marker);

#endif /* TRAX_ANALYSIS_HTML_UTIL_H */
