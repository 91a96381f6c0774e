/* The machine's state at the start of a run, from /sys and /proc (read only). */
#define _GNU_SOURCE
#include "machine_state_read.h"
#include "measure_lock.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <glob.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Read the first line of root/rel into buf, trimmed. 0 ok, -1 absent or unreadable. */
static int ms_read_line(const char *root, const char *rel, char *buf, size_t cap)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	if (!(f = fopen(path, "r")))
		return -1;
	ok = fgets(buf, (int)cap, f) != NULL;
	fclose(f);
	for (size_t n = ok ? strlen(buf) : 0; n && isspace((unsigned char)buf[n - 1]);)
		buf[--n] = '\0';
	return ok ? 0 : -1;
}

__attribute__((format(printf, 3, 4)))
static void ms_set(struct ic_mstate *ms, const char *key, const char *fmt, ...)
{
	struct ic_mstate_item *it;
	va_list ap;

	if (ms->n >= IC_MSTATE_MAX)
		return;
	it = &ms->item[ms->n++];
	snprintf(it->key, sizeof(it->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(it->value, sizeof(it->value), fmt, ap);
	va_end(ap);
}

/* A plain file's first line as the value, or "not readable: PATH absent". */
static void ms_file(struct ic_mstate *ms, const char *root, const char *key, const char *rel)
{
	char buf[IC_MSTATE_VALUE_MAX];

	if (ms_read_line(root, rel, buf, sizeof(buf)) == 0 && buf[0])
		ms_set(ms, key, "%s", buf);
	else
		ms_set(ms, key, IC_MSTATE_UNREADABLE ": %s absent", rel);
}

/* The number of online CPUs, from a list like "0-3,5"; -1 when unreadable. */
static int ms_online_cpus(const char *root)
{
	char buf[1024];
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int n = -1;

	if (set && ms_read_line(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) == 0 &&
	    hwloc_bitmap_list_sscanf(set, buf) == 0)
		n = hwloc_bitmap_weight(set);
	hwloc_bitmap_free(set);
	return n > 0 ? n : -1;
}

/* The paths matching root/pattern (none when it cannot be read). */
static void ms_glob(const char *root, const char *pattern, glob_t *g)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s", root, pattern);
	if (glob(path, 0, NULL, g) != 0)
		g->gl_pathc = 0;
}

/* Every CPU's scaling_governor: one value, or the distinct ones. */
static void ms_governor(struct ic_mstate *ms, const char *root)
{
	/* The distinct values, each between commas while they are gathered. */
	char list[IC_MSTATE_VALUE_MAX] = ",", buf[64], item[80];
	glob_t g;

	ms_glob(root, "/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor", &g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		if (ms_read_line("", g.gl_pathv[i], buf, sizeof(buf)) != 0 || !buf[0])
			continue;
		snprintf(item, sizeof(item), ",%s,", buf);
		if (!strstr(list, item))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s,", buf);
	}
	globfree(&g);
	if (list[1]) {
		list[strlen(list) - 1] = '\0';
		ms_set(ms, "machine_governor", "%s", list + 1);
	} else
		ms_set(ms, "machine_governor", IC_MSTATE_UNREADABLE ": no cpufreq under "
		       "/sys/devices/system/cpu/cpu*/ (no frequency driver: usual in a VM, where "
		       "the host sets the clock)");
}

/* Boost: intel_pstate's no_turbo, else cpufreq's global boost, else the
 * per-policy boost files (amd-pstate on recent kernels). */
static void ms_boost(struct ic_mstate *ms, const char *root)
{
	static const struct {
		const char *rel, *by;
		int off_when_0;   /* no_turbo says the opposite of boost */
	} file[] = { { "/sys/devices/system/cpu/intel_pstate/no_turbo", "intel_pstate", 0 },
		     { "/sys/devices/system/cpu/cpufreq/boost", "cpufreq", 1 },
		     { "/sys/devices/system/cpu/cpufreq/policy0/boost", "policy", 1 } };
	char buf[64];

	for (size_t i = 0; i < sizeof(file) / sizeof(file[0]); i++)
		if (ms_read_line(root, file[i].rel, buf, sizeof(buf)) == 0) {
			ms_set(ms, "machine_boost", "%s (%s)",
			       (strcmp(buf, "0") == 0) == file[i].off_when_0 ? "off" : "on", file[i].by);
			return;
		}
	ms_set(ms, "machine_boost", IC_MSTATE_UNREADABLE ": no intel_pstate/no_turbo and no cpufreq "
	       "boost file (no frequency driver, or one that does not say)");
}

static void ms_smt(struct ic_mstate *ms, const char *root)
{
	char active[16], control[32];
	int ha = ms_read_line(root, "/sys/devices/system/cpu/smt/active", active, sizeof(active)) == 0;
	int hc = ms_read_line(root, "/sys/devices/system/cpu/smt/control", control, sizeof(control)) == 0;

	if (!ha)
		ms_set(ms, "machine_smt", IC_MSTATE_UNREADABLE ": /sys/devices/system/cpu/smt/active absent");
	else if (!strcmp(active, "1"))
		ms_set(ms, "machine_smt", "on");
	else if (hc && strcmp(control, "off") && strcmp(control, "on"))
		ms_set(ms, "machine_smt", "off (%s)", control);
	else
		ms_set(ms, "machine_smt", "off");
}

/* The selected mode of "always [madvise] never" (ic_mstate_read's items fit). */
static void ms_thp(struct ic_mstate *ms, const char *root)
{
	char *v = ms->item[ms->n].value, *o, *c;

	ms_file(ms, root, "machine_thp", "/sys/kernel/mm/transparent_hugepage/enabled");
	if ((o = strchr(v, '[')) && (c = strchr(o, ']'))) {
		*c = '\0';
		memmove(v, o + 1, (size_t)(c - o));
	}
}

/* machine_load's value from a /proc/loadavg line; -1 when it is not one. */
static int ms_load_text(const char *loadavg, int cpus, const char *when, char *out, size_t cap)
{
	double l1, l5, l15;

	if (!loadavg || sscanf(loadavg, "%lf %lf %lf", &l1, &l5, &l15) != 3 || l1 < 0 || l5 < 0 ||
	    l15 < 0)
		return -1;
	if (cpus > 0)
		snprintf(out, cap, "%.2f %.2f %.2f on %d CPUs, %s", l1, l5, l15, cpus, when);
	else
		snprintf(out, cap, "%.2f %.2f %.2f, %s", l1, l5, l15, when);
	return 0;
}

/* The load the run sampled before it built anything, else the load now
 * (which holds whatever the run itself did in the last minutes). */
static void ms_load(struct ic_mstate *ms, const char *root)
{
	char buf[256], out[IC_MSTATE_VALUE_MAX];
	int cpus = ms_online_cpus(root);

	if (ms_load_text(getenv(IC_MSTATE_ENV_LOADAVG), cpus, IC_MSTATE_LOAD_BEFORE, out, sizeof(out)) &&
	    (ms_read_line(root, "/proc/loadavg", buf, sizeof(buf)) ||
	     ms_load_text(buf, cpus, IC_MSTATE_LOAD_NOW, out, sizeof(out))))
		snprintf(out, sizeof(out), IC_MSTATE_UNREADABLE ": /proc/loadavg absent");
	ms_set(ms, "machine_load", "%s", out);
}

int ic_mstate_parse_stat(const char *line, struct ic_proc_sample *s)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	unsigned long long ut, st;
	long pid, ppid;
	size_t n;

	if (!open || !close || close < open || sscanf(line, "%ld", &pid) != 1 || pid <= 0)
		return -1;
	/* After "(comm) ": state is field 3, ppid 4; utime and stime are fields 14, 15. */
	if (sscanf(close + 1, " %*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ppid, &ut,
		   &st) != 3)
		return -1;
	s->pid = (pid_t)pid;
	s->ppid = (pid_t)ppid;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(s->comm))
		n = sizeof(s->comm) - 1;
	memcpy(s->comm, open + 1, n);
	s->comm[n] = '\0';
	s->ticks = ut + st;
	return 0;
}

