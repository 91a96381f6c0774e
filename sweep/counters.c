/* The sweep's counter source (driver.h): the bench decides it
 * (sites_bench --sim-only: its first line the source, its second where the
 * columns come from in words, its third, with sim, the file the counts
 * are in). Simulated counts are a property of the ordinary link's code:
 * each build simulates them once into its cache in the build tree
 * (BUILD/sim, kept across runs) and hands this run's points to the run in
 * sim.csv (sim-b<k>.csv for build k > 0), the first column "*" so that
 * variant 0 of every repeat reports them although its binary differs. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"
#include "driver.h"

static void sim_copy(const char *cache, const char *to, const char *dir, const char *log)
{
	FILE *in = fopen(cache, "r"), *out;
	char *line = NULL, *tmp = sw_fmt("%s.tmp", to);
	size_t cap = 0;

	if (!in || fgetc(in) == EOF)
		sw_fail("the simulation wrote no cache in %s/sim; log: %s", dir, log);
	rewind(in);
	if (!(out = fopen(tmp, "w")))
		sw_fail("cannot write %s", tmp);
	for (int k = 0; getline(&line, &cap, in) > 0; k++)
		if (k)
			fprintf(out, "*%s", strchr(line, ',') ? strchr(line, ',') : "\n");
		else
			fputs(line, out);
	free(line);
	fclose(in);
	if (fclose(out) || rename(tmp, to))
		sw_fail("cannot write %s", to);
	free(tmp);
}

void sw_counters(struct sweep *sw)
{
	const char *counters = sw_get(sw, "counters");
	char *sentence = NULL;

	sw_phase("counters: deciding the source%s",
		 strcmp(counters, "none") ? "; a simulation, when it comes to that, is cached in BUILD/sim" : "");
	sw_measure_begin("the counter source (a simulation, when it comes to that)", sw->cmdline, sw->top);
	for (size_t b = 0; b < sw->n_tree; b++) {
		const char *d = sw->tree[b].dir;
		char *log = sw_file(sw, "log/counters", b, ".txt"), *runs = sw_file(sw, "log/counters", b, ".runs"),
		     *said = sw_file(sw, "log/counters", b, ".said"), *text, *line[3];
		char *argv[] = { sw_fmt("%s/bench/sites_bench", d), sw_fmt("--counters=%s", counters),
				 sw_fmt("--threads=%s", sw_get(sw, "threads")), sw_fmt("--modes=%s", sw_get(sw, "modes")),
				 sw_fmt("--sim-cache-dir=%s/sim", d), sw_fmt("--run-list=%s", runs), "--sim-only",
				 *sw_get(sw, "plant") ? sw_fmt("--plant=%s", sw_get(sw, "plant")) : NULL, NULL };
		size_t n = 0;

		sw_write_runs(sw, b, NULL, runs);
		if (sw_run(argv, said, log, NULL) || !(text = ic_read_path(said, &(size_t){ 0 }))) {
			sw_tail(5, log);
			sw_fail("deciding the counter source failed; log: %s", log);
		}
		for (char *p = text; p && *p && n < 3;)   /* its first three lines, split in place */
			line[n++] = strsep(&p, "\n");
		if (n < 2)
			sw_fail("%s --sim-only said no source; log: %s", argv[0], log);
		if (!strcmp(line[0], "sim")) {
			char *sim = sw_file(sw, "sim", b, ".csv");

			sim_copy(n > 2 ? line[2] : "", sim, d, log);
			free(sim);
		}
		if (b == 0) {
			free(sw->counter_source);   /* a crossover step's call again */
			sw->counter_source = ic_xalloc(strdup(line[0]));
			sentence = ic_xalloc(strdup(line[1]));
		}
		free(text);
		free(log);
		free(runs);
		free(said);
		for (int i = 0; i < 6; i++)
			free(argv[i]);
		free(argv[7]);
	}
	/* One source per run: a resume on a machine that now counts otherwise
	 * (--counters auto) would mix counted and simulated figures. */
	if (!*sw_get(sw, "counter_source_of_run")) {
		sw_set(sw, "counter_source_of_run", sw->counter_source);
		sw_conf_save(sw);
	} else if (strcmp(sw->counter_source, sw_get(sw, "counter_source_of_run"))) {
		sw_fail("the run's counters came from %s, this machine now gives %s: a resumed run must not mix "
			"them; start a new run", sw_get(sw, "counter_source_of_run"), sw->counter_source);
	}
	sw_measure_end();
	sw_say("counters: %s", sentence);
	free(sentence);
}
