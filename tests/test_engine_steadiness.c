/* engine/steadiness.h against figures computed without it: the reference
 * values below are what tests/steadiness_reference.py prints (textbook
 * definitions in plain python3, chi-square by its closed form for an even
 * df; no GSL, no code of the engine). */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "steadiness.h"

#define N(a) (sizeof(a) / sizeof(*(a)))

/* Relative agreement, or absolute near 0. */
static int near(double got, double want, double tol)
{
	return fabs(got - want) <= tol * (fabs(want) > 1e-3 ? fabs(want) : 1e-3);
}

/* mean, q, p, tau, tau_lo, tau_hi */
static void check_het(const char *name, const double *y, const double *se, size_t k, const double *want)
{
	struct ic_steady h;

	CHECK(ic_steady_test(y, se, k, IC_STEADY_MARGIN, &h) == 0, "%s: refused", name);
	{
		const double g[6] = { h.mean, h.q, h.p, h.tau, h.tau_lo, h.tau_hi };
		static const char *const what[6] = { "mean", "Q", "p", "tau", "tau_lo", "tau_hi" };

		for (int i = 0; i < 6; i++)
			CHECK(near(g[i], want[i], 1e-6) || (i == 2 && fabs(g[i] - want[i]) < 1e-15),
			      "%s: %s %.12g, want %.12g", name, what[i], g[i], want[i]);
	}
	CHECK(h.k == k && h.df == (double)(k - 1), "%s: k %zu df %g", name, h.k, h.df);
}

