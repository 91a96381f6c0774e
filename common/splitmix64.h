/* splitmix64: Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014
 * (doi:10.1145/2714064.2660195), with a fixed increment as in S. Vigna's splitmix64.c. One copy: a
 * change here changes every user's outputs for the same seeds. */
#ifndef IC_SPLITMIX64_H
#define IC_SPLITMIX64_H

#include <stdint.h>

/* The state's increment: 2^64 / golden ratio, odd. */
#define IC_SPLITMIX64_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* The finaliser: a bijection mixing every input bit into every output bit. */
static inline uint64_t ic_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* One step: advance the state by the gamma, return its mix. */
static inline uint64_t ic_splitmix64_next(uint64_t *state)
{
	return ic_mix64(*state += IC_SPLITMIX64_GAMMA);
}

#endif
