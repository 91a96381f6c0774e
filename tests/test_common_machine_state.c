/* The machine's state from fake /sys and /proc trees, and the busy-process
 * arithmetic. Also the helper for test_common_machine_state_summary.sh, which checks the
 * summary's lines end to end.
 *
 * usage: test_common_machine_state                      the checks below
 *        test_common_machine_state tree KIND DIR        make a fake tree in DIR:
 *            KIND hot: governor powersave, boost on, NMI watchdog on, SMT on,
 *                      ASLR 2, THP always, paranoid 2, load 0.10, a process
 *            KIND vm:  no cpufreq, no SMT files, watchdog off, THP madvise
 *        test_common_machine_state merge DIR IN OUT     IN (Google Benchmark JSON)
 *            with the state read under DIR added to its context, as
 *            sites_bench adds it, written to OUT
 */
#define _GNU_SOURCE
#include "check.h"
#include "machine_state_read.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>

static void put(const char *dir, const char *rel, const char *text)
{
	char path[4096], *slash;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		CHECK(mkdir(path, 0755) == 0 || errno == EEXIST, "mkdir %s", path);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	CHECK(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

static void make_tree(const char *kind, const char *dir)
{
	int hot = !strcmp(kind, "hot");

	CHECK(hot || !strcmp(kind, "vm"), "tree kind %s: hot or vm", kind);
	CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir %s", dir);
	put(dir, "sys/devices/system/cpu/online", "0-1\n");
	put(dir, "sys/devices/system/cpu/cpu1/topology/core_id", "1\n");
	put(dir, "proc/sys/kernel/randomize_va_space", hot ? "2\n" : "0\n");
	put(dir, "proc/sys/kernel/nmi_watchdog", hot ? "1\n" : "0\n");
	put(dir, "proc/sys/kernel/perf_event_paranoid", "2\n");
	put(dir, "proc/loadavg", hot ? "0.10 0.05 0.01 1/120 4242\n" : "0.00 0.00 0.00 1/80 99\n");
	put(dir, "proc/4242/stat", "4242 (my (odd) job) S 1 4242 4242 0 -1 4194560 100 0 0 0 "
	    "250 50 0 0 20 0 1 0 100 1000 10 18446744073709551615\n");
	if (hot) {
		for (int c = 0; c < 2; c++) {
			char rel[128];
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
			put(dir, rel, "powersave\n");
		}
		put(dir, "sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "acpi-cpufreq\n");
		put(dir, "sys/devices/system/cpu/cpufreq/boost", "1\n");
		put(dir, "sys/devices/system/cpu/smt/active", "1\n");
		put(dir, "sys/devices/system/cpu/smt/control", "on\n");
		put(dir, "sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	} else {
		put(dir, "sys/devices/system/cpu/cpu0/topology/core_id", "0\n");
		put(dir, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	}
}

/* What the fake trees read as, item by item: each value starts so; NULL,
 * the tree has no such item. The hot tree is read with a 20 ms busy scan,
 * the vm tree with none. */
static const struct {
	const char *key, *hot, *vm;
} tree_items[] = {
	{ "machine_governor", "powersave", "not readable: no cpufreq" },
	{ "machine_cpufreq_driver", "acpi-cpufreq", "not readable" },
	{ "machine_epp", NULL, NULL },
	{ "machine_boost", "on (cpufreq)", "not readable" },
	{ "machine_smt", "on", "not readable" },
	{ "machine_aslr", "2", "0" },
	{ "machine_nmi_watchdog", "1", "0" },
	{ "machine_perf_event_paranoid", "2", "2" },
	{ "machine_thp", "always", "madvise" },
	{ "machine_load", "0.10 0.05 0.01 on 2 CPUs, " IC_MSTATE_LOAD_NOW,
	  "0.00 0.00 0.00 on 2 CPUs, " IC_MSTATE_LOAD_NOW },
	{ "machine_busy", "none above 5% of a core", "not sampled" },
};

static void expect(const struct ic_mstate *ms, const char *key, const char *want)
{
	const char *v = ic_mstate_get(ms, key);

	if (!want) {
		CHECK(!v, "%s = '%s' from nowhere", key, v);
		return;
	}
	CHECK(v, "no %s", key);
	CHECK(!strncmp(v, want, strlen(want)), "%s = '%s', expected it to start '%s'", key, v, want);
}

static void check_trees(void)
{
	char dir[] = "/tmp/test_common_machine_state.XXXXXX", hot[4200], vm[4200], cmd[8500];
	struct ic_mstate ms;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(hot, sizeof(hot), "%s/hot", dir);
	snprintf(vm, sizeof(vm), "%s/vm", dir);
	make_tree("hot", hot);
	make_tree("vm", vm);

	/* A fake /proc does not move: nothing is busy, the scan still runs. */
	ic_mstate_read(hot, 20, &ms);
	for (size_t i = 0; i < sizeof(tree_items) / sizeof(tree_items[0]); i++)
		expect(&ms, tree_items[i].key, tree_items[i].hot);
	ic_mstate_read(vm, 0, &ms);
	for (size_t i = 0; i < sizeof(tree_items) / sizeof(tree_items[0]); i++)
		expect(&ms, tree_items[i].key, tree_items[i].vm);

	/* The load run.sh sampled before it started anything wins over the
	 * load now (which holds the run's own build); a malformed one does not. */
	CHECK(setenv(IC_MSTATE_ENV_LOADAVG, "1.33 0.40 0.20 3/200 999", 1) == 0, "setenv");
	ic_mstate_read(hot, 0, &ms);
	expect(&ms, "machine_load", "1.33 0.40 0.20 on 2 CPUs, " IC_MSTATE_LOAD_BEFORE);
	CHECK(setenv(IC_MSTATE_ENV_LOADAVG, "busy", 1) == 0, "setenv");
	ic_mstate_read(hot, 0, &ms);
	expect(&ms, "machine_load", "0.10 0.05 0.01 on 2 CPUs, " IC_MSTATE_LOAD_NOW);
	CHECK(unsetenv(IC_MSTATE_ENV_LOADAVG) == 0, "unsetenv");

	/* A root with nothing in it: every item says so, none is a guess. */
	ic_mstate_read(dir, 10, &ms);
	for (size_t i = 0; i < ms.n; i++)
		CHECK(!strncmp(ms.item[i].value, IC_MSTATE_UNREADABLE, strlen(IC_MSTATE_UNREADABLE)),
		      "empty root: %s = %s", ms.item[i].key, ms.item[i].value);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "%s", cmd);
}

static void check_busy(void)
{
	struct ic_proc_sample s, a[3], b[3];
	char out[IC_MSTATE_VALUE_MAX];

	CHECK(ic_mstate_parse_stat("77 (a) b) c) R 5 2 3 4 5 6 7 8 9 10 300 20 0", &s) == 0 &&
	      s.pid == 77 && s.ppid == 5 && !strcmp(s.comm, "a) b) c") && s.ticks == 320,
	      "parse: pid %d ppid %d comm '%s' ticks %llu", (int)s.pid, (int)s.ppid, s.comm, s.ticks);
	CHECK(ic_mstate_parse_stat("garbage", &s) == -1, "garbage parsed");

	/* 100 ticks/s, 0.2 s: 20 ticks is one whole core. */
	a[0] = (struct ic_proc_sample){ 10, 1, "make", 1000 };
	a[1] = (struct ic_proc_sample){ 11, 1, "idle", 500 };
	a[2] = (struct ic_proc_sample){ 12, 1, "self", 0 };
	b[0] = (struct ic_proc_sample){ 10, 1, "make", 1019 };   /* 95% */
	b[1] = (struct ic_proc_sample){ 11, 1, "idle", 500 };    /* 0% */
	b[2] = (struct ic_proc_sample){ 12, 1, "self", 20 };     /* 100%, but itself */
	CHECK(ic_mstate_busy(a, 3, b, 3, 0.2, 100, 12, 0, out, sizeof(out)) == 1 &&
	      !strcmp(out, "pid 10 (make) 95%"), "busy: %s", out);
	b[1].ticks = 502;                                     /* 10%: named, second */
	CHECK(ic_mstate_busy(a, 3, b, 3, 0.2, 100, 12, 0, out, sizeof(out)) == 2 &&
	      !strcmp(out, "pid 10 (make) 95%; pid 11 (idle) 10%"), "busy: %s", out);
	b[1].ticks = 501;                                     /* 5%: not above */
	b[0].ticks = 1000;
	CHECK(ic_mstate_busy(a, 3, b, 3, 0.2, 100, 12, 0, out, sizeof(out)) == 0 &&
	      !strcmp(out, "none above 5% of a core over 200 ms"), "busy: %s", out);
}

/* The run's own processes are not other work: run.sh (20), the build it
 * started (make 21, cc1 22 under it) and its bench (23) are left out at
 * any depth; a compiler of another user's build (31 under make 30) is not. */
static void check_busy_own(void)
{
	struct ic_proc_sample a[6], b[6];
	char out[IC_MSTATE_VALUE_MAX];
	static const struct { pid_t pid, ppid; const char *comm; } p[6] = {
		{ 20, 1, "run.sh" }, { 21, 20, "make" }, { 22, 21, "cc1" },
		{ 23, 20, "sites_bench" }, { 30, 1, "make" }, { 31, 30, "cc1" },
	};

	for (int i = 0; i < 6; i++) {
		a[i] = (struct ic_proc_sample){ p[i].pid, p[i].ppid, "", 1000 };
		snprintf(a[i].comm, sizeof(a[i].comm), "%s", p[i].comm);
		b[i] = a[i];
		b[i].ticks = 1000 + 10 + (unsigned long long)i;   /* 50% and up: all busy */
	}
	CHECK(ic_mstate_busy(a, 6, b, 6, 0.2, 100, 23, 20, out, sizeof(out)) == 2 &&
	      !strcmp(out, "pid 31 (cc1) 75%; pid 30 (make) 70%"), "busy, run 20: %s", out);
	/* Without the run's pid, its build is other work like any. */
	CHECK(ic_mstate_busy(a, 6, b, 6, 0.2, 100, 23, 0, out, sizeof(out)) == 5 &&
	      !strcmp(out, "pid 31 (cc1) 75%; pid 30 (make) 70%; pid 22 (cc1) 60%; "
		      "pid 21 (make) 55%; pid 20 (run.sh) 50%"),
	      "busy, no run: %s", out);
	/* Only the run's: nothing named, and said that its own were left out. */
	for (int i = 4; i < 6; i++)
		b[i].ticks = a[i].ticks;
	CHECK(ic_mstate_busy(a, 6, b, 6, 0.2, 100, 23, 20, out, sizeof(out)) == 0 &&
	      !strcmp(out, "none above 5% of a core over 200 ms (this run's own processes left out)"),
	      "busy, only the run's: %s", out);
}

static int merge(const char *root, const char *in, const char *out)
{
	json_error_t err;
	json_t *doc = json_load_file(in, 0, &err), *ctx;
	struct ic_mstate ms;

	CHECK(doc, "%s: %s", in, err.text);
	ctx = json_object_get(doc, "context");
	CHECK(json_is_object(ctx), "%s: no context", in);
	ic_mstate_read(root, 0, &ms);
	for (size_t i = 0; i < ms.n; i++)
		json_object_set_new(ctx, ms.item[i].key, json_string(ms.item[i].value));
	CHECK(json_dump_file(doc, out, JSON_INDENT(1)) == 0, "cannot write %s", out);
	json_decref(doc);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "tree")) {
		make_tree(argv[2], argv[3]);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "merge"))
		return merge(argv[2], argv[3], argv[4]);
	CHECK(argc == 1, "usage: %s [tree KIND DIR | merge DIR IN OUT]", argv[0]);
	/* What a run hands down is the checks' to set, not the caller's. */
	unsetenv(IC_MSTATE_ENV_LOADAVG);
	unsetenv(IC_MSTATE_ENV_RUN_PID);
	check_trees();
	check_busy();
	check_busy_own();
	printf("common_machine_state: ok\n");
	return 0;
}
