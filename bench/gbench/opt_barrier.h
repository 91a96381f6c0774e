/* Optimisation barriers for timed loops, used instead of ad-hoc volatile.
 *
 * Each is an empty asm statement: it emits no instruction, it only limits
 * what the compiler may assume, so it costs at most the register moves needed
 * to satisfy it. (GNU C; valid C11 with extensions and C++.)
 *
 * icb_sink_u64(v), icb_sink_ptr(p)
 *	v (or p) is an input of an asm the compiler cannot see into ("r": it must
 *	sit in a register at that point), so the computation producing it cannot
 *	be dropped or sunk out of the loop. Only the value is used: stores
 *	through p are not kept alive by sinking p. Lighter than Google
 *	Benchmark's DoNotOptimize, which also clobbers memory.
 *
 * icb_launder_u64(v)
 *	v goes through the asm as a read-write operand ("+r"), so the compiler
 *	must assume the result differs from v: constants stop folding and
 *	loop-invariant work stops being hoisted.
 *
 * icb_clobber_memory()
 *	A compiler-only memory barrier ("memory" clobber): every store before it
 *	is assumed read, and every load after it reloaded. No fence instruction;
 *	the CPU may still reorder.
 */
#ifndef ICB_OPT_BARRIER_H
#define ICB_OPT_BARRIER_H

#include <stdint.h>

#define ICB_BARRIER_INLINE static inline __attribute__((always_inline))

ICB_BARRIER_INLINE void icb_sink_u64(uint64_t v)
{
	__asm__ volatile("" : : "r"(v));
}

ICB_BARRIER_INLINE void icb_sink_ptr(const void *p)
{
	__asm__ volatile("" : : "r"(p));
}

ICB_BARRIER_INLINE uint64_t icb_launder_u64(uint64_t v)
{
	__asm__ volatile("" : "+r"(v));
	return v;
}

ICB_BARRIER_INLINE void icb_clobber_memory(void)
{
	__asm__ volatile("" : : : "memory");
}

#undef ICB_BARRIER_INLINE

#endif /* ICB_OPT_BARRIER_H */
