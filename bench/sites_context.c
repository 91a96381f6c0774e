/* The JSON context, every key through common/context_keys.h's table, and
 * the process's start and end. */
#define _GNU_SOURCE
#include "sites_context.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "body.h"
#include "context_keys.h"
#include "gb_json.h"
#include "gbench_c.h"
#include "layout_id.h"
#include "machine_state.h"

/* The build, for the record (bench/CMakeLists.txt passes them). */
#ifndef IC_CODEGEN_NAME
#define IC_CODEGEN_NAME ""
#endif
#ifndef IC_COMPILER_NAME
#define IC_COMPILER_NAME ""
#endif
#ifndef IC_CFLAGS_NAME
#define IC_CFLAGS_NAME ""
#endif
#ifndef IC_LTO_NAME
#define IC_LTO_NAME "off"
#endif

/* "2026-12-04T10:11:12.345Z" */
#define IC_TIME_LEN 32
static char process_start[IC_TIME_LEN], process_end[IC_TIME_LEN];

static void utc_now(char *out)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(out, IC_TIME_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, IC_TIME_LEN - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

void ic_context_begin(void)
{
	utc_now(process_start);
}

void ic_context_end(void)
{
	utc_now(process_end);
}

/* Pinning as this machine allows it: bind one short-lived thread per thread
 * index, as the benchmark threads will, and record what really happened. */
struct bind_probe {
	int index, ok, cpu;
	enum ic_bind_kind kind;
};

static void *bind_probe_main(void *arg)
{
	struct bind_probe *p = arg;
	char why[256];
	p->ok = ic_topo_bind_thread(p->index, &p->cpu, &p->kind, why, sizeof(why)) == 0;
	if (p->ok)
		p->cpu = ic_topo_current_cpu();
	return NULL;
}

/* 1 when every thread index below n could be bound; cpus gets the list and
 * placement how each was placed (core, smt, shared). */
static int bind_probe_all(int n, char *cpus, size_t len, char *placement, size_t plen)
{
	int all = 1;
	size_t used = 0, pused = 0;
	cpus[0] = placement[0] = 0;
	for (int i = 0; i < n; i++) {
		struct bind_probe p = { .index = i, .cpu = -1, .kind = IC_BIND_NONE };
		pthread_t tid;
		if (pthread_create(&tid, NULL, bind_probe_main, &p) != 0 || pthread_join(tid, NULL) != 0)
			p.ok = 0;
		all &= p.ok;
		if (p.ok && used < len)
			used += (size_t)snprintf(cpus + used, len - used, "%s%d", used ? "," : "", p.cpu);
		if (pused < plen)
			pused += (size_t)snprintf(placement + pused, plen - pused, "%s%s", i ? "," : "",
						  ic_bind_kind_name(p.kind));
	}
	return all;
}

/* Room for the keys that are numbers. */
static char number[IC_CTX_COUNT][32];

static const char *num(enum ic_ctx_key k, long v, int known)
{
	snprintf(number[k], sizeof(number[k]), "%ld", v);
	return known ? number[k] : "";
}

void ic_context_write(const struct ic_context_in *in)
{
	const struct ic_topo_info *topo = in->topo;
	const struct ic_opts *o = in->opts;
	const char *v[IC_CTX_COUNT] = { NULL };
	char cpus[512], placement[1024], planted[128] = "";
	int max_t = 0;

	/* Pinning is tried per thread in every run (the label says how each
	 * went); the context says whether every thread asked for can be bound. */
	for (int k = 0; k < o->n_threads; k++)
		if (o->threads[k] > max_t)
			max_t = o->threads[k];
	for (int i = 0; i < o->n_plant; i++)
		snprintf(planted + strlen(planted), sizeof(planted) - strlen(planted), "%s%g", i ? "," : "",
			 o->plant[i]);
	const char *pad = getenv("IC_ENV_PAD");

	v[IC_CTX_COUNTER_SOURCE] = in->counter_source;
	v[IC_CTX_COUNTER_NOTE] = in->counter_note;
	v[IC_CTX_CPU_MODEL] = topo->cpu_model;
	v[IC_CTX_CORES] = num(IC_CTX_CORES, topo->cores, 1);
	v[IC_CTX_SMT] = topo->smt ? "true" : "false";
	v[IC_CTX_CORE_KINDS] = topo->kinds;     /* hybrid CPUs: the kind threads run on */
	v[IC_CTX_PINNED] = bind_probe_all(max_t, cpus, sizeof(cpus), placement, sizeof(placement))
		? "true" : "false";
	v[IC_CTX_CORES_USED] = cpus;
	v[IC_CTX_PLACEMENT] = placement;
	v[IC_CTX_OVERSUBSCRIBED] = max_t > topo->pus ? "true" : "false";
	v[IC_CTX_L1I_SIZE] = num(IC_CTX_L1I_SIZE, topo->l1i_size, topo->l1i_size > 0);
	v[IC_CTX_L1I_ASSOC] = num(IC_CTX_L1I_ASSOC, topo->l1i_assoc, topo->l1i_assoc > 0);
	v[IC_CTX_L1I_LINE] = num(IC_CTX_L1I_LINE, topo->l1i_line, topo->l1i_line > 0);
	v[IC_CTX_L2_SIZE] = num(IC_CTX_L2_SIZE, topo->l2_size, topo->l2_size > 0);
	v[IC_CTX_L3_SIZE] = num(IC_CTX_L3_SIZE, topo->l3_size, topo->l3_size > 0);
	v[IC_CTX_LOCK] = IC_LOCK_NAME;
	/* How the sites were built: registers, sites per caller. */
	v[IC_CTX_CODEGEN] = IC_CODEGEN_NAME;
	v[IC_CTX_PER_CALLER] = num(IC_CTX_PER_CALLER, in->n_points ? (long)in->points[0]->per_caller : 0,
				   in->n_points > 0);
	/* What the sites call: one body per build, or the queue. */
	v[IC_CTX_BODY] = in->n_points && in->points[0]->body ? in->points[0]->body->name : "queue";
	v[IC_CTX_COMPILER] = IC_COMPILER_NAME;
	v[IC_CTX_CFLAGS] = IC_CFLAGS_NAME;
	v[IC_CTX_LTO] = IC_LTO_NAME;
	v[IC_CTX_PLANTED] = planted;
	/* What moved this process's code and stack. */
	v[IC_CTX_LAYOUT_VARIANT] = o->layout_variant;
	v[IC_CTX_LAYOUT_SEED] = ic_layout_seed;
	v[IC_CTX_ITERATIONS] = o->iters ? "reused" : "estimated";
	v[IC_CTX_PROCESS] = o->process;
	v[IC_CTX_ENV_PAD] = num(IC_CTX_ENV_PAD, pad ? (long)strlen(pad) : 0, 1);
	v[IC_CTX_PROCESS_START] = process_start;
	/* process_end: ic_context_finish, once the run is over. */
	for (int k = 0; k < IC_CTX_COUNT; k++)
		if (v[k])
			icb_add_context(ic_ctx_names[k], v[k]);

	/* The machine's state at the start (common/machine_state.h); IC_MACHINE_ROOT: a fake tree. */
	struct ic_mstate mstate;
	ic_mstate_read(getenv("IC_MACHINE_ROOT"), IC_MSTATE_SAMPLE_MS, &mstate);
	for (size_t i = 0; i < mstate.n; i++)
		icb_add_context(mstate.item[i].key, mstate.item[i].value);
}

int ic_context_finish(const char *path, int strip, char *why, size_t why_len)
{
	/* NaN and Infinity are written back as null, as every reader takes them. */
	json_t *root = ic_gb_json_load(path, why, why_len), *ctx;
	struct ic_atomic_file af;
	int rc = -1;

	if (!root)
		return -1;
	if (strip)
		ic_gb_iters_strip_names(root);
	ctx = json_object_get(root, "context");
	if (!json_is_object(ctx) ||
	    json_object_set_new(ctx, ic_ctx_names[IC_CTX_PROCESS_END], json_string(process_end)) != 0)
		snprintf(why, why_len, "%s: no context to add the end time to", path);
	else if (ic_atomic_open(&af, path, 0) != 0)
		snprintf(why, why_len, "%s", af.err);
	else if (json_dumpf(root, af.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
		snprintf(why, why_len, "cannot write %s", path);
		ic_atomic_abort(&af);
	} else if (ic_atomic_commit(&af) != 0)
		snprintf(why, why_len, "%s", af.err);
	else
		rc = 0;
	json_decref(root);
	return rc;
}
