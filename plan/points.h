/* What a sweep builds and runs before its processes are ordered: its N,
 * its series and the points of each, from its settings (run.conf's keys)
 * and the machine. The rules the options of ./run.sh --help describe, in
 * one place; scripts/ only carry the values. */
#ifndef IC_PLAN_POINTS_H
#define IC_PLAN_POINTS_H

#include <stddef.h>
#include <stdio.h>

#include "run_conf.h"

/* The default N: powers of two, 1 to 16384. */
#define IC_PLAN_SITES_DEFAULT "1..16384"

/* What the plan needs of the machine: -1 where hwloc does not say. */
struct ic_plan_machine {
	int cores;
	long l1i, l2;
};

/* The N of spec: "A..B" (the powers of two from A to B) or a comma list,
 * sorted and each once, into *out (malloc'd; *n of them). -1 with err on a
 * spec that is neither, or an N outside 1..IC_POINT_SITES_MAX. */
int ic_plan_sites(const char *spec, unsigned long **out, size_t *n, char *err, size_t errlen);

/* The settings left to the plan, as key=value lines on out: first note=
 * lines (what the sweep leaves out, and why), then the defaults (sites,
 * reps, min_time, threads from the cores, layouts_random, processes, a
 * random layout_seed), layouts, orders and fillers as run.conf records
 * them and the series (cases: layout:order:filler:max each, filler auto
 * and the N cap from the machine), last one series= line (the series and
 * forms, in words). A setting already given is kept, so a resumed run
 * resolves to what it was. Nothing is printed when it fails: 1 (the
 * machine lacks what is asked: an L1i size for filler auto), 2 (bad
 * settings), with err. */
int ic_plan_resolve(const struct ic_settings *s, const struct ic_plan_machine *m, FILE *out,
		    char *err, size_t errlen);

/* Every point of the resolved settings as gen's specs, one a line
 * (form:op:layout:order:seed:N[:filler]): each op, series, built form and
 * N, the controls thinned where the N list is the default's. 0, or 2 with
 * err. */
int ic_plan_points(const struct ic_settings *s, FILE *out, char *err, size_t errlen);

/* The watch's sentinel as gen's specs, one a line: each of its forms
 * (engine/watch_forms.def) at N = 16 and 1024, the default op in the
 * chain, in order, so its lock and calls run from the L1i and past it. */
void ic_plan_sentinel(FILE *out);

#endif /* IC_PLAN_POINTS_H */
