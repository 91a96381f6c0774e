/* Time in the data (engine/load.c, engine/analysis.c): a process's start
 * and end and each repetition's start and index are read from the JSON
 * (the file's mtime stands in for the end in older runs, a bad time is
 * refused), the sweep's repeat from the file's key; and on synthetic runs
 * the processes that switch state inside themselves are found, and none
 * where the state is drawn at process start or there is one level. The
 * repeats (engine/analysis.c): the run is the top level of the interval,
 * each repeat's verdict is its own, and the spread per level is measured.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "gbench_doc.h"
#include "load.h"

#define T0 1764720000.0   /* 2025-12-03T00:00:00Z */

/* One process: inline and extern at N = 1..64, reps repetitions each;
 * inline is slow (x slow) from repetition slow_from on (reps: never). */
static json_t *fake_process(unsigned p, unsigned reps, double slow, unsigned slow_from, int timed,
			   unsigned long long *rng)
{
	json_t *doc = json_object(), *ctx = json_object(), *bench = json_array();
	static const char *const forms[] = { "inline", "extern" };
	char buf[256];

	snprintf(buf, sizeof(buf), "%u", p);
	json_object_set_new(ctx, "process", json_string(buf));
	json_object_set_new(ctx, "layout_variant", json_string("0"));
	if (timed) {
		/* p minutes after T0, for 10 s. */
		snprintf(buf, sizeof(buf), "2025-12-03T00:%02u:00.250Z", p);
		json_object_set_new(ctx, "process_start", json_string(buf));
		snprintf(buf, sizeof(buf), "2025-12-03T00:%02u:10.500Z", p);
		json_object_set_new(ctx, "process_end", json_string(buf));
	}
	for (unsigned r = 0; r < reps; r++)
		for (unsigned n = 1; n <= 64; n *= 2)
			for (int f = 0; f < 2; f++) {
				double u = (double)(ic_test_rand(rng) >> 11) / 9007199254740992.0 - 0.5;
				double t = 10.0 * (1.0 + 0.01 * u) * (!f && r >= slow_from ? slow : 1.0);
				json_t *e;

				snprintf(buf, sizeof(buf), "sites/%s/tail_dequeue/chain/seq/%u/private/threads:1",
					 forms[f], n);
				e = json_pack("{s:s, s:s, s:i, s:f, s:s}", "name", buf, "run_type", "iteration",
					      "repetition_index", (int)r, "real_time", t, "time_unit", "ns");
				if (timed)
					json_object_set_new(e, "rep_start_s",
							    json_real(T0 + 60.0 * p + 0.25 + 2.0 * r + 0.01 * n));
				json_array_append_new(bench, e);
			}
	json_object_set_new(doc, "context", ctx);
	json_object_set_new(doc, "benchmarks", bench);
	return doc;
}

/* A run of np processes, state[p] as in fake_process's slow_from (0: slow
 * throughout, reps: never slow), loaded and analysed. */
static void fake_run(struct ic_results *res, struct ic_analysis *an, size_t np, const unsigned *from,
		     unsigned reps)
{
	unsigned long long rng = 42;
	char err[256], name[64];

	ic_results_init(res);
	for (size_t p = 0; p < np; p++) {
		snprintf(name, sizeof(name), "raw/r1_v0_p%zu.json", p);
		gbench_doc_load(res, name, fake_process((unsigned)p, reps, 1.6, from[p], 1, &rng), NAN);
	}
	CHECK(!ic_analyse(an, res, &ic_analysis_defaults, err, sizeof(err)), "%s", err);
	CHECK(an->nseries == 1, "one series, got %zu", an->nseries);
	CHECK(an->series[0].timeline, "no timeline");
}

static void test_load_times(void)
{
	unsigned long long rng = 1;
	struct ic_results res;
	const struct ic_file *f;
	const struct ic_point *p;

	ic_results_init(&res);
	gbench_doc_load(&res, "raw/x1_b2_r3_v0_p1.json", fake_process(3, 3, 1.0, 3, 1, &rng), 5.0);
	f = res.files[0];
	CHECK(fabs(f->start - (T0 + 180.25)) < 1e-6, "start %.3f", f->start - T0);
	CHECK(fabs(f->end - (T0 + 190.5)) < 1e-6, "end %.3f (not the mtime)", f->end - T0);
	CHECK(f->repeat == 3 && res.nrepeats == 3, "repeat %d from the key, want 3", f->repeat);
	CHECK(ic_file_time(f) == f->start, "a process's time is its start");
	p = res.points[0];
	CHECK(p->nreps == 3, "3 repetitions, got %zu", p->nreps);
	for (size_t i = 0; i < p->nreps; i++) {
		CHECK(p->reps[i].index == (int)i, "repetition_index %d at %zu", p->reps[i].index, i);
		CHECK(fabs(p->reps[i].start - (T0 + 180.25 + 2.0 * (double)i + 0.01 * (double)p->sites)) < 1e-6,
		      "rep_start_s of repetition %zu", i);
	}
	ic_results_free(&res);

	/* An older run: no times; the mtime is the end, repetitions untimed. */
	ic_results_init(&res);
	gbench_doc_load(&res, "old.json", fake_process(0, 3, 1.0, 3, 0, &rng), 1234.5);
	f = res.files[0];
	CHECK(isnan(f->start) && f->end == 1234.5, "old run: start %g end %g, want NaN and the mtime",
	      f->start, f->end);
	CHECK(f->repeat == 1, "a name without a key is repeat 1, got %d", f->repeat);
	CHECK(isnan(res.points[0]->reps[0].start), "old run: a repetition has no start");
	ic_results_free(&res);

	/* A process_start that is not a time: refused, naming the key. */
	{
		static const char bad[] = "{\"context\": {\"process_start\": \"yesterday\"}, \"benchmarks\": "
			"[{\"name\": \"sites/inline/op/chain/seq/1/private/threads:1\", \"real_time\": 1}]}";
		char err[256];

		ic_results_init(&res);
		CHECK(ic_results_load_text(&res, "bad.json", bad, strlen(bad), NAN, err, sizeof(err)) == -1,
		      "a bad process_start was accepted");
		CHECK(strstr(err, "process_start") && !strchr(err, '\n'), "message: %s", err);
		ic_results_free(&res);
	}
}

