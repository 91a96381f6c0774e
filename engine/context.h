/* The context keys of sites_bench's JSON as the loader and the writers name
 * them: every key of common/context_keys.def, then Google Benchmark's own
 * keys that the suite reads. A key's name, its word in labels and its place
 * among the build keys come from that table and from nowhere else.
 */
#ifndef IC_CONTEXT_H
#define IC_CONTEXT_H

#include "context_keys.def"

/* Google Benchmark's own keys that the suite reads, as context_keys.def's rows. */
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

/* The keys that make a build, numbered by their column in the CSV tables
 * (the table's build field): IC_B_COMPILER is 0. A key that does not make a
 * build is -1 here. */
enum ic_build_key {
#define IC_BUILD_ENUM(e, name, build, word) IC_B_##e = (build),
	IC_CONTEXT_KEYS(IC_BUILD_ENUM)
#undef IC_BUILD_ENUM
#define IC_BUILD_ONE(e, name, build, word) + ((build) >= 0)
	IC_B_COUNT = 0 IC_CONTEXT_KEYS(IC_BUILD_ONE)
#undef IC_BUILD_ONE
};

/* The key as the JSON spells it: "cpu_model". */
const char *ic_ctx_name(enum ic_ctx k);

/* How a label names it: "flags" for cflags, "LTO" for lto. */
const char *ic_ctx_word(enum ic_ctx k);

/* The context key of build column b (0 <= b < IC_B_COUNT). */
enum ic_ctx ic_ctx_of_build(enum ic_build_key b);

#endif /* IC_CONTEXT_H */
