/* Drawing a chart: the one way every program that draws runs gnuplot, on plots/CHART.gp found by
 * the path of plots/ in the source tree, compiled in. gnuplot runs under C.UTF-8 (in glibc, always
 * on Debian) whatever the caller's locale: the scripts `set encoding utf8`, and under LC_ALL=C or
 * no locale gnuplot warns for every chart that it cannot convert the degree sign. $GNUPLOT, when
 * set, names the gnuplot to run. */
#ifndef IC_GNUPLOT_RUN_H
#define IC_GNUPLOT_RUN_H

#include <stddef.h>
#include <stdio.h>

/* s appended to f as a gnuplot '' string ('' a quote, line breaks dropped). */
void ic_gnuplot_quote(FILE *f, const char *s);

/* file ($PATH searched without a '/') run with argv and env, stdin /dev/null, stdout and stderr
 * into log, and waited for: 0 with its wait status in *status, or posix_spawn's error. */
int ic_spawn_logged(const char *file, char *const argv[], char *const env[], const char *log,
		    int *status);

/* buf: the last line of path with a character not in skip ("" when none);
 * each such line also on stderr after the prefix pass, unless NULL. */
const char *ic_log_last(const char *path, const char *skip, const char *pass, char *buf, size_t cap);

/* plots/CHART.gp drawn into OUT in TERM ("png" or "svg") from the data in DIR (the script's ic_dir,
 * ic_src, ic_term, ic_out), its output in LOG, removed after. 0 drawn (its warnings passed on to
 * stderr after "gnuplot: "); 1 gnuplot is not installed; -1 failed, one line in err. */
int ic_gnuplot_draw(const char *chart, const char *dir, const char *term, const char *out,
		    const char *log, char *err, size_t errlen);

/* BASE.png and BASE.svg by plots/CHART.gp from DIR's data, both renamed
 * into place once whole (or neither); the log in DIR. As ic_gnuplot_draw. */
int ic_gnuplot_draw_pair(const char *chart, const char *dir, const char *base, char *err, size_t errlen);

/* The pair DIR/plots/CHART from the data.gp and .dat files in DIR/plots/
 * (summarize --out DIR or watch_report wrote them). */
int ic_gnuplot_draw_dir(const char *dir, const char *chart, char *err, size_t errlen);

/* The sweep's charts (time, l1i, ratio, timeline, attribution) as
 * ic_gnuplot_draw_dir draws each; when one fails, none is left. */
int ic_gnuplot_draw_sweep(const char *dir, char *err, size_t errlen);

#endif /* IC_GNUPLOT_RUN_H */
