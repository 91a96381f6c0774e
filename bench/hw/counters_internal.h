/* What the counters' files share; callers use counters.h.
 *   counter_events.c   the candidate events per counter and CPU (tables)
 *   counter_choice.c   the choice among them: fixed counters, event sets
 *   counter_combine.c  the canary, absent counts, a run's figures from
 *                      every thread's counts
 *   counter_evset.c    a PAPI event set built from a choice, torn down;
 *                      PAPI's error text
 *   counter_papi.c     PAPI's initialisation, its answer and the note
 *   counter_sets.c     PAPI event sets per thread: opened, started, stopped
 * All but the last three are pure. Uses run one way: counter_sets.c uses
 * counter_papi.c (the choice, through counters_chosen), both use
 * counter_evset.c, and none of them uses a file that uses it back.
 */
#ifndef IC_COUNTERS_INTERNAL_H
#define IC_COUNTERS_INTERNAL_H

#include <stddef.h>

#include "counters.h"

/* ---- counter_events.c --------------------------------------------------- */

/* Fixed counters an event goes on (Intel): 1 + the counter's index. */
#define EVENTS_GP          0   /* needs a general-purpose counter */
#define EVENTS_FIXED_INSTR 1   /* fixed counter 0: retired instructions */
#define EVENTS_FIXED_CYC   2   /* fixed counter 1: unhalted core cycles */

struct events_cand {
	const char *name;   /* NULL ends the list */
	const char *why;    /* at the end: why none, NULL for the default */
	int fixed;          /* EVENTS_GP, EVENTS_FIXED_INSTR or EVENTS_FIXED_CYC */
};

/* The candidates of every counter, for one kind of CPU. */
struct events_cpu {
	const struct events_cand *cand[IC_CTR_COUNT];
};

/* The candidates for this CPU (never NULL: other vendors get presets and
 * the kernel's generic events). */
const struct events_cpu *events_for_cpu(const struct ic_cpu_ident *cpu);

/* ---- counter_choice.c --------------------------------------------------- */

/* Take counter c out of the choice, with why. */
void choice_remove(struct ic_event_choice *ch, int c, const char *why);
/* The per-set counts from sets[] and fixed[]; set 1 keeps the instruction
 * event only while it holds an attribution event. */
void choice_recount(struct ic_event_choice *ch);

/* ---- counter_evset.c ---------------------------------------------------- */

/* PAPI's text for rc, or the number where it has none. */
const char *evset_strerror(int rc);
/* Add the events of ch's set pass (0 or 1) to a fresh event set (on
 * component cidx when it multiplexes); slot[c] is the position of counter c
 * in PAPI's value array, -1 where the event is not in this set or could not
 * be added. The number added, or -1 with the reason in err. */
int evset_build(const struct ic_event_choice *ch, int cidx, int pass, int *evset,
		int slot[IC_CTR_COUNT], char *err, size_t err_len);
/* Tear an event set down, also when PAPI still counts it as running (a
 * PAPI_stop that failed leaves it so: its descriptors stay open and the
 * thread can start no other set). 0 when it is gone; else -1 with the
 * reason in err. */
int evset_drop(int *evset, char *err, size_t err_len);

/* ---- counter_papi.c ----------------------------------------------------- */

/* The note's size (ic_counters_note): every event's name and why fit. */
#define COUNTERS_NOTE_LEN 1536
/* The choice ic_counters_init() made, and PAPI's perf_event component:
 * final once it returned 1; read-only to the sets. */
const struct ic_event_choice *counters_chosen(void);
int counters_component(void);

#endif
