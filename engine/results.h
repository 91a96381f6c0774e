/* Benchmark results: sites_bench's JSON files (load.h reads them) in points, one per build,
 * form, op, layout, order, filler, sites, threads and mode. Builds share benchmark names,
 * so the build (a process's context says which) is part of every point and a ratio keeps
 * within one. A file is a process: its repetitions' median (docs/method.md, "The rules"). */
#ifndef IC_RESULTS_H
#define IC_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "context_keys.def"

/* The context keys: common/context_keys.def's, then Google Benchmark's own the
 * suite reads; a key's name, label word and build column come from these alone. */
#define IC_GB_CONTEXT_KEYS(X) \
	X(DATE, date, -1, "date") X(HOST_NAME, host_name, -1, "host") \
	X(NUM_CPUS, num_cpus, -1, "CPUs") X(MHZ_PER_CPU, mhz_per_cpu, -1, "MHz") \
	X(EXECUTABLE, executable, -1, "executable")

enum ic_ctx {
#define IC_CTX_ENUM(e, name, build, word) IC_CTX_##e,
	IC_CONTEXT_KEYS(IC_CTX_ENUM)
	IC_GB_CONTEXT_KEYS(IC_CTX_ENUM)
#undef IC_CTX_ENUM
	IC_CTX_COUNT
};

/* The keys that make a build, by their column in the CSV tables; -1 for the others. */
enum ic_build_key {
#define IC_BUILD_ENUM(e, name, build, word) IC_B_##e = (build),
	IC_CONTEXT_KEYS(IC_BUILD_ENUM)
#undef IC_BUILD_ENUM
#define IC_BUILD_ONE(e, name, build, word) + ((build) >= 0)
	IC_B_COUNT = 0 IC_CONTEXT_KEYS(IC_BUILD_ONE)
#undef IC_BUILD_ONE
};

/* The key as JSON spells it ("cpu_model"), as a label names it ("flags" for cflags,
 * "LTO" for lto); the key of build column b (0 <= b < IC_B_COUNT). */
const char *ic_ctx_name(enum ic_ctx k);
const char *ic_ctx_word(enum ic_ctx k);
enum ic_ctx ic_ctx_of_build(enum ic_build_key b);

/* A repetition's values by Google Benchmark member (real_time: ns per call site); NAN absent. */
#define IC_FIELDS(X) \
	X(NS, real_time) X(IPS, items_per_second) X(CYCLES, cycles_per_op) \
	X(L1I, l1i_miss_per_op) X(CODE, code_bytes_per_site) X(FOOT, footprint_bytes) \
	X(INSTR, instr_per_op) X(BRANCH, branch_miss_per_op) X(ITLB, itlb_miss_per_op)

enum ic_field {
#define IC_FIELD_ENUM(e, key) IC_F_##e,
	IC_FIELDS(IC_FIELD_ENUM)
#undef IC_FIELD_ENUM
	IC_F_COUNT
};

struct ic_rep {
	double v[IC_F_COUNT];
	unsigned unit;             /* the file (process) it came from */
	int variant;               /* that file's layout variant */
	int index;                 /* Google Benchmark's repetition_index; -1 absent */
	double start;              /* rep_start_s (s since the epoch); NAN in older runs */
};

struct ic_build {
	char *v[IC_B_COUNT];       /* by enum ic_build_key; "" when the context lacks the key */
	size_t nfiles;             /* processes that ran it */
};

struct ic_file {
	char *path;
	json_t *doc;               /* owns everything below */
	json_t *context;           /* may be NULL */
	const char *counter_source;   /* "papi" | "sim" | "none" | "" when absent */
	char layout[96];           /* "<layout_seed>/<layout_variant>", "/0" when absent */
	int variant;               /* its layout's number, in order of first appearance */
	size_t build;              /* index in ic_results.builds */
	double start, end;         /* s since the epoch; older runs: start NAN, end its mtime */
	int repeat;                /* the sweep's --repeat, 1..; 1 when the name does not say */
};

/* When a process ran: its start, else its end (older runs); NAN unknown. */
double ic_file_time(const struct ic_file *file);

/* A process's share of one point: its repetitions' median time and cv. */
struct ic_unit {
	unsigned unit;
	int variant;
	double med, cv;
	int repeat;                /* its file's repeat */
};

struct ic_point {
	char key[512];             /* sites/<form>/.../<mode>[/filler:<F>]/threads:<T> */
	char form[64], op[64], layout[64], order[64], mode[64];
	size_t build;              /* index in ic_results.builds; part of the point */
	unsigned long sites, threads;
	unsigned long filler;      /* bytes of other code per site; 0 without */
	struct ic_rep *reps;
	size_t nreps;
	const struct ic_file *file;   /* the first file with it that counted, else the first */
	int source_mixed;          /* counting files with different counter_source */
	size_t nerrors;            /* repetitions Google Benchmark skipped */
	const char *error;         /* the first skip message */

	/* Filled by ic_analyse. */
	double med[IC_F_COUNT];    /* median over repetitions; IC_F_NS: the nested estimate */
	double ci_lo, ci_hi;       /* 95% interval of med[IC_F_NS]; NAN with < 2 draws */
	double cv;                 /* of IC_F_NS within a process, median over processes */
	size_t nunits, nvariants;  /* processes and layout variants that count */
	struct ic_unit *units;     /* per-process medians, ascending by unit */
};

/* What a run's analysis compares, and how strictly. */
struct ic_analysis_opts {
	const char *compare, *baseline;
	double noise_ci;           /* flag a ratio whose band half-width exceeds this */
	double family;             /* family-wise error of each series' band (0.05) */
	double planted;            /* NAN unless --planted */
};

/* A probe's repetitions (bench/sites_cases.c): v[IC_F_NS] ns per iteration, the rest NAN. */
struct ic_probe_reps {
	char name[64];
	const char *what;          /* one iteration, the run's label (owned by its file) */
	struct ic_rep *reps;
	size_t nreps;
};

struct ic_results {
	struct ic_file **files;    /* in command-line order */
	size_t nfiles;
	struct ic_point **points;  /* in load order, by series once analysed */
	size_t npoints;
	json_t *index;             /* "<build> <key>": the point's place in points */
	size_t n_aggregates, n_other, n_errors;
	size_t nlayouts;           /* distinct ic_file.layout */
	int nrepeats;              /* the highest ic_file.repeat (0 before any file) */
	struct ic_build *builds;   /* in order of first appearance */
	size_t nbuilds;
	int64_t next_family;       /* family_index offset for the next file */
	struct ic_probe_reps *probes;   /* in order of first appearance */
	size_t nprobes;
};

void ic_results_init(struct ic_results *res);
void ic_results_free(struct ic_results *res);

/* The nested estimate's clusters are the repeats from this many on, else the layout variants:
 * two give 1 degree of freedom (t = 12.7 at 95%, 178 for a 14-N band), resolving nothing. */
#define IC_REPEATS_TOP 3

/* Process unit's share of p; NULL when it did not run p. */
const struct ic_unit *ic_point_unit(const struct ic_point *p, unsigned unit);

/* The counter source of a point: its file's, "mixed" when its files disagree. */
const char *ic_point_source(const struct ic_point *p);

/* The run's design: a point's fewest and most repetitions and processes, most variants. */
struct ic_design {
	size_t reps_min, reps_max, units_min, units_max, variants_max;
};
struct ic_design ic_results_design(const struct ic_results *res);

#endif /* IC_RESULTS_H */
