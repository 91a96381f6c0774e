/* engine/watch_analysis.h on synthetic sentinel runs, written as sites_bench's JSON
 * into a scratch directory: short processes each in one state, and a long
 * process whose rounds switch state half way (the machine over time), or
 * stay in one while the short processes mix both (drawn at process start),
 * or one state everywhere. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "watch_analysis.h"

#define REPS 5
#define NSHORT 14
#define ROUNDS 60
#define ROUND_S 0.25

static const unsigned long sites[2] = { 16, 1024 };
/* Per N: the share of a level's distance from 1 it shows, and the noise's
 * spread (about 1%, uniform in log: enough for a median). */
static double gap_share[2] = { 1.0, 1.0 }, spread[2] = { 0.02, 0.02 };

static double noise(unsigned long long *rng, int j)
{
	double u = (double)(ic_test_rand(rng) >> 11) / 9007199254740992.0;

	return exp(spread[j] * (u - 0.5));
}

/* One repetition of one form at one N, starting at t. */
static json_t *entry(const char *form, int j, long rep, double ratio, double t,
		     unsigned long long *rng)
{
	char name[160];
	double ns = 13.0 * (strcmp(form, "inline") ? 1.0 : 1.0 + (ratio - 1.0) * gap_share[j]) * noise(rng, j);

	snprintf(name, sizeof(name), "sites/%s/tail_dequeue/chain/seq/%lu/private/real_time/threads:1",
		 form, sites[j]);
	return json_pack("{s:s,s:s,s:s,s:I,s:i,s:I,s:f,s:s,s:f}", "name", name, "run_name", name,
			 "run_type", "iteration", "repetition_index", (json_int_t)rep, "threads", 1,
			 "iterations", (json_int_t)1000, "real_time", ns, "time_unit", "ns",
			 "rep_start_s", t);
}

/* A process of `rounds` rounds from t0, round r at ratio level[r]. */
static void write_process(const char *path, const double *level, size_t rounds, double t0,
			  int proc, unsigned long long *rng)
{
	json_t *bench = json_array(), *doc;
	char p[16];

	for (size_t r = 0; r < rounds; r++)
		for (int f = 0; f < 2; f++)
			for (int j = 0; j < 2; j++)
				json_array_append_new(bench, entry(f ? "extern" : "inline", j,
								   (long)r, level[r], t0 + ROUND_S * (double)r +
								   0.05 * (2 * f + j), rng));
	snprintf(p, sizeof(p), "%d", proc);
	doc = json_pack("{s:{s:s,s:s,s:s},s:o}", "context", "layout_variant", "0", "process", p,
			"cpu_model", "test CPU", "benchmarks", bench);
	CHECK(json_dump_file(doc, path, 0) == 0, "cannot write %s", path);
	json_decref(doc);
}

/* Short processes in the states of shorts[], then the long process in
 * states long_hi(r); returns the analysis. */
static void run_case(struct ic_watch *w, const char *dir, const int *shorts, int long_switches,
		     unsigned long long seed)
{
	unsigned long long rng = seed;
	double level[ROUNDS], t = 1.8e9;
	char path[512], err[512];

	ic_watch_init(w);
	for (int i = 0; i < NSHORT; i++) {
		for (int r = 0; r < REPS; r++)
			level[r] = shorts[i] ? 1.65 : 1.0;
		snprintf(path, sizeof(path), "%s/s%d.json", dir, i);
		write_process(path, level, REPS, t, i, &rng);
		CHECK(ic_watch_add_short(w, path, err, sizeof(err)) == 0, "%s", err);
		t += 3.0;
	}
	for (int r = 0; r < ROUNDS; r++)
		level[r] = long_switches && r >= ROUNDS / 2 ? 1.65 : 1.0;
	snprintf(path, sizeof(path), "%s/long.json", dir);
	write_process(path, level, ROUNDS, t, NSHORT, &rng);
	CHECK(ic_watch_add_long(w, path, 1.5, err, sizeof(err)) == 0, "%s", err);
	CHECK(ic_watch_analyse(w, err, sizeof(err)) == 0, "%s", err);
}

