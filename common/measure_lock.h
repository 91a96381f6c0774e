/* The machine lock: one measurement at a time on a machine, whatever the tree,
 * results directory or user. The driver (sweep/console.c) holds it (flock) around
 * every measuring phase and writes a line saying for whom beside it, in
 * <lock>.holder (the lock itself `exec 9>FILE; flock 9` empties while it waits):
 *   pid <pid> (<command>) in <tree> since <UTC time>
 * Both files are world-writable, so any user's run can take the lock. Here: that
 * line; who else holds the lock, in words, is machine_busy's (machine_state_read.c). */
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
