#include "state_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

#define SM_MAX_ITER 300
#define SM_TOL 1e-7                /* per observation, of the log-likelihood */
#define SM_MIN_SIGMA 1e-4          /* 0.01% in the ratio: no noise is never fitted */
#define SM_MIN_RATE 1e-9           /* per s: a state that never ends */

const char *ic_sm_why_name(enum ic_sm_why why)
{
#define SM_WHY_NAME(e, name) name,
	static const char *const name[] = { IC_SM_WHYS(SM_WHY_NAME) };

	return name[why];
}

static int sm_cmp_t(const void *pa, const void *pb)
{
	const struct ic_sm_obs *a = pa, *b = pb;

	return (a->t > b->t) - (a->t < b->t);
}

/* log of the t density (IC_SM_NU) of y about mu, scale sigma of log log_sigma (the EM takes it once). */
static double sm_logpdf_ls(double y, double mu, double sigma, double log_sigma)
{
	static double c = NAN;
	double z = (y - mu) / sigma, nu = IC_SM_NU;

	if (isnan(c))
		c = gsl_sf_lngamma((nu + 1.0) / 2.0) - gsl_sf_lngamma(nu / 2.0) - 0.5 * log(nu * M_PI);
	return c - log_sigma - (nu + 1.0) / 2.0 * log1p(z * z / nu);
}

/* The t's EM weight of y: (nu + 1) / (nu + z^2). */
static double sm_weight(double y, double mu, double sigma)
{
	double z = (y - mu) / sigma;

	return (IC_SM_NU + 1.0) / (IC_SM_NU + z * z);
}

/* The chain's transition probabilities over dt: p[s][s']; returns e^(-(a+b) dt). */
static double sm_trans(const double rate[2], double dt, double p[2][2])
{
	double a = rate[0], b = rate[1], s = a + b, e = exp(-s * dt);

	p[0][1] = a * (1.0 - e) / s;
	p[0][0] = 1.0 - p[0][1];
	p[1][0] = b * (1.0 - e) / s;
	p[1][1] = 1.0 - p[1][0];
	return e;
}

/* The EM's work at observation i, per state s. */
struct sm_step {
	double le[2];                  /* emission, over the larger's */
	double alpha[2], beta[2], c;   /* scaled, and the scale */
	double gamma[2], xi[4];        /* posteriors: the state's, the step into i's ([s * 2 + s']) */
	double p[2][2], e;             /* the transition into i at this pass's rates, its e^(-(a+b) dt) */
};

/* The integral over [0, T] of f(s) g(T - s), f = c1 + d1 e^(-l s) and g = c2 + d2
 * e^(-l s) (a transition probability's form), given E = e^(-l T), F = (1 - E) / l. */
static double sm_conv(double c1, double d1, double c2, double d2, double T, double E, double F)
{
	return c1 * c2 * T + (c1 * d2 + d1 * c2) * F + d1 * d2 * T * E;
}

/* The expected switches out of each state, k, and time in each, e, at these rates: between
 * observations dt apart, the chain's expectations given both ends' states, so a pause between
 * processes holds as many switches as the rates make likely, not one at most. With P(s) = pi +
 * (I - pi) e^(-(a+b) s), the time in 0 from i to j is the integral of P_i0(s) P_0j(dt - s) over
 * P_ij(dt), the switches 0 to 1 a times that of P_i0(s) P_1j(dt - s). ends: the expected runs of
 * repetitions ending in each state (one at most between two). cached: w's e are at these rates. */
