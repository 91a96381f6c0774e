/* common/cache_pass: the first N whose footprint passes a cache size, and
 * where its bytes per site reach it; equal is not past, unmeasured N never
 * pass. */
#include <math.h>

#include "cache_pass.h"
#include "check.h"

int main(void)
{
	/* The default chain's inline footprints on Zen 5 (about 186 B a site). */
	const struct ic_footprint chain[] = {
		{ 1, 320 }, { 64, 12096 }, { 128, 23968 }, { 256, 47616 }, { 512, 95104 },
	};
	const struct ic_footprint gap[] = { { 1, 100 }, { 2, NAN }, { 4, 400 } };
	const struct ic_footprint exact[] = { { 1, 1024 }, { 2, 2048 } };
	double at = 0;
	long i;

	i = ic_cache_pass(chain, 5, 32768, &at);
	CHECK(i == 3, "chain passes 32 KiB at index %ld, not 3 (N = 256)", i);
	CHECK(fabs(at - 32768 / (47616 / 256.0)) < 1e-9 && (long)(at + 0.5) == 176,
	      "N at which it reaches 32 KiB: %g, not 176.2", at);
	i = ic_cache_pass(chain, 5, 1048576, &at);
	CHECK(i == -1 && isnan(at), "chain within 1 MiB: index %ld, at %g", i, at);
	i = ic_cache_pass(chain, 5, 100, NULL);
	CHECK(i == 0, "a size below the first footprint: index %ld, not 0", i);
	i = ic_cache_pass(exact, 2, 1024, &at);
	CHECK(i == 1 && at == 1, "1024 B is not past 1024 B: index %ld, at %g", i, at);
	i = ic_cache_pass(gap, 3, 150, &at);
	CHECK(i == 2 && at == 1.5, "an unmeasured N does not pass: index %ld, at %g", i, at);
	i = ic_cache_pass(chain, 0, 0, &at);
	CHECK(i == -1 && isnan(at), "no footprints: index %ld", i);
	puts("cache_pass: ok");
	return 0;
}
