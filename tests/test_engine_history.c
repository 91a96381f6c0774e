/* History's correction over the series (run_history.h): Holm's step-down
 * at IC_AGREE_ALPHA (0.05) on chosen joint p-values, worked by hand. */
#include <stddef.h>
#include <stdio.h>

#include "check.h"
#include "run_history.h"

struct holm_case {
	const char *why;
	double p[4];
	size_t m, want;
};

int main(void)
{
	static const struct holm_case c[] = {
		/* 0.01 <= 0.05/3, 0.02 <= 0.05/2, 0.04 <= 0.05: Holm takes all
		 * three where Bonferroni (0.0167 each) takes one. */
		{ "every step passes", { 0.01, 0.02, 0.04 }, 3, 3 },
		/* 0.03 > 0.05/2 stops it: 0.04 is not taken though <= 0.05;
		 * uncorrected, all three would differ. */
		{ "the first failure stops", { 0.01, 0.03, 0.04 }, 3, 1 },
		/* 0.02 > 0.05/3: nothing differs, though each p < 0.05. */
		{ "none at the first step", { 0.02, 0.03, 0.04 }, 3, 0 },
		/* At the level: <= passes. One series is its own family. */
		{ "one series at the level", { 0.05 }, 1, 1 },
		{ "one series past it", { 0.051 }, 1, 0 },
		/* 0.0125 <= 0.05/4, 0.0166 <= 0.05/3, 0.025 <= 0.05/2, 0.06 > 0.05. */
		{ "four, the last fails", { 0.0125, 0.0166, 0.025, 0.06 }, 4, 3 },
		{ "no series", { 0.0 }, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		size_t got = ic_history_ndiffer(c[i].p, c[i].m);

		CHECK(got == c[i].want, "%s: %zu differ, want %zu", c[i].why, got, c[i].want);
	}
	puts("engine history: ok");
	return 0;
}
