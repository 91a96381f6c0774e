/* Optimisation barriers for timed loops, instead of ad-hoc volatile: each an empty
 * asm statement, no instruction, only a limit on what the compiler may assume,
 * costing at most the register moves that satisfy it (GNU C; C11 and C++). */
#ifndef ICB_OPT_BARRIER_H
#define ICB_OPT_BARRIER_H

#include <stdint.h>

#define ICB_BARRIER_INLINE static inline __attribute__((always_inline))

/* v (or p) is an input of an asm the compiler cannot see into ("r": in a register there), so
 * what computes it is neither dropped nor sunk out of the loop. Only the value (stores through
 * p are not kept): lighter than Google Benchmark's DoNotOptimize, which also clobbers memory. */
ICB_BARRIER_INLINE void icb_sink_u64(uint64_t v)
{
	__asm__ volatile("" : : "r"(v));
}

ICB_BARRIER_INLINE void icb_sink_ptr(const void *p)
{
	__asm__ volatile("" : : "r"(p));
}

/* v read-write ("+r"): assumed changed, so constants stop folding and invariants stop hoisting. */
ICB_BARRIER_INLINE uint64_t icb_launder_u64(uint64_t v)
{
	__asm__ volatile("" : "+r"(v));
	return v;
}

/* Compiler-only: stores before it assumed read, loads after reloaded; the CPU may reorder. */
ICB_BARRIER_INLINE void icb_clobber_memory(void)
{
	__asm__ volatile("" : : : "memory");
}

#undef ICB_BARRIER_INLINE

#endif /* ICB_OPT_BARRIER_H */
