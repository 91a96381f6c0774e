/* sites_bench end to end on a small point set: names, context, pinning,
 * counters that are absent (never 0) where they cannot be read, simulated L1i
 * misses that rise for inline once its footprint passes the L1i, and bad
 * flags refused.
 * Usage: test_bench_sites PATH/TO/sites_bench_test */
#include <jansson.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "topology.h"

static const char *bench;
static char out[] = "/tmp/ic-bench-test-XXXXXX";

/* Run the bench with args; returns its exit status; JSON goes to out/r.json. */
static int run(const char *args)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "'%s' --benchmark_min_time=0.01 --benchmark_out='%s/r.json' "
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

static const char *const counter_keys[] = {
	"l1i_miss_per_op", "instr_per_op", "cycles_per_op", "branch_miss_per_op", "itlb_miss_per_op",
};

static void check_no_counters(json_t *j)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(j, "benchmarks"), i, b)
		for (size_t k = 0; k < sizeof(counter_keys) / sizeof(counter_keys[0]); k++)
			CHECK(!json_object_get(b, counter_keys[k]), "%s reports %s although nothing counted it",
			      json_string_value(json_object_get(b, "name")), counter_keys[k]);
}

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: test_bench_sites SITES_BENCH");
	bench = argv[1];
	CHECK(mkdtemp(out), "mkdtemp");

	struct ic_topo_info topo;
	CHECK(ic_topo_open() == 0 && ic_topo_describe(&topo) == 0, "hwloc");

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
	CHECK(in16 < 0.01 && ex16 < 0.01, "N=16 should fit the L1i in either form");
	CHECK(in1k > 2 * ex1k && in1k > 0.1, "inline past the L1i should miss more than extern");
	CHECK(num(find(j, PRIV1("inline", 1024)), "code_bytes_per_site") >
	      num(find(j, PRIV1("extern", 1024)), "code_bytes_per_site"), "inline sites should be larger");
	CHECK(num(find(j, PRIV1("inline", 1024)), "instr_per_op") > 0, "no simulated instructions");
	json_decref(j);

	/* No counters asked for: absent, not zero. */
	CHECK(run("--counters=none --threads=1 --modes=private --benchmark_filter=/16/") == 0, "none run failed");
	j = load();
	CHECK(!strcmp(ctx(j, "counter_source"), "none"), "counter_source should be none");
	check_no_counters(j);
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
	/* Context a reader needs. */
	const char *keys[] = { "cpu_model", "cores", "smt", "l1i_size", "l1i_assoc", "l1i_line", "l2_size", "lock", "pinned", "cores_used" };
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		ctx(j, keys[k]);
	json_decref(j);

	/* Pinning: thread i on core i, both modes; more threads than cores goes
	 * on unpinned. */
	if (topo.cores >= 2) {
		CHECK(run("--counters=none --threads=2 --benchmark_filter=extern/.*/16/") == 0, "2-thread run failed");
		j = load();
		CHECK(!strcmp(ctx(j, "pinned"), "true"), "2 threads on %d cores not pinned", topo.cores);
		const char *label = json_string_value(json_object_get(
			find(j, "sites/extern/tail_dequeue/chain/seq/16/shared/real_time/threads:2"), "label"));
		CHECK(label && strstr(label, " pinned"), "label '%s' does not say pinned", label ? label : "");
		int c0 = -1, c1 = -1;
		CHECK(sscanf(label, "cpus:%d,%d", &c0, &c1) == 2 && c0 != c1, "threads shared a cpu: %s", label);
		printf("2 threads ran on cpus %d and %d\n", c0, c1);
		json_decref(j);
	}
	char args[128];
	snprintf(args, sizeof(args), "--counters=none --threads=%d --modes=private --benchmark_filter=extern/.*/16/", topo.cores + 1);
	CHECK(run(args) == 0, "more threads than cores should still run");
	j = load();
	CHECK(!strcmp(ctx(j, "pinned"), "false"), "more threads than cores recorded as pinned");
	json_decref(j);

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", out);
	printf("sites_bench: names, context, counters and pinning as documented\n");
	return 0;
}