static void sm_counts(const struct ic_sm *m, const struct sm_step *w, const double rate[2], int cached,
		      double k[2], double e[2], double ends[2])
{
	double a = rate[0], b = rate[1], l = a + b, pi[2] = { b / l, a / l };

	k[0] = k[1] = e[0] = e[1] = ends[0] = ends[1] = 0.0;
	for (size_t i = 1; i < m->n; i++) {
		double dt = fmax(m->obs[i].t - m->obs[i - 1].t, 0.0);
		double E = cached ? w[i].e : exp(-l * dt), F = l > 0.0 ? -expm1(-l * dt) / l : dt;
		const double *x = w[i].xi;
		double tot = x[0] + x[1] + x[2] + x[3];

		if (!(tot > 0.0))
			continue;
		ends[0] += x[1] / tot;
		ends[1] += x[2] / tot;
		for (int u = 0; u < 2; u++)
			for (int v = 0; v < 2; v++) {
				/* P_uk(s) = pi_k + D(u, k) e^(-l s). */
#define SM_D(r, c) ((double)((r) == (c)) - pi[c])
				double wt = x[2 * u + v] / tot, puv = pi[v] + SM_D(u, v) * E, t0, j01, j10;

				if (!(wt > 0.0))
					continue;
				if (!(puv > 1e-300) || !(l > 0.0)) {
					/* Degenerate: one switch where the ends differ, half the
					 * time to each side. */
					t0 = dt * (u + v == 0 ? 1.0 : u + v == 1 ? 0.5 : 0.0);
					j01 = u == 0 && v == 1;
					j10 = u == 1 && v == 0;
				} else {
					t0 = sm_conv(pi[0], SM_D(u, 0), pi[v], SM_D(0, v), dt, E, F) / puv;
					j01 = a * sm_conv(pi[0], SM_D(u, 0), pi[v], SM_D(1, v), dt, E, F) / puv;
					j10 = b * sm_conv(pi[1], SM_D(u, 1), pi[v], SM_D(0, v), dt, E, F) / puv;
				}
#undef SM_D
				t0 = fmin(fmax(t0, 0.0), dt);
				k[0] += wt * j01;
				k[1] += wt * j10;
				e[0] += wt * t0;
				e[1] += wt * (dt - t0);
			}
	}
}

/* One two-state fit from the starting mu, sigma and rate (changed in place); its log-likelihood. */
static double sm_em2(const struct ic_sm *m, struct sm_step *w, double *mu, double *sigma, double rate[2])
{
	size_t n = m->n, ns = m->nsites;
	double ll = -INFINITY, prev;
	/* One block: num and den per state and N, snum, sden and log sigma per N. */
	double *num = ic_stats_alloc(7 * ns, sizeof(*num)), *den = num + 2 * ns, *snum = den + 2 * ns;
	double *sden = snum + ns, *lsig = sden + ns;

	for (int it = 0; it < SM_MAX_ITER; it++) {
		double pi1 = rate[0] / (rate[0] + rate[1]), k[2], e[2], ends[2];

		prev = ll;
		for (size_t j = 0; j < ns; j++)   /* once a pass, not once an observation */
			lsig[j] = log(sigma[j]);
		/* Forward, scaled; emissions relative to their larger. */
		ll = 0.0;
		for (size_t i = 0; i < n; i++) {
			const struct ic_sm_obs *o = &m->obs[i];
			struct sm_step *x = &w[i];
			double l[2], a[2], top;

			for (int s = 0; s < 2; s++)
				l[s] = sm_logpdf_ls(o->y, mu[s * ns + o->site], sigma[o->site], lsig[o->site]);
			top = fmax(l[0], l[1]);
			if (i)
				x->e = sm_trans(rate, fmax(o->t - m->obs[i - 1].t, 0.0), x->p);
			for (int s = 0; s < 2; s++) {
				/* (exp(0) is 1 exactly: the larger's costs nothing) */
				double em = x->le[s] = l[s] == top ? 1.0 : exp(l[s] - top);

				a[s] = (i ? x[-1].alpha[0] * x->p[0][s] + x[-1].alpha[1] * x->p[1][s]
					  : s ? pi1 : 1.0 - pi1) * em;
			}
			x->c = a[0] + a[1] > 0.0 ? a[0] + a[1] : 1e-300;
			x->alpha[0] = a[0] / x->c;
			x->alpha[1] = a[1] / x->c;
			ll += log(x->c) + top;
		}
		if (it > 0 && fabs(ll - prev) < SM_TOL * (double)n)
			break;
		/* Backward, at the forward pass's transitions. */
		w[n - 1].beta[0] = w[n - 1].beta[1] = 1.0;
		for (size_t i = n - 1; i-- > 0;) {
			struct sm_step *x = &w[i], *y = &w[i + 1];
			double eb[2];

			for (int s = 0; s < 2; s++)
				eb[s] = y->le[s] * y->beta[s] / y->c;
			for (int s = 0; s < 2; s++) {
				x->beta[s] = y->p[s][0] * eb[0] + y->p[s][1] * eb[1];
				for (int s2 = 0; s2 < 2; s2++)
					y->xi[2 * s + s2] = x->alpha[s] * y->p[s][s2] * eb[s2];
			}
		}
		/* The posteriors, and the levels and the noise: t's weighted means (ECM). */
		memset(num, 0, 6 * ns * sizeof(*num));
		for (size_t i = 0; i < n; i++) {
			const struct ic_sm_obs *o = &m->obs[i];
			struct sm_step *x = &w[i];
			double g0 = x->alpha[0] * x->beta[0], g1 = x->alpha[1] * x->beta[1];
			double tot = g0 + g1 > 0.0 ? g0 + g1 : 1.0;

			for (int s = 0; s < 2; s++) {
				double g = x->gamma[s] = (s ? g1 : g0) / tot;
				double u = sm_weight(o->y, mu[s * ns + o->site], sigma[o->site]);
				double r = o->y - mu[s * ns + o->site];

				num[s * ns + o->site] += g * u * o->y;
				den[s * ns + o->site] += g * u;
				snum[o->site] += g * u * r * r;
				sden[o->site] += g;
			}
		}
		for (size_t j = 0; j < 2 * ns; j++)   /* per state and N */
			if (den[j] > 1e-12)
				mu[j] = num[j] / den[j];
		for (size_t j = 0; j < ns; j++)
			if (sden[j] > 0.0)
				sigma[j] = fmax(sqrt(snum[j] / sden[j]), SM_MIN_SIGMA);
		/* Rates: switches over time spent (the exact EM step of a chain seen at discrete times). */
		sm_counts(m, w, rate, 1, k, e, ends);
		for (int s = 0; s < 2; s++)
			rate[s] = fmax(e[s] > 0.0 ? k[s] / e[s] : SM_MIN_RATE, SM_MIN_RATE);
	}
	free(num);
	return ll;
}

