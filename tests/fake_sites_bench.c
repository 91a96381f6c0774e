/* Writes JSON shaped like sites_bench's Google Benchmark output, with a
 * known answer, for the plots tests (the real binary is not needed).
 *
 * The baseline form takes BASE_NS per call site; the compare form takes
 * BASE_NS * r(N) with r depending on --shape:
 *   crossover   r = 1 + SLOPE * (log2 N - log2 X): crosses 1 at N = X
 *   inline_wins r = 0.9    extern_wins r = 1.1    same r = 1
 * and a form extern_plant (with --planted F) takes BASE_NS * (1 + F), a
 * form extern_plant<P> (given with --forms, as --calibrate names them)
 * BASE_NS * (1 + P / 100).
 * --shape attrib instead gives every form its own time (--t-FORM, ns at
 * N = 1; defaults below), clone * (1 + --copies-step) and inline *
 * (1 + --cap-step) from N = --cap-n on, with the control forms: inline,
 * extern, clone everywhere, inline_nolock, extern_nolock and mark at 1
 * thread, private only (--forms overrides the list). --filler F adds a
 * series at 1 thread, private, named .../filler:F/real_time/threads:1, in
 * which every form (mark too) takes --filler-ns more; --filler-only 1 keeps
 * only that series; --no-mark 1 leaves mark out of this process.
 * --counters papi counts cycles, instructions, L1i, branch and iTLB misses;
 * --papi-absent LIST leaves those named out (null), --counter-note the why.
 * Each repetition is multiplied by 1 + noise * u, u uniform in [-1, 1).
 * A build: --compiler, --cflags, --lto, --body put those keys
 * into the context (absent unless given, as in older runs); --lock sets
 * the lock ("tas"; "" leaves it out); --scale X multiplies every time, so
 * that two builds of the same names have different numbers; --state X
 * multiplies inline's time at every N (this process's speed state).
 * One output is one process: --variant V and --process P go into the
 * context (layout_variant, process), and --layout-noise X multiplies the
 * compare form's time by 1 + X * u_V with u_V uniform in [-1, 1) drawn from
 * V and N alone, so every process of a variant shares its layout's effect.
 * --start S (s since the epoch) puts time in: the context's process_start
 * and process_end, each repetition's rep_start_s (repetition r at S + 2r,
 * a few ms apart per point); --state-from K applies --state only from
 * repetition K on (a process that switches state inside itself).
 *
 * usage: fake_sites_bench [--shape S] [--crossover X] [--reps R]
 *        [--sites-min N] [--sites-max N] [--threads 1,2] [--modes private,shared]
 *        [--counters papi|sim|none] [--sim-threads-only 1] [--noise X]
 *        [--seed S] [--hint 1] [--planted F] [--time-unit ns|us]
 *        [--error-at N] [--variant V] [--process P] [--layout-noise X]
 *        [--compiler C] [--cflags F] [--lto on|off] [--body B] [--lock L]
 *        [--scale X] [--state X] [--start S] [--state-from K] > out.json
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

#define BASE_NS 10.0
#define SLOPE 0.02          /* ratio change per doubling of N */

struct fake_opts {
	const char *shape, *threads, *modes, *counters, *time_unit, *forms, *papi_absent, *note;
	const char *compiler, *cflags, *lto, *body, *lock;
	double crossover, noise, planted, layout_noise, scale, state, start;
	unsigned state_from;
	unsigned reps, sites_min, sites_max, error_at, sim_threads, variant, process;
	int hint, filler_only, no_mark;
	unsigned long long seed;
	/* --shape attrib */
	double t_mark, t_inline, t_extern, t_clone, t_inline_nolock, t_extern_nolock;
	double copies_step, cap_step, filler_ns;
	unsigned cap_n, filler;
};

static double fake_attrib_ns(const struct fake_opts *o, const char *form, unsigned n)
{
	double t = !strcmp(form, "mark") ? o->t_mark : !strcmp(form, "inline") ? o->t_inline
		 : !strcmp(form, "clone") ? o->t_clone : !strcmp(form, "inline_nolock") ? o->t_inline_nolock
		 : !strcmp(form, "extern_nolock") ? o->t_extern_nolock : o->t_extern;

	if (n >= o->cap_n && !strcmp(form, "clone"))
		t *= 1.0 + o->copies_step;
	if (n >= o->cap_n && !strcmp(form, "inline"))
		t *= 1.0 + o->cap_step;
	return t;
}

