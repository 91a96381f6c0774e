/* Does this machine's PMU, and libpfm4's tables, let PAPI count here? */
#define _GNU_SOURCE
#include "pmu_support.h"

#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* CPUs whose libpfm4 tables came after some release: PAPI 7.0's perf_event
 * component needs libpfm4 to know the core PMU, and without its table
 * counting does not start. Zen 5 (family 1Ah): libpfm4 4.13 has no
 * amd64_fam1ah_zen5 table, the first release after it does. Families past
 * 1Ah: no release known here has them. */
struct ic_pfm_need {
	int vendor, family, model_lo, model_hi;
	int major, minor;          /* first libpfm4 with the table; 0: none known */
	const char *name;
};

static const struct ic_pfm_need ic_pfm_needs[] = {
	/* Family 1Ah: Zen 5 at models 00h-4Fh and 60h-7Fh, later models Zen 6. */
	{ IC_VENDOR_AMD, 0x1a, 0x00, 0x4f, 4, 14, "Zen 5" },
	{ IC_VENDOR_AMD, 0x1a, 0x60, 0x7f, 4, 14, "Zen 5" },
	{ IC_VENDOR_AMD, 0x1a, 0x00, 0xff, 0, 0, "after Zen 5" },
	{ IC_VENDOR_AMD, 0x1b, 0x00, 0xff, 0, 0, "after Zen 5" },
	/* Family 19h: Zen 4 at 10h-1Fh, 60h-7Fh, A0h-AFh (4.13), else Zen 3 (4.12). */
	{ IC_VENDOR_AMD, 0x19, 0x10, 0x1f, 4, 13, "Zen 4" },
	{ IC_VENDOR_AMD, 0x19, 0x60, 0x7f, 4, 13, "Zen 4" },
	{ IC_VENDOR_AMD, 0x19, 0xa0, 0xaf, 4, 13, "Zen 4" },
	{ IC_VENDOR_AMD, 0x19, 0x00, 0xff, 4, 12, "Zen 3" },
	/* Family 17h: Zen 2 from model 30h (4.11), Zen 1 below (4.9). */
	{ IC_VENDOR_AMD, 0x17, 0x30, 0xff, 4, 11, "Zen 2" },
	{ IC_VENDOR_AMD, 0x17, 0x00, 0x2f, 4, 9, "Zen 1" },
};

int ic_pfm_knows_cpu(const struct ic_cpu_ident *cpu, const char *pfm_version,
		     char *why, size_t why_len)
{
	int major = 0, minor = 0, have = pfm_version && sscanf(pfm_version, "%d.%d", &major, &minor) == 2;

	if (why && why_len)
		why[0] = '\0';
	for (size_t i = 0; i < sizeof(ic_pfm_needs) / sizeof(ic_pfm_needs[0]); i++) {
		const struct ic_pfm_need *n = &ic_pfm_needs[i];

		if (cpu->vendor != n->vendor || cpu->family != n->family ||
		    cpu->model < n->model_lo || cpu->model > n->model_hi)
			continue;
		if (n->major && have && (major > n->major || (major == n->major && minor >= n->minor)))
			return 1;
		if (n->major && !have)
			return 1;         /* no version to judge by: let PAPI say */
		if (n->major)
			snprintf(why, why_len, "libpfm4 %d.%d has no event tables for this CPU (%s family "
				 "%#x model %#x, %s): counting needs libpfm4 %d.%d or later and a PAPI "
				 "built with it", major, minor, "AMD", cpu->family, cpu->model, n->name,
				 n->major, n->minor);
		else if (have)
			snprintf(why, why_len, "libpfm4 %d.%d has no event tables for this CPU (AMD family "
				 "%#x model %#x, %s): counting needs a libpfm4 that knows family %#x",
				 major, minor, cpu->family, cpu->model, n->name, cpu->family);
		else
			return 1;
		return 0;
	}
	return 1;
}

int ic_pmu_hybrid(const char *root, char *why, size_t why_len)
{
	char path[4096];
	int core, atom;
	FILE *f;

	if (!root)
		root = "";
	if (why && why_len)
		why[0] = '\0';
	/* The kernel names a hybrid CPU's core PMUs cpu_core and cpu_atom
	 * (a plain CPU has one, "cpu"). */
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/cpu_core/type", root);
	core = (f = fopen(path, "r")) != NULL;
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/cpu_atom/type", root);
	atom = (f = fopen(path, "r")) != NULL;
	if (f)
		fclose(f);
	if (!(core && atom))
		return 0;
	snprintf(why, why_len, "hybrid CPU: two core PMUs (cpu_core for P-cores, cpu_atom for "
		 "E-cores), on which PAPI 7.0 fails with PAPI_ECOUNT; threads are placed on one "
		 "core kind");
	return 1;
}

void ic_cpu_ident_read(struct ic_cpu_ident *cpu)
{
	cpu->vendor = IC_VENDOR_OTHER;
	cpu->family = cpu->model = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char v[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(v, &b, 4);
	memcpy(v + 4, &d, 4);
	memcpy(v + 8, &c, 4);
	v[12] = '\0';
	cpu->vendor = !strcmp(v, "GenuineIntel") ? IC_VENDOR_INTEL
		    : !strcmp(v, "AuthenticAMD") ? IC_VENDOR_AMD : IC_VENDOR_OTHER;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	/* Display family and model (the SDM's and APM's rule). */
	int fam = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	cpu->family = fam;
	cpu->model = model;
#endif
}

/* libpfm4's release, from the file name of the copy loaded with PAPI
 * ("libpfm.so.4.13.0" gives "4.13"): PAPI's support_version is libpfm4's
 * interface version, "4.0" in every release, and says nothing of its
 * tables. "" when no libpfm is loaded or its name has no release. */
static int ic_pfm_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	char real[PATH_MAX], *base, *out = arg;
	int major, minor;

	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libpfm.so"))
		return 0;
	if (!realpath(info->dlpi_name, real))
		snprintf(real, sizeof(real), "%s", info->dlpi_name);
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (sscanf(base, "libpfm.so.%d.%d", &major, &minor) == 2)
		snprintf(out, 32, "%d.%d", major, minor);
	return out[0] != '\0';
}

void ic_pfm_release(char out[32])
{
	out[0] = '\0';
	dl_iterate_phdr(ic_pfm_phdr, out);
}

/* The kernel's core PMU: "cpu", or cpu_core/cpu_atom on a hybrid CPU. */
int ic_core_pmu_present(void)
{
	static const char *const dirs[] = {
		"/sys/bus/event_source/devices/cpu", "/sys/bus/event_source/devices/cpu_core",
	};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (access(dirs[i], F_OK) == 0)
			return 1;
	return 0;
}