/* What the timeline of 10 processes of 5 repetitions says, from[p] as in
 * fake_run's; the run is freed. */
struct timeline_seen {
	size_t nlevels, nswitching;
	char line[256];
};

static struct timeline_seen timeline_of(const unsigned *from)
{
	struct timeline_seen seen;
	struct ic_results res;
	struct ic_analysis an;
	const struct ic_timeline *tl;

	fake_run(&res, &an, 10, from, 5);
	tl = an.series[0].timeline;
	seen.nlevels = tl->nlevels;
	seen.nswitching = tl->nswitching;
	ic_timeline_line(seen.line, sizeof(seen.line), tl);
	ic_analysis_free(&an);
	ic_results_free(&res);
	return seen;
}

static void test_switching(void)
{
	/* 10 processes of 5 repetitions: 1 and 4 slow from their third, 2 and
	 * 7 slow throughout, the rest never. */
	unsigned from[10] = { 5, 2, 0, 5, 2, 5, 5, 0, 5, 5 };
	struct ic_results res;
	struct ic_analysis an;
	const struct ic_timeline *tl;
	struct timeline_seen seen;
	char line[256];

	fake_run(&res, &an, 10, from, 5);
	tl = an.series[0].timeline;
	CHECK(tl->timed && tl->nreps == 50, "timed %d, %zu repetitions, want 50", tl->timed, tl->nreps);
	CHECK(tl->nlevels == 2, "two levels, got %zu", tl->nlevels);
	CHECK(fabs(tl->level[1] / tl->level[0] - 1.6) < 0.05, "levels %.3f and %.3f, want 1.6 apart",
	      tl->level[0], tl->level[1]);
	CHECK(tl->nswitching == 2, "2 switching processes, got %zu", tl->nswitching);
	for (size_t p = 0; p < tl->nproc; p++)
		CHECK(tl->proc[p].switches == (tl->proc[p].unit == 1 || tl->proc[p].unit == 4),
		      "process %u: switches %d", tl->proc[p].unit, tl->proc[p].switches);
	/* Minutes from the first process's start (0.25 s past T0). */
	CHECK(fabs(tl->t0 - (T0 + 0.25)) < 1e-6, "the run's start %.3f", tl->t0 - T0);
	CHECK(fabs(tl->proc[1].start - 1.0) < 1e-9 && fabs(tl->proc[1].end - 1.0 - 10.25 / 60.0) < 1e-9,
	      "process 1 ran %.4f..%.4f min, want 1..1.1708", tl->proc[1].start, tl->proc[1].end);
	ic_timeline_line(line, sizeof(line), tl);
	CHECK(!strncmp(line, "In time: 2 of 10 processes switch state inside the process", 58),
	      "line: %s", line);
	ic_analysis_free(&an);
	ic_results_free(&res);

	/* The states drawn at process start: two levels, no switch. */
	for (size_t p = 0; p < 10; p++)
		from[p] = p % 3 ? 5 : 0;
	seen = timeline_of(from);
	CHECK(seen.nlevels == 2 && seen.nswitching == 0,
	      "drawn at start: %zu levels, %zu switching", seen.nlevels, seen.nswitching);
	CHECK(!strcmp(seen.line, "In time: no process switches inside; each ran in one state"),
	      "line: %s", seen.line);

	/* One state: one level, nothing switches. */
	for (size_t p = 0; p < 10; p++)
		from[p] = 5;
	seen = timeline_of(from);
	CHECK(seen.nlevels == 1 && seen.nswitching == 0, "one state: %zu levels, %zu switching",
	      seen.nlevels, seen.nswitching);
	CHECK(!strcmp(seen.line, "In time: one state throughout"), "line: %s", seen.line);

	/* Every process switches: the repetitions in time find them. */
	for (size_t p = 0; p < 10; p++)
		from[p] = p % 2 ? 3 : 2;
	seen = timeline_of(from);
	CHECK(seen.nswitching == 10, "all switch: found %zu of 10", seen.nswitching);
}

