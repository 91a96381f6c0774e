/* codesize's CSV: a row per point, in the order given, and per group
 * (form, op, layout, order, filler) the bytes of code per site.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "codesize_util.h"

static int cs_same_group(const struct ic_point_id *a, const struct ic_point_id *b)
{
	return a->form == b->form && a->op == b->op && !a->body == !b->body && a->layout == b->layout &&
	       a->order == b->order && a->filler == b->filler;
}

/* Least-squares slope of footprint over sites in pt's group; 0 if one N. */
static int cs_group_slope(const struct cs_run *run, const struct cs_point *pt, double *slope)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0, x0 = pt->id.sites;
	int spread = 0;

	for (size_t i = 0; i < run->npts; i++) {
		const struct cs_point *q = &run->pts[i];
		double x = q->id.sites, y = (double)q->footprint;

		if (!cs_same_group(&q->id, &pt->id))
			continue;
		spread |= q->id.sites != pt->id.sites;
		x -= x0;   /* centred, for precision */
		n++;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	if (!spread)
		return 0;
	*slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	return 1;
}

static void cs_write_csv(FILE *f, const struct cs_run *run)
{
	fputs("form,op,layout,order,seed,sites,footprint_bytes,code_bytes_per_site,"
	      "queue_calls,ops_per_site,inlined_sites,site_functions,filler\n", f);
	for (size_t i = 0; i < run->npts; i++) {
		const struct cs_point *pt = &run->pts[i];
		unsigned ops = cs_ops_per_site(pt);
		uint64_t calls_sites = (pt->queue_calls + ops - 1) / ops;
		uint64_t inlined = calls_sites >= pt->id.sites ? 0 : pt->id.sites - calls_sites;
		double slope;
		char slope_s[32] = "";

		if (cs_group_slope(run, pt, &slope))
			snprintf(slope_s, sizeof slope_s, "%.2f", slope);
		fprintf(f, "%s,%s,%s,%s,%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%s,%" PRIu64 ",%u,%"
			PRIu64 ",%" PRIu64 ",%" PRIu32 "\n",
			ic_form_names[pt->id.form], ic_point_op_name(&pt->id),
			ic_layout_names[pt->id.layout], ic_order_names[pt->id.order],
			pt->id.seed, pt->id.sites, pt->footprint, slope_s, pt->queue_calls,
			ops, inlined, pt->functions, pt->id.filler);
	}
}

void cs_write(const struct cs_run *run)
{
	struct ic_atomic_file af;

	if (!run->out || strcmp(run->out, "-") == 0) {
		cs_write_csv(stdout, run);
		if (fflush(stdout) != 0)
			cs_fail(1, "cannot write stdout: %s", strerror(errno));
		return;
	}
	if (ic_atomic_open(&af, run->out, 0) != 0)
		cs_fail(1, "%s", af.err);
	cs_write_csv(af.f, run);
	if (ic_atomic_commit(&af) != 0)
		cs_fail(1, "%s", af.err);
}
