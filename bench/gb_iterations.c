#include "gb_iterations.h"
#include "gb_json.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median wall time (s) of the repetitions of run name in list; 0 when
 * none says. */
static double gb_median_wall_s(json_t *list, const char *name)
{
	double d[64];
	size_t n = 0, i;
	json_t *run;

	json_array_foreach(list, i, run) {
		const char *type = json_string_value(json_object_get(run, "run_type"));
		const char *rn = json_string_value(json_object_get(run, "run_name"));
		json_t *t = json_object_get(run, "real_time"), *it = json_object_get(run, "iterations");
		double unit = ic_gb_unit_ns(json_string_value(json_object_get(run, "time_unit"))) * 1e-9;

		if (!rn)
			rn = json_string_value(json_object_get(run, "name"));
		if (n < sizeof(d) / sizeof(*d) && rn && !strcmp(rn, name) && (!type || !strcmp(type, "iteration")) &&
		    json_is_number(t) && json_is_integer(it) && unit > 0.0)
			d[n++] = json_number_value(t) * unit * (double)json_integer_value(it);
	}
	if (!n)
		return 0.0;
	qsort(d, n, sizeof(*d), gb_cmp_double);
	return n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
}

json_t *ic_gb_iters_load(const char *path, double min_time_s, char *why, size_t why_len)
{
	json_t *root = ic_gb_json_load(path, why, why_len), *list, *run, *it;
	size_t i;

	if (!root)
		return NULL;
	list = json_object_get(root, "benchmarks");
	if (!json_is_array(list)) {
		snprintf(why, why_len, "%s: no \"benchmarks\" list: not Google Benchmark's JSON", path);
		json_decref(root);
		return NULL;
	}
	if (!(it = json_object())) {
		snprintf(why, why_len, "out of memory");
		json_decref(root);
		return NULL;
	}
	json_array_foreach(list, i, run) {
		const char *type = json_string_value(json_object_get(run, "run_type"));
		const char *name = json_string_value(json_object_get(run, "run_name"));
		json_t *n = json_object_get(run, "iterations");
		json_t *threads = json_object_get(run, "threads");
		json_int_t per;
		double wall;

		if (!name)
			name = json_string_value(json_object_get(run, "name"));
		/* Aggregates' "iterations" count repetitions, not loop turns. */
		if (!name || (type && strcmp(type, "iteration") != 0) || !json_is_integer(n) ||
		    json_integer_value(n) < 1 || json_object_get(it, name))
			continue;
		/* The JSON's count is all threads'; Iterations(n) is each thread's. */
		per = json_integer_value(n);
		if (min_time_s > 0.0 && (wall = gb_median_wall_s(list, name)) > 0.0)
			per = (json_int_t)ceil((double)per * min_time_s / wall);
		if (json_is_integer(threads) && json_integer_value(threads) > 1)
			per /= json_integer_value(threads);
		json_object_set_new(it, name, json_integer(per > 0 ? per : 1));
	}
	json_decref(root);
	return it;
}

/* "/iterations:<n>" out of s, in place. */
static int strip_iterations(char *s)
{
	char *p = strstr(s, "/iterations:");
	size_t digits;

	if (!p)
		return 0;
	digits = strspn(p + 12, "0123456789");
	if (digits == 0)
		return 0;
	memmove(p, p + 12 + digits, strlen(p + 12 + digits) + 1);
	return 1;
}

int ic_gb_iters_strip_names(json_t *root)
{
	json_t *run;
	size_t i;
	int changed = 0;

	json_array_foreach(json_object_get(root, "benchmarks"), i, run) {
		const char *keys[] = { "name", "run_name" };
		for (size_t k = 0; k < 2; k++) {
			const char *v = json_string_value(json_object_get(run, keys[k]));
			char *copy = v ? strdup(v) : NULL;
			if (copy && strip_iterations(copy)) {
				json_object_set_new(run, keys[k], json_string(copy));
				changed = 1;
			}
			free(copy);
		}
	}
	return changed;
}
