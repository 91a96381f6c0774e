/* engine/decision.c: the bracket rule on series whose answer is known,
 * including a step-shaped curve, a crossover at the first or last N (one
 * resolved point is enough: the band holds the family-wise error) and
 * alternating sides, which must not produce a crossover. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "series.h"

#define NPTS 15   /* N = 1, 2, 4, ..., 16384 */

/* Each point from a letter: c = compare resolved ahead (band below 1),
 * b = baseline resolved ahead, u = unresolved (band contains 1). */
static size_t series(struct ic_ratio_point *p, const char *sides)
{
	size_t n = strlen(sides);

	for (size_t i = 0; i < n; i++) {
		double r = sides[i] == 'c' ? 0.9 : sides[i] == 'b' ? 1.7 : 1.01;

		p[i] = (struct ic_ratio_point){ (double)(1u << i), r, r - 0.05, r + 0.05 };
	}
	return n;
}

static struct ic_crossover find(const char *sides)
{
	struct ic_ratio_point p[32];
	struct ic_crossover xo;
	size_t n = series(p, sides);

	ic_crossover_find(p, n, &xo);
	return xo;
}

static void test_step(void)
{
	/* The Zen 5 shape: inline ahead at N = 1..4, then a step to 1.7x from
	 * N = 8, with N = 8 itself not resolved. */
	struct ic_crossover xo = find("cccubbbbbbbbbbb");

	CHECK(xo.verdict == IC_VERDICT_CROSSOVER, "step: verdict %s", ic_verdict_name(xo.verdict));
	CHECK(xo.direction == 1, "step: compare wins at small N");
	CHECK(xo.bracket_lo == 4.0 && xo.bracket_hi == 16.0, "step: bracket (%g, %g), want (4, 16)",
	      xo.bracket_lo, xo.bracket_hi);
	CHECK(xo.n_compare == 3 && xo.n_baseline == 11 && xo.n_unresolved == 1, "step: counts");
	/* Without the unresolved point the bracket is the two neighbours. */
	xo = find("ccccbbbbbbbbbbb");
	CHECK(xo.bracket_lo == 8.0 && xo.bracket_hi == 16.0, "sharp step: (%g, %g)", xo.bracket_lo,
	      xo.bracket_hi);
	/* The other direction: the baseline wins at small N. */
	xo = find("bbuuuuuuuuucccc");
	CHECK(xo.verdict == IC_VERDICT_CROSSOVER && xo.direction == -1, "reverse step");
	CHECK(xo.bracket_lo == 2.0 && xo.bracket_hi == 2048.0, "reverse: (%g, %g)", xo.bracket_lo,
	      xo.bracket_hi);
}

static void test_end_points(void)
{
	/* The first N alone resolved for the compare form, the rest for the
	 * baseline: a crossover at the low end, bracket (1, 8). */
	struct ic_crossover xo = find("cuubbbbbbbbbbbb");

	CHECK(xo.verdict == IC_VERDICT_CROSSOVER && xo.direction == 1, "first N: verdict %s",
	      ic_verdict_name(xo.verdict));
	CHECK(xo.bracket_lo == 1.0 && xo.bracket_hi == 8.0, "first N: (%g, %g)", xo.bracket_lo,
	      xo.bracket_hi);
	/* The last N alone resolved the other way: a crossover at the high end. */
	xo = find("ccccccccccccccb");
	CHECK(xo.verdict == IC_VERDICT_CROSSOVER && xo.bracket_lo == 8192.0 &&
	      xo.bracket_hi == 16384.0, "last N: %s (%g, %g)", ic_verdict_name(xo.verdict),
	      xo.bracket_lo, xo.bracket_hi);
	/* A single resolved point is a one-sided answer at that N. */
	xo = find("uuuuuuubuuuuuuu");
	CHECK(xo.verdict == IC_VERDICT_BASELINE_WINS, "one point: %s", ic_verdict_name(xo.verdict));
	/* One point on either side, far apart: still one switch, a crossover. */
	xo = find("cuuuuuuuuuuuuub");
	CHECK(xo.verdict == IC_VERDICT_CROSSOVER && xo.bracket_lo == 1.0 && xo.bracket_hi == 16384.0,
	      "ends: %s", ic_verdict_name(xo.verdict));
}

