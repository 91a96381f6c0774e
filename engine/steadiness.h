/* Steadiness: does a quantity measured in several units (short processes,
 * windows of a long one) vary between them more than its repetitions' noise
 * allows? A test with no model of how it varies, to run before any model of
 * states. The units' means y[i], each with its standard error se[i], are
 * read as a random-effects sample, y[i] = mu + u[i] + e[i], with u of SD tau
 * (the machine's variation between units) and e of SD se[i] (noise):
 *
 *   Q       Cochran's Q, sum (y - ybar)^2 / se^2 (ybar weighted by 1 / se^2),
 *           against chi-square with k - 1 degrees of freedom: a p-value for
 *           "no variation beyond the noise"
 *   tau     DerSimonian and Laird's moment estimate, with its 95% interval
 *           by the Q-profile (Viechtbauer 2007): the tau^2 at which the
 *           generalised Q, sum (y - mu(tau^2))^2 / (se^2 + tau^2), meets
 *           chi-square(k - 1)'s 97.5% and 2.5% points
 *   steady  an equivalence test: at the interval's upper end, 90% of moments
 *           lie within +-margin of the mean (z(0.95) tau_hi <= margin). Not
 *           rejecting Q is no evidence of steadiness; this is.
 *
 * Drift: a straight line in time fitted through the units (weighted least
 * squares, the same moment estimate on its residuals); the share of tau^2
 * it takes away.
 *
 * Elasticity: the slope of one quantity's unit means on another's, least
 * squares over the units in time order; its standard error is Newey and
 * West's, which lets neighbouring units' residuals be correlated (a machine
 * that wanders for minutes makes neighbouring windows alike).
 */
#ifndef IC_STEADINESS_H
#define IC_STEADINESS_H

#include <stddef.h>

#define IC_STEADY_MARGIN 0.04879016416943205   /* log(1.05): within +-5% of the mean */
#define IC_STEADY_COVER 0.90                   /* ... for 90% of moments */
#define IC_STEADY_MIN_UNITS 3                  /* fewer units: no test */

struct ic_steady {
	size_t k;                  /* units */
	double mean;               /* the weighted mean of y */
	double q, df, p;           /* Cochran's Q, k - 1, P(chi2(k - 1) >= Q) */
	double tau, tau_lo, tau_hi;   /* the between-unit SD, its 95% Q-profile interval */
	double margin;             /* the equivalence margin used */
	int steady;                /* z(0.95) tau_hi <= margin */
};

/* The test over y[0..k-1] with se[0..k-1] (> 0). -1 with fewer than
 * IC_STEADY_MIN_UNITS units or a standard error not positive (out is then
 * NAN and not steady). */
int ic_steady_test(const double *y, const double *se, size_t k, double margin, struct ic_steady *out);

/* The generalised Q at tau2 (Cochran's at 0), and the weighted mean there. */
double ic_steady_q(const double *y, const double *se, size_t k, double tau2, double *mu);

/* The share (0..1) of h's tau^2 that a straight line in t takes away: 1 -
 * the residual tau^2 over tau^2. NAN when h has no variation or k < 4. */
double ic_steady_trend_share(const double *y, const double *se, const double *t, size_t k,
			     const struct ic_steady *h);

struct ic_slope {
	size_t k;                  /* units */
	double b, lo, hi;          /* slope, its 95% interval (t with k - 2 df) */
	double se;                 /* Newey-West standard error */
	double r2;                 /* share of y's variance x explains */
	size_t lag;                /* Newey-West's lag */
};

/* y[i] = a + b x[i] over k units in time order. -1 with k < 4 or no spread
 * in x. */
int ic_slope_fit(const double *x, const double *y, size_t k, struct ic_slope *out);

#endif /* IC_STEADINESS_H */
