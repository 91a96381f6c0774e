/* sites_bench end to end on a small point set: names, --plan and
 * --run-list, context (every key of the table, the process's start and end,
 * each repetition's start), pinning, counters that are absent (never 0)
 * where they cannot be read, simulated L1i misses that rise for inline once
 * its footprint passes the L1i, and bad flags refused.
 * Usage: test_bench_sites PATH/TO/sites_bench_test */
#define _GNU_SOURCE
#include <jansson.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "context_keys.def"
#include "counters.h"
#include "topology.h"

static const char *bench;
static char out[] = "/tmp/ic-bench-test-XXXXXX";

/* Run the bench with args; returns its exit status; JSON goes to out/r.json. */
static int run(const char *args)
{
	char cmd[2048];
	/* timeout: a hang (a thread that never reaches a barrier) fails, not stalls. */
	snprintf(cmd, sizeof(cmd), "timeout 120 '%s' --benchmark_min_time=0.01 --benchmark_out='%s/r.json' "
		 "--benchmark_out_format=json --sim-cache='%s/sim.csv' %s >'%s/log' 2>&1",
		 bench, out, out, args, out);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static json_t *load(void)
{
	char path[256];
	json_error_t err;
	snprintf(path, sizeof(path), "%s/r.json", out);
	json_t *j = json_load_file(path, 0, &err);
	CHECK(j, "cannot read %s: %s", path, err.text);
	return j;
}

static const char *ctx(json_t *j, const char *key)
{
	const char *v = json_string_value(json_object_get(json_object_get(j, "context"), key));
	CHECK(v, "context has no %s", key);
	return v;
}

static json_t *find(json_t *j, const char *name)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(j, "benchmarks"), i, b)
		if (!strcmp(json_string_value(json_object_get(b, "name")), name))
			return b;
	CHECK(0, "no benchmark %s", name);
	return NULL;
}

static double num(json_t *b, const char *key)
{
	json_t *v = json_object_get(b, key);
	CHECK(json_is_number(v), "%s has no number %s", json_string_value(json_object_get(b, "name")), key);
	return json_number_value(v);
}

#define PRIV1(form, n) "sites/" form "/tail_dequeue/chain/seq/" #n "/private/real_time/threads:1"
#define SHARED1(form, n) "sites/" form "/tail_dequeue/chain/seq/" #n "/shared/real_time/threads:1"

/* How many lines the bench prints for args that start with want. */
static int listed(const char *args, const char *want)
{
	char cmd[1024], line[512];
	int n = 0;
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>/dev/null", bench, args);
	FILE *p = popen(cmd, "r");
	CHECK(p, "popen %s", cmd);
	while (fgets(line, sizeof(line), p))
		n += !strncmp(line, want, strlen(want));
	CHECK(pclose(p) == 0, "%s failed", cmd);
	return n;
}

/* An ISO 8601 UTC time with milliseconds ("2026-12-04T10:11:12.345Z") as
 * seconds since the epoch. */
