/* ic_process_split: processes in two clusters at one N are found (the N,
 * the clusters' sizes and levels); one cluster with noise, normal or with
 * heavy tails, is not, nor two clusters whose levels differ by under 5%,
 * nor a pair of outliers (a cluster needs three). Fixed seeds. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "series.h"

#define NP 16
#define NS 3

static unsigned long sites[NS] = { 1, 8, 64 };
static double logr[NS * NP];

static struct ic_process_ratios prs(void)
{
	struct ic_process_ratios pr;

	memset(&pr, 0, sizeof(pr));
	pr.nproc = NP;
	pr.nsites = NS;
	pr.sites = sites;
	pr.logr = logr;
	return pr;
}

/* A normal draw (Box-Muller) from the tests' PRNG. */
static double gauss(unsigned long long *s)
{
	double u = ((double)(ic_test_rand(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(ic_test_rand(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

int main(void)
{
	unsigned long long s = 42;
	struct ic_process_ratios pr = prs();
	struct ic_split sp;
	int flagged = 0;

	/* N = 8: 7 processes near 1.0 and 9 near 1.6, 2% noise; the others one cluster. */
	for (size_t p = 0; p < NP; p++) {
		logr[0 * NP + p] = log(0.9) + 0.02 * gauss(&s);
		logr[1 * NP + p] = (p < 7 ? 0.0 : log(1.6)) + 0.02 * gauss(&s);
		logr[2 * NP + p] = log(1.2) + 0.02 * gauss(&s);
	}
	CHECK(ic_process_split(&pr, &sp), "the two clusters at N = 8 not found");
	CHECK(sp.sites == 8 && sp.n[0] == 7 && sp.n[1] == 9, "N %lu, %zu and %zu", sp.sites, sp.n[0], sp.n[1]);
	CHECK(fabs(sp.level[0] - 1.0) < 0.03 && fabs(sp.level[1] - 1.6) < 0.05, "levels %g %g", sp.level[0],
	      sp.level[1]);
	/* One cluster: 2000 series of normal, then t(3)-like, noise. */
	for (int law = 0; law < 2; law++)
		for (int trial = 0; trial < 1000; trial++) {
			for (size_t i = 0; i < NS * NP; i++) {
				double z = gauss(&s);

				if (law) {   /* t with 3 df: z over the root of a chi-square/3 */
					double c = 0.0;

					for (int k = 0; k < 3; k++) {
						double g = gauss(&s);

						c += g * g;
					}
					z /= sqrt(c / 3.0);
				}
				logr[i] = 0.05 * z;
			}
			flagged += ic_process_split(&pr, &sp);
		}
	/* Three N per series: about 3 in 1000 series by the simulation's rate. */
	CHECK(flagged <= 20, "%d of 2000 one-cluster series split", flagged);
	/* Two tight clusters 3% apart: real, but too small to name. */
	for (size_t p = 0; p < NP; p++)
		for (size_t i = 0; i < NS; i++)
			logr[i * NP + p] = (p < 8 ? 0.0 : log(1.03)) + 0.001 * gauss(&s);
	CHECK(!ic_process_split(&pr, &sp), "a 3%% split named (%g, %g)", sp.level[0], sp.level[1]);
	/* Two outliers at 1.6 beside 14 at 1.0: no cluster of two. */
	for (size_t p = 0; p < NP; p++)
		for (size_t i = 0; i < NS; i++)
			logr[i * NP + p] = (p < 14 ? 0.0 : log(1.6)) + 0.02 * gauss(&s);
	CHECK(!ic_process_split(&pr, &sp), "two outliers named a cluster");
	printf("ok: the split found; %d of 2000 one-cluster series split\n", flagged);
	return 0;
}
