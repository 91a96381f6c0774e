/* The sweep's report (sweep.h): summarize and draw into a new report
 * directory swapped in as a set, the repeats' agreement, the calibration's
 * tables, the verdict so far and the closing lines, in plain text. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit.h"
#include "sweep.h"

/* The files users open in a run, linked through its report/. */
static const char *const report_files[] = { "benchmark.json", "points.csv", "ratios.csv", "crossover.csv",
					    "process_ratios.csv", "summary.md", "verdict.txt", "verdict.json",
					    "calibration.csv", "plots", NULL };

/* One line of Markdown as plain text under the prefix: no emphasis, code
 * marks or link targets, headings as lines, wrapped at 100 columns (a
 * bullet's continuation under its text); nothing for a blank line. */
static void plain_line(FILE *out, const char *md)
{
	char *line = ic_xalloc(malloc(strlen(md) + 1)), *o = line;
	size_t ind = 0, w = 100;

	for (const char *p = md; *p;) {
		const char *close, *open = *p == '!' && p[1] == '[' ? p + 1 : *p == '[' ? p : NULL;

		if (open && (close = strchr(open, ']')) && close[1] == '(' && strchr(close, ')')) {
			memcpy(o, open + 1, (size_t)(close - open - 1));
			o += close - open - 1;
			p = strchr(close, ')') + 1;
		} else if (p[0] == '*' && p[1] == '*') {
			p += 2;
		} else if (*p == '`' || *p == '\n') {
			p++;
		} else {
			*o++ = *p++;
		}
	}
	*o = 0;
	o = line;
	if (*o == '#') {
		while (*o == '#')
			o++;
		o += strspn(o, " ");
	}
	if (!o[strspn(o, " \t\r")])
		return free(line);
	if (o[strspn(o, " ")] == '-' && o[strspn(o, " ") + 1] == ' ')
		ind = strspn(o, " ") + 2;
	o = ic_xalloc(strdup(o));
	while (strlen(o) > w) {
		size_t cut = w;
		char *rest;

		while (cut > ind + 1 && o[cut - 1] != ' ')
			cut--;
		if (cut <= ind + 1)
			cut = w;
		fprintf(out, "inlinecost: %.*s\n", (int)(cut - 1), o);
		rest = sw_fmt("%*s%s", (int)ind, "", o + cut);
		free(o);
		o = rest;
	}
	fprintf(out, "inlinecost: %s\n", o);
	free(o);
	free(line);
}

/* The answer: summary.md's title (the smoke mark, where there is one) and
 * first section; the run's verdict.txt as it is where there is no summary. */
static void closing_lines(const char *dir, FILE *out)
{
	char *path = sw_fmt("%s/summary.md", dir), *line = NULL, *smoke;
	size_t cap = 0;
	int sections = 0;
	FILE *f = fopen(path, "r");

	free(path);
	if (!f) {
		path = sw_fmt("%s/verdict.txt", dir);
		if ((f = fopen(path, "r")))
			while (getline(&line, &cap, f) > 0)
				if (line[strspn(line, " \t\r\n")])
					fprintf(out, "inlinecost: %s", line);
		free(path);
	}
	for (int n = 1; f && getline(&line, &cap, f) > 0; n++) {
		if (n == 1 && (smoke = strstr(line, " — smoke test"))) {
			char *title = sw_fmt("Smoke test%s", smoke + strlen(" — smoke test"));

			plain_line(out, title);
			free(title);
		}
		sections += !strncmp(line, "## ", 3);
		if (sections == 1)
			plain_line(out, line);
	}
	if (f)
		fclose(f);
	free(line);
}

/* summarize the run's processes (extra: --repeat K or --trial T) and draw
 * them into a new report directory, then swap it in as a set: d/report
 * points to it, and the files users open link through it. A failed draw
 * leaves the new report without charts, never with the old ones. */
