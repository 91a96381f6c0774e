/* Test helpers: exit 0 pass, 1 fail, 77 skip (CTest SKIP_RETURN_CODE). */
#ifndef IC_TEST_CHECK_H
#define IC_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define IC_TEST_SKIP 77

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		exit(1); \
	} \
} while (0)

/* Deterministic PRNG for fixed-seed tests. */
static inline unsigned long long ic_test_rand(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
