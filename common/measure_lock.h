/* The machine lock: one measurement at a time on a machine, whatever the tree, results or user. The
 * driver (sweep/console.c) flocks it around each measuring phase and says for whom in <lock>.holder
 * (`exec 9>FILE; flock 9` empties the lock itself while it waits), in the line "pid <pid>
 * (<command>) in <tree> since <UTC time>". Both world-writable, so any user's run can take it.
 * Here: that line; who else holds the lock, in words, is machine_busy's (machine_state_read.c). */
#ifndef IC_MEASURE_LOCK_H
#define IC_MEASURE_LOCK_H

#include <stddef.h>

/* One file for the whole machine, and the holder's line beside it. */
#define IC_MEASURE_LOCK_PATH "/tmp/inlinecost-measure.lock"
#define IC_MEASURE_HOLDER_SUFFIX ".holder"

/* The lock's path: $IC_MEASURE_LOCK (tests), else IC_MEASURE_LOCK_PATH. */
const char *ic_measure_lock_path(void);

/* The holder's line ("" when none); its pid when that process runs (under
 * root's /proc, "" the real one), else 0. */
long ic_measure_holder_read(const char *root, char *line, size_t cap);

/* This process's line into the holder file, or nothing (cmdline NULL). */
void ic_measure_holder_write(const char *cmdline, const char *top);

#endif
