/* The machine's state at a run's start: what moves timings and counts and is set outside the suite.
 * Read only, without root. Each item is a key and a text value; what cannot be read says "not
 * readable" and why (a VM has no cpufreq), never a guess. Keys, in this order:
 *   machine_governor            "performance", or the CPUs' distinct ones: "performance,powersave"
 *   machine_cpufreq_driver      cpu0's scaling_driver ("intel_pstate", "amd-pstate-epp", ...)
 *   machine_epp                 cpu0's energy_performance_preference, where there is one
 *   machine_boost               "on (intel_pstate)", "off (cpufreq)", "on (policy)", ...
 *   machine_smt                 "on", "off", "off (notsupported)", ...
 *   machine_aslr                kernel.randomize_va_space: "2", "1" or "0"
 *   machine_nmi_watchdog        "1" or "0"
 *   machine_perf_event_paranoid the number
 *   machine_thp                 the selected transparent_hugepage/enabled mode
 *   machine_load                "L1 L5 L15 on N CPUs, " and IC_MSTATE_LOAD_BEFORE or _NOW
 *                               (then it may hold the run's own build)
 *   machine_busy                "pid 123 (make) 97%; pid 9 (cc1) 12%" or "none above 5% of a core
 *                               over 200 ms", the run's own processes left out; first, another
 *                               inlinecost measurement holding the machine lock (measure_lock.h) */
#ifndef IC_MACHINE_STATE_READ_H
#define IC_MACHINE_STATE_READ_H

#include <stddef.h>
#include <sys/types.h>

#define IC_MSTATE_MAX 16
#define IC_MSTATE_VALUE_MAX 320

/* The share of one core above which another process is named. */
#define IC_MSTATE_BUSY_PERCENT 5.0
/* How long the busy-process sample lasts by default. */
#define IC_MSTATE_SAMPLE_MS 200

/* What run.sh samples before it starts anything, for the sweep's programs: /proc/loadavg, so its
 * own build is not other work, and its pid, whose descendants machine_busy never names. */
#define IC_MSTATE_ENV_LOADAVG "IC_RUN_LOADAVG"
#define IC_MSTATE_ENV_RUN_PID "IC_RUN_PID"
/* How machine_load ends: when it was sampled. */
#define IC_MSTATE_LOAD_BEFORE "sampled before the run started"
#define IC_MSTATE_LOAD_NOW "sampled as this process started"

/* The prefix of every value that could not be read. */
#define IC_MSTATE_UNREADABLE "not readable"

struct ic_mstate_item {
	char key[32];
	char value[IC_MSTATE_VALUE_MAX];
};

struct ic_mstate {
	size_t n;
	struct ic_mstate_item item[IC_MSTATE_MAX];
};

/* The state under root (NULL or "": the real /sys and /proc; else a test's
 * fake trees), the other processes watched sample_ms (0: not sampled); the
 * load IC_MSTATE_ENV_LOADAVG's when well formed. Never fails. */
void ic_mstate_read(const char *root, int sample_ms, struct ic_mstate *ms);

/* The value of key, or NULL when the state has no such key. */
const char *ic_mstate_get(const struct ic_mstate *ms, const char *key);

/* One process's CPU time in clock ticks (utime + stime of /proc/PID/stat). */
struct ic_proc_sample {
	pid_t pid, ppid;
	char comm[32];
	unsigned long long ticks;
};

/* Pure: into out, busiest first, machine_busy's processes whose CPU time grew
 * by more than IC_MSTATE_BUSY_PERCENT of a core from sample a to b, seconds
 * apart; not self, run nor run's descendants by b's parents (run 0: none). How many. */
int ic_mstate_busy(const struct ic_proc_sample *a, size_t na, const struct ic_proc_sample *b,
		   size_t nb, double seconds, long ticks_per_s, pid_t self, pid_t run, char *out,
		   size_t cap);

/* Pure: one /proc/PID/stat line into *s. 0 ok, -1 when it is not of that shape. */
int ic_mstate_parse_stat(const char *line, struct ic_proc_sample *s);

#endif
