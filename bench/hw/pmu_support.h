/* Can PAPI count on this machine at all: which CPU this is, whether the
 * libpfm4 loaded with PAPI has its event tables, and whether the kernel
 * shows one core PMU, two (hybrid) or none (a VM without a virtual PMU).
 */
#ifndef IC_PMU_SUPPORT_H
#define IC_PMU_SUPPORT_H

#include <stddef.h>

#define IC_VENDOR_OTHER 0
#define IC_VENDOR_INTEL 1
#define IC_VENDOR_AMD   2

struct ic_cpu_ident {
	int vendor;     /* IC_VENDOR_INTEL, IC_VENDOR_AMD, IC_VENDOR_OTHER */
	int family;     /* cpuid family as displayed: 6, 0x17, 0x19, 0x1a */
	int model;
};

/* Pure: whether libpfm4 of this version (PAPI's perf_event
 * support_version, "4.13") has the event tables of this CPU. 1: it has, or
 * the CPU is not one whose tables are known to be missing; 0: it has not,
 * with one line in why naming the family, model and the libpfm4 version
 * needed (Zen 5, family 0x1a: 4.14 or later). */
int ic_pfm_knows_cpu(const struct ic_cpu_ident *cpu, const char *pfm_version,
		     char *why, size_t why_len);

/* Whether the kernel shows two core PMUs (hybrid Intel: cpu_core and
 * cpu_atom under root/sys/bus/event_source/devices; root NULL or "" for
 * the real one). 1 with one line in why, 0 otherwise. */
int ic_pmu_hybrid(const char *root, char *why, size_t why_len);

/* This CPU's vendor, family and model from CPUID (display family and
 * model); IC_VENDOR_OTHER, 0, 0 off x86. */
void ic_cpu_ident_read(struct ic_cpu_ident *cpu);

/* libpfm4's release ("4.13") from the file name of the libpfm.so loaded
 * in this process (PAPI's support_version is libpfm4's interface version,
 * "4.0" in every release); "" when none is loaded or the name has none. */
void ic_pfm_release(char out[32]);

/* 1 when the kernel shows a core PMU (cpu, or cpu_core on a hybrid CPU). */
int ic_core_pmu_present(void);

#endif
