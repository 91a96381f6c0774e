/* Steadiness and elasticities over units; see steadiness.h. */
#include "steadiness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

/* The generalised Q at tau2 over z with design o (NULL: all 1) and noise variances se^2,
 * independent: the diagonal case as it is, or any covariance in its eigenvectors' coordinates. */
static double steady_qgen(const double *z, const double *o, const double *se, size_t k, double tau2,
			  double *mu)
{
	double sw = 0.0, swy = 0.0, q = 0.0, m;

	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / (se[i] * se[i] + tau2), oi = o ? o[i] : 1.0;

		sw += w * oi * oi;
		swy += w * oi * z[i];
	}
	m = swy / sw;
	for (size_t i = 0; i < k; i++) {
		double e = z[i] - m * (o ? o[i] : 1.0);

		q += e * e / (se[i] * se[i] + tau2);
	}
	if (mu)
		*mu = m;
	return q;
}

/* The tau^2 where generalised Q falls to target (0 if below at 0); Q falls as tau^2 grows: bracket, bisect. */
static double steady_profile(const double *z, const double *o, const double *se, size_t k, double target,
			     double start)
{
	double lo = 0.0, hi = start > 0.0 ? start : 1e-6;

	if (steady_qgen(z, o, se, k, 0.0, NULL) <= target)
		return 0.0;
	while (steady_qgen(z, o, se, k, hi, NULL) > target && hi < 1e12) {
		lo = hi;
		hi *= 4.0;
	}
	for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
		double mid = 0.5 * (lo + hi);

		if (steady_qgen(z, o, se, k, mid, NULL) > target)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* out cleared (NAN, not steady); -1 unless there are IC_STEADY_MIN_UNITS units, each y finite and
 * its noise[i * stride] (an SE or a variance) positive. */
static int steady_start(const double *y, const double *noise, size_t stride, size_t k,
			double margin, struct ic_steady *out)
{
	*out = (struct ic_steady){ .k = k, .margin = margin, .mean = NAN, .q = NAN, .df = NAN,
				   .p = NAN, .tau = NAN, .tau_lo = NAN, .tau_hi = NAN };
	if (k < IC_STEADY_MIN_UNITS)
		return -1;
	for (size_t i = 0; i < k; i++)
		if (!isfinite(y[i]) || !(noise[i * stride] > 0.0))
			return -1;
	return 0;
}

/* The test on z, o, se (steady_qgen's). The moment estimate: Q at 0 has mean k - 1 + tau^2 tr(P),
 * P = W - W o o' W / (o' W o), W = 1 / se^2. */
static void steady_core(const double *z, const double *o, const double *se, size_t k, struct ic_steady *out)
{
	double s1 = 0.0, so = 0.0, so2 = 0.0, tau2;

	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / (se[i] * se[i]), oi = o ? o[i] : 1.0;

		s1 += w;
		so += w * oi * oi;
		so2 += w * w * oi * oi;
	}
	out->df = (double)(k - 1);
	out->q = steady_qgen(z, o, se, k, 0.0, &out->mean);
	out->p = gsl_cdf_chisq_Q(out->q, out->df);
	tau2 = (out->q - out->df) / (s1 - so2 / so);
	out->tau = sqrt(tau2 > 0.0 ? tau2 : 0.0);
	/* The lower end meets the upper quantile, and the other way round. */
	out->tau_lo = sqrt(steady_profile(z, o, se, k, gsl_cdf_chisq_Pinv(0.975, out->df), tau2));
	out->tau_hi = sqrt(steady_profile(z, o, se, k, gsl_cdf_chisq_Pinv(0.025, out->df), tau2));
	out->steady = gsl_cdf_ugaussian_Pinv(0.5 + IC_STEADY_COVER / 2.0) * out->tau_hi <= out->margin;
}

int ic_steady_test(const double *y, const double *se, size_t k, double margin, struct ic_steady *out)
{
	if (steady_start(y, se, 1, k, margin, out))
		return -1;
	steady_core(y, NULL, se, k, out);
	return 0;
}

/* V = E diag(lambda) E': in E's coordinates z = E'y and o = E'1 the noise is independent with
 * variances lambda; y - mu 1 + u becomes z - mu o + E'u, E'u still tau^2 I: the same test, exactly. */
