/* The machine lock: one measurement at a time on a machine, whatever the
 * tree, results directory or user. The driver holds it (flock) around every
 * measuring phase (sweep/locks.c; run.sh's subcommands through `sweep
 * measure`) and writes one line saying for whom into the file beside it,
 * <lock>.holder (not into the lock itself, which `exec 9>FILE; flock 9`
 * empties while it waits):
 *   pid <pid> (<command>) in <tree> since <UTC time>
 * It creates both files world-writable, so any user's run can take the lock
 * and write its line. Here: that line, and whether another measurement
 * holds the lock, in words, for the machine's state (machine_busy). */
#ifndef IC_MEASURE_LOCK_H
#define IC_MEASURE_LOCK_H

#include <stddef.h>

/* One file for the whole machine, and the holder's line beside it. */
#define IC_MEASURE_LOCK_PATH "/tmp/inlinecost-measure.lock"
#define IC_MEASURE_HOLDER_SUFFIX ".holder"

/* The lock's path: $IC_MEASURE_LOCK (tests), else IC_MEASURE_LOCK_PATH. */
const char *ic_measure_lock_path(void);

/* The holder file's path: the lock's with IC_MEASURE_HOLDER_SUFFIX. */
void ic_measure_holder_path(char *out, size_t cap);

/* The holder's line into line ("" when none); its pid when that process
 * runs (under root's /proc, "" the real one), else 0. */
long ic_measure_holder_read(const char *root, char *line, size_t cap);

/* This process's line into the holder file, or nothing (cmdline NULL). */
void ic_measure_holder_write(const char *cmdline, const char *top);

/* Pure: words naming the holder of the lock, from its line (record, may be
 * NULL or empty) and, where that line is not the holder's (record_live 0),
 * the pid the kernel lists for the lock: "pid 123 (./run.sh --quick) in
 * /tree since T: another inlinecost measurement, holding this machine". */
void ic_measure_lock_words(const char *record, int record_live, long lock_pid, char *out, size_t cap);

/* 1 and words in out when another inlinecost measurement holds the lock:
 * neither this process (through a descriptor it inherited: run.sh's, or
 * `flock FILE CMD`'s) nor one of its ancestors by the lock's line. 0 when
 * the lock is free, ours, or cannot be read. root: where /proc is ("" the
 * real one; a test's fake tree has none, so nothing holds it there). */
int ic_measure_lock_other(const char *root, char *out, size_t cap);

#endif