static void summarise_into(const struct sweep *sw, const char *d, const char *compare, const char *baseline,
			   const char *planted, const char *extra, const char *k, int charts)
{
	char *tmpl = sw_fmt("%s/.report.XXXXXX", d), *log, *old = NULL, link_to[256];
	char *prog = sw_fmt("%s/cmd/summarize", sw->tree[0].dir), *draw = sw_fmt("%s/cmd/draw", sw->tree[0].dir);
	char *argv[16] = { prog, "--compare", (char *)compare, "--baseline", (char *)baseline };
	int n = 5;
	ssize_t len;

	ic_mkdir_p(d);
	if (!mkdtemp(tmpl))
		sw_fail("cannot make a report directory in %s", d);
	if (planted)
		argv[n++] = "--planted", argv[n++] = (char *)planted;
	argv[n++] = "--out", argv[n++] = tmpl, argv[n++] = "--run", argv[n++] = sw->dir;
	if (extra)
		argv[n++] = (char *)extra, argv[n++] = (char *)k;
	log = sw_fmt("%s.log", tmpl);
	if (sw_run(argv, log, SW_SAME, NULL)) {
		sw_tail(20, log);
		sw_run((char *[]){ "rm", "-rf", tmpl, NULL }, NULL, NULL, NULL);
		sw_fail("summarize failed on %s (log: %s)", d, log);
	}
	unlink(log);
	free(log);
	log = sw_fmt("%s/draw.log", tmpl);
	if (!charts) {
		/* calibration trials: only their tables are read */
	} else if (sw_run((char *[]){ "sh", "-c", "command -v gnuplot", NULL }, "/dev/null", NULL, NULL)) {
		sw_say("no gnuplot: results are written; for plots: apt-get install gnuplot-nox, then %s %s/report",
		       draw, d);
	} else if (sw_run((char *[]){ draw, tmpl, NULL }, log, SW_SAME, NULL)) {
		char *rm = sw_fmt("rm -f '%s'/plots/*.png '%s'/plots/*.svg", tmpl, tmpl);

		sw_tail(5, log);
		sw_run((char *[]){ "sh", "-c", rm, NULL }, NULL, NULL, NULL);
		sw_say("plots failed; the new results are in %s without charts", d);
		free(rm);
	}
	unlink(log);
	free(log);
	char *report = sw_fmt("%s/report", d), *tmp_link = sw_fmt("%s/.report.link", d);

	if ((len = readlink(report, link_to, sizeof(link_to) - 1)) > 0) {
		link_to[len] = 0;
		old = sw_fmt("%s/%s", d, link_to);
	}
	unlink(tmp_link);
	if (symlink(strrchr(tmpl, '/') + 1, tmp_link) || rename(tmp_link, report))
		sw_fail("cannot point %s at the new report", report);
	for (const char *const *f = report_files; *f; f++) {
		char *at = sw_fmt("%s/%s", d, *f), *in = sw_fmt("%s/%s", tmpl, *f), *to = sw_fmt("report/%s", *f);
		struct stat st;

		if (lstat(at, &st) && access(in, F_OK) == 0 && symlink(to, at))
			sw_fail("cannot link %s", at);
		free(at), free(in), free(to);
	}
	if (old && strcmp(old, tmpl))
		sw_run((char *[]){ "rm", "-rf", old, NULL }, NULL, NULL, NULL);
	free(old), free(report), free(tmp_link), free(tmpl), free(prog), free(draw);
}

/* --repeat: how far the K runs agree (agree on them), beside the pooled
 * summary. Each repeat<k>/ becomes a run of its own: run.conf and its
 * processes, links into the run's. */
