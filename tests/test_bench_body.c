/* sites_bench on your own body, examples/kref.c: every form runs
 * at 1 thread, private, N = 16, under the body's name, with its code size;
 * the context names the body and the build; kref (shared OK) offers shared
 * mode, ring (not safe to share) does not.
 * Usage: test_bench_body PATH/TO/sites_bench_body_kref PATH/TO/sites_bench_body_ring */
#include <jansson.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static char out[] = "/tmp/ic-bench-body-XXXXXX";

/* bench args >out/log 2>&1; its exit status. */
static int run(const char *bench, const char *args)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "timeout 60 '%s' %s >'%s/log' 2>&1", bench, args, out);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Does out/log hold this line? */
static int listed(const char *name)
{
	char path[256], line[512];
	int found = 0;

	snprintf(path, sizeof(path), "%s/log", out);
	FILE *f = fopen(path, "r");
	CHECK(f, "no %s", path);
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, strlen(name)) && line[strlen(name)] == '\n';
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	CHECK(argc == 3, "usage: test_bench_body KREF_BENCH RING_BENCH");
	CHECK(mkdtemp(out), "mkdtemp");
	static const char *const forms[] = { "inline", "hint", "extern", "clone", "mark" };
	char args[1024], path[256], name[256];

	CHECK(run(argv[1], "--list --threads=1,2") == 0, "kref --list failed");
	CHECK(listed("sites/inline/kref/chain/seq/16/shared/real_time/threads:2"),
	      "kref (IC_BODY_SHARED_OK) offers no shared mode");
	CHECK(listed("sites/inline/kref/chain/seq/16/private/real_time/threads:2"), "kref: no 2 private threads");
	CHECK(run(argv[2], "--list --threads=1,2") == 0, "ring --list failed");
	CHECK(listed("sites/inline/ring/chain/seq/16/private/real_time/threads:2"), "ring: no 2 private threads");
	CHECK(!listed("sites/inline/ring/chain/seq/16/shared/real_time/threads:2"),
	      "ring is not safe to share, but offers shared mode");

	snprintf(args, sizeof(args), "--threads=1 --modes=private --counters=none "
		 "--benchmark_filter='^sites/[a-z]+/kref/chain/seq/16/private/' --benchmark_min_time=0.01 "
		 "--benchmark_out='%s/r.json' --benchmark_out_format=json", out);
	CHECK(run(argv[1], args) == 0, "kref bench failed (see %s/log)", out);
	snprintf(path, sizeof(path), "%s/r.json", out);
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	CHECK(j, "cannot read %s: %s", path, err.text);

	json_t *c = json_object_get(j, "context");
	const char *body = json_string_value(json_object_get(c, "body"));
	CHECK(body && !strcmp(body, "kref"), "context body is '%s', not kref", body ? body : "(none)");
	static const char *const keys[] = { "compiler", "cflags", "lto" };
	for (size_t k = 0; k < 3; k++)
		CHECK(json_is_string(json_object_get(c, keys[k])), "context has no %s", keys[k]);
	CHECK(strlen(json_string_value(json_object_get(c, "compiler"))) > 0, "context compiler empty");

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		json_t *b, *hit = NULL;
		size_t i;

		snprintf(name, sizeof(name), "sites/%s/kref/chain/seq/16/private/real_time/threads:1", forms[f]);
		json_array_foreach(json_object_get(j, "benchmarks"), i, b)
			if (!strcmp(json_string_value(json_object_get(b, "name")), name))
				hit = b;
		CHECK(hit, "no %s", name);
		CHECK(!json_is_true(json_object_get(hit, "error_occurred")), "%s: %s", name,
		      json_string_value(json_object_get(hit, "error_message")));
		CHECK(json_number_value(json_object_get(hit, "items_per_second")) > 0, "%s: no items", name);
		CHECK(json_number_value(json_object_get(hit, "code_bytes_per_site")) > 0, "%s: no code size", name);
	}
	json_decref(j);
	snprintf(args, sizeof(args), "rm -rf '%s'", out);
	CHECK(system(args) == 0, "rm");
	printf("sites_bench on kref: every form ran under the body's name; ring runs private only\n");
	return 0;
}
