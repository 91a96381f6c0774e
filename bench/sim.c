#define _GNU_SOURCE
#include "sim.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include "atomic_file.h"
#include "kit.h"
#include "queue_extern.h"
#include "site_run.h"

static unsigned sim_passes = IC_SIM_PASSES;

void ic_sim_set_passes(unsigned passes)
{
	sim_passes = passes ? passes : IC_SIM_PASSES;
}

/* FNV-1a over 8-byte words: a rebuilt or relinked binary gets another id. */
int ic_sim_binary_id(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	uint64_t h = UINT64_C(0xcbf29ce484222325), w[4096];
	size_t got;

	if (!f)
		return -1;
	while ((got = fread(w, 1, sizeof(w), f)) > 0) {
		size_t words = (got + 7) / 8;
		if (got % 8)
			memset((char *)w + got, 0, words * 8 - got);
		for (size_t i = 0; i < words; i++) {
			h ^= w[i];
			h *= UINT64_C(0x100000001b3);
		}
		h ^= got;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return -1;
	snprintf(out, len, "%016" PRIx64, h);
	return 0;
}

/* A point's key in the cache and the child's dumps: its name, filler and seed. */
static void sim_key(const struct ic_point *pt, char *buf, size_t len)
{
	snprintf(buf, len, "%s/filler:%u/seed:%u", pt->name, (unsigned)pt->filler, (unsigned)pt->seed);
}

/* One stretch: n passes, then a dump; the same code for every stretch (not
 * inlined, so not unrolled into copies), so two differ by their passes alone. */
static __attribute__((noinline)) void sim_stretch(const struct ic_point *pt, struct ic_site_thread *t,
						  uint64_t n, const char *dump)
{
	for (uint64_t p = 0; p < n; p++)
		pt->pass(&t->ctx);
	CALLGRIND_DUMP_STATS_AT(dump);
}

int ic_sim_child(const struct ic_point *const *points, int argc, char **argv)
{
	for (int a = 0; a < argc; a++) {
		const struct ic_point *pt = NULL;
		char key[320];
		unsigned given;
		if (sscanf(argv[a], "--passes=%u", &given) == 1) {
			ic_sim_set_passes(given);
			continue;
		}
		for (size_t i = 0; points[i]; i++) {
			sim_key(points[i], key, sizeof(key));
			if (strcmp(key, argv[a]) == 0)
				pt = points[i];
		}
		if (!pt)
			return ic_bad("--ic-sim-child: no point %s", argv[a]);
		struct ic_site_thread *t = ic_xalloc(ic_site_thread_new(pt, NULL));
		/* sim.h's four stretches, named before collection starts. */
		char dumps[4][340];
		for (int stretch = 0; stretch < 4; stretch++)
			snprintf(dumps[stretch], sizeof(dumps[stretch]), "%s#%d", argv[a], stretch);
		CALLGRIND_START_INSTRUMENTATION;
		for (int stretch = 0; stretch < 4; stretch++)
			sim_stretch(pt, t, stretch < 3 ? 2 : 2 + (uint64_t)sim_passes, dumps[stretch]);
		CALLGRIND_STOP_INSTRUMENTATION;
		ic_site_thread_free(t);
	}
	return 0;
}

/* One callgrind dump: the trigger's point name, Ir and I1mr of the summary (events: order). */
static int parse_dump(const char *path, char *name, size_t name_len, double *ir, double *i1mr)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int pos_ir = -1, pos_i1mr = -1, got = 0;

	if (!f)
		return -1;
	name[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "desc: Trigger: Client Request: ", 31)) {
			snprintf(name, name_len, "%.339s", line + 31);
		} else if (!strncmp(line, "events:", 7)) {
			int k = 0;
			for (char *tok = strtok(line + 7, " "); tok; tok = strtok(NULL, " "), k++) {
				if (!strcmp(tok, "Ir"))
					pos_ir = k;
				else if (!strcmp(tok, "I1mr"))
					pos_i1mr = k;
			}
		} else if (!strncmp(line, "summary:", 8)) {
			/* The events of the stretch; "totals:" sums the cost lines, which may differ. */
			char *p = strchr(line, ':') + 1;
			for (int k = 0; ; k++) {
				char *end;
				double v = strtod(p, &end);
				if (end == p)
					break;
				if (k == pos_ir)
					*ir = v;
				if (k == pos_i1mr)
					*i1mr = v;
				p = end;
			}
			got = pos_ir >= 0 && pos_i1mr >= 0;
		}
	}
	fclose(f);
	return got && name[0] ? 0 : -1;
}

