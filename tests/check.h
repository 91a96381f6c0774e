/* Test helpers: exit 0 pass, 1 fail, 77 skip (CTest SKIP_RETURN_CODE). */
#ifndef IC_TEST_CHECK_H
#define IC_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

/* By path, not by include directory: every test target includes this. */
#include "../common/splitmix64.h"

#define IC_TEST_SKIP 77

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		exit(1); \
	} \
} while (0)

/* Deterministic PRNG for fixed-seed tests: splitmix64. The state stays
 * unsigned long long (the tests' type; uint64_t is unsigned long here), so
 * the step is spelled out rather than passing it as a uint64_t *. */
_Static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "64-bit unsigned long long");
static inline unsigned long long ic_test_rand(unsigned long long *s)
{
	*s += IC_SPLITMIX64_GAMMA;
	return ic_mix64(*s);
}

#endif