static void test_conflict(void)
{
	/* Sides that alternate are not a crossover, whatever the majority. */
	struct ic_crossover xo = find("ccbbccbbbbbbbbb");

	CHECK(xo.verdict == IC_VERDICT_CONFLICT, "alternating: %s", ic_verdict_name(xo.verdict));
	CHECK(xo.switches == 3, "alternating: %zu switches", xo.switches);
	CHECK(xo.direction == 0 && isnan(xo.bracket_lo), "alternating: no direction, no bracket");
	/* Two switches are already a conflict: back to the first side. */
	xo = find("ccbbbuuuucccccc");
	CHECK(xo.verdict == IC_VERDICT_CONFLICT && xo.switches == 2 && isnan(xo.bracket_lo),
	      "there and back: %s, %zu switches", ic_verdict_name(xo.verdict), xo.switches);
}

static void test_one_sided(void)
{
	struct ic_crossover xo = find("uucccccccccccuu");

	CHECK(xo.verdict == IC_VERDICT_COMPARE_WINS, "compare only: %s", ic_verdict_name(xo.verdict));
	CHECK(xo.direction == 1 && isnan(xo.bracket_lo), "compare only: no bracket");
	xo = find("uuuuuuuuuuuuuuu");
	CHECK(xo.verdict == IC_VERDICT_UNRESOLVED && xo.n_unresolved == NPTS, "nothing resolved");
	xo = find("");
	CHECK(xo.verdict == IC_VERDICT_UNRESOLVED, "no points");
}

static void test_side_edges(void)
{
	/* A band touching 1 is unresolved; NAN bands are unresolved. */
	struct ic_ratio_point p = { 8, 0.95, 0.9, 1.0 };

	CHECK(ic_ratio_point_side(&p) == IC_SIDE_UNRESOLVED, "hi == 1 is unresolved");
	p = (struct ic_ratio_point){ 8, 0.95, 0.9, 0.999 };
	CHECK(ic_ratio_point_side(&p) == IC_SIDE_COMPARE, "hi < 1 is compare");
	p = (struct ic_ratio_point){ 8, NAN, NAN, NAN };
	CHECK(ic_ratio_point_side(&p) == IC_SIDE_UNRESOLVED, "NAN is unresolved");
}

/* The N to measure next: rounded geometric midpoints of neighbouring N in
 * the bracket, only where one falls strictly between them. */
static void test_midpoints(void)
{
	static const unsigned long pow2[] = { 1, 2, 4, 8, 16, 32 }, close[] = { 8, 9 }, odd[] = { 1, 3 };
	unsigned long out[8];
	size_t n;

	/* sqrt(8) = 2.83, sqrt(32) = 5.66, sqrt(128) = 11.31 */
	n = ic_crossover_midpoints(pow2, 6, 2, 16, out);
	CHECK(n == 3 && out[0] == 3 && out[1] == 6 && out[2] == 11, "(2, 16): %zu mids", n);
	/* A bracket end that was not measured: from the first N inside it. */
	n = ic_crossover_midpoints(pow2, 6, 3, 8, out);
	CHECK(n == 1 && out[0] == 6, "(3, 8): %zu mids", n);
	/* sqrt(72) = 8.49 rounds to 8: nothing strictly between 8 and 9. */
	CHECK(ic_crossover_midpoints(close, 2, 8, 9, out) == 0, "8 and 9 have no midpoint");
	/* sqrt(3) = 1.73 rounds to 2. */
	n = ic_crossover_midpoints(odd, 2, 1, 3, out);
	CHECK(n == 1 && out[0] == 2, "(1, 3): %zu mids", n);
	CHECK(ic_crossover_midpoints(pow2, 6, 64, 128, out) == 0, "a bracket past the measured N");
}

int main(void)
{
	test_step();
	test_end_points();
	test_conflict();
	test_one_sided();
	test_side_edges();
	test_midpoints();
	puts("engine crossover: ok");
	return 0;
}