/* The q quantile and MAD-scale of the observations at the j-th N. */
static void sm_site_stats(const struct ic_sm *m, size_t j, double *buf, double q0, double q1, double *lo,
			  double *hi, double *scale)
{
	size_t k = 0;

	for (size_t i = 0; i < m->n; i++)
		if (m->obs[i].site == j)
			buf[k++] = m->obs[i].y;
	if (!k) {
		*lo = *hi = 0.0;
		*scale = 1.0;
		return;
	}
	gsl_sort(buf, 1, k);
	*lo = gsl_stats_quantile_from_sorted_data(buf, 1, k, q0);
	*hi = gsl_stats_quantile_from_sorted_data(buf, 1, k, q1);
	/* Half the spread: two states share it. */
	*scale = fmax(gsl_stats_mad(buf, 1, k, buf + k) / 2.0, SM_MIN_SIGMA);
}

/* The one-state fit: t location and scale per N from the median and twice the start's scale
 * (buf sm_site_stats'); its log-likelihood. */
static double sm_em1(const struct ic_sm *m, double *buf)
{
	double ll = 0.0;

	for (size_t j = 0; j < m->nsites; j++) {
		double mu, sigma;

		sm_site_stats(m, j, buf, 0.5, 0.5, &mu, &mu, &sigma);
		sigma *= 2.0;
		for (int it = 0; it < SM_MAX_ITER; it++) {
			double num = 0.0, den = 0.0, snum = 0.0, cnt = 0.0, old = mu;

			for (size_t i = 0; i < m->n; i++) {
				const struct ic_sm_obs *o = &m->obs[i];
				double u;

				if (o->site != j)
					continue;
				u = sm_weight(o->y, mu, sigma);
				num += u * o->y;
				den += u;
				snum += u * (o->y - mu) * (o->y - mu);
				cnt += 1.0;
			}
			if (!(den > 0.0))
				break;
			mu = num / den;
			sigma = fmax(sqrt(snum / cnt), SM_MIN_SIGMA);
			if (fabs(mu - old) < 1e-10 && it > 2)
				break;
		}
		for (size_t i = 0; i < m->n; i++)
			if (m->obs[i].site == j)
				ll += sm_logpdf_ls(m->obs[i].y, mu, sigma, log(sigma));
	}
	return ll;
}

/* A start for states held per process (spells of minutes, processes of seconds): the processes'
 * mean log ratios about each N's median, split where the sorted means leave the least within-group
 * sum of squares, each group's mean per N its level. 0, or -1 with fewer than two processes. */
