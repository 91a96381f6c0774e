/* The machine's state at the start of a run: what moves timings and counts
 * and is set outside the suite (frequency governor, boost, SMT, ASLR, the NMI
 * watchdog, perf_event_paranoid, transparent huge pages, load, other busy
 * processes). Read only, no root needed; nothing on the machine is changed.
 *
 * Every item is a key and a text value. A file that is absent or unreadable
 * gives a value starting "not readable" and why (a VM has no cpufreq), never
 * a guess. Keys, in this order:
 *   machine_governor            "performance", "powersave", or a list when the
 *                               CPUs differ ("performance,powersave")
 *   machine_cpufreq_driver      scaling_driver of cpu0 ("intel_pstate", "amd-pstate-epp", ...)
 *   machine_epp                 energy_performance_preference of cpu0, where there is one
 *   machine_boost               "on (intel_pstate)", "off (intel_pstate)", "on (cpufreq)",
 *                               "on (policy)" (per-policy boost files), ...
 *   machine_smt                 "on", "off", "off (notsupported)", ...
 *   machine_aslr                "2", "1" or "0" (kernel.randomize_va_space)
 *   machine_nmi_watchdog        "1" or "0"
 *   machine_perf_event_paranoid the number
 *   machine_thp                 the selected transparent_hugepage/enabled mode
 *   machine_load                "L1 L5 L15 on N CPUs, IC_MSTATE_LOAD_BEFORE" when
 *                               the run sampled it before it started anything
 *                               (IC_MSTATE_ENV_LOADAVG), else "..., IC_MSTATE_LOAD_NOW"
 *                               (then it may hold the run's own build)
 *   machine_busy                "none above 5% of a core over 200 ms", or
 *                               "pid 123 (make) 97%; pid 9 (cc1) 12%", the run's
 *                               own processes left out (IC_MSTATE_ENV_RUN_PID); first,
 *                               another inlinecost measurement holding the
 *                               machine lock (measure_lock.h): "pid 77
 *                               (./run.sh) in /tree since T: another
 *                               inlinecost measurement, holding this
 *                               machine; ..."
 */
#ifndef IC_MACHINE_STATE_READ_H
#define IC_MACHINE_STATE_READ_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define IC_MSTATE_MAX 16
#define IC_MSTATE_VALUE_MAX 320

/* The share of one core above which another process is named. */
#define IC_MSTATE_BUSY_PERCENT 5.0
/* How long the busy-process sample lasts by default. */
#define IC_MSTATE_SAMPLE_MS 200

/* What run.sh samples before it starts anything (set-up, build) and hands to
 * every program of the sweep: the first line of /proc/loadavg, so that the
 * run's own build does not count as other work; and its own pid, whose
 * descendants are the run's processes, never named as other busy ones. */
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

/* Read the state under root (NULL or "" for the real /sys and /proc; a test
 * gives a directory holding fake sys/ and proc/ trees). sample_ms: how long
 * to watch the other processes (0: not sampled, said so in machine_busy);
 * this process, and the run's (IC_MSTATE_ENV_RUN_PID and its descendants),
 * are left out. The load is IC_MSTATE_ENV_LOADAVG's when it is set and
 * well formed. Never fails: what cannot be read says so. */
void ic_mstate_read(const char *root, int sample_ms, struct ic_mstate *ms);

/* The value of key, or NULL when the state has no such key. */
const char *ic_mstate_get(const struct ic_mstate *ms, const char *key);

/* "key=value" lines, one per item, as they are. */
void ic_mstate_print(FILE *f, const struct ic_mstate *ms);

/* One process's CPU time in clock ticks (utime + stime of /proc/PID/stat). */
struct ic_proc_sample {
	pid_t pid, ppid;
	char comm[32];
	unsigned long long ticks;
};

/* Pure: the processes other than self, run and run's descendants (run 0:
 * none; the parents are b's) whose CPU time grew by more than
 * IC_MSTATE_BUSY_PERCENT of a core between samples a and b, seconds apart,
 * at ticks_per_s, busiest first, as "pid 123 (make) 97%; ..." in out; "none
 * above 5% of a core over 200 ms" when there is none. Returns how many. */
int ic_mstate_busy(const struct ic_proc_sample *a, size_t na, const struct ic_proc_sample *b,
		   size_t nb, double seconds, long ticks_per_s, pid_t self, pid_t run, char *out,
		   size_t cap);

/* Pure: machine_load's value from a /proc/loadavg line, the online CPUs
 * (<= 0: unknown) and when it was sampled (IC_MSTATE_LOAD_BEFORE or _NOW).
 * 0 ok, -1 when the line is not a load average (out untouched). */
int ic_mstate_load_text(const char *loadavg, int cpus, const char *when, char *out, size_t cap);

/* Pure: parse one /proc/PID/stat line into *s (pid, comm, ppid, utime + stime).
 * 0 ok, -1 when the line is not of that shape. */
int ic_mstate_parse_stat(const char *line, struct ic_proc_sample *s);

#endif
