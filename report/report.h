/* The writers of summarize's outputs, each to an open stream, from a run's
 * analysis (analysis.h); every one returns 0, or -1 when a write failed. A
 * value not measured is an empty CSV cell or "—", never 0. Each file's head
 * says which output it writes. */
#ifndef IC_REPORT_H
#define IC_REPORT_H

#include <stdio.h>

#include "analysis.h"

void ic_answer_write(FILE *f, const struct ic_analysis *an);

/* Room for one series' verdict, two states' included. */
#define IC_VERDICT_MAX 4096
/* No size is printed whose 95% range is wider than this factor each way:
 * "too variable to size here". */
#define IC_VERDICT_SIZE_MAX 0.5
/* The verdict of one series as sentences ending in '.': "Inline pays up
 * to N = 4 (4-12% faster); from N = 8 extern calls are 1.3-1.7x faster;
 * unresolved at N = 1 and 4096." */
const char *ic_verdict_series(char *buf, size_t cap, const struct ic_analysis *an,
			      const struct ic_series *se);
/* inline or hint against an extern form: said as "inline pays", "extern calls". */
int ic_verdict_classic(const struct ic_analysis *an);
/* A design too small for a verdict (ic_analysis_smoke): 1 with "smoke
 * test: too small a design for a verdict (WHY)" in buf, else 0 and "". */
int ic_verdict_smoke(char *buf, size_t cap, const struct ic_analysis *an);
/* verdict.txt, plain text for the console: the forms, the smoke mark,
 * then "- SERIES: VERDICT" per series. */
int ic_verdict_text_write(FILE *f, const struct ic_analysis *an);
/* verdict.json, the shape docs/verdict-json.md documents. */
int ic_verdict_json_write(FILE *f, const struct ic_analysis *an);
int ic_summary_write(FILE *f, const struct ic_analysis *an);
void ic_attribution_write(FILE *f, const struct ic_analysis *an, const struct ic_series *se);

/* A verdict only where every repeat holds it: where the series' repeats
 * disagree, "the 3 repeats disagree, so no verdict is stated: repeat 1
 * ..., repeat 2 ..." and 1, else nothing and 0; where they agree, "; each
 * of the 3 repeats alone says the same". The Method section's table of the
 * spread at each level of the design, one row per series. */
int ic_repeats_disagree(FILE *f, const struct ic_analysis *an, const struct ic_series *se);
void ic_repeats_agree_note(FILE *f, const struct ic_series *se);
void ic_repeats_method(FILE *f, const struct ic_analysis *an);

int ic_tables_points_write(FILE *f, const struct ic_analysis *an);
int ic_tables_ratios_write(FILE *f, const struct ic_analysis *an);
int ic_tables_crossover_write(FILE *f, const struct ic_analysis *an);
/* process_ratios.csv: every process's ratio at every N, its layout
 * variant, its rank in time (file mtime) and its state (states.h). */
int ic_tables_process_ratios_write(FILE *f, const struct ic_analysis *an);
/* calibration.csv, only with --planted. */
int ic_tables_calibration_write(FILE *f, const struct ic_analysis *an);
/* refine_next.txt: the N that would narrow the crossover brackets, one a
 * line (analysis.h); empty when there is nothing left to narrow. */
int ic_tables_refine_next_write(FILE *f, const struct ic_analysis *an);

/* --calibrate: the planted fractions, trials, baseline and design of a run
 * (run.conf), and over its trials' analyses per fraction the rows of
 * calibration_trials.csv and the sums of calibration.md. */
#define IC_CALIBRATION_PLANTS_MAX 16
struct ic_calibration {
	struct ic_calibration_plant {
		double f;
		char form[96];
		/* Over the trials: rows, and those whose interval holds 1 + f, whose
		 * band excludes 1; sums of what the table holds, and how many had it. */
		size_t n, holds, excludes, nratio, nwidth;
		double sum_ratio, sum_width;
	} plant[IC_CALIBRATION_PLANTS_MAX];
	size_t nplants, ntrials;
	char baseline[64];
	char design[256];   /* each trial's, from run.conf */
	char series[512];   /* the first trial's series, for calibration.md */
};
struct ic_settings;
/* From run.conf (conf, read from path); -1 with one line in err when it is
 * no --calibrate run's. */
int ic_calibration_settings(struct ic_calibration *c, const struct ic_settings *conf,
			    const char *path, char *err, size_t errlen);
/* The analysis of trial t (0..) with plant k: its rows into csv (the
 * header before the first), its counts into c. */
void ic_calibration_add(struct ic_calibration *c, FILE *csv, size_t t, size_t k,
			const struct ic_analysis *an);
/* calibration.md; seconds (-1: not said) the calibration's time. */
void ic_calibration_markdown(FILE *md, const struct ic_calibration *c, long seconds);

/* Markdown as plain lines for the terminal, each under IC_PLAIN_PREFIX:
 * links and images as their text, no emphasis, code or heading marks, no
 * blank lines, wrapped at 100 bytes (a bullet's continuation under its
 * text). */
#define IC_PLAIN_PREFIX "inlinecost: "
void ic_plain_text(FILE *out, const char *md);
/* The closing lines of a run: summary.md's smoke mark (from its title)
 * and its first section, as ic_plain_text writes them. */
void ic_plain_closing(FILE *out, const char *summary_md);

#endif /* IC_REPORT_H */