static void repeatability(const struct sweep *sw, FILE *closing)
{
	long repeat = sw_long(sw, "repeat");
	char *raw = sw_fmt("%s/raw", sw->dir), *tmp = sw_fmt("%s/.repeat.XXXXXX", sw->dir), *out, *log, *md;
	char **argv = ic_xalloc(calloc((size_t)repeat + 5, sizeof(*argv)));
	const char *const kept[] = { "repeat.md", "repeat.csv", "repeat.dat", "repeat.png" };

	argv[0] = sw_fmt("%s/cmd/agree", sw->tree[0].dir);
	for (long r = 1; r <= repeat; r++) {
		char *rd = sw_fmt("%s/repeat%ld", sw->dir, r), *rraw = sw_fmt("%s/raw", rd),
		     *conf = sw_fmt("%s/run.conf", rd), *want = sw_fmt("r%ld_v", r);
		DIR *d = opendir(raw);
		struct dirent *e;

		ic_mkdir_p(rraw);
		unlink(conf);
		if (symlink("../run.conf", conf))
			sw_fail("cannot link %s", conf);
		while (d && (e = readdir(d))) {
			size_t n = strlen(e->d_name);
			char *v = strstr(e->d_name, want);

			if (n > 5 && !strcmp(e->d_name + n - 5, ".json") && v && (v == e->d_name || v[-1] == '_')) {
				char *at = sw_fmt("%s/%s", rraw, e->d_name), *to = sw_fmt("../../raw/%s", e->d_name);

				unlink(at);
				if (symlink(to, at))
					sw_fail("cannot link %s", at);
				free(at), free(to);
			}
		}
		if (d)
			closedir(d);
		argv[r + 2] = rd;
		free(rraw), free(conf), free(want);
	}
	if (!mkdtemp(tmp))
		sw_fail("cannot make %s", tmp);
	out = sw_fmt("%s/out", tmp), log = sw_fmt("%s/log", tmp);
	argv[1] = "--out", argv[2] = out;
	if (sw_run(argv, log, SW_SAME, NULL)) {
		sw_tail(5, log);
		sw_run((char *[]){ "rm", "-rf", tmp, NULL }, NULL, NULL, NULL);
		sw_fail("the agreement of the repeats failed");
	}
	for (size_t i = 0; i < 4; i++) {
		char *from = sw_fmt("%s/%s", out, kept[i]), *to = sw_fmt("%s/%s", sw->dir, kept[i]);

		rename(from, to);
		free(from), free(to);
	}
	sw_run((char *[]){ "rm", "-rf", tmp, NULL }, NULL, NULL, NULL);
	md = sw_fmt("%s/repeat.md", sw->dir);
	char *text = ic_read_path(md, &(size_t){ 0 }), *last;

	if (!text || !*text)
		sw_fail("the agreement of the repeats wrote no %s", md);
	text[strcspn(text + strlen(text) - 1, "\n") + strlen(text) - 1] = 0;
	last = strrchr(text, '\n') ? strrchr(text, '\n') + 1 : text;
	sw_say("repeatability: %s (%s)", md, last);
	(void)closing;
	for (long r = 1; r <= repeat; r++)
		free(argv[r + 2]);
	free(argv[0]), free(argv), free(raw), free(tmp), free(out), free(log), free(md), free(text);
}