static double gauss(unsigned long long *rng)
{
	double u = ((double)(ic_test_rand(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(ic_test_rand(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* The mean of rho over draws of one AR(1) series of 64 and twelve of 3
 * (the watch's long process and short ones), each about its own level. */
static double rho_mean(double rho, int draws, unsigned long long *rng)
{
	struct ic_ar1_unit u[13];
	double sum = 0.0, x[64];

	for (int d = 0; d < draws; d++) {
		for (size_t p = 0; p < 13; p++) {
			size_t n = p ? 3 : 64;
			double m = 0.0, lvl = 5.0 * gauss(rng);

			x[0] = gauss(rng);
			for (size_t t = 1; t < n; t++)
				x[t] = rho * x[t - 1] + sqrt(1.0 - rho * rho) * gauss(rng);
			for (size_t t = 0; t < n; t++)
				m += (x[t] + lvl) / (double)n;
			u[p] = (struct ic_ar1_unit){ n, 0.0, 0.0 };
			for (size_t t = 0; t < n; t++) {
				u[p].s0 += (x[t] + lvl - m) * (x[t] + lvl - m);
				if (t)
					u[p].s1 += (x[t] + lvl - m) * (x[t - 1] + lvl - m);
			}
		}
		sum += ic_steady_ar1_rho(u, 13);
	}
	return sum / draws;
}

/* What AR(1) at rho makes s1 over n on average, from its covariance:
 * s1 = x' A x with A the centred neighbours' form, E = tr(A Sigma). */
static double s1_direct(size_t n, double rho)
{
	double e = 0.0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double a = 0.0;

			/* (x_t - m)(x_{t+1} - m) summed, as sum a_ij x_i x_j. */
			for (size_t t = 0; t + 1 < n; t++)
				a += ((i == t) - 1.0 / n) * ((j == t + 1) - 1.0 / n);
			e += a * pow(rho, fabs((double)i - (double)j));
		}
	return e;
}

int main(void)
{
	/* Seven units that vary. */
	static const double ay[] = { 0.10, 0.35, 0.22, 0.61, 0.05, 0.48, 0.30 };
	static const double ase[] = { 0.05, 0.08, 0.04, 0.10, 0.06, 0.05, 0.07 };
	static const double aw[] = { 0.259025676641, 56.6901021595, 2.11078747204e-10, 0.169528431756,
				     0.106465861904, 0.433747657435 };
	/* Seven that do not beyond their noise. */
	static const double by[] = { 0.010, -0.004, 0.006, 0.000, -0.008, 0.003, 0.001 };
	static const double bse[] = { 0.006, 0.007, 0.005, 0.006, 0.008, 0.006, 0.007 };
	static const double bw[] = { 0.00230781480343, 4.85723506687, 0.562250062751, 0, 0, 0.0113462915353 };
	/* Eleven drifting in time: 0.002 per s plus a little. */
	static const double ct[] = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
	static const double cd[] = { 0.03, -0.02, 0.01, 0.0, -0.03, 0.02, 0.01, -0.01, 0.02, -0.02, 0.0 };
	static const double cw[] = { 0.100909090909, 436.909090909, 1.29305761496e-87, 0.0653382805795,
				     0.0450889592463, 0.115567686497 };
	/* A slope over twelve units in time order. */
	static const double dx[] = { 0.1, 0.3, 0.2, 0.5, 0.7, 0.6, 0.9, 0.8, 1.1, 1.0, 1.3, 1.2 };
	static const double dy[] = { 0.05, 0.21, 0.12, 0.31, 0.36, 0.33, 0.52, 0.41, 0.60, 0.58, 0.63, 0.70 };
	double cy[N(ct)], cse[N(ct)], share;
	struct ic_steady h;
	struct ic_slope s;

	check_het("A", ay, ase, N(ay), aw);
	check_het("B", by, bse, N(by), bw);
	for (size_t i = 0; i < N(ct); i++) {
		cy[i] = 0.002 * ct[i] + cd[i];
		cse[i] = 0.01;
	}
	check_het("C", cy, cse, N(cy), cw);

	/* The equivalence: B's upper bound, 0.0113, times 1.645 is inside
	 * log(1.05); A's 0.43 is not; and a margin below B's bound refuses it. */
	ic_steady_test(by, bse, N(by), IC_STEADY_MARGIN, &h);
	CHECK(h.steady, "B not steady: tau_hi %g", h.tau_hi);
	ic_steady_test(by, bse, N(by), 1.6 * 0.0113462915353, &h);
	CHECK(!h.steady, "B steady at a margin 1.6 tau_hi (needs 1.645)");
	ic_steady_test(by, bse, N(by), 1.7 * 0.0113462915353, &h);
	CHECK(h.steady, "B not steady at a margin 1.7 tau_hi");
	ic_steady_test(ay, ase, N(ay), IC_STEADY_MARGIN, &h);
	CHECK(!h.steady, "A steady");

	/* The drift share: a line takes away 93% of C's tau^2. */
	ic_steady_test(cy, cse, N(cy), IC_STEADY_MARGIN, &h);
	share = ic_steady_trend_share(cy, cse, ct, N(cy), &h);
	CHECK(near(share, 0.929727427598, 1e-6), "trend share %.12g", share);
	ic_steady_test(by, bse, N(by), IC_STEADY_MARGIN, &h);
	CHECK(isnan(ic_steady_trend_share(by, bse, ct, N(by), &h)), "a trend share with tau 0");

	/* The slope, Newey-West's SE (lag 2 at 12 units), t(10) = 2.228139. */
	CHECK(ic_slope_fit(dx, dy, N(dx), &s) == 0, "slope refused");
	CHECK(near(s.b, 0.5210449927431059, 1e-9) && near(s.se, 0.01844681872117764, 1e-9) &&
	      near(s.r2, 0.9714795671773511, 1e-9) && s.lag == 2, "slope %.12g se %.12g r2 %.12g lag %zu",
	      s.b, s.se, s.r2, s.lag);
	CHECK(near(s.lo, s.b - 2.228139 * s.se, 1e-6) && near(s.hi, s.b + 2.228139 * s.se, 1e-6),
	      "slope interval %g-%g", s.lo, s.hi);

	/* With the covariance: its diagonal case is the test as it was. */
	{
		double v[N(ay) * N(ay)] = { 0 };
		struct ic_steady g;

		for (size_t i = 0; i < N(ay); i++)
			v[i * N(ay) + i] = ase[i] * ase[i];
		CHECK(ic_steady_test_cov(ay, v, N(ay), IC_STEADY_MARGIN, &g) == 0, "cov refused");
		ic_steady_test(ay, ase, N(ay), IC_STEADY_MARGIN, &h);
		CHECK(near(g.mean, h.mean, 1e-9) && near(g.q, h.q, 1e-9) && near(g.tau, h.tau, 1e-9) &&
		      near(g.tau_lo, h.tau_lo, 1e-6) && near(g.tau_hi, h.tau_hi, 1e-6),
		      "diagonal covariance: tau %g-%g, want %g-%g", g.tau_lo, g.tau_hi, h.tau_lo, h.tau_hi);
		/* Units that share their noise vary less by it: the same spread
		 * is more beyond it, and the bound cannot fall. */
		for (size_t i = 0; i + 1 < N(ay); i++)
			v[i * N(ay) + i + 1] = v[(i + 1) * N(ay) + i] = 0.5 * ase[i] * ase[i + 1];
		CHECK(ic_steady_test_cov(ay, v, N(ay), IC_STEADY_MARGIN, &g) == 0 && g.tau > h.tau &&
			      g.tau_hi >= h.tau_hi,
		      "positively correlated noise: tau %g (to %g), independent %g (to %g)", g.tau, g.tau_hi, h.tau,
		      h.tau_hi);
		v[1] = 2.0;
		v[N(ay)] = 2.0;
		CHECK(ic_steady_test_cov(ay, v, N(ay), IC_STEADY_MARGIN, &g) == -1, "not positive definite accepted");
	}

	/* AR(1): the mean's variance, 3 at 0.8 (3 + 2 (2 0.8 + 0.64)) / 9; the
	 * spread about the own mean; the lag-one products against the
	 * covariance; two means' covariance; and rho recovered over units. */
	CHECK(near(ic_steady_ar1_mean_var(3, 0.8), 7.48 / 9.0, 1e-12) && near(ic_steady_ar1_mean_var(5, 0.0), 0.2, 1e-12),
	      "mean var %g", ic_steady_ar1_mean_var(3, 0.8));
	CHECK(near(ic_steady_ar1_s0(4, 0.0), 3.0, 1e-12) && near(ic_steady_ar1_s0(3, 0.8), 3.0 - 7.48 / 3.0, 1e-12),
	      "s0 %g", ic_steady_ar1_s0(3, 0.8));
	for (size_t n = 2; n <= 9; n++)
		for (double r = 0.0; r < 0.95; r += 0.15)
			CHECK(near(ic_steady_ar1_s1(n, r), s1_direct(n, r), 1e-9), "s1 at %zu, %g: %g, want %g",
			      n, r, ic_steady_ar1_s1(n, r), s1_direct(n, r));
	CHECK(near(ic_steady_ar1_cov(0, 2, 2, 2, 0.5), (0.25 + 0.125 + 0.5 + 0.25) / 4.0, 1e-12),
	      "cov %g", ic_steady_ar1_cov(0, 2, 2, 2, 0.5));
	CHECK(near(ic_steady_ar1_rho_lags(1.0, 1.5), 0.5, 1e-12) && ic_steady_ar1_rho_lags(1.0, 0.8) == 0.0 &&
	      ic_steady_ar1_rho_lags(1.0, 3.0) == IC_STEADY_RHO_MAX && ic_steady_ar1_rho_lags(0.0, 1.0) == 0.0,
	      "rho from lags");
	{
		unsigned long long rng = 7;
		double m0 = rho_mean(0.0, 300, &rng), m3 = rho_mean(0.3, 300, &rng), m6 = rho_mean(0.6, 300, &rng);

		/* At 0 the estimate is cut at 0, so its mean sits a little above. */
		CHECK(m0 < 0.06 && fabs(m3 - 0.3) < 0.04 && fabs(m6 - 0.6) < 0.04, "rho recovered: %g %g %g",
		      m0, m3, m6);
	}

	/* Refusals: too few units, a standard error of 0, no spread in x. */
	CHECK(ic_steady_test(ay, ase, 2, IC_STEADY_MARGIN, &h) == -1 && !h.steady, "two units tested");
	{
		const double z[] = { 0.01, 0.0, 0.02 };

		CHECK(ic_steady_test(ay, z, 3, IC_STEADY_MARGIN, &h) == -1, "se 0 accepted");
	}
	CHECK(ic_slope_fit(cse, dy, N(cse), &s) == -1, "a slope on a constant x");
	return 0;
}