static int fake_in_words(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == n && !strncmp(p, w, n))
			return 1;
		p = c ? c + 1 : NULL;
	}
	return 0;
}

static double fake_ratio(const struct fake_opts *o, unsigned n)
{
	if (!strcmp(o->shape, "crossover"))
		return 1.0 + SLOPE * (log2((double)n) - log2(o->crossover));
	if (!strcmp(o->shape, "inline_wins"))
		return 0.9;
	if (!strcmp(o->shape, "extern_wins"))
		return 1.1;
	return 1.0;
}

static double fake_code_bytes(const char *form)
{
	if (!strcmp(form, "inline"))
		return 165.0;
	if (!strcmp(form, "hint"))
		return 120.0;
	if (!strcmp(form, "clone"))
		return 170.0;
	if (!strcmp(form, "inline_nolock"))
		return 140.0;
	if (!strcmp(form, "mark"))
		return 7.0;
	return 24.0;
}

/* As sites_bench writes its times: UTC, milliseconds, "Z". */
static void fake_iso(char *buf, size_t cap, double t)
{
	time_t s = (time_t)floor(t);
	struct tm tm;
	size_t n;

	gmtime_r(&s, &tm);
	n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03dZ", (int)((t - floor(t)) * 1000.0));
}

static json_t *fake_context(const struct fake_opts *o)
{
	json_t *ctx = json_pack("{s:s, s:s, s:s, s:i, s:i, s:b, s:s}", "date", "2025-12-03T00:27:00+00:00",
				"host_name", "fakehost", "executable", "./sites_bench", "num_cpus", 2,
				"mhz_per_cpu", 3000, "cpu_scaling_enabled", 0, "library_build_type",
				"release");
	const char *note = !strcmp(o->counters, "sim") ? "valgrind callgrind --cache-sim=yes, I1 32768/8/64"
			   : !strcmp(o->counters, "papi") ? "PAPI 7.0 perf_event" : "no counters on this machine";

	if (o->note)
		note = o->note;
	json_object_set_new(ctx, "counter_source", json_string(o->counters));
	json_object_set_new(ctx, "counter_note", json_string(note));
	json_object_set_new(ctx, "cpu_model", json_string("Fake CPU 9000 @ 3.0GHz"));
	json_object_set_new(ctx, "cores", json_string("2"));
	json_object_set_new(ctx, "smt", json_string("no"));
	json_object_set_new(ctx, "l1i_size", json_string("32768"));
	json_object_set_new(ctx, "l1i_assoc", json_string("8"));
	json_object_set_new(ctx, "l1i_line", json_string("64"));
	json_object_set_new(ctx, "l2_size", json_string("1048576"));
	json_object_set_new(ctx, "l3_size", json_string("33554432"));
	json_object_set_new(ctx, "pinned", json_string("true"));
	if (*o->lock)
		json_object_set_new(ctx, "lock", json_string(o->lock));
	if (o->compiler)
		json_object_set_new(ctx, "compiler", json_string(o->compiler));
	if (o->cflags)
		json_object_set_new(ctx, "cflags", json_string(o->cflags));
	if (o->lto)
		json_object_set_new(ctx, "lto", json_string(o->lto));
	if (o->body)
		json_object_set_new(ctx, "body", json_string(o->body));
	{
		char buf[32];

		snprintf(buf, sizeof(buf), "%u", o->variant);
		json_object_set_new(ctx, "layout_variant", json_string(buf));
		snprintf(buf, sizeof(buf), "%u", o->process);
		json_object_set_new(ctx, "process", json_string(buf));
	}
	if (isfinite(o->start)) {
		char buf[40];

		fake_iso(buf, sizeof(buf), o->start);
		json_object_set_new(ctx, "process_start", json_string(buf));
		fake_iso(buf, sizeof(buf), o->start + 2.0 * o->reps + 0.5);
		json_object_set_new(ctx, "process_end", json_string(buf));
	}
	return ctx;
}

