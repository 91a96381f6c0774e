/* Spinlocks behind the locked queue operations, chosen at configure time (CMake IC_LOCK=tas|ticket
 * defines IC_LOCK_TICKET for the ticket lock). Ordering, for both locks: taking the lock is an
 * acquire operation and dropping it a release store. Everything the holder writes inside the
 * critical section happens-before the release, and the next holder's acquire synchronises-with that
 * release, so it sees those writes; no access inside can move above the acquire or below the
 * release. Nothing stronger (seq_cst) is needed, and on x86 the release is a plain store, as in the
 * 2004 kernel. */
#ifndef IC_LOCK_H
#define IC_LOCK_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>

/* x86-64 line size; bench/ records the real one from hwloc in its context. */
#define IC_CACHE_LINE 64

#define IC_ALWAYS_INLINE static inline __attribute__((always_inline))

/* Spin-wait hint: `pause` on x86, as the kernel's spin loop of 2004 used. */
IC_ALWAYS_INLINE void ic_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

#ifndef IC_LOCK_TICKET
/* Test-and-test-and-set: one exchange when free, then spin on plain loads (the line stays
 * shared, not bounced) until it looks free again. */
#define IC_LOCK_NAME "tas"
struct ic_lock {
	alignas(IC_CACHE_LINE) atomic_uint word;   /* own cache line */
};

IC_ALWAYS_INLINE void ic_lock_init(struct ic_lock *l)
{
	atomic_init(&l->word, 0);
}

IC_ALWAYS_INLINE void ic_lock_acquire(struct ic_lock *l)
{
	while (atomic_exchange_explicit(&l->word, 1, memory_order_acquire))
		while (atomic_load_explicit(&l->word, memory_order_relaxed))
			ic_cpu_relax();
}

IC_ALWAYS_INLINE void ic_lock_release(struct ic_lock *l)
{
	atomic_store_explicit(&l->word, 0, memory_order_release);
}
#else
/* Ticket lock: FIFO fairness, one fetch-add to take a ticket. */
#define IC_LOCK_NAME "ticket"
struct ic_lock {
	alignas(IC_CACHE_LINE) atomic_uint next;   /* own cache line, with owner */
	atomic_uint owner;
};

IC_ALWAYS_INLINE void ic_lock_init(struct ic_lock *l)
{
	atomic_init(&l->next, 0);
	atomic_init(&l->owner, 0);
}

IC_ALWAYS_INLINE void ic_lock_acquire(struct ic_lock *l)
{
	unsigned me = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
	while (atomic_load_explicit(&l->owner, memory_order_acquire) != me)
		ic_cpu_relax();
}

IC_ALWAYS_INLINE void ic_lock_release(struct ic_lock *l)
{
	/* Only the holder writes owner, so a relaxed read of it is exact. */
	unsigned o = atomic_load_explicit(&l->owner, memory_order_relaxed);
	atomic_store_explicit(&l->owner, o + 1, memory_order_release);
}
#endif

/* The nolock forms' acquire and release (queue_inline_nolock.h, queue_extern_nolock.h): a
 * compiler barrier and no instruction, so the list code is ordered as it is under the lock but
 * nothing is locked and the lock's line is not touched. Correct only for one thread on a queue
 * of its own: they exist to price the locked instruction apart from the list code. */
IC_ALWAYS_INLINE void ic_nolock_acquire(struct ic_lock *l)
{
	(void)l;
	atomic_signal_fence(memory_order_seq_cst);
}

IC_ALWAYS_INLINE void ic_nolock_release(struct ic_lock *l)
{
	(void)l;
	atomic_signal_fence(memory_order_seq_cst);
}

#endif /* IC_LOCK_H */