/* Every process's CPU time now; *n set, malloc'd array (NULL when /proc is unreadable). */
static struct ic_proc_sample *ms_sample(const char *root, size_t *n)
{
	char line[4096];
	struct ic_proc_sample *v;
	glob_t g;

	*n = 0;
	snprintf(line, sizeof(line), "%s/proc", root);
	if (access(line, R_OK) != 0)
		return NULL;
	ms_glob(root, "/proc/[0-9]*/stat", &g);
	/* One more: an empty /proc is a sample too. A process gone meanwhile is left out. */
	v = malloc((g.gl_pathc + 1) * sizeof(*v));
	for (size_t i = 0; v && i < g.gl_pathc; i++)
		if (ms_read_line("", g.gl_pathv[i], line, sizeof(line)) == 0 &&
		    ic_mstate_parse_stat(line, &v[*n]) == 0)
			(*n)++;
	globfree(&g);
	return v;
}

struct ms_busy { pid_t pid; const char *comm; double pct; };

static int ms_busy_cmp(const void *a, const void *b)
{
	double x = ((const struct ms_busy *)a)->pct, y = ((const struct ms_busy *)b)->pct;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Whether pid is run or one of its descendants, by the parents in b. */
static int ms_of_run(const struct ic_proc_sample *b, size_t nb, pid_t pid, pid_t run)
{
	/* A chain longer than this is a loop in a torn sample, not a family. */
	for (int depth = 0; run > 0 && pid > 1 && depth < 256; depth++) {
		size_t i;

		if (pid == run)
			return 1;
		for (i = 0; i < nb && b[i].pid != pid; i++)
			;
		if (i == nb)
			return 0;
		pid = b[i].ppid;
	}
	return 0;
}

int ic_mstate_busy(const struct ic_proc_sample *a, size_t na, const struct ic_proc_sample *b,
		   size_t nb, double seconds, long ticks_per_s, pid_t self, pid_t run, char *out,
		   size_t cap)
{
	struct ms_busy *busy = nb ? calloc(nb, sizeof(*busy)) : NULL;
	size_t k = 0;

	for (size_t j = 0; busy && j < nb && seconds > 0 && ticks_per_s > 0; j++) {
		if (b[j].pid == self)
			continue;
		for (size_t i = 0; i < na; i++) {
			if (a[i].pid != b[j].pid || b[j].ticks < a[i].ticks)
				continue;
			double pct = 100.0 * (double)(b[j].ticks - a[i].ticks) / (double)ticks_per_s / seconds;
			if (pct > IC_MSTATE_BUSY_PERCENT && !ms_of_run(b, nb, b[j].pid, run))
				busy[k++] = (struct ms_busy){ b[j].pid, b[j].comm, pct };
			break;
		}
	}
	if (k == 0)
		snprintf(out, cap, "none above %g%% of a core over %.0f ms%s", IC_MSTATE_BUSY_PERCENT,
			 seconds * 1000.0, run > 0 ? " (this run's own processes left out)" : "");
	else
		qsort(busy, k, sizeof(*busy), ms_busy_cmp);
	for (size_t i = 0, len = 0; i < k && len < cap; i++, len = strlen(out))
		snprintf(out + len, cap - len, "%spid %ld (%s) %.0f%%", i ? "; " : "", (long)busy[i].pid,
			 busy[i].comm, busy[i].pct);
	free(busy);
	return (int)k;
}

/* The run's pid (IC_MSTATE_ENV_RUN_PID), 0 when not given or not a pid. */
static pid_t ms_run_pid(void)
{
	const char *v = getenv(IC_MSTATE_ENV_RUN_PID);
	char *end;
	long pid = v ? strtol(v, &end, 10) : 0;

	return pid > 1 && !*end && pid == (pid_t)pid ? (pid_t)pid : 0;
}

static double ms_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* machine_busy: another inlinecost measurement first (the machine lock's
 * holder, in words), then the other processes' CPU use over sample_ms. */
static void ms_busy_procs(struct ic_mstate *ms, const char *root, int sample_ms)
{
	char out[IC_MSTATE_VALUE_MAX] = "not sampled", holder[IC_MSTATE_VALUE_MAX];
	struct ic_proc_sample *a = NULL, *b = NULL;
	size_t na, nb;
	double t0 = ms_now();
	struct timespec d = { sample_ms / 1000, (long)(sample_ms % 1000) * 1000000L };
	int other;

	if (sample_ms > 0 && (a = ms_sample(root, &na))) {
		while (nanosleep(&d, &d) != 0 && errno == EINTR)
			;
		b = ms_sample(root, &nb);
	}
	if (b)
		ic_mstate_busy(a, na, b, nb, ms_now() - t0, sysconf(_SC_CLK_TCK), getpid(), ms_run_pid(), out,
			       sizeof(out));
	else if (sample_ms > 0)
		snprintf(out, sizeof(out), IC_MSTATE_UNREADABLE ": /proc absent");
	free(a);
	free(b);
	other = ic_measure_lock_other(root, holder, sizeof(holder));
	ms_set(ms, "machine_busy", "%s%s%s", other ? holder : "", other ? "; " : "", out);
}


void ic_mstate_read(const char *root, int sample_ms, struct ic_mstate *ms)
{
	char buf[64];

	if (!root)
		root = "";
	ms->n = 0;
	ms_governor(ms, root);
	ms_file(ms, root, "machine_cpufreq_driver", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver");
	/* Only where the driver has one (intel_pstate and amd-pstate in active mode). */
	if (ms_read_line(root, "/sys/devices/system/cpu/cpu0/cpufreq/energy_performance_preference",
			 buf, sizeof(buf)) == 0)
		ms_set(ms, "machine_epp", "%s", buf);
	ms_boost(ms, root);
	ms_smt(ms, root);
	ms_file(ms, root, "machine_aslr", "/proc/sys/kernel/randomize_va_space");
	ms_file(ms, root, "machine_nmi_watchdog", "/proc/sys/kernel/nmi_watchdog");
	ms_file(ms, root, "machine_perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
	ms_thp(ms, root);
	ms_load(ms, root);
	ms_busy_procs(ms, root, sample_ms);
}

const char *ic_mstate_get(const struct ic_mstate *ms, const char *key)
{
	for (size_t i = 0; i < ms->n; i++)
		if (!strcmp(ms->item[i].key, key))
			return ms->item[i].value;
	return NULL;
}

void ic_mstate_print(FILE *f, const struct ic_mstate *ms)
{
	for (size_t i = 0; i < ms->n; i++)
		fprintf(f, "%s=%s\n", ms->item[i].key, ms->item[i].value);
}