int main(void)
{
	char tmpl[] = "/tmp/test_watch_states.XXXXXX", *dir = mkdtemp(tmpl), cmd[600];
	static const int mixed[NSHORT] = { 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const int none[NSHORT] = { 0 };
	struct ic_watch w;

	CHECK(dir != NULL, "mkdtemp");

	/* The machine over time: the long process switches half way. */
	run_case(&w, dir, mixed, 1, 1);
	CHECK(w.nshort == NSHORT, "%zu short", w.nshort);
	CHECK(w.nwindows >= 8, "%zu windows of a 15 s process", w.nwindows);
	CHECK(w.nstates == 2, "%zu states", w.nstates);
	CHECK(w.where == IC_WATCH_INSIDE, "where: %s", ic_watch_where_name(w.where));
	CHECK(w.long_switches == 1 && w.switching == 1, "long switches %d, %zu switching",
	      w.long_switches, w.switching);
	for (int j = 0; j < 2; j++)
		CHECK(fabs(w.st[1].ratio[j] / w.st[0].ratio[j] - 1.65) < 0.03 && w.st[1].lo[j] < 1.65 &&
		      w.st[1].hi[j] > 1.65, "levels at N %d: %g %g [%g-%g]", j, w.st[0].ratio[j],
		      w.st[1].ratio[j], w.st[1].lo[j], w.st[1].hi[j]);
	CHECK(w.st[1].procs == 6, "high: %zu short processes", w.st[1].procs);
	CHECK(w.st[1].of->share_lo < w.st[1].of->share && w.st[1].of->share < w.st[1].of->share_hi,
	      "time share %g [%g-%g]", w.st[1].of->share, w.st[1].of->share_lo, w.st[1].of->share_hi);
	CHECK(isfinite(w.st[0].of->spell_s) && w.st[0].of->spell_s > 0 && w.st[0].of->spell_lo < w.st[0].of->spell_s,
	      "spell %g [%g-%g]", w.st[0].of->spell_s, w.st[0].of->spell_lo, w.st[0].of->spell_hi);
	ic_watch_free(&w);

	/* Drawn at process start: the long process stays in one state. */
	run_case(&w, dir, mixed, 0, 2);
	CHECK(w.nstates == 2, "%zu states", w.nstates);
	CHECK(w.where == IC_WATCH_BETWEEN, "where: %s", ic_watch_where_name(w.where));
	CHECK(w.long_switches == 0 && w.switching == 0, "%zu switching", w.switching);
	CHECK(w.st[1].procs == 6 && w.st[0].procs == NSHORT - 6, "short processes %zu %zu",
	      w.st[0].procs, w.st[1].procs);
	ic_watch_free(&w);

	/* One state. */
	run_case(&w, dir, none, 0, 3);
	CHECK(w.nstates == 1 && w.where == IC_WATCH_ONE_STATE, "%zu states, %s", w.nstates,
	      ic_watch_where_name(w.where));
	CHECK(w.st[0].procs == NSHORT, "all in state 1");
	ic_watch_free(&w);

	/* The N the report reads the states at is where their ratios part
	 * most (1.65 against 1.30), not where the gap is most in noise units
	 * (N = 1024, whose noise is a twentieth of N = 16's). */
	gap_share[1] = 0.46, spread[0] = 0.2, spread[1] = 0.01;
	run_case(&w, dir, mixed, 1, 4);
	CHECK(w.nstates == 2, "%zu states", w.nstates);
	CHECK(w.st[1].ratio[0] / w.st[0].ratio[0] > w.st[1].ratio[1] / w.st[0].ratio[1] + 0.2,
	      "gaps %g %g", w.st[1].ratio[0] / w.st[0].ratio[0], w.st[1].ratio[1] / w.st[0].ratio[1]);
	CHECK(w.part == 0, "the states are read at N = %lu", w.sites[w.part]);
	ic_watch_free(&w);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "cleanup");
	return 0;
}
