/* Probes: short runs that measure the machine itself rather than a call
 * site, registered beside the sites (sites_cases.c) when --run-list names
 * them and listed by --list, never in --plan: the sweep does not run them,
 * the watch does. Names: probe/<name>/real_time/threads:1. One iteration
 * is one of `what`; its time is Google Benchmark's real_time.
 *
 *   clock              64 dependent adds (about 64 cycles anywhere)
 *   locked_same_line   a store, then a locked add to its own 64-byte line
 *   locked_other_line  a store, then a locked add to another line
 *   locked_copies      locked_same_line's pair 32 times in a row, each copy
 *                      at its own address, no call (inline's at N = 16)
 *   call_return        16 calls to a bare return
 *   code_past_l1i      a call into 128 KiB of straight-line NOPs
 */
#ifndef IC_PROBES_H
#define IC_PROBES_H

#include <stdint.h>

#include "gbench_c.h"

#define IC_PROBE_BATCH 64      /* iterations between the library's checks */

struct ic_probe {
	const char *name;
	const char *what;        /* one iteration */
	void (*run)(uint64_t n); /* n iterations */
};

/* Every probe this machine has (none off x86-64), ending in a NULL name. */
extern const struct ic_probe *const ic_probes;

/* The benchmark function; arg is the struct ic_probe. */
void ic_probe_run(icb_state *st, void *arg);

#endif