/* Two repeats of 6 processes, inline x slow1 in the first and x slow2 in
 * the second (both against extern). */
static void repeats_run(struct ic_results *res, struct ic_analysis *an, double slow1, double slow2)
{
	unsigned long long rng = 7;
	char err[256], name[64];

	ic_results_init(res);
	for (int r = 1; r <= 2; r++)
		for (unsigned p = 0; p < 6; p++) {
			snprintf(name, sizeof(name), "raw/r%d_v0_p%u.json", r, p);
			gbench_doc_load(res, name, fake_process(p, 5, r == 1 ? slow1 : slow2, 0, 1, &rng), NAN);
		}
	CHECK(!ic_analyse(an, res, &ic_analysis_defaults, err, sizeof(err)), "%s", err);
	CHECK(an->nseries == 1 && an->series[0].repeats, "one series with its repeats");
}

static void test_repeats(void)
{
	struct ic_results res;
	struct ic_analysis an;
	const struct ic_repeats *rp;
	const struct ic_group *g;

	/* Extern faster in both: they agree; the interval is over the 2 runs. */
	repeats_run(&res, &an, 1.6, 1.5);
	rp = an.series[0].repeats;
	g = &an.series[0].group;
	CHECK(rp->nrepeats == 2 && rp->agree, "2 repeats that agree: %zu, agree %d", rp->nrepeats,
	      rp->agree);
	CHECK(rp->xo[0].verdict == IC_VERDICT_BASELINE_WINS && rp->xo[1].verdict == IC_VERDICT_BASELINE_WINS,
	      "each repeat's verdict: %d %d", rp->xo[0].verdict, rp->xo[1].verdict);
	/* Two repeats are not the top level: one degree of freedom would
	 * resolve nothing. One layout, so the 12 processes are the draws. */
	CHECK(g->nratios == 7 && g->ratios[0].df == 11.0 && g->ratios[0].nunits == 12,
	      "the pooled ratio's interval has %g df over %zu processes, want 11 (12 processes)",
	      g->ratios[0].df, g->ratios[0].nunits);
	CHECK(g->ratios[0].nvariants == 1, "one layout, %zu counted", g->ratios[0].nvariants);
	/* The runs' means are log(1.6/1.5) apart: SD |d| / sqrt 2. Times
	 * carry +-0.5% uniform noise: a repetition's log ratio about 0.41%. */
	CHECK(fabs(rp->lv.sd_run - log(1.6 / 1.5) / sqrt(2.0)) < 0.005 && rp->lv.df_run == 7,
	      "between runs: SD %.4f df %zu, want %.4f and 7", rp->lv.sd_run, rp->lv.df_run,
	      log(1.6 / 1.5) / sqrt(2.0));
	CHECK(rp->lv.sd_rep > 0.002 && rp->lv.sd_rep < 0.007 && rp->lv.df_rep == 7 * 12 * 4,
	      "between repetitions: SD %.4f df %zu", rp->lv.sd_rep, rp->lv.df_rep);
	CHECK(rp->lv.sd_proc < rp->lv.sd_rep && rp->lv.df_proc == 7 * 2 * 5,
	      "between processes: SD %.4f (a median of 5, under %.4f) df %zu", rp->lv.sd_proc,
	      rp->lv.sd_rep, rp->lv.df_proc);
	ic_analysis_free(&an);
	ic_results_free(&res);

	/* Extern faster in one, inline in the other: they disagree. */
	repeats_run(&res, &an, 1.6, 0.8);
	rp = an.series[0].repeats;
	CHECK(!rp->agree && rp->xo[0].verdict == IC_VERDICT_BASELINE_WINS &&
	      rp->xo[1].verdict == IC_VERDICT_COMPARE_WINS,
	      "disagreeing repeats: agree %d, verdicts %d %d", rp->agree, rp->xo[0].verdict,
	      rp->xo[1].verdict);
	ic_analysis_free(&an);
	ic_results_free(&res);

	/* Extern faster in one, no difference in the other: the second
	 * resolves less, it contradicts nothing, so they agree. */
	repeats_run(&res, &an, 1.6, 1.0);
	rp = an.series[0].repeats;
	CHECK(rp->agree && rp->xo[0].verdict == IC_VERDICT_BASELINE_WINS &&
	      rp->xo[1].verdict != IC_VERDICT_BASELINE_WINS,
	      "a repeat that resolves less: agree %d, verdicts %d %d", rp->agree, rp->xo[0].verdict,
	      rp->xo[1].verdict);
	ic_analysis_free(&an);
	ic_results_free(&res);
}

int main(void)
{
	test_load_times();
	test_switching();
	test_repeats();
	puts("test_engine_timeline: ok");
	return 0;
}
