/* The machine-state lines of summary.md. */
#include "machine_lines.h"

#include <stdlib.h>
#include <string.h>

#define ML_UNREADABLE "not readable"

struct ml_ok {
	char text[1024];
};

static void ml_fine(struct ml_ok *ok, const char *what, const char *v)
{
	size_t n = strlen(ok->text);
	snprintf(ok->text + n, sizeof(ok->text) - n, "%s%s %s", n ? "; " : "", what, v);
}

static int ml_unreadable(FILE *f, const char *what, const char *v)
{
	if (strncmp(v, ML_UNREADABLE, strlen(ML_UNREADABLE)))
		return 0;
	/* Said as such, never as "ok". */
	const char *why = v + strlen(ML_UNREADABLE);
	while (*why == ':' || *why == ' ')
		why++;
	fprintf(f, "  - %s: not readable%s%s\n", what, *why ? ": " : "", why);
	return 1;
}

/* fix: a command (set in code), or words when it starts with a capital. */
static void ml_fix(FILE *f, const char *what, const char *v, const char *effect, const char *fix)
{
	int words = fix[0] >= 'A' && fix[0] <= 'Z';
	fprintf(f, "  - %s: **%s**: %s. Fix: %s%s%s\n", what, v, effect, words ? "" : "`", fix,
		words ? "" : "`");
}

/* A context key as text, "" when absent; each call its own buffer slot. */
static const char *ml_get(const struct ic_results *res, const char *key)
{
	static char buf[4][IC_RESULTS_CONTEXT_MAX];
	static int k;

	k = (k + 1) % 4;
	return ic_results_context(res, key, buf[k], sizeof(buf[k]));
}

void ic_machine_lines_write(FILE *f, const struct ic_results *res)
{
	static const char *const keys[] = {
		"machine_governor", "machine_boost", "machine_smt", "machine_aslr",
		"machine_nmi_watchdog", "machine_perf_event_paranoid", "machine_thp",
		"machine_load", "machine_busy",
	};
	struct ml_ok ok = { "" };
	const char *v;
	int any = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		any |= *ml_get(res, keys[i]) != '\0';
	if (!any) {
		fputs("- Machine state: not recorded (a run from before the suite recorded it)\n", f);
		return;
	}
	fputs("- Machine state at the start of the run (what moves results, with the command "
	      "that fixes it; nothing was changed):\n", f);

	v = ml_get(res, "machine_governor");
	if (!*v)
		fputs("  - Frequency governor: not recorded\n", f);
	else if (!ml_unreadable(f, "Frequency governor", v)) {
		if (strcmp(v, "performance"))
			ml_fix(f, "Frequency governor", v, "the clock follows the load, so a time depends "
			       "on what ran just before it", "sudo cpupower frequency-set -g performance");
		else
			ml_fine(&ok, "governor", v);
	}
	v = ml_get(res, "machine_epp");
	if (*v && strcmp(v, "performance"))
		ml_fix(f, "Energy-performance preference", v, "the frequency driver trades speed for "
		       "energy", "echo performance | sudo tee "
		       "/sys/devices/system/cpu/cpu*/cpufreq/energy_performance_preference");
	v = ml_get(res, "machine_boost");
	if (*v && !ml_unreadable(f, "Boost (turbo)", v)) {
		if (!strncmp(v, "on", 2)) {
			const char *fix = strstr(v, "intel_pstate")
				? "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"
				: strstr(v, "policy")
				? "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/policy*/boost"
				: "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost";
			ml_fix(f, "Boost (turbo)", v, "the clock depends on temperature and on how many "
			       "cores are busy", fix);
		} else {
			ml_fine(&ok, "boost", v);
		}
	}
	v = ml_get(res, "machine_smt");
	if (*v && !ml_unreadable(f, "SMT", v)) {
		if (!strcmp(v, "on"))
			ml_fix(f, "SMT", v, "work on a sibling thread shares the core's caches and "
			       "decoders (threads are placed one per core first)",
			       "echo off | sudo tee /sys/devices/system/cpu/smt/control");
		else
			ml_fine(&ok, "SMT", v);
	}
	v = ml_get(res, "machine_aslr");
	if (*v && !ml_unreadable(f, "ASLR", v)) {
		if (strcmp(v, "0"))
			ml_fix(f, "ASLR (randomize_va_space)", v, "stack, heap and library addresses "
			       "differ per process, one more spread between processes",
			       "sudo sysctl -w kernel.randomize_va_space=0");
		else
			ml_fine(&ok, "ASLR", "off");
	}
	v = ml_get(res, "machine_nmi_watchdog");
	if (*v && !ml_unreadable(f, "NMI watchdog", v)) {
		if (strcmp(v, "0"))
			ml_fix(f, "NMI watchdog", "on", "it holds a hardware counter, one fewer for PAPI",
			       "sudo sysctl -w kernel.nmi_watchdog=0");
		else
			ml_fine(&ok, "NMI watchdog", "off");
	}
	v = ml_get(res, "machine_perf_event_paranoid");
	if (*v && !ml_unreadable(f, "perf_event_paranoid", v)) {
		if (atoi(v) > 2)
			ml_fix(f, "perf_event_paranoid", v, "counters cannot be read as a user",
			       "sudo sysctl -w kernel.perf_event_paranoid=2");
		else
			ml_fine(&ok, "perf_event_paranoid", v);
	}
	v = ml_get(res, "machine_thp");
	if (*v && !ml_unreadable(f, "Transparent huge pages", v)) {
		if (!strcmp(v, "always"))
			ml_fix(f, "Transparent huge pages", v, "khugepaged may merge pages during a run, "
			       "which moves TLB misses", "echo madvise | sudo tee "
			       "/sys/kernel/mm/transparent_hugepage/enabled");
		else
			ml_fine(&ok, "THP", v);
	}
	v = ml_get(res, "machine_load");
	if (*v && !ml_unreadable(f, "Load average", v)) {
		if (atof(v) >= 0.5)
			ml_fix(f, "Load average", v, "other work ran on this machine over the last "
			       "minute", "Stop it, or measure when the machine is idle (`uptime` shows the load).");
		else
			ml_fine(&ok, "load", v);
	}
	v = ml_get(res, "machine_busy");
	if (*v && !ml_unreadable(f, "Other busy processes", v)) {
		if (!strcmp(v, "not sampled"))
			fputs("  - Other busy processes: not sampled\n", f);
		else if (!strncmp(v, "pid ", 4))
			ml_fix(f, "Other busy processes", v, "they take CPU time and caches from the run",
			       "Stop them (`kill PID`) or wait for them to finish.");
		else
			ml_fine(&ok, "other processes:", v);
	}
	if (ok.text[0])
		fprintf(f, "  - Fine as they are: %s\n", ok.text);
}
