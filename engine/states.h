/* States: on some machines the same binary runs at one of two speeds, switching while it runs (a
 * Zen 5 guest: inline/extern 1.0 in one, 1.65 in the other), and pooling both gives an interval
 * around a ratio that no process ran at. Per state of state_model.h's model: its share of the time,
 * mean spell, level, ratios, band and crossover; a split that the layout variants or the processes'
 * own offsets explain stays one state (docs/method.md). */
#ifndef IC_STATES_H
#define IC_STATES_H

#include <stddef.h>

#include "series.h"
#include "state_model.h"
#include "steadiness.h"

#define IC_STATES_MIN_PROC 5      /* fewer processes: too small a design for a verdict */
#define IC_STATES_MEMBER 0.8      /* of a state: this share of its repetitions firmly in it */
#define IC_STATES_PROC_SEP 5.0    /* no switch inside: levels this many offset SDs apart */

/* What the states follow: the processes' time order or their layout variants. */
enum ic_states_follows {
	IC_FOLLOWS_NEITHER,
	IC_FOLLOWS_VARIANT,    /* every variant's processes share one state */
	IC_FOLLOWS_TIME,       /* one switch in time: all of one state, then the other */
};

/* What the processes' level did, read without a model (two states: nstates). */
enum ic_states_level {
	IC_LEVEL_UNTESTED,     /* too few processes */
	IC_LEVEL_STEADY,       /* within +-5% for 90% of processes (steadiness.h) */
	IC_LEVEL_UNBOUNDED,    /* no variation shown, none ruled out */
	IC_LEVEL_LAYOUT,       /* processes differ, but each variant's agree: the layouts */
	IC_LEVEL_WANDERS,      /* the processes of one layout differ: the machine moved */
	IC_LEVEL_DRIFTS,       /* ... and a line in time takes away half or more of it */
};

/* "steady", "not bounded", ... */
const char *ic_states_level_name(enum ic_states_level l);

struct ic_state {
	size_t nproc;              /* processes of it (IC_STATES_MEMBER) */
	unsigned long sites;       /* the N its level is given at: where the states part most */
	double level, lo, hi;      /* ratio there, with its 95% interval over processes */
	struct ic_ratio *ratios;   /* per N from its processes only, with band and Holm */
	size_t nratios;
	struct ic_crossover xo;
	double share, share_lo, share_hi;   /* of the time, with its 95% interval */
	double spell_s, spell_lo, spell_hi; /* mean spell in s, with its 95% interval */
};

struct ic_states {
	size_t nproc;              /* the processes of ic_process_ratios, in its order */
	int *state;                /* 0 low, 1 high: where most of its firm repetitions are */
	int *unsteady;             /* 1: switched inside (firm runs of both states) */
	size_t nunsteady;
	size_t nstates;            /* 1 or 2 */
	const char *why;           /* with one: why not two, in a few words */
	struct ic_sm model;        /* the repetitions' model (model.n 0 without times) */
	size_t nuntimed;           /* repetitions without a start time (older runs) */
	struct ic_state st[2];     /* st[0] low, st[1] high; st[0] only with one */
	unsigned char *member[2];  /* by file index < nmember: 1 for each state's processes */
	size_t nmember;
	enum ic_states_follows follows;
	/* Steady before any model? Cochran's Q within variants over N; steadiness.h's where they vary most. */
	enum ic_states_level level;
	double time_q, time_df, time_p;    /* within variants, summed over N */
	struct ic_steady steady;           /* at steady_sites */
	unsigned long steady_sites;
	double spread_lo, spread_hi;       /* ratios, 10th and 90th percentile of processes */
	double trend_share;
	/* One state, though the model found a second in spells too brief for two processes to give its
	 * level (why says its share of the time). */
	int brief;
	char why_buf[256];
};

/* The states of a series' processes pr of group g (compare/baseline of opts). Out of memory exits (kit). */
struct ic_states *ic_states_analyse(const struct ic_process_ratios *pr, const struct ic_group *g,
				    const struct ic_analysis_opts *opts);
void ic_states_free(struct ic_states *s);

/* The process of pr that file unit is; -1 when none. */
long ic_states_proc(const struct ic_process_ratios *pr, size_t unit);

/* The moments behind r[0..n-1], the series' ratios by the model's N index: per N the model's paired
 * repetitions (firmly of state k when k is 0 or 1; all at -1), how often each form was the faster
 * and their ratios' 10th-90th percentile. */
void ic_states_moments(const struct ic_states *s, int k, struct ic_ratio *r, size_t n);

#endif /* IC_STATES_H */
