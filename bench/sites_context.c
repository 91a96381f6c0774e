/* The JSON context, every key through common/context_keys.def's table, and
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
#include "context_keys.def"
#include "gb_json.h"
#include "gbench_c.h"
#include "layout_id.h"
#include "machine_state_read.h"

/* The table's keys, in its order; the writer's own names for them. */
#define CTX_KEY(e, name, build, word) KEY_##e,
#define CTX_NAME(e, name, build, word) #name,
enum ctx_key { IC_CONTEXT_KEYS(CTX_KEY) KEY_COUNT };
static const char *const key_name[KEY_COUNT] = { IC_CONTEXT_KEYS(CTX_NAME) };

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
static char number[KEY_COUNT][32];

static const char *num(enum ctx_key k, long v, int known)
{
	snprintf(number[k], sizeof(number[k]), "%ld", v);
	return known ? number[k] : "";
}

void ic_context_write(const struct ic_context_in *in)
{
	const struct ic_topo_info *topo = in->topo;
	const struct ic_opts *o = in->opts;
	const char *v[KEY_COUNT] = { NULL };
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

	v[KEY_COUNTER_SOURCE] = in->counter_source;
	v[KEY_COUNTER_NOTE] = in->counter_note;
	v[KEY_CPU_MODEL] = topo->cpu_model;
	v[KEY_CORES] = num(KEY_CORES, topo->cores, 1);
	v[KEY_SMT] = topo->smt ? "true" : "false";
	v[KEY_CORE_KINDS] = topo->kinds;     /* hybrid CPUs: the kind threads run on */
	v[KEY_PINNED] = bind_probe_all(max_t, cpus, sizeof(cpus), placement, sizeof(placement))
		? "true" : "false";
	v[KEY_CORES_USED] = cpus;
	v[KEY_PLACEMENT] = placement;
	v[KEY_OVERSUBSCRIBED] = max_t > topo->pus ? "true" : "false";
	v[KEY_L1I_SIZE] = num(KEY_L1I_SIZE, topo->l1i_size, topo->l1i_size > 0);
	v[KEY_L1I_ASSOC] = num(KEY_L1I_ASSOC, topo->l1i_assoc, topo->l1i_assoc > 0);
	v[KEY_L1I_LINE] = num(KEY_L1I_LINE, topo->l1i_line, topo->l1i_line > 0);
	v[KEY_L2_SIZE] = num(KEY_L2_SIZE, topo->l2_size, topo->l2_size > 0);
	v[KEY_L3_SIZE] = num(KEY_L3_SIZE, topo->l3_size, topo->l3_size > 0);
	v[KEY_LOCK] = IC_LOCK_NAME;
	/* How the sites were built: registers, sites per caller. The IC_*_NAME
	 * strings: bench/CMakeLists.txt passes every one. */
	v[KEY_CODEGEN] = IC_CODEGEN_NAME;
	v[KEY_PER_CALLER] = num(KEY_PER_CALLER, in->n_points ? (long)in->points[0]->per_caller : 0,
				   in->n_points > 0);
	/* What the sites call: one body per build, or the queue. */
	v[KEY_BODY] = in->n_points && in->points[0]->body ? in->points[0]->body->name : "queue";
	v[KEY_COMPILER] = IC_COMPILER_NAME;
	v[KEY_CFLAGS] = IC_CFLAGS_NAME;
	v[KEY_LTO] = IC_LTO_NAME;
	v[KEY_PLANTED] = planted;
	/* What moved this process's code and stack. */
	v[KEY_LAYOUT_VARIANT] = o->layout_variant;
	v[KEY_LAYOUT_SEED] = ic_layout_seed;
	v[KEY_ITERATIONS] = o->iters ? "reused" : "estimated";
	v[KEY_PROCESS] = o->process;
	v[KEY_ENV_PAD] = num(KEY_ENV_PAD, pad ? (long)strlen(pad) : 0, 1);
	v[KEY_PROCESS_START] = process_start;
	/* process_end: ic_context_finish, once the run is over. */
	for (int k = 0; k < KEY_COUNT; k++)
		if (v[k])
			icb_add_context(key_name[k], v[k]);

	/* The machine's state at the start (common/machine_state_read.h); IC_MACHINE_ROOT: a fake tree. */
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
	    json_object_set_new(ctx, key_name[KEY_PROCESS_END], json_string(process_end)) != 0)
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