int ic_steady_test_cov(const double *y, const double *v, size_t k, double margin, struct ic_steady *out)
{
	gsl_matrix *e;
	gsl_matrix_view a;
	gsl_vector *lam;
	gsl_eigen_symmv_workspace *ws;
	double *z, *o, *se, top;   /* one block: z, o, se, then a copy of v (the decomposition destroys it) */
	int rc = -1;

	if (steady_start(y, v, k + 1, k, margin, out))
		return -1;
	/* (GSL's allocations and the decomposition fail only by its handler, which aborts) */
	e = gsl_matrix_alloc(k, k);
	lam = gsl_vector_alloc(k);
	ws = gsl_eigen_symmv_alloc(k);
	z = ic_stats_alloc(3 * k + k * k, sizeof(*z));
	o = z + k;
	se = z + 2 * k;
	a = gsl_matrix_view_array(memcpy(z + 3 * k, v, k * k * sizeof(*v)), k, k);
	gsl_eigen_symmv(&a.matrix, lam, e, ws);
	top = fmax(gsl_vector_max(lam), 0.0);
	for (size_t i = 0; i < k; i++) {
		double l = gsl_vector_get(lam, i);

		if (!(l > 1e-12 * top))
			goto out;
		se[i] = sqrt(l);
		for (size_t r = 0; r < k; r++) {
			z[i] += gsl_matrix_get(e, r, i) * y[r];
			o[i] += gsl_matrix_get(e, r, i);
		}
	}
	steady_core(z, o, se, k, out);
	rc = 0;
out:
	gsl_matrix_free(e);
	gsl_vector_free(lam);
	gsl_eigen_symmv_free(ws);
	free(z);
	return rc;
}

double ic_steady_ar1_mean_var(size_t n, double rho)
{
	double s = (double)n, r = 1.0;

	/* n + 2 sum over lags l of (n - l) rho^l, over n^2 */
	for (size_t l = 1; l < n; l++) {
		r *= rho;
		s += 2.0 * (double)(n - l) * r;
	}
	return n ? s / ((double)n * (double)n) : NAN;   /* (a plain 0 / 0 would print as -nan) */
}

double ic_steady_ar1_s0(size_t n, double rho)
{
	return (double)n * (1.0 - ic_steady_ar1_mean_var(n, rho));   /* NAN at n = 0 */
}

double ic_steady_ar1_cov(size_t a, size_t n_a, size_t b, size_t n_b, double rho)
{
	double s = 0.0;

	for (size_t i = a; i < a + n_a; i++)
		for (size_t j = b; j < b + n_b; j++)
			s += pow(rho, (double)(i > j ? i - j : j - i));
	return n_a && n_b ? s / ((double)n_a * (double)n_b) : NAN;   /* NAN without values */
}

/* sum over t of rho - c_t - c_{t+1} + v, c_t = cov(x_t, the mean) = (1/n) sum over s of rho^|t - s|
 * (two geometric sums; rho < 1), v the mean's variance. */
double ic_steady_ar1_s1(size_t n, double rho)
{
	double v = ic_steady_ar1_mean_var(n, rho), e = 0.0, prev = NAN;

	for (size_t t = 0; t < n; t++) {   /* (under two values: no neighbours, 0) */
		double c = ((1.0 - pow(rho, (double)(t + 1))) + rho * (1.0 - pow(rho, (double)(n - 1 - t)))) /
			   ((1.0 - rho) * (double)n);

		if (t > 0)
			e += rho - prev - c + v;
		prev = c;
	}
	return e;
}

/* The ratio of sum s1 to sum s0 AR(1) at rho makes over u, on average. */
static double ar1_ratio(const struct ic_ar1_unit *u, size_t k, double rho)
{
	double e0 = 0.0, e1 = 0.0;

	for (size_t i = 0; i < k; i++)
		if (u[i].n >= 3) {
			e0 += ic_steady_ar1_s0(u[i].n, rho);
			e1 += ic_steady_ar1_s1(u[i].n, rho);
		}
	return e1 / e0;
}

