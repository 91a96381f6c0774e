/* Planted machines for the simulations: the log level m(t) a machine adds
 * to the times of what it moves, as a path on a fine grid from t = 0, and
 * the noise of one repetition. Header-only: each simulation test includes
 * it once. */
#ifndef IC_TEST_SIM_MACHINE_H
#define IC_TEST_SIM_MACHINE_H

#include <math.h>
#include <stdlib.h>

#include "check.h"

#define SIM_DT 0.01   /* s: well below one repetition (0.015-0.055 s) */

enum sim_kind {
	SIM_STEADY,        /* m = 0 */
	SIM_TWO_STATES,    /* 0 or h, spells exponential, each state's mean 5-60 s */
	SIM_WANDER,        /* Ornstein-Uhlenbeck around 0, SD h, time constant 10-120 s */
	SIM_DRIFT,         /* a straight line from -h/2 to h/2 over the path */
	SIM_THREE_LEVELS,  /* 0, h/2 or h, spells as two states', each jump to either other */
};

struct sim_path {
	double *m;
	size_t n;
	double long_mean;  /* the machine's long-run mean of m (the drift's: its middle) */
	double tau_s;      /* the wander's time constant; the states' mean spell */
};

static inline double sim_uniform(unsigned long long *rng)
{
	return ((double)(ic_test_rand(rng) >> 11) + 0.5) / 9007199254740992.0;
}

static inline double sim_gauss(unsigned long long *rng)
{
	return sqrt(-2.0 * log(sim_uniform(rng))) * cos(2.0 * M_PI * sim_uniform(rng));
}

static inline double sim_exp(unsigned long long *rng, double mean)
{
	return -mean * log(sim_uniform(rng));
}

/* A path of kind over [0, len_s], its parameters drawn from their ranges
 * and the path from its stationary law. */
static inline void sim_path_make(struct sim_path *p, enum sim_kind kind, double h, double len_s,
				 unsigned long long *rng)
{
	p->n = (size_t)(len_s / SIM_DT) + 2;
	p->m = calloc(p->n, sizeof(*p->m));
	CHECK(p->m, "out of memory");
	p->long_mean = 0.0;
	p->tau_s = NAN;
	switch (kind) {
	case SIM_STEADY:
		break;
	case SIM_WANDER: {
		double rho;

		p->tau_s = 10.0 + 110.0 * sim_uniform(rng);
		rho = exp(-SIM_DT / p->tau_s);
		p->m[0] = h * sim_gauss(rng);
		for (size_t i = 1; i < p->n; i++)
			p->m[i] = rho * p->m[i - 1] + h * sqrt(1.0 - rho * rho) * sim_gauss(rng);
		break;
	}
	case SIM_DRIFT:
		for (size_t i = 0; i < p->n; i++)
			p->m[i] = h * ((double)i / (double)(p->n - 1) - 0.5);
		break;
	case SIM_TWO_STATES:
	case SIM_THREE_LEVELS: {
		int nl = kind == SIM_TWO_STATES ? 2 : 3;
		double spell[3], sum = 0.0, u, t_next;
		int s = 0;

		for (int k = 0; k < nl; k++) {
			spell[k] = 5.0 + 55.0 * sim_uniform(rng);
			sum += spell[k];
		}
		/* Each level's long-run share is its mean spell's share (jumps
		 * leave a level for either other one alike). */
		u = sim_uniform(rng) * sum;
		while (s < nl - 1 && u > spell[s])
			u -= spell[s++];
		for (int k = 0; k < nl; k++)
			p->long_mean += spell[k] / sum * h * k / (nl - 1);
		p->tau_s = sum / nl;
		t_next = sim_exp(rng, spell[s]);   /* memoryless: the first spell is whole */
		for (size_t i = 0; i < p->n; i++) {
			while ((double)i * SIM_DT >= t_next) {
				s = nl == 2 ? 1 - s : (s + 1 + (int)(sim_uniform(rng) * 2.0)) % 3;
				t_next += sim_exp(rng, spell[s]);
			}
			p->m[i] = h * s / (nl - 1);
		}
		break;
	}
	}
}

static inline double sim_path_at(const struct sim_path *p, double t)
{
	long i = lround(t / SIM_DT);

	return p->m[i < 0 ? 0 : (size_t)i < p->n ? (size_t)i : p->n - 1];
}

/* The mean of m over [t0, t1]. */
static inline double sim_path_mean(const struct sim_path *p, double t0, double t1)
{
	double s = 0.0;
	size_t k = 0;

	for (double t = t0; t <= t1; t += SIM_DT, k++)
		s += sim_path_at(p, t);
	return k ? s / (double)k : sim_path_at(p, t0);
}

static inline void sim_path_free(struct sim_path *p)
{
	free(p->m);
	p->m = NULL;
}

/* Repetition noise: independent normal, or AR(1) in the order of the
 * repetitions (phi > 0) with the same marginal SD. */
struct sim_noise {
	double sd, phi, prev;
};

static inline double sim_noise_next(struct sim_noise *z, unsigned long long *rng)
{
	z->prev = z->phi * z->prev + z->sd * sqrt(1.0 - z->phi * z->phi) * sim_gauss(rng);
	return z->prev;
}

static inline struct sim_noise sim_noise_start(double sd, double phi, unsigned long long *rng)
{
	return (struct sim_noise){ sd, phi, sd * sim_gauss(rng) };
}

/* Clopper-Pearson's one-sided 95% bounds on a rate from k of n: the upper
 * one (for k = 0, 1 - 0.05^(1/n)) and the lower one; by bisection on the
 * binomial tail. */
static inline double sim_binom_tail_le(size_t k, size_t n, double p)
{
	double s = 0.0;

	/* In logs: (1 - p)^n underflows at thousands of trials. */
	for (size_t i = 0; i <= k; i++)
		s += exp(lgamma((double)n + 1.0) - lgamma((double)i + 1.0) - lgamma((double)(n - i) + 1.0) +
			 (double)i * log(p) + (double)(n - i) * log1p(-p));
	return s;
}

static inline double sim_cp_upper(size_t k, size_t n)
{
	double lo = 0.0, hi = 1.0;

	if (k >= n)
		return 1.0;
	for (int i = 0; i < 60; i++) {
		double mid = 0.5 * (lo + hi);

		if (sim_binom_tail_le(k, n, mid) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

static inline double sim_cp_lower(size_t k, size_t n)
{
	return k == 0 ? 0.0 : 1.0 - sim_cp_upper(n - k, n);
}

#endif
