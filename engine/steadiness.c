/* Steadiness and elasticities over units; see steadiness.h. */
#include "steadiness.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

double ic_steady_q(const double *y, const double *se, size_t k, double tau2, double *mu)
{
	double sw = 0.0, swy = 0.0, q = 0.0, m;

	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / (se[i] * se[i] + tau2);

		sw += w;
		swy += w * y[i];
	}
	m = swy / sw;
	for (size_t i = 0; i < k; i++)
		q += (y[i] - m) * (y[i] - m) / (se[i] * se[i] + tau2);
	if (mu)
		*mu = m;
	return q;
}

/* The tau^2 at which the generalised Q falls to target; 0 where it is
 * already below at 0. Q falls as tau^2 grows: bracket, then bisect. */
static double steady_profile(const double *y, const double *se, size_t k, double target, double start)
{
	double lo = 0.0, hi = start > 0.0 ? start : 1e-6;

	if (ic_steady_q(y, se, k, 0.0, NULL) <= target)
		return 0.0;
	while (ic_steady_q(y, se, k, hi, NULL) > target && hi < 1e12) {
		lo = hi;
		hi *= 4.0;
	}
	for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
		double mid = 0.5 * (lo + hi);

		if (ic_steady_q(y, se, k, mid, NULL) > target)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

int ic_steady_test(const double *y, const double *se, size_t k, double margin, struct ic_steady *out)
{
	double s1 = 0.0, s2 = 0.0, tau2;

	out->k = k;
	out->margin = margin;
	out->mean = out->q = out->df = out->p = NAN;
	out->tau = out->tau_lo = out->tau_hi = NAN;
	out->steady = 0;
	if (k < IC_STEADY_MIN_UNITS)
		return -1;
	for (size_t i = 0; i < k; i++) {
		double w;

		if (!(se[i] > 0.0) || !isfinite(y[i]))
			return -1;
		w = 1.0 / (se[i] * se[i]);
		s1 += w;
		s2 += w * w;
	}
	out->df = (double)(k - 1);
	out->q = ic_steady_q(y, se, k, 0.0, &out->mean);
	out->p = gsl_cdf_chisq_Q(out->q, out->df);
	tau2 = (out->q - out->df) / (s1 - s2 / s1);
	out->tau = sqrt(tau2 > 0.0 ? tau2 : 0.0);
	/* The lower end meets the upper quantile, and the other way round. */
	out->tau_lo = sqrt(steady_profile(y, se, k, gsl_cdf_chisq_Pinv(0.975, out->df), tau2));
	out->tau_hi = sqrt(steady_profile(y, se, k, gsl_cdf_chisq_Pinv(0.025, out->df), tau2));
	out->steady = gsl_cdf_ugaussian_Pinv(0.5 + IC_STEADY_COVER / 2.0) * out->tau_hi <= margin;
	return 0;
}

double ic_steady_trend_share(const double *y, const double *se, const double *t, size_t k,
			     const struct ic_steady *h)
{
	double tc = 0.0, s[3] = { 0 }, v[3] = { 0 }, sy[2] = { 0 }, det, b0, b1, qe = 0.0, trace, tau2;

	if (k < 4 || !(h->tau > 0.0))
		return NAN;
	for (size_t i = 0; i < k; i++)
		tc += t[i] / (double)k;
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
	tau2 = tau2 > 0.0 ? tau2 : 0.0;
	tau2 = 1.0 - tau2 / (h->tau * h->tau);
	return tau2 < 0.0 ? 0.0 : tau2;
}

int ic_slope_fit(const double *x, const double *y, size_t k, struct ic_slope *out)
{
	double mx = 0.0, my = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, sse = 0.0, a, omega = 0.0, t;

	out->k = k;
	out->b = out->lo = out->hi = out->se = out->r2 = NAN;
	out->lag = 0;
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
	out->lag = (size_t)floor(4.0 * pow((double)k / 100.0, 2.0 / 9.0));
	out->lag = out->lag ? out->lag : 1;
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
