/* Hand-made Google Benchmark processes: see gbench_doc.h. */
#include "gbench_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "load.h"

void gbench_doc_load(struct ic_results *res, const char *name, json_t *doc, double mtime)
{
	char err[512], *text = json_dumps(doc, 0);

	json_decref(doc);
	CHECK(text, "json_dumps %s", name);
	CHECK(ic_results_load_text(res, name, text, strlen(text), mtime, err, sizeof(err)) == 0,
	      "load %s: %s", name, err);
	free(text);
}

void gbench_process_load(struct ic_results *res, int variant, const struct gbench_entry *e,
			 size_t n)
{
	static int nfiles;
	char name[32], v[16];
	json_t *doc = json_object(), *bench = json_array();

	snprintf(v, sizeof(v), "%d", variant);
	json_object_set_new(doc, "context", json_pack("{s:s, s:s, s:s}", "layout_variant", v,
						      "layout_seed", "7", "counter_source", "none"));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(bench, json_pack("{s:s, s:s, s:i, s:f, s:s}", "name", e[i].name,
						       "run_type", "iteration", "threads", 1,
						       "real_time", e[i].ns, "time_unit", "ns"));
	json_object_set_new(doc, "benchmarks", bench);
	snprintf(name, sizeof(name), "p%d.json", nfiles);
	gbench_doc_load(res, name, doc, nfiles++);
}