static int sm_start_processes(const struct ic_sm *m, double *mu, double *sigma, double *buf)
{
	size_t ns = m->nsites, np = m->nproc, k = 0, best_k = 0;
	/* One block: c per N, den per state and N, then lev, cnt and srt per process. */
	double *c = ic_stats_alloc(3 * ns + 3 * np, sizeof(*c)), *den = c + ns, *lev = den + 2 * ns;
	double *cnt = lev + np, *srt = cnt + np, best = INFINITY, cut, ss = 0.0;

	for (size_t j = 0; j < ns; j++)   /* (sigma is set below) */
		sm_site_stats(m, j, buf, 0.5, 0.5, &c[j], &c[j], &sigma[j]);
	for (size_t i = 0; i < m->n; i++) {
		lev[m->obs[i].proc] += m->obs[i].y - c[m->obs[i].site];
		cnt[m->obs[i].proc] += 1.0;
	}
	for (size_t p = 0; p < np; p++)
		if (cnt[p] > 0.0)
			srt[k++] = lev[p] /= cnt[p];
	if (k < 2) {
		free(c);
		return -1;
	}
	gsl_sort(srt, 1, k);
	for (size_t s = 1; s < k; s++) {
		double a, b, w = ic_stats_cut(srt, k, s, &a, &b);

		if (w < best) {
			best = w;
			best_k = s;
		}
	}
	cut = 0.5 * (srt[best_k - 1] + srt[best_k]);
	memset(mu, 0, 2 * ns * sizeof(*mu));
	for (size_t i = 0; i < m->n; i++) {
		size_t at = (lev[m->obs[i].proc] > cut) * ns + m->obs[i].site;

		mu[at] += m->obs[i].y;
		den[at] += 1.0;
	}
	for (size_t j = 0; j < 2 * ns; j++)   /* each group's mean per N its level */
		mu[j] = den[j] > 0.0 ? mu[j] / den[j] : c[j % ns];
	for (size_t i = 0; i < m->n; i++) {
		double r = m->obs[i].y - mu[(lev[m->obs[i].proc] > cut) * ns + m->obs[i].site];

		ss += r * r;
	}
	for (size_t j = 0; j < ns; j++)
		sigma[j] = fmax(sqrt(ss / (double)m->n), SM_MIN_SIGMA);
	free(c);
	return 0;
}

void ic_sm_free(struct ic_sm *m)
{
	free(m->obs);
	free(m->mu);   /* and sigma and post in its block */
	memset(m, 0, sizeof(*m));
}

int ic_sm_state(const struct ic_sm *m, size_t i)
{
	return m->nstates < 2 || m->post[i] <= 1.0 - IC_SM_FIRM ? 0 : m->post[i] >= IC_SM_FIRM ? 1 : -1;
}

/* chi-square's q quantile: GSL's inversion fails to converge past some thousands of df (many switches
 * in a flickering fit), so there Wilson and Hilferty's cube-root normal one, to parts in a million. */
static double sm_chisq_inv(double q, double nu)
{
	double h = 2.0 / (9.0 * nu);

	return nu <= 1000.0 ? gsl_cdf_chisq_Pinv(q, nu)
			    : nu * pow(1.0 - h + gsl_cdf_ugaussian_Pinv(q) * sqrt(h), 3.0);
}

/* Garwood's bound at quantile q (below or above half) of a rate of k events (a Poisson count's,
 * here an expected one) in exposure e; under half an event, 0. */
static double sm_rate_bound(double k, double e, double q)
{
	if (!(e > 0.0))
		return q < 0.5 ? 0.0 : INFINITY;
	if (q < 0.5)
		return k >= 0.5 ? sm_chisq_inv(q, 2.0 * k) / (2.0 * e) : 0.0;
	return sm_chisq_inv(q, 2.0 * k + 2.0) / (2.0 * e);
}