static double iso_seconds(const char *s)
{
	struct tm tm = { 0 };
	int ms = -1;
	CHECK(sscanf(s, "%d-%d-%dT%d:%d:%d.%3dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		     &tm.tm_min, &tm.tm_sec, &ms) == 7 && ms >= 0 && strlen(s) == 24,
	      "'%s' is not an ISO 8601 UTC time with milliseconds", s);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + ms / 1000.0;
}

/* Time in the data: the process's start and end in the context, and each
 * repetition's start (rep_start_s) increasing, within them. */
static void check_times(json_t *j)
{
	double start = iso_seconds(ctx(j, "process_start")), end = iso_seconds(ctx(j, "process_end"));
	json_t *runs = json_object_get(j, "benchmarks"), *b, *c;
	size_t i, k, n = 0;

	CHECK(start <= end, "process_start %s after process_end %s", ctx(j, "process_start"), ctx(j, "process_end"));
	json_array_foreach(runs, i, b) {
		const char *name = json_string_value(json_object_get(b, "run_name"));
		if (strcmp(json_string_value(json_object_get(b, "run_type")), "iteration") != 0)
			continue;
		double t = num(b, IC_REP_START_COUNTER), before = 0;
		/* The milliseconds are cut, not rounded: up to 1 ms late. */
		CHECK(t >= start && t <= end + 0.001, "%s: %s %.3f outside the process (%.3f .. %.3f)", name,
		      IC_REP_START_COUNTER, t, start, end);
		json_array_foreach(runs, k, c) {
			if (k >= i)
				break;
			if (!strcmp(json_string_value(json_object_get(c, "run_type")), "iteration") &&
			    !strcmp(json_string_value(json_object_get(c, "run_name")), name))
				before = num(c, IC_REP_START_COUNTER);
		}
		CHECK(t > before, "%s: repetition starts not increasing (%.6f after %.6f)", name, t, before);
		n++;
	}
	CHECK(n > 0, "no repetitions to check the times of");
	printf("%zu repetitions start in order within %s .. %s\n", n, ctx(j, "process_start"),
	       ctx(j, "process_end"));
}

static void check_no_counters(json_t *j)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(j, "benchmarks"), i, b)
		for (size_t k = 0; k < IC_CTR_COUNT; k++)
			CHECK(!json_object_get(b, ic_ctr_names[k]), "%s reports %s although nothing counted it",
			      json_string_value(json_object_get(b, "name")), ic_ctr_names[k]);
}

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: test_bench_sites SITES_BENCH");
	bench = argv[1];
	CHECK(mkdtemp(out), "mkdtemp");

	struct ic_topo_info topo;
	CHECK(ic_topo_open() == 0 && ic_topo_describe(&topo) == 0, "hwloc");

	/* The mark alone, the nolock forms and filler points are registered at
	 * 1 thread, private, only; the others in every mode and thread count,
	 * but shared at 1 thread (the private case again) only without
	 * private. A filler point carries its filler in the name. */
	{
		char cmd[1024], line[512];
		int one[4] = { 0 }, bad = 0, clones = 0;
		static const char *const only[4] = { "sites/mark/", "sites/inline_nolock/",
			"sites/extern_nolock/", "/filler:256/" };
		snprintf(cmd, sizeof(cmd), "'%s' --list --threads=1,2 2>/dev/null", bench);
		FILE *p = popen(cmd, "r");
		CHECK(p, "popen %s", cmd);
		while (fgets(line, sizeof(line), p)) {
			clones += !strncmp(line, "sites/clone/", 12);
			for (int i = 0; i < 4; i++)
				if (strstr(line, only[i]) && (i < 3 || !strncmp(line, "sites/", 6))) {
					one[i]++;
					bad |= !strstr(line, "/private/real_time/threads:1\n") &&
					       !strstr(line, "/private/filler:256/real_time/threads:1\n");
				}
		}
		CHECK(pclose(p) == 0, "--list failed");
		CHECK(!bad, "a mark, nolock or filler point listed beyond 1 thread, private");
		CHECK(one[0] == 2 && one[1] == 1 && one[2] == 1 && one[3] == 2,
		      "listed: mark %d (want 2: plain and filler), inline_nolock %d, extern_nolock %d "
		      "(want 1 each), filler points %d (want 2)", one[0], one[1], one[2], one[3]);
		CHECK(clones == 3, "clone listed %d times, want 3 (1 and 2 threads private, 2 shared)", clones);
		CHECK(listed("--list --threads=1,2 --modes=shared", PRIV1("clone", 16)) == 0 &&
		      listed("--list --threads=1,2 --modes=shared", SHARED1("clone", 16)) == 1 &&
		      listed("--list --threads=1,2", SHARED1("clone", 16)) == 0,
		      "shared at 1 thread: listed with private, or not without it");
		/* --plan is --list with the columns run.sh selects by. */
		CHECK(listed("--plan --threads=1,2", PRIV1("clone", 16) "\tclone\ttail_dequeue\tchain\tseq\t16\t0"
			     "\tprivate\t1") == 1, "--plan has no row for clone at 16, 1 thread private");
	}

	/* --run-list runs exactly its names; a name this binary has not is refused. */
	{
		char path[300], args[400];
		snprintf(path, sizeof(path), "%s/runs.txt", out);
		FILE *f = fopen(path, "w");
		CHECK(f, "%s", path);
		fprintf(f, "%s\n%s\n", PRIV1("inline", 16), PRIV1("mark", 16));
		CHECK(fclose(f) == 0, "%s", path);
		snprintf(args, sizeof(args), "--counters=none --threads=1,2 --run-list=%s", path);
		CHECK(run(args) == 0, "--run-list run failed (see %s/log)", out);
		json_t *j = load();
		CHECK(json_array_size(json_object_get(j, "benchmarks")) == 2, "--run-list of 2 ran %zu",
		      json_array_size(json_object_get(j, "benchmarks")));
		find(j, PRIV1("inline", 16));
		find(j, PRIV1("mark", 16));
		json_decref(j);
		f = fopen(path, "a");
		CHECK(f && fprintf(f, "%s\n", SHARED1("inline", 16)) > 0 && fclose(f) == 0, "%s", path);
		CHECK(run(args) == 2, "a --run-list naming a run this binary does not have was not refused");
	}

	/* Bad flags: exit 2. */
	CHECK(run("--counters=bogus") == 2, "--counters=bogus accepted");
	CHECK(run("--threads=0") == 2, "--threads=0 accepted");
	CHECK(run("--no-such-flag") == 2, "an unknown flag accepted");

	/* Simulated L1i. */
	CHECK(run("--counters=sim --threads=1 --modes=private") == 0, "sim run failed (see %s/log)", out);
	json_t *j = load();
	if (strcmp(ctx(j, "counter_source"), "sim") != 0) {
		printf("skip: no simulation here: %s\n", ctx(j, "counter_note"));
		return IC_TEST_SKIP;
	}
	CHECK(strstr(ctx(j, "counter_note"), "simulated"), "the note does not say simulated");
	double in16 = num(find(j, PRIV1("inline", 16)), "l1i_miss_per_op");
	double ex16 = num(find(j, PRIV1("extern", 16)), "l1i_miss_per_op");
	double in1k = num(find(j, PRIV1("inline", 1024)), "l1i_miss_per_op");
	double ex1k = num(find(j, PRIV1("extern", 1024)), "l1i_miss_per_op");
	double fp1k = num(find(j, PRIV1("inline", 1024)), "footprint_bytes");
	printf("simulated L1i misses per call site: N=16 inline %.4f extern %.4f; "
	       "N=1024 inline %.4f extern %.4f (inline footprint %.0f B, L1i %ld B)\n",
	       in16, ex16, in1k, ex1k, fp1k, topo.l1i_size);
	CHECK(fp1k > topo.l1i_size, "the inline N=1024 point fits the L1i: the test proves nothing");
	/* Fits: no capacity misses. Up to two boundary misses per measurement
	 * (bench/sim.c counts the difference of two dumps) read 0.0125 at
	 * N = 16 with 10 passes; a site past the L1i misses about 3 times. */
	CHECK(in16 < 0.05 && ex16 < 0.05, "N=16 should fit the L1i in either form");
	CHECK(in1k > 2 * ex1k && in1k > 0.1, "inline past the L1i should miss more than extern");
	CHECK(num(find(j, PRIV1("inline", 1024)), "code_bytes_per_site") >
	      num(find(j, PRIV1("extern", 1024)), "code_bytes_per_site"), "inline sites should be larger");
	CHECK(num(find(j, PRIV1("inline", 1024)), "instr_per_op") > 0, "no simulated instructions");
	/* The footprint counts the filler: 16 sites of about 256 B more. */
	double fp16 = num(find(j, PRIV1("inline", 16)), "footprint_bytes");
	double fp16f = num(find(j, "sites/inline/tail_dequeue/chain/seq/16/private/filler:256/real_time/threads:1"),
			   "footprint_bytes");
	CHECK(fp16f - fp16 > 16 * 192 && fp16f - fp16 < 16 * 320,
	      "filler 256: footprint %.0f B vs %.0f B without: not about 16 x 256 B more", fp16f, fp16);
	json_decref(j);

	/* No counters asked for: absent, not zero. Repetitions interleaved. */
	CHECK(run("--counters=none --threads=1 --modes=private --benchmark_filter=/16/ --benchmark_repetitions=3 "
		  "--benchmark_enable_random_interleaving=true") == 0, "none run failed");
	j = load();
	CHECK(!strcmp(ctx(j, "counter_source"), "none"), "counter_source should be none");
	check_no_counters(j);
	check_times(j);
	json_decref(j);

	/* PAPI: counts where it can, labelled absence where it cannot. */
	CHECK(run("--counters=papi --threads=1 --modes=private --benchmark_filter=/16/") == 0, "papi run failed");
	j = load();
	if (!strcmp(ctx(j, "counter_source"), "papi")) {
		CHECK(num(find(j, PRIV1("inline", 16)), "instr_per_op") > 0, "PAPI counted no instructions");
	} else {
		CHECK(!strcmp(ctx(j, "counter_source"), "none"), "counter_source is neither papi nor none");
		CHECK(strlen(ctx(j, "counter_note")) > 0, "no reason given for the missing counters");
		check_no_counters(j);
		printf("no hardware counters, as expected here: %s\n", ctx(j, "counter_note"));
	}
	/* Context a reader needs: every key of the table. */