void sw_report(const struct sweep *sw, FILE *closing)
{
	const char *compare = *sw_get(sw, "compare") ? sw_get(sw, "compare") : "inline";
	const char *baseline = *sw_get(sw, "baseline") ? sw_get(sw, "baseline") : "extern";

	if (sw_long(sw, "calibrate")) {
		char *plant = ic_xalloc(strdup(sw_get(sw, "plant"))), *save = NULL, *md, *log, *secs, *text;

		for (long t = 1; t <= sw_long(sw, "trials"); t++) {
			char tn[32];

			snprintf(tn, sizeof(tn), "%ld", t);
			for (char *f = strtok_r(strcpy(plant, sw_get(sw, "plant")), ",", &save); f;
			     f = strtok_r(NULL, ",", &save)) {
				char *d = sw_fmt("%s/trial%ld/plant%g", sw->dir, t, strtod(f, NULL) * 100),
				     *cmp = sw_fmt("extern_plant%g", strtod(f, NULL) * 100);

				summarise_into(sw, d, cmp, "extern", f, "--trial", tn, 0);
				free(d), free(cmp);
			}
		}
		log = sw_fmt("%s/log/calibration.txt", sw->dir);
		secs = sw_fmt("%ld", (long)(sw_now() - sw_started));
		char *prog = sw_fmt("%s/cmd/calibration", sw->tree[0].dir);

		if (sw_run((char *[]){ prog, "--run", sw->dir, "--seconds", secs, NULL }, log, SW_SAME, NULL)) {
			sw_tail(20, log);
			sw_fail("the calibration report failed (log: %s)", log);
		}
		md = sw_fmt("%s/calibration.md", sw->dir);
		text = ic_read_path(md, &(size_t){ 0 });
		for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : "") {
			if ((nl = strchr(l, '\n')))
				*nl = 0;
			plain_line(closing, l);
		}
		free(plant), free(md), free(log), free(secs), free(text), free(prog);
	} else {
		sw_phase("report: summary and charts");
		summarise_into(sw, sw->dir, compare, baseline, NULL, NULL, NULL, 1);
		if (sw_long(sw, "repeat") > 1) {
			for (long r = 1; r <= sw_long(sw, "repeat"); r++) {
				char *d = sw_fmt("%s/repeat%ld", sw->dir, r), rn[32];

				snprintf(rn, sizeof(rn), "%ld", r);
				summarise_into(sw, d, compare, baseline, NULL, "--repeat", rn, 1);
				free(d);
			}
			repeatability(sw, closing);
		}
		closing_lines(sw->dir, closing);
	}
	if (fflush(closing))
		sw_fail("cannot write the closing lines");
}

/* The verdict so far, from the processes on disk, while the rest run:
 * summarize into a scratch directory (nothing of the run's is written). */
void sw_report_so_far(const struct sweep *sw, size_t total)
{
	char tmp[] = "/tmp/inlinecost-so-far.XXXXXX", *prog = sw_fmt("%s/cmd/summarize", sw->tree[0].dir), *verdict,
	     *text;
	size_t files = 0;
	DIR *d;
	struct dirent *e;
	char *raw = sw_fmt("%s/raw", sw->dir);

	if ((d = opendir(raw))) {
		while ((e = readdir(d)))
			files += strlen(e->d_name) > 5 && !strcmp(e->d_name + strlen(e->d_name) - 5, ".json");
		closedir(d);
	}
	free(raw);
	if (files < 4 || !mkdtemp(tmp))
		return free(prog);
	verdict = sw_fmt("%s/verdict.txt", tmp);
	if (!sw_run((char *[]){ prog, "--compare", (char *)sw_get(sw, "compare"), "--baseline",
				(char *)sw_get(sw, "baseline"), "--out", tmp, "--run", sw->dir, NULL },
		    "/dev/null", "/dev/null", NULL) &&
	    (text = ic_read_path(verdict, &(size_t){ 0 })) && *text) {
		if (!strncmp(text, "smoke test: ", 12) || strstr(text, "\nsmoke test: ")) {
			sw_say("so far, from %zu of %zu processes: too few for a verdict yet", files, total);
		} else {
			sw_say("so far, from %zu of %zu processes (provisional; the answer comes at the end):", files,
			       total);
			for (char *l = text, *nl; *l; l = nl ? nl + 1 : "") {
				if ((nl = strchr(l, '\n')))
					*nl = 0;
				if (!strncmp(l, "- ", 2))
					plain_line(stdout, l);
			}
			fflush(stdout);
		}
		free(text);
	}
	sw_run((char *[]){ "rm", "-rf", tmp, NULL }, NULL, NULL, NULL);
	free(verdict), free(prog);
}