/* From the posteriors: occupancy, switches, separation, intervals, rule (BIC by both log-likelihoods). */
static void sm_summarise(struct ic_sm *m, const struct sm_step *w, double loglik2, double loglik1)
{
	size_t ns = m->nsites;
	double k[2], e[2], ends[2], occ[2] = { 0, 0 }, q_lo[2], q_hi[2], run[2], bic_gain;
	double occ_min = fmax(IC_SM_MIN_OCC, IC_SM_MIN_SHARE * (double)m->n);

	for (size_t i = 0; i < m->n; i++) {
		m->post[i] = w[i].gamma[1];
		occ[0] += w[i].gamma[0];
		occ[1] += w[i].gamma[1];
	}
	sm_counts(m, w, m->rate, 0, k, e, ends);
	for (int s = 0; s < 2; s++) {
		/* Switches in pauses are inferred, not seen: the interval counts those between neighbours only
		 * (the same rate over the exposure they imply), so pauses widen it rather than narrow it. */
		double kk = fmin(k[s], ends[s]), ee = k[s] > 0.0 ? e[s] * kk / k[s] : e[s];
		double rate_lo = sm_rate_bound(kk, ee, 0.025), rate_hi = sm_rate_bound(kk, ee, 0.975);

		m->switches[s] = k[s];
		m->spell[s] = 1.0 / m->rate[s];
		m->spell_lo[s] = 1.0 / rate_hi;
		m->spell_hi[s] = rate_lo > 0.0 ? 1.0 / rate_lo : INFINITY;
		q_lo[s] = sm_rate_bound(kk, ee, 0.0125);
		q_hi[s] = sm_rate_bound(kk, ee, 0.9875);
		run[s] = occ[s] / fmax(ends[s], 1.0);
	}
	/* The point: the time seen in state 1 (the chain's a / (a + b) is the same where both come and
	 * go, meaningless where one is never left). Its interval pairs the ends of the two rates' 97.5%
	 * intervals (a low with b high, and back): both hold together with chance >= 95% (Bonferroni).
	 * (84% ends held the planted share in simulation but promised only 0.84^2, 71%.) */
	m->share = e[0] + e[1] > 0.0 ? e[1] / (e[0] + e[1]) : NAN;
	m->share_lo = fmin(q_lo[0] / (q_lo[0] + q_hi[1]), m->share);
	m->share_hi = fmax(q_hi[0] / (q_hi[0] + q_lo[1]), m->share);
	m->sep = 0.0;
	for (size_t j = 0; j < ns; j++) {
		double d = fabs(m->mu[ns + j] - m->mu[j]) / m->sigma[j];

		if (d > m->sep) {
			m->sep = d;
			m->sep_site = j;
		}
	}
	bic_gain = loglik2 - loglik1 - 0.5 * (double)(ns + 2) * log((double)m->n);
	m->why = occ[0] < occ_min || occ[1] < occ_min             ? IC_SM_SMALL_STATE
	       : m->sep < IC_SM_SEPARATION                         ? IC_SM_CLOSE
	       : run[0] < IC_SM_MIN_RUN || run[1] < IC_SM_MIN_RUN ? IC_SM_FLICKER
	       : bic_gain <= 0.0                                   ? IC_SM_BIC
								   : IC_SM_TWO;
	m->nstates = m->why == IC_SM_TWO ? 2 : 1;
}

int ic_sm_fit(struct ic_sm *m, const struct ic_sm_obs *obs, size_t n, size_t nsites, size_t nproc)
{
	static const double start[][2] = { { 0.25, 0.75 }, { 0.1, 0.9 }, { 0.4, 0.95 }, { 0.05, 0.6 } };
	size_t ns = nsites;
	struct sm_step *w;
	double *mu, *sigma, *buf, best = -INFINITY, span, lo = 0.0, hi = 0.0, loglik2;

	*m = (struct ic_sm){ .n = n, .nsites = ns, .nproc = nproc, .nstates = 1, .why = IC_SM_TOO_FEW };
	m->obs = ic_stats_alloc(n, sizeof(*obs));
	if (n)
		memcpy(m->obs, obs, n * sizeof(*obs));
	qsort(m->obs, n, sizeof(*obs), sm_cmp_t);
	if (n < IC_SM_MIN_OBS || !ns)
		return 0;
	/* Blocks: kept mu, sigma, post; work mu, sigma, then 2n of buf (a site's values, gsl_stats_mad's). */
	m->mu = ic_stats_alloc(3 * ns + n, sizeof(double));
	m->sigma = m->mu + 2 * ns;
	m->post = m->sigma + ns;
	mu = ic_stats_alloc(3 * ns + 2 * n, sizeof(double));
	sigma = mu + 2 * ns;
	buf = sigma + ns;
	w = ic_stats_alloc(n, sizeof(*w));
	span = fmax(m->obs[n - 1].t - m->obs[0].t, 1e-3);
	/* Several starts, the best kept (EM finds a local optimum): quantiles per N, last a process split. */
	for (size_t k = 0; k <= sizeof(start) / sizeof(start[0]); k++) {
		double rate[2] = { 20.0 / span, 20.0 / span }, ll;

		if (k < sizeof(start) / sizeof(start[0])) {
			for (size_t j = 0; j < ns; j++)
				sm_site_stats(m, j, buf, start[k][0], start[k][1], &mu[j], &mu[ns + j], &sigma[j]);
		} else if (sm_start_processes(m, mu, sigma, buf)) {
			break;
		}
		ll = sm_em2(m, w, mu, sigma, rate);
		if (ll > best) {
			best = ll;
			memcpy(m->mu, mu, 2 * ns * sizeof(*mu));
			memcpy(m->sigma, sigma, ns * sizeof(*sigma));
			memcpy(m->rate, rate, sizeof(rate));
		}
	}
	/* Again from the best, for its posteriors; state 0 the lower. */
	for (size_t j = 0; j < ns; j++) {
		lo += m->mu[j];
		hi += m->mu[ns + j];
	}
	if (lo > hi) {
		memcpy(mu, m->mu + ns, ns * sizeof(*mu));
		memcpy(mu + ns, m->mu, ns * sizeof(*mu));
		memcpy(m->mu, mu, 2 * ns * sizeof(*mu));
		memcpy(m->rate, (double[2]){ m->rate[1], m->rate[0] }, sizeof(m->rate));
	}
	loglik2 = sm_em2(m, w, m->mu, m->sigma, m->rate);
	sm_summarise(m, w, loglik2, sm_em1(m, buf));
	free(mu);
	free(w);
	return 0;
}