#define KEY_NAME(e, name, build, word) #name,
	static const char *const keys[] = { IC_CONTEXT_KEYS(KEY_NAME) };
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		ctx(j, keys[k]);
	/* How the sites were built, as the build says. */
	CHECK(!strcmp(ctx(j, "per_caller"), "16"), "per_caller %s, the build's is 16", ctx(j, "per_caller"));
	CHECK(!strcmp(ctx(j, "codegen"), "user") || !strcmp(ctx(j, "codegen"), "vectorised") ||
	      !strncmp(ctx(j, "codegen"), "kernel-", 7),
	      "codegen '%s'", ctx(j, "codegen"));
	json_decref(j);

	/* Pinning: thread i on core i, both modes; threads beyond the PUs are
	 * spread over them (never all on core 0), each recorded as shared. */
	if (topo.cores >= 2) {
		CHECK(run("--counters=none --threads=2 --benchmark_filter=extern/.*/16/") == 0, "2-thread run failed");
		j = load();
		CHECK(!strcmp(ctx(j, "pinned"), "true"), "2 threads on %d cores not pinned", topo.cores);
		const char *label = json_string_value(json_object_get(
			find(j, "sites/extern/tail_dequeue/chain/seq/16/shared/real_time/threads:2"), "label"));
		CHECK(label && strstr(label, " bind:core,core pinned"), "label '%s' does not say both pinned to a core",
		      label ? label : "");
		CHECK(!strstr(label, "moved"), "a thread ran its loop elsewhere than its set-up: %s", label);
		int c0 = -1, c1 = -1;
		CHECK(sscanf(label, "cpus:%d,%d", &c0, &c1) == 2 && c0 != c1, "threads shared a cpu: %s", label);
		printf("2 threads ran on cpus %d and %d\n", c0, c1);
		json_decref(j);
	}
	/* Two more than the PUs, within what the label parser and --threads take. */
	int over = topo.pus + 2 < 64 ? topo.pus + 2 : 64;
	char args[160];
	snprintf(args, sizeof(args), "--counters=none --threads=%d --benchmark_filter=extern/.*/16/", over);
	CHECK(run(args) == 0, "more threads than PUs should still run");
	j = load();
	CHECK(!strcmp(ctx(j, "pinned"), "true") && !strcmp(ctx(j, "oversubscribed"), over > topo.pus ? "true" : "false"),
	      "%d threads on %d PUs: pinned %s oversubscribed %s", over, topo.pus, ctx(j, "pinned"),
	      ctx(j, "oversubscribed"));
	for (int m = 0; m < 2; m++) {
		char name[160];
		snprintf(name, sizeof(name), "sites/extern/tail_dequeue/chain/seq/16/%s/real_time/threads:%d",
			 m ? "shared" : "private", over);
		json_t *b = find(j, name);
		CHECK(!json_is_true(json_object_get(b, "error_occurred")), "%s failed", name);
		const char *label = json_string_value(json_object_get(b, "label"));
		CHECK(label && !strncmp(label, "cpus:", 5), "%s has no placement label", name);
		int cpu[64], n = 0, used = 0;
		const char *p = label + 5;
		while (n < 64 && sscanf(p, "%d%n", &cpu[n], &used) == 1) {
			p += used;
			n++;
			if (*p != ',')
				break;
			p++;
		}
		CHECK(n == over, "%s: %d cpus in '%s', expected %d", name, n, label, over);
		for (int i = topo.pus; i < over; i++)
			CHECK(cpu[i] == cpu[i - topo.pus], "%s: thread %d on cpu %d, not sharing thread %d's cpu %d: %s",
			      name, i, cpu[i], i - topo.pus, cpu[i - topo.pus], label);
		for (int i = 1; i < topo.pus && i < over; i++)
			CHECK(cpu[i] != cpu[0], "%s: thread %d stacked on thread 0's cpu: %s", name, i, label);
		CHECK(over <= topo.pus || strstr(label, ",shared,shared pinned"),
		      "%s: the extra threads are not recorded as shared: %s", name, label);
		printf("%d threads on %d PUs: %s\n", over, topo.pus, label);
	}
	json_decref(j);

	/* A thread whose set-up fails does not hang the others: the run ends,
	 * marked failed with the reason (fault injected into thread 1, then
	 * into thread 0, which also makes the shared queue). */
	for (int victim = 1; victim >= 0; victim--) {
		char v[8];
		snprintf(v, sizeof(v), "%d", victim);
		setenv("IC_FAULT_SETUP_THREAD", v, 1);
		int rc = run("--counters=none --threads=1,2 --modes=private,shared --benchmark_filter=extern/.*/16/");
		unsetenv("IC_FAULT_SETUP_THREAD");
		CHECK(rc == 0 || rc == 1, "the run with thread %d failing did not end (exit %d; 124 = hung)", victim, rc);
		j = load();
		for (int m = 0; m < 2; m++) {
			char name[160];
			snprintf(name, sizeof(name), "sites/extern/tail_dequeue/chain/seq/16/%s/real_time/threads:2",
				 m ? "shared" : "private");
			json_t *b = find(j, name);
			CHECK(json_is_true(json_object_get(b, "error_occurred")), "%s: no error recorded", name);
			const char *msg = json_string_value(json_object_get(b, "error_message"));
			CHECK(msg && strstr(msg, "fault injected"), "%s: error '%s'", name, msg ? msg : "");
		}
		/* A 1-thread run has only thread 0. */
		CHECK(json_is_true(json_object_get(find(j, PRIV1("extern", 16)), "error_occurred")) == (victim == 0),
		      "the 1-thread run with thread %d failing", victim);
		json_decref(j);
	}
	printf("a failing thread (1, then 0) ends its run with the reason, no hang\n");

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", out);
	printf("sites_bench: names, context, counters and pinning as documented\n");
	return 0;
}
