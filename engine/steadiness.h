/* Steadiness: do units (short processes, windows of a long one) vary more than their repetitions'
 * noise allows? y = mu + u + e, u of SD tau (the machine): Cochran's Q, tau by DerSimonian and
 * Laird with its Q-profile interval (Viechtbauer 2007); steady where at its upper end 90% of
 * moments lie within +-margin (not rejecting Q is no evidence of steadiness; this is). AR(1) noise
 * is tested where it is independent. Elasticity: a least-squares slope with Newey and West's error
 * (neighbouring units of a wandering machine are alike). Why each: docs/method.md. */
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

/* The test over y[0..k-1] with se[0..k-1] (> 0). -1 with fewer than IC_STEADY_MIN_UNITS units or
 * a standard error not positive (out is then NAN and not steady). */
int ic_steady_test(const double *y, const double *se, size_t k, double margin, struct ic_steady *out);

/* The share (0..1) of h's tau^2 a line in t takes away (1 - residual tau^2 / tau^2); NAN if h has none or k < 4. */
double ic_steady_trend_share(const double *y, const double *se, const double *t, size_t k,
			     const struct ic_steady *h);

/* Past this a unit's spread says too little of its mean's variance for the estimate to carry it. */
#define IC_STEADY_RHO_MAX 0.9   /* at 3 repetitions, an eighth of what independent ones show */

/* AR(1) of variance 1 at rho: the variance of the mean of n values ((1/n^2) sum over pairs of
 * rho^|i - j|; 1/n at rho 0); n values' mean sum of squares about their mean (n (1 - that)); the
 * covariance of the means of n_a values from rank a and n_b from b; and the sum of neighbours' products about their mean. */
double ic_steady_ar1_mean_var(size_t n, double rho);
double ic_steady_ar1_s0(size_t n, double rho);
double ic_steady_ar1_cov(size_t a, size_t n_a, size_t b, size_t n_b, double rho);
double ic_steady_ar1_s1(size_t n, double rho);

/* n values about their own mean, in time order: s0 their sum of squares, s1 of neighbours' products. */
struct ic_ar1_unit {
	size_t n;
	double s0, s1;
};

/* rho from u[0..k-1] pooled: the rho at which the AR(1) averages of s1 and s0 over them have the
 * ratio their sums have (each series' own mean takes a share of both, most in a short one, which
 * the raw ratio would count as negative correlation). Series of 3 or more count (of 2, s1 is -s0 /
 * 2 whatever rho). In [0, IC_STEADY_RHO_MAX]; 0 without. */
double ic_steady_ar1_rho(const struct ic_ar1_unit *u, size_t k);

/* rho from neighbours' typical squared differences at lags 1 and 2 (ratio 1 + rho), in [0,
 * IC_STEADY_RHO_MAX]; 0 without d1. */
double ic_steady_ar1_rho_lags(double d1, double d2);

/* The test with the units' noise correlated, v[0..k*k-1] their covariance (row-major, symmetric,
 * positive definite; ic_steady_test is its diagonal case). -1 as that, or v not positive definite. */
int ic_steady_test_cov(const double *y, const double *v, size_t k, double margin, struct ic_steady *out);

struct ic_slope {
	size_t k;                  /* units */
	double b, lo, hi;          /* slope, its 95% interval (t with k - 2 df) */
	double se;                 /* Newey-West standard error */
	double r2;                 /* share of y's variance x explains */
	size_t lag;                /* Newey-West's lag */
};

/* y[i] = a + b x[i] over k units in time order. -1 with k < 4 or no spread in x. */
int ic_slope_fit(const double *x, const double *y, size_t k, struct ic_slope *out);

#endif /* IC_STEADINESS_H */