size_t ic_sm_draws(const struct ic_sm *m, int s, size_t j, double *draw)
{
	size_t ns = m->nsites, k = 0;
	/* One block: weights, then weighted sums, per process and N. */
	double *sw = ic_stats_alloc(2 * m->nproc * ns, sizeof(double)), *sy = sw + m->nproc * ns;

	for (size_t i = 0; m->post && i < m->n; i++) {   /* (no fit: no weight, no draw) */
		const struct ic_sm_obs *o = &m->obs[i];
		double g = m->nstates < 2 ? 1.0 : s ? m->post[i] : 1.0 - m->post[i];

		if (j != (size_t)-1 && o->site != j)
			continue;
		sw[o->proc * ns + o->site] += g;
		sy[o->proc * ns + o->site] += g * o->y;
	}
	for (size_t p = 0; p < m->nproc; p++) {
		double tw = 0.0, sum = 0.0, nsum = 0.0;

		for (size_t q = 0; q < ns; q++) {
			tw += sw[p * ns + q];
			if (sw[p * ns + q] >= 1.0) {
				sum += sy[p * ns + q] / sw[p * ns + q];
				nsum += 1.0;
			}
		}
		if (tw >= 2.0 && nsum > 0.0)
			draw[k++] = sum / nsum;
	}
	free(sw);
	return k;
}

double ic_sm_level(const struct ic_sm *m, int s, size_t j, double *lo, double *hi, size_t *nproc)
{
	double *draw = ic_stats_alloc(m->nproc, sizeof(double)), mean;
	size_t k = *nproc = ic_sm_draws(m, s, j, draw);

	*lo = *hi = NAN;
	mean = k ? gsl_stats_mean(draw, 1, k) : NAN;
	if (k >= 2) {
		double se = gsl_stats_sd(draw, 1, k) / sqrt((double)k);
		double t = gsl_cdf_tdist_Qinv(0.025, (double)(k - 1));

		*lo = exp(mean - t * se);
		*hi = exp(mean + t * se);
	}
	free(draw);
	return exp(mean);
}

int ic_sm_proc_switches(const struct ic_sm *m, size_t p, double share[2])
{
	int seen[2] = { 0, 0 }, cur = -2;
	size_t run = 0, n = 0, k[2] = { 0, 0 };

	for (size_t i = 0; i < m->n; i++) {
		int s;

		if (m->obs[i].proc != p)
			continue;
		s = ic_sm_state(m, i);   /* 0 with one state: no switch */
		n++;
		run = s == cur ? run + 1 : 1;
		cur = s;
		if (s >= 0)
			k[s]++;
		if (s >= 0 && run >= (size_t)IC_SM_MIN_RUN)
			seen[s] = 1;
	}
	for (int s = 0; share && s < 2; s++)
		share[s] = n ? (double)k[s] / (double)n : NAN;
	return seen[0] && seen[1];
}
