/* The machine's state at the start of a run, from /sys and /proc (read only). */
#define _GNU_SOURCE
#include "machine_state_read.h"
#include "kit.h"
#include "measure_lock.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <glob.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

/* fmt into an item's value v, cut at IC_MSTATE_VALUE_MAX bytes; 0, the item kept. */
__attribute__((format(printf, 2, 3)))
static int ms_say(char *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, IC_MSTATE_VALUE_MAX, fmt, ap);
	va_end(ap);
	return 0;
}

/* A plain file's first line as the value, or "not readable: PATH absent". */
static int ms_file(const char *root, const char *rel, char *v)
{
	if (ms_read_line(root, rel, v, IC_MSTATE_VALUE_MAX) != 0 || !v[0])
		return ms_say(v, IC_MSTATE_UNREADABLE ": %s absent", rel);
	return 0;
}

/* A file's first line where there is one; no item at all where there is none. */
static int ms_file_if_any(const char *root, const char *rel, char *v)
{
	return ms_read_line(root, rel, v, IC_MSTATE_VALUE_MAX);
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

/* Every CPU's scaling_governor (rel's matches): the distinct values, each
 * between commas while gathered. */
static int ms_governor(const char *root, const char *rel, char *v)
{
	char buf[64], item[80];
	glob_t g;

	strcpy(v, ",");
	ms_glob(root, rel, &g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		if (ms_read_line("", g.gl_pathv[i], buf, sizeof(buf)) != 0 || !buf[0])
			continue;
		snprintf(item, sizeof(item), ",%s,", buf);
		if (!strstr(v, item))
			snprintf(v + strlen(v), IC_MSTATE_VALUE_MAX - strlen(v), "%s,", buf);
	}
	globfree(&g);
	if (!v[1])
		return ms_say(v, IC_MSTATE_UNREADABLE ": no cpufreq under /sys/devices/system/cpu/cpu*/ (no "
			      "frequency driver: usual in a VM, where the host sets the clock)");
	v[strlen(v) - 1] = '\0';
	memmove(v, v + 1, strlen(v));
	return 0;
}

/* intel_pstate's no_turbo, else cpufreq's boost, else policy0's (amd-pstate). */
static int ms_boost(const char *root, const char *rel, char *v)
{
	static const struct {
		const char *rel, *by;
		int off_when_0;   /* no_turbo says the opposite of boost */
	} file[] = { { "/sys/devices/system/cpu/intel_pstate/no_turbo", "intel_pstate", 0 },
		     { "/sys/devices/system/cpu/cpufreq/boost", "cpufreq", 1 },
		     { "/sys/devices/system/cpu/cpufreq/policy0/boost", "policy", 1 } };
	char buf[64];

	(void)rel;
	for (size_t i = 0; i < sizeof(file) / sizeof(file[0]); i++)
		if (ms_read_line(root, file[i].rel, buf, sizeof(buf)) == 0)
			return ms_say(v, "%s (%s)", (strcmp(buf, "0") == 0) == file[i].off_when_0 ? "off" : "on",
				      file[i].by);
	return ms_say(v, IC_MSTATE_UNREADABLE ": no intel_pstate/no_turbo and no cpufreq boost file (no "
		      "frequency driver, or one that does not say)");
}

/* SMT from rel (smt/active), with smt/control's reason when it is off. */
static int ms_smt(const char *root, const char *rel, char *v)
{
	char active[16], control[32];

	if (ms_read_line(root, rel, active, sizeof(active)) != 0)
		return ms_say(v, IC_MSTATE_UNREADABLE ": %s absent", rel);
	if (!strcmp(active, "1"))
		return ms_say(v, "on");
	if (!ms_read_line(root, "/sys/devices/system/cpu/smt/control", control, sizeof(control)) &&
	    strcmp(control, "off") && strcmp(control, "on"))
		return ms_say(v, "off (%s)", control);
	return ms_say(v, "off");
}

/* The selected mode of "always [madvise] never". */
static int ms_thp(const char *root, const char *rel, char *v)
{
	char *o, *c;

	ms_file(root, rel, v);
	if ((o = strchr(v, '[')) && (c = strchr(o, ']'))) {
		*c = '\0';
		memmove(v, o + 1, (size_t)(c - o));
	}
	return 0;
}

/* The load the run sampled before it built anything, else now's (which holds
 * what the run itself did in the last minutes). */
static int ms_load(const char *root, const char *rel, char *v)
{
	static const char *const when[] = { IC_MSTATE_LOAD_BEFORE, IC_MSTATE_LOAD_NOW };
	char now[256], on[32] = "";
	const char *line[] = { getenv(IC_MSTATE_ENV_LOADAVG), ms_read_line(root, rel, now, sizeof(now)) ? NULL : now };
	int cpus = ms_online_cpus(root);
	double l1, l5, l15;

	if (cpus > 0)
		snprintf(on, sizeof(on), " on %d CPUs", cpus);
	for (int i = 0; i < 2; i++)
		if (line[i] && sscanf(line[i], "%lf %lf %lf", &l1, &l5, &l15) == 3 && !(l1 < 0 || l5 < 0 || l15 < 0))
			return ms_say(v, "%.2f %.2f %.2f%s, %s", l1, l5, l15, on, when[i]);
	return ms_say(v, IC_MSTATE_UNREADABLE ": %s absent", rel);
}

int ic_mstate_parse_stat(const char *line, struct ic_proc_sample *s)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	unsigned long long ut, st;
	long pid, ppid;

	if (!open || !close || close < open || sscanf(line, "%ld", &pid) != 1 || pid <= 0)
		return -1;
	/* After "(comm) ": state is field 3, ppid 4; utime and stime are fields 14, 15. */
	if (sscanf(close + 1, " %*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ppid, &ut,
		   &st) != 3)
		return -1;
	s->pid = (pid_t)pid;
	s->ppid = (pid_t)ppid;
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)(close - open - 1), open + 1);
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
	v = ic_xrealloc(NULL, g.gl_pathc + 1, sizeof(*v));
	for (size_t i = 0; i < g.gl_pathc; i++)
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
	for (int depth = 0; run > 0 && pid > 0 && depth < 256; depth++) {
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
	struct ms_busy *busy = ic_xrealloc(NULL, nb, sizeof(*busy));
	size_t k = 0;

	for (size_t j = 0; j < nb && seconds > 0 && ticks_per_s > 0; j++) {
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

/* The pid of the first flock on key in root/pattern's files (/proc/locks, or
 * fdinfo/ *); -1 when the kernel does not say it, 0 when none is held. */
static long ms_flock_pid(const char *root, const char *pattern, const char *key)
{
	char line[256], *k, *sp;
	long pid = 0;
	glob_t g;

	ms_glob(root, pattern, &g);
	for (size_t i = 0; !pid && i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");

		while (f && !pid && fgets(line, sizeof(line), f)) {
			/* "1: FLOCK  ADVISORY  WRITE 123 fe:00:1234 0 EOF" ("lock:" first
			 * in fdinfo); "->" lines wait. */
			if (!(k = strstr(line, key)) || !strstr(line, " FLOCK ") || strstr(line, "->"))
				continue;
			*k = '\0';
			sp = strrchr(line, ' ');
			pid = sp ? strtol(sp + 1, NULL, 10) : 0;
			if (pid <= 0)
				pid = -1;   /* held, by a pid the kernel does not say */
		}
		if (f)
			fclose(f);
	}
	globfree(&g);
	return pid;
}

/* 1 and words in v when another inlinecost measurement holds the machine lock (measure_lock.h): not
 * this process (by an inherited descriptor: run.sh's, `flock FILE CMD`'s) nor, by the holder's
 * line, an ancestor. 0 when it is free, ours, or unreadable. */
static int ms_lock_other(const char *root, char *v)
{
	const char *path = ic_measure_lock_path();
	char key[64], record[512];
	struct ic_proc_sample *p;
	size_t n = 0;
	struct stat st;
	long holder, pid;
	int ours;

	if (stat(path, &st) != 0)
		return 0;
	/* The kernel's name of the file in /proc/locks and fdinfo: "fe:00:1234". */
	snprintf(key, sizeof(key), " %02x:%02x:%lu ", major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
	holder = ms_flock_pid(root, "/proc/locks", key);
	/* Held through one of this process's descriptors: ours. */
	if (holder == 0 || ms_flock_pid(root, "/proc/self/fdinfo/*", key))
		return 0;
	pid = ic_measure_holder_read(root, record, sizeof(record));
	p = pid ? ms_sample(root, &n) : NULL;
	ours = pid && ms_of_run(p, n, getpid(), (pid_t)pid);
	free(p);
	if (ours)
		return 0;
	/* The holder's line, else the pid the kernel lists for the lock. */
	if (pid)
		ms_say(v, "%s: another inlinecost measurement, holding this machine", record);
	else
		ms_say(v, "pid %ld: holds the inlinecost machine lock (%s) and left no line saying what it runs",
		       holder, path);
	return 1;
}

/* machine_busy: the lock's other holder first, then other processes' CPU over sample_ms. */
static void ms_busy_procs(const char *root, int sample_ms, char *v)
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
	other = ms_lock_other(root, holder);
	ms_say(v, "%s%s%s", other ? holder : "", other ? "; " : "", out);
}

/* The items before machine_busy, in the header's order: each read from rel
 * under root into its value, left out where its reader returns -1. */
static const struct {
	const char *key, *rel;
	int (*read)(const char *root, const char *rel, char *v);
} ms_items[] = {
	{ "machine_governor", "/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor", ms_governor },
	{ "machine_cpufreq_driver", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", ms_file },
	/* Only where the driver has one (intel_pstate and amd-pstate in active mode). */
	{ "machine_epp", "/sys/devices/system/cpu/cpu0/cpufreq/energy_performance_preference", ms_file_if_any },
	{ "machine_boost", NULL, ms_boost },
	{ "machine_smt", "/sys/devices/system/cpu/smt/active", ms_smt },
	{ "machine_aslr", "/proc/sys/kernel/randomize_va_space", ms_file },
	{ "machine_nmi_watchdog", "/proc/sys/kernel/nmi_watchdog", ms_file },
	{ "machine_perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid", ms_file },
	{ "machine_thp", "/sys/kernel/mm/transparent_hugepage/enabled", ms_thp },
	{ "machine_load", "/proc/loadavg", ms_load },
};
_Static_assert(sizeof(ms_items) / sizeof(ms_items[0]) < IC_MSTATE_MAX, "room for machine_busy");

void ic_mstate_read(const char *root, int sample_ms, struct ic_mstate *ms)
{
	struct ic_mstate_item *it = ms->item;

	if (!root)
		root = "";
	for (size_t i = 0; i < sizeof(ms_items) / sizeof(ms_items[0]); i++) {
		snprintf(it->key, sizeof(it->key), "%s", ms_items[i].key);
		it += ms_items[i].read(root, ms_items[i].rel, it->value) == 0;
	}
	snprintf(it->key, sizeof(it->key), "machine_busy");
	ms_busy_procs(root, sample_ms, it->value);
	ms->n = (size_t)(it - ms->item) + 1;
}

const char *ic_mstate_get(const struct ic_mstate *ms, const char *key)
{
	for (size_t i = 0; i < ms->n; i++)
		if (!strcmp(ms->item[i].key, key))
			return ms->item[i].value;
	return NULL;
}
