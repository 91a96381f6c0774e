/* Running gnuplot from C: one way for every program that draws. gnuplot
 * runs under the C.UTF-8 locale (glibc has it built in; Debian always
 * ships it), whatever the caller's: the scripts say `set encoding utf8`,
 * and under LC_ALL=C or no locale gnuplot warns for every chart that it
 * cannot convert the degree sign. */
#ifndef IC_GNUPLOT_RUN_H
#define IC_GNUPLOT_RUN_H

#include <stddef.h>
#include <stdio.h>

#define IC_GNUPLOT_LOCALE "C.UTF-8"

/* s as a gnuplot single-quoted string ('' for a quote, line breaks
 * dropped), appended to f. */
void ic_gnuplot_quote(FILE *f, const char *s);

/* gnuplot -e VARS SCRIPT, its output in LOG (removed afterwards). 0 drawn
 * (any warning it printed is passed on to stderr, prefixed "gnuplot: ");
 * 1 gnuplot is not installed; -1 it failed, with its last line in err. */
int ic_gnuplot_run(const char *vars, const char *script, const char *log, char *err, size_t errlen);

#endif /* IC_GNUPLOT_RUN_H */
