/* A header's static inline, copied into both files of a program: the
 * census must count one function, not one per file (test_inlines_files.sh). */
#ifndef IC_TWOFILE_H
#define IC_TWOFILE_H

#include <stdint.h>

/* Forced, so that every call is a copy: three in twofile_a.c, two in
 * twofile_b.c. Each call's own constant keeps the copies apart. */
static inline __attribute__((always_inline)) uint64_t ic_twofile_mix(uint64_t x, uint64_t k)
{
	x ^= x >> 31;
	x *= k;
	x ^= x >> 29;
	return x + k;
}

uint64_t ic_twofile_a(uint64_t x);
uint64_t ic_twofile_b(uint64_t x);

#endif
