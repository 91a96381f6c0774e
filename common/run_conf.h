/* run.conf: a run's settings, key=value lines (blank lines and # comments pass),
 * data, never code. run.sh writes it; the plan, runs and history read it here. */
#ifndef IC_RUN_CONF_H
#define IC_RUN_CONF_H

#include <stddef.h>
#include <stdio.h>

struct ic_setting {
	char *key, *value;      /* one allocation, freed with key */
};

struct ic_settings {
	struct ic_setting *v;   /* in the file's order */
	size_t n;
};

/* Appends text's settings (what names it in errors); -1 with one line in err on
 * a line not key=value (key: a-z, 0-9, _). */
int ic_settings_parse(struct ic_settings *s, const char *text, size_t len, const char *what,
		      char *err, size_t errlen);

/* The same from a stream or a file; -1 with err when it cannot be read. */
int ic_settings_read(struct ic_settings *s, FILE *f, const char *what, char *err, size_t errlen);
int ic_settings_load(struct ic_settings *s, const char *path, char *err, size_t errlen);

/* A setting's value, "" when absent; the last line wins, as in a shell. */
const char *ic_settings_get(const struct ic_settings *s, const char *key);

/* key set to value, in its line or a new one (out of memory exits, kit). */
void ic_settings_set(struct ic_settings *s, const char *key, const char *value);

void ic_settings_free(struct ic_settings *s);

#endif /* IC_RUN_CONF_H */