static void fake_papi(json_t *e, const struct fake_opts *o, const char *key, double v)
{
	if (!fake_in_words(o->papi_absent, key))
		json_object_set_new(e, key, json_real(v));
}

static void fake_counters(json_t *e, const struct fake_opts *o, const char *form, unsigned n,
			  unsigned threads, unsigned filler)
{
	double code = fake_code_bytes(form) + filler, foot = code * n;
	/* The loop's own misses, 0.2 per pass as valgrind simulates them, plus
	 * a miss per line once the footprint outgrows a 32 KiB L1i. */
	double miss = 0.2 / n + (foot > 32768.0 ? (foot - 32768.0) / 64.0 / n : 0.0);

	json_object_set_new(e, "code_bytes_per_site", json_real(code));
	json_object_set_new(e, "footprint_bytes", json_real(foot));
	if (!strcmp(o->counters, "none"))
		return;
	if (!strcmp(o->counters, "sim") && o->sim_threads && threads != o->sim_threads)
		return;   /* the simulation ran at one thread count only */
	if (strcmp(o->counters, "papi")) {
		json_object_set_new(e, "l1i_miss_per_op", json_real(miss));
		return;
	}
	fake_papi(e, o, "l1i_miss_per_op", miss);
	fake_papi(e, o, "cycles_per_op", 30.0 + n * 0.001);
	fake_papi(e, o, "instr_per_op", 12.0 + code / 8.0);
	fake_papi(e, o, "branch_miss_per_op", 0.002);
	fake_papi(e, o, "itlb_miss_per_op", foot > 1048576.0 ? 0.01 : 0.0001);
}

static void fake_point(json_t *out, const struct fake_opts *o, unsigned long long *rng,
		       int family, const char *form, unsigned n, unsigned threads, const char *mode,
		       unsigned filler)
{
	char name[256], agg[300];
	double scale = !strcmp(o->time_unit, "us") ? 1e-3 : 1.0;
	double base = BASE_NS * (!strcmp(mode, "shared") && threads > 1 ? 3.0 : 1.0), t;
	static const char *const aggs[] = { "mean", "median", "stddev", "cv" };

	if (!strcmp(form, "inline") || !strncmp(form, "extern_plant", 12)) {
		/* The layout's effect: the same for every process of a variant. */
		unsigned long long lr = 0x1234567ull * (o->variant + 1) + n;
		double u = (double)(ic_test_rand(&lr) >> 11) / 9007199254740992.0 * 2.0 - 1.0;

		base *= 1.0 + o->layout_noise * u;
	}
	if (!strcmp(o->shape, "attrib"))
		base *= fake_attrib_ns(o, form, n) / BASE_NS;
	else if (!strcmp(form, "inline"))
		base *= fake_ratio(o, n);
	else if (!strcmp(form, "hint"))
		base *= (1.0 + fake_ratio(o, n)) / 2.0;
	else if (!strncmp(form, "extern_plant", 12))
		base *= 1.0 + (form[12] ? atof(form + 12) / 100.0 : o->planted);
	base *= o->scale;
	if (filler) {
		base += o->filler_ns;
		snprintf(name, sizeof(name),
			 "sites/%s/tail_dequeue/chain/seq/%u/%s/filler:%u/real_time/threads:%u", form, n,
			 mode, filler, threads);
	} else {
		snprintf(name, sizeof(name), "sites/%s/tail_dequeue/chain/seq/%u/%s/threads:%u", form,
			 n, mode, threads);
	}
	for (unsigned r = 0; r < o->reps; r++) {
		double u = (double)(ic_test_rand(rng) >> 11) / 9007199254740992.0 * 2.0 - 1.0;
		json_t *e = json_pack("{s:s, s:i, s:i, s:s, s:s, s:i, s:i, s:i}", "name", name,
				      "family_index", family, "per_family_instance_index", 0, "run_name",
				      name, "run_type", "iteration", "repetitions", (int)o->reps,
				      "repetition_index", (int)r, "threads", (int)threads);

		t = base * (1.0 + o->noise * u);
		/* The process's speed state: its inline form at every N. */
		if (!strcmp(form, "inline") && r >= o->state_from)
			t *= o->state;
		if (isfinite(o->start))
			json_object_set_new(e, "rep_start_s",
					    json_real(o->start + 2.0 * r + 0.005 * family));
		if (o->error_at == n && r == 0 && !strcmp(form, "inline")) {
			json_object_set_new(e, "error_occurred", json_true());
			json_object_set_new(e, "error_message", json_string("fake skip"));
		}
		json_object_set_new(e, "iterations", json_integer(100000));
		json_object_set_new(e, "real_time", json_real(t * scale));
		json_object_set_new(e, "cpu_time", json_real(t * scale * threads));
		json_object_set_new(e, "time_unit", json_string(o->time_unit));
		json_object_set_new(e, "items_per_second", json_real(1e9 / t * threads));
		fake_counters(e, o, form, n, threads, filler);
		json_array_append_new(out, e);
	}
	/* Google Benchmark's own aggregates: summarize must ignore them. */
	for (size_t a = 0; a < sizeof(aggs) / sizeof(aggs[0]); a++) {
		snprintf(agg, sizeof(agg), "%s_%s", name, aggs[a]);
		json_array_append_new(out, json_pack("{s:s, s:i, s:s, s:s, s:s, s:f, s:f, s:s}", "name", agg,
						     "family_index", family, "run_name", name, "run_type",
						     "aggregate", "aggregate_name", aggs[a], "real_time",
						     a == 3 ? 0.01 : base * scale, "cpu_time", base * scale,
						     "time_unit", o->time_unit));
	}
}

