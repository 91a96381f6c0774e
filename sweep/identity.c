/* A run's identity (driver.h): what its numbers depend on besides the
 * options, as run.conf keeps it: build_source, build_cc, build_cflags and
 * build_lock. A new run records it; a resumed one must find the same, so
 * that one answer never mixes two builds. */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

/* The parts of the tree the bench is built from. */
static const char parts[] = "CMakeLists.txt cmake common queue gen codesize bench cmd plan";

static uint64_t hash;

/* FNV-1a, 64 bits: an identity to tell trees apart, not a seal. */
static void hash_bytes(const char *p, size_t n)
{
	while (n--)
		hash = (hash ^ (unsigned char)*p++) * 0x100000001b3ull;
}

/* A file's name and content into the hash ("" for one that cannot be read). */
static void hash_file(const char *top, const char *name)
{
	char *path = sw_fmt("%s/%s", top, name), *text;
	size_t len = 0;

	text = ic_read_path(path, &len);
	hash_bytes(name, strlen(name) + 1);
	hash_bytes(text ? text : "", text ? len : 0);
	free(text), free(path);
}

static const char *walk_top;
static char **walk_names;
static size_t walk_n;

static int walk_add(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (flag == FTW_F) {
		walk_names = ic_xrealloc(walk_names, walk_n + 1, sizeof(*walk_names));
		walk_names[walk_n++] = ic_xalloc(strdup(path + strlen(walk_top) + 1));
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The bench's sources by content: git's tracked and untracked files of the
 * parts (uncommitted edits count; a README edit does not), or every file
 * of them outside a checkout; then the body. 16 hex digits. */
static char *source_hash(const struct sweep *sw)
{
	char *top = ic_xalloc(calloc(4 * strlen(sw->top) + 1, 1)), *cmd, *line = NULL, *word, *save;
	char *list = ic_xalloc(strdup(parts));
	size_t cap = 0, k = 0;
	FILE *p;

	for (const char *c = sw->top; *c; c++)   /* in sh's single quotes, a ' as '\'' */
		k += (size_t)sprintf(top + k, *c == '\'' ? "'\\''" : "%c", *c);
	cmd = sw_fmt("cd '%s' && git rev-parse --is-inside-work-tree >/dev/null 2>&1 && "
		     "git ls-files -z -co --exclude-standard -- %s", top, parts);
	p = popen(cmd, "r");
	hash = 0xcbf29ce484222325ull;
	walk_top = sw->top, walk_n = 0;
	while (p && getdelim(&line, &cap, 0, p) > 0) {   /* (names as they are, NUL-ended) */
		walk_names = ic_xrealloc(walk_names, walk_n + 1, sizeof(*walk_names));
		walk_names[walk_n++] = ic_xalloc(strdup(line));
	}
	if (p && pclose(p) != 0)   /* no checkout, or git failed: the files as they are */
		while (walk_n)
			free(walk_names[--walk_n]);
	if (!walk_n)
		for (word = strtok_r(list, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
			char *path = sw_fmt("%s/%s", sw->top, word);

			nftw(path, walk_add, 16, FTW_PHYS);
			free(path);
		}
	qsort(walk_names, walk_n, sizeof(*walk_names), by_name);
	for (size_t i = 0; i < walk_n; i++) {
		hash_file(sw->top, walk_names[i]);
		free(walk_names[i]);
	}
	if (*sw_get(sw, "body"))
		hash_file("", sw_get(sw, "body") + 1);   /* (absolute: "" and the rest) */
	free(walk_names), free(line), free(list), free(cmd), free(top);
	walk_names = NULL;
	return sw_fmt("%016llx", (unsigned long long)hash);
}

/* Each build's compiler as its first line of --version says it, once. */
static char *compilers(const struct sweep *sw)
{
	char *all = ic_xalloc(strdup(""));

	for (size_t b = 0; b < sw->n_tree; b++) {
		const char *cc = *sw->tree[b].cc ? sw->tree[b].cc : "cc";
		int seen = 0;

		for (size_t a = 0; a < b; a++)
			seen |= !strcmp(cc, *sw->tree[a].cc ? sw->tree[a].cc : "cc");
		if (seen)
			continue;
		/* (run.sh let through only a compiler's name: letters, digits, ._+-) */
		char *cmd = sw_fmt("%s --version 2>/dev/null", cc), *line = NULL, *was = all;
		size_t cap = 0;
		FILE *p = popen(cmd, "r");

		if (!p || getline(&line, &cap, p) <= 0)
			free(line), line = NULL;
		if (p)
			pclose(p);
		if (line)
			line[strcspn(line, "\n")] = 0;
		all = sw_fmt("%s%s%s", was, *was ? "; " : "", line ? line : "");
		free(was), free(cmd), free(line);
	}
	return all;
}

void sw_identity(struct sweep *sw)
{
	char *source = source_hash(sw), *cc = compilers(sw), *lock = ic_xalloc(strdup(sw_get(sw, "build_lock")));

	if (!sw->resume) {
		const char *cflags = sw_get(sw, "cflags_list");
		char *all = sw_fmt("%s%s", *cflags ? cflags : "-O2 -g (CMAKE_C_FLAGS_RELEASE)",
				   sw_long(sw, "lto") ? " with LTO of the callers" : "");

		sw_set(sw, "build_source", source);
		sw_set(sw, "build_cc", cc);
		sw_set(sw, "build_cflags", all);
		free(all);
	} else {
		const char *dir = sw_get(sw, "resume");

		sw_read_build_lock(sw);   /* the tree's, as it is now */
		if (strcmp(source, sw_get(sw, "build_source")))
			sw_fail("--resume: %s was measured from other code (source %s, this tree %s): a resumed sweep "
				"must not mix builds", dir, sw_get(sw, "build_source"), source);
		if (strcmp(cc, sw_get(sw, "build_cc")))
			sw_fail("--resume: %s was built with '%s', this machine has '%s'", dir, sw_get(sw, "build_cc"), cc);
		if (strcmp(lock, sw_get(sw, "build_lock")))
			sw_fail("--resume: %s used lock %s, the build has %s", dir, lock, sw_get(sw, "build_lock"));
	}
	free(source), free(cc), free(lock);
}