double ic_steady_ar1_rho(const struct ic_ar1_unit *u, size_t k)
{
	double s0 = 0.0, s1 = 0.0, r, lo = 0.0, hi = IC_STEADY_RHO_MAX;

	for (size_t i = 0; i < k; i++)
		if (u[i].n >= 3) {
			s0 += u[i].s0;
			s1 += u[i].s1;
		}
	if (!(s0 > 0.0))
		return 0.0;
	r = s1 / s0;
	/* The expected ratio rises with rho: bisect between the bounds. */
	if (r <= ar1_ratio(u, k, lo))
		return lo;
	if (r >= ar1_ratio(u, k, hi))
		return hi;
	for (int it = 0; it < 50; it++) {
		double mid = 0.5 * (lo + hi);

		if (ar1_ratio(u, k, mid) < r)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double ic_steady_ar1_rho_lags(double d1, double d2)
{
	return d1 > 0.0 && isfinite(d2) ? fmin(fmax(d2 / d1 - 1.0, 0.0), IC_STEADY_RHO_MAX) : 0.0;
}

double ic_steady_trend_share(const double *y, const double *se, const double *t, size_t k,
			     const struct ic_steady *h)
{
	double tc, s[3] = { 0 }, v[3] = { 0 }, sy[2] = { 0 }, det, b0, b1, qe = 0.0, trace, tau2;

	if (k < 4 || !(h->tau > 0.0))
		return NAN;
	tc = gsl_stats_mean(t, 1, k);
	/* X'WX = [s0 s1; s1 s2], X'W^2X = [v0 v1; v1 v2], X'Wy = [sy0 sy1]. */
	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / (se[i] * se[i]), d = t[i] - tc;

		s[0] += w;
		s[1] += w * d;
		s[2] += w * d * d;
		v[0] += w * w;
		v[1] += w * w * d;
		v[2] += w * w * d * d;
		sy[0] += w * y[i];
		sy[1] += w * d * y[i];
	}
	det = s[0] * s[2] - s[1] * s[1];
	if (!(det > 0.0))
		return NAN;
	b0 = (s[2] * sy[0] - s[1] * sy[1]) / det;
	b1 = (s[0] * sy[1] - s[1] * sy[0]) / det;
	for (size_t i = 0; i < k; i++) {
		double e = y[i] - b0 - b1 * (t[i] - tc);

		qe += e * e / (se[i] * se[i]);
	}
	/* tr((X'WX)^-1 X'W^2X), the moment estimator's correction. */
	trace = (s[2] * v[0] - s[1] * v[1] + s[0] * v[2] - s[1] * v[1]) / det;
	tau2 = (qe - (double)(k - 2)) / (s[0] - trace);
	tau2 = 1.0 - fmax(tau2, 0.0) / (h->tau * h->tau);   /* (fmax: a NAN is 0) */
	return tau2 < 0.0 ? 0.0 : tau2;
}

int ic_slope_fit(const double *x, const double *y, size_t k, struct ic_slope *out)
{
	double mx = 0.0, my = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, sse = 0.0, a, omega = 0.0, t;

	*out = (struct ic_slope){ .k = k, .b = NAN, .lo = NAN, .hi = NAN, .se = NAN, .r2 = NAN };
	if (k < 4)
		return -1;
	for (size_t i = 0; i < k; i++) {
		mx += x[i] / (double)k;
		my += y[i] / (double)k;
	}
	for (size_t i = 0; i < k; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (!(sxx > 0.0))
		return -1;
	out->b = sxy / sxx;
	a = my - out->b * mx;
	/* Newey and West's usual lag, 4 (k / 100)^(2/9), at least 1. */
	out->lag = (size_t)fmax(floor(4.0 * pow((double)k / 100.0, 2.0 / 9.0)), 1.0);
	for (size_t i = 0; i < k; i++) {
		double e = y[i] - a - out->b * x[i], g = (x[i] - mx) * e;

		sse += e * e;
		omega += g * g;
		for (size_t l = 1; l <= out->lag && l <= i; l++) {
			double ep = y[i - l] - a - out->b * x[i - l];

			omega += 2.0 * (1.0 - (double)l / (double)(out->lag + 1)) * g * (x[i - l] - mx) * ep;
		}
	}
	/* Bartlett weights keep omega >= 0; k / (k - 2) for the two fitted. */
	out->se = sqrt((omega > 0.0 ? omega : 0.0) * (double)k / (double)(k - 2)) / sxx;
	t = ic_stats_t_quantile(0.975, (double)(k - 2));
	out->lo = out->b - t * out->se;
	out->hi = out->b + t * out->se;
	out->r2 = syy > 0.0 ? 1.0 - sse / syy : NAN;
	return 0;
}