static int fake_in_list(const char *list, unsigned long v)
{
	const char *p = list;

	while (*p) {
		char *end;

		if (strtoul(p, &end, 10) == v)
			return 1;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fake_opts o = {
		.shape = "crossover", .threads = "1,2", .modes = "private,shared", .counters = "sim",
		.time_unit = "ns", .crossover = 256.0, .noise = 0.005, .planted = NAN, .reps = 10,
		.sites_min = 1, .sites_max = 16384, .seed = 1, .lock = "tas", .scale = 1.0, .state = 1.0, .start = NAN,
		.t_mark = 2.0, .t_inline = 7.0, .t_extern = 9.0, .t_clone = 9.0, .t_inline_nolock = 5.5,
		.t_extern_nolock = 8.0, .cap_n = 256, .filler_ns = 8.0,
	};
	unsigned long long rng;
	json_t *doc, *bench;
	const char *forms[16];
	size_t nforms = 0;
	int family = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (!strcmp(k, "--shape"))
			o.shape = v;
		else if (!strcmp(k, "--crossover"))
			o.crossover = atof(v);
		else if (!strcmp(k, "--reps"))
			o.reps = (unsigned)atoi(v);
		else if (!strcmp(k, "--sites-min"))
			o.sites_min = (unsigned)atoi(v);
		else if (!strcmp(k, "--sites-max"))
			o.sites_max = (unsigned)atoi(v);
		else if (!strcmp(k, "--threads"))
			o.threads = v;
		else if (!strcmp(k, "--modes"))
			o.modes = v;
		else if (!strcmp(k, "--counters"))
			o.counters = v;
		else if (!strcmp(k, "--sim-threads-only"))
			o.sim_threads = (unsigned)atoi(v);
		else if (!strcmp(k, "--noise"))
			o.noise = atof(v);
		else if (!strcmp(k, "--seed"))
			o.seed = strtoull(v, NULL, 10);
		else if (!strcmp(k, "--hint"))
			o.hint = atoi(v);
		else if (!strcmp(k, "--planted"))
			o.planted = atof(v);
		else if (!strcmp(k, "--time-unit"))
			o.time_unit = v;
		else if (!strcmp(k, "--error-at"))
			o.error_at = (unsigned)atoi(v);
		else if (!strcmp(k, "--variant"))
			o.variant = (unsigned)atoi(v);
		else if (!strcmp(k, "--process"))
			o.process = (unsigned)atoi(v);
		else if (!strcmp(k, "--layout-noise"))
			o.layout_noise = atof(v);
		else if (!strcmp(k, "--compiler"))
			o.compiler = v;
		else if (!strcmp(k, "--cflags"))
			o.cflags = v;
		else if (!strcmp(k, "--lto"))
			o.lto = v;
		else if (!strcmp(k, "--body"))
			o.body = v;
		else if (!strcmp(k, "--lock"))
			o.lock = v;
		else if (!strcmp(k, "--state"))
			o.state = atof(v);
		else if (!strcmp(k, "--start"))
			o.start = atof(v);
		else if (!strcmp(k, "--state-from"))
			o.state_from = (unsigned)atoi(v);
		else if (!strcmp(k, "--scale"))
			o.scale = atof(v);
		else if (!strcmp(k, "--forms"))
			o.forms = v;
		else if (!strcmp(k, "--papi-absent"))
			o.papi_absent = v;
		else if (!strcmp(k, "--counter-note"))
			o.note = v;
		else if (!strcmp(k, "--filler"))
			o.filler = (unsigned)atoi(v);
		else if (!strcmp(k, "--filler-ns"))
			o.filler_ns = atof(v);
		else if (!strcmp(k, "--filler-only"))
			o.filler_only = atoi(v);
		else if (!strcmp(k, "--no-mark"))
			o.no_mark = atoi(v);
		else if (!strcmp(k, "--t-mark"))
			o.t_mark = atof(v);
		else if (!strcmp(k, "--t-inline"))
			o.t_inline = atof(v);
		else if (!strcmp(k, "--t-extern"))
			o.t_extern = atof(v);
		else if (!strcmp(k, "--t-clone"))
			o.t_clone = atof(v);
		else if (!strcmp(k, "--t-inline-nolock"))
			o.t_inline_nolock = atof(v);
		else if (!strcmp(k, "--t-extern-nolock"))
			o.t_extern_nolock = atof(v);
		else if (!strcmp(k, "--copies-step"))
			o.copies_step = atof(v);
		else if (!strcmp(k, "--cap-step"))
			o.cap_step = atof(v);
		else if (!strcmp(k, "--cap-n"))
			o.cap_n = (unsigned)atoi(v);
		else
			CHECK(0, "unknown option %s", k);
	}
	rng = o.seed;
	if (!o.forms && !strcmp(o.shape, "attrib"))
		o.forms = "inline,extern,clone,inline_nolock,extern_nolock,mark";
	if (o.forms) {
		char *list = strdup(o.forms), *save = NULL;

		for (char *w = strtok_r(list, ",", &save); w && nforms < 16; w = strtok_r(NULL, ",", &save))
			forms[nforms++] = strdup(w);
		free(list);
	} else if (isnan(o.planted)) {
		forms[nforms++] = "inline";
		if (o.hint)
			forms[nforms++] = "hint";
	} else {
		forms[nforms++] = "extern_plant";
	}
	if (!o.forms)
		forms[nforms++] = "extern";
	bench = json_array();
	for (unsigned threads = 1; threads <= 64; threads++) {
		if (!fake_in_list(o.threads, threads))
			continue;
		for (int m = 0; m < 2; m++) {
			const char *mode = m ? "shared" : "private";

			if (!strstr(o.modes, mode))
				continue;
			if (o.filler_only)
				continue;
			for (size_t f = 0; f < nforms; f++) {
				/* The controls and the baseline run at 1 thread, private. */
				int one = !strcmp(forms[f], "inline_nolock") || !strcmp(forms[f], "extern_nolock") ||
					  !strcmp(forms[f], "mark");

				if ((one && (threads != 1 || m)) || (o.no_mark && !strcmp(forms[f], "mark")))
					continue;
				for (unsigned n = o.sites_min; n <= o.sites_max; n *= 2)
					fake_point(bench, &o, &rng, family++, forms[f], n, threads, mode, 0);
			}
		}
	}
	for (size_t f = 0; o.filler && f < nforms; f++) {
		if (o.no_mark && !strcmp(forms[f], "mark"))
			continue;
		for (unsigned n = o.sites_min; n <= o.sites_max; n *= 2)
			fake_point(bench, &o, &rng, family++, forms[f], n, 1, "private", o.filler);
	}
	doc = json_object();
	json_object_set_new(doc, "context", fake_context(&o));
	json_object_set_new(doc, "benchmarks", bench);
	CHECK(json_dumpf(doc, stdout, JSON_INDENT(2)) == 0, "write failed");
	putchar('\n');
	json_decref(doc);
	for (size_t f = 0; o.forms && f < nforms; f++)
		free((char *)forms[f]);
	return 0;
}