struct cache_row {
	char binary[32];
	char name[320];
	struct ic_sim_geometry geo;
	struct ic_sim_result res;
};

static size_t cache_load(const char *path, struct cache_row **rows)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	size_t n = 0;
	char line[512];

	*rows = NULL;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct cache_row r = { .res.valid = 1 };
		if (sscanf(line, "%31[^,],%319[^,],%ld,%ld,%ld,%lf,%lf", r.binary, r.name, &r.geo.size,
			   &r.geo.assoc, &r.geo.line, &r.res.instr_per_op, &r.res.l1i_miss_per_op) != 7)
			continue;   /* the header, or a damaged line: simulate again */
		*rows = ic_xrealloc(*rows, n + 1, sizeof(**rows));
		(*rows)[n++] = r;
	}
	fclose(f);
	return n;
}

/* Best effort, silently: a cache not written only means simulating again; the old stays whole. */
static void cache_save(const char *path, const struct cache_row *rows, size_t n)
{
	struct ic_atomic_file af;

	if (ic_atomic_open(&af, path, 0) != 0)
		return;
	fprintf(af.f, "binary,point,l1i_size,l1i_assoc,l1i_line,instr_per_op,l1i_miss_per_op\n");
	for (size_t i = 0; i < n; i++)
		fprintf(af.f, "%s,%s,%ld,%ld,%ld,%.6f,%.6f\n", rows[i].binary, rows[i].name, rows[i].geo.size,
			rows[i].geo.assoc, rows[i].geo.line, rows[i].res.instr_per_op, rows[i].res.l1i_miss_per_op);
	(void)ic_atomic_commit(&af);
}

int ic_sim_run(const struct ic_point *const *points, size_t n, const int *want,
	       const struct ic_sim_geometry *geo, const char *cache_path,
	       struct ic_sim_result *res, char *why, size_t why_len)
{
	struct cache_row *rows;
	size_t n_rows = cache_load(cache_path, &rows), n_run = 0;
	const char **args = ic_xalloc(calloc(n + 16, sizeof(*args)));
	int *shard = ic_xalloc(malloc((n + 1) * sizeof(*shard)));
	char dir[] = "/tmp/ic-sim-XXXXXX", i1[64], self[4096], binary[32] = "", passes[32];
	char (*keys)[320] = ic_xalloc(calloc(n + 1, sizeof(*keys)));
	/* Set once mkdtemp made dir: its name may itself start with an X. */
	const char *made = NULL;
	int rc = -1;

	/* The cache holds this very binary's counts (another build or layout has
	 * other addresses); a row of binary "*" is the ordinary link's, handed to a
	 * layout variant on purpose (run.sh). */
	if (ic_sim_binary_id(binary, sizeof(binary)) != 0) {
		snprintf(why, why_len, "cannot read this program (/proc/self/exe): %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		res[i].valid = 0;
		shard[i] = -1;
		sim_key(points[i], keys[i], sizeof(keys[i]));
		if (!want[i])
			continue;
		for (size_t r = 0; r < n_rows; r++)
			if ((!strcmp(rows[r].binary, binary) || !strcmp(rows[r].binary, "*")) &&
			    !strcmp(rows[r].name, keys[i]) && !memcmp(&rows[r].geo, geo, sizeof(*geo))) {
				res[i] = rows[r].res;
				break;
			}
	}
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0 || !(made = mkdtemp(dir))) {
		snprintf(why, why_len, "cannot prepare the simulation: %s", strerror(errno));
		goto out;
	}
	self[len] = 0;
	/* The points to run, dealt to one single-threaded valgrind per CPU this
	 * process may use (the simulation is not timed), largest first to the
	 * shard with the fewest sites so far. */
	cpu_set_t usable;
	long cpus = sched_getaffinity(0, sizeof(usable), &usable) == 0 ? CPU_COUNT(&usable)
								     : sysconf(_SC_NPROCESSORS_ONLN);
	int n_shards = cpus < 1 ? 1 : cpus > IC_SIM_SHARDS_MAX ? IC_SIM_SHARDS_MAX : (int)cpus;
	uint64_t load[IC_SIM_SHARDS_MAX] = { 0 };
	for (;;) {
		size_t big = n;
		for (size_t i = 0; i < n; i++)
			if (want[i] && !res[i].valid && shard[i] < 0 &&
			    (big == n || points[i]->sites > points[big]->sites))
				big = i;
		if (big == n)
			break;
		int lightest = 0;
		for (int j = 1; j < n_shards; j++)
			if (load[j] < load[lightest])
				lightest = j;
		shard[big] = lightest;
		load[lightest] += points[big]->sites + 64;   /* and a start-up's worth */
		n_run++;
	}
	if (n_run == 0) {
		rc = 0;
		goto out;
	}
	snprintf(i1, sizeof(i1), "--I1=%ld,%ld,%ld", geo->size, geo->assoc, geo->line);
	snprintf(passes, sizeof(passes), "--passes=%u", sim_passes);
	pid_t pids[IC_SIM_SHARDS_MAX];
	int started = 0;
	char fail[200] = "";
	for (int j = 0; j < n_shards && load[j]; j++) {
		char out[128];
		snprintf(out, sizeof(out), "--callgrind-out-file=%s/cg%d.out", dir, j);
		const char *head[] = { "valgrind", "--tool=callgrind", "--cache-sim=yes", i1, "--instr-atstart=no",
			"--dump-instr=no", "--dump-line=no", "-q", out, self, "--ic-sim-child", passes };
		size_t k = sizeof(head) / sizeof(*head);
		memcpy(args, head, sizeof(head));
		for (size_t i = 0; i < n; i++)
			if (shard[i] == j)
				args[k++] = keys[i];
		args[k] = NULL;
		pids[started] = fork();
		if (pids[started] == 0) {
			execvp("valgrind", (char *const *)args);
			_exit(127);
		}
		if (pids[started] < 0) {
			snprintf(fail, sizeof(fail), "cannot start valgrind: %s", strerror(errno));
			break;
		}
		started++;
	}
	/* A shard that cannot start or fails fails the simulation: the others are
	 * stopped, every child reaped before its directory goes. */
	for (int j = 0; j < started; j++) {
		int st = 0;
		pid_t w;
		if (fail[0])
			kill(pids[j], SIGTERM);
		while ((w = waitpid(pids[j], &st, 0)) < 0 && errno == EINTR)
			;
		if (fail[0])
			continue;
		if (w < 0)
			snprintf(fail, sizeof(fail), "cannot wait for valgrind: %s", strerror(errno));
		else if (WIFSIGNALED(st))
			snprintf(fail, sizeof(fail), "valgrind's simulation was killed by signal %d (%s)",
				 WTERMSIG(st), strsignal(WTERMSIG(st)));
		else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			snprintf(fail, sizeof(fail), "valgrind not found (apt-get install valgrind)");
		else if (WIFEXITED(st) && WEXITSTATUS(st))
			snprintf(fail, sizeof(fail), "valgrind's simulation failed (exit status %d)", WEXITSTATUS(st));
	}
	if (fail[0]) {
		snprintf(why, why_len, "%s", fail);
		goto out;
	}
	/* callgrind numbers a shard's dumps cg<j>.out.1, .2, ... in request order:
	 * four per point (ic_sim_child), the last two counted. */
	for (int j = 0; j < started; j++) {
		size_t d = 0;
		for (size_t i0 = 0; i0 < n; i0++) {
			if (shard[i0] != j)
				continue;
			d++;
			char path[256], name[340], want[340];
			double ir[2] = { 0 }, i1mr[2] = { 0 };
			int bad = 0;
			for (int k = 0; k < 2; k++) {   /* stretches 2 and 3, this point's */
				snprintf(path, sizeof(path), "%s/cg%d.out.%zu", dir, j, 4 * d - 1 + k);
				snprintf(want, sizeof(want), "%s#%d", keys[i0], 2 + k);
				bad = bad || parse_dump(path, name, sizeof(name), &ir[k], &i1mr[k]) < 0 ||
				      strcmp(name, want);
			}
			if (bad) {
				snprintf(why, why_len, "valgrind's dumps %s are missing, unreadable or out of order", path);
				goto out;
			}
			double ops = (double)sim_passes * points[i0]->sites;
			res[i0] = (struct ic_sim_result){ 1, (ir[1] - ir[0]) / ops, (i1mr[1] - i1mr[0]) / ops };
			rows = ic_xrealloc(rows, n_rows + 1, sizeof(*rows));
			struct cache_row *r = &rows[n_rows++];
			*r = (struct cache_row){ .geo = *geo, .res = res[i0] };
			snprintf(r->name, sizeof(r->name), "%s", keys[i0]);
			snprintf(r->binary, sizeof(r->binary), "%s", binary);
		}
	}
	if (cache_path)
		cache_save(cache_path, rows, n_rows);
	rc = 0;
out:
	if (made && ic_rm_rf(dir))
		fprintf(stderr, "sites_bench: could not remove %s\n", dir);
	free(args);
	free(shard);
	free(rows);
	free(keys);
	return rc;
}
